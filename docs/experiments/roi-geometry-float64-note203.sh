#!/bin/bash
# BENCHMARKS.md note 203 (prepared): ROI align's geometry placing samples by a float64 sum where its error bound
# proves the exact sum's decisions (roi-geometry-float64-note203.patch on 51c9300, built `meson setup build-exp
# --buildtype=release -Dtests=false && ninja -C build-exp tools/dmlvk-bench`, the binary in .gl/kf64/) against the
# library without it (.gl/kfuse/dmlvk-bench: note 202's knob build of 5bf92d4, whose plans without knobs are
# 51c9300's), on the small ROI rows whose geometry note 201 timed and on two presets. Device: carry [".gl"]; about
# 3 minutes.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-240}))
left() { echo $((END - $(date +%s))); }
ab() {
    local out=$1
    shift
    timeout $(left) python3 .gl/bench_ab.py .gl/kfuse/dmlvk-bench .gl/kf64/dmlvk-bench --passes 2 --out $OUT/$out.json \
        -- "$@" --op-only --iterations 50 2>/dev/null | tail -14
}
ab f64-sweep --preset sweep --only roi_align_grad_7x7_64_regions_tiny_map_f32,roi_align_grad_7x7_64_regions_tiny_map_bf16,roi_align1_7x7_f32,roi_align_grad_14x14_unaligned_small_map_f32,roi_align_grad_7x7_adaptive_tiny_map_f32
ab f64-s11 --preset random --seed 11 --only rnd042,rnd001
ab f64-s12 --preset random --seed 12 --only rnd034,rnd006
ab f64-gpu --preset gpu --only roi_align_grad_7x7_f32,roi_align_grad_7x7_bf16
echo "== done, $(left) s left"
