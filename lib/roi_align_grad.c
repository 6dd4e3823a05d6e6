/*
 * ROI_ALIGN_GRAD (OPERATORS.md section 4). Shaders: glsl/roi_align_grad_*.comp, one per stage;
 * validation shared with ROI_ALIGN1 in roi_align.c.
 *
 * Under AVERAGE the input gradient is a gather by tiles (plan_gather): every element is stored
 * once, summed in region order (on small maps under many regions, in parts of consecutive regions
 * whose sums a last pass adds in part order), so every mode is deterministic and needs no
 * atomics. So it is
 * under MAX where the atomics that mode wants are missing (float atomics by default, int64 atomics
 * in the deterministic mode): a first pass finds each bin's winning sample per channel, and the
 * gather adds the winners' shares. It loads a 16-byte record per channel where AVERAGE loads 2 or
 * 4 bytes, so the scatters beat it where they can run (BENCHMARKS.md, note 48). Otherwise (MAX
 * with those atomics; workgroup sizes that make no whole tiles: neither a multiple of 32 nor a
 * multiple of 4 below 32; maps past 65536 rows or columns under MAX) it is a scatter, in one of
 * three ways:
 * - float32 output, default: zero the output, then float atomic adds straight into it
 *   (VK_EXT_shader_atomic_float, or a compare-and-swap loop where the device lacks it);
 * - float16 output: the same into a float32 scratch buffer, then one pass converts;
 * - deterministic: a pass finds max |dY|, the scatter adds int64 fixed-point values (integer
 *   addition is associative, so the order of the atomics no longer matters), and one pass
 *   converts. Costs an extra read of dY, 12 bytes of scratch per input element (the sum, and
 *   flags for the Inf and NaN terms, which no fixed point holds) and the conversion pass; needs
 *   shaderBufferInt64Atomics. Values sit on a grid of 2^-62 * max|dY| * NumROIs * OutH * OutW
 *   (to its power of two), far finer than float32 for every realistic sum, for every finite dY.
 * The ROI gradient reduces with fixed trees and a fixed order of parts: deterministic always. Its
 * own stages (plan_roi_gradient) read the input at every tap; float32 gathers with all their
 * channels sum it on the way instead (roi_align_grad_gather_roi, roi_align_grad_roi_tiles), reading
 * each element of the input once.
 */
#include <stddef.h>

#include "roi_align.h"

#define NAME "ROI_ALIGN_GRAD"
typedef dmlvk_roi_align_grad_operator_desc desc_t;

enum { B_INPUT, B_DY, B_ROIS, B_BATCH, B_GRAD, B_ROI_GRAD };

/*
 * The scatter by regions (AVERAGE; glsl/roi_align_grad_scatter_regions.comp): one workgroup per
 * region and `region_channels` channels, about 256 pixel taps per invocation with the region's
 * expected sample grid: each workgroup first lists its region's taps on one thread, which fewer
 * channels per workgroup repeat more often (fewer taps per invocation ran slower on an H100).
 * Returns its invocation count.
 */
static uint64_t region_scatter_size(const struct dmlvk_op_context *ctx, const struct roi_fields *f,
                                    const struct roi_shape *s, uint32_t *region_channels)
{
    uint64_t samples = f->min_samples ? f->min_samples : 1;
    uint64_t taps = 4 * samples * samples * s->out_h * s->out_w; /* per channel */
    uint64_t want = 256 * (uint64_t)ctx->workgroup_size / taps;
    uint32_t channels = s->channels;
    *region_channels = want < 1 ? 1 : want > channels ? channels : (uint32_t)want;
    return (uint64_t)s->num_rois * ((channels + *region_channels - 1) / *region_channels) * ctx->workgroup_size;
}

/* Workgroups below which the gather takes fewer channels per workgroup: a few per multiprocessor
 * of a large GPU. */
#define ROI_GATHER_MIN_WORKGROUPS 512
/* Workgroups (at ROI_GATHER_QUADS and its most channels) from which a map is large: there a MAX
 * gather keeps ROI_GATHER_QUADS invocations per element, and 16-bit AVERAGE ones that store rows
 * but do not stage take tiles ROI_GATHER_TILE_W_16BIT wide. */
#define ROI_GATHER_LARGE_FROM 2048
/* Workgroups below which it splits each element's regions over more invocations. */
#define ROI_GATHER_SPLIT_BELOW 1024
/* Workgroups below which it divides the regions into parts (ROI_GATHER_MAX_PARTS), each part at
 * least ROI_GATHER_PART_REGIONS regions, where the regions' bins number at least
 * ROI_GATHER_PARTS_FROM_BINS per input pixel: before fewer channels per workgroup or splits, as
 * parts repeat no walk (fewer channels repeat every region's walk for each of their workgroups),
 * for the price of each part's float32 input gradient, stored element by element and read once
 * more. That pays where each element's walk is long, not where it is short (BENCHMARKS.md
 * note 171). */
#define ROI_GATHER_PARTS_BELOW 2048
#define ROI_GATHER_PART_REGIONS 64
#define ROI_GATHER_PARTS_FROM_BINS 16
/* Where the gather makes fewer than ROI_GATHER_FEW_TILES_BELOW workgroups with all its channels, the
 * regions number more than ROI_GATHER_PART_REGIONS and have more than
 * ROI_GATHER_FEW_TILES_REGION_BINS bins (small maps under 14x14 bins), parts from
 * ROI_GATHER_FEW_TILES_FROM_BINS bins per input pixel, each of at least
 * ROI_GATHER_FEW_TILES_PART_REGIONS regions: there the parts spread the walks over more of the
 * device; more workgroups, 7x7 bins and fewer regions ran no faster or slower so (BENCHMARKS.md
 * note 180). */
#define ROI_GATHER_FEW_TILES_BELOW 256
#define ROI_GATHER_FEW_TILES_REGION_BINS 49
#define ROI_GATHER_FEW_TILES_FROM_BINS 8
#define ROI_GATHER_FEW_TILES_PART_REGIONS 16
/* Where the regions' bins number at most ROI_GATHER_PARTS_FOR_SPLITS_MOST_BINS per input pixel (short
 * walks), parts replace the splits the gather would make, as many (plan_gather; BENCHMARKS.md note 172). */
#define ROI_GATHER_PARTS_FOR_SPLITS_MOST_BINS 2
/* Bins per input pixel past which a 16-bit gather of 8 invocations per element stores an element
 * per invocation (plan_gather's `rows`). */
#define ROI_GATHER_ROWS_MOST_BINS 2
/* Float32 gathers that store rows of a packed input gradient on large maps take tiles
 * ROI_GATHER_TILE_W_FEW_REGIONS wide (64-byte tile rows, where ROI_GATHER_TILE_W makes 32) where
 * the regions number at most one per ROI_GATHER_FEW_REGIONS_PIXELS pixels of the map: most tiles
 * then meet no region and only store zeros, which wider rows store faster; where most tiles meet
 * regions, the wider tiles' walks cost more than their stores gain (BENCHMARKS.md note 168). */
#define ROI_GATHER_TILE_W_FEW_REGIONS 16
#define ROI_GATHER_FEW_REGIONS_PIXELS 512
/* The gather stages its tiles' lines in shared memory (ROI_SPEC_GATHER_STAGED) for a 16-bit type
 * where the regions' bins number at most ROI_GATHER_STAGED_MOST_BINS per input pixel and at most
 * ROI_GATHER_STAGED_REGION_BINS per region: with few sample rows and columns per region, most
 * regions over a tile have no weight on a given pixel, and the staged walk skips those. Float32
 * gathers, 14x14 bins and many bins per pixel ran slower staged (BENCHMARKS.md note 75; float32
 * in workgroups of 128 too, note 92), and so did staging the chunk's dY as well (note 92). A
 * workgroup stages its regions' lines once for all its channels: under
 * ROI_GATHER_STAGED_FROM_CHANNELS of them that costs more than it saves (note 181). */
#define ROI_GATHER_STAGED_MOST_BINS 2
#define ROI_GATHER_STAGED_REGION_BINS 49
#define ROI_GATHER_STAGED_FROM_CHANNELS 128
/* Float32 AVERAGE gathers without the ROI gradient read pooled lines' column weights
 * ROI_GATHER_POOL_STEP at a time (ROI_SPEC_GATHER_POOL_STEP) where the regions have more than
 * ROI_GATHER_STEPPED_POOL_BINS bins: there bins narrower than a pixel (small regions) make many
 * pools (BENCHMARKS.md note 170); 7x7 bins and 16-bit gathers ran slower so (the code's registers,
 * where pools are rare). */
#define ROI_GATHER_STEPPED_POOL_BINS 49

/*
 * The gather by tiles (glsl/roi_align_grad_gather.comp): one workgroup per tile of
 * ROI_GATHER_TILE_W columns by workgroup_size / (quads * ROI_GATHER_TILE_W) rows (fewer columns in
 * smaller workgroups) and `group_channels` channels, `quads` invocations per element, each
 * accumulating up to 4 * ROI_GATHER_VECS channels in registers. Under AVERAGE 8 invocations per
 * element, whose loads of a bin fill whole cache lines and whose warps walk the regions of fewer
 * pixels (on large maps faster than 4 invocations and 128 channels per workgroup, note 77);
 * the walks are latency-bound, so fewer channels per workgroup (fewer registers, but more walks),
 * 4 invocations of 64 channels (fewer walks, but fewer warps) and a channel per invocation
 * (every region in turn for the whole workgroup) all ran slower on large maps (note 92);
 * under MAX 4 on large maps, as measured for AVERAGE before (notes 41, 43 and 44; MAX gathers only
 * where atomics are missing; note 161: 8 were no faster there). With few workgroups (small maps, or
 * few pixels per batch) fewer channels per workgroup, down to a step of whole loads and whole
 * vec4 of sums per invocation, so that the invocations' walks over the regions spread over more
 * of the device (notes 41, 43 and 44); with fewer workgroups still (a small map's few tiles),
 * two invocations per element and channels, each walking every other region, their sums added
 * in shared memory (note 50; 4 and 8 such splits were no faster), and
 * there ROI_GATHER_QUADS_SPLIT invocations per element (plan_gather, note 83). Each
 * workgroup reads every region's record to find those over it. Its stores: an element per
 * invocation, or whole tile rows (plan_gather's `rows`).
 * Scratch: dY as [region][bin][channel] in its own type (a 16-bit type's bits: exact, and half
 * the bytes to write and to gather; under MAX a ROI_WINNER_BYTES record per channel), channels
 * padded to whole workgroups' worth, then ROI_LINE_WORDS per region and input row or column, then
 * ROI_REGION_WORDS per region (reach and batch), then the regions' pools of line weights
 * (roi_align_abi.h). The prepare pass (glsl/roi_align_grad_prepare.comp) transposes a region's
 * ROI_TRANSPOSE_CHANNELS channels per workgroup (under MAX glsl/roi_align_grad_winners.comp finds
 * their winners), then (a second dispatch) weighs the lines and records the regions, an
 * invocation each; on small maps the geometry stage's workgroups do that last part
 * (lines_in_geometry).
 */
_Static_assert((ROI_GATHER_VECS & (ROI_GATHER_VECS - 1)) == 0, "the gather masks sum indices with ROI_GATHER_VECS");

struct gather_plan {
    uint32_t group_channels, quads, splits;
    uint32_t parts;                     /* ROI_SPEC_GATHER_PARTS */
    bool few_workgroups;                /* fewer channels per workgroup, splits or parts, to make more */
    uint32_t tile_w;                    /* ROI_SPEC_GATHER_TILE_W */
    bool rows;                          /* ROI_SPEC_GATHER_ROWS */
    bool staged;                        /* ROI_SPEC_GATHER_STAGED */
    uint32_t pool_step;                 /* ROI_SPEC_GATHER_POOL_STEP */
    uint32_t workgroup_size;            /* the gather's own */
    bool roi_grad;                      /* it sums the ROI gradient too (roi_align_grad_gather_roi) */
    uint32_t warps;                     /* ROI_SPEC_GATHER_WARPS */
    uint32_t scan;                      /* ROI_SPEC_GATHER_SCAN */
    uint64_t roi_partials;              /* its sums in scratch, vec4 */
    uint32_t lines_base;                /* roi_align_params' */
    uint32_t transpose_tiles;           /* dY's transposition's ROI_SPEC_TRANSPOSE_TILES */
    uint64_t scratch_bytes, transpose_blocks, line_invocations, gather_invocations;
};

/* At most this many regions per invocation in a round of a gather's scan for the regions over its
 * tile (ROI_SPEC_GATHER_SCAN; one where it stages): each round costs its barriers and a load's
 * latency, so a tile waits on fewer of them, but every invocation walks the whole round's bits,
 * so no more regions than there are (BENCHMARKS.md note 86). */
#define ROI_GATHER_SCAN_MOST 16

/* The scan's regions per invocation for `num_rois` regions and workgroups of `wg`. */
static uint32_t scan_regions(uint32_t num_rois, uint32_t wg)
{
    const uint32_t per_invocation = num_rois / wg + (num_rois % wg != 0);
    return per_invocation < 1 ? 1 : per_invocation > ROI_GATHER_SCAN_MOST ? ROI_GATHER_SCAN_MOST : per_invocation;
}

/* The columns of a gather's tiles of `pixels` pixels and at most `most_w` columns. */
static uint32_t tile_width(uint32_t pixels, uint32_t most_w)
{
    return pixels < most_w ? pixels : most_w;
}

/* The tiles of the input a gather with `quads` invocations per element and tiles of at most
 * `most_w` columns covers; false where the workgroup makes no whole tiles. */
static bool gather_tiles(uint32_t wg, uint32_t quads, uint32_t most_w, const struct roi_shape *s, uint64_t *tiles)
{
    const uint32_t pixels = wg / quads, tile_w = tile_width(pixels, most_w);
    if (wg % quads || pixels == 0 || pixels % tile_w)
        return false;
    const uint32_t tile_h = pixels / tile_w;
    *tiles = (uint64_t)((s->in_h + tile_h - 1) / tile_h) * ((s->in_w + tile_w - 1) / tile_w);
    return true;
}

/* The shared memory of a gather with `splits` shares of the regions and tiles `tile_w` wide (0
 * where it neither stores rows nor stages), as glsl/roi_align_grad_gather.glsl declares it (an
 * array of one element where a form is off): the scan's bits (a word per 32 regions of a round),
 * the splits' sums, the rows' stores, and where it stages lines a chunk's lines, two sets of their
 * bits per split and the list of the regions over the tile. Planned against the device's limit,
 * which may be Vulkan's minimum, 16 KiB. */
static uint64_t gather_shared_bytes(uint32_t wg, uint32_t scan, uint32_t quads, uint32_t splits, uint32_t tile_w, bool rows,
                                    bool staged)
{
    const uint64_t pixels = wg / splits / quads, lines = tile_w ? pixels / tile_w + tile_w : 0;
    const uint64_t over_bits = ((uint64_t)wg * (staged ? 1 : scan) + 31) / 32 * 4;
    const uint64_t split_sums = 16 * (splits > 1 ? (uint64_t)wg / 4 * ROI_GATHER_SPLIT_SUMS : 1);
    const uint64_t row_sums = 4 * (rows ? (uint64_t)ROI_GATHER_ROW_SUMS * quads * (pixels + 1) : 1);
    const uint64_t stage = staged ? 16 * ROI_GATHER_CHUNK_REGIONS * lines + 4 * 2 * splits * lines + 4 * (uint64_t)wg
                                  : 16 + 4 + 4;
    return over_bits + split_sums + row_sums + stage;
}

/*
 * roi_align_grad_prepare's blocks of ROI_TRANSPOSE_CHANNELS channels per workgroup
 * (ROI_SPEC_TRANSPOSE_TILES) for rows of `stride` channels: as many bytes per workgroup in 16-bit
 * types as float32's one (its loads in flight, which bind the transposition), within the channels
 * and shared memory there are (a word of the block per channel, or per two of a 16-bit type;
 * BENCHMARKS.md note 219: four tiles, or two in float32, ran slower).
 */
static uint32_t transpose_tiles(const struct dmlvk_op_context *ctx, enum dmlvk_tensor_data_type type, uint32_t stride)
{
    const uint32_t per_word = DMLVK_IS_16BIT_FLOAT(type) ? 2 : 1;
    uint32_t tiles = per_word;
    while (tiles > 1 && ((uint64_t)(tiles / 2) * ROI_TRANSPOSE_CHANNELS >= stride ||
                         (uint64_t)tiles * ROI_TRANSPOSE_CHANNELS / per_word * (ROI_TRANSPOSE_CHANNELS + 1) * 4 >
                             ctx->max_shared_bytes))
        tiles /= 2;
    return tiles;
}

/* The gather's plan with `wide_quads` invocations per element where it takes more than
 * ROI_GATHER_QUADS (plan_gather chooses them) and at most `most_parts` parts of the regions (with
 * `parts_for_splits`, where the bins number at most ROI_GATHER_PARTS_FOR_SPLITS_MOST_BINS per pixel,
 * and no splits). False where the gather does not apply. With
 * `roi_grad` (AVERAGE and LINEAR) it sums the ROI gradient too (g->roi_grad) where that measured
 * faster than the ROI gradient's own stages (BENCHMARKS.md note 82: float32 gathers with all their
 * channels and no splits; the element's input channels take registers that 16-bit and small-map
 * gathers could not spare; note 83: 16 invocations per element, for fewer of them, slower still)
 * and where it can: subgroups of at least 4 that each lie in one share of the regions, to sum a
 * region's terms in a butterfly of shuffles, and sums that fit in 1 GiB. */
static bool plan_gather_quads(const struct dmlvk_op_context *ctx, const struct roi_fields *f, const struct roi_shape *s,
                              bool roi_grad, uint32_t wide_quads, uint32_t most_parts, bool parts_for_splits,
                              struct gather_plan *g)
{
    const uint32_t wg = ctx->workgroup_size;
    uint32_t quads = ROI_GATHER_QUADS;
    uint64_t tiles, wide_tiles;
    const bool max = f->reduction == DMLVK_REDUCE_FUNCTION_MAX;
    const uint32_t scan = scan_regions(s->num_rois, wg);
    if (max && ((ctx->deterministic ? ctx->int64_atomics : ctx->float32_atomic_add) || s->in_h - 1 > ROI_WINNER_MAX_TAP ||
                s->in_w - 1 > ROI_WINNER_MAX_TAP))
        return false;
    /* The shader's limits: whole tiles, 16-bit bin indices in a line's header, 32-bit indices
     * into scratch. */
    if (!gather_tiles(wg, quads, ROI_GATHER_TILE_W, s, &tiles) || s->out_h > ROI_GATHER_MAX_BINS || s->out_w > ROI_GATHER_MAX_BINS)
        return false;
    uint64_t most = ROI_GATHER_VECS * 4 * quads;
    const bool large = tiles * s->batch_count * ((s->channels + most - 1) / most) >= ROI_GATHER_LARGE_FROM;
    if (!(large && max) && gather_tiles(wg, wide_quads, ROI_GATHER_TILE_W, s, &wide_tiles)) {
        quads = wide_quads;
        tiles = wide_tiles;
    }
    /* Whole loads and whole vec4 of sums per invocation: a 16-bit type's transposed dY keeps its
     * bits; under MAX a record per channel. */
    const uint32_t element_bytes = max ? ROI_WINNER_BYTES : DMLVK_IS_16BIT_FLOAT(s->bins.type) ? 2 : 4;
    const uint32_t load_channels = ROI_GATHER_LOAD_BYTES / element_bytes;
    const uint32_t step = (load_channels > 4 ? load_channels : 4) * quads;
    most = ROI_GATHER_VECS * 4 * quads;
    uint32_t channels = s->channels >= most ? (uint32_t)most : (s->channels + step - 1) / step * step;
    const uint32_t full_channels = channels;
    /* Parts of the regions first (their sums' 32-bit indices are checked below). */
    const uint64_t elements = s->grad.elements;
    const uint64_t bins = (uint64_t)s->num_rois * s->out_h * s->out_w;
    const uint64_t pixels_all = (uint64_t)s->batch_count * s->in_h * s->in_w;
    uint32_t parts = 1;
    const uint64_t full_workgroups = tiles * s->batch_count * ((s->channels + channels - 1) / channels);
    const bool long_walks = bins >= ROI_GATHER_PARTS_FROM_BINS * pixels_all;
    const bool few_tiles = !parts_for_splits && !long_walks && full_workgroups < ROI_GATHER_FEW_TILES_BELOW &&
                           s->num_rois > ROI_GATHER_PART_REGIONS &&
                           (uint64_t)s->out_h * s->out_w > ROI_GATHER_FEW_TILES_REGION_BINS &&
                           bins >= ROI_GATHER_FEW_TILES_FROM_BINS * pixels_all;
    const uint64_t part_regions = few_tiles ? ROI_GATHER_FEW_TILES_PART_REGIONS : ROI_GATHER_PART_REGIONS;
    const bool parts_apply = parts_for_splits ? bins <= ROI_GATHER_PARTS_FOR_SPLITS_MOST_BINS * pixels_all
                                              : long_walks || few_tiles;
    while (parts_apply && 2 * parts <= most_parts && s->num_rois >= part_regions * 2 * parts &&
           full_workgroups * parts < ROI_GATHER_PARTS_BELOW)
        parts *= 2;
    while (channels > step &&
           tiles * s->batch_count * ((s->channels + channels - 1) / channels) * parts < ROI_GATHER_MIN_WORKGROUPS)
        channels = channels / 2 < step ? step : channels / 2 / step * step;
    uint64_t stride = (s->channels + channels - 1) / channels * channels;
    /* Still few workgroups: each walk over the regions is a chain of dependent loads, so split
     * the regions over invocations (whole tiles of wg / splits invocations, their sums in shared
     * memory) while that is short of ROI_GATHER_SPLIT_BELOW workgroups. */
    uint32_t splits = 1;
    while (!parts_for_splits && splits < ROI_GATHER_MAX_SPLITS && s->num_rois >= 4 * 2 * splits &&
           channels / quads <= ROI_GATHER_SPLIT_SUMS &&
           gather_shared_bytes(wg, scan, quads, 2 * splits, 0, false, false) <= ctx->max_shared_bytes && wg % (2 * splits) == 0 &&
           tiles * s->batch_count * (stride / channels) * parts < ROI_GATHER_SPLIT_BELOW) {
        uint64_t split_tiles;
        if (!gather_tiles(wg / (2 * splits), quads, ROI_GATHER_TILE_W, s, &split_tiles))
            break;
        splits *= 2;
        tiles = split_tiles;
    }
    /* Stores of whole tile rows (ROI_SPEC_GATHER_ROWS): whole rounds of sums, whole 16-byte
     * segments per row, and room in shared memory beside the splits' sums. A 16-bit type takes
     * them where the regions' bins number at most ROI_GATHER_ROWS_MOST_BINS per input pixel: the
     * barriers before the stores wait for every walk of the workgroup, which costs more than the
     * stores gain where the walks are long and uneven (BENCHMARKS.md note 73); on large maps, where
     * it does not stage, in tiles ROI_GATHER_TILE_W_16BIT wide, so that two invocations store a
     * whole 32-byte sector (note 77; 7x7 staged ones as fast or slower so). */
    const uint32_t pixels = wg / splits / quads;
    const bool bits16 = DMLVK_IS_16BIT_FLOAT(s->grad.type);
    const uint32_t segment = ROI_GATHER_LOAD_BYTES / (bits16 ? 2 : 4);
    uint32_t tile_w = tile_width(pixels, ROI_GATHER_TILE_W);
    bool rows = !max && parts == 1 && channels / quads % ROI_GATHER_ROW_SUMS == 0 &&
                gather_shared_bytes(wg, scan, quads, splits, tile_w, true, false) <= ctx->max_shared_bytes;
    if (bits16)
        rows = rows && quads == ROI_GATHER_QUADS_WIDE && bins <= ROI_GATHER_ROWS_MOST_BINS * pixels_all;
    rows = rows && tile_w % segment == 0;
    const uint32_t subgroup = ctx->subgroup_size;
    roi_grad = roi_grad && !max && s->bins.type == DMLVK_TENSOR_DATA_TYPE_FLOAT32 && channels == full_channels &&
               splits == 1 && ctx->subgroup_shuffle && subgroup >= 4 && wg % subgroup == 0;
    const bool staged = !roi_grad && bits16 && !max && channels >= ROI_GATHER_STAGED_FROM_CHANNELS &&
                        bins <= ROI_GATHER_STAGED_MOST_BINS * pixels_all &&
                        (uint64_t)s->out_h * s->out_w <= ROI_GATHER_STAGED_REGION_BINS &&
                        gather_shared_bytes(wg, scan, quads, splits, tile_w, rows, true) <= ctx->max_shared_bytes;
    /* Wider tiles where large maps' walks store rows unstaged: every 16-bit one's, and float32 ones
     * over few regions into a packed input gradient. */
    uint32_t wide_w = 0;
    if (large && rows && !staged && splits == 1)
        wide_w = bits16 ? ROI_GATHER_TILE_W_16BIT
                 : !roi_grad && s->grad.strides[3] == 1 &&
                           (uint64_t)s->num_rois * ROI_GATHER_FEW_REGIONS_PIXELS <= pixels_all
                     ? ROI_GATHER_TILE_W_FEW_REGIONS
                     : 0;
    uint64_t wide_row_tiles;
    if (wide_w && pixels % wide_w == 0 && wide_w % segment == 0 && gather_tiles(wg, quads, wide_w, s, &wide_row_tiles)) {
        tile_w = wide_w;
        tiles = wide_row_tiles;
    }
    uint64_t lines = (uint64_t)s->num_rois * ((uint64_t)s->in_h + s->in_w);
    uint64_t transposed = (uint64_t)s->num_rois * s->out_h * s->out_w * stride; /* elements */
    const uint64_t pool_words = ROI_POOL_WORDS * (uint64_t)(s->table_x + s->table_y) * s->num_rois;
    uint64_t words = transposed * element_bytes / 4 + ROI_LINE_WORDS * lines + ROI_REGION_WORDS * (uint64_t)s->num_rois + pool_words;
    if (roi_grad) /* then the derivative lines (whole uvec4) and their two pools */
        words = (words + 3) / 4 * 4 + 4 * ROI_DERIVATIVE_LINE_VEC4 * lines + 2 * pool_words;
    const uint32_t warps = roi_grad ? wg / subgroup : 0;
    const uint64_t partials = (uint64_t)s->num_rois * tiles * (stride / channels) * warps;
    if (roi_grad && partials >= UINT64_C(1) << 26)
        return plan_gather_quads(ctx, f, s, false, wide_quads, most_parts, parts_for_splits, g);
    if (transposed + words >= UINT64_C(1) << 32)
        return false;
    /* The parts' sums follow the rest of its scratch (plan). */
    if (parts > 1 && (words + 3) / 4 * 4 + parts * elements >= UINT64_C(1) << 32)
        return plan_gather_quads(ctx, f, s, roi_grad, wide_quads, 1, parts_for_splits, g);
    const uint32_t transpose_channels = ROI_TRANSPOSE_CHANNELS * (max ? 1 : transpose_tiles(ctx, s->bins.type, stride));
    uint64_t blocks = (uint64_t)s->num_rois * ((stride + transpose_channels - 1) / transpose_channels);
    const bool stepped_pool = !max && !roi_grad && s->bins.type == DMLVK_TENSOR_DATA_TYPE_FLOAT32 &&
                              (uint64_t)s->out_h * s->out_w > ROI_GATHER_STEPPED_POOL_BINS;
    *g = (struct gather_plan){
        .group_channels = channels,
        .pool_step = stepped_pool ? ROI_GATHER_POOL_STEP : 1,
        .few_workgroups = channels < full_channels || splits > 1 || parts > 1,
        .quads = quads,
        .splits = splits,
        .parts = parts,
        .rows = rows,
        .staged = staged,
        .tile_w = tile_w,
        .scratch_bytes = 4 * words,
        .workgroup_size = wg,
        .roi_grad = roi_grad,
        .warps = warps,
        .scan = staged ? 1 : scan,
        .roi_partials = partials,
        .transpose_tiles = transpose_channels / ROI_TRANSPOSE_CHANNELS,
        .transpose_blocks = blocks,
        .line_invocations = lines,
        .lines_base = (uint32_t)ROI_LINES_VEC4(transposed, ROI_GATHER_LOAD_BYTES / element_bytes),
        .gather_invocations = tiles * s->batch_count * (stride / channels) * parts * wg,
    };
    return true;
}

/* The channels a gather's workgroups cover, padding included. */
static uint64_t gather_stride(const struct roi_shape *s, const struct gather_plan *g)
{
    return (uint64_t)(s->channels + g->group_channels - 1) / g->group_channels * g->group_channels;
}

/* Where even its fewest channels per workgroup leave the gather so few workgroups that it splits
 * the regions (a small map's few tiles), AVERAGE gathers spread an element's channels over
 * ROI_GATHER_QUADS_SPLIT invocations (an NVIDIA warp) where that pads no more channels: a warp
 * then walks one pixel's regions, where 4 pixels diverged over different ones (BENCHMARKS.md
 * note 83; the 14x14 small map, which does not split, ran slower so). Where the regions are
 * enough for parts (2 * ROI_GATHER_PART_REGIONS) and their bins few per pixel
 * (ROI_GATHER_PARTS_FOR_SPLITS_MOST_BINS), as many parts in place of those splits (note 172;
 * longer walks and more parts than splits not measured). */
static bool plan_gather(const struct dmlvk_op_context *ctx, const struct roi_fields *f, const struct roi_shape *s,
                        bool roi_grad, struct gather_plan *g)
{
    if (!plan_gather_quads(ctx, f, s, roi_grad, ROI_GATHER_QUADS_WIDE, ROI_GATHER_MAX_PARTS, false, g))
        return false;
    struct gather_plan h;
    const bool average = f->reduction != DMLVK_REDUCE_FUNCTION_MAX;
    if (g->splits > 1 && average &&
        plan_gather_quads(ctx, f, s, roi_grad, ROI_GATHER_QUADS_SPLIT, ROI_GATHER_MAX_PARTS, false, &h) &&
        h.quads == ROI_GATHER_QUADS_SPLIT &&
        h.splits > 1 && gather_stride(s, &h) <= gather_stride(s, g))
        *g = h;
    if (g->splits > 1 && g->parts == 1 && average &&
        plan_gather_quads(ctx, f, s, roi_grad, ROI_GATHER_QUADS_WIDE, g->splits, true, &h) && h.parts > 1)
        *g = h;
    return true;
}

/* Float32 AVERAGE gathers take workgroups of 128 where the operator's 256 make enough of them
 * without fewer channels each or splits, and 128 keep each invocation's work: halves of the
 * tiles, whose workgroups wait less on each other's walks at the barriers (BENCHMARKS.md note 77;
 * on the 14x14 small map, whose workgroups already take half the channels, slightly slower).
 * 16-bit gathers ran slower in 128 (note 77). */
static bool plan_gather_sized(const struct dmlvk_op_context *ctx, const struct roi_fields *f, const struct roi_shape *s,
                              bool roi_grad, struct gather_plan *g)
{
    if (!plan_gather(ctx, f, s, roi_grad, g))
        return false;
    struct dmlvk_op_context half = dmlvk_context_capped(ctx, 128);
    struct gather_plan h;
    const bool float32 = s->bins.type == DMLVK_TENSOR_DATA_TYPE_FLOAT32;
    if (ctx->workgroup_size > 128 && f->reduction != DMLVK_REDUCE_FUNCTION_MAX && float32 && !g->few_workgroups &&
        plan_gather(&half, f, s, roi_grad, &h) && h.group_channels == g->group_channels && h.splits == g->splits &&
        h.parts == g->parts &&
        (h.roi_grad || !g->roi_grad))
        *g = h;
    return true;
}

/* Adds one stage's dispatch. */
static struct dmlvk_dispatch_plan *stage(struct dmlvk_op_plan *p, const struct dmlvk_op_context *ctx,
                                         const struct roi_fields *f, enum dmlvk_shader shader, bool to_scratch,
                                         uint32_t features, uint64_t invocations, uint32_t group_channels)
{
    struct dmlvk_dispatch_plan *d =
        dmlvk_plan_add_dispatch(p, ctx, shader, DMLVK_PUSH_SLOTS(roi_align_grad_push), invocations);
    if (!d)
        return NULL;
    d->features = features;
    dmlvk_roi_align_spec(f, p, d);
    dmlvk_dispatch_spec(p, d, ROI_SPEC_TO_SCRATCH, to_scratch);
    dmlvk_dispatch_spec(p, d, ROI_SPEC_GROUP_CHANNELS, group_channels);
    DMLVK_BIND(d, roi_align_grad_push, p, DMLVK_SLOT_PARAMS);
    DMLVK_BIND(d, roi_align_grad_push, x, B_INPUT);
    DMLVK_BIND(d, roi_align_grad_push, dy, B_DY);
    DMLVK_BIND(d, roi_align_grad_push, rois, B_ROIS);
    DMLVK_BIND(d, roi_align_grad_push, batch, B_BATCH);
    DMLVK_BIND(d, roi_align_grad_push, grad, B_GRAD);
    DMLVK_BIND(d, roi_align_grad_push, roi_grad, B_ROI_GRAD);
    DMLVK_BIND(d, roi_align_grad_push, scratch, DMLVK_SLOT_SCRATCH);
    DMLVK_BIND(d, roi_align_grad_push, counters, DMLVK_SLOT_COUNTERS);
    return d;
}

/* The scatter stage, its neighbouring invocations on neighbouring channels where `lanes`. */
static struct dmlvk_dispatch_plan *scatter_stage(struct dmlvk_op_plan *p, const struct dmlvk_op_context *ctx,
                                                 const struct roi_fields *f, enum dmlvk_shader shader, bool to_scratch,
                                                 uint32_t features, uint64_t invocations, uint32_t group_channels,
                                                 bool lanes)
{
    struct dmlvk_dispatch_plan *d = stage(p, ctx, f, shader, to_scratch, features, invocations, group_channels);
    if (d)
        dmlvk_dispatch_spec(p, d, ROI_SPEC_CHANNEL_LANES, lanes);
    return d;
}

/* Marks a stage that may run beside the geometry stage before it: it reads no sample table and
 * touches nothing else the geometry stage writes. */
static bool beside_previous(struct dmlvk_dispatch_plan *d)
{
    if (d)
        d->concurrent = true;
    return d != NULL;
}

/* Channels per 16-byte load of the ROI gradient's copy of the input. */
static uint32_t input_load_channels(const struct roi_shape *s)
{
    return ROI_INPUT_LOAD_BYTES / (DMLVK_IS_16BIT_FLOAT(s->input.type) ? 2 : 4);
}

/* The copy's channels per pixel: whole loads (the shaders' input_stride). */
static uint32_t input_stride(const struct roi_shape *s)
{
    const uint32_t load_channels = input_load_channels(s);
    return (s->channels + load_channels - 1) / load_channels * load_channels;
}

/*
 * The ROI gradient under AVERAGE with LINEAR taps reads a channels-last copy of InputTensor
 * (roi_align_abi.h, ROI_INPUT_LOAD_BYTES): each tap of a sample is then one load of 16 bytes of
 * channels for an invocation and one contiguous read for a warp, where the planes took a load per
 * channel. The copy's elements must be indexable in 32 bits. Returns its size in uvec4, 0 for no
 * copy.
 */
static uint64_t input_copy_vec4(const struct roi_fields *f, const struct roi_shape *s)
{
    if (!f->roi_grad || !f->input || f->reduction != DMLVK_REDUCE_FUNCTION_AVERAGE ||
        f->mode != DMLVK_INTERPOLATION_MODE_LINEAR)
        return 0;
    uint64_t vec4s = (uint64_t)(input_stride(s) / input_load_channels(s)) * s->batch_count * s->in_h * s->in_w;
    return input_load_channels(s) * vec4s < UINT64_C(1) << 32 ? vec4s : 0;
}

/*
 * InputTensor already laid out as its copy would be: channels packed last, whole loads of them per
 * pixel. The ROI gradient's stage then reads it in place, by vectors where its address allows
 * (dmlvk_dispatch_aligned), else by words, and there is no copy.
 */
static bool input_in_place(const struct roi_shape *s)
{
    const uint32_t *st = s->input.strides;
    const uint64_t c = s->channels;
    return input_stride(s) == c && st[1] == 1 && st[3] == c && st[2] == c * s->in_w && st[0] == c * s->in_w * s->in_h;
}

/*
 * The ROI gradient: `parts` workgroups per region, about ROI_GRAD_ITEMS_PER_INVOCATION (channels,
 * bin) items per invocation, so that few regions still fill the device; their sums go to scratch
 * and a second pass adds them in order. With the input's copy (`copy` uvec4, read from InputTensor
 * itself where `in_place`) and an AVERAGE gather's transposed dY in scratch (`transposed`: the
 * gather's channels per workgroup, else 0), it reads its dY shares from there.
 */
#define ROI_GRAD_ITEMS_PER_INVOCATION 8
static bool plan_roi_gradient(const struct dmlvk_op_context *ctx, const struct roi_fields *f, const struct roi_shape *s,
                              uint64_t copy, bool in_place, uint32_t transposed, struct dmlvk_op_plan *p)
{
    uint32_t channels = f->reduction == DMLVK_REDUCE_FUNCTION_MAX ? 1 : dmlvk_roi_align_channels(s);
    if (copy)
        channels = input_load_channels(s);
    uint64_t items = (uint64_t)(s->channels + channels - 1) / channels * s->out_h * s->out_w;
    uint64_t per_group = (uint64_t)ctx->workgroup_size * ROI_GRAD_ITEMS_PER_INVOCATION;
    uint64_t parts = (items + per_group - 1) / per_group;
    if (parts * s->num_rois >= UINT64_C(1) << 26) /* partial sums past 1 GiB of scratch: one part */
        parts = 1;
    uint32_t base = parts > 1 ? dmlvk_roi_align_reserve_scratch(p, parts * s->num_rois) : 0;
    uint32_t input_base = copy && !in_place ? dmlvk_roi_align_reserve_scratch(p, copy) : 0;
    struct roi_align_params *params = dmlvk_roi_align_params(s, p);
    if (params) {
        params->roi_grad_parts = (uint32_t)parts;
        params->roi_grad_base = base;
        params->input_base = input_base;
    }
    uint64_t groups = parts * s->num_rois * ctx->workgroup_size;
    struct dmlvk_dispatch_plan *d =
        stage(p, ctx, f, DMLVK_SHADER_ROI_ALIGN_GRAD_ROI, parts > 1, 0, groups, copy ? transposed : 0);
    if (d) {
        dmlvk_dispatch_spec(p, d, ROI_SPEC_CHANNELS, copy ? 1 : channels);
        dmlvk_dispatch_spec(p, d, ROI_SPEC_INPUT_LAST, copy != 0);
        if (in_place) {
            dmlvk_dispatch_spec(p, d, ROI_SPEC_INPUT_IN_PLACE, true);
            dmlvk_dispatch_aligned(p, d, ROI_SPEC_INPUT_ALIGNED, 1u << B_INPUT);
        }
        /* Beside the input gradient's last stage, which writes nothing it reads. */
        d->concurrent = f->grad != NULL;
    }
    return d &&
           (parts == 1 || stage(p, ctx, f, DMLVK_SHADER_ROI_ALIGN_GRAD_ROI_SUM, true, 0, s->num_rois, 0));
}

/* The gather's specialization, which roi_align_grad_roi_tiles shares to see the same tiles. */
static void gather_spec(struct dmlvk_op_plan *p, struct dmlvk_dispatch_plan *d, const struct gather_plan *g)
{
    dmlvk_dispatch_spec(p, d, ROI_SPEC_GATHER_QUADS, g->quads);
    dmlvk_dispatch_spec(p, d, ROI_SPEC_GATHER_SPLITS, g->splits);
    dmlvk_dispatch_spec(p, d, ROI_SPEC_GATHER_ROWS, g->rows);
    dmlvk_dispatch_spec(p, d, ROI_SPEC_GATHER_STAGED, g->staged);
    dmlvk_dispatch_spec(p, d, ROI_SPEC_GATHER_TILE_W, g->tile_w);
    dmlvk_dispatch_spec(p, d, ROI_SPEC_GATHER_WARPS, g->warps);
    dmlvk_dispatch_spec(p, d, ROI_SPEC_GATHER_SCAN, g->scan);
    dmlvk_dispatch_spec(p, d, ROI_SPEC_GATHER_POOL_STEP, g->pool_step);
    dmlvk_dispatch_spec(p, d, ROI_SPEC_GATHER_PARTS, g->parts);
}

/* Where a region's record and tables fit in shared memory (ROI_KEPT_TABLE_VEC4), the geometry
 * stage's workgroups write the lines too (roi_align_params' geometry_lines), widened where needed
 * to an invocation per line (s->geometry_width; up to the device's cap): on small maps the lines'
 * own stage, a dispatch after the geometry's whose invocations each wait on a chain of loads of the
 * tables, took 7-9.5 us (BENCHMARKS.md note 201). Note 98 fused them in workgroups as wide as the
 * lines that read the tables through L2: mixed. Here the lines read the tables from shared
 * memory; an invocation per line ran faster than two per invocation in the geometry's own narrow
 * workgroups (note 205). Where the lines outnumber the widest workgroup, they keep their own
 * stage, whose workgroups fill the device beside nothing else. */
static bool lines_in_geometry(const struct dmlvk_op_context *ctx, struct roi_shape *s)
{
    if (ROI_RECORD_VEC4 + (uint64_t)s->table_x + s->table_y > ROI_KEPT_TABLE_VEC4)
        return false;
    const uint32_t lines = s->in_h + s->in_w;   /* each below 2^30 (dmlvk_roi_align_prepare) */
    s->geometry_width = (lines + ROI_GEOMETRY_WORKGROUP - 1) / ROI_GEOMETRY_WORKGROUP * ROI_GEOMETRY_WORKGROUP;
    if (lines <= dmlvk_roi_align_geometry_context(ctx, s).workgroup_size)
        return true;
    s->geometry_width = 0;
    return false;
}

/* The ROI gradient that the gather summed by region, tile, channel group and subgroup: a
 * workgroup per region adds its sums (in the gather's workgroup size, with its tiles). */
static bool plan_gathered_roi_gradient(const struct dmlvk_op_context *ctx, const struct roi_fields *f,
                                       const struct roi_shape *s, const struct gather_plan *g, struct dmlvk_op_plan *p)
{
    uint32_t base = dmlvk_roi_align_reserve_scratch(p, g->roi_partials);
    struct roi_align_params *params = dmlvk_roi_align_params(s, p);
    if (params) {
        params->roi_grad_parts = 1;
        params->roi_grad_base = base;
    }
    struct dmlvk_op_context gather_ctx = dmlvk_context_capped(ctx, g->workgroup_size);
    struct dmlvk_dispatch_plan *d = stage(p, &gather_ctx, f, DMLVK_SHADER_ROI_ALIGN_GRAD_ROI_TILES, false, 0,
                                          (uint64_t)s->num_rois * g->workgroup_size, g->group_channels);
    if (d)
        gather_spec(p, d, g);
    return d != NULL;
}

static dmlvk_status plan(const struct dmlvk_op_context *ctx, const void *opaque, struct dmlvk_op_plan *p)
{
    const desc_t *d = opaque;
    struct roi_fields f = {
        .op = NAME,
        .backward = true,
        .input = d->InputTensor,
        .bins = d->InputGradientTensor,
        .bins_name = "InputGradientTensor",
        .grad = d->OutputGradientTensor,
        .roi_grad = d->OutputROIGradientTensor,
        ROI_FIELDS_FROM(d),
    };
    struct roi_shape s;
    dmlvk_status st = dmlvk_roi_align_prepare(ctx, &f, &s, p);
    if (st != DMLVK_OK)
        return st;
    s.rois_slot = B_ROIS;
    s.batch_slot = B_BATCH;
    /* Under AVERAGE with LINEAR taps the gather sums the ROI gradient too where it can; otherwise
     * its own stages do, from a copy of the input that reads no sample table: beside the geometry
     * stage (and whatever runs beside that). */
    struct gather_plan g;
    const bool average_linear = f.reduction != DMLVK_REDUCE_FUNCTION_MAX && f.mode == DMLVK_INTERPOLATION_MODE_LINEAR;
    /* Where InputTensor can stand in for its copy, the ROI gradient's own stage reading it ran
     * faster than the float32 gather's own sums of it (BENCHMARKS.md notes 221 and 222). */
    const bool input_read_in_place = input_in_place(&s) && input_copy_vec4(&f, &s) != 0;
    const bool gathered =
        f.grad && plan_gather_sized(ctx, &f, &s, f.roi_grad && average_linear && !input_read_in_place, &g);
    const bool fused = gathered && g.roi_grad;
    const bool geometry_lines = gathered && lines_in_geometry(ctx, &s);
    struct dmlvk_dispatch_plan *geometry = dmlvk_roi_align_geometry(ctx, &s, p);
    bool ok = geometry != NULL;
    if (ok && geometry_lines && fused) /* else unset: ROI_ALIGN1's pipeline */
        dmlvk_dispatch_spec(p, geometry, ROI_SPEC_GATHER_ROI_GRAD, true);
    const uint64_t copy = fused ? 0 : input_copy_vec4(&f, &s);
    uint32_t transposed = 0;
    if (ok && copy && !input_read_in_place) {
        const uint32_t stride = input_stride(&s);
        const uint32_t tiles = transpose_tiles(ctx, s.input.type, stride), channels = tiles * ROI_TRANSPOSE_CHANNELS;
        const uint64_t blocks = (stride + channels - 1) / channels;
        uint64_t pixel_blocks = ((uint64_t)s.in_h * s.in_w + ROI_TRANSPOSE_CHANNELS - 1) / ROI_TRANSPOSE_CHANNELS;
        struct dmlvk_dispatch_plan *t = stage(p, ctx, &f, DMLVK_SHADER_ROI_ALIGN_GRAD_PREPARE, true, 0,
                                              blocks * pixel_blocks * s.batch_count * ctx->workgroup_size, 0);
        if ((ok = beside_previous(t))) {
            dmlvk_dispatch_spec(p, t, ROI_SPEC_PREPARE, ROI_PREPARE_INPUT);
            dmlvk_dispatch_spec(p, t, ROI_SPEC_TRANSPOSE_TILES, tiles);
        }
    }
    if (ok && f.grad) {
        uint64_t elements = s.grad.elements, bins = s.bins.elements;
        /* MAXIMUM picks each bin's sample by value (a workgroup per region and a few channels,
         * as ROI_ALIGN1's whole bins, with its channel lanes where the input's channels lie
         * closest): only AVERAGE scatters by regions. */
        uint32_t per_region;
        const bool lanes = f.reduction == DMLVK_REDUCE_FUNCTION_MAX && dmlvk_roi_align_channels_closest(&s);
        uint64_t scatter_size = dmlvk_roi_align_region_groups(ctx, &s, 1, lanes ? ROI_WALK_CHANNEL_LANES : ROI_WALK_BINS,
                                                              &per_region);
        enum dmlvk_shader scatter = DMLVK_SHADER_ROI_ALIGN_GRAD_SCATTER;
        if (f.reduction != DMLVK_REDUCE_FUNCTION_MAX) {
            scatter_size = region_scatter_size(ctx, &f, &s, &per_region);
            scatter = DMLVK_SHADER_ROI_ALIGN_GRAD_SCATTER_REGIONS;
        }
        if (gathered) {
            struct dmlvk_op_context gather_ctx = dmlvk_context_capped(ctx, g.workgroup_size);
            p->scratch_bytes = g.scratch_bytes;
            struct roi_align_params *params = dmlvk_roi_align_params(&s, p);
            if (params) {
                params->lines_base = g.lines_base;
                params->geometry_lines = geometry_lines;
            }
            if (g.parts > 1 && params)
                params->parts_base = 4 * dmlvk_roi_align_reserve_scratch(p, (g.parts * elements + 3) / 4);
            struct dmlvk_dispatch_plan *first = NULL, *lines = NULL, *second = NULL, *gather = NULL, *sum = NULL;
            /* dY's transposition reads no sample table: half of it runs beside the geometry stage,
             * half beside the lines, which wait for the geometry (BENCHMARKS.md note 94: hidden
             * where the lines are few, after them where they fill the device; an event instead of
             * the barrier cost more than it hid). The winners read the tables, and the lines
             * (which touch nothing the winners write) run beside the winners instead. Where the
             * geometry's workgroups write the lines (lines_in_geometry), the transposition runs
             * whole beside them. At most 9 dispatches: geometry, InputTensor's copy, two halves,
             * lines, gather, the sum of its parts, and the ROI gradient's two. */
            const bool max = f.reduction == DMLVK_REDUCE_FUNCTION_MAX;
            const bool halves = !max && !geometry_lines && g.transpose_blocks > 1;
            const uint64_t first_blocks = halves ? g.transpose_blocks / 2 : g.transpose_blocks;
            ok = (first = stage(p, ctx, &f, max ? DMLVK_SHADER_ROI_ALIGN_GRAD_WINNERS : DMLVK_SHADER_ROI_ALIGN_GRAD_PREPARE,
                                true, 0, first_blocks * ctx->workgroup_size, g.group_channels)) &&
                 (geometry_lines || (lines = stage(p, ctx, &f, DMLVK_SHADER_ROI_ALIGN_GRAD_PREPARE, true, 0,
                                                   g.line_invocations, g.group_channels))) &&
                 (!halves || (second = stage(p, ctx, &f, DMLVK_SHADER_ROI_ALIGN_GRAD_PREPARE, true, 0,
                                             (g.transpose_blocks - first_blocks) * ctx->workgroup_size,
                                             g.group_channels))) &&
                 (gather = stage(p, &gather_ctx, &f, fused ? DMLVK_SHADER_ROI_ALIGN_GRAD_GATHER_ROI : DMLVK_SHADER_ROI_ALIGN_GRAD_GATHER,
                                 false, 0, g.gather_invocations, g.group_channels)) &&
                 (g.parts == 1 || (sum = stage(p, ctx, &f, DMLVK_SHADER_ROI_ALIGN_GRAD_CONVERT, true, 0, elements, 0)));
            if (ok) {
                first->concurrent = !max;
                if (!max) {
                    dmlvk_dispatch_spec(p, first, ROI_SPEC_TRANSPOSE_TILES, g.transpose_tiles);
                    if (second)
                        dmlvk_dispatch_spec(p, second, ROI_SPEC_TRANSPOSE_TILES, g.transpose_tiles);
                }
                if (halves) {
                    second->concurrent = true;
                    dmlvk_dispatch_spec(p, first, ROI_SPEC_PREPARE_PART, ROI_PART_FIRST_HALF);
                    dmlvk_dispatch_spec(p, second, ROI_SPEC_PREPARE_PART, ROI_PART_SECOND_HALF);
                }
                if (lines) {
                    lines->concurrent = max;
                    dmlvk_dispatch_spec(p, lines, ROI_SPEC_PREPARE, ROI_PREPARE_LINES);
                    dmlvk_dispatch_spec(p, lines, ROI_SPEC_GATHER_ROI_GRAD, fused);
                }
                gather_spec(p, gather, &g);
                if (sum) {
                    /* Offsets 0 .. elements - 1 of an output that no two elements share, in
                     * another order than packed: the parts' sums in its order, so that a
                     * channels-last sum no longer stores an element per 32-byte sector (BENCHMARKS.md
                     * note 180; packed ones ran slower so, through the strides). */
                    const uint32_t *gs = s.grad.strides;
                    const bool packed = gs[3] == 1 && gs[2] == s.in_w && gs[1] == s.in_h * s.in_w &&
                                        gs[0] == s.channels * gs[1];
                    const bool in_place = !packed && s.grad.max_offset + 1 == s.grad.elements;
                    dmlvk_dispatch_spec(p, sum, ROI_SPEC_GATHER_PARTS, g.parts);
                    dmlvk_dispatch_spec(p, sum, ROI_SPEC_PARTS_IN_PLACE, in_place);
                    dmlvk_dispatch_spec(p, gather, ROI_SPEC_PARTS_IN_PLACE, in_place);
                }
                transposed = max ? 0 : g.group_channels;
            }
        } else if (ctx->deterministic) {
            if (!ctx->int64_atomics)
                return dmlvk_error(DMLVK_ERROR_UNSUPPORTED,
                                   "%s: the deterministic mode needs shaderBufferInt64Atomics, which this device lacks", NAME);
            const uint32_t int64 = DMLVK_VARIANT_INT64_ATOMICS;
            p->scratch_bytes = 16 + 8 * elements + 4 * elements; /* then a uint of flags per element */
            ok = beside_previous(stage(p, ctx, &f, DMLVK_SHADER_ROI_ALIGN_GRAD_ZERO, true, int64, elements, 0)) &&
                 stage(p, ctx, &f, DMLVK_SHADER_ROI_ALIGN_GRAD_MAX_ABS, true, int64, bins, 0) &&
                 scatter_stage(p, ctx, &f, scatter, true, int64, scatter_size, per_region, lanes) &&
                 stage(p, ctx, &f, DMLVK_SHADER_ROI_ALIGN_GRAD_CONVERT, true, int64, elements, 0);
        } else {
            uint32_t atomics = ctx->float32_atomic_add ? DMLVK_VARIANT_FLOAT_ATOMICS : 0;
            bool to_scratch = DMLVK_IS_16BIT_FLOAT(s.grad.type);
            if (to_scratch)
                p->scratch_bytes = 4 * elements;
            ok = beside_previous(stage(p, ctx, &f, DMLVK_SHADER_ROI_ALIGN_GRAD_ZERO, to_scratch, 0, elements, 0)) &&
                 scatter_stage(p, ctx, &f, scatter, to_scratch, atomics, scatter_size, per_region, lanes) &&
                 (!to_scratch ||
                  stage(p, ctx, &f, DMLVK_SHADER_ROI_ALIGN_GRAD_CONVERT, true, 0, elements, 0));
        }
    }
    if (ok && f.roi_grad)
        ok = fused ? plan_gathered_roi_gradient(ctx, &f, &s, &g, p) : plan_roi_gradient(ctx, &f, &s, copy, input_read_in_place, transposed, p);
    if (!ok)
        return DMLVK_ERROR_UNSUPPORTED;
    dmlvk_roi_align_place_tables(&s, p);
    return DMLVK_OK;
}

static const dmlvk_field_info fields[] = {
    { "InputTensor", DMLVK_FIELD_INPUT_TENSOR, offsetof(desc_t, InputTensor), 1 },
    { "InputGradientTensor", DMLVK_FIELD_INPUT_TENSOR, offsetof(desc_t, InputGradientTensor) },
    { "ROITensor", DMLVK_FIELD_INPUT_TENSOR, offsetof(desc_t, ROITensor) },
    { "BatchIndicesTensor", DMLVK_FIELD_INPUT_TENSOR, offsetof(desc_t, BatchIndicesTensor) },
    { "OutputGradientTensor", DMLVK_FIELD_OUTPUT_TENSOR, offsetof(desc_t, OutputGradientTensor), 1 },
    { "OutputROIGradientTensor", DMLVK_FIELD_OUTPUT_TENSOR, offsetof(desc_t, OutputROIGradientTensor), 1 },
    ROI_ALIGN_MODE_FIELDS(desc_t),
    ROI_ALIGN_SAMPLE_FIELDS(desc_t),
};

const struct dmlvk_op_class dmlvk_op_roi_align_grad = {
    .info = {
        .type = DMLVK_OPERATOR_ROI_ALIGN_GRAD,
        .name = NAME,
        .desc_size = sizeof(desc_t),
        .field_count = DMLVK_ARRAY_SIZE(fields),
        .fields = fields,
        .tensor_count = 6,
    },
    .counter_count = ROI_COUNTERS,
    .counter_names = dmlvk_roi_align_counter_names,
    .plan = plan,
};
