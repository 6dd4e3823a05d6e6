#!/bin/bash
# Session 95's third device call (carry [".gl"]; kits .gl/kinplace, .gl/kown and .gl/kconv from `bash
# docs/experiments/device-kits.sh kinplace kown kconv`): BENCHMARKS.md note 221. Float32's ROI gradient in its own stage
# where InputTensor stands in for its copy (kown, f776668, against kinplace, 45687d1), at offsets 0 and 4 (where the
# input is not aligned the copy runs); and float16 converted to float32 by integer arithmetic (kconv) on float16 rows.
. .gl/device-setup.sh
var() { local t=$1 out=$2 v=$3; shift 3; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -30; }
PASSES=3 var 150 own-stage "old:KIT=kinplace new:KIT=kown" --preset sweep --only with_roi_gradient_nhwc,same_shape_nhwc,with_roi_gradient_f32,roi_align_grad_7x7_nhwc_f32 --iterations 30
PASSES=2 var 100 own-stage-offset4 "old:KIT=kinplace new:KIT=kown" --preset sweep --only with_roi_gradient_nhwc_f32,same_shape_nhwc_f32 --iterations 30 --offset 4
PASSES=2 var 200 f16-conversion "old:KIT=kown new:KIT=kconv" --preset gpu --only roi_align_grad_7x7_f16,roi_align_grad_14x14_f16,bilinear_grad_2x_f16,bilinear_grad_1.5x_f16 --iterations 30
PASSES=2 var 150 f16-conversion-sweep "old:KIT=kown new:KIT=kconv" --preset sweep --only with_roi_gradient_f16,same_shape_f16,bilinear_odd_f16,bilinear_odd_width_f16,bilinear_grad_odd_f16,trilinear_grad_2x_f16,bilinear_2x_f16,bilinear_nhwc_2x_f16,roi_align1_7x7_f16,roi_align1_7x7_same_shape_f16 --iterations 30
