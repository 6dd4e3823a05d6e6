/* Test hooks: only in builds with -Dtest_hooks (by default every build but release). */
#ifndef DMLVK_DEBUG_H
#define DMLVK_DEBUG_H

#include "internal.h"

#ifdef DMLVK_TEST_HOOKS

/* Knobs that reach paths the defaults do not choose on this device. Zero: the default. */
struct dmlvk_operator_debug {
    uint32_t workgroup_size;            /* invocations per workgroup (default 256) */
    uint32_t resident_invocations;      /* as on a device that runs this many at once (default: the device's) */
    bool force_cas_atomics;             /* compare-and-swap even where float atomic add exists */
    bool force_software_rounding;       /* float16 stores rounded in shader code even where rte16 runs */
    bool force_no_int64_atomics;        /* as on a device without shaderBufferInt64Atomics */
    bool force_no_subgroup_shuffle;     /* as on a device whose compute subgroups cannot shuffle */
    bool force_no_float64;              /* as on a device without shaderFloat64 */
};

dmlvk_status dmlvk_operator_create_debug(dmlvk_device *dev, const dmlvk_operator_desc *desc,
                                         const dmlvk_operator_params *params, const struct dmlvk_operator_debug *debug,
                                         dmlvk_operator **op);

/* The specialization constant `id` that the operator's dispatch `dispatch` was created with: what
 * its planner chose, for tests that pin choices measured on a GPU (test_resample's
 * test_block_shapes). An error where the dispatch or the constant is not there. */
dmlvk_status dmlvk_debug_operator_spec(const dmlvk_operator *op, uint32_t dispatch, uint32_t id, uint32_t *value);

/* The shader that the operator's dispatch `dispatch` runs: the path its planner chose. */
dmlvk_status dmlvk_debug_operator_shader(const dmlvk_operator *op, uint32_t dispatch, enum dmlvk_shader *shader);

/* Makes the n-th allocation from now on fail (host or device memory, Vulkan object creation,
 * submission); n < 0 turns injection off. */
void dmlvk_debug_fail_nth_allocation(dmlvk_device *dev, int64_t n);

#endif

#endif
