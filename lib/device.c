/* Devices: dmlvk's own instance and device, or the host's; their capabilities and choice. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"

#define REQUIRED_API VK_API_VERSION_1_2

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

static bool has_extension(const struct dmlvk_vk *vk, VkPhysicalDevice pd, const char *name)
{
    uint32_t n = 0;
    if (vk->vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0)
        return false;
    VkExtensionProperties *ext = calloc(n, sizeof(*ext));
    bool found = false;
    if (ext && vk->vkEnumerateDeviceExtensionProperties(pd, NULL, &n, ext) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = !strcmp(ext[i].extensionName, name);
    free(ext);
    return found;
}

static void query_caps(const struct dmlvk_vk *vk, VkPhysicalDevice pd, struct physical_caps *caps)
{
    memset(caps, 0, sizeof(*caps));
    vk->vkGetPhysicalDeviceProperties(pd, &caps->props);
    caps->api_ok = caps->props.apiVersion >= REQUIRED_API;
    caps->compute_family = -1;
    if (!caps->api_ok)
        return;
    bool atomic_ext = has_extension(vk, pd, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
    };
    VkPhysicalDeviceVulkan12Features v12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = atomic_ext ? &atomic : NULL,
    };
    VkPhysicalDeviceVulkan11Features v11 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &v12 };
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &v11 };
    vk->vkGetPhysicalDeviceFeatures2(pd, &f2);
    caps->bda = v12.bufferDeviceAddress;
    caps->storage16 = v11.storageBuffer16BitAccess;
    caps->atomic_add = atomic_ext && atomic.shaderBufferFloat32AtomicAdd;
    caps->int64_atomics = f2.features.shaderInt64 && v12.shaderBufferInt64Atomics;
    VkPhysicalDeviceVulkan12Properties p12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES };
    VkPhysicalDeviceProperties2 p2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &p12 };
    vk->vkGetPhysicalDeviceProperties2(pd, &p2);
    caps->rte16 = p12.shaderRoundingModeRTEFloat16;

    uint32_t nq = 0;
    vk->vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
    VkQueueFamilyProperties *q = calloc(nq ? nq : 1, sizeof(*q));
    if (!q)
        return;
    vk->vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, q);
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

static dmlvk_status create_instance(struct dmlvk_vk *vk, bool validation, VkInstance *instance, bool *debug_utils,
                                    uint32_t *api_version)
{
    uint32_t loader_version = dmlvk_vk_instance_version(vk);
    if (loader_version < REQUIRED_API)
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "the Vulkan loader supports version %u.%u; dmlvk needs 1.2",
                           VK_API_VERSION_MAJOR(loader_version), VK_API_VERSION_MINOR(loader_version));
    const char *layers[] = { "VK_LAYER_KHRONOS_validation" };
    const char *exts[] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME };
    *debug_utils = false;
    if (validation) {
        uint32_t n = 0;
        vk->vkEnumerateInstanceLayerProperties(&n, NULL);
        VkLayerProperties *props = calloc(n ? n : 1, sizeof(*props));
        bool found = false;
        if (props && vk->vkEnumerateInstanceLayerProperties(&n, props) == VK_SUCCESS)
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
    VkResult r = vk->vkCreateInstance(&ci, NULL, instance);
    if (r != VK_SUCCESS)
        return dmlvk_vk_error(r, "vkCreateInstance");
    *api_version = app.apiVersion;
    dmlvk_status st = dmlvk_vk_load_instance(vk, *instance);
    if (st != DMLVK_OK) {
        PFN_vkDestroyInstance destroy = (PFN_vkDestroyInstance)vk->vkGetInstanceProcAddr(*instance, "vkDestroyInstance");
        if (destroy)
            destroy(*instance, NULL);
        *instance = VK_NULL_HANDLE;
    }
    return st;
}

static dmlvk_status list_physical(const struct dmlvk_vk *vk, VkInstance instance, VkPhysicalDevice **out, uint32_t *count)
{
    VkResult r = vk->vkEnumeratePhysicalDevices(instance, count, NULL);
    if (r != VK_SUCCESS)
        return dmlvk_vk_error(r, "vkEnumeratePhysicalDevices");
    *out = calloc(*count ? *count : 1, sizeof(**out));
    if (!*out)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "out of host memory listing devices");
    r = vk->vkEnumeratePhysicalDevices(instance, count, *out);
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
    struct dmlvk_vk vk_table = { 0 }, *vk = &vk_table;
    dmlvk_status st = dmlvk_vk_load_global(vk, NULL);
    if (st != DMLVK_OK)
        return st;
    VkInstance instance;
    bool debug_utils;
    uint32_t api_version;
    if ((st = create_instance(vk, false, &instance, &debug_utils, &api_version)) != DMLVK_OK)
        return st;
    VkPhysicalDevice *pds;
    uint32_t n;
    if ((st = list_physical(vk, instance, &pds, &n)) == DMLVK_OK) {
        for (uint32_t i = 0; i < n && i < *count; i++) {
            struct physical_caps caps;
            query_caps(vk, pds[i], &caps);
            fill_info(&caps, i, &infos[i]);
        }
        *count = n;
        free(pds);
    }
    vk->vkDestroyInstance(instance, NULL);
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

static dmlvk_status pick_physical(const struct dmlvk_vk *vk, VkPhysicalDevice *pds, uint32_t n,
                                  const dmlvk_device_params *params, uint32_t *chosen)
{
    const char *name = params->name;
    if (n == 0)
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "no Vulkan device found");
    if (params->use_index) {
        if (params->index >= n)
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_device_params.index: %u, but there are only %u devices",
                               params->index, n);
        *chosen = params->index;
        return DMLVK_OK;
    }
    int best = -1, best_rank = 99;
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;
        vk->vkGetPhysicalDeviceProperties(pds[i], &p);
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
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_device_params.name: no Vulkan device's name contains \"%s\"", name);
    *chosen = (uint32_t)best;
    return DMLVK_OK;
}

static dmlvk_status init_common(dmlvk_device *dev, const struct physical_caps *caps, const dmlvk_device_params *params)
{
    dev->props = caps->props;
    dev->timestamp_bits = (int32_t)dev->queue_family == caps->compute_family ? caps->timestamp_bits : 0;
    if (dev->api_version > caps->props.apiVersion)
        dev->api_version = caps->props.apiVersion;
    dev->vk.vkGetPhysicalDeviceMemoryProperties(dev->physical, &dev->mem_props);
    dmlvk_status st = dmlvk_vk_load_device(&dev->vk, dev->device);
    if (st != DMLVK_OK)
        return st;
    dev->vk.vkGetDeviceQueue(dev->device, dev->queue_family, 0, &dev->queue);
    if ((st = dmlvk_submit_init(dev)) != DMLVK_OK)
        return st;
    VkPushConstantRange range = {
        .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        .size = DMLVK_PUSH_CONSTANT_BYTES,
    };
    VkPipelineLayoutCreateInfo lci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &range,
    };
    VkResult r = dev->vk.vkCreatePipelineLayout(dev->device, &lci, NULL, &dev->layout);
    if (r != VK_SUCCESS)
        return dmlvk_vk_error(r, "vkCreatePipelineLayout");
    return dmlvk_pipeline_cache_create(dev, params->cache_dir, params->disable_disk_cache, &dev->pipelines);
}

static dmlvk_status alloc_device(const dmlvk_device_params *params, PFN_vkGetInstanceProcAddr gipa, dmlvk_device **out)
{
    if (!dmlvk_reserved_zero(params->reserved, DMLVK_ARRAY_SIZE(params->reserved)))
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                           "dmlvk_device_params.reserved is not zero (fields of a newer dmlvk?)");
    dmlvk_device *dev = calloc(1, sizeof(*dev));
    if (!dev)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "out of host memory creating a device");
#ifdef DMLVK_TEST_HOOKS
    atomic_init(&dev->fault_countdown, -1);
#endif
    pthread_mutex_init(&dev->submit_lock, NULL);
    dev->log = params->log;
    dev->log_user = params->log_user;
    dev->log_level = params->log_level;
    dmlvk_status st = dmlvk_vk_load_global(&dev->vk, gipa);
    if (st != DMLVK_OK) {
        free(dev);
        return st;
    }
    *out = dev;
    return DMLVK_OK;
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
    VkResult r = dev->vk.vkCreateDevice(dev->physical, &dci, NULL, &dev->device);
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
    dmlvk_device *dev;
    dmlvk_status st = alloc_device(&params, NULL, &dev);
    if (st != DMLVK_OK)
        return st;
    bool debug_utils;
    if ((st = create_instance(&dev->vk, params.validation, &dev->instance, &debug_utils, &dev->api_version)) != DMLVK_OK)
        goto fail;
    dev->own_instance = true;
    if (debug_utils) {
        VkDebugUtilsMessengerCreateInfoEXT mci = {
            .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
            .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
            .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
            .pfnUserCallback = dmlvk_validation_callback,
            .pUserData = dev,
        };
        VkResult r = dev->vk.vkCreateDebugUtilsMessengerEXT
                         ? dev->vk.vkCreateDebugUtilsMessengerEXT(dev->instance, &mci, NULL, &dev->messenger)
                         : VK_ERROR_EXTENSION_NOT_PRESENT;
        if (r != VK_SUCCESS) {
            st = dmlvk_vk_error(r, "vkCreateDebugUtilsMessengerEXT");
            goto fail;
        }
    }
    VkPhysicalDevice *pds;
    uint32_t n;
    if ((st = list_physical(&dev->vk, dev->instance, &pds, &n)) != DMLVK_OK)
        goto fail;
    uint32_t index = 0;
    st = pick_physical(&dev->vk, pds, n, &params, &index);
    if (st == DMLVK_OK)
        dev->physical = pds[index];
    free(pds);
    if (st != DMLVK_OK)
        goto fail;
    dev->device_index = index;

    struct physical_caps caps;
    query_caps(&dev->vk, dev->physical, &caps);
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
    if (!dmlvk_reserved_zero(import->reserved, DMLVK_ARRAY_SIZE(import->reserved)))
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                           "dmlvk_device_import: import->reserved is not zero (fields of a newer dmlvk?)");
    dmlvk_device *dev;
    dmlvk_status st = alloc_device(&params, import->get_instance_proc_addr, &dev);
    if (st != DMLVK_OK)
        return st;
    if ((st = dmlvk_vk_load_instance(&dev->vk, import->instance)) != DMLVK_OK)
        goto fail;
    dev->instance = import->instance;
    dev->api_version = import->api_version;
    dev->physical = import->physical_device;
    dev->device = import->device;
    dev->queue_family = import->queue_family_index;
    dev->lock_queue = import->lock_queue;
    dev->unlock_queue = import->unlock_queue;
    dev->queue_user = import->queue_user;
    struct physical_caps caps;
    query_caps(&dev->vk, dev->physical, &caps);
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
        if (dev->vk.vkDeviceWaitIdle)
            dev->vk.vkDeviceWaitIdle(dev->device);
        st = dmlvk_pipeline_cache_destroy(dev->pipelines);
        if (dev->layout)
            dev->vk.vkDestroyPipelineLayout(dev->device, dev->layout, NULL);
        dmlvk_submit_destroy(dev);
        if (dev->own_device)
            dev->vk.vkDestroyDevice(dev->device, NULL);
    }
    if (dev->messenger)
        dev->vk.vkDestroyDebugUtilsMessengerEXT(dev->instance, dev->messenger, NULL);
    if (dev->own_instance && dev->instance)
        dev->vk.vkDestroyInstance(dev->instance, NULL);
    pthread_mutex_destroy(&dev->submit_lock);
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
    dmlvk_pipeline_cache_stats(dev->pipelines, stats);
    stats->validation_messages = atomic_load(&dev->stat_validation);
    return DMLVK_OK;
}

