#!/bin/bash
# BENCHMARKS.md note 196, prepared in session 82 (no device was lent) and not run: ROI_ALIGN_GRAD's gather by planes
# (glsl/roi_align_grad_planes.comp in the knob patch) against the committed plan on small maps (at most 64x64 and 1024
# pixels), AVERAGE, input gradient alone. One dispatch after the geometry stage where the committed plan runs the
# lines, dY's transposition, the gather and (with parts) their sum: a workgroup per plane (b, c), its groups of 32
# invocations taking this batch's regions in turn, each region separably (x samples per bin row, then y samples per
# pixel) into the group's registers, the groups' sums added in group order. DMLVK_EXP_ROI_PLANES=P (1 to 8) takes it
# with P workgroups per plane, each over a P-th of the regions, their float32 sums added by roi_align_grad_convert.
# Question: where (regions per batch, channels, bins) does it beat the committed plan, and by how much; seed 11's
# rnd042 is 0.72x PyTorch with the committed plan (run 84). Rows: the sweep's tiny-map rows and random rows of seeds
# 2, 10, 11 and 12 that fit (26); any rule needs held-out rows (the planner-fit lists of seeds 1-16 in note 196).
# Set-up here: apply docs/experiments/roi-align-grad-planes-knobs-note196.patch to 326b252 or later, then
#   meson setup build-exp --buildtype=release -Dtests=false && ninja -C build-exp tools/dmlvk-bench
#   mkdir -p .gl/k96 && cp build-exp/tools/dmlvk-bench .gl/k96/ && cp tools/bench_*.py docs/experiments/$(basename $0) .gl/
#   and ../shared/tools/gpu-vulkan-debs. Device: bash .gl/$(basename $0) with carry [".gl"] (about 6 minutes).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-540}))
left() { echo $((END - $(date +%s))); }
V="base: p1:DMLVK_EXP_ROI_PLANES=1 p2:DMLVK_EXP_ROI_PLANES=2 p4:DMLVK_EXP_ROI_PLANES=4"
run() {  # run NAME BENCH-ARGS...
    local name=$1; shift
    echo "== $name, $(left) s left"
    timeout $(left) python3 .gl/bench_variants.py .gl/k96/dmlvk-bench --passes 2 --out $OUT/note196-$name.json $V \
        -- "$@" --op-only --iterations 20 2>/dev/null
}
run sweep --preset sweep --only roi_align_grad_7x7_64_regions_tiny_map,roi_align_grad_14x14_64_regions_tiny_map,roi_align_grad_7x7_1024_regions_tiny_map,roi_align_grad_7x7_adaptive_tiny_map
run seed11 --preset random --seed 11 --count 192 --only rnd042_,rnd064_,rnd030_,rnd031_,rnd015_
run seed10 --preset random --seed 10 --count 192 --only rnd004_,rnd022_,rnd105_,rnd140_,rnd124_,rnd009_
run seed12 --preset random --seed 12 --count 192 --only rnd086_,rnd149_,rnd066_
run seed2 --preset random --seed 2 --count 192 --only rnd188_,rnd100_,rnd140_,rnd106_
echo "== done, $(left) s left"
