/* Tensor validation: sizes, strides, byte sizes, aliasing outputs, limits. */
#include <string.h>

#include "testutil.h"
#include "internal.h"

static dmlvk_tensor_desc desc(uint32_t dims, const uint32_t *sizes, const uint32_t *strides, uint64_t bytes)
{
    return (dmlvk_tensor_desc){ .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = dims, .Sizes = sizes,
                                .Strides = strides, .TotalTensorSizeInBytes = bytes };
}

static dmlvk_status check(const dmlvk_tensor_desc *d, bool output)
{
    struct dmlvk_tensor t;
    const struct dmlvk_op_context ctx = { .op_name = "OP" };
    return dmlvk_check_tensor(&ctx, "T", d, DMLVK_FLOAT_TYPES, 1, 8, output, &t);
}

static void test_min_size(void **state)
{
    (void)state;
    uint32_t sizes[] = { 2, 3 }, strides[] = { 5, 1 };
    dmlvk_tensor_desc d = desc(2, sizes, NULL, 0);
    uint64_t bytes;
    assert_int_equal(dmlvk_tensor_min_size(&d, &bytes), DMLVK_OK);
    assert_int_equal(bytes, 24);
    d.Strides = strides; /* last element at 5 + 2 = 7: 8 elements */
    assert_int_equal(dmlvk_tensor_min_size(&d, &bytes), DMLVK_OK);
    assert_int_equal(bytes, 32);
    d.DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT16; /* 16 bytes: rounded up to 4 already */
    uint32_t odd[] = { 3 };
    dmlvk_tensor_desc h = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT16, .DimensionCount = 1, .Sizes = odd };
    assert_int_equal(dmlvk_tensor_min_size(&h, &bytes), DMLVK_OK);
    assert_int_equal(bytes, 8); /* 6 rounded up to 4 */
    uint64_t count;
    assert_int_equal(dmlvk_tensor_element_count(&d, &count), DMLVK_OK);
    assert_int_equal(count, 6);
}

static void test_rejects(void **state)
{
    (void)state;
    uint32_t sizes[] = { 2, 3 }, zero[] = { 2, 0 };
    dmlvk_tensor_desc d = desc(2, sizes, NULL, 24);
    assert_int_equal(check(&d, false), DMLVK_OK);

    d.TotalTensorSizeInBytes = 20;
    assert_int_equal(check(&d, false), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "OP: T.TotalTensorSizeInBytes"));
    d.TotalTensorSizeInBytes = 24;

    dmlvk_tensor_desc z = desc(2, zero, NULL, 24);
    assert_int_equal(check(&z, false), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "T.Sizes[1]"));

    d.DimensionCount = 0;
    assert_int_equal(check(&d, false), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "DimensionCount"));
    d.DimensionCount = 2;

    d.DataType = DMLVK_TENSOR_DATA_TYPE_UINT32;
    assert_int_equal(check(&d, false), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "T.DataType"));
    d.DataType = (dmlvk_tensor_data_type)9;
    assert_int_equal(check(&d, false), DMLVK_ERROR_INVALID_ARGUMENT);
    d.DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32;

    d.GuaranteedBaseOffsetAlignment = 12;
    assert_int_equal(check(&d, false), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "GuaranteedBaseOffsetAlignment"));
    d.GuaranteedBaseOffsetAlignment = 16;
    assert_int_equal(check(&d, false), DMLVK_OK);

    d.Sizes = NULL;
    assert_int_equal(check(&d, false), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_int_equal(check(NULL, false), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "required tensor is missing"));
}

static void test_limits(void **state)
{
    (void)state;
    /* 2^31 elements: over dmlvk's limit, caught before any product overflows. */
    uint32_t big[] = { 65536, 32768 };
    dmlvk_tensor_desc d = desc(2, big, NULL, UINT64_MAX);
    assert_int_equal(check(&d, false), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "2^31"));
    uint32_t huge[] = { 4294967295u, 4294967295u, 4294967295u };
    d = desc(3, huge, NULL, UINT64_MAX);
    assert_int_equal(check(&d, false), DMLVK_ERROR_INVALID_ARGUMENT);
    /* Few elements, but strides that reach past 2^32 elements. */
    uint32_t sizes[] = { 3, 2 }, strides[] = { 4000000000u, 1 };
    d = desc(2, sizes, strides, UINT64_MAX);
    assert_int_equal(check(&d, false), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "Strides"));
}

static void test_output_aliasing(void **state)
{
    (void)state;
    uint32_t sizes[] = { 2, 3 };
    uint32_t broadcast[] = { 0, 1 }, overlap[] = { 2, 1 }, transposed[] = { 1, 2 }, padded[] = { 10, 2 };
    dmlvk_tensor_desc d = desc(2, sizes, broadcast, 1024);
    assert_int_equal(check(&d, false), DMLVK_OK); /* inputs may broadcast */
    assert_int_equal(check(&d, true), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "share one memory location"));
    d.Strides = overlap;
    assert_int_equal(check(&d, true), DMLVK_ERROR_INVALID_ARGUMENT);
    d.Strides = transposed;
    assert_int_equal(check(&d, true), DMLVK_OK);
    d.Strides = padded;
    assert_int_equal(check(&d, true), DMLVK_OK);
    /* Interleaved yet one-to-one: offsets 2i + 3j for i < 3, j < 2 are all distinct. */
    uint32_t sizes2[] = { 3, 2 }, interleaved[] = { 2, 3 };
    d = desc(2, sizes2, interleaved, 1024);
    assert_int_equal(check(&d, true), DMLVK_OK);
    /* A size-1 axis may have any stride. */
    uint32_t sizes3[] = { 1, 4 }, any[] = { 0, 1 };
    d = desc(2, sizes3, any, 1024);
    assert_int_equal(check(&d, true), DMLVK_OK);
}

/* Dispatch sizes: enough workgroups, within every limit, and fewer idle ones than a row of them. */
static void test_plan_groups(void **state)
{
    (void)state;
    static const uint64_t invocations[] = { 1, 255, 256, 257, 65535 * 256, 65536 * 256, 131072 * 256, 196606 * 256,
                                            UINT64_C(1) << 33, UINT64_C(1) << 40, (UINT64_C(65535) * 65535 * 3 + 7) * 256 };
    static const uint32_t limits[][3] = { { 65535, 65535, 65535 }, { 0x7fffffff, 65535, 65535 }, { 100, 7, 65535 } };
    for (size_t l = 0; l < sizeof(limits) / sizeof(limits[0]); l++) {
        struct dmlvk_op_context ctx = { .op_name = "OP", .workgroup_size = 256 };
        memcpy(ctx.max_groups, limits[l], sizeof(ctx.max_groups));
        for (size_t i = 0; i < sizeof(invocations) / sizeof(invocations[0]); i++) {
            uint64_t n = (invocations[i] + 255) / 256;
            uint64_t most = (uint64_t)limits[l][0] * limits[l][1] * limits[l][2];
            uint32_t g[3];
            dmlvk_status st = dmlvk_plan_groups(&ctx, invocations[i], g);
            if (n > most) {
                assert_int_equal(st, DMLVK_ERROR_UNSUPPORTED);
                continue;
            }
            assert_int_equal(st, DMLVK_OK);
            for (int d = 0; d < 3; d++)
                assert_true(g[d] >= 1 && g[d] <= limits[l][d]);
            uint64_t rows = (uint64_t)g[1] * g[2], total = (uint64_t)g[0] * rows;
            assert_true(total >= n);
            assert_true(total - n < rows);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_min_size),
        cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_output_aliasing),
        cmocka_unit_test(test_plan_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
