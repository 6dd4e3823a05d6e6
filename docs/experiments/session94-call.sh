#!/bin/bash
# Session 94's device call (carry [".gl"]; kit .gl/k217 from `bash docs/experiments/device-kits.sh k217`): BENCHMARKS.md
# note 217, where the ROI gradient's time goes. Shaders by number (glsl/meson.build's order): 21 the gather, 22 the
# gather that sums the ROI gradient (float32), 23 roi_align_grad_roi (16-bit; float32 with DMLVK_EXP_NO_FUSED=1).
. .gl/device-setup.sh
var() { local t=$1 out=$2 v=$3; shift 3; timeout $t python3 .gl/bench_variants.py .gl/kit.sh --passes $PASSES --out $OUT/$out.json $v -- "$@" --op-only 2>/dev/null | tail -40; }
ROWS=with_roi_gradient_f32,with_roi_gradient_f16,with_roi_gradient_bf16,avg_7x7_same_shape_f32,avg_7x7_same_shape_f16,avg_7x7_same_shape_bf16,with_roi_gradient_nhwc_f32,with_roi_gradient_nhwc_f16
for r in with_roi_gradient_f32 with_roi_gradient_f16; do
    for v in "" DMLVK_EXP_NO_FUSED=1; do
        echo "== $r $v"; env KIT=k217 DMLVK_EXP_LIST=1 $v timeout 60 .gl/kit.sh --preset sweep --only $r --iterations 1 --op-only 2>&1 | grep -E "^dispatch" | sort -u
    done
done
PASSES=2 var 420 roi-gradient-stages "base:KIT=k217 no_roi:KIT=k217,DMLVK_EXP_SKIP_SHADER=23 no_gather:KIT=k217,DMLVK_EXP_SKIP_SHADER=21 no_fused:KIT=k217,DMLVK_EXP_SKIP_SHADER=22 unfused:KIT=k217,DMLVK_EXP_NO_FUSED=1 unfused_no_roi:KIT=k217,DMLVK_EXP_NO_FUSED=1,DMLVK_EXP_SKIP_SHADER=23 unfused_no_gather:KIT=k217,DMLVK_EXP_NO_FUSED=1,DMLVK_EXP_SKIP_SHADER=21 items2:KIT=k217,DMLVK_EXP_ROI_ITEMS=2 items4:KIT=k217,DMLVK_EXP_ROI_ITEMS=4 items16:KIT=k217,DMLVK_EXP_ROI_ITEMS=16 unfused_items2:KIT=k217,DMLVK_EXP_NO_FUSED=1,DMLVK_EXP_ROI_ITEMS=2" --preset sweep --only $ROWS --iterations 30
echo "== registers"; KIT=k217 timeout 60 .gl/kit.sh --preset sweep --only with_roi_gradient_f16 --stats --iterations 1 --op-only 2>&1 | grep -i -E "roi_align_grad_(roi|gather)" | head -6
