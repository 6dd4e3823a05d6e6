/* Finding the Vulkan loader and filling a device's function table (vk.h). */
#include <volk.h>

#include <pthread.h>

#include "internal.h"

/* volk's loader handle and vkGetInstanceProcAddr: written once, then only read. */
static pthread_once_t system_once = PTHREAD_ONCE_INIT;
static PFN_vkGetInstanceProcAddr system_gipa;

static void find_system_loader(void)
{
    if (volkInitialize() == VK_SUCCESS)
        system_gipa = vkGetInstanceProcAddr;
}

dmlvk_status dmlvk_vk_load_global(struct dmlvk_vk *vk, PFN_vkGetInstanceProcAddr gipa)
{
    if (!gipa) {
        pthread_once(&system_once, find_system_loader);
        gipa = system_gipa;
        if (!gipa)
            return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "no Vulkan loader found (libvulkan.so.1)");
    }
    vk->vkGetInstanceProcAddr = gipa;
#define LOAD(name)                                                                                                     \
    if (!(vk->name = (PFN_##name)gipa(VK_NULL_HANDLE, #name)))                                                         \
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "the Vulkan loader has no %s", #name);
    DMLVK_VK_GLOBAL(LOAD)
#undef LOAD
    return DMLVK_OK;
}

uint32_t dmlvk_vk_instance_version(const struct dmlvk_vk *vk)
{
    PFN_vkEnumerateInstanceVersion enumerate =
        (PFN_vkEnumerateInstanceVersion)vk->vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkEnumerateInstanceVersion");
    uint32_t version = VK_API_VERSION_1_0;
    if (enumerate && enumerate(&version) != VK_SUCCESS)
        version = VK_API_VERSION_1_0;
    return version;
}

dmlvk_status dmlvk_vk_load_instance(struct dmlvk_vk *vk, VkInstance instance)
{
#define LOAD(name)                                                                                                     \
    if (!(vk->name = (PFN_##name)vk->vkGetInstanceProcAddr(instance, #name)))                                          \
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "the Vulkan instance has no %s", #name);
    DMLVK_VK_INSTANCE(LOAD)
#undef LOAD
#define LOAD_OPTIONAL(name) vk->name = (PFN_##name)vk->vkGetInstanceProcAddr(instance, #name);
    DMLVK_VK_INSTANCE_OPTIONAL(LOAD_OPTIONAL)
#undef LOAD_OPTIONAL
    return DMLVK_OK;
}

dmlvk_status dmlvk_vk_load_device(struct dmlvk_vk *vk, VkDevice device)
{
#define LOAD(name)                                                                                                     \
    if (!(vk->name = (PFN_##name)vk->vkGetDeviceProcAddr(device, #name)))                                              \
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "the Vulkan device has no %s", #name);
    DMLVK_VK_DEVICE(LOAD)
#undef LOAD
    return DMLVK_OK;
}
