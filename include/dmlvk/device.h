/*
 * Devices: dmlvk's own Vulkan instance and device, or one the host application created.
 *
 * Thread-safety: every function taking a dmlvk_device may be called from several threads at
 * once, except dmlvk_device_destroy, which must be the last call on the device and must not run
 * concurrently with any other call on it or on its buffers and operators.
 */
#ifndef DMLVK_DEVICE_H
#define DMLVK_DEVICE_H

#include <stdint.h>

#include <vulkan/vulkan_core.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dmlvk_device dmlvk_device;

typedef enum dmlvk_log_level {
    DMLVK_LOG_DEFAULT = 0,       /* DMLVK_LOG_WARN */
    DMLVK_LOG_ERROR = 1,
    DMLVK_LOG_WARN = 2,
    DMLVK_LOG_INFO = 3,
    DMLVK_LOG_DEBUG = 4,
} dmlvk_log_level;

/* Called with every message at or below the chosen level; may be called from any thread. */
typedef void (*dmlvk_log_fn)(void *user, dmlvk_log_level level, const char *message);

/*
 * How a device is made. A zeroed struct (or NULL) means the defaults. Fields added in later
 * versions take space from `reserved` and mean "the default" at zero; a library refuses a struct
 * whose reserved words are not zero.
 */
typedef struct dmlvk_device_params {
    /*
     * Which physical device: with use_index, index in Vulkan's enumeration order; else with name,
     * the first whose name contains it (case-insensitive); else the first discrete GPU, else the
     * first integrated GPU, else the first other device (a CPU implementation such as lavapipe).
     * The library reads no environment variable for this (dmlvk-run and the tests take
     * DMLVK_DEVICE and pass it here).
     */
    dmlvk_bool use_index;
    uint32_t index;
    const char *name;
    /* Enable VK_LAYER_KHRONOS_validation; creation fails when the layer is missing. Messages are
     * logged as errors and counted in dmlvk_device_stats.validation_messages. */
    dmlvk_bool validation;
    /* Directory of the on-disk pipeline cache; NULL means $DMLVK_CACHE_DIR, else
     * $XDG_CACHE_HOME/dmlvk, else $HOME/.cache/dmlvk. */
    const char *cache_dir;
    dmlvk_bool disable_disk_cache;
    dmlvk_log_fn log;            /* NULL: no logging, and nothing printed anywhere */
    void *log_user;
    dmlvk_log_level log_level;   /* the most verbose level passed to log */
    uint32_t reserved[8];
} dmlvk_device_params;

#define DMLVK_DEVICE_PARAMS_DEFAULT ((dmlvk_device_params){ 0 })

/*
 * A device the host created. It must be Vulkan 1.2 or later with the bufferDeviceAddress feature
 * enabled; float16 tensors additionally need storageBuffer16BitAccess enabled. Buffers bound to
 * operators must have been created with VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT and
 * VK_BUFFER_USAGE_STORAGE_BUFFER_BIT. The host keeps ownership: dmlvk_device_destroy leaves the
 * instance and device alive.
 */
typedef struct dmlvk_vulkan_import {
    PFN_vkGetInstanceProcAddr get_instance_proc_addr; /* NULL: the system loader's */
    VkInstance instance;
    uint32_t api_version;        /* the apiVersion the instance was created with */
    VkPhysicalDevice physical_device;
    VkDevice device;
    uint32_t queue_family_index; /* must support compute */
    uint32_t queue_index;
    dmlvk_bool storage_buffer_16bit_access;  /* the host enabled it */
    dmlvk_bool shader_buffer_float32_atomic_add; /* the host enabled VK_EXT_shader_atomic_float's */
    dmlvk_bool shader_buffer_int64_atomics; /* the host enabled shaderInt64 and shaderBufferInt64Atomics */
    /* Serialize dmlvk's own submissions with the host's use of the queue; NULL when the host never
     * touches the queue while dmlvk might. */
    void (*lock_queue)(void *user);
    void (*unlock_queue)(void *user);
    void *queue_user;
    uint32_t reserved[8];        /* zero; room for fields of later versions */
} dmlvk_vulkan_import;

typedef enum dmlvk_device_type {
    DMLVK_DEVICE_TYPE_OTHER = 0,
    DMLVK_DEVICE_TYPE_INTEGRATED_GPU = 1,
    DMLVK_DEVICE_TYPE_DISCRETE_GPU = 2,
    DMLVK_DEVICE_TYPE_VIRTUAL_GPU = 3,
    DMLVK_DEVICE_TYPE_CPU = 4,
} dmlvk_device_type;

typedef struct dmlvk_device_info {
    char name[256];
    uint32_t index;              /* in Vulkan's enumeration order (own devices) */
    uint32_t vendor_id;
    uint32_t device_id;
    uint32_t api_version;
    uint32_t driver_version;
    dmlvk_device_type type;
    dmlvk_bool float16;          /* FLOAT16 tensors run */
    dmlvk_bool float32_atomic_add; /* the input gradient of ROI align scatters with float atomics */
    dmlvk_bool int64_atomics;    /* ROI_ALIGN_GRAD's deterministic mode runs */
    uint64_t max_storage_buffer_range;
    float timestamp_period;      /* nanoseconds per timestamp tick, 0 without timestamps */
} dmlvk_device_info;

typedef struct dmlvk_device_stats {
    uint64_t pipelines_compiled;      /* vkCreateComputePipelines calls */
    uint64_t pipeline_memory_hits;    /* operators that reused an in-memory pipeline */
    uint64_t pipeline_disk_hits;      /* compiled pipelines the driver found in the VkPipelineCache */
    uint64_t disk_cache_bytes_loaded; /* 0 when no valid cache file was found */
    uint64_t validation_messages;     /* messages from the validation layer */
} dmlvk_device_stats;

/* Lists the physical devices. *count is the capacity of infos on entry (infos may be NULL with
 * *count 0 to ask for the count) and the number of devices on return. */
DMLVK_API dmlvk_status dmlvk_enumerate_devices(dmlvk_device_info *infos, uint32_t *count);

/* Creates a Vulkan instance and device of its own. params may be NULL for the defaults. */
DMLVK_API dmlvk_status dmlvk_device_create(const dmlvk_device_params *params, dmlvk_device **device);

/* Runs on the host's device, calling Vulkan through import->get_instance_proc_addr; the device's
 * function table is its own, so hosts and other dmlvk devices may use other loaders. Only
 * cache_dir, disable_disk_cache and the log fields of params are used (params may be NULL). */
DMLVK_API dmlvk_status dmlvk_device_import(const dmlvk_vulkan_import *import, const dmlvk_device_params *params,
                                 dmlvk_device **device);

/* Saves the pipeline cache (if enabled) and frees everything the device owns. NULL is a no-op. */
DMLVK_API dmlvk_status dmlvk_device_destroy(dmlvk_device *device);

/* What the device is and which optional features dmlvk found on it. */
DMLVK_API dmlvk_status dmlvk_device_get_info(const dmlvk_device *device, dmlvk_device_info *info);
/* Counters since the device was created (pipelines compiled, cache hits, validation messages). */
DMLVK_API dmlvk_status dmlvk_device_get_stats(dmlvk_device *device, dmlvk_device_stats *stats);

/* Writes the pipeline cache to disk now (it is also written by dmlvk_device_destroy). A file is
 * replaced atomically; a cache directory that cannot be written gives DMLVK_ERROR_IO and leaves
 * the device fully usable. */
DMLVK_API dmlvk_status dmlvk_device_save_pipeline_cache(dmlvk_device *device);

/* The path of the cache file, or "" when the disk cache is off. */
DMLVK_API dmlvk_status dmlvk_device_get_cache_path(const dmlvk_device *device, const char **path);

#ifdef __cplusplus
}
#endif

#endif
