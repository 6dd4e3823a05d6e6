#!/usr/bin/env bash
# One session on the GPU machine (see BENCHMARKS.md): bring the Vulkan loader, check correctness
# on the real driver with the bundled and generated cases and two unit tests, then run the
# side-by-side benchmark.
# usage (from the repository root, with build/ and .gl/ carried): bash tests/bench/gpu_session.sh [OUTDIR]
set -u
out=${1:-/tmp/dmlvk-gpu}
mkdir -p "$out"
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export LD_LIBRARY_PATH=$PWD/build/lib DMLVK_CACHE_DIR=/tmp/dmlvk-cache
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
./build/tools/dmlvk-run --list-devices
./build/tools/dmlvk-run tests/cases build/tests/*.json > "$out/conformance.txt" 2>&1
echo "conformance on the GPU: $(tail -n 1 "$out/conformance.txt")"
grep -E '^(FAIL|ERROR)' "$out/conformance.txt" | head -20
# The unit tests that compare paths bit for bit: a real driver fuses arithmetic where lavapipe
# does not (test_block_gather_inf, BENCHMARKS.md note 71). That machine has no validation layer.
for t in test_resample test_roi_align; do
    DMLVK_TEST_VALIDATION=0 "./build/tests/$t" > "$out/$t.txt" 2>&1
    echo "$t on the GPU: $(grep -E '^\[  (PASSED|FAILED)  \]' "$out/$t.txt" | tr '\n' ' ')"
done
PYTHONUNBUFFERED=1 python3 tools/bench_torch.py --bench build/tools/dmlvk-bench --iterations "${ITERATIONS:-50}" \
    --out "$out/bench.json" 2>&1 | tee "$out/bench.txt"
