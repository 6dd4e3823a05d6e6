#!/bin/bash
# BENCHMARKS.md note 196's held-out rows, prepared in session 82 and not run: after roi-align-grad-planes-note196.sh
# has shown which part counts win where, the committed plan against the gather by planes at PARTS (default 2; a list
# such as "2 4" times each) on every ROI_ALIGN_GRAD row of the random seeds in SEEDS (default 1-5; then 6-10 and
# 11-16 in further calls) that the knob takes (map sides at most 64; OutH x InputWidth at most 640), less the
# in-sample rows: about 20 per seed. Same build and set-up as roi-align-grad-planes-note196.sh (.gl/k96); a call of
# five seeds at one part count fits 600 s.
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-560}))
left() { echo $((END - $(date +%s))); }
V="base:"
for p in ${PARTS:-2}; do V="$V p$p:DMLVK_EXP_ROI_PLANES=$p"; done
for seed in ${SEEDS:-1 2 3 4 5}; do
    rows=$(.gl/k96/dmlvk-bench --preset random --seed $seed --count 192 --list | python3 -c '
import re, sys
seed = int(sys.argv[1])
in_sample = {2: "rnd188 rnd100 rnd140 rnd106", 10: "rnd004 rnd022 rnd105 rnd140 rnd124 rnd009",
             11: "rnd042 rnd064 rnd030 rnd031 rnd015", 12: "rnd086 rnd149 rnd066"}.get(seed, "").split()
rows = []
for line in sys.stdin:
    m = re.match(r"(rnd\d+)_roi_align_grad_\w+?_(\d+)x(\d+)x(\d+)x(\d+)_(\d+)_r\d+_s\d+u?$", line.strip())
    if m and m.group(1) not in in_sample:
        h, w, oh = int(m.group(4)), int(m.group(5)), int(m.group(6))
        if h <= 64 and w <= 64 and oh * w <= 640:
            rows.append(m.group(1) + "_")
print(",".join(rows))' $seed)
    [ -z "$rows" ] && continue
    echo "== seed $seed: $rows, $(left) s left"
    timeout $(left) python3 .gl/bench_variants.py .gl/k96/dmlvk-bench --passes 2 --out $OUT/note196h-$seed.json $V \
        -- --preset random --seed $seed --count 192 --only $rows --op-only --iterations 20 2>/dev/null
done
echo "== done, $(left) s left"
