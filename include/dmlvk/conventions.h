/*
 * Framework conventions (ONNX, PyTorch) expressed as descriptor fields, after MAPPINGS.md.
 *
 * Thread-safety: pure functions; safe from any thread.
 */
#ifndef DMLVK_CONVENTIONS_H
#define DMLVK_CONVENTIONS_H

#include <stdint.h>

#include "common.h"
#include "operators.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Resize / interpolate conventions, for RESAMPLE2 forward and RESAMPLE_GRAD1 backward. */
typedef enum dmlvk_resample_convention {
    /* PyTorch bilinear/linear/trilinear with align_corners=False; ONNX half_pixel linear */
    DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_LINEAR = 0,
    /* PyTorch and ONNX align_corners linear */
    DMLVK_RESAMPLE_CONVENTION_ALIGN_CORNERS_LINEAR = 1,
    /* ONNX asymmetric linear */
    DMLVK_RESAMPLE_CONVENTION_ASYMMETRIC_LINEAR = 2,
    /* PyTorch nearest (legacy); ONNX asymmetric + floor */
    DMLVK_RESAMPLE_CONVENTION_PYTORCH_NEAREST = 3,
    /* PyTorch nearest-exact */
    DMLVK_RESAMPLE_CONVENTION_PYTORCH_NEAREST_EXACT = 4,
    /* ONNX half_pixel + round_prefer_floor (ties toward the smaller index); also RESAMPLE1's nearest */
    DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_ROUND_PREFER_FLOOR = 5,
    /* ONNX half_pixel + round_prefer_ceil */
    DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_ROUND_PREFER_CEIL = 6,
    /* ONNX half_pixel + floor */
    DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_FLOOR = 7,
    /* ONNX half_pixel + ceil */
    DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_CEIL = 8,
} dmlvk_resample_convention;

/* The non-tensor fields of RESAMPLE2 / RESAMPLE_GRAD1, with storage for the arrays. */
typedef struct dmlvk_resample_fields {
    dmlvk_interpolation_mode InterpolationMode;
    dmlvk_axis_direction RoundingDirection;
    uint32_t DimensionCount;
    float Scales[4];
    float InputPixelOffsets[4];
    float OutputPixelOffsets[4];
} dmlvk_resample_fields;

/*
 * Fills a descriptor's non-tensor fields for a framework's resize, reading the sizes from the
 * descriptor's own tensors, which must be set: RESAMPLE2 resizes InputTensor to OutputTensor;
 * RESAMPLE_GRAD1 is the backward of the resize from OutputGradientTensor's sizes to
 * InputGradientTensor's (the direction is taken care of). scales as below, per axis of the forward
 * resize. fields holds the arrays the descriptor then points at: it must outlive the descriptor's use.
 */
DMLVK_API dmlvk_status dmlvk_resample2_desc_from_convention(dmlvk_resample2_operator_desc *desc,
                                                            dmlvk_resample_convention convention, const float *scales,
                                                            dmlvk_resample_fields *fields);
DMLVK_API dmlvk_status dmlvk_resample_grad1_desc_from_convention(dmlvk_resample_grad1_operator_desc *desc,
                                                                 dmlvk_resample_convention convention,
                                                                 const float *scales, dmlvk_resample_fields *fields);

/*
 * Fills fields for a resize from input_sizes to output_sizes, both in the FORWARD direction, under a
 * convention. For RESAMPLE_GRAD1, input_sizes are OutputGradientTensor's and output_sizes
 * InputGradientTensor's: the *_desc_from_convention functions above read them from the descriptor
 * and cannot swap them. scales may be NULL (each axis then uses output/input, as frameworks do when given
 * sizes) or give the scale the framework actually used per axis. Axes whose size does not change
 * and whose scale is 1 are left alone (Scale 1, offsets 0.5 / -0.5).
 */
DMLVK_API dmlvk_status dmlvk_resample_fields_from_convention(dmlvk_resample_convention convention, uint32_t dimension_count,
                                                             const uint32_t *input_sizes, const uint32_t *output_sizes,
                                                             const float *scales, dmlvk_resample_fields *fields);

/* Points a descriptor's fields at fields (which must outlive the descriptor's use). */
DMLVK_API dmlvk_status dmlvk_resample2_desc_set_fields(dmlvk_resample2_operator_desc *desc,
                                                       const dmlvk_resample_fields *fields);
DMLVK_API dmlvk_status dmlvk_resample_grad1_desc_set_fields(dmlvk_resample_grad1_operator_desc *desc,
                                                            const dmlvk_resample_fields *fields);

/* RoiAlign conventions, for ROI_ALIGN1 forward and ROI_ALIGN_GRAD backward. */
typedef enum dmlvk_roi_align_convention {
    /* torchvision roi_align(aligned=True); ONNX RoiAlign-16 half_pixel; Detectron2 ROIAlign(aligned=True) */
    DMLVK_ROI_ALIGN_CONVENTION_HALF_PIXEL = 0,
    /* torchvision aligned=False; ONNX output_half_pixel. Exact only for regions at least one
     * pixel wide and high after scaling: those frameworks stretch smaller regions to 1 pixel. */
    DMLVK_ROI_ALIGN_CONVENTION_OUTPUT_HALF_PIXEL = 1,
} dmlvk_roi_align_convention;

typedef struct dmlvk_roi_align_fields {
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
} dmlvk_roi_align_fields;

/*
 * Fills fields for a framework's roi_align: spatial_scale as the framework's, sampling_ratio as
 * torchvision's (<= 0: adaptive), reduction AVERAGE (or MAX for ONNX mode=max). Boxes are then
 * torchvision's columns 1..4 (x1, y1, x2, y2) and batch indices its column 0.
 */
DMLVK_API dmlvk_status dmlvk_roi_align_fields_from_convention(dmlvk_roi_align_convention convention, float spatial_scale,
                                                              int32_t sampling_ratio, dmlvk_reduce_function reduction,
                                                              dmlvk_roi_align_fields *fields);

/* Copies fields into a descriptor (OutOfBoundsInputValue only where the descriptor has it). */
DMLVK_API dmlvk_status dmlvk_roi_align1_desc_set_fields(dmlvk_roi_align1_operator_desc *desc,
                                                        const dmlvk_roi_align_fields *fields);
DMLVK_API dmlvk_status dmlvk_roi_align_grad_desc_set_fields(dmlvk_roi_align_grad_operator_desc *desc,
                                                            const dmlvk_roi_align_fields *fields);

#ifdef __cplusplus
}
#endif

#endif
