/* Pipeline caching: in memory (one compile per key) and on disk (survives processes, corruption
 * and unwritable directories). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

static char cache_dir[256];

static dmlvk_status create_relu(dmlvk_device *dev, uint32_t workgroup_size, dmlvk_operator **op)
{
    static const uint32_t sizes[] = { 3, 5 };
    dmlvk_tensor_desc t = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 2, .Sizes = sizes,
                            .TotalTensorSizeInBytes = 60 };
    dmlvk_activation_relu_operator_desc d = { &t, &t };
    struct test_params p = { .workgroup_size = workgroup_size };
    return test_operator_create(dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_ACTIVATION_RELU, &d }, &p, op);
}

static int run_relu(dmlvk_device *dev)
{
    dmlvk_operator *op;
    if (create_relu(dev, 0, &op) != DMLVK_OK)
        return -1;
    float in[15], out[15];
    for (int i = 0; i < 15; i++)
        in[i] = (float)(i - 7);
    dmlvk_buffer *a, *b;
    dmlvk_buffer_create(dev, 60, &a);
    dmlvk_buffer_create(dev, 60, &b);
    dmlvk_buffer_write(a, 0, in, 60);
    dmlvk_binding bind[2] = { { .buffer = a, .size = 60 }, { .buffer = b, .size = 60 } };
    int bad = dmlvk_operator_execute(op, bind, 2) != DMLVK_OK || dmlvk_buffer_read(b, 0, out, 60) != DMLVK_OK;
    for (int i = 0; i < 15 && !bad; i++)
        bad = out[i] != (in[i] > 0 ? in[i] : 0);
    dmlvk_buffer_destroy(a);
    dmlvk_buffer_destroy(b);
    dmlvk_operator_destroy(op);
    return bad;
}

static void test_memory_cache(void **state)
{
    (void)state;
    dmlvk_device *dev = test_device(NULL);
    dmlvk_device_stats s0, s1, s2;
    dmlvk_device_get_stats(dev, &s0);
    dmlvk_operator *a, *b, *c;
    assert_int_equal(create_relu(dev, 0, &a), DMLVK_OK);
    dmlvk_device_get_stats(dev, &s1);
    assert_int_equal(s1.pipelines_compiled, s0.pipelines_compiled + 1);
    assert_int_equal(create_relu(dev, 0, &b), DMLVK_OK);
    dmlvk_device_get_stats(dev, &s2);
    assert_int_equal(s2.pipelines_compiled, s1.pipelines_compiled); /* same operator: compiled once */
    assert_int_equal(s2.pipeline_memory_hits, s1.pipeline_memory_hits + 1);
    assert_int_equal(create_relu(dev, 64, &c), DMLVK_OK); /* another specialization: compiled anew */
    dmlvk_device_get_stats(dev, &s2);
    assert_int_equal(s2.pipelines_compiled, s1.pipelines_compiled + 1);
    dmlvk_operator_destroy(a);
    dmlvk_operator_destroy(b);
    dmlvk_operator_destroy(c);
    test_device_done(dev);
}

/* A specialization constant that the module does not declare is left out of the key: pipelines
 * asked for with and without it are one, compiled once; one that it declares makes another. */
static void test_undeclared_constants(void **state)
{
    (void)state;
    const struct dmlvk_shader_blob *relu = NULL;
    for (size_t i = 0; i < dmlvk_shader_blob_count; i++)
        if (dmlvk_shader_blobs[i].shader == DMLVK_SHADER_ACTIVATION_RELU && dmlvk_shader_blobs[i].variant == 0)
            relu = &dmlvk_shader_blobs[i];
    assert_non_null(relu);
    assert_true(relu->spec_ids >> DMLVK_SPEC_WORKGROUP_SIZE & 1);
    uint32_t undeclared = 0;
    while (undeclared < DMLVK_MAX_SPEC_CONSTANTS && relu->spec_ids >> undeclared & 1)
        undeclared++;
    assert_true(undeclared < DMLVK_MAX_SPEC_CONSTANTS);

    dmlvk_device *dev = test_device(NULL);
    dmlvk_device_stats s0, s1, s2;
    uint32_t spec[DMLVK_MAX_SPEC_CONSTANTS] = { [DMLVK_SPEC_WORKGROUP_SIZE] = 64 };
    const uint32_t size_only = 1u << DMLVK_SPEC_WORKGROUP_SIZE;
    VkPipeline plain, with_undeclared, smaller;
    dmlvk_device_get_stats(dev, &s0);
    assert_int_equal(dmlvk_pipeline_get(dev->pipelines, DMLVK_SHADER_ACTIVATION_RELU, 0, spec, size_only, &plain), DMLVK_OK);
    spec[undeclared] = 7;
    assert_int_equal(dmlvk_pipeline_get(dev->pipelines, DMLVK_SHADER_ACTIVATION_RELU, 0, spec,
                                        size_only | 1u << undeclared, &with_undeclared),
                     DMLVK_OK);
    dmlvk_device_get_stats(dev, &s1);
    assert_true(with_undeclared == plain);
    assert_int_equal(s1.pipelines_compiled, s0.pipelines_compiled + 1);
    assert_int_equal(s1.pipeline_memory_hits, s0.pipeline_memory_hits + 1);
    spec[DMLVK_SPEC_WORKGROUP_SIZE] = 32;
    assert_int_equal(dmlvk_pipeline_get(dev->pipelines, DMLVK_SHADER_ACTIVATION_RELU, 0, spec,
                                        size_only | 1u << undeclared, &smaller),
                     DMLVK_OK);
    dmlvk_device_get_stats(dev, &s2);
    assert_true(smaller != plain);
    assert_int_equal(s2.pipelines_compiled, s1.pipelines_compiled + 1);
    test_device_done(dev);
}

static const char *cache_file(dmlvk_device *dev)
{
    const char *path;
    assert_int_equal(dmlvk_device_get_cache_path(dev, &path), DMLVK_OK);
    return path;
}

/* Creates a device on cache_dir, runs one operator, and returns the bytes it loaded from disk. */
static uint64_t session(char *path_out, size_t path_size)
{
    dmlvk_device *dev = test_device(cache_dir);
    dmlvk_device_stats s;
    dmlvk_device_get_stats(dev, &s);
    snprintf(path_out, path_size, "%s", cache_file(dev));
    assert_int_equal(run_relu(dev), 0);
    test_device_done(dev);
    return s.disk_cache_bytes_loaded;
}

static void test_disk_cache(void **state)
{
    (void)state;
    char path[1024];
    uint64_t first = session(path, sizeof(path));
    assert_int_equal(first, 0); /* fresh directory */
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_true(st.st_size > 64);
    uint64_t second = session(path, sizeof(path));
    assert_true(second > 0); /* the second device starts from the file */
}

static void corrupt(const char *path, long at, int truncate_to)
{
    if (truncate_to >= 0) {
        assert_int_equal(truncate(path, truncate_to), 0);
        return;
    }
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, at, SEEK_SET);
    int ch = fgetc(f);
    fseek(f, at, SEEK_SET);
    fputc(ch ^ 0x5a, f);
    fclose(f);
}

static void test_corrupt_cache(void **state)
{
    (void)state;
    char path[1024];
    session(path, sizeof(path));
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    /* Flipped byte in the header, in the device id, in the data; truncated; emptied. */
    const long flips[] = { 0, 12, (long)st.st_size - 1 };
    for (size_t i = 0; i < sizeof(flips) / sizeof(flips[0]); i++) {
        corrupt(path, flips[i], -1);
        assert_int_equal(session(path, sizeof(path)), 0); /* ignored, and replaced on exit */
        assert_true(session(path, sizeof(path)) > 0);
    }
    assert_int_equal(stat(path, &st), 0);
    corrupt(path, 0, (int)st.st_size / 2);
    assert_int_equal(session(path, sizeof(path)), 0);
    corrupt(path, 0, 0);
    assert_int_equal(session(path, sizeof(path)), 0);
    assert_true(session(path, sizeof(path)) > 0);
}

static void test_unwritable_dir(void **state)
{
    (void)state;
    /* A regular file where the directory should be: every save fails. */
    char blocker[300], dir[400];
    snprintf(blocker, sizeof(blocker), "%s/blocker", cache_dir);
    FILE *f = fopen(blocker, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(dir, sizeof(dir), "%s/sub", blocker);
    dmlvk_device *dev = test_device(dir);
    assert_int_equal(run_relu(dev), 0);
    assert_int_equal(dmlvk_device_save_pipeline_cache(dev), DMLVK_ERROR_IO);
    assert_non_null(strstr(dmlvk_last_error(), "blocker"));
    assert_int_equal(run_relu(dev), 0); /* still fully usable */
    test_device_done(dev);
}

int main(void)
{
    snprintf(cache_dir, sizeof(cache_dir), "/tmp/dmlvk-test-cache-XXXXXX");
    if (!mkdtemp(cache_dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_cache),
        cmocka_unit_test(test_disk_cache),
        cmocka_unit_test(test_corrupt_cache),
        cmocka_unit_test(test_unwritable_dir),
        cmocka_unit_test(test_undeclared_constants),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cache_dir);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}
