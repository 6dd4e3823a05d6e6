#!/bin/bash
# Prepared in session 97 (about 230 s, 4.7 s per bench process; carry [".gl"], kits from
# `bash docs/experiments/device-kits.sh khead97 kbins97`): whether ROI_ALIGN1's whole-bins walk (16-bit types,
# MAX, 14x14 regions) gains from fewer channels per workgroup where regions times groups leave the device idle, as
# note 225 found for float32's sample rows. Variants: head (bbb986c, the library as committed: groups of up to 32
# channels), and kbins97 (e684d15, the same library, with docs/experiments/roi-whole-bins-channels-knob-session97.patch)
# at 8 and 4 channels per workgroup (DMLVK_EXP_BINS_CHANNELS; 2 channels per invocation in 16-bit types, so even counts). Rows: 16-bit rows
# of random seeds (--count 192) at fill (note 225's, for groups of 32) 0.12-0.58 adaptive, two fixed, one near 1.
. .gl/device-setup.sh
v="head:KIT=khead97 b8:KIT=kbins97,DMLVK_EXP_BINS_CHANNELS=8 b4:KIT=kbins97,DMLVK_EXP_BINS_CHANNELS=4"
var() { local seed=$1 rows=$2; timeout 60 python3 .gl/bench_variants.py .gl/kit.sh --passes 2 --out $OUT/bins-s$seed.json $v -- --preset random --count 192 --seed $seed --only $rows --iterations 30 --op-only 2>/dev/null | grep rnd; }
var 43 rnd012; var 44 rnd113,rnd139; var 38 rnd169; var 10 rnd092; var 5 rnd115; var 29 rnd159; var 39 rnd003
var 2 rnd000
