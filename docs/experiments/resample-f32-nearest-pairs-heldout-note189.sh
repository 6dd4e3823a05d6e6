#!/bin/bash
# BENCHMARKS.md note 189, prepared in session 80 and not run (the device time was spent): float32 NEAREST_NEIGHBOR
# forward gathers onto odd rows in 4x2 (knob 3 of docs/experiments/resample-f32-nearest-pairs-knobs-note189.patch,
# rows that shrink at most 2x, written rows of at least DMLVK_EXP_F32_COLS columns) against the order's shapes, on
# every width (COLS=1) to place the column limit: 1.5x upscales onto rows of 15 to 79 columns, then held out, every
# float32 nearest forward row of random seeds 61-90 of 16 MB+ onto odd rows that shrinks them at most 2x (15 rows).
# Set-up here: apply the patch to 65ada1b (note 188) or later,
#   meson setup build-exp --buildtype=release -Dtests=false && ninja -C build-exp tools/dmlvk-bench
#   mkdir -p .gl/k89 && cp build-exp/tools/dmlvk-bench .gl/k89/ && cp tools/bench_*.py docs/experiments/$(basename $0) .gl/
#   and ../shared/tools/gpu-vulkan-debs. Device: bash .gl/$(basename $0) with carry [".gl"] (about 3 minutes).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-240}))
left() { echo $((END - $(date +%s))); }
H=nearest_f32_8x128x100x10_150x15,nearest_f32_8x128x100x15_150x23,nearest_f32_8x128x100x20_150x31,nearest_f32_8x128x100x27_150x41,nearest_f32_8x128x100x31_150x47,nearest_f32_8x128x100x42_150x63,nearest_f32_8x128x100x52_150x79,rnd096_nearest_f32_15x512x49x21_33x37,rnd016_nearest_f32_10x197x332x70_395x83,rnd073_nearest_f32_8x10x235x108_332x153,rnd144_nearest_f32_9x256x117x140_128x153,rnd130_nearest_f32_9x21x279x304_1069x181,rnd147_nearest_f32_27x25x279x215_291x215,rnd190_nearest_f32_9x35x99x128_207x267,rnd163_nearest_f32_12x7x304x362_245x291,rnd056_nearest_f32_1x128x117x108_107x379,rnd125_nearest_f32_6x27x35x108_140x379,rnd040_nearest_f32_27x38x12x256_20x431,rnd095_nearest_f32_10x29x128x215_152x511,rnd024_nearest_f32_3x99x16x279_61x583,rnd017_nearest_f32_3x108x17x304_55x979,rnd085_nearest_f32_9x83x41x512_63x1579
timeout $(left) python3 .gl/bench_variants.py .gl/k89/dmlvk-bench --passes 2 --out $OUT/note189h.json base: \
    f3all:DMLVK_EXP_F32_NEAREST=3,DMLVK_EXP_F32_COLS=1 -- --shape $H --op-only --iterations 20 2>/dev/null
echo "== done, $(left) s left"
