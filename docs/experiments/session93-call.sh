#!/bin/bash
# Session 93's device call (carry [".gl"]; kits .gl/kpre93 and .gl/k93 from `bash docs/experiments/device-kits.sh
# kpre93 k93`): BENCHMARKS.md note 216, the geometry stage's modes from roi_align_params instead of specialization
# constants (4ab08ec against 93abe6b): every ROI row of the sweep, forward and backward, and the GPU preset's ROI
# rows, before and after, alternated; then the geometry's registers on a tiny-map row.
. .gl/device-setup.sh
var() { local t=$1 out=$2 v=$3; shift 3; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -70; }
PASSES=2 var 330 geometry-modes-sweep "pre:KIT=kpre93 new:KIT=k93" --preset sweep --only roi_align --iterations 30
PASSES=2 var 90 geometry-modes-gpu "pre:KIT=kpre93 new:KIT=k93" --preset gpu --only roi_align_grad --iterations 30
for k in kpre93 k93; do
    echo "== $k registers"; timeout 30 .gl/$k/dmlvk-bench --preset sweep --only roi_align_grad_7x7_64_regions_tiny_map_f32 --stats --iterations 1 --op-only 2>&1 | grep -i -E "geometry" | head -4
done
