#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* dmlvk's own limit: element indices and counts stay in 31 bits on the GPU. */
#define MAX_ELEMENTS (UINT64_C(1) << 31)
/* Element offsets are 32-bit in the shaders. */
#define MAX_OFFSET UINT32_MAX
/* Exact alias checks enumerate offsets up to this many elements. */
#define EXACT_ALIAS_CHECK_LIMIT (UINT64_C(1) << 22)

/* Bits of one element; 0 for UNKNOWN and for values DirectML does not have. */
static uint32_t element_bits(dmlvk_tensor_data_type type)
{
    switch (type) {
    case DMLVK_TENSOR_DATA_TYPE_FLOAT64:
    case DMLVK_TENSOR_DATA_TYPE_UINT64:
    case DMLVK_TENSOR_DATA_TYPE_INT64:
        return 64;
    case DMLVK_TENSOR_DATA_TYPE_FLOAT32:
    case DMLVK_TENSOR_DATA_TYPE_UINT32:
    case DMLVK_TENSOR_DATA_TYPE_INT32:
        return 32;
    case DMLVK_TENSOR_DATA_TYPE_FLOAT16:
    case DMLVK_TENSOR_DATA_TYPE_BFLOAT16:
    case DMLVK_TENSOR_DATA_TYPE_UINT16:
    case DMLVK_TENSOR_DATA_TYPE_INT16:
        return 16;
    case DMLVK_TENSOR_DATA_TYPE_UINT8:
    case DMLVK_TENSOR_DATA_TYPE_INT8:
        return 8;
    case DMLVK_TENSOR_DATA_TYPE_UINT4:
    case DMLVK_TENSOR_DATA_TYPE_INT4:
        return 4;
    default:
        return 0;
    }
}

uint32_t dmlvk_data_type_size(dmlvk_tensor_data_type type)
{
    return element_bits(type) / 8;
}

static const char *type_name(dmlvk_tensor_data_type type)
{
    const char *name = dmlvk_enum_name(DMLVK_ENUM_TENSOR_DATA_TYPE, (uint32_t)type);
    return name ? name : "UNKNOWN";
}

/* Shape checks shared by the public helpers and dmlvk_check_tensor; fills t. */
static dmlvk_status check_shape(const char *op, const char *field, const dmlvk_tensor_desc *desc,
                                struct dmlvk_tensor *t)
{
    if (!desc)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s: required tensor is missing", op, field);
    if (desc->DimensionCount < 1 || desc->DimensionCount > DMLVK_TENSOR_DIMENSION_COUNT_MAX)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s.DimensionCount: %u is outside 1..%d", op, field,
                           desc->DimensionCount, DMLVK_TENSOR_DIMENSION_COUNT_MAX);
    if (!desc->Sizes)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s.Sizes: missing", op, field);
    if (element_bits(desc->DataType) == 0)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s.DataType: %d is not a DirectML data type", op, field,
                           (int)desc->DataType);
    if (desc->Flags != DMLVK_TENSOR_FLAG_NONE)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s.Flags: must be DMLVK_TENSOR_FLAG_NONE", op, field);
    uint32_t align = desc->GuaranteedBaseOffsetAlignment;
    if (align & (align - 1))
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                           "%s: %s.GuaranteedBaseOffsetAlignment: %u is neither 0 nor a power of two", op, field, align);

    memset(t, 0, sizeof(*t));
    t->type = desc->DataType;
    t->dims = desc->DimensionCount;
    t->elements = 1;
    for (uint32_t i = 0; i < t->dims; i++) {
        if (desc->Sizes[i] == 0)
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s.Sizes[%u]: must be at least 1", op, field, i);
        t->sizes[i] = desc->Sizes[i];
        t->elements *= desc->Sizes[i];
        if (t->elements >= MAX_ELEMENTS)
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                               "%s: %s.Sizes: more than 2^31-1 elements (a dmlvk limit)", op, field);
    }
    uint64_t packed = 1;
    for (uint32_t i = t->dims; i-- > 0;) {
        t->strides[i] = desc->Strides ? desc->Strides[i] : (uint32_t)packed;
        packed *= t->sizes[i];
    }
    for (uint32_t i = 0; i < t->dims; i++) {
        t->max_offset += (uint64_t)(t->sizes[i] - 1) * t->strides[i];
        if (t->max_offset > MAX_OFFSET)
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                               "%s: %s.Strides: the last element lies beyond 2^32-1 elements (a dmlvk limit)", op, field);
    }
    return DMLVK_OK;
}

static uint64_t min_bytes(const struct dmlvk_tensor *t)
{
    uint64_t bytes = ((t->max_offset + 1) * element_bits(t->type) + 7) / 8;
    return (bytes + 3) & ~UINT64_C(3);
}

dmlvk_status dmlvk_tensor_min_size(const dmlvk_tensor_desc *tensor, uint64_t *bytes)
{
    struct dmlvk_tensor t;
    if (!bytes)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_tensor_min_size: bytes is NULL");
    dmlvk_status st = check_shape("dmlvk_tensor_min_size", "tensor", tensor, &t);
    if (st == DMLVK_OK)
        *bytes = min_bytes(&t);
    return st;
}

dmlvk_status dmlvk_tensor_element_count(const dmlvk_tensor_desc *tensor, uint64_t *count)
{
    struct dmlvk_tensor t;
    if (!count)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_tensor_element_count: count is NULL");
    dmlvk_status st = check_shape("dmlvk_tensor_element_count", "tensor", tensor, &t);
    if (st == DMLVK_OK)
        *count = t.elements;
    return st;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* True when two different indices of t reach the same element. */
static dmlvk_status output_aliases(dmlvk_device *dev, const struct dmlvk_tensor *t, bool *aliases)
{
    /* Sufficient test: sorted by stride, each axis steps past everything the smaller ones reach. */
    uint32_t order[DMLVK_TENSOR_DIMENSION_COUNT_MAX], n = 0;
    for (uint32_t i = 0; i < t->dims; i++)
        if (t->sizes[i] > 1)
            order[n++] = i;
    for (uint32_t i = 1; i < n; i++)
        for (uint32_t j = i; j > 0 && t->strides[order[j]] < t->strides[order[j - 1]]; j--) {
            uint32_t tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
        }
    uint64_t reach = 0;
    bool nested = true;
    for (uint32_t i = 0; i < n && nested; i++) {
        uint32_t d = order[i];
        if (t->strides[d] <= reach || t->strides[d] == 0)
            nested = false;
        reach += (uint64_t)(t->sizes[d] - 1) * t->strides[d];
    }
    *aliases = false;
    if (nested)
        return DMLVK_OK;
    /* Interleaved layouts can still be one-to-one; settle small ones exactly. */
    if (t->elements > EXACT_ALIAS_CHECK_LIMIT) {
        *aliases = true;
        return DMLVK_OK;
    }
    uint64_t *offsets = dmlvk_malloc(dev, t->elements * sizeof(*offsets));
    if (!offsets)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "out of host memory checking output strides");
    uint32_t idx[DMLVK_TENSOR_DIMENSION_COUNT_MAX] = { 0 };
    for (uint64_t e = 0; e < t->elements; e++) {
        uint64_t off = 0;
        for (uint32_t d = 0; d < t->dims; d++)
            off += (uint64_t)idx[d] * t->strides[d];
        offsets[e] = off;
        for (uint32_t d = t->dims; d-- > 0;) {
            if (++idx[d] < t->sizes[d])
                break;
            idx[d] = 0;
        }
    }
    qsort(offsets, t->elements, sizeof(*offsets), compare_u64);
    for (uint64_t e = 1; e < t->elements && !*aliases; e++)
        *aliases = offsets[e] == offsets[e - 1];
    free(offsets);
    return DMLVK_OK;
}

dmlvk_status dmlvk_check_tensor(const struct dmlvk_op_context *ctx, const char *field, const dmlvk_tensor_desc *desc, uint32_t types,
                                uint32_t min_dims, uint32_t max_dims, bool output, struct dmlvk_tensor *t)
{
    const char *op = ctx->op_name;
    dmlvk_status st = check_shape(op, field, desc, t);
    if (st != DMLVK_OK)
        return st;
    if (!(types & DMLVK_TYPE_BIT(desc->DataType))) {
        static const dmlvk_tensor_data_type runnable[] = { DMLVK_TENSOR_DATA_TYPE_FLOAT32, DMLVK_TENSOR_DATA_TYPE_FLOAT16,
                                                           DMLVK_TENSOR_DATA_TYPE_BFLOAT16, DMLVK_TENSOR_DATA_TYPE_UINT32 };
        char taken[64] = "";
        for (size_t i = 0; i < DMLVK_ARRAY_SIZE(runnable); i++)
            if (types & DMLVK_TYPE_BIT(runnable[i]))
                snprintf(taken + strlen(taken), sizeof(taken) - strlen(taken), "%s%s", *taken ? ", " : "",
                         type_name(runnable[i]));
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s.DataType: %s is not one this operator takes (%s)", op,
                           field, type_name(desc->DataType), taken);
    }
    if (desc->DimensionCount < min_dims || desc->DimensionCount > max_dims) {
        if (min_dims == max_dims)
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s.DimensionCount: must be %u, not %u", op, field,
                               min_dims, desc->DimensionCount);
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s.DimensionCount: must be %u to %u, not %u", op,
                           field, min_dims, max_dims, desc->DimensionCount);
    }
    uint64_t need = min_bytes(t);
    if (desc->TotalTensorSizeInBytes != 0 && desc->TotalTensorSizeInBytes < need)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                           "%s: %s.TotalTensorSizeInBytes: %llu is less than the %llu bytes the sizes and strides reach",
                           op, field, (unsigned long long)desc->TotalTensorSizeInBytes, (unsigned long long)need);
    if (output) {
        bool aliases;
        if ((st = output_aliases(ctx->dev, t, &aliases)) != DMLVK_OK)
            return st;
        if (aliases)
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                               "%s: %s.Strides: two elements of an output share one memory location", op, field);
    }
    return DMLVK_OK;
}

dmlvk_status dmlvk_check_same(const char *op, const char *field_a, const struct dmlvk_tensor *a,
                              const char *field_b, const struct dmlvk_tensor *b, bool sizes)
{
    if (a->type != b->type)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s.DataType: %s does not match %s's %s", op, field_b,
                           type_name(b->type), field_a, type_name(a->type));
    if (!sizes)
        return DMLVK_OK;
    if (a->dims != b->dims)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s.DimensionCount: %u does not match %s's %u", op,
                           field_b, b->dims, field_a, a->dims);
    for (uint32_t i = 0; i < a->dims; i++)
        if (a->sizes[i] != b->sizes[i])
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s.Sizes[%u]: %u does not match %s's %u", op,
                               field_b, i, b->sizes[i], field_a, a->sizes[i]);
    return DMLVK_OK;
}

dmlvk_status dmlvk_check_float16(const struct dmlvk_op_context *ctx, dmlvk_tensor_data_type type)
{
    if (!DMLVK_IS_16BIT_FLOAT(type) || ctx->float16)
        return DMLVK_OK;
    if (ctx->dev->imported && ctx->dev->float16_supported)
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED,
                           "%s: %s tensors need storageBuffer16BitAccess, which the host's device has but "
                           "dmlvk_vulkan_import.device_create_info does not enable",
                           ctx->op_name, type_name(type));
    return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "%s: %s tensors need storageBuffer16BitAccess, which this device lacks",
                       ctx->op_name, type_name(type));
}
