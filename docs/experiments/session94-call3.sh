#!/bin/bash
# Session 94's third device call (carry [".gl"]; kits .gl/k217 and .gl/kwords from `bash
# docs/experiments/device-kits.sh k217 kwords`): BENCHMARKS.md note 218, 16-bit transpositions (dY's, and the ROI
# gradient's copy of the input) loading two elements per lane from packed planes, against c6f418e (k217: its knobs
# unset), on every 16-bit ROI_ALIGN_GRAD row of the sweep and the 16-bit ROI presets.
. .gl/device-setup.sh
var() { local t=$1 out=$2 v=$3; shift 3; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -40; }
ROWS=roi_align_grad_14x14_unaligned_small_map_f16,roi_align_grad_7x7_4096_regions_f,roi_align_grad_7x7_4096_regions_bf,tiny_map_f16,tiny_map_bf16,same_shape_f16,same_shape_bf16,with_roi_gradient_f16,with_roi_gradient_bf16,small_map_roi_gradient_f16,197_regions_rows_off_16_bytes_f16,roi_align_grad_7x7_nhwc_f16,same_shape_nhwc_f16,with_roi_gradient_nhwc_f16,roi_align_grad_14x14_mask_head_f16,roi_align_grad_7x7_1000_adaptive_small_map_f16
PASSES=2 var 200 transpose-words-sweep "old:KIT=k217 new:KIT=kwords" --preset sweep --only $ROWS --iterations 30
PASSES=2 var 100 transpose-words-gpu "old:KIT=k217 new:KIT=kwords" --preset gpu --only roi_align_grad_7x7_f16,roi_align_grad_7x7_bf16,roi_align_grad_14x14_f16,roi_align_grad_14x14_bf16 --iterations 30
