#!/bin/bash
# Prepared in session 98 (about 260 s; carry [".gl"], kits from
# `bash docs/experiments/device-kits.sh krule98b kpad98 kknob98`): why seed 47's rnd007 (ROI_ALIGN1 f32, 108
# adaptive regions of 7x7 on 2x128x200x320) runs at 0.76x torchvision (note 226). Its regions' samples per bin
# along x, mostly 3 to 16 and not powers of two, send them to whole bins inside the sample-rows shader. Variants:
# head (a3add68), pad (kpad98: docs/experiments/roi-align1-rows-padded-session98.patch, the rows walk for any
# samples per bin that fit the subgroup once rounded up to a power of two, the lanes past them idle; plus the
# knobs below), spread (kknob98: docs/experiments/roi-align1-rows-adaptive-knobs-session98.patch alone,
# DMLVK_EXP_ROWS_SPREAD=480: adaptive rows' smaller groups up to 4.8 times the device, not 2.4). Rows: float32
# adaptive random rows, then torchvision against pad on rnd007 and rnd065.
. .gl/device-setup.sh
v="head:KIT=krule98b pad:KIT=kpad98 spread:KIT=kknob98,DMLVK_EXP_ROWS_SPREAD=480"
mkdir -p /tmp/j
var() { local seed=$1 rows=$2; timeout 60 python3 .gl/bench_variants.py .gl/kit.sh --passes 2 --out /tmp/j/s$seed.json $v -- --preset random --count 192 --seed $seed --only $rows --iterations 30 --op-only 2>/dev/null | grep rnd; }
var 47 rnd007,rnd065; var 29 rnd190; var 3 rnd144,rnd135; var 5 rnd085; var 15 rnd024; var 57 rnd109; var 2026 rnd010
tar -C /tmp/j -cf $OUT/rows-padded-note227.tar .
timeout 90 python3 .gl/bench_torch.py --bench .gl/kpad98/dmlvk-bench --op-only --preset random --count 192 --seed 47 --only rnd007,rnd065 --out $OUT/torch-s47-pad.json 2>&1 | grep rnd
