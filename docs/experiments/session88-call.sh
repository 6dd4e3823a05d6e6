#!/bin/bash
# Session 88: where rnd042's loss since 6454946 comes from (note 205), the commits between kbase202 and kfuse that touch
# lib/ or glsl/ side by side, then a2cecfc (.gl/kref) against notes 203 and 205 together (.gl/kfinal) as session87-call3.sh.
# Kits: `bash docs/experiments/device-kits.sh kbase202 kfb kd52 k438 k5bf kref kfinal` (about 56 MB;
# xz each kit's dmlvk-bench to fit the 64 MiB carry, this script unpacks them); carry [".gl"].
. .gl/device-setup.sh
kits="base:KIT=kbase202 fb:KIT=kfb d52:KIT=kd52 k438:KIT=k438 k5bf:KIT=k5bf ref:KIT=kref final:KIT=kfinal"
var() { local t=$1 out=$2; shift 2; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes 2 --out $OUT/$out.json $kits -- "$@" --op-only --iterations 50 2>/dev/null | tail -8; }
ab() { local t=$1 out=$2; shift 2; timeout $t python3 .gl/bench_ab.py .gl/kref/dmlvk-bench .gl/kfinal/dmlvk-bench --passes 2 --out $OUT/$out.json -- "$@" --op-only --iterations 50 2>/dev/null | tail -12; }
var 170 bisect-s11 --preset random --seed 11 --only rnd042,rnd001,rnd037,rnd040
var 170 bisect-sweep --preset sweep --only roi_align_grad_7x7_64_regions_tiny_map_f32,roi_align_grad_7x7_adaptive_tiny_map_f32,roi_align_grad_14x14_unaligned_small_map_f32,roi_align1_7x7_f32
ab 60 final-s12 --preset random --seed 12 --only rnd034,rnd006
ab 60 final-gpu --preset gpu --only roi_align_grad_7x7_f32,roi_align_grad_14x14_f32,roi_align_grad_7x7_bf16
ab 50 final-sweep --preset sweep --only roi_align_grad_7x7_with_roi_gradient_f32,roi_align_grad_7x7_tiny_map_roi_gradient_f32
# what the driver reports of each kit's pipelines on rnd042 (registers, shared memory)
for k in kbase202 kfb k438 k5bf kfinal; do timeout 20 .gl/$k/dmlvk-bench --preset random --seed 11 --only rnd042 --stats --op-only --iterations 2 > $OUT/stats-$k.txt 2>&1; done
