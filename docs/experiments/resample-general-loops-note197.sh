#!/bin/bash
# BENCHMARKS.md note 197, prepared in session 82 (no device was lent) and not run: the general loops (an element per
# invocation, coalesced 2-byte stores, each element's taps from the per-axis ranges) against the block gathers on the
# 16-bit rows whose written rows have an odd element count, where every block shape, word and staging tried since
# note 186 stayed under 45% of copy (seed 11's rnd018 37.8%). Knobs (docs/experiments/resample-general-loops-knob-
# note197.patch): DMLVK_EXP_GENERAL (any value: no block gather); with it DMLVK_EXP_FLAT (any value: the loops over
# a packed written tensor in flat runs of 8 elements, one 16-byte store each where aligned; forward and backward).
# Lavapipe: refgen 20261801 (size 2) resample files 240/240 with --validation under GENERAL, and under both with
# --validation and at --offset 4, 20261601 and 20261603 too. Base against both on 10 backward and 4 forward rows.
# Set-up here: apply the patch to 2dfb714 or later,
#   meson setup build-exp --buildtype=release -Dtests=false && ninja -C build-exp tools/dmlvk-bench
#   mkdir -p .gl/k97 && cp build-exp/tools/dmlvk-bench .gl/k97/ && cp tools/bench_*.py docs/experiments/$(basename $0) .gl/
#   and ../shared/tools/gpu-vulkan-debs. Device: bash .gl/$(basename $0) with carry [".gl"] (about 4 minutes).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-540}))
left() { echo $((END - $(date +%s))); }
S=bilinear_grad_f16_23x152x470x41_152x13,nearest_grad_f16_23x152x470x41_152x13,bilinear_f16_23x152x152x13_470x41
S=$S,bilinear_grad_bf16_23x152x470x41_152x13,bilinear_grad_f32_23x152x470x41_152x13
S=$S,bilinear_grad_f16_29x215x215x19_394x35,bilinear_grad_f16_19x470x256x23_91x7,bilinear_grad_f16_23x140x304x15_215x6
timeout $(left) python3 .gl/bench_variants.py .gl/k97/dmlvk-bench --passes 2 --out $OUT/note197.json base: \
    general:DMLVK_EXP_GENERAL=1 flat:DMLVK_EXP_GENERAL=1,DMLVK_EXP_FLAT=1 \
    -- --shape $S --op-only --iterations 20 2>/dev/null
echo "== sweep, $(left) s left"
timeout $(left) python3 .gl/bench_variants.py .gl/k97/dmlvk-bench --passes 2 --out $OUT/note197s.json base: \
    general:DMLVK_EXP_GENERAL=1 flat:DMLVK_EXP_GENERAL=1,DMLVK_EXP_FLAT=1 \
    -- --preset sweep --only bilinear_grad_odd_f16,bilinear_grad_down_odd_f16,bilinear_odd_f16,bilinear_odd_width_f16,bilinear_down_odd_f16 \
    --op-only --iterations 20 2>/dev/null
echo "== done, $(left) s left"
