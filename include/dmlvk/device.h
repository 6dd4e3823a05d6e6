/*
 * Devices: dmlvk's own Vulkan instance and device, or one the host application created.
 *
 * Thread-safety: every function taking a dmlvk_device may be called from several threads at
 * once, except dmlvk_device_destroy, which must not run concurrently with any other call on the
 * device or on its buffers and operators.
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
    /* Log what the driver reports of each pipeline it compiles (register counts and the like,
     * VK_KHR_pipeline_executable_properties) at DMLVK_LOG_INFO, with the shader and its
     * specialization: for tuning, not for production. Creation fails where the device lacks the
     * extension; an imported device must have enabled it with pipelineExecutableInfo. */
    dmlvk_bool pipeline_statistics;
    uint32_t reserved[7];
} dmlvk_device_params;

#define DMLVK_DEVICE_PARAMS_DEFAULT ((dmlvk_device_params){ 0 })

/*
 * A device the host created. It must be Vulkan 1.2 or later with bufferDeviceAddress enabled;
 * FLOAT16 tensors also need storageBuffer16BitAccess, and ROI_ALIGN_GRAD's faster paths the atomics
 * that dmlvk_device_get_requirements lists. dmlvk reads what the host enabled from the
 * VkDeviceCreateInfo it created the device with, and refuses a device that lacks what it needs.
 * Buffers bound to operators are wrapped with dmlvk_buffer_wrap. The host keeps ownership:
 * dmlvk_device_destroy leaves the instance and device alive.
 */
typedef struct dmlvk_vulkan_import {
    PFN_vkGetInstanceProcAddr get_instance_proc_addr; /* NULL: the system loader's */
    VkInstance instance;
    uint32_t api_version;        /* the apiVersion the instance was created with */
    VkPhysicalDevice physical_device;
    VkDevice device;
    /* Required: what vkCreateDevice was given (its pNext chain of feature structs, pEnabledFeatures,
     * extensions and queues); read during the import only. */
    const VkDeviceCreateInfo *device_create_info;
    /* The queue dmlvk submits to: a family with VK_QUEUE_COMPUTE_BIT and an index below the
     * queueCount device_create_info gives that family. A queue of its own spares the locking. */
    uint32_t queue_family_index;
    uint32_t queue_index;
    /* Serialize dmlvk's own submissions with the host's use of the queue; NULL when the host never
     * touches the queue while dmlvk might. */
    void (*lock_queue)(void *user);
    void (*unlock_queue)(void *user);
    void *queue_user;
    uint32_t reserved[8];        /* zero; room for fields of later versions */
} dmlvk_vulkan_import;

/*
 * What dmlvk wants of a device, for a host to merge into its own vkCreateDevice before calling
 * dmlvk_device_import: bufferDeviceAddress (required), and where the physical device has them
 * storageBuffer16BitAccess (FLOAT16 tensors), shaderInt64 with shaderBufferInt64Atomics
 * (ROI_ALIGN_GRAD's deterministic MAX scatter; without them it gathers, slower),
 * shaderBufferFloat32AtomicAdd with its extension (the input gradient's float atomics),
 * shaderFloat64 (ROI align places most samples by a float64 estimate, the rest exactly; without
 * it every sample exactly, slower on small problems).
 * features.pNext chains vulkan11, vulkan12 and, when extensions lists
 * VK_EXT_shader_atomic_float, atomic_float: a host with no feature structs of its own can pass
 * &features as VkDeviceCreateInfo.pNext; one with its own sets the same members there to VK_TRUE
 * (a chain may hold each structure once). The chain points into the struct: use it where it was
 * filled, do not copy it.
 */
typedef struct dmlvk_device_requirements {
    uint32_t api_version;                /* the least apiVersion of the instance and the device */
    VkPhysicalDeviceFeatures2 features;
    VkPhysicalDeviceVulkan11Features vulkan11;
    VkPhysicalDeviceVulkan12Features vulkan12;
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float;
    uint32_t extension_count;
    const char *extensions[4];           /* device extensions to enable; static strings */
    uint32_t reserved[16];               /* zero on return; room for later versions */
} dmlvk_device_requirements;

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
    dmlvk_bool float16;          /* FLOAT16 and BFLOAT16 tensors run (16-bit storage) */
    dmlvk_bool float32_atomic_add; /* the input gradient of ROI align scatters with float atomics */
    dmlvk_bool int64_atomics;    /* ROI_ALIGN_GRAD's deterministic MAX scatters (faster than its gather) */
    uint64_t max_storage_buffer_range;
    float timestamp_period;      /* nanoseconds per timestamp tick, 0 without timestamps */
} dmlvk_device_info;

typedef struct dmlvk_device_stats {
    uint64_t pipelines_compiled;      /* vkCreateComputePipelines calls */
    /* pipelines found in memory: by operators created, and by calls that bind a tensor off the
     * alignment a dispatch's faster form needs (that form's other pipeline, once compiled) */
    uint64_t pipeline_memory_hits;
    uint64_t pipeline_disk_hits;      /* compiled pipelines the driver found in the VkPipelineCache */
    uint64_t disk_cache_bytes_loaded; /* 0 when no valid cache file was found */
    uint64_t validation_messages;     /* messages from the validation layer */
} dmlvk_device_stats;

/* Lists the physical devices. *count is the capacity of infos on entry (infos may be NULL with
 * *count 0 to ask for the count) and the number of devices on return. */
DMLVK_API dmlvk_status dmlvk_enumerate_devices(dmlvk_device_info *infos, uint32_t *count);

/* Creates a Vulkan instance and device of its own. params may be NULL for the defaults. */
DMLVK_API dmlvk_status dmlvk_device_create(const dmlvk_device_params *params, dmlvk_device **device);

/* Fills what dmlvk needs and can use on physical_device (see dmlvk_device_requirements);
 * DMLVK_ERROR_UNSUPPORTED when the device cannot run dmlvk at all. gipa NULL: the system loader's. */
DMLVK_API dmlvk_status dmlvk_device_get_requirements(PFN_vkGetInstanceProcAddr gipa, VkInstance instance,
                                                     VkPhysicalDevice physical_device,
                                                     dmlvk_device_requirements *requirements);

/* Runs on the host's device, calling Vulkan through import->get_instance_proc_addr; the device's
 * function table is its own, so hosts and other dmlvk devices may use other loaders. Only
 * cache_dir, disable_disk_cache and the log fields of params are used (params may be NULL). The
 * host owns the process, so an imported device keeps a disk pipeline cache only where
 * params->cache_dir names its folder (no environment variable or home folder is used). */
DMLVK_API dmlvk_status dmlvk_device_import(const dmlvk_vulkan_import *import, const dmlvk_device_params *params,
                                 dmlvk_device **device);

/* Saves the pipeline cache (if enabled) and frees everything the device owns. NULL is a no-op.
 * Refused (DMLVK_ERROR_INVALID_ARGUMENT, the device left usable) while buffers or operators made on
 * it are alive: destroy those first. */
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
