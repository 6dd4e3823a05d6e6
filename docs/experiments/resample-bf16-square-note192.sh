#!/bin/bash
# BENCHMARKS.md note 192 (session 81): bfloat16 LINEAR backward gathers in 4x4 blocks where the committed rule
# (BFLOAT16_SQUARE_ROWS_FROM: only windows of 11 rows or more, scales from about 2.25) keeps 2x4, on the H200, whose
# run 71 put the 1.5x bfloat16 preset at 63-65% of copy against float16's 78.5% (float16 takes 4x4 there).
# Knob DMLVK_EXP_BF16 of docs/experiments/resample-bf16-square-knobs-note192.patch: 1 every 4x4 that fits (float16's
# rule), 2 4x4 where it loads 2 elements in any window. Rows: the 1.5x and 2x presets (float16 beside them), the
# sweep's bfloat16 2.5x, 4x, 2x3x and 1.3x rows, and the bfloat16 NCHW upscale backward rows of random seeds 1-40 of
# 8 MB+ whose rows grow 1.05x-2.3x and whose written rows take 4-element stores (12 rows).
# Set-up here: apply the patch to 26f034c or later,
#   meson setup build-exp --buildtype=release -Dtests=false && ninja -C build-exp tools/dmlvk-bench
#   mkdir -p .gl/k92 && cp build-exp/tools/dmlvk-bench .gl/k92/ && cp tools/bench_*.py docs/experiments/$(basename $0) .gl/
#   and ../shared/tools/gpu-vulkan-debs. Device: bash .gl/$(basename $0) with carry [".gl"] (about 5 minutes).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-400}))
left() { echo $((END - $(date +%s))); }
Q=bilinear_grad_bf16_32x64x128x128_192x192,bilinear_grad_f16_32x64x128x128_192x192,bilinear_grad_bf16_32x64x128x128_256x256,bilinear_grad_f16_32x64x128x128_256x256,bilinear_grad_bf16_16x64x128x128_320x320,bilinear_grad_bf16_8x64x64x64_256x256,bilinear_grad_bf16_8x64x64x64_128x192,bilinear_grad_bf16_8x64x100x100_130x130,rnd115_bilinear_grad_bf16_2x117x332x304_470x79,rnd124_bilinear_grad_bf16_2x332x197x32_291x22,rnd191_bilinear_grad_bf16_8x140x21x152_31x256,rnd027_bilinear_grad_bf16_23x117x152x64_317x134,rnd027_bilinear_grad_bf16_4x29x256x512_318x535,rnd062_bilinear_grad_bf16_3x235x41x256_56x347,rnd021_bilinear_grad_bf16_7x38x332x512_664x1024,rnd166_bilinear_grad_bf16_5x152x197x140_279x198,rnd178_bilinear_grad_bf16_8x215x16x128_24x189,rnd027_bilinear_grad_bf16_7x64x152x304_197x394,rnd038_bilinear_grad_bf16_15x140x256x64_318x91,rnd177_bilinear_grad_bf16_32x45x91x256_104x181
timeout $(left) python3 .gl/bench_variants.py .gl/k92/dmlvk-bench --passes 2 --out $OUT/note192.json base: \
    all:DMLVK_EXP_BF16=1 pairs:DMLVK_EXP_BF16=2 -- --shape $Q --op-only --iterations 20 2>/dev/null
echo "== done, $(left) s left"
