#!/bin/bash
# Session 87, call 3: a2cecfc (.gl/kref) against the float64 geometry (note 203) plus lines one per invocation in widened geometry workgroups (.gl/kfinal).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
ab() { local t=$1 out=$2; shift 2; timeout $t python3 .gl/bench_ab.py .gl/kref/dmlvk-bench .gl/kfinal/dmlvk-bench --passes 2 --out $OUT/$out.json -- "$@" --op-only --iterations 50 2>/dev/null | tail -12; }
ab 60 final-s11 --preset random --seed 11 --only rnd042,rnd001,rnd037,rnd040
ab 40 final-s12 --preset random --seed 12 --only rnd034,rnd006
ab 60 final-sweep --preset sweep --only roi_align_grad_7x7_64_regions_tiny_map_f32,roi_align_grad_7x7_adaptive_tiny_map_f32,roi_align_grad_14x14_unaligned_small_map_f32,roi_align1_7x7_f32,roi_align_grad_7x7_with_roi_gradient_f32
ab 40 final-gpu --preset gpu --only roi_align_grad_7x7_f32,roi_align_grad_14x14_f32,roi_align_grad_7x7_bf16
