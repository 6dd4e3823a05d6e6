#!/bin/bash
# BENCHMARKS.md note 214 (session 92): forced block shapes on the H100 over the sweep's resample rows that note 208
# found under 80% of copy, backward (19 rows) then forward (20), next to the committed plans. Knob patch
# docs/experiments/resample-shapes-knobs-note214.patch (note 194's DMLVK_EXP_SHAPE=BYxBX, which takes that shape
# wherever it fits, plus DMLVK_EXP_SHAPE_PRINT, the chosen shape on stderr); kit .gl/k214 from
# `bash docs/experiments/device-kits.sh k214`. Device: `bash .gl/session92-call.sh` with carry [".gl"].
source .gl/device-setup.sh
START=$(date +%s)
B=bilinear_grad_odd_f32,bilinear_grad_odd_f16,bilinear_grad_odd_bf16,trilinear_grad_1.5x_f32,bilinear_grad_down0.7x_f32,bilinear_grad_nhwc_seg150_4x_f16,bilinear_grad_down_odd_f16,bilinear_grad_down_odd_f32,bilinear_grad_nhwc_odd_f32,bilinear_grad_nhwc_odd_bf16,trilinear_grad_2x_f32,bilinear_grad_4x_bf16,bilinear_grad_4x_f16,bilinear_grad_1.3x_f32,bilinear_grad_2x3x_f32,nearest_grad_odd_f32,trilinear_grad_down2x_f32,bilinear_grad_ncwh_2x_f16,bilinear_grad_nhwc_seg19_4x_f32
F=bilinear_odd_width_bf16,bilinear_odd_width_f16,bilinear_odd_width_f32,bilinear_nhwc_seg150_4x_f16,bilinear_odd_bf16,bilinear_odd_f16,bilinear_odd_f32,bilinear_nhwc_seg19_4x_f32,trilinear_1.5x_f32,bilinear_1.3x_f32,trilinear_2x_f32,bilinear_4x_bf16,bilinear_4x_f16,nearest_odd_width_f32,bilinear_down_odd_bf16,bilinear_down_odd_f16,bilinear_down_odd_f32,bilinear_1.5x_f16,bilinear_nhwc_2x_f16,bilinear_ncwh_2x_f16
S() { echo "s$1:DMLVK_EXP_SHAPE=$1"; }
timeout ${BUDGET_B:-270} python3 .gl/bench_variants.py .gl/k214/dmlvk-bench --passes 2 --out $OUT/note214-backward.json base: \
    $(S 2x1) $(S 2x2) $(S 2x4) $(S 4x2) $(S 4x4) $(S 4x1) -- --preset sweep --only $B --op-only --iterations 20 2>/dev/null
echo "== backward done at $(( $(date +%s) - START )) s"
timeout ${BUDGET_F:-270} python3 .gl/bench_variants.py .gl/k214/dmlvk-bench --passes 2 --out $OUT/note214-forward.json base: \
    $(S 2x2) $(S 2x4) $(S 4x2) $(S 4x4) $(S 8x2) $(S 8x4) -- --preset sweep --only $F --op-only --iterations 20 2>/dev/null
echo "== forward done at $(( $(date +%s) - START )) s"
