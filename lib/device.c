#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

#define REQUIRED_API VK_API_VERSION_1_2

/* volk's loader entry points are process-wide; load them once. */
static pthread_once_t volk_once = PTHREAD_ONCE_INIT;
static VkResult volk_result = VK_ERROR_INITIALIZATION_FAILED;

static void volk_init(void)
{
    volk_result = volkInitialize();
}

static dmlvk_status load_vulkan(PFN_vkGetInstanceProcAddr custom)
{
    if (custom) {
        /* The host's own loader: volk only needs the entry point. */
        volkInitializeCustom(custom);
        return DMLVK_OK;
    }
    pthread_once(&volk_once, volk_init);
    if (volk_result != VK_SUCCESS)
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "no Vulkan loader found (libvulkan.so.1)");
    return DMLVK_OK;
}

void dmlvk_debug_fail_nth_allocation(dmlvk_device *dev, int64_t n)
{
    atomic_store(&dev->fault_countdown, n < 0 ? -1 : n);
}

bool dmlvk_fault(dmlvk_device *dev)
{
    if (atomic_load(&dev->fault_countdown) < 0)
        return false;
    return atomic_fetch_sub(&dev->fault_countdown, 1) == 0;
}

void *dmlvk_calloc(dmlvk_device *dev, size_t n, size_t size)
{
    return dmlvk_fault(dev) ? NULL : calloc(n, size);
}

void dmlvk_log(const dmlvk_device *dev, dmlvk_log_level level, const char *fmt, ...)
{
    if (!dev->log || level > dev->log_level)
        return;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    dev->log(dev->log_user, level, msg);
}

static VKAPI_ATTR VkBool32 VKAPI_CALL debug_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                     VkDebugUtilsMessageTypeFlagsEXT types,
                                                     const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)types;
    dmlvk_device *dev = user;
    if (severity & (VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)) {
        atomic_fetch_add(&dev->stat_validation, 1);
        /* Always visible: a validation message is a bug, in dmlvk or in how it is used. */
        if (dev->log)
            dev->log(dev->log_user, DMLVK_LOG_ERROR, data->pMessage);
        else
            fprintf(stderr, "dmlvk: validation: %s\n", data->pMessage);
    }
    return VK_FALSE;
}

static dmlvk_device_type device_type(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return DMLVK_DEVICE_TYPE_INTEGRATED_GPU;
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return DMLVK_DEVICE_TYPE_DISCRETE_GPU;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return DMLVK_DEVICE_TYPE_VIRTUAL_GPU;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return DMLVK_DEVICE_TYPE_CPU;
    default: return DMLVK_DEVICE_TYPE_OTHER;
    }
}

struct physical_caps {
    VkPhysicalDeviceProperties props;
    bool api_ok, bda, storage16, rte16, atomic_add, int64_atomics;
    int32_t compute_family;
    uint32_t timestamp_bits;
};

static bool has_extension(VkPhysicalDevice pd, const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0)
        return false;
    VkExtensionProperties *ext = calloc(n, sizeof(*ext));
    bool found = false;
    if (ext && vkEnumerateDeviceExtensionProperties(pd, NULL, &n, ext) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = !strcmp(ext[i].extensionName, name);
    free(ext);
    return found;
}

static void query_caps(VkPhysicalDevice pd, struct physical_caps *caps)
{
    memset(caps, 0, sizeof(*caps));
    vkGetPhysicalDeviceProperties(pd, &caps->props);
    caps->api_ok = caps->props.apiVersion >= REQUIRED_API;
    caps->compute_family = -1;
    if (!caps->api_ok)
        return;
    bool atomic_ext = has_extension(pd, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
    };
    VkPhysicalDeviceVulkan12Features v12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = atomic_ext ? &atomic : NULL,
    };
    VkPhysicalDeviceVulkan11Features v11 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &v12 };
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &v11 };
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    caps->bda = v12.bufferDeviceAddress;
    caps->storage16 = v11.storageBuffer16BitAccess;
    caps->atomic_add = atomic_ext && atomic.shaderBufferFloat32AtomicAdd;
    caps->int64_atomics = f2.features.shaderInt64 && v12.shaderBufferInt64Atomics;
    VkPhysicalDeviceVulkan12Properties p12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES };
    VkPhysicalDeviceProperties2 p2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &p12 };
    vkGetPhysicalDeviceProperties2(pd, &p2);
    caps->rte16 = p12.shaderRoundingModeRTEFloat16;

    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
    VkQueueFamilyProperties *q = calloc(nq ? nq : 1, sizeof(*q));
    if (!q)
        return;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, q);
    for (uint32_t i = 0; i < nq && caps->compute_family < 0; i++)
        if (q[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
            caps->compute_family = (int32_t)i;
            caps->timestamp_bits = q[i].timestampValidBits;
        }
    free(q);
}

static void fill_info(const struct physical_caps *caps, uint32_t index, dmlvk_device_info *info)
{
    memset(info, 0, sizeof(*info));
    snprintf(info->name, sizeof(info->name), "%s", caps->props.deviceName);
    info->index = index;
    info->vendor_id = caps->props.vendorID;
    info->device_id = caps->props.deviceID;
    info->api_version = caps->props.apiVersion;
    info->driver_version = caps->props.driverVersion;
    info->type = device_type(caps->props.deviceType);
    info->float16 = caps->storage16;
    info->float32_atomic_add = caps->atomic_add;
    info->int64_atomics = caps->int64_atomics;
    info->max_storage_buffer_range = caps->props.limits.maxStorageBufferRange;
    info->timestamp_period = caps->props.limits.timestampPeriod;
}

static dmlvk_status create_instance(bool validation, VkInstance *instance, bool *debug_utils, uint32_t *api_version)
{
    uint32_t loader_version = volkGetInstanceVersion();
    if (loader_version < REQUIRED_API)
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "the Vulkan loader supports version %u.%u; dmlvk needs 1.2",
                           VK_API_VERSION_MAJOR(loader_version), VK_API_VERSION_MINOR(loader_version));
    const char *layers[] = { "VK_LAYER_KHRONOS_validation" };
    const char *exts[] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME };
    *debug_utils = false;
    if (validation) {
        uint32_t n = 0;
        vkEnumerateInstanceLayerProperties(&n, NULL);
        VkLayerProperties *props = calloc(n ? n : 1, sizeof(*props));
        bool found = false;
        if (props && vkEnumerateInstanceLayerProperties(&n, props) == VK_SUCCESS)
            for (uint32_t i = 0; i < n && !found; i++)
                found = !strcmp(props[i].layerName, layers[0]);
        free(props);
        if (!found)
            return dmlvk_error(DMLVK_ERROR_UNSUPPORTED,
                               "validation was asked for but VK_LAYER_KHRONOS_validation is not installed");
        *debug_utils = true;
    }
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pEngineName = "dmlvk",
        .engineVersion = VK_MAKE_API_VERSION(0, DMLVK_VERSION_MAJOR, DMLVK_VERSION_MINOR, DMLVK_VERSION_PATCH),
        .apiVersion = VK_API_VERSION_1_3 <= loader_version ? VK_API_VERSION_1_3 : REQUIRED_API,
    };
    VkInstanceCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pApplicationInfo = &app,
        .enabledLayerCount = validation ? 1 : 0,
        .ppEnabledLayerNames = layers,
        .enabledExtensionCount = validation ? 1 : 0,
        .ppEnabledExtensionNames = exts,
    };
    VkResult r = vkCreateInstance(&ci, NULL, instance);
    if (r != VK_SUCCESS)
        return dmlvk_vk_error(r, "vkCreateInstance");
    *api_version = app.apiVersion;
    volkLoadInstanceOnly(*instance);
    return DMLVK_OK;
}

static dmlvk_status list_physical(VkInstance instance, VkPhysicalDevice **out, uint32_t *count)
{
    VkResult r = vkEnumeratePhysicalDevices(instance, count, NULL);
    if (r != VK_SUCCESS)
        return dmlvk_vk_error(r, "vkEnumeratePhysicalDevices");
    *out = calloc(*count ? *count : 1, sizeof(**out));
    if (!*out)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "out of host memory listing devices");
    r = vkEnumeratePhysicalDevices(instance, count, *out);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        free(*out);
        return dmlvk_vk_error(r, "vkEnumeratePhysicalDevices");
    }
    return DMLVK_OK;
}

dmlvk_status dmlvk_enumerate_devices(dmlvk_device_info *infos, uint32_t *count)
{
    if (!count || (!infos && *count))
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_enumerate_devices: count is NULL, or infos is NULL with a capacity");
    dmlvk_status st = load_vulkan(NULL);
    if (st != DMLVK_OK)
        return st;
    VkInstance instance;
    bool debug_utils;
    uint32_t api_version;
    if ((st = create_instance(false, &instance, &debug_utils, &api_version)) != DMLVK_OK)
        return st;
    VkPhysicalDevice *pds;
    uint32_t n;
    if ((st = list_physical(instance, &pds, &n)) == DMLVK_OK) {
        for (uint32_t i = 0; i < n && i < *count; i++) {
            struct physical_caps caps;
            query_caps(pds[i], &caps);
            fill_info(&caps, i, &infos[i]);
        }
        *count = n;
        free(pds);
    }
    vkDestroyInstance(instance, NULL);
    return st;
}

static bool name_matches(const char *device_name, const char *pattern)
{
    size_t n = strlen(pattern);
    for (const char *p = device_name; *p; p++)
        if (!strncasecmp(p, pattern, n))
            return true;
    return n == 0;
}

static int type_rank(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    default: return 2;
    }
}

static dmlvk_status pick_physical(VkPhysicalDevice *pds, uint32_t n, const dmlvk_device_params *params,
                                  uint32_t *chosen)
{
    int32_t index = params->index;
    const char *name = params->name;
    const char *env = getenv("DMLVK_DEVICE");
    if (index < 0 && !name && env && *env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (*end == '\0' && v >= 0)
            index = (int32_t)v;
        else
            name = env;
    }
    if (n == 0)
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "no Vulkan device found");
    if (index >= 0) {
        if ((uint32_t)index >= n)
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "device index %d: there are only %u devices", index, n);
        *chosen = (uint32_t)index;
        return DMLVK_OK;
    }
    int best = -1, best_rank = 99;
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        if (name && !name_matches(p.deviceName, name))
            continue;
        if (p.apiVersion < REQUIRED_API && best >= 0)
            continue;
        int rank = type_rank(p.deviceType) + (p.apiVersion < REQUIRED_API ? 10 : 0);
        if (rank < best_rank) {
            best = (int)i;
            best_rank = rank;
        }
    }
    if (best < 0)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "no Vulkan device's name contains \"%s\"", name);
    *chosen = (uint32_t)best;
    return DMLVK_OK;
}

static dmlvk_status init_common(dmlvk_device *dev, const struct physical_caps *caps, const dmlvk_device_params *params)
{
    dev->props = caps->props;
    dev->timestamp_bits = (int32_t)dev->queue_family == caps->compute_family ? caps->timestamp_bits : 0;
    if (dev->api_version > caps->props.apiVersion)
        dev->api_version = caps->props.apiVersion;
    vkGetPhysicalDeviceMemoryProperties(dev->physical, &dev->mem_props);
    volkLoadDeviceTable(&dev->vk, dev->device);
    dev->vk.vkGetDeviceQueue(dev->device, dev->queue_family, 0, &dev->queue);

    VkCommandPoolCreateInfo pci = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = dev->queue_family,
    };
    VkResult r = dev->vk.vkCreateCommandPool(dev->device, &pci, NULL, &dev->pool);
    if (r != VK_SUCCESS)
        return dmlvk_vk_error(r, "vkCreateCommandPool");
    VkCommandBufferAllocateInfo cai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = dev->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    if ((r = dev->vk.vkAllocateCommandBuffers(dev->device, &cai, &dev->cmd)) != VK_SUCCESS)
        return dmlvk_vk_error(r, "vkAllocateCommandBuffers");
    VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    if ((r = dev->vk.vkCreateFence(dev->device, &fci, NULL, &dev->fence)) != VK_SUCCESS)
        return dmlvk_vk_error(r, "vkCreateFence");
    VkPushConstantRange range = {
        .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        .size = DMLVK_PUSH_CONSTANT_BYTES,
    };
    VkPipelineLayoutCreateInfo lci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &range,
    };
    if ((r = dev->vk.vkCreatePipelineLayout(dev->device, &lci, NULL, &dev->layout)) != VK_SUCCESS)
        return dmlvk_vk_error(r, "vkCreatePipelineLayout");
    dmlvk_disk_cache_open(dev, params->cache_dir, params->disable_disk_cache);
    if (!dev->vk_cache)
        return dmlvk_error(DMLVK_ERROR_DEVICE, "vkCreatePipelineCache failed");
    return DMLVK_OK;
}

static dmlvk_device *alloc_device(const dmlvk_device_params *params)
{
    dmlvk_device *dev = calloc(1, sizeof(*dev));
    if (!dev)
        return NULL;
    pthread_mutex_init(&dev->submit_lock, NULL);
    pthread_mutex_init(&dev->cache_lock, NULL);
    atomic_init(&dev->fault_countdown, -1);
    dev->log = params->log;
    dev->log_user = params->log_user;
    dev->log_level = params->log_level;
    return dev;
}

static dmlvk_status create_logical(dmlvk_device *dev, const struct physical_caps *caps)
{
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = dev->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
        .shaderBufferFloat32AtomicAdd = VK_TRUE,
    };
    VkPhysicalDeviceVulkan12Features v12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = caps->atomic_add ? &atomic : NULL,
        .bufferDeviceAddress = VK_TRUE,
        .shaderBufferInt64Atomics = caps->int64_atomics,
    };
    VkPhysicalDeviceVulkan11Features v11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
        .pNext = &v12,
        .storageBuffer16BitAccess = caps->storage16,
    };
    VkPhysicalDeviceFeatures2 f2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &v11,
        .features = { .shaderInt64 = caps->int64_atomics },
    };
    const char *exts[] = { VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME };
    VkDeviceCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &f2,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qci,
        .enabledExtensionCount = caps->atomic_add ? 1 : 0,
        .ppEnabledExtensionNames = exts,
    };
    VkResult r = vkCreateDevice(dev->physical, &dci, NULL, &dev->device);
    if (r != VK_SUCCESS)
        return dmlvk_vk_error(r, "vkCreateDevice");
    dev->own_device = true;
    dev->float16 = caps->storage16;
    dev->float16_rte = caps->rte16;
    dev->float32_atomic_add = caps->atomic_add;
    dev->int64_atomics = caps->int64_atomics;
    return DMLVK_OK;
}

dmlvk_status dmlvk_device_create(const dmlvk_device_params *params_in, dmlvk_device **out)
{
    dmlvk_device_params params = params_in ? *params_in : DMLVK_DEVICE_PARAMS_DEFAULT;
    if (!out)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_device_create: device is NULL");
    *out = NULL;
    dmlvk_status st = load_vulkan(NULL);
    if (st != DMLVK_OK)
        return st;
    dmlvk_device *dev = alloc_device(&params);
    if (!dev)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "out of host memory creating a device");
    bool debug_utils;
    if ((st = create_instance(params.validation, &dev->instance, &debug_utils, &dev->api_version)) != DMLVK_OK)
        goto fail;
    dev->own_instance = true;
    if (debug_utils) {
        VkDebugUtilsMessengerCreateInfoEXT mci = {
            .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
            .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
            .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
            .pfnUserCallback = debug_callback,
            .pUserData = dev,
        };
        VkResult r = vkCreateDebugUtilsMessengerEXT(dev->instance, &mci, NULL, &dev->messenger);
        if (r != VK_SUCCESS) {
            st = dmlvk_vk_error(r, "vkCreateDebugUtilsMessengerEXT");
            goto fail;
        }
    }
    VkPhysicalDevice *pds;
    uint32_t n;
    if ((st = list_physical(dev->instance, &pds, &n)) != DMLVK_OK)
        goto fail;
    uint32_t index = 0;
    st = pick_physical(pds, n, &params, &index);
    if (st == DMLVK_OK)
        dev->physical = pds[index];
    free(pds);
    if (st != DMLVK_OK)
        goto fail;
    dev->device_index = index;

    struct physical_caps caps;
    query_caps(dev->physical, &caps);
    if (!caps.api_ok || !caps.bda || caps.compute_family < 0) {
        st = dmlvk_error(DMLVK_ERROR_UNSUPPORTED,
                         "device %u (%s) lacks what dmlvk needs: Vulkan 1.2, bufferDeviceAddress and a compute queue",
                         index, caps.props.deviceName);
        goto fail;
    }
    dev->queue_family = (uint32_t)caps.compute_family;
    if ((st = create_logical(dev, &caps)) != DMLVK_OK)
        goto fail;
    if ((st = init_common(dev, &caps, &params)) != DMLVK_OK)
        goto fail;
    dmlvk_log(dev, DMLVK_LOG_INFO, "device %u: %s", index, caps.props.deviceName);
    *out = dev;
    return DMLVK_OK;
fail:
    dmlvk_device_destroy(dev);
    return st;
}

dmlvk_status dmlvk_device_import(const dmlvk_vulkan_import *import, const dmlvk_device_params *params_in,
                                 dmlvk_device **out)
{
    dmlvk_device_params params = params_in ? *params_in : DMLVK_DEVICE_PARAMS_DEFAULT;
    if (!out || !import)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_device_import: NULL argument");
    *out = NULL;
    if (!import->instance || !import->physical_device || !import->device)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_device_import: instance, physical_device and device are required");
    if (import->api_version < REQUIRED_API)
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "dmlvk_device_import: api_version must be Vulkan 1.2 or later");
    if (import->queue_index != 0)
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "dmlvk_device_import: queue_index must be 0");
    dmlvk_status st = load_vulkan(import->get_instance_proc_addr);
    if (st != DMLVK_OK)
        return st;
    volkLoadInstanceOnly(import->instance);
    dmlvk_device *dev = alloc_device(&params);
    if (!dev)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "out of host memory creating a device");
    dev->instance = import->instance;
    dev->api_version = import->api_version;
    dev->physical = import->physical_device;
    dev->device = import->device;
    dev->queue_family = import->queue_family_index;
    dev->lock_queue = import->lock_queue;
    dev->unlock_queue = import->unlock_queue;
    dev->queue_user = import->queue_user;
    struct physical_caps caps;
    query_caps(dev->physical, &caps);
    dev->float16 = import->storage_buffer_16bit_access && caps.storage16;
    dev->float16_rte = caps.rte16;
    dev->float32_atomic_add = import->shader_buffer_float32_atomic_add && caps.atomic_add;
    dev->int64_atomics = import->shader_buffer_int64_atomics && caps.int64_atomics;
    if (!caps.bda) {
        st = dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "dmlvk_device_import: the device lacks bufferDeviceAddress");
        goto fail;
    }
    if ((st = init_common(dev, &caps, &params)) != DMLVK_OK)
        goto fail;
    *out = dev;
    return DMLVK_OK;
fail:
    dmlvk_device_destroy(dev);
    return st;
}

dmlvk_status dmlvk_device_destroy(dmlvk_device *dev)
{
    if (!dev)
        return DMLVK_OK;
    dmlvk_status st = DMLVK_OK;
    if (dev->device) {
        dev->vk.vkDeviceWaitIdle(dev->device);
        if (dev->vk_cache) {
            if (dev->cache_path)
                st = dmlvk_disk_cache_save(dev);
            dev->vk.vkDestroyPipelineCache(dev->device, dev->vk_cache, NULL);
        }
        dmlvk_pipelines_destroy(dev);
        if (dev->layout)
            dev->vk.vkDestroyPipelineLayout(dev->device, dev->layout, NULL);
        if (dev->fence)
            dev->vk.vkDestroyFence(dev->device, dev->fence, NULL);
        if (dev->pool)
            dev->vk.vkDestroyCommandPool(dev->device, dev->pool, NULL);
        if (dev->own_device)
            dev->vk.vkDestroyDevice(dev->device, NULL);
    }
    if (dev->messenger)
        vkDestroyDebugUtilsMessengerEXT(dev->instance, dev->messenger, NULL);
    if (dev->own_instance && dev->instance)
        vkDestroyInstance(dev->instance, NULL);
    pthread_mutex_destroy(&dev->submit_lock);
    pthread_mutex_destroy(&dev->cache_lock);
    free(dev->cache_path);
    free(dev);
    return st;
}

dmlvk_status dmlvk_device_get_info(const dmlvk_device *dev, dmlvk_device_info *info)
{
    if (!dev || !info)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_device_get_info: NULL argument");
    struct physical_caps caps = { .props = dev->props, .storage16 = dev->float16, .atomic_add = dev->float32_atomic_add,
                                  .int64_atomics = dev->int64_atomics };
    fill_info(&caps, dev->device_index, info);
    return DMLVK_OK;
}

dmlvk_status dmlvk_device_get_stats(dmlvk_device *dev, dmlvk_device_stats *stats)
{
    if (!dev || !stats)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_device_get_stats: NULL argument");
    stats->pipelines_compiled = atomic_load(&dev->stat_compiled);
    stats->pipeline_memory_hits = atomic_load(&dev->stat_memory_hits);
    stats->pipeline_disk_hits = atomic_load(&dev->stat_disk_hits);
    stats->disk_cache_bytes_loaded = dev->stat_disk_bytes;
    stats->validation_messages = atomic_load(&dev->stat_validation);
    return DMLVK_OK;
}

dmlvk_status dmlvk_device_submit(dmlvk_device *dev, dmlvk_status (*record)(VkCommandBuffer cmd, void *user), void *user)
{
    pthread_mutex_lock(&dev->submit_lock);
    dmlvk_status st = DMLVK_OK;
    VkResult r = dmlvk_fault(dev) ? VK_ERROR_OUT_OF_DEVICE_MEMORY : dev->vk.vkResetCommandBuffer(dev->cmd, 0);
    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    if (r == VK_SUCCESS)
        r = dev->vk.vkBeginCommandBuffer(dev->cmd, &bi);
    if (r != VK_SUCCESS) {
        st = dmlvk_vk_error(r, "vkBeginCommandBuffer");
        goto out;
    }
    st = record(dev->cmd, user);
    /* Later submissions and the host see everything this one wrote. */
    VkMemoryBarrier mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT | VK_ACCESS_HOST_READ_BIT,
    };
    dev->vk.vkCmdPipelineBarrier(dev->cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                                 VK_PIPELINE_STAGE_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL,
                                 0, NULL);
    r = dev->vk.vkEndCommandBuffer(dev->cmd);
    if (st != DMLVK_OK)
        goto out;
    if (r != VK_SUCCESS) {
        st = dmlvk_vk_error(r, "vkEndCommandBuffer");
        goto out;
    }
    VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &dev->cmd };
    if (dev->lock_queue)
        dev->lock_queue(dev->queue_user);
    r = dmlvk_fault(dev) ? VK_ERROR_OUT_OF_DEVICE_MEMORY : dev->vk.vkQueueSubmit(dev->queue, 1, &si, dev->fence);
    if (dev->unlock_queue)
        dev->unlock_queue(dev->queue_user);
    if (r != VK_SUCCESS) {
        st = dmlvk_vk_error(r, "vkQueueSubmit");
        goto out;
    }
    r = dev->vk.vkWaitForFences(dev->device, 1, &dev->fence, VK_TRUE, UINT64_MAX);
    dev->vk.vkResetFences(dev->device, 1, &dev->fence);
    if (r != VK_SUCCESS)
        st = dmlvk_vk_error(r, "vkWaitForFences");
out:
    pthread_mutex_unlock(&dev->submit_lock);
    return st;
}
