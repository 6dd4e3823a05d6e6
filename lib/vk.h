/*
 * Vulkan entry points, per instance and device: every dmlvk device holds its own table, loaded
 * through its own vkGetInstanceProcAddr (the system loader's or the host's), so devices never
 * share or overwrite each other's functions. volk only finds the system loader, once.
 */
#ifndef DMLVK_VK_H
#define DMLVK_VK_H

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan_core.h>

#include "dmlvk/common.h"

/* Needed before any instance exists. */
#define DMLVK_VK_GLOBAL(X) X(vkCreateInstance) X(vkEnumerateInstanceLayerProperties)

#define DMLVK_VK_INSTANCE(X)                                                                                           \
    X(vkDestroyInstance) X(vkEnumeratePhysicalDevices) X(vkGetPhysicalDeviceProperties)                                \
    X(vkGetPhysicalDeviceProperties2) X(vkGetPhysicalDeviceFeatures2) X(vkGetPhysicalDeviceMemoryProperties)           \
    X(vkGetPhysicalDeviceQueueFamilyProperties) X(vkEnumerateDeviceExtensionProperties) X(vkCreateDevice)              \
    X(vkGetDeviceProcAddr)

/* VK_EXT_debug_utils: NULL unless the instance enabled it. */
#define DMLVK_VK_INSTANCE_OPTIONAL(X) X(vkCreateDebugUtilsMessengerEXT) X(vkDestroyDebugUtilsMessengerEXT)

#define DMLVK_VK_DEVICE(X)                                                                                             \
    X(vkDestroyDevice) X(vkGetDeviceQueue) X(vkDeviceWaitIdle) X(vkQueueSubmit) X(vkQueueWaitIdle)                                        \
    X(vkAllocateMemory) X(vkFreeMemory) X(vkMapMemory) X(vkCreateBuffer) X(vkDestroyBuffer) X(vkBindBufferMemory)      \
    X(vkGetBufferMemoryRequirements2) X(vkGetBufferDeviceAddress)                                                      \
    X(vkCreateCommandPool) X(vkDestroyCommandPool) X(vkAllocateCommandBuffers) X(vkResetCommandBuffer)                 \
    X(vkBeginCommandBuffer) X(vkEndCommandBuffer) X(vkCreateFence) X(vkDestroyFence) X(vkResetFences)                  \
    X(vkWaitForFences) X(vkCreateQueryPool) X(vkDestroyQueryPool) X(vkGetQueryPoolResults)                             \
    X(vkCreateShaderModule) X(vkDestroyShaderModule) X(vkCreatePipelineLayout) X(vkDestroyPipelineLayout)              \
    X(vkCreatePipelineCache) X(vkDestroyPipelineCache) X(vkGetPipelineCacheData) X(vkCreateComputePipelines)           \
    X(vkDestroyPipeline) X(vkCmdBindPipeline) X(vkCmdPushConstants) X(vkCmdDispatch) X(vkCmdPipelineBarrier)           \
    X(vkCmdFillBuffer) X(vkCmdCopyBuffer) X(vkCmdResetQueryPool) X(vkCmdWriteTimestamp)

#define DMLVK_VK_MEMBER_(name) PFN_##name name;

struct dmlvk_vk {
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
    DMLVK_VK_GLOBAL(DMLVK_VK_MEMBER_)
    DMLVK_VK_INSTANCE(DMLVK_VK_MEMBER_)
    DMLVK_VK_INSTANCE_OPTIONAL(DMLVK_VK_MEMBER_)
    DMLVK_VK_DEVICE(DMLVK_VK_MEMBER_)
};

/* The global entry points through gipa, or the system loader's where gipa is NULL. */
dmlvk_status dmlvk_vk_load_global(struct dmlvk_vk *vk, PFN_vkGetInstanceProcAddr gipa);
/* The instance's entry points; fails naming the first one the loader does not have. */
dmlvk_status dmlvk_vk_load_instance(struct dmlvk_vk *vk, VkInstance instance);
dmlvk_status dmlvk_vk_load_device(struct dmlvk_vk *vk, VkDevice device);
/* The instance version the loader supports (1.0 where it cannot say). */
uint32_t dmlvk_vk_instance_version(const struct dmlvk_vk *vk);

#endif
