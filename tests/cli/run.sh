#!/bin/sh
# dmlvk-run's command line: every malformed file in bad/ exits 2 with FILE:LINE:COLUMN or the
# file's name and a reason, never a signal; --json is one JSON document; --dump writes .bin + .json.
# usage: run.sh DMLVK_RUN CASES_DIR
set -u
# Under the sanitized build the preload (ASan runtime, driver) is for dmlvk-run, not for sh or python.
preload=${LD_PRELOAD-}
unset LD_PRELOAD
dmlvk_run() { LD_PRELOAD=$preload "$run" "$@"; }
run=$1
cases=$2
here=$(cd "$(dirname "$0")" && pwd)
fail=0
for f in "$here"/bad/*.json; do
    dmlvk_run "$f" >/dev/null 2>/tmp/dmlvk-cli-err.$$
    code=$?
    name=$(basename "$f")
    if [ $code -ne 2 ] || ! grep -q "$name" /tmp/dmlvk-cli-err.$$; then
        echo "FAIL $name: exit $code, stderr: $(cat /tmp/dmlvk-cli-err.$$)"
        fail=1
    else
        echo "PASS $name: $(head -n 1 /tmp/dmlvk-cli-err.$$)"
    fi
done
rm -f /tmp/dmlvk-cli-err.$$
# --offset takes a multiple of 4 up to 4096, else exit status 2 before anything runs.
for bad in 6 4100 x 4x; do
    dmlvk_run --offset "$bad" "$cases" >/dev/null 2>&1; st=$?
    [ "$st" -eq 2 ] || { echo "FAIL --offset $bad: exit status $st, expected 2"; fail=1; }
done
dmlvk_run --offset 4096 --json "$cases" | python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["failed"] == 0 and d["passed"] > 0 and d["offset"] == 4096, d' || { echo "FAIL --offset 4096"; fail=1; }
dmlvk_run --json "$cases" | python3 -c 'import json, sys; d = json.load(sys.stdin); assert d["failed"] == 0 and d["passed"] > 0, d' || fail=1
dump=$(mktemp -d)
dmlvk_run --dump "$dump" "$cases" >/dev/null || fail=1
bins=$(ls "$dump"/*.bin | wc -l)
jsons=$(ls "$dump"/*.json | wc -l)
[ "$bins" -gt 0 ] && [ "$bins" -eq "$jsons" ] || { echo "FAIL --dump: $bins .bin, $jsons .json"; fail=1; }
rm -rf "$dump"
# --dump creates a missing folder (and its parents); a dump that cannot be written is exit status 2.
dump=$(mktemp -d)
dmlvk_run --dump "$dump/new/deeper" "$cases" >/dev/null || fail=1
[ "$(ls "$dump/new/deeper"/*.bin | wc -l)" -gt 0 ] || { echo "FAIL --dump into a missing folder"; fail=1; }
touch "$dump/file"
dmlvk_run --dump "$dump/file/sub" "$cases" >/dev/null 2>&1; st=$?
[ "$st" -eq 2 ] || { echo "FAIL --dump under a file: exit status $st, expected 2"; fail=1; }
# A file that cannot be written (its name taken by a folder), even for root.
mkdir -p "$dump/taken/relu_spec-example.OutputTensor.bin"
dmlvk_run --dump "$dump/taken" "$cases/spec-example.json" >/dev/null 2>&1; st=$?
[ "$st" -eq 2 ] || { echo "FAIL --dump over a folder of the file's name: exit status $st, expected 2"; fail=1; }
if [ "$(id -u)" != 0 ]; then  # root writes into read-only folders anyway
    mkdir "$dump/ro" && chmod 555 "$dump/ro"
    dmlvk_run --dump "$dump/ro" "$cases" >/dev/null 2>&1; st=$?
    [ "$st" -eq 2 ] || { echo "FAIL --dump into a read-only folder: exit status $st, expected 2"; fail=1; }
fi
rm -rf "$dump"
dmlvk_run --help >/dev/null || fail=1
dmlvk_run --bogus-option >/dev/null 2>&1; [ $? -eq 2 ] || { echo "FAIL: an unknown option does not exit 2"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: dmlvk-run's command line"
exit $fail
