#!/bin/bash
# Prepared in session 89 for the next device call (about 500 s; carry [".gl"]; kit .gl/kexp209 from
# `bash docs/experiments/device-kits.sh kexp209`: HEAD with docs/experiments/roi-align1-rows-taps-knobs-note209.patch).
# Part 1, BENCHMARKS.md note 209's question: float32 ROI_ALIGN1 walks regions by sample rows, and its regions whose
# bins share taps (ROI_SHARED_TAPS) never take the lists' dispatch there (note 173 measured only adaptive rows,
# rnd047); seed 12's rnd006 and seed 11's rnd032 (f32, 4 samples per bin and axis on small maps) are the two
# ROI_ALIGN1 rows furthest under 2x torchvision on the H100 (0.96x, 1.14x, note 207). DMLVK_EXP_ROWS_TAPS=1 plans the
# lists' dispatch beside the rows, =2 only where sampling is fixed (Minimum = MaximumSamplesPerOutput). Part 2:
# each small row under target timed with its first N dispatches only (DMLVK_EXP_UPTO), after one process that
# prints its plan (DMLVK_EXP_LIST), as note 201 did before notes 202-206.
. .gl/device-setup.sh
export KIT=kexp209
var() { local t=$1 out=$2 v=$3; shift 3; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -45; }
PASSES=3 var 160 rows-taps "base: rows:DMLVK_EXP_ROWS_TAPS=1 fixed:DMLVK_EXP_ROWS_TAPS=2" --preset random --seed 12 --only roi_align1 --iterations 30
PASSES=2 var 90 rows-taps-s11 "base: rows:DMLVK_EXP_ROWS_TAPS=1 fixed:DMLVK_EXP_ROWS_TAPS=2" --preset random --seed 11 --only roi_align1 --iterations 30
PASSES=2 var 60 rows-taps-s1 "base: rows:DMLVK_EXP_ROWS_TAPS=1 fixed:DMLVK_EXP_ROWS_TAPS=2" --preset random --seed 1 --only rnd047,rnd014,rnd032 --iterations 30
PASSES=2 var 60 rows-taps-sweep "base: rows:DMLVK_EXP_ROWS_TAPS=1 fixed:DMLVK_EXP_ROWS_TAPS=2" --preset sweep --only roi_align1_7x7_f32,roi_align1_7x7_same_shape_f32,roi_align1_14x14_4096_regions_f32,roi_align1_14x14_mask_head_f32 --iterations 30
plan() { DMLVK_EXP_LIST=1 timeout 20 .gl/kexp209/dmlvk-bench "$@" --iterations 1 --op-only 2>&1 | grep "^dispatch" | sort -u; }
for row in "--preset random --seed 12 --only rnd006" "--preset random --seed 11 --only rnd042" "--preset random --seed 11 --only rnd013" "--preset random --seed 12 --only rnd034" "--preset sweep --only roi_align_grad_7x7_adaptive_tiny_map_f32"; do
    echo "== plan of $row"; plan $row
done > $OUT/plans.txt; cat $OUT/plans.txt
upto="all: u1:DMLVK_EXP_UPTO=1 u2:DMLVK_EXP_UPTO=2 u3:DMLVK_EXP_UPTO=3 u4:DMLVK_EXP_UPTO=4 u5:DMLVK_EXP_UPTO=5 u6:DMLVK_EXP_UPTO=6"
PASSES=1 var 60 upto-s12 "$upto" --preset random --seed 12 --only rnd006,rnd034 --iterations 50
PASSES=1 var 60 upto-s11 "$upto" --preset random --seed 11 --only rnd042,rnd013 --iterations 50
PASSES=1 var 40 upto-sweep "$upto" --preset sweep --only roi_align_grad_7x7_adaptive_tiny_map_f32 --iterations 50
