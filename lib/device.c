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
    bool api_ok, bda, storage16, rte16, atomic_add, int64_atomics, float64, subgroup_shuffle, executable_info;
    uint32_t subgroup_size;
    uint32_t resident_invocations;
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
    bool executable_ext = has_extension(vk, pd, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
        .pNext = atomic_ext ? &atomic : NULL,
    };
    VkPhysicalDeviceVulkan12Features v12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = executable_ext ? (void *)&executable : atomic_ext ? (void *)&atomic : NULL,
    };
    VkPhysicalDeviceVulkan11Features v11 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &v12 };
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &v11 };
    vk->vkGetPhysicalDeviceFeatures2(pd, &f2);
    caps->bda = v12.bufferDeviceAddress;
    caps->storage16 = v11.storageBuffer16BitAccess;
    caps->atomic_add = atomic_ext && atomic.shaderBufferFloat32AtomicAdd;
    caps->int64_atomics = f2.features.shaderInt64 && v12.shaderBufferInt64Atomics;
    caps->float64 = f2.features.shaderFloat64;
    caps->executable_info = executable_ext && executable.pipelineExecutableInfo;
    bool sm_ext = has_extension(vk, pd, VK_NV_SHADER_SM_BUILTINS_EXTENSION_NAME);
    VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV,
    };
    VkPhysicalDeviceSubgroupProperties subgroup = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
        .pNext = sm_ext ? &sm : NULL,
    };
    VkPhysicalDeviceVulkan12Properties p12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES,
        .pNext = &subgroup,
    };
    VkPhysicalDeviceProperties2 p2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &p12 };
    vk->vkGetPhysicalDeviceProperties2(pd, &p2);
    caps->rte16 = p12.shaderRoundingModeRTEFloat16;
    const VkSubgroupFeatureFlags shuffle = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
                                           VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_BIT;
    caps->subgroup_shuffle = (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                             (subgroup.supportedOperations & shuffle) == shuffle;
    caps->subgroup_size = subgroup.subgroupSize;
    uint64_t resident = (uint64_t)sm.shaderSMCount * sm.shaderWarpsPerSM * subgroup.subgroupSize;
    caps->resident_invocations = resident <= UINT32_MAX ? (uint32_t)resident : 0;

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

static void fill_requirements(const struct physical_caps *caps, dmlvk_device_requirements *req)
{
    memset(req, 0, sizeof(*req));
    req->api_version = REQUIRED_API;
    req->atomic_float = (VkPhysicalDeviceShaderAtomicFloatFeaturesEXT){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
        .shaderBufferFloat32AtomicAdd = caps->atomic_add,
    };
    req->vulkan12 = (VkPhysicalDeviceVulkan12Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = caps->atomic_add ? &req->atomic_float : NULL,
        .bufferDeviceAddress = VK_TRUE,
        .shaderBufferInt64Atomics = caps->int64_atomics,
    };
    req->vulkan11 = (VkPhysicalDeviceVulkan11Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
        .pNext = &req->vulkan12,
        .storageBuffer16BitAccess = caps->storage16,
    };
    req->features = (VkPhysicalDeviceFeatures2){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &req->vulkan11,
        .features = { .shaderInt64 = caps->int64_atomics, .shaderFloat64 = caps->float64 },
    };
    if (caps->atomic_add)
        req->extensions[req->extension_count++] = VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME;
}

static bool missing_device(const struct physical_caps *caps)
{
    return !caps->api_ok || !caps->bda || caps->compute_family < 0;
}

dmlvk_status dmlvk_device_get_requirements(PFN_vkGetInstanceProcAddr gipa, VkInstance instance,
                                           VkPhysicalDevice physical_device, dmlvk_device_requirements *requirements)
{
    static const char fn[] = "dmlvk_device_get_requirements";
    if (!instance)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: instance is VK_NULL_HANDLE", fn);
    if (!physical_device)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: physical_device is VK_NULL_HANDLE", fn);
    if (!requirements)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: requirements is NULL", fn);
    struct dmlvk_vk vk = { 0 };
    dmlvk_status st;
    if ((st = dmlvk_vk_load_global(&vk, gipa)) != DMLVK_OK || (st = dmlvk_vk_load_instance(&vk, instance)) != DMLVK_OK)
        return st;
    struct physical_caps caps;
    query_caps(&vk, physical_device, &caps);
    if (missing_device(&caps))
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED,
                           "%s: %s lacks what dmlvk needs: Vulkan 1.2, bufferDeviceAddress and a compute queue", fn,
                           caps.props.deviceName);
    fill_requirements(&caps, requirements);
    return DMLVK_OK;
}

/* What a VkDeviceCreateInfo enabled of the features dmlvk uses. */
struct enabled_features {
    bool bda, storage16, int64, int64_atomics, float64, float32_atomic_add, atomic_float_ext;
    bool executable_info, executable_ext;
};

static void read_enabled(const VkDeviceCreateInfo *dci, struct enabled_features *e)
{
    memset(e, 0, sizeof(*e));
    if (dci->pEnabledFeatures) {
        e->int64 = dci->pEnabledFeatures->shaderInt64;
        e->float64 = dci->pEnabledFeatures->shaderFloat64;
    }
    for (const VkBaseInStructure *p = dci->pNext; p; p = p->pNext) {
        switch (p->sType) {
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2:
            e->int64 |= ((const VkPhysicalDeviceFeatures2 *)p)->features.shaderInt64;
            e->float64 |= ((const VkPhysicalDeviceFeatures2 *)p)->features.shaderFloat64;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES:
            e->storage16 |= ((const VkPhysicalDeviceVulkan11Features *)p)->storageBuffer16BitAccess;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES:
            e->storage16 |= ((const VkPhysicalDevice16BitStorageFeatures *)p)->storageBuffer16BitAccess;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES: {
            const VkPhysicalDeviceVulkan12Features *f = (const void *)p;
            e->bda |= f->bufferDeviceAddress;
            e->int64_atomics |= f->shaderBufferInt64Atomics;
            break;
        }
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES:
            e->bda |= ((const VkPhysicalDeviceBufferDeviceAddressFeatures *)p)->bufferDeviceAddress;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES:
            e->int64_atomics |= ((const VkPhysicalDeviceShaderAtomicInt64Features *)p)->shaderBufferInt64Atomics;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT:
            e->float32_atomic_add |= ((const VkPhysicalDeviceShaderAtomicFloatFeaturesEXT *)p)->shaderBufferFloat32AtomicAdd;
            break;
        case VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR:
            e->executable_info |= ((const VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR *)p)->pipelineExecutableInfo;
            break;
        default:
            break;
        }
    }
    for (uint32_t i = 0; i < dci->enabledExtensionCount; i++) {
        const char *name = dci->ppEnabledExtensionNames ? dci->ppEnabledExtensionNames[i] : NULL;
        e->atomic_float_ext |= name && !strcmp(name, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
        e->executable_ext |= name && !strcmp(name, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    }
}

/* The device's optional features: what the device was created with, where the hardware has it. */
static void take_enabled(dmlvk_device *dev, const struct enabled_features *e, const struct physical_caps *caps)
{
    dev->float16 = e->storage16 && caps->storage16;
    dev->float16_supported = caps->storage16;
    dev->float16_rte = caps->rte16;
    dev->subgroup_shuffle = caps->subgroup_shuffle;
    dev->subgroup_size = caps->subgroup_size;
    dev->resident_invocations = caps->resident_invocations;
    dev->float32_atomic_add = e->float32_atomic_add && e->atomic_float_ext && caps->atomic_add;
    dev->int64_atomics = e->int64 && e->int64_atomics && caps->int64_atomics;
    dev->float64 = e->float64 && caps->float64;
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
    if (params->pipeline_statistics) {
        dev->pipeline_statistics = (PFN_vkGetPipelineExecutableStatisticsKHR)dev->vk.vkGetDeviceProcAddr(
            dev->device, "vkGetPipelineExecutableStatisticsKHR");
        if (!dev->pipeline_statistics)
            return dmlvk_error(DMLVK_ERROR_UNSUPPORTED,
                               "dmlvk_device_params.pipeline_statistics: vkGetPipelineExecutableStatisticsKHR not found");
    }
    dev->vk.vkGetDeviceQueue(dev->device, dev->queue_family, dev->queue_index, &dev->queue);
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

static dmlvk_status create_logical(dmlvk_device *dev, const struct physical_caps *caps, bool statistics)
{
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = dev->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    /* Created from what a host is told to enable, so that both read it the same way. */
    dmlvk_device_requirements req;
    fill_requirements(caps, &req);
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
        .pNext = req.features.pNext,
        .pipelineExecutableInfo = VK_TRUE,
    };
    if (statistics) {
        if (!caps->executable_info)
            return dmlvk_error(DMLVK_ERROR_UNSUPPORTED,
                               "dmlvk_device_params.pipeline_statistics: %s lacks VK_KHR_pipeline_executable_properties",
                               caps->props.deviceName);
        req.features.pNext = &executable;
        req.extensions[req.extension_count++] = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
    }
    VkDeviceCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &req.features,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qci,
        .enabledExtensionCount = req.extension_count,
        .ppEnabledExtensionNames = req.extensions,
    };
    VkResult r = dev->vk.vkCreateDevice(dev->physical, &dci, NULL, &dev->device);
    if (r != VK_SUCCESS)
        return dmlvk_vk_error(r, "vkCreateDevice");
    dev->own_device = true;
    struct enabled_features e;
    read_enabled(&dci, &e);
    take_enabled(dev, &e, caps);
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
    if (missing_device(&caps)) {
        st = dmlvk_error(DMLVK_ERROR_UNSUPPORTED,
                         "device %u (%s) lacks what dmlvk needs: Vulkan 1.2, bufferDeviceAddress and a compute queue",
                         index, caps.props.deviceName);
        goto fail;
    }
    dev->queue_family = (uint32_t)caps.compute_family;
    if ((st = create_logical(dev, &caps, params.pipeline_statistics)) != DMLVK_OK)
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

/* The queue the host named: a compute family it created, an index it created there. */
static dmlvk_status check_import_queue(const struct dmlvk_vk *vk, const dmlvk_vulkan_import *import)
{
    static const char fn[] = "dmlvk_device_import";
    uint32_t family = import->queue_family_index, nq = 0;
    vk->vkGetPhysicalDeviceQueueFamilyProperties(import->physical_device, &nq, NULL);
    VkQueueFamilyProperties *q = calloc(nq ? nq : 1, sizeof(*q));
    if (!q)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    vk->vkGetPhysicalDeviceQueueFamilyProperties(import->physical_device, &nq, q);
    VkQueueFlags flags = family < nq ? q[family].queueFlags : 0;
    free(q);
    if (family >= nq)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: import->queue_family_index %u: the device has %u queue famil%s",
                           fn, family, nq, nq == 1 ? "y" : "ies");
    if (!(flags & VK_QUEUE_COMPUTE_BIT))
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: import->queue_family_index %u: the family has no VK_QUEUE_COMPUTE_BIT",
                           fn, family);
    const VkDeviceCreateInfo *dci = import->device_create_info;
    for (uint32_t i = 0; i < dci->queueCreateInfoCount; i++) {
        const VkDeviceQueueCreateInfo *qci = &dci->pQueueCreateInfos[i];
        if (qci->queueFamilyIndex != family)
            continue;
        if (qci->flags)
            return dmlvk_error(DMLVK_ERROR_UNSUPPORTED,
                               "%s: import->queue_family_index %u: its queues were created with flags 0x%x (protected queues are not supported)",
                               fn, family, (unsigned)qci->flags);
        if (import->queue_index >= qci->queueCount)
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                               "%s: import->queue_index %u: the device was created with %u queue%s of family %u", fn,
                               import->queue_index, qci->queueCount, qci->queueCount == 1 ? "" : "s", family);
        return DMLVK_OK;
    }
    return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                       "%s: import->queue_family_index %u: device_create_info->pQueueCreateInfos creates no queue of that family",
                       fn, family);
}

dmlvk_status dmlvk_device_import(const dmlvk_vulkan_import *import, const dmlvk_device_params *params_in,
                                 dmlvk_device **out)
{
    static const char fn[] = "dmlvk_device_import";
    dmlvk_device_params params = params_in ? *params_in : DMLVK_DEVICE_PARAMS_DEFAULT;
    if (!out)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: device is NULL", fn);
    *out = NULL;
    if (!import)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: import is NULL", fn);
    if (!import->instance || !import->physical_device || !import->device)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: import->%s is VK_NULL_HANDLE", fn,
                           !import->instance ? "instance" : !import->physical_device ? "physical_device" : "device");
    const VkDeviceCreateInfo *dci = import->device_create_info;
    if (!dci)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                           "%s: import->device_create_info is NULL; dmlvk reads the features and queues the host enabled from it", fn);
    if (dci->sType != VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: import->device_create_info->sType is not VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO", fn);
    if (import->api_version < REQUIRED_API)
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "%s: import->api_version must be Vulkan 1.2 or later", fn);
    if (!dmlvk_reserved_zero(import->reserved, DMLVK_ARRAY_SIZE(import->reserved)))
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: import->reserved is not zero (fields of a newer dmlvk?)", fn);
    /* The host owns the process: its files are written only where it says. */
    if (!params.cache_dir)
        params.disable_disk_cache = 1;
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
    dev->imported = true;
    dev->queue_family = import->queue_family_index;
    dev->queue_index = import->queue_index;
    dev->lock_queue = import->lock_queue;
    dev->unlock_queue = import->unlock_queue;
    dev->queue_user = import->queue_user;
    if ((st = check_import_queue(&dev->vk, import)) != DMLVK_OK)
        goto fail;
    struct physical_caps caps;
    query_caps(&dev->vk, dev->physical, &caps);
    struct enabled_features e;
    read_enabled(dci, &e);
    if (!e.bda || !caps.bda) {
        st = dmlvk_error(DMLVK_ERROR_UNSUPPORTED,
                         "%s: import->device_create_info does not enable bufferDeviceAddress (VkPhysicalDeviceVulkan12Features "
                         "or VkPhysicalDeviceBufferDeviceAddressFeatures; dmlvk_device_get_requirements lists what to enable)",
                         fn);
        goto fail;
    }
    if (params.pipeline_statistics && !(e.executable_info && e.executable_ext && caps.executable_info)) {
        st = dmlvk_error(DMLVK_ERROR_UNSUPPORTED,
                         "%s: dmlvk_device_params.pipeline_statistics: import->device_create_info does not enable "
                         "VK_KHR_pipeline_executable_properties with pipelineExecutableInfo", fn);
        goto fail;
    }
    take_enabled(dev, &e, &caps);
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
    uint64_t ops = atomic_load(&dev->live_operators), bufs = atomic_load(&dev->live_buffers);
    if (ops || bufs)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                           "dmlvk_device_destroy: %llu operator%s and %llu buffer%s of the device are still alive; destroy "
                           "them first (the device is left as it was)",
                           (unsigned long long)ops, ops == 1 ? "" : "s", (unsigned long long)bufs, bufs == 1 ? "" : "s");
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
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_device_get_info: %s is NULL", dev ? "info" : "device");
    struct physical_caps caps = { .props = dev->props, .storage16 = dev->float16, .atomic_add = dev->float32_atomic_add,
                                  .int64_atomics = dev->int64_atomics };
    fill_info(&caps, dev->device_index, info);
    return DMLVK_OK;
}

dmlvk_status dmlvk_device_get_stats(dmlvk_device *dev, dmlvk_device_stats *stats)
{
    if (!dev || !stats)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_device_get_stats: %s is NULL", dev ? "stats" : "device");
    dmlvk_pipeline_cache_stats(dev->pipelines, stats);
    stats->validation_messages = atomic_load(&dev->stat_validation);
    return DMLVK_OK;
}

