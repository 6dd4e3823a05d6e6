/* RESAMPLE_GRAD (OPERATORS.md section 3): backward of RESAMPLE1, 4 dimensions. Validation and planning are shared with
 * the other resample operators in resample.c; shaders: glsl/resample_backward.comp, its block gathers
 * resample_backward_blocks.comp and resample_backward_volume.comp, and resample_channel_blocks.comp. */
#include <stddef.h>

#include "resample.h"

typedef dmlvk_resample_grad_operator_desc desc_t;

static const dmlvk_field_info fields[] = {
    RESAMPLE_TENSOR_FIELDS(desc_t, InputGradientTensor, OutputGradientTensor),
    RESAMPLE_MODE_FIELD(desc_t),
    RESAMPLE_ARRAY_FIELDS(desc_t),
};

RESAMPLE_OPERATOR(resample_grad, RESAMPLE_GRAD, desc_t, true, false, 0, 4, InputGradientTensor, OutputGradientTensor);
