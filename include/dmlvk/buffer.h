/*
 * Device buffers with upload and download.
 *
 * Thread-safety: different buffers may be used from different threads at once; reads and
 * writes of one buffer may run concurrently when their ranges do not overlap. A buffer must not
 * be destroyed while a call or a recorded command still uses it.
 */
#ifndef DMLVK_BUFFER_H
#define DMLVK_BUFFER_H

#include <stdint.h>

#include <vulkan/vulkan_core.h>

#include "common.h"
#include "device.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dmlvk_buffer dmlvk_buffer;

/* A device-local buffer usable by every operator (storage, device address, transfer). Host-visible
 * memory is used directly where the device has device-local host-visible memory; otherwise reads and
 * writes go through a staging buffer. */
DMLVK_API dmlvk_status dmlvk_buffer_create(dmlvk_device *device, uint64_t size, dmlvk_buffer **buffer);

/*
 * A dmlvk buffer for a VkBuffer of the host's device, so that operators check sizes and overlaps of
 * host memory as they do of their own. size is the VkBufferCreateInfo.size the buffer was made with
 * (it must not exceed its memory requirements), usage its VkBufferUsageFlags: they must include
 * STORAGE_BUFFER and SHADER_DEVICE_ADDRESS, and TRANSFER_DST / TRANSFER_SRC for dmlvk_buffer_write /
 * dmlvk_buffer_read. The buffer's memory must be bound already and allocated with
 * VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT (VkMemoryAllocateFlagsInfo). dmlvk_buffer_destroy frees only
 * the wrapper: the VkBuffer stays the host's and must outlive it.
 */
DMLVK_API dmlvk_status dmlvk_buffer_wrap(dmlvk_device *device, VkBuffer vk_buffer, uint64_t size,
                                         VkBufferUsageFlags usage, dmlvk_buffer **buffer);

/* NULL is a no-op. */
DMLVK_API dmlvk_status dmlvk_buffer_destroy(dmlvk_buffer *buffer);

/* Copies size bytes between host memory and [offset, offset + size) of the buffer, waiting for
 * the copy to finish. The caller orders these with its own recorded work. */
DMLVK_API dmlvk_status dmlvk_buffer_write(dmlvk_buffer *buffer, uint64_t offset, const void *data, uint64_t size);
DMLVK_API dmlvk_status dmlvk_buffer_read(dmlvk_buffer *buffer, uint64_t offset, void *data, uint64_t size);

/* The Vulkan buffer and its size, for recording commands of the host's own. */
DMLVK_API dmlvk_status dmlvk_buffer_get_vk(const dmlvk_buffer *buffer, VkBuffer *vk_buffer, uint64_t *size);

#ifdef __cplusplus
}
#endif

#endif
