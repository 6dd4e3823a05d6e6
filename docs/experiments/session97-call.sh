#!/bin/bash
# Prepared in session 96 for the next device call (about 300 s; carry [".gl"], kits from
# `bash docs/experiments/device-kits.sh kbase96 kexp96`): ROI_ALIGN1's float32 sample-row walk on few regions.
# Note 224 found random seed 2026's rnd018 (70 regions of 7x7 on 4x256x100x150, f32) at 0.98x torchvision: 560
# workgroups of 32 channels, 143K invocations, each warp walking two channel passes of 7 bin rows. Variants: old
# (45143d7), r16 (16 channels per workgroup: one pass per warp, twice the workgroups), r8 (8: four times), nores (no overflow dispatch:
# what the dependent rescue costs; timing only, wrong where sums overflow). Rows: the float32 ROI_ALIGN1 rows under 2x
# torchvision in notes 207 and 224, and the sweep's (the rule must not cost its 7x7 and mask-head rows).
. .gl/device-setup.sh
v="old:KIT=kbase96 r16:KIT=kexp96,DMLVK_EXP_ROWS_CHANNELS=16 r8:KIT=kexp96,DMLVK_EXP_ROWS_CHANNELS=8 nores:KIT=kexp96,DMLVK_EXP_NO_RESCUE=1"
var() { local t=$1 out=$2; shift 2; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes 2 --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -30; }
var 60 s2026 --preset random --seed 2026 --only rnd018,rnd010 --iterations 30
var 60 s11-12 --preset random --seed 12 --only rnd006 --iterations 30
var 60 s11 --preset random --seed 11 --only rnd032 --iterations 30
var 150 sweep --preset sweep --only roi_align1_7x7_same_shape_f32,roi_align1_7x7_f32,roi_align1_14x14_4096_regions_f32,roi_align1_14x14_mask_head_f32,roi_align1_max_7x7_f32 --iterations 30
