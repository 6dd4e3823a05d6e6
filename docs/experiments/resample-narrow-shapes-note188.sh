#!/bin/bash
# BENCHMARKS.md note 188 (session 80): float16 rows that note 185 put in 4x1 blocks, in 4x2 with note 186's odd-row
# words (base) against 4x1 (old41); then 16-bit NEAREST_NEIGHBOR rows that cannot store 4-element vectors (odd
# widths of random seeds 1-60, 20 MB+) in the order's shapes (base) against 4x2 (n42) and forward 8x2 / backward 2x2.
# Set-up here: apply docs/experiments/resample-nearest-odd-shapes-knobs-note188.patch to 8e5c788 (before note 188),
#   meson setup build-exp --buildtype=release -Dtests=false && ninja -C build-exp tools/dmlvk-bench
#   mkdir -p .gl/k88 && cp build-exp/tools/dmlvk-bench .gl/k88/ && cp tools/bench_*.py docs/experiments/$(basename $0) .gl/
# Device: bash .gl/resample-narrow-shapes-note188.sh with carry [".gl"] (about 9 minutes).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-570}))
left() { echo $((END - $(date +%s))); }
A=rnd030_bilinear_grad_f16_2x166x197x9_166x8,rnd131_bilinear_grad_f16_12x91x197x9_122x5,rnd059_bilinear_grad_f16_19x470x256x23_91x7,rnd062_bilinear_grad_f16_2x49x256x21_128x11,rnd104_bilinear_grad_f16_2x332x197x9_70x3,rnd032_bilinear_grad_f16_23x140x304x15_215x6,rnd142_bilinear_grad_f16_15x19x362x15_189x14,rnd037_bilinear_grad_f16_29x279x45x11_21x5,rnd085_bilinear_grad_f16_11x152x128x17_70x9,rnd024_bilinear_grad_f16_15x140x235x17_103x4,rnd183_bilinear_grad_f16_1x256x470x13_450x12,rnd112_bilinear_grad_f16_6x431x83x11_83x11,rnd081_bilinear_grad_f16_2x512x108x15_54x8,rnd151_bilinear_grad_f16_29x140x32x21_12x8,rnd035_bilinear_grad_f16_12x64x45x21_11x5,bilinear_grad_f16_29x215x215x19_394x35
N=nearest_grad_f16_23x152x470x41_152x13,nearest_f16_23x152x152x13_470x41
N=$N,rnd142_nearest_f16_19x6x332x35_861x91,rnd073_nearest_f16_17x91x140x41_83x23,rnd059_nearest_grad_f16_8x35x332x117_166x31,rnd062_nearest_bf16_29x197x83x25_25x7,rnd164_nearest_f16_4x45x279x83_412x123,rnd008_nearest_bf16_23x117x27x27_67x67,rnd127_nearest_f16_32x8x470x35_1167x35,rnd169_nearest_grad_f16_4x362x395x17_318x14,rnd002_nearest_bf16_23x362x25x64_13x33,rnd174_nearest_grad_bf16_15x54x470x41_189x14,rnd107_nearest_f16_19x215x32x108_10x123,rnd124_nearest_f16_32x152x41x64_32x49,rnd102_nearest_grad_f16_5x279x32x197_112x90,rnd160_nearest_f16_1x279x235x152_292x189,rnd091_nearest_bf16_2x332x235x140_103x61,rnd152_nearest_grad_f16_15x99x332x29_318x28,rnd128_nearest_bf16_27x235x25x99_23x91,rnd140_nearest_grad_bf16_5x140x395x45_512x58,rnd153_nearest_f16_3x166x117x470_86x159,rnd167_nearest_bf16_17x117x41x362_18x159,rnd007_nearest_grad_bf16_2x235x45x197_133x582,rnd151_nearest_grad_f16_27x512x23x49_35x56,rnd161_nearest_grad_f16_13x166x395x35_292x26,rnd028_nearest_bf16_13x332x91x70_83x67,rnd000_nearest_bf16_19x181x197x49_215x33,rnd101_nearest_f16_13x59x197x128_361x173,rnd159_nearest_grad_f16_6x29x512x83_1512x245,rnd148_nearest_grad_f16_16x332x166x25_304x46,rnd167_nearest_grad_bf16_2x256x128x197_332x635
timeout $(left) python3 .gl/bench_variants.py .gl/k88/dmlvk-bench --passes 2 --out $OUT/note188a.json base: \
    old41:DMLVK_EXP_OLD41=1 -- --shape $A --op-only --iterations 20 2>/dev/null
echo "== $(left) s left"
timeout $(left) python3 .gl/bench_variants.py .gl/k88/dmlvk-bench --passes 2 --out $OUT/note188b.json base: \
    n42:DMLVK_EXP_NEAREST_FWD=4x2,DMLVK_EXP_NEAREST_BWD=4x2 n82:DMLVK_EXP_NEAREST_FWD=8x2,DMLVK_EXP_NEAREST_BWD=2x2 \
    -- --shape $N --op-only --iterations 20 2>/dev/null
echo "== done, $(left) s left"
