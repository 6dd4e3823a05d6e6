/* Which build of a shader runs: the one place that maps tensor types and device features onto
 * the DMLVK_VARIANT_* bits of glsl/meson.build. */
#include "internal.h"

uint32_t dmlvk_variant_select(const dmlvk_device *dev, dmlvk_tensor_data_type type, uint32_t features,
                              bool software_rounding)
{
    uint32_t variant = features;
    if (type == DMLVK_TENSOR_DATA_TYPE_FLOAT16) {
        variant |= DMLVK_VARIANT_F16;
        if (dev->float16_rte && !software_rounding)
            variant |= DMLVK_VARIANT_RTE16;
    } else if (type == DMLVK_TENSOR_DATA_TYPE_BFLOAT16) {
        /* Rounded in the shader always: no device's conversion is known to give the same bits (the
         * H100's VK_KHR_shader_bfloat16 conversion truncates, BENCHMARKS.md note 54). */
        variant |= DMLVK_VARIANT_BF16;
    }
    return variant;
}
