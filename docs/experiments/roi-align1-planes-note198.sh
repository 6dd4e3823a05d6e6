#!/bin/bash
# BENCHMARKS.md note 198, prepared in session 82 (no device was lent) and not run: ROI_ALIGN1 by staged planes against
# the committed walks on inputs whose plane fits shared memory (at most 11776 pixels in 48 KiB). A workgroup per plane
# (b, c) loads the plane once into shared memory as float32, then takes every bin of channel c of batch b's regions, an
# invocation per bin, its taps from shared memory with read_input's arithmetic (same results; RESCUE as before).
# Knob: DMLVK_EXP_ROI1_PLANES (any value), docs/experiments/roi-align1-planes-knob-note198.patch. Rows: seed 12's
# rnd006 (0.92x torchvision, run 84) and 7 more small-map rows of seed 12, 5 of seed 9, the sweep's adaptive small
# map; held-out rows: any other fitting ROI_ALIGN1 row of seeds 1-16 (note 198).
# Set-up here: apply the patch to 2dfb714 or later,
#   meson setup build-exp --buildtype=release -Dtests=false && ninja -C build-exp tools/dmlvk-bench
#   mkdir -p .gl/k98 && cp build-exp/tools/dmlvk-bench .gl/k98/ && cp tools/bench_*.py docs/experiments/$(basename $0) .gl/
#   and ../shared/tools/gpu-vulkan-debs. Device: bash .gl/$(basename $0) with carry [".gl"] (about 3 minutes).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-540}))
left() { echo $((END - $(date +%s))); }
V="base: planes:DMLVK_EXP_ROI1_PLANES=1"
run() {  # run NAME BENCH-ARGS...
    local name=$1; shift
    echo "== $name, $(left) s left"
    timeout $(left) python3 .gl/bench_variants.py .gl/k98/dmlvk-bench --passes 2 --out $OUT/note198-$name.json $V \
        -- "$@" --op-only --iterations 20 2>/dev/null
}
run seed12 --preset random --seed 12 --count 192 --only rnd006_,rnd026_,rnd041_,rnd044_,rnd060_,rnd064_,rnd080_,rnd134_
run seed9 --preset random --seed 9 --count 192 --only rnd019_,rnd047_,rnd054_,rnd069_,rnd085_
run sweep --preset sweep --only roi_align1_7x7_1000_adaptive_small_map_f16
echo "== done, $(left) s left"
