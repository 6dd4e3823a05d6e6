#!/bin/bash
# Prepared in session 90 for the device time left (about 140 s; carry [".gl"]; kit .gl/khead at HEAD from
# `bash docs/experiments/device-kits.sh khead`): the 16-bit GPU presets next to PyTorch on the H100, which note 208's
# call could not reach (issue 17's bfloat16 targets against float16's).
. .gl/device-setup.sh
timeout 140 python3 .gl/bench_torch.py --bench .gl/khead/dmlvk-bench --preset gpu --only _bf16,_f16 --op-only --chunk 4 \
    --iterations 30 --out $OUT/presets16.json 2>&1 | tail -25
