/* ROI_ALIGN1 (OPERATORS.md section 4): the sample tables (roi_align.c), then the bins, a workgroup
 * per region and group of channels (beside them the regions whose samples share taps, by lists of
 * them), then where sums overflowed those bins again. Shaders: glsl/roi_align_geometry.comp,
 * glsl/roi_align1.comp, glsl/roi_align1_rows.comp, glsl/roi_align1_shared_taps.comp and
 * glsl/roi_align1_rescue.comp (the last four from glsl/roi_align1.glsl); validation shared with
 * ROI_ALIGN_GRAD in roi_align.c. */
#include <stddef.h>

#include "roi_align.h"

#define NAME "ROI_ALIGN1"
typedef dmlvk_roi_align1_operator_desc desc_t;

/* Float32 AVERAGE of at most WHOLE_BINS_MOST_REGIONS regions of at least WHOLE_BINS_LEAST_BINS bins
 * (14x14) each: whole bins of WHOLE_BIN_CHANNELS channels per invocation, not sample rows. */
#define WHOLE_BINS_MOST_REGIONS 1024
#define WHOLE_BINS_LEAST_BINS 196
#define WHOLE_BIN_CHANNELS 4
/* The sample rows in workgroups of fewer channels, down to ROWS_LEAST_CHANNELS_*, while the walk
 * then starts at most ROWS_SPREAD_PERCENT_* of the invocations the device holds at once: where
 * regions times groups of channels leave it half idle, more warps each walking fewer channels
 * finish sooner (BENCHMARKS.md note 225). Fixed sampling past that lost: more workgroups repeat their
 * regions' set-up, the shared taps' dispatch beside them takes smaller groups. Adaptive sampling,
 * whose samples per bin grow with regions the host cannot see, gained down to 8 channels at twice
 * the device and more; fixed rows of a sample per bin lost there. */
#define ROWS_LEAST_CHANNELS_FIXED 16
#define ROWS_SPREAD_PERCENT_FIXED 110
#define ROWS_LEAST_CHANNELS_ADAPTIVE 8
#define ROWS_SPREAD_PERCENT_ADAPTIVE 240
/* 16-bit AVERAGE by whole bins of two channels per invocation likewise, in place of about 32: fixed
 * sampling in groups of 8 channels within 110% of the device where a region has at least
 * BINS_LEAST_FIXED_SAMPLES samples (7x7 bins of one sample lost; groups of 16 lost on 7x7 bins,
 * whose second round of jobs is half empty), adaptive sampling in groups of 8 or 16 within 100%
 * (past it 16 lost up to 14%; BENCHMARKS.md note 226). */
#define BINS_LEAST_CHANNELS 8
#define BINS_SPREAD_PERCENT_FIXED 110
#define BINS_SPREAD_PERCENT_ADAPTIVE 100
#define BINS_LEAST_FIXED_SAMPLES 196
/* Workgroups of roi_align1_shared_taps: about two waves of a large GPU. */
#define SHARED_TAPS_WORKGROUPS 2048

static void bind(struct dmlvk_dispatch_plan *dp)
{
    DMLVK_BIND(dp, roi_align1_push, p, DMLVK_SLOT_PARAMS);
    DMLVK_BIND(dp, roi_align1_push, x, 0);
    DMLVK_BIND(dp, roi_align1_push, rois, 1);
    DMLVK_BIND(dp, roi_align1_push, batch, 2);
    DMLVK_BIND(dp, roi_align1_push, y, 3);
    DMLVK_BIND(dp, roi_align1_push, counters, DMLVK_SLOT_COUNTERS);
    DMLVK_BIND(dp, roi_align1_push, scratch, DMLVK_SLOT_SCRATCH);
}

/* The fewest channels per workgroup, halving from the largest power of two under group_channels
 * down to least, whose walk starts at most percent of the invocations the device holds at once;
 * group_channels itself where the first step would start more, or the device gives no count. */
static uint32_t spread_group_channels(const struct dmlvk_op_context *ctx, const struct roi_shape *s,
                                      uint32_t group_channels, uint32_t least, uint32_t percent)
{
    const uint64_t most = (uint64_t)percent * ctx->resident_invocations;
    uint32_t next = group_channels;
    while (next & (next - 1))
        next &= next - 1;
    if (next == group_channels)
        next /= 2;
    for (; next >= least && 100 * dmlvk_roi_align_region_invocations(s, next, ctx->workgroup_size) <= most; next /= 2)
        group_channels = next;
    return group_channels;
}

static dmlvk_status plan(const struct dmlvk_op_context *ctx, const void *opaque, struct dmlvk_op_plan *p)
{
    const desc_t *d = opaque;
    struct roi_fields f = {
        .op = NAME,
        .input = d->InputTensor,
        .bins = d->OutputTensor,
        .bins_name = "OutputTensor",
        .oob_value = d->OutOfBoundsInputValue,
        ROI_FIELDS_FROM(d),
    };
    struct roi_shape s;
    dmlvk_status st = dmlvk_roi_align_prepare(ctx, &f, &s, p);
    if (st != DMLVK_OK)
        return st;
    s.rois_slot = 1;
    s.batch_slot = 2;
    if (!dmlvk_roi_align_geometry(ctx, &s, p))
        return DMLVK_ERROR_UNSUPPORTED;
    /* Float32 AVERAGE by sample rows where the device can (roi_align1.glsl), which measured
     * slower with 16-bit types and with several channels per invocation (BENCHMARKS.md note 56).
     * An input whose channels lie closer than its columns (NHWC) puts neighbouring invocations on
     * neighbouring channels instead, whose rows would read a sector per lane, at most two channels
     * each: eight, where many bins share a small input, spread a warp's loads over eight times the
     * lines (note 114). Regions of many bins, but few of them, take whole bins of WHOLE_BIN_CHANNELS
     * channels instead (note 157; more regions gained little or ran slower, 7x7 bins ran slower
     * on a large map). */
    uint32_t channels = dmlvk_roi_align_channels(&s), group_channels;
    enum roi_walk walk = ROI_WALK_BINS;
    if (dmlvk_roi_align_channels_closest(&s)) {
        walk = ROI_WALK_CHANNEL_LANES;
        channels = channels < 2 ? channels : 2;
    } else if (channels == 1 && f.reduction != DMLVK_REDUCE_FUNCTION_MAX) {
        if (s.num_rois <= WHOLE_BINS_MOST_REGIONS && (uint64_t)s.out_h * s.out_w >= WHOLE_BINS_LEAST_BINS)
            channels = WHOLE_BIN_CHANNELS;
        else if (ctx->subgroup_shuffle)
            walk = ROI_WALK_ROWS;
    }
    dmlvk_roi_align_region_groups(ctx, &s, channels, walk, &group_channels);
    const bool fixed_sampling = f.min_samples == f.max_samples;
    if (walk == ROI_WALK_ROWS)
        group_channels = spread_group_channels(ctx, &s, group_channels,
                                               fixed_sampling ? ROWS_LEAST_CHANNELS_FIXED : ROWS_LEAST_CHANNELS_ADAPTIVE,
                                               fixed_sampling ? ROWS_SPREAD_PERCENT_FIXED : ROWS_SPREAD_PERCENT_ADAPTIVE);
    else if (walk == ROI_WALK_BINS && channels == 2 && f.reduction != DMLVK_REDUCE_FUNCTION_MAX) {
        const uint64_t bins = (uint64_t)s.out_h * s.out_w;
        if (!fixed_sampling)
            group_channels = spread_group_channels(ctx, &s, group_channels, BINS_LEAST_CHANNELS,
                                                   BINS_SPREAD_PERCENT_ADAPTIVE);
        else if ((uint64_t)f.min_samples * f.min_samples >= (BINS_LEAST_FIXED_SAMPLES + bins - 1) / bins &&
                 spread_group_channels(ctx, &s, group_channels, BINS_LEAST_CHANNELS, BINS_SPREAD_PERCENT_FIXED) ==
                     BINS_LEAST_CHANNELS)
            group_channels = BINS_LEAST_CHANNELS;
    }
    const uint64_t invocations = dmlvk_roi_align_region_invocations(&s, group_channels, ctx->workgroup_size);
    struct dmlvk_dispatch_plan *dp =
        dmlvk_plan_add_dispatch(p, ctx, walk == ROI_WALK_ROWS ? DMLVK_SHADER_ROI_ALIGN1_ROWS : DMLVK_SHADER_ROI_ALIGN1,
                                DMLVK_PUSH_SLOTS(roi_align1_push), invocations);
    if (!dp)
        return DMLVK_ERROR_UNSUPPORTED;
    dmlvk_roi_align_spec(&f, p, dp);
    dmlvk_dispatch_spec(p, dp, ROI_SPEC_CHANNELS, channels);
    dmlvk_dispatch_spec(p, dp, ROI_SPEC_GROUP_CHANNELS, group_channels);
    dmlvk_dispatch_spec(p, dp, ROI_SPEC_CHANNEL_LANES, walk == ROI_WALK_CHANNEL_LANES);
    bind(dp);
    /* AVERAGE sums that overflow where their means do not are summed again, scaled, by a dispatch
     * of their own (roi_align1.glsl). Float16 needs none: its finite inputs are at most 65504 and
     * a bin's count under 2^64, so a sum of finite samples overflows float32 only through
     * OutOfBoundsInputValue's share, and then the mean is past float16's largest too and rounds to
     * the same infinity. */
    bool rescue = f.reduction != DMLVK_REDUCE_FUNCTION_MAX && s.bins.type != DMLVK_TENSOR_DATA_TYPE_FLOAT16;
    dmlvk_dispatch_spec(p, dp, ROI_SPEC_RESCUE, rescue);
    /* AVERAGE regions whose bins' taps, listed per axis, are at most 2/5 of what the walks load
     * (ROI_SHARED_TAPS, marked by the geometry stage) take a dispatch of their own beside the
     * walks': lists in shared memory cost every region of a dispatch that holds them (BENCHMARKS.md
     * note 172). Beside float32's sample rows only where sampling is fixed: the rows walked
     * adaptive regions faster than lists (note 173), fixed ones of 4 samples per bin and axis on
     * small bins slower (note 209). Its workgroups look for the marked regions
     * (ROI_SPEC_SHARED_TAPS_SLOTS), about SHARED_TAPS_WORKGROUPS of them. */
    const bool shared_taps = f.reduction != DMLVK_REDUCE_FUNCTION_MAX && (walk != ROI_WALK_ROWS || fixed_sampling) &&
                             ROI_SHARED_TAPS_BYTES <= ctx->max_shared_bytes;
    dmlvk_dispatch_spec(p, dp, ROI_SPEC_SHARED_TAPS_APART, shared_taps);
    if (shared_taps) {
        const uint64_t chunks = (s.channels + group_channels - 1) / group_channels;
        uint64_t slots = SHARED_TAPS_WORKGROUPS / chunks;
        slots = slots < 1 ? 1 : slots > s.num_rois ? s.num_rois : slots;
        struct dmlvk_dispatch_plan *sd = dmlvk_plan_add_dispatch(p, ctx, DMLVK_SHADER_ROI_ALIGN1_SHARED_TAPS,
                                                                 DMLVK_PUSH_SLOTS(roi_align1_push),
                                                                 slots * chunks * ctx->workgroup_size);
        if (!sd)
            return DMLVK_ERROR_UNSUPPORTED;
        sd->concurrent = true;
        dmlvk_roi_align_spec(&f, p, sd);
        dmlvk_dispatch_spec(p, sd, ROI_SPEC_CHANNELS, channels);
        dmlvk_dispatch_spec(p, sd, ROI_SPEC_GROUP_CHANNELS, group_channels);
        dmlvk_dispatch_spec(p, sd, ROI_SPEC_CHANNEL_LANES, walk == ROI_WALK_CHANNEL_LANES);
        dmlvk_dispatch_spec(p, sd, ROI_SPEC_SHARED_TAPS_APART, true);
        dmlvk_dispatch_spec(p, sd, ROI_SPEC_SHARED_TAPS_SLOTS, (uint32_t)slots);
        dmlvk_dispatch_spec(p, sd, ROI_SPEC_RESCUE, rescue);
        bind(sd);
    }
    if (rescue) {
        struct dmlvk_dispatch_plan *rd = dmlvk_plan_add_dispatch(p, ctx, DMLVK_SHADER_ROI_ALIGN1_RESCUE,
                                                                 DMLVK_PUSH_SLOTS(roi_align1_push),
                                                                 (uint64_t)s.num_rois * ctx->workgroup_size);
        if (!rd)
            return DMLVK_ERROR_UNSUPPORTED;
        dmlvk_roi_align_spec(&f, p, rd);
        bind(rd);
        uint32_t flags = dmlvk_roi_align_reserve_scratch(p, ((uint64_t)s.num_rois + 3) / 4);
        struct roi_align_params *params = dmlvk_roi_align_params(&s, p);
        if (params)
            params->rescue_base = flags;
    }
    dmlvk_roi_align_place_tables(&s, p);
    return DMLVK_OK;
}

static const dmlvk_field_info fields[] = {
    { "InputTensor", DMLVK_FIELD_INPUT_TENSOR, offsetof(desc_t, InputTensor) },
    { "ROITensor", DMLVK_FIELD_INPUT_TENSOR, offsetof(desc_t, ROITensor) },
    { "BatchIndicesTensor", DMLVK_FIELD_INPUT_TENSOR, offsetof(desc_t, BatchIndicesTensor) },
    { "OutputTensor", DMLVK_FIELD_OUTPUT_TENSOR, offsetof(desc_t, OutputTensor) },
    ROI_ALIGN_MODE_FIELDS(desc_t),
    { "OutOfBoundsInputValue", DMLVK_FIELD_FLOAT, offsetof(desc_t, OutOfBoundsInputValue) },
    ROI_ALIGN_SAMPLE_FIELDS(desc_t),
};

const struct dmlvk_op_class dmlvk_op_roi_align1 = {
    .info = {
        .type = DMLVK_OPERATOR_ROI_ALIGN1,
        .name = NAME,
        .desc_size = sizeof(desc_t),
        .field_count = DMLVK_ARRAY_SIZE(fields),
        .fields = fields,
        .tensor_count = 4,
    },
    .counter_count = ROI_COUNTERS,
    .counter_names = dmlvk_roi_align_counter_names,
    .plan = plan,
};
