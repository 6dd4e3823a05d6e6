/*
 * What a host embedding dmlvk gets wrong, and what it must be told: object lifetimes, imported
 * devices and queues, wrapped host buffers, DirectML's full enumerations, messages that name the
 * argument. Every check here runs on the real device (lavapipe in CI) with the validation layer on.
 */
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "internal.h"

static void assert_error(dmlvk_status st, dmlvk_status want, const char *text)
{
    assert_int_equal(st, want);
    if (!strstr(dmlvk_last_error(), text))
        fail_msg("message \"%s\" lacks \"%s\"", dmlvk_last_error(), text);
}

/* ACTIVATION_RELU from x to y: the operator these tests bind, wrap and refuse. */
static dmlvk_status create_relu(dmlvk_device *dev, const dmlvk_tensor_desc *x, const dmlvk_tensor_desc *y,
                                dmlvk_operator **op)
{
    dmlvk_activation_relu_operator_desc d = { x, y };
    return dmlvk_operator_create(dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_ACTIVATION_RELU, &d }, NULL, op);
}

/* A device with live children is refused and stays usable; it goes once they are gone. */
static void test_device_destroy_with_children(void **state)
{
    (void)state;
    dmlvk_device *dev = test_device(NULL);
    dmlvk_tensor_desc x = f32x4(), y = f32x4();
    dmlvk_operator *op;
    dmlvk_buffer *buf;
    assert_int_equal(create_relu(dev, &x, &y, &op), DMLVK_OK);
    assert_int_equal(dmlvk_buffer_create(dev, 32, &buf), DMLVK_OK);
    assert_error(dmlvk_device_destroy(dev), DMLVK_ERROR_INVALID_ARGUMENT, "1 operator and 1 buffer");

    float in[8] = { -1, 2, -3, 4 }, out[4];
    assert_int_equal(dmlvk_buffer_write(buf, 0, in, sizeof(in)), DMLVK_OK);
    dmlvk_binding b[2] = { { .buffer = buf, .size = 16 }, { .buffer = buf, .offset = 16, .size = 16 } };
    assert_int_equal(dmlvk_operator_execute(op, b, 2), DMLVK_OK);
    assert_int_equal(dmlvk_buffer_read(buf, 16, out, 16), DMLVK_OK);
    assert_true(out[0] == 0 && out[1] == 2 && out[2] == 0 && out[3] == 4);

    assert_int_equal(dmlvk_operator_destroy(op), DMLVK_OK);
    assert_error(dmlvk_device_destroy(dev), DMLVK_ERROR_INVALID_ARGUMENT, "0 operators and 1 buffer");
    assert_int_equal(dmlvk_buffer_destroy(buf), DMLVK_OK);
    assert_int_equal(dmlvk_device_destroy(dev), DMLVK_OK);
}

/* dmlvk's own device, imported as a host would import its device: the create info is what the
 * import reads, so a test can describe a device created without a feature. */
struct host {
    float priority[2];
    VkDeviceQueueCreateInfo qci;
    VkPhysicalDeviceVulkan12Features v12;
    VkPhysicalDeviceVulkan11Features v11;
    VkDeviceCreateInfo dci;
    dmlvk_vulkan_import imp;
};

static void describe(const dmlvk_device *dev, struct host *h, bool bda, bool storage16)
{
    memset(h, 0, sizeof(*h));
    h->priority[0] = h->priority[1] = 1;
    h->qci = (VkDeviceQueueCreateInfo){ .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                        .queueFamilyIndex = dev->queue_family, .queueCount = 1,
                                        .pQueuePriorities = h->priority };
    h->v12 = (VkPhysicalDeviceVulkan12Features){ .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                                 .bufferDeviceAddress = bda };
    h->v11 = (VkPhysicalDeviceVulkan11Features){ .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
                                                 .pNext = &h->v12, .storageBuffer16BitAccess = storage16 };
    h->dci = (VkDeviceCreateInfo){ .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &h->v11,
                                   .queueCreateInfoCount = 1, .pQueueCreateInfos = &h->qci };
    h->imp = (dmlvk_vulkan_import){ .get_instance_proc_addr = dev->vk.vkGetInstanceProcAddr, .instance = dev->instance,
                                    .api_version = VK_API_VERSION_1_2, .physical_device = dev->physical,
                                    .device = dev->device, .device_create_info = &h->dci,
                                    .queue_family_index = dev->queue_family };
}

static dmlvk_status import(struct host *h, dmlvk_device **out)
{
    dmlvk_device_params p = { .log = test_log };
    return dmlvk_device_import(&h->imp, &p, out);
}

static void test_import_checks(void **state)
{
    struct device_fixture *f = *state;
    struct host h;
    dmlvk_device *dev = NULL;

    describe(f->dev, &h, true, true);
    h.imp.device_create_info = NULL;
    assert_error(import(&h, &dev), DMLVK_ERROR_INVALID_ARGUMENT, "import->device_create_info is NULL");

    describe(f->dev, &h, true, true);
    h.imp.queue_family_index = 99;
    assert_error(import(&h, &dev), DMLVK_ERROR_INVALID_ARGUMENT, "queue_family_index 99");

    describe(f->dev, &h, true, true);
    h.imp.queue_index = 1;
    assert_error(import(&h, &dev), DMLVK_ERROR_INVALID_ARGUMENT, "import->queue_index 1: the device was created with 1 queue");

    describe(f->dev, &h, true, true);
    h.dci.queueCreateInfoCount = 0;
    assert_error(import(&h, &dev), DMLVK_ERROR_INVALID_ARGUMENT, "creates no queue of that family");

    describe(f->dev, &h, false, true);
    assert_error(import(&h, &dev), DMLVK_ERROR_UNSUPPORTED, "does not enable bufferDeviceAddress");

    /* The feature may come in its own structure instead of Vulkan 1.2's. */
    describe(f->dev, &h, false, true);
    VkPhysicalDeviceBufferDeviceAddressFeatures bda = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES, .bufferDeviceAddress = VK_TRUE };
    h.v12.pNext = &bda;
    assert_int_equal(import(&h, &dev), DMLVK_OK);
    assert_int_equal(dmlvk_device_destroy(dev), DMLVK_OK);

    describe(f->dev, &h, true, true);
    h.imp.reserved[2] = 1;
    assert_error(import(&h, &dev), DMLVK_ERROR_INVALID_ARGUMENT, "reserved");
}

/* Counts the statistics lines of compiled pipelines; passes everything on to test_log. */
static void count_statistics(void *user, dmlvk_log_level level, const char *message)
{
    if (level == DMLVK_LOG_INFO && !strncmp(message, "pipeline ", 9) && strstr(message, ", specialization"))
        ++*(int *)user;
    test_log(NULL, level, message);
}

/* dmlvk_device_params.pipeline_statistics: a line per compiled pipeline where the device has
 * VK_KHR_pipeline_executable_properties, a refusal that names the field where it has not, and on
 * an import that did not enable the extension. */
static void test_pipeline_statistics(void **state)
{
    struct device_fixture *f = *state;
    struct host h;
    describe(f->dev, &h, true, true);
    dmlvk_device_params p = { .log = test_log, .pipeline_statistics = 1 };
    dmlvk_device *dev = NULL;
    assert_error(dmlvk_device_import(&h.imp, &p, &dev), DMLVK_ERROR_UNSUPPORTED,
                 "pipeline_statistics: import->device_create_info does not enable VK_KHR_pipeline_executable_properties");

    int lines = 0;
    const char *v = getenv("DMLVK_TEST_VALIDATION");
    p = (dmlvk_device_params){ .validation = !(v && v[0] == '0'), .disable_disk_cache = 1, .log = count_statistics,
                               .log_user = &lines, .log_level = DMLVK_LOG_INFO, .pipeline_statistics = 1 };
    dmlvk_status st = dmlvk_device_create(&p, &dev);
    if (st != DMLVK_OK) {
        assert_error(st, DMLVK_ERROR_UNSUPPORTED, "dmlvk_device_params.pipeline_statistics: ");
        assert_non_null(strstr(dmlvk_last_error(), "lacks VK_KHR_pipeline_executable_properties"));
        return;
    }
    dmlvk_tensor_desc x = f32x4(), y = f32x4();
    dmlvk_operator *op;
    assert_int_equal(create_relu(dev, &x, &y, &op), DMLVK_OK);
    assert_true(lines >= 1);
    assert_int_equal(dmlvk_operator_destroy(op), DMLVK_OK);
    test_device_done(dev);
}

/* FLOAT16 on an import that did not enable 16-bit storage blames the import, not the hardware. */
static void test_import_features(void **state)
{
    struct device_fixture *f = *state;
    dmlvk_device_info info;
    dmlvk_device_get_info(f->dev, &info);
    if (!info.float16)
        skip();
    struct host h;
    dmlvk_device *dev;
    describe(f->dev, &h, true, false);
    assert_int_equal(import(&h, &dev), DMLVK_OK);
    dmlvk_device_get_info(dev, &info);
    assert_false(info.float16);
    static const uint32_t sizes[] = { 4 };
    dmlvk_tensor_desc x = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT16, .DimensionCount = 1, .Sizes = sizes,
                            .TotalTensorSizeInBytes = 8 };
    dmlvk_tensor_desc y = x;
    dmlvk_operator *op;
    assert_error(create_relu(dev, &x, &y, &op), DMLVK_ERROR_UNSUPPORTED,
                 "dmlvk_vulkan_import.device_create_info does not enable");
    /* An imported device writes no cache file unless the host names its folder. */
    const char *path = NULL;
    assert_int_equal(dmlvk_device_get_cache_path(dev, &path), DMLVK_OK);
    assert_string_equal(path, "");
    assert_int_equal(dmlvk_device_destroy(dev), DMLVK_OK);

    describe(f->dev, &h, true, true);
    assert_int_equal(import(&h, &dev), DMLVK_OK);
    assert_int_equal(create_relu(dev, &x, &y, &op), DMLVK_OK);
    dmlvk_operator_destroy(op);
    assert_int_equal(dmlvk_device_destroy(dev), DMLVK_OK);
}

/* A host's device with two queues: dmlvk runs on the second, the host keeps the first. */
static void test_import_second_queue(void **state)
{
    struct device_fixture *f = *state;
    const dmlvk_device *own = f->dev;
    uint32_t nq = 0;
    own->vk.vkGetPhysicalDeviceQueueFamilyProperties(own->physical, &nq, NULL);
    VkQueueFamilyProperties q[16];
    nq = nq < 16 ? nq : 16;
    own->vk.vkGetPhysicalDeviceQueueFamilyProperties(own->physical, &nq, q);
    if (q[own->queue_family].queueCount < 2)
        skip();
    dmlvk_device_requirements req;
    assert_int_equal(dmlvk_device_get_requirements(own->vk.vkGetInstanceProcAddr, own->instance, own->physical, &req),
                     DMLVK_OK);
    assert_true(req.vulkan12.bufferDeviceAddress);
    float priority[2] = { 1, 1 };
    VkDeviceQueueCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                    .queueFamilyIndex = own->queue_family, .queueCount = 2, .pQueuePriorities = priority };
    VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &req.features,
                               .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci,
                               .enabledExtensionCount = req.extension_count, .ppEnabledExtensionNames = req.extensions };
    VkDevice vd;
    assert_int_equal(own->vk.vkCreateDevice(own->physical, &dci, NULL, &vd), VK_SUCCESS);
    dmlvk_vulkan_import imp = { .get_instance_proc_addr = own->vk.vkGetInstanceProcAddr, .instance = own->instance,
                                .api_version = VK_API_VERSION_1_2, .physical_device = own->physical, .device = vd,
                                .device_create_info = &dci, .queue_family_index = own->queue_family, .queue_index = 1 };
    dmlvk_device *dev;
    assert_int_equal(dmlvk_device_import(&imp, NULL, &dev), DMLVK_OK);
    dmlvk_buffer *buf;
    assert_int_equal(dmlvk_buffer_create(dev, 16, &buf), DMLVK_OK);
    float in[4] = { 1, 2, 3, 4 }, out[4];
    assert_int_equal(dmlvk_buffer_write(buf, 0, in, 16), DMLVK_OK);
    assert_int_equal(dmlvk_buffer_read(buf, 0, out, 16), DMLVK_OK);
    assert_memory_equal(in, out, 16);
    dmlvk_buffer_destroy(buf);
    assert_int_equal(dmlvk_device_destroy(dev), DMLVK_OK);
    PFN_vkDestroyDevice destroy = (PFN_vkDestroyDevice)own->vk.vkGetDeviceProcAddr(vd, "vkDestroyDevice");
    destroy(vd, NULL);
}

/* A host buffer of its own, as a runtime makes one. */
struct host_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
};

static struct host_buffer host_buffer(const dmlvk_device *dev, VkDeviceSize size, VkBufferUsageFlags usage)
{
    struct host_buffer b;
    VkBufferCreateInfo bci = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage };
    assert_int_equal(dev->vk.vkCreateBuffer(dev->device, &bci, NULL, &b.buffer), VK_SUCCESS);
    VkMemoryRequirements2 req = { .sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2 };
    VkBufferMemoryRequirementsInfo2 rqi = { .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2, .buffer = b.buffer };
    dev->vk.vkGetBufferMemoryRequirements2(dev->device, &rqi, &req);
    uint32_t type = 0;
    while (!(req.memoryRequirements.memoryTypeBits & (1u << type)))
        type++;
    VkMemoryAllocateFlagsInfo flags = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT };
    VkMemoryAllocateInfo mai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = &flags,
                                 .allocationSize = req.memoryRequirements.size, .memoryTypeIndex = type };
    assert_int_equal(dev->vk.vkAllocateMemory(dev->device, &mai, NULL, &b.memory), VK_SUCCESS);
    assert_int_equal(dev->vk.vkBindBufferMemory(dev->device, b.buffer, b.memory, 0), VK_SUCCESS);
    return b;
}

static void host_buffer_free(const dmlvk_device *dev, struct host_buffer *b)
{
    dev->vk.vkDestroyBuffer(dev->device, b->buffer, NULL);
    dev->vk.vkFreeMemory(dev->device, b->memory, NULL);
}

static void test_buffer_wrap(void **state)
{
    struct device_fixture *f = *state;
    dmlvk_device *dev = f->dev;
    const VkBufferUsageFlags storage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    const VkBufferUsageFlags transfer = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    struct host_buffer small = host_buffer(dev, 16, storage);
    struct host_buffer big = host_buffer(dev, 4096, storage | transfer);
    dmlvk_buffer *w;

    /* A 16-byte buffer is not 4096 bytes, and wrapping checks what it can. */
    assert_error(dmlvk_buffer_wrap(dev, small.buffer, 4096, storage, &w), DMLVK_ERROR_INVALID_ARGUMENT,
                 "more than the buffer holds");
    assert_error(dmlvk_buffer_wrap(dev, small.buffer, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &w),
                 DMLVK_ERROR_INVALID_ARGUMENT, "VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT");
    assert_error(dmlvk_buffer_wrap(dev, VK_NULL_HANDLE, 16, storage, &w), DMLVK_ERROR_INVALID_ARGUMENT, "vk_buffer");
    assert_error(dmlvk_buffer_wrap(dev, small.buffer, 0, storage, &w), DMLVK_ERROR_INVALID_ARGUMENT, "size");

    /* Bound with more than it holds: refused, where a raw VkBuffer used to be written past its end. */
    dmlvk_buffer *ws, *wb;
    assert_int_equal(dmlvk_buffer_wrap(dev, small.buffer, 16, storage, &ws), DMLVK_OK);
    assert_int_equal(dmlvk_buffer_wrap(dev, big.buffer, 4096, storage | transfer, &wb), DMLVK_OK);
    static const uint32_t sizes32[] = { 32 };
    dmlvk_tensor_desc x = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 1, .Sizes = sizes32,
                            .TotalTensorSizeInBytes = 128 };
    dmlvk_tensor_desc y = x;
    dmlvk_operator *op;
    assert_int_equal(create_relu(dev, &x, &y, &op), DMLVK_OK);
    dmlvk_binding b[2] = { { .buffer = wb, .size = 128 }, { .buffer = ws, .size = 128 } };
    assert_error(dmlvk_operator_execute(op, b, 2), DMLVK_ERROR_INVALID_ARGUMENT, "runs past the buffer's 16 bytes");
    b[1].size = VK_WHOLE_SIZE;
    assert_error(dmlvk_operator_execute(op, b, 2), DMLVK_ERROR_INVALID_ARGUMENT, "16 bytes bound, the tensor takes 128");

    /* Two wrappers of one VkBuffer are one memory: overlapping ranges are refused. */
    dmlvk_buffer *wb2;
    assert_int_equal(dmlvk_buffer_wrap(dev, big.buffer, 4096, storage | transfer, &wb2), DMLVK_OK);
    b[1] = (dmlvk_binding){ .buffer = wb2, .offset = 64, .size = 128 };
    assert_error(dmlvk_operator_execute(op, b, 2), DMLVK_ERROR_INVALID_ARGUMENT, "overlaps");
    b[1].offset = 128;
    float in[32], out[32];
    for (int i = 0; i < 32; i++)
        in[i] = (float)(i % 5) - 2;
    assert_int_equal(dmlvk_buffer_write(wb, 0, in, sizeof(in)), DMLVK_OK);
    assert_int_equal(dmlvk_operator_execute(op, b, 2), DMLVK_OK);
    assert_int_equal(dmlvk_buffer_read(wb2, 128, out, sizeof(out)), DMLVK_OK);
    for (int i = 0; i < 32; i++)
        assert_true(out[i] == (in[i] > 0 ? in[i] : 0));

    /* Reads and writes go through transfers: the usage must allow them. */
    assert_error(dmlvk_buffer_write(ws, 0, in, 16), DMLVK_ERROR_INVALID_ARGUMENT, "VK_BUFFER_USAGE_TRANSFER_DST_BIT");
    assert_error(dmlvk_buffer_read(ws, 0, out, 16), DMLVK_ERROR_INVALID_ARGUMENT, "VK_BUFFER_USAGE_TRANSFER_SRC_BIT");

    dmlvk_operator_destroy(op);
    dmlvk_buffer_destroy(ws);
    dmlvk_buffer_destroy(wb);
    dmlvk_buffer_destroy(wb2);
    /* The wrappers are gone; the host's buffers are still the host's to free. */
    host_buffer_free(dev, &small);
    host_buffer_free(dev, &big);
}

/* Every name of DirectML's enumerations is found, with or without its prefix; the operators refuse
 * the values they do not take as invalid arguments. */
static void test_directml_enums(void **state)
{
    struct device_fixture *f = *state;
    uint32_t v;
    assert_int_equal(dmlvk_enum_from_name(DMLVK_ENUM_REDUCE_FUNCTION, "SUM", &v), DMLVK_OK);
    assert_int_equal(v, DMLVK_REDUCE_FUNCTION_SUM);
    assert_int_equal(dmlvk_enum_from_name(DMLVK_ENUM_REDUCE_FUNCTION, "DML_REDUCE_FUNCTION_SUM_SQUARE", &v), DMLVK_OK);
    assert_int_equal(v, 11);
    assert_int_equal(dmlvk_enum_from_name(DMLVK_ENUM_INTERPOLATION_MODE, "DML_INTERPOLATION_MODE_LINEAR", &v), DMLVK_OK);
    assert_int_equal(v, DMLVK_INTERPOLATION_MODE_LINEAR);
    assert_int_equal(dmlvk_enum_from_name(DMLVK_ENUM_TENSOR_DATA_TYPE, "DML_TENSOR_DATA_TYPE_INT4", &v), DMLVK_OK);
    assert_int_equal(v, 13);
    assert_int_equal(dmlvk_enum_from_name(DMLVK_ENUM_AXIS_DIRECTION, "DML_INTERPOLATION_MODE_LINEAR", &v),
                     DMLVK_ERROR_INVALID_ARGUMENT);
    assert_error(dmlvk_enum_from_name(DMLVK_ENUM_AXIS_DIRECTION, NULL, &v), DMLVK_ERROR_INVALID_ARGUMENT, "name is NULL");

    static const uint32_t sizes[] = { 4 };
    dmlvk_tensor_desc x = { .DataType = DMLVK_TENSOR_DATA_TYPE_INT32, .DimensionCount = 1, .Sizes = sizes,
                            .TotalTensorSizeInBytes = 16 };
    dmlvk_tensor_desc y = f32x4();
    dmlvk_operator *op;
    assert_error(create_relu(f->dev, &x, &y, &op), DMLVK_ERROR_INVALID_ARGUMENT,
                 "InputTensor.DataType: INT32 is not one this operator takes (FLOAT32, FLOAT16, BFLOAT16)");
    assert_int_equal(dmlvk_data_type_size(DMLVK_TENSOR_DATA_TYPE_FLOAT64), 8);
    assert_int_equal(dmlvk_data_type_size(DMLVK_TENSOR_DATA_TYPE_UINT4), 0);
    x.DataType = (dmlvk_tensor_data_type)99;
    assert_error(create_relu(f->dev, &x, &y, &op), DMLVK_ERROR_INVALID_ARGUMENT, "99 is not a DirectML data type");
}

/* TotalTensorSizeInBytes 0 means the minimum the sizes and strides reach. */
static void test_total_size_zero(void **state)
{
    struct device_fixture *f = *state;
    static const uint32_t sizes[] = { 2, 3 }, strides[] = { 4, 1 };
    dmlvk_tensor_desc x = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 2, .Sizes = sizes,
                            .Strides = strides };
    dmlvk_tensor_desc y = x;
    dmlvk_operator *op;
    assert_int_equal(create_relu(f->dev, &x, &y, &op), DMLVK_OK);
    dmlvk_buffer *buf;
    assert_int_equal(dmlvk_buffer_create(f->dev, 64, &buf), DMLVK_OK);
    /* (1*4 + 2*1 + 1) floats = 28 bytes */
    dmlvk_binding b[2] = { { .buffer = buf, .size = 24 }, { .buffer = buf, .offset = 32, .size = 28 } };
    assert_error(dmlvk_operator_execute(op, b, 2), DMLVK_ERROR_INVALID_ARGUMENT, "24 bytes bound, the tensor takes 28");
    b[0].size = 28;
    float in[16] = { -1, 1, -2, 99, 2, -3, 3 }, out[7];
    assert_int_equal(dmlvk_buffer_write(buf, 0, in, sizeof(in)), DMLVK_OK);
    assert_int_equal(dmlvk_operator_execute(op, b, 2), DMLVK_OK);
    assert_int_equal(dmlvk_buffer_read(buf, 32, out, sizeof(out)), DMLVK_OK);
    assert_true(out[0] == 0 && out[1] == 1 && out[2] == 0 && out[4] == 2 && out[5] == 0 && out[6] == 3);
    dmlvk_operator_destroy(op);
    dmlvk_buffer_destroy(buf);
}

/* Messages name the argument that is wrong. */
static void test_messages(void **state)
{
    struct device_fixture *f = *state;
    dmlvk_tensor_desc x = f32x4(), y = f32x4();
    dmlvk_operator *op;
    assert_int_equal(create_relu(f->dev, &x, &y, &op), DMLVK_OK);
    assert_error(dmlvk_operator_execute(op, NULL, 2), DMLVK_ERROR_INVALID_ARGUMENT,
                 "dmlvk_operator_execute (ACTIVATION_RELU): bindings is NULL");
    dmlvk_binding b[2] = { 0 };
    assert_error(dmlvk_operator_record(op, (VkCommandBuffer)(uintptr_t)1, b, 1), DMLVK_ERROR_INVALID_ARGUMENT,
                 "dmlvk_operator_record (ACTIVATION_RELU): count is 1; the operator takes 2 bindings");
    assert_error(dmlvk_operator_execute(op, b, 2), DMLVK_ERROR_INVALID_ARGUMENT, "bindings[0] (InputTensor): no buffer bound");
    dmlvk_operator_destroy(op);
    dmlvk_buffer *buf;
    assert_error(dmlvk_buffer_create(NULL, 16, &buf), DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_buffer_create: device is NULL");
    assert_error(dmlvk_buffer_create(f->dev, 16, NULL), DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_buffer_create: buffer is NULL");
    assert_error(dmlvk_buffer_read(NULL, 0, NULL, 0), DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_buffer_read: buffer is NULL");
    assert_error(dmlvk_device_get_info(f->dev, NULL), DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_device_get_info: info is NULL");
    assert_error(dmlvk_device_import(NULL, NULL, &(dmlvk_device *){ NULL }), DMLVK_ERROR_INVALID_ARGUMENT,
                 "dmlvk_device_import: import is NULL");
    assert_error(dmlvk_resample2_desc_set_fields(NULL, NULL), DMLVK_ERROR_INVALID_ARGUMENT, "desc is NULL");
}

/* The convention helpers read the sizes from the descriptor, so the backward's direction is right. */
static void test_resample_convention_from_desc(void **state)
{
    (void)state;
    static const uint32_t small[] = { 1, 2, 3, 5 }, big[] = { 1, 2, 6, 10 };
    dmlvk_tensor_desc ts = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 4, .Sizes = small };
    dmlvk_tensor_desc tb = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 4, .Sizes = big };
    dmlvk_resample_grad1_operator_desc bwd = { .InputGradientTensor = &tb, .OutputGradientTensor = &ts };
    dmlvk_resample2_operator_desc fwd = { .InputTensor = &ts, .OutputTensor = &tb };
    dmlvk_resample_fields fb, ff, sizes;
    assert_int_equal(dmlvk_resample_grad1_desc_from_convention(&bwd, DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_LINEAR, NULL, &fb),
                     DMLVK_OK);
    assert_int_equal(dmlvk_resample2_desc_from_convention(&fwd, DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_LINEAR, NULL, &ff),
                     DMLVK_OK);
    assert_int_equal(dmlvk_resample_fields_from_convention(DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_LINEAR, 4, small, big, NULL,
                                                           &sizes), DMLVK_OK);
    assert_true(bwd.Scales == fb.Scales && bwd.DimensionCount == 4 && fwd.Scales == ff.Scales);
    assert_true(fb.Scales[2] == 2 && fb.Scales[3] == 2 && fb.Scales[0] == 1);
    assert_memory_equal(&fb, &ff, sizeof(fb));
    assert_memory_equal(&fb, &sizes, sizeof(fb));
    bwd.OutputGradientTensor = NULL;
    assert_error(dmlvk_resample_grad1_desc_from_convention(&bwd, DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_LINEAR, NULL, &fb),
                 DMLVK_ERROR_INVALID_ARGUMENT, "desc->OutputGradientTensor is NULL");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_destroy_with_children),
        cmocka_unit_test(test_import_checks),
        cmocka_unit_test(test_import_features),
        cmocka_unit_test(test_pipeline_statistics),
        cmocka_unit_test(test_import_second_queue),
        cmocka_unit_test(test_buffer_wrap),
        cmocka_unit_test(test_directml_enums),
        cmocka_unit_test(test_total_size_zero),
        cmocka_unit_test(test_messages),
        cmocka_unit_test(test_resample_convention_from_desc),
    };
    return test_run_group(tests, device_fixture_setup, device_fixture_teardown);
}
