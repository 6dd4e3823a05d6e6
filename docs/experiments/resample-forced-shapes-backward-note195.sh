#!/bin/bash
# BENCHMARKS.md note 195, prepared in session 81 and not run (the device time was spent): note 194's map of forced
# block shapes on LINEAR backward rows that store vectors, float32 (planned 2x4 or 4x4; notes 16, 64, 156, 158) and
# float16 (planned 4x4 or 2x4; notes 63, 64), whose rules date mostly from the H100 (note 192 found bfloat16's of
# that age stale on the H200). Same knob patch as note 194 (docs/experiments/resample-forced-shapes-knobs-note194.patch,
# DMLVK_EXP_SHAPE=BYxBX). Rows: 12 float32 and 12 float16 NCHW backward rows of random seeds 1-38 of 32-400 MB whose
# committed shape stores vectors. Any rule found here wants held-out rows (seeds 41+) before it is committed.
# Set-up: as note 194's script (.gl/k94). Device: bash .gl/$(basename $0) with carry [".gl"] (about 8 minutes).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-540}))
left() { echo $((END - $(date +%s))); }
Q=rnd093_bilinear_grad_f32_2x152x76x152_215x430,rnd049_bilinear_grad_f32_2x395x431x16_268x47,rnd141_bilinear_grad_f32_2x431x215x152_103x469,rnd085_bilinear_grad_f32_6x99x15x304_42x788,rnd178_bilinear_grad_f32_8x215x256x12_535x25,rnd087_bilinear_grad_f32_25x13x512x108_256x54,rnd155_bilinear_grad_f32_29x235x32x76_43x103,rnd178_bilinear_grad_f32_2x235x152x108_332x236,rnd149_bilinear_grad_f32_8x10x395x152_939x362,rnd135_bilinear_grad_f32_8x70x99x512_83x332,rnd191_bilinear_grad_f32_9x166x99x108_128x140,rnd034_bilinear_grad_f32_17x512x23x152_19x122,rnd046_bilinear_grad_f16_6x431x91x108_123x146,rnd125_bilinear_grad_f16_15x10x108x332_396x609,rnd160_bilinear_grad_f16_16x59x181x108_181x108,rnd159_bilinear_grad_f16_10x35x152x128_234x206,rnd134_bilinear_grad_f16_12x470x152x76_206x103,rnd169_bilinear_grad_f16_2x512x470x16_825x28,rnd149_bilinear_grad_f16_16x128x25x512_18x378,rnd019_bilinear_grad_f16_2x235x166x304_197x362,rnd143_bilinear_grad_f16_3x21x181x332_450x825,rnd190_bilinear_grad_f16_23x8x470x108_790x182,rnd160_bilinear_grad_f16_11x279x19x256_26x347,rnd091_bilinear_grad_f16_2x70x70x512_198x1328
timeout $(left) python3 .gl/bench_variants.py .gl/k94/dmlvk-bench --passes 2 --out $OUT/note195.json base: \
    s4x4:DMLVK_EXP_SHAPE=4x4 s2x4:DMLVK_EXP_SHAPE=2x4 s4x2:DMLVK_EXP_SHAPE=4x2 -- --shape $Q --op-only --iterations 20 2>/dev/null
echo "== done, $(left) s left"
