/*
 * How an ML runtime embeds dmlvk: it owns the Vulkan instance, device, queue, buffers and command
 * buffers; dmlvk records its dispatches into the runtime's command buffer.
 *
 * This example creates its own device with what dmlvk_device_get_requirements asks for (with the
 * validation layer when it is installed), hands dmlvk the device and the VkDeviceCreateInfo it was
 * made with, wraps its own buffers, records a forward RESAMPLE2 (PyTorch bilinear, 2x) and the
 * matching backward RESAMPLE_GRAD1 between the barriers dmlvk_record_barrier gives, submits once, and
 * checks the forward values against a CPU computation and the backward against the adjoint identity
 * <F(x), dy> = <x, B(dy)>.
 * Built and run on lavapipe by the test suite.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>

#include <dmlvk/dmlvk.h>

#define CHECK_VK(call)                                                                                                 \
    do {                                                                                                               \
        VkResult r_ = (call);                                                                                          \
        if (r_ != VK_SUCCESS) {                                                                                        \
            fprintf(stderr, "%s failed: %d\n", #call, (int)r_);                                                        \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        if ((call) != DMLVK_OK) {                                                                                      \
            fprintf(stderr, "%s: %s\n", #call, dmlvk_last_error());                                                    \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

static unsigned validation_messages;

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)type;
    (void)user;
    if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
        fprintf(stderr, "validation: %s\n", data->pMessage);
        validation_messages++;
    }
    return VK_FALSE;
}

struct host_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    float *data;
};

#define HOST_BUFFER_USAGE (VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT)

/* The runtime's own buffer: storage + device address usage, memory with a device address, as
 * dmlvk_buffer_wrap requires. */
static struct host_buffer make_buffer(VkPhysicalDevice pd, VkDevice dev, VkDeviceSize size)
{
    struct host_buffer b;
    VkBufferCreateInfo bci = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
                               .usage = HOST_BUFFER_USAGE };
    CHECK_VK(vkCreateBuffer(dev, &bci, NULL, &b.buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, b.buffer, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    uint32_t type = UINT32_MAX;
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t i = 0; i < mp.memoryTypeCount && type == UINT32_MAX; i++)
        if ((req.memoryTypeBits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
            type = i;
    if (type == UINT32_MAX) {
        fprintf(stderr, "no host-visible memory (a real runtime would stage its uploads)\n");
        exit(1);
    }
    VkMemoryAllocateFlagsInfo flags = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT };
    VkMemoryAllocateInfo mai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = &flags,
                                 .allocationSize = req.size, .memoryTypeIndex = type };
    CHECK_VK(vkAllocateMemory(dev, &mai, NULL, &b.memory));
    CHECK_VK(vkBindBufferMemory(dev, b.buffer, b.memory, 0));
    CHECK_VK(vkMapMemory(dev, b.memory, 0, VK_WHOLE_SIZE, 0, (void **)&b.data));
    return b;
}

static bool has_validation_layer(void)
{
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, NULL);
    VkLayerProperties *layers = calloc(n ? n : 1, sizeof(*layers));
    vkEnumerateInstanceLayerProperties(&n, layers);
    bool found = false;
    for (uint32_t i = 0; i < n; i++)
        found |= !strcmp(layers[i].layerName, "VK_LAYER_KHRONOS_validation");
    free(layers);
    return found;
}

int main(void)
{
    /* ---- the runtime's Vulkan objects ---- */
    bool validation = has_validation_layer();
    const char *layer = "VK_LAYER_KHRONOS_validation", *debug_ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "host-runtime",
                              .apiVersion = VK_API_VERSION_1_2 };
    VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app,
                                 .enabledLayerCount = validation, .ppEnabledLayerNames = &layer,
                                 .enabledExtensionCount = validation, .ppEnabledExtensionNames = &debug_ext };
    VkInstance instance;
    CHECK_VK(vkCreateInstance(&ici, NULL, &instance));
    VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
    if (validation) {
        PFN_vkCreateDebugUtilsMessengerEXT create_messenger =
            (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT");
        VkDebugUtilsMessengerCreateInfoEXT mci = {
            .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
            .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
            .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
            .pfnUserCallback = on_message,
        };
        CHECK_VK(create_messenger(instance, &mci, NULL, &messenger));
    }
    uint32_t n = 1;
    VkPhysicalDevice pd;
    VkResult r = vkEnumeratePhysicalDevices(instance, &n, &pd);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0) {
        fprintf(stderr, "no Vulkan device\n");
        return 1;
    }
    /* The runtime's device enables what dmlvk asks for; a runtime with feature structs of its own
     * would set the same members in them instead of chaining dmlvk's. */
    dmlvk_device_requirements req;
    CHECK(dmlvk_device_get_requirements(vkGetInstanceProcAddr, instance, pd, &req));
    float priority = 1;
    VkDeviceQueueCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = 0,
                                    .queueCount = 1, .pQueuePriorities = &priority };
    VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &req.features,
                               .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci,
                               .enabledExtensionCount = req.extension_count, .ppEnabledExtensionNames = req.extensions };
    VkDevice device;
    CHECK_VK(vkCreateDevice(pd, &dci, NULL, &device));
    VkQueue queue;
    vkGetDeviceQueue(device, 0, 0, &queue);

    /* ---- hand them to dmlvk: the device, how it was made, the queue dmlvk's own calls use ---- */
    dmlvk_vulkan_import imp = { .get_instance_proc_addr = vkGetInstanceProcAddr, .instance = instance,
                                .api_version = VK_API_VERSION_1_2, .physical_device = pd, .device = device,
                                .device_create_info = &dci, .queue_family_index = 0, .queue_index = 0 };
    dmlvk_device *dev;
    /* No disk cache: an imported device keeps one only in a folder the host names (params.cache_dir). */
    CHECK(dmlvk_device_import(&imp, NULL, &dev));

    /* ---- RESAMPLE2 forward and RESAMPLE_GRAD1 backward, PyTorch bilinear 2x ---- */
    const uint32_t small[4] = { 1, 2, 3, 5 }, big[4] = { 1, 2, 6, 10 };
    const uint32_t n_small = 30, n_big = 120;
    dmlvk_tensor_desc ts = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 4, .Sizes = small,
                             .TotalTensorSizeInBytes = 4 * n_small };
    dmlvk_tensor_desc tb = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 4, .Sizes = big,
                             .TotalTensorSizeInBytes = 4 * n_big };
    /* The fields come from each descriptor's own tensors, so the backward cannot get the direction wrong. */
    dmlvk_resample_fields fwd_fields, bwd_fields;
    dmlvk_resample2_operator_desc fwd = { .InputTensor = &ts, .OutputTensor = &tb };
    dmlvk_resample_grad1_operator_desc bwd = { .InputGradientTensor = &tb, .OutputGradientTensor = &ts };
    CHECK(dmlvk_resample2_desc_from_convention(&fwd, DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_LINEAR, NULL, &fwd_fields));
    CHECK(dmlvk_resample_grad1_desc_from_convention(&bwd, DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_LINEAR, NULL, &bwd_fields));
    dmlvk_operator *op_fwd, *op_bwd;
    CHECK(dmlvk_operator_create(dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE2, &fwd }, NULL, &op_fwd));
    CHECK(dmlvk_operator_create(dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE_GRAD1, &bwd }, NULL, &op_bwd));

    struct host_buffer x = make_buffer(pd, device, 4 * n_small), y = make_buffer(pd, device, 4 * n_big);
    struct host_buffer dy = make_buffer(pd, device, 4 * n_big), dx = make_buffer(pd, device, 4 * n_small);
    for (uint32_t i = 0; i < n_small; i++)
        x.data[i] = sinf((float)i);
    for (uint32_t i = 0; i < n_big; i++)
        dy.data[i] = cosf((float)i * 0.7f);

    VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = 0 };
    VkCommandPool pool;
    CHECK_VK(vkCreateCommandPool(device, &pci, NULL, &pool));
    VkCommandBufferAllocateInfo cai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
                                        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
    VkCommandBuffer cmd;
    CHECK_VK(vkAllocateCommandBuffers(device, &cai, &cmd));
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    CHECK_VK(vkBeginCommandBuffer(cmd, &bi));
    /* The runtime's buffers, wrapped: dmlvk checks every binding's range against the real size. */
    dmlvk_buffer *bx, *by, *bdy, *bdx;
    CHECK(dmlvk_buffer_wrap(dev, x.buffer, 4 * n_small, HOST_BUFFER_USAGE, &bx));
    CHECK(dmlvk_buffer_wrap(dev, y.buffer, 4 * n_big, HOST_BUFFER_USAGE, &by));
    CHECK(dmlvk_buffer_wrap(dev, dy.buffer, 4 * n_big, HOST_BUFFER_USAGE, &bdy));
    CHECK(dmlvk_buffer_wrap(dev, dx.buffer, 4 * n_small, HOST_BUFFER_USAGE, &bdx));
    dmlvk_binding bf[2] = { { .buffer = bx, .size = VK_WHOLE_SIZE }, { .buffer = by, .size = VK_WHOLE_SIZE } };
    dmlvk_binding bb[2] = { { .buffer = bdy, .size = VK_WHOLE_SIZE }, { .buffer = bdx, .size = VK_WHOLE_SIZE } };
    /* Host writes made before the submission need no barrier; a runtime whose earlier commands wrote
     * the inputs (a transfer here) waits for them. */
    CHECK(dmlvk_record_barrier(dev, cmd, DMLVK_BARRIER_BEFORE, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT));
    CHECK(dmlvk_operator_record(op_fwd, cmd, bf, 2));
    /* The backward pass does not read y, but a runtime would chain ops like this: compute write -> compute read. */
    CHECK(dmlvk_record_barrier(dev, cmd, DMLVK_BARRIER_AFTER, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT));
    CHECK(dmlvk_operator_record(op_bwd, cmd, bb, 2));
    /* dmlvk bound its own compute pipeline and push constants: a runtime binds its own again here. */
    CHECK(dmlvk_record_barrier(dev, cmd, DMLVK_BARRIER_AFTER, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT));
    CHECK_VK(vkEndCommandBuffer(cmd));
    VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VkFence fence;
    CHECK_VK(vkCreateFence(device, &fci, NULL, &fence));
    VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd };
    CHECK_VK(vkQueueSubmit(queue, 1, &si, fence));
    CHECK_VK(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX));

    /* ---- check: PyTorch's bilinear formula on the CPU, and the adjoint identity ---- */
    int bad = 0;
    for (uint32_t c = 0; c < 2; c++)
        for (uint32_t oy = 0; oy < 6; oy++)
            for (uint32_t ox = 0; ox < 10; ox++) {
                double sy = fmax(0, (oy + 0.5) * 0.5 - 0.5), sx = fmax(0, (ox + 0.5) * 0.5 - 0.5);
                uint32_t y0 = (uint32_t)sy, x0 = (uint32_t)sx, y1 = y0 < 2 ? y0 + 1 : y0, x1 = x0 < 4 ? x0 + 1 : x0;
                double wy = sy - y0, wx = sx - x0;
                const float *p = x.data + c * 15;
                double want = (1 - wy) * ((1 - wx) * p[y0 * 5 + x0] + wx * p[y0 * 5 + x1]) +
                              wy * ((1 - wx) * p[y1 * 5 + x0] + wx * p[y1 * 5 + x1]);
                bad += !(fabs(y.data[c * 60 + oy * 10 + ox] - want) <= 1e-6);
            }
    double lhs = 0, rhs = 0;
    for (uint32_t i = 0; i < n_big; i++)
        lhs += (double)y.data[i] * dy.data[i];
    for (uint32_t i = 0; i < n_small; i++)
        rhs += (double)x.data[i] * dx.data[i];
    printf("forward: %d of %u values off; <F(x),dy> = %.7f, <x,B(dy)> = %.7f; validation messages: %u%s\n", bad, n_big,
           lhs, rhs, validation_messages, validation ? "" : " (layer not installed)");
    int ok = bad == 0 && fabs(lhs - rhs) < 1e-4 && validation_messages == 0;

    dmlvk_operator_destroy(op_fwd);
    dmlvk_operator_destroy(op_bwd);
    dmlvk_buffer *wrapped[] = { bx, by, bdy, bdx };
    for (int i = 0; i < 4; i++)
        dmlvk_buffer_destroy(wrapped[i]);
    CHECK(dmlvk_device_destroy(dev));
    vkDestroyFence(device, fence, NULL);
    vkDestroyCommandPool(device, pool, NULL);
    struct host_buffer *all[] = { &x, &y, &dy, &dx };
    for (int i = 0; i < 4; i++) {
        vkDestroyBuffer(device, all[i]->buffer, NULL);
        vkFreeMemory(device, all[i]->memory, NULL);
    }
    vkDestroyDevice(device, NULL);
    if (messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy_messenger =
            (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT");
        destroy_messenger(instance, messenger, NULL);
    }
    vkDestroyInstance(instance, NULL);
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
