/*
 * Writes randomized conformance cases (CASES.md format) whose expected outputs come from the
 * float64 references in reference.c: random shapes, strides (packed, padded, transposed,
 * broadcast), data types and special values. dmlvk-run then checks the GPU against them.
 *
 * usage: refgen OUTDIR [SEED [SIZE]]
 * SIZE (default 1) multiplies the upper bounds of the resample and ROI shapes: larger maps, more
 * channels, regions and bins reach the kernels' other paths (block windows, gather tiles).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "half.h"
#include "refgen.h"
#include "reference.h"

uint64_t rng_u64(struct rng *r)
{
    return splitmix64_next(&r->state);
}

uint32_t rng_range(struct rng *r, uint32_t lo, uint32_t hi)
{
    return lo + (uint32_t)(rng_u64(r) % (uint64_t)(hi - lo + 1));
}

double rng_uniform(struct rng *r, double lo, double hi)
{
    return lo + (hi - lo) * ((double)(rng_u64(r) >> 11) * 0x1p-53);
}

/* What a value becomes once stored in a tensor of the type: the reference sees what the GPU sees. */
const char *const gen_type_names[GEN_TYPES] = { "FLOAT32", "FLOAT16", "BFLOAT16" };

double representable(double v, enum gen_type type)
{
    return type == GEN_FLOAT16    ? half_to_float(half_from_double(v))
           : type == GEN_BFLOAT16 ? bfloat16_to_float(bfloat16_from_double(v))
                                  : (double)(float)v;
}

void gen_shape(struct rng *r, struct gen_tensor *t, uint32_t dims, uint32_t max_elements)
{
    t->dims = dims;
    uint64_t total = 1;
    for (uint32_t d = 0; d < dims; d++) {
        uint32_t limit = (uint32_t)(max_elements / total);
        uint32_t hi = limit < 7 ? limit : 7;
        t->sizes[d] = hi <= 1 ? 1 : rng_range(r, 1, hi);
        total *= t->sizes[d];
    }
    t->elements = total;
}

void gen_strides(struct rng *r, struct gen_tensor *t, bool input)
{
    uint32_t kind = rng_range(r, 0, input ? 3 : 2);
    t->has_strides = kind != 0;
    uint32_t order[GEN_MAX_DIMS];
    for (uint32_t d = 0; d < t->dims; d++)
        order[d] = d;
    if (kind == 2) /* transposed: a random axis order */
        for (uint32_t d = t->dims; d > 1; d--) {
            uint32_t j = rng_range(r, 0, d - 1), tmp = order[d - 1];
            order[d - 1] = order[j];
            order[j] = tmp;
        }
    uint64_t stride = 1;
    for (uint32_t k = t->dims; k-- > 0;) {
        uint32_t d = order[k];
        t->strides[d] = (uint32_t)stride;
        uint32_t pad = kind == 1 ? rng_range(r, 0, 3) : 0;
        stride = stride * t->sizes[d] + pad;
    }
    if (kind == 3) /* broadcast: some axes read one element */
        for (uint32_t d = 0; d < t->dims; d++)
            if (rng_range(r, 0, 2) == 0)
                t->strides[d] = 0;
    t->max_offset = 0;
    for (uint32_t d = 0; d < t->dims; d++)
        t->max_offset += (uint64_t)(t->sizes[d] - 1) * t->strides[d];
    if (!t->has_strides) {
        t->max_offset = t->elements - 1;
        uint64_t s = 1;
        for (uint32_t d = t->dims; d-- > 0;) {
            t->strides[d] = (uint32_t)s;
            s *= t->sizes[d];
        }
    }
}

void gen_logical(const struct gen_tensor *t, const double *memory, double *logical)
{
    for (uint64_t i = 0; i < t->elements; i++) {
        uint64_t rem = i, off = 0;
        for (uint32_t d = t->dims; d-- > 0;) {
            off += (rem % t->sizes[d]) * t->strides[d];
            rem /= t->sizes[d];
        }
        logical[i] = memory[off];
    }
}

static json_t *number(double v)
{
    if (isnan(v))
        return json_string("nan");
    if (isinf(v))
        return json_string(v > 0 ? "inf" : "-inf");
    return json_real(v);
}

json_t *json_numbers(const double *v, uint64_t n)
{
    json_t *a = json_array();
    for (uint64_t i = 0; i < n; i++)
        json_array_append_new(a, number(v[i]));
    return a;
}

json_t *json_u32s(const uint32_t *v, uint32_t n)
{
    json_t *a = json_array();
    for (uint32_t i = 0; i < n; i++)
        json_array_append_new(a, json_integer(v[i]));
    return a;
}

json_t *gen_tensor_json(const struct gen_tensor *t, const char *type, const double *logical)
{
    json_t *o = json_object();
    json_object_set_new(o, "dataType", json_string(type));
    json_object_set_new(o, "sizes", json_u32s(t->sizes, t->dims));
    if (t->has_strides)
        json_object_set_new(o, "strides", json_u32s(t->strides, t->dims));
    if (logical)
        json_object_set_new(o, "data", json_numbers(logical, t->elements));
    return o;
}

json_t *gen_expected_json(const double *values, uint64_t n, double ulp, double abs_tol)
{
    json_t *o = json_object();
    json_object_set_new(o, "data", json_numbers(values, n));
    if (ulp >= 0)
        json_object_set_new(o, "ulp", json_real(ulp));
    if (abs_tol >= 0)
        json_object_set_new(o, "abs", json_real(abs_tol));
    return o;
}

/* Random memory for an input: values in [-2, 2], a few exact zeros, -0 and NaN. */
double *gen_memory(struct rng *r, const struct gen_tensor *t, enum gen_type type, bool specials)
{
    double *m = malloc((t->max_offset + 1) * sizeof(double));
    for (uint64_t i = 0; i <= t->max_offset; i++) {
        uint32_t k = specials ? rng_range(r, 0, 19) : 99;
        m[i] = k == 0 ? 0.0 : k == 1 ? -0.0 : k == 2 ? NAN : representable(rng_uniform(r, -2, 2), type);
    }
    return m;
}

static json_t *relu_cases(struct rng *r, bool grad, int count)
{
    json_t *cases = json_array();
    for (int n = 0; n < count; n++) {
        enum gen_type kind = (enum gen_type)(n % GEN_TYPES);
        bool f16 = kind != GEN_FLOAT32; /* 16-bit storage */
        const char *type = gen_type_names[kind];
        struct gen_tensor t[3];
        uint32_t nt = grad ? 3 : 2;
        gen_shape(r, &t[0], rng_range(r, 1, 8), 3000);
        for (uint32_t i = 1; i < nt; i++)
            t[i] = t[0];
        for (uint32_t i = 0; i < nt; i++)
            gen_strides(r, &t[i], i + 1 < nt);
        uint64_t e = t[0].elements;
        double *x = malloc(e * sizeof(double)), *dy = malloc(e * sizeof(double)), *out = malloc(e * sizeof(double));
        double *mx = gen_memory(r, &t[0], kind, true);
        gen_logical(&t[0], mx, x);
        double *mdy = NULL;
        if (grad) {
            mdy = gen_memory(r, &t[1], kind, true);
            gen_logical(&t[1], mdy, dy);
            ref_relu_grad(x, dy, out, e);
        } else {
            ref_relu(x, out, e);
        }
        json_t *c = json_object();
        char name[96];
        snprintf(name, sizeof(name), "%s/random-%d-%s", grad ? "relu_grad" : "relu", n, type);
        json_object_set_new(c, "name", json_string(name));
        json_object_set_new(c, "operator", json_string(grad ? "ACTIVATION_RELU_GRAD" : "ACTIVATION_RELU"));
        if (f16)
            json_object_set_new(c, "requires", json_pack("[s]", "float16"));
        json_t *tensors = json_object();
        json_object_set_new(tensors, "InputTensor", gen_tensor_json(&t[0], type, x));
        if (grad)
            json_object_set_new(tensors, "InputGradientTensor", gen_tensor_json(&t[1], type, dy));
        const char *out_name = grad ? "OutputGradientTensor" : "OutputTensor";
        json_object_set_new(tensors, out_name, gen_tensor_json(&t[nt - 1], type, NULL));
        json_object_set_new(c, "tensors", tensors);
        json_t *expected = json_object();
        json_object_set_new(expected, out_name, gen_expected_json(out, e, -1, -1));
        json_object_set_new(c, "expected", expected);
        json_array_append_new(cases, c);
        free(x);
        free(dy);
        free(out);
        free(mx);
        free(mdy);
    }
    return cases;
}

static const char *const resample_ops[] = { "RESAMPLE1", "RESAMPLE2", "RESAMPLE_GRAD", "RESAMPLE_GRAD1" };

static uint32_t size_factor(const struct rng *r)
{
    return r->size ? r->size : 1;
}

/* One random resample descriptor of op (0..3 as in resample_ops). */
static void random_resample(struct rng *r, int op, struct ref_resample *rs)
{
    static const float nice_scales[] = { 0.5f, 1, 1.5f, 2, 3, 0.75f, 1.0f / 3, 2.5f };
    static const float offsets[][2] = { { 0.5f, -0.5f }, { 0, 0 }, { 0, -0.5f }, { 1, -0.5f }, { 0.5f, 0 } };
    memset(rs, 0, sizeof(*rs));
    rs->dims = op == 2 ? 4 : rng_range(r, 1, 4);
    rs->linear = rng_range(r, 0, 1);
    rs->rounding = op == 0 || op == 2 ? REF_ROUND_HALF_DOWN : rng_range(r, 0, 1) ? REF_ROUND_FLOOR : REF_ROUND_CEIL;
    for (uint32_t d = 0; d < rs->dims; d++) {
        bool resample = rs->dims <= 2 || d >= rs->dims - 2 || rng_range(r, 0, 3) == 0;
        uint32_t k = rng_range(r, 0, 9);
        float scale = !resample ? 1 : k < 8 ? nice_scales[k] : (float)rng_uniform(r, 0.3, 3.5);
        uint32_t o = rng_range(r, 0, 5);
        rs->scales[d] = scale;
        rs->input_offsets[d] = o < 5 ? offsets[o][0] : (float)rng_uniform(r, -1, 1);
        rs->output_offsets[d] = o < 5 ? offsets[o][1] : (float)rng_uniform(r, -1, 1);
        uint32_t small = rng_range(r, 1, resample ? 9 * size_factor(r) : 3);
        /* Usually the size the scale implies; sometimes cropped or extended (edges repeat). */
        int64_t big = (int64_t)floor(small * scale + 0.5) + (rng_range(r, 0, 3) == 0 ? (int64_t)rng_range(r, 0, 4) - 2 : 0);
        rs->small_sizes[d] = small;
        rs->big_sizes[d] = (uint32_t)(big < 1 ? 1 : big);
    }
}

static json_t *resample_desc_json(int op, const struct ref_resample *rs)
{
    json_t *d = json_object();
    json_object_set_new(d, "InterpolationMode", json_string(rs->linear ? "LINEAR" : "NEAREST_NEIGHBOR"));
    if (op == 1 || op == 3)
        json_object_set_new(d, "RoundingDirection",
                            json_string(rs->rounding == REF_ROUND_FLOOR ? "DECREASING" : "INCREASING"));
    double v[3][4];
    for (uint32_t i = 0; i < rs->dims; i++) {
        v[0][i] = rs->scales[i];
        v[1][i] = rs->input_offsets[i];
        v[2][i] = rs->output_offsets[i];
    }
    json_object_set_new(d, "Scales", json_numbers(v[0], rs->dims));
    json_object_set_new(d, "InputPixelOffsets", json_numbers(v[1], rs->dims));
    json_object_set_new(d, "OutputPixelOffsets", json_numbers(v[2], rs->dims));
    return d;
}

static json_t *resample_cases(struct rng *r, int op, int count)
{
    json_t *cases = json_array();
    bool backward = op >= 2;
    for (int n = 0; n < count; n++) {
        enum gen_type kind = (enum gen_type)(n % GEN_TYPES);
        bool f16 = kind != GEN_FLOAT32; /* 16-bit storage */
        const char *type = gen_type_names[kind];
        /* bfloat16 keeps 8 significant bits where float16 keeps 11. */
        double coarse = kind == GEN_BFLOAT16 ? 8 : 1;
        struct ref_resample rs;
        random_resample(r, op, &rs);
        struct gen_tensor src, dst;
        memset(&src, 0, sizeof(src));
        src.dims = dst.dims = rs.dims;
        src.elements = dst.elements = 1;
        for (uint32_t d = 0; d < rs.dims; d++) {
            src.sizes[d] = backward ? rs.big_sizes[d] : rs.small_sizes[d];
            dst.sizes[d] = backward ? rs.small_sizes[d] : rs.big_sizes[d];
            src.elements *= src.sizes[d];
            dst.elements *= dst.sizes[d];
        }
        gen_strides(r, &src, true);
        gen_strides(r, &dst, false);
        double *mem = gen_memory(r, &src, kind, false);
        double *x = malloc(src.elements * sizeof(double));
        double *y = malloc(dst.elements * sizeof(double)), *mag = malloc(dst.elements * sizeof(double));
        gen_logical(&src, mem, x);
        if (backward)
            ref_resample_backward(&rs, x, y, mag);
        else
            ref_resample_forward(&rs, x, y, mag);
        double max_mag = 0;
        for (uint64_t i = 0; i < dst.elements; i++)
            max_mag = mag[i] > max_mag ? mag[i] : max_mag;

        json_t *c = json_object();
        char name[96];
        snprintf(name, sizeof(name), "%s/random-%d-%s-%s", resample_ops[op], n, rs.linear ? "linear" : "nearest", type);
        json_object_set_new(c, "name", json_string(name));
        json_object_set_new(c, "operator", json_string(resample_ops[op]));
        if (f16)
            json_object_set_new(c, "requires", json_pack("[s]", "float16"));
        json_object_set_new(c, "desc", resample_desc_json(op, &rs));
        const char *src_name = backward ? "InputGradientTensor" : "InputTensor";
        const char *dst_name = backward ? "OutputGradientTensor" : "OutputTensor";
        json_t *tensors = json_object();
        json_object_set_new(tensors, src_name, gen_tensor_json(&src, type, x));
        json_object_set_new(tensors, dst_name, gen_tensor_json(&dst, type, NULL));
        json_object_set_new(c, "tensors", tensors);
        /* float32 accumulation of a few dozen terms, and the float16 store's rounding. */
        json_t *expected = json_object();
        json_object_set_new(expected, dst_name,
                            gen_expected_json(y, dst.elements, f16 ? 1 : 4, (f16 ? 1e-3 * coarse : 2e-6) * max_mag));
        json_object_set_new(c, "expected", expected);
        json_array_append_new(cases, c);
        free(mem);
        free(x);
        free(y);
        free(mag);
    }
    return cases;
}

static json_t *strided_tensor(const char *type, const uint32_t *sizes, uint32_t dims, struct rng *r, const double *logical)
{
    struct gen_tensor t = { .dims = dims, .elements = 1 };
    for (uint32_t d = 0; d < dims; d++) {
        t.sizes[d] = sizes[d];
        t.elements *= sizes[d];
    }
    gen_strides(r, &t, false); /* strided, never broadcast: every logical value is its own */
    return gen_tensor_json(&t, type, logical);
}

static double max_of(const double *v, uint64_t n)
{
    double m = 0;
    for (uint64_t i = 0; i < n; i++)
        m = v[i] > m ? v[i] : m;
    return m;
}

/* Whether every MAX bin's winner is clear of the other samples by more than float32's arithmetic
 * can blur (reference.c's max_tie), as test_roi_align's MAX draws are: samples that tie only in
 * real arithmetic (two rows of different inputs whose interpolations coincide, say) need not tie
 * in the device's float32, and the expected gradient would then hang on rounding. Draws x again
 * up to 19 times; false where every draw stays ambiguous. */
static bool max_winners_clear(struct ref_roi *q, double *x, uint64_t nx, const double *dy, struct rng *r,
                              enum gen_type kind)
{
    double *dx = malloc(nx * sizeof(double));
    uint64_t ambiguous = 1;
    q->max_tie = 1e-5;
    for (int attempt = 0; attempt < 20 && ambiguous; attempt++) {
        if (attempt > 0)
            for (uint64_t i = 0; i < nx; i++)
                x[i] = representable(rng_uniform(r, -2, 2), kind);
        ambiguous = 0;
        q->ambiguous = &ambiguous;
        ref_roi_backward(q, x, dy, dx, NULL, NULL, NULL);
    }
    q->ambiguous = NULL;
    free(dx);
    return ambiguous == 0;
}

/* Random ROI align cases, forward (backward false) or backward, checked against reference.c. */
static json_t *roi_cases(struct rng *r, bool backward, int count)
{
    static const double scales[] = { 1, 0.5, 0.25, 2 };
    static const double offsets[][2] = { { 0.5, -0.5 }, { 0, -0.5 }, { 0, 0 }, { 0.25, 0.5 } };
    json_t *cases = json_array();
    for (int n = 0; n < count; n++) {
        enum gen_type kind = (enum gen_type)(n % GEN_TYPES);
        bool f16 = kind != GEN_FLOAT32; /* 16-bit storage */
        const char *type = gen_type_names[kind];
        /* bfloat16 keeps 8 significant bits where float16 keeps 11. */
        double coarse = kind == GEN_BFLOAT16 ? 8 : 1;
        struct ref_roi q = { 0 };
        const uint32_t size = size_factor(r);
        /* Every tenth: more regions than a workgroup of 256 (so more than a round of the gather's
         * scan at one per invocation) on a small map, in few channels and bins. */
        const bool many = n % 10 == 9;
        q.batch = rng_range(r, 1, 2);
        q.channels = rng_range(r, 1, many ? 3 : 3 * size);
        q.height = rng_range(r, 2, 8 * size);
        q.width = rng_range(r, 2, 8 * size);
        q.num_rois = rng_range(r, many ? 257 : 1, many ? 700 : 4 * size);
        q.out_h = rng_range(r, 1, many ? 2 : 3 * size);
        q.out_w = rng_range(r, 1, many ? 2 : 3 * size);
        q.linear = rng_range(r, 0, 3) != 0;
        q.maximum = rng_range(r, 0, 3) == 0;
        q.align_corners = rng_range(r, 0, 4) == 0;
        q.spatial_x = scales[rng_range(r, 0, 3)];
        q.spatial_y = scales[rng_range(r, 0, 3)];
        uint32_t o = rng_range(r, 0, 3);
        q.input_offset = offsets[o][0];
        q.output_offset = offsets[o][1];
        q.oob_value = representable(rng_uniform(r, -1, 1), kind);
        bool adaptive = rng_range(r, 0, 2) == 0;
        q.min_samples = rng_range(r, 1, 2);
        q.max_samples = adaptive ? 0xffffffffu : q.min_samples + rng_range(r, 0, 1);
        /* Every tenth from the fifth: a fixed 4 to 6 samples per bin and axis (from the draws
         * above, so that the other cases stay as they were), neighbours under a pixel apart on
         * most of these bins, as ROI_ALIGN1's lists of shared taps take them. */
        if (n % 10 == 4)
            q.min_samples = q.max_samples = 3 + q.min_samples + (q.max_samples != q.min_samples);
        /* Corners on a 1/16 grid, some outside the input, some empty or mirrored; a batch index
         * out of range now and then. */
        double *rois = malloc(4 * q.num_rois * sizeof(double));
        uint32_t *bidx = malloc(q.num_rois * sizeof(uint32_t));
        for (uint32_t k = 0; k < q.num_rois; k++) {
            double ex = q.width / q.spatial_x, ey = q.height / q.spatial_y;
            for (int c = 0; c < 4; c++) {
                double lim = c % 2 ? ey : ex;
                /* Sixteenths fit float16 at these sizes; bfloat16 keeps fewer bits and rounds them. */
                rois[4 * k + c] = representable(floor(rng_uniform(r, -0.3 * lim, 1.2 * lim) * 16) / 16, kind);
            }
            if (rng_range(r, 0, 7) == 0)
                rois[4 * k + 2] = rois[4 * k]; /* empty along x */
            bidx[k] = rng_range(r, 0, 9) == 0 ? q.batch + 2 : rng_range(r, 0, q.batch - 1);
        }
        q.rois = rois;
        q.batch_indices = bidx;
        uint64_t nx = (uint64_t)q.batch * q.channels * q.height * q.width;
        uint64_t ny = (uint64_t)q.num_rois * q.channels * q.out_h * q.out_w;
        double *x = malloc(nx * sizeof(double)), *dy = malloc(ny * sizeof(double));
        for (uint64_t i = 0; i < nx; i++)
            x[i] = representable(rng_uniform(r, -2, 2), kind);
        for (uint64_t i = 0; i < ny; i++)
            dy[i] = representable(rng_uniform(r, -1, 1), kind);
        if (backward && q.maximum && !max_winners_clear(&q, x, nx, dy, r, kind))
            q.maximum = false;

        json_t *c = json_object(), *desc = json_object(), *tensors = json_object(), *expected = json_object();
        char name[96];
        snprintf(name, sizeof(name), "%s/random-%d-%s-%s-%s", backward ? "roi_align_grad" : "roi_align1", n,
                 q.linear ? "linear" : "nearest", q.maximum ? "max" : "average", type);
        json_object_set_new(c, "name", json_string(name));
        json_object_set_new(c, "operator", json_string(backward ? "ROI_ALIGN_GRAD" : "ROI_ALIGN1"));
        if (f16)
            json_object_set_new(c, "requires", json_pack("[s]", "float16"));
        json_object_set_new(desc, "ReductionFunction", json_string(q.maximum ? "MAX" : "AVERAGE"));
        json_object_set_new(desc, "InterpolationMode", json_string(q.linear ? "LINEAR" : "NEAREST_NEIGHBOR"));
        json_object_set_new(desc, "SpatialScaleX", json_real(q.spatial_x));
        json_object_set_new(desc, "SpatialScaleY", json_real(q.spatial_y));
        json_object_set_new(desc, "InputPixelOffset", json_real(q.input_offset));
        json_object_set_new(desc, "OutputPixelOffset", json_real(q.output_offset));
        json_object_set_new(desc, "MinimumSamplesPerOutput", json_integer(q.min_samples));
        json_object_set_new(desc, "MaximumSamplesPerOutput", json_integer(q.max_samples));
        json_object_set_new(desc, "AlignRegionsToCorners", json_boolean(q.align_corners));
        uint32_t in_sizes[4] = { q.batch, q.channels, q.height, q.width };
        uint32_t bin_sizes[4] = { q.num_rois, q.channels, q.out_h, q.out_w };
        uint32_t roi_dims = rng_range(r, 2, 4), roi_sizes[4] = { 1, 1, 1, 1 };
        roi_sizes[roi_dims - 2] = q.num_rois;
        roi_sizes[roi_dims - 1] = 4;
        uint32_t batch_dims = rng_range(r, 1, 4), batch_sizes[4] = { 1, 1, 1, 1 };
        batch_sizes[batch_dims - 1] = q.num_rois;
        double *bvals = malloc(q.num_rois * sizeof(double));
        for (uint32_t k = 0; k < q.num_rois; k++)
            bvals[k] = bidx[k];
        json_object_set_new(tensors, "ROITensor", strided_tensor(type, roi_sizes, roi_dims, r, rois));
        json_object_set_new(tensors, "BatchIndicesTensor", strided_tensor("UINT32", batch_sizes, batch_dims, r, bvals));
        if (!backward) {
            json_object_set_new(desc, "OutOfBoundsInputValue", json_real(q.oob_value));
            double *out = malloc(ny * sizeof(double));
            ref_roi_forward(&q, x, out);
            double mag = 0;
            for (uint64_t i = 0; i < ny; i++)
                mag = fabs(out[i]) > mag ? fabs(out[i]) : mag;
            json_object_set_new(tensors, "InputTensor", strided_tensor(type, in_sizes, 4, r, x));
            json_object_set_new(tensors, "OutputTensor", strided_tensor(type, bin_sizes, 4, r, NULL));
            json_object_set_new(expected, "OutputTensor", gen_expected_json(out, ny, f16 ? 1 : 8, (f16 ? 2e-3 * coarse : 1e-5) * (mag + 1)));
            free(out);
        } else {
            /* Which outputs: both, only the input gradient (then sometimes without InputTensor), only the ROI gradient. */
            uint32_t which = rng_range(r, 0, 2);
            bool want_dx = which != 2, want_droi = which != 1;
            bool with_x = want_droi || q.maximum || rng_range(r, 0, 1);
            double *dx = malloc(nx * sizeof(double)), *dx_abs = malloc(nx * sizeof(double));
            double *droi = malloc(4 * q.num_rois * sizeof(double)), *droi_abs = malloc(4 * q.num_rois * sizeof(double));
            ref_roi_backward(&q, x, dy, dx, droi, dx_abs, droi_abs);
            if (with_x)
                json_object_set_new(tensors, "InputTensor", strided_tensor(type, in_sizes, 4, r, x));
            json_object_set_new(tensors, "InputGradientTensor", strided_tensor(type, bin_sizes, 4, r, dy));
            if (want_dx) {
                json_object_set_new(tensors, "OutputGradientTensor", strided_tensor(type, in_sizes, 4, r, NULL));
                json_object_set_new(expected, "OutputGradientTensor",
                                    gen_expected_json(dx, nx, f16 ? 1 : 8, (f16 ? 2e-3 * coarse : 1e-5) * (max_of(dx_abs, nx) + 1e-3)));
            }
            if (want_droi) {
                json_object_set_new(tensors, "OutputROIGradientTensor", strided_tensor(type, roi_sizes, roi_dims, r, NULL));
                json_object_set_new(expected, "OutputROIGradientTensor",
                                    gen_expected_json(droi, 4 * q.num_rois, f16 ? 1 : 8,
                                                      (f16 ? 4e-3 * coarse : 1e-5) * (max_of(droi_abs, 4 * q.num_rois) + 1e-3)));
            }
            free(dx);
            free(dx_abs);
            free(droi);
            free(droi_abs);
        }
        json_object_set_new(c, "desc", desc);
        json_object_set_new(c, "tensors", tensors);
        json_object_set_new(c, "expected", expected);
        json_array_append_new(cases, c);
        free(rois);
        free(bidx);
        free(bvals);
        free(x);
        free(dy);
    }
    return cases;
}

static int write_cases(const char *dir, const char *file, json_t *cases)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, file);
    json_t *doc = json_object();
    json_object_set_new(doc, "cases", cases);
    int rc = json_dump_file(doc, path, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(doc);
    if (rc)
        fprintf(stderr, "refgen: cannot write %s\n", path);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: refgen OUTDIR [SEED [SIZE]]\n");
        return 2;
    }
    struct rng r = { argc > 2 ? strtoull(argv[2], NULL, 0) : 1, argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : 1 };
    int rc = 0;
    rc |= write_cases(argv[1], "activation_relu.json", relu_cases(&r, false, 40));
    rc |= write_cases(argv[1], "activation_relu_grad.json", relu_cases(&r, true, 40));
    rc |= write_cases(argv[1], "resample1.json", resample_cases(&r, 0, 60));
    rc |= write_cases(argv[1], "resample2.json", resample_cases(&r, 1, 60));
    rc |= write_cases(argv[1], "resample_grad.json", resample_cases(&r, 2, 60));
    rc |= write_cases(argv[1], "resample_grad1.json", resample_cases(&r, 3, 60));
    rc |= write_cases(argv[1], "roi_align1.json", roi_cases(&r, false, 80));
    rc |= write_cases(argv[1], "roi_align_grad.json", roi_cases(&r, true, 80));
    return rc ? 1 : 0;
}
