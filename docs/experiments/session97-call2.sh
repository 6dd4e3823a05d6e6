#!/bin/bash
# Session 97, call 2 (about 100 s, 4.7 s per bench process; carry [".gl"]; kits kbase96 kexp96 krule97): the float32 sample-row
# walk with 16 and 8 channels per workgroup (r16, r8) against 32 (old) on 7x7 rows of random seeds whose walk
# starts 0.12 to 0.82 times the invocations an H100 holds (132 SMs of 2048: the `fill` in note 225), to find where
# fewer channels per workgroup win (call 1: rnd018 of seed 2026, fill 0.53, -7%; seed 12's rnd006, 0.89, +15%).
# .gl/krule97 (the rule: halving while the walk stays within 110% of the device, down to 16) prints the count it reads.
. .gl/device-setup.sh
v="old:KIT=kbase96 r16:KIT=kexp96,DMLVK_EXP_ROWS_CHANNELS=16 r8:KIT=kexp96,DMLVK_EXP_ROWS_CHANNELS=8"
DMLVK_EXP_PRINT_RESIDENT=1 .gl/krule97/dmlvk-bench --preset random --seed 2026 --only rnd018 --iterations 2 --op-only 2>&1 | grep resident | sort | uniq -c
var() { local seed=$1 rows=$2; timeout 60 python3 .gl/bench_variants.py .gl/kit.sh --passes 2 --out $OUT/s$seed.json $v -- --preset random --count 192 --seed $seed --only $rows --iterations 30 --op-only 2>/dev/null | grep rnd; }
var 47 rnd065,rnd007; var 29 rnd059,rnd190; var 35 rnd180,rnd022
