/* RESAMPLE1, RESAMPLE2, RESAMPLE_GRAD, RESAMPLE_GRAD1: lib/resample.c and glsl/resample_*. */
#ifndef DMLVK_RESAMPLE_ABI_H
#define DMLVK_RESAMPLE_ABI_H

#include "abi.h"

/* Tensors are padded to this many axes in front. */
#define RESAMPLE_AXES 4

/*
 * The parameter block: a header, then table[] holds per axis the map (for each larger-side index,
 * RESAMPLE_MAP_WORDS words: the input index, the weight of the next index and the weight of the
 * input index, each weight rounded once from the exact one, so that a weight near 0 keeps its
 * precision where 1 - (the other) would not) and, for the backward operators, the range of
 * larger-side indices that reach each smaller-side index; then the block gather's tables.
 */
#define RESAMPLE_MAP_WORDS 3
DMLVK_PARAMS_BEGIN(resample_params)
    DMLVK_U32 count;                        /* invocations */
    DMLVK_U32 out_sizes[RESAMPLE_AXES];     /* the written tensor */
    DMLVK_U32 in_sizes[RESAMPLE_AXES];      /* the read tensor */
    DMLVK_U32 out_strides[RESAMPLE_AXES];
    DMLVK_U32 in_strides[RESAMPLE_AXES];
    DMLVK_U32 map_offset[RESAMPLE_AXES];    /* in words from table[0] */
    DMLVK_U32 range_offset[RESAMPLE_AXES];
    DMLVK_U32 block_table[2];               /* block gather, axes 2 and 3: from the block's start */
    /* div_by's m for the blocks per row, per column, out_sizes[1]; in the channels-last block gather
     * for the channel groups, the blocks per row, per column */
    DMLVK_U32 block_magic[3];
    /* div_by's m for the sizes that written_index divides by, in RESAMPLE_SPEC_WALK's order
     * (1 where the invocations are too many for div_by: a plain division). */
    DMLVK_U32 walk_magic[RESAMPLE_AXES];
    DMLVK_U32 x_classes;                    /* with RESAMPLE_SPEC_X_CLASSES: the column blocks' classes */
    DMLVK_U32 table[];
DMLVK_PARAMS_END(resample_params)

#define RESAMPLE_PUSH(X) X(resample_params, p) X(Tensor, src) X(Tensor, dst)

#define RESAMPLE_SPEC_LINEAR 1
#define RESAMPLE_SPEC_DIMS 2            /* the real axes are the last DIMS of RESAMPLE_AXES */
/* The block gathers (glsl/resample_block.glsl, the resample_*blocks shaders), both directions. */
#define RESAMPLE_SPEC_ROWS 3
#define RESAMPLE_SPEC_CHUNKS 4
#define RESAMPLE_SPEC_BLOCK_Y 5
#define RESAMPLE_SPEC_BLOCK_X 6
#define RESAMPLE_SPEC_VECTOR_LOADS 7
#define RESAMPLE_SPEC_VECTOR_STORES 8
#define RESAMPLE_SPEC_X_PHASE 10
#define RESAMPLE_SPEC_CHUNK 11
#define RESAMPLE_SPEC_X_TAPS_LO 12
#define RESAMPLE_SPEC_X_TAPS_HI 13
#define RESAMPLE_SPEC_Y_TAPS_LO 14
#define RESAMPLE_SPEC_Y_TAPS_HI 15
/* The written tensor's axes from the fastest-moving in invocation order (its strides ascending),
 * the padding axes last, two bits each from the lowest: neighbouring invocations write
 * neighbouring elements in every layout (NCHW, NHWC, ...). */
#define RESAMPLE_SPEC_WALK 16
/* Each invocation of the general loops writes this many neighbouring elements along the walk's
 * first axis (1, 4 or RESAMPLE_MAX_LANES: 16 bytes of float32 or of a 16-bit type); VECTOR_LOADS
 * and VECTOR_STORES say there whether the lanes may be one load per tap and one store. */
#define RESAMPLE_SPEC_LANES 17
/* Axes that map every index to itself with one tap, a bit per axis: no table reads there. */
#define RESAMPLE_SPEC_IDENTITY 18
#define RESAMPLE_MAX_LANES 8u
/* The block gather's aligned form (dmlvk_dispatch_aligned): every tensor it accesses by vectors
 * (VECTOR_LOADS, VECTOR_STORES) sits on DMLVK_ALIGNED_BYTES, so no address needs a test. */
#define RESAMPLE_SPEC_ALIGNED 20
/* 16-bit block gathers whose window rows vectors cannot load (rows of odd length, packed): each
 * row's window from whole 32-bit words, two elements apiece, realigned in registers. */
#define RESAMPLE_SPEC_WORD_LOADS 21
/* Block gathers over planes whose column blocks fall into few classes of identical weights (the
 * inner blocks of integer and other periodic scales, plus the edges): x_classes of them, K, at
 * most RESAMPLE_MAX_X_CLASSES. The column table then holds per block its first window position
 * and its class (two words, the table starting on an even word), then from the next 16-byte
 * boundary the classes' weights, group g of class c at group g * K + c: a warp's lanes load a few
 * neighbouring 16-byte words, where blocks' own weights spread each load over one per lane. */
#define RESAMPLE_SPEC_X_CLASSES 22
#define RESAMPLE_MAX_X_CLASSES 8u
/* Block gathers over planes whose blocks give every member they store a weight above 0 at each
 * window entry they sum inside the read tensor (regular windows: integer scales, most others
 * whose period is one block): with the window's values outside the tensor zeroed, the plain
 * sums are exact where a value is Inf or NaN, so no careful pass exists. EXACT_EDGES says which
 * window positions some block places outside: bit c for chunk c of the columns (element by
 * element where loads are), bit 16 + r for row r. */
#define RESAMPLE_SPEC_EXACT 23
#define RESAMPLE_SPEC_EXACT_EDGES 24
/* Volume gathers (resample_*_volume.comp): each invocation writes the block of DEPTH_BLOCK
 * neighbouring indices of axis 1, the first DEPTH_PHASE indices early, summing each plane the
 * block taps once for all of them; DEPTH_TAPS, where above 0, the most planes a block taps, all
 * loaded at once (else a loop over them). */
#define RESAMPLE_SPEC_DEPTH_BLOCK 25
#define RESAMPLE_SPEC_DEPTH_PHASE 26
#define RESAMPLE_SPEC_DEPTH_TAPS 27
#define RESAMPLE_MAX_DEPTH_BLOCK 2u
/* Channels-last gathers (resample_channel_blocks.comp) whose LANES channels cannot move as one
 * vector but whose rows hold an even channel count: bit 0, the read tensor's groups load as pairs
 * of neighbouring channels, one 2-element access each; bit 1, the written tensor's store so. */
#define RESAMPLE_SPEC_PAIRS 28
/* 16-bit block gathers over planes whose block rows (of an even width, packed) cannot leave as
 * vectors, in the build whose subgroups shuffle: a block row that starts on an odd element stores
 * its members from the second on as words, its last with the first of the next lane's block where
 * that lane holds the next block of the row, where each member left as a 2-byte store. Full
 * subgroups of that build store transposed first (stores_shuffled, resample_block.glsl), so the
 * words run only in subgroups cut short (BENCHMARKS.md note 190). */
#define RESAMPLE_SPEC_ODD_ROW_WORDS 29

/* The block gather's limits: outputs per block, window columns and rows. A block's taps are
 * masks of TAP_BITS bits, window position times block members: MAX_WINDOW * MAX_BLOCK_X always
 * fits, while blocks of more than 4 rows take windows of at most TAP_BITS / BLOCK_Y rows
 * (lib/resample.c, place_windows). */
#define RESAMPLE_MAX_BLOCK_Y 8u
#define RESAMPLE_MAX_BLOCK_X 4u
#define RESAMPLE_MAX_WINDOW 16u
#define RESAMPLE_MAX_ROWS 16u
#define RESAMPLE_TAP_BITS 64u
/* Channels-last blocks (at most 2 rows) hold LANES sums per member: a bound of their own keeps
 * those arrays small, which lavapipe compiles much faster (BENCHMARKS.md note 129). */
#define RESAMPLE_MAX_CHANNEL_BLOCK_Y 4u

#ifndef DMLVK_GLSL
DMLVK_PUSH(resample_push, RESAMPLE_PUSH)
_Static_assert(RESAMPLE_MAX_WINDOW * RESAMPLE_MAX_BLOCK_X <= RESAMPLE_TAP_BITS && RESAMPLE_TAP_BITS == 64,
               "tap masks are two 32-bit words, and every column window fits them");
#endif

#endif
