#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "internal.h"

#define DEFAULT_WORKGROUP_SIZE 256

struct dmlvk_operator {
    dmlvk_device *dev;
    const struct dmlvk_op_class *cls;
    struct dmlvk_op_plan plan;
    VkPipeline pipelines[DMLVK_MAX_DISPATCHES];
    uint32_t variants[DMLVK_MAX_DISPATCHES];    /* for the unaligned forms (dmlvk_dispatch_aligned) */
    dmlvk_buffer *params;
    dmlvk_buffer *scratch;
    dmlvk_buffer *counters;             /* written by executions nobody diagnoses; never read */
    uint64_t tensor_bytes[DMLVK_MAX_BINDINGS];   /* 0: tensor absent */
    bool tensor_output[DMLVK_MAX_BINDINGS];
    const char *tensor_name[DMLVK_MAX_BINDINGS];
    bool alive;                         /* counted in the device's live_operators */
};

dmlvk_status dmlvk_plan_groups(const struct dmlvk_op_context *ctx, uint64_t invocations, uint32_t groups[3])
{
    uint64_t n = (invocations + ctx->workgroup_size - 1) / ctx->workgroup_size;
    if (n == 0)
        n = 1;
    /* As few rows (y, z) as the limits allow, then rows as even as they come: filling x to its
     * limit first left up to a whole row of workgroups with nothing to do (with a limit of 65535,
     * 131072 workgroups took 196605). */
    const uint64_t rows = (n + ctx->max_groups[0] - 1) / ctx->max_groups[0];
    const uint64_t layers = (rows + ctx->max_groups[1] - 1) / ctx->max_groups[1];
    if (layers > ctx->max_groups[2])
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "%s: %llu invocations exceed the device's workgroup count limits",
                           ctx->op_name, (unsigned long long)invocations);
    const uint64_t per_layer = (rows + layers - 1) / layers;
    groups[2] = (uint32_t)layers;
    groups[1] = (uint32_t)per_layer;
    groups[0] = (uint32_t)((n + per_layer * layers - 1) / (per_layer * layers));
    return DMLVK_OK;
}

struct dmlvk_dispatch_plan *dmlvk_plan_add_dispatch(struct dmlvk_op_plan *plan, const struct dmlvk_op_context *ctx,
                                                    enum dmlvk_shader shader, uint32_t push_slots,
                                                    uint64_t invocations)
{
    if (plan->dispatch_count >= DMLVK_MAX_DISPATCHES) {
        dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "%s: more than %d dispatches planned (DMLVK_MAX_DISPATCHES)", ctx->op_name,
                    DMLVK_MAX_DISPATCHES);
        return NULL;
    }
    struct dmlvk_dispatch_plan *d = &plan->dispatches[plan->dispatch_count];
    memset(d, 0, sizeof(*d));
    d->shader = shader;
    d->slot_count = push_slots;
    memset(d->slots, DMLVK_SLOT_UNSET, sizeof(d->slots));
    dmlvk_dispatch_spec(plan, d, DMLVK_SPEC_WORKGROUP_SIZE, ctx->workgroup_size);
    if (dmlvk_plan_groups(ctx, invocations, d->groups) != DMLVK_OK)
        return NULL;
    plan->dispatch_count++;
    return d;
}

void dmlvk_dispatch_spec(struct dmlvk_op_plan *plan, struct dmlvk_dispatch_plan *d, uint32_t id, uint32_t value)
{
    if (id >= DMLVK_MAX_SPEC_CONSTANTS) {
        plan->spec_error = "a specialization constant id is past DMLVK_MAX_SPEC_CONSTANTS";
        return;
    }
    d->spec[id] = value;
    d->spec_set |= UINT32_C(1) << id;
}

void dmlvk_dispatch_aligned(struct dmlvk_op_plan *plan, struct dmlvk_dispatch_plan *d, uint32_t id, uint32_t bindings)
{
    dmlvk_dispatch_spec(plan, d, id, 1);
    if (id >= DMLVK_MAX_SPEC_CONSTANTS) /* the plan carries the error: no operator is made */
        return;
    d->aligned_bindings = bindings;
    d->aligned_spec = id;
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
        uint32_t *grown = dmlvk_realloc(plan->dev, plan->params, (size_t)cap * 4);
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

uint32_t dmlvk_params_append(struct dmlvk_op_plan *plan, const void *data, size_t bytes)
{
    uint32_t at = bytes % 4 || bytes / 4 > UINT32_MAX ? UINT32_MAX : dmlvk_params_reserve(plan, (uint32_t)(bytes / 4));
    if (at != UINT32_MAX)
        memcpy(plan->params + at, data, bytes);
    else
        plan->params_failed = true;
    return at;
}

static dmlvk_status check_fields(const struct dmlvk_op_class *cls, const void *desc, dmlvk_operator *op)
{
    const dmlvk_operator_info *info = &cls->info;
    uint32_t b = 0;
    for (uint32_t i = 0; i < info->field_count; i++) {
        const dmlvk_field_info *f = &info->fields[i];
        if (f->kind != DMLVK_FIELD_INPUT_TENSOR && f->kind != DMLVK_FIELD_OUTPUT_TENSOR)
            continue;
        if (b >= DMLVK_MAX_BINDINGS || b >= info->tensor_count)
            return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "%s: more tensor fields than its tensor_count %u (at most %d)",
                               info->name, info->tensor_count, DMLVK_MAX_BINDINGS);
        const dmlvk_tensor_desc *t;
        memcpy(&t, (const char *)desc + f->offset, sizeof(t));
        if (!t && !f->optional)
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s: required tensor is missing", info->name, f->name);
        uint64_t bytes = t ? t->TotalTensorSizeInBytes : 0;
        /* 0 means the minimum; a shape too broken for one is the operator's validation to report. */
        if (t && !bytes && dmlvk_tensor_min_size(t, &bytes) != DMLVK_OK)
            bytes = 1;
        op->tensor_bytes[b] = bytes;
        op->tensor_output[b] = f->kind == DMLVK_FIELD_OUTPUT_TENSOR;
        op->tensor_name[b] = f->name;
        b++;
    }
    return DMLVK_OK;
}

/* Every push slot of every dispatch bound to something that exists: a module's omission is an
 * error at creation, not a null address on the GPU. */
static dmlvk_status check_plan(const struct dmlvk_op_class *cls, const struct dmlvk_op_plan *plan)
{
    if (plan->spec_error)
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "%s: %s", cls->info.name, plan->spec_error);
    for (uint32_t i = 0; i < plan->dispatch_count; i++) {
        const struct dmlvk_dispatch_plan *d = &plan->dispatches[i];
        if (d->slot_count > DMLVK_MAX_PUSH_ADDRESSES)
            return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "%s: dispatch %u has %u push slots (at most %d)", cls->info.name, i,
                               d->slot_count, DMLVK_MAX_PUSH_ADDRESSES);
        for (uint32_t s = 0; s < d->slot_count; s++) {
            uint8_t v = d->slots[s];
            bool ok = v < cls->info.tensor_count || v == DMLVK_SLOT_PARAMS || v == DMLVK_SLOT_SCRATCH ||
                      (v == DMLVK_SLOT_COUNTERS && cls->counter_count);
            if (!ok)
                return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "%s: dispatch %u: push slot %u is bound to nothing (0x%x)",
                                   cls->info.name, i, s, v);
        }
    }
    return DMLVK_OK;
}

/* What the test hooks may change (lib/debug.h); zero: the defaults. */
struct create_knobs {
    uint32_t workgroup_size;
    uint32_t resident_invocations;
    bool no_float_atomics, no_int64_atomics, no_subgroup_shuffle, no_float64, software_rounding;
};

static dmlvk_status create(dmlvk_device *dev, const dmlvk_operator_desc *desc, const dmlvk_operator_params *params_in,
                           const struct create_knobs *knobs, dmlvk_operator **out)
{
    if (!dev)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_create: device is NULL");
    if (!desc)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_create: desc is NULL");
    if (!out)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_create: op is NULL");
    *out = NULL;
    const struct dmlvk_op_class *cls = dmlvk_find_op_class(desc->Type);
    if (!cls)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_create: Type %d is not an operator dmlvk implements",
                           (int)desc->Type);
    if (!desc->Desc)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: Desc is NULL", cls->info.name);
    dmlvk_operator_params params = params_in ? *params_in : (dmlvk_operator_params){ 0 };
    if (!dmlvk_reserved_zero(params.reserved, DMLVK_ARRAY_SIZE(params.reserved)))
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                           "%s: dmlvk_operator_params.reserved is not zero (fields of a newer dmlvk?)", cls->info.name);
    const VkPhysicalDeviceLimits *limits = &dev->props.limits;
    uint32_t wg = knobs->workgroup_size;
    if (!wg) {
        /* Vulkan and the Android baseline profile guarantee 128 invocations, not the default's 256. */
        wg = DEFAULT_WORKGROUP_SIZE;
        while (wg > 128 && (wg > limits->maxComputeWorkGroupInvocations || wg > limits->maxComputeWorkGroupSize[0]))
            wg /= 2;
    }
    if (wg > limits->maxComputeWorkGroupInvocations || wg > limits->maxComputeWorkGroupSize[0])
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: workgroup_size %u exceeds the device's limit", cls->info.name, wg);

    dmlvk_operator *op = dmlvk_calloc(dev, 1, sizeof(*op));
    if (!op)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "out of host memory creating an operator");
    op->dev = dev;
    op->cls = cls;
    op->plan.dev = dev;
    dmlvk_status st = check_fields(cls, desc->Desc, op);
    if (st != DMLVK_OK)
        goto fail;
    struct dmlvk_op_context ctx = {
        .dev = dev,
        .op_name = cls->info.name,
        .float16 = dev->float16,
        .float32_atomic_add = dev->float32_atomic_add && !knobs->no_float_atomics,
        .int64_atomics = dev->int64_atomics && !knobs->no_int64_atomics,
        .subgroup_shuffle = dev->subgroup_shuffle && !knobs->no_subgroup_shuffle,
        .float64 = dev->float64 && !knobs->no_float64,
        .subgroup_size = dev->subgroup_size,
        .resident_invocations = knobs->resident_invocations ? knobs->resident_invocations : dev->resident_invocations,
        .deterministic = params.deterministic != 0,
        .workgroup_size = wg,
        .max_groups = { dev->props.limits.maxComputeWorkGroupCount[0], dev->props.limits.maxComputeWorkGroupCount[1],
                        dev->props.limits.maxComputeWorkGroupCount[2] },
        .max_shared_bytes = dev->props.limits.maxComputeSharedMemorySize,
    };
    if ((st = cls->plan(&ctx, desc->Desc, &op->plan)) != DMLVK_OK)
        goto fail;
    if (op->plan.params_failed) {
        st = dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the parameter block", cls->info.name);
        goto fail;
    }
    if ((st = check_plan(cls, &op->plan)) != DMLVK_OK || (st = dmlvk_check_float16(&ctx, op->plan.data_type)) != DMLVK_OK)
        goto fail;
    for (uint32_t i = 0; i < op->plan.dispatch_count; i++) {
        const struct dmlvk_dispatch_plan *d = &op->plan.dispatches[i];
        op->variants[i] = dmlvk_variant_select(dev, op->plan.data_type, d->features, knobs->software_rounding);
        if ((st = dmlvk_pipeline_get(dev->pipelines, d->shader, op->variants[i], d->spec, d->spec_set,
                                     &op->pipelines[i])) != DMLVK_OK)
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
    if (cls->counter_count &&
        (st = dmlvk_buffer_create_internal(dev, 4 * (uint64_t)cls->counter_count, false, &op->counters)) != DMLVK_OK)
        goto fail;
    op->alive = true;
    atomic_fetch_add(&dev->live_operators, 1);
    *out = op;
    return DMLVK_OK;
fail:
    dmlvk_operator_destroy(op);
    return st;
}

dmlvk_status dmlvk_operator_create(dmlvk_device *dev, const dmlvk_operator_desc *desc, const dmlvk_operator_params *params,
                                   dmlvk_operator **out)
{
    const struct create_knobs defaults = { 0 };
    return create(dev, desc, params, &defaults, out);
}

#ifdef DMLVK_TEST_HOOKS
dmlvk_status dmlvk_operator_create_debug(dmlvk_device *dev, const dmlvk_operator_desc *desc,
                                         const dmlvk_operator_params *params, const struct dmlvk_operator_debug *debug,
                                         dmlvk_operator **out)
{
    const struct dmlvk_operator_debug none = { 0 };
    if (!debug)
        debug = &none;
    const struct create_knobs knobs = {
        .workgroup_size = debug->workgroup_size,
        .resident_invocations = debug->resident_invocations,
        .no_float_atomics = debug->force_cas_atomics,
        .no_int64_atomics = debug->force_no_int64_atomics,
        .no_subgroup_shuffle = debug->force_no_subgroup_shuffle,
        .no_float64 = debug->force_no_float64,
        .software_rounding = debug->force_software_rounding,
    };
    return create(dev, desc, params, &knobs, out);
}

dmlvk_status dmlvk_debug_operator_spec(const dmlvk_operator *op, uint32_t dispatch, uint32_t id, uint32_t *value)
{
    if (!op || !value)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_debug_operator_spec: op or value is NULL");
    if (dispatch >= op->plan.dispatch_count)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_debug_operator_spec: %s has %u dispatches, not %u",
                           op->cls->info.name, op->plan.dispatch_count, dispatch + 1);
    if (id >= DMLVK_MAX_SPEC_CONSTANTS || !(op->plan.dispatches[dispatch].spec_set >> id & 1))
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                           "dmlvk_debug_operator_spec: %s: dispatch %u gives no specialization constant %u",
                           op->cls->info.name, dispatch, id);
    *value = op->plan.dispatches[dispatch].spec[id];
    return DMLVK_OK;
}

dmlvk_status dmlvk_debug_operator_shader(const dmlvk_operator *op, uint32_t dispatch, enum dmlvk_shader *shader)
{
    if (!op || !shader)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_debug_operator_shader: op or shader is NULL");
    if (dispatch >= op->plan.dispatch_count)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_debug_operator_shader: %s has %u dispatches, not %u",
                           op->cls->info.name, op->plan.dispatch_count, dispatch + 1);
    *shader = op->plan.dispatches[dispatch].shader;
    return DMLVK_OK;
}
#endif

dmlvk_status dmlvk_operator_destroy(dmlvk_operator *op)
{
    if (!op)
        return DMLVK_OK;
    /* Pipelines belong to the device's cache. */
    free(op->plan.params);
    dmlvk_buffer_destroy(op->params);
    dmlvk_buffer_destroy(op->scratch);
    dmlvk_buffer_destroy(op->counters);
    if (op->alive)
        atomic_fetch_sub(&op->dev->live_operators, 1);
    free(op);
    return DMLVK_OK;
}

dmlvk_status dmlvk_operator_get_properties(const dmlvk_operator *op, dmlvk_operator_properties *props)
{
    if (!op)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_get_properties: op is NULL");
    if (!props)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_get_properties: props is NULL");
    props->binding_count = op->cls->info.tensor_count;
    props->dispatch_count = op->plan.dispatch_count;
    props->scratch_bytes = op->plan.scratch_bytes;
    return DMLVK_OK;
}

struct resolved {
    VkBuffer buffer[DMLVK_MAX_BINDINGS];
    uint64_t begin[DMLVK_MAX_BINDINGS], end[DMLVK_MAX_BINDINGS];
    VkDeviceAddress address[DMLVK_MAX_BINDINGS];
    VkPipeline pipelines[DMLVK_MAX_DISPATCHES];
};

/* A binding the call cannot take; the message names the public function fn and the operator. Only
 * the failing path formats anything: resolve runs on every execute and record. */
static dmlvk_status DMLVK_PRINTF(3, 4) binding_error(const char *fn, const dmlvk_operator *op, const char *fmt, ...)
{
    char what[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s (%s): %s", fn, op->cls->info.name, what);
}

static dmlvk_status resolve(const char *fn, const dmlvk_operator *op, const dmlvk_binding *bindings, uint32_t count,
                            struct resolved *r)
{
    const dmlvk_device *dev = op->dev;
    uint32_t want = op->cls->info.tensor_count;
    const char *plural = want == 1 ? "" : "s";
    if (!bindings)
        return binding_error(fn, op, "bindings is NULL; the operator takes %u binding%s, one per tensor field", want,
                             plural);
    if (count != want)
        return binding_error(fn, op, "count is %u; the operator takes %u binding%s, one per tensor field", count, want,
                             plural);
    memset(r, 0, sizeof(*r));
    for (uint32_t i = 0; i < count; i++) {
        const dmlvk_binding *b = &bindings[i];
        const char *field = op->tensor_name[i];
        if (!op->tensor_bytes[i]) {
            if (b->buffer)
                return binding_error(fn, op, "bindings[%u] (%s): the descriptor has no such tensor", i, field);
            continue;
        }
        if (!b->buffer)
            return binding_error(fn, op, "bindings[%u] (%s): no buffer bound", i, field);
        unsigned long long offset = b->offset, held = b->buffer->size, size = b->size;
        if (offset % 4)
            return binding_error(fn, op, "bindings[%u] (%s): offset %llu is not a multiple of 4", i, field, offset);
        if (b->buffer->device != dev)
            return binding_error(fn, op, "bindings[%u] (%s): a buffer of another device", i, field);
        if (offset > held)
            return binding_error(fn, op, "bindings[%u] (%s): offset %llu is past the buffer's %llu bytes", i, field,
                                 offset, held);
        if (size == VK_WHOLE_SIZE)
            size = held - offset;
        else if (size > held - offset)
            return binding_error(fn, op, "bindings[%u] (%s): offset %llu + size %llu runs past the buffer's %llu bytes",
                                 i, field, offset, size, held);
        if (size < op->tensor_bytes[i])
            return binding_error(fn, op, "bindings[%u] (%s): %llu bytes bound, the tensor takes %llu "
                                 "(TotalTensorSizeInBytes)", i, field, size, (unsigned long long)op->tensor_bytes[i]);
        r->buffer[i] = b->buffer->buffer;
        r->address[i] = b->buffer->address + b->offset;
        r->begin[i] = b->offset;
        r->end[i] = b->offset + op->tensor_bytes[i];
    }
    /* An output may not share memory with any other tensor of the call. */
    for (uint32_t i = 0; i < count; i++) {
        if (!op->tensor_output[i] || !r->buffer[i])
            continue;
        for (uint32_t j = 0; j < count; j++)
            if (j != i && r->buffer[j] == r->buffer[i] && r->begin[i] < r->end[j] && r->begin[j] < r->end[i])
                return binding_error(fn, op, "bindings[%u] (%s) overlaps bindings[%u] (%s)", i, op->tensor_name[i], j,
                                     op->tensor_name[j]);
    }
    /* Each dispatch's pipeline: its unaligned form where a binding it wants aligned is not. The
     * device's cache holds that form once created, so later calls only look it up. */
    for (uint32_t i = 0; i < op->plan.dispatch_count; i++) {
        const struct dmlvk_dispatch_plan *d = &op->plan.dispatches[i];
        bool aligned = true;
        for (uint32_t b = 0; b < DMLVK_MAX_BINDINGS; b++)
            if (d->aligned_bindings >> b & 1)
                aligned = aligned && r->address[b] % DMLVK_ALIGNED_BYTES == 0;
        r->pipelines[i] = op->pipelines[i];
        if (!aligned) {
            uint32_t spec[DMLVK_MAX_SPEC_CONSTANTS];
            memcpy(spec, d->spec, sizeof(spec));
            spec[d->aligned_spec] = 0;
            dmlvk_status st = dmlvk_pipeline_get(dev->pipelines, d->shader, op->variants[i], spec, d->spec_set,
                                                 &r->pipelines[i]);
            if (st != DMLVK_OK)
                return st;
        }
    }
    return DMLVK_OK;
}

/* counters: where the dispatches count (the operator's own buffer, or a diagnosed call's). */
static void record_resolved(const dmlvk_operator *op, VkCommandBuffer cmd, const struct resolved *r,
                            const dmlvk_buffer *counters)
{
    const struct dmlvk_vk *vk = &op->dev->vk;
    const VkMemoryBarrier between = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
    };
    for (uint32_t i = 0; i < op->plan.dispatch_count; i++) {
        const struct dmlvk_dispatch_plan *d = &op->plan.dispatches[i];
        if (i > 0 && !d->concurrent)
            vk->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                     &between, 0, NULL, 0, NULL);
        VkDeviceAddress push[DMLVK_MAX_PUSH_ADDRESSES] = { 0 };
        for (uint32_t s = 0; s < d->slot_count; s++) {
            uint8_t slot = d->slots[s];
            if (slot == DMLVK_SLOT_PARAMS)
                push[s] = op->params->address;
            else if (slot == DMLVK_SLOT_SCRATCH)
                push[s] = op->scratch ? op->scratch->address : 0;
            else if (slot == DMLVK_SLOT_COUNTERS)
                push[s] = counters->address;
            else if (slot < DMLVK_MAX_BINDINGS)
                push[s] = r->address[slot];
        }
        vk->vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->pipelines[i]);
        vk->vkCmdPushConstants(cmd, op->dev->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 8 * d->slot_count, push);
        vk->vkCmdDispatch(cmd, d->groups[0], d->groups[1], d->groups[2]);
    }
}

dmlvk_status dmlvk_operator_record(dmlvk_operator *op, VkCommandBuffer cmd, const dmlvk_binding *bindings,
                                   uint32_t count)
{
    if (!op)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_record: op is NULL");
    if (!cmd)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_record: cmd is NULL");
    struct resolved r;
    dmlvk_status st = resolve("dmlvk_operator_record", op, bindings, count, &r);
    if (st == DMLVK_OK)
        record_resolved(op, cmd, &r, op->counters);
    return st;
}

dmlvk_status dmlvk_record_barrier(dmlvk_device *dev, VkCommandBuffer cmd, dmlvk_barrier_side side,
                                  VkPipelineStageFlags host_stages, VkAccessFlags host_access)
{
    static const char fn[] = "dmlvk_record_barrier";
    if (!dev)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: device is NULL", fn);
    if (!cmd)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: cmd is NULL", fn);
    if (side != DMLVK_BARRIER_BEFORE && side != DMLVK_BARRIER_AFTER)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: side %d is neither BEFORE nor AFTER", fn, (int)side);
    if (!host_stages)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: host_stages is 0 (VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT or "
                           "BOTTOM_OF_PIPE_BIT say \"nothing to wait for\")", fn);
    const VkPipelineStageFlags ours = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    bool before = side == DMLVK_BARRIER_BEFORE;
    const VkMemoryBarrier mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = before ? host_access : VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = before ? VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT : host_access,
    };
    dev->vk.vkCmdPipelineBarrier(cmd, before ? host_stages : ours, before ? ours : host_stages, 0, 1, &mb, 0, NULL, 0,
                                 NULL);
    return DMLVK_OK;
}

struct execute_args {
    const dmlvk_operator *op;
    const struct resolved *r;
    VkQueryPool timestamps;     /* or VK_NULL_HANDLE */
    const dmlvk_buffer *counters;
    bool clear_counters;
};

static dmlvk_status record_execute(VkCommandBuffer cmd, void *user)
{
    const struct execute_args *a = user;
    const struct dmlvk_vk *vk = &a->op->dev->vk;
    if (a->clear_counters) {
        const VkMemoryBarrier cleared = {
            .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
            .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
            .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
        };
        vk->vkCmdFillBuffer(cmd, a->counters->buffer, 0, VK_WHOLE_SIZE, 0);
        vk->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &cleared,
                                 0, NULL, 0, NULL);
    }
    if (a->timestamps) {
        vk->vkCmdResetQueryPool(cmd, a->timestamps, 0, 2);
        vk->vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, a->timestamps, 0);
    }
    record_resolved(a->op, cmd, a->r, a->counters);
    if (a->timestamps)
        vk->vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, a->timestamps, 1);
    return DMLVK_OK;
}

static dmlvk_status execute(const char *fn, dmlvk_operator *op, const dmlvk_binding *bindings, uint32_t count,
                            dmlvk_diagnostics *diag)
{
    if (!op)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: op is NULL", fn);
    struct resolved r;
    dmlvk_status st = resolve(fn, op, bindings, count, &r);
    if (st != DMLVK_OK)
        return st;
    dmlvk_device *dev = op->dev;
    const struct dmlvk_op_class *cls = op->cls;
    struct execute_args a = { op, &r, VK_NULL_HANDLE, op->counters, false };
    /* A diagnosed call counts into a buffer and a query pool of its own: concurrent calls never
     * report each other's counts or times. */
    dmlvk_buffer *counters = NULL;
    if (diag && cls->counter_count) {
        if ((st = dmlvk_buffer_create_internal(dev, 4 * (uint64_t)cls->counter_count, true, &counters)) != DMLVK_OK)
            return st;
        a.counters = counters;
        a.clear_counters = true;
    }
    if (diag && dev->timestamp_bits) {
        VkQueryPoolCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                      .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2 };
        VkResult vr = dmlvk_fault(dev) ? VK_ERROR_OUT_OF_HOST_MEMORY
                                       : dev->vk.vkCreateQueryPool(dev->device, &qci, NULL, &a.timestamps);
        if (vr != VK_SUCCESS) {
            dmlvk_buffer_destroy(counters);
            return dmlvk_vk_error(vr, "vkCreateQueryPool");
        }
    }
    st = dmlvk_device_submit(dev, record_execute, &a);
    if (st == DMLVK_OK && diag) {
        memset(diag, 0, sizeof(*diag));
        diag->gpu_ms = -1;
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
        uint32_t values[DMLVK_MAX_COUNTERS] = { 0 };
        uint32_t n = cls->counter_count < DMLVK_MAX_COUNTERS ? cls->counter_count : DMLVK_MAX_COUNTERS;
        if (st == DMLVK_OK && n && (st = dmlvk_buffer_read(counters, 0, values, 4 * (uint64_t)n)) == DMLVK_OK) {
            diag->counter_count = n;
            for (uint32_t i = 0; i < n; i++)
                diag->counters[i] = (dmlvk_counter){ cls->counter_names[i], values[i] };
        }
    }
    if (a.timestamps)
        dev->vk.vkDestroyQueryPool(dev->device, a.timestamps, NULL);
    dmlvk_buffer_destroy(counters);
    return st;
}

dmlvk_status dmlvk_operator_execute(dmlvk_operator *op, const dmlvk_binding *bindings, uint32_t count)
{
    return execute("dmlvk_operator_execute", op, bindings, count, NULL);
}

dmlvk_status dmlvk_operator_execute_diagnosed(dmlvk_operator *op, const dmlvk_binding *bindings, uint32_t count,
                                              dmlvk_diagnostics *diagnostics)
{
    if (!diagnostics)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_operator_execute_diagnosed: diagnostics is NULL");
    return execute("dmlvk_operator_execute_diagnosed", op, bindings, count, diagnostics);
}

dmlvk_status dmlvk_diagnostics_get_counter(const dmlvk_diagnostics *diag, const char *name, uint64_t *value)
{
    if (!diag)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_diagnostics_get_counter: diagnostics is NULL");
    if (!name)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_diagnostics_get_counter: name is NULL");
    if (!value)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_diagnostics_get_counter: value is NULL");
    for (uint32_t i = 0; i < diag->counter_count && i < DMLVK_MAX_COUNTERS; i++)
        if (diag->counters[i].name && !strcmp(diag->counters[i].name, name)) {
            *value = diag->counters[i].value;
            return DMLVK_OK;
        }
    return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_diagnostics_get_counter: the operator has no counter \"%s\"",
                       name);
}
