/* Validation and parameters shared by the two ROI align operators. */
#include <inttypes.h>
#include <math.h>

#include "roi_align.h"

static dmlvk_status check_region_tensor(const char *op, const char *name, const struct dmlvk_tensor *t, uint32_t trailing,
                                        uint32_t last_size)
{
    /* {..., NumROIs, last} with leading 1s: only the last `trailing` axes may be larger than 1. */
    for (uint32_t d = 0; d + trailing < t->dims; d++)
        if (t->sizes[d] != 1)
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s.Sizes[%u]: must be 1 (leading axes), not %u", op, name,
                               d, t->sizes[d]);
    if (last_size && t->sizes[t->dims - 1] != last_size)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s.Sizes[%u]: must be %u, not %u", op, name, t->dims - 1,
                           last_size, t->sizes[t->dims - 1]);
    return DMLVK_OK;
}

static dmlvk_status check_finite(const char *op, const char *name, float v)
{
    if (!isfinite(v))
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s: %g is not finite", op, name, v);
    return DMLVK_OK;
}

static dmlvk_status agree(const char *op, const char *what, const char *a_name, uint32_t a, const char *b_name, uint32_t b)
{
    if (a != b)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s: %s has %u, %s has %u", op, what, b_name, b, a_name, a);
    return DMLVK_OK;
}

/* Entries of one axis' table: the most samples that can be in bounds. Adaptive counts keep the
 * samples at least half a cell apart past one per bin, so at most 2 * size + 3 fit in [-1, size];
 * otherwise every sample of the axis may (bins * MinimumSamplesPerOutput). */
static uint64_t table_entries(const struct roi_fields *f, uint32_t bins, uint32_t size)
{
    uint64_t all = (uint64_t)bins * f->max_samples, least = (uint64_t)bins * f->min_samples;
    uint64_t spread = 2 * (uint64_t)size + 3;
    uint64_t most = least > spread ? least : spread;
    return all < most ? all : most;
}

/* The modes as roi_align_params' ROI_MODE_* bits: the geometry stage reads them there, the other
 * stages as specialization constants (dmlvk_roi_align_spec). */
static uint32_t roi_modes(const struct roi_fields *f)
{
    return (f->mode == DMLVK_INTERPOLATION_MODE_LINEAR ? ROI_MODE_LINEAR : 0) |
           (f->reduction == DMLVK_REDUCE_FUNCTION_MAX ? ROI_MODE_MAXIMUM : 0) | (f->align ? ROI_MODE_ALIGN_CORNERS : 0);
}

dmlvk_status dmlvk_roi_align_prepare(const struct dmlvk_op_context *ctx, const struct roi_fields *f, struct roi_shape *s,
                                     struct dmlvk_op_plan *plan)
{
    const char *op = f->op;
    dmlvk_status st;
    if (f->reduction != DMLVK_REDUCE_FUNCTION_AVERAGE && f->reduction != DMLVK_REDUCE_FUNCTION_MAX)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: ReductionFunction: %d is neither AVERAGE (2) nor MAX (7)", op,
                           (int)f->reduction);
    if (f->mode != DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR && f->mode != DMLVK_INTERPOLATION_MODE_LINEAR)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: InterpolationMode: %d is neither NEAREST_NEIGHBOR nor LINEAR",
                           op, (int)f->mode);
    if (f->min_samples < 1)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: MinimumSamplesPerOutput: must be at least 1", op);
    if (f->min_samples > f->max_samples)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                           "%s: MaximumSamplesPerOutput: %u is less than MinimumSamplesPerOutput %u", op, f->max_samples,
                           f->min_samples);
    if ((st = check_finite(op, "SpatialScaleX", f->spatial_x)) || (st = check_finite(op, "SpatialScaleY", f->spatial_y)) ||
        (st = check_finite(op, "InputPixelOffset", f->in_off)) || (st = check_finite(op, "OutputPixelOffset", f->out_off)))
        return st;
    if (f->backward && !f->grad && !f->roi_grad)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT,
                           "%s: OutputGradientTensor, OutputROIGradientTensor: at least one output must be given", op);
    if (f->backward && !f->input && f->reduction == DMLVK_REDUCE_FUNCTION_MAX)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: InputTensor: required when ReductionFunction is MAX", op);
    if (f->backward && !f->input && f->roi_grad)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: InputTensor: required when OutputROIGradientTensor is given", op);

    const uint32_t floats = DMLVK_FLOAT_TYPES, uints = DMLVK_TYPE_BIT(DMLVK_TENSOR_DATA_TYPE_UINT32);
    if ((f->input && (st = dmlvk_check_tensor(ctx, "InputTensor", f->input, floats, 4, 4, false, &s->input))) ||
        (st = dmlvk_check_tensor(ctx, f->bins_name, f->bins, floats, 4, 4, !f->backward, &s->bins)) ||
        (st = dmlvk_check_tensor(ctx, "ROITensor", f->rois, floats, 2, 4, false, &s->rois)) ||
        (st = dmlvk_check_tensor(ctx, "BatchIndicesTensor", f->batch, uints, 1, 4, false, &s->batch)) ||
        (f->grad && (st = dmlvk_check_tensor(ctx, "OutputGradientTensor", f->grad, floats, 4, 4, true, &s->grad))) ||
        (f->roi_grad &&
         (st = dmlvk_check_tensor(ctx, "OutputROIGradientTensor", f->roi_grad, floats, 2, 4, true, &s->roi_grad))))
        return st;
    if ((st = check_region_tensor(op, "ROITensor", &s->rois, 2, 4)) ||
        (st = check_region_tensor(op, "BatchIndicesTensor", &s->batch, 1, 0)))
        return st;
    /* One float type throughout. */
    const struct dmlvk_tensor *first = &s->bins;
    if ((f->input && (st = dmlvk_check_same(op, f->bins_name, first, "InputTensor", &s->input, false))) ||
        (st = dmlvk_check_same(op, f->bins_name, first, "ROITensor", &s->rois, false)) ||
        (f->grad && (st = dmlvk_check_same(op, f->bins_name, first, "OutputGradientTensor", &s->grad, false))) ||
        (f->roi_grad && (st = dmlvk_check_same(op, f->bins_name, first, "OutputROIGradientTensor", &s->roi_grad, false))))
        return st;
    if (f->roi_grad && (st = dmlvk_check_same(op, "ROITensor", &s->rois, "OutputROIGradientTensor", &s->roi_grad, true)))
        return st;
    if (f->input && f->grad && (st = dmlvk_check_same(op, "InputTensor", &s->input, "OutputGradientTensor", &s->grad, true)))
        return st;

    const struct dmlvk_tensor *in = f->input ? &s->input : &s->grad;
    s->num_rois = s->rois.sizes[s->rois.dims - 2];
    s->channels = in->sizes[1];
    s->batch_count = in->sizes[0];
    s->in_h = in->sizes[2];
    s->in_w = in->sizes[3];
    s->out_h = s->bins.sizes[2];
    s->out_w = s->bins.sizes[3];
    const char *in_name = f->input ? "InputTensor" : "OutputGradientTensor";
    if ((st = agree(op, "NumROIs", "ROITensor", s->num_rois, "BatchIndicesTensor", s->batch.sizes[s->batch.dims - 1])) ||
        (st = agree(op, "NumROIs", "ROITensor", s->num_rois, f->bins_name, s->bins.sizes[0])) ||
        (st = agree(op, "ChannelCount", in_name, s->channels, f->bins_name, s->bins.sizes[1])))
        return st;

    /* The sample tables' entries are int, and positions are compared as 2 * size. */
    if (s->in_h >= (1u << 30) || s->in_w >= (1u << 30))
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "%s: %s.Sizes[2..3]: %u x %u; dmlvk limit: below 2^30 each", op, in_name,
                           s->in_h, s->in_w);
    s->table_x = table_entries(f, s->out_w, s->in_w);
    s->table_y = table_entries(f, s->out_h, s->in_h);
    s->geometry_width = 0;
    uint64_t region_vec4 = ROI_RECORD_VEC4 + s->table_x + s->table_y;
    if (s->table_x >= (UINT64_C(1) << 31) || s->table_y >= (UINT64_C(1) << 31) ||
        region_vec4 * s->num_rois * 16 > DMLVK_ROI_TABLES_MAX_BYTES)
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED,
                           "%s: MinimumSamplesPerOutput: %u samples per bin over %u x %u bins of %u regions need %" PRIu64
                           " bytes of sample tables; dmlvk limit: %" PRIu64,
                           op, f->min_samples, s->out_h, s->out_w, s->num_rois, region_vec4 * s->num_rois * 16,
                           (uint64_t)DMLVK_ROI_TABLES_MAX_BYTES);

    plan->data_type = first->type;
    struct roi_align_params p = {
        .num_rois = s->num_rois, .channels = s->channels, .in_h = s->in_h, .in_w = s->in_w, .out_h = s->out_h,
        .out_w = s->out_w, .batch_count = s->batch_count, .grad_elements = (uint32_t)in->elements,
        .roi_strides = { s->rois.strides[s->rois.dims - 2], s->rois.strides[s->rois.dims - 1] },
        .roi_grad_strides = { f->roi_grad ? s->roi_grad.strides[s->roi_grad.dims - 2] : 0,
                              f->roi_grad ? s->roi_grad.strides[s->roi_grad.dims - 1] : 0 },
        .batch_stride = s->batch.strides[s->batch.dims - 1],
        .spatial_x = f->spatial_x, .spatial_y = f->spatial_y, .in_off = f->in_off, .out_off = f->out_off,
        .oob_value = f->oob_value, .min_samples = f->min_samples, .max_samples = f->max_samples,
        .table_x = (uint32_t)s->table_x, .table_y = (uint32_t)s->table_y,
        .modes = roi_modes(f),
    };
    for (uint32_t d = 0; d < 4; d++) {
        p.in_strides[d] = f->input ? s->input.strides[d] : 0;
        p.bin_strides[d] = s->bins.strides[d];
        p.grad_strides[d] = f->grad ? s->grad.strides[d] : 0;
    }
    s->params_at = dmlvk_params_append(plan, &p, sizeof(p));
    return DMLVK_OK;
}

struct dmlvk_op_context dmlvk_roi_align_geometry_context(const struct dmlvk_op_context *ctx, const struct roi_shape *s)
{
    /* A workgroup per region, whose searches fill one warp and whose entries take an invocation
     * each: no more invocations than that, so that the device holds many more regions at once
     * (BENCHMARKS.md note 43). */
    uint64_t entries = (s->table_x + s->table_y + ROI_GEOMETRY_WORKGROUP - 1) / ROI_GEOMETRY_WORKGROUP *
                       ROI_GEOMETRY_WORKGROUP;
    return dmlvk_context_capped(ctx, entries > s->geometry_width ? entries : s->geometry_width);
}

struct dmlvk_dispatch_plan *dmlvk_roi_align_geometry(const struct dmlvk_op_context *ctx, const struct roi_shape *s,
                                                     struct dmlvk_op_plan *plan)
{
    struct dmlvk_op_context narrow = dmlvk_roi_align_geometry_context(ctx, s);
    struct dmlvk_dispatch_plan *d = dmlvk_plan_add_dispatch(plan, &narrow, DMLVK_SHADER_ROI_ALIGN_GEOMETRY,
                                                            DMLVK_PUSH_SLOTS(roi_align_geometry_push),
                                                            (uint64_t)s->num_rois * narrow.workgroup_size);
    if (!d)
        return NULL;
    if (ctx->float64)
        d->features |= DMLVK_VARIANT_FLOAT64;
    DMLVK_BIND(d, roi_align_geometry_push, p, DMLVK_SLOT_PARAMS);
    DMLVK_BIND(d, roi_align_geometry_push, rois, s->rois_slot);
    DMLVK_BIND(d, roi_align_geometry_push, batch, s->batch_slot);
    DMLVK_BIND(d, roi_align_geometry_push, scratch, DMLVK_SLOT_SCRATCH);
    DMLVK_BIND(d, roi_align_geometry_push, counters, DMLVK_SLOT_COUNTERS);
    return d;
}

struct roi_align_params *dmlvk_roi_align_params(const struct roi_shape *s, struct dmlvk_op_plan *plan)
{
    if (s->params_at == UINT32_MAX) /* the append failed: creation reports it */
        return NULL;
    return (struct roi_align_params *)(plan->params + s->params_at);
}

uint32_t dmlvk_roi_align_reserve_scratch(struct dmlvk_op_plan *plan, uint64_t vec4s)
{
    uint64_t base = (plan->scratch_bytes + 15) / 16;
    plan->scratch_bytes = 16 * (base + vec4s);
    return (uint32_t)base;
}

void dmlvk_roi_align_place_tables(const struct roi_shape *s, struct dmlvk_op_plan *plan)
{
    uint32_t base = dmlvk_roi_align_reserve_scratch(plan, (ROI_RECORD_VEC4 + s->table_x + s->table_y) * s->num_rois);
    struct roi_align_params *p = dmlvk_roi_align_params(s, plan);
    if (p)
        p->table_base = base;
}

const char *const dmlvk_roi_align_counter_names[ROI_COUNTERS] = {
    [ROI_COUNTER_SKIPPED_REGIONS] = "skipped_regions",
};

/*
 * Where the bins outnumber the input's elements, the input stays in cache and the per-sample
 * arithmetic bounds the time: 8 channels share it. Otherwise memory does, and more channels per
 * invocation only spread each warp's reads over more planes; 16-bit elements pack twice as many
 * per cache line, and 2 channels measured best there (BENCHMARKS.md note 34).
 */
uint32_t dmlvk_roi_align_channels(const struct roi_shape *s)
{
    if (s->bins.elements >= 4 * s->input.elements)
        return ROI_MAX_CHANNELS;
    return DMLVK_IS_16BIT_FLOAT(s->bins.type) ? 2 : 1;
}

uint64_t dmlvk_roi_align_region_invocations(const struct roi_shape *s, uint32_t group_channels, uint32_t wg)
{
    return (s->channels + group_channels - 1) / group_channels * (uint64_t)s->num_rois * wg;
}

/*
 * About 32 channels per workgroup (fewer, or 64, measured slower; BENCHMARKS.md notes 56-57, 59;
 * ROI_ALIGN1's sample rows take fewer where they would leave the device idle, roi_align1.c).
 * Whole bins take the most sets of per_invocation channels, up to 32 channels, whose jobs (a set's
 * bins each) leave at most 5% of the invocations idle in their last round (a 32-channel group of
 * 7x7 bins ran 784 jobs in four rounds of 256, the last nearly empty); where no count does, two
 * channels per 32 invocations times those per invocation, at most 64. Sample rows (ROI_ALIGN1's
 * float32 AVERAGE) hold two channels per subgroup in each pass: two passes. Channel lanes take 32
 * sets, a warp's lanes on one bin (31, whose warps straddle two bins, measured slower; note 114).
 */
uint64_t dmlvk_roi_align_region_groups(const struct dmlvk_op_context *ctx, const struct roi_shape *s,
                                       uint32_t per_invocation, enum roi_walk walk, uint32_t *group_channels)
{
    uint32_t wg = ctx->workgroup_size, warps = wg >= 64 ? wg / 32 : 1;
    uint32_t channels = walk == ROI_WALK_ROWS            ? 4 * warps
                        : walk == ROI_WALK_CHANNEL_LANES ? 32 * per_invocation
                                                         : per_invocation * 2 * warps;
    if (walk == ROI_WALK_BINS) {
        uint64_t bins = (uint64_t)s->out_h * s->out_w;
        for (uint32_t sets = 32 / per_invocation; sets > 0; sets--) {
            uint64_t jobs = sets * bins, rounds = (jobs + wg - 1) / wg;
            if (20 * jobs >= 19 * rounds * wg) {
                channels = sets * per_invocation;
                break;
            }
        }
    }
    *group_channels = channels < 64 ? channels : 64;
    return dmlvk_roi_align_region_invocations(s, *group_channels, wg);
}

bool dmlvk_roi_align_channels_closest(const struct roi_shape *s)
{
    return s->input.strides[1] < s->input.strides[3];
}

void dmlvk_roi_align_spec(const struct roi_fields *f, struct dmlvk_op_plan *plan, struct dmlvk_dispatch_plan *d)
{
    const uint32_t modes = roi_modes(f);
    dmlvk_dispatch_spec(plan, d, ROI_SPEC_LINEAR, (modes & ROI_MODE_LINEAR) != 0);
    dmlvk_dispatch_spec(plan, d, ROI_SPEC_MAXIMUM, (modes & ROI_MODE_MAXIMUM) != 0);
    dmlvk_dispatch_spec(plan, d, ROI_SPEC_ALIGN_CORNERS, (modes & ROI_MODE_ALIGN_CORNERS) != 0);
}
