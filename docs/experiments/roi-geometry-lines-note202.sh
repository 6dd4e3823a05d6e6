#!/bin/bash
# BENCHMARKS.md note 202 (prepared): the gather's lines written by the geometry stage's workgroups
# (roi_align_params' geometry_lines, committed) against their own stage (DMLVK_EXP_LINES_APART=1, the plan before),
# the rule's bound (DMLVK_EXP_LINES_PER_INVOCATION: lines per geometry invocation, committed 2) and workgroups
# widened for the lines (DMLVK_EXP_LINES_WIDE=1: up to 256 invocations, so that every map whose tables fit
# takes the form), on ROI_ALIGN_GRAD rows of the presets, the sweep and random seeds 11 and 12. Knob build:
# roi-geometry-lines-knobs-note202.patch on 5bf92d4, `meson setup build-exp --buildtype=release
# -Dtests=false && ninja -C build-exp tools/dmlvk-bench`, the binary in .gl/kfuse/. Device: carry [".gl"]; about 8
# minutes. The last two runs compare builds (tools/bench_ab.py): .gl/kbase202/dmlvk-bench is 6454946's, built
# the same way.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-590}))
left() { echo $((END - $(date +%s))); }
V="base: apart:DMLVK_EXP_LINES_APART=1 per8:DMLVK_EXP_LINES_PER_INVOCATION=8 wide2:DMLVK_EXP_LINES_WIDE=1 wide1:DMLVK_EXP_LINES_WIDE=1,DMLVK_EXP_LINES_PER_INVOCATION=1"
B=.gl/kfuse/dmlvk-bench
run() {
    local out=$1
    shift
    timeout $(left) python3 .gl/bench_variants.py $B --passes 2 --out $OUT/$out.json $V -- "$@" --op-only --iterations 50 \
        2>/dev/null | tail -60
}
run lines-s11 --preset random --seed 11 --only rnd042,rnd040,rnd037,rnd024,rnd027,rnd009,rnd001,rnd005,rnd013
run lines-sweep --preset sweep --only roi_align_grad_7x7_64_regions_tiny,roi_align_grad_14x14_64,roi_align_grad_7x7_1024,roi_align_grad_7x7_tiny_map,roi_align_grad_14x14_unaligned,roi_align_grad_7x7_adaptive_tiny,roi_align_grad_7x7_4096_regions_f32
run lines-s12 --preset random --seed 12 --only rnd016,rnd025,rnd036,rnd042,rnd001,rnd034
run lines-gpu --preset gpu --only roi_align_grad_7x7_f32,roi_align_grad_14x14_f32,roi_align_grad_7x7_f16,roi_align_grad_7x7_bf16
# ROI_ALIGN1 shares roi_align_geometry, which now carries the lines' code and 4 KiB of shared memory:
# its sweep rows and seed 12's rnd006 against a build of 6454946 (.gl/kbase202), and two of the lines' rows.
timeout $(left) python3 .gl/bench_ab.py .gl/kbase202/dmlvk-bench $B --passes 2 --out $OUT/lines-ab-sweep.json \
    -- --preset sweep --only roi_align1,roi_align_grad_7x7_64_regions_tiny_map_f32 --op-only --iterations 50 \
    2>/dev/null | tail -20
timeout $(left) python3 .gl/bench_ab.py .gl/kbase202/dmlvk-bench $B --passes 2 --out $OUT/lines-ab-s12.json \
    -- --preset random --seed 12 --only rnd006 --op-only --iterations 50 2>/dev/null | tail -4
timeout $(left) python3 .gl/bench_ab.py .gl/kbase202/dmlvk-bench $B --passes 2 --out $OUT/lines-ab-s11.json \
    -- --preset random --seed 11 --only rnd042 --op-only --iterations 50 2>/dev/null | tail -4
echo "== done, $(left) s left"
