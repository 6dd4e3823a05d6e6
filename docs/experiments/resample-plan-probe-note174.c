/* BENCHMARKS.md note 174: prints the shader and specialization constants of every dispatch that
 * the planner gives one RESAMPLE2 / RESAMPLE_GRAD1 shape (an experiment aid, not built by meson). Build
 * against a test-hooks build: cc -std=c11 -Iinclude -Ibuild/include -Ilib -Iglsl -Ibuild/lib -Ibuild/glsl
 * -DDMLVK_TEST_HOOKS=1 THIS.c build/lib/libdmlvk_core.a build/lib/libdmlvk_volk.a -lm -ldl -lpthread */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dmlvk/dmlvk.h>
#include "debug.h"
#include "resample_abi.h"
/* usage: probe fwd|bwd f32|f16|bf16 nearest|linear nhwc|nchw n c h w oh ow
 * (h,w: the forward's input, for bwd the written tensor, in dmlvk-bench's names' order) */
int main(int argc, char **argv)
{
    if (argc < 11) return 2;
    int backward = !strcmp(argv[1], "bwd");
    dmlvk_tensor_data_type type = !strcmp(argv[2], "f32") ? DMLVK_TENSOR_DATA_TYPE_FLOAT32 : !strcmp(argv[2], "f16") ? DMLVK_TENSOR_DATA_TYPE_FLOAT16 : DMLVK_TENSOR_DATA_TYPE_BFLOAT16;
    int nearest = !strcmp(argv[3], "nearest");
    int nhwc = !strcmp(argv[4], "nhwc");
    uint32_t small[4] = { atoi(argv[5]), atoi(argv[6]), atoi(argv[7]), atoi(argv[8]) };
    uint32_t big[4] = { small[0], small[1], atoi(argv[9]), atoi(argv[10]) };
    dmlvk_device *dev; dmlvk_device_params dp = {0};
    if (dmlvk_device_create(&dp, &dev)) { puts(dmlvk_last_error()); return 1; }
    uint32_t strides[2][4]; dmlvk_tensor_desc t[2];
    for (int i = 0; i < 2; i++) {
        const uint32_t *s = (i == 0) == backward ? big : small;
        strides[i][1] = 1; strides[i][3] = s[1]; strides[i][2] = s[1]*s[3]; strides[i][0] = s[1]*s[2]*s[3];
        t[i] = (dmlvk_tensor_desc){ .DataType = type, .DimensionCount = 4, .Sizes = s, .Strides = nhwc ? strides[i] : NULL };
        dmlvk_tensor_min_size(&t[i], &t[i].TotalTensorSizeInBytes);
    }
    dmlvk_resample_fields rf;
    if (dmlvk_resample_fields_from_convention(nearest ? DMLVK_RESAMPLE_CONVENTION_PYTORCH_NEAREST : DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_LINEAR, 4, small, big, NULL, &rf)) { puts(dmlvk_last_error()); return 1; }
    dmlvk_resample_grad1_operator_desc bwd = { &t[0], &t[1] };
    dmlvk_resample2_operator_desc fwd = { &t[0], &t[1] };
    dmlvk_operator_desc od;
    if (backward) { dmlvk_resample_grad1_desc_set_fields(&bwd, &rf); od = (dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE_GRAD1, &bwd }; }
    else { dmlvk_resample2_desc_set_fields(&fwd, &rf); od = (dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE2, &fwd }; }
    dmlvk_operator *op;
    if (dmlvk_operator_create(dev, &od, NULL, &op)) { puts(dmlvk_last_error()); return 1; }
    for (uint32_t d = 0; d < 4; d++) {
        enum dmlvk_shader sh;
        if (dmlvk_debug_operator_shader(op, d, &sh)) break;
        printf("dispatch %u shader %d:", d, (int)sh);
        for (uint32_t id = 0; id < 32; id++) { uint32_t v; if (!dmlvk_debug_operator_spec(op, d, id, &v)) printf(" %u=%u", id, v); }
        printf("\n");
    }
    return 0;
}
