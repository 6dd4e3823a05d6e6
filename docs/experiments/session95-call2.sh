#!/bin/bash
# Session 95's second device call (carry [".gl"]; kits .gl/kbase219, .gl/ktiles and .gl/kinplace from `bash
# docs/experiments/device-kits.sh kbase219 ktiles kinplace`): BENCHMARKS.md note 220. The ROI gradient rows again in
# three passes (1d24ca7 against 45687d1: note 219's tiles, and an InputTensor laid out as the copy read in place), float32
# with 2 tiles per block (ktiles, DMLVK_EXP_TILES=2), and the register counts of the 16-bit ROI stages.
. .gl/device-setup.sh
var() { local t=$1 out=$2 v=$3; shift 3; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -30; }
V="old:KIT=kbase219 new:KIT=kinplace t2:KIT=ktiles,DMLVK_EXP_TILES=2"
ROWS=with_roi_gradient,grad_avg_7x7_same_shape,roi_align_grad_7x7_4096_regions_f32,roi_align_grad_7x7_nhwc_f32
PASSES=3 var 330 inplace-sweep "$V" --preset sweep --only $ROWS --iterations 30
PASSES=2 var 100 inplace-gpu "$V" --preset gpu --only roi_align_grad_7x7_f32,roi_align_grad_14x14_f32 --iterations 30
for k in kinplace; do DMLVK_CACHE_DIR=$(mktemp -d) timeout 60 .gl/$k/dmlvk-bench --preset sweep --only with_roi_gradient_f16,with_roi_gradient_bf16 --stats --iterations 3 --op-only 2>&1 | grep -i "pipeline roi_align_grad" | cut -c1-700 | head -30; done
