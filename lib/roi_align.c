/* Validation and parameters shared by the two ROI align operators. */
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
    };
    for (uint32_t d = 0; d < 4; d++) {
        p.in_strides[d] = f->input ? s->input.strides[d] : 0;
        p.bin_strides[d] = s->bins.strides[d];
        p.grad_strides[d] = f->grad ? s->grad.strides[d] : 0;
    }
    dmlvk_params_append(plan, &p, sizeof(p));
    return DMLVK_OK;
}

const char *const dmlvk_roi_align_counter_names[ROI_COUNTERS] = {
    [ROI_COUNTER_SKIPPED_REGIONS] = "skipped_regions",
};

void dmlvk_roi_align_spec(const struct roi_fields *f, struct dmlvk_op_plan *plan, struct dmlvk_dispatch_plan *d)
{
    dmlvk_dispatch_spec(plan, d, ROI_SPEC_LINEAR, f->mode == DMLVK_INTERPOLATION_MODE_LINEAR);
    dmlvk_dispatch_spec(plan, d, ROI_SPEC_MAXIMUM, f->reduction == DMLVK_REDUCE_FUNCTION_MAX);
    dmlvk_dispatch_spec(plan, d, ROI_SPEC_ALIGN_CORNERS, f->align != 0);
}
