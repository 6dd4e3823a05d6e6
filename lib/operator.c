#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define MAX_BINDINGS 8

struct dmlvk_operator {
    dmlvk_device *dev;
    const struct dmlvk_op_class *cls;
    struct dmlvk_op_plan plan;
    VkPipeline pipelines[DMLVK_MAX_DISPATCHES];
    dmlvk_buffer *params;
    dmlvk_buffer *scratch;
    dmlvk_buffer *counter;
    uint64_t tensor_bytes[MAX_BINDINGS];   /* 0: tensor absent */
    bool tensor_output[MAX_BINDINGS];
    const char *tensor_name[MAX_BINDINGS];
};

dmlvk_status dmlvk_plan_groups(const struct dmlvk_op_context *ctx, uint64_t invocations, uint32_t groups[3])
{
    uint64_t n = (invocations + ctx->workgroup_size - 1) / ctx->workgroup_size;
    if (n == 0)
        n = 1;
    groups[0] = (uint32_t)(n < ctx->max_groups[0] ? n : ctx->max_groups[0]);
    uint64_t rest = (n + groups[0] - 1) / groups[0];
    groups[1] = (uint32_t)(rest < ctx->max_groups[1] ? rest : ctx->max_groups[1]);
    rest = (rest + groups[1] - 1) / groups[1];
    if (rest > ctx->max_groups[2])
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "%s: %llu invocations exceed the device's workgroup count limits",
                           ctx->op_name, (unsigned long long)invocations);
    groups[2] = (uint32_t)rest;
    return DMLVK_OK;
}

struct dmlvk_dispatch_plan *dmlvk_plan_add_dispatch(struct dmlvk_op_plan *plan, const struct dmlvk_op_context *ctx,
                                                    const char *shader, uint64_t invocations)
{
    if (plan->dispatch_count >= DMLVK_MAX_DISPATCHES)
        return NULL;
    struct dmlvk_dispatch_plan *d = &plan->dispatches[plan->dispatch_count++];
    memset(d, 0, sizeof(*d));
    d->shader = shader;
    d->spec[0] = ctx->workgroup_size;
    d->spec_count = 1;
    if (dmlvk_plan_groups(ctx, invocations, d->groups) != DMLVK_OK)
        return NULL;
    return d;
}

uint32_t dmlvk_params_reserve(struct dmlvk_op_plan *plan, uint32_t n)
{
    if (plan->params_failed || n > UINT32_MAX / 2 - plan->params_size) {
        plan->params_failed = true;
        return UINT32_MAX;
    }
    uint32_t need = plan->params_size + n;
    if (need > plan->params_capacity) {
        uint32_t cap = plan->params_capacity ? plan->params_capacity : 64;
        while (cap < need)
            cap *= 2;
        uint32_t *grown = realloc(plan->params, (size_t)cap * 4);
        if (!grown) {
            plan->params_failed = true;
            return UINT32_MAX;
        }
        plan->params = grown;
        plan->params_capacity = cap;
    }
    uint32_t first = plan->params_size;
    memset(plan->params + first, 0, (size_t)n * 4);
    plan->params_size = need;
    return first;
}

void dmlvk_params_u32(struct dmlvk_op_plan *plan, uint32_t v)
{
    uint32_t at = dmlvk_params_reserve(plan, 1);
    if (at != UINT32_MAX)
        plan->params[at] = v;
}

void dmlvk_params_f32(struct dmlvk_op_plan *plan, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    dmlvk_params_u32(plan, u);
}

static dmlvk_status check_fields(const struct dmlvk_op_class *cls, const void *desc, dmlvk_operator *op)
{
    const dmlvk_operator_info *info = &cls->info;
    uint32_t b = 0;
    for (uint32_t i = 0; i < info->field_count; i++) {
        const dmlvk_field_info *f = &info->fields[i];
        if (f->kind != DMLVK_FIELD_INPUT_TENSOR && f->kind != DMLVK_FIELD_OUTPUT_TENSOR)
            continue;
        const dmlvk_tensor_desc *t;
        memcpy(&t, (const char *)desc + f->offset, sizeof(t));
        if (!t && !f->optional)
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s: required tensor is missing", info->name, f->name);
        op->tensor_bytes[b] = t ? t->TotalTensorSizeInBytes : 0;
        op->tensor_output[b] = f->kind == DMLVK_FIELD_OUTPUT_TENSOR;
        op->tensor_name[b] = f->name;
        b++;
    }
    return DMLVK_OK;
}

dmlvk_status dmlvk_operator_create(dmlvk_device *dev, const dmlvk_operator_desc *desc,
                                   const dmlvk_operator_params *params_in, dmlvk_operator **out)
{
    if (!dev || !desc || !out)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_create: NULL argument");
    *out = NULL;
    const struct dmlvk_op_class *cls = dmlvk_find_op_class(desc->Type);
    if (!cls)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_create: Type %d is not an operator dmlvk implements",
                           (int)desc->Type);
    if (!desc->Desc)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: Desc is NULL", cls->info.name);
    dmlvk_operator_params params = params_in ? *params_in : (dmlvk_operator_params){ 0 };
    uint32_t wg = params.workgroup_size ? params.workgroup_size : 256;
    if (wg > dev->props.limits.maxComputeWorkGroupInvocations || wg > dev->props.limits.maxComputeWorkGroupSize[0])
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: workgroup_size %u exceeds the device's limit", cls->info.name, wg);

    dmlvk_operator *op = dmlvk_calloc(dev, 1, sizeof(*op));
    if (!op)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "out of host memory creating an operator");
    op->dev = dev;
    op->cls = cls;
    dmlvk_status st = check_fields(cls, desc->Desc, op);
    if (st != DMLVK_OK)
        goto fail;
    struct dmlvk_op_context ctx = {
        .op_name = cls->info.name,
        .float16 = dev->float16,
        .float32_atomic_add = dev->float32_atomic_add && !params.force_cas_atomics,
        .int64_atomics = dev->int64_atomics,
        .workgroup_size = wg,
        .max_groups = { dev->props.limits.maxComputeWorkGroupCount[0], dev->props.limits.maxComputeWorkGroupCount[1],
                        dev->props.limits.maxComputeWorkGroupCount[2] },
        .params = &params,
    };
    if ((st = cls->plan(&ctx, desc->Desc, &op->plan)) != DMLVK_OK)
        goto fail;
    if (op->plan.params_failed) {
        st = dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the parameter block", cls->info.name);
        goto fail;
    }
    if ((st = dmlvk_check_float16(&ctx, op->plan.data_type)) != DMLVK_OK)
        goto fail;
    const char *type = op->plan.data_type != DMLVK_TENSOR_DATA_TYPE_FLOAT16 ? "f32"
                       : dev->float16_rte && !params.force_software_rounding ? "f16rte"
                                                                             : "f16";
    for (uint32_t i = 0; i < op->plan.dispatch_count; i++) {
        const struct dmlvk_dispatch_plan *d = &op->plan.dispatches[i];
        char variant[64];
        snprintf(variant, sizeof(variant), "%s%s%s", type, d->features ? "-" : "", d->features ? d->features : "");
        if ((st = dmlvk_pipeline_get(dev, d->shader, variant, d->spec, d->spec_count, &op->pipelines[i])) != DMLVK_OK)
            goto fail;
    }
    if (op->plan.params_size) {
        uint64_t bytes = (uint64_t)op->plan.params_size * 4;
        if ((st = dmlvk_buffer_create_internal(dev, bytes, true, &op->params)) != DMLVK_OK ||
            (st = dmlvk_buffer_write(op->params, 0, op->plan.params, bytes)) != DMLVK_OK)
            goto fail;
    }
    /* The block lives on the device now. */
    free(op->plan.params);
    op->plan.params = NULL;
    if (op->plan.scratch_bytes &&
        (st = dmlvk_buffer_create_internal(dev, op->plan.scratch_bytes, false, &op->scratch)) != DMLVK_OK)
        goto fail;
    if (op->plan.counter && (st = dmlvk_buffer_create_internal(dev, 4, true, &op->counter)) != DMLVK_OK)
        goto fail;
    *out = op;
    return DMLVK_OK;
fail:
    dmlvk_operator_destroy(op);
    return st;
}

dmlvk_status dmlvk_operator_destroy(dmlvk_operator *op)
{
    if (!op)
        return DMLVK_OK;
    /* Pipelines belong to the device's cache. */
    free(op->plan.params);
    dmlvk_buffer_destroy(op->params);
    dmlvk_buffer_destroy(op->scratch);
    dmlvk_buffer_destroy(op->counter);
    free(op);
    return DMLVK_OK;
}

dmlvk_status dmlvk_operator_get_properties(const dmlvk_operator *op, dmlvk_operator_properties *props)
{
    if (!op || !props)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_get_properties: NULL argument");
    props->binding_count = op->cls->info.tensor_count;
    props->dispatch_count = op->plan.dispatch_count;
    props->scratch_bytes = op->plan.scratch_bytes;
    return DMLVK_OK;
}

struct resolved {
    VkBuffer buffer[MAX_BINDINGS];
    uint64_t begin[MAX_BINDINGS], end[MAX_BINDINGS];
    VkDeviceAddress address[MAX_BINDINGS];
};

static dmlvk_status resolve(const dmlvk_operator *op, const dmlvk_binding *bindings, uint32_t count, struct resolved *r)
{
    const char *name = op->cls->info.name;
    const dmlvk_device *dev = op->dev;
    if (count != op->cls->info.tensor_count || (count && !bindings))
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %u bindings given, the operator has %u tensors", name, count,
                           op->cls->info.tensor_count);
    memset(r, 0, sizeof(*r));
    for (uint32_t i = 0; i < count; i++) {
        const dmlvk_binding *b = &bindings[i];
        const char *field = op->tensor_name[i];
        bool bound = b->buffer || b->vk_buffer;
        if (!op->tensor_bytes[i]) {
            if (bound)
                return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: binding %u (%s): the descriptor has no such tensor",
                                   name, i, field);
            continue;
        }
        if (!bound)
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: binding %u (%s): no buffer bound", name, i, field);
        if (b->offset % 4)
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: binding %u (%s): offset %llu is not a multiple of 4",
                               name, i, field, (unsigned long long)b->offset);
        uint64_t size = b->size;
        if (b->buffer) {
            if (b->buffer->device != dev)
                return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: binding %u (%s): buffer of another device", name, i,
                                   field);
            if (b->offset > b->buffer->size)
                return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: binding %u (%s): offset is past the buffer's end",
                                   name, i, field);
            if (size == VK_WHOLE_SIZE)
                size = b->buffer->size - b->offset;
            else if (size > b->buffer->size - b->offset)
                return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: binding %u (%s): range runs past the buffer's end",
                                   name, i, field);
            r->buffer[i] = b->buffer->buffer;
            r->address[i] = b->buffer->address + b->offset;
        } else {
            if (size == VK_WHOLE_SIZE)
                return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                                   "%s: binding %u (%s): a Vulkan buffer binding needs an explicit size", name, i, field);
            VkBufferDeviceAddressInfo ai = { .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = b->vk_buffer };
            r->buffer[i] = b->vk_buffer;
            r->address[i] = dev->vk.vkGetBufferDeviceAddress(dev->device, &ai) + b->offset;
        }
        if (size < op->tensor_bytes[i])
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                               "%s: binding %u (%s): %llu bytes bound, TotalTensorSizeInBytes is %llu", name, i, field,
                               (unsigned long long)size, (unsigned long long)op->tensor_bytes[i]);
        r->begin[i] = b->offset;
        r->end[i] = b->offset + op->tensor_bytes[i];
    }
    /* An output may not share memory with any other tensor of the call. */
    for (uint32_t i = 0; i < count; i++) {
        if (!op->tensor_output[i] || !r->buffer[i])
            continue;
        for (uint32_t j = 0; j < count; j++)
            if (j != i && r->buffer[j] == r->buffer[i] && r->begin[i] < r->end[j] && r->begin[j] < r->end[i])
                return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: binding %u (%s) overlaps binding %u (%s)", name, i,
                                   op->tensor_name[i], j, op->tensor_name[j]);
    }
    return DMLVK_OK;
}

static void record_resolved(const dmlvk_operator *op, VkCommandBuffer cmd, const struct resolved *r)
{
    const struct VolkDeviceTable *vk = &op->dev->vk;
    const VkMemoryBarrier between = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
    };
    for (uint32_t i = 0; i < op->plan.dispatch_count; i++) {
        const struct dmlvk_dispatch_plan *d = &op->plan.dispatches[i];
        if (i > 0)
            vk->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                     &between, 0, NULL, 0, NULL);
        VkDeviceAddress push[DMLVK_MAX_PUSH_ADDRESSES] = { 0 };
        for (uint32_t s = 0; s < d->slot_count; s++) {
            uint8_t slot = d->slots[s];
            if (slot == DMLVK_SLOT_PARAMS)
                push[s] = op->params->address;
            else if (slot == DMLVK_SLOT_SCRATCH)
                push[s] = op->scratch ? op->scratch->address : 0;
            else if (slot == DMLVK_SLOT_COUNTER)
                push[s] = op->counter ? op->counter->address : 0;
            else if (slot < MAX_BINDINGS)
                push[s] = r->address[slot];
        }
        vk->vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, op->pipelines[i]);
        vk->vkCmdPushConstants(cmd, op->dev->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8 * d->slot_count, push);
        vk->vkCmdDispatch(cmd, d->groups[0], d->groups[1], d->groups[2]);
    }
}

dmlvk_status dmlvk_operator_record(dmlvk_operator *op, VkCommandBuffer cmd, const dmlvk_binding *bindings,
                                   uint32_t count)
{
    if (!op || !cmd)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_record: NULL argument");
    struct resolved r;
    dmlvk_status st = resolve(op, bindings, count, &r);
    if (st == DMLVK_OK)
        record_resolved(op, cmd, &r);
    return st;
}

struct execute_args {
    const dmlvk_operator *op;
    const struct resolved *r;
    VkQueryPool timestamps;     /* or VK_NULL_HANDLE */
    bool reset_counter;
};

static dmlvk_status record_execute(VkCommandBuffer cmd, void *user)
{
    const struct execute_args *a = user;
    const struct VolkDeviceTable *vk = &a->op->dev->vk;
    if (a->reset_counter) {
        const VkMemoryBarrier cleared = {
            .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
            .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
            .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
        };
        vk->vkCmdFillBuffer(cmd, a->op->counter->buffer, 0, VK_WHOLE_SIZE, 0);
        vk->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &cleared,
                                 0, NULL, 0, NULL);
    }
    if (a->timestamps) {
        vk->vkCmdResetQueryPool(cmd, a->timestamps, 0, 2);
        vk->vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, a->timestamps, 0);
    }
    record_resolved(a->op, cmd, a->r);
    if (a->timestamps)
        vk->vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, a->timestamps, 1);
    return DMLVK_OK;
}

static dmlvk_status execute(dmlvk_operator *op, const dmlvk_binding *bindings, uint32_t count,
                            dmlvk_diagnostics *diag)
{
    if (!op)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_execute: op is NULL");
    struct resolved r;
    dmlvk_status st = resolve(op, bindings, count, &r);
    if (st != DMLVK_OK)
        return st;
    dmlvk_device *dev = op->dev;
    struct execute_args a = { op, &r, VK_NULL_HANDLE, diag && op->counter };
    if (diag && dev->timestamp_bits) {
        /* A pool per call: concurrent timed calls never share queries. */
        VkQueryPoolCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                      .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2 };
        VkResult vr = dev->vk.vkCreateQueryPool(dev->device, &qci, NULL, &a.timestamps);
        if (vr != VK_SUCCESS)
            return dmlvk_vk_error(vr, "vkCreateQueryPool");
    }
    st = dmlvk_device_submit(dev, record_execute, &a);
    if (st == DMLVK_OK && diag) {
        diag->gpu_ms = -1;
        diag->skipped_regions = 0;
        if (a.timestamps) {
            uint64_t ts[2];
            VkResult vr = dev->vk.vkGetQueryPoolResults(dev->device, a.timestamps, 0, 2, sizeof(ts), ts, 8,
                                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
            uint64_t mask = dev->timestamp_bits >= 64 ? UINT64_MAX : (UINT64_C(1) << dev->timestamp_bits) - 1;
            if (vr == VK_SUCCESS)
                diag->gpu_ms = (double)((ts[1] - ts[0]) & mask) * dev->props.limits.timestampPeriod * 1e-6;
            else
                st = dmlvk_vk_error(vr, "vkGetQueryPoolResults");
        }
        uint32_t skipped = 0;
        if (st == DMLVK_OK && op->counter && (st = dmlvk_buffer_read(op->counter, 0, &skipped, 4)) == DMLVK_OK)
            diag->skipped_regions = skipped;
    }
    if (a.timestamps)
        dev->vk.vkDestroyQueryPool(dev->device, a.timestamps, NULL);
    return st;
}

dmlvk_status dmlvk_operator_execute(dmlvk_operator *op, const dmlvk_binding *bindings, uint32_t count)
{
    return execute(op, bindings, count, NULL);
}

dmlvk_status dmlvk_operator_execute_diagnosed(dmlvk_operator *op, const dmlvk_binding *bindings, uint32_t count,
                                              dmlvk_diagnostics *diagnostics)
{
    if (!diagnostics)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_execute_diagnosed: diagnostics is NULL");
    return execute(op, bindings, count, diagnostics);
}
