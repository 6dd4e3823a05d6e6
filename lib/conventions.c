/* MAPPINGS.md's rows as code. */
#include <math.h>
#include <string.h>

#include "internal.h"

struct resample_row {
    dmlvk_interpolation_mode mode;
    dmlvk_axis_direction rounding;
    float input_offset, output_offset;
    bool align_corners;
};

static const struct resample_row resample_rows[] = {
    [DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_LINEAR] = { DMLVK_INTERPOLATION_MODE_LINEAR, DMLVK_AXIS_DIRECTION_DECREASING, 0.5f, -0.5f, false },
    [DMLVK_RESAMPLE_CONVENTION_ALIGN_CORNERS_LINEAR] = { DMLVK_INTERPOLATION_MODE_LINEAR, DMLVK_AXIS_DIRECTION_DECREASING, 0, 0, true },
    [DMLVK_RESAMPLE_CONVENTION_ASYMMETRIC_LINEAR] = { DMLVK_INTERPOLATION_MODE_LINEAR, DMLVK_AXIS_DIRECTION_DECREASING, 0, 0, false },
    [DMLVK_RESAMPLE_CONVENTION_PYTORCH_NEAREST] = { DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR, DMLVK_AXIS_DIRECTION_DECREASING, 0, 0, false },
    [DMLVK_RESAMPLE_CONVENTION_PYTORCH_NEAREST_EXACT] = { DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR, DMLVK_AXIS_DIRECTION_DECREASING, 0, -0.5f, false },
    [DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_ROUND_PREFER_FLOOR] = { DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR, DMLVK_AXIS_DIRECTION_INCREASING, 1.0f, -0.5f, false },
    [DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_ROUND_PREFER_CEIL] = { DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR, DMLVK_AXIS_DIRECTION_DECREASING, 0, -0.5f, false },
    [DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_FLOOR] = { DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR, DMLVK_AXIS_DIRECTION_DECREASING, 0.5f, -0.5f, false },
    [DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_CEIL] = { DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR, DMLVK_AXIS_DIRECTION_INCREASING, 0.5f, -0.5f, false },
};

/*
 * out/in as a float Scale. For nearest, a ratio that float cannot hold is rounded so that the
 * coordinates o / Scale err on the side the rounding does not cross: floor sees them a hair high,
 * ceil a hair low. Then an exact tie (o * in / out an integer) resolves as the framework's exact
 * formula does, and nothing else moves for the sizes this is used with.
 */
static float ratio_as_scale(double ratio, const struct resample_row *row)
{
    float f = (float)ratio;
    if (row->mode == DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR) {
        if (row->rounding == DMLVK_AXIS_DIRECTION_DECREASING && (double)f > ratio)
            f = nextafterf(f, 0.0f);
        else if (row->rounding == DMLVK_AXIS_DIRECTION_INCREASING && (double)f < ratio)
            f = nextafterf(f, INFINITY);
    }
    return f;
}

dmlvk_status dmlvk_resample_fields_from_convention(dmlvk_resample_convention convention, uint32_t dims,
                                                   const uint32_t *input_sizes, const uint32_t *output_sizes,
                                                   const float *scales, dmlvk_resample_fields *fields)
{
    const char *fn = "dmlvk_resample_fields_from_convention";
    if (!input_sizes || !output_sizes || !fields)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                           !input_sizes ? "input_sizes" : !output_sizes ? "output_sizes" : "fields");
    if ((unsigned)convention >= DMLVK_ARRAY_SIZE(resample_rows))
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: convention %d is unknown", fn, (int)convention);
    if (dims < 1 || dims > 4)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: dimension_count %u is outside 1..4", fn, dims);
    const struct resample_row *row = &resample_rows[convention];
    memset(fields, 0, sizeof(*fields));
    fields->InterpolationMode = row->mode;
    fields->RoundingDirection = row->rounding;
    fields->DimensionCount = dims;
    for (uint32_t d = 0; d < dims; d++) {
        uint32_t in = input_sizes[d], out = output_sizes[d];
        if (in == 0 || out == 0)
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: sizes[%u] is 0", fn, d);
        float scale = scales ? scales[d] : ratio_as_scale((double)out / in, row);
        if (!(scale > 0) || !isfinite(scale))
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: scales[%u] = %g is not a positive finite number", fn,
                               d, scale);
        if (in == out && scale == 1.0f) {
            fields->Scales[d] = 1;
            fields->InputPixelOffsets[d] = 0.5f;
            fields->OutputPixelOffsets[d] = -0.5f;
            continue;
        }
        if (row->align_corners) {
            /* (out-1)/(in-1); a single element on either side maps index 0 to 0. */
            scale = in > 1 && out > 1 ? (float)(out - 1) / (float)(in - 1) : 1.0f;
        }
        fields->Scales[d] = scale;
        fields->InputPixelOffsets[d] = row->input_offset;
        fields->OutputPixelOffsets[d] = row->output_offset;
    }
    return DMLVK_OK;
}

/* RESAMPLE2 and RESAMPLE_GRAD1 name these members alike. */
#define SET_RESAMPLE_FIELDS(desc, f)                                                                                   \
    do {                                                                                                               \
        (desc)->InterpolationMode = (f)->InterpolationMode;                                                            \
        (desc)->RoundingDirection = (f)->RoundingDirection;                                                            \
        (desc)->DimensionCount = (f)->DimensionCount;                                                                  \
        (desc)->Scales = (f)->Scales;                                                                                  \
        (desc)->InputPixelOffsets = (f)->InputPixelOffsets;                                                            \
        (desc)->OutputPixelOffsets = (f)->OutputPixelOffsets;                                                          \
    } while (0)

dmlvk_status dmlvk_resample2_desc_set_fields(dmlvk_resample2_operator_desc *desc, const dmlvk_resample_fields *f)
{
    if (!desc || !f)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_resample2_desc_set_fields: %s is NULL", desc ? "fields" : "desc");
    SET_RESAMPLE_FIELDS(desc, f);
    return DMLVK_OK;
}

dmlvk_status dmlvk_resample_grad1_desc_set_fields(dmlvk_resample_grad1_operator_desc *desc, const dmlvk_resample_fields *f)
{
    if (!desc || !f)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_resample_grad1_desc_set_fields: %s is NULL", desc ? "fields" : "desc");
    SET_RESAMPLE_FIELDS(desc, f);
    return DMLVK_OK;
}

/* The forward resize's sizes from a descriptor's two tensors. */
static dmlvk_status resize_sizes(const char *fn, const char *from_name, const dmlvk_tensor_desc *from,
                                 const char *to_name, const dmlvk_tensor_desc *to)
{
    if (!from || !to)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: desc->%s is NULL", fn, !from ? from_name : to_name);
    if (!from->Sizes || !to->Sizes)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: desc->%s->Sizes is NULL", fn, !from->Sizes ? from_name : to_name);
    if (from->DimensionCount != to->DimensionCount)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: desc->%s has %u dimensions, desc->%s %u", fn, from_name,
                           from->DimensionCount, to_name, to->DimensionCount);
    return DMLVK_OK;
}

dmlvk_status dmlvk_resample2_desc_from_convention(dmlvk_resample2_operator_desc *desc, dmlvk_resample_convention convention,
                                                  const float *scales, dmlvk_resample_fields *fields)
{
    static const char fn[] = "dmlvk_resample2_desc_from_convention";
    if (!desc || !fields)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, desc ? "fields" : "desc");
    dmlvk_status st = resize_sizes(fn, "InputTensor", desc->InputTensor, "OutputTensor", desc->OutputTensor);
    if (st == DMLVK_OK)
        st = dmlvk_resample_fields_from_convention(convention, desc->InputTensor->DimensionCount, desc->InputTensor->Sizes,
                                                   desc->OutputTensor->Sizes, scales, fields);
    if (st == DMLVK_OK)
        SET_RESAMPLE_FIELDS(desc, fields);
    return st;
}

dmlvk_status dmlvk_resample_grad1_desc_from_convention(dmlvk_resample_grad1_operator_desc *desc,
                                                       dmlvk_resample_convention convention, const float *scales,
                                                       dmlvk_resample_fields *fields)
{
    static const char fn[] = "dmlvk_resample_grad1_desc_from_convention";
    if (!desc || !fields)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", fn, desc ? "fields" : "desc");
    /* The forward resize went from the gradient this operator writes to the one it reads. */
    dmlvk_status st = resize_sizes(fn, "OutputGradientTensor", desc->OutputGradientTensor, "InputGradientTensor",
                                   desc->InputGradientTensor);
    if (st == DMLVK_OK)
        st = dmlvk_resample_fields_from_convention(convention, desc->OutputGradientTensor->DimensionCount,
                                                   desc->OutputGradientTensor->Sizes, desc->InputGradientTensor->Sizes,
                                                   scales, fields);
    if (st == DMLVK_OK)
        SET_RESAMPLE_FIELDS(desc, fields);
    return st;
}

dmlvk_status dmlvk_roi_align_fields_from_convention(dmlvk_roi_align_convention convention, float spatial_scale,
                                                   int32_t sampling_ratio, dmlvk_reduce_function reduction,
                                                   dmlvk_roi_align_fields *f)
{
    const char *fn = "dmlvk_roi_align_fields_from_convention";
    if (!f)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: fields is NULL", fn);
    if (convention != DMLVK_ROI_ALIGN_CONVENTION_HALF_PIXEL && convention != DMLVK_ROI_ALIGN_CONVENTION_OUTPUT_HALF_PIXEL)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: convention %d is unknown", fn, (int)convention);
    if (reduction != DMLVK_REDUCE_FUNCTION_AVERAGE && reduction != DMLVK_REDUCE_FUNCTION_MAX)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: reduction %d is neither AVERAGE nor MAX", fn, (int)reduction);
    if (!isfinite(spatial_scale))
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: spatial_scale %g is not finite", fn, spatial_scale);
    *f = (dmlvk_roi_align_fields){
        .ReductionFunction = reduction,
        .InterpolationMode = DMLVK_INTERPOLATION_MODE_LINEAR,
        .SpatialScaleX = spatial_scale,
        .SpatialScaleY = spatial_scale,
        .InputPixelOffset = convention == DMLVK_ROI_ALIGN_CONVENTION_HALF_PIXEL ? 0.5f : 0.0f,
        .OutputPixelOffset = -0.5f,
        .MinimumSamplesPerOutput = sampling_ratio > 0 ? (uint32_t)sampling_ratio : 1,
        .MaximumSamplesPerOutput = sampling_ratio > 0 ? (uint32_t)sampling_ratio : UINT32_MAX,
    };
    return DMLVK_OK;
}

/* ROI_ALIGN1 and ROI_ALIGN_GRAD name these members alike. */
#define SET_ROI_ALIGN_FIELDS(desc, f)                                                                                  \
    do {                                                                                                               \
        (desc)->ReductionFunction = (f)->ReductionFunction;                                                            \
        (desc)->InterpolationMode = (f)->InterpolationMode;                                                            \
        (desc)->SpatialScaleX = (f)->SpatialScaleX;                                                                    \
        (desc)->SpatialScaleY = (f)->SpatialScaleY;                                                                    \
        (desc)->InputPixelOffset = (f)->InputPixelOffset;                                                              \
        (desc)->OutputPixelOffset = (f)->OutputPixelOffset;                                                            \
        (desc)->MinimumSamplesPerOutput = (f)->MinimumSamplesPerOutput;                                                \
        (desc)->MaximumSamplesPerOutput = (f)->MaximumSamplesPerOutput;                                                \
        (desc)->AlignRegionsToCorners = (f)->AlignRegionsToCorners;                                                    \
    } while (0)

dmlvk_status dmlvk_roi_align1_desc_set_fields(dmlvk_roi_align1_operator_desc *desc, const dmlvk_roi_align_fields *f)
{
    if (!desc || !f)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_roi_align1_desc_set_fields: %s is NULL", desc ? "fields" : "desc");
    SET_ROI_ALIGN_FIELDS(desc, f);
    desc->OutOfBoundsInputValue = f->OutOfBoundsInputValue;
    return DMLVK_OK;
}

dmlvk_status dmlvk_roi_align_grad_desc_set_fields(dmlvk_roi_align_grad_operator_desc *desc, const dmlvk_roi_align_fields *f)
{
    if (!desc || !f)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_roi_align_grad_desc_set_fields: %s is NULL", desc ? "fields" : "desc");
    SET_ROI_ALIGN_FIELDS(desc, f);
    return DMLVK_OK;
}
