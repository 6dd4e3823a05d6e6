#!/bin/sh
# dmlvk-bench --preset random: --count distinct names, the same draw from the same seed (on any
# machine: exact arithmetic only), another from another seed, and --count outside 1..192 refused.
# usage: bench_random.sh DMLVK_BENCH
set -u
bench=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
check() { # DESCRIPTION COMMAND...: fails the test where COMMAND fails
    what=$1
    shift
    if "$@"; then echo "PASS $what"; else echo "FAIL $what"; fail=1; fi
}
"$bench" --preset random --seed 7 --count 120 --list >"$dir/a" || fail=1
"$bench" --preset random --seed 7 --count 120 --list >"$dir/b" || fail=1
"$bench" --preset random --seed 8 --count 120 --list >"$dir/c" || fail=1
check "random: --count names" [ "$(wc -l <"$dir/a")" -eq 120 ]
check "random: distinct names" [ "$(sort -u "$dir/a" | wc -l)" -eq 120 ]
check "random: the same seed, the same draw" cmp -s "$dir/a" "$dir/b"
check "random: another seed, another draw" sh -c "! cmp -s '$dir/a' '$dir/c'"
check "random: every kind drawn" sh -c "for k in _bilinear_grad_ _nearest_grad_ _bilinear_ _nearest_ _roi_align_grad_ \
    _roi_align1_ _nhwc_ _f32_ _f16_ _bf16_; do grep -q -- \"\$k\" '$dir/a' || exit 1; done"
"$bench" --preset random --count 0 --list >/dev/null 2>&1
check "random: --count 0 refused" [ $? -eq 2 ]
"$bench" --preset random --count 193 --list >/dev/null 2>&1
check "random: --count 193 refused" [ $? -eq 2 ]
exit $fail
