#!/bin/bash
# Session 91's device call (carry [".gl"]; kits .gl/kpre91 and .gl/kties from
# `bash docs/experiments/device-kits.sh kpre91 kties`, and .gl/t91: build/tests/test_roi_align of 723b5df with
# libcmocka.so.0 and libgmp.so.10 beside it). BENCHMARKS.md note 212: ROI_ALIGN_GRAD MAX decides near ties in real
# arithmetic. First its MAX tests on the H100 (the exact path's integer arithmetic on NVIDIA's compiler), then the
# MAX rows and the rows the geometry's refactored sums touch, before and after, and the MAX scatter's registers.
. .gl/device-setup.sh
(cd .gl/t91 && DMLVK_TEST_VALIDATION=0 DMLVK_TEST_FILTER='test_max_*,test_exact_geometry,test_forward_max*' \
    LD_LIBRARY_PATH=. timeout 240 ./test_roi_align 2>&1 | grep -E "^\[|exact geometry|worst|FAIL" | tail -25)
var() { local t=$1 out=$2 v=$3; shift 3; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -30; }
PASSES=3 var 200 ties-sweep "pre:KIT=kpre91 ties:KIT=kties" --preset sweep --only roi_align_grad_max_7x7_f32,roi_align_grad_max_7x7_det_f32,roi_align_grad_max_7x7_nhwc_f32,roi_align_grad_7x7_64_regions_tiny_map_f32,roi_align_grad_7x7_adaptive_tiny_map_f32,roi_align1_7x7_f32,roi_align_grad_14x14_64_regions_tiny_map_f32 --iterations 40
PASSES=3 var 90 ties-gpu "pre:KIT=kpre91 ties:KIT=kties" --preset gpu --only roi_align_grad_7x7_f32,roi_align_grad_7x7_bf16 --iterations 40
for k in kpre91 kties; do
    echo "== $k registers"; timeout 40 .gl/$k/dmlvk-bench --preset sweep --only roi_align_grad_max_7x7_f32 --stats --iterations 1 --op-only 2>&1 | grep -i -E "scatter|regist|spill|scratch" | head -12
done
