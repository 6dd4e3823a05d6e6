#!/bin/bash
# BENCHMARKS.md note 201, call 2: the placed samples' cost split (DMLVK_EXP_GEOM_STOP 31: the exact sum only,
# 32: and its value, 33: and its place; 3 adds the entry) and the lines stage alone (DMLVK_EXP_SKIP=3 leaves out
# dY's second half). Same knob build as call 1. Device: carry [".gl"].
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-400}))
left() { echo $((END - $(date +%s))); }
V="base: none:DMLVK_EXP_UPTO=0 g31:DMLVK_EXP_UPTO=1,DMLVK_EXP_GEOM_STOP=31 g32:DMLVK_EXP_UPTO=1,DMLVK_EXP_GEOM_STOP=32 g33:DMLVK_EXP_UPTO=1,DMLVK_EXP_GEOM_STOP=33 g3:DMLVK_EXP_UPTO=1,DMLVK_EXP_GEOM_STOP=3 geo:DMLVK_EXP_UPTO=1 lines:DMLVK_EXP_UPTO=3,DMLVK_EXP_SKIP=3 three:DMLVK_EXP_UPTO=3 four:DMLVK_EXP_UPTO=4"
B=.gl/kgeo/dmlvk-bench
timeout $(left) python3 .gl/bench_variants.py $B --passes 2 --out $OUT/geo2-s11.json $V -- --preset random --seed 11 --only rnd042 --op-only --iterations 50 2>/dev/null | tail -4
timeout $(left) python3 .gl/bench_variants.py $B --passes 2 --out $OUT/geo2-sweep.json $V -- --preset sweep --only roi_align_grad_7x7_64_regions_tiny_map_f32 --op-only --iterations 50 2>/dev/null | tail -4
echo "== done, $(left) s left"
