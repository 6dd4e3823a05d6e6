#!/bin/bash
# BENCHMARKS.md note 193, prepared in session 81 and not run (the device time was spent): channels-last bfloat16
# LINEAR backward block gathers at scales that tap different column entries per block (not regular_x) in workgroups of
# 128, which float32 and float16 take there and bfloat16 does not (note 81, H100: bfloat16 6-8% slower in 128). Note
# 192 found another H100 rule for bfloat16 backward stale on the H200, so this one is timed again. Knob: any value of
# DMLVK_EXP_BF16_WG (docs/experiments/resample-bf16-channel-workgroups-knobs-note193.patch). Rows: every such row of
# 16 MB+ of random seeds 1-38 the planner probe lists (24, plus the sweep's bilinear_grad_nhwc_odd_bf16), then 24 of
# seeds 41-94 as held-out rows (both lists of rows whose float16 form takes 128 and bfloat16 form 256).
# Set-up here: apply the patch to de8815b (note 192) or later,
#   meson setup build-exp --buildtype=release -Dtests=false && ninja -C build-exp tools/dmlvk-bench
#   mkdir -p .gl/k93 && cp build-exp/tools/dmlvk-bench .gl/k93/ && cp tools/bench_*.py docs/experiments/$(basename $0) .gl/
#   and ../shared/tools/gpu-vulkan-debs. Device: bash .gl/$(basename $0) with carry [".gl"] (about 7 minutes).
for f in .gl/*.deb; do dpkg -x $f / >/dev/null; done; ldconfig
export DMLVK_CACHE_DIR=/tmp/dmlvk-cache
START=$(date +%s); END=$((START + ${BUDGET:-520}))
left() { echo $((END - $(date +%s))); }
I=rnd148_bilinear_grad_bf16_nhwc_25x197x10x256_31x790,rnd171_bilinear_grad_bf16_nhwc_15x16x152x256_47x83,rnd006_bilinear_grad_bf16_nhwc_9x128x117x279_411x469,rnd055_bilinear_grad_bf16_nhwc_3x21x181x166_347x318,rnd172_bilinear_grad_bf16_nhwc_12x83x76x279_59x215,rnd079_bilinear_grad_bf16_nhwc_3x140x166x140_378x174,rnd139_bilinear_grad_bf16_nhwc_17x19x470x279_637x378,rnd162_bilinear_grad_bf16_nhwc_7x362x17x128_52x108,rnd137_bilinear_grad_bf16_nhwc_19x15x128x117_256x234,rnd002_bilinear_grad_bf16_nhwc_3x332x54x181_64x215,rnd035_bilinear_grad_bf16_nhwc_19x140x166x49_70x16,rnd039_bilinear_grad_bf16_nhwc_9x27x332x431_159x206,rnd079_bilinear_grad_bf16_nhwc_17x45x304x215_534x378,rnd140_bilinear_grad_bf16_nhwc_7x152x32x470_10x1388,rnd019_bilinear_grad_bf16_nhwc_23x45x35x332_67x636,rnd027_bilinear_grad_bf16_nhwc_29x181x128x17_112x37,rnd169_bilinear_grad_bf16_nhwc_32x304x117x83_133x95,rnd108_bilinear_grad_bf16_nhwc_7x470x13x512_31x1218,rnd035_bilinear_grad_bf16_nhwc_15x181x117x76_165x107,rnd027_bilinear_grad_bf16_nhwc_6x279x70x181_182x332,rnd037_bilinear_grad_bf16_nhwc_25x83x304x38_267x139,rnd031_bilinear_grad_bf16_nhwc_1x470x76x362_43x1117,rnd156_bilinear_grad_bf16_nhwc_7x166x395x256_636x123,rnd021_bilinear_grad_bf16_nhwc_3x181x35x256_99x332,bilinear_grad_bf16_nhwc_4x64x97x131_200x260
H=rnd186_bilinear_grad_bf16_nhwc_8x59x304x512_234x395,rnd003_bilinear_grad_bf16_nhwc_7x108x470x45_292x127,rnd165_bilinear_grad_bf16_nhwc_3x470x83x140_189x146,rnd094_bilinear_grad_bf16_nhwc_2x470x140x332_35x1166,rnd132_bilinear_grad_bf16_nhwc_25x431x13x70_44x140,rnd071_bilinear_grad_bf16_nhwc_10x23x362x235_245x159,rnd159_bilinear_grad_bf16_nhwc_32x332x512x11_1961x3,rnd122_bilinear_grad_bf16_nhwc_3x32x395x235_1117x665,rnd125_bilinear_grad_bf16_nhwc_7x166x108x235_64x206,rnd066_bilinear_grad_bf16_nhwc_25x7x395x256_535x825,rnd145_bilinear_grad_bf16_nhwc_6x470x35x362_23x128,rnd054_bilinear_grad_bf16_nhwc_12x512x128x27_91x91,rnd100_bilinear_grad_bf16_nhwc_4x152x256x108_378x216,rnd043_bilinear_grad_bf16_nhwc_23x431x10x166_16x267,rnd053_bilinear_grad_bf16_nhwc_16x64x470x70_1219x182,rnd167_bilinear_grad_bf16_nhwc_11x117x108x197_190x346,rnd073_bilinear_grad_bf16_nhwc_23x29x197x395_317x636,rnd048_bilinear_grad_bf16_nhwc_21x9x215x395_693x1070,rnd141_bilinear_grad_bf16_nhwc_3x166x91x512_113x636,rnd025_bilinear_grad_bf16_nhwc_4x166x54x362_198x378,rnd109_bilinear_grad_bf16_nhwc_6x470x152x59_159x207,rnd005_bilinear_grad_bf16_nhwc_6x470x181x59_395x35,rnd166_bilinear_grad_bf16_nhwc_17x279x117x19_361x59,rnd002_bilinear_grad_bf16_nhwc_32x181x197x45_166x38
timeout $(left) python3 .gl/bench_variants.py .gl/k93/dmlvk-bench --passes 2 --out $OUT/note193.json base: \
    wg128:DMLVK_EXP_BF16_WG=1 -- --shape $I --op-only --iterations 20 2>/dev/null
echo "== held out, $(left) s left"
timeout $(left) python3 .gl/bench_variants.py .gl/k93/dmlvk-bench --passes 2 --out $OUT/note193h.json base: \
    wg128:DMLVK_EXP_BF16_WG=1 -- --shape $H --op-only --iterations 20 2>/dev/null
echo "== done, $(left) s left"
