#!/bin/bash
# BENCHMARKS.md note 190, prepared in session 80 and not run (the device time was spent): 16-bit block gathers onto
# rows that cannot store vectors in blocks of 4 columns whose block rows store the 8-byte unit that starts in them
# through the subgroup (knob DMLVK_EXP_QUADS=1 of docs/experiments/resample-odd-row-quads-knobs-note190.patch: LINEAR
# backward 4x4 in place of 4x2, NEAREST_NEIGHBOR and LINEAR forward the order's shapes in place of note 188's pairs)
# against the committed plans, on rnd018 and its 40-44 column forms, note 185's and 188's rows, note 186's held-out
# rows and wider odd rows (the sweep's odd sizes); and `words` (DMLVK_EXP_UNTRANSPOSED=1): plans that take note 186's
# odd-row words store through them in full subgroups too, which the committed shader sends to store_rows_transposed.
# Set-up here: apply the patch to aada5fe (note 190's correction) or later,
#   meson setup build-exp --buildtype=release -Dtests=false && ninja -C build-exp tools/dmlvk-bench
#   mkdir -p .gl/k90 && cp build-exp/tools/dmlvk-bench .gl/k90/ && cp tools/bench_*.py docs/experiments/$(basename $0) .gl/
#   and ../shared/tools/gpu-vulkan-debs. Device: bash .gl/$(basename $0) with carry [".gl"] (about 6 minutes).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-420}))
left() { echo $((END - $(date +%s))); }
Q=bilinear_grad_f16_23x152x470x41_152x13,bilinear_grad_f16_23x152x470x40_152x13,bilinear_grad_f16_23x152x470x42_152x13,bilinear_grad_f16_23x152x470x44_152x13,bilinear_grad_bf16_23x152x470x41_152x13,nearest_grad_f16_23x152x470x41_152x13,bilinear_f16_23x152x152x13_470x41,nearest_f16_23x152x152x13_470x41,rnd059_bilinear_grad_f16_19x470x256x23_91x7,rnd032_bilinear_grad_f16_23x140x304x15_215x6,rnd088_bilinear_grad_f16_5x395x140x23_80x13,rnd059_nearest_grad_f16_8x35x332x117_166x31,rnd142_nearest_f16_19x6x332x35_861x91,rnd066_nearest_f16_25x128x470x29_940x18,rnd190_nearest_grad_f16_1x431x332x215_87x133,rnd063_nearest_grad_bf16_32x304x279x13_189x9,rnd135_nearest_f16_3x215x13x166_52x583,rnd124_nearest_f16_32x152x41x64_32x49,bilinear_grad_f16_10x235x512x11_899x19,bilinear_f16_13x279x512x21_267x11,bilinear_grad_bf16_27x470x76x11_103x15,bilinear_bf16_11x64x362x49_362x35,bilinear_bf16_23x235x197x10_361x7,bilinear_grad_f16_29x215x215x19_394x35,bilinear_grad_f16_4x64x97x131_200x260,bilinear_grad_bf16_4x64x97x131_200x260,bilinear_f16_4x64x97x131_200x261,rnd058_bilinear_grad_f16_3x235x215x117_206x47,rnd050_bilinear_grad_f16_27x215x27x181_10x67,rnd027_bilinear_bf16_15x197x128x128_112x73
timeout $(left) python3 .gl/bench_variants.py .gl/k90/dmlvk-bench --passes 2 --out $OUT/note190.json base: \
    words:DMLVK_EXP_UNTRANSPOSED=1 quads:DMLVK_EXP_QUADS=1 -- --shape $Q --op-only --iterations 20 2>/dev/null
echo "== done, $(left) s left"
