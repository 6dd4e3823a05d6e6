#!/bin/bash
# Session 92's third device call (carry [".gl"]; kits .gl/kpre92, .gl/k92 and .gl/k92b from
# `bash docs/experiments/device-kits.sh kpre92 k92 k92b`, .gl/t92b: build/tests/test_roi_align of 053e2a9 with
# libcmocka.so.0 and libgmp.so.10 beside it). BENCHMARKS.md note 215: the reads behind discarded selects as
# branches (053e2a9) against the clamped indexes (c46199c) and the code before both (a702248), on the rows that
# moved in session92-call2.sh, and the geometry's and gather's registers.
. .gl/device-setup.sh
(cd .gl/t92b && DMLVK_TEST_VALIDATION=0 DMLVK_TEST_FILTER='test_gather_pooled_edge_lines,test_max_gather,test_exact_geometry' \
    LD_LIBRARY_PATH=. timeout 120 ./test_roi_align 2>&1 | grep -E "^\[|FAIL|worst" | tail -8)
var() { local t=$1 out=$2 v=$3; shift 3; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -30; }
PASSES=2 var 110 branches-sweep "pre:KIT=kpre92 clamp:KIT=k92 branch:KIT=k92b" --preset sweep --only tiny_map_f16,tiny_map_bf16,adaptive_tiny_map_f32,4096_regions_bf16,same_shape_bf16,1000_adaptive_small_map_f16,bilinear_grad_odd_f16 --iterations 30
PASSES=2 var 70 branches-gpu "pre:KIT=kpre92 clamp:KIT=k92 branch:KIT=k92b" --preset gpu --only roi_align_grad_7x7_adaptive,roi_align_grad_7x7_f16,roi_align_grad_7x7_bf16 --iterations 30
for k in kpre92 k92b; do
    echo "== $k registers"; timeout 30 .gl/$k/dmlvk-bench --preset sweep --only roi_align_grad_7x7_64_regions_tiny_map_f16 --stats --iterations 1 --op-only 2>&1 | grep -i -E "geometry|gather" | sort -u | cut -c1-220
done
