/*
 * VK_LAYER_DMLVK_minimum_limits: a Vulkan layer for tests that reports the compute limits of a
 * device at Vulkan's required minimums (the Android Baseline 2021 profile's too) in place of the
 * driver's, so that lavapipe can stand in for a small mobile GPU: 16 KiB of shared memory,
 * workgroups of at most 128 invocations (128 x 128 x 64). Everything else passes through.
 *
 * Enabled below the validation layer (through the meta layer
 * VK_LAYER_DMLVK_validation_at_minimum_limits, see meson.build), the validation layer checks every
 * pipeline against the lowered limits. The driver can run whatever fits them, so a pipeline that
 * passes here runs there.
 */
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include "minimum_limits.h"

#define LAYER_EXPORT __attribute__((visibility("default")))

static const uint32_t min_size[3] = MINIMUM_WORKGROUP_SIZE;

/* One entry per instance or device, keyed by its dispatch table pointer (shared by an instance and
 * its physical devices). */
struct chain {
    void *key;
    PFN_vkGetInstanceProcAddr gipa;
    PFN_vkGetDeviceProcAddr gdpa;
    PFN_vkDestroyInstance destroy_instance;
    PFN_vkDestroyDevice destroy_device;
    PFN_vkGetPhysicalDeviceProperties properties;
    PFN_vkGetPhysicalDeviceProperties2 properties2;
    PFN_vkGetPhysicalDeviceProperties2 properties2_khr;
    struct chain *next;
};

static pthread_mutex_t chains_lock = PTHREAD_MUTEX_INITIALIZER;
static struct chain *chains;

static void *key_of(const void *handle)
{
    return *(void *const *)handle;
}

static struct chain *find(const void *handle)
{
    void *key = key_of(handle);
    pthread_mutex_lock(&chains_lock);
    struct chain *c = chains;
    while (c && c->key != key)
        c = c->next;
    pthread_mutex_unlock(&chains_lock);
    return c;
}

static void add(struct chain *c)
{
    pthread_mutex_lock(&chains_lock);
    c->next = chains;
    chains = c;
    pthread_mutex_unlock(&chains_lock);
}

static void drop(const void *handle)
{
    void *key = key_of(handle);
    pthread_mutex_lock(&chains_lock);
    for (struct chain **p = &chains; *p; p = &(*p)->next) {
        if ((*p)->key == key) {
            struct chain *c = *p;
            *p = c->next;
            free(c);
            break;
        }
    }
    pthread_mutex_unlock(&chains_lock);
}

static void lower(VkPhysicalDeviceLimits *l)
{
    if (l->maxComputeSharedMemorySize > MINIMUM_SHARED_BYTES)
        l->maxComputeSharedMemorySize = MINIMUM_SHARED_BYTES;
    if (l->maxComputeWorkGroupInvocations > MINIMUM_INVOCATIONS)
        l->maxComputeWorkGroupInvocations = MINIMUM_INVOCATIONS;
    for (int i = 0; i < 3; i++)
        if (l->maxComputeWorkGroupSize[i] > min_size[i])
            l->maxComputeWorkGroupSize[i] = min_size[i];
}

static VKAPI_ATTR void VKAPI_CALL get_properties(VkPhysicalDevice pd, VkPhysicalDeviceProperties *props)
{
    find(pd)->properties(pd, props);
    lower(&props->limits);
}

static VKAPI_ATTR void VKAPI_CALL get_properties2(VkPhysicalDevice pd, VkPhysicalDeviceProperties2 *props)
{
    find(pd)->properties2(pd, props);
    lower(&props->properties.limits);
}

static VKAPI_ATTR void VKAPI_CALL get_properties2_khr(VkPhysicalDevice pd, VkPhysicalDeviceProperties2 *props)
{
    find(pd)->properties2_khr(pd, props);
    lower(&props->properties.limits);
}

static VkLayerInstanceCreateInfo *instance_link(const VkInstanceCreateInfo *info)
{
    VkLayerInstanceCreateInfo *l = (VkLayerInstanceCreateInfo *)info->pNext;
    while (l && !(l->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO && l->function == VK_LAYER_LINK_INFO))
        l = (VkLayerInstanceCreateInfo *)l->pNext;
    return l;
}

static VkLayerDeviceCreateInfo *device_link(const VkDeviceCreateInfo *info)
{
    VkLayerDeviceCreateInfo *l = (VkLayerDeviceCreateInfo *)info->pNext;
    while (l && !(l->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO && l->function == VK_LAYER_LINK_INFO))
        l = (VkLayerDeviceCreateInfo *)l->pNext;
    return l;
}

static VKAPI_ATTR VkResult VKAPI_CALL create_instance(const VkInstanceCreateInfo *info, const VkAllocationCallbacks *alloc,
                                                      VkInstance *instance)
{
    VkLayerInstanceCreateInfo *link = instance_link(info);
    if (!link)
        return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    PFN_vkCreateInstance next_create = (PFN_vkCreateInstance)gipa(VK_NULL_HANDLE, "vkCreateInstance");
    struct chain *c = calloc(1, sizeof(*c));
    if (!next_create || !c) {
        free(c);
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    VkResult r = next_create(info, alloc, instance);
    if (r != VK_SUCCESS) {
        free(c);
        return r;
    }
    c->key = key_of(*instance);
    c->gipa = gipa;
    c->destroy_instance = (PFN_vkDestroyInstance)gipa(*instance, "vkDestroyInstance");
    c->properties = (PFN_vkGetPhysicalDeviceProperties)gipa(*instance, "vkGetPhysicalDeviceProperties");
    c->properties2 = (PFN_vkGetPhysicalDeviceProperties2)gipa(*instance, "vkGetPhysicalDeviceProperties2");
    c->properties2_khr = (PFN_vkGetPhysicalDeviceProperties2)gipa(*instance, "vkGetPhysicalDeviceProperties2KHR");
    add(c);
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL destroy_instance(VkInstance instance, const VkAllocationCallbacks *alloc)
{
    if (!instance)
        return;
    PFN_vkDestroyInstance next = find(instance)->destroy_instance;
    drop(instance);
    next(instance, alloc);
}

static VKAPI_ATTR VkResult VKAPI_CALL create_device(VkPhysicalDevice pd, const VkDeviceCreateInfo *info,
                                                    const VkAllocationCallbacks *alloc, VkDevice *device)
{
    VkLayerDeviceCreateInfo *link = device_link(info);
    if (!link)
        return VK_ERROR_INITIALIZATION_FAILED;
    PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;
    PFN_vkCreateDevice next_create = (PFN_vkCreateDevice)gipa(VK_NULL_HANDLE, "vkCreateDevice");
    struct chain *c = calloc(1, sizeof(*c));
    if (!next_create || !c) {
        free(c);
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    VkResult r = next_create(pd, info, alloc, device);
    if (r != VK_SUCCESS) {
        free(c);
        return r;
    }
    c->key = key_of(*device);
    c->gdpa = gdpa;
    c->destroy_device = (PFN_vkDestroyDevice)gdpa(*device, "vkDestroyDevice");
    add(c);
    return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL destroy_device(VkDevice device, const VkAllocationCallbacks *alloc)
{
    if (!device)
        return;
    PFN_vkDestroyDevice next = find(device)->destroy_device;
    drop(device);
    next(device, alloc);
}

/* The layer's own entry points are static: its exported vkGetInstanceProcAddr, referenced from here,
 * would bind to the loader's where the application links libvulkan (symbols interpose), and the
 * loader, handed its own trampoline as this layer's, would then call itself from vkCreateInstance. */
static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL get_device_proc_addr(VkDevice device, const char *name);

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL get_instance_proc_addr(VkInstance instance, const char *name)
{
    static const struct {
        const char *name;
        PFN_vkVoidFunction fn;
    } own[] = {
        { "vkGetInstanceProcAddr", (PFN_vkVoidFunction)get_instance_proc_addr },
        { "vkGetDeviceProcAddr", (PFN_vkVoidFunction)get_device_proc_addr },
        { "vkCreateInstance", (PFN_vkVoidFunction)create_instance },
        { "vkDestroyInstance", (PFN_vkVoidFunction)destroy_instance },
        { "vkCreateDevice", (PFN_vkVoidFunction)create_device },
        { "vkDestroyDevice", (PFN_vkVoidFunction)destroy_device },
        { "vkGetPhysicalDeviceProperties", (PFN_vkVoidFunction)get_properties },
        { "vkGetPhysicalDeviceProperties2", (PFN_vkVoidFunction)get_properties2 },
        { "vkGetPhysicalDeviceProperties2KHR", (PFN_vkVoidFunction)get_properties2_khr },
    };
    for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++)
        if (!strcmp(name, own[i].name))
            return own[i].fn;
    if (!instance)
        return NULL;
    struct chain *c = find(instance);
    return c ? c->gipa(instance, name) : NULL;
}

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL get_device_proc_addr(VkDevice device, const char *name)
{
    if (!strcmp(name, "vkGetDeviceProcAddr"))
        return (PFN_vkVoidFunction)get_device_proc_addr;
    if (!strcmp(name, "vkDestroyDevice"))
        return (PFN_vkVoidFunction)destroy_device;
    struct chain *c = find(device);
    return c ? c->gdpa(device, name) : NULL;
}

LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance, const char *name)
{
    return get_instance_proc_addr(instance, name);
}

LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device, const char *name)
{
    return get_device_proc_addr(device, name);
}

LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *v)
{
    if (v->loaderLayerInterfaceVersion > 2)
        v->loaderLayerInterfaceVersion = 2;
    v->pfnGetInstanceProcAddr = get_instance_proc_addr;
    v->pfnGetDeviceProcAddr = get_device_proc_addr;
    v->pfnGetPhysicalDeviceProcAddr = NULL;
    return VK_SUCCESS;
}
