#!/bin/sh
# The concurrency test built with ThreadSanitizer. Without the validation layer (its own threads
# are not instrumented; the other runs cover validation), with the driver preloaded so that it
# stays loaded for the suppressions in tsan.supp.
# usage: threads.sh SOURCE_DIR BUILD_DIR
set -eu
src=$(cd "$1" && pwd)
build=$2
meson setup "$build" "$src" -Db_sanitize=thread -Db_lundef=false -Dbuildtype=debug >/dev/null
ninja -C "$build" tests/test_threads
driver=$(ls /usr/lib/*/libvulkan_lvp.so 2>/dev/null | head -n 1)
LD_PRELOAD="$(gcc -print-file-name=libtsan.so)${driver:+:$driver}" \
DMLVK_TEST_VALIDATION=0 \
TSAN_OPTIONS="suppressions=$src/tests/sanitizers/tsan.supp halt_on_error=1" \
    "$build/tests/test_threads"
