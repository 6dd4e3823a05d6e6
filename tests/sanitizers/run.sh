#!/bin/sh
# The test suite built with AddressSanitizer and UndefinedBehaviorSanitizer, leak checking on.
# The driver is preloaded so that it is never unloaded: leaks inside it (suppressed in lsan.supp)
# then keep a module name, and dmlvk's own allocations stay checked.
# Sanitized tests run several times slower than plain ones: on a two-core machine test_resample and
# test_roi_align, side by side, take about 8 and 19 minutes, so the limits are doubled.
# usage: run.sh SOURCE_DIR BUILD_DIR
set -eu
src=$(cd "$1" && pwd)
build=$2
meson setup "$build" "$src" -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug >/dev/null
ninja -C "$build"
driver=$(ls /usr/lib/*/libvulkan_lvp.so 2>/dev/null | head -n 1)
DMLVK_SANITIZER_PRELOAD="$(gcc -print-file-name=libasan.so)${driver:+:$driver}" \
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
LSAN_OPTIONS="suppressions=$src/tests/sanitizers/lsan.supp" \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    meson test -C "$build" --print-errorlogs --num-processes 2 --no-suite random-large --timeout-multiplier 2 \
        --wrapper "$src/tests/sanitizers/preload.sh"
