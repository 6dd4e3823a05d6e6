#!/bin/bash
# Prepared in session 88 for the next device call (about 450 s; carry [".gl"]): HEAD's library (.gl/khead) next to
# PyTorch on every ROI_ALIGN_GRAD row of the sweep and of random seeds 11 and 12 (the standing of issue 15's ROI
# target after note 206), then HEAD against note 206's `hoist` on top of it (.gl/kh206) with three passes.
# Kits: `bash docs/experiments/device-kits.sh khead kh206` (xz them if the carry passes 64 MiB; this unpacks them).
. .gl/device-setup.sh
vs_torch() { local t=$1 out=$2; shift 2; timeout $t python3 .gl/bench_torch.py --bench .gl/khead/dmlvk-bench --op-only --out $OUT/$out.json "$@" 2>/dev/null | tail -50; }
ab() { local t=$1 out=$2; shift 2; timeout $t python3 .gl/bench_ab.py .gl/khead/dmlvk-bench .gl/kh206/dmlvk-bench --passes 3 --out $OUT/$out.json -- "$@" --op-only 2>/dev/null | tail -50; }
vs_torch 100 torch-s11 --preset random --seed 11 --only roi_align_grad
vs_torch 100 torch-s12 --preset random --seed 12 --only roi_align_grad
vs_torch 120 torch-sweep --preset sweep --only roi_align_grad_ --chunk 15
ab 130 hoist-sweep --preset sweep --only roi_align_grad_ --iterations 30
ab 40 hoist-gpu --preset gpu --only roi_align_grad --iterations 50
