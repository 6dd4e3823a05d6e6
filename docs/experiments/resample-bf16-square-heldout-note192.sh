#!/bin/bash
# BENCHMARKS.md note 192, held-out rows (session 81): bfloat16 LINEAR backward in float16's 4x4 (DMLVK_EXP_BF16=1 of
# docs/experiments/resample-bf16-square-knobs-note192.patch) against the committed 2x4, on 24 bfloat16 NCHW backward
# rows of random seeds 41-108 (16 MB+) whose plan the knob changes (all store vectors in 4x4), 5 rows that scale the
# columns 3x (4x4 without vector stores, as the sweep's 2x3x, which ran 16.8% slower in 4x4), and the two presets.
# Device: bash .gl/$(basename $0) with carry [".gl"] (.gl/k92 as for resample-bf16-square-note192.sh; about 5 minutes).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-420}))
left() { echo $((END - $(date +%s))); }
H=rnd134_bilinear_grad_bf16_29x279x140x140_38x235,rnd181_bilinear_grad_bf16_25x362x29x152_17x87,rnd133_bilinear_grad_bf16_15x6x395x304_724x279,rnd114_bilinear_grad_bf16_19x215x59x304_59x304,rnd149_bilinear_grad_bf16_21x470x59x64_24x123,rnd175_bilinear_grad_bf16_5x16x362x332_664x146,rnd162_bilinear_grad_bf16_3x41x512x512_159x159,rnd067_bilinear_grad_bf16_3x99x332x152_140x47,rnd160_bilinear_grad_bf16_1x362x395x304_256x159,rnd114_bilinear_grad_bf16_10x38x332x512_173x318,rnd180_bilinear_grad_bf16_3x70x235x512_152x332,rnd070_bilinear_grad_bf16_16x49x332x332_450x134,rnd067_bilinear_grad_bf16_29x54x181x256_140x152,rnd189_bilinear_grad_bf16_3x181x197x332_279x470,rnd141_bilinear_grad_bf16_7x215x395x64_267x43,rnd015_bilinear_grad_bf16_13x6x256x512_412x825,rnd171_bilinear_grad_bf16_6x23x512x152_304x117,rnd170_bilinear_grad_bf16_2x470x256x152_347x206,rnd081_bilinear_grad_bf16_3x99x512x152_1069x317,rnd018_bilinear_grad_bf16_25x152x21x140_21x128,rnd086_bilinear_grad_bf16_4x23x152x152_449x449,rnd187_bilinear_grad_bf16_17x76x166x108_292x190,rnd137_bilinear_grad_bf16_9x395x332x64_292x56,rnd059_bilinear_grad_bf16_2x140x362x76_332x70
V=bilinear_grad_bf16_16x64x96x96_192x288,bilinear_grad_bf16_8x64x128x64_256x192,bilinear_grad_bf16_8x64x64x64_192x192,bilinear_grad_bf16_8x64x100x100_200x300,bilinear_grad_bf16_16x32x64x64_96x192,bilinear_grad_bf16_32x64x128x128_192x192,bilinear_grad_bf16_32x64x128x128_256x256
timeout $(left) python3 .gl/bench_variants.py .gl/k92/dmlvk-bench --passes 2 --out $OUT/note192h.json base: \
    all:DMLVK_EXP_BF16=1 -- --shape $H,$V --op-only --iterations 20 2>/dev/null
echo "== done, $(left) s left"
