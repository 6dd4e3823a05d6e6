#!/bin/bash
# Prepared in session 90 for the next device call (about 200 s; carry [".gl"]; kit .gl/kstages from
# `bash docs/experiments/device-kits.sh kstages`): where the 7x7 ROI_ALIGN_GRAD presets' time goes, stage by stage,
# on the H100. Issue 17 asks 10x PyTorch's bfloat16 there and note 211 measured 8.14x (0.1721 ms against 1.4005):
# 19% to find. Note 97 last profiled these presets (session 37), before the lines, the scan rounds and the staged
# walk changed. First each row's plan (DMLVK_EXP_LIST), then its time with only its first N dispatches recorded.
. .gl/device-setup.sh
export KIT=kstages
plan() { DMLVK_EXP_LIST=1 timeout 30 .gl/kstages/dmlvk-bench "$@" --iterations 1 --op-only 2>&1 | grep "^dispatch" | sort -u; }
for row in roi_align_grad_7x7_bf16 roi_align_grad_7x7_f16 roi_align_grad_7x7_f32 roi_align_grad_14x14_bf16; do
    echo "== plan of $row"; plan --preset gpu --only $row
done > $OUT/plans.txt; cat $OUT/plans.txt
upto="all: u1:DMLVK_EXP_UPTO=1 u2:DMLVK_EXP_UPTO=2 u3:DMLVK_EXP_UPTO=3 u4:DMLVK_EXP_UPTO=4 u5:DMLVK_EXP_UPTO=5 u6:DMLVK_EXP_UPTO=6"
timeout 150 python3 .gl/bench_variants.py .gl/kit.sh --passes 2 --out $OUT/upto-presets.json $upto -- --preset gpu \
    --only roi_align_grad_7x7_bf16,roi_align_grad_7x7_f16,roi_align_grad_7x7_f32,roi_align_grad_14x14_bf16 --iterations 30 \
    --op-only 2>/dev/null | tail -12
