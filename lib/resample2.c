/* RESAMPLE2 (OPERATORS.md section 3): forward; nearest rounds by RoundingDirection. Validation and planning are shared with
 * the other resample operators in resample.c; shaders: glsl/resample_forward.comp, its block gathers
 * resample_forward_blocks.comp and resample_forward_volume.comp, and resample_channel_blocks.comp. */
#include <stddef.h>

#include "resample.h"

typedef dmlvk_resample2_operator_desc desc_t;

static const dmlvk_field_info fields[] = {
    RESAMPLE_TENSOR_FIELDS(desc_t, InputTensor, OutputTensor),
    RESAMPLE_MODE_FIELD(desc_t),
    RESAMPLE_ROUNDING_FIELD(desc_t),
    RESAMPLE_ARRAY_FIELDS(desc_t),
};

RESAMPLE_OPERATOR(resample2, RESAMPLE2, desc_t, false, true, d->RoundingDirection, 1, InputTensor, OutputTensor);
