/* Resample on the GPU: the adjoint identity, determinism, and the framework conventions. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "gpu_util.h"
#include "half.h"
#include "reference.h"
#include "resample_abi.h"

static dmlvk_device *dev;

/* Paths that the defaults do not take on every device: float16 rounded by the shaders' own code,
 * and the stores of devices whose subgroups cannot shuffle. */
static const struct test_params software_rounding = { .force_software_rounding = 1 };
static const struct test_params no_subgroup_shuffle = { .force_no_subgroup_shuffle = 1 };
static const dmlvk_tensor_data_type types[] = { DMLVK_TENSOR_DATA_TYPE_FLOAT32, DMLVK_TENSOR_DATA_TYPE_FLOAT16,
                                                DMLVK_TENSOR_DATA_TYPE_BFLOAT16 };

static uint64_t rng_state = 12345;

static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * ((double)(splitmix64_next(&rng_state) >> 11) * 0x1p-53);
}

static uint32_t count(uint32_t dims, const uint32_t *sizes)
{
    uint32_t n = 1;
    for (uint32_t i = 0; i < dims; i++)
        n *= sizes[i];
    return n;
}

struct resample_case {
    uint32_t dims;
    uint32_t small[4], big[4];
    dmlvk_interpolation_mode mode;
    dmlvk_axis_direction rounding;
    float scales[4], in_off[4], out_off[4];
};

static void random_case(struct resample_case *c, uint32_t dims)
{
    static const float scales[] = { 0.5f, 1.5f, 2, 3, 0.7f, 1.25f };
    memset(c, 0, sizeof(*c));
    c->dims = dims;
    c->mode = (dmlvk_interpolation_mode)(splitmix64_next(&rng_state) % 2);
    c->rounding = (dmlvk_axis_direction)(splitmix64_next(&rng_state) % 2);
    for (uint32_t d = 0; d < dims; d++) {
        c->small[d] = 1 + (uint32_t)(splitmix64_next(&rng_state) % 9);
        c->scales[d] = scales[splitmix64_next(&rng_state) % 6];
        c->big[d] = (uint32_t)fmax(1, floor(c->small[d] * c->scales[d] + uniform(-1.5, 1.5)));
        c->in_off[d] = (float)uniform(-1, 1);
        c->out_off[d] = (float)uniform(-1, 1);
    }
}

static uint16_t to_bits16(dmlvk_tensor_data_type type, float v)
{
    return type == DMLVK_TENSOR_DATA_TYPE_FLOAT16 ? half_from_float(v) : bfloat16_from_float(v);
}

static float from_bits16(dmlvk_tensor_data_type type, uint16_t v)
{
    return type == DMLVK_TENSOR_DATA_TYPE_FLOAT16 ? half_to_float(v) : bfloat16_to_float(v);
}

/* A case's operator on packed tensors of one type: RESAMPLE2 forward, RESAMPLE_GRAD1 backward (desc
 * points into the struct, which must not move). */
struct resample_op {
    dmlvk_tensor_desc src, dst;
    dmlvk_resample2_operator_desc fwd;
    dmlvk_resample_grad1_operator_desc bwd;
    dmlvk_operator_desc desc;
};

static void resample_op_init(struct resample_op *o, const struct resample_case *c, bool backward,
                             dmlvk_tensor_data_type type)
{
    o->src = packed_desc(type, c->dims, backward ? c->big : c->small);
    o->dst = packed_desc(type, c->dims, backward ? c->small : c->big);
    o->fwd = (dmlvk_resample2_operator_desc){ &o->src,    &o->dst,   c->mode,   c->rounding,
                                              c->dims,    c->scales, c->in_off, c->out_off };
    o->bwd = (dmlvk_resample_grad1_operator_desc){ &o->src,    &o->dst,   c->mode,   c->rounding,
                                                   c->dims,    c->scales, c->in_off, c->out_off };
    o->desc = backward ? (dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE_GRAD1, &o->bwd }
                       : (dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE2, &o->fwd };
}

/* Runs RESAMPLE2 (forward) or RESAMPLE_GRAD1 (backward) in float32 or a 16-bit type on `device`,
 * the source bound offsets[0] bytes into its buffer and the destination offsets[1]; params may be
 * NULL. */
static void run_resample_offsets(dmlvk_device *device, const struct resample_case *c, bool backward,
                                 dmlvk_tensor_data_type type, const float *src, float *dst, const uint64_t offsets[2],
                                 const struct test_params *params)
{
    uint32_t ns = count(c->dims, backward ? c->big : c->small), nd = count(c->dims, backward ? c->small : c->big);
    struct resample_op o;
    resample_op_init(&o, c, backward, type);
    bool f16 = type == DMLVK_TENSOR_DATA_TYPE_FLOAT16, bf16 = type == DMLVK_TENSOR_DATA_TYPE_BFLOAT16;
    void *sv = calloc(ns, 4), *dv = malloc((size_t)nd * 4);
    memset(dv, 0xff, (size_t)nd * 4); /* NaN in every float type: an element left unwritten fails */
    for (uint32_t i = 0; i < ns; i++) {
        if (f16 || bf16)
            ((uint16_t *)sv)[i] = to_bits16(type, src[i]);
        else
            ((float *)sv)[i] = src[i];
    }
    const dmlvk_tensor_desc *descs[2] = { &o.src, &o.dst };
    void *values[2] = { sv, dv };
    if (gpu_run_offsets(device, &o.desc, params, descs, values, 2, offsets) != DMLVK_OK)
        fail_msg("%s", dmlvk_last_error());
    for (uint32_t i = 0; i < nd; i++)
        dst[i] = f16 || bf16 ? from_bits16(type, ((uint16_t *)dv)[i]) : ((float *)dv)[i];
    free(sv);
    free(dv);
}

/* Both tensors bound `offset` bytes into their buffers. */
static void run_resample_on(dmlvk_device *device, const struct resample_case *c, bool backward,
                            dmlvk_tensor_data_type type, const float *src, float *dst, uint64_t offset,
                            const struct test_params *params)
{
    run_resample_offsets(device, c, backward, type, src, dst, (const uint64_t[2]){ offset, offset }, params);
}

static void run_resample_with(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type, const float *src,
                              float *dst, uint64_t offset, const struct test_params *params)
{
    run_resample_on(dev, c, backward, type, src, dst, offset, params);
}

static void run_resample(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type, const float *src,
                         float *dst)
{
    run_resample_with(c, backward, type, src, dst, 0, NULL);
}

/* <RESAMPLE2(X), dY> = <X, RESAMPLE_GRAD1(dY)> within float32 rounding. */
static void test_adjoint(void **state)
{
    (void)state;
    for (int iter = 0; iter < 40; iter++) {
        struct resample_case c;
        random_case(&c, 1 + (uint32_t)iter % 4);
        uint32_t ns = count(c.dims, c.small), nb = count(c.dims, c.big);
        float *x = malloc(ns * 4), *dy = malloc(nb * 4), *y = malloc(nb * 4), *dx = malloc(ns * 4);
        for (uint32_t i = 0; i < ns; i++)
            x[i] = (float)uniform(-1, 1);
        for (uint32_t i = 0; i < nb; i++)
            dy[i] = (float)uniform(-1, 1);
        run_resample(&c, false, DMLVK_TENSOR_DATA_TYPE_FLOAT32, x, y);
        run_resample(&c, true, DMLVK_TENSOR_DATA_TYPE_FLOAT32, dy, dx);
        double lhs = 0, rhs = 0, mag = 0;
        for (uint32_t i = 0; i < nb; i++) {
            lhs += (double)y[i] * dy[i];
            mag += fabs((double)y[i] * dy[i]);
        }
        for (uint32_t i = 0; i < ns; i++) {
            rhs += (double)x[i] * dx[i];
            mag += fabs((double)x[i] * dx[i]);
        }
        if (!(fabs(lhs - rhs) <= 1e-5 * (mag + 1e-30)))
            fail_msg("case %d (dims %u, mode %d): <F(X),dY> = %.9g but <X,B(dY)> = %.9g", iter, c.dims, (int)c.mode, lhs,
                     rhs);
        free(x);
        free(dy);
        free(y);
        free(dx);
    }
}

/* The same inputs twice give bitwise equal gradients. */
static void test_deterministic(void **state)
{
    (void)state;
    for (int type = 0; type < 3; type++) {
        struct resample_case c;
        random_case(&c, 4);
        c.mode = DMLVK_INTERPOLATION_MODE_LINEAR;
        uint32_t ns = count(c.dims, c.small), nb = count(c.dims, c.big);
        float *dy = malloc(nb * 4), *a = malloc(ns * 4), *b = malloc(ns * 4);
        for (uint32_t i = 0; i < nb; i++)
            dy[i] = (float)uniform(-1, 1);
        dmlvk_tensor_data_type t = types[type];
        run_resample(&c, true, t, dy, a);
        run_resample(&c, true, t, dy, b);
        assert_memory_equal(a, b, ns * 4);
        free(dy);
        free(a);
        free(b);
    }
}

/*
 * The framework's own coordinate formula (ONNX Resize's coordinate_transformation_mode and
 * nearest_mode, PyTorch's interpolate), written independently of MAPPINGS.md's table.
 */
static double framework_coordinate(dmlvk_resample_convention conv, double o, uint32_t in, uint32_t out)
{
    double scale = (double)out / in;
    switch (conv) {
    case DMLVK_RESAMPLE_CONVENTION_ALIGN_CORNERS_LINEAR:
        return out > 1 ? o * (in - 1) / (out - 1) : 0;
    case DMLVK_RESAMPLE_CONVENTION_ASYMMETRIC_LINEAR:
    case DMLVK_RESAMPLE_CONVENTION_PYTORCH_NEAREST:
        return o / scale;
    case DMLVK_RESAMPLE_CONVENTION_PYTORCH_NEAREST_EXACT:
        return (o + 0.5) / scale; /* floor of this */
    default:
        return (o + 0.5) / scale - 0.5; /* half_pixel */
    }
}

static uint32_t framework_nearest(dmlvk_resample_convention conv, double x, uint32_t in)
{
    double k;
    switch (conv) {
    case DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_ROUND_PREFER_FLOOR: k = ceil(x - 0.5); break;
    case DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_ROUND_PREFER_CEIL: k = floor(x + 0.5); break;
    case DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_CEIL: k = ceil(x); break;
    default: k = floor(x); break;
    }
    return (uint32_t)fmin(fmax(k, 0), in - 1);
}

static void test_conventions(void **state)
{
    (void)state;
    for (int conv = 0; conv <= DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_CEIL; conv++) {
        for (int iter = 0; iter < 6; iter++) {
            /* 2D plane resized on both axes, up and down. */
            uint32_t in[2] = { 2 + (uint32_t)(splitmix64_next(&rng_state) % 7), 2 + (uint32_t)(splitmix64_next(&rng_state) % 7) };
            uint32_t out[2] = { 1 + (uint32_t)(splitmix64_next(&rng_state) % 12), 1 + (uint32_t)(splitmix64_next(&rng_state) % 12) };
            dmlvk_resample_fields f;
            assert_int_equal(dmlvk_resample_fields_from_convention((dmlvk_resample_convention)conv, 2, in, out, NULL, &f),
                             DMLVK_OK);
            struct resample_case c = { .dims = 2, .small = { in[0], in[1] }, .big = { out[0], out[1] },
                                       .mode = f.InterpolationMode, .rounding = f.RoundingDirection };
            memcpy(c.scales, f.Scales, sizeof(c.scales));
            memcpy(c.in_off, f.InputPixelOffsets, sizeof(c.in_off));
            memcpy(c.out_off, f.OutputPixelOffsets, sizeof(c.out_off));
            float x[64], y[144];
            for (uint32_t i = 0; i < in[0] * in[1]; i++)
                x[i] = (float)uniform(-1, 1);
            run_resample(&c, false, DMLVK_TENSOR_DATA_TYPE_FLOAT32, x, y);
            for (uint32_t oy = 0; oy < out[0]; oy++)
                for (uint32_t ox = 0; ox < out[1]; ox++) {
                    double sy = framework_coordinate((dmlvk_resample_convention)conv, oy, in[0], out[0]);
                    double sx = framework_coordinate((dmlvk_resample_convention)conv, ox, in[1], out[1]);
                    double want;
                    if (f.InterpolationMode == DMLVK_INTERPOLATION_MODE_LINEAR) {
                        /* Clamp, then interpolate between the two neighbours. */
                        sy = fmin(fmax(sy, 0), in[0] - 1);
                        sx = fmin(fmax(sx, 0), in[1] - 1);
                        uint32_t y0 = (uint32_t)sy, x0 = (uint32_t)sx;
                        uint32_t y1 = y0 + 1 < in[0] ? y0 + 1 : y0, x1 = x0 + 1 < in[1] ? x0 + 1 : x0;
                        double wy = sy - y0, wx = sx - x0;
                        want = (1 - wy) * ((1 - wx) * x[y0 * in[1] + x0] + wx * x[y0 * in[1] + x1]) +
                               wy * ((1 - wx) * x[y1 * in[1] + x0] + wx * x[y1 * in[1] + x1]);
                    } else {
                        want = x[framework_nearest((dmlvk_resample_convention)conv, sy, in[0]) * in[1] +
                                 framework_nearest((dmlvk_resample_convention)conv, sx, in[1])];
                    }
                    double got = y[oy * out[1] + ox];
                    if (!(fabs(got - want) <= 1e-5))
                        fail_msg("convention %d, %ux%u -> %ux%u, output [%u,%u]: %.7g, the framework gives %.7g", conv,
                                 in[0], in[1], out[0], out[1], oy, ox, got, want);
                }
        }
    }
}

static void test_convention_errors(void **state)
{
    (void)state;
    uint32_t in[1] = { 4 }, out[1] = { 0 };
    dmlvk_resample_fields f;
    assert_int_equal(dmlvk_resample_fields_from_convention(DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_LINEAR, 1, in, out, NULL, &f),
                     DMLVK_ERROR_INVALID_ARGUMENT);
    out[0] = 8;
    assert_int_equal(dmlvk_resample_fields_from_convention((dmlvk_resample_convention)42, 1, in, out, NULL, &f),
                     DMLVK_ERROR_INVALID_ARGUMENT);
    float bad = -1;
    assert_int_equal(dmlvk_resample_fields_from_convention(DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_LINEAR, 1, in, out, &bad, &f),
                     DMLVK_ERROR_INVALID_ARGUMENT);
    assert_int_equal(dmlvk_resample_fields_from_convention(DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_LINEAR, 1, in, out, NULL, &f),
                     DMLVK_OK);
    assert_true(f.Scales[0] == 2 && f.InputPixelOffsets[0] == 0.5f && f.OutputPixelOffsets[0] == -0.5f);
}

static struct ref_resample reference_of(const struct resample_case *c)
{
    struct ref_resample r = { .dims = c->dims, .linear = c->mode == DMLVK_INTERPOLATION_MODE_LINEAR,
                              .rounding = c->rounding == DMLVK_AXIS_DIRECTION_DECREASING ? REF_ROUND_FLOOR : REF_ROUND_CEIL };
    memcpy(r.small_sizes, c->small, sizeof(r.small_sizes));
    memcpy(r.big_sizes, c->big, sizeof(r.big_sizes));
    memcpy(r.scales, c->scales, sizeof(r.scales));
    memcpy(r.input_offsets, c->in_off, sizeof(r.input_offsets));
    memcpy(r.output_offsets, c->out_off, sizeof(r.output_offsets));
    return r;
}

/* The float64 reference of case c in either direction. */
static void reference_case(const struct resample_case *c, bool backward, const double *src, double *want, double *mag)
{
    struct ref_resample r = reference_of(c);
    if (backward)
        ref_resample_backward(&r, src, want, mag);
    else
        ref_resample_forward(&r, src, want, mag);
}

/* 4 dims, axes 2 and 3 scaled by s with half-pixel offsets (DECREASING rounding): the block
 * gather's kind of problem. */
static struct resample_case half_pixel_case(const uint32_t small[4], float s, dmlvk_interpolation_mode mode)
{
    struct resample_case c = { .dims = 4, .mode = mode, .rounding = DMLVK_AXIS_DIRECTION_DECREASING };
    for (int d = 0; d < 4; d++) {
        c.small[d] = small[d];
        c.scales[d] = d < 2 ? 1.0f : s;
        c.in_off[d] = 0.5f;
        c.out_off[d] = -0.5f;
        c.big[d] = d < 2 ? small[d] : (uint32_t)ceil(small[d] * s);
    }
    return c;
}

/* The GPU against the float64 reference on random values of the type, both tensors bound `offset`
 * bytes into their buffers; `label` names the case in a failure. */
static void expect_reference(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type, uint64_t offset,
                             const char *label)
{
    uint32_t ns = count(c->dims, backward ? c->big : c->small), nd = count(c->dims, backward ? c->small : c->big);
    float *src = malloc(ns * 4), *dst = malloc(nd * 4);
    double *srcd = malloc(ns * 8), *want = malloc(nd * 8), *mag = malloc(nd * 8);
    for (uint32_t i = 0; i < ns; i++) {
        src[i] = (float)uniform(-1, 1);
        if (type != DMLVK_TENSOR_DATA_TYPE_FLOAT32)
            src[i] = from_bits16(type, to_bits16(type, src[i]));
        srcd[i] = src[i];
    }
    reference_case(c, backward, srcd, want, mag);
    run_resample_with(c, backward, type, src, dst, offset, NULL);
    /* float32 sums, one rounding on the store: half an ulp of the type, with room. */
    double tol = type == DMLVK_TENSOR_DATA_TYPE_FLOAT16 ? 2e-3 : type == DMLVK_TENSOR_DATA_TYPE_BFLOAT16 ? 1.6e-2 : 2e-6;
    for (uint32_t i = 0; i < nd; i++)
        if (!(fabs(dst[i] - want[i]) <= tol * (mag[i] + 1e-3)))
            fail_msg("%s, element %u: %.7g, reference %.7g", label, i, dst[i], want[i]);
    free(src);
    free(dst);
    free(srcd);
    free(want);
    free(mag);
}

/* The block gather's variants against the float64 reference, in both directions: planes wider
 * than a warp of blocks, edge blocks (301 columns), rows of whole 4-element chunks (vector loads
 * and stores), tensors bound at an offset that breaks vector alignment (the shader's scalar
 * fallback), every type and mode; downscales whose forward windows take the smaller shapes. */
static void test_block_gather(void **state)
{
    (void)state;
    const float scales[] = { 2.0f, 1.5f, 0.75f, 3.0f };
    const uint32_t widths[] = { 301, 128 };
    for (int k = 0; k < 192; k++) {
        bool backward = k < 96;
        int j = k % 96;
        float s = scales[j % 4];
        const uint32_t small[4] = { 2, 3, 9, widths[(j / 4) % 2] };
        struct resample_case c = half_pixel_case(small, s, (dmlvk_interpolation_mode)((j / 8) % 2));
        dmlvk_tensor_data_type type = types[(j / 16) % 3];
        uint64_t offset = (j / 48) % 2 ? 4 : 0;
        char label[96];
        snprintf(label, sizeof(label), "case %d (%s, scale %g, width %u, offset %u)", k, backward ? "backward" : "forward",
                 s, c.small[3], (unsigned)offset);
        expect_reference(&c, backward, type, offset, label);
    }
    /* Forward downscales, whose windows take the smaller shapes (2x4, 1x4, and 1x1 for float32
     * LINEAR at 0.25x, 0.485x and 1/3x, where a 2x2 block would share almost none of its loads; 4x2
     * for 16-bit LINEAR at the odd output widths 151 and 145), at the edge width; 1/3x runs
     * backward too (the other scales' backward passes are those above). At 1/3 (as float) each
     * sample sits about 1e-7 below an input index: the lower tap's tiny weight must keep its
     * precision. */
    const float down[] = { 0.5f, 0.48f, 0.25f, 0.485f, 1.0f / 3 };
    for (int j = 0; j < 30; j++) {
        const uint32_t small[4] = { 2, 3, 9, widths[0] };
        struct resample_case c = half_pixel_case(small, down[j % 5], (dmlvk_interpolation_mode)((j / 5) % 2));
        char label[96];
        snprintf(label, sizeof(label), "downscale %d (forward, scale %g)", j, down[j % 5]);
        expect_reference(&c, false, types[j / 10], 0, label);
        if (j % 5 == 4) {
            snprintf(label, sizeof(label), "downscale %d (backward, scale %g)", j, down[j % 5]);
            expect_reference(&c, true, types[j / 10], 0, label);
        }
    }
}

/* Every pair of sizes 1..5 on the last axis, both directions, every type, against the float64
 * reference: 1-D at the sizes' own ratio and 2-D (3 rows) at a random scale, alternately, the
 * frameworks' pixel offsets (every fifth pair random ones). Tiny axes give the block gather
 * windows and blocks whose weights fill part of a group of four (a 4 -> 2 downscale once came out
 * all zeros). */
static void test_small_sizes(void **state)
{
    (void)state;
    static const float scales[] = { 0.5f, 0.75f, 1.0f, 1.5f, 2.0f, 3.0f, 0.3f };
    /* Input and output pixel offsets: half-pixel, asymmetric, and the two mixes (MAPPINGS.md). */
    static const float conventions[4][2] = { { 0.5f, -0.5f }, { 0.0f, 0.0f }, { 0.0f, -0.5f }, { 0.5f, 0.0f } };
    int k = 0;
    for (uint32_t small = 1; small <= 5; small++)
        for (uint32_t big = 1; big <= 5; big++, k++) {
            const uint32_t dims = 1 + (uint32_t)(k % 2);
            struct resample_case c = { .dims = dims };
            c.mode = (dmlvk_interpolation_mode)((k / 2) % 2);
            c.rounding = (dmlvk_axis_direction)((k / 4) % 2);
            for (uint32_t d = 0; d < dims; d++) {
                bool last = d + 1 == dims;
                c.small[d] = last ? small : 3;
                c.big[d] = last ? big : 3;
                c.scales[d] = !last ? 1.0f : dims == 1 ? (float)big / (float)small : scales[k % 7];
                c.in_off[d] = !last ? 0.0f : k % 5 < 4 ? conventions[k % 5][0] : (float)uniform(-1, 1);
                c.out_off[d] = !last ? 0.0f : k % 5 < 4 ? conventions[k % 5][1] : (float)uniform(-1, 1);
            }
            for (int backward = 0; backward < 2; backward++) {
                char label[96];
                snprintf(label, sizeof(label), "%u -> %u (%uD, %s, %s, scale %g)", small, big, dims,
                         backward ? "backward" : "forward", c.mode ? "linear" : "nearest", c.scales[dims - 1]);
                expect_reference(&c, backward, types[(k + backward) % 3], 0, label);
            }
        }
}

/* With src[at] set to `inf`, case c's result is Inf exactly where an element taps `at` with a
 * weight above 0, and every other element keeps its bits in `clean` (the result without it). */
static void expect_inf_reach(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type, float *src,
                             const float *clean, uint32_t at, float inf, const char *label)
{
    uint32_t ns = count(c->dims, backward ? c->big : c->small), nd = count(c->dims, backward ? c->small : c->big);
    float *dst = malloc(nd * 4), kept = src[at];
    double *hot = calloc(ns, 8), *want = malloc(nd * 8), *reached = malloc(nd * 8);
    src[at] = inf;
    run_resample(c, backward, type, src, dst);
    src[at] = kept;
    hot[at] = 1;
    reference_case(c, backward, hot, want, reached);
    uint32_t hit = 0;
    for (uint32_t i = 0; i < nd; i++) {
        if (reached[i] > 0) {
            hit++;
            if (!isinf(dst[i]))
                fail_msg("%s: element %u is tapped by the Inf at %u but reads %g", label, i, at, dst[i]);
        } else if (memcmp(&dst[i], &clean[i], 4)) {
            fail_msg("%s: element %u is not tapped by the Inf at %u but reads %g, not %g", label, i, at, dst[i], clean[i]);
        }
    }
    assert_true(hit > 0);
    free(dst);
    free(hot);
    free(want);
    free(reached);
}

/* An Inf in the read tensor reaches exactly the elements that tap it with a weight above 0, in
 * both directions: the block gather's weights of 0 must not turn it into NaNs elsewhere in its
 * window. */
static void test_block_gather_inf(void **state)
{
    (void)state;
    for (int k = 0; k < 16; k++) {
        bool backward = k < 8;
        const uint32_t small[4] = { 1, 2, 6, 16 };
        struct resample_case c = half_pixel_case(small, k % 2 ? 1.5f : 2.0f, DMLVK_INTERPOLATION_MODE_LINEAR);
        dmlvk_tensor_data_type type = k % 8 < 4 ? DMLVK_TENSOR_DATA_TYPE_FLOAT32
                                      : k % 8 < 6 ? DMLVK_TENSOR_DATA_TYPE_FLOAT16
                                                  : DMLVK_TENSOR_DATA_TYPE_BFLOAT16;
        uint32_t ns = count(4, backward ? c.big : c.small), nd = count(4, backward ? c.small : c.big);
        uint32_t at = (uint32_t)(splitmix64_next(&rng_state) % ns);
        float *src = malloc(ns * 4), *clean = malloc(nd * 4);
        for (uint32_t i = 0; i < ns; i++)
            src[i] = (float)(0.25 * (1 + i % 3));
        run_resample(&c, backward, type, src, clean);
        char label[32];
        snprintf(label, sizeof(label), "case %d", k);
        expect_inf_reach(&c, backward, type, src, clean, at, (k / 2) % 2 ? -INFINITY : INFINITY, label);
        free(src);
        free(clean);
    }
}

/* Strides of a tensor whose axes lie in memory in `order` (slowest first), each row padded by
 * `pad` elements; returns the elements the memory spans. */
static uint32_t layout_strides(uint32_t dims, const uint32_t *sizes, const uint32_t *order, uint32_t pad, uint32_t *strides)
{
    uint32_t s = 1;
    for (uint32_t k = dims; k-- > 0;) {
        strides[order[k]] = s;
        s = s * sizes[order[k]] + (k + 1 == dims ? pad : 0);
    }
    return s;
}

/* Memory offset of logical (row-major) element i. */
static uint32_t element_offset(uint32_t dims, const uint32_t *sizes, const uint32_t *strides, uint32_t i)
{
    uint32_t off = 0;
    for (uint32_t d = dims; d-- > 0;) {
        off += i % sizes[d] * strides[d];
        i /= sizes[d];
    }
    return off;
}

/* check_layout's Inf: none (INF_NONE), at a random element (INF_RANDOM), or at the element whose
 * index in the packed order is the value. */
#define INF_NONE UINT32_MAX
#define INF_RANDOM (UINT32_MAX - 1)

/*
 * Runs case c with each tensor's axes in memory in `order` (slowest first; row padding `pad`)
 * against the float64 reference, with the test knobs `params` (may be NULL); `inf` (INF_NONE,
 * INF_RANDOM or an element's index): an element that is Inf, which must reach exactly the
 * elements that tap it with a weight above 0. Elements between rows must stay untouched. `what`
 * names the case in failures.
 */
/* The operator of case c with the tensors' `strides` (`span` elements each). It points into
 * itself: initialize it in place with case_op_init, do not copy it. */
struct case_op {
    dmlvk_tensor_desc desc[2];
    dmlvk_resample2_operator_desc fwd;
    dmlvk_resample_grad1_operator_desc bwd;
    dmlvk_operator_desc od;
};

static void case_op_init(struct case_op *o, const struct resample_case *c, bool backward, dmlvk_tensor_data_type type,
                         const uint32_t strides[2][4], const uint32_t span[2])
{
    const uint32_t *sizes[2] = { backward ? c->big : c->small, backward ? c->small : c->big };
    const uint64_t bytes = type == DMLVK_TENSOR_DATA_TYPE_FLOAT32 ? 4 : 2;
    for (int t = 0; t < 2; t++)
        o->desc[t] = (dmlvk_tensor_desc){ .DataType = type, .DimensionCount = c->dims, .Sizes = sizes[t],
                                          .Strides = strides[t], .TotalTensorSizeInBytes = (span[t] * bytes + 3) & ~UINT64_C(3) };
    o->fwd = (dmlvk_resample2_operator_desc){ &o->desc[0], &o->desc[1], c->mode, c->rounding, c->dims, c->scales, c->in_off, c->out_off };
    o->bwd = (dmlvk_resample_grad1_operator_desc){ &o->desc[0], &o->desc[1], c->mode, c->rounding, c->dims, c->scales, c->in_off, c->out_off };
    o->od = backward ? (dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE_GRAD1, &o->bwd }
                     : (dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE2, &o->fwd };
}

static void check_strides(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type,
                          const uint32_t strides[2][4], const uint32_t span[2], uint64_t offset,
                          const struct test_params *params, uint32_t inf, const char *what);

static void check_layout(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type,
                         const uint32_t order[2][4], const uint32_t pad[2], uint64_t offset,
                         const struct test_params *params, uint32_t inf,
                         const char *what)
{
    uint32_t strides[2][4], span[2];
    const uint32_t *sizes[2] = { backward ? c->big : c->small, backward ? c->small : c->big };
    for (int t = 0; t < 2; t++)
        span[t] = layout_strides(c->dims, sizes[t], order[t], pad[t], strides[t]);
    check_strides(c, backward, type, strides, span, offset, params, inf, what);
}

/* check_layout with both tensors packed in their axes' order (NCHW), under params (NULL: the defaults). */
static void check_packed(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type,
                         const struct test_params *params, uint32_t inf, const char *what)
{
    static const uint32_t order[2][4] = { { 0, 1, 2, 3 }, { 0, 1, 2, 3 } };
    static const uint32_t pad[2] = { 0, 0 };
    check_layout(c, backward, type, order, pad, 0, params, inf, what);
}

/* check_layout's run with the tensors' strides given (`span` elements each): the read tensor's
 * elements may share memory (strides of 0), each reading the value last written there. */
static void check_strides(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type,
                          const uint32_t strides[2][4], const uint32_t span[2], uint64_t offset,
                          const struct test_params *params, uint32_t inf, const char *what)
{
    const uint32_t *sizes[2] = { backward ? c->big : c->small, backward ? c->small : c->big };
    uint32_t ns = count(c->dims, sizes[0]), nd = count(c->dims, sizes[1]);
    double *x = malloc(ns * 8), *want = malloc(nd * 8), *mag = malloc(nd * 8);
    void *mem[2] = { calloc(span[0], 4), calloc(span[1], 4) };
    bool wide = type == DMLVK_TENSOR_DATA_TYPE_FLOAT32;
    const uint32_t sentinel = 0x7fc01234u; /* a NaN no result can be */
    for (uint32_t i = 0; i < span[1]; i++) {
        if (wide)
            memcpy((uint32_t *)mem[1] + i, &sentinel, 4);
        else
            ((uint16_t *)mem[1])[i] = (uint16_t)0x7e55;
    }
    for (uint32_t i = 0; i < ns; i++) {
        float v = (float)uniform(-1, 1);
        uint32_t at = element_offset(c->dims, sizes[0], strides[0], i);
        if (wide)
            ((float *)mem[0])[at] = v;
        else
            ((uint16_t *)mem[0])[at] = to_bits16(type, v);
    }
    for (uint32_t i = 0; i < ns; i++) {
        uint32_t at = element_offset(c->dims, sizes[0], strides[0], i);
        x[i] = wide ? ((float *)mem[0])[at] : from_bits16(type, ((uint16_t *)mem[0])[at]);
    }
    uint32_t hot_at = (uint32_t)(splitmix64_next(&rng_state) % ns);
    if (inf != INF_RANDOM)
        hot_at = inf;
    double *reached = calloc(nd, 8);
    if (inf != INF_NONE) {
        uint32_t at = element_offset(c->dims, sizes[0], strides[0], hot_at);
        float v = splitmix64_next(&rng_state) % 2 ? INFINITY : -INFINITY;
        if (wide)
            ((float *)mem[0])[at] = v;
        else
            ((uint16_t *)mem[0])[at] = to_bits16(type, v);
        double *hot = calloc(ns, 8), *unused = malloc(nd * 8);
        hot[hot_at] = 1;
        reference_case(c, backward, hot, unused, reached);
        x[hot_at] = 0;
        free(hot);
        free(unused);
    }
    reference_case(c, backward, x, want, mag);

    struct case_op o;
    case_op_init(&o, c, backward, type, strides, span);
    const dmlvk_tensor_desc *descs[2] = { &o.desc[0], &o.desc[1] };
    if (gpu_run_at(dev, &o.od, params, descs, mem, 2, offset) != DMLVK_OK)
        fail_msg("%s", dmlvk_last_error());

    double tol = type == DMLVK_TENSOR_DATA_TYPE_FLOAT16 ? 2e-3 : type == DMLVK_TENSOR_DATA_TYPE_BFLOAT16 ? 1.6e-2 : 2e-6;
    bool *written = calloc(span[1], 1);
    for (uint32_t i = 0; i < nd; i++) {
        uint32_t at = element_offset(c->dims, sizes[1], strides[1], i);
        written[at] = true;
        float got = wide ? ((float *)mem[1])[at] : from_bits16(type, ((uint16_t *)mem[1])[at]);
        if (reached[i] > 0) {
            if (!isinf(got))
                fail_msg("%s: element %u is tapped by the Inf at %u but reads %g", what, i, hot_at, got);
            continue;
        }
        /* Each float32 weight is rounded once from the exact one (lib/resample.c, fill_map). */
        if (!(fabs(got - want[i]) <= tol * (mag[i] + 1e-3)))
            fail_msg("%s (%s, dims %u, offset %u), element %u: %.7g, reference %.7g", what,
                     backward ? "backward" : "forward", c->dims, (unsigned)offset, i, got, want[i]);
    }
    for (uint32_t i = 0; i < span[1]; i++)
        if (!written[i] && (wide ? memcmp((uint32_t *)mem[1] + i, &sentinel, 4) : ((uint16_t *)mem[1])[i] != 0x7e55))
            fail_msg("%s: element %u between rows was written", what, i);
    free(written);
    free(reached);
    free(x);
    free(want);
    free(mag);
    free(mem[0]);
    free(mem[1]);
}

/*
 * Every layout whose strides are a permutation of packed strides (NCHW, NHWC, ...), some with
 * padded rows, against the float64 reference: the general loops' lanes along whatever axis moves
 * fastest in the written tensor, with and without whole rows of lanes and vector alignment, in
 * both directions, every type and mode.
 */
static void test_layouts(void **state)
{
    (void)state;
    static const uint32_t lane_sizes[] = { 4, 8, 12, 16, 17, 19, 33, 3 };
    /* 1/3 (as float): samples about 1e-7 below an index, weights near 0 in the general loops too. */
    static const float scales[] = { 2, 1.5f, 0.5f, 3, 0.75f, 1.0f / 3 };
    for (int k = 0; k < 120; k++) {
        struct resample_case c = { .dims = 2 + (uint32_t)k % 3 };
        bool backward = (k / 3) % 2;
        dmlvk_tensor_data_type type = types[(k / 6) % 3];
        uint64_t offset = (k / 18) % 3 == 2 ? 4 : 0;
        c.mode = (dmlvk_interpolation_mode)(splitmix64_next(&rng_state) % 2);
        c.rounding = (dmlvk_axis_direction)(splitmix64_next(&rng_state) % 2);
        /* The channel-like axis (an identity: scale 1, no offsets) or a scaled one moves fastest. */
        uint32_t fast = (uint32_t)(splitmix64_next(&rng_state) % c.dims);
        bool fast_identity = splitmix64_next(&rng_state) % 3 != 0;
        for (uint32_t d = 0; d < c.dims; d++) {
            bool id = d == fast ? fast_identity : splitmix64_next(&rng_state) % 3 == 0;
            c.small[d] = d == fast ? lane_sizes[splitmix64_next(&rng_state) % 8] : 1 + (uint32_t)(splitmix64_next(&rng_state) % 7);
            c.scales[d] = id ? 1 : scales[splitmix64_next(&rng_state) % 6];
            c.big[d] = id ? c.small[d] : (uint32_t)fmax(1, floor(c.small[d] * c.scales[d] + uniform(-1, 1)));
            c.in_off[d] = id ? 0 : (splitmix64_next(&rng_state) % 2 ? 0.5f : (float)uniform(-1, 1));
            c.out_off[d] = id ? 0 : -c.in_off[d];
        }
        /* Both tensors: `fast` last in memory, the other axes in a random order. */
        uint32_t order[2][4], pad[2];
        for (int t = 0; t < 2; t++) {
            uint32_t n = 0;
            for (uint32_t d = 0; d < c.dims; d++)
                if (d != fast)
                    order[t][n++] = d;
            for (uint32_t j = n; j > 1; j--) {
                uint32_t r = (uint32_t)(splitmix64_next(&rng_state) % j), tmp = order[t][j - 1];
                order[t][j - 1] = order[t][r];
                order[t][r] = tmp;
            }
            order[t][n] = fast;
            pad[t] = (k / 9) % 2 ? (uint32_t)(splitmix64_next(&rng_state) % 2) * 4 + (k % 2) : 0;
        }
        char what[96];
        snprintf(what, sizeof(what), "case %d (fast axis %u, sizes %u/%u)", k, fast, c.small[fast], c.big[fast]);
        /* float16 through the device's conversion and, every other case, the shaders' own. */
        check_layout(&c, backward, type, order, pad, offset,
                     type == DMLVK_TENSOR_DATA_TYPE_FLOAT16 && k % 2 ? &software_rounding : NULL, INF_NONE, what);
    }
    /* Columns fastest in memory (the general loops) at 1/3 on both axes, both directions. */
    const uint32_t small[4] = { 1, 1, 9, 301 }, order[2][4] = { { 0, 1, 3, 2 }, { 0, 1, 3, 2 } }, pad[2] = { 0, 0 };
    struct resample_case third = half_pixel_case(small, 1.0f / 3, DMLVK_INTERPOLATION_MODE_LINEAR);
    third.big[2] = 3;
    for (int backward = 0; backward < 2; backward++)
        check_layout(&third, backward, DMLVK_TENSOR_DATA_TYPE_FLOAT32, order, pad, 0, NULL, INF_NONE,
                     backward ? "1/3, transposed, backward" : "1/3, transposed, forward");
}

/*
 * The block gather on channels-last planes (NHWC: batch and channels identities, the last two
 * axes scaled, channels fastest), both directions, every type and mode: channel counts in whole
 * 16-byte groups and not (a partial last group), rows padded (no vector loads or stores), tensors
 * bound off 16-byte alignment, scales up, down and uneven, the shapes and phases of blocks; an
 * Inf in every fourth case.
 */
static void test_channel_blocks(void **state)
{
    (void)state;
    /* 3, 6, 12, 2 and 5: fewer than four groups that do not fill 16 bytes, in groups of 4 or
     * folded into the columns where both tensors keep each pixel's channels together (not in the
     * half of the cases that pad one tensor's pixels); 45 and 36: groups of 8 bytes (float32 2
     * channels, 16-bit 4), whose 16-byte groups could not store as vectors (test_channel_lanes);
     * 38, 6 and 2: groups that move as pairs of channels where pixels are an even count apart */
    static const uint32_t channels[] = { 8, 16, 45, 19, 36, 64, 3, 6, 12, 2, 5, 38 };
    static const float scales[][2] = { { 2, 2 }, { 1.5f, 1.5f }, { 0.5f, 0.75f }, { 3, 1.25f }, { 2.06f, 0.6f } };
    for (int k = 0; k < 144; k++) {
        struct resample_case c = { .dims = 4 };
        bool backward = k % 2;
        dmlvk_tensor_data_type type = types[(k / 2) % 3];
        c.mode = (dmlvk_interpolation_mode)((k / 6) % 2);
        c.rounding = (dmlvk_axis_direction)(splitmix64_next(&rng_state) % 2);
        c.small[0] = c.big[0] = 1 + (uint32_t)(k % 3 == 0);
        c.small[1] = c.big[1] = channels[(k / 12) % 12];
        c.scales[0] = c.scales[1] = 1;
        for (uint32_t d = 2; d < 4; d++) {
            c.small[d] = 3 + (uint32_t)(splitmix64_next(&rng_state) % 13);
            c.scales[d] = scales[(k / 4 + d) % 5][d - 2];
            c.big[d] = (uint32_t)fmax(1, floor(c.small[d] * c.scales[d] + uniform(-1, 1)));
            c.in_off[d] = splitmix64_next(&rng_state) % 2 ? 0.5f : (float)uniform(-1, 1);
            c.out_off[d] = -c.in_off[d];
        }
        const uint32_t order[2][4] = { { 0, 2, 3, 1 }, { 0, 2, 3, 1 } };
        const uint32_t pad[2] = { (k / 3) % 4 == 3 ? 1 : 0, (k / 3) % 4 == 2 ? 4 : 0 };
        uint64_t offset = (k / 7) % 3 == 2 ? 4 : 0;
        char what[96];
        snprintf(what, sizeof(what), "case %d (channels %u, %ux%u from %ux%u)", k, c.small[1], c.big[2], c.big[3],
                 c.small[2], c.small[3]);
        check_layout(&c, backward, type, order, pad, offset,
                     type == DMLVK_TENSOR_DATA_TYPE_FLOAT16 && (k / 5) % 2 ? &software_rounding : NULL,
                     (k / 2) % 4 == 1 ? INF_RANDOM : INF_NONE,
                     what);
    }
}

/*
 * Layouts whose own axis order takes no block gather, which lib/resample.c reorders (block_order):
 * height fastest (NCWH), batch fastest (CHWN), the scaled axes first (HWNC with Scales on H and W
 * at axes 0 and 1), volumes (three scaled axes: planes summed over the third) in three orders,
 * and controls that need no reordering (NHWC, a 1-D channels-last NLC) or take the general loops
 * in any order (four scaled axes; a volume whose channels move fastest). Each plan's shader, then
 * the float64 reference in both directions, every type, with an Inf every other case.
 */
static void test_axis_orders(void **state)
{
    (void)state;
    /* FEW: channels-last planes of few channels, in channel groups or folded into the columns
     * (planes of rows; test_block_shapes has which) */
    enum { LOOPS, PLANES, CHANNELS, VOLUME, FEW };
    static const struct {
        const char *name;
        uint32_t dims, small[4], scaled, order[4], shader;
    } layouts[] = {
        { "NCWH", 4, { 2, 3, 9, 7 }, 0xc, { 0, 1, 3, 2 }, PLANES },
        { "CHWN", 4, { 8, 3, 7, 5 }, 0xc, { 1, 2, 3, 0 }, CHANNELS },
        { "CHWN, 3 batches", 4, { 3, 2, 6, 9 }, 0xc, { 1, 2, 3, 0 }, FEW },
        { "HWNC scaled at 0 and 1", 4, { 7, 6, 2, 5 }, 0x3, { 0, 1, 2, 3 }, FEW },
        { "WHCN scaled at 0 and 1", 4, { 5, 6, 3, 4 }, 0x3, { 1, 0, 2, 3 }, FEW },
        { "NHWC", 4, { 2, 6, 5, 4 }, 0x6, { 0, 1, 2, 3 }, FEW },
        { "NLC", 3, { 2, 9, 6 }, 0x2, { 0, 1, 2 }, PLANES },
        { "LNC, L scaled", 3, { 9, 2, 6 }, 0x1, { 0, 1, 2 }, FEW },
        { "NDHW, three scaled", 4, { 2, 5, 6, 7 }, 0xe, { 0, 1, 2, 3 }, VOLUME },
        { "DNHW, three scaled", 4, { 5, 2, 6, 7 }, 0xd, { 0, 1, 2, 3 }, VOLUME },
        { "NHWD, three scaled", 4, { 2, 5, 6, 7 }, 0xe, { 0, 2, 3, 1 }, VOLUME },
        { "DHWC, three scaled", 4, { 5, 6, 7, 3 }, 0x7, { 0, 1, 2, 3 }, LOOPS },
        { "four scaled", 4, { 3, 5, 6, 7 }, 0xf, { 0, 1, 2, 3 }, LOOPS },
    };
    static const float scales[] = { 2, 0.75f, 1.5f };
    for (int k = 0; k < (int)(3 * 2 * sizeof(layouts) / sizeof(layouts[0])); k++) {
        const int li = k / 6;
        bool backward = k % 2;
        dmlvk_tensor_data_type type = types[(k / 2) % 3];
        struct resample_case c = { .dims = layouts[li].dims, .mode = (dmlvk_interpolation_mode)(k % 4 < 2) };
        c.rounding = DMLVK_AXIS_DIRECTION_INCREASING;
        for (uint32_t d = 0; d < c.dims; d++) {
            bool scaled = layouts[li].scaled >> d & 1;
            c.small[d] = layouts[li].small[d];
            c.scales[d] = scaled ? scales[(k + d) % 3] : 1;
            c.big[d] = scaled ? (uint32_t)floor(c.small[d] * c.scales[d]) : c.small[d];
            c.scales[d] = scaled ? (float)c.big[d] / (float)c.small[d] : 1;
            c.in_off[d] = scaled ? 0.5f : 0;
            c.out_off[d] = scaled ? -0.5f : 0;
        }
        const uint32_t *sizes[2] = { backward ? c.big : c.small, backward ? c.small : c.big };
        uint32_t strides[2][4];
        dmlvk_tensor_desc desc[2];
        for (int t = 0; t < 2; t++) {
            layout_strides(c.dims, sizes[t], layouts[li].order, 0, strides[t]);
            desc[t] = (dmlvk_tensor_desc){ .DataType = type, .DimensionCount = c.dims, .Sizes = sizes[t],
                                           .Strides = strides[t] };
            assert_int_equal(dmlvk_tensor_min_size(&desc[t], &desc[t].TotalTensorSizeInBytes), DMLVK_OK);
        }
        dmlvk_resample2_operator_desc fwd = { &desc[0], &desc[1], c.mode, c.rounding, c.dims, c.scales, c.in_off, c.out_off };
        dmlvk_resample_grad1_operator_desc bwd = { &desc[0], &desc[1], c.mode, c.rounding, c.dims, c.scales, c.in_off, c.out_off };
        dmlvk_operator_desc od = backward ? (dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE_GRAD1, &bwd }
                                          : (dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE2, &fwd };
        dmlvk_operator *op = NULL;
        if (test_operator_create(dev, &od, NULL, &op) != DMLVK_OK)
            fail_msg("%s: %s", layouts[li].name, dmlvk_last_error());
        enum dmlvk_shader shader;
        assert_int_equal(dmlvk_debug_operator_shader(op, 0, &shader), DMLVK_OK);
        dmlvk_operator_destroy(op);
        uint32_t got = shader == DMLVK_SHADER_RESAMPLE_CHANNEL_BLOCKS ? CHANNELS
                       : shader == DMLVK_SHADER_RESAMPLE_FORWARD_BLOCKS || shader == DMLVK_SHADER_RESAMPLE_BACKWARD_BLOCKS
                           ? PLANES
                       : shader == DMLVK_SHADER_RESAMPLE_FORWARD_VOLUME || shader == DMLVK_SHADER_RESAMPLE_BACKWARD_VOLUME
                           ? VOLUME
                           : LOOPS;
        static const char *const paths[] = { "the general loops", "planes of rows", "channels-last planes",
                                             "a volume's planes", "channels-last planes or folded ones" };
        if (got != layouts[li].shader && !(layouts[li].shader == FEW && (got == CHANNELS || got == PLANES)))
            fail_msg("%s (%s): %s, where %s was expected", layouts[li].name, backward ? "backward" : "forward",
                     paths[got], paths[layouts[li].shader]);
        char what[96];
        snprintf(what, sizeof(what), "%s, case %d", layouts[li].name, k);
        const uint32_t order[2][4] = { { layouts[li].order[0], layouts[li].order[1], layouts[li].order[2], layouts[li].order[3] },
                                       { layouts[li].order[0], layouts[li].order[1], layouts[li].order[2], layouts[li].order[3] } };
        const uint32_t pad[2] = { 0, 0 };
        check_layout(&c, backward, type, order, pad, 0, NULL, k % 4 == 1 ? INF_RANDOM : INF_NONE, what);
    }
}

/*
 * Rows that cannot leave as vectors (odd widths, padded rows), which the float32 forward pass
 * stores through the subgroup where the device can shuffle (glsl/resample_block.glsl): planes whose
 * rows of blocks end partway through a subgroup, dispatches whose last subgroup is cut short,
 * scales up and down, both modes, an Inf every fourth case, and again as a device that cannot
 * shuffle stores them; the other types and the backward pass on the same shapes. Elements between
 * rows must stay untouched.
 */
static void test_shuffled_stores(void **state)
{
    (void)state;
    static const uint32_t widths[] = { 131, 97, 61, 33, 7, 5 };
    static const float scales[] = { 2, 1.5f, 3, 0.5f, 0.75f, 1.25f };
    for (int k = 0; k < 72; k++) {
        struct resample_case c = { .dims = 4 };
        bool backward = k % 2;
        dmlvk_tensor_data_type type = types[(k / 2) % 3];
        c.mode = k % 8 == 7 ? DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR : DMLVK_INTERPOLATION_MODE_LINEAR;
        c.rounding = (dmlvk_axis_direction)(splitmix64_next(&rng_state) % 2);
        c.small[0] = c.big[0] = 1 + (uint32_t)(k % 3 == 0);
        c.small[1] = c.big[1] = 1 + (uint32_t)(k / 3) % 3;
        c.scales[0] = c.scales[1] = 1;
        for (uint32_t d = 2; d < 4; d++) {
            /* The written tensor's width is odd; its height and the read sizes follow the scale. */
            uint32_t written = d == 3 ? widths[(k / 6) % 6] : 2 + (uint32_t)(splitmix64_next(&rng_state) % 8);
            c.scales[d] = scales[(k / 4 + 2 * d) % 6];
            uint32_t read = (uint32_t)fmax(1, floor(backward ? written * c.scales[d] + uniform(-1, 1)
                                                            : written / c.scales[d] + uniform(-1, 1)));
            c.small[d] = backward ? written : read;
            c.big[d] = backward ? read : written;
            c.in_off[d] = k % 3 ? 0.5f : (float)uniform(-1, 1);
            c.out_off[d] = k % 3 ? -0.5f : (float)uniform(-1, 1);
        }
        const uint32_t order[2][4] = { { 0, 1, 2, 3 }, { 0, 1, 2, 3 } };
        const uint32_t pad[2] = { (k / 5) % 2, (k / 10) % 3 == 1 ? 1 : (k / 10) % 3 == 2 ? 4 : 0 };
        uint64_t offset = (k / 9) % 4 == 3 ? 4 : 0;
        char what[96];
        snprintf(what, sizeof(what), "case %d (%ux%u from %ux%u, pad %u)", k, backward ? c.small[2] : c.big[2],
                 backward ? c.small[3] : c.big[3], backward ? c.big[2] : c.small[2], backward ? c.big[3] : c.small[3],
                 pad[1]);
        check_layout(&c, backward, type, order, pad, offset,
                     type == DMLVK_TENSOR_DATA_TYPE_FLOAT16 && (k / 6) % 2 ? &software_rounding : NULL,
                     k % 4 == 1 ? INF_RANDOM : INF_NONE, what);
        if (!backward && type == DMLVK_TENSOR_DATA_TYPE_FLOAT32)
            check_layout(&c, backward, type, order, pad, offset, &no_subgroup_shuffle, k % 4 == 1 ? INF_RANDOM : INF_NONE,
                         what);
    }
}

/* The k-th case of the rounding tests, LINEAR: a half-pixel 2x or 1.5x case every third, else a
 * random one of 1 to 4 dimensions; true where the test runs it backward (two in three). */
static bool rounding_case(int k, struct resample_case *c)
{
    if (k % 3 == 0) {
        const uint32_t small[4] = { 1, 2, 6, 37 };
        *c = half_pixel_case(small, k % 2 ? 1.5f : 2.0f, DMLVK_INTERPOLATION_MODE_LINEAR);
    } else {
        random_case(c, 1 + (uint32_t)(k % 4));
        c->mode = DMLVK_INTERPOLATION_MODE_LINEAR;
    }
    return k % 3 != 2;
}

/* Float16 results rounded by the device's conversion (where it can be asked for nearest-even, as
 * lavapipe can) and by the shaders' own code are the same bits: sums that land on ties, in the
 * subnormal range and past 65504, through the block gather, the general loops and the forward. */
static void test_float16_rounding(void **state)
{
    (void)state;
    for (int k = 0; k < 24; k++) {
        struct resample_case c;
        bool backward = rounding_case(k, &c);
        uint32_t ns = count(c.dims, backward ? c.big : c.small), nd = count(c.dims, backward ? c.small : c.big);
        float *src = malloc(ns * 4), *hw = malloc(nd * 4), *sw = malloc(nd * 4);
        for (uint32_t i = 0; i < ns; i++) {
            /* magnitudes from float16's subnormals to its largest values */
            double v = ldexp(1 + uniform(0, 1), (int)floor(uniform(-26, 16)));
            src[i] = half_to_float(half_from_double(uniform(-1, 1) < 0 ? -v : v));
        }
        run_resample_with(&c, backward, DMLVK_TENSOR_DATA_TYPE_FLOAT16, src, hw, 0, NULL);
        run_resample_with(&c, backward, DMLVK_TENSOR_DATA_TYPE_FLOAT16, src, sw, 0, &software_rounding);
        for (uint32_t i = 0; i < nd; i++)
            if (memcmp(&hw[i], &sw[i], 4) != 0)
                fail_msg("case %d, element %u: %.9g rounded by the device, %.9g by the shader", k, i, hw[i], sw[i]);
        free(src);
        free(hw);
        free(sw);
    }
}

/* Bfloat16 results are the float32 results of the same inputs, rounded to nearest-even bit for bit
 * (the shaders compute in float32 either way and round each pair of elements together): sums on
 * ties, up to bfloat16's largest values and past them (Inf), through the block gather, the
 * general loops and the forward pass. */
static void test_bfloat16_rounding(void **state)
{
    (void)state;
    for (int k = 0; k < 12; k++) {
        struct resample_case c;
        bool backward = rounding_case(k, &c);
        uint32_t ns = count(c.dims, backward ? c.big : c.small), nd = count(c.dims, backward ? c.small : c.big);
        float *src = malloc(ns * 4), *wide = malloc(nd * 4), *got = malloc(nd * 4);
        for (uint32_t i = 0; i < ns; i++) {
            /* few mantissa bits (ties after a weight of 1/4 or 3/4), magnitudes up to 2^127 */
            double v = ldexp(1 + (double)(splitmix64_next(&rng_state) % 8) / 8, (int)floor(uniform(-20, k % 4 == 1 ? 128 : 20)));
            src[i] = bfloat16_to_float(bfloat16_from_double(uniform(-1, 1) < 0 ? -v : v));
        }
        run_resample_with(&c, backward, DMLVK_TENSOR_DATA_TYPE_FLOAT32, src, wide, 0, NULL);
        run_resample_with(&c, backward, DMLVK_TENSOR_DATA_TYPE_BFLOAT16, src, got, 0, NULL);
        for (uint32_t i = 0; i < nd; i++) {
            float want = bfloat16_to_float(bfloat16_from_float(wide[i]));
            /* The sign of an exact zero sum (a weight of 0 times a negative value) is not rounding's:
             * the two runs take different paths, and without SignedZeroInfNanPreserve a compiler
             * may fold 0 + x to x. */
            if (memcmp(&want, &got[i], 4) != 0 && !(want == 0.0f && got[i] == 0.0f))
                fail_msg("case %d, element %u: %.9g in float32 rounds to %.9g, the bfloat16 run gave %.9g", k, i,
                         wide[i], want, got[i]);
        }
        free(src);
        free(wide);
        free(got);
    }
}

/* Upsampling by 4 and more against the float64 reference: windows tall enough that LINEAR
 * backward gathers them in 2x1 blocks (lib/resample.c, NARROW_ROWS_FROM), float32 at an edge width
 * and at whole 4-element rows, aligned and not; the 16-bit types, NEAREST_NEIGHBOR and the forward
 * pass at the same scales once each. */
static void test_tall_windows(void **state)
{
    (void)state;
    static const float scales[] = { 4.0f, 5.0f, 4.5f };
    static const uint32_t widths[] = { 77, 32 };
    static const struct {
        bool backward;
        dmlvk_tensor_data_type type;
        dmlvk_interpolation_mode mode;
    } others[] = {
        { true, DMLVK_TENSOR_DATA_TYPE_FLOAT16, DMLVK_INTERPOLATION_MODE_LINEAR },
        { true, DMLVK_TENSOR_DATA_TYPE_BFLOAT16, DMLVK_INTERPOLATION_MODE_LINEAR },
        { true, DMLVK_TENSOR_DATA_TYPE_FLOAT32, DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR },
        { false, DMLVK_TENSOR_DATA_TYPE_FLOAT32, DMLVK_INTERPOLATION_MODE_LINEAR },
        { false, DMLVK_TENSOR_DATA_TYPE_FLOAT16, DMLVK_INTERPOLATION_MODE_LINEAR },
        { false, DMLVK_TENSOR_DATA_TYPE_BFLOAT16, DMLVK_INTERPOLATION_MODE_LINEAR },
    };
    for (int k = 0; k < 12; k++) {
        bool other = k >= 6;
        bool backward = other ? others[k - 6].backward : true;
        dmlvk_tensor_data_type type = other ? others[k - 6].type : DMLVK_TENSOR_DATA_TYPE_FLOAT32;
        float s = scales[k % 3];
        const uint32_t small[4] = { 2, 2, 5 + (uint32_t)(k % 4), widths[(k / 3) % 2] };
        struct resample_case c = half_pixel_case(small, s, other ? others[k - 6].mode : DMLVK_INTERPOLATION_MODE_LINEAR);
        uint64_t offset = k % 2 ? 4 : 0;
        char label[96];
        snprintf(label, sizeof(label), "case %d (%s, scale %g, %ux%u, offset %u)", k, backward ? "backward" : "forward", s,
                 c.small[2], c.small[3], (unsigned)offset);
        expect_reference(&c, backward, type, offset, label);
    }
}

/* Block shapes chosen on an H100 (BENCHMARKS.md notes), pinned on the sweep's shapes (dmlvk-bench
 * --preset sweep, the row names below): the planner's choice does not depend on the device, so a
 * change of lib/resample.c's rules that moves one of these rows shows here, and wants a measurement
 * (tools/bench_ab.py) before the expectation changes with it. */
struct shape_case {
    const char *row;
    bool backward, nearest, channels_last;
    dmlvk_tensor_data_type type;
    uint32_t c, h, w, oh, ow; /* dmlvk-bench's: forward h x w -> oh x ow, backward the reverse */
    uint32_t block_y, block_x;
    bool folded; /* channels-last planes folded into planes of rows (lib/resample.c, fold_channels) */
};

static void check_block_shape(const struct shape_case *k)
{
    static const uint32_t nhwc[4] = { 0, 2, 3, 1 };
    uint32_t small[4] = { 1, k->c, k->h, k->w }, big[4] = { 1, k->c, k->oh, k->ow }, strides[2][4];
    dmlvk_tensor_desc t[2];
    for (int i = 0; i < 2; i++) {
        const uint32_t *sizes = (i == 0) == k->backward ? big : small;
        if (k->channels_last)
            layout_strides(4, sizes, nhwc, 0, strides[i]);
        t[i] = (dmlvk_tensor_desc){ .DataType = k->type, .DimensionCount = 4, .Sizes = sizes,
                                    .Strides = k->channels_last ? strides[i] : NULL };
        assert_int_equal(dmlvk_tensor_min_size(&t[i], &t[i].TotalTensorSizeInBytes), DMLVK_OK);
    }
    dmlvk_resample_fields rf;
    assert_int_equal(dmlvk_resample_fields_from_convention(k->nearest ? DMLVK_RESAMPLE_CONVENTION_PYTORCH_NEAREST
                                                                      : DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_LINEAR,
                                                           4, small, big, NULL, &rf),
                     DMLVK_OK);
    dmlvk_resample_grad1_operator_desc bwd = { &t[0], &t[1] };
    dmlvk_resample2_operator_desc fwd = { &t[0], &t[1] };
    dmlvk_operator_desc od;
    if (k->backward) {
        assert_int_equal(dmlvk_resample_grad1_desc_set_fields(&bwd, &rf), DMLVK_OK);
        od = (dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE_GRAD1, &bwd };
    } else {
        assert_int_equal(dmlvk_resample2_desc_set_fields(&fwd, &rf), DMLVK_OK);
        od = (dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE2, &fwd };
    }
    dmlvk_operator *op = NULL;
    if (test_operator_create(dev, &od, NULL, &op) != DMLVK_OK)
        fail_msg("%s: %s", k->row, dmlvk_last_error());
    uint32_t rows, by, bx;
    enum dmlvk_shader shader;
    assert_int_equal(dmlvk_debug_operator_spec(op, 0, RESAMPLE_SPEC_ROWS, &rows), DMLVK_OK);
    assert_int_equal(dmlvk_debug_operator_spec(op, 0, RESAMPLE_SPEC_BLOCK_Y, &by), DMLVK_OK);
    assert_int_equal(dmlvk_debug_operator_spec(op, 0, RESAMPLE_SPEC_BLOCK_X, &bx), DMLVK_OK);
    assert_int_equal(dmlvk_debug_operator_shader(op, 0, &shader), DMLVK_OK);
    bool channels = shader == DMLVK_SHADER_RESAMPLE_CHANNEL_BLOCKS;
    dmlvk_operator_destroy(op);
    const bool want_channels = k->channels_last && !k->folded;
    if (rows == 0 || by != k->block_y || bx != k->block_x || channels != want_channels)
        fail_msg("%s: block %ux%u%s (window rows %u), where %ux%u%s was measured", k->row, by, bx,
                 channels ? " of channels" : "", rows, k->block_y, k->block_x,
                 want_channels ? " of channels" : k->folded ? " of folded channels" : "");
}

static void test_block_shapes(void **state)
{
    (void)state;
    const dmlvk_tensor_data_type f32 = DMLVK_TENSOR_DATA_TYPE_FLOAT32, f16 = DMLVK_TENSOR_DATA_TYPE_FLOAT16,
                                 bf16 = DMLVK_TENSOR_DATA_TYPE_BFLOAT16;
    const struct shape_case cases[] = {
        /* Backward over planes of rows: float32 2x4 where rows leave as 4-element stores (note
         * 64), else 2x2 (note 16), NEAREST_NEIGHBOR too (note 136); 2x1 where 2x2 windows grow
         * tall, every type (notes 135, 136); 16-bit 4x4, 4x2 at odd widths (notes 63, 64),
         * bfloat16 2x4 below about 2.25x where 4x4 blocks store no vectors (notes 80, 192: the
         * 3x columns of 2x3x); 16-bit NEAREST_NEIGHBOR 2x4 (note 108). */
        { "bilinear_grad_2x_f32", true, false, false, f32, 64, 128, 128, 256, 256, 2, 4 },
        { "bilinear_grad_odd_f32", true, false, false, f32, 64, 97, 131, 200, 260, 2, 2 },
        { "bilinear_grad_4x_f32", true, false, false, f32, 64, 64, 64, 256, 256, 2, 1 },
        { "bilinear_grad_4x_f16", true, false, false, f16, 64, 64, 64, 256, 256, 2, 1 },
        { "bilinear_grad_2x_f16", true, false, false, f16, 64, 128, 128, 256, 256, 4, 4 },
        { "bilinear_grad_odd_f16", true, false, false, f16, 64, 97, 131, 200, 260, 4, 2 },
        { "bilinear_grad_1.5x_bf16", true, false, false, bf16, 64, 128, 128, 192, 192, 4, 4 },
        { "bilinear_grad_2x3x_bf16", true, false, false, bf16, 64, 64, 64, 128, 192, 2, 4 },
        { "bilinear_grad_2.5x_bf16", true, false, false, bf16, 64, 128, 128, 320, 320, 4, 4 },
        { "nearest_grad_2x_f32", true, true, false, f32, 64, 128, 128, 256, 256, 2, 4 },
        { "nearest_grad_odd_f32", true, true, false, f32, 64, 97, 131, 200, 260, 2, 2 },
        { "nearest_grad_1.5x_f16", true, true, false, f16, 128, 96, 96, 144, 144, 2, 4 },
        /* Backward over channels-last planes: 2x1 (note 136). */
        { "bilinear_grad_nhwc_2x_f16", true, false, true, f16, 256, 64, 64, 128, 128, 2, 1 },
        { "bilinear_grad_nhwc_odd_f32", true, false, true, f32, 64, 97, 131, 200, 260, 2, 1 },
        /* Forward over planes of rows: 4x4 (note 36), 8x4 for 16-bit upsampling where its window
         * saves rows (notes 129, 134), 4x2 / 8x2 at odd output widths (notes 129, 130), 1x1 for
         * float32 where a block's outputs share almost no loads (notes 119, 120), the 16-bit odd
         * downscale 4x2 (note 123). */
        { "bilinear_2x_f32", false, false, false, f32, 64, 128, 128, 256, 256, 4, 4 },
        { "bilinear_2x_f16", false, false, false, f16, 64, 128, 128, 256, 256, 8, 4 },
        { "bilinear_1.5x_f16", false, false, false, f16, 64, 128, 128, 192, 192, 4, 4 },
        { "bilinear_odd_width_f32", false, false, false, f32, 64, 97, 131, 200, 261, 4, 2 },
        { "bilinear_odd_width_f16", false, false, false, f16, 64, 97, 131, 200, 261, 8, 2 },
        { "bilinear_down4x_f32", false, false, false, f32, 64, 512, 512, 128, 128, 1, 1 },
        { "bilinear_down_odd_f32", false, false, false, f32, 64, 200, 260, 97, 131, 1, 1 },
        { "bilinear_down_odd_f16", false, false, false, f16, 64, 200, 260, 97, 131, 4, 2 },
        /* Forward over channels-last planes: 2x2, 1x2 for 16-bit types (notes 37, 133, 136). */
        { "bilinear_nhwc_2x_f32", false, false, true, f32, 256, 64, 64, 128, 128, 2, 2 },
        { "bilinear_nhwc_2x_f16", false, false, true, f16, 256, 64, 64, 128, 128, 1, 2 },
        /* Channels-last planes of few channels folded into the columns (note 153): forward but
         * where a block would sum more than 16 taps per output (5 channels at 1.5x); backward 2
         * float32 channels, 16-bit ones not a multiple of 4; the others in groups of 4, the same
         * orders (note 148); bfloat16 keeps 2x4 where float16 takes 4x4 (note 192's rule was timed
         * on unfolded planes only). */
        { "bilinear_nhwc_c3_2x_f32", false, false, true, f32, 3, 256, 256, 512, 512, 4, 4, true },
        { "bilinear_nhwc_c3_2x_f16", false, false, true, f16, 3, 256, 256, 512, 512, 8, 4, true },
        { "nearest_nhwc_c6_2x_f32", false, true, true, f32, 6, 256, 256, 512, 512, 4, 4, true },
        /* folded rows of odd width keep the order's shapes: the pair rules were timed unfolded only
         * (notes 188, 191) */
        { "nearest_nhwc_c3_odd_f32", false, true, true, f32, 3, 64, 64, 96, 97, 4, 4, true },
        { "nearest_nhwc_c3_odd_f16", false, true, true, f16, 3, 64, 64, 96, 97, 4, 4, true },
        { "bilinear_nhwc_c2_flow_4x_f32", false, false, true, f32, 2, 96, 128, 384, 512, 4, 4, true },
        { "bilinear_nhwc_c5_1.5x_f32", false, false, true, f32, 5, 256, 256, 384, 384, 2, 2 },
        { "bilinear_grad_nhwc_c2_flow_4x_f32", true, false, true, f32, 2, 96, 128, 384, 512, 2, 1, true },
        { "bilinear_grad_nhwc_c3_2x_f16", true, false, true, f16, 3, 256, 256, 512, 512, 2, 2, true },
        { "bilinear_grad_nhwc_c2_1.5x_bf16", true, false, true, bf16, 2, 96, 128, 144, 192, 2, 4, true },
        { "bilinear_grad_nhwc_c3_2x_f32", true, false, true, f32, 3, 256, 256, 512, 512, 2, 1 },
        { "bilinear_grad_nhwc_c4_2x_f16", true, false, true, f16, 4, 256, 256, 512, 512, 2, 1 },
        { "bilinear_grad_nhwc_c12_2x_f16", true, false, true, f16, 12, 256, 256, 512, 512, 2, 1 },
        /* Backward of a downscale whose fold would write an element per invocation (note 179). */
        { "bilinear_grad_nhwc_c27_down_bf16", true, false, true, bf16, 27, 332, 431, 159, 206, 2, 1 },
        { "nearest_grad_nhwc_c15_down_f16", true, true, true, f16, 15, 279, 235, 861, 113, 2, 4, true },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_block_shape(&cases[i]);
}

/* A backward block gather that loads vectors but stores none has two pipelines
 * (dmlvk_dispatch_aligned): its aligned form where the loaded tensor's address is a multiple of
 * DMLVK_ALIGNED_BYTES, which tests no address, and the other, compiled by the first call that
 * binds it elsewhere. Both give the same bits at every 4-byte offset, and the other form is
 * compiled once; the forward gather of the same shape has one pipeline. On a device of its own, so
 * that no earlier test has compiled any of them. */
static void test_aligned_forms(void **state)
{
    (void)state;
    const char *const names[] = { "float32", "float16", "bfloat16" };
    /* The plans lib/resample.c gives an aligned form (BENCHMARKS.md notes 140, 141), and plans of
     * the same kinds of access that keep one pipeline. `forms`: bit t where types[t] has the form;
     * `loads`, `stores` and `squares` (4x4 blocks): what the case needs of the plan, bit t likewise. */
    static const struct {
        uint32_t small[4];
        float scale;
        bool backward;
        uint32_t forms, loads, stores, squares;
    } cases[] = {
        /* rows of 26 and 13: backward loads vectors and stores none */
        { { 1, 3, 8, 13 }, 2, true, 7, 7, 0, 0 },
        { { 1, 3, 8, 13 }, 2, false, 0, 0, 0, 0 },
        /* rows of 12 and 24: 16-bit forward stores vectors, float32 forward keeps one pipeline
         * (onto 24 rows: 16-bit takes 8x4 blocks) */
        { { 1, 3, 12, 12 }, 2, false, 6, 7, 7, 1 },
        /* 3x onto rows of 60: float16 backward in 4x4 blocks keeps one pipeline, the others have
         * smaller blocks and the form */
        { { 1, 2, 8, 20 }, 3, true, 5, 7, 0, 2 },
        /* backward onto 12 rows of 16 stores vectors too: the form but for float16's 4x4 blocks
         * (bfloat16 keeps 2x4 on planes this narrow, note 192) */
        { { 1, 3, 12, 16 }, 2, true, 5, 7, 7, 2 },
    };
    dmlvk_device *own = test_device(NULL);
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
            const bool backward = cases[k].backward, want_form = cases[k].forms >> t & 1;
            struct resample_case c = half_pixel_case(cases[k].small, cases[k].scale, DMLVK_INTERPOLATION_MODE_LINEAR);
            uint32_t ns = count(4, backward ? c.big : c.small), nd = count(4, backward ? c.small : c.big);
            float *src = malloc((size_t)ns * 4), *want = malloc((size_t)nd * 4), *got = malloc((size_t)nd * 4);
            for (uint32_t i = 0; i < ns; i++)
                src[i] = (float)uniform(-1, 1);
            char label[96];
            snprintf(label, sizeof(label), "case %zu, %s %s", k, backward ? "backward" : "forward", names[t]);

            struct resample_op ro;
            resample_op_init(&ro, &c, backward, types[t]);
            dmlvk_operator *op;
            uint32_t rows = 0, loads = 0, stores = 0, block_y = 0, block_x = 0, aligned = 0;
            if (test_operator_create(own, &ro.desc, NULL, &op) != DMLVK_OK ||
                dmlvk_debug_operator_spec(op, 0, RESAMPLE_SPEC_ROWS, &rows) != DMLVK_OK ||
                dmlvk_debug_operator_spec(op, 0, RESAMPLE_SPEC_VECTOR_LOADS, &loads) != DMLVK_OK ||
                dmlvk_debug_operator_spec(op, 0, RESAMPLE_SPEC_VECTOR_STORES, &stores) != DMLVK_OK ||
                dmlvk_debug_operator_spec(op, 0, RESAMPLE_SPEC_BLOCK_Y, &block_y) != DMLVK_OK ||
                dmlvk_debug_operator_spec(op, 0, RESAMPLE_SPEC_BLOCK_X, &block_x) != DMLVK_OK)
                fail_msg("%s: %s", label, dmlvk_last_error());
            bool has_form = dmlvk_debug_operator_spec(op, 0, RESAMPLE_SPEC_ALIGNED, &aligned) == DMLVK_OK;
            dmlvk_operator_destroy(op);
            if (!rows || loads != (cases[k].loads >> t & 1) || stores != (cases[k].stores >> t & 1) ||
                (cases[k].squares >> t & 1) != (block_y == 4 && block_x == 4))
                fail_msg("%s: block rows %u, %ux%u blocks, vector loads %u, stores %u: not the case this test needs",
                         label, rows, block_y, block_x, loads, stores);
            if (has_form != want_form || (has_form && aligned != 1))
                fail_msg("%s: %s", label, has_form ? "an aligned form" : "no aligned form");

            dmlvk_device_stats before, after;
            dmlvk_device_get_stats(own, &before);
            run_resample_on(own, &c, backward, types[t], src, want, 0, NULL);
            dmlvk_device_get_stats(own, &after);
            if (after.pipelines_compiled != before.pipelines_compiled)
                fail_msg("%s: an aligned call compiled %llu pipelines", label,
                         (unsigned long long)(after.pipelines_compiled - before.pipelines_compiled));
            for (uint64_t offset = 4; offset < 2 * DMLVK_ALIGNED_BYTES; offset += 4) {
                memset(got, 0, (size_t)nd * 4);
                run_resample_on(own, &c, backward, types[t], src, got, offset, NULL);
                if (memcmp(got, want, (size_t)nd * 4))
                    fail_msg("%s: bound at offset %llu, other bits than at 0", label, (unsigned long long)offset);
            }
            dmlvk_device_get_stats(own, &after);
            if (after.pipelines_compiled != before.pipelines_compiled + (want_form ? 1 : 0))
                fail_msg("%s: offsets 4 to %u compiled %llu pipelines, where %d was due", label,
                         2 * DMLVK_ALIGNED_BYTES - 4,
                         (unsigned long long)(after.pipelines_compiled - before.pipelines_compiled), want_form);
            /* One tensor off alignment at a time: a call takes the unaligned form (one more
             * lookup in the device's cache than an aligned call) exactly where the form accesses
             * that tensor by vectors, and computes the same bits either way. */
            dmlvk_device_get_stats(own, &before);
            run_resample_on(own, &c, backward, types[t], src, got, 0, NULL);
            dmlvk_device_get_stats(own, &after);
            const uint64_t aligned_lookups = after.pipeline_memory_hits - before.pipeline_memory_hits;
            for (int side = 0; side < 2; side++) {
                const uint64_t offsets[2] = { side == 0 ? 4 : 0, side == 1 ? 4 : 0 };
                const bool vectors = side == 0 ? loads : stores;
                memset(got, 0, (size_t)nd * 4);
                dmlvk_device_get_stats(own, &before);
                run_resample_offsets(own, &c, backward, types[t], src, got, offsets, NULL);
                dmlvk_device_get_stats(own, &after);
                if (memcmp(got, want, (size_t)nd * 4))
                    fail_msg("%s: the %s alone off alignment, other bits", label, side ? "destination" : "source");
                if (after.pipeline_memory_hits - before.pipeline_memory_hits != aligned_lookups + (want_form && vectors))
                    fail_msg("%s: the %s alone off alignment: %llu lookups, an aligned call %llu", label,
                             side ? "destination" : "source",
                             (unsigned long long)(after.pipeline_memory_hits - before.pipeline_memory_hits),
                             (unsigned long long)aligned_lookups);
            }
            free(src);
            free(want);
            free(got);
        }
    }
    test_device_done(own);
}

/* Specialization constant `id` of case c's plan under `params` (NULL: the defaults); *rows: its
 * block rows (0 where the general loops run). */
static uint32_t plan_spec_with(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type, uint32_t id,
                               const struct test_params *params, uint32_t *rows, const char *label)
{
    struct resample_op ro;
    resample_op_init(&ro, c, backward, type);
    dmlvk_operator *op;
    uint32_t value = 0;
    *rows = 0;
    if (test_operator_create(dev, &ro.desc, params, &op) != DMLVK_OK ||
        dmlvk_debug_operator_spec(op, 0, RESAMPLE_SPEC_ROWS, rows) != DMLVK_OK ||
        dmlvk_debug_operator_spec(op, 0, id, &value) != DMLVK_OK)
        fail_msg("%s: %s", label, dmlvk_last_error());
    dmlvk_operator_destroy(op);
    return value;
}

static uint32_t plan_spec(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type, uint32_t id,
                          uint32_t *rows, const char *label)
{
    return plan_spec_with(c, backward, type, id, NULL, rows, label);
}

/* Random case k of a 16-bit plan rule's sweep: LINEAR or NEAREST_NEIGHBOR and the rounding from
 * k, 1 or 2 images of 1 to 3 channels; the caller sizes the planes, then random_plane_scales. */
static struct resample_case random_rule_case(int k)
{
    struct resample_case c = { .dims = 4,
                               .mode = (k / 4) % 2 ? DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR
                                                   : DMLVK_INTERPOLATION_MODE_LINEAR,
                               .rounding = (dmlvk_axis_direction)((k / 8) % 2) };
    c.small[0] = c.big[0] = 1 + (uint32_t)(splitmix64_next(&rng_state) % 2);
    c.small[1] = c.big[1] = 1 + (uint32_t)(splitmix64_next(&rng_state) % 3);
    return c;
}

/* Scales within 10% of the planes' size ratios and pixel offsets in [-1, 1] on axes 2 and 3. */
static void random_plane_scales(struct resample_case *c)
{
    for (int d = 0; d < 4; d++) {
        c->scales[d] = d < 2 ? 1.0f : (float)((double)c->big[d] / c->small[d] * uniform(0.9, 1.1));
        c->in_off[d] = d < 2 ? 0.0f : (float)uniform(-1, 1);
        c->out_off[d] = d < 2 ? 0.0f : (float)uniform(-1, 1);
    }
}

/* Row k of a plan rule's table in type t: its half-pixel case, with the label that names it. */
static struct resample_case table_case(const uint32_t small[4], float scale, bool nearest, bool backward, size_t k,
                                       size_t t, char label[96])
{
    snprintf(label, 96, "case %zu (%s, type %zu)", k, backward ? "backward" : "forward", t);
    return half_pixel_case(small, scale,
                           nearest ? DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR : DMLVK_INTERPOLATION_MODE_LINEAR);
}

/* Specialization constant `id` (`name`) of case c's plan, which must be a block gather's and `due`. */
static uint32_t expect_spec(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type, uint32_t id,
                            const char *name, uint32_t due, const char *label)
{
    uint32_t rows, value = plan_spec(c, backward, type, id, &rows, label);
    if (!rows || value != due)
        fail_msg("%s: block rows %u, %s %u, where %u was due", label, rows, name, value, due);
    return value;
}

/* Whether some element of case c's result taps element `at` of the read tensor with a weight
 * above 0. */
static bool is_tapped(const struct resample_case *c, bool backward, uint32_t at)
{
    uint32_t ns = count(c->dims, backward ? c->big : c->small), nd = count(c->dims, backward ? c->small : c->big);
    double *hot = calloc(ns, 8), *want = malloc(nd * 8), *reached = malloc(nd * 8);
    hot[at] = 1;
    reference_case(c, backward, hot, want, reached);
    bool tapped = false;
    for (uint32_t i = 0; i < nd && !tapped; i++)
        tapped = reached[i] > 0;
    free(hot);
    free(want);
    free(reached);
    return tapped;
}

/* Case c's result on finite values (0.25, 0.5, 0.75 in turn), for expect_inf_reach; *src: those
 * values. Both are the caller's to free. */
static float *clean_result(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type, float **src)
{
    uint32_t ns = count(c->dims, backward ? c->big : c->small), nd = count(c->dims, backward ? c->small : c->big);
    float *clean = malloc(nd * 4);
    *src = malloc(ns * 4);
    for (uint32_t i = 0; i < ns; i++)
        (*src)[i] = (float)(0.25 * (1 + i % 3));
    run_resample(c, backward, type, *src, clean);
    return clean;
}

/* An Inf at the first and at the last element of rows 0, 1 and 4 of the read tensor's first plane
 * and of the last row of its last reaches exactly the elements that tap it (expect_inf_reach):
 * the blocks at a row's ends, whose windows reach past it. Where no output taps that element (a
 * downscale skips some), the nearest one toward the row's middle that one does, or in the next
 * row (the previous, for the last) where none of the row's does. */
static void expect_row_end_infs(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type,
                                const char *label)
{
    const uint32_t *read = backward ? c->big : c->small;
    uint32_t ns = count(4, read), width = read[3];
    float *src, *clean = clean_result(c, backward, type, &src);
    const uint32_t row_starts[] = { 0, width, 4 * width, ns - width };
    for (size_t r = 0; r < sizeof(row_starts) / sizeof(row_starts[0]); r++)
        for (uint32_t end = 0; end < 2; end++) {
            /* From the row's end inward, then in the rows after it (before it, for the last). */
            uint32_t at = UINT32_MAX;
            for (uint32_t k = 0; at == UINT32_MAX && k < ns / width; k++) {
                uint32_t row = r + 1 < sizeof(row_starts) / sizeof(row_starts[0]) ? row_starts[r] + k * width
                                                                                   : row_starts[r] - k * width;
                for (uint32_t in = 0; at == UINT32_MAX && in < width; in++)
                    if (is_tapped(c, backward, row + (end ? width - 1 - in : in)))
                        at = row + (end ? width - 1 - in : in);
            }
            assert_true(at != UINT32_MAX);
            expect_inf_reach(c, backward, type, src, clean, at, end ? -INFINITY : INFINITY, label);
        }
    free(src);
    free(clean);
}

/* 16-bit block gathers whose window rows vectors cannot load (odd widths) but whose blocks store
 * vectors load each row's window as whole words (RESAMPLE_SPEC_WORD_LOADS, BENCHMARKS.md note
 * 144), forward and backward, LINEAR and NEAREST_NEIGHBOR, against the float64 reference at
 * offsets 0 and 4. Windows past a row's edge read words of the row or of its neighbours with
 * weight 0: an Inf at the first or last element of a row must still reach exactly the elements
 * that tap it, every other element as without it, also with the read rows padded. Odd widths
 * on both sides, even ones and float32 keep element loads. */
static void test_word_loads(void **state)
{
    (void)state;
    static const struct {
        uint32_t small[4];
        float scale;
        bool backward, nearest;
        bool words[3]; /* float32, float16, bfloat16 */
        bool exact16;  /* exact sums in the 16-bit types */
    } cases[] = {
        { { 2, 2, 7, 33 }, 2.06f, false, false, { false, true, true } },  /* 33 -> 68 */
        { { 2, 2, 7, 33 }, 2.06f, false, true, { false, true, true } },
        { { 2, 2, 7, 16 }, 2.06f, true, false, { false, true, true } },   /* 16 <- 33 */
        { { 2, 2, 7, 33 }, 2.0f, false, false, { false, false, false } }, /* 33 -> 66: element stores */
        { { 2, 2, 7, 32 }, 2.06f, false, false, { false, false, false } }, /* 32 -> 66: vector loads */
        /* Element stores where the read rows are longer than the written ones (BENCHMARKS.md notes
         * 184-185). */
        { { 2, 2, 7, 67 }, 0.49f, false, false, { false, true, true } },  /* 67 -> 33 */
        { { 2, 2, 7, 67 }, 0.49f, false, true, { false, true, true } },
        { { 2, 2, 7, 33 }, 2.03f, true, false, { false, true, true } },   /* 33 <- 67 */
        { { 2, 2, 7, 33 }, 2.03f, true, true, { false, true, true } },
        { { 2, 2, 7, 67 }, 0.49f, true, false, { false, false, false } }, /* 67 <- 33: read rows shorter */
        { { 1, 2, 8, 65 }, 0.5f, true, true, { false, false, false }, true }, /* 65 <- 33: exact sums */
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        for (size_t t = 0; t < 3; t++) {
            const bool backward = cases[k].backward;
            char label[96];
            struct resample_case c = table_case(cases[k].small, cases[k].scale, cases[k].nearest, backward, k, t, label);
            if (cases[k].exact16 && t > 0)
                expect_spec(&c, backward, types[t], RESAMPLE_SPEC_EXACT, "exact sums", true, label);
            if (!expect_spec(&c, backward, types[t], RESAMPLE_SPEC_WORD_LOADS, "word loads", cases[k].words[t], label))
                continue;
            for (uint64_t offset = 0; offset <= 4; offset += 4)
                expect_reference(&c, backward, types[t], offset, label);
            /* Read rows padded by 1 and 2 elements: rows start on even elements only, or on both
             * kinds in another pattern. */
            static const uint32_t nchw[2][4] = { { 0, 1, 2, 3 }, { 0, 1, 2, 3 } };
            for (uint32_t pad = 1; pad <= 2; pad++)
                check_layout(&c, backward, types[t], nchw, (const uint32_t[2]){ pad, 0 }, 0, NULL, INF_RANDOM, label);

            expect_row_end_infs(&c, backward, types[t], label);
        }
    }
    /* Random odd-length read rows onto written rows of whole 4-element groups, any scale and pixel
     * offsets, both directions and modes, 16-bit types, against the float64 reference at offsets
     * 0 and 4; most take word loads (not where the block shape's windows fit vectors or its rows
     * cannot store them). */
    uint32_t taken = 0;
    for (int k = 0; k < 12; k++) {
        const bool backward = k % 2;
        const dmlvk_tensor_data_type type = types[1 + (k / 2) % 2];
        struct resample_case c = random_rule_case(k);
        uint32_t odd = 3 + 2 * (uint32_t)(splitmix64_next(&rng_state) % 20);
        uint32_t groups = 1 + (uint32_t)(splitmix64_next(&rng_state) % 24);
        c.small[2] = 2 + (uint32_t)(splitmix64_next(&rng_state) % 8);
        c.big[2] = 1 + (uint32_t)(splitmix64_next(&rng_state) % 16);
        c.small[3] = backward ? 4 * groups : odd;
        c.big[3] = backward ? odd : 4 * groups;
        random_plane_scales(&c);
        char label[96];
        snprintf(label, sizeof(label), "random case %d (%s, %u -> %u columns)", k, backward ? "backward" : "forward",
                 backward ? c.big[3] : c.small[3], backward ? c.small[3] : c.big[3]);
        uint32_t rows;
        taken += plan_spec(&c, backward, type, RESAMPLE_SPEC_WORD_LOADS, &rows, label);
        for (uint64_t offset = 0; offset <= 4; offset += 4)
            expect_reference(&c, backward, type, offset, label);
    }
    if (taken < 6) /* 11 of 12 did when this test was written, run alone */
        fail_msg("%u of 12 random cases took word loads", taken);
}

/* 16-bit block rows that start on an odd element stored as words through the subgroup
 * (RESAMPLE_SPEC_ODD_ROW_WORDS): the rule both ways, then the results against the float64
 * reference where rows start odd (odd widths, written rows padded to odd strides), with an Inf
 * at the read rows' ends (a word of two lanes' sums), and in the build without shuffles. */
static void test_odd_row_words(void **state)
{
    (void)state;
    static const struct {
        uint32_t small[4];
        float scale;
        bool backward, nearest;
        bool words16; /* the 16-bit types (float32 never) */
    } cases[] = {
        { { 2, 3, 15, 41 }, 0.32f, true, false, true },   /* 41 <- 14: rnd018's kind */
        { { 2, 3, 15, 41 }, 0.32f, true, true, true },
        { { 2, 3, 15, 43 }, 0.32f, true, false, false },  /* 43 <- 14: wider than 41 */
        { { 2, 3, 7, 10 }, 2.3f, false, false, true },    /* 10 -> 23 */
        { { 2, 3, 7, 16 }, 2.3f, false, true, true },     /* 16 -> 37 nearest */
        { { 2, 3, 9, 12 }, 3.5f, false, false, false },   /* 12 -> 42: rows start even */
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        for (size_t t = 0; t < 3; t++) {
            const bool backward = cases[k].backward;
            char label[96];
            struct resample_case c =
                table_case(cases[k].small, cases[k].scale, cases[k].nearest, backward, k, t, label);
            if (!expect_spec(&c, backward, types[t], RESAMPLE_SPEC_ODD_ROW_WORDS, "odd-row words",
                             t > 0 && cases[k].words16, label))
                continue;
            for (uint64_t offset = 0; offset <= 4; offset += 4)
                expect_reference(&c, backward, types[t], offset, label);
            static const uint32_t nchw[2][4] = { { 0, 1, 2, 3 }, { 0, 1, 2, 3 } };
            check_layout(&c, backward, types[t], nchw, (const uint32_t[2]){ 0, 1 }, 0, NULL, INF_RANDOM, label);
            check_layout(&c, backward, types[t], nchw, (const uint32_t[2]){ 0, 1 }, 4, &no_subgroup_shuffle, INF_RANDOM,
                         label);
            expect_row_end_infs(&c, backward, types[t], label);
        }
    }
    /* Written rows of an even width padded by one element: every other row starts odd. */
    {
        char label[96];
        struct resample_case c = table_case((const uint32_t[4]){ 2, 2, 9, 20 }, 0.45f, false, true, 0, 1, label);
        static const uint32_t nchw[2][4] = { { 0, 1, 2, 3 }, { 0, 1, 2, 3 } };
        for (size_t t = 1; t < 3; t++)
            check_layout(&c, true, types[t], nchw, (const uint32_t[2]){ 0, 1 }, 0, NULL, INF_RANDOM, label);
    }
    /* Blocks of 4 columns that start 2 early (X_PHASE): the first block's first stored member is
     * its third, the first of a word it cannot store whole (as random refgen cases found). */
    {
        const struct resample_case c = { .dims = 4,
                                         .small = { 1, 2, 3, 9 },
                                         .big = { 1, 2, 3, 16 },
                                         .mode = DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR,
                                         .scales = { 1, 1, 1, 1.75f },
                                         .in_off = { 0, 0, 0, -1.0f } };
        for (size_t t = 1; t < 3; t++) {
            const char *label = "nearest backward 9 <- 16, blocks 2 columns early";
            uint32_t rows;
            if (plan_spec(&c, true, types[t], RESAMPLE_SPEC_X_PHASE, &rows, label) != 2 ||
                plan_spec(&c, true, types[t], RESAMPLE_SPEC_BLOCK_X, &rows, label) != 4)
                fail_msg("%s: not the blocks this case is for", label);
            expect_spec(&c, true, types[t], RESAMPLE_SPEC_ODD_ROW_WORDS, "odd-row words", true, label);
            expect_reference(&c, true, types[t], 0, label);
        }
    }
    /* Random odd written widths of at most 41 columns, any scale and pixel offsets, both directions
     * and modes, 16-bit types; most take the words. */
    uint32_t taken = 0;
    for (int k = 0; k < 12; k++) {
        const bool backward = k % 2;
        const dmlvk_tensor_data_type type = types[1 + (k / 2) % 2];
        struct resample_case c = random_rule_case(k);
        uint32_t odd = 3 + 2 * (uint32_t)(splitmix64_next(&rng_state) % 20);
        uint32_t *written = backward ? c.small : c.big, *read = backward ? c.big : c.small;
        written[2] = 2 + (uint32_t)(splitmix64_next(&rng_state) % 16);
        read[2] = 1 + (uint32_t)(splitmix64_next(&rng_state) % 16);
        written[3] = odd;
        read[3] = 1 + (uint32_t)(splitmix64_next(&rng_state) % 48);
        random_plane_scales(&c);
        char label[96];
        snprintf(label, sizeof(label), "random case %d (%s, %u rows of %u columns written from %ux%u)", k,
                 backward ? "backward" : "forward", written[2], odd, read[2], read[3]);
        uint32_t rows;
        taken += plan_spec(&c, backward, type, RESAMPLE_SPEC_ODD_ROW_WORDS, &rows, label);
        for (uint64_t offset = 0; offset <= 4; offset += 4)
            expect_reference(&c, backward, type, offset, label);
    }
    if (taken < 6)
        fail_msg("%u of 12 random cases took odd-row words", taken);
}

/* 16-bit NEAREST_NEIGHBOR block gathers onto rows that cannot leave as 4-element stores (odd widths)
 * in pair blocks (choose_block_shape, BENCHMARKS.md note 188): backward 4x2 where its window has at
 * most NEAREST_PAIR_MOST_ROWS rows, forward LINEAR's 8x2 where the rows grow and 4x2 where they
 * shrink by at most half (NEAREST_PAIR_MOST_SHRINK); float32 forward 4x2 onto rows of at least
 * NEAREST_F32_PAIR_LEAST_COLUMNS columns; wider windows, stronger shrinks, float32 backward and narrow
 * float32 rows keep the order's shapes. Then random odd widths against the float64 reference at
 * offsets 0 and 4 and without shuffles, and random wide odd float32 rows forward. */
static void test_nearest_pairs(void **state)
{
    (void)state;
    static const struct {
        uint32_t small[4]; /* the forward's input */
        float scale;
        bool backward;
        uint32_t block[3][2]; /* float32, float16, bfloat16: BLOCK_Y, BLOCK_X */
    } cases[] = {
        { { 2, 3, 47, 41 }, 0.32f, true, { { 2, 2 }, { 4, 2 }, { 4, 2 } } },  /* 41 <- 14: rnd018's nearest form */
        { { 2, 3, 23, 49 }, 1.5f, true, { { 2, 2 }, { 4, 2 }, { 4, 2 } } },   /* 49 <- 74: a window of 7 rows */
        { { 2, 3, 21, 25 }, 1.83f, true, { { 2, 2 }, { 2, 4 }, { 2, 4 } } },  /* 25 <- 46: 8 rows */
        { { 2, 3, 13, 13 }, 3.15f, false, { { 4, 4 }, { 8, 2 }, { 8, 2 } } }, /* 13 -> 41 */
        { { 2, 3, 41, 64 }, 0.76f, false, { { 4, 2 }, { 4, 2 }, { 4, 2 } } }, /* 64 -> 49 */
        { { 2, 3, 52, 54 }, 0.42f, false, { { 2, 4 }, { 2, 2 }, { 2, 2 } } }, /* 54 -> 23: shrinks rows > 2x */
        { { 2, 3, 130, 100 }, 0.49f, false, { { 2, 4 }, { 2, 4 }, { 2, 4 } } }, /* 100 -> 49: rows > 2x */
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        for (size_t t = 0; t < 3; t++) {
            const bool backward = cases[k].backward;
            char label[96];
            struct resample_case c = table_case(cases[k].small, cases[k].scale, true, backward, k, t, label);
            expect_spec(&c, backward, types[t], RESAMPLE_SPEC_BLOCK_Y, "BLOCK_Y", cases[k].block[t][0], label);
            expect_spec(&c, backward, types[t], RESAMPLE_SPEC_BLOCK_X, "BLOCK_X", cases[k].block[t][1], label);
            expect_reference(&c, backward, types[t], 4 * (k % 2), label);
        }
    }
    uint32_t taken = 0;
    for (int k = 0; k < 12; k++) {
        const bool backward = k % 2;
        const dmlvk_tensor_data_type type = types[1 + (k / 2) % 2];
        struct resample_case c = random_rule_case(8 * (k / 4 % 2) + 4);
        uint32_t *written = backward ? c.small : c.big, *read = backward ? c.big : c.small;
        written[2] = 4 + (uint32_t)(splitmix64_next(&rng_state) % 20);
        written[3] = 3 + 2 * (uint32_t)(splitmix64_next(&rng_state) % 30);
        const double scale = uniform(0.55, 1.4);
        for (int a = 2; a < 4; a++)
            read[a] = (uint32_t)fmax(1, round(written[a] * (backward ? scale : 1 / scale)));
        random_plane_scales(&c);
        char label[96];
        snprintf(label, sizeof(label), "random case %d (%s, %ux%u written from %ux%u)", k,
                 backward ? "backward" : "forward", written[2], written[3], read[2], read[3]);
        uint32_t rows;
        taken += plan_spec(&c, backward, type, RESAMPLE_SPEC_BLOCK_X, &rows, label) == 2 && rows;
        expect_reference(&c, backward, type, 4 * (k % 3 == 0), label);
        check_packed(&c, backward, type, &no_subgroup_shuffle, INF_RANDOM, label);
    }
    if (taken < 8)
        fail_msg("%u of 12 random cases took pair blocks", taken);
    taken = 0;
    for (int k = 0; k < 6; k++) {
        struct resample_case c = random_rule_case(8 * (k % 2) + 4);
        c.big[2] = 4 + (uint32_t)(splitmix64_next(&rng_state) % 20);
        c.big[3] = 49 + 2 * (uint32_t)(splitmix64_next(&rng_state) % 60);
        const double scale = uniform(0.6, 1.4);
        for (int a = 2; a < 4; a++)
            c.small[a] = (uint32_t)fmax(1, round(c.big[a] / scale));
        random_plane_scales(&c);
        char label[96];
        snprintf(label, sizeof(label), "random float32 case %d (forward, %ux%u from %ux%u)", k, c.big[2], c.big[3],
                 c.small[2], c.small[3]);
        uint32_t rows;
        taken += plan_spec(&c, false, DMLVK_TENSOR_DATA_TYPE_FLOAT32, RESAMPLE_SPEC_BLOCK_X, &rows, label) == 2 && rows;
        expect_reference(&c, false, DMLVK_TENSOR_DATA_TYPE_FLOAT32, 4 * (k % 2), label);
    }
    if (taken < 4)
        fail_msg("%u of 6 random float32 cases took pair blocks", taken);
}

/* Block gathers over planes whose column blocks fall into few classes of identical weights, where
 * those weights are many, load them by class (RESAMPLE_SPEC_X_CLASSES, BENCHMARKS.md note 145):
 * downscales forward and upscales backward at periodic scales, 1-D and 2-D, every type, against
 * the float64 reference at offsets 0 and 4, with Infs at the rows' ends, whose blocks are classes
 * of their own. Blocks of few weights (float32's 0.25x forward, upscales forward), scales without
 * a short period and rows of a few blocks keep weights per block. Then random periodic scales,
 * sizes and pixel offsets, both directions. */
static void test_weight_classes(void **state)
{
    (void)state;
    /* A stream of its own: how many random cases load by class depends on the draws, which the
     * case counts of the tests before it would otherwise move. */
    rng_state = 20261129;
    static const struct {
        uint32_t dims, width;
        float scale;
        bool backward, nearest;
        bool classes[3]; /* float32, float16, bfloat16 */
    } cases[] = {
        { 4, 128, 0.25f, false, false, { false, true, true } }, /* 128 -> 32 */
        { 4, 128, 0.25f, false, true, { true, true, true } },
        { 3, 64, 2.0f, true, false, { true, true, true } },     /* 64 <- 128, 1-D */
        { 4, 40, 3.0f, true, false, { false, true, true } },    /* 40 <- 120 (float32: few weights) */
        { 4, 64, 2.0f, false, false, { false, false, false } }, /* 64 -> 128: few weights */
        { 4, 128, 0.26f, false, true, { false, false, false } }, /* 128 -> 34: no short period */
        { 4, 8, 0.25f, false, true, { false, false, false } },  /* 8 -> 2: one block */
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        for (size_t t = 0; t < 3; t++) {
            const bool backward = cases[k].backward;
            struct resample_case c = half_pixel_case((const uint32_t[4]){ 2, 2, 7, cases[k].width }, cases[k].scale,
                                                     cases[k].nearest ? DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR
                                                                      : DMLVK_INTERPOLATION_MODE_LINEAR);
            if (cases[k].dims == 3) { /* drop the rows: 2 x 2 x width */
                for (int d = 2; d < 4; d++) {
                    c.small[d - 1] = c.small[d];
                    c.big[d - 1] = c.big[d];
                    c.scales[d - 1] = c.scales[d];
                    c.in_off[d - 1] = c.in_off[d];
                    c.out_off[d - 1] = c.out_off[d];
                }
                c.small[1] = c.big[1] = 2;
                c.scales[1] = 1.0f;
                c.in_off[1] = c.out_off[1] = 0.0f;
                c.dims = 3;
            }
            char label[96];
            snprintf(label, sizeof(label), "case %zu (%s, type %zu)", k, backward ? "backward" : "forward", t);
            uint32_t rows, classes = plan_spec(&c, backward, types[t], RESAMPLE_SPEC_X_CLASSES, &rows, label);
            if (!rows || classes != cases[k].classes[t])
                fail_msg("%s: block rows %u, weight classes %u, where %d was due", label, rows, classes,
                         cases[k].classes[t]);
            for (uint64_t offset = 0; offset <= 4; offset += 4)
                expect_reference(&c, backward, types[t], offset, label);
            if (classes && c.dims == 4)
                expect_row_end_infs(&c, backward, types[t], label);
        }
    }
    /* Forward downscales of rows and 2-D planes, backward upscales of rows (1-D: the backward's
     * blocks of a column take the widest windows). */
    static const float forward_scales[] = { 0.25f, 0.2f }, backward_scales[] = { 2, 3, 2.5f };
    static const float conventions[3][2] = { { 0.5f, -0.5f }, { 0.0f, 0.0f }, { 0.0f, -0.5f } };
    uint32_t taken = 0;
    for (int k = 0; k < 16; k++) {
        const bool backward = k % 2;
        const dmlvk_tensor_data_type type = types[(k / 2) % 3];
        const float scale = backward ? backward_scales[splitmix64_next(&rng_state) % 3]
                                     : forward_scales[splitmix64_next(&rng_state) % 2];
        const float *offsets = conventions[splitmix64_next(&rng_state) % 3];
        const uint32_t dims = backward || k % 4 == 0 ? 3 : 4;
        struct resample_case c = { .dims = dims,
                                   .mode = (k / 6) % 2 ? DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR
                                                       : DMLVK_INTERPOLATION_MODE_LINEAR,
                                   .rounding = (dmlvk_axis_direction)((k / 4) % 2) };
        for (uint32_t d = 0; d < dims; d++) {
            const bool resampled = d + 2 >= dims;
            c.small[d] = 1 + (uint32_t)(splitmix64_next(&rng_state) % (resampled ? 8 : 3));
            c.scales[d] = resampled ? scale : 1.0f;
            c.in_off[d] = resampled ? offsets[0] : 0.0f;
            c.out_off[d] = resampled ? offsets[1] : 0.0f;
        }
        if (dims == 3) {
            c.small[1] = 1;
            c.scales[1] = 1.0f;
            c.in_off[1] = c.out_off[1] = 0.0f;
        }
        c.small[dims - 1] = (scale < 1 ? 64 : 16) + (uint32_t)(splitmix64_next(&rng_state) % (scale < 1 ? 200 : 80));
        for (uint32_t d = 0; d < dims; d++)
            c.big[d] = c.scales[d] == 1.0f ? c.small[d] : (uint32_t)fmax(1, floor(c.small[d] * scale));
        char label[96];
        snprintf(label, sizeof(label), "random case %d (%s, %uD, scale %g, %u -> %u columns)", k,
                 backward ? "backward" : "forward", dims, scale, c.small[dims - 1], c.big[dims - 1]);
        uint32_t rows;
        taken += plan_spec(&c, backward, type, RESAMPLE_SPEC_X_CLASSES, &rows, label);
        for (uint64_t offset = 0; offset <= 4; offset += 4)
            expect_reference(&c, backward, type, offset, label);
    }
    if (taken < 4) /* 5 do in this stream */
        fail_msg("%u of 16 random cases loaded weights by class", taken);
}

/* An Inf at the second and the last but one column and at a random one of the first and the last
 * row of the read tensor's first and last planes, and at a random element, reaches exactly the
 * elements that tap it (expect_inf_reach): the rows that windows past the top and bottom edges
 * read in their stead, and the columns that a chunk past a row's end reads. */
static void expect_edge_row_infs(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type,
                                 const char *label)
{
    const uint32_t *read = backward ? c->big : c->small;
    uint32_t ns = count(4, read), width = read[3];
    float *src, *clean = clean_result(c, backward, type, &src);
    const uint32_t rows[] = { 0, read[2] - 1, ns / width - read[2], ns / width - 1 };
    const uint32_t columns[] = { 1, width - 2, (uint32_t)(splitmix64_next(&rng_state) % width) };
    for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++)
        for (size_t k = 0; k < sizeof(columns) / sizeof(columns[0]); k++) {
            uint32_t at = rows[r] * width + columns[k] % width;
            if (is_tapped(c, backward, at))
                expect_inf_reach(c, backward, type, src, clean, at, r % 2 ? -INFINITY : INFINITY, label);
        }
    uint32_t at = (uint32_t)(splitmix64_next(&rng_state) % ns);
    if (is_tapped(c, backward, at))
        expect_inf_reach(c, backward, type, src, clean, at, INFINITY, label);
    free(src);
    free(clean);
}

/* 16-bit block gathers that write at least as many rows and columns as they read, whose blocks
 * give every member a weight above 0 at each window entry they sum inside the tensor, have no
 * careful pass: the values outside the tensor are zeroed instead (RESAMPLE_SPEC_EXACT, BENCHMARKS.md
 * note 146). Integer upscales forward and downscales backward, against the float64 reference at
 * offsets 0 and 4, with Infs at the rows' ends, in the first and last rows, and at random; float32,
 * gathers that write less, and windows that some block taps only in part keep the careful pass.
 * Then random integer scales, sizes and pixel offsets, both directions. */
static void test_exact_sums(void **state)
{
    (void)state;
    static const struct {
        uint32_t small[4];
        float scale;
        bool backward, nearest;
        bool exact[3]; /* float32, float16, bfloat16 */
    } cases[] = {
        { { 2, 2, 20, 64 }, 2.0f, false, false, { false, true, true } },   /* 20x64 -> 40x128 */
        { { 1, 3, 12, 40 }, 2.0f, false, false, { false, true, true } },   /* 12x40 -> 24x80 */
        { { 1, 1, 4, 8 }, 2.0f, false, false, { false, true, true } },     /* most elements at an edge */
        { { 2, 2, 40, 128 }, 0.5f, true, false, { false, true, true } },   /* 40x128 <- 20x64 */
        { { 2, 2, 20, 64 }, 4.0f, false, false, { false, false, false } }, /* windows tapped in part */
        { { 2, 2, 20, 64 }, 2.0f, false, true, { false, false, false } },
        { { 2, 2, 20, 64 }, 1.5f, false, false, { false, false, false } },
        { { 2, 2, 20, 64 }, 2.0f, true, false, { false, false, false } },  /* writes fewer */
        { { 2, 2, 40, 128 }, 0.5f, false, false, { false, false, false } },
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        for (size_t t = 0; t < 3; t++) {
            const bool backward = cases[k].backward;
            char label[96];
            struct resample_case c = table_case(cases[k].small, cases[k].scale, cases[k].nearest, backward, k, t, label);
            if (!expect_spec(&c, backward, types[t], RESAMPLE_SPEC_EXACT, "exact sums", cases[k].exact[t], label))
                continue;
            for (uint64_t offset = 0; offset <= 4; offset += 4)
                expect_reference(&c, backward, types[t], offset, label);
            if ((backward ? c.big : c.small)[2] > 4) /* its rows 0, 1, 4 and the last */
                expect_row_end_infs(&c, backward, types[t], label);
            expect_edge_row_infs(&c, backward, types[t], label);
            /* Both tensors' rows padded by one element: element loads and stores, each load clamped
             * on its own; an Inf at the first two and last two elements of the first and the last
             * row, and at random ones. */
            static const uint32_t nchw[2][4] = { { 0, 1, 2, 3 }, { 0, 1, 2, 3 } };
            const uint32_t *read = backward ? c.big : c.small, width = read[3], ns = count(4, read);
            const uint32_t infs[] = { 0, 1, width - 2, width - 1, ns - width, ns - width + 1, ns - 2, ns - 1,
                                      INF_RANDOM, INF_RANDOM, INF_RANDOM, INF_RANDOM };
            for (size_t r = 0; r < sizeof(infs) / sizeof(infs[0]); r++)
                check_layout(&c, backward, types[t], nchw, (const uint32_t[2]){ 1, 1 }, 0, NULL, infs[r], label);
        }
    }
    /* The shapes from a sequence of their own, so that the earlier tests' draws do not change them
     * (and with them how many take exact sums). */
    static const float conventions[3][2] = { { 0.5f, -0.5f }, { 0.0f, 0.0f }, { 0.0f, -0.5f } };
    uint64_t shapes = 146;
    uint32_t taken = 0;
    for (int k = 0; k < 12; k++) {
        const bool backward = k % 2;
        const dmlvk_tensor_data_type type = types[1 + (k / 2) % 2];
        const float factor = (float)(2 + splitmix64_next(&shapes) % 3), scale = backward ? 1 / factor : factor;
        const float *offsets = conventions[splitmix64_next(&shapes) % 3];
        struct resample_case c = { .dims = 4,
                                   .mode = (k / 4) % 2 ? DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR
                                                       : DMLVK_INTERPOLATION_MODE_LINEAR,
                                   .rounding = (dmlvk_axis_direction)((k / 8) % 2) };
        for (uint32_t d = 0; d < 4; d++) {
            c.small[d] = 1 + (uint32_t)(splitmix64_next(&shapes) % (d < 2 ? 3 : 40));
            c.scales[d] = d < 2 ? 1.0f : scale;
            c.in_off[d] = d < 2 ? 0.0f : offsets[0];
            c.out_off[d] = d < 2 ? 0.0f : offsets[1];
            c.big[d] = d < 2 ? c.small[d] : (uint32_t)fmax(1, floor(c.small[d] * scale));
        }
        char label[96];
        snprintf(label, sizeof(label), "random case %d (%s, scale %g, %ux%u -> %ux%u)", k,
                 backward ? "backward" : "forward", scale, c.small[2], c.small[3], c.big[2], c.big[3]);
        uint32_t rows, exact = plan_spec(&c, backward, type, RESAMPLE_SPEC_EXACT, &rows, label);
        taken += exact;
        for (uint64_t offset = 0; offset <= 4; offset += 4)
            expect_reference(&c, backward, type, offset, label);
        if (exact)
            expect_edge_row_infs(&c, backward, type, label);
    }
    if (taken < 2) /* 3 of these 12 do */
        fail_msg("%u of 12 random cases took exact sums", taken);
}

static int setup(void **state)
{
    (void)state;
    dev = test_device(NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    return test_group_device_done(dev);
}

/* The operator of case c with the tensors' `strides`, for a look at its plan. */
static dmlvk_operator *case_op_create(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type,
                                      const uint32_t strides[2][4], const uint32_t span[2])
{
    struct case_op o;
    case_op_init(&o, c, backward, type, strides, span);
    dmlvk_operator *op = NULL;
    if (test_operator_create(dev, &o.od, NULL, &op) != DMLVK_OK)
        fail_msg("%s", dmlvk_last_error());
    return op;
}

/* Whether the plan of case c with the tensors' `strides` runs the block gather over planes of
 * rows (for channels-last tensors: their channels folded into the columns). */
static bool plans_planes(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type,
                         const uint32_t strides[2][4], const uint32_t span[2])
{
    dmlvk_operator *op = case_op_create(c, backward, type, strides, span);
    enum dmlvk_shader shader;
    assert_int_equal(dmlvk_debug_operator_shader(op, 0, &shader), DMLVK_OK);
    dmlvk_operator_destroy(op);
    return shader == DMLVK_SHADER_RESAMPLE_FORWARD_BLOCKS || shader == DMLVK_SHADER_RESAMPLE_BACKWARD_BLOCKS;
}

/*
 * Channels-last planes of 2 and 3 channels whose channels fold into the columns (fold_channels in
 * lib/resample.c) in views other than packed ones: a read tensor broadcast over its channels and
 * columns (strides of 0, the folded view's column stride 0 too), both tensors interleaved with
 * another (every other element: a folded stride of 2, no vector accesses, the elements between
 * untouched), and a planar read tensor with a channels-last written one, which cannot fold. Each
 * plan's path (the fold: forward, backward for 2 float32 channels and 16-bit ones), then the
 * float64 reference, both modes, up and down, every type, an Inf in a third of the unbroadcast
 * cases.
 */
static void test_folded_views(void **state)
{
    (void)state;
    enum { BROADCAST, INTERLEAVED, PLANAR_READ, VIEWS };
    static const char *const names[VIEWS] = { "read tensor broadcast over channels and columns",
                                              "both interleaved", "planar read tensor" };
    static const float scales[] = { 2, 1.5f, 0.5f };
    for (int k = 0; k < 2 * 3 * 2 * VIEWS * 2; k++) {
        const bool backward = k % 2;
        const dmlvk_tensor_data_type type = types[(k / 2) % 3];
        const int view = (k / 6) % VIEWS;
        const uint32_t channels = (k / (6 * VIEWS)) % 2 ? 2 : 3;
        struct resample_case c = { .dims = 4, .mode = (dmlvk_interpolation_mode)((k / 3) % 2),
                                   .rounding = DMLVK_AXIS_DIRECTION_INCREASING };
        const float scale = scales[(k / 4) % 3];
        c.small[0] = c.big[0] = 2;
        c.small[1] = c.big[1] = channels;
        c.scales[0] = c.scales[1] = 1;
        for (uint32_t d = 2; d < 4; d++) {
            c.small[d] = 8 + 2 * (d - 2);
            c.big[d] = (uint32_t)(c.small[d] * scale);
            c.scales[d] = (float)c.big[d] / (float)c.small[d];
            c.in_off[d] = 0.5f;
            c.out_off[d] = -0.5f;
        }
        const uint32_t *sizes[2] = { backward ? c.big : c.small, backward ? c.small : c.big };
        uint32_t strides[2][4], span[2];
        for (int t = 0; t < 2; t++) {
            const uint32_t n = sizes[t][0], ch = sizes[t][1], h = sizes[t][2], w = sizes[t][3];
            const uint32_t every = view == INTERLEAVED ? 2 : 1;
            const uint32_t nhwc[4] = { every * h * w * ch, every, every * w * ch, every * ch };
            const uint32_t nchw[4] = { ch * h * w, h * w, w, 1 };
            const uint32_t broadcast[4] = { h, 0, 1, 0 };
            const uint32_t *chosen = t == 1 ? nhwc : view == BROADCAST ? broadcast : view == PLANAR_READ ? nchw : nhwc;
            memcpy(strides[t], chosen, sizeof(strides[t]));
            span[t] = t == 0 && view == BROADCAST ? n * h : every * n * ch * h * w;
        }
        const bool storage16 = type != DMLVK_TENSOR_DATA_TYPE_FLOAT32;
        const bool fold = view != PLANAR_READ && (!backward || (storage16 ? channels % 4 != 0 : channels == 2));
        char what[160];
        snprintf(what, sizeof(what), "%s, %u channels, %s %s, case %d", names[view], channels,
                 backward ? "backward" : "forward", type == DMLVK_TENSOR_DATA_TYPE_FLOAT32 ? "float32" : "16-bit", k);
        if (plans_planes(&c, backward, type, strides, span) != fold)
            fail_msg("%s: %s, where %s was expected", what, fold ? "not folded" : "folded", fold ? "the fold" : "none");
        check_strides(&c, backward, type, strides, span, 0, NULL,
                      view != BROADCAST && k % 3 == 0 ? INF_RANDOM : INF_NONE, what);
    }
}

/* The depth block (RESAMPLE_SPEC_DEPTH_BLOCK) and in-plane block of case c's volume plan, packed;
 * false where it takes no volume gather. */
static bool volume_plan(const struct resample_case *c, bool backward, dmlvk_tensor_data_type type, uint32_t *depth_block,
                        uint32_t *block_y, uint32_t *block_x)
{
    const uint32_t *sizes[2] = { backward ? c->big : c->small, backward ? c->small : c->big };
    const uint32_t order[4] = { 0, 1, 2, 3 };
    uint32_t strides[2][4], span[2];
    for (int t = 0; t < 2; t++)
        span[t] = layout_strides(c->dims, sizes[t], order, 0, strides[t]);
    dmlvk_operator *op = case_op_create(c, backward, type, strides, span);
    enum dmlvk_shader shader;
    assert_int_equal(dmlvk_debug_operator_shader(op, 0, &shader), DMLVK_OK);
    bool volume = shader == DMLVK_SHADER_RESAMPLE_FORWARD_VOLUME || shader == DMLVK_SHADER_RESAMPLE_BACKWARD_VOLUME;
    if (volume) {
        assert_int_equal(dmlvk_debug_operator_spec(op, 0, RESAMPLE_SPEC_DEPTH_BLOCK, depth_block), DMLVK_OK);
        assert_int_equal(dmlvk_debug_operator_spec(op, 0, RESAMPLE_SPEC_BLOCK_Y, block_y), DMLVK_OK);
        assert_int_equal(dmlvk_debug_operator_spec(op, 0, RESAMPLE_SPEC_BLOCK_X, block_x), DMLVK_OK);
    }
    dmlvk_operator_destroy(op);
    return volume;
}

/*
 * Volumes (three scaled axes: planes of rows summed over the third, RESAMPLE_DEPTH in
 * glsl/resample_block.glsl), whose invocations take pairs of planes where a pair taps fewer planes
 * than its two apart (lib/resample.c, choose_depth_block). First the pairing measured on the
 * sweep's trilinear rows (BENCHMARKS.md note 155); then the float64 reference on small volumes:
 * depth scaled up and down, integer and not, half-pixel and random offsets, odd and even depths
 * (a pair's second plane past the end, or its first before the start), both modes and
 * directions, every type, an Inf in half the cases (reaching exactly the planes that tap it, where
 * the other plane of its pair must stay finite).
 */
static void test_volumes(void **state)
{
    (void)state;
    static const struct {
        const char *row;
        bool backward, nearest;
        dmlvk_tensor_data_type type;
        uint32_t depth, size, big_depth, big_size; /* dmlvk-bench's: 8 x depth x size x size each side */
        uint32_t depth_block, block_y, block_x;
    } rows[] = {
        /* backward LINEAR pairs, 16-bit ones in 2x4 blocks (4x4 pairs ran 48% slower) */
        { "trilinear_grad_2x_f32", true, false, DMLVK_TENSOR_DATA_TYPE_FLOAT32, 32, 64, 64, 128, 2, 2, 4 },
        { "trilinear_grad_2x_f16", true, false, DMLVK_TENSOR_DATA_TYPE_FLOAT16, 32, 64, 64, 128, 2, 2, 4 },
        { "trilinear_grad_2x_bf16", true, false, DMLVK_TENSOR_DATA_TYPE_BFLOAT16, 32, 64, 64, 128, 2, 2, 4 },
        { "trilinear_grad_1.5x_f32", true, false, DMLVK_TENSOR_DATA_TYPE_FLOAT32, 32, 64, 48, 96, 2, 2, 4 },
        /* NEAREST_NEIGHBOR 2x backward: a pair's planes are its two planes' apart */
        { "nearest3d_grad_2x_f16", true, true, DMLVK_TENSOR_DATA_TYPE_FLOAT16, 32, 64, 64, 128, 1, 2, 4 },
        /* forward: 16-bit pairs; float32 where a pair taps no more planes than one plane (2x, not 1.5x) */
        { "trilinear_2x_f16", false, false, DMLVK_TENSOR_DATA_TYPE_FLOAT16, 32, 64, 64, 128, 2, 8, 4 },
        { "trilinear_1.5x_f16", false, false, DMLVK_TENSOR_DATA_TYPE_FLOAT16, 32, 64, 48, 96, 2, 4, 4 },
        { "trilinear_2x_f32", false, false, DMLVK_TENSOR_DATA_TYPE_FLOAT32, 32, 64, 64, 128, 2, 4, 4 },
        { "trilinear_1.5x_f32", false, false, DMLVK_TENSOR_DATA_TYPE_FLOAT32, 32, 64, 48, 96, 1, 4, 4 },
        /* float32 NEAREST_NEIGHBOR onto odd rows: the order's shapes (note 191's pairs were timed on planes) */
        { "nearest3d_odd_f32", false, true, DMLVK_TENSOR_DATA_TYPE_FLOAT32, 32, 66, 48, 99, 1, 4, 4 },
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct resample_case c = { .dims = 4 };
        const uint32_t small[4] = { 8, rows[i].depth, rows[i].size, rows[i].size };
        const uint32_t big[4] = { 8, rows[i].big_depth, rows[i].big_size, rows[i].big_size };
        dmlvk_resample_fields rf;
        assert_int_equal(dmlvk_resample_fields_from_convention(rows[i].nearest ? DMLVK_RESAMPLE_CONVENTION_PYTORCH_NEAREST
                                                                               : DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_LINEAR,
                                                               4, small, big, NULL, &rf),
                         DMLVK_OK);
        c.mode = rf.InterpolationMode;
        c.rounding = rf.RoundingDirection;
        for (uint32_t d = 0; d < 4; d++) {
            c.small[d] = small[d];
            c.big[d] = big[d];
            c.scales[d] = rf.Scales[d];
            c.in_off[d] = rf.InputPixelOffsets[d];
            c.out_off[d] = rf.OutputPixelOffsets[d];
        }
        uint32_t depth_block = 0, by = 0, bx = 0;
        if (!volume_plan(&c, rows[i].backward, rows[i].type, &depth_block, &by, &bx) || depth_block != rows[i].depth_block ||
            by != rows[i].block_y || bx != rows[i].block_x)
            fail_msg("%s: %u planes per block in %ux%u blocks, where %u in %ux%u were measured", rows[i].row, depth_block,
                     by, bx, rows[i].depth_block, rows[i].block_y, rows[i].block_x);
    }

    static const float depth_scales[] = { 2, 1.5f, 0.6f };
    static const float plane_scales[] = { 2, 1.5f, 0.5f };
    int pairs = 0;
    const int n = 2 * 3 * 3;
    for (int k = 0; k < n; k++) {
        const bool backward = k % 2;
        const dmlvk_tensor_data_type type = types[(k / 2) % 3];
        const bool half_pixel = (k / 3) % 2 == 0;
        struct resample_case c = { .dims = 4, .mode = (dmlvk_interpolation_mode)((k / 7) % 2 == 0),
                                   .rounding = (dmlvk_axis_direction)((k / 11) % 2) };
        c.small[0] = c.big[0] = 1 + (uint32_t)(k % 5 == 0);
        c.scales[0] = 1;
        for (uint32_t d = 1; d < 4; d++) {
            const float scale = d == 1 ? depth_scales[(k / 6) % 3] : plane_scales[(k / 3 + d) % 3];
            c.small[d] = d == 1 ? 3 + (uint32_t)(splitmix64_next(&rng_state) % 6) : 4 + (uint32_t)(splitmix64_next(&rng_state) % 5);
            c.big[d] = (uint32_t)fmax(1, floor(c.small[d] * scale + (d == 1 ? uniform(-1, 1) : 0)));
            c.big[d] += c.big[d] == c.small[d]; /* an axis of one size might take no scale */
            c.scales[d] = half_pixel ? (float)c.big[d] / (float)c.small[d] : scale;
            c.in_off[d] = half_pixel ? 0.5f : (float)uniform(-1, 1);
            c.out_off[d] = half_pixel ? -0.5f : (float)uniform(-1, 1);
        }
        uint32_t depth_block = 0, by, bx;
        char what[128];
        snprintf(what, sizeof(what), "case %d, depth %u -> %u, %s", k, c.small[1], c.big[1],
                 c.mode == DMLVK_INTERPOLATION_MODE_LINEAR ? "linear" : "nearest");
        if (!volume_plan(&c, backward, type, &depth_block, &by, &bx))
            fail_msg("%s: no volume gather", what);
        pairs += depth_block == 2;
        check_packed(&c, backward, type, NULL, (k / 5) % 2 ? INF_RANDOM : INF_NONE, what);
    }
    if (pairs < n / 6 || n - pairs < n / 6)
        fail_msg("%d of %d cases in pairs of planes: too few of either kind to test both", pairs, n);
}

/* A 4-dimensional case with axes 2 and 3 resampled from small x small to big x big, half-pixel
 * (PyTorch's align_corners=False), or with random offsets. */
static struct resample_case square_case(uint32_t n, uint32_t c, const uint32_t small[2], const uint32_t big[2],
                                        bool half_pixel)
{
    struct resample_case r = { .dims = 4, .mode = DMLVK_INTERPOLATION_MODE_LINEAR };
    const uint32_t outer[2] = { n, c };
    for (int d = 0; d < 4; d++) {
        r.small[d] = d < 2 ? outer[d] : small[d - 2];
        r.big[d] = d < 2 ? outer[d] : big[d - 2];
        r.scales[d] = (float)r.big[d] / (float)r.small[d];
        r.in_off[d] = d < 2 || half_pixel ? 0.5f : (float)uniform(-1, 1);
        r.out_off[d] = d < 2 || half_pixel ? -0.5f : (float)uniform(-1, 1);
    }
    return r;
}

/*
 * The block shapes of BENCHMARKS.md notes 156, 158, 159, 174, 185 and 188 (lib/resample.c): float32
 * LINEAR backward gathers of downscales in 4x2 blocks, and onto planes of few whole block rows in
 * 4x4, float16 ones of downscales onto odd rows of at most 23 columns in 4x1 where subgroups cannot
 * shuffle (not bfloat16, not where either axis is upscaled; elsewhere 4x2, whose odd rows store
 * words through the subgroup, note 188), 16-bit LINEAR gathers on narrow planes of one or two block
 * rows in 2x4 or 4x4 and upsampling onto at most 16 rows without 8x4 (choose_block_shape);
 * 16-bit gathers whose read rows are 2 mod 4 elements long loading 2-element vectors where
 * 4-element chunks would load each element alone (try_block_shape), and 16-bit block rows at a
 * phase whose pairs leave as words (place_windows). First pinned on the rows that measured them;
 * then the float64 reference on small problems that take them, random offsets in half, Inf in
 * half.
 */
static void test_shape_rules(void **state)
{
    (void)state;
    const dmlvk_tensor_data_type f32 = DMLVK_TENSOR_DATA_TYPE_FLOAT32;
    static const struct {
        const char *row;
        dmlvk_tensor_data_type type;
        uint32_t size, big; /* dmlvk-bench's N x C x size x size -> N x C x big x big, backward */
        uint32_t spec, due;
        uint32_t n, c;      /* 0: 8 x 64 */
        bool forward;       /* the forward pass instead */
        uint32_t width, big_width; /* 0: size and big */
    } rows[] = {
        { "bilinear_grad_down0.7x_f32", DMLVK_TENSOR_DATA_TYPE_FLOAT32, 130, 91, RESAMPLE_SPEC_BLOCK_Y, 4 },
        { "bilinear_grad_down0.7x_f32", DMLVK_TENSOR_DATA_TYPE_FLOAT32, 130, 91, RESAMPLE_SPEC_BLOCK_X, 2 },
        { "0.8x float32 (note 156)", DMLVK_TENSOR_DATA_TYPE_FLOAT32, 110, 88, RESAMPLE_SPEC_BLOCK_Y, 4 },
        { "bilinear_grad_1.3x_bf16", DMLVK_TENSOR_DATA_TYPE_BFLOAT16, 100, 130, RESAMPLE_SPEC_VECTOR_LOADS, 1 },
        { "1.3x float16 (note 156)", DMLVK_TENSOR_DATA_TYPE_FLOAT16, 100, 130, RESAMPLE_SPEC_VECTOR_LOADS, 1 },
        { "1.25x bfloat16 (note 156)", DMLVK_TENSOR_DATA_TYPE_BFLOAT16, 104, 130, RESAMPLE_SPEC_CHUNK, 2 },
        /* float32 2x backward onto planes of few whole block rows in 4x4 (note 158), else 2x4 */
        { "bilinear_grad_batch256_8x8_f32", DMLVK_TENSOR_DATA_TYPE_FLOAT32, 8, 16, RESAMPLE_SPEC_BLOCK_Y, 4, 256, 64 },
        { "bilinear_grad_batch256_8x8_f32", DMLVK_TENSOR_DATA_TYPE_FLOAT32, 8, 16, RESAMPLE_SPEC_BLOCK_X, 4, 256, 64 },
        { "64x64 float32 (note 158)", DMLVK_TENSOR_DATA_TYPE_FLOAT32, 64, 128, RESAMPLE_SPEC_BLOCK_Y, 4 },
        { "1024 4x4 maps float32 (note 158)", DMLVK_TENSOR_DATA_TYPE_FLOAT32, 4, 8, RESAMPLE_SPEC_BLOCK_Y, 2, 1024, 64 },
        { "128x128 float32 (note 158)", DMLVK_TENSOR_DATA_TYPE_FLOAT32, 128, 256, RESAMPLE_SPEC_BLOCK_Y, 2 },
        { "bilinear_grad_small_f32", DMLVK_TENSOR_DATA_TYPE_FLOAT32, 32, 64, RESAMPLE_SPEC_BLOCK_Y, 2, 1, 32 },
        /* 16-bit 2x onto planes of one or two block rows of 4 (note 159); bfloat16 4x4 where it
         * stores vectors but on narrow planes (12x12 keeps 2x4; note 192) */
        { "bilinear_grad_batch1024_4x4_f16", DMLVK_TENSOR_DATA_TYPE_FLOAT16, 4, 8, RESAMPLE_SPEC_BLOCK_Y, 2, 1024, 64 },
        { "bilinear_grad_batch256_8x8_bf16", DMLVK_TENSOR_DATA_TYPE_BFLOAT16, 8, 16, RESAMPLE_SPEC_BLOCK_Y, 4, 256, 64 },
        { "bilinear_grad_batch256_8x8_bf16", DMLVK_TENSOR_DATA_TYPE_BFLOAT16, 8, 16, RESAMPLE_SPEC_BLOCK_X, 4, 256, 64 },
        { "bilinear_grad_batch256_8x8_f16", DMLVK_TENSOR_DATA_TYPE_FLOAT16, 8, 16, RESAMPLE_SPEC_BLOCK_Y, 4, 256, 64 },
        { "12x12 bfloat16 (note 159)", DMLVK_TENSOR_DATA_TYPE_BFLOAT16, 12, 24, RESAMPLE_SPEC_BLOCK_Y, 2, 128, 64 },
        { "bilinear_batch1024_4x4_f16", DMLVK_TENSOR_DATA_TYPE_FLOAT16, 4, 8, RESAMPLE_SPEC_BLOCK_Y, 2, 1024, 64, true },
        { "bilinear_batch1024_4x4_f16", DMLVK_TENSOR_DATA_TYPE_FLOAT16, 4, 8, RESAMPLE_SPEC_BLOCK_X, 4, 1024, 64, true },
        { "bilinear_batch256_8x8_f16", DMLVK_TENSOR_DATA_TYPE_FLOAT16, 8, 16, RESAMPLE_SPEC_BLOCK_Y, 4, 256, 64, true },
        { "16x16 float16 (note 159)", DMLVK_TENSOR_DATA_TYPE_FLOAT16, 16, 32, RESAMPLE_SPEC_BLOCK_Y, 8, 64, 64, true },
        { "2x64 -> 4x128 float16 (note 159)", DMLVK_TENSOR_DATA_TYPE_FLOAT16, 2, 4, RESAMPLE_SPEC_BLOCK_Y, 4, 64, 256, true, 64, 128 },
        { "8x100 bfloat16 (note 192)", DMLVK_TENSOR_DATA_TYPE_BFLOAT16, 8, 16, RESAMPLE_SPEC_BLOCK_Y, 4, 32, 256, false, 100, 200 },
        { "24x24 bfloat16 (note 192)", DMLVK_TENSOR_DATA_TYPE_BFLOAT16, 24, 48, RESAMPLE_SPEC_BLOCK_Y, 4, 32, 64 },
        /* 16-bit block rows at a phase whose pairs leave as words (note 174); float32's as before */
        { "rnd042 bfloat16 (note 174)", DMLVK_TENSOR_DATA_TYPE_BFLOAT16, 49, 22, RESAMPLE_SPEC_X_PHASE, 0, 0, 0, false, 10, 4 },
        { "bilinear_grad_3x_f16", DMLVK_TENSOR_DATA_TYPE_FLOAT16, 128, 384, RESAMPLE_SPEC_X_PHASE, 2 },
        { "bilinear_grad_2x3x_bf16", DMLVK_TENSOR_DATA_TYPE_BFLOAT16, 64, 128, RESAMPLE_SPEC_X_PHASE, 2, 0, 0, false, 64, 192 },
        { "bilinear_grad_2x3x_f32", DMLVK_TENSOR_DATA_TYPE_FLOAT32, 64, 128, RESAMPLE_SPEC_X_PHASE, 1, 0, 0, false, 64, 192 },
        /* float16 backward of downscales onto odd rows of at most 23 columns in 4x2 with odd-row
         * words' build (note 188; 4x1 without shuffles, below) */
        { "rnd059 float16 (notes 185, 188)", DMLVK_TENSOR_DATA_TYPE_FLOAT16, 256, 91,
          RESAMPLE_SPEC_BLOCK_X, 2, 2, 4, false, 23, 7 },
        { "rnd059 float16 (notes 185, 188)", DMLVK_TENSOR_DATA_TYPE_FLOAT16, 256, 91,
          RESAMPLE_SPEC_ODD_ROW_WORDS, 1, 2, 4, false, 23, 7 },
        { "rnd059 bfloat16 (note 185)", DMLVK_TENSOR_DATA_TYPE_BFLOAT16, 256, 91,
          RESAMPLE_SPEC_BLOCK_X, 2, 2, 4, false, 23, 7 },
        { "41 columns float16 (note 185)", DMLVK_TENSOR_DATA_TYPE_FLOAT16, 470, 152,
          RESAMPLE_SPEC_BLOCK_X, 2, 2, 4, false, 41, 13 },
        { "10 columns float16 (note 185)", DMLVK_TENSOR_DATA_TYPE_FLOAT16, 512, 279,
          RESAMPLE_SPEC_BLOCK_X, 2, 2, 4, false, 10, 5 },
        { "upscaled columns float16 (note 185)", DMLVK_TENSOR_DATA_TYPE_FLOAT16, 332, 609,
          RESAMPLE_SPEC_BLOCK_X, 2, 2, 4, false, 19, 35 },
        { "upscaled rows float16 (note 185)", DMLVK_TENSOR_DATA_TYPE_FLOAT16, 512, 1272,
          RESAMPLE_SPEC_BLOCK_X, 2, 2, 4, false, 21, 11 },
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const uint32_t small[2] = { rows[i].size, rows[i].width ? rows[i].width : rows[i].size },
                       big[2] = { rows[i].big, rows[i].big_width ? rows[i].big_width : rows[i].big };
        struct resample_case c = square_case(rows[i].n ? rows[i].n : 8, rows[i].c ? rows[i].c : 64, small, big, true);
        expect_spec(&c, !rows[i].forward, rows[i].type, rows[i].spec, "the measured constant", rows[i].due, rows[i].row);
    }
    {
        const uint32_t small[2] = { 256, 23 }, big[2] = { 91, 7 };
        const struct resample_case c = square_case(2, 4, small, big, true);
        uint32_t block_rows;
        if (plan_spec_with(&c, true, DMLVK_TENSOR_DATA_TYPE_FLOAT16, RESAMPLE_SPEC_BLOCK_X, &no_subgroup_shuffle,
                           &block_rows, "rnd059") != 1 || !block_rows)
            fail_msg("rnd059 float16 without shuffles: not in 4x1 blocks (note 185)");
    }

    for (int k = 0; k < 34; k++) {
        if (k >= 30) {
            /* float16 LINEAR backward of 0.3x to 0.7x downscales onto odd rows of 11 to 23 columns in
             * 4x2 blocks with odd-row words, in 4x1 without shuffles, against the reference */
            const dmlvk_tensor_data_type f16 = DMLVK_TENSOR_DATA_TYPE_FLOAT16;
            const uint32_t small[2] = { 20 + (uint32_t)(splitmix64_next(&rng_state) % 60),
                                        11 + 2 * (uint32_t)(splitmix64_next(&rng_state) % 7) };
            const double scale = uniform(0.3, 0.7);
            const uint32_t big[2] = { (uint32_t)round(small[0] * scale), (uint32_t)fmax(2, round(small[1] * scale)) };
            struct resample_case c = square_case(1 + (uint32_t)(k % 2), 3, small, big, k % 2 == 0);
            char what[128];
            snprintf(what, sizeof(what), "case %d, %ux%u <- %ux%u, float16", k, small[0], small[1], big[0], big[1]);
            expect_spec(&c, true, f16, RESAMPLE_SPEC_BLOCK_Y, "BLOCK_Y", 4, what);
            expect_spec(&c, true, f16, RESAMPLE_SPEC_BLOCK_X, "BLOCK_X", 2, what);
            expect_spec(&c, true, f16, RESAMPLE_SPEC_ODD_ROW_WORDS, "ODD_ROW_WORDS", 1, what);
            uint32_t block_rows;
            if (plan_spec_with(&c, true, f16, RESAMPLE_SPEC_BLOCK_X, &no_subgroup_shuffle, &block_rows, what) != 1 ||
                !block_rows)
                fail_msg("%s: not in 4x1 blocks without shuffles", what);
            check_packed(&c, true, f16, NULL, k % 4 >= 2 ? INF_RANDOM : INF_NONE, what);
            check_packed(&c, true, f16, &no_subgroup_shuffle, k % 4 >= 2 ? INF_NONE : INF_RANDOM, what);
            continue;
        }
        if (k >= 24) {
            /* 16-bit LINEAR backward gathers onto rows of 10 or 14 elements from rows of 4 or 6,
             * where the narrowest windows sit at odd phases: blocks of 2 columns at an even one */
            const dmlvk_tensor_data_type type = types[1 + k % 2];
            const uint32_t height = 30 + (uint32_t)(splitmix64_next(&rng_state) % 31), width = k % 4 < 2 ? 10 : 14;
            const uint32_t small[2] = { height, width };
            const uint32_t big[2] = { (uint32_t)round(height * 0.45), width == 10 ? 4 : 6 };
            struct resample_case c = square_case(1 + (uint32_t)(k % 2), 3, small, big, k < 27);
            char what[128];
            snprintf(what, sizeof(what), "case %d, %ux%u -> %ux%u, type %d", k, small[0], small[1], big[0], big[1],
                     (int)type);
            uint32_t window_rows;
            if (plan_spec(&c, true, type, RESAMPLE_SPEC_BLOCK_X, &window_rows, what) != 2 ||
                plan_spec(&c, true, type, RESAMPLE_SPEC_X_PHASE, &window_rows, what) % 2 != 0 || !window_rows)
                fail_msg("%s: not a block gather of 2 columns at an even phase", what);
            check_packed(&c, true, type, NULL, k % 2 ? INF_RANDOM : INF_NONE, what);
            continue;
        }
        if (k >= 16) {
            /* 16-bit LINEAR upscales (rows by 1.5 to 2, columns by 2) onto planes of one or two
             * block rows of 4 and at most 16 columns, rows that store as vectors: backward onto 4
             * rows in 2x4 blocks, bfloat16 onto 8 in 4x4; forward onto 6 to 8 rows in 2x4, onto 9
             * to 16 in 4x4 */
            static const struct {
                bool backward;
                uint32_t type, rows, block_y; /* types[type]; rows: the smaller plane's */
            } small_planes[] = {
                { true, 1, 4, 2 }, { true, 2, 4, 2 }, { true, 2, 8, 4 }, { true, 2, 8, 4 },
                { false, 1, 4, 2 }, { false, 2, 4, 2 }, { false, 1, 7, 4 }, { false, 2, 8, 4 },
            };
            _Static_assert(sizeof(small_planes) / sizeof(small_planes[0]) == 8, "cases 16 to 23");
            const bool backward = small_planes[k - 16].backward;
            const dmlvk_tensor_data_type type = types[small_planes[k - 16].type];
            const uint32_t width = 4 * (1 + (uint32_t)(splitmix64_next(&rng_state) % (backward ? 4 : 2)));
            const double scale = uniform(1.5, 2);
            const uint32_t rows_in = small_planes[k - 16].rows, block_y = small_planes[k - 16].block_y;
            const uint32_t small[2] = { rows_in, width }, big[2] = { (uint32_t)round(rows_in * scale), 2 * width };
            struct resample_case c = square_case(1 + (uint32_t)(k % 2), 3, small, big, k % 2 == 0);
            char what[128];
            snprintf(what, sizeof(what), "case %d, %ux%u -> %ux%u, %s, type %d", k, small[0], small[1], big[0], big[1],
                     backward ? "backward" : "forward", (int)type);
            expect_spec(&c, backward, type, RESAMPLE_SPEC_BLOCK_Y, "BLOCK_Y", block_y, what);
            expect_spec(&c, backward, type, RESAMPLE_SPEC_BLOCK_X, "BLOCK_X", 4, what);
            check_packed(&c, backward, type, NULL, k % 4 >= 2 ? INF_RANDOM : INF_NONE, what);
            continue;
        }
        if (k >= 12 && k < 16) {
            /* float32 upscales by 1.5 to 2.5 onto 8 to 16 rows of 4 to 16 columns in 4x4 blocks,
             * planes enough for SQUARE_LEAST_BLOCKS (65536) of them */
            const uint32_t small[2] = { 8 + 4 * (uint32_t)(k % 3), 4 + 4 * (uint32_t)(splitmix64_next(&rng_state) % 4) };
            const double scale = uniform(1.5, 2.5);
            const uint32_t big[2] = { (uint32_t)round(small[0] * scale), (uint32_t)round(small[1] * scale) };
            const uint32_t planes = 65536 / (small[0] / 4 * (small[1] / 4));
            struct resample_case c = square_case((planes + 15) / 16, 16, small, big, k % 2 == 0);
            char what[128];
            snprintf(what, sizeof(what), "case %d, %ux%u -> %ux%u, float32", k, small[0], small[1], big[0], big[1]);
            expect_spec(&c, true, f32, RESAMPLE_SPEC_BLOCK_Y, "BLOCK_Y", 4, what);
            expect_spec(&c, true, f32, RESAMPLE_SPEC_BLOCK_X, "BLOCK_X", 4, what);
            check_packed(&c, true, f32, NULL, k % 2 ? INF_RANDOM : INF_NONE, what);
            continue;
        }
        const dmlvk_tensor_data_type type = types[k % 3];
        const bool half_pixel = (k / 3) % 2 == 0;
        /* float32: a downscale by 0.55 to 0.85 onto rows of 2 mod 4 elements; 16-bit: an upscale by
         * 1.2 to 1.6 from rows of 2 mod 4 elements */
        const uint32_t width = 14 + 4 * (uint32_t)(splitmix64_next(&rng_state) % 5), height = 5 + (uint32_t)(k % 7);
        const double scale = type == f32 ? uniform(0.55, 0.85) : uniform(1.2, 1.6);
        uint32_t small[2] = { height, width }, big[2];
        for (int a = 0; a < 2; a++)
            big[a] = (uint32_t)fmax(2, round(small[a] * scale));
        if (type != f32) /* the read tensor's rows (dY) 2 mod 4 elements long */
            big[1] += (6 - big[1] % 4) % 4;
        struct resample_case c = square_case(1 + (uint32_t)(k % 2), 3, small, big, half_pixel);
        char what[128];
        snprintf(what, sizeof(what), "case %d, %ux%u -> %ux%u, type %d", k, small[0], small[1], big[0], big[1], k % 3);
        if (type == f32) {
            expect_spec(&c, true, type, RESAMPLE_SPEC_BLOCK_Y, "BLOCK_Y", 4, what);
            expect_spec(&c, true, type, RESAMPLE_SPEC_BLOCK_X, "BLOCK_X", 2, what);
        } else {
            expect_spec(&c, true, type, RESAMPLE_SPEC_VECTOR_LOADS, "VECTOR_LOADS", 1, what);
            expect_spec(&c, true, type, RESAMPLE_SPEC_CHUNK, "CHUNK", 2, what);
        }
        check_packed(&c, true, type, NULL, (k / 6) % 2 ? INF_RANDOM : INF_NONE, what);
    }
}

/*
 * Channels per invocation of the channels-last block gathers (choose_channel_shape, BENCHMARKS.md
 * note 174): 16 bytes where the written tensor's channel groups store as vectors, else 8 (float32
 * 2, 16-bit 4, which store as vectors where the channels make whole groups of 4), but for few
 * channels (CHANNEL_FEW_LANES); groups that move as no vector move as pairs of channels where the
 * channels are even and the pixels an even count of elements apart (RESAMPLE_SPEC_PAIRS: loads, bit
 * 0, of the read tensor, packed here; stores, bit 1, of the written one, padded here or not).
 * Pinned on 2 x C x 12 x 16 <-> 2 x C x 24 x 32, bilinear, both directions, the written tensor's
 * pixels `pad` elements apart beyond their channels; test_channel_blocks runs such channel counts
 * against the float64 reference.
 */
static void test_channel_lanes(void **state)
{
    (void)state;
    const dmlvk_tensor_data_type f32 = DMLVK_TENSOR_DATA_TYPE_FLOAT32, f16 = DMLVK_TENSOR_DATA_TYPE_FLOAT16,
                                 bf16 = DMLVK_TENSOR_DATA_TYPE_BFLOAT16;
    static const struct {
        dmlvk_tensor_data_type type;
        uint32_t channels, pad, lanes, vector_stores, pairs;
    } cases[] = {
        { f32, 64, 0, 4, 1, 0 }, { f32, 49, 0, 2, 0, 0 }, { f32, 45, 0, 2, 0, 0 }, { f32, 64, 1, 2, 0, 1 },
        { f16, 64, 0, 8, 1, 0 }, { f16, 235, 0, 4, 0, 0 }, { bf16, 140, 0, 4, 1, 0 }, { f16, 36, 0, 4, 1, 0 },
        { bf16, 64, 4, 4, 1, 0 }, { bf16, 19, 0, 4, 0, 0 }, { f16, 38, 0, 4, 0, 3 }, { f32, 38, 0, 2, 0, 3 },
        { bf16, 470, 0, 4, 0, 3 }, { f16, 6, 4, 4, 0, 3 }, { bf16, 38, 1, 4, 0, 1 },
    };
    static const uint32_t order[4] = { 0, 2, 3, 1 };
    for (int k = 0; k < (int)(2 * sizeof(cases) / sizeof(cases[0])); k++) {
        const bool backward = k % 2;
        const uint32_t small[4] = { 2, cases[k / 2].channels, 12, 16 };
        struct resample_case c = half_pixel_case(small, 2, DMLVK_INTERPOLATION_MODE_LINEAR);
        const uint32_t *sizes[2] = { backward ? c.big : c.small, backward ? c.small : c.big };
        uint32_t strides[2][4], span[2];
        for (int t = 0; t < 2; t++)
            span[t] = layout_strides(4, sizes[t], order, t == 1 ? cases[k / 2].pad : 0, strides[t]);
        dmlvk_operator *op = case_op_create(&c, backward, cases[k / 2].type, strides, span);
        enum dmlvk_shader shader;
        uint32_t lanes, vector_stores, pairs;
        assert_int_equal(dmlvk_debug_operator_shader(op, 0, &shader), DMLVK_OK);
        assert_int_equal(dmlvk_debug_operator_spec(op, 0, RESAMPLE_SPEC_LANES, &lanes), DMLVK_OK);
        assert_int_equal(dmlvk_debug_operator_spec(op, 0, RESAMPLE_SPEC_VECTOR_STORES, &vector_stores), DMLVK_OK);
        assert_int_equal(dmlvk_debug_operator_spec(op, 0, RESAMPLE_SPEC_PAIRS, &pairs), DMLVK_OK);
        dmlvk_operator_destroy(op);
        if (shader != DMLVK_SHADER_RESAMPLE_CHANNEL_BLOCKS || lanes != cases[k / 2].lanes ||
            vector_stores != cases[k / 2].vector_stores || pairs != cases[k / 2].pairs)
            fail_msg("case %d (%u channels, type %d, %s): shader %d, %u lanes, vector stores %u, pairs %u, where %u, "
                     "%u and %u were due",
                     k, cases[k / 2].channels, (int)cases[k / 2].type, backward ? "backward" : "forward", (int)shader,
                     lanes, vector_stores, pairs, cases[k / 2].lanes, cases[k / 2].vector_stores, cases[k / 2].pairs);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adjoint),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_conventions),
        cmocka_unit_test(test_convention_errors),
        cmocka_unit_test(test_block_gather),
        cmocka_unit_test(test_block_gather_inf),
        cmocka_unit_test(test_small_sizes),
        cmocka_unit_test(test_float16_rounding),
        cmocka_unit_test(test_bfloat16_rounding),
        cmocka_unit_test(test_layouts),
        cmocka_unit_test(test_channel_blocks),
        cmocka_unit_test(test_shuffled_stores),
        cmocka_unit_test(test_tall_windows),
        cmocka_unit_test(test_block_shapes),
        cmocka_unit_test(test_aligned_forms),
        cmocka_unit_test(test_word_loads),
        cmocka_unit_test(test_odd_row_words),
        cmocka_unit_test(test_nearest_pairs),
        cmocka_unit_test(test_weight_classes),
        cmocka_unit_test(test_exact_sums),
        cmocka_unit_test(test_axis_orders),
        cmocka_unit_test(test_folded_views),
        cmocka_unit_test(test_volumes),
        cmocka_unit_test(test_shape_rules),
        cmocka_unit_test(test_channel_lanes),
    };
    return test_run_group(tests, setup, teardown);
}
