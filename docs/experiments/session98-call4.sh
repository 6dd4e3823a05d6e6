#!/bin/bash
# Session 98's last device call (about 130 s; carry [".gl"], kits from
# `bash docs/experiments/device-kits.sh khead97 krule98b`): the 16-bit whole-bins rule as committed in a3add68
# (note 226) against the library before it (bbb986c), on rows of call 3 where it picks 16 (seed 38 rnd169), 8
# (rnd113, rnd139, rnd116, rnd003, rnd044) and the usual group (rnd121 of seed 39, rnd100 and rnd086 of seed 26).
. .gl/device-setup.sh
v="head:KIT=khead97 rule:KIT=krule98b"
var() { local seed=$1 rows=$2; timeout 45 python3 .gl/bench_variants.py .gl/kit.sh --passes 2 --out $OUT/s$seed.json $v -- --preset random --count 192 --seed $seed --only $rows --iterations 30 --op-only 2>/dev/null | grep rnd; }
var 38 rnd169; var 44 rnd113,rnd139,rnd116; var 39 rnd003,rnd121; var 26 rnd100,rnd086,rnd044
