#!/bin/sh
# Builds the libFuzzer target with clang (ASan + UBSan) and runs it for a bounded time on the seed
# corpus in tests/fuzz/corpus. A crash leaves crash-* in the working directory and fails the run;
# add the input to the corpus once fixed, so that it stays a regression case.
# usage: run.sh SOURCE_DIR BUILD_DIR SECONDS
set -eu
src=$(cd "$1" && pwd)
build=$2
seconds=${3:-60}
CC=clang meson setup "$build" "$src" -Dfuzzing=true -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
ninja -C "$build" tests/fuzz_cases
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/tests/fuzz_cases" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 \
    "$work" "$src/tests/fuzz/corpus" 2>&1 | grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)' || true
test "$(ls crash-* leak-* oom-* timeout-* 2>/dev/null | wc -l)" -eq 0
echo "fuzz: no crash in ${seconds}s"
