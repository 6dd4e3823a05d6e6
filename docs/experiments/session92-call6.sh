#!/bin/bash
# Session 92's sixth device call (carry [".gl"]; kits .gl/kpre92 and .gl/k92b as for session92-call3.sh).
# BENCHMARKS.md note 215: float32 rows under the branch form (k92b), which float32 keeps, against a702248.
. .gl/device-setup.sh
timeout 100 python3 .gl/bench_variants.py .gl/kit.sh --passes 2 --out $OUT/branch-f32.json pre:KIT=kpre92 branch:KIT=k92b -- \
    --preset sweep --only with_roi_gradient_f32,4096_regions_f32,4096_regions_roi_gradient_f32,14x14_unaligned_small_map_f32,64_regions_tiny_map_f32,1024_regions_tiny_map_f32,mask_head_f32,64_regions_large_map_f32 \
    --iterations 30 --op-only 2>/dev/null | tail -14
timeout 40 python3 .gl/bench_variants.py .gl/kit.sh --passes 2 --out $OUT/branch-f32-gpu.json pre:KIT=kpre92 branch:KIT=k92b -- \
    --preset gpu --only roi_align_grad_7x7_f32,roi_align_grad_14x14_f32 --iterations 30 --op-only 2>/dev/null | tail -4
