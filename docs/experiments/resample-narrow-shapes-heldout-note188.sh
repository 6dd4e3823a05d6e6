#!/bin/bash
# BENCHMARKS.md note 188 (session 80), run 48, held out: 16-bit rows of random seeds 61-90 whose plans note 188's
# rules change (every float16 4x1 row of 4 MB+; of the NEAREST_NEIGHBOR rows of 8 MB+, every other one, those of
# 14 MB+), 8e5c788 (new18) against the first form of note 188's rules (new19: the committed form adds
# NEAREST_PAIR_MOST_SHRINK, which gives 7 forward rows back their old plans); first the resample cases of refgen
# 20261404 (size 2) through new19 on the GPU.
# Set-up here: release builds of both commits (meson setup build-rel --buildtype=release -Dtests=false) copied to
#   .gl/new18, .gl/new19 (dmlvk-bench, dmlvk-run; libdmlvk.so.0 of note 188 in .gl/lib), refgen's resample*.json in
#   .gl/rg, tools/bench_*.py and this script in .gl/. Device: bash .gl/$(basename $0), carry [".gl"].
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-560}))
left() { echo $((END - $(date +%s))); }
timeout 60 .gl/new19/dmlvk-run .gl/rg > $OUT/rg.txt 2>&1; echo "refgen rc $? (124: cut by its time limit)"
grep -c '^PASS' $OUT/rg.txt; grep -v '^PASS' $OUT/rg.txt | head
H=rnd088_bilinear_grad_f16_5x395x140x23_80x13,rnd128_bilinear_grad_f16_13x362x99x19_29x6,rnd013_bilinear_grad_f16_8x128x362x21_256x15,rnd186_bilinear_grad_f16_10x304x215x23_215x9,rnd105_nearest_grad_f16_5x11x256x362_146x256,rnd186_nearest_grad_f16_10x70x70x49_61x112,rnd162_nearest_f16_2x23x304x166_449x245,rnd153_nearest_grad_f16_3x91x49x431_28x245,rnd017_nearest_f16_5x99x512x19_395x15,rnd105_nearest_bf16_1x304x10x215_35x755,rnd074_nearest_grad_f16_5x10x332x395_197x235,rnd100_nearest_grad_f16_4x235x166x41_166x17,rnd041_nearest_f16_13x395x38x38_19x19,rnd057_nearest_bf16_5x215x152x35_245x18,rnd161_nearest_grad_bf16_19x117x117x21_173x14,rnd184_nearest_bf16_2x470x27x395_11x159,rnd183_nearest_bf16_10x91x49x256_17x91,rnd019_nearest_grad_f16_12x181x99x41_67x41,rnd023_nearest_f16_12x166x38x140_61x38,rnd121_nearest_grad_f16_16x140x128x41_32x51,rnd039_nearest_grad_f16_9x332x166x29_64x11,rnd070_nearest_f16_7x16x395x279_491x99,rnd093_nearest_grad_bf16_21x117x83x38_99x45,rnd135_nearest_f16_3x215x13x166_52x583,rnd118_nearest_f16_15x19x76x431_94x535,rnd170_nearest_grad_bf16_10x54x332x54_431x73,rnd048_nearest_grad_bf16_3x140x140x470_35x118,rnd154_nearest_bf16_7x59x431x49_694x79,rnd071_nearest_bf16_27x332x10x215_8x181,rnd187_nearest_grad_bf16_3x431x140x117_113x94,rnd190_nearest_grad_f16_1x431x332x215_87x133,rnd077_nearest_f16_12x362x152x54_40x23,rnd006_nearest_grad_bf16_21x128x64x59_112x104,rnd167_nearest_grad_bf16_7x128x362x70_197x123,rnd042_nearest_grad_bf16_12x152x99x235_34x80,rnd137_nearest_bf16_13x197x431x17_332x37,rnd063_nearest_grad_bf16_32x304x279x13_189x9,rnd187_nearest_grad_f16_2x215x256x470_67x123,rnd174_nearest_f16_8x38x152x99_511x333,rnd188_nearest_grad_bf16_2x332x166x279_166x279,rnd030_nearest_grad_bf16_19x38x215x279_56x635,rnd068_nearest_bf16_29x431x13x304_9x206,rnd015_nearest_f16_3x140x431x279_332x159,rnd160_nearest_f16_19x76x128x181_146x206,rnd146_nearest_bf16_21x279x11x91_40x334,rnd112_nearest_bf16_21x5x197x431_608x1329,rnd066_nearest_f16_25x128x470x29_940x18,rnd058_nearest_grad_bf16_25x140x70x215_38x469,rnd051_nearest_grad_bf16_17x256x181x99_140x76,rnd184_nearest_grad_f16_9x83x256x395_332x347,rnd147_nearest_grad_f16_6x166x512x235_861x103,rnd026_nearest_bf16_27x512x19x304_28x449
timeout $(left) python3 .gl/bench_ab.py .gl/new18/dmlvk-bench .gl/new19/dmlvk-bench --passes 2 --out $OUT/note188h.json \
    -- --shape $H --op-only --iterations 20 2>/dev/null | grep -v "^\.gl"
echo "== done, $(left) s left"
