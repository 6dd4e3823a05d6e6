#!/bin/bash
# Session 87's prepared call (about 400 s; docs/experiments/device-kits.sh builds what it carries): the ROI gradient's plane reference (6f6aa5d) A/B, note 203 (float64 geometry),
# note 202 (lines in the geometry) against 6454946.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 95 python3 .gl/bench_ab.py .gl/kref/dmlvk-bench .gl/kdiff/dmlvk-bench --passes 2 --out $OUT/roi-ref-ab.json -- --preset sweep --only roi_align_grad_7x7_with_roi_gradient_f32,roi_align_grad_7x7_4096_regions_roi_gradient_f32,roi_align_grad_7x7_tiny_map_roi_gradient_f32,roi_align_grad_7x7_adaptive_mid_map_roi_gradient_f32 --op-only --iterations 50 2>/dev/null | tail -8
BUDGET=140 bash .gl/roi-geometry-float64-note203.sh
START=$(date +%s); END=$((START + 150))
left() { echo $((END - $(date +%s))); }
B=.gl/kfuse/dmlvk-bench
ab() { local out=$1; shift; timeout $(left) python3 .gl/bench_ab.py .gl/kbase202/dmlvk-bench $B --passes 2 --out $OUT/$out.json -- "$@" --op-only --iterations 50 2>/dev/null | tail -${TAILN:-6}; }
ab lines-ab-s11 --preset random --seed 11 --only rnd042
TAILN=12 ab lines-ab-sweep --preset sweep --only roi_align1_7x7_f32,roi_align1_7x7_1000_adaptive_small_map_f16,roi_align_grad_7x7_64_regions_tiny_map_f32
ab lines-ab-s12 --preset random --seed 12 --only rnd006,rnd034
echo "== done, $(left) s left"
