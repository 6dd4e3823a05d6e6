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

#define AXES RESAMPLE_AXES
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

#define MAP_WORDS RESAMPLE_MAP_WORDS

/* Fills map[MAP_WORDS*o] = input index, then the float bits of the next index's weight and of the
 * input index's. */
static void fill_map(const struct axis *ax, dmlvk_interpolation_mode mode, enum resample_rounding rounding,
                     uint32_t *map)
{
    int64_t last = ax->small - 1;
    for (int64_t o = 0; o < ax->big; o++) {
        int64_t k;
        float w = 0, w0 = 1;
        if (mode == DMLVK_INTERPOLATION_MODE_LINEAR) {
            k = clamp64(floor_x(ax, o, 0, 0, last), 0, last);
            /* c = clamp(x, 0, S-1): the weight is x - k strictly inside, 0 at and past the edges. */
            if (k < last && sign_x_minus(ax, o, 0) > 0 && sign_x_minus(ax, o, (double)k) != 0) {
                double frac = approx_x(ax, o) - (double)k;
                w = (float)frac;
                w0 = (float)(1 - frac);
                if (w >= 1.0f) /* rounding at the top of the cell: the exact weight is below 1 */
                    w = nextafterf(1.0f, 0.0f);
                if (w < 0)
                    w = 0;
                if (!(w0 > 0.0f) || w0 > 1.0f) /* both taps keep a weight above 0 inside the cell */
                    w0 = 1.0f - w;
            }
        } else if (rounding == RESAMPLE_ROUND_HALF_DOWN) {
            k = clamp64(ceil_x(ax, o, 0.5, 0, last), 0, last);
        } else if (rounding == RESAMPLE_ROUND_FLOOR) {
            k = clamp64(floor_x(ax, o, 0, 0, last), 0, last);
        } else {
            k = clamp64(ceil_x(ax, o, 0, 0, last), 0, last);
        }
        map[MAP_WORDS * o] = (uint32_t)k;
        memcpy(&map[MAP_WORDS * o + 1], &w, 4);
        memcpy(&map[MAP_WORDS * o + 2], &w0, 4);
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
            memcpy(&w, &map[MAP_WORDS * lo + 1], 4);
            int64_t key = 2 * (int64_t)map[MAP_WORDS * lo] + (w > 0);
            if (key >= 2 * i - 1)
                break;
            lo++;
        }
        if (hi < lo)
            hi = lo;
        while (hi < ax->big) {
            float w;
            memcpy(&w, &map[MAP_WORDS * hi + 1], 4);
            int64_t key = 2 * (int64_t)map[MAP_WORDS * hi] + (w > 0);
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
        if (map[MAP_WORDS * o] != (uint32_t)o || map[MAP_WORDS * o + 1] != 0)
            return false;
    return true;
}

/* div_by's multiplier in glsl/common.glsl: floor(2^32 / d) + 1, 0 for 1. */
static uint32_t division_magic(uint32_t d)
{
    return d <= 1 ? 0 : (uint32_t)((UINT64_C(1) << 32) / d + 1);
}

/* A table of the plan's parameter block at offset (a header entry) from table[0]. Pointers move
 * when the block grows. */
static uint32_t *table(const struct dmlvk_op_plan *plan, uint32_t table_at, uint32_t offset)
{
    return plan->params + table_at + offset;
}

/*
 * The block gather of glsl/resample_block.glsl (its limits: RESAMPLE_MAX_* in resample_abi.h), for
 * both directions. Each invocation writes block_y x block_x elements ("members") of one plane of
 * the written tensor and reads their window of the read tensor once: `rows` rows of `chunks`
 * chunks of `chunk` elements, each chunk one aligned load where rows are packed and whole chunks.
 * Only the window entries that some block taps are summed (the tap masks), so windows are placed
 * alike from block to block where possible.
 */
#define MAX_WINDOW RESAMPLE_MAX_WINDOW
#define MAX_ROWS RESAMPLE_MAX_ROWS

/* One axis of the block gather: blocks of `block` members, the first starting `phase` members
 * before 0; window starts aligned to `align`; `regular`: starts follow `advance`, the window
 * positions per member (even before index 0), so that every block taps the same window entries.
 * Backward, members are smaller-side indices and their taps the larger-side ones in `ranges`;
 * forward (`ranges` NULL), members are larger-side indices and their taps the map's one or two. */
struct block_axis {
    const uint32_t *map, *ranges;
    int64_t members;
    double advance;
    uint32_t block, phase, align;
    uint32_t fold; /* channels folded into this axis (fold_channels); 1 where none */
    bool regular;
    /* Columns of a 16-bit type: a chunk that loads as vectors beats fewer taps, and block rows whose
     * pairs leave as 4-byte words beat a narrower window. */
    bool storage16;
};

/* What an axis's blocks need: the longest window, and which entries (bit t * block + m for
 * window position t and member m) any block taps. */
struct block_layout {
    uint32_t window;
    uint64_t taps;
};

/* Window entries summed per block. */
static uint32_t layout_taps(const struct block_layout *l)
{
    uint32_t n = 0;
    for (uint64_t v = l->taps; v; v &= v - 1)
        n++;
    return n;
}

struct block_shape {
    uint32_t block_y, block_x, rows, chunks, chunk;
    uint32_t channel_lanes;   /* channels-last blocks: channels per invocation (resample_channel_blocks.comp); else 0 */
    uint64_t blocks;          /* invocations */
    uint32_t x_phase;   /* column blocks start this many outputs early (X_PHASE) */
    bool regular_y, regular_x;
    bool vector_loads, vector_stores;
    uint32_t pairs;          /* RESAMPLE_SPEC_PAIRS */
    bool exact;              /* RESAMPLE_SPEC_EXACT, with exact_edges (RESAMPLE_SPEC_EXACT_EDGES) */
    bool depth;              /* axis 1 scales too: planes of rows summed over it (resample_*_volume.comp) */
    uint32_t depth_block, depth_phase, depth_taps; /* RESAMPLE_SPEC_DEPTH_* */
    uint32_t exact_edges;
    struct block_layout y, x;
};

/* Whether a tensor (4 padded axes) is rows of whole n-element groups along `axis`, every row
 * starting on a group. */
static bool rows_of(const uint32_t *sizes, const uint32_t *strides, uint32_t axis, uint32_t n)
{
    if (strides[axis] != 1 || sizes[axis] % n != 0)
        return false;
    for (uint32_t d = 0; d < AXES; d++)
        if (d != axis && sizes[d] > 1 && strides[d] % n != 0)
            return false;
    return true;
}

static int64_t block_count(const struct block_axis *ba)
{
    return (ba->members + ba->phase + ba->block - 1) / ba->block;
}

/* The indices [*lo, *hi) of the axis's own tables that index i taps with a weight above 0 (the
 * forward's first tap is never 0: the map's weights are below 1). */
static void index_taps(const struct block_axis *ba, int64_t i, int64_t *lo, int64_t *hi)
{
    if (ba->ranges) {
        *lo = ba->ranges[2 * i];
        *hi = ba->ranges[2 * i + 1];
        return;
    }
    float w;
    memcpy(&w, &ba->map[MAP_WORDS * i + 1], 4);
    *lo = ba->map[MAP_WORDS * i];
    *hi = *lo + 1 + (w > 0);
}

/* The window positions [*lo, *hi) that member i spans with its taps: with channels folded in,
 * member i is channel i % fold of index i / fold, and its taps lie fold positions apart. */
static void member_taps(const struct block_axis *ba, int64_t i, int64_t *lo, int64_t *hi)
{
    const int64_t f = ba->fold, c = i % f;
    index_taps(ba, i / f, lo, hi);
    if (*lo < *hi)
        *hi = (*hi - 1) * f + c + 1;
    else
        *hi = *lo * f + c;
    *lo = *lo * f + c;
}

static int64_t floor_div(int64_t a, int64_t b)
{
    return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

/* The window positions [*lo, *hi) that block j taps; false where it taps none. */
static bool block_taps(const struct block_axis *ba, int64_t j, int64_t *lo, int64_t *hi)
{
    *lo = INT64_MAX;
    *hi = INT64_MIN;
    for (int64_t i = j * ba->block - ba->phase; i < ba->members && i < (j + 1) * ba->block - ba->phase; i++) {
        int64_t a, b;
        if (i < 0)
            continue;
        member_taps(ba, i, &a, &b);
        if (a < b) {
            *lo = a < *lo ? a : *lo;
            *hi = b > *hi ? b : *hi;
        }
    }
    return *lo < *hi;
}

/* The block nearest the middle with taps, from which regular window starts are extrapolated,
 * and the first window position it taps; block -1 where no block has taps. */
struct reference {
    int64_t block, first;
};

static struct reference reference_block(const struct block_axis *ba)
{
    int64_t n = block_count(ba), lo, hi;
    for (int64_t d = 0; d < n; d++) {
        if (n / 2 + d < n && block_taps(ba, n / 2 + d, &lo, &hi))
            return (struct reference){ n / 2 + d, lo };
        if (n / 2 - d >= 0 && block_taps(ba, n / 2 - d, &lo, &hi))
            return (struct reference){ n / 2 - d, lo };
    }
    return (struct reference){ -1, 0 };
}

/* Where block j's window starts (before 0 where `regular` extrapolates past the edge). */
static int64_t block_first(const struct block_axis *ba, int64_t j, struct reference ref)
{
    int64_t lo, hi, first = INT64_MAX;
    if (block_taps(ba, j, &lo, &hi))
        first = lo;
    if (ba->regular && ref.block >= 0) {
        double v = (double)ref.first + floor((double)(j - ref.block) * ba->block * ba->advance);
        if (v > (double)INT32_MIN && v < (double)first) /* else the window is far too wide anyway */
            first = (int64_t)v;
    }
    return first == INT64_MAX ? 0 : floor_div(first, ba->align) * ba->align;
}

/* The weight of index i's tap on index o of the other side: the map's weight of the larger-side
 * index's tap on the smaller-side one, as the general loops take it. */
static float tap_weight(const struct block_axis *ba, int64_t i, int64_t o)
{
    int64_t big = ba->ranges ? o : i, small = ba->ranges ? i : o;
    float w;
    memcpy(&w, &ba->map[MAP_WORDS * big + (ba->map[MAP_WORDS * big] == (uint32_t)small ? 2 : 1)], 4);
    return w;
}

/* Runs body for each tap of block j: window position t (from `first`), member m, weight. */
#define FOR_EACH_TAP(ba, j, first, body)                                                                               \
    for (uint32_t m = 0; m < (ba)->block; m++) {                                                                       \
        int64_t i_ = (j) * (ba)->block + m - (ba)->phase, lo_, hi_, f_ = (ba)->fold;                                   \
        if (i_ < 0 || i_ >= (ba)->members)                                                                             \
            continue;                                                                                                  \
        index_taps((ba), i_ / f_, &lo_, &hi_);                                                                         \
        for (int64_t o_ = lo_; o_ < hi_; o_++) {                                                                       \
            uint32_t t = (uint32_t)(o_ * f_ + i_ % f_ - (first));                                                      \
            float weight = tap_weight((ba), i_ / f_, o_);                                                              \
            body                                                                                                       \
        }                                                                                                              \
    }

static struct block_layout block_layout(const struct block_axis *ba)
{
    struct block_layout l = { 0, 0 };
    struct reference ref = reference_block(ba);
    for (int64_t j = 0; j < block_count(ba); j++) {
        int64_t first = block_first(ba, j, ref), lo, hi;
        if (!block_taps(ba, j, &lo, &hi))
            continue;
        l.window = hi - first > l.window ? (uint32_t)(hi - first) : l.window;
        if (hi - first > MAX_WINDOW || (hi - first) * ba->block > RESAMPLE_TAP_BITS) /* the caller refuses the window */
            continue;
        FOR_EACH_TAP(ba, j, first, {
            if (weight != 0)
                l.taps |= UINT64_C(1) << (t * ba->block + m);
        })
    }
    return l;
}

/* Most 16-byte groups of a block's weights: window positions times members. */
#define MAX_WEIGHT_GROUPS (MAX_WINDOW * RESAMPLE_MAX_BLOCK_X / 4)
/* Column tables take classes (RESAMPLE_SPEC_X_CLASSES) where a block's weights fill at least this
 * many groups: there a warp's weight loads from a few neighbouring words ran faster than from its
 * lanes' own, below no faster (BENCHMARKS.md note 145). */
#define X_CLASSES_MIN_GROUPS 14

/* Block j's weights, entry t * block + m for window position t (from `first`) and member m. */
static void weights_of(const struct block_axis *ba, int64_t j, int64_t first, uint32_t groups, float *w)
{
    memset(w, 0, 16 * (size_t)groups);
    FOR_EACH_TAP(ba, j, first, { w[t * ba->block + m] = weight; })
}

/* Stores weights w (groups of 4) as the `index`-th of `stride` in a group-major table. */
static void put_weight_groups(uint32_t *table, uint32_t stride, uint32_t index, const float *w, uint32_t groups)
{
    for (uint32_t e = 0; e < 4 * groups; e++)
        memcpy(&table[4 * ((e / 4) * stride + index) + e % 4], &w[e], 4);
}

/* The classes of identical weights (bit for bit) among an axis's blocks, at most
 * RESAMPLE_MAX_X_CLASSES: their count, with each block's class in `of` where `of` is not NULL;
 * 0 where there are more. The search starts after the previous block's class, where a periodic
 * scale's next block usually is, so that long rows cost about one comparison per block. */
static uint32_t weight_classes(const struct block_axis *ba, struct reference ref, uint32_t blocks, uint32_t groups,
                               float classes[][4 * MAX_WEIGHT_GROUPS], uint32_t *of)
{
    uint32_t k = 0, last = 0;
    float w[4 * MAX_WEIGHT_GROUPS];
    for (uint32_t j = 0; j < blocks; j++) {
        weights_of(ba, j, block_first(ba, j, ref), groups, w);
        uint32_t c = 0;
        for (; c < k; c++)
            if (!memcmp(classes[(last + 1 + c) % k], w, 16 * (size_t)groups))
                break;
        if (c < k) {
            c = (last + 1 + c) % k;
        } else if (k == RESAMPLE_MAX_X_CLASSES) {
            return 0;
        } else {
            memcpy(classes[k], w, 16 * (size_t)groups);
            c = k++;
        }
        if (of)
            of[j] = c;
        last = c;
    }
    return k;
}

/*
 * One axis's block table (read by block_weight in the shader): each block's first window
 * position (two's complement where it is before 0), then from the next 4-word boundary of the
 * parameter block the weights, entry t * block + m for window position t and block member m,
 * in groups of 4 stored group-major (neighbouring blocks' groups are neighbouring 16-byte
 * words). With `classes` (column tables of block gathers over planes), where the blocks' weights
 * fall into fewer than `blocks` classes of at most RESAMPLE_MAX_X_CLASSES, the layout of
 * RESAMPLE_SPEC_X_CLASSES instead, their count in *classes (else 0). Returns where the table
 * starts, UINT32_MAX when out of host memory.
 */
static uint32_t fill_block_table(struct dmlvk_op_plan *plan, uint32_t map_at, uint32_t ranges_at, struct block_axis ba,
                                 uint32_t window, uint32_t *classes)
{
    uint32_t blocks = (uint32_t)block_count(&ba);
    uint32_t groups = (window * ba.block + 3) / 4;
    ba.map = plan->params + map_at; /* the caller's pointers may predate a move of the block */
    ba.ranges = ranges_at == UINT32_MAX ? NULL : plan->params + ranges_at;
    struct reference ref = reference_block(&ba);
    float class_weights[RESAMPLE_MAX_X_CLASSES][4 * MAX_WEIGHT_GROUPS];
    uint32_t k = 0;
    if (classes && groups >= X_CLASSES_MIN_GROUPS)
        k = weight_classes(&ba, ref, blocks, groups, class_weights, NULL);
    if (k >= blocks)
        k = 0;
    if (classes)
        *classes = k;
    uint32_t at = dmlvk_params_reserve(plan, k ? 1 + 2 * blocks + 3 + 4 * groups * k : blocks + 3 + 4 * groups * blocks);
    if (at == UINT32_MAX)
        return UINT32_MAX;
    ba.map = plan->params + map_at; /* the block may have moved again */
    ba.ranges = ranges_at == UINT32_MAX ? NULL : plan->params + ranges_at;
    if (k) {
        at += at & 1;
        uint32_t *pairs = plan->params + at;
        uint32_t *weights = plan->params + ((at + 2 * blocks + 3) & ~UINT32_C(3));
        /* The classes into the first `blocks` words, then spread to the odd words from the end. */
        weight_classes(&ba, ref, blocks, groups, class_weights, pairs);
        for (uint32_t j = blocks; j-- > 0;) {
            pairs[2 * j + 1] = pairs[j];
            pairs[2 * j] = (uint32_t)block_first(&ba, j, ref);
        }
        for (uint32_t c = 0; c < k; c++)
            put_weight_groups(weights, k, c, class_weights[c], groups);
        return at;
    }
    uint32_t *first = plan->params + at;
    uint32_t *weights = plan->params + ((at + blocks + 3) & ~UINT32_C(3));
    float w[4 * MAX_WEIGHT_GROUPS];
    for (uint32_t j = 0; j < blocks; j++) {
        int64_t lo = block_first(&ba, j, ref);
        first[j] = (uint32_t)lo;
        weights_of(&ba, j, lo, groups, w);
        put_weight_groups(weights, blocks, j, w, groups);
    }
    return at;
}

/* Whether a plane's gather writes at least as many rows and columns as it reads (forward an
 * upscale, backward a downscale's gradient). */
static bool writes_plane_no_smaller(const struct resample_params *hdr)
{
    return hdr->out_sizes[2] >= hdr->in_sizes[2] && hdr->out_sizes[3] >= hdr->in_sizes[3];
}

/* 16-bit block gathers over planes whose window rows vectors cannot load (rows of odd length,
 * packed): each row's window from whole words (RESAMPLE_SPEC_WORD_LOADS). */
static bool words_fit(const struct block_shape *shape, const struct resample_params *hdr, dmlvk_tensor_data_type type)
{
    return shape->rows && !shape->channel_lanes && DMLVK_IS_16BIT_FLOAT(type) && !shape->vector_loads &&
           hdr->in_strides[AXES - 1] == 1;
}

/* Where the blocks' rows leave as vectors (BENCHMARKS.md note 144), and where they leave element
 * by element only if the read rows are longer than the written ones (note 184; note 185 turned its
 * backward rule round): where they are shorter, words ran slower as often as faster. Exact sums
 * never read longer rows (note 146: their loads zero the positions outside the tensor, which word
 * loads do not). */
static bool word_loads(const struct block_shape *shape, const struct resample_params *hdr, dmlvk_tensor_data_type type)
{
    const bool reads_longer = hdr->in_sizes[AXES - 1] > hdr->out_sizes[AXES - 1];
    return words_fit(shape, hdr, type) && (shape->vector_stores || reads_longer);
}

/* Whether every block of an axis gives each member it stores a weight above 0 at every window
 * entry the blocks sum (`taps`) inside the read axis's `n` elements (RESAMPLE_SPEC_EXACT); the
 * window positions that some block places outside them in *outside (a bit each). */
static bool exact_sums(const struct block_axis *ba, uint64_t taps, uint32_t window, int64_t n, uint32_t *outside)
{
    struct reference ref = reference_block(ba);
    uint32_t groups = (window * ba->block + 3) / 4;
    float w[4 * MAX_WEIGHT_GROUPS];
    *outside = 0;
    for (int64_t j = 0; j < block_count(ba); j++) {
        int64_t first = block_first(ba, j, ref);
        weights_of(ba, j, first, groups, w);
        for (uint32_t t = 0; t < window; t++) {
            if (first + t < 0 || first + t >= n) {
                *outside |= UINT32_C(1) << t;
                continue;
            }
            for (uint32_t m = 0; m < ba->block; m++) {
                int64_t i = j * ba->block + m - ba->phase;
                uint32_t e = t * ba->block + m;
                if (i >= 0 && i < ba->members && (taps >> e & 1) && w[e] == 0)
                    return false;
            }
        }
    }
    return true;
}

/* How a block's rows leave memory at a phase: as whole 4-element stores, as 2-element words (a
 * 16-bit pair starting on an even element; at an odd one the pair leaves as two 2-byte stores),
 * or element by element. */
enum row_stores { STORES_ELEMENTS, STORES_PAIRS, STORES_VECTORS };

/* Whether column layout a is better than b: block rows that leave as whole 4-element stores
 * (BENCHMARKS.md note 30), then 16-bit rows whose pairs leave as words (note 174), then a narrower
 * window, then fewer taps. Stores come first: a wider store pays for a chunk more in the window. */
static bool better_layout(const struct block_layout *a, enum row_stores a_stores, const struct block_layout *b,
                          enum row_stores b_stores)
{
    if (a_stores != b_stores)
        return a_stores > b_stores;
    if (a->window != b->window)
        return a->window < b->window;
    return layout_taps(a) < layout_taps(b);
}

/* The best window placement of an axis over its phases below `phases`; false where none fits in
 * `max_window`, nor with its members in the tap masks. stores4: the blocks' rows may leave as
 * 4-element stores where the phase is 0; pairs: as words of 16-bit pairs where it is even;
 * *best_stores: how the best placement's rows leave. */
static bool place_windows(struct block_axis *ba, uint32_t phases, uint32_t chunk, uint32_t max_window, bool stores4,
                          bool pairs, struct block_layout *best, enum row_stores *best_stores)
{
    if (max_window * ba->block > RESAMPLE_TAP_BITS)
        max_window = RESAMPLE_TAP_BITS / ba->block;
    struct block_axis try = *ba;
    *best = (struct block_layout){ .window = UINT32_MAX };
    *best_stores = STORES_ELEMENTS;
    for (uint32_t p = 0; p < phases; p++) {
        try.phase = p;
        enum row_stores stores = stores4 && p == 0 && try.block % 4 == 0   ? STORES_VECTORS
                                 : pairs && p % 2 == 0 && try.block % 2 == 0 ? STORES_PAIRS
                                                                             : STORES_ELEMENTS;
        for (int regular = 0; regular < 2; regular++) {
            try.regular = regular;
            struct block_layout l = block_layout(&try);
            l.window = (l.window + chunk - 1) / chunk * chunk;
            if (l.window <= max_window && better_layout(&l, stores, best, *best_stores)) {
                *best = l;
                *best_stores = stores;
                ba->phase = p;
                ba->regular = regular;
            }
        }
    }
    return best->window <= max_window;
}

/* The load instructions of a block's window row. */
static uint32_t row_loads(const struct block_shape *shape)
{
    return shape->vector_loads ? shape->chunks : shape->chunks * shape->chunk;
}

/* Block shape by x bx, if its windows fit: per shape, loads of 4 or of 2 elements, whichever sums
 * fewer taps, then issues fewer load instructions (2-element chunks let windows sit alike in every
 * block where 4-element ones cannot; a chunk that rows do not align for takes a load per element:
 * BENCHMARKS.md note 123). With x.storage16 (16-bit types), a chunk that loads as vectors comes
 * first, at more taps: rows of 2 mod 4 elements would take 4 scalar loads per chunk of 4
 * (note 156). */
static bool try_block_shape(struct block_axis y, struct block_axis x, uint32_t by, uint32_t bx,
                            const struct resample_params *hdr, struct block_shape *shape)
{
    static const uint32_t chunks[] = { 4, 2 };
    if ((by > 1 && y.members < by) || (bx > 1 && x.members < bx))
        return false;
    bool stores4 = rows_of(hdr->out_sizes, hdr->out_strides, AXES - 1, 4);
    bool pairs = x.storage16 && rows_of(hdr->out_sizes, hdr->out_strides, AXES - 1, 2);
    struct block_layout rows;
    enum row_stores unused;
    y.block = by;
    y.align = 1;
    if (!place_windows(&y, 1, 1, MAX_ROWS, false, false, &rows, &unused))
        return false;
    bool found = false;
    for (size_t c = 0; c < DMLVK_ARRAY_SIZE(chunks); c++) {
        struct block_layout cols;
        enum row_stores stores;
        bool vector = rows_of(hdr->in_sizes, hdr->in_strides, AXES - 1, chunks[c]);
        x.block = bx;
        x.align = vector ? chunks[c] : 1;
        if (!place_windows(&x, bx, chunks[c], MAX_WINDOW, stores4, pairs, &cols, &stores))
            continue;
        const struct block_shape candidate = { .block_y = by, .block_x = bx, .rows = rows.window ? rows.window : 1,
                                               .chunks = cols.window ? cols.window / chunks[c] : 1, .chunk = chunks[c],
                                               .x_phase = x.phase, .regular_y = y.regular, .regular_x = x.regular,
                                               .vector_loads = vector, .vector_stores = stores == STORES_VECTORS,
                                               .y = rows, .x = cols };
        const bool loads_differ = x.storage16 && found && vector != shape->vector_loads;
        if (loads_differ ? !vector
                         : found && (layout_taps(&cols) > layout_taps(&shape->x) ||
                                     (layout_taps(&cols) == layout_taps(&shape->x) &&
                                      row_loads(&candidate) >= row_loads(shape))))
            continue;
        *shape = candidate;
        found = true;
    }
    return found;
}

/* The most written rows per plane for which a float32 LINEAR backward gather takes 4x4 blocks, and
 * the fewest such blocks: taller planes and smaller problems ran no faster or slower in 4x4
 * (BENCHMARKS.md note 158). */
#define SQUARE_MOST_ROWS 64
#define SQUARE_LEAST_BLOCKS 65536

/* The rows of a bfloat16 LINEAR backward gather's 4x4 window from which it takes that shape where
 * that block cannot store vectors, the plane is narrow (SMALL_PLANE_MOST_COLUMNS), a volume or of
 * folded channels. */
#define BFLOAT16_SQUARE_ROWS_FROM 11

/* Narrow planes (at most SMALL_PLANE_MOST_COLUMNS columns) of 16-bit LINEAR gathers: upsampled
 * onto at most SMALL_PLANE_MOST_ROWS rows in 2x4 blocks; backward, 4 rows in 2x4 and, in
 * bfloat16, 8 rows in 4x4. Upsampling onto at most TALL_ROWS_ABOVE rows of any width takes no 8x4.
 * BENCHMARKS.md note 159. */
#define SMALL_PLANE_MOST_COLUMNS 16
#define SMALL_PLANE_MOST_ROWS 8
#define TALL_ROWS_ABOVE 16

/* Float16 LINEAR backward gathers that would take 4x2 blocks (rows of odd width) onto rows of at
 * most NARROW_ODD_COLUMNS_MOST columns, writing at least as many rows and columns as they read
 * (the backward of a downscale), take 4x1 instead (BENCHMARKS.md note 185; wider rows, other
 * scales and bfloat16 ran slower in 4x1). Only where subgroups cannot shuffle: elsewhere 4x2 takes
 * odd_row_words' build, whose full subgroups store the rows through the subgroup (transposed,
 * note 190), faster than 4x1 on every such row (note 188). */
#define NARROW_ODD_COLUMNS_MOST 23

/* The most rows of the window of a 16-bit NEAREST_NEIGHBOR backward gather's 4x2 block, which it
 * takes over the order's 2x4 where rows cannot leave as 4-element stores (odd widths): taller
 * windows ran slower in 4x2 (BENCHMARKS.md note 188). */
#define NEAREST_PAIR_MOST_ROWS 7

/* The most that a 16-bit NEAREST_NEIGHBOR forward gather may shrink the rows (input rows per output
 * row) and still take LINEAR's 8x2 and 4x2 blocks where rows cannot leave as 4-element stores:
 * rows that shrink more ran slower so (BENCHMARKS.md note 188). */
#define NEAREST_PAIR_MOST_SHRINK 2

/* The fewest columns onto which a float32 NEAREST_NEIGHBOR forward gather whose rows cannot leave as
 * 4-element stores takes 4x2 blocks over the order's shapes, where the rows shrink at most
 * NEAREST_PAIR_MOST_SHRINK, on planes (not volumes) of unfolded rows: narrower rows mostly ran
 * slower so (BENCHMARKS.md notes 189 and 191; 8x2 gained less than 4x2 wherever it applied). */
#define NEAREST_F32_PAIR_LEAST_COLUMNS 48

/* The rows of a LINEAR backward gather's 2x2 window from which it takes 2x1 blocks instead: twice
 * the invocations to wait on those tall windows' loads (BENCHMARKS.md notes 135 and 136; at 2x
 * and 3x the windows hold 6 and 9 rows, at 4x 12). */
#define NARROW_ROWS_FROM 12

/* The most elements a forward block's window should hold (where no shape's window is that small,
 * the first that fits): upsampling windows hold at most 24 (bilinear 2x: 4 rows of 6), downsampling
 * ones grow with the scale, and there blocks within the limit ran faster (BENCHMARKS.md note 111;
 * 24 or 48 no better). */
#define FORWARD_MOST_WINDOW 32

/* The most elements the window of a 16-bit LINEAR forward pass's 4x2 block may hold where rows
 * cannot leave as 4-element stores: between the window of 54 that ran faster than the order's
 * shape and the one of 66 that ran slower (BENCHMARKS.md note 123). */
#define FORWARD_PAIR_MOST_WINDOW 64

static uint32_t window_elements(const struct block_shape *shape)
{
    return shape->rows * shape->chunks * shape->chunk;
}

/* A LINEAR forward block of by x 2 whose window holds at most FORWARD_PAIR_MOST_WINDOW elements. */
static bool try_pair_block(struct block_axis y, struct block_axis x, uint32_t by, const struct resample_params *hdr,
                           struct block_shape *shape)
{
    return try_block_shape(y, x, by, 2, hdr, shape) && window_elements(shape) <= FORWARD_PAIR_MOST_WINDOW;
}

/* Whether a float32 LINEAR forward block loads at least 15/16 of the chunks per output that a 1x1
 * block (single_loads, 0 where that does not apply) loads: then 1x1 blocks run faster. */
static bool shares_little(const struct block_shape *shape, uint32_t single_loads)
{
    return single_loads && 16 * shape->rows * shape->chunks >= 15 * shape->block_y * shape->block_x * single_loads;
}

/*
 * The block shape of a gather over planes: the first of the rules below that fits, else the first
 * shape of an order whose window fits. Each rule is where its shape ran faster than the order's
 * (BENCHMARKS.md notes as given); the orders were measured on an H100.
 * Orders: forward 4x4 first, a block's instructions spread over the most outputs where each output
 * reads little (note 36); backward 2x2 first in float32 LINEAR, 2x4 elsewhere (notes 14-16, 26,
 * 30 and 108).
 * Backward:
 * - float32 LINEAR 4x4 on planes of whole block rows, more than 4 and at most SQUARE_MOST_ROWS, in
 *   at least SQUARE_LEAST_BLOCKS blocks, where its rows leave as vectors (note 158; volumes not
 *   measured);
 * - float32 2x4 where each block row leaves as one 4-element store (4x4 would add no stores;
 *   notes 64 and 136);
 * - float32 LINEAR 4x2 where the written tensor is the larger on both axes (note 156);
 * - 16-bit LINEAR 4x2 where rows cannot leave as 4-element stores (odd widths), float16 4x1 onto
 *   narrow ones where subgroups cannot shuffle (NARROW_ODD_COLUMNS_MOST); else 4x4 but onto one
 *   block row of a narrow plane (2x4 there, note 159); bfloat16 only where its rows leave as
 *   vectors, not on narrow planes, volumes or folded channels (note 192; the exceptions not
 *   measured), onto 8 rows of a narrow plane (note 159), or where it loads 2-element chunks and its
 *   window has BFLOAT16_SQUARE_ROWS_FROM rows or more (notes 64, 80 and 192); elsewhere bfloat16
 *   ran faster in 2x4, for no cause found;
 * - 16-bit NEAREST_NEIGHBOR 4x2 onto odd rows where its window has few rows
 *   (NEAREST_PAIR_MOST_ROWS);
 * - every type 2x1 where 2x2 windows grow tall (NARROW_ROWS_FROM).
 * Forward:
 * - 16-bit LINEAR 2x4 onto narrow planes of few rows (SMALL_PLANE_MOST_ROWS, note 159);
 * - onto odd rows, pairs of columns (try_pair_block): 16-bit LINEAR, and NEAREST_NEIGHBOR where the
 *   rows shrink little (NEAREST_PAIR_MOST_SHRINK), 8x2 where rows do not shrink (note 130), else 4x2
 *   (notes 123 and 188); float32 NEAREST_NEIGHBOR 4x2 only onto wide rows
 *   (NEAREST_F32_PAIR_LEAST_COLUMNS); float32 LINEAR 4x2 only where it upsamples (note 129);
 * - float32 LINEAR never a block whose outputs share (almost) no loads: 1x1 instead (shares_little,
 *   notes 119 and 120);
 * - the first shape whose window holds at most FORWARD_MOST_WINDOW elements (note 111); where that
 *   is a 16-bit LINEAR 4x4 that stores vectors on upsampled rows, 8x4 if it stores vectors too,
 *   its window has at most 1.5 times the rows (a quarter fewer per output row) and the plane has
 *   more than TALL_ROWS_ABOVE rows (notes 129, 134 and 159).
 */
static bool choose_block_shape(struct block_axis y, struct block_axis x, bool linear, bool volume, bool shuffles,
                               dmlvk_tensor_data_type type, const struct resample_params *hdr, struct block_shape *shape)
{
    static const uint32_t forward_order[][2] = { { 4, 4 }, { 2, 4 }, { 2, 2 }, { 1, 4 }, { 1, 1 } };
    static const uint32_t f32_backward_order[][2] = { { 2, 2 }, { 2, 4 }, { 1, 4 }, { 1, 2 }, { 1, 1 } };
    static const uint32_t backward_order[][2] = { { 2, 4 }, { 2, 2 }, { 1, 4 }, { 1, 2 }, { 1, 1 } };
    const bool storage16 = DMLVK_IS_16BIT_FLOAT(type), backward = y.ranges != NULL;
    const uint32_t(*order)[2] = !backward ? forward_order : !storage16 ? f32_backward_order : backward_order;
    _Static_assert(DMLVK_ARRAY_SIZE(forward_order) == DMLVK_ARRAY_SIZE(f32_backward_order) &&
                       DMLVK_ARRAY_SIZE(forward_order) == DMLVK_ARRAY_SIZE(backward_order),
                   "the loop below runs over any of the orders");
    if (backward && linear && !storage16 && !volume && y.members > 4 && y.members <= SQUARE_MOST_ROWS && y.members % 4 == 0 &&
        (uint64_t)hdr->out_sizes[0] * hdr->out_sizes[1] * (uint64_t)(y.members / 4) * (uint64_t)((x.members + 3) / 4) >=
            SQUARE_LEAST_BLOCKS &&
        try_block_shape(y, x, 4, 4, hdr, shape) && shape->vector_stores)
        return true;
    if (backward && !storage16 && try_block_shape(y, x, 2, 4, hdr, shape) && shape->vector_stores)
        return true;
    if (backward && linear && !storage16 && y.advance < 1 && x.advance < 1 && try_block_shape(y, x, 4, 2, hdr, shape))
        return true;
    const bool narrow_plane = !volume && x.members <= SMALL_PLANE_MOST_COLUMNS;
    if (backward && linear && storage16) {
        if (!rows_of(hdr->out_sizes, hdr->out_strides, AXES - 1, 4) && try_block_shape(y, x, 4, 2, hdr, shape)) {
            struct block_shape column;
            if (!shuffles && type == DMLVK_TENSOR_DATA_TYPE_FLOAT16 && !volume && x.fold == 1 && x.members % 2 &&
                x.members <= NARROW_ODD_COLUMNS_MOST && writes_plane_no_smaller(hdr) &&
                try_block_shape(y, x, 4, 1, hdr, &column))
                *shape = column;
            return true;
        }
        const bool one_block_row = narrow_plane && y.members == 4, two_block_rows = narrow_plane && y.members == 8;
        if (!one_block_row && try_block_shape(y, x, 4, 4, hdr, shape) &&
            (type != DMLVK_TENSOR_DATA_TYPE_BFLOAT16 || two_block_rows ||
             (shape->vector_stores && !narrow_plane && !volume && x.fold == 1) ||
             (shape->chunk != 4 && shape->rows >= BFLOAT16_SQUARE_ROWS_FROM)))
            return true;
    }
    if (!backward && linear && storage16 && narrow_plane && y.advance <= 1 && y.members <= SMALL_PLANE_MOST_ROWS &&
        try_block_shape(y, x, 2, 4, hdr, shape) && shape->vector_stores)
        return true;
    const bool odd_rows = !rows_of(hdr->out_sizes, hdr->out_strides, AXES - 1, 4);
    struct block_shape pair;
    if (backward && !linear && storage16 && odd_rows && x.fold == 1 && try_block_shape(y, x, 4, 2, hdr, &pair) &&
        pair.rows <= NEAREST_PAIR_MOST_ROWS) {
        *shape = pair;
        return true;
    }
    const bool nearest_pairs =
        !backward && odd_rows && !linear && x.fold == 1 && y.advance <= NEAREST_PAIR_MOST_SHRINK;
    if (!backward && odd_rows && storage16 && (linear || nearest_pairs) &&
        ((y.advance <= 1 && try_pair_block(y, x, 8, hdr, shape)) || try_pair_block(y, x, 4, hdr, shape)))
        return true;
    if (nearest_pairs && !storage16 && !volume && x.members >= NEAREST_F32_PAIR_LEAST_COLUMNS &&
        try_pair_block(y, x, 4, hdr, shape))
        return true;
    struct block_shape first_fit = { 0 }, single;
    uint32_t single_loads = 0; /* float32 LINEAR forward: the chunks a 1x1 block loads */
    if (!backward && linear && !storage16 && try_block_shape(y, x, 1, 1, hdr, &single))
        single_loads = single.rows * single.chunks;
    if (!backward && odd_rows && linear && !storage16 && y.advance <= 1 && x.advance <= 1 &&
        try_pair_block(y, x, 4, hdr, shape) && !shares_little(shape, single_loads))
        return true;
    for (size_t k = 0; k < DMLVK_ARRAY_SIZE(forward_order); k++) {
        const uint32_t members = order[k][0] * order[k][1];
        if (members == 1 && single_loads)
            *shape = single;
        else if (!try_block_shape(y, x, order[k][0], order[k][1], hdr, shape))
            continue;
        if (backward) {
            struct block_shape narrow;
            if (linear && shape->block_y == 2 && shape->block_x == 2 && shape->rows >= NARROW_ROWS_FROM &&
                try_block_shape(y, x, 2, 1, hdr, &narrow))
                *shape = narrow;
            return true;
        }
        if (members > 1 && shares_little(shape, single_loads)) {
            *shape = single;
            return true;
        }
        if (window_elements(shape) <= FORWARD_MOST_WINDOW) {
            struct block_shape tall;
            if (linear && storage16 && shape->block_y == 4 && shape->block_x == 4 && shape->vector_stores && y.advance <= 1 &&
                y.members > TALL_ROWS_ABOVE && try_block_shape(y, x, 8, 4, hdr, &tall) && tall.vector_stores && 2 * tall.rows <= 3 * shape->rows)
                *shape = tall;
            return true;
        }
        if (!first_fit.rows)
            first_fit = *shape;
    }
    *shape = first_fit;
    return first_fit.rows != 0;
}

/* Channels per invocation of channels-last blocks where the channels neither fill the type's
 * 16-byte groups nor are many enough (4 groups) that a last partial group wastes little: an RGB
 * image's 3 channels, say, which the general loops, an element per invocation, ran far below copy
 * (BENCHMARKS.md note 148). Fewer channels than that take one invocation each, but for the float32
 * forward pass, which ran slower so (note 152). */
#define CHANNEL_FEW_LANES 4

/* Bytes of channels per invocation where the written tensor's channel groups cannot leave as
 * 16-byte vectors (channels not a multiple of the group, and not few): float32 2, 16-bit 4, whose
 * scalar stores leave a lane's elements 8 bytes apart where 16 wrote a quarter or an eighth of
 * each sector per instruction (BENCHMARKS.md note 174). */
#define CHANNEL_SCALAR_GROUP_BYTES 8

/* Whether channels-last planes of c channels are too few for the type's 16-byte groups: they
 * neither fill them nor make 4 of them, so that a last partial group would waste much. */
static bool few_channels(uint32_t c, bool storage16)
{
    const uint32_t lanes = storage16 ? 8 : 4;
    return c % lanes != 0 && c < 4 * lanes;
}

/* The block shape of channels-last planes: each window column is one load of the lanes'
 * channels, so windows need no alignment, and the column loads stream through the sums. The
 * first shape that fits in an order measured on an H100: 2x2 blocks but for the 16-bit forward
 * pass, 1x2 there (BENCHMARKS.md note 37); backward 2x1, which made the forward pass slower
 * (note 136). */
static bool choose_channel_shape(struct block_axis y, struct block_axis x, bool f16, const struct resample_params *hdr,
                                 struct block_shape *shape)
{
    static const uint32_t square_first[][2] = { { 2, 2 }, { 1, 4 }, { 1, 2 }, { 1, 1 } };
    static const uint32_t pair_first[][2] = { { 1, 2 }, { 2, 2 }, { 1, 4 }, { 1, 1 } };
    static const uint32_t column_first[][2] = { { 2, 1 }, { 1, 4 }, { 1, 2 }, { 1, 1 } };
    _Static_assert(DMLVK_ARRAY_SIZE(square_first) == DMLVK_ARRAY_SIZE(pair_first) &&
                       DMLVK_ARRAY_SIZE(square_first) == DMLVK_ARRAY_SIZE(column_first),
                   "the loop below runs over any of the orders");
    const uint32_t(*order)[2] = y.ranges ? column_first : f16 ? pair_first : square_first;
    uint32_t lanes = f16 ? 8 : 4, channels = hdr->out_sizes[1];
    if (few_channels(channels, f16))
        lanes = channels < CHANNEL_FEW_LANES && (f16 || y.ranges) ? channels : CHANNEL_FEW_LANES;
    else if (!rows_of(hdr->out_sizes, hdr->out_strides, 1, lanes))
        lanes = CHANNEL_SCALAR_GROUP_BYTES / (f16 ? 2 : 4);
    for (size_t k = 0; k < DMLVK_ARRAY_SIZE(square_first); k++) {
        uint32_t by = order[k][0], bx = order[k][1];
        if ((by > 1 && y.members < by) || (bx > 1 && x.members < bx) || by > RESAMPLE_MAX_CHANNEL_BLOCK_Y)
            continue;
        struct block_layout rows, cols;
        enum row_stores unused;
        y.block = by;
        y.align = 1;
        x.block = bx;
        x.align = 1;
        if (!place_windows(&y, 1, 1, MAX_ROWS, false, false, &rows, &unused) ||
            !place_windows(&x, bx, 1, MAX_WINDOW, false, false, &cols, &unused))
            continue;
        const bool vector_loads = lanes % 4 == 0 && rows_of(hdr->in_sizes, hdr->in_strides, 1, lanes);
        const bool vector_stores = lanes % 4 == 0 && rows_of(hdr->out_sizes, hdr->out_strides, 1, lanes);
        /* Groups that move as no vector move as pairs of channels where every pixel starts on an
         * even element: half the load and store instructions (BENCHMARKS.md note 182). */
        const bool pair_loads = !vector_loads && lanes % 2 == 0 && rows_of(hdr->in_sizes, hdr->in_strides, 1, 2);
        const bool pair_stores = !vector_stores && lanes % 2 == 0 && rows_of(hdr->out_sizes, hdr->out_strides, 1, 2);
        *shape = (struct block_shape){ .block_y = by, .block_x = bx, .rows = rows.window ? rows.window : 1,
                                       .chunks = cols.window ? cols.window : 1, .chunk = 1, .channel_lanes = lanes,
                                       .x_phase = x.phase, .regular_y = y.regular, .regular_x = x.regular,
                                       .vector_loads = vector_loads, .vector_stores = vector_stores,
                                       .pairs = (pair_loads ? 1u : 0) | (pair_stores ? 2u : 0), .y = rows, .x = cols };
        return true;
    }
    return false;
}

/* The most taps per output that a folded forward block sums: its windows hold every channel's
 * elements, and where blocks start at different channels the tap masks fill with other channels'
 * entries; the one shape measured past it ran slower than the channel groups, none below it did
 * (BENCHMARKS.md note 153). */
#define FOLD_MOST_TAPS 16

/* Taps summed per output: each window row's column taps, then each tapped row entry per column. */
static bool sums_few_taps(const struct block_shape *shape)
{
    return shape->rows * layout_taps(&shape->x) + layout_taps(&shape->y) * shape->block_x <=
           FOLD_MOST_TAPS * shape->block_y * shape->block_x;
}

/* Channels-last planes of few channels (those that take CHANNEL_FEW_LANES) as planes of rows
 * whose columns are the pixels' channels in turn, where both tensors keep each pixel's channels
 * together: each block's window then holds the neighbouring pixels' channels, and its rows leave
 * as vectors where a channel group's scalar stores each wrote a part of every line they touched
 * (BENCHMARKS.md note 153; forward but past FOLD_MOST_TAPS). Backward only where the channel
 * groups would not read dY as well: where they load 3 or more float32 channels one by one, or
 * 16-bit channels as whole vectors, they ran faster than the fold. Not where the folded backward
 * block is a single element: on a downscale a block of two that straddles two pixels taps elements
 * a pixel of channels apart, past RESAMPLE_MAX_WINDOW where the channels are many, and each
 * invocation would write one element where channel groups write 8 (note 179).
 * The header of that view in *folded. */
static bool fold_channels(const struct resample_params *hdr, bool backward, dmlvk_tensor_data_type type,
                          struct resample_params *folded)
{
    const bool storage16 = DMLVK_IS_16BIT_FLOAT(type);
    const uint32_t c = hdr->out_sizes[1];
    if (backward && !(storage16 ? c % 4 != 0 : c == 2))
        return false;
    if (!few_channels(c, storage16) || hdr->out_strides[3] != (uint64_t)c * hdr->out_strides[1] ||
        hdr->in_strides[3] != (uint64_t)c * hdr->in_strides[1] || (uint64_t)hdr->out_sizes[3] * c > INT32_MAX ||
        (uint64_t)hdr->in_sizes[3] * c > INT32_MAX)
        return false;
    *folded = *hdr;
    folded->out_sizes[3] *= c;
    folded->in_sizes[3] *= c;
    folded->out_strides[3] = hdr->out_strides[1];
    folded->in_strides[3] = hdr->in_strides[1];
    folded->out_sizes[1] = folded->in_sizes[1] = 1;
    folded->out_strides[1] = folded->in_strides[1] = 0;
    return true;
}

/* The most planes per written index of a volume block that its plain sums load at once
 * (RESAMPLE_SPEC_DEPTH_TAPS): every plan measured taps at most 3 (BENCHMARKS.md note 155), and
 * each plane unrolled is a copy of the block's row sums, which lavapipe compiles slowly. */
#define DEPTH_UNROLL_TAPS 3

/* A volume's blocks along axis 1 (RESAMPLE_SPEC_DEPTH_*) of `block` neighbouring written
 * indices, at the phase whose blocks tap the fewest planes: their most in *taps. */
static void plan_depth(struct block_axis axis, uint32_t block, struct block_shape *shape, int64_t *taps)
{
    axis.block = block;
    shape->depth_block = block;
    shape->depth_phase = 0;
    *taps = INT64_MAX;
    for (uint32_t p = 0; p < block; p++) {
        axis.phase = p;
        int64_t most = 0, lo, hi;
        for (int64_t j = 0; j < block_count(&axis); j++)
            if (block_taps(&axis, j, &lo, &hi) && hi - lo > most)
                most = hi - lo;
        if (most < *taps) {
            *taps = most;
            shape->depth_phase = p;
        }
    }
    shape->depth_taps = *taps <= (int64_t)DEPTH_UNROLL_TAPS * block ? (uint32_t)*taps : 0;
}

/* A volume's planes by pairs of written indices of axis 1 where a pair taps fewer planes than its
 * two indices apart (pairs that share no planes ran slower), and in float32 forward no more than
 * one of them (pairs that tap 3 ran slower there); backward pairs take 2x4 blocks in place of 4x4,
 * which ran slower (BENCHMARKS.md note 155). */
static void choose_depth_block(struct block_axis planes, struct block_axis y, struct block_axis x, bool backward,
                               dmlvk_tensor_data_type type, const struct resample_params *hdr, struct block_shape *shape)
{
    struct block_shape pair = *shape;
    int64_t single_taps, pair_taps;
    plan_depth(planes, 1, shape, &single_taps);
    if (planes.members < 2)
        return;
    plan_depth(planes, 2, &pair, &pair_taps);
    if (pair_taps >= 2 * single_taps || (!backward && !DMLVK_IS_16BIT_FLOAT(type) && pair_taps > single_taps))
        return;
    struct block_shape smaller;
    if (backward && pair.block_y == 4 && pair.block_x == 4 && try_block_shape(y, x, 2, 4, hdr, &smaller)) {
        smaller.depth = true;
        smaller.depth_block = pair.depth_block;
        smaller.depth_phase = pair.depth_phase;
        smaller.depth_taps = pair.depth_taps;
        pair = smaller;
    }
    *shape = pair;
}

/* Plans the block gather where axis 0 is an identity, axis 1 too or (volumes, over planes of rows)
 * scaled, and some block shape fits; otherwise shape->rows stays 0 and the general loops run.
 * identity: bit d where axis d is one (identity_axis). */
static dmlvk_status plan_block_gather(struct dmlvk_op_plan *plan, const struct axis *axes, uint32_t identity,
                                      bool backward, bool linear, bool shuffles, uint32_t table_at,
                                      struct resample_params *hdr, dmlvk_tensor_data_type type,
                                      struct block_shape *shape)
{
    *shape = (struct block_shape){ 0 };
    if (!(identity & 1))
        return DMLVK_OK;
    /* A scaled axis 1 only where 2 and 3 scale too: otherwise block_order moves it to 2 or 3. */
    const bool depth = !(identity >> 1 & 1);
    if (depth && (identity & 0xc) != 0)
        return DMLVK_OK;
    /* The shader's window indices are signed, and so are a volume's plane indices. */
    if (axes[2].big > INT32_MAX || axes[3].big > INT32_MAX || (depth && axes[1].big > INT32_MAX))
        return DMLVK_OK;
    /* Planes of rows, or channels-last planes; where axis 0 moves fastest in the written tensor,
     * the general gather, walking that axis, keeps neighbours together. */
    uint32_t fastest = AXES - 1;
    for (uint32_t d = 0; d < AXES - 1; d++)
        if (hdr->out_sizes[d] > 1 && hdr->out_strides[d] < hdr->out_strides[fastest])
            fastest = d;
    bool channels = fastest == 1 && hdr->out_sizes[1] > 1;
    if ((!channels && fastest != AXES - 1) || (channels && depth))
        return DMLVK_OK;
    struct block_axis ba[2];
    for (uint32_t a = 0; a < 2; a++)
        ba[a] = (struct block_axis){ .map = table(plan, table_at, hdr->map_offset[2 + a]),
                                     .ranges = backward ? table(plan, table_at, hdr->range_offset[2 + a]) : NULL,
                                     .members = hdr->out_sizes[2 + a],
                                     .advance = backward ? axes[2 + a].scale : 1 / axes[2 + a].scale,
                                     .fold = 1, .storage16 = a == 1 && DMLVK_IS_16BIT_FLOAT(type) };
    const struct resample_params unfolded = *hdr;
    struct resample_params folded;
    bool fold = false;
    if (channels && fold_channels(hdr, backward, type, &folded)) {
        struct block_axis x = ba[1];
        x.fold = hdr->out_sizes[1];
        x.members = folded.out_sizes[3];
        if (choose_block_shape(ba[0], x, linear, false, shuffles, type, &folded, shape) &&
            (backward ? shape->block_y * shape->block_x > 1 : sums_few_taps(shape))) {
            ba[1] = x;
            *hdr = folded;
            channels = false;
            fold = true;
        }
    }
    if (!fold && (channels ? !choose_channel_shape(ba[0], ba[1], DMLVK_IS_16BIT_FLOAT(type), hdr, shape)
                           : !choose_block_shape(ba[0], ba[1], linear, depth, shuffles, type, hdr, shape))) {
        *shape = (struct block_shape){ 0 };
        return DMLVK_OK;
    }
    shape->depth = depth;
    struct block_axis planes = { .map = table(plan, table_at, hdr->map_offset[1]),
                                 .ranges = backward ? table(plan, table_at, hdr->range_offset[1]) : NULL,
                                 .members = hdr->out_sizes[1], .fold = 1 };
    if (depth)
        choose_depth_block(planes, ba[0], ba[1], backward, type, hdr, shape);
    ba[0].block = shape->block_y;
    ba[0].align = 1;
    ba[0].regular = shape->regular_y;
    ba[1].block = shape->block_x;
    ba[1].phase = shape->x_phase;
    ba[1].align = shape->vector_loads ? shape->chunk : 1;
    ba[1].regular = shape->regular_x;
    planes.block = depth ? shape->depth_block : 1;
    planes.phase = shape->depth_phase;
    uint32_t groups = channels ? (hdr->out_sizes[1] + shape->channel_lanes - 1) / shape->channel_lanes
                               : (uint32_t)block_count(&planes);
    shape->blocks = (uint64_t)hdr->out_sizes[0] * groups * block_count(&ba[0]) * block_count(&ba[1]);
    if (shape->blocks >= UINT64_C(1) << 31) { /* div_by's range */
        *shape = (struct block_shape){ 0 };
        *hdr = unfolded;
        return DMLVK_OK;
    }
    for (uint32_t a = 0; a < 2; a++) {
        uint32_t at = fill_block_table(plan, table_at + hdr->map_offset[2 + a],
                                       backward ? table_at + hdr->range_offset[2 + a] : UINT32_MAX, ba[a],
                                       a == 0 ? shape->rows : shape->chunk * shape->chunks,
                                       a == 1 && !channels ? &hdr->x_classes : NULL);
        if (at == UINT32_MAX)
            return DMLVK_ERROR_OUT_OF_MEMORY;
        hdr->block_table[a] = at;
    }
    /* Exact plain sums for 16-bit gathers that write at least as many rows and columns as they
     * read: gathers that write fewer, with their taller windows, and float32 ones ran slower
     * (BENCHMARKS.md note 146). */
    if (DMLVK_IS_16BIT_FLOAT(type) && !channels && !depth && !word_loads(shape, hdr, type) &&
        writes_plane_no_smaller(hdr)) {
        uint32_t outside[2];
        bool exact = true;
        for (uint32_t a = 0; a < 2 && exact; a++) {
            ba[a].map = table(plan, table_at, hdr->map_offset[2 + a]); /* the tables may have moved the block */
            ba[a].ranges = backward ? table(plan, table_at, hdr->range_offset[2 + a]) : NULL;
            exact = exact_sums(&ba[a], a == 0 ? shape->y.taps : shape->x.taps,
                               a == 0 ? shape->rows : shape->chunk * shape->chunks, hdr->in_sizes[2 + a], &outside[a]);
        }
        if (exact) {
            shape->exact = true;
            shape->exact_edges = outside[0] << 16;
            for (uint32_t c = 0; c < shape->chunks; c++)
                if (outside[1] >> (c * shape->chunk) & ((UINT32_C(1) << shape->chunk) - 1))
                    shape->exact_edges |= UINT32_C(1) << c;
        }
    }
    uint32_t divisors[3] = { (uint32_t)block_count(&ba[1]), (uint32_t)block_count(&ba[0]), groups };
    if (channels) {
        divisors[2] = divisors[1];
        divisors[1] = divisors[0];
        divisors[0] = groups;
    }
    for (uint32_t k = 0; k < 3; k++)
        hdr->block_magic[k] = division_magic(divisors[k]);
    return DMLVK_OK;
}

/* Whether the float32 forward block gather's rows of 4 columns leave through the subgroup
 * (glsl/resample_block.glsl, the DMLVK_SHUFFLE build) where they cannot leave as vectors: each
 * scalar store of a block's own members writes a part of every line it touches (BENCHMARKS.md
 * notes 124 and 126; blocks of 2 columns, the backward's blocks and 16-bit pairs gained nothing
 * or ran slower). */
static bool stores_shuffled(const struct dmlvk_op_context *ctx, const struct block_shape *shape,
                            const struct resample_params *hdr, bool backward, dmlvk_tensor_data_type type)
{
    return ctx->subgroup_shuffle && !backward && type == DMLVK_TENSOR_DATA_TYPE_FLOAT32 && shape->rows &&
           !shape->channel_lanes && !shape->depth && shape->block_x == 4 && !shape->vector_stores && hdr->out_strides[AXES - 1] == 1 &&
           ctx->subgroup_size % shape->block_x == 0;
}

/* The most columns of the written rows for which 16-bit block gathers store their odd rows as
 * words through the subgroup: onto wider rows they mostly ran slower (BENCHMARKS.md note 186). */
#define ODD_ROW_WORDS_MOST_COLUMNS 41

/* Whether a 16-bit block gather over planes stores the block rows that start on an odd element as
 * words through the subgroup (RESAMPLE_SPEC_ODD_ROW_WORDS): narrow rows of an even block width
 * that cannot leave as vectors, where some row starts odd (an odd stride or X_PHASE). The constant
 * selects the build whose subgroups shuffle, and there full subgroups store every block row
 * transposed (store_rows_transposed) before the words are reached: the words store only in
 * subgroups cut short, so note 186's and 188's times are those of the transposed stores
 * (BENCHMARKS.md note 190). */
static bool odd_row_words(const struct dmlvk_op_context *ctx, const struct block_shape *shape,
                          const struct resample_params *hdr, dmlvk_tensor_data_type type)
{
    if (!ctx->subgroup_shuffle || !DMLVK_IS_16BIT_FLOAT(type) || !shape->rows || shape->channel_lanes || shape->depth ||
        shape->vector_stores || shape->block_x % 2 || hdr->out_strides[AXES - 1] != 1 ||
        hdr->out_sizes[AXES - 1] > ODD_ROW_WORDS_MOST_COLUMNS)
        return false;
    bool odd = shape->x_phase % 2;
    for (uint32_t d = 0; d < AXES - 1; d++)
        odd = odd || (hdr->out_sizes[d] > 1 && hdr->out_strides[d] % 2);
    return odd;
}

/* The general loops' lanes (RESAMPLE_SPEC_LANES): neighbouring elements of the walk's first axis
 * per invocation where that axis is long enough to waste few of them: along an identity axis 16
 * bytes' worth (4 of float32, 8 of a 16-bit type), one load per tap; along a scaled axis 4, each
 * with its own taps (8 of float16 there ran slower: BENCHMARKS.md note 33). The backward loops
 * take lanes only along an identity axis: their ranges would differ per lane. */
struct lanes {
    uint32_t lanes;
    bool vector_loads, vector_stores;
};

static struct lanes plan_lanes(const struct resample_params *hdr, uint32_t axis, bool identity, bool backward,
                               bool storage16)
{
    struct lanes l = { 1, false, false };
    uint32_t n = hdr->out_sizes[axis], lanes = storage16 && identity ? 8 : 4;
    if ((backward && !identity) || (n % lanes != 0 && n < 4 * lanes))
        return l;
    l.lanes = lanes;
    l.vector_loads = identity && rows_of(hdr->in_sizes, hdr->in_strides, axis, lanes);
    l.vector_stores = rows_of(hdr->out_sizes, hdr->out_strides, axis, lanes);
    return l;
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

/*
 * An order of the axes for the block gathers where the tensors' own order leaves a plan to the
 * general loops (a transposed or batch-fastest layout, a 1-D channels-last one): the scaled axes
 * (at most two) at 2 and 3, and the axis whose written elements lie closest either at 3 (it is
 * scaled: planes of rows) or at 1 (an identity: channels-last planes); the other axes by their
 * written strides, the closer nearer the end. A third scaled axis goes to 1 (a volume's planes of
 * rows), where the closest-packed axis is scaled. Every axis maps on its own, so the values are the
 * same in any order. perm[p] is the tensors' axis at position p; false where there is none.
 */
static bool block_order(const struct resample_params *hdr, uint32_t identity, uint32_t perm[AXES])
{
    /* The axes by written stride, those of size 1 last (they may take any position). */
    uint32_t by_stride[AXES], scaled = 0;
    for (uint32_t d = 0; d < AXES; d++) {
        by_stride[d] = d;
        scaled += !(identity >> d & 1);
    }
    for (uint32_t k = 1; k < AXES; k++)
        for (uint32_t j = k; j > 0; j--) {
            uint32_t a = by_stride[j], b = by_stride[j - 1];
            bool a_first = hdr->out_sizes[a] > 1 && (hdr->out_sizes[b] == 1 || hdr->out_strides[a] < hdr->out_strides[b]);
            if (!a_first)
                break;
            by_stride[j] = b;
            by_stride[j - 1] = a;
        }
    uint32_t fastest = by_stride[0];
    bool planes = !(identity >> fastest & 1);
    if (scaled == 0 || scaled > 3 || (scaled == 3 && !planes) || hdr->out_sizes[fastest] == 1)
        return false;
    bool used[AXES] = { false };
    uint32_t order[2], n = 0; /* the axes at 3 and 2 */
    if (!planes) {
        perm[1] = fastest;
        used[fastest] = true;
    }
    for (int pass = 0; pass < 2 && n < 2; pass++) { /* the scaled axes first, then identities */
        for (uint32_t k = 0; k < AXES && n < 2; k++) {
            uint32_t d = by_stride[k];
            if (!used[d] && ((identity >> d & 1) == 0) == (pass == 0)) {
                order[n++] = d;
                used[d] = true;
            }
        }
    }
    perm[3] = order[0];
    perm[2] = order[1];
    /* A third scaled axis at 1 (volumes), else the closer packed of the rest there. */
    for (uint32_t k = 0; k < AXES && planes && scaled == 3; k++)
        if (!used[by_stride[k]] && !(identity >> by_stride[k] & 1)) {
            perm[1] = by_stride[k];
            used[by_stride[k]] = true;
            planes = false; /* position 1 is taken */
        }
    for (uint32_t k = 0, p = planes ? 1 : 0; k < AXES; k++) {
        uint32_t d = by_stride[k];
        if (used[d])
            continue;
        perm[p] = d;
        used[d] = true;
        p = 0;
    }
    for (uint32_t p = 0; p < AXES; p++)
        if (perm[p] != p)
            return true;
    return false;
}

/* Puts axis perm[p] of the axes, the header's per-axis fields and the identity bits at p. */
static void permute_axes(const uint32_t perm[AXES], struct axis axes[AXES], struct resample_params *hdr,
                         uint32_t *identity)
{
    struct axis a[AXES];
    struct resample_params h = *hdr;
    uint32_t id = 0;
    for (uint32_t p = 0; p < AXES; p++) {
        uint32_t d = perm[p];
        a[p] = axes[d];
        h.out_sizes[p] = hdr->out_sizes[d];
        h.in_sizes[p] = hdr->in_sizes[d];
        h.out_strides[p] = hdr->out_strides[d];
        h.in_strides[p] = hdr->in_strides[d];
        h.map_offset[p] = hdr->map_offset[d];
        h.range_offset[p] = hdr->range_offset[d];
        id |= (*identity >> d & 1) << p;
    }
    memcpy(axes, a, sizeof(a));
    *hdr = h;
    *identity = id;
}

dmlvk_status dmlvk_plan_resample(const struct dmlvk_op_context *ctx, const struct resample_fields *f,
                                 struct dmlvk_op_plan *plan)
{
    const char *op = f->op;
    struct dmlvk_tensor in, out;
    dmlvk_status st;
    if ((st = dmlvk_check_tensor(ctx, f->input_name, f->input, DMLVK_FLOAT_TYPES, f->min_dims, AXES, false, &in)) ||
        (st = dmlvk_check_tensor(ctx, f->output_name, f->output, DMLVK_FLOAT_TYPES, f->min_dims, AXES, true, &out)) ||
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
        table_words += MAP_WORDS * (uint64_t)axes[d].big + (f->backward ? 2 * (uint64_t)axes[d].small : 0);
    }
    if (table_words > MAX_TABLE_WORDS)
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "%s: the axes are too long for the coordinate tables (%llu words)", op,
                           (unsigned long long)table_words);

    /* The header (struct resample_params), then the tables from its table[]. */
    plan->data_type = in.type;
    const struct dmlvk_tensor *written = &out, *read = &in;
    struct resample_params hdr = { 0 };
    for (uint32_t d = 0; d < AXES; d++) {
        hdr.out_sizes[d] = d < pad ? 1 : written->sizes[d - pad];
        hdr.in_sizes[d] = d < pad ? 1 : read->sizes[d - pad];
        hdr.out_strides[d] = d < pad ? 0 : written->strides[d - pad];
        hdr.in_strides[d] = d < pad ? 0 : read->strides[d - pad];
    }
    /* Invocation order: the written axes by stride, ascending (ties: the later axis first). */
    uint32_t walk[AXES];
    for (uint32_t k = 0; k < AXES; k++)
        walk[k] = AXES - 1 - k;
    for (uint32_t k = 1; k < AXES - pad; k++)
        for (uint32_t j = k; j > 0 && hdr.out_strides[walk[j]] < hdr.out_strides[walk[j - 1]]; j--) {
            uint32_t t = walk[j];
            walk[j] = walk[j - 1];
            walk[j - 1] = t;
        }
    uint32_t header_at = dmlvk_params_reserve(plan, sizeof(hdr) / 4);
    uint32_t table_at = plan->params_size;
    uint32_t tables = dmlvk_params_reserve(plan, (uint32_t)table_words);
    if (header_at == UINT32_MAX || tables == UINT32_MAX)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the coordinate tables", op);
    uint32_t at = 0;
    for (uint32_t d = 0; d < AXES; d++) {
        uint32_t *map = plan->params + table_at + at;
        hdr.map_offset[d] = at;
        fill_map(&axes[d], d < pad ? DMLVK_INTERPOLATION_MODE_NEAREST_NEIGHBOR : f->mode, rounding, map);
        at += MAP_WORDS * (uint32_t)axes[d].big;
        if (f->backward) {
            hdr.range_offset[d] = at;
            fill_ranges(&axes[d], map, plan->params + table_at + at);
            at += 2 * (uint32_t)axes[d].small;
        }
    }

    uint32_t identity = 0;
    for (uint32_t d = 0; d < AXES; d++)
        if (identity_axis(&axes[d], table(plan, table_at, hdr.map_offset[d])))
            identity |= UINT32_C(1) << d;
    struct block_shape shape = { 0 };
    bool storage16 = DMLVK_IS_16BIT_FLOAT(in.type);
    const bool linear = f->mode == DMLVK_INTERPOLATION_MODE_LINEAR, shuffles = ctx->subgroup_shuffle;
    if (plan_block_gather(plan, axes, identity, f->backward, linear, shuffles, table_at, &hdr, in.type, &shape) !=
        DMLVK_OK)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the coordinate tables", op);
    /* Where the axes' own order takes no block gather, another may (BENCHMARKS.md note 149); the
     * general loops keep the tensors' order, which their walk assumes. */
    uint32_t perm[AXES];
    if (!shape.rows && block_order(&hdr, identity, perm)) {
        permute_axes(perm, axes, &hdr, &identity);
        if (plan_block_gather(plan, axes, identity, f->backward, linear, shuffles, table_at, &hdr, in.type, &shape) !=
            DMLVK_OK)
            return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the coordinate tables", op);
        if (!shape.rows) {
            uint32_t inverse[AXES];
            for (uint32_t p = 0; p < AXES; p++)
                inverse[perm[p]] = p;
            permute_axes(inverse, axes, &hdr, &identity);
        }
    }
    struct lanes lanes = { 1, false, false };
    if (!shape.rows)
        lanes = plan_lanes(&hdr, walk[0], (identity >> walk[0] & 1) != 0, f->backward, storage16);
    uint64_t invocations = written->elements / hdr.out_sizes[walk[0]] *
                           ((hdr.out_sizes[walk[0]] + lanes.lanes - 1) / lanes.lanes);
    if (shape.rows)
        invocations = shape.blocks;
    hdr.count = (uint32_t)invocations;
    uint32_t walk_bits = 0;
    for (uint32_t k = 0; k < AXES; k++) {
        uint32_t size = k == 0 ? (hdr.out_sizes[walk[0]] + lanes.lanes - 1) / lanes.lanes : hdr.out_sizes[walk[k]];
        hdr.walk_magic[k] = invocations >= UINT32_C(1) << 31 ? 1 : division_magic(size);
        walk_bits |= walk[k] << (2 * k);
    }
    memcpy(plan->params + header_at, &hdr, sizeof(hdr));

    enum dmlvk_shader shader = f->backward ? DMLVK_SHADER_RESAMPLE_BACKWARD : DMLVK_SHADER_RESAMPLE_FORWARD;
    if (shape.channel_lanes)
        shader = DMLVK_SHADER_RESAMPLE_CHANNEL_BLOCKS;
    else if (shape.depth)
        shader = f->backward ? DMLVK_SHADER_RESAMPLE_BACKWARD_VOLUME : DMLVK_SHADER_RESAMPLE_FORWARD_VOLUME;
    else if (shape.rows)
        shader = f->backward ? DMLVK_SHADER_RESAMPLE_BACKWARD_BLOCKS : DMLVK_SHADER_RESAMPLE_FORWARD_BLOCKS;
    /* Workgroups of 128 where they ran faster: backward block gathers over planes (BENCHMARKS.md
     * note 78, on an H100 and an H200); channels-last LINEAR backward ones whose blocks tap
     * different entries of their column windows (odd scales), but bfloat16 and 2x ones (note 81);
     * of the forward's, only 16-bit gathers of 2-element loads (note 59). */
    const bool half_workgroups =
        shape.rows && (shape.channel_lanes
                           ? f->backward && linear && !shape.regular_x && in.type != DMLVK_TENSOR_DATA_TYPE_BFLOAT16
                           : f->backward || (storage16 && shape.chunk == 2));
    struct dmlvk_op_context sized = half_workgroups ? dmlvk_context_capped(ctx, 128) : *ctx;
    struct dmlvk_dispatch_plan *dp =
        dmlvk_plan_add_dispatch(plan, &sized, shader, DMLVK_PUSH_SLOTS(resample_push), invocations);
    if (!dp)
        return DMLVK_ERROR_UNSUPPORTED;
    const bool odd_words = odd_row_words(ctx, &shape, &hdr, in.type);
    if (odd_words || stores_shuffled(ctx, &shape, &hdr, f->backward, in.type))
        dp->features |= DMLVK_VARIANT_SUBGROUP_SHUFFLE;
    DMLVK_BIND(dp, resample_push, p, DMLVK_SLOT_PARAMS);
    DMLVK_BIND(dp, resample_push, src, 0); /* binding 0: the input (or InputGradientTensor) */
    DMLVK_BIND(dp, resample_push, dst, 1);
    const bool words = word_loads(&shape, &hdr, in.type);
    const struct {
        uint32_t id, value;
    } spec[] = {
        { RESAMPLE_SPEC_LINEAR, linear },
        { RESAMPLE_SPEC_DIMS, in.dims },
        { RESAMPLE_SPEC_ROWS, shape.rows },
        { RESAMPLE_SPEC_CHUNKS, shape.chunks },
        { RESAMPLE_SPEC_BLOCK_Y, shape.block_y },
        { RESAMPLE_SPEC_BLOCK_X, shape.block_x },
        { RESAMPLE_SPEC_VECTOR_LOADS, shape.rows ? shape.vector_loads : lanes.vector_loads },
        { RESAMPLE_SPEC_VECTOR_STORES, shape.rows ? shape.vector_stores : lanes.vector_stores },
        { RESAMPLE_SPEC_X_PHASE, shape.x_phase },
        { RESAMPLE_SPEC_CHUNK, shape.chunk ? shape.chunk : 4 },
        { RESAMPLE_SPEC_X_TAPS_LO, shape.rows ? (uint32_t)shape.x.taps : UINT32_MAX },
        { RESAMPLE_SPEC_X_TAPS_HI, shape.rows ? (uint32_t)(shape.x.taps >> 32) : UINT32_MAX },
        { RESAMPLE_SPEC_Y_TAPS_LO, shape.rows ? (uint32_t)shape.y.taps : UINT32_MAX },
        { RESAMPLE_SPEC_Y_TAPS_HI, shape.rows ? (uint32_t)(shape.y.taps >> 32) : UINT32_MAX },
        { RESAMPLE_SPEC_WALK, walk_bits },
        { RESAMPLE_SPEC_LANES, shape.channel_lanes ? shape.channel_lanes : lanes.lanes },
        { RESAMPLE_SPEC_IDENTITY, identity },
        { RESAMPLE_SPEC_WORD_LOADS, words },
        { RESAMPLE_SPEC_X_CLASSES, hdr.x_classes != 0 },
        { RESAMPLE_SPEC_EXACT, shape.exact },
        { RESAMPLE_SPEC_EXACT_EDGES, shape.exact_edges },
        { RESAMPLE_SPEC_DEPTH_BLOCK, shape.depth ? shape.depth_block : 1 },
        { RESAMPLE_SPEC_DEPTH_PHASE, shape.depth_phase },
        { RESAMPLE_SPEC_DEPTH_TAPS, shape.depth_taps },
        { RESAMPLE_SPEC_PAIRS, shape.pairs },
        { RESAMPLE_SPEC_ODD_ROW_WORDS, odd_words },
    };
    for (size_t i = 0; i < DMLVK_ARRAY_SIZE(spec); i++)
        dmlvk_dispatch_spec(plan, dp, spec[i].id, spec[i].value);
    /* An aligned form, without the scalar copies of the row loop, for block gathers over planes
     * where it ran faster (BENCHMARKS.md notes 140 and 141): backward ones with vector accesses in
     * blocks of fewer than 16 members (4x4 blocks ran slower in it), and 16-bit forward ones that
     * store vectors (float32 forward rows and 16-bit ones that store no vectors ran slower).
     * Channels-last gathers ran slower in it (note 140). */
    const bool backward_form =
        f->backward && (shape.vector_loads || shape.vector_stores) && shape.block_y * shape.block_x < 16;
    const bool forward_form = !f->backward && storage16 && shape.vector_stores;
    if (shape.rows && !shape.channel_lanes && (backward_form || forward_form))
        dmlvk_dispatch_aligned(plan, dp, RESAMPLE_SPEC_ALIGNED,
                               (shape.vector_loads ? 1u << 0 : 0) | (shape.vector_stores ? 1u << 1 : 0));
    return DMLVK_OK;
}
