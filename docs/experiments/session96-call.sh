#!/bin/bash
# Session 96's device call (carry [".gl"]; kits from `bash docs/experiments/device-kits.sh kbase96 kpairs96`):
# 45143d7 against 0bcaa55 (docs/experiments/roi-transpose-pairs-session96.patch: 16-bit transpositions loading each
# word of a channel's pixels once) on the 16-bit ROI_ALIGN_GRAD rows it should move most, two passes; then 45143d7
# next to PyTorch on a random seed never run before (2026), every row (issue 15's "never slower than PyTorch" and 3x
# targets on shapes nobody tuned for); then the other 16-bit ROI_ALIGN_GRAD rows of the sweep, A/B as before. In that
# order because the device time left was short (ten failed starts).
. .gl/device-setup.sh
var() { local t=$1 out=$2 v=$3; shift 3; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -30; }
key=roi_align_grad_avg_7x7_same_shape_f16,roi_align_grad_7x7_with_roi_gradient_f16,roi_align_grad_avg_7x7_same_shape_bf16,roi_align_grad_7x7_with_roi_gradient_bf16,roi_align_grad_7x7_4096_regions_f16,roi_align_grad_7x7_nhwc_f16
rest=roi_align_grad_14x14_unaligned_small_map_f16,roi_align_grad_7x7_4096_regions_bf16,roi_align_grad_7x7_64_regions_tiny_map_f16,roi_align_grad_7x7_64_regions_tiny_map_bf16,roi_align_grad_14x14_small_map_roi_gradient_f16,roi_align_grad_14x14_64_regions_tiny_map_f16,roi_align_grad_7x7_1024_regions_tiny_map_f16,roi_align_grad_7x7_197_regions_rows_off_16_bytes_f16,roi_align_grad_avg_7x7_same_shape_nhwc_f16,roi_align_grad_7x7_with_roi_gradient_nhwc_f16,roi_align_grad_14x14_mask_head_f16,roi_align_grad_7x7_1000_adaptive_small_map_f16
PASSES=2 var 90 pairs-key "old:KIT=kbase96 new:KIT=kpairs96" --preset sweep --only $key --iterations 30
PASSES=2 var 40 pairs-gpu "old:KIT=kbase96 new:KIT=kpairs96" --preset gpu --only roi_align_grad_7x7_f16,roi_align_grad_7x7_bf16 --iterations 30
timeout 150 python3 .gl/bench_torch.py --bench .gl/kbase96/dmlvk-bench --op-only --out $OUT/torch-random2026.json --preset random --seed 2026 --chunk 12 2>/dev/null | tail -60
PASSES=2 var 120 pairs-rest "old:KIT=kbase96 new:KIT=kpairs96" --preset sweep --only $rest --iterations 30
