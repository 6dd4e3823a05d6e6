#!/bin/bash
# Session 95's device call (carry [".gl"]; kits .gl/kbase219 and .gl/ktiles from `bash docs/experiments/device-kits.sh
# kbase219 ktiles`): BENCHMARKS.md note 219, roi_align_grad_prepare's blocks of several 32-channel tiles with two 16-bit
# channels to a shared word (cc059d2, ktiles: its rule, 2 tiles in 16-bit types, 1 in float32; DMLVK_EXP_TILES=N forces
# N), against 1d24ca7 (kbase219), on the ROI_ALIGN_GRAD rows of the sweep the transpositions touch and the ROI presets.
. .gl/device-setup.sh
var() { local t=$1 out=$2 v=$3; shift 3; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -45; }
V="old:KIT=kbase219 t1:KIT=ktiles,DMLVK_EXP_TILES=1 new:KIT=ktiles t4:KIT=ktiles,DMLVK_EXP_TILES=4"
ROWS=with_roi_gradient_f,with_roi_gradient_bf16,grad_avg_7x7_same_shape,with_roi_gradient_nhwc,roi_align_grad_7x7_4096_regions_f,roi_align_grad_7x7_4096_regions_bf,small_map_roi_gradient_f16,tiny_map_f16,tiny_map_bf16,grad_14x14_mask_head_f16,roi_align_grad_7x7_1000_adaptive_small_map_f16,roi_align_grad_7x7_nhwc_f16,197_regions_rows_off_16_bytes_f16,14x14_unaligned_small_map_f16
PASSES=2 var 420 transpose-tiles-sweep "$V" --preset sweep --only $ROWS --iterations 30
PASSES=2 var 150 transpose-tiles-gpu "$V" --preset gpu --only roi_align_grad_7x7_f32,roi_align_grad_7x7_f16,roi_align_grad_7x7_bf16,roi_align_grad_14x14_f16,roi_align_grad_14x14_bf16 --iterations 30
