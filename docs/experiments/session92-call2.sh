#!/bin/bash
# Session 92's second device call (carry [".gl"]; kits .gl/kpre92 and .gl/k92 from
# `bash docs/experiments/device-kits.sh kpre92 k92`, and .gl/t92: build/tests/test_roi_align of c46199c with
# libcmocka.so.0 and libgmp.so.10 beside it). BENCHMARKS.md note 215: the indexes kept in bounds where a select
# discards the value (c902d94, c46199c): the gather's tests on the H100 (test_gather_pooled_edge_lines and
# test_max_gather force the gather of winners, which NVIDIA's float atomics otherwise never take), then every
# ROI_ALIGN_GRAD row of the sweep, the ROI presets and the odd-row 16-bit resample rows before and after, and
# the gather's registers on a tiny-map row.
. .gl/device-setup.sh
(cd .gl/t92 && DMLVK_TEST_VALIDATION=0 DMLVK_TEST_FILTER='test_gather_pooled_edge_lines,test_max_gather,test_tile_gather,test_max_flat_ties' \
    LD_LIBRARY_PATH=. timeout 200 ./test_roi_align 2>&1 | grep -E "^\[|FAIL|worst" | tail -12)
var() { local t=$1 out=$2 v=$3; shift 3; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -60; }
PASSES=2 var 250 bounds-sweep "pre:KIT=kpre92 new:KIT=k92" --preset sweep --only roi_align_grad,bilinear_grad_odd_f16,bilinear_grad_odd_bf16,bilinear_grad_down_odd_f16 --iterations 30
PASSES=2 var 60 bounds-gpu "pre:KIT=kpre92 new:KIT=k92" --preset gpu --only roi_align_grad --iterations 30
for k in kpre92 k92; do
    echo "== $k registers"; timeout 30 .gl/$k/dmlvk-bench --preset sweep --only roi_align_grad_7x7_64_regions_tiny_map_f32 --stats --iterations 1 --op-only 2>&1 | grep -i -E "gather|regist" | head -8
done
