#!/bin/bash
# Session 92's fourth device call (carry [".gl"]; kits .gl/kpre92, .gl/k92b and .gl/k92c from
# `bash docs/experiments/device-kits.sh kpre92 k92b k92c`). BENCHMARKS.md note 215: the gather's rolled loops
# reading the line's own weights as line_y[i & 3u] in the select (k92c) against the branch (k92b) and the
# original out-of-bounds select (kpre92), on the presets and rows the branch moved.
. .gl/device-setup.sh
var() { local t=$1 out=$2 v=$3; shift 3; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -30; }
PASSES=2 var 75 and-gpu "pre:KIT=kpre92 branch:KIT=k92b and:KIT=k92c" --preset gpu --only roi_align_grad_7x7_f16,roi_align_grad_7x7_bf16,roi_align_grad_7x7_f32,roi_align_grad_14x14_f16 --iterations 30
PASSES=2 var 75 and-sweep "pre:KIT=kpre92 branch:KIT=k92b and:KIT=k92c" --preset sweep --only roi_align_grad_7x7_64_regions_tiny_map_f16,roi_align_grad_7x7_64_regions_tiny_map_bf16,same_shape_bf16,roi_align_grad_14x14_64_regions_tiny_map_f16,roi_align_grad_7x7_4096_regions_bf16 --iterations 30
for k in kpre92 k92c; do
    echo "== $k registers"; timeout 30 .gl/$k/dmlvk-bench --preset gpu --only roi_align_grad_7x7_f16 --stats --iterations 1 --op-only 2>&1 | grep -i -E "gather" | sort -u | cut -c1-200
done
