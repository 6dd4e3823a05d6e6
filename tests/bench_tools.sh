#!/bin/sh
# tools/bench_ab.py, tools/bench_variants.py and tools/bench_torch.py --chunk (and its --seed,
# --count and --shape, which --list and the runs must both get) against a stand-in
# dmlvk-bench (and, for bench_torch.py, a stand-in torch that times nothing): a whole run says
# "complete": true; a run that `timeout` stops mid-way still prints its table and leaves its JSON
# with the passes that finished and "complete": false; a bench that fails fails the tool.
# usage: bench_tools.sh TOOLS_DIR
set -u
unset LD_PRELOAD   # the sanitized build's preload is for dmlvk's binaries, not python
tools=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/bench" <<'BENCH'
#!/bin/sh
sleep "${FAKE_SLEEP:-0}"
[ -z "${FAKE_FAIL-}" ] || exit 3
echo '{"device": "stand-in", "copy_gbps": 100, "results": [{"name": "w1", "ms": '"${FAKE_MS:-1.0}"'}, {"name": "w2", "ms": 2.0}]}'
BENCH
chmod +x "$dir/bench"
fail=0
check() { # DESCRIPTION COMMAND...: fails the test where COMMAND fails
    what=$1
    shift
    if "$@"; then echo "PASS $what"; else echo "FAIL $what"; fail=1; fi
}
complete() { # JSON WANT_COMPLETE MIN_PASSES MAX_PASSES
    python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = sum(len(v) for v in d["passes"].values())
assert d["complete"] == (sys.argv[2] == "true"), d["complete"]
assert int(sys.argv[3]) <= n <= int(sys.argv[4]), n
PY
}

FAKE_MS=1.5 python3 "$tools/bench_ab.py" "$dir/bench" "$dir/bench" --passes 2 --out "$dir/ab.json" >"$dir/ab.txt" 2>/dev/null
check "bench_ab: a whole run exits 0" [ $? -eq 0 ]
check "bench_ab: a whole run's JSON" complete "$dir/ab.json" true 4 4
check "bench_ab: a whole run's table" grep -q "^w1 .* +0.0%" "$dir/ab.txt"

FAKE_SLEEP=1 timeout 4.5 python3 "$tools/bench_ab.py" "$dir/bench" "$dir/bench" --passes 3 --out "$dir/cut.json" >"$dir/cut.txt" 2>/dev/null
check "bench_ab: timeout stops it" [ $? -eq 124 ]
check "bench_ab: a stopped run's JSON" complete "$dir/cut.json" false 1 5
check "bench_ab: a stopped run's table" grep -q "stopped early" "$dir/cut.txt"
check "bench_ab: a stopped run's rows" grep -q "^w2 " "$dir/cut.txt"

FAKE_FAIL=1 python3 "$tools/bench_ab.py" "$dir/bench" "$dir/bench" >/dev/null 2>&1
check "bench_ab: a failing bench fails it" [ $? -ne 0 ]

python3 "$tools/bench_variants.py" "$dir/bench" --passes 2 --out "$dir/v.json" base: slow:FAKE_MS=2 \
    >"$dir/v.txt" 2>/dev/null
check "bench_variants: a whole run exits 0" [ $? -eq 0 ]
check "bench_variants: a whole run's JSON" complete "$dir/v.json" true 4 4
check "bench_variants: a whole run's table" grep -q "^w1 .*2.0000 +100.0%" "$dir/v.txt"

FAKE_SLEEP=2 timeout 3.5 python3 "$tools/bench_variants.py" "$dir/bench" --out "$dir/vcut.json" base: slow:FAKE_MS=2 \
    >"$dir/vcut.txt" 2>/dev/null
check "bench_variants: timeout stops it" [ $? -eq 124 ]
check "bench_variants: a stopped run's JSON" complete "$dir/vcut.json" false 1 1
check "bench_variants: a variant without a pass shows -" grep -q "^w1 .* -$" "$dir/vcut.txt"
# bench_torch.py --chunk: the names from --list, a process per chunk picked by --only, its JSON
# after each. The stand-in torch has what bench_torch.py reads before timing a workload; its
# workloads are of a kind PyTorch has none of, so nothing is timed.
mkdir -p "$dir/py/torch" "$dir/py/torchvision"
cat >"$dir/py/torch/__init__.py" <<'PY'
__version__ = "stand-in"
float32, float16, bfloat16, channels_last, contiguous_format = range(5)
class cuda:
    @staticmethod
    def get_device_name():
        return "stand-in"
PY
: >"$dir/py/torchvision/__init__.py"
cat >"$dir/tbench" <<'BENCH'
#!/usr/bin/env python3
import sys, time
names = ["w1", "w2", "w3"]
if "--seed" in sys.argv:  # the random preset's draw: another list per seed and count
    names = [f"s{sys.argv[sys.argv.index('--seed') + 1]}_c{sys.argv[sys.argv.index('--count') + 1]}_{n}" for n in names]
if "--shape" in sys.argv:  # resample shapes by name, in place of the preset's
    names = sys.argv[sys.argv.index("--shape") + 1].split(",")
if "--only" in sys.argv:
    subs = sys.argv[sys.argv.index("--only") + 1].split(",")
    names = [n for n in names if any(s in n for s in subs)]
if "--list" in sys.argv:
    print("\n".join(names))
    sys.exit(0)
time.sleep(float(__import__("os").environ.get("FAKE_SLEEP", "0")))
p = {"type": "FLOAT32", "kind": "stand-in", "n": 1, "c": 1, "h": 1, "w": 1, "oh": 1, "ow": 1}
rows = [{"name": n, "ms": 1.0, "bytes": 1e6, "fraction_of_copy": 0.5, "fraction_of_same_size_copy": 0.0,
         "params": p} for n in names]
print(__import__("json").dumps({"device": "stand-in", "copy_gbps": 100, "results": rows}))
BENCH
chmod +x "$dir/tbench"
torch_rows() { # JSON WANT_COMPLETE MIN_ROWS MAX_ROWS
    python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
names = [r["name"] for r in d["results"]]
assert d["complete"] == (sys.argv[2] == "true"), d["complete"]
assert int(sys.argv[3]) <= len(names) <= int(sys.argv[4]) and len(set(names)) == len(names), names
PY
}
PYTHONPATH="$dir/py" python3 "$tools/bench_torch.py" --bench "$dir/tbench" --chunk 2 --out "$dir/t.json" >"$dir/t.txt" 2>&1
check "bench_torch --chunk: a whole run exits 0" [ $? -eq 0 ]
check "bench_torch --chunk: a whole run's JSON" torch_rows "$dir/t.json" true 3 3
check "bench_torch --chunk: a whole run's table" grep -q "^w3 " "$dir/t.txt"
PYTHONPATH="$dir/py" python3 "$tools/bench_torch.py" --bench "$dir/tbench" --preset random --seed 5 --count 3 --chunk 2 \
    --out "$dir/tr.json" >"$dir/tr.txt" 2>&1
check "bench_torch --seed --count: passed to --list and to each chunk" torch_rows "$dir/tr.json" true 3 3
check "bench_torch --seed --count: the seed's rows" grep -q "^s5_c3_w3 " "$dir/tr.txt"
PYTHONPATH="$dir/py" python3 "$tools/bench_torch.py" --bench "$dir/tbench" --shape x1,x2,x3 --chunk 2 \
    --out "$dir/ts.json" >"$dir/ts.txt" 2>&1
check "bench_torch --shape: passed to --list and to each chunk" torch_rows "$dir/ts.json" true 3 3
check "bench_torch --shape: its rows" grep -q "^x3 " "$dir/ts.txt"
FAKE_SLEEP=1 PYTHONPATH="$dir/py" timeout 2.5 python3 "$tools/bench_torch.py" --bench "$dir/tbench" --chunk 1 \
    --out "$dir/tcut.json" >/dev/null 2>&1
check "bench_torch --chunk: timeout stops it" [ $? -eq 124 ]
check "bench_torch --chunk: a stopped run's JSON" torch_rows "$dir/tcut.json" false 1 2
exit $fail
