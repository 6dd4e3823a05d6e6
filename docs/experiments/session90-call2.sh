#!/bin/bash
# Prepared in session 90 (about 400 s; carry [".gl"]; kits .gl/khead (HEAD's library) and .gl/klast (HEAD with
# docs/experiments/roi-gather-last-part-note210.patch) from `bash docs/experiments/device-kits.sh khead klast`).
# BENCHMARKS.md note 210: ROI_ALIGN_GRAD's gather in parts without roi_align_grad_convert's dispatch (each tile's last
# part adds the parts' sums), against HEAD, over every ROI_ALIGN_GRAD row of the sweep, of random seeds 11 and 12 and
# of the GPU presets; ROI_ALIGN1's sweep rows as controls (the geometry stage, which clears the parts' counters).
. .gl/device-setup.sh
# First the patch's gather in parts on this GPU (its counters and coherent sums): test_roi_align's parts tests, a build
# of the patched tree with the libraries it links (.gl/t210), no validation layer there.
(cd .gl/t210 && LD_LIBRARY_PATH=. DMLVK_TEST_VALIDATION=0 DMLVK_TEST_FILTER='test_gather_parts*,test_gather_staged_parts,test_max_gather,test_tile_gather*,test_adjoint,test_torchvision' timeout 110 ./test_roi_align 2>&1 | grep -E "^\[ *(OK|FAILED|PASSED|SKIPPED) *\]|error|fail" | head -30)
var() { local t=$1 out=$2; shift 2; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json "base:KIT=khead" "last:KIT=klast" -- "$@" --op-only 2>/dev/null | tail -50; }
PASSES=2 var 100 s11 --preset random --seed 11 --only roi_align_grad --iterations 30
PASSES=2 var 100 s12 --preset random --seed 12 --only roi_align_grad --iterations 30
PASSES=2 var 190 sweep --preset sweep --only roi_align_grad,roi_align1 --iterations 30
PASSES=2 var 80 gpu --preset gpu --only roi_align --iterations 30
