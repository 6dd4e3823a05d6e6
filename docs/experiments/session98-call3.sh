#!/bin/bash
# Session 98's second device call (about 290 s; carry [".gl"], kits from
# `bash docs/experiments/device-kits.sh khead97 krule98`): note 226's rule for ROI_ALIGN1's 16-bit whole bins
# (cfa63d7: groups of 16 or 8 channels within 150% of the device) against the library before it (bbb986c), on
# 16-bit random rows where it picks 16 channels (untimed by the knob run: fill at 16 of 0.8 to 1.5, fixed, adaptive
# and one-sample sampling, 7x7 and 14x14), where it picks 8 (the knob run's rows, and rows of one sample per bin),
# and seed 2's rnd000 (unchanged: the control). One JSON (the device returns few files): a tar of each seed's.
. .gl/device-setup.sh
v="head:KIT=khead97 rule:KIT=krule98"
mkdir -p /tmp/j
var() { local seed=$1 rows=$2; timeout 60 python3 .gl/bench_variants.py .gl/kit.sh --passes 2 --out /tmp/j/s$seed.json $v -- --preset random --count 192 --seed $seed --only $rows --iterations 30 --op-only 2>/dev/null | grep rnd; }
var 38 rnd169; var 10 rnd092,rnd117; var 5 rnd115,rnd045
var 2 rnd000,rnd012,rnd135,rnd119,rnd099,rnd029,rnd064
var 43 rnd012,rnd112,rnd118,rnd123,rnd143; var 44 rnd113,rnd139,rnd121,rnd116
var 29 rnd159,rnd083,rnd182; var 39 rnd003,rnd162,rnd121
var 50 rnd054,rnd188,rnd102,rnd008,rnd101; var 60 rnd089,rnd026,rnd097,rnd148,rnd174
var 49 rnd021,rnd014,rnd066,rnd175; var 26 rnd097,rnd086,rnd044,rnd100
var 31 rnd156,rnd033,rnd102,rnd140,rnd144; var 17 rnd032,rnd128,rnd152
tar -C /tmp/j -cf $OUT/bins-rule-note226.tar .
