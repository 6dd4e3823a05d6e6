/* Shared by the four resample operators (OPERATORS.md section 3). */
#ifndef DMLVK_RESAMPLE_H
#define DMLVK_RESAMPLE_H

#include "internal.h"

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
                                 const char *shader, struct dmlvk_op_plan *plan);

#endif
