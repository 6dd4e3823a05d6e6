/*
 * Operator descriptors: one struct per operator, with DirectML's member names, types and order,
 * so that code written against DirectML ports by renaming types. Semantics: OPERATORS.md.
 *
 * Optional tensors are NULL when absent. Arrays are owned by the caller and only read during
 * dmlvk_operator_create.
 */
#ifndef DMLVK_OPERATORS_H
#define DMLVK_OPERATORS_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum dmlvk_operator_type {
    DMLVK_OPERATOR_INVALID = 0,
    DMLVK_OPERATOR_ACTIVATION_RELU = 1,
    DMLVK_OPERATOR_ACTIVATION_RELU_GRAD = 2,
    DMLVK_OPERATOR_RESAMPLE1 = 3,
    DMLVK_OPERATOR_RESAMPLE2 = 4,
    DMLVK_OPERATOR_RESAMPLE_GRAD = 5,
    DMLVK_OPERATOR_RESAMPLE_GRAD1 = 6,
    DMLVK_OPERATOR_ROI_ALIGN1 = 7,
    DMLVK_OPERATOR_ROI_ALIGN_GRAD = 8,
} dmlvk_operator_type;

/* DML_INTERPOLATION_MODE */
typedef enum dmlvk_interpolation_mode {
    DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR = 0,
    DMLVK_INTERPOLATION_MODE_LINEAR = 1,
} dmlvk_interpolation_mode;

/* DML_AXIS_DIRECTION */
typedef enum dmlvk_axis_direction {
    DMLVK_AXIS_DIRECTION_INCREASING = 0,
    DMLVK_AXIS_DIRECTION_DECREASING = 1,
} dmlvk_axis_direction;

/* DML_REDUCE_FUNCTION, all of it, so that DirectML code ports by renaming; ROI align takes AVERAGE
 * and MAX and refuses the others as invalid arguments. */
typedef enum dmlvk_reduce_function {
    DMLVK_REDUCE_FUNCTION_ARGMAX = 0,
    DMLVK_REDUCE_FUNCTION_ARGMIN = 1,
    DMLVK_REDUCE_FUNCTION_AVERAGE = 2,
    DMLVK_REDUCE_FUNCTION_L1 = 3,
    DMLVK_REDUCE_FUNCTION_L2 = 4,
    DMLVK_REDUCE_FUNCTION_LOG_SUM = 5,
    DMLVK_REDUCE_FUNCTION_LOG_SUM_EXP = 6,
    DMLVK_REDUCE_FUNCTION_MAX = 7,
    DMLVK_REDUCE_FUNCTION_MIN = 8,
    DMLVK_REDUCE_FUNCTION_MULTIPLY = 9,
    DMLVK_REDUCE_FUNCTION_SUM = 10,
    DMLVK_REDUCE_FUNCTION_SUM_SQUARE = 11,
} dmlvk_reduce_function;

/* Y = X > 0 ? X : 0 */
typedef struct dmlvk_activation_relu_operator_desc {
    const dmlvk_tensor_desc *InputTensor;
    const dmlvk_tensor_desc *OutputTensor;
} dmlvk_activation_relu_operator_desc;

/* dX = X > 0 ? dY : 0 */
typedef struct dmlvk_activation_relu_grad_operator_desc {
    const dmlvk_tensor_desc *InputTensor;
    const dmlvk_tensor_desc *InputGradientTensor;
    const dmlvk_tensor_desc *OutputGradientTensor;
} dmlvk_activation_relu_grad_operator_desc;

typedef struct dmlvk_resample1_operator_desc {
    const dmlvk_tensor_desc *InputTensor;
    const dmlvk_tensor_desc *OutputTensor;
    dmlvk_interpolation_mode InterpolationMode;
    uint32_t DimensionCount;
    const float *Scales;
    const float *InputPixelOffsets;
    const float *OutputPixelOffsets;
} dmlvk_resample1_operator_desc;

typedef struct dmlvk_resample2_operator_desc {
    const dmlvk_tensor_desc *InputTensor;
    const dmlvk_tensor_desc *OutputTensor;
    dmlvk_interpolation_mode InterpolationMode;
    dmlvk_axis_direction RoundingDirection;
    uint32_t DimensionCount;
    const float *Scales;
    const float *InputPixelOffsets;
    const float *OutputPixelOffsets;
} dmlvk_resample2_operator_desc;

typedef struct dmlvk_resample_grad_operator_desc {
    const dmlvk_tensor_desc *InputGradientTensor;
    const dmlvk_tensor_desc *OutputGradientTensor;
    dmlvk_interpolation_mode InterpolationMode;
    uint32_t DimensionCount;
    const float *Scales;
    const float *InputPixelOffsets;
    const float *OutputPixelOffsets;
} dmlvk_resample_grad_operator_desc;

typedef struct dmlvk_resample_grad1_operator_desc {
    const dmlvk_tensor_desc *InputGradientTensor;
    const dmlvk_tensor_desc *OutputGradientTensor;
    dmlvk_interpolation_mode InterpolationMode;
    dmlvk_axis_direction RoundingDirection;
    uint32_t DimensionCount;
    const float *Scales;
    const float *InputPixelOffsets;
    const float *OutputPixelOffsets;
} dmlvk_resample_grad1_operator_desc;

typedef struct dmlvk_roi_align1_operator_desc {
    const dmlvk_tensor_desc *InputTensor;
    const dmlvk_tensor_desc *ROITensor;
    const dmlvk_tensor_desc *BatchIndicesTensor;
    const dmlvk_tensor_desc *OutputTensor;
    dmlvk_reduce_function ReductionFunction;
    dmlvk_interpolation_mode InterpolationMode;
    float SpatialScaleX;
    float SpatialScaleY;
    float InputPixelOffset;
    float OutputPixelOffset;
    float OutOfBoundsInputValue;
    uint32_t MinimumSamplesPerOutput;
    uint32_t MaximumSamplesPerOutput;
    dmlvk_bool AlignRegionsToCorners;
} dmlvk_roi_align1_operator_desc;

typedef struct dmlvk_roi_align_grad_operator_desc {
    const dmlvk_tensor_desc *InputTensor;             /* optional */
    const dmlvk_tensor_desc *InputGradientTensor;
    const dmlvk_tensor_desc *ROITensor;
    const dmlvk_tensor_desc *BatchIndicesTensor;
    const dmlvk_tensor_desc *OutputGradientTensor;    /* optional */
    const dmlvk_tensor_desc *OutputROIGradientTensor; /* optional */
    dmlvk_reduce_function ReductionFunction;
    dmlvk_interpolation_mode InterpolationMode;
    float SpatialScaleX;
    float SpatialScaleY;
    float InputPixelOffset;
    float OutputPixelOffset;
    uint32_t MinimumSamplesPerOutput;
    uint32_t MaximumSamplesPerOutput;
    dmlvk_bool AlignRegionsToCorners;
} dmlvk_roi_align_grad_operator_desc;

/* An operator type paired with its descriptor struct, like DML_OPERATOR_DESC. */
typedef struct dmlvk_operator_desc {
    dmlvk_operator_type Type;
    const void *Desc;
} dmlvk_operator_desc;

/*
 * Reflection over the descriptors, so that generic clients (the CLI, bindings for other
 * languages) can fill any descriptor by field name. Tensor fields appear in binding order.
 */
typedef enum dmlvk_field_kind {
    DMLVK_FIELD_INPUT_TENSOR,    /* const dmlvk_tensor_desc * */
    DMLVK_FIELD_OUTPUT_TENSOR,   /* const dmlvk_tensor_desc * */
    DMLVK_FIELD_ENUM,            /* a 32-bit enum; see enum_type */
    DMLVK_FIELD_UINT,            /* uint32_t */
    DMLVK_FIELD_FLOAT,           /* float */
    DMLVK_FIELD_BOOL,            /* dmlvk_bool */
    DMLVK_FIELD_DIMENSION_COUNT, /* uint32_t: the length of the FLOAT_ARRAY fields */
    DMLVK_FIELD_FLOAT_ARRAY,     /* const float *, DimensionCount long */
} dmlvk_field_kind;

typedef enum dmlvk_enum_type {
    DMLVK_ENUM_NONE = 0,
    DMLVK_ENUM_INTERPOLATION_MODE,
    DMLVK_ENUM_AXIS_DIRECTION,
    DMLVK_ENUM_REDUCE_FUNCTION,
    DMLVK_ENUM_TENSOR_DATA_TYPE,
} dmlvk_enum_type;

typedef struct dmlvk_field_info {
    const char *name;           /* the member's name, as in DirectML */
    dmlvk_field_kind kind;
    size_t offset;              /* offsetof within the descriptor struct */
    dmlvk_bool optional;        /* tensors only: may be NULL */
    dmlvk_enum_type enum_type;  /* DMLVK_FIELD_ENUM only */
} dmlvk_field_info;

typedef struct dmlvk_operator_info {
    dmlvk_operator_type type;
    const char *name;           /* "RESAMPLE_GRAD1", ... */
    size_t desc_size;           /* sizeof the descriptor struct */
    uint32_t field_count;
    const dmlvk_field_info *fields;
    uint32_t tensor_count;      /* tensor fields: the number of bindings */
} dmlvk_operator_info;

/* Information on a type this build implements; DMLVK_ERROR_UNSUPPORTED for others. */
DMLVK_API dmlvk_status dmlvk_operator_get_info(dmlvk_operator_type type, const dmlvk_operator_info **info);

/* Looks an operator type up by its name ("ROI_ALIGN_GRAD"). */
DMLVK_API dmlvk_status dmlvk_operator_type_from_name(const char *name, dmlvk_operator_type *type);

/* Looks an enumerator up by its name, without prefix ("LINEAR", "DECREASING", "FLOAT16") or with
 * DirectML's ("DML_INTERPOLATION_MODE_LINEAR"). Every name of DirectML's enumeration is found, also
 * those no operator takes (DML_REDUCE_FUNCTION's "SUM", DML_TENSOR_DATA_TYPE's "INT32"): an operator
 * refuses those when it is created. */
DMLVK_API dmlvk_status dmlvk_enum_from_name(dmlvk_enum_type type, const char *name, uint32_t *value);

/* The name of an enumerator without prefix ("BFLOAT16"), static storage; DMLVK_ERROR_INVALID_ARGUMENT
 * for a value the enumeration does not have. */
DMLVK_API dmlvk_status dmlvk_enum_get_name(dmlvk_enum_type type, uint32_t value, const char **name);

#ifdef __cplusplus
}
#endif

#endif
