/* Synchronous calls: one command buffer and fence per device, used under its submit lock. */
#include "internal.h"

dmlvk_status dmlvk_submit_init(dmlvk_device *dev)
{
    VkCommandPoolCreateInfo pci = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = dev->queue_family,
    };
    VkResult r = dmlvk_fault(dev) ? VK_ERROR_OUT_OF_DEVICE_MEMORY : dev->vk.vkCreateCommandPool(dev->device, &pci, NULL, &dev->pool);
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
    return DMLVK_OK;
}

void dmlvk_submit_destroy(dmlvk_device *dev)
{
    if (dev->fence)
        dev->vk.vkDestroyFence(dev->device, dev->fence, NULL);
    if (dev->pool)
        dev->vk.vkDestroyCommandPool(dev->device, dev->pool, NULL);
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
