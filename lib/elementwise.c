#include <string.h>

#include "elementwise.h"

dmlvk_status dmlvk_plan_elementwise(const struct dmlvk_op_context *ctx, struct dmlvk_op_plan *plan, const char *shader,
                                    const struct dmlvk_tensor *tensors, uint32_t n)
{
    /* Drop size-1 axes, then merge axis d into d+1 where every tensor steps over d+1 exactly. */
    uint32_t sizes[DMLVK_TENSOR_DIMENSION_COUNT_MAX], strides[4][DMLVK_TENSOR_DIMENSION_COUNT_MAX];
    uint32_t dims = 0;
    for (uint32_t d = 0; d < tensors[0].dims; d++) {
        if (tensors[0].sizes[d] == 1)
            continue;
        bool merge = dims > 0;
        for (uint32_t t = 0; t < n && merge; t++)
            merge = (uint64_t)strides[t][dims - 1] == (uint64_t)tensors[t].strides[d] * tensors[0].sizes[d];
        if (merge) {
            sizes[dims - 1] *= tensors[0].sizes[d];
            for (uint32_t t = 0; t < n; t++)
                strides[t][dims - 1] = tensors[t].strides[d];
            continue;
        }
        sizes[dims] = tensors[0].sizes[d];
        for (uint32_t t = 0; t < n; t++)
            strides[t][dims] = tensors[t].strides[d];
        dims++;
    }
    if (dims == 0) {
        sizes[0] = 1;
        for (uint32_t t = 0; t < n; t++)
            strides[t][0] = 0;
        dims = 1;
    }

    plan->data_type = tensors[0].type;
    dmlvk_params_u32(plan, (uint32_t)tensors[0].elements);
    for (uint32_t d = 0; d < DMLVK_TENSOR_DIMENSION_COUNT_MAX; d++)
        dmlvk_params_u32(plan, d < dims ? sizes[d] : 1);
    for (uint32_t t = 0; t < n; t++)
        for (uint32_t d = 0; d < DMLVK_TENSOR_DIMENSION_COUNT_MAX; d++)
            dmlvk_params_u32(plan, d < dims ? strides[t][d] : 0);

    bool contiguous = dims == 1;
    for (uint32_t t = 0; t < n; t++)
        contiguous = contiguous && strides[t][0] == 1;
    /* Contiguous: a grid-stride loop over groups of 4 elements, with enough workgroups to fill any
     * current GPU and few enough that each invocation loops a while. */
    uint64_t invocations = tensors[0].elements;
    if (contiguous) {
        uint64_t groups = (tensors[0].elements + 3) / 4, cap = (uint64_t)8192 * ctx->workgroup_size;
        invocations = groups < cap ? groups : cap;
    }
    struct dmlvk_dispatch_plan *dp = dmlvk_plan_add_dispatch(plan, ctx, shader, invocations);
    if (!dp)
        return DMLVK_ERROR_UNSUPPORTED;
    dp->spec[dp->spec_count++] = dims;
    dp->spec[dp->spec_count++] = contiguous;
    dp->slots[dp->slot_count++] = DMLVK_SLOT_PARAMS;
    for (uint32_t t = 0; t < n; t++)
        dp->slots[dp->slot_count++] = (uint8_t)t;
    return DMLVK_OK;
}
