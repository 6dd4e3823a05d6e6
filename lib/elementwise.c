#include <string.h>

#include "elementwise.h"

struct dmlvk_dispatch_plan *dmlvk_plan_elementwise(const struct dmlvk_op_context *ctx, struct dmlvk_op_plan *plan,
                                                   enum dmlvk_shader shader, uint32_t push_slots,
                                                   const struct dmlvk_tensor *tensors, uint32_t n)
{
    _Static_assert(ELEMENTWISE_MAX_DIMS >= DMLVK_TENSOR_DIMENSION_COUNT_MAX, "elementwise_params.sizes");
    if (n > ELEMENTWISE_MAX_TENSORS) {
        dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "%s: %u tensors (ELEMENTWISE_MAX_TENSORS is %u)", ctx->op_name, n,
                    ELEMENTWISE_MAX_TENSORS);
        return NULL;
    }
    /* Every element is its own, so the axes may run in any order: the written tensor's (the last)
     * strides descending, so that its writes are neighbours and a layout that every tensor shares
     * (channels-last, any permutation of packed strides) merges into one contiguous axis. */
    const uint32_t *written = tensors[n - 1].strides;
    uint32_t order[DMLVK_TENSOR_DIMENSION_COUNT_MAX], axes = 0;
    for (uint32_t d = 0; d < tensors[0].dims; d++) {
        if (tensors[0].sizes[d] == 1)
            continue;
        uint32_t k = axes++;
        for (; k > 0 && written[order[k - 1]] < written[d]; k--)
            order[k] = order[k - 1];
        order[k] = d;
    }
    /* Then merge each axis into the one before where every tensor steps over it exactly. */
    uint32_t sizes[DMLVK_TENSOR_DIMENSION_COUNT_MAX], strides[ELEMENTWISE_MAX_TENSORS][DMLVK_TENSOR_DIMENSION_COUNT_MAX];
    uint32_t dims = 0;
    for (uint32_t k = 0; k < axes; k++) {
        const uint32_t d = order[k];
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
    struct elementwise_params p = { .count = (uint32_t)tensors[0].elements };
    for (uint32_t d = 0; d < ELEMENTWISE_MAX_DIMS; d++) {
        p.sizes[d] = d < dims ? sizes[d] : 1;
        for (uint32_t t = 0; t < n; t++)
            p.strides[t][d] = d < dims ? strides[t][d] : 0;
    }
    dmlvk_params_append(plan, &p, sizeof(p));

    bool contiguous = dims == 1;
    for (uint32_t t = 0; t < n; t++)
        contiguous = contiguous && strides[t][0] == 1;
    /* Contiguous: an invocation per 16-byte access of each tensor, all in one pass (a grid-stride
     * loop over fewer workgroups was slower, BENCHMARKS.md note 104). */
    uint64_t invocations = tensors[0].elements;
    if (contiguous) {
        const uint64_t access = ELEMENTWISE_ACCESS_BYTES / (DMLVK_IS_16BIT_FLOAT(tensors[0].type) ? 2 : 4);
        invocations = (tensors[0].elements + access - 1) / access;
    }
    struct dmlvk_dispatch_plan *dp = dmlvk_plan_add_dispatch(plan, ctx, shader, push_slots, invocations);
    if (dp) {
        dmlvk_dispatch_spec(plan, dp, ELEMENTWISE_SPEC_DIMS, dims);
        dmlvk_dispatch_spec(plan, dp, ELEMENTWISE_SPEC_CONTIGUOUS, contiguous);
    }
    return dp;
}
