#!/bin/bash
# Prepared in session 97 for the next device call (about 250 s; carry [".gl"], kits from
# `bash docs/experiments/device-kits.sh kbase96 khead97`): note 225's rule for ROI_ALIGN1's sample rows where it
# was not timed, and the rows it changed next to torchvision. Variants: old (45143d7, 32 channels everywhere), head
# (bbb986c: 16 channels for fixed sampling within 110% of the device, 8 for adaptive within 240%). Rows: 7x7
# adaptive rows at 0.58 to 1.49 of an H100 (the fill of note 225: 16 channels by the rule between 0.6 and 1.2, none
# timed), then torchvision against head on rnd018 (seed 2026) and rnd007/rnd065 (seed 47).
. .gl/device-setup.sh
v="old:KIT=kbase96 head:KIT=khead97"
var() { local seed=$1 rows=$2; timeout 60 python3 .gl/bench_variants.py .gl/kit.sh --passes 2 --out $OUT/s$seed.json $v -- --preset random --count 192 --seed $seed --only $rows --iterations 30 --op-only 2>/dev/null | grep rnd; }
var 44 rnd160; var 5 rnd085; var 4 rnd127; var 3 rnd135,rnd144; var 25 rnd072; var 15 rnd024; var 57 rnd109
tv() { local seed=$1 rows=$2; timeout 90 python3 .gl/bench_torch.py --bench .gl/khead97/dmlvk-bench --op-only --preset random --count 192 --seed $seed --only $rows --out $OUT/torch-s$seed.json 2>&1 | grep rnd; }
tv 2026 rnd018; tv 47 rnd007,rnd065
