#!/bin/bash
# Session 95's fourth device call (carry [".gl"]; kits .gl/kbase219, .gl/kown and .gl/kwords2 from `bash
# docs/experiments/device-kits.sh kbase219 kown kwords2`): BENCHMARKS.md note 222. The channels-last input read in
# place by words where it is off 16 bytes, with no copy dispatch (kwords2, 37fbfc9), against f776668 (kown: the copy
# where off alignment) and 1d24ca7 (kbase219), at offsets 0 and 4.
. .gl/device-setup.sh
var() { local t=$1 out=$2 v=$3; shift 3; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -30; }
V="base:KIT=kbase219 old:KIT=kown new:KIT=kwords2"
ROWS=with_roi_gradient,same_shape_nhwc,grad_avg_7x7_same_shape_f16,grad_avg_7x7_same_shape_bf16
PASSES=2 var 200 words-offset0 "$V" --preset sweep --only $ROWS --iterations 30
PASSES=2 var 150 words-offset4 "$V" --preset sweep --only with_roi_gradient_nhwc,same_shape_nhwc --iterations 30 --offset 4
