#!/bin/bash
# Prepared in sessions 88-89 for one device call (about 520 s; carry [".gl"], kits from
# `bash docs/experiments/device-kits.sh khead kh206 krestrict`): HEAD (.gl/khead), note 206's hoist on it (.gl/kh206)
# and note 207's restrict parameter blocks on it (.gl/krestrict) alternated over the ROI rows that moved in note 206
# and the ROI presets; HEAD against restrict over resample, ROI_ALIGN1 and ReLU rows of the sweep; then HEAD next
# to PyTorch on every ROI_ALIGN_GRAD row of the sweep and on seed 11's small rows (issue 15's ROI standing).
. .gl/device-setup.sh
kits="khead:KIT=khead kh206:KIT=kh206 krestrict:KIT=krestrict"
var() { local t=$1 out=$2; shift 2; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes 2 --out $OUT/$out.json $kits -- "$@" --op-only 2>/dev/null | tail -45; }
ab() { local t=$1 out=$2; shift 2; timeout $t python3 .gl/bench_ab.py .gl/khead/dmlvk-bench .gl/krestrict/dmlvk-bench --passes 2 --out $OUT/$out.json -- "$@" --op-only 2>/dev/null | tail -45; }
vs_torch() { local t=$1 out=$2; shift 2; timeout $t python3 .gl/bench_torch.py --bench .gl/khead/dmlvk-bench --op-only --out $OUT/$out.json "$@" 2>/dev/null | tail -50; }
var 100 roi-sweep --preset sweep --only roi_align_grad_14x14_unaligned_small_map_f32,roi_align_grad_7x7_64_regions_tiny_map_f32,roi_align_grad_7x7_adaptive_tiny_map_f32,roi_align_grad_14x14_64_regions_tiny_map_f32,roi_align_grad_7x7_1024_regions_tiny_map_f32,roi_align_grad_7x7_nhwc_f32,roi_align_grad_14x14_mask_head_f32,roi_align_grad_7x7_64_regions_large_map_f32,roi_align_grad_max_7x7_f32,roi_align_grad_7x7_with_roi_gradient_f32 --iterations 30
var 60 roi-gpu --preset gpu --only roi_align_grad_7x7_f32,roi_align_grad_14x14_f32,roi_align_grad_7x7_f16,roi_align_grad_7x7_bf16 --iterations 50
var 50 s11 --preset random --seed 11 --only rnd042,rnd001,rnd040 --iterations 50
ab 130 restrict-resample --preset sweep --only bilinear_grad_odd_f16,bilinear_grad_nhwc_odd_f32,bilinear_grad_2x3x_f32,bilinear_grad_4x_bf16,bilinear_grad_down_odd_f16,bilinear_grad_nhwc_seg150_4x_f16,bilinear_grad_batch256_8x8_f32,trilinear_grad_2x_f32,bilinear_odd_width_f16,bilinear_nhwc_seg150_4x_f16,bilinear_odd_f32,nearest_odd_width_f32,trilinear_2x_f16,roi_align1_7x7_f32,roi_align1_7x7_1000_adaptive_small_map_f16,roi_align1_14x14_mask_head_f32,relu_f16 --iterations 30
ab 40 restrict-gpu --preset gpu --only bilinear_grad_1.5x_f16,bilinear_grad_2x_bf16,nearest_grad_1.5x_f32,relu_grad_f32 --iterations 50
vs_torch 110 torch-sweep --preset sweep --only roi_align_grad_ --chunk 15
