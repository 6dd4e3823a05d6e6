/* Shared by the four resample operators (OPERATORS.md section 3). */
#ifndef DMLVK_RESAMPLE_H
#define DMLVK_RESAMPLE_H

#include "internal.h"
#include "resample_abi.h"

/* How NEAREST_NEIGHBOR turns a coordinate into an index. */
enum resample_rounding {
    RESAMPLE_ROUND_HALF_DOWN,   /* RESAMPLE1, RESAMPLE_GRAD: ceil(x - 0.5) */
    RESAMPLE_ROUND_FLOOR,       /* RESAMPLE2, RESAMPLE_GRAD1 with DECREASING */
    RESAMPLE_ROUND_CEIL,        /* RESAMPLE2, RESAMPLE_GRAD1 with INCREASING */
};

/* The fields the four descriptors share, with the tensors named by role. */
struct resample_fields {
    const char *op;
    const char *input_name, *output_name;
    const dmlvk_tensor_desc *input, *output;   /* what the shader reads and writes */
    bool backward;                              /* the larger side is the input */
    dmlvk_interpolation_mode mode;
    bool has_rounding;
    dmlvk_axis_direction rounding;
    uint32_t dimension_count;
    const float *scales, *input_pixel_offsets, *output_pixel_offsets;
    uint32_t min_dims;
};

dmlvk_status dmlvk_plan_resample(const struct dmlvk_op_context *ctx, const struct resample_fields *f,
                                 struct dmlvk_op_plan *plan);

/* Entries of a resample descriptor's field table (members named alike in all four structs). */
#define RESAMPLE_TENSOR_FIELDS(desc_t, in, out)                                                                        \
    { #in, DMLVK_FIELD_INPUT_TENSOR, offsetof(desc_t, in) }, { #out, DMLVK_FIELD_OUTPUT_TENSOR, offsetof(desc_t, out) }
#define RESAMPLE_MODE_FIELD(desc_t)                                                                                    \
    { "InterpolationMode", DMLVK_FIELD_ENUM, offsetof(desc_t, InterpolationMode), 0, DMLVK_ENUM_INTERPOLATION_MODE }
#define RESAMPLE_ROUNDING_FIELD(desc_t)                                                                                \
    { "RoundingDirection", DMLVK_FIELD_ENUM, offsetof(desc_t, RoundingDirection), 0, DMLVK_ENUM_AXIS_DIRECTION }
#define RESAMPLE_ARRAY_FIELDS(desc_t)                                                                                  \
    { "DimensionCount", DMLVK_FIELD_DIMENSION_COUNT, offsetof(desc_t, DimensionCount) },                               \
        { "Scales", DMLVK_FIELD_FLOAT_ARRAY, offsetof(desc_t, Scales) },                                               \
        { "InputPixelOffsets", DMLVK_FIELD_FLOAT_ARRAY, offsetof(desc_t, InputPixelOffsets) },                         \
        { "OutputPixelOffsets", DMLVK_FIELD_FLOAT_ARRAY, offsetof(desc_t, OutputPixelOffsets) }

/*
 * The plan function and the class of one resample operator, given its field table `fields`:
 * `lower` names the module and its class; `round_expr` reads the rounding direction
 * from `d` (or is 0 where the descriptor has none).
 */
#define RESAMPLE_OPERATOR(lower, UPPER, desc_t, is_backward, has_round, round_expr, dims_min, in, out)                        \
    static dmlvk_status plan(const struct dmlvk_op_context *ctx, const void *opaque, struct dmlvk_op_plan *p)          \
    {                                                                                                                  \
        const desc_t *d = opaque;                                                                                      \
        struct resample_fields f = {                                                                                   \
            .op = #UPPER, .input_name = #in, .output_name = #out, .input = d->in, .output = d->out,                    \
            .backward = is_backward, .mode = d->InterpolationMode, .has_rounding = has_round,                          \
            .rounding = (dmlvk_axis_direction)(round_expr), .dimension_count = d->DimensionCount, .scales = d->Scales,   \
            .input_pixel_offsets = d->InputPixelOffsets, .output_pixel_offsets = d->OutputPixelOffsets,                \
            .min_dims = dims_min,                                                                                      \
        };                                                                                                             \
        return dmlvk_plan_resample(ctx, &f, p);                                                                \
    }                                                                                                                  \
    const struct dmlvk_op_class dmlvk_op_##lower = {                                                                   \
        .info = { .type = DMLVK_OPERATOR_##UPPER, .name = #UPPER, .desc_size = sizeof(desc_t),                         \
                  .field_count = DMLVK_ARRAY_SIZE(fields), .fields = fields, .tensor_count = 2 },                      \
        .plan = plan,                                                                                                  \
    }

#endif
