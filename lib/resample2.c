/* RESAMPLE2 (OPERATORS.md section 3). Planning is shared with the other resample operators in
 * resample.c; shader: glsl/resample2.comp. */
#include <stddef.h>

#include "resample.h"

#define NAME "RESAMPLE2"
typedef dmlvk_resample2_operator_desc desc_t;

static dmlvk_status plan(const struct dmlvk_op_context *ctx, const void *opaque, struct dmlvk_op_plan *p)
{
    const desc_t *d = opaque;
    struct resample_fields f = {
        .op = NAME,
        .input_name = "InputTensor",
        .output_name = "OutputTensor",
        .input = d->InputTensor,
        .output = d->OutputTensor,
        .backward = false,
        .mode = d->InterpolationMode,
        .has_rounding = true,
        .rounding = d->RoundingDirection,
        .dimension_count = d->DimensionCount,
        .scales = d->Scales,
        .input_pixel_offsets = d->InputPixelOffsets,
        .output_pixel_offsets = d->OutputPixelOffsets,
        .min_dims = 1,
    };
    return dmlvk_plan_resample(ctx, &f, "resample2", p);
}

static const dmlvk_field_info fields[] = {
    { "InputTensor", DMLVK_FIELD_INPUT_TENSOR, offsetof(desc_t, InputTensor) },
    { "OutputTensor", DMLVK_FIELD_OUTPUT_TENSOR, offsetof(desc_t, OutputTensor) },
    { "InterpolationMode", DMLVK_FIELD_ENUM, offsetof(desc_t, InterpolationMode), 0, DMLVK_ENUM_INTERPOLATION_MODE },
    { "RoundingDirection", DMLVK_FIELD_ENUM, offsetof(desc_t, RoundingDirection), 0, DMLVK_ENUM_AXIS_DIRECTION },
    { "DimensionCount", DMLVK_FIELD_DIMENSION_COUNT, offsetof(desc_t, DimensionCount) },
    { "Scales", DMLVK_FIELD_FLOAT_ARRAY, offsetof(desc_t, Scales) },
    { "InputPixelOffsets", DMLVK_FIELD_FLOAT_ARRAY, offsetof(desc_t, InputPixelOffsets) },
    { "OutputPixelOffsets", DMLVK_FIELD_FLOAT_ARRAY, offsetof(desc_t, OutputPixelOffsets) },
};

const struct dmlvk_op_class dmlvk_op_resample2 = {
    .info = {
        .type = DMLVK_OPERATOR_RESAMPLE2,
        .name = NAME,
        .desc_size = sizeof(desc_t),
        .field_count = DMLVK_ARRAY_SIZE(fields),
        .fields = fields,
        .tensor_count = 2,
    },
    .plan = plan,
};
