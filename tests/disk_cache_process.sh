#!/bin/sh
# A second process starts from the pipeline cache the first one wrote.
# usage: disk_cache_process.sh DMLVK_RUN CASES_DIR
set -eu
# Under the sanitized build the preload (ASan runtime, driver) is for dmlvk-run, not for the shell tools.
preload=${LD_PRELOAD-}
unset LD_PRELOAD
run=$1
cases=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
DMLVK_CACHE_DIR=$dir LD_PRELOAD=$preload "$run" --stats "$cases" >/dev/null 2>"$dir/first.txt"
DMLVK_CACHE_DIR=$dir LD_PRELOAD=$preload "$run" --stats "$cases" >/dev/null 2>"$dir/second.txt"
cat "$dir/first.txt" "$dir/second.txt"
grep -q 'disk cache bytes loaded 0,' "$dir/first.txt"
if grep -q 'disk cache bytes loaded 0,' "$dir/second.txt"; then
    echo "FAIL: the second process did not load the cache file" >&2
    exit 1
fi
ls "$dir"/*.cache >/dev/null
echo "PASS: the second process loaded the cache written by the first"
