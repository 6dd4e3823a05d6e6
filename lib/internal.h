/* Shared by the runtime and the operator modules; not installed. */
#ifndef DMLVK_INTERNAL_H
#define DMLVK_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dmlvk/dmlvk.h"
#include "abi.h"
#include "shader_table.h"
#include "vk.h"

#define DMLVK_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Whether a public struct's reserved words are all zero (no fields of a newer dmlvk set). */
static inline bool dmlvk_reserved_zero(const uint32_t *reserved, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (reserved[i])
            return false;
    return true;
}

#if defined(__GNUC__)
#define DMLVK_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define DMLVK_PRINTF(f, a)
#endif

/* Records the calling thread's error message and returns status. */
dmlvk_status dmlvk_error(dmlvk_status status, const char *fmt, ...) DMLVK_PRINTF(2, 3);
dmlvk_status dmlvk_vk_error(VkResult result, const char *what);

/* ---- pipelines and dispatch plans --------------------------------------------------------- */

#define DMLVK_MAX_DISPATCHES 9
/* Bindings of one operator: its tensor fields. */
#define DMLVK_MAX_BINDINGS 8

/* What a push-constant slot points at: a binding index (below DMLVK_MAX_BINDINGS), or one of these. */
enum {
    DMLVK_SLOT_PARAMS = 0xF0,   /* the operator's parameter block */
    DMLVK_SLOT_SCRATCH = 0xF1,  /* the operator's scratch buffer (address 0 when it has none) */
    DMLVK_SLOT_COUNTERS = 0xF2, /* the operator's diagnostics counters (dmlvk_op_class.counters) */
    DMLVK_SLOT_UNSET = 0xFF,
};

struct dmlvk_dispatch_plan {
    enum dmlvk_shader shader;
    uint32_t features;                  /* DMLVK_VARIANT_* bits of the optional device features it needs */
    uint32_t spec[DMLVK_MAX_SPEC_CONSTANTS]; /* by constant_id */
    uint32_t spec_set;                  /* bit i: spec[i] is given */
    uint32_t groups[3];
    uint8_t slots[DMLVK_MAX_PUSH_ADDRESSES]; /* by push slot: a binding index or a DMLVK_SLOT_* value */
    uint32_t slot_count;
    /* Recorded without a barrier after the dispatch before it, so that the two may run together:
     * set only where neither reads nor writes what the other writes. */
    bool concurrent;
    /* dmlvk_dispatch_aligned: bit b for binding b, and the specialization constant that is 1 in
     * the pipeline recorded where those bindings are aligned, 0 in the other. */
    uint32_t aligned_bindings;
    uint32_t aligned_spec;
};

/* What an operator module makes of a validated descriptor. */
struct dmlvk_op_plan {
    dmlvk_device *dev;                  /* for allocations */
    dmlvk_tensor_data_type data_type;   /* picks the float16 or float32 shader variant */
    uint32_t *params;                   /* parameter block (words), uploaded once at creation */
    uint32_t params_size;               /* in words */
    uint32_t params_capacity;
    bool params_failed;                 /* an append ran out of memory */
    const char *spec_error;             /* a specialization constant id past the limit, or NULL */
    uint64_t scratch_bytes;             /* the operator's own device memory; its dispatches initialize it */
    uint32_t dispatch_count;
    struct dmlvk_dispatch_plan dispatches[DMLVK_MAX_DISPATCHES];
};

/* What an operator module may know of the device and the caller's wishes. */
struct dmlvk_op_context {
    dmlvk_device *dev;
    const char *op_name;
    bool float16;
    bool float32_atomic_add;
    bool int64_atomics;
    bool float64;                       /* the device's, unless a test hook turned it off */
    bool subgroup_shuffle;              /* the device's, unless a test hook turned it off */
    uint32_t subgroup_size;             /* compute subgroups' invocations (Vulkan 1.2 shaders: fixed) */
    uint32_t resident_invocations;      /* the device's at once at most; 0: unknown */
    bool deterministic;
    uint32_t workgroup_size;
    uint32_t max_groups[3];
    uint32_t max_shared_bytes;          /* maxComputeSharedMemorySize */
};

/* ctx for a dispatch whose workgroups hold at most `most` invocations: never more than the
 * operator's size, which a test hook may have made smaller. */
static inline struct dmlvk_op_context dmlvk_context_capped(const struct dmlvk_op_context *ctx, uint64_t most)
{
    struct dmlvk_op_context c = *ctx;
    if (c.workgroup_size > most)
        c.workgroup_size = (uint32_t)most;
    return c;
}

struct dmlvk_op_class {
    dmlvk_operator_info info;
    /* Diagnostics counters its shaders write (DMLVK_SLOT_COUNTERS), named for dmlvk_diagnostics. */
    uint32_t counter_count;
    const char *const *counter_names;
    /* Validates what the generic checks do not and fills the plan. */
    dmlvk_status (*plan)(const struct dmlvk_op_context *ctx, const void *desc, struct dmlvk_op_plan *plan);
};

const struct dmlvk_op_class *dmlvk_find_op_class(dmlvk_operator_type type);
/* The bare name of an enumerator ("FLOAT16"), or NULL for a value the enumeration lacks. */
const char *dmlvk_enum_name(dmlvk_enum_type type, uint32_t value);

/* Workgroup counts for n invocations, spread over y and z past the x limit. */
dmlvk_status dmlvk_plan_groups(const struct dmlvk_op_context *ctx, uint64_t invocations, uint32_t groups[3]);

/*
 * Adds a dispatch of shader to the plan and returns it, with the workgroup size and group counts
 * filled and push_slots slots (DMLVK_PUSH_SLOTS of the shader's push block) all to be bound; NULL
 * with the thread's error set where it cannot.
 */
struct dmlvk_dispatch_plan *dmlvk_plan_add_dispatch(struct dmlvk_op_plan *plan, const struct dmlvk_op_context *ctx,
                                                    enum dmlvk_shader shader, uint32_t push_slots,
                                                    uint64_t invocations);

/* Sets specialization constant id (a *_SPEC_* of the shader's ABI header). */
void dmlvk_dispatch_spec(struct dmlvk_op_plan *plan, struct dmlvk_dispatch_plan *d, uint32_t id, uint32_t value);

/*
 * Gives a dispatch a second pipeline: specialization constant id is 1 in the one recorded where
 * every binding in `bindings` (bit b for binding b) has an address that is a multiple of
 * DMLVK_ALIGNED_BYTES, and 0 in the one recorded elsewhere, so that the first's shader need not
 * test the addresses nor carry code for the unaligned case. The second is created on the first
 * record or execute that needs it.
 */
void dmlvk_dispatch_aligned(struct dmlvk_op_plan *plan, struct dmlvk_dispatch_plan *d, uint32_t id, uint32_t bindings);

/* Binds push slot member of the push block push_struct to a binding index or a DMLVK_SLOT_* value. */
#define DMLVK_BIND(d, push_struct, member, source) ((d)->slots[DMLVK_PUSH_SLOT(push_struct, member)] = (uint8_t)(source))

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

/* A data type as one bit of a mask: DirectML's numbers below 31, BFLOAT16 bit 31. */
#define DMLVK_TYPE_BIT(t)                                                                                              \
    ((t) == DMLVK_TENSOR_DATA_TYPE_BFLOAT16 ? 1u << 31 : (uint32_t)(t) < 31u ? 1u << (uint32_t)(t) : 0u)
#define DMLVK_FLOAT_TYPES                                                                                              \
    (DMLVK_TYPE_BIT(DMLVK_TENSOR_DATA_TYPE_FLOAT32) | DMLVK_TYPE_BIT(DMLVK_TENSOR_DATA_TYPE_FLOAT16) |                 \
     DMLVK_TYPE_BIT(DMLVK_TENSOR_DATA_TYPE_BFLOAT16))
/* Float types stored in 16 bits (no atomics on them, pairs per 32-bit word). */
#define DMLVK_IS_16BIT_FLOAT(t) ((t) == DMLVK_TENSOR_DATA_TYPE_FLOAT16 || (t) == DMLVK_TENSOR_DATA_TYPE_BFLOAT16)

/*
 * Checks one tensor of an operator: data type in types (a mask of DMLVK_TYPE_BIT), dimension count
 * in [min_dims, max_dims], sizes, strides, TotalTensorSizeInBytes, the element-count limit and, for
 * outputs, that no two elements alias.
 */
dmlvk_status dmlvk_check_tensor(const struct dmlvk_op_context *ctx, const char *field, const dmlvk_tensor_desc *desc, uint32_t types,
                                uint32_t min_dims, uint32_t max_dims, bool output, struct dmlvk_tensor *out);

/* Fails unless a and b have the same data type (and, with sizes, the same sizes). */
dmlvk_status dmlvk_check_same(const char *op, const char *field_a, const struct dmlvk_tensor *a,
                              const char *field_b, const struct dmlvk_tensor *b, bool sizes);

/* Rejects float16 on a device without it. */
dmlvk_status dmlvk_check_float16(const struct dmlvk_op_context *ctx, dmlvk_tensor_data_type type);

/* Reserves n zeroed words of the plan's parameter block and returns the index of the first
 * (UINT32_MAX when out of memory). The block may move: keep indices, not pointers. */
uint32_t dmlvk_params_reserve(struct dmlvk_op_plan *plan, uint32_t n);
/* Appends a struct of the shader's ABI header (a whole number of words); returns its index. */
uint32_t dmlvk_params_append(struct dmlvk_op_plan *plan, const void *data, size_t bytes);

/* ---- runtime objects ---------------------------------------------------------------------- */

struct dmlvk_pipeline_cache;

struct dmlvk_device {
    struct dmlvk_vk vk;
    VkInstance instance;
    bool own_instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice physical;
    VkDevice device;
    bool own_device;
    bool imported;
    uint32_t queue_family;
    uint32_t queue_index;
    VkQueue queue;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem_props;
    uint32_t api_version;               /* what the device may use: min(instance's, device's) */
    bool float16;
    bool float16_supported;             /* by the hardware, whether or not the device enabled it */
    bool float16_rte;                   /* shaderRoundingModeRTEFloat16: the rte16 shader variants */
    bool subgroup_shuffle;              /* compute subgroups with basic, vote, ballot and shuffle */
    uint32_t subgroup_size;
    uint32_t resident_invocations;      /* that the device runs at once; 0: unknown (VK_NV_shader_sm_builtins) */
    PFN_vkGetPipelineExecutableStatisticsKHR pipeline_statistics; /* NULL: not logged */
    bool float32_atomic_add;
    bool int64_atomics;
    bool float64;                       /* shaderFloat64: the float64 shader variants */
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
    struct dmlvk_pipeline_cache *pipelines;

    dmlvk_log_fn log;
    void *log_user;
    dmlvk_log_level log_level;

    atomic_uint_fast64_t stat_validation;
    /* What the caller created and has not destroyed yet: dmlvk_device_destroy refuses while any is. */
    atomic_uint_fast64_t live_buffers;
    atomic_uint_fast64_t live_operators;
#ifdef DMLVK_TEST_HOOKS
    /* Fault injection: the allocation that finds it at 0 fails; negative: off. */
    atomic_int_fast64_t fault_countdown;
#endif
};

struct dmlvk_buffer {
    dmlvk_device *device;
    VkBuffer buffer;
    VkDeviceMemory memory;              /* VK_NULL_HANDLE for a wrapped host buffer */
    uint64_t size;
    void *mapped;                       /* host-visible memory, or NULL */
    VkDeviceAddress address;
    VkBufferUsageFlags usage;
    bool wrapped;                       /* the host's VkBuffer: destroying the dmlvk_buffer leaves it */
    bool alive;                         /* counted in the device's live_buffers */
};

/*
 * Every allocation a device makes goes through these (host memory) or asks dmlvk_fault first
 * (Vulkan objects and memory), so that test builds can make any one of them fail.
 */
#ifdef DMLVK_TEST_HOOKS
bool dmlvk_fault(dmlvk_device *dev);
#else
static inline bool dmlvk_fault(dmlvk_device *dev)
{
    (void)dev;
    return false;
}
#endif
void *dmlvk_malloc(dmlvk_device *dev, size_t size);
void *dmlvk_calloc(dmlvk_device *dev, size_t n, size_t size);
void *dmlvk_realloc(dmlvk_device *dev, void *p, size_t size);

void dmlvk_log(const dmlvk_device *dev, dmlvk_log_level level, const char *fmt, ...) DMLVK_PRINTF(3, 4);
/* The validation layer's messenger: counts warnings and errors and logs them. */
VKAPI_ATTR VkBool32 VKAPI_CALL dmlvk_validation_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                         VkDebugUtilsMessageTypeFlagsEXT types,
                                                         const VkDebugUtilsMessengerCallbackDataEXT *data, void *user);

/* Allocates a device-local buffer (host-visible if host_visible and possible). */
dmlvk_status dmlvk_buffer_create_internal(dmlvk_device *dev, uint64_t size, bool prefer_host_visible,
                                          dmlvk_buffer **out);

/* The objects synchronous calls use (command pool, buffer, fence), and their teardown. */
dmlvk_status dmlvk_submit_init(dmlvk_device *dev);
void dmlvk_submit_destroy(dmlvk_device *dev);
/* Runs what record() writes into the device's command buffer, and waits. */
dmlvk_status dmlvk_device_submit(dmlvk_device *dev, dmlvk_status (*record)(VkCommandBuffer cmd, void *user),
                                 void *user);

/* ---- pipeline cache: one VkPipeline per shader variant and specialization, and its file ---- */

/* Opens the cache, reading its file unless disabled. */
dmlvk_status dmlvk_pipeline_cache_create(dmlvk_device *dev, const char *cache_dir, bool disabled,
                                         struct dmlvk_pipeline_cache **cache);
/* Saves the file where there is one, and frees every pipeline. */
dmlvk_status dmlvk_pipeline_cache_destroy(struct dmlvk_pipeline_cache *cache);
/* Returns the pipeline for a shader variant and specialization, compiling it at most once. */
dmlvk_status dmlvk_pipeline_get(struct dmlvk_pipeline_cache *cache, enum dmlvk_shader shader, uint32_t variant,
                                const uint32_t *spec, uint32_t spec_set, VkPipeline *pipeline);

void dmlvk_pipeline_cache_stats(struct dmlvk_pipeline_cache *cache, dmlvk_device_stats *stats);

/* The variant bits for a dispatch: the tensors' type, how float16 stores round, its features. */
uint32_t dmlvk_variant_select(const dmlvk_device *dev, dmlvk_tensor_data_type type, uint32_t features,
                              bool software_rounding);

/* Embedded SPIR-V, generated at build time from glsl/. */
struct dmlvk_shader_blob {
    enum dmlvk_shader shader;
    uint32_t variant;                   /* DMLVK_VARIANT_* bits */
    const char *name;
    const uint32_t *code;
    size_t size;                        /* bytes */
    uint32_t spec_ids;                  /* bit i: the module declares SpecId i */
};
extern const struct dmlvk_shader_blob dmlvk_shader_blobs[];
extern const size_t dmlvk_shader_blob_count;

#endif
