#!/bin/bash
# BENCHMARKS.md note 201 (run in session 84): where the ROI geometry stage's fixed cost goes. Knob build of 3018b90 with
# docs/experiments/roi-geometry-stops-knobs-note201.patch: DMLVK_EXP_UPTO=N records only the first N dispatches,
# DMLVK_EXP_GEOM_STOP=K returns from roi_align_geometry after K (0 the batch index and a barrier, 1 the axes,
# 2 the searches, 3 the placed samples, 4 the written entries; 99 whole). Device: carry [".gl"].
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-500}))
left() { echo $((END - $(date +%s))); }
V="base: hoist:DMLVK_EXP_GEOM_HOIST=1 none:DMLVK_EXP_UPTO=0 g0:DMLVK_EXP_UPTO=1,DMLVK_EXP_GEOM_STOP=0 g1:DMLVK_EXP_UPTO=1,DMLVK_EXP_GEOM_STOP=1 g2:DMLVK_EXP_UPTO=1,DMLVK_EXP_GEOM_STOP=2 g3:DMLVK_EXP_UPTO=1,DMLVK_EXP_GEOM_STOP=3 g4:DMLVK_EXP_UPTO=1,DMLVK_EXP_GEOM_STOP=4 geo:DMLVK_EXP_UPTO=1 geohoist:DMLVK_EXP_UPTO=1,DMLVK_EXP_GEOM_HOIST=1 two:DMLVK_EXP_UPTO=2 three:DMLVK_EXP_UPTO=3"
B=.gl/kgeo/dmlvk-bench
timeout $(left) python3 .gl/bench_variants.py $B --passes 2 --out $OUT/geo-s11.json $V -- --preset random --seed 11 --only rnd042 --op-only --iterations 50 2>/dev/null | tail -16
timeout $(left) python3 .gl/bench_variants.py $B --passes 2 --out $OUT/geo-s12.json $V -- --preset random --seed 12 --only rnd034,rnd006 --op-only --iterations 50 2>/dev/null | tail -28
timeout $(left) python3 .gl/bench_variants.py $B --passes 2 --out $OUT/geo-sweep.json $V -- --preset sweep --only roi_align_grad_7x7_64_regions_tiny_map_f32 --op-only --iterations 50 2>/dev/null | tail -28
echo "== done, $(left) s left"
