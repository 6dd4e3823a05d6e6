#!/bin/bash
# BENCHMARKS.md note 189 (session 80), run 49: float32 NEAREST_NEIGHBOR gathers onto rows that cannot store 4-element
# vectors in note 188's 16-bit pair rules (f1: forward 8x2 where the rows grow, else 4x2, where they shrink at most 2x;
# backward 4x2 in windows of at most 7 rows) and in f2 (forward 4x2 only, backward 4x2 in any window), against the
# order's shapes (base): the sweep's two odd float32 nearest rows and 10 such rows of random seeds 1-60 (20 MB+).
# Set-up here: apply docs/experiments/resample-f32-nearest-pairs-knobs-note189.patch to 65ada1b (note 188),
#   meson setup build-exp --buildtype=release -Dtests=false && ninja -C build-exp tools/dmlvk-bench
#   mkdir -p .gl/k89 && cp build-exp/tools/dmlvk-bench .gl/k89/ && cp tools/bench_*.py docs/experiments/$(basename $0) .gl/
# Device: bash .gl/resample-f32-nearest-pairs-note189.sh with carry [".gl"] (about 3 minutes).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-170}))
left() { echo $((END - $(date +%s))); }
F=nearest_f32_4x64x97x131_200x261,nearest_grad_f32_4x64x97x131_200x260,rnd030_nearest_grad_f32_9x6x35x431_91x1118,rnd106_nearest_f32_2x128x25x431_65x235,rnd078_nearest_f32_3x13x181x256_636x235,rnd004_nearest_grad_f32_10x512x12x117_3x94,rnd092_nearest_f32_12x332x83x10_318x5,rnd129_nearest_f32_13x16x181x108_362x95,rnd056_nearest_f32_12x395x128x10_140x11,rnd168_nearest_f32_7x128x181x70_47x95,rnd022_nearest_grad_f32_25x470x16x41_20x51,rnd038_nearest_f32_12x395x29x41_30x111
timeout $(left) python3 .gl/bench_variants.py .gl/k89/dmlvk-bench --passes 2 --out $OUT/note189.json base: \
    f1:DMLVK_EXP_F32_NEAREST=1 f2:DMLVK_EXP_F32_NEAREST=2 -- --shape $F --op-only --iterations 20 2>/dev/null
echo "== done, $(left) s left"
