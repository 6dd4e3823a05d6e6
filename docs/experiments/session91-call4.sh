#!/bin/bash
# Session 91's third device call (carry [".gl"]; kits .gl/kpre91, .gl/kties3 and .gl/kstages from
# `bash docs/experiments/device-kits.sh kpre91 kties3 kstages`, and .gl/t91: build/tests/test_roi_align of 8895974 with
# libcmocka.so.0 and libgmp.so.10 beside it). BENCHMARKS.md note 212: ROI_ALIGN_GRAD MAX decides near ties in real
# arithmetic in a second pass of its stages. Its MAX tests on the H100, the MAX rows before and after, the scatter's
# two pipelines' registers; then session91-call.sh's stage profile of the 7x7 presets (issue 17).
. .gl/device-setup.sh
(cd .gl/t91 && DMLVK_TEST_VALIDATION=0 DMLVK_TEST_FILTER='test_max_*,test_exact_geometry,test_roi_gradient*' \
    LD_LIBRARY_PATH=. timeout 200 ./test_roi_align 2>&1 | grep -E "^\[|exact geometry|worst|FAIL" | tail -25)
var() { local t=$1 out=$2 v=$3; shift 3; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -30; }
PASSES=3 var 150 ties3-sweep "pre:KIT=kpre91 ties:KIT=kties3" --preset sweep --only roi_align_grad_max_7x7_f32,roi_align_grad_max_7x7_det_f32,roi_align_grad_max_7x7_nhwc_f32,roi_align_grad_7x7_adaptive_tiny_map_f32,roi_align1_max_7x7_f32 --iterations 40
for k in kpre91 kties3; do
    echo "== $k registers"; timeout 30 .gl/$k/dmlvk-bench --preset sweep --only roi_align_grad_max_7x7_f32 --stats --iterations 1 --op-only 2>&1 | grep -i -E "scatter" | sort -u | head -4
done
timeout 230 bash .gl/session91-call.sh
