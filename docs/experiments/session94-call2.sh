#!/bin/bash
# Session 94's second device call (carry [".gl"]; kits .gl/k217 and .gl/kmerge from `bash
# docs/experiments/device-kits.sh k217 kmerge`): BENCHMARKS.md note 217, the ROI gradient's workgroups inside the
# gather's dispatch (roi_align_grad_gather_and_roi) against c6f418e; DMLVK_EXP_NO_MERGE=1 keeps them in a dispatch of
# their own, DMLVK_EXP_NO_FUSED=1 takes float32 off the gather that sums the ROI gradient, DMLVK_EXP_ROI_ITEMS=N sets
# the ROI stage's items per invocation.
. .gl/device-setup.sh
var() { local t=$1 out=$2 v=$3; shift 3; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -40; }
ROWS=roi_gradient,avg_7x7_same_shape_f,avg_7x7_same_shape_bf
PASSES=2 var 300 roi-gradient-merged "old:KIT=k217 merged:KIT=kmerge unfused:KIT=kmerge,DMLVK_EXP_NO_FUSED=1" --preset sweep --only $ROWS --iterations 30
echo "== registers"; KIT=kmerge DMLVK_EXP_NO_FUSED=1 timeout 60 .gl/kit.sh --preset sweep --only with_roi_gradient_f16,with_roi_gradient_f32 --stats --iterations 1 --op-only 2>&1 | grep -i -E "gather_and_roi" | head -2
