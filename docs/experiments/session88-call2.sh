#!/bin/bash
# Session 88, call 2: d52b90b's loss (session88-call.sh) is in the gathers' code, whose lines' place came from
# roi_align_params' lines_base since: HEAD (.gl/kfinal's library) against the place from the spec constants
# where a stage has them (kform, docs/experiments/roi-gather-lines-place-form-note206.patch), the regions' records' place hoisted
# out of the gather's rounds (khoist, ...-hoist-note206.patch) and both (kboth), all on a5a2706; kits as device-kits.sh builds them, xz-packed.
. .gl/device-setup.sh
kits="final:KIT=kfinal form:KIT=kform hoist:KIT=khoist both:KIT=kboth"
var() { local t=$1 out=$2; shift 2; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes 2 --out $OUT/$out.json $kits -- "$@" --op-only 2>/dev/null | tail -45; }
var 70 s11 --preset random --seed 11 --only rnd042,rnd001,rnd037,rnd040 --iterations 50
var 110 sweep --preset sweep --only roi_align_grad_14x14_unaligned_small_map,roi_align_grad_7x7_4096_regions_f32,roi_align_grad_7x7_64_regions_tiny_map_f,roi_align_grad_7x7_adaptive_tiny_map_f32,roi_align_grad_7x7_with_roi_gradient_f32,roi_align_grad_14x14_64_regions_tiny_map_f32,roi_align_grad_7x7_1024_regions_tiny_map_f32,roi_align_grad_7x7_nhwc_f32,roi_align_grad_14x14_mask_head_f32,roi_align_grad_7x7_1000_adaptive_small_map_f32,roi_align_grad_7x7_64_regions_large_map_f32 --iterations 30
var 50 gpu --preset gpu --only roi_align_grad_7x7_f32,roi_align_grad_14x14_f32,roi_align_grad_7x7_bf16 --iterations 50
for k in kfinal kform khoist; do timeout 20 .gl/$k/dmlvk-bench --preset random --seed 11 --only rnd042 --stats --op-only --iterations 2 2>&1 | grep -v "^$" | sort -u > $OUT/stats-$k.txt; done
