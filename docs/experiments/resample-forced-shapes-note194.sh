#!/bin/bash
# BENCHMARKS.md note 194, prepared in session 81 and not run (the device time was spent): a map of forced block
# shapes on 16-bit LINEAR forward rows that store vectors, whose shape rules all date from the H100 (notes 36, 111,
# 129, 134; note 192 found the bfloat16 backward rule of the same age stale on the H200). Knob DMLVK_EXP_SHAPE=BYxBX
# (docs/experiments/resample-forced-shapes-knobs-note194.patch: the block gather takes that shape wherever it fits,
# any type and direction, else the rules). Rows: 26 float16 and bfloat16 NCHW forward rows of random seeds 4-39 of
# 16 MB+ whose committed shape stores vectors (10 in 8x4, 7 in 4x4, 7 in 2x4, 2 in 1x4). Any rule found here wants
# held-out rows (seeds 41+) before it is committed.
# Set-up here: apply the patch to 7f733c4 (note 192) or later,
#   meson setup build-exp --buildtype=release -Dtests=false && ninja -C build-exp tools/dmlvk-bench
#   mkdir -p .gl/k94 && cp build-exp/tools/dmlvk-bench .gl/k94/ && cp tools/bench_*.py docs/experiments/$(basename $0) .gl/
#   and ../shared/tools/gpu-vulkan-debs. Device: bash .gl/$(basename $0) with carry [".gl"] (about 8 minutes).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-540}))
left() { echo $((END - $(date +%s))); }
Q=rnd031_bilinear_f16_6x362x431x15_1025x36,rnd165_bilinear_f16_1x54x431x304_1273x692,rnd102_bilinear_bf16_29x70x11x197_32x692,rnd148_bilinear_bf16_32x152x108x12_396x44,rnd050_bilinear_f16_19x431x128x19_225x40,rnd011_bilinear_bf16_10x166x13x304_52x1216,rnd183_bilinear_bf16_4x128x362x99_693x128,rnd181_bilinear_f16_4x49x304x256_860x724,rnd133_bilinear_bf16_5x332x59x91_207x320,rnd017_bilinear_bf16_4x256x41x256_106x664,rnd036_bilinear_f16_7x304x128x117_152x448,rnd103_bilinear_f16_3x470x99x256_113x292,rnd054_bilinear_f16_29x29x45x181_76x304,rnd003_bilinear_bf16_10x21x362x152_412x412,rnd173_bilinear_f16_23x17x152x279_94x724,rnd155_bilinear_bf16_29x17x181x140_206x396,rnd037_bilinear_f16_2x279x197x256_234x304,rnd167_bilinear_bf16_4x256x235x59_181x40,rnd176_bilinear_bf16_23x181x19x470_12x900,rnd035_bilinear_f16_1x362x279x304_412x152,rnd170_bilinear_f16_32x470x8x197_5x112,rnd103_bilinear_bf16_25x91x152x64_224x32,rnd160_bilinear_f16_10x256x431x35_134x80,rnd092_bilinear_f16_4x91x256x362_215x304,rnd118_bilinear_bf16_16x59x181x470_54x140,rnd190_bilinear_f16_32x21x70x470_19x128
timeout $(left) python3 .gl/bench_variants.py .gl/k94/dmlvk-bench --passes 2 --out $OUT/note194.json base: \
    s8x4:DMLVK_EXP_SHAPE=8x4 s4x4:DMLVK_EXP_SHAPE=4x4 s2x4:DMLVK_EXP_SHAPE=2x4 -- --shape $Q --op-only --iterations 20 2>/dev/null
echo "== done, $(left) s left"
