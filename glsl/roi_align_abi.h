/* ROI_ALIGN1 and ROI_ALIGN_GRAD: lib/roi_align*.c and glsl/roi_align*. */
#ifndef DMLVK_ROI_ALIGN_ABI_H
#define DMLVK_ROI_ALIGN_ABI_H

#include "abi.h"

DMLVK_PARAMS_BEGIN(roi_align_params)
    DMLVK_U32 num_rois;
    DMLVK_U32 channels;
    DMLVK_U32 in_h;
    DMLVK_U32 in_w;
    DMLVK_U32 out_h;
    DMLVK_U32 out_w;
    DMLVK_U32 batch_count;
    DMLVK_U32 grad_elements;        /* BatchCount * ChannelCount * InputHeight * InputWidth */
    DMLVK_U32 in_strides[4];        /* InputTensor */
    DMLVK_U32 bin_strides[4];       /* OutputTensor (forward) or InputGradientTensor (backward) */
    DMLVK_U32 grad_strides[4];      /* OutputGradientTensor */
    DMLVK_U32 roi_strides[2];       /* ROITensor: region, coordinate */
    DMLVK_U32 roi_grad_strides[2];
    DMLVK_U32 batch_stride;
    DMLVK_F32 spatial_x;
    DMLVK_F32 spatial_y;
    DMLVK_F32 in_off;
    DMLVK_F32 out_off;
    DMLVK_F32 oob_value;
    DMLVK_U32 min_samples;
    DMLVK_U32 max_samples;
    DMLVK_U32 table_base;           /* the regions' sample tables in scratch, in uvec4 */
    DMLVK_U32 table_x;              /* entries each region's table holds along x, then along y */
    DMLVK_U32 table_y;
    DMLVK_U32 roi_grad_parts;       /* workgroups per region of the ROI gradient */
    DMLVK_U32 roi_grad_base;        /* their partial sums in scratch, in vec4, where parts > 1 */
    DMLVK_U32 input_base;           /* the ROI gradient's channels-last copy of InputTensor in scratch, in uvec4 */
    DMLVK_U32 rescue_base;          /* ROI_ALIGN1's flag word per region in scratch, in uvec4 (ROI_SPEC_RESCUE) */
    DMLVK_U32 parts_base;           /* the gather's parts' sums in scratch, in floats (ROI_SPEC_GATHER_PARTS) */
    DMLVK_U32 lines_base;           /* ROI_LINES_VEC4, for the geometry stage where geometry_lines is set */
    DMLVK_U32 geometry_lines;       /* the geometry stage writes those lines too (ROI_KEPT_TABLE_VEC4) */
    DMLVK_U32 modes;                /* ROI_MODE_*: the geometry stage's modes, which the others specialize */
DMLVK_PARAMS_END(roi_align_params)

/* counters: the operators' diagnostics counters (ROI_COUNTER_*), one uint each. */
#define ROI_ALIGN1_PUSH(X) X(roi_align_params, p) X(Tensor, x) X(Tensor, rois) X(UintTensor, batch) X(Tensor, y) \
    X(UintTensor, counters) X(Scratch, scratch)
/* The first stage of both operators (glsl/roi_align_geometry.comp) writes the sample tables, and
 * where geometry_lines is set the gather's lines. */
#define ROI_GEOMETRY_PUSH(X) X(roi_align_params, p) X(Tensor, rois) X(UintTensor, batch) X(Scratch, scratch) \
    X(UintTensor, counters)
/* Every stage of ROI_ALIGN_GRAD (glsl/roi_align_grad_*.comp) takes the same block. */
#define ROI_ALIGN_GRAD_PUSH(X) X(roi_align_params, p) X(Tensor, x) X(Tensor, dy) X(Tensor, rois) X(UintTensor, batch) \
    X(Tensor, grad) X(Tensor, roi_grad) X(Scratch, scratch) X(UintTensor, counters)

#define ROI_COUNTER_SKIPPED_REGIONS 0   /* regions whose batch index is out of range */
#define ROI_COUNTERS 1

/* modes: what ROI_SPEC_LINEAR, ROI_SPEC_MAXIMUM and ROI_SPEC_ALIGN_CORNERS say to the other stages. */
#define ROI_MODE_LINEAR 1u
#define ROI_MODE_MAXIMUM 2u
#define ROI_MODE_ALIGN_CORNERS 4u

#define ROI_SPEC_LINEAR 1
#define ROI_SPEC_MAXIMUM 2
#define ROI_SPEC_ALIGN_CORNERS 3
#define ROI_SPEC_TO_SCRATCH 4           /* sums go to scratch, not straight to OutputGradientTensor */
#define ROI_SPEC_GROUP_CHANNELS 5       /* channels per workgroup (scatter by regions, gather) */
#define ROI_SPEC_CHANNELS 6             /* channels per invocation (ROI_ALIGN1, the ROI gradient) */
#define ROI_SPEC_PREPARE 7              /* what roi_align_grad_prepare does: ROI_PREPARE_* */
#define ROI_SPEC_GATHER_QUADS 8         /* the gather's invocations per element */
#define ROI_SPEC_GATHER_SPLITS 9        /* the gather's shares of the regions per element */
#define ROI_SPEC_INPUT_LAST 10          /* the ROI gradient reads InputTensor's channels-last copy */
#define ROI_SPEC_GATHER_ROWS 11         /* the gather stores whole tile rows (ROI_GATHER_ROW_SUMS) */
#define ROI_SPEC_GATHER_TILE_W 12       /* the gather's most columns per tile */
#define ROI_SPEC_GATHER_STAGED 13       /* the gather stages its tiles' lines (ROI_GATHER_CHUNK_REGIONS) */
#define ROI_SPEC_GATHER_ROI_GRAD 14     /* the lines carry derivatives too (ROI_DERIVATIVE_LINE_VEC4) */
#define ROI_SPEC_GATHER_WARPS 15        /* the ROI gradient gather's subgroups per share of the regions */
#define ROI_SPEC_GATHER_SCAN 16         /* regions per invocation in a round of the gather's scan */
#define ROI_SPEC_RESCUE 17              /* ROI_ALIGN1 flags regions whose sums overflow for roi_align1_rescue */
#define ROI_SPEC_PREPARE_PART 18        /* which of dY's transposition's workgroups: ROI_PART_* */
#define ROI_SPEC_CHANNEL_LANES 19       /* whole bins' neighbouring invocations take neighbouring channels */
#define ROI_SPEC_GATHER_POOL_STEP 20    /* pooled column weights the walk reads at once: 1 or ROI_GATHER_POOL_STEP */
#define ROI_SPEC_GATHER_PARTS 21        /* the gather's parts of the regions, each in workgroups of its own */
#define ROI_SPEC_SHARED_TAPS_APART 22   /* ROI_ALIGN1's ROI_SHARED_TAPS regions take their own dispatch */
#define ROI_SPEC_SHARED_TAPS_SLOTS 23   /* its workgroups per channel group, each taking every SLOTS-th region */
#define ROI_SPEC_PARTS_IN_PLACE 24      /* the gather's parts keep their sums at OutputGradientTensor's offsets */
#define ROI_SPEC_TRANSPOSE_TILES 25     /* roi_align_grad_prepare's blocks of ROI_TRANSPOSE_CHANNELS channels per workgroup */
#define ROI_SPEC_INPUT_IN_PLACE 26      /* InputTensor is its own channels-last copy (ROI_INPUT_LOAD_BYTES) */
#define ROI_SPEC_INPUT_ALIGNED 27       /* ... at a multiple of ROI_INPUT_LOAD_BYTES: read by vectors */
#define ROI_PREPARE_DY 0u               /* dY to [region][bin][channel] for the gather */
#define ROI_PREPARE_LINES 1u            /* the gather's lines and region records */
#define ROI_PREPARE_INPUT 2u            /* InputTensor to [batch][row][column][channel] */
#define ROI_PART_WHOLE 0u
#define ROI_PART_FIRST_HALF 1u
#define ROI_PART_SECOND_HALF 2u
#define ROI_MAX_CHANNELS 8u
/* roi_align1_shared_taps lists each bin's taps per axis in shared memory: ROI_SHARED_TAPS_ENTRIES
 * per axis, bins of n samples taking 2n each, for at most ROI_SHARED_TAPS_BINS bins per axis; its
 * workgroups look for the regions that take them in rounds of a workgroup's worth. */
#define ROI_SHARED_TAPS_ENTRIES 1024u
#define ROI_SHARED_TAPS_BINS 64u
#define ROI_SHARED_TAPS_BYTES (2u * ROI_SHARED_TAPS_ENTRIES * 8u + 2u * ROI_SHARED_TAPS_BINS * 4u + 4u * 32u)

/*
 * The gather by tiles: ROI_GATHER_QUADS_WIDE invocations per element (ROI_GATHER_QUADS under MAX
 * on large maps, and where a workgroup is too small for the wide ones; ROI_GATHER_QUADS_SPLIT
 * where so few workgroups remain that it splits the regions), each summing at most
 * ROI_GATHER_VECS vec4 of channels: a workgroup takes up to ROI_GATHER_VECS * 4 * quads channels in
 * steps of one load's channels times quads, over tiles of at most ROI_GATHER_TILE_W columns
 * (ROI_GATHER_TILE_W_16BIT in some 16-bit gathers).
 */
#define ROI_GATHER_QUADS 4u
#define ROI_GATHER_QUADS_WIDE 8u
#define ROI_GATHER_QUADS_SPLIT 32u      /* where it splits the regions (few workgroups) */
#define ROI_GATHER_VECS 8u              /* a power of two: the gather masks indices with it */
#define ROI_GATHER_TILE_W 8u
#define ROI_GATHER_TILE_W_16BIT 16u     /* with whole rows' stores of a 16-bit type, on large maps */
/* Where even so it has few workgroups (small maps), up to ROI_GATHER_MAX_SPLITS invocations share
 * an element's channels, each walking every SPLITS-th region over the tile, and one adds their
 * sums in a fixed order (through shared memory: at most ROI_GATHER_SPLIT_SUMS per invocation). */
#define ROI_GATHER_MAX_SPLITS 2u
#define ROI_GATHER_SPLIT_SUMS 8u
/* Where its tiles are few even so (small maps with many regions), the regions fall into up to
 * ROI_GATHER_MAX_PARTS parts of consecutive regions, each walked by workgroups of its own over the
 * same tiles, which store their float32 sums to scratch (a packed input gradient per part, at
 * parts_base); roi_align_grad_convert then adds an element's parts in part order: deterministic. */
#define ROI_GATHER_MAX_PARTS 8u
/* The gather passes its sums through shared memory, ROI_GATHER_ROW_SUMS of each invocation's at a
 * time (ROI_GATHER_ROW_SUMS * quads * (pixels of a tile + 1) floats), so that an invocation stores
 * 16 bytes of a tile row at once and neighbouring invocations neighbouring bytes. */
#define ROI_GATHER_ROW_SUMS 8u
/* Where it stages lines, ROI_GATHER_CHUNK_REGIONS regions' at a time (a uvec4 per region and tile
 * row or column in shared memory; at most 32: a bit each in a word). */
#define ROI_GATHER_CHUNK_REGIONS 32u
/* An invocation reads a bin's channels ROI_GATHER_LOAD_BYTES at a time: 4 of float32, 8 of a
 * 16-bit type, whose transposed dY keeps the tensor's own bits (exact, and half the bytes). */
#define ROI_GATHER_LOAD_BYTES 16u
/* Its scratch: dY transposed (channels of a bin contiguous, padded to the workgroups' channels),
 * then ROI_LINE_WORDS per region and input row or column, then ROI_REGION_WORDS per region, then
 * each region's pool of ROI_POOL_WORDS per sample table entry (table_x, then table_y) for the
 * lines that more than ROI_LINE_BINS bins reach. The prepare pass transposes
 * ROI_TRANSPOSE_CHANNELS channels of a region per workgroup. */
#define ROI_LINE_WORDS 4u
#define ROI_REGION_WORDS 8u
#define ROI_LINE_BINS 3u                /* bins a line holds itself; more go to the pool */
#define ROI_POOL_WORDS 2u               /* a sample taps at most two lines */
#define ROI_TRANSPOSE_CHANNELS 32u
/* Where the lines start, in uvec4: past the transposed dY's `elements` (regions x bins x the
 * gather's channels per bin) of `load_channels` per uvec4. The stages that know the gather's
 * channels per workgroup compute it; the geometry stage, one pipeline for every gather width,
 * reads it from roi_align_params' lines_base (a load that slows the gathers, BENCHMARKS.md
 * note 206). */
#define ROI_LINES_VEC4(elements, load_channels) ((elements) / (load_channels))
/*
 * The ROI gradient (AVERAGE, LINEAR) reads a copy of InputTensor with the channels fastest, each
 * pixel's channels padded to whole loads of ROI_INPUT_LOAD_BYTES (4 of float32, 8 of a 16-bit
 * type, whose copy keeps the tensor's bits): neighbouring invocations take neighbouring channels
 * of one bin, so that each tap of a sample is one contiguous read for the warp. The prepare pass
 * copies ROI_TRANSPOSE_CHANNELS pixels by that many channels per tile (ROI_SPEC_TRANSPOSE_TILES)
 * per workgroup; an input laid out so already is read in place (ROI_SPEC_INPUT_IN_PLACE).
 */
#define ROI_INPUT_LOAD_BYTES 16u
/*
 * The ROI gradient in the gather (roi_align_grad_gather_roi, AVERAGE and LINEAR with both
 * gradients): the lines then span every bin whose samples tap them with a weight or a derivative,
 * and ROI_DERIVATIVE_LINE_VEC4 uvec4 per line after the pools hold a line's derivative weights
 * (the samples' tap derivatives times 1 - t, then times t; rows divided by the sample count like
 * the weights), in two more pools of the same shape where a line has more than ROI_LINE_BINS bins.
 * Each subgroup adds its terms of a region in a fixed butterfly and stores one vec4 per region,
 * tile, channel group and subgroup at roi_grad_base; roi_align_grad_roi_tiles adds a region's in
 * a fixed order.
 */
#define ROI_DERIVATIVE_LINE_VEC4 2u
/* Where lines have more bins than they hold (ROI_LINE_BINS), the walk reads their pooled column
 * weights and the bins they weigh ROI_GATHER_POOL_STEP at a time (ROI_SPEC_GATHER_POOL_STEP), so that
 * those loads issue together. */
#define ROI_GATHER_POOL_STEP 4u
/* A line's header holds a bin index and a count in 16 bits each. */
#define ROI_GATHER_MAX_BINS 0xffffu
/* Under MAX the gather's dY is a record of ROI_WINNER_BYTES per channel (roi_align_grad_winners):
 * dY, the winner's first taps (row and column in 16 bits each), its two weights. */
#define ROI_WINNER_BYTES 16u
#define ROI_WINNER_MAX_TAP 0xffffu

/*
 * The sample tables (roi_align_geometry.glsl), at table_base in scratch, per region: a record of
 * ROI_RECORD_VEC4 uvec4 (batch index or ROI_NO_BATCH, nx, ny, ROI_DECREASING_* and ROI_SHARED_TAPS
 * bits; then per axis x, y the window of samples in bounds: first bin, first sample in it, end bin,
 * end sample in it),
 * then one uvec4 entry per sample of the x window (room for table_x), then of the y window
 * (table_y). An entry: first tap, ROI_ENTRY_* flags, the second tap's weight and t (float bits).
 */
#define ROI_RECORD_VEC4 3u
/* The geometry stage keeps a copy of a region's record and tables in shared memory, as far as
 * ROI_KEPT_TABLE_VEC4 uvec4 hold (ROI_RECORD_VEC4 + table_x + table_y), for geometry_lines, which
 * needs them whole. */
#define ROI_KEPT_TABLE_VEC4 256u
#define ROI_NO_BATCH 0xffffffffu
#define ROI_ENTRY_CLAMPED 1u            /* the position was clamped into the input: no derivative */
#define ROI_DECREASING_X 1u             /* the extent is negative: taps move down as samples go on */
#define ROI_DECREASING_Y 2u
/* Its bins' taps listed per axis (roi_align1_shared_taps) load at most ROI_SHARED_TAPS_MOST_LOADS_NUM /
 * ROI_SHARED_TAPS_MOST_LOADS_DEN of the walks' taps: along an axis of at least two samples per bin
 * they lie less than a pixel apart, so that n samples per bin tap at most n + 1 lines, and the
 * lists fit (ROI_SHARED_TAPS_ENTRIES, ROI_SHARED_TAPS_BINS). A choice of speed only: either path
 * sums every sample. */
#define ROI_SHARED_TAPS 4u
#define ROI_SHARED_TAPS_MOST_LOADS_NUM 2u
#define ROI_SHARED_TAPS_MOST_LOADS_DEN 5u

#ifndef DMLVK_GLSL
DMLVK_PUSH(roi_align_geometry_push, ROI_GEOMETRY_PUSH)
DMLVK_PUSH(roi_align1_push, ROI_ALIGN1_PUSH)
DMLVK_PUSH(roi_align_grad_push, ROI_ALIGN_GRAD_PUSH)
#endif

#endif
