/* Shared set-up for the cmocka tests that need a device. */
#ifndef DMLVK_TESTS_TESTUTIL_H
#define DMLVK_TESTS_TESTUTIL_H

#include <fnmatch.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <dmlvk/dmlvk.h>

#include "debug.h"
#include "limits_layer/minimum_limits.h"

#include <stdio.h>

/* Validation messages (and other warnings) go to stderr, where meson keeps them. */
static inline void test_log(void *user, dmlvk_log_level level, const char *message)
{
    (void)user;
    fprintf(stderr, "dmlvk (%d): %s\n", (int)level, message);
}

#ifdef DMLVK_TEST_HOOKS
/* dmlvk_operator_params plus the library's test knobs (lib/debug.h). */
struct test_params {
    dmlvk_bool deterministic;
    uint32_t workgroup_size;
    uint32_t resident_invocations;
    bool force_cas_atomics;
    bool force_software_rounding;
    bool force_no_int64_atomics;
    bool force_no_subgroup_shuffle;
    bool force_no_float64;
    uint64_t bind_offset;               /* where a test's runner takes it: bytes into each buffer */
};

/* The most invocations of a one-dimensional workgroup on dev. */
static inline uint32_t test_workgroup_most(const dmlvk_device *dev)
{
    const VkPhysicalDeviceLimits *limits = &dev->props.limits;
    return limits->maxComputeWorkGroupInvocations < limits->maxComputeWorkGroupSize[0]
               ? limits->maxComputeWorkGroupInvocations
               : limits->maxComputeWorkGroupSize[0];
}

static inline dmlvk_status test_operator_create(dmlvk_device *dev, const dmlvk_operator_desc *desc,
                                                const struct test_params *tp, dmlvk_operator **op)
{
    const struct test_params none = { 0 };
    if (!tp)
        tp = &none;
    dmlvk_operator_params params = { .deterministic = tp->deterministic };
    /* At most the device's workgroups: under tests/limits_layer a test's larger ones become 128. */
    const uint32_t most = test_workgroup_most(dev);
    struct dmlvk_operator_debug debug = {
        .workgroup_size = tp->workgroup_size < most ? tp->workgroup_size : most,
        .resident_invocations = tp->resident_invocations,
        .force_cas_atomics = tp->force_cas_atomics,
        .force_software_rounding = tp->force_software_rounding,
        .force_no_int64_atomics = tp->force_no_int64_atomics,
        .force_no_subgroup_shuffle = tp->force_no_subgroup_shuffle,
        .force_no_float64 = tp->force_no_float64,
    };
    return dmlvk_operator_create_debug(dev, desc, &params, &debug, op);
}
#endif

/* A device with the validation layer on (unless DMLVK_TEST_VALIDATION=0) and its own cache dir. */
static inline dmlvk_device *test_device(const char *cache_dir)
{
    dmlvk_device_params p = DMLVK_DEVICE_PARAMS_DEFAULT;
    const char *v = getenv("DMLVK_TEST_VALIDATION");
    p.validation = !(v && v[0] == '0');
    p.cache_dir = cache_dir;
    p.disable_disk_cache = cache_dir == NULL;
    p.log = test_log;
    dmlvk_device *dev = NULL;
    dmlvk_status st = dmlvk_device_create(&p, &dev);
    if (st != DMLVK_OK)
        fail_msg("dmlvk_device_create: %s", dmlvk_last_error());
    /* Runs under tests/limits_layer say so, lest a layer that lowered nothing pass them. */
    const char *minimum = getenv("DMLVK_TEST_MINIMUM_LIMITS");
    if (minimum && minimum[0] == '1' &&
        (dev->props.limits.maxComputeSharedMemorySize != MINIMUM_SHARED_BYTES ||
         dev->props.limits.maxComputeWorkGroupInvocations != MINIMUM_INVOCATIONS))
        fail_msg("DMLVK_TEST_MINIMUM_LIMITS: the device reports %u bytes of shared memory and workgroups of %u",
                 dev->props.limits.maxComputeSharedMemorySize, dev->props.limits.maxComputeWorkGroupInvocations);
    return dev;
}

/* Fails the test if the validation layer said anything, then destroys the device. */
static inline void test_device_done(dmlvk_device *dev)
{
    dmlvk_device_stats s;
    assert_int_equal(dmlvk_device_get_stats(dev, &s), DMLVK_OK);
    assert_int_equal(s.validation_messages, 0);
    dmlvk_device_destroy(dev);
}

/* cmocka 1.1 reports a group teardown that fails but leaves it out of its exit status, so that a
 * validation message seen only there passed: group teardowns count here instead, and
 * test_run_group adds the count to the status. */
static inline int *test_group_teardown_failures(void)
{
    static int failures;
    return &failures;
}

/* test_device_done for a group teardown. */
static inline int test_group_device_done(dmlvk_device *dev)
{
    if (!dev)
        return 0; /* the group's setup failed, and cmocka counts that */
    dmlvk_device_stats s = { 0 };
    if (dmlvk_device_get_stats(dev, &s) != DMLVK_OK || s.validation_messages) {
        fprintf(stderr, "group teardown: %llu validation messages\n", (unsigned long long)s.validation_messages);
        ++*test_group_teardown_failures();
    }
    dmlvk_device_destroy(dev);
    return 0;
}

#define test_run_group(tests, setup, teardown) \
    (cmocka_run_group_tests(tests, setup, teardown) + *test_group_teardown_failures())

/* Keeps the tests whose names match one of DMLVK_TEST_FILTER's comma-separated fnmatch patterns
 * (all where it is unset), in order; returns how many. cmocka's own filter takes one pattern. */
static inline size_t test_filter(struct CMUnitTest *tests, size_t n)
{
    const char *filter = getenv("DMLVK_TEST_FILTER");
    if (!filter)
        return n;
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        bool match = false;
        for (const char *p = filter; *p && !match;) {
            size_t len = strcspn(p, ",");
            char pattern[128];
            snprintf(pattern, sizeof(pattern), "%.*s", (int)len, p);
            match = fnmatch(pattern, tests[i].name, 0) == 0;
            p += len + (p[len] == ',');
        }
        if (match)
            tests[kept++] = tests[i];
    }
    return kept;
}

/* test_run_group over test_filter's tests. */
#define test_run_filtered_group(name, tests, setup, teardown)                                                        \
    (_cmocka_run_group_tests(name, tests, test_filter(tests, sizeof(tests) / sizeof((tests)[0])), setup, teardown) + \
     *test_group_teardown_failures())

/* The state of test groups that share one device: setup and teardown for cmocka_run_group_tests. */
struct device_fixture {
    dmlvk_device *dev;
};

static inline int device_fixture_setup(void **state)
{
    struct device_fixture *f = calloc(1, sizeof(*f));
    if (!f)
        return -1;
    f->dev = test_device(NULL);
    *state = f;
    return 0;
}

static inline int device_fixture_teardown(void **state)
{
    struct device_fixture *f = *state;
    test_group_device_done(f->dev);
    free(f);
    return 0;
}

/* A packed float32 vector of 4 elements. */
static inline dmlvk_tensor_desc f32x4(void)
{
    static const uint32_t sizes[] = { 4 };
    return (dmlvk_tensor_desc){ .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 1, .Sizes = sizes,
                                .TotalTensorSizeInBytes = 16 };
}

#endif
