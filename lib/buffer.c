#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Staging copies move at most this much per submission. */
#define STAGING_CHUNK (UINT64_C(64) << 20)

static int find_memory_type(const dmlvk_device *dev, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < dev->mem_props.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (dev->mem_props.memoryTypes[i].propertyFlags & want) == want)
            return (int)i;
    return -1;
}

static dmlvk_status create(dmlvk_device *dev, uint64_t size, VkBufferUsageFlags usage, bool staging,
                           bool prefer_host_visible, dmlvk_buffer **out)
{
    *out = NULL;
    if (size == 0)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "buffer size: must be at least 1 byte");
    dmlvk_buffer *buf = dmlvk_calloc(dev, 1, sizeof(*buf));
    if (!buf)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "out of host memory creating a buffer");
    buf->device = dev;
    buf->size = size;
    buf->usage = usage;
    VkBufferCreateInfo bci = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    dmlvk_status st;
    VkResult r = dmlvk_fault(dev) ? VK_ERROR_OUT_OF_DEVICE_MEMORY : dev->vk.vkCreateBuffer(dev->device, &bci, NULL, &buf->buffer);
    if (r != VK_SUCCESS) {
        st = dmlvk_vk_error(r, "vkCreateBuffer");
        goto fail;
    }
    VkMemoryDedicatedRequirements dedicated = { .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS };
    VkMemoryRequirements2 req2 = { .sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2, .pNext = &dedicated };
    VkBufferMemoryRequirementsInfo2 rqi = { .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2,
                                            .buffer = buf->buffer };
    dev->vk.vkGetBufferMemoryRequirements2(dev->device, &rqi, &req2);
    const VkMemoryRequirements req = req2.memoryRequirements;
    const VkMemoryPropertyFlags mappable = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    int type = -1;
    if (staging) {
        type = find_memory_type(dev, req.memoryTypeBits, mappable | VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
        if (type < 0)
            type = find_memory_type(dev, req.memoryTypeBits, mappable);
    } else {
        if (prefer_host_visible)
            type = find_memory_type(dev, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | mappable);
        if (type < 0)
            type = find_memory_type(dev, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        if (type < 0)
            type = find_memory_type(dev, req.memoryTypeBits, 0);
    }
    if (type < 0) {
        st = dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "no memory type fits a %s buffer", staging ? "staging" : "device");
        goto fail;
    }
    /* Each buffer has its own allocation anyway: say so where the driver prefers or requires it. */
    VkMemoryDedicatedAllocateInfo dedicate = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO,
        .buffer = buf->buffer,
    };
    VkMemoryAllocateFlagsInfo flags = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .pNext = (dedicated.prefersDedicatedAllocation || dedicated.requiresDedicatedAllocation) ? &dedicate : NULL,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    VkMemoryAllocateInfo mai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = staging ? NULL : &flags,
        .allocationSize = req.size,
        .memoryTypeIndex = (uint32_t)type,
    };
    r = dmlvk_fault(dev) ? VK_ERROR_OUT_OF_DEVICE_MEMORY : dev->vk.vkAllocateMemory(dev->device, &mai, NULL, &buf->memory);
    if (r != VK_SUCCESS) {
        st = dmlvk_vk_error(r, "vkAllocateMemory");
        goto fail;
    }
    if ((r = dev->vk.vkBindBufferMemory(dev->device, buf->buffer, buf->memory, 0)) != VK_SUCCESS) {
        st = dmlvk_vk_error(r, "vkBindBufferMemory");
        goto fail;
    }
    if ((dev->mem_props.memoryTypes[type].propertyFlags & mappable) == mappable) {
        r = dmlvk_fault(dev) ? VK_ERROR_MEMORY_MAP_FAILED
                             : dev->vk.vkMapMemory(dev->device, buf->memory, 0, VK_WHOLE_SIZE, 0, &buf->mapped);
        if (r != VK_SUCCESS) {
            st = dmlvk_vk_error(r, "vkMapMemory");
            goto fail;
        }
    }
    if (!staging) {
        VkBufferDeviceAddressInfo ai = { .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = buf->buffer };
        buf->address = dev->vk.vkGetBufferDeviceAddress(dev->device, &ai);
    }
    *out = buf;
    return DMLVK_OK;
fail:
    dmlvk_buffer_destroy(buf);
    return st;
}

dmlvk_status dmlvk_buffer_create_internal(dmlvk_device *dev, uint64_t size, bool prefer_host_visible,
                                          dmlvk_buffer **out)
{
    return create(dev, size,
                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                  false, prefer_host_visible, out);
}

static void count_alive(dmlvk_buffer *buf)
{
    buf->alive = true;
    atomic_fetch_add(&buf->device->live_buffers, 1);
}

dmlvk_status dmlvk_buffer_create(dmlvk_device *dev, uint64_t size, dmlvk_buffer **out)
{
    if (!dev)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_buffer_create: device is NULL");
    if (!out)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_buffer_create: buffer is NULL");
    dmlvk_status st = dmlvk_buffer_create_internal(dev, size, false, out);
    if (st == DMLVK_OK)
        count_alive(*out);
    return st;
}

dmlvk_status dmlvk_buffer_wrap(dmlvk_device *dev, VkBuffer vk_buffer, uint64_t size, VkBufferUsageFlags usage,
                               dmlvk_buffer **out)
{
    static const char fn[] = "dmlvk_buffer_wrap";
    if (!out)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: buffer is NULL", fn);
    *out = NULL;
    if (!dev)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: device is NULL", fn);
    if (vk_buffer == VK_NULL_HANDLE)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: vk_buffer is VK_NULL_HANDLE", fn);
    if (size == 0 || size == VK_WHOLE_SIZE)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: size must be the VkBufferCreateInfo.size the buffer was made with",
                           fn);
    const VkBufferUsageFlags needed = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    if ((usage & needed) != needed)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                           "%s: usage 0x%x lacks VK_BUFFER_USAGE_STORAGE_BUFFER_BIT or VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT", fn,
                           (unsigned)usage);
    /* Vulkan has no query for a buffer's size: its memory requirements bound it from above. */
    VkMemoryRequirements2 req2 = { .sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2 };
    VkBufferMemoryRequirementsInfo2 rqi = { .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2,
                                            .buffer = vk_buffer };
    dev->vk.vkGetBufferMemoryRequirements2(dev->device, &rqi, &req2);
    const VkMemoryRequirements req = req2.memoryRequirements;
    if (size > req.size)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                           "%s: size %llu is more than the buffer holds (its memory requirements are %llu bytes)", fn,
                           (unsigned long long)size, (unsigned long long)req.size);
    VkBufferDeviceAddressInfo ai = { .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = vk_buffer };
    VkDeviceAddress address = dev->vk.vkGetBufferDeviceAddress(dev->device, &ai);
    if (!address)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                           "%s: the buffer has no device address (bind its memory, allocated with "
                           "VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT, before wrapping it)", fn);
    dmlvk_buffer *buf = dmlvk_calloc(dev, 1, sizeof(*buf));
    if (!buf)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    *buf = (dmlvk_buffer){ .device = dev, .buffer = vk_buffer, .size = size, .address = address, .usage = usage,
                           .wrapped = true };
    count_alive(buf);
    *out = buf;
    return DMLVK_OK;
}

dmlvk_status dmlvk_buffer_destroy(dmlvk_buffer *buf)
{
    if (!buf)
        return DMLVK_OK;
    dmlvk_device *dev = buf->device;
    if (buf->buffer && !buf->wrapped)
        dev->vk.vkDestroyBuffer(dev->device, buf->buffer, NULL);
    if (buf->memory)
        dev->vk.vkFreeMemory(dev->device, buf->memory, NULL);
    if (buf->alive)
        atomic_fetch_sub(&dev->live_buffers, 1);
    free(buf);
    return DMLVK_OK;
}

dmlvk_status dmlvk_buffer_get_vk(const dmlvk_buffer *buf, VkBuffer *vk_buffer, uint64_t *size)
{
    if (!buf)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_buffer_get_vk: buffer is NULL");
    if (vk_buffer)
        *vk_buffer = buf->buffer;
    if (size)
        *size = buf->size;
    return DMLVK_OK;
}

struct copy {
    const dmlvk_device *dev;
    VkBuffer src, dst;
    VkBufferCopy region;
};

static dmlvk_status record_copy(VkCommandBuffer cmd, void *user)
{
    const struct copy *c = user;
    /* Only host<->device staging copies: vkCmdCopyBuffer is slow for large device-side copies. */
    c->dev->vk.vkCmdCopyBuffer(cmd, c->src, c->dst, 1, &c->region);
    return DMLVK_OK;
}

static dmlvk_status check_range(const dmlvk_buffer *buf, uint64_t offset, const void *data, uint64_t size,
                                const char *fn, VkBufferUsageFlags transfer)
{
    if (!buf)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: buffer is NULL", fn);
    if (!data && size)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: data is NULL", fn);
    if (!buf->mapped && !(buf->usage & transfer))
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: the wrapped buffer's usage lacks %s", fn,
                           transfer == VK_BUFFER_USAGE_TRANSFER_DST_BIT ? "VK_BUFFER_USAGE_TRANSFER_DST_BIT"
                                                                        : "VK_BUFFER_USAGE_TRANSFER_SRC_BIT");
    if (offset > buf->size || size > buf->size - offset)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: range [%llu, +%llu) is outside the buffer of %llu bytes",
                           fn, (unsigned long long)offset, (unsigned long long)size, (unsigned long long)buf->size);
    return DMLVK_OK;
}

static dmlvk_status staged(dmlvk_buffer *buf, uint64_t offset, void *host, uint64_t size, bool write)
{
    dmlvk_device *dev = buf->device;
    dmlvk_buffer *staging;
    uint64_t chunk = size < STAGING_CHUNK ? size : STAGING_CHUNK;
    dmlvk_status st = create(dev, chunk, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, true,
                             false, &staging);
    if (st != DMLVK_OK)
        return st;
    for (uint64_t done = 0; done < size && st == DMLVK_OK; done += chunk) {
        uint64_t n = size - done < chunk ? size - done : chunk;
        struct copy c = { .dev = dev, .region = { .size = n } };
        if (write) {
            memcpy(staging->mapped, (const char *)host + done, n);
            c.src = staging->buffer;
            c.dst = buf->buffer;
            c.region.dstOffset = offset + done;
        } else {
            c.src = buf->buffer;
            c.dst = staging->buffer;
            c.region.srcOffset = offset + done;
        }
        st = dmlvk_device_submit(dev, record_copy, &c);
        if (st == DMLVK_OK && !write)
            memcpy((char *)host + done, staging->mapped, n);
    }
    dmlvk_buffer_destroy(staging);
    return st;
}

dmlvk_status dmlvk_buffer_write(dmlvk_buffer *buf, uint64_t offset, const void *data, uint64_t size)
{
    dmlvk_status st = check_range(buf, offset, data, size, "dmlvk_buffer_write", VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    if (st != DMLVK_OK || size == 0)
        return st;
    if (buf->mapped) {
        memcpy((char *)buf->mapped + offset, data, size);
        return DMLVK_OK;
    }
    return staged(buf, offset, (void *)(uintptr_t)data, size, true);
}

dmlvk_status dmlvk_buffer_read(dmlvk_buffer *buf, uint64_t offset, void *data, uint64_t size)
{
    dmlvk_status st = check_range(buf, offset, data, size, "dmlvk_buffer_read", VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    if (st != DMLVK_OK || size == 0)
        return st;
    if (buf->mapped) {
        memcpy(data, (const char *)buf->mapped + offset, size);
        return DMLVK_OK;
    }
    return staged(buf, offset, data, size, false);
}
