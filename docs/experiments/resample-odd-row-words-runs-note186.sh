#!/bin/bash
# BENCHMARKS.md note 186 (session 79, H200): the three runs as they ran (`.gl/run43.sh` .. `run45.sh` there; run 43's
# first part also had --stats, whose lines cut the call's output, so they are left out here).
# Carry ".gl" holding the Vulkan loader packages (../shared/tools/gpu-vulkan-debs), tools/bench_ab.py and
# tools/bench_variants.py, and these release builds (`-Dtests=false`) of dmlvk-bench:
#   .gl/new15: b780e66 (note 186's baseline); .gl/new16: 1922ef0 with ODD_ROW_WORDS_MOST_COLUMNS removed (no column
#   limit); .gl/new17: 1922ef0; .gl/k86: b780e66 + docs/experiments/resample-block-workgroup-knobs-note185.patch.
# Usage on the device: bash THIS 43|44|45 (each about 8 minutes; OUT is the device tool's output folder).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-540}))
left() { echo $((END - $(date +%s))); }
# run 43: rnd018 beside variants of itself, then block shapes forced on the backward-of-downscale rows of seeds 1-16
D=bilinear_grad_f16_23x152x470x41_152x13,bilinear_grad_f16_23x152x470x40_152x13,bilinear_grad_f16_23x152x470x42_152x13
D=$D,bilinear_grad_f16_23x152x470x44_152x13,bilinear_grad_f32_23x152x470x41_152x13
D=$D,bilinear_grad_bf16_23x152x470x41_152x13,nearest_grad_f16_23x152x470x41_152x13,bilinear_f16_23x152x152x13_470x41
D=$D,bilinear_f16_23x152x152x13_470x40,nearest_f16_23x152x152x13_470x41,bilinear_grad_f16_23x152x41x470_13x152
V=rnd042_bilinear_grad_bf16_21x431x49x10_22x4,rnd054_bilinear_grad_bf16_23x470x181x25_67x7
V=$V,rnd034_bilinear_grad_f32_16x9x181x304_49x83,rnd036_bilinear_grad_f32_11x76x215x41_70x13
V=$V,rnd022_bilinear_grad_bf16_11x332x13x215_6x103,rnd061_bilinear_grad_f32_13x431x17x128_9x70
V=$V,rnd013_bilinear_grad_f32_32x32x256x45_91x16,rnd059_bilinear_grad_f16_19x470x256x23_91x7
V=$V,rnd050_bilinear_grad_f16_27x215x27x181_10x67,rnd031_bilinear_grad_bf16_13x197x23x140_10x54
V=$V,rnd018_bilinear_grad_f16_23x152x470x41_152x13,rnd004_bilinear_grad_bf16_11x512x35x152_16x70
V=$V,rnd027_bilinear_grad_bf16_27x38x181x41_112x25,rnd062_bilinear_grad_f32_17x4x215x395_54x206
V=$V,rnd010_bilinear_grad_f32_2x128x70x395_40x225,rnd032_bilinear_grad_f16_23x140x304x15_215x6
V=$V,rnd058_bilinear_grad_f16_3x235x215x117_206x47,bilinear_grad_f16_23x152x470x40_152x13
# run 44: every random row of seeds 1-16 whose plan takes the words without a column limit, and the sweep's
R44=rnd002_nearest_bf16_23x362x25x64_13x33,rnd011_bilinear_bf16_19x21x235x152_67x43
R44=$R44,rnd013_nearest_grad_f16_nhwc_4x15x279x235_861x113,rnd031_nearest_grad_bf16_17x76x21x41_59x116
R44=$R44,rnd024_bilinear_grad_f16_nhwc_17x7x362x99_756x45,rnd034_bilinear_grad_f16_3x181x35x49_32x188
R44=$R44,rnd047_bilinear_f16_11x5x256x512_512x609,rnd052_bilinear_f16_11x3x59x70_134x159
R44=$R44,rnd054_bilinear_grad_bf16_23x470x181x25_67x7,rnd063_bilinear_bf16_32x49x279x15_159x9
R44=$R44,rnd009_bilinear_grad_bf16_1x76x99x395_257x166,rnd011_bilinear_grad_f16_3x83x76x11_181x26
R44=$R44,rnd018_bilinear_f16_23x512x76x19_173x43,rnd020_bilinear_bf16_5x197x25x512_96x1961
R44=$R44,rnd023_nearest_f16_11x38x21x91_8x35,rnd027_bilinear_bf16_15x197x128x128_112x73
R44=$R44,rnd030_bilinear_f16_4x197x152x8_146x3,rnd035_bilinear_f16_15x64x59x99_73x67
R44=$R44,rnd045_bilinear_grad_bf16_17x6x108x235_70x268,rnd009_bilinear_bf16_nhwc_3x3x256x215_91x755
R44=$R44,rnd016_bilinear_bf16_10x470x10x15_11x5,rnd020_bilinear_bf16_7x128x16x76_4x19
R44=$R44,rnd021_bilinear_f16_11x6x256x83_225x21,rnd025_bilinear_bf16_32x108x11x45_22x145
R44=$R44,rnd036_bilinear_grad_f16_7x76x304x35_558x64,rnd040_bilinear_grad_f16_27x7x70x29_61x72
R44=$R44,rnd062_bilinear_grad_bf16_6x197x91x29_140x19,rnd023_nearest_f16_2x45x395x64_1025x17
R44=$R44,rnd026_bilinear_grad_bf16_16x2x166x117_535x377,rnd039_nearest_grad_bf16_4x181x29x21_8x77
R44=$R44,rnd006_bilinear_grad_f16_32x32x21x23_20x31,rnd022_bilinear_grad_bf16_11x332x13x215_6x103
R44=$R44,rnd027_bilinear_grad_bf16_5x3x32x279_91x789,rnd062_bilinear_grad_bf16_15x10x49x49_117x117
R44=$R44,rnd009_bilinear_grad_bf16_23x64x11x27_18x43,rnd015_bilinear_grad_f16_2x38x45x91_122x246
R44=$R44,rnd025_nearest_f16_6x128x10x395_3x1329,rnd048_nearest_f16_19x99x1x117_1x291
R44=$R44,rnd055_nearest_bf16_21x181x83x431_67x347,rnd056_nearest_bf16_5x181x304x16_430x23
R44=$R44,rnd035_bilinear_bf16_9x108x59x13_21x21,rnd040_bilinear_bf16_4x128x10x152_4x173
R44=$R44,rnd047_bilinear_grad_f16_21x5x332x49_173x26,rnd050_bilinear_grad_f16_27x215x27x181_10x67
R44=$R44,rnd051_bilinear_grad_bf16_6x470x304x9_394x12,rnd015_nearest_f16_nhwc_10x3x83x235_43x123
R44=$R44,rnd022_bilinear_bf16_16x166x140x41_99x29,rnd041_nearest_bf16_10x395x35x76_22x47
R44=$R44,rnd042_bilinear_f16_5x17x140x117_414x83,rnd052_bilinear_bf16_2x91x512x27_347x61
R44=$R44,rnd057_bilinear_grad_bf16_23x99x1x431_1x1329,rnd059_bilinear_grad_f16_6x59x91x15_50x48
R44=$R44,rnd060_nearest_grad_bf16_2x41x17x99_36x207,rnd062_bilinear_f16_12x91x166x64_76x29
R44=$R44,rnd000_bilinear_f16_2x166x10x35_14x103,rnd002_nearest_f16_25x32x27x27_40x11
R44=$R44,rnd020_nearest_grad_bf16_27x10x11x235_15x113,rnd033_bilinear_grad_bf16_4x45x332x21_490x19
R44=$R44,rnd034_nearest_f16_6x215x45x45_41x61,rnd037_bilinear_bf16_1x16x279x21_789x59
R44=$R44,rnd048_bilinear_grad_f16_16x2x512x197_470x582,rnd060_bilinear_bf16_17x45x35x54_47x73
R44=$R44,rnd000_bilinear_grad_bf16_1x32x304x11_788x29,rnd018_bilinear_grad_f16_23x152x470x41_152x13
R44=$R44,rnd022_bilinear_grad_bf16_5x59x59x9_64x29,rnd025_nearest_bf16_7x54x21x45_59x13
R44=$R44,rnd039_bilinear_f16_5x23x215x431_139x305,rnd056_bilinear_grad_bf16_27x7x140x29_56x12
R44=$R44,rnd060_bilinear_bf16_17x181x21x76_7x267,rnd014_bilinear_bf16_2x54x41x64_121x189
R44=$R44,rnd018_nearest_grad_f16_25x32x76x395_224x664,rnd019_bilinear_bf16_7x99x45x128_23x67
R44=$R44,rnd021_nearest_grad_f16_5x6x45x215_23x449,rnd027_bilinear_grad_bf16_27x38x181x41_112x25
R44=$R44,rnd037_bilinear_bf16_19x49x83x49_128x27,rnd040_bilinear_f16_9x41x15x108_42x305
R44=$R44,rnd043_bilinear_grad_f16_25x8x8x197_12x582,rnd053_nearest_f16_32x4x17x470_11x305
R44=$R44,rnd054_nearest_grad_bf16_2x470x332x29_117x10,rnd056_bilinear_bf16_7x12x99x279_363x87
R44=$R44,rnd063_bilinear_bf16_4x235x41x16_13x61,rnd010_nearest_grad_f16_5x304x41x117_150x429
R44=$R44,rnd024_nearest_f16_5x6x332x431_181x235,rnd038_bilinear_bf16_1x362x235x76_900x173
R44=$R44,rnd043_bilinear_grad_bf16_nhwc_5x3x152x91_279x167,rnd029_bilinear_grad_f16_10x1x91x279_113x346
R44=$R44,rnd035_nearest_f16_6x6x395x21_664x35,rnd036_bilinear_bf16_27x41x8x41_3x61
R44=$R44,rnd039_bilinear_bf16_23x38x41x35_33x87,rnd041_bilinear_grad_f16_23x45x49x431_122x1388
R44=$R44,rnd061_bilinear_bf16_12x35x11x235_23x725,rnd002_nearest_bf16_4x8x279x512_899x1649
R44=$R44,rnd028_bilinear_f16_21x76x470x140_513x153,rnd000_nearest_bf16_2x16x181x235_235x305
R44=$R44,rnd015_bilinear_f16_1x41x27x128_83x395,rnd016_nearest_grad_bf16_13x10x279x49_512x90
R44=$R44,rnd024_bilinear_bf16_10x235x10x19_5x49,rnd038_bilinear_grad_f16_15x2x362x235_256x166
R44=$R44,rnd058_bilinear_grad_f16_3x235x215x117_206x47,rnd062_nearest_bf16_29x197x83x25_25x7
R44=$R44,rnd063_nearest_f16_nhwc_13x1x83x512_32x535
W44=bilinear_grad_odd_f16,bilinear_grad_odd_bf16,bilinear_down_odd_f16,bilinear_down_odd_bf16,bilinear_odd_width_f16
W44=$W44,bilinear_odd_width_bf16,bilinear_down2x_odd_width_f16,bilinear_down3x_odd_width_f16
# run 45: held out, every 16-bit row of seeds 17-48 of 4 MB or more that the committed rule takes
R45=bilinear_grad_f16_29x215x41x41_27x32,bilinear_grad_f16_10x235x512x11_899x19,bilinear_grad_bf16_8x19x256x29_939x24
R45=$R45,bilinear_grad_f16_6x83x99x35_140x123,bilinear_f16_21x9x304x23_279x21,bilinear_f16_13x279x512x21_267x11
R45=$R45,bilinear_grad_bf16_27x470x76x11_103x15,bilinear_grad_f16_1x215x108x41_216x82,nearest_f16_4x395x256x29_117x13
R45=$R45,nearest_bf16_1x512x59x54_59x25,bilinear_grad_bf16_19x431x59x15_67x17,bilinear_bf16_11x64x362x49_362x35
R45=$R45,bilinear_grad_bf16_2x197x395x23_181x11,nearest_bf16_19x181x197x49_215x33
R45=$R45,bilinear_grad_bf16_6x256x197x23_755x12,bilinear_grad_bf16_4x108x152x27_189x34
R45=$R45,bilinear_grad_bf16_5x54x152x25_197x32,nearest_grad_bf16_25x152x76x23_23x11
R45=$R45,nearest_grad_f16_32x25x59x23_174x15,nearest_grad_bf16_9x45x470x13_378x10,nearest_grad_bf16_7x49x117x19_303x56
R45=$R45,nearest_grad_bf16_4x83x99x25_146x37,nearest_f16_21x431x17x64_4x17,bilinear_grad_f16_27x332x25x15_18x53
R45=$R45,bilinear_f16_27x197x23x59_14x37,nearest_grad_bf16_1x332x235x19_174x12,nearest_bf16_10x166x431x49_128x15
R45=$R45,bilinear_bf16_13x64x21x128_22x35,bilinear_f16_23x16x215x25_61x7,nearest_grad_bf16_32x117x59x21_45x16
R45=$R45,bilinear_f16_11x128x304x70_215x29,bilinear_bf16_23x235x197x10_361x7,bilinear_f16_16x76x54x19_50x17
R45=$R45,nearest_f16_1x256x140x83_38x23,bilinear_grad_f16_27x76x76x25_181x59,bilinear_grad_bf16_10x59x99x29_235x25
R45=$R45,bilinear_grad_f16_29x215x215x19_394x35,bilinear_bf16_27x99x431x15_1118x39,nearest_bf16_32x235x45x17_29x5
R45=$R45,bilinear_grad_f16_6x54x76x35_99x45,bilinear_grad_f16_1x59x470x9_1450x28
case "$1" in
43)
    timeout $(left) .gl/new15/dmlvk-bench --shape $D --mix --iterations 30
    timeout $(left) python3 .gl/bench_variants.py .gl/k86/dmlvk-bench --passes 2 --out $OUT/run43-variants.json base: \
        b82:DMLVK_EXP_BLOCK=8x2 b81:DMLVK_EXP_BLOCK=8x1 b84:DMLVK_EXP_BLOCK=8x4 b44:DMLVK_EXP_BLOCK=4x4 \
        b42:DMLVK_EXP_BLOCK=4x2 wg256:DMLVK_EXP_WG=256 -- --shape $V --op-only --iterations 20 ;;
44)
    timeout $(( $(left) - 150 )) python3 .gl/bench_ab.py .gl/new15/dmlvk-bench .gl/new16/dmlvk-bench --passes 2 \
        --out $OUT/run44-random.json -- --shape $R44 --op-only --iterations 20
    timeout $(left) python3 .gl/bench_ab.py .gl/new15/dmlvk-bench .gl/new16/dmlvk-bench --passes 3 \
        --out $OUT/run44-sweep.json -- --preset sweep --only $W44 --iterations 30 ;;
45)
    timeout $(left) python3 .gl/bench_ab.py .gl/new15/dmlvk-bench .gl/new17/dmlvk-bench --passes 2 \
        --out $OUT/run45-heldout.json -- --shape $R45 --op-only --iterations 20 ;;
*)
    echo "usage: $0 43|44|45" >&2; exit 2 ;;
esac
