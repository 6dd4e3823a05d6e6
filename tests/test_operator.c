/* Operator creation, bindings and recording through the public API, on a real device. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpu_util.h"
#include "half.h"
#include "internal.h"

static void test_descriptor_errors(void **state)
{
    struct device_fixture *f = *state;
    dmlvk_operator *op = NULL;
    dmlvk_tensor_desc x = f32x4(), dy = f32x4(), dx = f32x4();
    dmlvk_activation_relu_grad_operator_desc d = { &x, &dy, NULL };
    dmlvk_operator_desc od = { DMLVK_OPERATOR_ACTIVATION_RELU_GRAD, &d };
    assert_int_equal(test_operator_create(f->dev, &od, NULL, &op), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_null(op);
    assert_string_equal(dmlvk_last_error(), "ACTIVATION_RELU_GRAD: OutputGradientTensor: required tensor is missing");

    od.Desc = NULL;
    assert_int_equal(test_operator_create(f->dev, &od, NULL, &op), DMLVK_ERROR_INVALID_ARGUMENT);
    od = (dmlvk_operator_desc){ (dmlvk_operator_type)99, &d };
    assert_int_equal(test_operator_create(f->dev, &od, NULL, &op), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "Type 99"));

    uint32_t other[] = { 5 };
    dx.Sizes = other;
    dx.TotalTensorSizeInBytes = 20;
    d.OutputGradientTensor = &dx;
    od = (dmlvk_operator_desc){ DMLVK_OPERATOR_ACTIVATION_RELU_GRAD, &d };
    assert_int_equal(test_operator_create(f->dev, &od, NULL, &op), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "OutputGradientTensor.Sizes[0]: 5 does not match InputTensor's 4"));

    /* Past test_operator_create, which keeps workgroups within the device's. */
    const struct dmlvk_operator_debug huge = { .workgroup_size = 1u << 20 };
    dx = f32x4();
    assert_int_equal(dmlvk_operator_create_debug(f->dev, &od, NULL, &huge, &op), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "workgroup_size"));

    /* Zeroed public params are the defaults; fields this library does not know are refused. */
    dmlvk_operator_params zeroed = { 0 }, newer = { .reserved = { [3] = 1 } };
    assert_int_equal(dmlvk_operator_create(f->dev, &od, &zeroed, &op), DMLVK_OK);
    dmlvk_operator_destroy(op);
    assert_int_equal(dmlvk_operator_create(f->dev, &od, &newer, &op), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "reserved"));
    dmlvk_device *refused = NULL;
    dmlvk_device_params device_params = { .reserved = { [0] = 7 } };
    assert_int_equal(dmlvk_device_create(&device_params, &refused), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "dmlvk_device_params.reserved"));
}

static void test_binding_errors(void **state)
{
    struct device_fixture *f = *state;
    dmlvk_tensor_desc x = f32x4(), dy = f32x4(), dx = f32x4();
    dmlvk_activation_relu_grad_operator_desc d = { &x, &dy, &dx };
    dmlvk_operator_desc od = { DMLVK_OPERATOR_ACTIVATION_RELU_GRAD, &d };
    dmlvk_operator *op;
    assert_int_equal(test_operator_create(f->dev, &od, NULL, &op), DMLVK_OK);
    dmlvk_buffer *buf;
    assert_int_equal(dmlvk_buffer_create(f->dev, 64, &buf), DMLVK_OK);

    dmlvk_binding b[3] = {
        { .buffer = buf, .offset = 0, .size = 16 },
        { .buffer = buf, .offset = 16, .size = 16 },
        { .buffer = buf, .offset = 32, .size = 16 },
    };
    assert_int_equal(dmlvk_operator_execute(op, b, 2), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "count is 2; the operator takes 3 bindings"));
    assert_int_equal(dmlvk_operator_execute(op, NULL, 3), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "bindings is NULL"));
    b[2].offset = 8; /* the output overlaps the second input */
    assert_int_equal(dmlvk_operator_execute(op, b, 3), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "overlaps"));
    b[2].offset = 50; /* runs past the end */
    assert_int_equal(dmlvk_operator_execute(op, b, 3), DMLVK_ERROR_INVALID_ARGUMENT);
    b[2].offset = 34; /* not a multiple of 4 */
    assert_int_equal(dmlvk_operator_execute(op, b, 3), DMLVK_ERROR_INVALID_ARGUMENT);
    b[2].offset = 32;
    b[2].size = 12; /* smaller than TotalTensorSizeInBytes */
    assert_int_equal(dmlvk_operator_execute(op, b, 3), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "the tensor takes 16"));
    b[2].size = VK_WHOLE_SIZE;
    b[1].buffer = NULL;
    assert_int_equal(dmlvk_operator_execute(op, b, 3), DMLVK_ERROR_INVALID_ARGUMENT);
    assert_non_null(strstr(dmlvk_last_error(), "InputGradientTensor"));
    b[1].buffer = buf;

    float in[12] = { -1, 2, NAN, 0, 10, 20, 30, 40, -7, -7, -7, -7 }, out[4];
    assert_int_equal(dmlvk_buffer_write(buf, 0, in, sizeof(in)), DMLVK_OK);
    assert_int_equal(dmlvk_operator_execute(op, b, 3), DMLVK_OK);
    assert_int_equal(dmlvk_buffer_read(buf, 32, out, sizeof(out)), DMLVK_OK);
    assert_true(out[0] == 0 && out[1] == 20 && out[2] == 0 && out[3] == 0);
    assert_int_equal(dmlvk_buffer_read(buf, 60, out, 8), DMLVK_ERROR_INVALID_ARGUMENT);

    dmlvk_diagnostics diag = { .gpu_ms = -2, .counter_count = 99 };
    assert_int_equal(dmlvk_operator_execute_diagnosed(op, b, 3, &diag), DMLVK_OK);
    assert_true(diag.gpu_ms >= 0 && diag.gpu_ms < 10000);
    assert_int_equal(diag.counter_count, 0);
    assert_int_equal(dmlvk_operator_execute_diagnosed(op, b, 3, NULL), DMLVK_ERROR_INVALID_ARGUMENT);

    dmlvk_operator_properties props;
    assert_int_equal(dmlvk_operator_get_properties(op, &props), DMLVK_OK);
    assert_int_equal(props.binding_count, 3);
    assert_int_equal(props.dispatch_count, 1);
    dmlvk_buffer_destroy(buf);
    dmlvk_operator_destroy(op);
}

/* A command buffer of the caller's own, as a host would hand to dmlvk_operator_record. */
struct recording {
    VkCommandPool pool;
    VkCommandBuffer cmd;
};

static void recording_begin(dmlvk_device *dev, struct recording *r)
{
    VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = dev->queue_family };
    assert_int_equal(dev->vk.vkCreateCommandPool(dev->device, &pci, NULL, &r->pool), VK_SUCCESS);
    VkCommandBufferAllocateInfo cai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = r->pool,
                                        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
    assert_int_equal(dev->vk.vkAllocateCommandBuffers(dev->device, &cai, &r->cmd), VK_SUCCESS);
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    dev->vk.vkBeginCommandBuffer(r->cmd, &bi);
}

/* Ends, submits and waits for the command buffer, then frees it. */
static void recording_run(dmlvk_device *dev, struct recording *r)
{
    dev->vk.vkEndCommandBuffer(r->cmd);
    VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &r->cmd };
    assert_int_equal(dev->vk.vkQueueSubmit(dev->queue, 1, &si, VK_NULL_HANDLE), VK_SUCCESS);
    dev->vk.vkQueueWaitIdle(dev->queue);
    dev->vk.vkDestroyCommandPool(dev->device, r->pool, NULL);
}

/* Two operators recorded into one command buffer the caller owns, ordered by the caller's barrier. */
static void test_record(void **state)
{
    struct device_fixture *f = *state;
    dmlvk_device *dev = f->dev;
    dmlvk_tensor_desc x = f32x4(), y = f32x4(), dy = f32x4(), dx = f32x4();
    dmlvk_activation_relu_operator_desc fwd = { &x, &y };
    dmlvk_activation_relu_grad_operator_desc bwd = { &y, &dy, &dx };
    dmlvk_operator *op_fwd, *op_bwd;
    assert_int_equal(test_operator_create(dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_ACTIVATION_RELU, &fwd }, NULL, &op_fwd), DMLVK_OK);
    assert_int_equal(test_operator_create(dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_ACTIVATION_RELU_GRAD, &bwd }, NULL, &op_bwd), DMLVK_OK);
    dmlvk_buffer *bx, *by, *bdy, *bdx;
    assert_int_equal(dmlvk_buffer_create(dev, 16, &bx), DMLVK_OK);
    assert_int_equal(dmlvk_buffer_create(dev, 16, &by), DMLVK_OK);
    assert_int_equal(dmlvk_buffer_create(dev, 16, &bdy), DMLVK_OK);
    assert_int_equal(dmlvk_buffer_create(dev, 16, &bdx), DMLVK_OK);
    float xs[4] = { -1, 1, -2, 2 }, dys[4] = { 5, 6, 7, 8 }, out[4];
    dmlvk_buffer_write(bx, 0, xs, 16);
    dmlvk_buffer_write(bdy, 0, dys, 16);

    struct recording rec;
    recording_begin(dev, &rec);
    VkCommandBuffer cmd = rec.cmd;
    dmlvk_binding bf[2] = { { .buffer = bx, .size = VK_WHOLE_SIZE }, { .buffer = by, .size = VK_WHOLE_SIZE } };
    /* y through a wrapper of its VkBuffer, as a host's buffer would come. */
    VkBuffer vy;
    dmlvk_buffer *wy;
    dmlvk_buffer_get_vk(by, &vy, NULL);
    assert_int_equal(dmlvk_buffer_wrap(dev, vy, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, &wy),
                     DMLVK_OK);
    dmlvk_binding bb[3] = { { .buffer = wy, .size = 16 }, { .buffer = bdy, .size = 16 }, { .buffer = bdx, .size = 16 } };
    assert_int_equal(dmlvk_record_barrier(dev, cmd, DMLVK_BARRIER_BEFORE, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                          VK_ACCESS_TRANSFER_WRITE_BIT), DMLVK_OK);
    assert_int_equal(dmlvk_operator_record(op_fwd, cmd, bf, 2), DMLVK_OK);
    assert_int_equal(dmlvk_record_barrier(dev, cmd, DMLVK_BARRIER_AFTER, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                          VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT), DMLVK_OK);
    assert_int_equal(dmlvk_operator_record(op_bwd, cmd, bb, 3), DMLVK_OK);
    assert_int_equal(dmlvk_record_barrier(dev, cmd, DMLVK_BARRIER_AFTER, VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                                          VK_ACCESS_HOST_READ_BIT | VK_ACCESS_TRANSFER_READ_BIT), DMLVK_OK);
    assert_int_equal(dmlvk_record_barrier(dev, cmd, 2, VK_PIPELINE_STAGE_HOST_BIT, 0), DMLVK_ERROR_INVALID_ARGUMENT);
    recording_run(dev, &rec);
    assert_int_equal(dmlvk_buffer_read(bdx, 0, out, 16), DMLVK_OK);
    assert_true(out[0] == 0 && out[1] == 6 && out[2] == 0 && out[3] == 8);
    /* The wrapper goes first and leaves the VkBuffer to its owner. */
    assert_int_equal(dmlvk_buffer_destroy(wy), DMLVK_OK);
    assert_int_equal(dmlvk_buffer_read(by, 0, out, 16), DMLVK_OK);
    dmlvk_buffer_destroy(bx);
    dmlvk_buffer_destroy(by);
    dmlvk_buffer_destroy(bdy);
    dmlvk_buffer_destroy(bdx);
    dmlvk_operator_destroy(op_fwd);
    dmlvk_operator_destroy(op_bwd);
}

/* A dispatch with an aligned form (a resample backward gather, BENCHMARKS.md notes 140 and 141)
 * recorded twice into one command buffer, its tensors on 16 bytes and then 4 bytes off them: the
 * record that needs the unaligned form compiles it, and both give the same bits. */
static void test_record_unaligned(void **state)
{
    struct device_fixture *f = *state;
    dmlvk_device *dev = f->dev;
    struct aligned_form_grad g;
    aligned_form_grad_init(&g);
    dmlvk_device_stats before, after;
    dmlvk_device_get_stats(dev, &before);
    dmlvk_operator *op;
    assert_int_equal(test_operator_create(dev, &g.desc, NULL, &op), DMLVK_OK);
    static float dy[ALIGNED_FORM_DY_ELEMENTS], dx[2][ALIGNED_FORM_DX_ELEMENTS];
    double dy_sum = 0;
    for (int i = 0; i < ALIGNED_FORM_DY_ELEMENTS; i++)
        dy_sum += dy[i] = aligned_form_dy(i);
    dmlvk_buffer *src[2], *dst[2];
    dmlvk_binding b[2][2];
    struct recording rec;
    recording_begin(dev, &rec);
    assert_int_equal(dmlvk_record_barrier(dev, rec.cmd, DMLVK_BARRIER_BEFORE, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                          VK_ACCESS_TRANSFER_WRITE_BIT), DMLVK_OK);
    for (int k = 0; k < 2; k++) {
        const uint64_t offset = 4 * (uint64_t)k;
        assert_int_equal(dmlvk_buffer_create(dev, offset + sizeof(dy), &src[k]), DMLVK_OK);
        assert_int_equal(dmlvk_buffer_create(dev, offset + sizeof(dx[k]), &dst[k]), DMLVK_OK);
        assert_int_equal(dmlvk_buffer_write(src[k], offset, dy, sizeof(dy)), DMLVK_OK);
        b[k][0] = (dmlvk_binding){ .buffer = src[k], .offset = offset, .size = sizeof(dy) };
        b[k][1] = (dmlvk_binding){ .buffer = dst[k], .offset = offset, .size = sizeof(dx[k]) };
        assert_int_equal(dmlvk_operator_record(op, rec.cmd, b[k], 2), DMLVK_OK);
    }
    assert_int_equal(dmlvk_record_barrier(dev, rec.cmd, DMLVK_BARRIER_AFTER, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                          VK_ACCESS_TRANSFER_READ_BIT), DMLVK_OK);
    recording_run(dev, &rec);
    dmlvk_device_get_stats(dev, &after);
    if (after.pipelines_compiled - before.pipelines_compiled != 2)
        fail_msg("%llu pipelines compiled, where the operator's and its unaligned form were due",
                 (unsigned long long)(after.pipelines_compiled - before.pipelines_compiled));
    double dx_sum = 0;
    for (int k = 0; k < 2; k++) {
        assert_int_equal(dmlvk_buffer_read(dst[k], 4 * (uint64_t)k, dx[k], sizeof(dx[k])), DMLVK_OK);
        dmlvk_buffer_destroy(src[k]);
        dmlvk_buffer_destroy(dst[k]);
    }
    if (memcmp(dx[0], dx[1], sizeof(dx[0])))
        fail_msg("recorded 4 bytes off alignment, other bits than on 16 bytes");
    /* Each element of dy spreads weights that sum to 1 over dx. */
    for (int i = 0; i < ALIGNED_FORM_DX_ELEMENTS; i++)
        dx_sum += dx[0][i];
    if (fabs(dx_sum - dy_sum) > 1e-3 * (1 + fabs(dy_sum)))
        fail_msg("dx sums to %g, dy to %g", dx_sum, dy_sum);
    dmlvk_operator_destroy(op);
}

static void test_reflection(void **state)
{
    (void)state;
    dmlvk_operator_type type;
    const dmlvk_operator_info *info;
    assert_int_equal(dmlvk_operator_type_from_name("ACTIVATION_RELU_GRAD", &type), DMLVK_OK);
    assert_int_equal(type, DMLVK_OPERATOR_ACTIVATION_RELU_GRAD);
    assert_int_equal(dmlvk_operator_get_info(type, &info), DMLVK_OK);
    assert_int_equal(info->tensor_count, 3);
    assert_string_equal(info->fields[2].name, "OutputGradientTensor");
    assert_int_equal(dmlvk_operator_type_from_name("NOPE", &type), DMLVK_ERROR_INVALID_ARGUMENT);
    /* Every operator's tensor_count (the binding count) is the number of its tensor fields. */
    for (int t = DMLVK_OPERATOR_ACTIVATION_RELU; t <= DMLVK_OPERATOR_ROI_ALIGN_GRAD; t++) {
        assert_int_equal(dmlvk_operator_get_info((dmlvk_operator_type)t, &info), DMLVK_OK);
        uint32_t tensors = 0;
        for (uint32_t f = 0; f < info->field_count; f++)
            tensors += info->fields[f].kind == DMLVK_FIELD_INPUT_TENSOR || info->fields[f].kind == DMLVK_FIELD_OUTPUT_TENSOR;
        assert_int_equal(info->tensor_count, tensors);
    }
    uint32_t v;
    assert_int_equal(dmlvk_enum_from_name(DMLVK_ENUM_REDUCE_FUNCTION, "MAX", &v), DMLVK_OK);
    assert_int_equal(v, 7);
    assert_int_equal(dmlvk_enum_from_name(DMLVK_ENUM_AXIS_DIRECTION, "LINEAR", &v), DMLVK_ERROR_INVALID_ARGUMENT);
}

/* Tensors larger than maxStorageBufferRange (128 MiB on lavapipe) work: shaders reach them through
 * buffer device addresses, not descriptors. */
static void test_beyond_storage_buffer_range(void **state)
{
    struct device_fixture *f = *state;
    dmlvk_device_info info;
    dmlvk_device_get_info(f->dev, &info);
    const uint32_t n = 40u << 20; /* 160 MiB of float32 */
    if ((uint64_t)n * 4 <= info.max_storage_buffer_range)
        skip();
    const uint32_t sizes[] = { n };
    dmlvk_tensor_desc t = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 1, .Sizes = sizes,
                            .TotalTensorSizeInBytes = (uint64_t)n * 4 };
    dmlvk_activation_relu_grad_operator_desc d = { &t, &t, &t };
    dmlvk_operator *op;
    assert_int_equal(test_operator_create(f->dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_ACTIVATION_RELU_GRAD, &d }, NULL, &op),
                     DMLVK_OK);
    float *x = malloc((size_t)n * 4), *dy = malloc((size_t)n * 4), *dx = malloc((size_t)n * 4);
    for (uint32_t i = 0; i < n; i++) {
        x[i] = (i % 3 == 0) ? -1.0f : 1.0f;
        dy[i] = (float)(i & 1023);
    }
    dmlvk_buffer *bx, *bdy, *bdx;
    assert_int_equal(dmlvk_buffer_create(f->dev, (uint64_t)n * 4, &bx), DMLVK_OK);
    assert_int_equal(dmlvk_buffer_create(f->dev, (uint64_t)n * 4, &bdy), DMLVK_OK);
    assert_int_equal(dmlvk_buffer_create(f->dev, (uint64_t)n * 4, &bdx), DMLVK_OK);
    dmlvk_buffer_write(bx, 0, x, (uint64_t)n * 4);
    dmlvk_buffer_write(bdy, 0, dy, (uint64_t)n * 4);
    dmlvk_binding b[3] = { { .buffer = bx, .size = VK_WHOLE_SIZE }, { .buffer = bdy, .size = VK_WHOLE_SIZE },
                           { .buffer = bdx, .size = VK_WHOLE_SIZE } };
    assert_int_equal(dmlvk_operator_execute(op, b, 3), DMLVK_OK);
    assert_int_equal(dmlvk_buffer_read(bdx, 0, dx, (uint64_t)n * 4), DMLVK_OK);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n; i++)
        bad += dx[i] != (x[i] > 0 ? dy[i] : 0.0f);
    assert_int_equal(bad, 0);
    dmlvk_buffer_destroy(bx);
    dmlvk_buffer_destroy(bdy);
    dmlvk_buffer_destroy(bdx);
    dmlvk_operator_destroy(op);
    free(x);
    free(dy);
    free(dx);
}

/* The validation layer's messages really reach the counter that every test checks. */
static void test_validation_is_on(void **state)
{
    (void)state;
    const char *v = getenv("DMLVK_TEST_VALIDATION");
    if (v && v[0] == '0')
        skip();
    dmlvk_device *dev = test_device(NULL);
    VkBufferCreateInfo bci = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 0,
                               .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT };
    VkBuffer b = VK_NULL_HANDLE;
    fprintf(stderr, "(a validation error about a buffer of size 0 is expected next)\n");
    if (dev->vk.vkCreateBuffer(dev->device, &bci, NULL, &b) == VK_SUCCESS && b)
        dev->vk.vkDestroyBuffer(dev->device, b, NULL);
    dmlvk_device_stats s;
    dmlvk_device_get_stats(dev, &s);
    assert_true(s.validation_messages > 0);
    dmlvk_device_destroy(dev);
}

/* Element bits of `type` as float (16-bit types widen exactly). */
static float element_value(dmlvk_tensor_data_type type, const void *base, uint32_t i)
{
    if (type == DMLVK_TENSOR_DATA_TYPE_FLOAT32)
        return ((const float *)base)[i];
    uint16_t h = ((const uint16_t *)base)[i];
    return type == DMLVK_TENSOR_DATA_TYPE_FLOAT16 ? half_to_float(h) : bfloat16_to_float(h);
}

/* ReLU and ReLU grad over packed tensors take 16 bytes per access where all are aligned to that,
 * element by element where not, and the tail past the last whole access element by element:
 * every count around an access's size, bound at every 4-byte offset, against the exact answers
 * (x where x > 0, else +0; dy where x > 0, else +0; NaN in x gives +0). */
static void test_relu_alignment_and_tails(void **state)
{
    struct device_fixture *f = *state;
    dmlvk_device_info info;
    dmlvk_device_get_info(f->dev, &info);
    static const dmlvk_tensor_data_type types[] = { DMLVK_TENSOR_DATA_TYPE_FLOAT32, DMLVK_TENSOR_DATA_TYPE_FLOAT16,
                                                    DMLVK_TENSOR_DATA_TYPE_BFLOAT16 };
    static const uint32_t counts[] = { 1, 3, 4, 7, 8, 9, 15, 16, 17, 1029 };
    uint64_t rng = 104;
    for (uint32_t t = 0; t < 3; t++) {
        dmlvk_tensor_data_type type = types[t];
        if (type != DMLVK_TENSOR_DATA_TYPE_FLOAT32 && !info.float16)
            continue;
        const uint32_t size = type == DMLVK_TENSOR_DATA_TYPE_FLOAT32 ? 4 : 2;
        for (uint32_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
            const uint32_t n = counts[c];
            dmlvk_tensor_desc d = packed_desc(type, 1, &n);
            uint8_t *x = calloc(1, d.TotalTensorSizeInBytes), *dy = calloc(1, d.TotalTensorSizeInBytes);
            uint8_t *out = calloc(1, d.TotalTensorSizeInBytes), *grad = calloc(1, d.TotalTensorSizeInBytes);
            for (uint32_t i = 0; i < n; i++) {
                uint64_t r = splitmix64_next(&rng);
                /* Random bits in x and dy (NaN with any payload, Inf, subnormals; +-0 often in
                 * x): both operators pass values bit for bit. */
                bool zero = r % 7 == 0, negative = (r & 8) != 0;
                if (size == 4) {
                    uint32_t xb = zero ? (negative ? 0x80000000u : 0u) : (uint32_t)(r >> 32), gb = (uint32_t)r;
                    memcpy(x + 4 * i, &xb, 4);
                    memcpy(dy + 4 * i, &gb, 4);
                } else {
                    uint16_t xb = zero ? (uint16_t)(negative ? 0x8000u : 0u) : (uint16_t)(r >> 48), gb = (uint16_t)(r >> 8);
                    memcpy(x + 2 * i, &xb, 2);
                    memcpy(dy + 2 * i, &gb, 2);
                }
            }
            for (uint64_t offset = 0; offset < 16; offset += 4) {
                memset(out, 0xa5, d.TotalTensorSizeInBytes);
                memcpy(grad, out, d.TotalTensorSizeInBytes);
                dmlvk_activation_relu_operator_desc fwd = { &d, &d };
                const dmlvk_tensor_desc *fd[2] = { &d, &d };
                void *fv[2] = { x, out };
                assert_int_equal(gpu_run_at(f->dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_ACTIVATION_RELU, &fwd }, NULL, fd,
                                            fv, 2, offset),
                                 DMLVK_OK);
                dmlvk_activation_relu_grad_operator_desc bwd = { &d, &d, &d };
                const dmlvk_tensor_desc *bd[3] = { &d, &d, &d };
                uint8_t *x_copy = malloc(d.TotalTensorSizeInBytes), *dy_copy = malloc(d.TotalTensorSizeInBytes);
                memcpy(x_copy, x, d.TotalTensorSizeInBytes);
                memcpy(dy_copy, dy, d.TotalTensorSizeInBytes);
                void *bv[3] = { x_copy, dy_copy, grad };
                assert_int_equal(gpu_run_at(f->dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_ACTIVATION_RELU_GRAD, &bwd }, NULL,
                                            bd, bv, 3, offset),
                                 DMLVK_OK);
                for (uint32_t i = 0; i < n; i++) {
                    bool positive = element_value(type, x, i) > 0.0f;
                    const uint8_t zero[4] = { 0 };
                    if (memcmp(out + size * i, positive ? x + size * i : zero, size) ||
                        memcmp(grad + size * i, positive ? dy + size * i : zero, size))
                        fail_msg("type %u, %u elements at offset %u: element %u differs", t, n, (unsigned)offset, i);
                }
                free(x_copy);
                free(dy_copy);
            }
            free(x);
            free(dy);
            free(out);
            free(grad);
        }
    }
}

/* Strides that lay 4-D `sizes` out packed in the axis order `order` (outermost first), each row
 * of the innermost axis padded by `pad` elements. */
static void permuted_strides(const uint32_t *sizes, const uint32_t *order, uint32_t pad, uint32_t *strides)
{
    uint32_t stride = 1;
    for (uint32_t k = 4; k-- > 0;) {
        strides[order[k]] = stride;
        stride = stride * sizes[order[k]] + (k == 3 ? pad : 0);
    }
}

/* The offset of element e (row-major over 4-D `sizes`) under `strides`. */
static uint64_t strided_offset(const uint32_t *sizes, const uint32_t *strides, uint32_t e)
{
    uint64_t at = 0;
    for (uint32_t d = 4; d-- > 0; e /= sizes[d])
        at += (uint64_t)(e % sizes[d]) * strides[d];
    return at;
}

/* ReLU and ReLU grad where every tensor has the same permutation of packed strides (channels-last
 * and others: the planner runs them as one contiguous axis), where the layouts differ, where rows
 * are padded and where an input broadcasts, every type, bit for bit against the exact answers:
 * each element is read and written at its own place whatever order the axes run in. */
static void test_relu_layouts(void **state)
{
    struct device_fixture *f = *state;
    dmlvk_device_info info;
    dmlvk_device_get_info(f->dev, &info);
    static const dmlvk_tensor_data_type types[] = { DMLVK_TENSOR_DATA_TYPE_FLOAT32, DMLVK_TENSOR_DATA_TYPE_FLOAT16,
                                                    DMLVK_TENSOR_DATA_TYPE_BFLOAT16 };
    static const uint32_t sizes[4] = { 2, 5, 3, 7 };
    static const uint32_t nchw[4] = { 0, 1, 2, 3 }, nhwc[4] = { 0, 2, 3, 1 }, other[4] = { 3, 1, 0, 2 };
    /* x, dy, the written tensor: order, padding; a NULL order broadcasts x along axes 1 and 3. */
    static const struct {
        const uint32_t *order[3];
        uint32_t pad[3];
    } layouts[] = {
        { { nhwc, nhwc, nhwc }, { 0, 0, 0 } },  { { other, other, other }, { 0, 0, 0 } },
        { { nchw, nhwc, other }, { 0, 0, 0 } }, { { nhwc, nhwc, nhwc }, { 1, 0, 3 } },
        { { NULL, nhwc, nhwc }, { 0, 0, 0 } },
    };
    const uint32_t elements = sizes[0] * sizes[1] * sizes[2] * sizes[3];
    uint64_t rng = 105;
    for (uint32_t t = 0; t < 3; t++) {
        dmlvk_tensor_data_type type = types[t];
        if (type != DMLVK_TENSOR_DATA_TYPE_FLOAT32 && !info.float16)
            continue;
        const uint32_t size = dmlvk_data_type_size(type);
        for (uint32_t l = 0; l < sizeof(layouts) / sizeof(layouts[0]); l++) {
            uint32_t strides[3][4];
            dmlvk_tensor_desc d[3];
            uint8_t *v[3], *want[2];
            for (uint32_t k = 0; k < 3; k++) {
                if (layouts[l].order[k]) {
                    permuted_strides(sizes, layouts[l].order[k], layouts[l].pad[k], strides[k]);
                } else {
                    permuted_strides(sizes, nchw, 0, strides[k]);
                    strides[k][1] = strides[k][3] = 0;
                }
                d[k] = (dmlvk_tensor_desc){ .DataType = type, .DimensionCount = 4, .Sizes = sizes, .Strides = strides[k] };
                assert_int_equal(dmlvk_tensor_min_size(&d[k], &d[k].TotalTensorSizeInBytes), DMLVK_OK);
                v[k] = malloc(d[k].TotalTensorSizeInBytes);
                for (uint64_t b = 0; b < d[k].TotalTensorSizeInBytes; b++)
                    v[k][b] = (uint8_t)splitmix64_next(&rng); /* Inf, subnormals, NaN with any payload */
            }
            want[0] = calloc(elements, size);
            want[1] = calloc(elements, size);
            for (uint32_t e = 0; e < elements; e++) {
                uint64_t x_at = strided_offset(sizes, strides[0], e), dy_at = strided_offset(sizes, strides[1], e);
                if (element_value(type, v[0], (uint32_t)x_at) > 0.0f) {
                    memcpy(want[0] + (size_t)e * size, v[0] + x_at * size, size);
                    memcpy(want[1] + (size_t)e * size, v[1] + dy_at * size, size);
                }
            }
            for (int grad = 0; grad < 2; grad++) {
                uint8_t *out = calloc(1, d[2].TotalTensorSizeInBytes);
                dmlvk_activation_relu_operator_desc fwd = { &d[0], &d[2] };
                dmlvk_activation_relu_grad_operator_desc bwd = { &d[0], &d[1], &d[2] };
                const dmlvk_tensor_desc *fd[2] = { &d[0], &d[2] }, *bd[3] = { &d[0], &d[1], &d[2] };
                void *fv[2] = { v[0], out }, *bv[3] = { v[0], v[1], out };
                dmlvk_operator_desc od = grad ? (dmlvk_operator_desc){ DMLVK_OPERATOR_ACTIVATION_RELU_GRAD, &bwd }
                                              : (dmlvk_operator_desc){ DMLVK_OPERATOR_ACTIVATION_RELU, &fwd };
                assert_int_equal(gpu_run(f->dev, &od, NULL, grad ? bd : fd, grad ? bv : fv, grad ? 3u : 2u), DMLVK_OK);
                for (uint32_t e = 0; e < elements; e++)
                    if (memcmp(out + strided_offset(sizes, strides[2], e) * size, want[grad] + (size_t)e * size, size))
                        fail_msg("type %u, layout %u, %s: element %u differs", t, l, grad ? "grad" : "forward", e);
                free(out);
            }
            for (uint32_t k = 0; k < 3; k++)
                free(v[k]);
            free(want[0]);
            free(want[1]);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_descriptor_errors),
        cmocka_unit_test(test_binding_errors),
        cmocka_unit_test(test_record),
        cmocka_unit_test(test_reflection),
        cmocka_unit_test(test_beyond_storage_buffer_range),
        cmocka_unit_test(test_validation_is_on),
        cmocka_unit_test(test_relu_alignment_and_tails),
        cmocka_unit_test(test_relu_layouts),
        cmocka_unit_test(test_record_unaligned),
    };
    return test_run_group(tests, device_fixture_setup, device_fixture_teardown);
}
