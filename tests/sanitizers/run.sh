#!/bin/sh
# The test suite built with AddressSanitizer and UndefinedBehaviorSanitizer, leak checking on, the
# validation layer on as in any test build. The driver is preloaded so that it is never unloaded:
# leaks inside it (suppressed in lsan.supp) then keep a module name, and dmlvk's own allocations
# stay checked. Optimized (-O2) as the sanitizers' authors advise: the tests' float64 references
# took a sixth of test_resample's time at -O0. Sanitized tests run two to three times slower than
# plain ones (lavapipe's allocations go through the sanitizer's allocator): the limits are doubled.
# usage: run.sh SOURCE_DIR BUILD_DIR
set -eu
src=$(cd "$1" && pwd)
build=$2
meson setup "$build" "$src" -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debugoptimized >/dev/null
ninja -C "$build"
driver=$(ls /usr/lib/*/libvulkan_lvp.so 2>/dev/null | head -n 1)
DMLVK_SANITIZER_PRELOAD="$(gcc -print-file-name=libasan.so)${driver:+:$driver}" \
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
LSAN_OPTIONS="suppressions=$src/tests/sanitizers/lsan.supp" \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    meson test -C "$build" --print-errorlogs --num-processes 2 --no-suite random-large --timeout-multiplier 2 \
        --wrapper "$src/tests/sanitizers/preload.sh"
