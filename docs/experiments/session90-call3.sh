#!/bin/bash
# Prepared in session 90 (about 450 s; carry [".gl"]; kits .gl/khead, .gl/klast as for session90-call2.sh and .gl/klast4:
# note 210's patch with the last part's loads issued four elements at a time, as committed if it wins). BENCHMARKS.md
# note 210, second call: the rows whose gather takes parts (many regions on small maps) and two presets as controls.
. .gl/device-setup.sh
(cd .gl/t210 && LD_LIBRARY_PATH=. DMLVK_TEST_VALIDATION=0 DMLVK_TEST_FILTER='test_gather_parts*,test_gather_staged_parts,test_max_gather' timeout 60 ./test_roi_align 2>&1 | grep -E "^\[ *(OK|FAILED|PASSED|SKIPPED) *\]|error|fail" | head -30)
var() { local t=$1 out=$2; shift 2; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json "base:KIT=khead" "last:KIT=klast" "last4:KIT=klast4" -- "$@" --op-only 2>/dev/null | tail -30; }
PASSES=2 var 90 s11 --preset random --seed 11 --only rnd042,rnd005,rnd015,rnd001 --iterations 30
PASSES=2 var 90 s12 --preset random --seed 12 --only rnd034,rnd025,rnd016,rnd036 --iterations 30
PASSES=2 var 150 sweep --preset sweep --only 7x7_4096_regions_f32,7x7_4096_regions_bf16,1024_regions_tiny_map,14x14_64_regions_tiny_map_f32,4096_regions_roi_gradient,small_map_roi_gradient,tiny_map_roi_gradient,unaligned_small_map_f32 --iterations 30
PASSES=2 var 60 gpu --preset gpu --only roi_align_grad_7x7_f32,roi_align_grad_7x7_bf16 --iterations 30
