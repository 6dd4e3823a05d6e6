#!/bin/bash
# Session 95's fifth device call (carry [".gl"]; kits .gl/kbase219 and .gl/kwords2 from `bash
# docs/experiments/device-kits.sh kbase219 kwords2`): every ROI_ALIGN_GRAD row of the sweep and of the presets, 1d24ca7
# against 37fbfc9 (session 95's library), one pass each. Prepared in session 95 and not run: the device time ran out
# (notes 219-222 timed 28 of those rows).
. .gl/device-setup.sh
var() { local t=$1 out=$2 v=$3; shift 3; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -70; }
PASSES=1 var 300 all-roi-grad-sweep "old:KIT=kbase219 new:KIT=kwords2" --preset sweep --only roi_align_grad --iterations 20
PASSES=1 var 120 all-roi-grad-gpu "old:KIT=kbase219 new:KIT=kwords2" --preset gpu --only roi_align_grad --iterations 20
