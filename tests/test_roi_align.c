/* ROI align: the ROI gradient against finite differences, the adjoint identity, the three scatter
 * paths (float atomics, compare-and-swap, deterministic), and torchvision's formulas. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "gpu_util.h"
#include "half.h"
#include "reference.h"
#include "roi_align_abi.h"

static dmlvk_device *dev;
static dmlvk_device_info info;
static uint64_t rng_state = 777;

static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * ((double)(splitmix64_next(&rng_state) >> 11) * 0x1p-53);
}

static uint32_t below(uint32_t n)
{
    return (uint32_t)(splitmix64_next(&rng_state) % n);
}

/* The gather plans these tests pin were made for workgroups of 256 and 32 KiB of shared memory; at
 * Vulkan's minimums (tests/limits_layer: 128, 16 KiB) the planner takes others (fewer channels per
 * workgroup, so no staging), and only the results are checked there. */
static bool plans_pinned_here(void)
{
    return test_workgroup_most(dev) >= 256 && dev->props.limits.maxComputeSharedMemorySize >= 32768;
}

/* A gather's workgroup scans for the regions over its tile in rounds of at most 16 per invocation
 * (ROI_GATHER_SCAN_MOST): past 16 x 16 regions one of 16 invocations takes two rounds, the last
 * partial; past 16 x 32 one of 32 (a workgroup of whole warps where subgroups have 32). */
#define MAX_ROIS 544
#define TILE_ROIS 72
#define TILE_ROIS_TWO_ROUNDS 272

struct problem {
    struct ref_roi q;
    double rois[4 * MAX_ROIS];
    uint32_t batch[MAX_ROIS];
    double *x, *dy;
    uint64_t nx, ny;
};

/* Points q at p's regions and allocates x and dy for q's sizes, zeroed. */
static void alloc_problem(struct problem *p)
{
    struct ref_roi *q = &p->q;
    q->rois = p->rois;
    q->batch_indices = p->batch;
    p->nx = (uint64_t)q->batch * q->channels * q->height * q->width;
    p->ny = (uint64_t)q->num_rois * q->channels * q->out_h * q->out_w;
    p->x = calloc(p->nx, sizeof(double));
    p->dy = calloc(p->ny, sizeof(double));
}

/* alloc_problem with x uniform in [-1, 1], dY zero. */
static void alloc_input(struct problem *p)
{
    alloc_problem(p);
    for (uint64_t i = 0; i < p->nx; i++)
        p->x[i] = uniform(-1, 1);
}

/* alloc_problem with x and dY uniform in [-1, 1]. */
static void alloc_uniform(struct problem *p)
{
    alloc_input(p);
    for (uint64_t i = 0; i < p->ny; i++)
        p->dy[i] = uniform(-1, 1);
}

/* Random regions with corners off any grid, so that no sample sits on a tie or a cell edge. */
static void random_problem(struct problem *p, bool linear, bool maximum, bool adaptive)
{
    memset(p, 0, sizeof(*p));
    struct ref_roi *q = &p->q;
    q->batch = 2;
    q->channels = 2;
    q->height = 3 + below(6);
    q->width = 3 + below(6);
    q->num_rois = 1 + below(6);
    q->out_h = 1 + below(3);
    q->out_w = 1 + below(3);
    q->linear = linear;
    q->maximum = maximum;
    q->spatial_x = 0.5;
    q->spatial_y = 0.5;
    q->input_offset = 0.5;
    q->output_offset = -0.5;
    q->min_samples = adaptive ? 1 : 1 + below(3);
    q->max_samples = adaptive ? UINT32_MAX : q->min_samples;
    for (uint32_t k = 0; k < q->num_rois; k++) {
        double x1 = uniform(-2, 2 * q->width), y1 = uniform(-2, 2 * q->height);
        p->rois[4 * k] = x1;
        p->rois[4 * k + 1] = y1;
        p->rois[4 * k + 2] = x1 + uniform(-4, 2 * q->width);
        p->rois[4 * k + 3] = y1 + uniform(-4, 2 * q->height);
        p->batch[k] = below(2);
    }
    alloc_uniform(p);
}

static void free_problem(struct problem *p)
{
    free(p->x);
    free(p->dy);
}

/* random_problem with `channels` channels and, where many_bins, far more bins than input elements
 * (a tiny map under up to 7x7 bins: several channels per invocation); dY left zero. */
static void random_problem_channels(struct problem *p, bool linear, bool maximum, bool adaptive, uint32_t channels,
                                    bool many_bins)
{
    random_problem(p, linear, maximum, adaptive);
    free_problem(p);
    struct ref_roi *q = &p->q;
    q->channels = channels;
    if (many_bins) {
        q->height = 2 + below(3);
        q->width = 2 + below(3);
        q->out_h = 4 + below(4);
        q->out_w = 4 + below(4);
    }
    alloc_input(p);
}

/* Values made representable in the tested type, so that the reference sees what the GPU reads. */
static void round_to_type(double *v, uint64_t n, dmlvk_tensor_data_type type)
{
    for (uint64_t i = 0; i < n; i++)
        v[i] = type == DMLVK_TENSOR_DATA_TYPE_FLOAT16    ? half_to_float(half_from_double(v[i]))
               : type == DMLVK_TENSOR_DATA_TYPE_BFLOAT16 ? bfloat16_to_float(bfloat16_from_double(v[i]))
                                                         : (float)v[i];
}

/* The float types in turn, and the relative tolerance of a float32 sum rounded once to each. */
static const dmlvk_tensor_data_type float_types[3] = { DMLVK_TENSOR_DATA_TYPE_FLOAT32, DMLVK_TENSOR_DATA_TYPE_FLOAT16,
                                                       DMLVK_TENSOR_DATA_TYPE_BFLOAT16 };
static double type_tolerance(dmlvk_tensor_data_type type)
{
    return type == DMLVK_TENSOR_DATA_TYPE_FLOAT16 ? 2e-3 : type == DMLVK_TENSOR_DATA_TYPE_BFLOAT16 ? 1.6e-2 : 1e-5;
}

/* The reference input gradient and its magnitudes, and room for two GPU results. */
struct results {
    double *want, *mag, *got, *again;
};

static void reference_results(const struct problem *p, struct results *r)
{
    r->want = malloc(p->nx * sizeof(double));
    r->mag = malloc(p->nx * sizeof(double));
    r->got = malloc(p->nx * sizeof(double));
    r->again = malloc(p->nx * sizeof(double));
    ref_roi_backward(&p->q, p->x, p->dy, r->want, NULL, r->mag, NULL);
}

static void free_results(struct results *r)
{
    free(r->want);
    free(r->mag);
    free(r->got);
    free(r->again);
}

static double objective(const struct problem *p)
{
    double *out = malloc(p->ny * sizeof(double)), sum = 0;
    ref_roi_forward(&p->q, p->x, out);
    for (uint64_t i = 0; i < p->ny; i++)
        sum += out[i] * p->dy[i];
    free(out);
    return sum;
}

/* The ROI gradient formula is the derivative of sum(dY * ROI_ALIGN1(X)): central differences in float64. */
static void test_roi_gradient_finite_differences(void **state)
{
    (void)state;
    int checked = 0;
    for (int iter = 0; iter < 60; iter++) {
        struct problem p;
        random_problem(&p, true, iter % 3 == 2, iter % 2 == 1);
        double droi[24];
        ref_roi_backward(&p.q, p.x, p.dy, NULL, droi, NULL, NULL);
        for (uint32_t k = 0; k < 4 * p.q.num_rois; k++) {
            const double h = 1e-6, saved = p.rois[k];
            p.rois[k] = saved + h;
            double up = objective(&p);
            p.rois[k] = saved - h;
            double down = objective(&p);
            p.rois[k] = saved;
            double fd = (up - down) / (2 * h);
            /* A sample crossing a cell edge, a sample count changing or a MAX winner changing within
             * h makes the function kinked there: skip those rare coordinates, count the rest. */
            p.rois[k] = saved + 2 * h;
            double up2 = objective(&p);
            p.rois[k] = saved;
            if (fabs((up2 - up) - (up - objective(&p))) > 1e-9)
                continue;
            if (!(fabs(fd - droi[k]) <= 1e-5 * (1 + fabs(droi[k]))))
                fail_msg("case %d, coordinate %u: analytic %.12g, finite difference %.12g", iter, k, droi[k], fd);
            checked++;
        }
        free_problem(&p);
    }
    assert_true(checked > 300);
}

/* Values of a tensor of `type` from doubles (rounded to the type) and back. */
static void *to_type(const double *v, uint64_t n, dmlvk_tensor_data_type type)
{
    bool f16 = type == DMLVK_TENSOR_DATA_TYPE_FLOAT16, bf16 = type == DMLVK_TENSOR_DATA_TYPE_BFLOAT16;
    uint8_t *out = calloc(n + 1, 4);
    for (uint64_t e = 0; v && e < n; e++) {
        if (f16 || bf16)
            ((uint16_t *)out)[e] = f16 ? half_from_double(v[e]) : bfloat16_from_double(v[e]);
        else
            ((float *)out)[e] = (float)v[e];
    }
    return out;
}

static void from_type(const void *in, uint64_t n, dmlvk_tensor_data_type type, double *v)
{
    for (uint64_t e = 0; e < n; e++)
        v[e] = type == DMLVK_TENSOR_DATA_TYPE_FLOAT16    ? half_to_float(((const uint16_t *)in)[e])
               : type == DMLVK_TENSOR_DATA_TYPE_BFLOAT16 ? bfloat16_to_float(((const uint16_t *)in)[e])
                                                         : ((const float *)in)[e];
}

/* Packed descriptors of the four tensors both operators share: X of in_sizes, the bins of
 * bin_sizes, and bin_sizes[0] regions (in `type`) with their batch indices. Sizes live in *t. */
struct roi_tensors {
    uint32_t in_sizes[4], bin_sizes[4], roi_sizes[2], batch_sizes[1];
    dmlvk_tensor_desc x, bins, rois, batch;
};

static void packed_roi_tensors(struct roi_tensors *t, dmlvk_tensor_data_type type, const uint32_t in_sizes[4],
                               const uint32_t bin_sizes[4])
{
    memcpy(t->in_sizes, in_sizes, sizeof(t->in_sizes));
    memcpy(t->bin_sizes, bin_sizes, sizeof(t->bin_sizes));
    t->roi_sizes[0] = t->batch_sizes[0] = bin_sizes[0];
    t->roi_sizes[1] = 4;
    t->x = packed_desc(type, 4, t->in_sizes);
    t->bins = packed_desc(type, 4, t->bin_sizes);
    t->rois = packed_desc(type, 2, t->roi_sizes);
    t->batch = packed_desc(DMLVK_TENSOR_DATA_TYPE_UINT32, 1, t->batch_sizes);
}

/* Logical [4] tensor v of `sizes` placed with `strides` into a new array of `elements`, the gaps
 * NaN (a read of one shows). */
static double *place_strided(const double *v, const uint32_t sizes[4], const uint32_t strides[4], uint64_t elements)
{
    double *m = malloc(elements * sizeof(double));
    for (uint64_t i = 0; i < elements; i++)
        m[i] = NAN;
    uint64_t e = 0;
    for (uint32_t a = 0; a < sizes[0]; a++)
        for (uint32_t b = 0; b < sizes[1]; b++)
            for (uint32_t c = 0; c < sizes[2]; c++)
                for (uint32_t d = 0; d < sizes[3]; d++, e++)
                    m[(uint64_t)a * strides[0] + (uint64_t)b * strides[1] + (uint64_t)c * strides[2] +
                      (uint64_t)d * strides[3]] = v[e];
    return m;
}

/* Gives d `strides` where not NULL; returns the elements its buffer spans (`packed` without). */
static uint64_t restride(dmlvk_tensor_desc *d, const uint32_t strides[4], uint64_t packed)
{
    if (!strides)
        return packed;
    d->Strides = strides;
    assert_int_equal(dmlvk_tensor_min_size(d, &d->TotalTensorSizeInBytes), DMLVK_OK);
    return d->TotalTensorSizeInBytes / dmlvk_data_type_size(d->DataType);
}

/* ROI_ALIGN1's descriptor of problem q on tensors t. */
static dmlvk_roi_align1_operator_desc forward_desc(const struct ref_roi *q, const struct roi_tensors *t)
{
    return (dmlvk_roi_align1_operator_desc){
        &t->x, &t->rois, &t->batch, &t->bins, q->maximum ? DMLVK_REDUCE_FUNCTION_MAX : DMLVK_REDUCE_FUNCTION_AVERAGE,
        q->linear ? DMLVK_INTERPOLATION_MODE_LINEAR : DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR, (float)q->spatial_x,
        (float)q->spatial_y, (float)q->input_offset, (float)q->output_offset, (float)q->oob_value, q->min_samples,
        q->max_samples, q->align_corners,
    };
}

/* od executed once on n tensors: on `held` where not NULL (made from od and params by the caller,
 * maybe run before), else on an operator of its own. */
static dmlvk_status run_on(dmlvk_operator *held, const dmlvk_operator_desc *od, const struct test_params *params,
                           const dmlvk_tensor_desc *const *descs, void *const *values, uint32_t n)
{
    const uint64_t at = params ? params->bind_offset : 0, offsets[6] = { at, at, at, at, at, at };
    return held ? gpu_execute_offsets(dev, held, descs, values, n, offsets)
                : gpu_run_at(dev, od, params, descs, values, n, at);
}

/* ROI_ALIGN1 on problem p on the GPU (on `held` where not NULL: run_on), in any float type, packed
 * tensors or, where x_strides or bin_strides is not NULL, InputTensor or OutputTensor with those
 * strides. */
static void gpu_forward_strided(dmlvk_operator *held, const struct problem *p, dmlvk_tensor_data_type type,
                                const struct test_params *params, const uint32_t x_strides[4],
                                const uint32_t bin_strides[4], double *out)
{
    const struct ref_roi *q = &p->q;
    struct roi_tensors t;
    packed_roi_tensors(&t, type, (uint32_t[4]){ q->batch, q->channels, q->height, q->width },
                       (uint32_t[4]){ q->num_rois, q->channels, q->out_h, q->out_w });
    const uint64_t x_elements = restride(&t.x, x_strides, p->nx), bin_elements = restride(&t.bins, bin_strides, p->ny);
    const uint32_t size = dmlvk_data_type_size(type);
    dmlvk_roi_align1_operator_desc d = forward_desc(q, &t);
    double *x = x_strides ? place_strided(p->x, t.in_sizes, x_strides, x_elements) : NULL;
    void *vx = to_type(x ? x : p->x, x_elements, type), *vr = to_type(p->rois, 4 * q->num_rois, type);
    void *vy = to_type(NULL, bin_elements, type);
    memset(vy, 0xff, (bin_elements + 1) * 4); /* NaN in every float type: an element left unwritten fails */
    const dmlvk_tensor_desc *descs[4] = { &t.x, &t.rois, &t.batch, &t.bins };
    void *values[4] = { vx, vr, (void *)p->batch, vy };
    dmlvk_operator_desc od = { DMLVK_OPERATOR_ROI_ALIGN1, &d };
    if (run_on(held, &od, params, descs, values, 4) != DMLVK_OK)
        fail_msg("%s", dmlvk_last_error());
    if (bin_strides) {
        uint64_t e = 0;
        for (uint32_t r = 0; r < q->num_rois; r++)
            for (uint32_t c = 0; c < q->channels; c++)
                for (uint32_t oy = 0; oy < q->out_h; oy++)
                    for (uint32_t ox = 0; ox < q->out_w; ox++, e++)
                        from_type((const uint8_t *)vy + size * ((uint64_t)r * bin_strides[0] + (uint64_t)c * bin_strides[1] +
                                                                (uint64_t)oy * bin_strides[2] + (uint64_t)ox * bin_strides[3]),
                                  1, type, out + e);
    } else {
        from_type(vy, p->ny, type, out);
    }
    free(x);
    free(vx);
    free(vr);
    free(vy);
}

static void gpu_forward_typed(const struct problem *p, dmlvk_tensor_data_type type, const struct test_params *params,
                              double *out)
{
    gpu_forward_strided(NULL, p, type, params, NULL, NULL, out);
}

static void gpu_forward(const struct problem *p, double *out)
{
    gpu_forward_typed(p, DMLVK_TENSOR_DATA_TYPE_FLOAT32, NULL, out);
}

/* ROI_ALIGN_GRAD's descriptor for q over tensors t, with the outputs that grad and roi_grad give. */
static dmlvk_roi_align_grad_operator_desc backward_desc(const struct ref_roi *q, const struct roi_tensors *t,
                                                        const dmlvk_tensor_desc *grad, const dmlvk_tensor_desc *roi_grad)
{
    return (dmlvk_roi_align_grad_operator_desc){
        &t->x, &t->bins, &t->rois, &t->batch, grad, roi_grad,
        q->maximum ? DMLVK_REDUCE_FUNCTION_MAX : DMLVK_REDUCE_FUNCTION_AVERAGE,
        q->linear ? DMLVK_INTERPOLATION_MODE_LINEAR : DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR, (float)q->spatial_x,
        (float)q->spatial_y, (float)q->input_offset, (float)q->output_offset, q->min_samples, q->max_samples,
        q->align_corners,
    };
}

/* The dispatches ROI_ALIGN_GRAD records for problem p in float32 with both outputs, and, for a
 * plan that gathers, whether the geometry's workgroups write the gather's lines (no
 * roi_align_grad_prepare dispatch does). */
static uint32_t backward_dispatches_lines(const struct problem *p, const struct test_params *params,
                                          bool *lines_in_geometry)
{
    const struct ref_roi *q = &p->q;
    struct roi_tensors t;
    packed_roi_tensors(&t, DMLVK_TENSOR_DATA_TYPE_FLOAT32, (uint32_t[4]){ q->batch, q->channels, q->height, q->width },
                       (uint32_t[4]){ q->num_rois, q->channels, q->out_h, q->out_w });
    dmlvk_roi_align_grad_operator_desc d = backward_desc(q, &t, &t.x, &t.rois);
    dmlvk_operator *op;
    assert_int_equal(test_operator_create(dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_ROI_ALIGN_GRAD, &d }, params, &op),
                     DMLVK_OK);
    dmlvk_operator_properties props;
    assert_int_equal(dmlvk_operator_get_properties(op, &props), DMLVK_OK);
    *lines_in_geometry = true;
    for (uint32_t i = 0; i < props.dispatch_count; i++) {
        enum dmlvk_shader shader;
        uint32_t prepare;
        assert_int_equal(dmlvk_debug_operator_shader(op, i, &shader), DMLVK_OK);
        if (shader == DMLVK_SHADER_ROI_ALIGN_GRAD_PREPARE &&
            dmlvk_debug_operator_spec(op, i, ROI_SPEC_PREPARE, &prepare) == DMLVK_OK && prepare == ROI_PREPARE_LINES)
            *lines_in_geometry = false;
    }
    dmlvk_operator_destroy(op);
    return props.dispatch_count;
}

static uint32_t backward_dispatches(const struct problem *p, const struct test_params *params)
{
    bool lines_in_geometry;
    return backward_dispatches_lines(p, params, &lines_in_geometry);
}

/* ROI_ALIGN_GRAD on problem p (on `held` where not NULL: run_on): the input gradient into dx
 * (packed, or with `grad_strides` where not NULL: then the bytes between its elements must keep
 * what they held), the ROI gradient into droi; InputTensor with `x_strides` and
 * InputGradientTensor with `dy_strides` where not NULL, NaN between their elements. */
static dmlvk_status gpu_backward_strided(dmlvk_operator *held, const struct problem *p,
                                         const struct test_params *params, dmlvk_tensor_data_type type,
                                         const uint32_t grad_strides[4],
                                         const uint32_t x_strides[4], const uint32_t dy_strides[4], double *dx,
                                         double *droi)
{
    const struct ref_roi *q = &p->q;
    struct roi_tensors t;
    packed_roi_tensors(&t, type, (uint32_t[4]){ q->batch, q->channels, q->height, q->width },
                       (uint32_t[4]){ q->num_rois, q->channels, q->out_h, q->out_w });
    dmlvk_tensor_desc grad = t.x;
    if (grad_strides) {
        grad.Strides = grad_strides;
        assert_int_equal(dmlvk_tensor_min_size(&grad, &grad.TotalTensorSizeInBytes), DMLVK_OK);
    }
    const uint64_t x_elements = restride(&t.x, x_strides, p->nx), dy_elements = restride(&t.bins, dy_strides, p->ny);
    double *placed_x = x_strides ? place_strided(p->x, t.in_sizes, x_strides, x_elements) : NULL;
    double *placed_dy = dy_strides ? place_strided(p->dy, t.bin_sizes, dy_strides, dy_elements) : NULL;
    dmlvk_roi_align_grad_operator_desc d = backward_desc(q, &t, dx ? &grad : NULL, droi ? &t.rois : NULL);
    void *v[6];
    const double *src[6] = { placed_x ? placed_x : p->x, placed_dy ? placed_dy : p->dy, p->rois, NULL, NULL, NULL };
    const uint64_t counts[6] = { x_elements, dy_elements, 4 * q->num_rois, q->num_rois, p->nx, 4 * q->num_rois };
    for (int i = 0; i < 6; i++)
        v[i] = to_type(src[i], counts[i], type);
    memcpy(v[3], p->batch, 4 * q->num_rois);
    const uint32_t size = dmlvk_data_type_size(type);
    const uint8_t poison = 0xff; /* NaN in every float type: an element left unwritten fails */
    for (int i = 4; i < 6; i++)
        memset(v[i], poison, (counts[i] + 1) * 4); /* all that to_type allocated */
    if (grad_strides) {
        free(v[4]);
        v[4] = malloc(grad.TotalTensorSizeInBytes);
        memset(v[4], poison, grad.TotalTensorSizeInBytes);
    }
    const dmlvk_tensor_desc *descs[6] = { &t.x, &t.bins, &t.rois, &t.batch, dx ? &grad : NULL, droi ? &t.rois : NULL };
    dmlvk_operator_desc od = { DMLVK_OPERATOR_ROI_ALIGN_GRAD, &d };
    dmlvk_status st = run_on(held, &od, params, descs, v, 6);
    if (st == DMLVK_OK && dx && !grad_strides)
        from_type(v[4], p->nx, type, dx);
    if (st == DMLVK_OK && dx && grad_strides) {
        /* Each element read from its place, its bytes then marked as the poison, so that what
         * is left must be the poison alone. */
        uint8_t *bytes = v[4], element[4];
        uint64_t e = 0;
        for (uint32_t b = 0; b < q->batch; b++)
            for (uint32_t c = 0; c < q->channels; c++)
                for (uint32_t y = 0; y < q->height; y++)
                    for (uint32_t x = 0; x < q->width; x++, e++) {
                        uint64_t at = size * ((uint64_t)b * grad_strides[0] + (uint64_t)c * grad_strides[1] +
                                              (uint64_t)y * grad_strides[2] + (uint64_t)x * grad_strides[3]);
                        memcpy(element, bytes + at, size);
                        from_type(element, 1, type, dx + e);
                        memset(bytes + at, poison, size);
                    }
        for (uint64_t i = 0; i < grad.TotalTensorSizeInBytes; i++)
            if (bytes[i] != poison)
                fail_msg("OutputGradientTensor: byte %llu, between its elements, was written",
                         (unsigned long long)i);
    }
    if (st == DMLVK_OK && droi)
        from_type(v[5], 4 * q->num_rois, type, droi);
    for (int i = 0; i < 6; i++)
        free(v[i]);
    free(placed_x);
    free(placed_dy);
    return st;
}

static dmlvk_status gpu_backward(const struct problem *p, const struct test_params *params, dmlvk_tensor_data_type type,
                                 double *dx, double *droi)
{
    return gpu_backward_strided(NULL, p, params, type, NULL, NULL, NULL, dx, droi);
}

/* With AVERAGE and an out-of-bounds value of 0, the input gradient is the forward's transpose. */
static void test_adjoint(void **state)
{
    (void)state;
    for (int iter = 0; iter < 20; iter++) {
        struct problem p;
        random_problem(&p, iter % 2 == 0, false, iter % 3 == 0);
        double *y = malloc(p.ny * sizeof(double)), *dx = malloc(p.nx * sizeof(double));
        /* The GPU sees float32: let the reference-free identity use exactly those values. */
        for (uint64_t i = 0; i < p.nx; i++)
            p.x[i] = (float)p.x[i];
        for (uint64_t i = 0; i < p.ny; i++)
            p.dy[i] = (float)p.dy[i];
        gpu_forward(&p, y);
        assert_int_equal(gpu_backward(&p, NULL, DMLVK_TENSOR_DATA_TYPE_FLOAT32, dx, NULL), DMLVK_OK);
        double lhs = 0, rhs = 0, mag = 0;
        for (uint64_t i = 0; i < p.ny; i++) {
            lhs += y[i] * p.dy[i];
            mag += fabs(y[i] * p.dy[i]);
        }
        for (uint64_t i = 0; i < p.nx; i++) {
            rhs += p.x[i] * dx[i];
            mag += fabs(p.x[i] * dx[i]);
        }
        if (!(fabs(lhs - rhs) <= 1e-5 * (mag + 1e-30)))
            fail_msg("case %d: <F(X),dY> = %.9g, <X,G(dY)> = %.9g", iter, lhs, rhs);
        free(y);
        free(dx);
        free_problem(&p);
    }
}

/* Float32 sample positions carry an absolute error of about ulp(position), which a small weight
 * turns into a large relative one: the tolerance scales with the largest magnitude, not each element's. */
static void expect_close(const char *what, const double *got, const double *want, const double *mag, uint64_t n,
                         double rel)
{
    double scale = 1e-6;
    for (uint64_t i = 0; i < n; i++)
        if (isfinite(want[i]))
            scale = fmax(scale, mag[i]);
    /* NaN fails unless the reference is NaN too: an unwritten element left as NaN must not pass.
     * An infinite reference wants that infinity. */
    for (uint64_t i = 0; i < n; i++)
        if (isnan(want[i]) ? !isnan(got[i]) : isinf(want[i]) ? got[i] != want[i] : !(fabs(got[i] - want[i]) <= rel * scale))
            fail_msg("%s[%llu]: %.9g, reference %.9g", what, (unsigned long long)i, got[i], want[i]);
}

/* ROI_ALIGN1 in `type` against the reference, within the type's tolerance of `magnitude`; strides
 * as gpu_forward_strided's. */
static void expect_forward_with(const char *what, const struct problem *p, dmlvk_tensor_data_type type,
                                double magnitude, const struct test_params *params, const uint32_t x_strides[4],
                                const uint32_t bin_strides[4])
{
    double *want = malloc(p->ny * sizeof(double)), *got = malloc(p->ny * sizeof(double));
    double *mag = malloc(p->ny * sizeof(double));
    ref_roi_forward(&p->q, p->x, want);
    for (uint64_t i = 0; i < p->ny; i++)
        mag[i] = magnitude;
    gpu_forward_strided(NULL, p, type, params, x_strides, bin_strides, got);
    expect_close(what, got, want, mag, p->ny, type_tolerance(type));
    free(want);
    free(got);
    free(mag);
}

static void expect_forward_strided(const char *what, const struct problem *p, dmlvk_tensor_data_type type,
                                   double magnitude, const uint32_t x_strides[4], const uint32_t bin_strides[4])
{
    expect_forward_with(what, p, type, magnitude, NULL, x_strides, bin_strides);
}

static void expect_forward(const char *what, const struct problem *p, dmlvk_tensor_data_type type, double magnitude)
{
    expect_forward_strided(what, p, type, magnitude, NULL, NULL);
}

/* ROI_ALIGN1 within the type's tolerance of `magnitude`, and the input gradient, against the
 * reference. */
static void expect_both_ways(const char *what, const struct problem *p, dmlvk_tensor_data_type type, double magnitude,
                             const struct test_params *params)
{
    char label[96];
    snprintf(label, sizeof(label), "ROI_ALIGN1, %s", what);
    expect_forward_with(label, p, type, magnitude, params, NULL, NULL);
    struct results r;
    reference_results(p, &r);
    assert_int_equal(gpu_backward(p, params, type, r.got, NULL), DMLVK_OK);
    snprintf(label, sizeof(label), "OutputGradientTensor, %s", what);
    expect_close(label, r.got, r.want, r.mag, p->nx, type_tolerance(type));
    free_results(&r);
}

/* ROI_ALIGN1 on more channels than the other tests use (3 to 21), every mode and type, an
 * out-of-bounds value or none, against the reference; tiny maps under many bins take several
 * channels per invocation (dmlvk_roi_align_channels), with partial groups. */
static void test_forward_channels(void **state)
{
    (void)state;
    const uint32_t channels[] = { 9, 13, 16, 3, 8, 21 };
    for (int iter = 0; iter < 24; iter++) {
        dmlvk_tensor_data_type type = float_types[iter % 3];
        struct problem p;
        random_problem_channels(&p, iter % 2 == 0, iter % 4 >= 2, iter % 5 == 0, channels[iter % 6], iter % 4 == 3);
        p.q.oob_value = iter % 3 == 1 ? -0.25 : 0;
        round_to_type(p.x, p.nx, type);
        round_to_type(p.rois, 4 * p.q.num_rois, type);
        expect_forward("ROI_ALIGN1", &p, type, 1);
        free_problem(&p);
    }
}

/* Float atomics, the compare-and-swap fallback and the deterministic mode all match the reference;
 * the deterministic mode is bitwise identical run to run. AVERAGE scatters only where the
 * workgroup size makes no whole gather tiles (48 here); the default size gathers. */
static void test_scatter_paths(void **state)
{
    (void)state;
    /* On lavapipe the default path really is the float-atomic one. */
    assert_true(info.float32_atomic_add);
    assert_true(info.int64_atomics);
    for (int iter = 0; iter < 12; iter++) {
        dmlvk_tensor_data_type type = float_types[iter % 3];
        struct problem p;
        random_problem(&p, true, iter % 4 == 3, iter % 3 == 0);
        round_to_type(p.x, p.nx, type);
        round_to_type(p.dy, p.ny, type);
        round_to_type(p.rois, 4 * p.q.num_rois, type);
        struct results r;
        reference_results(&p, &r);
        double rel = type_tolerance(type);
        uint32_t wg = iter % 3 == 1 ? 0 : 48;
        struct test_params atomics = { .workgroup_size = wg }, cas = { .force_cas_atomics = 1, .workgroup_size = wg },
                              det = { .deterministic = 1, .workgroup_size = wg };
        assert_int_equal(gpu_backward(&p, &atomics, type, r.got, NULL), DMLVK_OK);
        expect_close("float atomics", r.got, r.want, r.mag, p.nx, rel);
        assert_int_equal(gpu_backward(&p, &cas, type, r.got, NULL), DMLVK_OK);
        expect_close("compare-and-swap", r.got, r.want, r.mag, p.nx, rel);
        assert_int_equal(gpu_backward(&p, &det, type, r.got, NULL), DMLVK_OK);
        expect_close("deterministic", r.got, r.want, r.mag, p.nx, rel);
        assert_int_equal(gpu_backward(&p, &det, type, r.again, NULL), DMLVK_OK);
        assert_memory_equal(r.got, r.again, p.nx * sizeof(double));
        free_results(&r);
        free_problem(&p);
    }
}

/* The largest |v| of n values. */
static double largest_magnitude(const double *v, uint64_t n)
{
    double m = 0;
    for (uint64_t i = 0; i < n; i++)
        m = fabs(v[i]) > m ? fabs(v[i]) : m;
    return m;
}

/* float32 values far from 1, where a shader's exact division (common.glsl's div_rn) once split
 * them into NaN: the input or dY scaled by 2^120 or 2^-100, through ROI_ALIGN1 and ROI_ALIGN_GRAD's
 * gather, float atomics, compare-and-swap and the ROI gradient's own stages, against the reference
 * scaled alike (the operators are linear in each: exact), and the deterministic mode, whose fixed
 * point takes its grid from max |dY| (once capped at 2^+-100: tiny dY came out as a few units).
 * In iter 6 and 14 dY is as large as the gradients allow (about 2^126): the scatter by regions'
 * sums of its terms overflowed float32 where the gradients do not. */
static void test_extreme_magnitudes(void **state)
{
    (void)state;
    for (int iter = 0; iter < 16; iter++) {
        const int shifts[4][2] = { { 120, 0 }, { -100, 0 }, { 0, 120 }, { 0, -100 } };
        const int kx = shifts[iter % 4][0];
        int kdy = shifts[iter % 4][1];
        struct problem p;
        random_problem(&p, iter % 8 != 7, iter % 3 == 2, false);
        round_to_type(p.x, p.nx, DMLVK_TENSOR_DATA_TYPE_FLOAT32);
        round_to_type(p.dy, p.ny, DMLVK_TENSOR_DATA_TYPE_FLOAT32);
        round_to_type(p.rois, 4 * p.q.num_rois, DMLVK_TENSOR_DATA_TYPE_FLOAT32);
        const uint32_t n = 4 * p.q.num_rois;
        double *out_want = malloc(p.ny * sizeof(double)), *out = malloc(p.ny * sizeof(double));
        double *ones = malloc((p.nx > p.ny ? p.nx : p.ny) * sizeof(double));
        for (uint64_t i = 0; i < (p.nx > p.ny ? p.nx : p.ny); i++)
            ones[i] = 1;
        struct results r;
        reference_results(&p, &r);
        double droi_want[4 * MAX_ROIS], droi_mag[4 * MAX_ROIS], droi[4 * MAX_ROIS];
        ref_roi_backward(&p.q, p.x, p.dy, NULL, droi_want, NULL, droi_mag);
        ref_roi_forward(&p.q, p.x, out_want);
        if (iter % 8 == 6) {
            double top = fmax(largest_magnitude(r.want, p.nx), largest_magnitude(droi_want, n));
            kdy = top > 0 && ilogb(top) > 0 ? 126 - ilogb(top) : 126;
        }
        for (uint64_t i = 0; i < p.nx; i++)
            p.x[i] = ldexp(p.x[i], kx);
        for (uint64_t i = 0; i < p.ny; i++)
            p.dy[i] = ldexp(p.dy[i], kdy);
        gpu_forward(&p, out);
        for (uint64_t i = 0; i < p.ny; i++)
            out[i] = ldexp(out[i], -kx);
        expect_close("ROI_ALIGN1, scaled", out, out_want, ones, p.ny, type_tolerance(DMLVK_TENSOR_DATA_TYPE_FLOAT32));
        const struct test_params paths[5] = { { 0 }, { .workgroup_size = 48 }, { .workgroup_size = 48, .force_cas_atomics = 1 },
                                              { .force_no_subgroup_shuffle = 1 }, { .deterministic = 1, .workgroup_size = 48 } };
        for (int k = 0; k < 5; k++) {
            assert_int_equal(gpu_backward(&p, &paths[k], DMLVK_TENSOR_DATA_TYPE_FLOAT32, r.got, droi), DMLVK_OK);
            for (uint64_t i = 0; i < p.nx; i++)
                r.got[i] = ldexp(r.got[i], -kdy);
            for (uint32_t i = 0; i < n; i++)
                droi[i] = ldexp(droi[i], -kx - kdy);
            expect_close("input gradient, scaled", r.got, r.want, r.mag, p.nx, type_tolerance(DMLVK_TENSOR_DATA_TYPE_FLOAT32));
            if (p.q.linear)
                expect_close("ROI gradient, scaled", droi, droi_want, droi_mag, n, type_tolerance(DMLVK_TENSOR_DATA_TYPE_FLOAT32));
        }
        free(out_want);
        free(out);
        free(ones);
        free_results(&r);
        free_problem(&p);
    }
}

/* ROI_ALIGN1's AVERAGE of float32 inputs in [2^126, 2^127), whose sums of 2 to 9 samples pass
 * float32's range where their means do not (bin_result's sums again, scaled), with and without
 * the subgroups' sample rows (2 samples per bin along x take them, 3 do not), against the
 * reference; -2^127 out of bounds where a region overhangs. */
static void test_forward_near_max(void **state)
{
    (void)state;
    for (int iter = 0; iter < 8; iter++) {
        struct problem p;
        random_problem(&p, iter % 4 != 3, false, false);
        p.q.min_samples = p.q.max_samples = 2 + (uint32_t)(iter % 2);
        p.q.oob_value = iter % 3 == 0 ? -0x1p127 : 0;
        for (uint64_t i = 0; i < p.nx; i++)
            p.x[i] = ldexp(uniform(1, 2), 126);
        round_to_type(p.x, p.nx, DMLVK_TENSOR_DATA_TYPE_FLOAT32);
        round_to_type(p.rois, 4 * p.q.num_rois, DMLVK_TENSOR_DATA_TYPE_FLOAT32);
        expect_forward("ROI_ALIGN1 near float32's largest", &p, DMLVK_TENSOR_DATA_TYPE_FLOAT32, 0x1p127);
        free_problem(&p);
    }
}

/* test_forward_near_max in the 16-bit types: bfloat16 inputs in [2^126, 2^127) (whole bins and
 * the second sums, as float32's), and float16 inputs as large as it holds with an out-of-bounds
 * value whose share alone overflows a sum: lib/roi_align1.c plans no second sums for float16,
 * since such a mean rounds to float16's Inf all the same; against the reference rounded to the
 * type. Some in workgroups of 2, so that the second sums' regions span several workgroups. */
static void test_forward_near_max_16bit(void **state)
{
    (void)state;
    for (int iter = 0; iter < 8; iter++) {
        const bool bf16 = iter % 2 == 0;
        const dmlvk_tensor_data_type type = bf16 ? DMLVK_TENSOR_DATA_TYPE_BFLOAT16 : DMLVK_TENSOR_DATA_TYPE_FLOAT16;
        struct problem p;
        random_problem(&p, iter % 4 != 3, false, iter % 3 == 1);
        const double oob[4] = { -0x1p127, 0x1.fffffep127, 0x1p127, -0x1.fffffep127 };
        p.q.oob_value = bf16 && iter % 4 == 2 ? 0 : oob[iter % 4];
        for (uint64_t i = 0; i < p.nx; i++)
            p.x[i] = bf16 ? ldexp(uniform(1, 2), 126) : uniform(-65504, 65504);
        round_to_type(p.x, p.nx, type);
        round_to_type(p.rois, 4 * p.q.num_rois, type);
        double *want = malloc(p.ny * sizeof(double)), *got = malloc(p.ny * sizeof(double));
        double *mag = malloc(p.ny * sizeof(double));
        ref_roi_forward(&p.q, p.x, want);
        round_to_type(want, p.ny, type);
        for (uint64_t i = 0; i < p.ny; i++)
            mag[i] = bf16 ? 0x1p127 : 65504;
        const struct test_params small = { .workgroup_size = 2 };
        gpu_forward_typed(&p, type, iter % 4 == 2 ? &small : NULL, got);
        expect_close("ROI_ALIGN1 near the 16-bit types' largest", got, want, mag, p.ny, type_tolerance(type));
        free(want);
        free(got);
        free(mag);
        free_problem(&p);
    }
}

/* Infinite and NaN dY through every way of adding the input gradient: each element the IEEE sum of
 * its terms (NaN where a NaN or both infinities reach it, else the infinity, else the finite sum,
 * within the tolerance of the finite elements' magnitudes), the gather, float atomics,
 * compare-and-swap, the deterministic mode, whose int64 sums hold no Inf or NaN (flags beside
 * them do), and MAX's gather of winners (without int64 atomics), in float32 and float16. */
static void test_non_finite_gradients(void **state)
{
    (void)state;
    const double specials[3] = { INFINITY, -INFINITY, NAN };
    for (int iter = 0; iter < 12; iter++) {
        const dmlvk_tensor_data_type type = iter % 4 == 3 ? DMLVK_TENSOR_DATA_TYPE_FLOAT16 : DMLVK_TENSOR_DATA_TYPE_FLOAT32;
        struct problem p;
        random_problem(&p, iter % 6 != 5, iter % 3 == 2, iter % 5 == 0);
        round_to_type(p.x, p.nx, type);
        round_to_type(p.dy, p.ny, type);
        round_to_type(p.rois, 4 * p.q.num_rois, type);
        for (uint64_t i = 0; i < p.ny; i++)
            if (below(8) == 0)
                p.dy[i] = specials[below(3)];
        struct results r;
        reference_results(&p, &r);
        const struct test_params paths[5] = { { 0 }, { .workgroup_size = 48 }, { .workgroup_size = 48, .force_cas_atomics = 1 },
                                              { .deterministic = 1, .workgroup_size = 48 },
                                              { .deterministic = 1, .force_no_int64_atomics = true } };
        for (int k = 0; k < 5; k++) {
            assert_int_equal(gpu_backward(&p, &paths[k], type, r.got, NULL), DMLVK_OK);
            expect_close("input gradient of non-finite dY", r.got, r.want, r.mag, p.nx, type_tolerance(type));
        }
        free_results(&r);
        free_problem(&p);
    }
}

/* A problem for the gather by tiles, the iter-th of a test: maps of several partial tiles (19x45),
 * 130 channels on a 64x200 map (iter 6 and 7), a 256x256 map (iter 8 and 9), 3 batches of a 264-row
 * map 164 to 168 wide with 65 to 69 channels (iter 10 to 14, 16-bit types staged where they take
 * more than 64 channels per workgroup, ROI_GATHER_STAGED_FROM_CHANNELS: whole rows' stores, whose
 * last tile is not whole 16-byte segments, nor some maps' rows; in iter 13 and 14 more than
 * ROI_GATHER_STAGED_REGION_BINS bins per region, so that 16-bit types store rows of tiles 16
 * columns wide without staging), 256 channels on two 64x64 maps (iter 15: too few workgroups for
 * all 256 channels each, so float32 keeps workgroups of 256), 256 and 250 channels on two 13x21
 * maps (iter 16 to 19: so few workgroups that it splits the regions, and takes a warp's invocations
 * per element); TILE_ROIS regions (6 on the wide map, TILE_ROIS_TWO_ROUNDS in iter 3, which the
 * tests run in workgroups of 16) over many tiles, every fifth tiny (bins narrower than a pixel:
 * pools), corners up to `overhang` pixels before the map, some of another batch or none. dY and the
 * regions are representable in `type`; the input is left for the test to fill. */
static void tile_problem(struct problem *p, int iter, dmlvk_tensor_data_type type, uint32_t channels, bool linear,
                         bool maximum, double overhang)
{
    memset(p, 0, sizeof(*p));
    struct ref_roi *q = &p->q;
    bool many_channels = iter == 6 || iter == 7, large_map = iter == 8 || iter == 9, rows_map = iter >= 10 && iter < 15;
    bool mid_map = iter == 15, tiny_map = iter >= 16;
    /* Rows on 16-byte addresses, on 8 bytes and off both, in each type (iter 10 float16, then
     * bfloat16, float32, ...): the gather's stores by whole segments and by elements. */
    static const uint32_t rows_widths[5] = { 164, 166, 166, 168, 164 };
    const uint32_t large_bins = iter == 13 || iter == 14 ? 6 : iter >= 20 ? 10 : 0;
    *q = (struct ref_roi){ .batch = rows_map ? 3 : 2,
                           .channels = many_channels ? 130
                                       : rows_map     ? 55 + (uint32_t)iter
                                       : mid_map      ? 256
                                       : tiny_map     ? 256 - 6 * (uint32_t)(iter % 2)
                                                      : channels,
                           .height = many_channels ? 64 : large_map ? 256 : rows_map ? 264 : mid_map ? 64 : tiny_map ? 13 : 19,
                           .width = many_channels ? 200 : large_map ? 256 : rows_map ? rows_widths[iter - 10]
                                    : mid_map ? 64 : tiny_map ? 21 : 45,
                           .num_rois = many_channels ? 6 : iter == 3 ? TILE_ROIS_TWO_ROUNDS : TILE_ROIS, .out_h = 2 + below(5) + large_bins,
                           .out_w = 2 + below(6) + large_bins,
                           .linear = linear, .maximum = maximum, .align_corners = iter % 4 == 3, .spatial_x = 0.5,
                           .spatial_y = 0.5, .input_offset = 0.5, .output_offset = -0.5,
                           .min_samples = 1 + below(2), .max_samples = iter % 3 == 0 ? 3 : 2 };
    for (uint32_t k = 0; k < q->num_rois; k++) {
        bool tiny = k % 5 == 0;
        double x1 = uniform(-overhang, 2 * q->width), y1 = uniform(-overhang, 2 * q->height);
        double w = tiny ? uniform(-1, 1) : uniform(-8, 2 * q->width), h = tiny ? uniform(-1, 1) : uniform(-8, 2 * q->height);
        p->rois[4 * k] = x1;
        p->rois[4 * k + 1] = y1;
        p->rois[4 * k + 2] = x1 + w;
        p->rois[4 * k + 3] = y1 + h;
        p->batch[k] = k % 7 == 3 ? 2 + below(3) : below(2);
    }
    alloc_problem(p);
    for (uint64_t i = 0; i < p->ny; i++)
        p->dy[i] = uniform(-1, 1);
    round_to_type(p->dy, p->ny, type);
    round_to_type(p->rois, 4 * q->num_rois, type);
}

static const uint32_t tile_workgroups[] = { 0, 512, 32, 16 };

/* The input gradient of problem p in `type` with `params` against the reference, and bitwise the
 * same with `again` (another path that must sum alike, or the deterministic mode). */
static void expect_input_gradient_alike(const char *what, const struct problem *p, dmlvk_tensor_data_type type,
                                        const struct test_params *params, const struct test_params *again)
{
    struct results r;
    reference_results(p, &r);
    assert_int_equal(gpu_backward(p, params, type, r.got, NULL), DMLVK_OK);
    expect_close(what, r.got, r.want, r.mag, p->nx, type_tolerance(type));
    assert_int_equal(gpu_backward(p, again, type, r.again, NULL), DMLVK_OK);
    assert_memory_equal(r.got, r.again, p->nx * sizeof(double));
    free_results(&r);
}

/* The gather by tiles (AVERAGE): maps of several partial tiles, regions over many tiles and tiny
 * ones whose lines more than 3 bins reach (weights in the region's pool), regions of another batch
 * or none, more regions than a workgroup scans at once, channels padded and split over workgroups
 * (130 channels on a 64x200 map, in float32 and float16), every type, every mode bitwise alike,
 * workgroups of 256, 512, 32 and 16 invocations, 8 invocations per element (float32's gather in
 * workgroups of 128 on the larger maps), with stores of whole rows on 264-row maps 164 to 168 wide
 * in every type (16-bit ones in tiles 16 columns wide where they do not stage, float32 ones too
 * where, as there and on the 256x256 map, the regions are few for the map) and on the small maps in
 * 16-bit types, and 32 invocations per element on the tiny maps (float32 in iter 16 and 17, then
 * float16 and bfloat16; channels padded in the odd ones), in workgroups of 256 and 512; float32 on
 * the tiny maps in iter 20 and 21 with 12 to 17 bins a side, whose pooled lines the walk reads
 * ROI_GATHER_POOL_STEP columns at a time. */
static void test_tile_gather(void **state)
{
    (void)state;
    for (int iter = 0; iter < 22; iter++) {
        dmlvk_tensor_data_type type = iter >= 18 && iter < 20 ? float_types[iter - 17]
                                      : iter >= 16            ? DMLVK_TENSOR_DATA_TYPE_FLOAT32
                                                              : float_types[iter % 3];
        struct problem p;
        tile_problem(&p, iter, type, 5 + 7 * (uint32_t)(iter % 3), iter % 4 != 2, false, 4);
        struct test_params params = { .workgroup_size = iter >= 16 && iter % 2 ? 512 : iter >= 8 ? 0 : tile_workgroups[iter % 4] };
        struct test_params det = params;
        det.deterministic = 1;
        expect_input_gradient_alike("tile gather", &p, type, &params, &det);
        free_problem(&p);
    }
}

/* The gather's stores where OutputGradientTensor is not packed, on the 264-row maps in three batches
 * where every type stores whole tile rows when packed: channels last (its last stride is the
 * channel count: an element per store) and rows of every other element (last stride 2), in every
 * type; nothing between the elements is written. */
static void test_tile_gather_strided(void **state)
{
    (void)state;
    for (int iter = 0; iter < 6; iter++) {
        dmlvk_tensor_data_type type = float_types[iter % 3];
        struct problem p;
        tile_problem(&p, 10 + iter % 3, type, 0, true, false, 4);
        const struct ref_roi *q = &p.q;
        const uint32_t c = q->channels, h = q->height, w = q->width;
        const uint32_t channels_last[4] = { h * w * c, 1, w * c, c }, every_other[4] = { c * h * 2 * w, h * 2 * w, 2 * w, 2 };
        struct results r;
        reference_results(&p, &r);
        assert_int_equal(
            gpu_backward_strided(NULL, &p, NULL, type, iter < 3 ? channels_last : every_other, NULL, NULL, r.got, NULL),
            DMLVK_OK);
        expect_close(iter < 3 ? "tile gather, channels last" : "tile gather, every other element", r.got, r.want,
                     r.mag, p.nx, type_tolerance(type));
        free_results(&r);
        free_problem(&p);
    }
}

/* Specialization constant `id` of the operator's last dispatch of shader a or b, 0 where it has none. */
static uint32_t shader_spec(const dmlvk_operator_desc *od, const struct test_params *params, enum dmlvk_shader a,
                            enum dmlvk_shader b, uint32_t id)
{
    dmlvk_operator *op;
    assert_int_equal(test_operator_create(dev, od, params, &op), DMLVK_OK);
    dmlvk_operator_properties props;
    assert_int_equal(dmlvk_operator_get_properties(op, &props), DMLVK_OK);
    uint32_t value = 0;
    for (uint32_t i = 0; i < props.dispatch_count; i++) {
        enum dmlvk_shader shader;
        assert_int_equal(dmlvk_debug_operator_shader(op, i, &shader), DMLVK_OK);
        if (shader == a || shader == b)
            assert_int_equal(dmlvk_debug_operator_spec(op, i, id, &value), DMLVK_OK);
    }
    dmlvk_operator_destroy(op);
    return value;
}

/* Specialization constant `id` of ROI_ALIGN_GRAD's gather for the problem q in `type` with
 * `params`, the ROI gradient beside the input gradient where roi_grad, its input gradient packed
 * or channels last; 0 where no dispatch gathers. */
static uint32_t gather_spec_with(const struct ref_roi *q, dmlvk_tensor_data_type type, const struct test_params *params,
                                 bool roi_grad, bool channels_last_grad, uint32_t id)
{
    struct roi_tensors t;
    packed_roi_tensors(&t, type, (uint32_t[4]){ q->batch, q->channels, q->height, q->width },
                       (uint32_t[4]){ q->num_rois, q->channels, q->out_h, q->out_w });
    dmlvk_tensor_desc grad = t.x;
    const uint32_t channels_last[4] = { q->height * q->width * q->channels, 1, q->width * q->channels, q->channels };
    if (channels_last_grad)
        grad.Strides = channels_last;
    dmlvk_roi_align_grad_operator_desc d = backward_desc(q, &t, &grad, roi_grad ? &t.rois : NULL);
    const dmlvk_operator_desc od = { DMLVK_OPERATOR_ROI_ALIGN_GRAD, &d };
    return shader_spec(&od, params, DMLVK_SHADER_ROI_ALIGN_GRAD_GATHER, DMLVK_SHADER_ROI_ALIGN_GRAD_GATHER_ROI, id);
}

/* The same for the gather of AVERAGE without the ROI gradient and with the default parameters. */
static uint32_t gather_spec_value(const struct ref_roi *q, dmlvk_tensor_data_type type, bool channels_last_grad,
                                  uint32_t id)
{
    return gather_spec_with(q, type, NULL, false, channels_last_grad, id);
}

/* ROI_SPEC_GATHER_TILE_W of the gather for 7x7 AVERAGE bins over `rois` regions of a float32
 * 2x256x200x304 map (issue 15's large map), its input gradient packed or channels last. */
static uint32_t gather_tile_width(uint32_t rois, bool channels_last_grad)
{
    const struct ref_roi q = { .batch = 2, .channels = 256, .height = 200, .width = 304, .num_rois = rois, .out_h = 7,
                               .out_w = 7, .linear = 1, .spatial_x = 0.25, .spatial_y = 0.25, .min_samples = 2,
                               .max_samples = 2 };
    return gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_FLOAT32, channels_last_grad, ROI_SPEC_GATHER_TILE_W);
}

/* Float32 gathers over few regions for their map store rows of a packed input gradient in tiles
 * 16 columns wide (BENCHMARKS.md note 168); many regions, or a channels-last input gradient, keep
 * tiles 8 wide. */
static void test_tile_gather_width(void **state)
{
    (void)state;
    assert_int_equal(gather_tile_width(64, false), 16);
    assert_int_equal(gather_tile_width(237, false), 16);
    assert_int_equal(gather_tile_width(238, false), 8);
    assert_int_equal(gather_tile_width(512, false), 8);
    assert_int_equal(gather_tile_width(64, true), 8);
}

/* Float32 gathers whose regions have more than 49 bins read pooled lines ROI_GATHER_POOL_STEP
 * columns at a time (BENCHMARKS.md note 170): 861 regions of 14x14 bins on an 8x64x27x29 map step,
 * and 8x7 ones with a channels-last input gradient; 7x7 ones and 16-bit gathers read a column at a
 * time. */
static void test_gather_pool_step(void **state)
{
    (void)state;
    struct ref_roi q = { .batch = 8, .channels = 64, .height = 27, .width = 29, .num_rois = 861, .out_h = 14,
                         .out_w = 14, .linear = 1, .spatial_x = 0.25, .spatial_y = 0.25, .min_samples = 1,
                         .max_samples = 1 };
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_FLOAT32, false, ROI_SPEC_GATHER_POOL_STEP),
                     ROI_GATHER_POOL_STEP);
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_FLOAT16, false, ROI_SPEC_GATHER_POOL_STEP), 1);
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_BFLOAT16, false, ROI_SPEC_GATHER_POOL_STEP), 1);
    q.out_h = 8;
    q.out_w = 7;
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_FLOAT32, true, ROI_SPEC_GATHER_POOL_STEP),
                     ROI_GATHER_POOL_STEP);
    q.out_h = 7;
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_FLOAT32, false, ROI_SPEC_GATHER_POOL_STEP), 1);
}

/* Draws p's input (integers -2 to 2 where `few`, else uniform in [-1, 1]) in `type` and its
 * reference into r; where `unambiguous`, again (up to 20 draws) while a MAX bin's winner lies within
 * float32's error of another sample at other taps: either could win on the GPU, the float32 value
 * of a sample being within about 5e-7 of the exact one. */
static void draw_max_input(struct problem *p, dmlvk_tensor_data_type type, bool few, bool unambiguous, struct results *r)
{
    uint64_t ambiguous = 1;
    bool drawn = false;
    for (int attempt = 0; attempt < 20 && ambiguous; attempt++) {
        for (uint64_t i = 0; i < p->nx; i++)
            p->x[i] = few ? (double)below(5) - 2 : uniform(-1, 1);
        round_to_type(p->x, p->nx, type);
        ambiguous = 0;
        p->q.ambiguous = unambiguous ? &ambiguous : NULL;
        p->q.max_tie = 2e-6;
        if (drawn)
            free_results(r);
        reference_results(p, r);
        drawn = true;
    }
    p->q.ambiguous = NULL;
    assert_int_equal(ambiguous, 0);
}

/* The gather under MAX (where the mode's atomics are missing: int64 ones in the deterministic
 * mode, float ones by default, both forced here by test switches): each bin's winner per
 * channel, then the gather by tiles. Maps of several partial tiles, regions over many tiles, tiny
 * ones (pools), overhanging ones whose out-of-bounds samples win where the input is negative
 * there, exact ties (NEAREST on inputs of a few integers: the first sample wins), regions of
 * another batch, 130 channels split over workgroups, every type, workgroups of 256, 512, 32 and
 * 16, 8 and 4 invocations per element, regions split over 2 invocations on the small maps;
 * against the reference, bitwise alike run to run and with either switch. */
static void test_max_gather(void **state)
{
    (void)state;
    /* Its own stream (as test_exact_geometry's), so that whether a draw stays ambiguous does not
     * move when an earlier test draws more (once, 106 bins after 20 draws); the tests after it see
     * the stream as this one found it. */
    const uint64_t outer_state = rng_state;
    rng_state = 20261204;
    for (int iter = 0; iter < 9; iter++) {
        dmlvk_tensor_data_type type = float_types[iter % 3];
        bool ties = iter % 2 == 1;
        struct problem p;
        tile_problem(&p, iter, type, 3 + 5 * (uint32_t)(iter % 3), !ties, true, 8);
        /* NEAREST's ties (inputs of a few integers) are exact, read alike everywhere: one draw. */
        struct results r;
        draw_max_input(&p, type, ties, !ties, &r);
        struct test_params det = { .deterministic = 1, .workgroup_size = tile_workgroups[iter % 4],
                                   .force_no_int64_atomics = true };
        struct test_params cas = { .force_cas_atomics = 1, .workgroup_size = tile_workgroups[iter % 4] };
        assert_int_equal(gpu_backward(&p, &det, type, r.got, NULL), DMLVK_OK);
        expect_close("max gather", r.got, r.want, r.mag, p.nx, type_tolerance(type));
        assert_int_equal(gpu_backward(&p, &det, type, r.again, NULL), DMLVK_OK);
        assert_memory_equal(r.got, r.again, p.nx * sizeof(double));
        assert_int_equal(gpu_backward(&p, &cas, type, r.again, NULL), DMLVK_OK);
        assert_memory_equal(r.got, r.again, p.nx * sizeof(double));
        free_results(&r);
        free_problem(&p);
    }
    rng_state = outer_state;
}

/* The gather's lines past LINE_BINS bins (their weights pooled) on a map's last column and row:
 * regions whose samples all clamp onto them, so that every bin column (row) taps that one line,
 * narrow maps, 3 samples per bin and axis, 4 to 6 bin columns (rows), 3 to 5 channels, MAX (the
 * gather of winners, forced) and AVERAGE, every type, against the reference: the gather's rolled
 * bin loops over pooled lines, which no other test reaches from one line of every bin. */
static void test_gather_pooled_edge_lines(void **state)
{
    (void)state;
    for (int iter = 0; iter < 6; iter++) {
        dmlvk_tensor_data_type type = float_types[iter % 3];
        const bool maximum = iter % 2 == 0, columns = iter < 3;
        struct problem p;
        memset(&p, 0, sizeof(p));
        struct ref_roi *q = &p.q;
        const uint32_t across = 4 + (uint32_t)(iter % 3), along = 2 + (uint32_t)(iter % 2);
        *q = (struct ref_roi){ .batch = 1, .channels = 3 + (uint32_t)(iter % 3), .height = columns ? 8 : 2,
                               .width = columns ? 2 : 8, .num_rois = 2, .out_h = columns ? along : across,
                               .out_w = columns ? across : along, .linear = 1, .maximum = maximum,
                               .align_corners = iter % 5 == 1, .spatial_x = 1, .spatial_y = 1, .min_samples = 3,
                               .max_samples = 3 };
        /* Both regions' samples lie past the last column (row) but within one pixel of it, the
         * second region mirrored (x2 < x1). */
        const double edge[2][2] = { { 1.5, 1.9 }, { 1.95, 1.45 } }, span[2][2] = { { 4.25, 5.15 }, { 2.2, 6.7 } };
        for (uint32_t k = 0; k < 2; k++) {
            double *roi = &p.rois[4 * k];
            roi[columns ? 0 : 1] = edge[k][0];
            roi[columns ? 2 : 3] = edge[k][1];
            roi[columns ? 1 : 0] = span[k][0];
            roi[columns ? 3 : 2] = span[k][1];
        }
        alloc_problem(&p);
        for (uint64_t i = 0; i < p.ny; i++)
            p.dy[i] = uniform(-1, 1);
        round_to_type(p.dy, p.ny, type);
        round_to_type(p.rois, 4 * q->num_rois, type);
        struct results r;
        draw_max_input(&p, type, false, maximum, &r);
        struct test_params gather = { .deterministic = maximum, .force_no_int64_atomics = maximum };
        assert_int_equal(gpu_backward(&p, &gather, type, r.got, NULL), DMLVK_OK);
        expect_close(maximum ? "max gather, pooled edge lines" : "gather, pooled edge lines", r.got, r.want, r.mag, p.nx,
                     type_tolerance(type));
        free_results(&r);
        free_problem(&p);
    }
}

/* MAX on flat neighbourhoods, sampled off any grid (LINEAR): inputs of a few levels in blocks of 2
 * to 4 pixels, the first channel one level throughout. Samples that tie in real arithmetic must
 * tie in float32 too, so that the first wins, where float32's weights 1 - w and w need not sum to
 * 1: in every backward path (float and compare-and-swap atomics, int64 fixed point, the gather),
 * in the ROI gradient and in ROI_ALIGN1, in every type. Bins whose winner lies within rounding of
 * another sample's value that is not exact (a block's edge) are drawn again. */
static void test_max_flat_ties(void **state)
{
    (void)state;
    static const double levels[] = { -1.5, -0.25, 0, 0.75, 3 };
    for (int iter = 0; iter < 6; iter++) {
        dmlvk_tensor_data_type type = float_types[iter % 3];
        struct problem p;
        tile_problem(&p, iter, type, 3, true, true, 4);
        struct ref_roi *q = &p.q;
        struct results r = { 0 };
        double *droi = malloc(4 * q->num_rois * sizeof(double)), *droi_want = malloc(4 * q->num_rois * sizeof(double));
        double *droi_mag = malloc(4 * q->num_rois * sizeof(double));
        uint64_t ambiguous = 1;
        for (int attempt = 0; attempt < 20 && ambiguous; attempt++) {
            for (uint32_t plane = 0; plane < q->batch * q->channels; plane++) {
                uint32_t bh = 2 + below(3), bw = 2 + below(3), blocks_x = (q->width + bw - 1) / bw;
                double block_levels[12 * 23]; /* blocks of at least 2x2 on tile_problem's 19x45 map */
                const uint32_t n_levels = sizeof(levels) / sizeof(levels[0]);
                assert_true((q->height + bh - 1) / bh * blocks_x <= sizeof(block_levels) / sizeof(block_levels[0]));
                for (uint32_t k = 0; k < sizeof(block_levels) / sizeof(block_levels[0]); k++)
                    block_levels[k] = levels[below(n_levels)];
                for (uint32_t y = 0; y < q->height; y++)
                    for (uint32_t x = 0; x < q->width; x++)
                        p.x[((uint64_t)plane * q->height + y) * q->width + x] =
                            plane % q->channels == 0 ? block_levels[0] : block_levels[y / bh * blocks_x + x / bw];
            }
            ambiguous = 0;
            q->ambiguous = &ambiguous;
            q->max_tie = 2e-6;
            if (r.want)
                free_results(&r);
            reference_results(&p, &r);
        }
        q->ambiguous = NULL;
        assert_int_equal(ambiguous, 0);
        ref_roi_backward(q, p.x, p.dy, NULL, droi_want, NULL, droi_mag);
        const struct test_params paths[4] = {
            { 0 },
            { .force_cas_atomics = true },
            { .deterministic = 1 },
            { .deterministic = 1, .force_no_int64_atomics = true },
        };
        for (int k = 0; k < 4; k++) {
            assert_int_equal(gpu_backward(&p, &paths[k], type, r.got, droi), DMLVK_OK);
            expect_close("OutputGradientTensor", r.got, r.want, r.mag, p.nx, type_tolerance(type));
            expect_close("OutputROIGradientTensor", droi, droi_want, droi_mag, 4 * q->num_rois, type_tolerance(type));
        }
        expect_forward("ROI_ALIGN1", &p, type, 3);
        free(droi);
        free(droi_want);
        free(droi_mag);
        free_results(&r);
        free_problem(&p);
    }
}

/* The scatter by regions (AVERAGE with workgroups of 48, which make no whole gather tiles) lists
 * at most 128 row and column taps per region and falls back to the per-bin scatter past that: regions with 2 samples (listed), 20 samples (too many taps) and 80
 * samples per bin (too many samples to list) on a wide map, against the reference. */
static void test_region_scatter_limits(void **state)
{
    (void)state;
    const uint32_t samples[] = { 2, 20, 80 };
    for (int iter = 0; iter < 3; iter++) {
        struct problem p;
        memset(&p, 0, sizeof(p));
        struct ref_roi *q = &p.q;
        *q = (struct ref_roi){ .batch = 1, .channels = 3, .height = 20, .width = 300, .num_rois = 2, .out_h = 2,
                               .out_w = 7, .linear = true, .spatial_x = 1, .spatial_y = 1, .input_offset = 0.5,
                               .output_offset = -0.5, .min_samples = samples[iter], .max_samples = samples[iter] };
        /* Dyadic corners and sizes that divide into dyadic steps at every sample count here
         * (widths a multiple of 7 * 5 over 7 bins, heights of 5 over 2: steps of W / (7 * 80) and
         * H / (2 * 80) and the like), so that float32 sample positions are exact: their weights are
         * the reference's. (At 80 samples an element takes a few hundred atomic additions, whose
         * rounding comes near the tolerance: other draws of dY than this seed's exceed it.) */
        const double boxes[8] = { 3.3125, 2.0625, 283.3125, 17.0625, 10.25, 5.5625, 45.25, 10.5625 };
        memcpy(p.rois, boxes, sizeof(boxes));
        alloc_problem(&p);
        for (uint64_t i = 0; i < p.ny; i++)
            p.dy[i] = uniform(-1, 1);
        round_to_type(p.dy, p.ny, DMLVK_TENSOR_DATA_TYPE_FLOAT32);
        struct results r;
        reference_results(&p, &r);
        struct test_params scatter = { .workgroup_size = 48 }, det = { .deterministic = 1, .workgroup_size = 48 };
        assert_int_equal(gpu_backward(&p, &scatter, DMLVK_TENSOR_DATA_TYPE_FLOAT32, r.got, NULL), DMLVK_OK);
        expect_close("region scatter", r.got, r.want, r.mag, p.nx, 1e-5);
        assert_int_equal(gpu_backward(&p, &det, DMLVK_TENSOR_DATA_TYPE_FLOAT32, r.again, NULL), DMLVK_OK);
        expect_close("region scatter, deterministic", r.again, r.want, r.mag, p.nx, 1e-5);
        free_results(&r);
        free_problem(&p);
    }
}

/* Both gradients at once against the reference, and the same bits in a second run. */
static void expect_both_gradients(const struct problem *p, const struct test_params *params, dmlvk_tensor_data_type type)
{
    const uint32_t n = 4 * p->q.num_rois;
    double *dx = malloc(p->nx * sizeof(double)), *dx_again = malloc(p->nx * sizeof(double));
    double *dx_want = malloc(p->nx * sizeof(double)), *dx_mag = malloc(p->nx * sizeof(double));
    double droi[4 * MAX_ROIS], droi_again[4 * MAX_ROIS], droi_want[4 * MAX_ROIS], droi_mag[4 * MAX_ROIS];
    ref_roi_backward(&p->q, p->x, p->dy, dx_want, droi_want, dx_mag, droi_mag);
    assert_int_equal(gpu_backward(p, params, type, dx, droi), DMLVK_OK);
    expect_close("ROI gradient beside the input gradient", droi, droi_want, droi_mag, n, type_tolerance(type));
    expect_close("input gradient beside the ROI gradient", dx, dx_want, dx_mag, p->nx, type_tolerance(type));
    assert_int_equal(gpu_backward(p, params, type, dx_again, droi_again), DMLVK_OK);
    assert_memory_equal(droi, droi_again, sizeof(double) * n);
    assert_memory_equal(dx, dx_again, sizeof(double) * p->nx);
    free(dx);
    free(dx_again);
    free(dx_want);
    free(dx_mag);
}

/* The ROI gradient on the GPU matches the reference, whose formula the finite differences confirmed:
 * in every type, on few and on many channels (the copy of the input it reads pads each pixel's
 * channels to whole loads), with the gather and with the scatter (workgroups of 48 make no whole
 * gather tiles: deterministic, that is eight dispatches). */
static void test_roi_gradient_gpu(void **state)
{
    (void)state;
    const uint32_t workgroup_sizes[4] = { 0, 32, 64, 48 };
    for (int iter = 0; iter < 36; iter++) {
        const dmlvk_tensor_data_type type = iter < 24 ? DMLVK_TENSOR_DATA_TYPE_FLOAT32 : float_types[1 + iter % 2];
        struct problem p;
        random_problem(&p, true, iter % 3 == 2, iter % 2 == 0);
        if (iter % 24 >= 12) { /* enough (channel, bin) items for several workgroups per region */
            free_problem(&p);
            p.q.channels = 20 + below(200);
            p.q.out_h = 1 + below(6);
            p.q.out_w = 1 + below(6);
            alloc_uniform(&p);
        }
        round_to_type(p.x, p.nx, type);
        round_to_type(p.dy, p.ny, type);
        round_to_type(p.rois, 4 * p.q.num_rois, type);
        double want[24], mag[24], got[24];
        ref_roi_backward(&p.q, p.x, p.dy, NULL, want, NULL, mag);
        /* Without subgroup shuffles the ROI gradient beside the input gradient takes its own
         * stages. */
        struct test_params det = { .deterministic = iter % 2, .workgroup_size = workgroup_sizes[iter % 4],
                                   .force_no_subgroup_shuffle = iter % 8 == 7 };
        assert_int_equal(gpu_backward(&p, &det, type, NULL, got), DMLVK_OK);
        expect_close("ROI gradient", got, want, mag, 4 * p.q.num_rois, type_tolerance(type));
        if (iter % 2) {
            /* Bitwise the same run to run; with the input gradient beside it (whose gather sums the
             * ROI gradient on the way where it can), both outputs right and again the same run to
             * run. */
            double again[24];
            assert_int_equal(gpu_backward(&p, &det, type, NULL, again), DMLVK_OK);
            assert_memory_equal(got, again, sizeof(double) * 4 * p.q.num_rois);
            expect_both_gradients(&p, &det, type);
        }
        free_problem(&p);
    }
}

/* random_problem_channels' sampling (LINEAR, AVERAGE) on a map 5-12 pixels high and
 * `width_base` + `width_step` x [0, `widths`) wide, with bins of 3-7 a side where `new_bins`, and
 * regions whose corners start at [x0, x1) of the map's width and in its top half and span 1 to
 * half its extent; x and dY uniform, then (where `inf_column`) Inf in channel 0 of the first
 * column's rows below the first; all rounded to `type`. */
static void transposition_problem(struct problem *p, dmlvk_tensor_data_type type, bool adaptive, uint32_t channels,
                                  uint32_t width_base, uint32_t width_step, uint32_t widths, bool new_bins, double x0,
                                  double x1, bool inf_column)
{
    random_problem_channels(p, true, false, adaptive, channels, false);
    free_problem(p);
    struct ref_roi *q = &p->q;
    q->height = 5 + below(8);
    q->width = width_base + width_step * below(widths);
    if (new_bins) {
        q->out_h = 3 + below(5);
        q->out_w = 3 + below(5);
    }
    const double map_w = q->width / q->spatial_x, map_h = q->height / q->spatial_y;
    for (uint32_t k = 0; k < q->num_rois; k++) {
        double *r = &p->rois[4 * k];
        r[0] = uniform(x0 * map_w, x1 * map_w), r[1] = uniform(0, map_h / 2);
        r[2] = r[0] + uniform(1, map_w / 2), r[3] = r[1] + uniform(1, map_h / 2);
    }
    alloc_uniform(p);
    if (inf_column)
        for (uint32_t b = 0; b < q->batch; b++)
            for (uint32_t y = 1; y < q->height; y++)
                p->x[((uint64_t)b * q->channels * q->height + y) * q->width] = INFINITY;
    round_to_type(p->x, p->nx, type);
    round_to_type(p->dy, p->ny, type);
    round_to_type(p->rois, 4 * q->num_rois, type);
}

/* roi_align_grad_prepare's transpositions, dY's for the gather and InputTensor's for the ROI
 * gradient, whose blocks take one or more ROI_TRANSPOSE_CHANNELS channels, two to a word in 16-bit
 * types: channel counts around those blocks (odd ones too), maps of one to five blocks of pixels,
 * dY and InputTensor packed or channels last (the reads by channel lanes), workgroups of the
 * stepped reads (default, 32, 64) and of the general one (48); both gradients against the
 * reference in every type, and bitwise the same with every tensor bound 4 bytes into its buffer
 * (deterministic: where workgroups of 48 make no whole gather tiles, the scatter's atomics), where
 * an InputTensor of whole loads of channels last (64 channels) is read in place, by vectors at
 * offset 0 and by words at 4. */
static void test_roi_transpositions(void **state)
{
    (void)state;
    const uint32_t channel_counts[4] = { 31, 33, 64, 131 };
    const uint32_t workgroup_sizes[4] = { 0, 32, 64, 48 };
    for (int iter = 0; iter < 12; iter++) {
        const dmlvk_tensor_data_type type = float_types[iter % 3];
        struct problem p;
        /* Maps of one to five blocks of pixels, regions inside them (every tap feeds both gradients). */
        transposition_problem(&p, type, iter % 5 == 1, channel_counts[iter / 3], 5, 1, 8, true, 0, 0.5, false);
        const struct ref_roi *q = &p.q;
        const uint32_t c = q->channels, n = 4 * q->num_rois;
        const uint32_t x_last[4] = { q->height * q->width * c, 1, q->width * c, c };
        const uint32_t dy_last[4] = { q->out_h * q->out_w * c, 1, q->out_w * c, c };
        double *dx = malloc(p.nx * sizeof(double)), *dx_again = malloc(p.nx * sizeof(double));
        double *dx_want = malloc(p.nx * sizeof(double)), *dx_mag = malloc(p.nx * sizeof(double));
        double droi[4 * MAX_ROIS], droi_again[4 * MAX_ROIS], droi_want[4 * MAX_ROIS], droi_mag[4 * MAX_ROIS];
        ref_roi_backward(q, p.x, p.dy, dx_want, droi_want, dx_mag, droi_mag);
        for (int layout = 0; layout < 4; layout++) { /* bit 0: InputTensor channels last; bit 1: dY */
            for (int run = 0; run < 2; run++) {
                const struct test_params params = { .workgroup_size = workgroup_sizes[(iter + layout) % 4],
                                                    .deterministic = 1, .bind_offset = run ? 4 : 0 };
                assert_int_equal(gpu_backward_strided(NULL, &p, &params, type, NULL, layout & 1 ? x_last : NULL,
                                                      layout & 2 ? dy_last : NULL, run ? dx_again : dx,
                                                      run ? droi_again : droi),
                                 DMLVK_OK);
            }
            expect_close("ROI gradient after the transpositions", droi, droi_want, droi_mag, n, type_tolerance(type));
            expect_close("input gradient after the transpositions", dx, dx_want, dx_mag, p.nx, type_tolerance(type));
            assert_memory_equal(droi, droi_again, sizeof(double) * n);
            assert_memory_equal(dx, dx_again, sizeof(double) * p.nx);
        }
        free(dx);
        free(dx_again);
        free(dx_want);
        free(dx_mag);
        free_problem(&p);
    }
}

/* The padding channels of the ROI gradient's copy of a channels-last InputTensor (channel counts of
 * no whole loads) hold 0, not the next pixel's first channels: with Inf in channel 0 of the first
 * column, which no sample taps, a copy that read on past a pixel's last channel made the ROI
 * gradient NaN (0 times Inf), where the reference is finite. */
static void test_roi_transposition_padding(void **state)
{
    (void)state;
    const uint32_t channel_counts[2] = { 31, 33 };
    for (int iter = 0; iter < 6; iter++) {
        const dmlvk_tensor_data_type type = float_types[iter % 3];
        struct problem p;
        /* Odd widths: a 16-bit channel pair's word starts on either parity. Regions in the right
         * half, clamped past the last column. */
        transposition_problem(&p, type, false, channel_counts[iter / 3], 7, 2, 4, false, 0.5, 0.8, true);
        struct ref_roi *q = &p.q;
        q->input_offset = 0;
        const uint32_t c = q->channels, n = 4 * q->num_rois;
        const uint32_t x_last[4] = { q->height * q->width * c, 1, q->width * c, c };
        double droi[4 * MAX_ROIS], droi_want[4 * MAX_ROIS], droi_mag[4 * MAX_ROIS];
        ref_roi_backward(q, p.x, p.dy, NULL, droi_want, NULL, droi_mag);
        for (uint32_t i = 0; i < n; i++)
            assert_true(isfinite(droi_want[i]));
        const struct test_params params = { .deterministic = 1 };
        assert_int_equal(gpu_backward_strided(NULL, &p, &params, type, NULL, x_last, NULL, NULL, droi), DMLVK_OK);
        expect_close("ROI gradient beside Inf past the channels", droi, droi_want, droi_mag, n, type_tolerance(type));
        free_problem(&p);
    }
}

/* Region k of a varied set, in turn: large and overlapping, narrower than its bins (the lines'
 * pools), mirrored, past the edges (clamped samples), on whole pixels (taps of weight 0 whose
 * derivative is not; corners below `whole`, extents up to `whole_extent`); w x h is the map in the
 * regions' coordinates. */
static void varied_region(uint32_t k, double w, double h, uint32_t whole, uint32_t whole_extent, double *r)
{
    switch (k % 5) {
    case 0: /* large, overlapping */
        r[0] = uniform(-w / 4, w / 2), r[1] = uniform(-h / 4, h / 2);
        r[2] = r[0] + uniform(w / 4, w), r[3] = r[1] + uniform(h / 4, h);
        break;
    case 1: /* narrower than its bins */
        r[0] = uniform(0, w), r[1] = uniform(0, h), r[2] = r[0] + uniform(0.2, 2), r[3] = r[1] + uniform(0.2, 2);
        break;
    case 2: /* mirrored */
        r[0] = uniform(w / 2, w), r[1] = uniform(h / 2, h);
        r[2] = r[0] - uniform(2, w / 2), r[3] = r[1] - uniform(2, h / 2);
        break;
    case 3: /* past the edges */
        r[0] = uniform(-w / 2, 0), r[1] = uniform(h / 2, h), r[2] = w + uniform(0, w / 2), r[3] = h + uniform(0, h);
        break;
    default: /* whole pixels */
        r[0] = (double)below(whole), r[1] = (double)below(whole);
        r[2] = r[0] + 1 + below(whole_extent), r[3] = r[1] + 1 + below(whole_extent);
        break;
    }
}

/* Problem p's sampling by `iter` (fixed, adaptive and corner-aligned; offsets and spatial scales)
 * and its regions varied_region's, with corners and extents on whole pixels below `whole` and
 * `whole_extent`; region 7, and every `out_of_range`-th after it, of a batch past the input's. */
static void vary_regions(struct problem *p, int iter, uint32_t whole, uint32_t whole_extent, uint32_t out_of_range)
{
    struct ref_roi *q = &p->q;
    q->align_corners = iter % 4 == 3;
    q->spatial_x = iter % 2 ? 0.5 : 1;
    q->spatial_y = iter % 3 ? 1 : 0.25;
    q->input_offset = iter % 2 ? 0.5 : 0;
    q->output_offset = iter % 2 ? -0.5 : 0;
    q->min_samples = 1 + below(2);
    q->max_samples = iter % 3 == 1 ? UINT32_MAX : q->min_samples + below(2);
    for (uint32_t k = 0; k < q->num_rois; k++) {
        varied_region(k, q->width / q->spatial_x, q->height / q->spatial_y, whole, whole_extent, &p->rois[4 * k]);
        p->batch[k] = k % out_of_range == 7 ? 2 : below(2);
    }
}

/* The ROI gradient that the gather sums on the way (float32 AVERAGE LINEAR gathers with all their
 * channels and no splits: in workgroups of 64, maps of 1024 tiles and more; in iter 6 and 7 in
 * workgroups of 32, whose scan for the regions over a tile takes two rounds), against the reference
 * beside the input gradient and bitwise the same run to run: regions large and overlapping, narrower
 * than their bins (the lines' pools), mirrored, past the edges (clamped samples), on whole pixels
 * (taps of weight 0 whose derivative is not), with a batch index out of range; fixed, adaptive and
 * corner-aligned sampling; one and two groups of channels. */
static void test_roi_gradient_gathered(void **state)
{
    (void)state;
    for (int iter = 0; iter < 8; iter++) {
        struct problem p;
        memset(&p, 0, sizeof(p));
        struct ref_roi *q = &p.q;
        q->batch = 2;
        q->channels = iter == 5 ? 260 : 1 + below(20);
        q->height = 64 + below(8);
        q->width = 72 + below(8);
        q->num_rois = iter >= 6 ? 513 + below(MAX_ROIS - 512) : 12 + below(30);
        q->out_h = 1 + below(7);
        q->out_w = 1 + below(7);
        q->linear = 1;
        vary_regions(&p, iter, 40, 30, UINT32_MAX);
        alloc_uniform(&p);
        const dmlvk_tensor_data_type type = DMLVK_TENSOR_DATA_TYPE_FLOAT32;
        round_to_type(p.x, p.nx, type);
        round_to_type(p.dy, p.ny, type);
        round_to_type(p.rois, 4 * q->num_rois, type);
        const struct test_params params = { .workgroup_size = iter >= 6 ? 32 : 64 };
        expect_both_gradients(&p, &params, type);
        /* The gathered path, not the ROI gradient's own stages (its copy of the input and the
         * stage that reads it), which it takes without subgroup shuffles. */
        struct test_params own_stages = params;
        own_stages.force_no_subgroup_shuffle = true;
        assert_true(backward_dispatches(&p, &params) < backward_dispatches(&p, &own_stages));
        free_problem(&p);
    }
}

/* Many regions over a small map, whose gather divides them into parts in workgroups of their own
 * (ROI_SPEC_GATHER_PARTS), each part's sums added in part order: 2 batches of 9 to 12 rows and 10
 * to 14 columns, 40 or 70 channels (padded, and in two groups), 513 to 544 regions of 4x4 to 7x7
 * bins (at least 16 bins per pixel; 260 channels and 6x6 to 7x7 with the ROI gradient), large and
 * overlapping, narrower than their bins (the lines' pools), mirrored, past the edges, on whole
 * pixels, some of a batch out of range; some dY infinite or NaN; LINEAR and
 * NEAREST, fixed, adaptive and corner-aligned sampling; every type. AVERAGE against the reference
 * and bitwise the same run to run and in the deterministic mode; MAX's gather (where the atomics
 * are missing) on inputs of a few integers under NEAREST, whose ties are exact; float32 with the
 * ROI gradient too, summed in the gather and, without subgroup shuffles, in its own stages, which
 * makes ROI_ALIGN_GRAD's most dispatches (DMLVK_MAX_DISPATCHES: the geometry, the input's copy,
 * dY's transposition in halves, the lines, the gather, the parts' sum and the ROI gradient's two)
 * on a map of 2 or 3 rows and 130 to 134 columns in workgroups of 128, whose lines outnumber the
 * widest workgroup (lines_in_geometry), and two fewer on the small map, whose geometry stage writes
 * the lines and whose dY's transposition runs whole beside it. */
static void test_gather_parts(void **state)
{
    (void)state;
    for (int iter = 0; iter < 10; iter++) {
        const dmlvk_tensor_data_type type = iter >= 8 ? DMLVK_TENSOR_DATA_TYPE_FLOAT32 : float_types[iter % 3];
        const bool maximum = iter == 6 || iter == 7, roi_grad = iter >= 8;
        struct problem p;
        memset(&p, 0, sizeof(p));
        struct ref_roi *q = &p.q;
        q->batch = 2;
        /* With the ROI gradient enough (channel, bin) items for its own stages' two workgroups per
         * region. */
        q->channels = roi_grad ? 260 : iter % 2 ? 70 : 40;
        const bool thin = iter == 9;
        q->height = thin ? 2 + below(2) : 9 + below(4);
        q->width = thin ? 130 + below(5) : 10 + below(5);
        q->num_rois = 513 + below(MAX_ROIS - 512);
        q->out_h = roi_grad ? 6 + below(2) : 4 + below(4);
        q->out_w = roi_grad ? 6 + below(2) : 4 + below(4);
        q->linear = !maximum && (roi_grad || iter % 4 != 1);
        q->maximum = maximum;
        vary_regions(&p, iter, 10, 8, 97);
        alloc_problem(&p);
        for (uint64_t i = 0; i < p.nx; i++)
            p.x[i] = maximum ? (double)below(5) - 2 : uniform(-1, 1);
        /* In iter 0 and 5 some dY infinite or NaN, so that parts may hold Inf, -Inf and NaN that
         * their sum must meet as float addition does. */
        const double specials[3] = { INFINITY, -INFINITY, NAN };
        for (uint64_t i = 0; i < p.ny; i++)
            p.dy[i] = iter % 5 == 0 && below(50) == 0 ? specials[below(3)] : uniform(-1, 1);
        round_to_type(p.x, p.nx, type);
        round_to_type(p.dy, p.ny, type);
        round_to_type(p.rois, 4 * q->num_rois, type);
        /* MAX gathers where its atomics are missing. */
        const struct test_params params = { .force_no_int64_atomics = maximum, .deterministic = maximum };
        assert_true(gather_spec_with(q, type, &params, roi_grad, false, ROI_SPEC_GATHER_PARTS) > 1);
        if (roi_grad) {
            expect_both_gradients(&p, &params, type);
            const struct test_params own_stages = { .force_no_subgroup_shuffle = true, .workgroup_size = thin ? 128 : 0 };
            bool lines_in_geometry;
            assert_int_equal(backward_dispatches_lines(&p, &own_stages, &lines_in_geometry),
                             DMLVK_MAX_DISPATCHES - (thin ? 0 : 2));
            assert_int_equal(lines_in_geometry, !thin);
            expect_both_gradients(&p, &own_stages, type);
            free_problem(&p);
            continue;
        }
        const struct test_params det = { .deterministic = 1, .force_no_int64_atomics = maximum };
        expect_input_gradient_alike("gather in parts", &p, type, &params, &det);
        free_problem(&p);
    }
}

/* ROI_SPEC_GATHER_PARTS where the regions' bins number at least 16 per input pixel and the tiles
 * are few (BENCHMARKS.md note 171), up to ROI_GATHER_MAX_PARTS: 4096 regions of 7x7 bins on a
 * 4x64x32x32 map (49 bins per pixel) take 8 parts in float32 and bfloat16, 512 regions there (6.1
 * per pixel) none, but its splits; 256 regions of 14x14 on a 2x256x50x76 map (6.6 per pixel) none;
 * 2233 regions of 14x14 on a 2x512x35x38 map (164 per pixel) 8; fewer than 128 regions none; and
 * 2 parts in place of 2 splits on rnd051's shape (0.6 bins per pixel, note 172). */
static void test_gather_parts_rule(void **state)
{
    (void)state;
    if (!plans_pinned_here())
        skip();
    struct ref_roi q = { .batch = 4, .channels = 64, .height = 32, .width = 32, .num_rois = 4096, .out_h = 7,
                         .out_w = 7, .linear = 1, .spatial_x = 0.0625, .spatial_y = 0.0625, .min_samples = 1,
                         .max_samples = UINT32_MAX };
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_FLOAT32, false, ROI_SPEC_GATHER_PARTS), 8);
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_BFLOAT16, false, ROI_SPEC_GATHER_PARTS), 8);
    q.num_rois = 512;
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_FLOAT32, false, ROI_SPEC_GATHER_PARTS), 1);
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_FLOAT32, false, ROI_SPEC_GATHER_SPLITS), 2);
    q = (struct ref_roi){ .batch = 2, .channels = 256, .height = 50, .width = 76, .num_rois = 256, .out_h = 14,
                          .out_w = 14, .linear = 1, .spatial_x = 0.0625, .spatial_y = 0.0625, .min_samples = 2,
                          .max_samples = 2 };
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_FLOAT32, false, ROI_SPEC_GATHER_PARTS), 1);
    q.channels = 512;
    q.height = 35;
    q.width = 38;
    q.num_rois = 2233;
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_BFLOAT16, false, ROI_SPEC_GATHER_PARTS), 8);
    q.num_rois = 127;
    q.height = 3;
    q.width = 3;
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_FLOAT32, false, ROI_SPEC_GATHER_PARTS), 1);
    /* rnd051's shape, 0.6 bins per pixel: 2 parts in place of 2 splits; with fewer than 128 regions
     * the splits. */
    q = (struct ref_roi){ .batch = 2, .channels = 64, .height = 84, .width = 117, .num_rois = 235, .out_h = 7,
                          .out_w = 7, .linear = 1, .spatial_x = 0.25, .spatial_y = 0.25, .min_samples = 2,
                          .max_samples = 2 };
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_BFLOAT16, false, ROI_SPEC_GATHER_PARTS), 2);
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_BFLOAT16, false, ROI_SPEC_GATHER_SPLITS), 1);
    q.num_rois = 127;
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_BFLOAT16, false, ROI_SPEC_GATHER_PARTS), 1);
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_BFLOAT16, false, ROI_SPEC_GATHER_SPLITS), 2);
    /* Few tiles under 14x14 bins (note 180): seed 11's rnd042, 108 regions on 2x64x27x29 (13.5 bins
     * per pixel, 56 workgroups), 4 parts of at least 16 regions; seed 10's rnd025, 362 on 2x256x59x70
     * (8.6 per pixel, 270 workgroups), none; 7x7 bins on seed 11's rnd027's 1x256x35x56 (11.8 per
     * pixel), none. */
    q = (struct ref_roi){ .batch = 2, .channels = 64, .height = 27, .width = 29, .num_rois = 108, .out_h = 14,
                          .out_w = 14, .linear = 1, .spatial_x = 0.125, .spatial_y = 0.125, .min_samples = 1,
                          .max_samples = 1 };
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_FLOAT32, false, ROI_SPEC_GATHER_PARTS), 4);
    q = (struct ref_roi){ .batch = 2, .channels = 256, .height = 59, .width = 70, .num_rois = 362, .out_h = 14,
                          .out_w = 14, .linear = 1, .spatial_x = 0.03125, .spatial_y = 0.03125, .min_samples = 1,
                          .max_samples = 1 };
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_FLOAT32, false, ROI_SPEC_GATHER_PARTS), 1);
    q = (struct ref_roi){ .batch = 1, .channels = 256, .height = 35, .width = 56, .num_rois = 470, .out_h = 7,
                          .out_w = 7, .linear = 1, .spatial_x = 0.125, .spatial_y = 0.125, .min_samples = 1,
                          .max_samples = 1 };
    assert_int_equal(gather_spec_value(&q, DMLVK_TENSOR_DATA_TYPE_BFLOAT16, false, ROI_SPEC_GATHER_PARTS), 1);
}

/* q's regions up to a third of the map wide and high (or mirrored by up to 3), starting up to 4
 * before it, every 31st of a batch past the input's. */
static void third_map_regions(struct problem *p)
{
    const struct ref_roi *q = &p->q;
    for (uint32_t k = 0; k < q->num_rois; k++) {
        const double x1 = uniform(-4, q->width), y1 = uniform(-4, q->height);
        p->rois[4 * k] = x1;
        p->rois[4 * k + 1] = y1;
        p->rois[4 * k + 2] = x1 + uniform(-3, q->width / 3.0);
        p->rois[4 * k + 3] = y1 + uniform(-3, q->height / 3.0);
        p->batch[k] = k % 31 == 30 ? 2 : below(2);
    }
}

/* Where the gather would split the regions of a small map and their bins are few per pixel, 2 parts
 * in place of 2 splits (plan_gather, BENCHMARKS.md note 172): 2 maps of 38-41 x 48-53, 8 to 24
 * channels, 130 to 148 regions of 7x7 bins (at most 2 bins per pixel), mirrored, overhanging and
 * out of range among them; every type, LINEAR and NEAREST, fixed and adaptive sampling, against
 * the reference and bitwise the same run to run and in the deterministic mode. Then the parts'
 * sums at the output's offsets (ROI_SPEC_PARTS_IN_PLACE, note 180) into a channels-last input
 * gradient, and at packed indices (as where it is packed) into one of every other element, against
 * the reference. */
static void test_gather_parts_for_splits(void **state)
{
    (void)state;
    for (int iter = 0; iter < 6; iter++) {
        const dmlvk_tensor_data_type type = float_types[iter % 3];
        struct problem p;
        memset(&p, 0, sizeof(p));
        struct ref_roi *q = &p.q;
        q->batch = 2;
        q->channels = 8 + 8 * below(3);
        q->height = 38 + below(4);
        q->width = 48 + below(6);
        /* At most 148: 2 bins per pixel on the smallest map. Clamped, not drawn below 19, to keep
         * the random stream of the tests after this one. */
        q->num_rois = 130 + below(31);
        if (q->num_rois > 148)
            q->num_rois = 148;
        q->out_h = q->out_w = 7;
        q->linear = iter % 4 != 1;
        q->spatial_x = q->spatial_y = 1;
        q->min_samples = iter % 3 == 2 ? 1 : 2;
        q->max_samples = iter % 3 == 2 ? UINT32_MAX : 2;
        third_map_regions(&p);
        alloc_uniform(&p);
        round_to_type(p.dy, p.ny, type);
        round_to_type(p.rois, 4 * q->num_rois, type);
        const struct test_params params = { 0 }, det = { .deterministic = 1 };
        assert_int_equal(gather_spec_with(q, type, &params, false, false, ROI_SPEC_GATHER_PARTS), 2);
        assert_int_equal(gather_spec_with(q, type, &params, false, false, ROI_SPEC_GATHER_SPLITS), 1);
        expect_input_gradient_alike("gather in parts for splits", &p, type, &params, &det);
        if (iter < 4) {
            const uint32_t c = q->channels, h = q->height, w = q->width;
            const uint32_t channels_last[4] = { h * w * c, 1, w * c, c };
            const uint32_t every_other[4] = { c * h * 2 * w, h * 2 * w, 2 * w, 2 };
            assert_int_equal(gather_spec_with(q, type, &params, false, iter < 3, ROI_SPEC_PARTS_IN_PLACE), iter < 3);
            struct results r;
            reference_results(&p, &r);
            assert_int_equal(gpu_backward_strided(NULL, &p, NULL, type, iter < 3 ? channels_last : every_other, NULL,
                                                  NULL, r.got, NULL),
                             DMLVK_OK);
            expect_close(iter < 3 ? "parts, channels last" : "parts, every other element", r.got, r.want, r.mag, p.nx,
                         type_tolerance(type));
            free_results(&r);
        }
        free_problem(&p);
    }
}

/* The gather stages its lines only where a workgroup takes at least ROI_GATHER_STAGED_FROM_CHANNELS
 * channels (BENCHMARKS.md note 181): 181 regions of 7x7 bins on a 2x80x59x94 map (0.8 bins per
 * pixel, 80 channels padded to 128) stage, in 2 parts, and 64 channels do not. Staged in parts, in
 * both 16-bit types, into a packed and a channels-last input gradient (the parts' sums in place),
 * some dY infinite or NaN, against the reference and bitwise alike with the deterministic mode. Its
 * own random stream, so that the tests after it draw as before. */
static void test_gather_staged_parts(void **state)
{
    (void)state;
    const uint64_t outer_state = rng_state;
    rng_state = 20261205;
    for (int iter = 0; iter < 4; iter++) {
        const dmlvk_tensor_data_type type = iter % 2 ? DMLVK_TENSOR_DATA_TYPE_BFLOAT16 : DMLVK_TENSOR_DATA_TYPE_FLOAT16;
        const bool channels_last = iter >= 2;
        struct problem p;
        memset(&p, 0, sizeof(p));
        struct ref_roi *q = &p.q;
        *q = (struct ref_roi){ .batch = 2, .channels = 64, .height = 59, .width = 94, .num_rois = 181, .out_h = 7,
                               .out_w = 7, .linear = iter != 1, .align_corners = iter == 3, .spatial_x = 1,
                               .spatial_y = 1, .output_offset = -0.5, .min_samples = 4, .max_samples = 4 };
        const struct test_params params = { 0 }, det = { .deterministic = 1 };
        if (plans_pinned_here())
            assert_int_equal(gather_spec_with(q, type, &params, false, channels_last, ROI_SPEC_GATHER_STAGED), 0);
        q->channels = 80;
        if (plans_pinned_here()) {
            assert_int_equal(gather_spec_with(q, type, &params, false, channels_last, ROI_SPEC_GATHER_STAGED), 1);
            assert_int_equal(gather_spec_with(q, type, &params, false, channels_last, ROI_SPEC_GATHER_PARTS), 2);
            assert_int_equal(gather_spec_with(q, type, &params, false, channels_last, ROI_SPEC_PARTS_IN_PLACE),
                             channels_last);
        }
        third_map_regions(&p);
        alloc_uniform(&p);
        /* In iter 0 and 3 some dY infinite or NaN: the staged walk skips regions without weight on a
         * pixel, whose dY must not reach it. */
        const double specials[3] = { INFINITY, -INFINITY, NAN };
        for (uint64_t i = 0; iter % 3 == 0 && i < p.ny; i++)
            if (below(64) == 0)
                p.dy[i] = specials[below(3)];
        round_to_type(p.dy, p.ny, type);
        round_to_type(p.rois, 4 * q->num_rois, type);
        if (channels_last) {
            const uint32_t c = q->channels, h = q->height, w = q->width;
            const uint32_t strides[4] = { h * w * c, 1, w * c, c };
            struct results r;
            reference_results(&p, &r);
            assert_int_equal(gpu_backward_strided(NULL, &p, NULL, type, strides, NULL, NULL, r.got, NULL), DMLVK_OK);
            expect_close("staged parts, channels last", r.got, r.want, r.mag, p.nx, type_tolerance(type));
            assert_int_equal(gpu_backward_strided(NULL, &p, &det, type, strides, NULL, NULL, r.again, NULL), DMLVK_OK);
            assert_memory_equal(r.got, r.again, p.nx * sizeof(double));
            free_results(&r);
        } else {
            expect_input_gradient_alike("staged parts", &p, type, &params, &det);
        }
        free_problem(&p);
    }
    rng_state = outer_state;
}

/* torchvision.ops.roi_align's own algorithm (forward and backward), written from its source's
 * structure: start/end with the 0.5 shift when aligned, bin sizes, sampling grid, and its
 * bilinear_interpolate with the -1 / size out-of-bounds rule. */
static double tv_bilinear(const double *plane, int h, int w, double y, double x, double wts[4], int idx[4])
{
    if (y < -1.0 || y > h || x < -1.0 || x > w)
        return 0;
    if (y <= 0)
        y = 0;
    if (x <= 0)
        x = 0;
    int y_low = (int)y, x_low = (int)x, y_high, x_high;
    if (y_low >= h - 1) {
        y_high = y_low = h - 1;
        y = y_low;
    } else {
        y_high = y_low + 1;
    }
    if (x_low >= w - 1) {
        x_high = x_low = w - 1;
        x = x_low;
    } else {
        x_high = x_low + 1;
    }
    double ly = y - y_low, lx = x - x_low, hy = 1 - ly, hx = 1 - lx;
    wts[0] = hy * hx, wts[1] = hy * lx, wts[2] = ly * hx, wts[3] = ly * lx;
    idx[0] = y_low * w + x_low, idx[1] = y_low * w + x_high, idx[2] = y_high * w + x_low, idx[3] = y_high * w + x_high;
    return wts[0] * plane[idx[0]] + wts[1] * plane[idx[1]] + wts[2] * plane[idx[2]] + wts[3] * plane[idx[3]];
}

static void torchvision(const struct ref_roi *q, bool aligned, int ratio, const double *x, const double *dy, double *out,
                        double *dx)
{
    int h = (int)q->height, w = (int)q->width;
    if (dx)
        memset(dx, 0, sizeof(double) * q->batch * q->channels * h * w);
    for (uint32_t k = 0; k < q->num_rois; k++) {
        const double *r = q->rois + 4 * k;
        double off = aligned ? 0.5 : 0, scale = q->spatial_x;
        double sw = r[0] * scale - off, sh = r[1] * scale - off, ew = r[2] * scale - off, eh = r[3] * scale - off;
        double rw = ew - sw, rh = eh - sh;
        if (!aligned) {
            rw = fmax(rw, 1.0);
            rh = fmax(rh, 1.0);
        }
        double bh = rh / q->out_h, bw = rw / q->out_w;
        int gh = ratio > 0 ? ratio : (int)ceil(rh / q->out_h), gw = ratio > 0 ? ratio : (int)ceil(rw / q->out_w);
        double count = fmax(gh * gw, 1);
        for (uint32_t c = 0; c < q->channels; c++) {
            uint64_t plane_at = ((uint64_t)q->batch_indices[k] * q->channels + c) * h * w;
            for (uint32_t ph = 0; ph < q->out_h; ph++)
                for (uint32_t pw = 0; pw < q->out_w; pw++) {
                    uint64_t o = (((uint64_t)k * q->channels + c) * q->out_h + ph) * q->out_w + pw;
                    double sum = 0;
                    for (int iy = 0; iy < gh; iy++) {
                        double y = sh + ph * bh + (iy + .5) * bh / gh;
                        for (int ix = 0; ix < gw; ix++) {
                            double xx = sw + pw * bw + (ix + .5) * bw / gw, wts[4] = { 0 };
                            int idx[4] = { 0 };
                            sum += tv_bilinear(x + plane_at, h, w, y, xx, wts, idx);
                            for (int t = 0; dx && t < 4; t++)
                                dx[plane_at + idx[t]] += dy[o] / count * wts[t];
                        }
                    }
                    if (out)
                        out[o] = sum / count;
                }
        }
    }
}

static void test_torchvision(void **state)
{
    (void)state;
    for (int iter = 0; iter < 24; iter++) {
        bool aligned = iter % 2 == 0;
        int ratio = iter % 3 == 0 ? 0 : 1 + iter % 3;
        struct problem p;
        random_problem(&p, true, false, false);
        /* Boxes with x1 <= x2, y1 <= y2; unaligned ones at least 2 pixels after scaling (see MAPPINGS.md). */
        for (uint32_t k = 0; k < p.q.num_rois; k++) {
            double *r = p.rois + 4 * k;
            r[2] = r[0] + uniform(aligned ? 0 : 4, 2 * p.q.width);
            r[3] = r[1] + uniform(aligned ? 0 : 4, 2 * p.q.height);
            for (int t = 0; t < 4; t++)
                r[t] = (float)r[t];
        }
        for (uint64_t i = 0; i < p.nx; i++)
            p.x[i] = (float)p.x[i];
        for (uint64_t i = 0; i < p.ny; i++)
            p.dy[i] = (float)p.dy[i];
        dmlvk_roi_align_fields f;
        assert_int_equal(dmlvk_roi_align_fields_from_convention(aligned ? DMLVK_ROI_ALIGN_CONVENTION_HALF_PIXEL
                                                                        : DMLVK_ROI_ALIGN_CONVENTION_OUTPUT_HALF_PIXEL,
                                                                0.5f, ratio, DMLVK_REDUCE_FUNCTION_AVERAGE, &f),
                         DMLVK_OK);
        p.q.input_offset = f.InputPixelOffset;
        p.q.output_offset = f.OutputPixelOffset;
        p.q.min_samples = f.MinimumSamplesPerOutput;
        p.q.max_samples = f.MaximumSamplesPerOutput;
        double *want = malloc(p.ny * sizeof(double)), *got = malloc(p.ny * sizeof(double));
        double *want_dx = malloc(p.nx * sizeof(double)), *got_dx = malloc(p.nx * sizeof(double));
        torchvision(&p.q, aligned, ratio, p.x, p.dy, want, want_dx);
        gpu_forward(&p, got);
        for (uint64_t i = 0; i < p.ny; i++)
            if (!(fabs(got[i] - want[i]) <= 1e-5))
                fail_msg("torchvision %s ratio %d, output %llu: %.9g, torchvision %.9g", aligned ? "aligned" : "unaligned",
                         ratio, (unsigned long long)i, got[i], want[i]);
        assert_int_equal(gpu_backward(&p, NULL, DMLVK_TENSOR_DATA_TYPE_FLOAT32, got_dx, NULL), DMLVK_OK);
        for (uint64_t i = 0; i < p.nx; i++)
            if (!(fabs(got_dx[i] - want_dx[i]) <= 1e-5))
                fail_msg("torchvision backward, element %llu: %.9g, torchvision %.9g", (unsigned long long)i, got_dx[i],
                         want_dx[i]);
        free(want);
        free(got);
        free(want_dx);
        free(got_dx);
        free_problem(&p);
    }
}

/* Regions whose batch index is out of range are skipped, and counted when diagnostics are asked for. */
static void test_skipped_regions(void **state)
{
    (void)state;
    struct roi_tensors t;
    packed_roi_tensors(&t, DMLVK_TENSOR_DATA_TYPE_FLOAT32, (uint32_t[4]){ 2, 1, 4, 4 }, (uint32_t[4]){ 4, 1, 2, 2 });
    dmlvk_tensor_desc *tx = &t.x, *ty = &t.bins, *tr = &t.rois, *tb = &t.batch;
    float x[32], y[16], r[16] = { 0, 0, 3, 3, 1, 1, 2, 2, 0, 0, 4, 4, 2, 0, 3, 1 }, dy[16], dx[32], dr[16];
    uint32_t b[4] = { 0, 7, 1, 2 }; /* regions 1 and 3 name batches that do not exist */
    for (int i = 0; i < 32; i++)
        x[i] = (float)i;
    for (int i = 0; i < 16; i++)
        dy[i] = 1;
    dmlvk_roi_align1_operator_desc fwd = { tx, tr, tb, ty, DMLVK_REDUCE_FUNCTION_AVERAGE, DMLVK_INTERPOLATION_MODE_LINEAR,
                                           1, 1, 0.5f, -0.5f, -5, 1, 2, 0 };
    dmlvk_roi_align_grad_operator_desc bwd = { tx, ty, tr, tb, tx, tr, DMLVK_REDUCE_FUNCTION_AVERAGE,
                                               DMLVK_INTERPOLATION_MODE_LINEAR, 1, 1, 0.5f, -0.5f, 1, 2, 0 };
    const dmlvk_operator_desc ops[2] = { { DMLVK_OPERATOR_ROI_ALIGN1, &fwd }, { DMLVK_OPERATOR_ROI_ALIGN_GRAD, &bwd } };
    for (int k = 0; k < 2; k++) {
        dmlvk_operator *op;
        assert_int_equal(test_operator_create(dev, &ops[k], NULL, &op), DMLVK_OK);
        const dmlvk_tensor_desc *descs[6] = { tx, tr, tb, ty };
        void *vals[6] = { x, r, b, y };
        if (k == 1) {
            const dmlvk_tensor_desc *d2[6] = { tx, ty, tr, tb, tx, tr };
            void *v2[6] = { x, dy, r, b, dx, dr };
            memcpy(descs, d2, sizeof(d2));
            memcpy(vals, v2, sizeof(v2));
        }
        dmlvk_buffer *bufs[6] = { 0 };
        dmlvk_binding bind[6] = { 0 };
        uint32_t n = k ? 6 : 4;
        for (uint32_t i = 0; i < n; i++) {
            assert_int_equal(dmlvk_buffer_create(dev, descs[i]->TotalTensorSizeInBytes, &bufs[i]), DMLVK_OK);
            dmlvk_buffer_write(bufs[i], 0, vals[i], descs[i]->TotalTensorSizeInBytes);
            bind[i] = (dmlvk_binding){ .buffer = bufs[i], .size = VK_WHOLE_SIZE };
        }
        for (int run = 0; run < 2; run++) { /* counted afresh each time */
            dmlvk_diagnostics diag;
            assert_int_equal(dmlvk_operator_execute_diagnosed(op, bind, n, &diag), DMLVK_OK);
            uint64_t skipped = 99;
            assert_int_equal(dmlvk_diagnostics_get_counter(&diag, "skipped_regions", &skipped), DMLVK_OK);
            assert_int_equal(skipped, 2);
            assert_int_equal(diag.counter_count, 1);
        }
        if (k == 0) {
            dmlvk_buffer_read(bufs[3], 0, y, sizeof(y));
            for (int i = 4; i < 8; i++) /* region 1: OutOfBoundsInputValue everywhere */
                assert_true(y[i] == -5);
        } else {
            dmlvk_buffer_read(bufs[5], 0, dr, sizeof(dr));
            for (int i = 4; i < 8; i++) /* region 1: no ROI gradient */
                assert_true(dr[i] == 0);
        }
        for (uint32_t i = 0; i < n; i++)
            dmlvk_buffer_destroy(bufs[i]);
        dmlvk_operator_destroy(op);
    }
}

/* A coordinate of the exactness sweep along an axis of `size` cells, before SpatialScale: an
 * integer or a half-integer as often as a random value. */
static double sweep_round(double v)
{
    uint32_t k = below(3);
    return k == 0 ? round(v) : k == 1 ? round(2 * v) / 2 : v;
}

/* One axis of a region: inside, overhanging, 10 to 10^6 times the input, mirrored, empty, smaller
 * than a cell, with ends far from the map's scale (up to `limit`, the type's range, or tiny), or
 * so wide that a bin holds 2^32 - 1 samples (where sample indices within a bin near 2^32). */
static void sweep_axis(double size, double scale, double limit, double *lo, double *hi)
{
    double a, b;
    switch (below(8)) {
    case 0: /* inside */
        a = uniform(0, size);
        b = a + uniform(0, size - a);
        break;
    case 1: /* overhanging */
        a = uniform(-size, 2 * size);
        b = a + uniform(-2 * size, 3 * size);
        break;
    case 2: { /* far larger than the input */
        double c = uniform(-2 * size, 3 * size), h = size * pow(10, uniform(1, 6));
        a = c - h;
        b = c + h;
        break;
    }
    case 3: /* empty */
        a = b = uniform(-2, size + 2);
        break;
    case 4: /* smaller than a cell */
        a = uniform(-1.5, size + 0.5);
        b = a + uniform(-0.5, 0.5);
        break;
    case 6: { /* each end: near the map, huge or tiny */
        double end[2];
        for (int e = 0; e < 2; e++) {
            uint32_t kind = below(3);
            end[e] = kind == 0 ? uniform(-1, size + 1)
                     : kind == 1 ? (below(2) ? -limit : limit) * uniform(0.01, 1)
                                 : uniform(-1, 1) * 1e-36;
        }
        a = end[0];
        b = end[1];
        break;
    }
    case 7: { /* about 10^10 wide around the map: 2^32 - 1 samples per bin, a few of them inside */
        double c = uniform(-1, size + 1), half = uniform(5e9, 3e10);
        a = c - half;
        b = c + half;
        break;
    }
    default: /* edges near -1 and the size, where ties decide bounds */
        a = -1 - below(3) * 0.5;
        b = size + below(3) * 0.5;
        break;
    }
    if (below(4) == 0) { /* mirrored */
        double t = a;
        a = b;
        b = t;
    }
    *lo = fmax(-limit, fmin(limit, sweep_round(a / scale)));
    *hi = fmax(-limit, fmin(limit, sweep_round(b / scale)));
}

/* Sample tables past DMLVK_ROI_TABLES_MAX_BYTES are refused at creation, naming the field. */
static void test_table_limit(void **state)
{
    (void)state;
    struct roi_tensors t;
    packed_roi_tensors(&t, DMLVK_TENSOR_DATA_TYPE_FLOAT32, (uint32_t[4]){ 1, 1, 8, 8 }, (uint32_t[4]){ 4096, 1, 7, 7 });
    dmlvk_roi_align1_operator_desc d = { &t.x, &t.rois, &t.batch, &t.bins, DMLVK_REDUCE_FUNCTION_AVERAGE, DMLVK_INTERPOLATION_MODE_LINEAR,
                                         1, 1, 0.5f, -0.5f, 0, 1000000, 1000000, 0 };
    dmlvk_operator *op;
    assert_int_equal(test_operator_create(dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_ROI_ALIGN1, &d }, NULL, &op),
                     DMLVK_ERROR_UNSUPPORTED);
    assert_non_null(strstr(dmlvk_last_error(), "MinimumSamplesPerOutput"));
    d.MinimumSamplesPerOutput = 1; /* adaptive counts: at most 2 * 8 + 3 entries per axis */
    d.MaximumSamplesPerOutput = UINT32_MAX;
    assert_int_equal(test_operator_create(dev, &(dmlvk_operator_desc){ DMLVK_OPERATOR_ROI_ALIGN1, &d }, NULL, &op),
                     DMLVK_OK);
    dmlvk_operator_properties props;
    assert_int_equal(dmlvk_operator_get_properties(op, &props), DMLVK_OK);
    assert_int_equal(props.scratch_bytes, 16 * 4096 * (3 + 19 + 19) + 4 * 4096);    /* the tables, a rescue flag per region */
    dmlvk_operator_destroy(op);
}

/* Decisions exact for every geometry (issue 14): thousands of random regions, every mode, against
 * the exact reference, forward and both gradients in float32, float16 and bfloat16, the gradients
 * also with workgroups of 4, 8 and 16 invocations; every ninth problem without the float64
 * estimate (as on devices without shaderFloat64), which places the others' samples where it can. MAX
 * bins whose winner is within float32 rounding of another sample's value are rerolled. */
static void test_exact_geometry(void **state)
{
    (void)state;
    static const double scales[] = { 1, 0.5, 0.25, 2, 0.0625, 1.0 / 3 };
    static const double in_offsets[] = { 0.5, 0, 0.25, -0.5 }, out_offsets[] = { -0.5, 0, 0.5 };
    uint64_t geometries = 0, rerolled = 0, skipped = 0;
    /* Its own stream, so that how many problems stay ambiguous (ties that every reroll keeps, from
     * samples that coincide) does not move when an earlier test draws more. */
    rng_state = 20261126;
    for (int iter = 0; iter < 144; iter++) {
        dmlvk_tensor_data_type type = float_types[iter % 3];
        struct problem p;
        memset(&p, 0, sizeof(p));
        struct ref_roi *q = &p.q;
        q->batch = 1 + below(2);
        q->channels = 1 + below(2);
        q->height = 1 + below(8);
        q->width = 1 + below(8);
        q->num_rois = 24 + (uint32_t)(iter * 7) % 25; /* 5000 and more in all, whatever the seed */
        q->out_h = 1 + below(4);
        q->out_w = 1 + below(4);
        q->linear = below(2);
        q->maximum = (iter / 3) % 2;
        q->align_corners = below(3) == 0;
        q->spatial_x = (float)scales[below(6)]; /* what the descriptor's float32 holds */
        q->spatial_y = below(2) ? q->spatial_x : (float)scales[below(6)];
        q->input_offset = in_offsets[below(4)];
        q->output_offset = out_offsets[below(3)];
        q->oob_value = below(2) ? 0 : (float)uniform(-2, 2);
        uint32_t mode = below(3);
        q->min_samples = mode == 0 ? 1 : 1 + below(3);
        q->max_samples = mode == 0 ? UINT32_MAX : mode == 1 ? q->min_samples : q->min_samples + below(3);
        double limit = type == DMLVK_TENSOR_DATA_TYPE_FLOAT16 ? 60000 : 1e30;
        for (uint32_t k = 0; k < q->num_rois; k++) {
            sweep_axis(q->width, q->spatial_x, limit, &p.rois[4 * k], &p.rois[4 * k + 2]);
            sweep_axis(q->height, q->spatial_y, limit, &p.rois[4 * k + 1], &p.rois[4 * k + 3]);
            p.batch[k] = below(q->batch);
        }
        round_to_type(p.rois, 4 * q->num_rois, type);
        alloc_problem(&p);
        double rel = type_tolerance(type);
        uint64_t ambiguous = 1;
        struct results r = { 0 };
        double *droi = malloc(4 * q->num_rois * sizeof(double)), *droi_want = malloc(4 * q->num_rois * sizeof(double));
        double *droi_mag = malloc(4 * q->num_rois * sizeof(double));
        for (int attempt = 0; attempt < 20 && ambiguous; attempt++) {
            for (uint64_t i = 0; i < p.nx; i++)
                p.x[i] = uniform(-1, 1);
            for (uint64_t i = 0; i < p.ny; i++)
                p.dy[i] = uniform(-1, 1);
            round_to_type(p.x, p.nx, type);
            round_to_type(p.dy, p.ny, type);
            ambiguous = 0;
            q->ambiguous = q->maximum ? &ambiguous : NULL;
            q->max_tie = 1e-5;
            if (r.want)
                free_results(&r);
            reference_results(&p, &r);
            rerolled += ambiguous != 0;
        }
        q->ambiguous = NULL;
        geometries += q->num_rois;
        {
            double *want = malloc(p.ny * sizeof(double)), *got = malloc(p.ny * sizeof(double));
            double *mag = malloc(p.ny * sizeof(double));
            ref_roi_forward(q, p.x, want);
            for (uint64_t i = 0; i < p.ny; i++)
                mag[i] = 1 + fabs(q->oob_value);
            /* Float32 AVERAGE by sample rows and by whole bins in turn, in workgroups smaller than a
             * subgroup too. */
            struct test_params forward = { .workgroup_size = iter % 24 == 0 ? 4 : iter % 24 == 6 ? 8 : iter % 24 == 12 ? 16 : 0,
                                           .force_no_subgroup_shuffle = iter % 12 >= 6,
                                           .force_no_float64 = iter % 9 == 4 };
            gpu_forward_typed(&p, type, &forward, got);
            expect_close("ROI_ALIGN1", got, want, mag, p.ny, rel);
            free(want);
            free(got);
            free(mag);
        }
        if (ambiguous) {
            skipped++;
        } else {
            ref_roi_backward(q, p.x, p.dy, NULL, droi_want, NULL, droi_mag);
            /* The geometry's searches take up to 8 lanes each: 8, and 1, 2 and 4 in small workgroups. */
            struct test_params params = { .workgroup_size = iter % 24 == 5 ? 4 : iter % 24 == 12 ? 8 : iter % 24 == 19 ? 16 : 0,
                                          .force_no_float64 = iter % 9 == 4 };
            assert_int_equal(gpu_backward(&p, &params, type, r.got, droi), DMLVK_OK);
            expect_close("OutputGradientTensor", r.got, r.want, r.mag, p.nx, rel);
            expect_close("OutputROIGradientTensor", droi, droi_want, droi_mag, 4 * q->num_rois, rel);
        }
        free(droi);
        free(droi_want);
        free(droi_mag);
        free_results(&r);
        free_problem(&p);
    }
    printf("exact geometry: %llu regions, %llu MAX problems rerolled, %llu skipped\n", (unsigned long long)geometries,
           (unsigned long long)rerolled, (unsigned long long)skipped);
    assert_true(geometries >= 5000);
    assert_true(skipped <= 2);
}

/* Decisions that hang on bits a narrower exact sum would leave out (a window of terms in [2^-128,
 * 2^123), as docs/experiments/roi-geometry-window-note181.patch tried): a coordinate whose share of
 * a position is 2^-120 (spatial scale 1) or 2^-130 (scale 2^-60, the share's bits below 2^-128)
 * moves a sample from exactly on an edge to just past it (out of bounds, or nearest's tie to the
 * next pixel), and regions at +-2^127 (scale 1) would wrap to 0 there. Against the reference, whose
 * outputs must differ from those of the same regions without their far bits (so the cases do hang
 * on them), forward and backward, float32 and bfloat16 (float16 holds neither). */
static void test_exact_geometry_far_bits(void **state)
{
    (void)state;
    const double t = 0x1p300, h = 0x1p400; /* stand for the tiny share and 2^127 */
    /* x1, y1, x2, y2 in map units */
    const double regions[][4] = {
        { t, 0.5, 8, 2.5 },     /* sample 1 at 4 + tiny / 2: past the far edge */
        { -2, 0.5, -t, 2.5 },   /* at -1 - tiny / 2: past the near edge */
        { t, 0.5, 3, 2.5 },     /* at 1.5 + tiny / 2: nearest's tie broken */
        { 8, 0.5, t, 2.5 },     /* decreasing */
        { 0.5, t, 2.5, 8 },     /* on the other axis */
        { h, 0.5, h, 2.5 },     /* empty at 2^127 (2Dp = 2^129) */
        { 0.5, -h, 2.5, -h },
    };
    const uint32_t templates = sizeof(regions) / sizeof(regions[0]);
    for (int iter = 0; iter < 16; iter++) {
        dmlvk_tensor_data_type type = iter % 2 ? DMLVK_TENSOR_DATA_TYPE_BFLOAT16 : DMLVK_TENSOR_DATA_TYPE_FLOAT32;
        const bool small_scale = iter / 8 % 2;
        const double scale = small_scale ? 0x1p-60 : 1, tiny = small_scale ? 0x1p-130 : 0x1p-120;
        struct problem p, near;
        memset(&p, 0, sizeof(p));
        struct ref_roi *q = &p.q;
        q->batch = 1;
        q->channels = 2;
        q->height = q->width = 4;
        q->out_h = q->out_w = 1;
        q->linear = iter / 2 % 2;
        q->maximum = iter / 4 % 2;
        q->spatial_x = q->spatial_y = scale;
        q->min_samples = q->max_samples = 2;
        q->oob_value = iter % 3 ? 0.75 : 0;
        near = p;
        uint32_t count = 0;
        bool tie[MAX_ROIS];
        for (uint32_t k = 0; k < templates; k++) {
            bool huge = false;
            for (int e = 0; e < 4; e++)
                huge = huge || fabs(regions[k][e]) == h;
            if (huge && small_scale)    /* 2^187: past float32 */
                continue;
            for (int e = 0; e < 4; e++) {
                double v = regions[k][e], sign = v < 0 ? -1 : 1;
                p.rois[4 * count + e] = (fabs(v) == t ? sign * tiny : fabs(v) == h ? sign * 0x1p127 : v) / scale;
                near.rois[4 * count + e] = fabs(v) == t || fabs(v) == h ? 0 : v / scale;
            }
            tie[count++] = k == 2;
        }
        q->num_rois = near.q.num_rois = count;
        alloc_problem(&p);
        for (uint64_t i = 0; i < p.nx; i++)
            p.x[i] = 1 + (double)i / 8; /* distinct, so that every decision shows */
        for (uint64_t i = 0; i < p.ny; i++)
            p.dy[i] = 1 + (double)i / 16;
        round_to_type(p.x, p.nx, type);
        round_to_type(p.dy, p.ny, type);
        near.q.rois = near.rois;
        near.q.batch_indices = near.batch;
        double *want = malloc(p.ny * sizeof(double)), *without = malloc(p.ny * sizeof(double));
        ref_roi_forward(q, p.x, want);
        ref_roi_forward(&near.q, p.x, without);
        for (uint32_t k = 0; k < count; k++) {
            bool differs = false;
            for (uint32_t c = 0; c < q->channels; c++)
                differs = differs || want[k * q->channels + c] != without[k * q->channels + c];
            /* nearest's tie is one that linear interpolation does not have */
            if (!tie[k] || !q->linear)
                assert_true(differs);
        }
        free(want);
        free(without);
        expect_both_ways("far bits", &p, type, 2, NULL);
        free_problem(&p);
    }
}

/* Nearest's ties whose float64 sum misses them: samples at exactly 1.5 or 2.5 pixels whose
 * position's terms need more than float64's 53 bits, so that summing them in float64 (in the order
 * of glsl/roi_align_geometry.glsl's place_estimated) lands just past the tie and, decided on that sum
 * alone, would take the next pixel. Region [lo, hi] = [4 + j, 4 - 3j] under spatial scale S and
 * InputPixelOffset 4S - k/2 puts sample 1023 of 4092 at k/2 exactly; the four were found by search
 * (S, j random) among those whose float64 sum errs upwards. Forward and backward, with the float64
 * estimate and without it; every decision must be the exact sum's. */
static void test_exact_geometry_float64_ties(void **state)
{
    (void)state;
    const struct {
        double scale, lo, hi;
        int k;
    } cases[] = {
        { 0x1.a96222p-2, -4899567, 14698717, 3 },
        { 0x1.e54f7ep-2, -5458351, 16375069, 3 },
        { 0x1.6958d6p-2, -4257937, 12773827, 5 },
        { 0x1.a4139ep-2, -3554577, 10663747, 5 },
    };
    const uint32_t g = 1023, n = 4 * g;
    for (int iter = 0; iter < 8; iter++) {
        const double scale = cases[iter % 4].scale, lo = cases[iter % 4].lo, hi = cases[iter % 4].hi;
        const int k = cases[iter % 4].k;
        const double in_off = 4 * scale - k / 2.0;
        assert_true((double)(float)in_off == in_off);
        /* 2*D*p of sample g, as a float64 sum of the terms, is not k*D: the case tests something */
        const double lo2 = 2 * scale * lo, hi2 = 2 * scale * hi;
        volatile double t0 = lo2 * (n - g), t1 = hi2 * g, t4 = -(2 * in_off * n);
        assert_true((t0 + t1) + t4 > (double)k * n);
        struct problem p;
        memset(&p, 0, sizeof(p));
        struct ref_roi *q = &p.q;
        q->batch = q->channels = q->height = 1;
        q->width = 4;
        q->out_h = q->out_w = 1;
        q->num_rois = 1;
        q->spatial_x = scale;
        q->spatial_y = 1;
        q->input_offset = in_off;
        q->output_offset = 0;
        q->min_samples = q->max_samples = n;
        /* x: sample g alone in bounds, at the tie; y: every sample inside the one row */
        p.rois[0] = lo;
        p.rois[2] = hi;
        p.rois[1] = (float)in_off;
        p.rois[3] = (float)(in_off + 0.5);
        alloc_problem(&p);
        const double row[4] = { 1, 2, 1000, 3000 };
        memcpy(p.x, row, sizeof(row));
        p.dy[0] = 1;
        const struct test_params estimate = { 0 }, exact = { .force_no_float64 = true };
        const struct test_params *params = iter < 4 ? &estimate : &exact;
        expect_both_ways("float64 ties", &p, DMLVK_TENSOR_DATA_TYPE_FLOAT32, 1, params);
        free_problem(&p);
    }
}

/* ROI_ALIGN1 on inputs whose channels lie closest (NHWC, packed or padded), whose invocations
 * then take neighbouring channels of a bin: every mode and type, channel counts that leave a
 * workgroup's last set of channels partial, bins packed or channels-last too, against the
 * reference; the padding between the input's elements is NaN, so a read of it shows. */
static void test_forward_channels_last(void **state)
{
    (void)state;
    const uint32_t channels[] = { 33, 5, 70, 1, 48, 17 };
    for (int iter = 0; iter < 24; iter++) {
        dmlvk_tensor_data_type type = float_types[iter % 3];
        struct problem p;
        random_problem_channels(&p, iter % 2 == 0, iter % 4 >= 2, iter % 5 == 0, channels[iter % 6], iter % 7 == 3);
        struct ref_roi *q = &p.q;
        q->oob_value = iter % 3 == 1 ? -0.25 : 0;
        round_to_type(p.x, p.nx, type);
        round_to_type(p.rois, 4 * q->num_rois, type);
        uint32_t c = q->channels, h = q->height, w = q->width, pad = iter % 3 == 2 ? 3 : 0;
        const uint32_t x_strides[4] = { h * (w * (c + pad) + pad), 1, w * (c + pad) + pad, c + pad };
        const uint32_t bin_strides[4] = { q->out_h * q->out_w * c, 1, q->out_w * c, c };
        expect_forward_strided("ROI_ALIGN1 channels-last", &p, type, 1, x_strides, iter % 2 ? bin_strides : NULL);
        free_problem(&p);
    }
}

/* ROI_ALIGN_GRAD under MAX on inputs whose channels lie closest (NHWC, packed or padded with NaN,
 * which a read would make the maximum), whose scatter then puts neighbouring invocations on
 * neighbouring channels: linear and nearest, fixed and adaptive samples, float atomics and the
 * deterministic mode, the input gradient packed or channels-last, partial channel groups. */
static void test_max_scatter_channels_last(void **state)
{
    (void)state;
    const uint32_t channels[] = { 33, 5, 70, 48 };
    for (int iter = 0; iter < 12; iter++) {
        dmlvk_tensor_data_type type = float_types[iter % 3];
        struct problem p;
        random_problem_channels(&p, iter % 2 == 0, true, iter % 5 == 0, channels[iter % 4], false);
        struct ref_roi *q = &p.q;
        for (uint64_t i = 0; i < p.ny; i++)
            p.dy[i] = uniform(-1, 1);
        round_to_type(p.x, p.nx, type);
        round_to_type(p.dy, p.ny, type);
        round_to_type(p.rois, 4 * q->num_rois, type);
        uint32_t c = q->channels, h = q->height, w = q->width, pad = iter % 3 == 2 ? 3 : 0;
        const uint32_t x_strides[4] = { h * (w * (c + pad) + pad), 1, w * (c + pad) + pad, c + pad };
        const uint32_t grad_strides[4] = { h * w * c, 1, w * c, c };
        struct results r;
        reference_results(&p, &r);
        struct test_params det = { .deterministic = 1 };
        assert_int_equal(gpu_backward_strided(NULL, &p, iter % 4 == 1 ? &det : NULL, type,
                                              iter % 2 ? grad_strides : NULL, x_strides, NULL, r.got, NULL),
                         DMLVK_OK);
        expect_close("MAX scatter, channels-last input", r.got, r.want, r.mag, p.nx, type_tolerance(type));
        free_results(&r);
        free_problem(&p);
    }
}

/* ROI_ALIGN_GRAD under AVERAGE with channels-last InputGradientTensor and InputTensor (packed or
 * NaN-padded), whose transpositions to the gather's and the ROI gradient's layouts then read with
 * neighbouring invocations on neighbouring channels: the input gradient alone, both gradients
 * (float32's gather sums the ROI gradient itself; 16-bit types copy the input first), the ROI
 * gradient alone; 5 to 40 channels (partial blocks of 32), workgroups of the default size, 48
 * (not whole warps) and 32; in the deterministic mode bitwise the same run to run. Six cases of
 * few workgroup sizes (each a pipeline to compile): the sanitizer job runs this file close to its
 * time limit. */
static void test_gather_channels_last(void **state)
{
    (void)state;
    static const struct {
        int type;
        uint32_t channels, workgroup_size, pad;
        bool dx, droi, deterministic;
    } cases[] = {
        { 0, 33, 0, 0, true, false, true },  { 1, 5, 48, 3, true, true, false },  { 2, 40, 32, 0, false, true, true },
        { 0, 17, 0, 3, true, true, false },  { 1, 36, 0, 3, false, true, true },  { 2, 9, 48, 0, true, true, true },
    };
    for (size_t k = 0; k < DMLVK_ARRAY_SIZE(cases); k++) {
        dmlvk_tensor_data_type type = float_types[cases[k].type];
        struct problem p;
        tile_problem(&p, (int)k % 3, type, cases[k].channels, true, false, 4);
        struct ref_roi *q = &p.q;
        for (uint64_t i = 0; i < p.nx; i++)
            p.x[i] = uniform(-1, 1);
        round_to_type(p.x, p.nx, type);
        const uint32_t c = q->channels, pad = cases[k].pad, row = q->out_w * (c + pad);
        const uint32_t dy_strides[4] = { q->out_h * row, 1, row, c + pad };
        const uint32_t x_row = q->width * (c + pad) + pad, x_strides[4] = { q->height * x_row, 1, x_row, c + pad };
        const bool dx = cases[k].dx, droi = cases[k].droi;
        const uint32_t n = 4 * q->num_rois;
        double *want = malloc(p.nx * sizeof(double)), *mag = malloc(p.nx * sizeof(double));
        double *got = malloc(p.nx * sizeof(double)), *again = malloc(p.nx * sizeof(double));
        double droi_want[4 * MAX_ROIS], droi_mag[4 * MAX_ROIS], droi_got[4 * MAX_ROIS], droi_again[4 * MAX_ROIS];
        ref_roi_backward(q, p.x, p.dy, want, droi_want, mag, droi_mag);
        struct test_params params = { .workgroup_size = cases[k].workgroup_size,
                                      .deterministic = cases[k].deterministic };
        assert_int_equal(gpu_backward_strided(NULL, &p, &params, type, NULL, x_strides, dy_strides, dx ? got : NULL,
                                              droi ? droi_got : NULL),
                         DMLVK_OK);
        if (params.deterministic)
            assert_int_equal(gpu_backward_strided(NULL, &p, &params, type, NULL, x_strides, dy_strides,
                                                  dx ? again : NULL, droi ? droi_again : NULL),
                             DMLVK_OK);
        if (dx) {
            expect_close("input gradient, channels-last dY", got, want, mag, p.nx, type_tolerance(type));
            if (params.deterministic)
                assert_memory_equal(got, again, p.nx * sizeof(double));
        }
        if (droi) {
            expect_close("ROI gradient, channels-last input and dY", droi_got, droi_want, droi_mag, n,
                         type_tolerance(type));
            if (params.deterministic)
                assert_memory_equal(droi_got, droi_again, n * sizeof(double));
        }
        free(want);
        free(mag);
        free(got);
        free(again);
        free_problem(&p);
    }
}

static int setup(void **state)
{
    (void)state;
    dev = test_device(NULL);
    dmlvk_device_get_info(dev, &info);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return test_group_device_done(dev);
}

/* ROI_ALIGN_GRAD's most dispatches where the gather takes no parts (test_gather_parts makes one more):
 * the geometry, InputTensor's copy, dY's transposition in two halves, the lines, the gather and the
 * ROI gradient's own two stages (without subgroup shuffles, several workgroups per region), where
 * the lines outnumber the widest workgroup (iter 2 and 3: the same regions on a map 150 columns
 * wide, in workgroups of 32); on the small map its workgroups write
 * the lines and dY's transposition runs whole beside them: two fewer. Both outputs right and the
 * same run to run. */
static void test_gather_dispatch_budget(void **state)
{
    (void)state;
    for (int iter = 0; iter < 4; iter++) {
        struct problem p;
        random_problem(&p, true, false, iter % 2 == 0);
        free_problem(&p);
        p.q.channels = 64;
        p.q.out_h = 5;
        p.q.out_w = 5;
        const bool wide = iter >= 2;
        if (wide)
            p.q.width = 150;
        alloc_uniform(&p);
        const struct test_params params = { .workgroup_size = 32, .force_no_subgroup_shuffle = true };
        bool lines_in_geometry;
        assert_int_equal(backward_dispatches_lines(&p, &params, &lines_in_geometry), wide ? 8 : 6);
        assert_int_equal(lines_in_geometry, !wide);
        expect_both_gradients(&p, &params, DMLVK_TENSOR_DATA_TYPE_FLOAT32);
        free_problem(&p);
    }
}

/* The shader of ROI_ALIGN1's bins dispatch (after the geometry's) for problem p in `type` and its
 * specialization constant `id`. */
static enum dmlvk_shader forward_walk_with(const struct problem *p, dmlvk_tensor_data_type type,
                                           const struct test_params *params, uint32_t id, uint32_t *value)
{
    const struct ref_roi *q = &p->q;
    struct roi_tensors t;
    packed_roi_tensors(&t, type, (uint32_t[4]){ q->batch, q->channels, q->height, q->width },
                       (uint32_t[4]){ q->num_rois, q->channels, q->out_h, q->out_w });
    dmlvk_roi_align1_operator_desc d = forward_desc(q, &t);
    dmlvk_operator_desc od = { DMLVK_OPERATOR_ROI_ALIGN1, &d };
    dmlvk_operator *op;
    enum dmlvk_shader shader;
    if (test_operator_create(dev, &od, params, &op) != DMLVK_OK || dmlvk_debug_operator_shader(op, 1, &shader) != DMLVK_OK ||
        dmlvk_debug_operator_spec(op, 1, id, value) != DMLVK_OK)
        fail_msg("%s", dmlvk_last_error());
    dmlvk_operator_destroy(op);
    return shader;
}

/* ... and its channels per invocation. */
static enum dmlvk_shader forward_walk(const struct problem *p, uint32_t *channels)
{
    return forward_walk_with(p, DMLVK_TENSOR_DATA_TYPE_FLOAT32, NULL, ROI_SPEC_CHANNELS, channels);
}

/* ROI_ALIGN1 in float32 AVERAGE over few regions of 14x14 bins or more: whole bins of 4 channels
 * per invocation (lib/roi_align1.c, BENCHMARKS.md note 157), partial channel groups among them,
 * linear and nearest, fixed and adaptive samples, an out-of-bounds value or none, against the
 * reference; 7x7 bins keep a channel per invocation (sample rows where the device shuffles). */
static void test_forward_whole_bins(void **state)
{
    (void)state;
    const uint32_t channels[] = { 5, 4, 9, 1, 6, 3 };
    for (int iter = 0; iter < 14; iter++) {
        const bool small_bins = iter >= 12;
        struct problem p;
        random_problem(&p, iter % 2 == 0 || small_bins, false, iter % 3 == 0);
        free_problem(&p);
        struct ref_roi *q = &p.q;
        q->channels = channels[iter % 6];
        q->height = 16 + below(8); /* bins fewer than 4 inputs per element: no 8-channel walk */
        q->width = 16 + below(8);
        q->out_h = small_bins ? 7 : 14 + below(3);
        q->out_w = small_bins ? 7 : 14 + below(3);
        q->oob_value = iter % 4 == 1 ? -0.25 : 0;
        for (uint32_t k = 0; k < q->num_rois; k++) {
            double x1 = uniform(-2, q->width), y1 = uniform(-2, q->height);
            p.rois[4 * k] = x1;
            p.rois[4 * k + 1] = y1;
            p.rois[4 * k + 2] = x1 + uniform(-4, 2 * q->width);
            p.rois[4 * k + 3] = y1 + uniform(-4, 2 * q->height);
        }
        alloc_input(&p);
        round_to_type(p.x, p.nx, DMLVK_TENSOR_DATA_TYPE_FLOAT32);
        round_to_type(p.rois, 4 * q->num_rois, DMLVK_TENSOR_DATA_TYPE_FLOAT32);
        char what[96];
        snprintf(what, sizeof(what), "ROI_ALIGN1 case %d (%u regions, %ux%u bins, %u channels)", iter, q->num_rois,
                 q->out_h, q->out_w, q->channels);
        uint32_t per_invocation = 0;
        enum dmlvk_shader shader = forward_walk(&p, &per_invocation);
        if (small_bins ? per_invocation != 1 : shader != DMLVK_SHADER_ROI_ALIGN1 || per_invocation != 4)
            fail_msg("%s: shader %d with %u channels per invocation, not the planned walk", what, (int)shader, per_invocation);
        expect_forward(what, &p, DMLVK_TENSOR_DATA_TYPE_FLOAT32, 1);
        free_problem(&p);
    }
}

/* ROI_ALIGN1's sample rows in workgroups of 16 channels (fixed sampling) or 8 (adaptive), as a
 * device chooses them where 32 would leave it half idle (lib/roi_align1.c), and of 32 where it is
 * full: 17 to 70 channels (partial groups), linear and nearest, fixed samples (the shared taps'
 * dispatch beside them, in the same groups) and adaptive, overhanging and mirrored regions, an
 * out-of-bounds value or none, inputs near float32's largest (sums that overflow), against the
 * reference. */
static void test_forward_rows_spread(void **state)
{
    (void)state;
    if (!dev->subgroup_shuffle || test_workgroup_most(dev) < 256)
        skip(); /* the default workgroups of 256, whose groups start at 32 channels */
    for (int iter = 0; iter < 12; iter++) {
        const bool spread = iter % 3 != 2;
        struct problem p;
        random_problem(&p, iter % 2 == 0, false, iter % 4 == 3);
        free_problem(&p);
        struct ref_roi *q = &p.q;
        q->channels = 17 + below(54);
        q->height = 6 + below(12);
        q->width = 6 + below(12);
        q->out_h = 7;
        q->out_w = 7;
        q->oob_value = iter % 4 == 1 ? -0.25 : 0;
        alloc_input(&p);
        const bool near_max = iter % 4 == 3 || iter == 4; /* sums past float32's range: the rescue */
        if (near_max)
            for (uint64_t i = 0; i < p.nx; i++)
                p.x[i] = ldexp(uniform(1, 2), 126);
        round_to_type(p.x, p.nx, DMLVK_TENSOR_DATA_TYPE_FLOAT32);
        round_to_type(p.rois, 4 * q->num_rois, DMLVK_TENSOR_DATA_TYPE_FLOAT32);
        /* The invocations of workgroups of 256 and the least channels: a device that holds them, or
         * one sixteenth of that, where even 16 channels would be past its limit. */
        const bool adaptive = q->min_samples != q->max_samples;
        const uint32_t least = adaptive ? 8 : 16, held = (q->channels + least - 1) / least * q->num_rois * 256;
        const struct test_params params = { .resident_invocations = spread ? held : held / 16 };
        uint32_t group_channels = 0;
        enum dmlvk_shader shader =
            forward_walk_with(&p, DMLVK_TENSOR_DATA_TYPE_FLOAT32, &params, ROI_SPEC_GROUP_CHANNELS, &group_channels);
        char what[112];
        snprintf(what, sizeof(what), "ROI_ALIGN1 case %d (%u regions, %u channels, %u held)", iter, q->num_rois,
                 q->channels, params.resident_invocations);
        if (shader != DMLVK_SHADER_ROI_ALIGN1_ROWS || group_channels != (spread ? least : 32u))
            fail_msg("%s: shader %d with %u channels per workgroup, not the planned walk", what, (int)shader, group_channels);
        expect_forward_with(what, &p, DMLVK_TENSOR_DATA_TYPE_FLOAT32, near_max ? 0x1p127 : 1, &params, NULL, NULL);
        free_problem(&p);
    }
}

/* ROI_ALIGN1's 16-bit whole bins (AVERAGE) in workgroups of 8 channels (adaptive sampling also 16),
 * as a device chooses them where about 32 would leave it idle (lib/roi_align1.c), and of the usual
 * count where it is full, under MAX, and for fixed sampling of fewer than 196 samples per region or
 * where only 16 channels fit: float16 and bfloat16, 17 to 70 channels, 7x7 and 14x14 bins, linear
 * and nearest, 1 to 3 samples per bin and axis (the shared taps' dispatch beside them, in the same
 * groups) and adaptive sampling, overhanging and mirrored regions, an out-of-bounds value or none,
 * bfloat16 inputs near its largest (sums that overflow: the rescue), against the reference. */
static void test_forward_bins_spread(void **state)
{
    (void)state;
    if (test_workgroup_most(dev) < 256)
        skip(); /* the default workgroups of 256, whose groups start at 30 channels */
    /* held: the device holds the invocations of groups of this many channels (0: a sixteenth of 8's). */
    static const struct {
        uint32_t samples, bins, held;
        bool maximum;
        uint32_t want; /* 0: the usual group */
    } cases[] = {
        { 1, 7, 8, false, 0 },  /* 49 samples per region */
        { 1, 14, 8, false, 8 }, /* 196 */
        { 2, 7, 8, false, 8 },  { 3, 7, 0, false, 0 }, { 2, 14, 8, true, 0 }, { 3, 7, 16, false, 0 },
        { 0, 7, 8, false, 8 },  { 0, 14, 8, false, 8 }, { 0, 7, 16, false, 16 }, { 0, 14, 0, false, 0 },
        { 0, 7, 8, true, 0 },   { 3, 14, 8, false, 8 },
    };
    for (int iter = 0; iter < (int)(sizeof(cases) / sizeof(cases[0])); iter++) {
        const dmlvk_tensor_data_type type = iter % 2 ? DMLVK_TENSOR_DATA_TYPE_BFLOAT16 : DMLVK_TENSOR_DATA_TYPE_FLOAT16;
        const bool adaptive = cases[iter].samples == 0, maximum = cases[iter].maximum;
        struct problem p;
        random_problem(&p, iter % 4 != 1, maximum, adaptive);
        free_problem(&p);
        struct ref_roi *q = &p.q;
        if (!adaptive)
            q->min_samples = q->max_samples = cases[iter].samples;
        q->channels = 17 + below(54);
        q->height = 14 + below(14); /* bins under four times the input: two channels per invocation */
        q->width = 14 + below(14);
        q->out_h = q->out_w = cases[iter].bins;
        q->oob_value = iter % 4 == 1 ? -0.25 : 0;
        alloc_input(&p);
        const bool near_max = type == DMLVK_TENSOR_DATA_TYPE_BFLOAT16 && iter % 4 == 3;
        if (near_max)
            for (uint64_t i = 0; i < p.nx; i++)
                p.x[i] = ldexp(uniform(1, 2), 126);
        round_to_type(p.x, p.nx, type);
        round_to_type(p.rois, 4 * q->num_rois, type);
        const uint32_t held = cases[iter].held ? cases[iter].held : 8, groups = (q->channels + held - 1) / held;
        const struct test_params params = { .resident_invocations = groups * q->num_rois * 256 /
                                                                    (cases[iter].held ? 1 : 16) };
        uint32_t usual = 0, group_channels = 0, per_invocation = 0;
        forward_walk_with(&p, type, NULL, ROI_SPEC_GROUP_CHANNELS, &usual);
        forward_walk_with(&p, type, &params, ROI_SPEC_CHANNELS, &per_invocation);
        enum dmlvk_shader shader = forward_walk_with(&p, type, &params, ROI_SPEC_GROUP_CHANNELS, &group_channels);
        char what[128];
        snprintf(what, sizeof(what), "ROI_ALIGN1 %s case %d (%u regions, %ux%u bins, %u channels, %u held)",
                 maximum ? "MAX" : "AVERAGE", iter, q->num_rois, q->out_h, q->out_w, q->channels,
                 params.resident_invocations);
        const uint32_t want = cases[iter].want ? cases[iter].want : usual;
        if (shader != DMLVK_SHADER_ROI_ALIGN1 || per_invocation != 2 || usual < 30 || group_channels != want)
            fail_msg("%s: shader %d with %u channels per invocation and %u per workgroup (%u usually), not %u",
                     what, (int)shader, per_invocation, group_channels, usual, want);
        expect_forward_with(what, &p, type, near_max ? 0x1p127 : 1, &params, NULL, NULL);
        free_problem(&p);
    }
}

/* ROI_ALIGN1 where neighbouring samples share taps (2 to 8 samples per bin and axis on bins of a
 * pixel or two, on both sides of ROI_SHARED_TAPS's 4; 14 to 17 on up to 69 bins per row, past what
 * its lists hold; or adaptive sampling of wide regions): the regions roi_align1_shared_taps takes
 * and those the walks keep side by side, every type, linear and nearest, AVERAGE and (never by
 * the lists) MAX, mirrored, overhanging and out-of-range regions, aligned corners, an out-of-bounds
 * value, input packed or channels-last, 1 to 9 channels, workgroups of 256, 48, 1024 and 32, against
 * the reference. */
static void test_forward_dense_samples(void **state)
{
    (void)state;
    for (int iter = 0; iter < 24; iter++) {
        const dmlvk_tensor_data_type type = float_types[iter % 3];
        const bool adaptive = iter % 4 == 3, channels_last = iter % 5 == 2, too_many = iter % 8 == 5;
        struct problem p;
        random_problem_channels(&p, iter % 2 == 0, iter % 7 == 3, adaptive, 1 + below(9), false);
        free_problem(&p);
        struct ref_roi *q = &p.q;
        q->height = 6 + below(20);
        q->width = 6 + below(20);
        q->out_h = 1 + below(7);
        q->out_w = too_many ? 40 + below(30) : 1 + below(7);
        q->align_corners = iter % 6 == 1;
        q->oob_value = iter % 3 == 1 ? -0.25 : 0;
        q->spatial_x = q->spatial_y = 1;
        if (!adaptive)
            q->min_samples = q->max_samples = too_many ? 14 + below(4) : 2 + below(7);
        q->num_rois = 1 + below(12);
        for (uint32_t k = 0; k < q->num_rois; k++) {
            /* bins of up to two pixels, or for adaptive sampling regions up to twice the map */
            const double most_w = adaptive ? 2.0 * q->width : 2.0 * q->out_w;
            const double most_h = adaptive ? 2.0 * q->height : 2.0 * q->out_h;
            const double x1 = uniform(-3, q->width + 1), y1 = uniform(-3, q->height + 1);
            const double w = uniform(0.3, most_w) * (k % 5 == 4 ? -1 : 1);
            const double h = uniform(0.3, most_h) * (k % 7 == 6 ? -1 : 1);
            p.rois[4 * k] = x1;
            p.rois[4 * k + 1] = y1;
            p.rois[4 * k + 2] = x1 + w;
            p.rois[4 * k + 3] = y1 + h;
            p.batch[k] = k % 9 == 8 ? 7 : below(2);
        }
        alloc_input(&p);
        round_to_type(p.x, p.nx, type);
        round_to_type(p.rois, 4 * q->num_rois, type);
        char what[128];
        /* roi_align1_shared_taps looks for its regions a workgroup's worth at a time. */
        static const uint32_t workgroups[4] = { 0, 48, 1024, 32 };
        const struct test_params params = { .workgroup_size = workgroups[iter % 4] };
        snprintf(what, sizeof(what),
                 "ROI_ALIGN1 dense samples case %d (%u regions, %ux%u bins, %u channels%s, workgroup %u)", iter,
                 q->num_rois, q->out_h, q->out_w, q->channels, channels_last ? ", channels-last" : "",
                 params.workgroup_size);
        const uint32_t c = q->channels, hh = q->height, ww = q->width;
        const uint32_t x_strides[4] = { hh * ww * c, 1, ww * c, c };
        expect_forward_with(what, &p, type, 1, &params, channels_last ? x_strides : NULL, NULL);
        free_problem(&p);
    }
}

/* ROI_SPEC_SHARED_TAPS_SLOTS of ROI_ALIGN1's roi_align1_shared_taps dispatch, 0 where it has none. */
static uint32_t shared_taps_slots(const struct ref_roi *q, dmlvk_tensor_data_type type,
                                  const struct test_params *params)
{
    struct roi_tensors t;
    packed_roi_tensors(&t, type, (uint32_t[4]){ q->batch, q->channels, q->height, q->width },
                       (uint32_t[4]){ q->num_rois, q->channels, q->out_h, q->out_w });
    dmlvk_roi_align1_operator_desc d = forward_desc(q, &t);
    const dmlvk_operator_desc od = { DMLVK_OPERATOR_ROI_ALIGN1, &d };
    return shader_spec(&od, params, DMLVK_SHADER_ROI_ALIGN1_SHARED_TAPS, DMLVK_SHADER_ROI_ALIGN1_SHARED_TAPS,
                       ROI_SPEC_SHARED_TAPS_SLOTS);
}

/* roi_align1_shared_taps's workgroups over more regions than a round of their search holds
 * (workgroups of 2 under 2048 channels: few regions per round, asserted from the plan). Small
 * regions of 4 samples per bin and axis (their lists marked), large ones (the walks'), out-of-range
 * batch indices; float16 and bfloat16, linear and nearest, against the reference. */
static void test_forward_shared_taps_rounds(void **state)
{
    (void)state;
    if (dev->props.limits.maxComputeSharedMemorySize < ROI_SHARED_TAPS_BYTES)
        skip();
    for (int iter = 0; iter < 4; iter++) {
        const dmlvk_tensor_data_type type = float_types[1 + iter % 2];
        struct problem p;
        memset(&p, 0, sizeof(p));
        struct ref_roi *q = &p.q;
        q->batch = 2;
        q->channels = 2048;
        q->height = 6 + below(4);
        q->width = 6 + below(4);
        q->num_rois = 100 + below(41);
        q->out_h = q->out_w = 2;
        q->linear = iter < 2;
        q->spatial_x = q->spatial_y = 1;
        q->input_offset = 0.5;
        q->output_offset = -0.5;
        q->min_samples = q->max_samples = 4;
        for (uint32_t k = 0; k < q->num_rois; k++) {
            const double x1 = uniform(-1, q->width), y1 = uniform(-1, q->height);
            const double most = k % 3 == 0 ? 3 * q->width : 3.5;    /* bins of 2 pixels or less, or wide */
            p.rois[4 * k] = x1;
            p.rois[4 * k + 1] = y1;
            p.rois[4 * k + 2] = x1 + uniform(0.5, most);
            p.rois[4 * k + 3] = y1 + uniform(0.5, most);
            p.batch[k] = k % 11 == 10 ? 5 : below(2);
        }
        alloc_input(&p);
        round_to_type(p.x, p.nx, type);
        round_to_type(p.rois, 4 * q->num_rois, type);
        const struct test_params params = { .workgroup_size = 2 };
        const uint32_t slots = shared_taps_slots(q, type, &params);
        assert_true(slots > 0 && q->num_rois > 2 * slots);
        char what[128];
        snprintf(what, sizeof(what), "ROI_ALIGN1 shared taps in rounds, case %d (%u regions, %u slots)", iter,
                 q->num_rois, slots);
        expect_forward_with(what, &p, type, 1, &params, NULL, NULL);
        free_problem(&p);
    }
}

/* p's shape and sampling with other regions (varied_region's), batch indices, input and dY. */
static void redraw_problem(const struct problem *p, struct problem *again)
{
    *again = *p;
    const struct ref_roi *q = &p->q;
    for (uint32_t k = 0; k < q->num_rois; k++) {
        varied_region(k + 1, q->width / q->spatial_x, q->height / q->spatial_y, 10, 8, &again->rois[4 * k]);
        again->batch[k] = k % 13 == 5 ? 2 : below(2);
    }
    alloc_uniform(again);
}

/* The ROI plans that keep state in their scratch between stages, each operator executed twice
 * with other regions, input and dY the second time (the gather's parts, MAX's winners, the ROI
 * gradient's partial sums, ROI_ALIGN1's second sums after float32 sums past its largest, and its
 * shared taps where 4 samples per bin and axis fall on small bins): both executions against the
 * reference. */
static void test_executed_again(void **state)
{
    (void)state;
    for (int iter = 0; iter < 6; iter++) {
        const bool forward = iter >= 4, maximum = iter == 2, roi_grad = iter == 3;
        const dmlvk_tensor_data_type type = float_types[iter == 1 || iter == 5 ? 1 : 0];
        struct problem p[2];
        memset(&p[0], 0, sizeof(p[0]));
        struct ref_roi *q = &p[0].q;
        q->batch = 2;
        q->channels = forward ? 3 : roi_grad ? 5 : 40;
        q->height = forward ? 8 + below(8) : roi_grad ? 64 + below(8) : 9 + below(4);
        q->width = forward ? 8 + below(8) : roi_grad ? 72 + below(8) : 10 + below(5);
        q->num_rois = roi_grad || forward ? 12 + below(30) : 513 + below(MAX_ROIS - 512);
        q->out_h = 4 + below(4);
        q->out_w = 4 + below(4);
        q->linear = !maximum;
        q->maximum = maximum;
        vary_regions(&p[0], iter, 10, 8, 97);
        if (forward)    /* 4 samples per bin and axis: regions of small bins take the lists */
            q->min_samples = q->max_samples = 4;
        alloc_uniform(&p[0]);
        redraw_problem(&p[0], &p[1]);
        if (forward && type == DMLVK_TENSOR_DATA_TYPE_FLOAT32)  /* sums past float32's largest, then none */
            for (uint64_t i = 0; i < p[0].nx; i++)
                p[0].x[i] = ldexp(uniform(1, 2), 126);
        for (int k = 0; k < 2; k++) {
            round_to_type(p[k].x, p[k].nx, type);
            round_to_type(p[k].dy, p[k].ny, type);
            round_to_type(p[k].rois, 4 * q->num_rois, type);
        }
        const struct test_params params = { .force_no_int64_atomics = maximum, .deterministic = maximum };
        if (!forward && !roi_grad)
            assert_true(gather_spec_with(q, type, &params, false, false, ROI_SPEC_GATHER_PARTS) > 1);
        struct roi_tensors t;
        packed_roi_tensors(&t, type, (uint32_t[4]){ q->batch, q->channels, q->height, q->width },
                           (uint32_t[4]){ q->num_rois, q->channels, q->out_h, q->out_w });
        dmlvk_roi_align1_operator_desc fd = forward_desc(q, &t);
        dmlvk_roi_align_grad_operator_desc bd = backward_desc(q, &t, &t.x, roi_grad ? &t.rois : NULL);
        const dmlvk_operator_desc od = forward ? (dmlvk_operator_desc){ DMLVK_OPERATOR_ROI_ALIGN1, &fd }
                                               : (dmlvk_operator_desc){ DMLVK_OPERATOR_ROI_ALIGN_GRAD, &bd };
        dmlvk_operator *op;
        if (test_operator_create(dev, &od, &params, &op) != DMLVK_OK)
            fail_msg("%s", dmlvk_last_error());
        for (int k = 0; k < 2; k++) {
            char what[128];
            snprintf(what, sizeof(what), "%s executed again, case %d, execution %d (%u regions)",
                     forward ? "ROI_ALIGN1" : "ROI_ALIGN_GRAD", iter, k + 1, q->num_rois);
            const uint64_t n = forward ? p[k].ny : p[k].nx;
            double *want = malloc(n * sizeof(double)), *got = malloc(n * sizeof(double));
            double *mag = malloc(n * sizeof(double));
            double droi[4 * MAX_ROIS], droi_want[4 * MAX_ROIS], droi_mag[4 * MAX_ROIS];
            if (forward) {
                ref_roi_forward(&p[k].q, p[k].x, want);
                for (uint64_t i = 0; i < n; i++)
                    mag[i] = k == 0 && type == DMLVK_TENSOR_DATA_TYPE_FLOAT32 ? 0x1p127 : 1;
                gpu_forward_strided(op, &p[k], type, &params, NULL, NULL, got);
            } else {
                ref_roi_backward(&p[k].q, p[k].x, p[k].dy, want, roi_grad ? droi_want : NULL, mag,
                                 roi_grad ? droi_mag : NULL);
                if (gpu_backward_strided(op, &p[k], &params, type, NULL, NULL, NULL, got, roi_grad ? droi : NULL) !=
                    DMLVK_OK)
                    fail_msg("%s: %s", what, dmlvk_last_error());
            }
            expect_close(what, got, want, mag, n, type_tolerance(type));
            if (roi_grad)
                expect_close(what, droi, droi_want, droi_mag, 4 * q->num_rois, type_tolerance(type));
            free(want);
            free(got);
            free(mag);
        }
        dmlvk_operator_destroy(op);
        for (int k = 0; k < 2; k++)
            free_problem(&p[k]);
    }
}

int main(void)
{
    struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roi_gradient_finite_differences),
        cmocka_unit_test(test_roi_transpositions),
        cmocka_unit_test(test_roi_transposition_padding),
        cmocka_unit_test(test_adjoint),
        cmocka_unit_test(test_forward_channels),
        cmocka_unit_test(test_scatter_paths),
        cmocka_unit_test(test_region_scatter_limits),
        cmocka_unit_test(test_tile_gather),
        cmocka_unit_test(test_tile_gather_strided),
        cmocka_unit_test(test_tile_gather_width),
        cmocka_unit_test(test_gather_pool_step),
        cmocka_unit_test(test_gather_parts),
        cmocka_unit_test(test_gather_parts_rule),
        cmocka_unit_test(test_gather_parts_for_splits),
        cmocka_unit_test(test_gather_staged_parts),
        cmocka_unit_test(test_max_gather),
        cmocka_unit_test(test_gather_pooled_edge_lines),
        cmocka_unit_test(test_max_flat_ties),
        cmocka_unit_test(test_roi_gradient_gpu),
        cmocka_unit_test(test_roi_gradient_gathered),
        cmocka_unit_test(test_torchvision),
        cmocka_unit_test(test_skipped_regions),
        cmocka_unit_test(test_table_limit),
        cmocka_unit_test(test_exact_geometry),
        cmocka_unit_test(test_exact_geometry_far_bits),
        cmocka_unit_test(test_exact_geometry_float64_ties),
        cmocka_unit_test(test_extreme_magnitudes),
        cmocka_unit_test(test_non_finite_gradients),
        cmocka_unit_test(test_forward_near_max),
        cmocka_unit_test(test_forward_near_max_16bit),
        cmocka_unit_test(test_gather_dispatch_budget),
        cmocka_unit_test(test_forward_channels_last),
        cmocka_unit_test(test_max_scatter_channels_last),
        cmocka_unit_test(test_gather_channels_last),
        cmocka_unit_test(test_forward_whole_bins),
        cmocka_unit_test(test_forward_rows_spread),
        cmocka_unit_test(test_forward_bins_spread),
        cmocka_unit_test(test_forward_dense_samples),
        cmocka_unit_test(test_forward_shared_taps_rounds),
        cmocka_unit_test(test_executed_again),
    };
    return test_run_filtered_group("test_roi_align", tests, setup, teardown);
}
