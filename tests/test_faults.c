/*
 * Allocation failures at every allocation point of an operator's life (creation, its pipelines,
 * parameter and scratch buffers, the tensors' buffers, uploads, execution, a pipeline compiled by
 * the call): each call fails cleanly with a status and a message, nothing leaks (the sanitized CI
 * build checks), and the next call works and computes the right result.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <stdio.h>

#include "testutil.h"
#include "debug.h"
#include "internal.h"

/* One full life of an operator; DMLVK_OK when every step succeeded. */
typedef dmlvk_status (*life_fn)(dmlvk_device *dev, bool check);

/* Every tensor bound `offset` bytes into its buffer. */
static dmlvk_status run_buffers_at(dmlvk_device *dev, dmlvk_operator *op, const uint64_t *bytes, uint32_t n,
                                   const float *const *inputs, float *output, uint32_t out_index, uint64_t offset)
{
    dmlvk_buffer *b[6] = { 0 };
    dmlvk_binding bind[6] = { 0 };
    dmlvk_status st = DMLVK_OK;
    for (uint32_t i = 0; i < n && st == DMLVK_OK; i++) {
        if (!bytes[i])
            continue;
        if ((st = dmlvk_buffer_create(dev, offset + bytes[i], &b[i])) == DMLVK_OK && inputs[i])
            st = dmlvk_buffer_write(b[i], offset, inputs[i], bytes[i]);
        bind[i] = (dmlvk_binding){ .buffer = b[i], .offset = offset, .size = VK_WHOLE_SIZE };
    }
    if (st == DMLVK_OK)
        st = dmlvk_operator_execute(op, bind, n);
    if (st == DMLVK_OK)
        st = dmlvk_buffer_read(b[out_index], offset, output, bytes[out_index]);
    for (uint32_t i = 0; i < n; i++)
        dmlvk_buffer_destroy(b[i]);
    return st;
}

static dmlvk_status run_buffers(dmlvk_device *dev, dmlvk_operator *op, const uint64_t *bytes, uint32_t n,
                                const float *const *inputs, float *output, uint32_t out_index)
{
    return run_buffers_at(dev, op, bytes, n, inputs, output, out_index, 0);
}

static dmlvk_status relu_grad_life(dmlvk_device *dev, bool check)
{
    static const uint32_t sizes[] = { 3, 7 };
    dmlvk_tensor_desc t = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 2, .Sizes = sizes,
                            .TotalTensorSizeInBytes = 84 };
    dmlvk_activation_relu_grad_operator_desc d = { &t, &t, &t };
    dmlvk_operator *op;
    dmlvk_status st = dmlvk_operator_create(dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_ACTIVATION_RELU_GRAD, &d }, NULL, &op);
    if (st != DMLVK_OK)
        return st;
    float x[21], dy[21], dx[21];
    for (int i = 0; i < 21; i++) {
        x[i] = (float)(i % 3) - 1;
        dy[i] = (float)i;
    }
    const uint64_t bytes[3] = { 84, 84, 84 };
    const float *in[3] = { x, dy, NULL };
    st = run_buffers(dev, op, bytes, 3, in, dx, 2);
    for (int i = 0; st == DMLVK_OK && check && i < 21; i++)
        assert_true(dx[i] == (x[i] > 0 ? dy[i] : 0));
    dmlvk_operator_destroy(op);
    return st;
}

static dmlvk_status resample_grad_life(dmlvk_device *dev, bool check)
{
    static const uint32_t big[] = { 1, 1, 4, 6 }, small[] = { 1, 1, 2, 3 };
    static const float scales[] = { 1, 1, 2, 2 }, in_off[] = { 0.5f, 0.5f, 0.5f, 0.5f }, out_off[] = { -0.5f, -0.5f, -0.5f, -0.5f };
    dmlvk_tensor_desc tb = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 4, .Sizes = big,
                             .TotalTensorSizeInBytes = 96 };
    dmlvk_tensor_desc ts = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 4, .Sizes = small,
                             .TotalTensorSizeInBytes = 24 };
    dmlvk_resample_grad_operator_desc d = { &tb, &ts, DMLVK_INTERPOLATION_MODE_LINEAR, 4, scales, in_off, out_off };
    dmlvk_operator *op;
    dmlvk_status st = dmlvk_operator_create(dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE_GRAD, &d }, NULL, &op);
    if (st != DMLVK_OK)
        return st;
    float dy[24], dx[6];
    for (int i = 0; i < 24; i++)
        dy[i] = 1;
    const uint64_t bytes[2] = { 96, 24 };
    const float *in[2] = { dy, NULL };
    st = run_buffers(dev, op, bytes, 2, in, dx, 1);
    for (int i = 0; st == DMLVK_OK && check && i < 6; i++)
        assert_true(fabsf(dx[i] - 4) < 1e-6f); /* scale 2 on both axes: each input gathers weight 2 x 2 */
    dmlvk_operator_destroy(op);
    return st;
}

/* A block gather that loads vectors, bound off their alignment: the call compiles the dispatch's
 * unaligned form (dmlvk_dispatch_aligned), an allocation point of its own. */
static dmlvk_status resample_grad_unaligned_life(dmlvk_device *dev, bool check)
{
    static const uint32_t big[] = { 1, 1, 16, 26 }, small[] = { 1, 1, 8, 13 };
    static const float scales[] = { 1, 1, 2, 2 }, in_off[] = { 0.5f, 0.5f, 0.5f, 0.5f }, out_off[] = { -0.5f, -0.5f, -0.5f, -0.5f };
    dmlvk_tensor_desc tb = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 4, .Sizes = big,
                             .TotalTensorSizeInBytes = 16 * 26 * 4 };
    dmlvk_tensor_desc ts = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 4, .Sizes = small,
                             .TotalTensorSizeInBytes = 8 * 13 * 4 };
    dmlvk_resample_grad_operator_desc d = { &tb, &ts, DMLVK_INTERPOLATION_MODE_LINEAR, 4, scales, in_off, out_off };
    dmlvk_operator *op;
    dmlvk_status st = dmlvk_operator_create(dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE_GRAD, &d }, NULL, &op);
    if (st != DMLVK_OK)
        return st;
    float dy[16 * 26], dx[8 * 13];
    for (int i = 0; i < 16 * 26; i++)
        dy[i] = 1;
    const uint64_t bytes[2] = { sizeof(dy), sizeof(dx) };
    const float *in[2] = { dy, NULL };
    st = run_buffers_at(dev, op, bytes, 2, in, dx, 1, 4);
    for (int i = 0; st == DMLVK_OK && check && i < 8 * 13; i++)
        assert_true(fabsf(dx[i] - 4) < 1e-6f);
    dmlvk_operator_destroy(op);
    return st;
}

/* ROI_ALIGN_GRAD in the deterministic mode: the most allocations (scratch, five dispatches). */
static dmlvk_status roi_align_grad_life(dmlvk_device *dev, bool check)
{
    static const uint32_t in_sizes[] = { 1, 1, 4, 4 }, bins[] = { 1, 1, 1, 1 }, rois[] = { 1, 4 }, batch[] = { 1 };
    dmlvk_tensor_desc tx = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 4, .Sizes = in_sizes,
                             .TotalTensorSizeInBytes = 64 };
    dmlvk_tensor_desc tdy = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 4, .Sizes = bins,
                              .TotalTensorSizeInBytes = 4 };
    dmlvk_tensor_desc tr = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 2, .Sizes = rois,
                             .TotalTensorSizeInBytes = 16 };
    dmlvk_tensor_desc tb = { .DataType = DMLVK_TENSOR_DATA_TYPE_UINT32, .DimensionCount = 1, .Sizes = batch,
                             .TotalTensorSizeInBytes = 4 };
    dmlvk_roi_align_grad_operator_desc d = { &tx, &tdy, &tr, &tb, &tx, &tr, DMLVK_REDUCE_FUNCTION_AVERAGE,
                                             DMLVK_INTERPOLATION_MODE_LINEAR, 1, 1, 0.5f, -0.5f, 2, 2, 0 };
    dmlvk_operator_params params = { .deterministic = 1 };
    dmlvk_operator *op;
    dmlvk_status st = dmlvk_operator_create(dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_ROI_ALIGN_GRAD, &d }, &params, &op);
    if (st != DMLVK_OK)
        return st;
    float x[16], dy[1] = { 1 }, box[4] = { 0, 0, 4, 4 }, b0[1] = { 0 }, dx[16];
    for (int i = 0; i < 16; i++)
        x[i] = (float)i;
    const uint64_t bytes[6] = { 64, 4, 16, 4, 64, 16 };
    const float *in[6] = { x, dy, box, b0, NULL, NULL };
    st = run_buffers(dev, op, bytes, 6, in, dx, 4);
    if (st == DMLVK_OK && check) {
        double sum = 0;
        for (int i = 0; i < 16; i++)
            sum += dx[i];
        assert_true(fabs(sum - 1) < 1e-6); /* one bin, all samples inside: its gradient of 1 spreads whole */
    }
    dmlvk_operator_destroy(op);
    return st;
}

static uint64_t pipelines_compiled(dmlvk_device *dev)
{
    dmlvk_device_stats s;
    assert_int_equal(dmlvk_device_get_stats(dev, &s), DMLVK_OK);
    return s.pipelines_compiled;
}

/* The life with its n-th allocation failing, then a whole life on the same device; DMLVK_OK where
 * the first life never reached an n-th allocation. *compiled: the device's pipelines compiled by
 * the end of the first life. */
static dmlvk_status fail_nth(dmlvk_device *dev, life_fn life, int64_t n, uint64_t *compiled)
{
    dmlvk_debug_fail_nth_allocation(dev, n);
    dmlvk_status st = life(dev, false);
    dmlvk_debug_fail_nth_allocation(dev, -1);
    *compiled = pipelines_compiled(dev);
    if (st != DMLVK_OK) {
        assert_true(st == DMLVK_ERROR_OUT_OF_MEMORY || st == DMLVK_ERROR_DEVICE);
        assert_true(strlen(dmlvk_last_error()) > 0);
    }
    /* The failure left nothing broken: the next life works and computes the right thing. */
    assert_int_equal(life(dev, true), DMLVK_OK);
    return st;
}

static void fail_every_allocation(life_fn life)
{
    dmlvk_device *dev = test_device(NULL);
    assert_int_equal(life(dev, true), DMLVK_OK);
    const uint64_t pipelines = pipelines_compiled(dev);
    test_device_done(dev);
    assert_true(pipelines > 0);

    /* A fresh device for each n, so that the life compiles its pipelines (and can fail there),
     * until the n-th allocation comes after the last of them. */
    int failures = 0;
    uint64_t compiled;
    for (int64_t n = 0;; n++) {
        assert_true(n < 200);
        dev = test_device(NULL);
        if (fail_nth(dev, life, n, &compiled) == DMLVK_OK) {
            /* No allocation after the last compile: the whole life ran. */
            assert_true(failures > 5);
            test_device_done(dev);
            return;
        }
        failures++;
        if (compiled == pipelines)
            break;
        test_device_done(dev);
    }
    /* Past its last compile the life allocates alike on any device that holds its pipelines
     * (device-wide state is made at creation, an operator's own with the operator): this one then
     * stands for a fresh one, without compiling them again for each n, failing every allocation
     * of the life in turn. */
    for (int64_t n = 0; n < 200; n++) {
        if (fail_nth(dev, life, n, &compiled) == DMLVK_OK) {
            /* n is past the last allocation point: the whole life ran. */
            assert_true(failures > 5);
            assert_int_equal(compiled, pipelines);
            test_device_done(dev);
            return;
        }
        failures++;
    }
    fail_msg("the operator's life never completed");
}

static void test_relu_grad(void **state)
{
    (void)state;
    fail_every_allocation(relu_grad_life);
}

static void test_resample_grad(void **state)
{
    (void)state;
    fail_every_allocation(resample_grad_life);
}

static void test_resample_grad_unaligned(void **state)
{
    (void)state;
    /* On a fresh device the life compiles two pipelines: the operator's, then the call's. */
    dmlvk_device *dev = test_device(NULL);
    dmlvk_device_stats before, after;
    dmlvk_device_get_stats(dev, &before);
    assert_int_equal(resample_grad_unaligned_life(dev, true), DMLVK_OK);
    dmlvk_device_get_stats(dev, &after);
    assert_int_equal(after.pipelines_compiled - before.pipelines_compiled, 2);
    test_device_done(dev);
    fail_every_allocation(resample_grad_unaligned_life);
}

static void test_roi_align_grad(void **state)
{
    (void)state;
    fail_every_allocation(roi_align_grad_life);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_relu_grad),
        cmocka_unit_test(test_resample_grad),
        cmocka_unit_test(test_roi_align_grad),
        cmocka_unit_test(test_resample_grad_unaligned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
