#!/bin/sh
# dmlvk-bench --preset random: --count distinct names, the same draw from the same seed (on any
# machine: exact arithmetic only), another from another seed, and --count outside 1..192 refused;
# --shape reading its rows' names back.
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
# --shape: every resample row of the draw timed alone by its name, with or without its rndNNN_, reads
# back as that name (its fields parsed, then printed); names of no resample shape refused.
grep -v roi_align "$dir/a" >"$dir/shapes"
"$bench" --shape "$(paste -sd, "$dir/shapes")" --list >"$dir/back" || fail=1
check "shape: the random rows read back" cmp -s "$dir/shapes" "$dir/back"
while read -r name; do echo "${name#rnd*_}"; done <"$dir/shapes" >"$dir/bare"
"$bench" --shape "$(paste -sd, "$dir/bare")" --list >"$dir/back" || fail=1
check "shape: without rndNNN_" cmp -s "$dir/bare" "$dir/back"
for bad in bilinear_grad_f16_2x3x4x5_6 bilinear_grad_f64_1x1x1x1_1x1 rnd7_bilinear_f32_1x2x3x4_5x6 \
    bilinear_f32_0x2x3x4_5x6 bilinear_f32_01x2x3x4_5x6 roi_align_grad_f32_2x64x27x29_14_r108_s1 ""; do
    "$bench" --shape "$bad" --list >/dev/null 2>&1
    check "shape: \"$bad\" refused" [ $? -eq 2 ]
done
exit $fail
