/*
 * The resample planner: validation, and the per-axis coordinate tables the shaders read.
 *
 * Every decision of the coordinate map x = (o - OutputPixelOffset) / Scale - InputPixelOffset
 * (which input index a larger-side index o reaches, and with what weight) is made here, on the
 * host, once per axis position. Vulkan lets a shader's division be off by 2.5 ulp, which would
 * move ties (x exactly k + 0.5 for RESAMPLE1's nearest, exactly k for floor and ceil) to the
 * wrong side; here the sign of x - t is decided exactly (see sign_x_minus) and the shaders only
 * look the answers up. The tables also give each backward index the contiguous range of
 * larger-side indices that reach it, so the backward pass is a gather that walks exactly that
 * range: no atomics, every element written once, a fixed summation order.
 */
#include <math.h>
#include <string.h>

#include "resample.h"

#define AXES 4
/* The tables are part of the parameter block (host memory at creation, device memory after);
 * beyond this many words (256 MiB), refuse. */
#define MAX_TABLE_WORDS (UINT32_C(1) << 26)

struct axis {
    double scale, in_off, out_off;
    int64_t big, small;         /* sizes of the larger ("output") and the smaller side */
};

/*
 * The sign of x(o) - t. Scale > 0, so it is the sign of (o - OutOff) - (t + InOff) * Scale.
 * Both brackets are exact in double for the sizes and float32 offsets dmlvk accepts in practice
 * (indices below 2^24, offsets of moderate exponent), and fma rounds the whole once, which keeps
 * the sign.
 */
static int sign_x_minus(const struct axis *ax, int64_t o, double t)
{
    double a = (double)o - ax->out_off;
    double b = t + ax->in_off;
    double r = fma(-b, ax->scale, a);
    return (r > 0) - (r < 0);
}

static double approx_x(const struct axis *ax, int64_t o)
{
    return ((double)o - ax->out_off) / ax->scale - ax->in_off;
}

/* floor(x(o) - h), clamped into [lo - 1, hi + 1] so that huge coordinates stay small. */
static int64_t floor_x(const struct axis *ax, int64_t o, double h, int64_t lo, int64_t hi)
{
    double x = approx_x(ax, o) - h;
    int64_t k = x < (double)(lo - 1) ? lo - 1 : x > (double)(hi + 1) ? hi + 1 : (int64_t)floor(x);
    /* Largest k with x - h >= k, found from the estimate with exact comparisons. */
    while (k > lo - 1 && sign_x_minus(ax, o, (double)k + h) < 0)
        k--;
    while (k < hi + 1 && sign_x_minus(ax, o, (double)(k + 1) + h) >= 0)
        k++;
    return k;
}

static int64_t ceil_x(const struct axis *ax, int64_t o, double h, int64_t lo, int64_t hi)
{
    int64_t k = floor_x(ax, o, h, lo, hi);
    return k >= hi + 1 || sign_x_minus(ax, o, (double)k + h) == 0 ? k : k + 1;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Fills map[2*o] = input index, map[2*o+1] = weight of the next index (float bits). */
static void fill_map(const struct axis *ax, dmlvk_interpolation_mode mode, enum resample_rounding rounding,
                     uint32_t *map)
{
    int64_t last = ax->small - 1;
    for (int64_t o = 0; o < ax->big; o++) {
        int64_t k;
        float w = 0;
        if (mode == DMLVK_INTERPOLATION_MODE_LINEAR) {
            k = clamp64(floor_x(ax, o, 0, 0, last), 0, last);
            /* c = clamp(x, 0, S-1): the weight is x - k strictly inside, 0 at and past the edges. */
            if (k < last && sign_x_minus(ax, o, 0) > 0 && sign_x_minus(ax, o, (double)k) != 0) {
                w = (float)(approx_x(ax, o) - (double)k);
                if (w >= 1.0f) /* rounding at the top of the cell: the exact weight is below 1 */
                    w = nextafterf(1.0f, 0.0f);
                if (w < 0)
                    w = 0;
            }
        } else if (rounding == RESAMPLE_ROUND_HALF_DOWN) {
            k = clamp64(ceil_x(ax, o, 0.5, 0, last), 0, last);
        } else if (rounding == RESAMPLE_ROUND_FLOOR) {
            k = clamp64(floor_x(ax, o, 0, 0, last), 0, last);
        } else {
            k = clamp64(ceil_x(ax, o, 0, 0, last), 0, last);
        }
        map[2 * o] = (uint32_t)k;
        memcpy(&map[2 * o + 1], &w, 4);
    }
}

/*
 * For each smaller-side index i, the range [lo, hi] of larger-side indices with a tap on i of
 * non-zero weight. Along o, key = 2*index + (weight > 0) never decreases, and i is reached
 * exactly by the keys 2i-1 (the upper tap of the cell below) through 2i+1.
 */
static void fill_ranges(const struct axis *ax, const uint32_t *map, uint32_t *ranges)
{
    int64_t lo = 0, hi = 0;
    for (int64_t i = 0; i < ax->small; i++) {
        while (lo < ax->big) {
            float w;
            memcpy(&w, &map[2 * lo + 1], 4);
            int64_t key = 2 * (int64_t)map[2 * lo] + (w > 0);
            if (key >= 2 * i - 1)
                break;
            lo++;
        }
        if (hi < lo)
            hi = lo;
        while (hi < ax->big) {
            float w;
            memcpy(&w, &map[2 * hi + 1], 4);
            int64_t key = 2 * (int64_t)map[2 * hi] + (w > 0);
            if (key > 2 * i + 1)
                break;
            hi++;
        }
        /* [lo, hi) in the sweep; the table holds [lo, hi - 1], empty when hi == lo. */
        ranges[2 * i] = (uint32_t)lo;
        ranges[2 * i + 1] = (uint32_t)hi;
    }
}

/* An axis that maps o to o with weight 0 on the next index: the identity (a batch or channel axis). */
static bool identity_axis(const struct axis *ax, const uint32_t *map)
{
    if (ax->big != ax->small)
        return false;
    for (int64_t o = 0; o < ax->big; o++)
        if (map[2 * o] != (uint32_t)o || map[2 * o + 1] != 0)
            return false;
    return true;
}

/* Where, from the start of the header's offsets, each table's offset is kept (Params in
 * glsl/resample_common.glsl: map_offset[4], range_offset[4], block_table[2], block_magic[3]). */
#define MAP_OFFSET(d) (d)
#define RANGE_OFFSET(d) (AXES + (d))
#define BLOCK_TABLE(a) (2 * AXES + (a))
#define BLOCK_MAGIC(k) (2 * AXES + 2 + (k))
#define OFFSET_WORDS BLOCK_MAGIC(3)

/* div_by's multiplier in glsl/common.glsl: floor(2^32 / d) + 1, 0 for 1. */
static uint32_t division_magic(uint32_t d)
{
    return d <= 1 ? 0 : (uint32_t)((UINT64_C(1) << 32) / d + 1);
}

/* A table of the plan's parameter block, by its header entry. Pointers move when the block grows. */
static uint32_t *table(const struct dmlvk_op_plan *plan, uint32_t table_at, uint32_t offsets_at, uint32_t entry)
{
    return plan->params + table_at + plan->params[offsets_at + entry];
}

/*
 * The block gather of glsl/resample_backward.glsl (its limits: MAX_BLOCK_Y, MAX_BLOCK_X,
 * MAX_WINDOW). Each invocation writes block_y x block_x outputs of one plane and reads their
 * window once: `rows` rows of `chunks` chunks of 4 elements, each chunk one aligned load where
 * rows are packed and whole chunks.
 */
#define MAX_BLOCK_Y 4
#define MAX_BLOCK_X 4
#define MAX_WINDOW 16 /* columns */
#define CHUNK 4       /* columns per load */
#define MAX_ROWS 16

struct block_shape {
    uint32_t block_y, block_x, rows, chunks;
    uint32_t x_phase;   /* column blocks start this many outputs early (X_PHASE) */
    bool vector_loads, vector_stores;
};

/* Packed rows of whole n-element chunks, every row starting on a chunk. */
static bool rows_in_chunks(const struct dmlvk_tensor *t, uint32_t n)
{
    if (t->strides[t->dims - 1] != 1 || t->sizes[t->dims - 1] % n != 0)
        return false;
    for (uint32_t d = 0; d + 1 < t->dims; d++)
        if (t->strides[d] % n != 0)
            return false;
    return true;
}

/* Blocks of `block` smaller-side indices, the first starting `phase` indices before 0. */
static int64_t block_count(int64_t small, uint32_t block, uint32_t phase)
{
    return (small + phase + block - 1) / block;
}

/* The larger-side span [*lo, *hi) that block j reads. */
static void block_span(const uint32_t *ranges, int64_t small, uint32_t block, uint32_t phase, int64_t j, uint32_t align,
                       uint32_t *lo, uint32_t *hi)
{
    *lo = UINT32_MAX;
    *hi = 0;
    for (int64_t i = j * block - phase; i < small && i < (j + 1) * block - phase; i++) {
        if (i < 0)
            continue;
        if (ranges[2 * i] < ranges[2 * i + 1]) {
            *lo = ranges[2 * i] < *lo ? ranges[2 * i] : *lo;
            *hi = ranges[2 * i + 1] > *hi ? ranges[2 * i + 1] : *hi;
        }
    }
    if (*lo == UINT32_MAX)
        *lo = *hi = 0; /* nothing reaches the block: it writes zeros */
    *lo -= *lo % align;
}

/* The longest span of any block of the axis. */
static uint32_t block_window(const uint32_t *ranges, int64_t small, uint32_t block, uint32_t phase, uint32_t align)
{
    uint32_t most = 0;
    for (int64_t j = 0; j < block_count(small, block, phase); j++) {
        uint32_t lo, hi;
        block_span(ranges, small, block, phase, j, align, &lo, &hi);
        most = hi - lo > most ? hi - lo : most;
    }
    return most;
}

/*
 * One axis's block table (read by block_weight in the shader): first[blocks], then from the next
 * 4-word boundary of the parameter block the weights, entry t * block + m for window position t
 * and block member m, in groups of 4 stored group-major (neighbouring blocks' groups are
 * neighbouring 16-byte words). map_at and ranges_at index plan->params, which moves as it grows.
 * Returns where the table starts, UINT32_MAX when out of host memory.
 */
static uint32_t fill_block_table(struct dmlvk_op_plan *plan, uint32_t map_at, uint32_t ranges_at, int64_t small,
                                 uint32_t block, uint32_t phase, uint32_t window, uint32_t align)
{
    uint32_t blocks = (uint32_t)block_count(small, block, phase);
    uint32_t groups = (window * block + 3) / 4;
    uint32_t at = dmlvk_params_reserve(plan, blocks + 3 + 4 * groups * blocks);
    if (at == UINT32_MAX)
        return UINT32_MAX;
    const uint32_t *map = plan->params + map_at, *ranges = plan->params + ranges_at;
    uint32_t *first = plan->params + at;
    uint32_t *weights = plan->params + ((at + blocks + 3) & ~UINT32_C(3));
    for (uint32_t j = 0; j < blocks; j++) {
        uint32_t lo, hi;
        block_span(ranges, small, block, phase, j, align, &lo, &hi);
        first[j] = lo;
        for (uint32_t m = 0; m < block && (int64_t)j * block + m - phase < small; m++) {
            if ((int64_t)j * block + m < phase)
                continue;
            uint32_t i = j * block + m - phase;
            for (uint32_t o = ranges[2 * i]; o < ranges[2 * i + 1]; o++) {
                float w;
                memcpy(&w, &map[2 * o + 1], 4);
                float weight = map[2 * o] == i ? 1.0f - w : w; /* as the general loop's tap_weight */
                uint32_t entry = (o - lo) * block + m;
                memcpy(&weights[4 * ((entry / 4) * blocks + j) + entry % 4], &weight, 4);
            }
        }
    }
    return at;
}

/* The first block shape whose window fits, in an order measured on an H100 (BENCHMARKS.md notes
 * 14-16 and 26: 2x2 blocks fastest for LINEAR, 2x4 for float32 NEAREST_NEIGHBOR; float16 is bound
 * by instructions per block, and 4x4 NEAREST_NEIGHBOR blocks spread them over the most outputs). */
static bool choose_block_shape(const struct axis *axes, const uint32_t *ranges_y, const uint32_t *ranges_x,
                               bool linear, bool f16, bool aligned, struct block_shape *shape)
{
    static const uint32_t linear_order[][2] = { { 2, 2 }, { 2, 4 }, { 1, 4 }, { 1, 2 }, { 1, 1 } };
    static const uint32_t nearest_order[][2] = { { 2, 4 }, { 2, 2 }, { 1, 4 }, { 1, 2 }, { 1, 1 } };
    static const uint32_t nearest_f16_order[][2] = { { 4, 4 }, { 2, 4 }, { 2, 2 }, { 1, 4 }, { 1, 1 } };
    const uint32_t(*order)[2] = linear ? linear_order : f16 ? nearest_f16_order : nearest_order;
    for (size_t k = 0; k < DMLVK_ARRAY_SIZE(linear_order); k++) {
        uint32_t by = order[k][0], bx = order[k][1];
        if ((by > 1 && axes[2].small < by) || (bx > 1 && axes[3].small < bx))
            continue;
        uint32_t rows = block_window(ranges_y, axes[2].small, by, 0, 1), chunks = UINT32_MAX, phase = 0;
        for (uint32_t p = 0; p < bx; p++) { /* the phase that needs the fewest chunks, 0 on ties */
            uint32_t c = (block_window(ranges_x, axes[3].small, bx, p, aligned ? CHUNK : 1) + CHUNK - 1) / CHUNK;
            if (c < chunks) {
                chunks = c;
                phase = p;
            }
        }
        if (rows <= MAX_ROWS && chunks * CHUNK <= MAX_WINDOW) {
            *shape = (struct block_shape){ .block_y = by, .block_x = bx, .rows = rows ? rows : 1,
                                           .chunks = chunks ? chunks : 1, .x_phase = phase };
            return true;
        }
    }
    return false;
}

/* Plans the block gather where axes 0 and 1 are identities and some block shape fits; otherwise
 * shape->rows stays 0 and the general loops run. */
static dmlvk_status plan_block_gather(struct dmlvk_op_plan *plan, const struct axis *axes, bool linear,
                                      uint32_t table_at, uint32_t offsets_at, const struct dmlvk_tensor *in,
                                      const struct dmlvk_tensor *out, struct block_shape *shape)
{
    *shape = (struct block_shape){ 0 };
    for (uint32_t d = 0; d < 2; d++)
        if (!identity_axis(&axes[d], table(plan, table_at, offsets_at, MAP_OFFSET(d))))
            return DMLVK_OK;
    bool vector_loads = rows_in_chunks(in, CHUNK);
    if (!choose_block_shape(axes, table(plan, table_at, offsets_at, RANGE_OFFSET(2)),
                            table(plan, table_at, offsets_at, RANGE_OFFSET(3)), linear,
                            in->type == DMLVK_TENSOR_DATA_TYPE_FLOAT16, vector_loads, shape))
        return DMLVK_OK;
    uint64_t blocks = (uint64_t)axes[0].small * axes[1].small * block_count(axes[2].small, shape->block_y, 0) *
                      block_count(axes[3].small, shape->block_x, shape->x_phase);
    if (blocks >= UINT64_C(1) << 31) { /* div_by's range */
        *shape = (struct block_shape){ 0 };
        return DMLVK_OK;
    }
    shape->vector_loads = vector_loads;
    /* one store4 per block row */
    shape->vector_stores = shape->block_x == 4 && shape->x_phase == 0 && rows_in_chunks(out, 4);
    for (uint32_t a = 0; a < 2; a++) {
        uint32_t block = a == 0 ? shape->block_y : shape->block_x;
        uint32_t window = a == 0 ? shape->rows : CHUNK * shape->chunks;
        uint32_t at = fill_block_table(plan, table_at + plan->params[offsets_at + MAP_OFFSET(2 + a)],
                                       table_at + plan->params[offsets_at + RANGE_OFFSET(2 + a)], axes[2 + a].small,
                                       block, a == 1 ? shape->x_phase : 0, window, a == 1 && vector_loads ? CHUNK : 1);
        if (at == UINT32_MAX)
            return DMLVK_ERROR_OUT_OF_MEMORY;
        plan->params[offsets_at + BLOCK_TABLE(a)] = at;
    }
    const uint32_t divisors[3] = { (uint32_t)block_count(axes[3].small, shape->block_x, shape->x_phase),
                                   (uint32_t)block_count(axes[2].small, shape->block_y, 0), (uint32_t)axes[1].small };
    for (uint32_t k = 0; k < 3; k++)
        plan->params[offsets_at + BLOCK_MAGIC(k)] = division_magic(divisors[k]);
    return DMLVK_OK;
}

static dmlvk_status check_array(const char *op, const char *name, const float *v, uint32_t n, bool scale)
{
    if (!v)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s: missing (DimensionCount is %u)", op, name, n);
    for (uint32_t d = 0; d < n; d++) {
        if (!isfinite(v[d]))
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s[%u]: %g is not finite", op, name, d, v[d]);
        if (scale && !(v[d] > 0))
            return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s[%u]: %g is not greater than 0", op, name, d, v[d]);
    }
    return DMLVK_OK;
}

dmlvk_status dmlvk_plan_resample(const struct dmlvk_op_context *ctx, const struct resample_fields *f,
                                 const char *shader, struct dmlvk_op_plan *plan)
{
    const char *op = f->op;
    struct dmlvk_tensor in, out;
    dmlvk_status st;
    if ((st = dmlvk_check_tensor(op, f->input_name, f->input, DMLVK_FLOAT_TYPES, f->min_dims, AXES, false, &in)) ||
        (st = dmlvk_check_tensor(op, f->output_name, f->output, DMLVK_FLOAT_TYPES, f->min_dims, AXES, true, &out)) ||
        (st = dmlvk_check_same(op, f->input_name, &in, f->output_name, &out, false)))
        return st;
    if (in.dims != out.dims)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: %s.DimensionCount: %u does not match %s's %u", op,
                           f->output_name, out.dims, f->input_name, in.dims);
    if (f->dimension_count != in.dims)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: DimensionCount: %u does not match the tensors' %u", op,
                           f->dimension_count, in.dims);
    if (f->mode != DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR && f->mode != DMLVK_INTERPOLATION_MODE_LINEAR)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: InterpolationMode: %d is neither NEAREST_NEIGHBOR nor LINEAR",
                           op, (int)f->mode);
    if (f->has_rounding && f->rounding != DMLVK_AXIS_DIRECTION_INCREASING &&
        f->rounding != DMLVK_AXIS_DIRECTION_DECREASING)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "%s: RoundingDirection: %d is neither INCREASING nor DECREASING",
                           op, (int)f->rounding);
    if ((st = check_array(op, "Scales", f->scales, f->dimension_count, true)) ||
        (st = check_array(op, "InputPixelOffsets", f->input_pixel_offsets, f->dimension_count, false)) ||
        (st = check_array(op, "OutputPixelOffsets", f->output_pixel_offsets, f->dimension_count, false)))
        return st;
    enum resample_rounding rounding = !f->has_rounding ? RESAMPLE_ROUND_HALF_DOWN
                                      : f->rounding == DMLVK_AXIS_DIRECTION_DECREASING ? RESAMPLE_ROUND_FLOOR
                                                                                       : RESAMPLE_ROUND_CEIL;

    /* Pad to 4 axes in front with size-1 axes: they map 0 to 0 with weight 1, so nothing changes. */
    const struct dmlvk_tensor *big = f->backward ? &in : &out, *small = f->backward ? &out : &in;
    uint32_t pad = AXES - in.dims;
    struct axis axes[AXES];
    uint64_t table_words = 0;
    for (uint32_t d = 0; d < AXES; d++) {
        if (d < pad) {
            axes[d] = (struct axis){ .scale = 1, .big = 1, .small = 1 };
        } else {
            uint32_t s = d - pad;
            axes[d] = (struct axis){ .scale = f->scales[s], .in_off = f->input_pixel_offsets[s],
                                     .out_off = f->output_pixel_offsets[s], .big = big->sizes[s], .small = small->sizes[s] };
        }
        table_words += 2 * (uint64_t)axes[d].big + (f->backward ? 2 * (uint64_t)axes[d].small : 0);
    }
    if (table_words > MAX_TABLE_WORDS)
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "%s: the axes are too long for the coordinate tables (%llu words)", op,
                           (unsigned long long)table_words);

    /* Header (matches Params in glsl/resample_common.glsl), then the tables. */
    plan->data_type = in.type;
    const struct dmlvk_tensor *written = &out, *read = &in;
    uint32_t count_at = dmlvk_params_reserve(plan, 1); /* invocations: set below */
    for (uint32_t d = 0; d < AXES; d++)
        dmlvk_params_u32(plan, d < pad ? 1 : written->sizes[d - pad]);
    for (uint32_t d = 0; d < AXES; d++)
        dmlvk_params_u32(plan, d < pad ? 1 : read->sizes[d - pad]);
    for (uint32_t d = 0; d < AXES; d++)
        dmlvk_params_u32(plan, d < pad ? 0 : written->strides[d - pad]);
    for (uint32_t d = 0; d < AXES; d++)
        dmlvk_params_u32(plan, d < pad ? 0 : read->strides[d - pad]);
    uint32_t offsets_at = dmlvk_params_reserve(plan, OFFSET_WORDS);
    uint32_t table_at = plan->params_size;
    uint32_t tables = dmlvk_params_reserve(plan, (uint32_t)table_words);
    if (offsets_at == UINT32_MAX || tables == UINT32_MAX)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the coordinate tables", op);
    uint32_t at = 0;
    for (uint32_t d = 0; d < AXES; d++) {
        uint32_t *map = plan->params + table_at + at;
        plan->params[offsets_at + MAP_OFFSET(d)] = at;
        fill_map(&axes[d], d < pad ? DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR : f->mode, rounding, map);
        at += 2 * (uint32_t)axes[d].big;
        if (f->backward) {
            plan->params[offsets_at + RANGE_OFFSET(d)] = at;
            fill_ranges(&axes[d], map, plan->params + table_at + at);
            at += 2 * (uint32_t)axes[d].small;
        }
    }

    struct block_shape shape = { 0 };
    if (f->backward && plan_block_gather(plan, axes, f->mode == DMLVK_INTERPOLATION_MODE_LINEAR, table_at, offsets_at, read,
                                          written, &shape) != DMLVK_OK)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the coordinate tables", op);
    uint64_t invocations = written->elements;
    if (shape.rows)
        invocations = (uint64_t)axes[0].small * axes[1].small * block_count(axes[2].small, shape.block_y, 0) *
                      block_count(axes[3].small, shape.block_x, shape.x_phase);
    if (count_at == UINT32_MAX)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the parameters", op);
    plan->params[count_at] = (uint32_t)invocations;

    struct dmlvk_dispatch_plan *dp = dmlvk_plan_add_dispatch(plan, ctx, shader, invocations);
    if (!dp)
        return DMLVK_ERROR_UNSUPPORTED;
    dp->spec[dp->spec_count++] = f->mode == DMLVK_INTERPOLATION_MODE_LINEAR;
    dp->spec[dp->spec_count++] = in.dims;
    dp->spec[dp->spec_count++] = shape.rows;
    dp->spec[dp->spec_count++] = shape.chunks;
    dp->spec[dp->spec_count++] = shape.block_y;
    dp->spec[dp->spec_count++] = shape.block_x;
    dp->spec[dp->spec_count++] = shape.vector_loads;
    dp->spec[dp->spec_count++] = shape.vector_stores;
    /* Where the block gather looks for Inf/NaN (BENCHMARKS.md note 24, H100): float16 blocks are
     * bound by instructions and check once per block (bilinear 42% -> 59% of copy); float32
     * blocks check each row, which measured faster on two of the three shapes (bilinear 2x 78% ->
     * 85%, nearest 1.5x 98% -> 104%; bilinear 1.5x 82% -> 77%). */
    dp->spec[dp->spec_count++] = in.type == DMLVK_TENSOR_DATA_TYPE_FLOAT32;
    dp->spec[dp->spec_count++] = shape.x_phase;
    dp->slots[dp->slot_count++] = DMLVK_SLOT_PARAMS;
    dp->slots[dp->slot_count++] = 0; /* binding 0: the input (or InputGradientTensor) */
    dp->slots[dp->slot_count++] = 1;
    return DMLVK_OK;
}
