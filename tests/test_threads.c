/*
 * The thread-safety promises of the headers: several threads create, execute, record and destroy
 * operators of one device at once, including the same pipeline keys at the same time, and one
 * operator executed from several threads. Run under ThreadSanitizer in CI.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "gpu_util.h"

#define THREADS 4
#define ROUNDS 6

static dmlvk_device *dev;
static dmlvk_operator *shared_op;

static const uint32_t sizes[] = { 5, 7 };

static int relu_round(dmlvk_operator *op, int seed)
{
    dmlvk_buffer *x, *dy, *dx;
    float hx[35], hdy[35], hdx[35];
    for (int i = 0; i < 35; i++) {
        hx[i] = (float)((i * 7 + seed) % 5) - 2;
        hdy[i] = (float)(i + seed);
    }
    if (dmlvk_buffer_create(dev, 140, &x) || dmlvk_buffer_create(dev, 140, &dy) || dmlvk_buffer_create(dev, 140, &dx))
        return 1;
    dmlvk_buffer_write(x, 0, hx, 140);
    dmlvk_buffer_write(dy, 0, hdy, 140);
    dmlvk_binding b[3] = { { .buffer = x, .size = 140 }, { .buffer = dy, .size = 140 }, { .buffer = dx, .size = 140 } };
    int bad = dmlvk_operator_execute(op, b, 3) != DMLVK_OK || dmlvk_buffer_read(dx, 0, hdx, 140) != DMLVK_OK;
    for (int i = 0; i < 35 && !bad; i++)
        bad = hdx[i] != (hx[i] > 0 ? hdy[i] : 0);
    dmlvk_buffer_destroy(x);
    dmlvk_buffer_destroy(dy);
    dmlvk_buffer_destroy(dx);
    return bad;
}

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg, failures = 0;
    dmlvk_tensor_desc t = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 2, .Sizes = sizes,
                            .TotalTensorSizeInBytes = 140 };
    dmlvk_activation_relu_grad_operator_desc d = { &t, &t, &t };
    for (int round = 0; round < ROUNDS; round++) {
        /* Every thread asks for the same pipeline keys, and some for new ones. */
        struct test_params params = { .workgroup_size = (uint32_t)(64 << ((round + id) % 3)) };
        dmlvk_operator *op;
        if (test_operator_create(dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_ACTIVATION_RELU_GRAD, &d }, &params, &op)) {
            failures++;
            continue;
        }
        failures += relu_round(op, id * 100 + round);
        failures += relu_round(shared_op, id * 1000 + round); /* one operator, many threads */
        dmlvk_operator_destroy(op);
        if (dmlvk_last_error()[0] && round == 0 && id == 0)
            fprintf(stderr, "(last error of thread 0: %s)\n", dmlvk_last_error());
    }
    return (void *)(intptr_t)failures;
}

/* Runs fn on THREADS threads, each given its index; the sum of the failures they return. */
static int run_threads(void *(*fn)(void *))
{
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, fn, (void *)(intptr_t)i), 0);
    int failures = 0;
    for (int i = 0; i < THREADS; i++) {
        void *r;
        pthread_join(th[i], &r);
        failures += (int)(intptr_t)r;
    }
    return failures;
}

static void test_threads(void **state)
{
    (void)state;
    dev = test_device(NULL);
    dmlvk_tensor_desc t = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 2, .Sizes = sizes,
                            .TotalTensorSizeInBytes = 140 };
    dmlvk_activation_relu_grad_operator_desc d = { &t, &t, &t };
    assert_int_equal(test_operator_create(dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_ACTIVATION_RELU_GRAD, &d }, NULL,
                                           &shared_op), DMLVK_OK);
    assert_int_equal(run_threads(worker), 0);
    dmlvk_device_stats s;
    dmlvk_device_get_stats(dev, &s);
    /* Each key compiled exactly once: the workers' sizes 64, 128 and 256 as test_operator_create caps
     * them to the device's most (at least 128, Vulkan's minimum), among which is the shared
     * operator's default (256, or 128 where 256 does not fit). */
    assert_int_equal(s.pipelines_compiled, test_workgroup_most(dev) > 128 ? 3 : 2);
    dmlvk_operator_destroy(shared_op);
    test_device_done(dev);
}

/* Errors are per thread: one thread's failure does not show in another's dmlvk_last_error. */
static void *fail_one(void *arg)
{
    (void)arg;
    dmlvk_operator *op;
    test_operator_create(dev, &(dmlvk_operator_desc){ (dmlvk_operator_type)77, &op }, NULL, &op);
    return NULL;
}

static void test_error_per_thread(void **state)
{
    (void)state;
    dev = test_device(NULL);
    dmlvk_buffer *b;
    assert_int_equal(dmlvk_buffer_create(dev, 0, &b), DMLVK_ERROR_INVALID_ARGUMENT);
    char mine[256];
    snprintf(mine, sizeof(mine), "%s", dmlvk_last_error());
    pthread_t th;
    pthread_create(&th, NULL, fail_one, NULL);
    pthread_join(th, NULL);
    assert_string_equal(dmlvk_last_error(), mine);
    test_device_done(dev);
}

static float grad_dy[ALIGNED_FORM_DY_ELEMENTS], grad_want[ALIGNED_FORM_DX_ELEMENTS];

/* Runs shared_op with both tensors bound `offset` bytes into buffers of the calling thread. */
static int grad_round(uint64_t offset, float *dx)
{
    dmlvk_buffer *dy_buf, *dx_buf;
    if (dmlvk_buffer_create(dev, offset + sizeof(grad_dy), &dy_buf))
        return 1;
    if (dmlvk_buffer_create(dev, offset + sizeof(grad_want), &dx_buf)) {
        dmlvk_buffer_destroy(dy_buf);
        return 1;
    }
    dmlvk_binding b[2] = { { .buffer = dy_buf, .offset = offset, .size = sizeof(grad_dy) },
                           { .buffer = dx_buf, .offset = offset, .size = sizeof(grad_want) } };
    int bad = dmlvk_buffer_write(dy_buf, offset, grad_dy, sizeof(grad_dy)) != DMLVK_OK ||
              dmlvk_operator_execute(shared_op, b, 2) != DMLVK_OK ||
              dmlvk_buffer_read(dx_buf, offset, dx, sizeof(grad_want)) != DMLVK_OK;
    dmlvk_buffer_destroy(dy_buf);
    dmlvk_buffer_destroy(dx_buf);
    return bad;
}

static void *unaligned_worker(void *arg)
{
    int id = (int)(intptr_t)arg, failures = 0;
    for (int round = 0; round < ROUNDS; round++) {
        float dx[ALIGNED_FORM_DX_ELEMENTS];
        /* Every thread's first call is off alignment, so that they race for the unaligned form;
         * then aligned and unaligned calls alternate. */
        uint64_t offset = round % 2 ? 0 : (uint64_t)(4 * (1 + id % 3));
        failures += grad_round(offset, dx) || memcmp(dx, grad_want, sizeof(dx)) != 0;
    }
    return (void *)(intptr_t)failures;
}

/* One operator executed from several threads with its tensors on 16 bytes and off them at once:
 * the unaligned form is compiled once, by whichever call needs it first, and every call gives
 * the bits of a lone aligned call. */
static void test_unaligned_threads(void **state)
{
    (void)state;
    dev = test_device(NULL);
    struct aligned_form_grad g;
    aligned_form_grad_init(&g);
    assert_int_equal(test_operator_create(dev, &g.desc, NULL, &shared_op), DMLVK_OK);
    for (int i = 0; i < ALIGNED_FORM_DY_ELEMENTS; i++)
        grad_dy[i] = aligned_form_dy(i);
    assert_int_equal(grad_round(0, grad_want), 0);
    dmlvk_device_stats s;
    dmlvk_device_get_stats(dev, &s);
    assert_int_equal(s.pipelines_compiled, 1);

    assert_int_equal(run_threads(unaligned_worker), 0);
    dmlvk_device_get_stats(dev, &s);
    if (s.pipelines_compiled != 2)
        fail_msg("%llu pipelines compiled, where the operator's and its unaligned form were due",
                 (unsigned long long)s.pipelines_compiled);
    dmlvk_operator_destroy(shared_op);
    test_device_done(dev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_error_per_thread),
        cmocka_unit_test(test_unaligned_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
