/* Shared by the runtime and the operator modules; not installed. */
#ifndef DMLVK_INTERNAL_H
#define DMLVK_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <volk.h>

#include "dmlvk/dmlvk.h"

#define DMLVK_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#if defined(__GNUC__)
#define DMLVK_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DMLVK_PRINTF(f, a)
#endif

/* Records the calling thread's error message and returns status. */
dmlvk_status dmlvk_error(dmlvk_status status, const char *fmt, ...) DMLVK_PRINTF(2, 3);
dmlvk_status dmlvk_vk_error(VkResult result, const char *what);

/* ---- pipelines and dispatch plans --------------------------------------------------------- */

#define DMLVK_MAX_SPEC_CONSTANTS 16
#define DMLVK_MAX_DISPATCHES 6
/* Push constants: the parameter block's address, then one address per bound tensor. */
#define DMLVK_MAX_PUSH_ADDRESSES 12
#define DMLVK_PUSH_CONSTANT_BYTES 128

/* What a push-constant address slot points at. */
enum {
    DMLVK_SLOT_PARAMS = 0xF0,   /* the operator's parameter block */
    DMLVK_SLOT_SCRATCH = 0xF1,  /* the operator's scratch buffer (address 0 when it has none) */
    DMLVK_SLOT_COUNTER = 0xF2,  /* the operator's diagnostics counter (one uint: skipped regions) */
};

struct dmlvk_dispatch_plan {
    const char *shader;                 /* name of glsl/NAME.comp */
    const char *features;               /* NULL, or a variant built with extra features ("float-atomics") */
    uint32_t spec[DMLVK_MAX_SPEC_CONSTANTS]; /* constant_id 0 is the workgroup size */
    uint32_t spec_count;
    uint32_t groups[3];
    uint8_t slots[DMLVK_MAX_PUSH_ADDRESSES]; /* binding index, or a DMLVK_SLOT_* value */
    uint32_t slot_count;
};

/* What an operator module makes of a validated descriptor. */
struct dmlvk_op_plan {
    dmlvk_tensor_data_type data_type;   /* picks the float16 or float32 shader variant */
    uint32_t *params;                   /* parameter block (words), uploaded once at creation */
    uint32_t params_size;               /* in words */
    uint32_t params_capacity;
    bool params_failed;                 /* an append ran out of memory */
    uint64_t scratch_bytes;             /* the operator's own device memory; its dispatches initialize it */
    bool counter;                       /* the shaders count skipped regions (DMLVK_SLOT_COUNTER) */
    uint32_t dispatch_count;
    struct dmlvk_dispatch_plan dispatches[DMLVK_MAX_DISPATCHES];
};

/* What an operator module may know of the device. */
struct dmlvk_op_context {
    const char *op_name;
    bool float16;
    bool float32_atomic_add;
    bool int64_atomics;
    uint32_t workgroup_size;
    uint32_t max_groups[3];
    const dmlvk_operator_params *params;
};

struct dmlvk_op_class {
    dmlvk_operator_info info;
    /* Validates what the generic checks do not and fills the plan. */
    dmlvk_status (*plan)(const struct dmlvk_op_context *ctx, const void *desc, struct dmlvk_op_plan *plan);
};

const struct dmlvk_op_class *dmlvk_find_op_class(dmlvk_operator_type type);

/* Workgroup counts for n invocations, spread over y and z past the x limit. */
dmlvk_status dmlvk_plan_groups(const struct dmlvk_op_context *ctx, uint64_t invocations, uint32_t groups[3]);

/* Adds a dispatch to the plan and returns it, filled with the workgroup size and group counts. */
struct dmlvk_dispatch_plan *dmlvk_plan_add_dispatch(struct dmlvk_op_plan *plan, const struct dmlvk_op_context *ctx,
                                                    const char *shader, uint64_t invocations);

/* ---- tensors ------------------------------------------------------------------------------ */

/* A tensor checked and brought into a fixed form: explicit strides, byte sizes known. */
struct dmlvk_tensor {
    dmlvk_tensor_data_type type;
    uint32_t dims;
    uint32_t sizes[DMLVK_TENSOR_DIMENSION_COUNT_MAX];
    uint32_t strides[DMLVK_TENSOR_DIMENSION_COUNT_MAX];
    uint64_t elements;
    uint64_t max_offset;                /* largest element offset */
};

#define DMLVK_TYPE_BIT(t) (1u << (t))
#define DMLVK_FLOAT_TYPES (DMLVK_TYPE_BIT(DMLVK_TENSOR_DATA_TYPE_FLOAT32) | DMLVK_TYPE_BIT(DMLVK_TENSOR_DATA_TYPE_FLOAT16))

/*
 * Checks one tensor of an operator: data type in types (a mask of DMLVK_TYPE_BIT), dimension count
 * in [min_dims, max_dims], sizes, strides, TotalTensorSizeInBytes, the element-count limit and, for
 * outputs, that no two elements alias.
 */
dmlvk_status dmlvk_check_tensor(const char *op, const char *field, const dmlvk_tensor_desc *desc, uint32_t types,
                                uint32_t min_dims, uint32_t max_dims, bool output, struct dmlvk_tensor *out);

/* Fails unless a and b have the same data type (and, with sizes, the same sizes). */
dmlvk_status dmlvk_check_same(const char *op, const char *field_a, const struct dmlvk_tensor *a,
                              const char *field_b, const struct dmlvk_tensor *b, bool sizes);

/* Rejects float16 on a device without it. */
dmlvk_status dmlvk_check_float16(const struct dmlvk_op_context *ctx, dmlvk_tensor_data_type type);

/* Appends a value to the plan's parameter block (std430 scalar layout: 4-byte words). */
void dmlvk_params_u32(struct dmlvk_op_plan *plan, uint32_t v);
void dmlvk_params_f32(struct dmlvk_op_plan *plan, float v);
/* Reserves n zeroed words and returns the index of the first (UINT32_MAX when out of memory). */
uint32_t dmlvk_params_reserve(struct dmlvk_op_plan *plan, uint32_t n);

/* ---- runtime objects ---------------------------------------------------------------------- */

struct dmlvk_pipeline_entry;

struct dmlvk_device {
    VkInstance instance;
    bool own_instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkDevice device;
    bool own_device;
    struct VolkDeviceTable vk;
    uint32_t queue_family;
    VkQueue queue;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem_props;
    uint32_t api_version;               /* what the device may use: min(instance's, device's) */
    bool float16;
    bool float16_rte;                   /* shaderRoundingModeRTEFloat16: the f16rte shader variants */
    bool float32_atomic_add;
    bool int64_atomics;
    uint32_t device_index;

    void (*lock_queue)(void *user);
    void (*unlock_queue)(void *user);
    void *queue_user;

    /* Guards the command pool, command buffer and fence used by synchronous calls. */
    pthread_mutex_t submit_lock;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    uint32_t timestamp_bits;            /* of the queue family; 0: no timestamps */

    VkPipelineLayout layout;            /* one for all: a push-constant range of addresses */

    pthread_mutex_t cache_lock;
    struct dmlvk_pipeline_entry *pipelines;
    VkPipelineCache vk_cache;
    char *cache_path;

    dmlvk_log_fn log;
    void *log_user;
    dmlvk_log_level log_level;

    atomic_uint_fast64_t stat_compiled, stat_memory_hits, stat_disk_hits, stat_validation;
    /* Fault injection for tests: the allocation that finds it at 0 fails; negative: off. */
    atomic_int_fast64_t fault_countdown;
    uint64_t stat_disk_bytes;
};

struct dmlvk_buffer {
    dmlvk_device *device;
    VkBuffer buffer;
    VkDeviceMemory memory;
    uint64_t size;
    void *mapped;                       /* host-visible memory, or NULL */
    VkDeviceAddress address;
};

/* Makes the n-th allocation from now on fail (host or device memory, Vulkan object creation);
 * n < 0 turns injection off. For tests of the failure paths; not public. */
void dmlvk_debug_fail_nth_allocation(dmlvk_device *dev, int64_t n);
/* True when the allocation about to happen must fail (see above). */
bool dmlvk_fault(dmlvk_device *dev);
/* calloc, subject to fault injection. */
void *dmlvk_calloc(dmlvk_device *dev, size_t n, size_t size);

void dmlvk_log(const dmlvk_device *dev, dmlvk_log_level level, const char *fmt, ...) DMLVK_PRINTF(3, 4);

/* Allocates a device-local buffer (host-visible if host_visible and possible). */
dmlvk_status dmlvk_buffer_create_internal(dmlvk_device *dev, uint64_t size, bool prefer_host_visible,
                                          dmlvk_buffer **out);

/* Runs what record() writes into the device's command buffer, and waits. */
dmlvk_status dmlvk_device_submit(dmlvk_device *dev, dmlvk_status (*record)(VkCommandBuffer cmd, void *user),
                                 void *user);

/* Returns the pipeline for a shader variant and specialization, compiling it at most once. */
dmlvk_status dmlvk_pipeline_get(dmlvk_device *dev, const char *shader, const char *variant, const uint32_t *spec,
                                uint32_t spec_count, VkPipeline *pipeline);
void dmlvk_pipelines_destroy(dmlvk_device *dev);

/* The disk cache: load at device creation, save on demand and at destruction. */
void dmlvk_disk_cache_open(dmlvk_device *dev, const char *cache_dir, bool disabled);
dmlvk_status dmlvk_disk_cache_save(dmlvk_device *dev);

/* Embedded SPIR-V, generated at build time from glsl/. */
struct dmlvk_shader_blob {
    const char *name;
    const char *variant;                /* "f32", "f16", "f32-float-atomics", ... */
    const uint32_t *code;
    size_t size;                        /* bytes */
};
extern const struct dmlvk_shader_blob dmlvk_shader_blobs[];
extern const size_t dmlvk_shader_blob_count;

#endif
