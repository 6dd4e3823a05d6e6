#!/bin/bash
# Session 92's fifth device call (carry [".gl"]; kits .gl/kpre92 and .gl/k92c as for session92-call4.sh).
# BENCHMARKS.md note 215: the float32 7x7 preset again, before and with the i & 3u reads, and its gather's registers.
. .gl/device-setup.sh
for k in kpre92 k92c; do
    echo "== $k"; timeout 30 .gl/$k/dmlvk-bench --preset gpu --only roi_align_grad_7x7_f32 --stats --iterations 1 --op-only 2>&1 | grep -i -E "gather" | sort -u | cut -c1-200
done
PASSES=3 timeout 70 python3 .gl/bench_variants.py .gl/kit.sh --passes 3 --out $OUT/and-f32.json pre:KIT=kpre92 and:KIT=k92c -- \
    --preset gpu --only roi_align_grad_7x7_f32,roi_align_grad_7x7_adaptive_f32 --iterations 40 --op-only 2>/dev/null | tail -6
