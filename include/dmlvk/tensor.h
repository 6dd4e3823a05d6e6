/*
 * Tensor descriptions, shaped like DirectML's DML_BUFFER_TENSOR_DESC.
 */
#ifndef DMLVK_TENSOR_H
#define DMLVK_TENSOR_H

#include <stdint.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DMLVK_TENSOR_DIMENSION_COUNT_MAX 8

/* DirectML's DML_TENSOR_DATA_TYPE, all of it, and BFLOAT16, a dmlvk extension numbered outside
 * DirectML's range so that DirectML's values keep their meaning. The operators take FLOAT32,
 * FLOAT16, BFLOAT16 and UINT32 (each says which) and refuse the others as invalid arguments. */
typedef enum dmlvk_tensor_data_type {
    DMLVK_TENSOR_DATA_TYPE_UNKNOWN = 0,
    DMLVK_TENSOR_DATA_TYPE_FLOAT32 = 1,
    DMLVK_TENSOR_DATA_TYPE_FLOAT16 = 2,
    DMLVK_TENSOR_DATA_TYPE_UINT32 = 3,
    DMLVK_TENSOR_DATA_TYPE_UINT16 = 4,
    DMLVK_TENSOR_DATA_TYPE_UINT8 = 5,
    DMLVK_TENSOR_DATA_TYPE_INT32 = 6,
    DMLVK_TENSOR_DATA_TYPE_INT16 = 7,
    DMLVK_TENSOR_DATA_TYPE_INT8 = 8,
    DMLVK_TENSOR_DATA_TYPE_FLOAT64 = 9,
    DMLVK_TENSOR_DATA_TYPE_UINT64 = 10,
    DMLVK_TENSOR_DATA_TYPE_INT64 = 11,
    DMLVK_TENSOR_DATA_TYPE_UINT4 = 12,
    DMLVK_TENSOR_DATA_TYPE_INT4 = 13,
    /* bfloat16 (float32's upper half): wherever FLOAT16 is taken, under the same rules; arithmetic
     * in float32, results rounded to nearest-even. Needs what FLOAT16 needs (16-bit storage). */
    DMLVK_TENSOR_DATA_TYPE_BFLOAT16 = 0x10000,
} dmlvk_tensor_data_type;

typedef enum dmlvk_tensor_flags {
    DMLVK_TENSOR_FLAG_NONE = 0,
} dmlvk_tensor_flags;

/*
 * One tensor: element (i0, ..., in-1) lives at element offset sum(i_k * Strides[k]) from the
 * start of the bound range. Strides NULL means packed row-major. A stride of 0 broadcasts, which
 * only inputs may do.
 */
typedef struct dmlvk_tensor_desc {
    dmlvk_tensor_data_type DataType;
    dmlvk_tensor_flags Flags;            /* must be DMLVK_TENSOR_FLAG_NONE */
    uint32_t DimensionCount;             /* 1..8, narrowed by each operator */
    const uint32_t *Sizes;               /* DimensionCount sizes, each >= 1 */
    const uint32_t *Strides;             /* NULL or DimensionCount strides in elements */
    /* Bytes the bound range holds, at least dmlvk_tensor_min_size; 0 means exactly that minimum (as
     * DirectMLX computes it), so a binding must then hold the minimum. */
    uint64_t TotalTensorSizeInBytes;
    uint32_t GuaranteedBaseOffsetAlignment; /* informational: 0 or a power of two */
} dmlvk_tensor_desc;

/* Bytes of one element of a data type; 0 for UNKNOWN, for UINT4 and INT4 (two to a byte) and for
 * values DirectML does not have. */
DMLVK_API uint32_t dmlvk_data_type_size(dmlvk_tensor_data_type type);

/*
 * The smallest TotalTensorSizeInBytes for a tensor: (1 + sum((Sizes[i]-1)*Strides[i])) elements,
 * rounded up to 4 bytes. Fails on a malformed description or on overflow.
 */
DMLVK_API dmlvk_status dmlvk_tensor_min_size(const dmlvk_tensor_desc *tensor, uint64_t *bytes);

/* Number of logical elements (product of Sizes). */
DMLVK_API dmlvk_status dmlvk_tensor_element_count(const dmlvk_tensor_desc *tensor, uint64_t *count);

#ifdef __cplusplus
}
#endif

#endif
