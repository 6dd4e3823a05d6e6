/* Runs an operator on float32 host arrays (one per binding, NULL for absent tensors). */
#ifndef DMLVK_TESTS_GPU_UTIL_H
#define DMLVK_TESTS_GPU_UTIL_H

#include <string.h>

#include "testutil.h"

/* Executes op once on buffers of its own: values[i] holds the logical elements of binding i;
 * outputs are read back into theirs. Tensors are float32 and packed unless descs say otherwise
 * (sizes and bytes come from descs). Tensor i is bound offsets[i] bytes into its buffer. */
static inline dmlvk_status gpu_execute_offsets(dmlvk_device *dev, dmlvk_operator *op,
                                               const dmlvk_tensor_desc *const *descs, void *const *values, uint32_t n,
                                               const uint64_t *offsets)
{
    dmlvk_status st = DMLVK_OK;
    dmlvk_buffer *bufs[8] = { 0 };
    dmlvk_binding b[8] = { 0 };
    for (uint32_t i = 0; i < n && st == DMLVK_OK; i++) {
        if (!descs[i])
            continue;
        st = dmlvk_buffer_create(dev, offsets[i] + descs[i]->TotalTensorSizeInBytes, &bufs[i]);
        if (st == DMLVK_OK)
            st = dmlvk_buffer_write(bufs[i], offsets[i], values[i], descs[i]->TotalTensorSizeInBytes);
        b[i] = (dmlvk_binding){ .buffer = bufs[i], .offset = offsets[i], .size = VK_WHOLE_SIZE };
    }
    if (st == DMLVK_OK)
        st = dmlvk_operator_execute(op, b, n);
    for (uint32_t i = 0; i < n; i++) {
        if (st == DMLVK_OK && descs[i])
            st = dmlvk_buffer_read(bufs[i], offsets[i], values[i], descs[i]->TotalTensorSizeInBytes);
        dmlvk_buffer_destroy(bufs[i]);
    }
    return st;
}

/* gpu_execute_offsets on an operator made from od and params for this run. */
static inline dmlvk_status gpu_run_offsets(dmlvk_device *dev, const dmlvk_operator_desc *od,
                                           const struct test_params *params, const dmlvk_tensor_desc *const *descs,
                                           void *const *values, uint32_t n, const uint64_t *offsets)
{
    dmlvk_operator *op;
    dmlvk_status st = test_operator_create(dev, od, params, &op);
    if (st != DMLVK_OK)
        return st;
    st = gpu_execute_offsets(dev, op, descs, values, n, offsets);
    dmlvk_operator_destroy(op);
    return st;
}

/* Every tensor bound `offset` bytes into its buffer. */
static inline dmlvk_status gpu_run_at(dmlvk_device *dev, const dmlvk_operator_desc *od,
                                      const struct test_params *params, const dmlvk_tensor_desc *const *descs,
                                      void *const *values, uint32_t n, uint64_t offset)
{
    const uint64_t offsets[8] = { offset, offset, offset, offset, offset, offset, offset, offset };
    return n <= 8 ? gpu_run_offsets(dev, od, params, descs, values, n, offsets) : DMLVK_ERROR_INVALID_ARGUMENT;
}

static inline dmlvk_status gpu_run(dmlvk_device *dev, const dmlvk_operator_desc *od, const struct test_params *params,
                                   const dmlvk_tensor_desc *const *descs, void *const *values, uint32_t n)
{
    return gpu_run_at(dev, od, params, descs, values, n, 0);
}

static inline dmlvk_tensor_desc packed_desc(dmlvk_tensor_data_type type, uint32_t dims, const uint32_t *sizes)
{
    dmlvk_tensor_desc d = { .DataType = type, .DimensionCount = dims, .Sizes = sizes };
    uint64_t n = 1;
    for (uint32_t i = 0; i < dims; i++)
        n *= sizes[i];
    d.TotalTensorSizeInBytes = (n * dmlvk_data_type_size(type) + 3) & ~UINT64_C(3);
    return d;
}

/* A RESAMPLE_GRAD whose plan has an aligned form (lib/resample.c; BENCHMARKS.md notes 140, 141):
 * the float32 gradient of a 2x half-pixel upsampling from 13 to 26 columns. desc points into the
 * struct, so it is initialised where it stays. */
#define ALIGNED_FORM_DY_ELEMENTS (1 * 3 * 16 * 26)
#define ALIGNED_FORM_DX_ELEMENTS (1 * 3 * 8 * 13)
struct aligned_form_grad {
    uint32_t dy_sizes[4], dx_sizes[4];
    float scales[4], in_off[4], out_off[4];
    dmlvk_tensor_desc dy, dx;
    dmlvk_resample_grad_operator_desc grad;
    dmlvk_operator_desc desc;
};

static inline void aligned_form_grad_init(struct aligned_form_grad *g)
{
    *g = (struct aligned_form_grad){ .dy_sizes = { 1, 3, 16, 26 },
                                     .dx_sizes = { 1, 3, 8, 13 },
                                     .scales = { 1, 1, 2, 2 },
                                     .in_off = { 0.5f, 0.5f, 0.5f, 0.5f },
                                     .out_off = { -0.5f, -0.5f, -0.5f, -0.5f } };
    g->dy = packed_desc(DMLVK_TENSOR_DATA_TYPE_FLOAT32, 4, g->dy_sizes);
    g->dx = packed_desc(DMLVK_TENSOR_DATA_TYPE_FLOAT32, 4, g->dx_sizes);
    g->grad = (dmlvk_resample_grad_operator_desc){ &g->dy,    &g->dx,     DMLVK_INTERPOLATION_MODE_LINEAR, 4,
                                                   g->scales, g->in_off, g->out_off };
    g->desc = (dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE_GRAD, &g->grad };
}

/* The case's dy values: in [-0.75, 0.83], no two neighbours equal. */
static inline float aligned_form_dy(int i)
{
    return (float)((i * 37) % 101) / 64 - 0.75f;
}

#endif
