/* Shared by ROI_ALIGN1 and ROI_ALIGN_GRAD (OPERATORS.md section 4). */
#ifndef DMLVK_ROI_ALIGN_H
#define DMLVK_ROI_ALIGN_H

#include "internal.h"
#include "roi_align_abi.h"

/* The descriptor fields of both operators, the tensors named by role. */
struct roi_fields {
    const char *op;
    bool backward;
    const dmlvk_tensor_desc *input;     /* optional for ROI_ALIGN_GRAD */
    const dmlvk_tensor_desc *bins;      /* OutputTensor, or InputGradientTensor */
    const char *bins_name;
    const dmlvk_tensor_desc *rois, *batch;
    const dmlvk_tensor_desc *grad, *roi_grad; /* ROI_ALIGN_GRAD's optional outputs */
    dmlvk_reduce_function reduction;
    dmlvk_interpolation_mode mode;
    float spatial_x, spatial_y, in_off, out_off, oob_value;
    uint32_t min_samples, max_samples;
    dmlvk_bool align;
};

/* The designated initializers of struct roi_fields that both descriptors fill alike from d. */
#define ROI_FIELDS_FROM(d)                                                                                             \
    .rois = (d)->ROITensor, .batch = (d)->BatchIndicesTensor, .reduction = (d)->ReductionFunction,                     \
    .mode = (d)->InterpolationMode, .spatial_x = (d)->SpatialScaleX, .spatial_y = (d)->SpatialScaleY,                  \
    .in_off = (d)->InputPixelOffset, .out_off = (d)->OutputPixelOffset, .min_samples = (d)->MinimumSamplesPerOutput,   \
    .max_samples = (d)->MaximumSamplesPerOutput, .align = (d)->AlignRegionsToCorners

/* The checked tensors and the sizes they agree on. */
struct roi_shape {
    struct dmlvk_tensor input, bins, rois, batch, grad, roi_grad;
    uint32_t num_rois, channels, batch_count, in_h, in_w, out_h, out_w;
    uint64_t table_x, table_y;          /* sample table entries per region along x and y */
    uint32_t params_at;                 /* the parameter block's word in the plan */
    uint32_t rois_slot, batch_slot;     /* the operator's tensor slots of ROITensor and BatchIndicesTensor */
    uint32_t geometry_width;            /* the geometry's workgroups at least this wide (0: as its entries need) */
};

/* Sample tables past this are refused (huge MinimumSamplesPerOutput times many regions). */
#define DMLVK_ROI_TABLES_MAX_BYTES (UINT64_C(1) << 31)

/* Validates every rule of section 4 and writes the parameter block (struct roi_align_params). */
dmlvk_status dmlvk_roi_align_prepare(const struct dmlvk_op_context *ctx, const struct roi_fields *f, struct roi_shape *s,
                                     struct dmlvk_op_plan *plan);

/* Adds the first stage, roi_align_geometry, which writes the sample tables every later stage reads
 * and counts the skipped regions; its workgroups hold a region's table entries in whole multiples
 * of ROI_GEOMETRY_WORKGROUP invocations (a warp), up to the operator's workgroup size
 * (dmlvk_roi_align_geometry_context). Returns its dispatch, NULL where adding it failed. */
#define ROI_GEOMETRY_WORKGROUP 32u
struct dmlvk_dispatch_plan *dmlvk_roi_align_geometry(const struct dmlvk_op_context *ctx, const struct roi_shape *s,
                                                     struct dmlvk_op_plan *plan);
struct dmlvk_op_context dmlvk_roi_align_geometry_context(const struct dmlvk_op_context *ctx, const struct roi_shape *s);

/* The parameter block the plan holds, NULL where appending it failed. */
struct roi_align_params *dmlvk_roi_align_params(const struct roi_shape *s, struct dmlvk_op_plan *plan);

/* Adds vec4s 16-byte words to the plan's scratch; returns the first one's index. */
uint32_t dmlvk_roi_align_reserve_scratch(struct dmlvk_op_plan *plan, uint64_t vec4s);

/* Puts the sample tables past the scratch the other stages use: call once that is known. */
void dmlvk_roi_align_place_tables(const struct roi_shape *s, struct dmlvk_op_plan *plan);

/* Entries of the two descriptors' field tables (members named alike in both structs). */
#define ROI_ALIGN_MODE_FIELDS(desc_t)                                                                                  \
    { "ReductionFunction", DMLVK_FIELD_ENUM, offsetof(desc_t, ReductionFunction), 0, DMLVK_ENUM_REDUCE_FUNCTION },     \
        { "InterpolationMode", DMLVK_FIELD_ENUM, offsetof(desc_t, InterpolationMode), 0, DMLVK_ENUM_INTERPOLATION_MODE }, \
        { "SpatialScaleX", DMLVK_FIELD_FLOAT, offsetof(desc_t, SpatialScaleX) },                                       \
        { "SpatialScaleY", DMLVK_FIELD_FLOAT, offsetof(desc_t, SpatialScaleY) },                                       \
        { "InputPixelOffset", DMLVK_FIELD_FLOAT, offsetof(desc_t, InputPixelOffset) },                                 \
        { "OutputPixelOffset", DMLVK_FIELD_FLOAT, offsetof(desc_t, OutputPixelOffset) }
#define ROI_ALIGN_SAMPLE_FIELDS(desc_t)                                                                                \
    { "MinimumSamplesPerOutput", DMLVK_FIELD_UINT, offsetof(desc_t, MinimumSamplesPerOutput) },                        \
        { "MaximumSamplesPerOutput", DMLVK_FIELD_UINT, offsetof(desc_t, MaximumSamplesPerOutput) },                    \
        { "AlignRegionsToCorners", DMLVK_FIELD_BOOL, offsetof(desc_t, AlignRegionsToCorners) }

/* Channels per invocation of the stages that sample the input (ROI_ALIGN1, the ROI gradient);
 * both have InputTensor. */
uint32_t dmlvk_roi_align_channels(const struct roi_shape *s);

/* How the stages with a workgroup per region and group of channels spread its work. */
enum roi_walk {
    ROI_WALK_BINS,          /* neighbouring invocations on neighbouring bins of a channel */
    ROI_WALK_ROWS,          /* ROI_ALIGN1's sample rows */
    ROI_WALK_CHANNEL_LANES, /* whole bins, neighbouring invocations on neighbouring channels of a bin */
};

/* Whether InputTensor's channels lie closer than its columns (NHWC): there the whole bins take
 * ROI_WALK_CHANNEL_LANES. */
bool dmlvk_roi_align_channels_closest(const struct roi_shape *s);

/* The invocations of workgroups of wg over every region and channel, group_channels channels each. */
uint64_t dmlvk_roi_align_region_invocations(const struct roi_shape *s, uint32_t group_channels, uint32_t wg);

/* Those stages (ROI_ALIGN1, the MAX scatter): the channels of a group for `per_invocation`
 * channels per invocation of `walk`, and the invocations to dispatch. */
uint64_t dmlvk_roi_align_region_groups(const struct dmlvk_op_context *ctx, const struct roi_shape *s,
                                       uint32_t per_invocation, enum roi_walk walk, uint32_t *group_channels);

/* The specialization constants both operators' stages but the geometry share: LINEAR, MAXIMUM, ALIGN_CORNERS
 * (the geometry reads them from roi_align_params' modes). */
void dmlvk_roi_align_spec(const struct roi_fields *f, struct dmlvk_op_plan *plan, struct dmlvk_dispatch_plan *d);

/* The operators' diagnostics counters, by ROI_COUNTER_* index. */
extern const char *const dmlvk_roi_align_counter_names[ROI_COUNTERS];

#endif
