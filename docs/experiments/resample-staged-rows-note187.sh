#!/bin/bash
# BENCHMARKS.md note 187, prepared in session 79 and not yet run: staged block rows (workgroups that each take whole
# block rows of one plane, stage their sums in shared memory and store the rows' run of memory as 16-byte vectors)
# against the committed stores, on narrow 16-bit rows and a spread of wider ones; w42 keeps note 185's float16 4x1 rows
# (rnd059, rnd032 below) in 4x2 blocks with note 186's odd-row words, and leaves every other row as base (a noise check).
# Set-up here (not on the device), from the repository's root: ../shared/tools/gpu-vulkan-debs, then
#   git worktree add /tmp/k87 HEAD && (cd /tmp/k87 && git apply docs/experiments/resample-staged-rows-knobs-note187.patch &&
#     meson setup b --buildtype=release -Dtests=false && ninja -C b tools/dmlvk-bench)
#   mkdir -p .gl/k87 && cp /tmp/k87/b/tools/dmlvk-bench .gl/k87/ && cp tools/bench_variants.py .gl/
#   cp docs/experiments/resample-staged-rows-note187.sh .gl/; git worktree remove --force /tmp/k87
# Device: run `bash .gl/resample-staged-rows-note187.sh` with carry [".gl"] (about 8 minutes).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-480}))
left() { echo $((END - $(date +%s))); }
S=bilinear_grad_f16_23x152x470x41_152x13,bilinear_grad_f16_23x152x470x40_152x13,bilinear_grad_f16_23x152x470x42_152x13
S=$S,bilinear_grad_f16_23x152x470x44_152x13,bilinear_grad_bf16_23x152x470x41_152x13,nearest_grad_f16_23x152x470x41_152x13
S=$S,bilinear_f16_23x152x152x13_470x41,nearest_f16_23x152x152x13_470x41,bilinear_f16_23x152x152x13_470x40
# held-out rows of note 186 (30 MB+), then rows of 3-41 columns of seeds 1-16 (10 MB+)
S=$S,bilinear_grad_f16_10x235x512x11_899x19,bilinear_f16_13x279x512x21_267x11,bilinear_grad_bf16_27x470x76x11_103x15
S=$S,bilinear_bf16_11x64x362x49_362x35,nearest_bf16_19x181x197x49_215x33,bilinear_grad_bf16_6x256x197x23_755x12
S=$S,bilinear_f16_11x128x304x70_215x29,bilinear_bf16_23x235x197x10_361x7,bilinear_grad_f16_27x76x76x25_181x59
S=$S,bilinear_grad_f16_29x215x215x19_394x35,bilinear_bf16_27x99x431x15_1118x39
S=$S,rnd054_bilinear_grad_bf16_23x470x181x25_67x7,rnd051_bilinear_grad_bf16_6x470x304x9_394x12
S=$S,rnd056_nearest_bf16_5x181x304x16_430x23,rnd054_nearest_grad_bf16_2x470x332x29_117x10
S=$S,rnd063_bilinear_bf16_32x49x279x15_159x9,rnd062_nearest_bf16_29x197x83x25_25x7
S=$S,rnd036_bilinear_grad_f16_7x76x304x35_558x64,rnd002_nearest_bf16_23x362x25x64_13x33
# the 4x1 rows of note 185, and wider rows (staged wherever a workgroup holds a whole block row)
S=$S,rnd059_bilinear_grad_f16_19x470x256x23_91x7,rnd032_bilinear_grad_f16_23x140x304x15_215x6
S=$S,rnd050_bilinear_grad_f16_27x215x27x181_10x67,rnd058_bilinear_grad_f16_3x235x215x117_206x47
S=$S,bilinear_grad_f16_4x64x97x131_200x260,rnd027_bilinear_bf16_15x197x128x128_112x73
timeout $(left) python3 .gl/bench_variants.py .gl/k87/dmlvk-bench --passes 2 --out $OUT/note187.json base: \
    staged:DMLVK_EXP_STAGED=1 w42:DMLVK_EXP_NO41=1 -- --shape $S --op-only --iterations 20 2>/dev/null
echo "== done, $(left) s left"
