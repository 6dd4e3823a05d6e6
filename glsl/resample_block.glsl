// The block gather of the resample shaders (ROWS > 0, planned by lib/resample.c where axes 0 and 1
// are identities): each invocation writes a BLOCK_Y x BLOCK_X block of one plane of the written
// tensor from a window of ROWS rows x CHUNKS chunks of columns of the read tensor that it reads
// once, with per-block weights that are 0 where a window element does not reach an output.
// Neighbouring outputs share their loads. The forward and backward passes are both separable
// linear maps; only the host's tables tell them apart.
layout(constant_id = RESAMPLE_SPEC_ROWS) const uint ROWS = 0;
layout(constant_id = RESAMPLE_SPEC_CHUNKS) const uint CHUNKS = 1;
layout(constant_id = RESAMPLE_SPEC_BLOCK_Y) const uint BLOCK_Y = 1;
layout(constant_id = RESAMPLE_SPEC_BLOCK_X) const uint BLOCK_X = 1;
// VECTOR_LOADS: window chunks are aligned on packed rows, one load each. VECTOR_STORES: BLOCK_X
// is 4 on a packed, aligned last axis, each block row leaves as one 4-element store.
// ALIGNED: the pipeline recorded where the tensors' addresses allow those accesses (lib/operator.c
// picks it; lib/resample.c says which plans have one); the other tests the addresses and keeps a
// scalar copy of the row loop, code that cost backward rows time (BENCHMARKS.md notes 139, 140).
layout(constant_id = RESAMPLE_SPEC_ALIGNED) const bool ALIGNED = false;
// Column blocks start this many outputs early (the first one partly outside the tensor), where
// that keeps each block's window in fewer chunks (bilinear 2x: 2 chunks instead of 3).
layout(constant_id = RESAMPLE_SPEC_X_PHASE) const uint X_PHASE = 0;

// WORD_LOADS: 16-bit window rows that vectors cannot load (odd lengths) come from whole words, the
// window's CHUNK * CHUNKS elements (an even count) from one word more than half as many, where a
// load per element took each element's word and unpacked both its halves.
layout(constant_id = RESAMPLE_SPEC_WORD_LOADS) const bool WORD_LOADS = false;

// X_CLASSES: the column blocks' weights by class (resample_abi.h), so that a warp's weight loads
// touch a few neighbouring 16-byte words instead of one per lane.
layout(constant_id = RESAMPLE_SPEC_X_CLASSES) const bool X_CLASSES = false;

// EXACT: plain sums are exact (resample_abi.h; lib/resample.c says which plans), with the values
// outside the tensor zeroed at the window positions in EXACT_EDGES, where a careful pass cost
// 16-bit rows time even where it never ran (BENCHMARKS.md notes 145 and 146).
layout(constant_id = RESAMPLE_SPEC_EXACT) const bool EXACT = false;
layout(constant_id = RESAMPLE_SPEC_EXACT_EDGES) const uint EXACT_EDGES = 0u;

// Elements per load of a window row: 4, 2 or 1 (lib/resample.c picks 4 or 2).
layout(constant_id = RESAMPLE_SPEC_CHUNK) const uint CHUNK = 4;
// The window entries that any block taps (bit t * BLOCK_X + bx, r * BLOCK_Y + by), in two words
// each: only those are summed, so weights of 0 cost nothing where windows sit alike in every block.
layout(constant_id = RESAMPLE_SPEC_X_TAPS_LO) const uint X_TAPS_LO = ~0u;
layout(constant_id = RESAMPLE_SPEC_X_TAPS_HI) const uint X_TAPS_HI = ~0u;
layout(constant_id = RESAMPLE_SPEC_Y_TAPS_LO) const uint Y_TAPS_LO = ~0u;
layout(constant_id = RESAMPLE_SPEC_Y_TAPS_HI) const uint Y_TAPS_HI = ~0u;

const uint MAX_BLOCK_Y = RESAMPLE_MAX_BLOCK_Y, MAX_BLOCK_X = RESAMPLE_MAX_BLOCK_X, MAX_WINDOW = RESAMPLE_MAX_WINDOW;
const uint MAX_CHANNEL_BLOCK_Y = RESAMPLE_MAX_CHANNEL_BLOCK_Y;

#ifndef RESAMPLE_BACKWARD
#define RESAMPLE_BACKWARD 0
#endif
#ifndef RESAMPLE_CHANNEL_BLOCKS
#define RESAMPLE_CHANNEL_BLOCKS 0
#endif
// RESAMPLE_DEPTH (resample_*_volume.comp): axis 1 scales too (volumes {N, D, H, W}); each block
// adds the block sums of the planes that axis taps, times its weights.
#ifndef RESAMPLE_DEPTH
#define RESAMPLE_DEPTH 0
#endif
// Whether add_rows loads its y weights by groups of four: the backward gathers over planes
// (BENCHMARKS.md note 99), and 16-bit forward blocks of 2 columns whose windows have at most two
// rows per block row (upsampling, downsampling by up to 2), where each y weight serves only two
// outputs (note 138; taller windows ran slower so); other forward blocks keep a load per entry,
// which ran faster there.
#if RESAMPLE_BACKWARD
#define Y_WEIGHT_GROUPS true
#elif DMLVK_STORAGE16
#define Y_WEIGHT_GROUPS (BLOCK_X == 2u && ROWS <= 2u * BLOCK_Y)
#else
#define Y_WEIGHT_GROUPS false
#endif
// Whether a sum is neither Inf nor NaN: one comparison of its magnitude (NaN compares false),
// where isinf and isnan took two (BENCHMARKS.md note 71).
bool finite_sum(float s)
{
    return abs(s) < uintBitsToFloat(0x7f800000u);
}

// A careful sum's term: w * v, or 0 where `keep` is false (or `drop` true). The value is zeroed,
// not the product, so that the arithmetic is the plain sums' own: where a compiler fused the plain
// w * v + s and not a select's, an output in a careful block came out an ulp away from the same
// output in a plain one (test_block_gather_inf, float32, on an H100).
#define CAREFUL_TERM(w, v, keep) ((w) * ((keep) ? (v) : 0.0))
#define CAREFUL_TERM_UNLESS(w, v, drop) ((w) * ((drop) ? 0.0 : (v)))

bool tapped(uint lo, uint hi, uint entry)
{
    return ((entry < 32u ? lo >> entry : hi >> (entry - 32u)) & 1u) != 0u;
}

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer ParamWords { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer ParamUvec2s { uvec2 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer ParamVec4s { vec4 v[]; };

// A block table for `blocks` blocks of one axis (lib/resample.c, fill_block_table): each block's
// first window position, then from the next 16-byte boundary the weights, entry
// t * members + m for window position t and block member m, in groups of four stored
// group-major, so that neighbouring blocks' groups are neighbouring vec4s.
uint block_weights(uint table, uint blocks)
{
    return (table + blocks + 3u) >> 2;   // in vec4s
}

float block_weight(uint weights, uint blocks, uint j, uint entry)
{
    return uintBitsToFloat(ParamWords(pc.p).v[4u * (weights + (entry >> 2) * blocks + j) + (entry & 3u)]);
}

// Block j's weights of entries 4 * group to 4 * group + 3 in one load, where a load per entry
// took up to four (the gathers are bound by their instructions in 16-bit types; Y_WEIGHT_GROUPS).
vec4 block_weight_group(uint weights, uint blocks, uint j, uint group)
{
    return ParamVec4s(pc.p).v[weights + group * blocks + j];
}

// Adds the window's rows into acc. Every load is unconditional (window positions past the
// tensor's edge read its last row or column, with weight 0), so that all of them can be in
// flight at once: with each row's loads waiting on a branch, memory latency limited this kernel.
// Weights of 0 are exact no-ops on finite values; `careful` sums a row that holds an Inf or a NaN
// again without them, so that it reaches only the outputs that tap it (block_gather runs it only
// where the plain sums came out non-finite).
void add_rows(bool vector, bool careful, uint plane, int x0, int y0, uint jy, uint y_blocks, uint yw,
              float wx[MAX_WINDOW * MAX_BLOCK_X], inout float acc[MAX_BLOCK_Y * MAX_BLOCK_X])
{
    int last_row = int(pc.p.in_sizes[2]) - 1, last_col = int(pc.p.in_sizes[3]) - 1;
    vec4 wy = vec4(0.0);
    uint wy_group = ~0u;
    [[unroll]] for (uint r = 0u; r < ROWS; r++) {
        uint row = plane + uint(clamp(y0 + int(r), 0, last_row)) * pc.p.in_strides[2];
        float v[MAX_WINDOW];
#if DMLVK_STORAGE16
        if (WORD_LOADS && !careful) {
            // Window position t is element row + x0 + t, in word (row >> 1) + (odd + x0 + t) >> 1
            // with odd = row & 1. Words outside the row are clamped to its first and last, so a
            // position past its edge reads some element of the row (or of its pair word's other
            // row) where loads per element read the edge: such positions have weight 0, and
            // a non-finite value there sends the block to the careful sums as the edge's would.
            const uint WORDS = CHUNK * CHUNKS / 2u + 1u;
            int odd = int(row & 1u), start = odd + x0, last_word = (odd + last_col) >> 1;
            uint shift = uint(start & 1) * 16u;
            uint words[MAX_WINDOW / 2u + 1u];
            [[unroll]] for (uint j = 0u; j < WORDS; j++)
                words[j] = TensorWords(pc.src).v[(row >> 1) + uint(clamp((start >> 1) + int(j), 0, last_word))];
            [[unroll]] for (uint j = 0u; j + 1u < WORDS; j++) {
                vec2 pair = unpack16x2(shift == 0u ? words[j] : (words[j] >> 16) | (words[j + 1u] << 16));
                v[2u * j] = pair.x;
                v[2u * j + 1u] = pair.y;
            }
        } else
#endif
        [[unroll]] for (uint c = 0u; c < CHUNKS; c++) {
            int x = x0 + int(CHUNK * c);
            if (vector && CHUNK > 1u) {
                // Rows, x0 and the row length are whole chunks here.
                uint q = (row + uint(clamp(x, 0, last_col + 1 - int(CHUNK)))) / CHUNK;
                bool outside = EXACT && (EXACT_EDGES >> c & 1u) != 0u && (x < 0 || x > last_col);
                if (CHUNK == 4u) {
                    vec4 l = load4(pc.src, q);
                    [[unroll]] for (uint k = 0u; k < 4u; k++)
                        v[4u * c + k] = outside ? 0.0 : l[k];
                } else {
                    vec2 l = load2(pc.src, q);
                    v[2u * c] = outside ? 0.0 : l.x;
                    v[2u * c + 1u] = outside ? 0.0 : l.y;
                }
            } else {
                [[unroll]] for (uint k = 0u; k < CHUNK; k++) {
                    float l = load(pc.src, row + uint(clamp(x + int(k), 0, last_col)) * pc.p.in_strides[3]);
                    bool outside = EXACT && (EXACT_EDGES >> c & 1u) != 0u && (x + int(k) < 0 || x + int(k) > last_col);
                    v[CHUNK * c + k] = outside ? 0.0 : l;
                }
            }
        }
        float sums[MAX_BLOCK_X];
        bool finite = true;
        [[unroll]] for (uint bx = 0u; bx < BLOCK_X; bx++) {
            float s = 0.0;
            [[unroll]] for (uint t = 0u; t < CHUNK * CHUNKS; t++)
                if (tapped(X_TAPS_LO, X_TAPS_HI, t * BLOCK_X + bx))
                    s += wx[t * BLOCK_X + bx] * v[t];
            sums[bx] = s;
            finite = finite && (!careful || (!isinf(s) && !isnan(s)));
        }
        if (EXACT && (EXACT_EDGES >> (16u + r) & 1u) != 0u && (y0 + int(r) < 0 || y0 + int(r) > last_row)) {
            [[unroll]] for (uint bx = 0u; bx < BLOCK_X; bx++)
                sums[bx] = 0.0;
        }
        if (!finite) {
            [[unroll]] for (uint bx = 0u; bx < BLOCK_X; bx++) {
                float s = 0.0;
                [[unroll]] for (uint t = 0u; t < CHUNK * CHUNKS; t++) {
                    float w = wx[t * BLOCK_X + bx];
                    if (tapped(X_TAPS_LO, X_TAPS_HI, t * BLOCK_X + bx))
                        s += CAREFUL_TERM(w, v[t], w != 0.0);
                }
                sums[bx] = s;
            }
        }
        [[unroll]] for (uint by = 0u; by < BLOCK_Y; by++) {
            if (!tapped(Y_TAPS_LO, Y_TAPS_HI, r * BLOCK_Y + by))
                continue;
            uint entry = r * BLOCK_Y + by;
            float w;
            if (Y_WEIGHT_GROUPS) {
                if (entry >> 2 != wy_group) {   // folds away once the loops are unrolled
                    wy_group = entry >> 2;
                    wy = block_weight_group(yw, y_blocks, jy, wy_group);
                }
                w = wy[entry & 3u];
            } else {
                w = block_weight(yw, y_blocks, jy, entry);
            }
            [[unroll]] for (uint bx = 0u; bx < BLOCK_X; bx++)
                acc[by * BLOCK_X + bx] += CAREFUL_TERM(w, sums[bx], finite || w != 0.0);
        }
    }
}

#if DMLVK_SHUFFLE
// Float32 block rows that cannot leave as vectors, stored through the subgroup (lib/resample.c,
// stores_shuffled): store k of a row writes elements k * S to k * S + S - 1 of the subgroup's S
// blocks in lane order, lane t member t % BLOCK_X of block k * S / BLOCK_X + t / BLOCK_X, where
// each scalar store of a block's own members wrote a part of every line it touched. That block's
// lane owes BLOCK_X lanes a member each at once, so the values move in BLOCK_X rounds, round r
// giving lane t the member of store (t + r) % BLOCK_X: a transpose within each group of BLOCK_X
// lanes.
void store_rows_transposed(uint jy, uint ox, uint out_base, float acc[MAX_BLOCK_Y * MAX_BLOCK_X])
{
    uint lane = gl_SubgroupInvocationID, span = gl_SubgroupSize / BLOCK_X;
    uint m = lane % BLOCK_X, group = lane / BLOCK_X, owed_store = lane / span;
    uint bases[MAX_BLOCK_X], xs[MAX_BLOCK_X], block_rows[MAX_BLOCK_X];
    [[unroll]] for (uint k = 0u; k < BLOCK_X; k++) {
        uint from = k * span + group;
        bases[k] = subgroupShuffle(out_base, from);
        xs[k] = subgroupShuffle(ox, from);
        block_rows[k] = subgroupShuffle(jy, from);
    }
    [[unroll]] for (uint by = 0u; by < BLOCK_Y; by++) {
        float v[MAX_BLOCK_X];
        [[unroll]] for (uint k = 0u; k < BLOCK_X; k++)
            v[k] = 0.0;
        [[unroll]] for (uint r = 0u; r < BLOCK_X; r++) {
            uint sent = (owed_store + BLOCK_X - r) % BLOCK_X, k = (m + r) % BLOCK_X;
            float s = acc[by * BLOCK_X];
            [[unroll]] for (uint bx = 1u; bx < BLOCK_X; bx++)
                s = sent == bx ? acc[by * BLOCK_X + bx] : s;
            float got = subgroupShuffle(s, k * span + group);
            [[unroll]] for (uint kk = 0u; kk < BLOCK_X; kk++)
                v[kk] = kk == k ? got : v[kk];
        }
        [[unroll]] for (uint k = 0u; k < BLOCK_X; k++) {
            uint y = block_rows[k] * BLOCK_Y + by;
            if (y < pc.p.out_sizes[2] && xs[k] + m < pc.p.out_sizes[3])
                store(pc.dst, bases[k] + y * pc.p.out_strides[2] + m, v[k]);
        }
    }
}

// Shuffles need every lane: a subgroup cut short by the dispatch's end stores as the other builds do.
bool stores_shuffled()
{
    return gl_SubgroupSize % BLOCK_X == 0u && pc.p.out_strides[3] == 1u &&
           subgroupBallotBitCount(subgroupBallot(true)) == gl_SubgroupSize;
}

#if !RESAMPLE_DEPTH
// ODD_ROW_WORDS (resample_abi.h): 16-bit block rows that start on an odd element, in subgroups
// cut short (full ones store transposed above).
layout(constant_id = RESAMPLE_SPEC_ODD_ROW_WORDS) const bool ODD_ROW_WORDS = false;

// Where the lanes beside this one hold the neighbouring blocks of its block row: `next`, the lane
// after holds the next block and the row goes on into it (`next_first`, `next_finite`: that
// block's first member per row, and whether its sums are finite); `previous`, the lane before
// holds the previous block (so it stores this block's first member with its last). The lanes
// compare block indices, so any placement of invocations in subgroups stores every element once.
// Every lane calls this, before any leaves the row loop.
struct RowNeighbours {
    bool next, previous, next_finite;
    float next_first[MAX_BLOCK_Y];
};

RowNeighbours row_neighbours(uint block, uint jx, uint ox, float acc[MAX_BLOCK_Y * MAX_BLOCK_X], bool finite)
{
    uint lane = gl_SubgroupInvocationID, last = gl_SubgroupSize - 1u, after = min(lane + 1u, last);
    uvec4 running = subgroupBallot(true);
    uint after_block = subgroupShuffle(block, after);
    uint before_block = subgroupShuffle(block, lane > 0u ? lane - 1u : 0u);
    RowNeighbours n;
    n.next = lane < last && subgroupBallotBitExtract(running, lane + 1u) && after_block == block + 1u &&
             ox + BLOCK_X < pc.p.out_sizes[3];
    n.previous = lane > 0u && subgroupBallotBitExtract(running, lane - 1u) && before_block + 1u == block && jx > 0u;
    n.next_finite = subgroupShuffle(finite, after);
    [[unroll]] for (uint by = 0u; by < BLOCK_Y; by++)
        n.next_first[by] = subgroupShuffle(acc[by * BLOCK_X], after);
    return n;
}

// Block row `by` (starting at element o, odd) of members ox..: the first alone unless the
// previous lane stores it, then words, the last with the next block's first member.
void store_odd_row(uint o, uint ox, uint by, float acc[MAX_BLOCK_Y * MAX_BLOCK_X], RowNeighbours n, bool finite)
{
    uint k = by * BLOCK_X;
    uint sx = pc.p.out_sizes[3];
    if (ox < sx && !n.previous)
        store(pc.dst, o, acc[k]);
    [[unroll]] for (uint bx = 1u; bx < BLOCK_X; bx += 2u) {
        bool inner = bx + 1u < BLOCK_X;
        bool first = ox + bx < sx, second = ox + bx + 1u < sx && (inner || n.next);
        float b = n.next_first[by];
        if (inner)      // a branch: a select would read past acc's end on the last row
            b = acc[k + bx + 1u];
        if (first && second) {
            store2_tested(pc.dst, o + bx, acc[k + bx], b, finite && (inner || n.next_finite));
        } else {
            if (first)
                store(pc.dst, o + bx, acc[k + bx]);
            if (second)
                store(pc.dst, o + bx + 1u, b);
        }
    }
}
#endif
#endif

#if RESAMPLE_DEPTH
layout(constant_id = RESAMPLE_SPEC_DEPTH_BLOCK) const uint DEPTH_BLOCK = 1;
layout(constant_id = RESAMPLE_SPEC_DEPTH_PHASE) const uint DEPTH_PHASE = 0;
layout(constant_id = RESAMPLE_SPEC_DEPTH_TAPS) const uint DEPTH_TAPS = 0;
const uint MAX_DEPTH_BLOCK = RESAMPLE_MAX_DEPTH_BLOCK, BLOCK_MEMBERS = MAX_BLOCK_Y * MAX_BLOCK_X;

// The planes [first, end) of axis 1 that written index i1 taps with a weight above 0: forward the
// 1 or 2 planes of its map entry, backward its range.
uvec2 depth_taps(uint i1)
{
#if RESAMPLE_BACKWARD
    uint r = pc.p.range_offset[1] + 2u * i1;
    return uvec2(pc.p.table[r], pc.p.table[r + 1u]);
#else
    uint m = pc.p.map_offset[1] + RESAMPLE_MAP_WORDS * i1, first = pc.p.table[m];
    return uvec2(first, first + (uintBitsToFloat(pc.p.table[m + 1u]) > 0.0 ? 2u : 1u));
#endif
}

// The weight of plane d for written index i1: 0 outside depth_taps(i1).
float depth_weight(uint i1, uint d)
{
#if RESAMPLE_BACKWARD
    uint k = pc.p.map_offset[1] + RESAMPLE_MAP_WORDS * d, i = pc.p.table[k];
    return i == i1 ? uintBitsToFloat(pc.p.table[k + 2u]) : i + 1u == i1 ? uintBitsToFloat(pc.p.table[k + 1u]) : 0.0;
#else
    uint m = pc.p.map_offset[1] + RESAMPLE_MAP_WORDS * i1, first = pc.p.table[m];
    return d == first ? uintBitsToFloat(pc.p.table[m + 2u]) : d == first + 1u ? uintBitsToFloat(pc.p.table[m + 1u]) : 0.0;
#endif
}

// The block sums of the planes that written indices i1 to i1 + members - 1 of axis 1 tap (those of
// them inside the axis), each times each member's weight, into member k's acc[k * BLOCK_MEMBERS
// ...], in the planes' order. Plain sums load DEPTH_TAPS planes at once, past the last tapped one
// again, with weight 0 there and on the planes a member does not tap: nothing added to a finite sum,
// a NaN where the plane holds an Inf, which sends that member to the careful sums, of one member
// and only the planes it taps.
void add_depth_planes(bool vector, bool careful, uint i0, int i1, uint members, int x0, int y0, uint jy, uint y_blocks,
                      uint yw, float wx[MAX_WINDOW * MAX_BLOCK_X], inout float acc[MAX_DEPTH_BLOCK * BLOCK_MEMBERS])
{
    uint first = ~0u, end = 0u;
    [[unroll]] for (uint k = 0u; k < MAX_DEPTH_BLOCK; k++) {
        if (k < members && i1 + int(k) >= 0 && i1 + int(k) < int(pc.p.out_sizes[1])) {
            uvec2 t = depth_taps(uint(i1 + int(k)));
            first = min(first, t.x);
            end = max(end, t.y);
        }
    }
    if (first >= end)
        return;
    const bool unrolled = !careful && DEPTH_TAPS > 0u;
    [[unroll]] for (uint t = 0u; t < (unrolled ? DEPTH_TAPS : 1u); t++) {
        for (uint u = 0u; u < (unrolled ? 1u : end - first); u++) {
            uint d = unrolled ? min(first + t, end - 1u) : first + u;
            float w[MAX_DEPTH_BLOCK];
            [[unroll]] for (uint k = 0u; k < MAX_DEPTH_BLOCK; k++) {
                int i = i1 + int(k);
                bool inside = k < members && i >= 0 && i < int(pc.p.out_sizes[1]) && first + t + u < end;
                w[k] = inside ? depth_weight(uint(i), d) : 0.0;
            }
            float part[BLOCK_MEMBERS];
            [[unroll]] for (uint k = 0u; k < BLOCK_Y * BLOCK_X; k++)
                part[k] = 0.0;
            uint plane = i0 * pc.p.in_strides[0] + d * pc.p.in_strides[1];
            if (vector)
                add_rows(true, careful, plane, x0, y0, jy, y_blocks, yw, wx, part);
            else
                add_rows(false, careful, plane, x0, y0, jy, y_blocks, yw, wx, part);
            [[unroll]] for (uint m = 0u; m < MAX_DEPTH_BLOCK; m++)
                if (m < members)
                    [[unroll]] for (uint k = 0u; k < BLOCK_Y * BLOCK_X; k++)
                        acc[m * BLOCK_MEMBERS + k] += w[m] * part[k];
        }
    }
}
#endif

void block_gather(uint e)
{
    uint block = e;
    uint sy = pc.p.out_sizes[2], sx = pc.p.out_sizes[3];
    uint y_blocks = (sy + BLOCK_Y - 1u) / BLOCK_Y, x_blocks = (sx + X_PHASE + BLOCK_X - 1u) / BLOCK_X;
    uint q = div_by(e, x_blocks, pc.p.block_magic[0]);
    uint jx = e - q * x_blocks;
    e = q;
    q = div_by(e, y_blocks, pc.p.block_magic[1]);
    uint jy = e - q * y_blocks;
#if RESAMPLE_DEPTH
    uint planes = (pc.p.out_sizes[1] + DEPTH_PHASE + DEPTH_BLOCK - 1u) / DEPTH_BLOCK;
#else
    uint planes = pc.p.out_sizes[1];
#endif
    uint i0 = div_by(q, planes, pc.p.block_magic[2]), j1 = q - i0 * planes;

    uint yt = pc.p.block_table[0], xt = pc.p.block_table[1];
    // Windows start before index 0 where they sit alike in every block (lib/resample.c).
    int y0 = int(ParamWords(pc.p).v[yt + jy]), x0;
    uint yw = block_weights(yt, y_blocks), xw, x_class, x_stride;
    if (X_CLASSES) {
        uvec2 first_class = ParamUvec2s(pc.p).v[(xt >> 1) + jx];
        x0 = int(first_class.x);
        x_class = first_class.y;
        xw = block_weights(xt, 2u * x_blocks);   // after two words per block
        x_stride = pc.p.x_classes;
    } else {
        x0 = int(ParamWords(pc.p).v[xt + jx]);
        x_class = jx;
        xw = block_weights(xt, x_blocks);
        x_stride = x_blocks;
    }

    // The column weights once, in registers, for every row.
    float wx[MAX_WINDOW * MAX_BLOCK_X];
    [[unroll]] for (uint g = 0u; g < (CHUNK * CHUNKS * BLOCK_X + 3u) / 4u; g++) {
        vec4 q = ParamVec4s(pc.p).v[xw + g * x_stride + x_class];
        [[unroll]] for (uint k = 0u; k < 4u; k++)
            wx[4u * g + k] = q[k];
    }
#if RESAMPLE_DEPTH
    // The block's first plane wraps below 0 with DEPTH_PHASE.
    uint first_i1 = j1 * DEPTH_BLOCK - DEPTH_PHASE;
    float sums[MAX_DEPTH_BLOCK * BLOCK_MEMBERS];
    [[unroll]] for (uint k = 0u; k < DEPTH_BLOCK * BLOCK_MEMBERS; k++)
        sums[k] = 0.0;
    add_depth_planes(VECTOR_LOADS && (ALIGNED || chunk_aligned(pc.src, CHUNK)), false, i0, int(first_i1), DEPTH_BLOCK,
                     x0, y0, jy, y_blocks, yw, wx, sums);
#endif
    // Volumes store each member of the block, in a loop kept rolled so that the careful sums and
    // the stores are one copy of code (lavapipe compiles these modules slowly); planes of rows
    // store one block.
#if RESAMPLE_DEPTH
    [[dont_unroll]] for (uint m = 0u; m < DEPTH_BLOCK; m++) {
#else
    {
#endif
        float acc[MAX_BLOCK_Y * MAX_BLOCK_X];
#if RESAMPLE_DEPTH
        uint i1 = first_i1 + m;
        if (i1 >= pc.p.out_sizes[1])
            continue;
        [[unroll]] for (uint k = 0u; k < BLOCK_Y * BLOCK_X; k++)
            acc[k] = m == 0u ? sums[k] : sums[BLOCK_MEMBERS + k];
#else
        uint i1 = j1;
        [[unroll]] for (uint k = 0u; k < BLOCK_Y * BLOCK_X; k++)
            acc[k] = 0.0;
        bool vector_loads = VECTOR_LOADS && (ALIGNED || chunk_aligned(pc.src, CHUNK));
        uint plane = i0 * pc.p.in_strides[0] + i1 * pc.p.in_strides[1];
        // Copies of the row loop, so that none branches on the alignment per load.
        if (vector_loads)
            add_rows(true, false, plane, x0, y0, jy, y_blocks, yw, wx, acc);
        else
            add_rows(false, false, plane, x0, y0, jy, y_blocks, yw, wx, acc);
#endif
        // A window value that is Inf or NaN makes every sum it enters non-finite, weight 0 or not
        // (but for EXACT's, where the stores alone ask).
        bool finite = true;
#if !DMLVK_BF16
        if (!EXACT)
#endif
        [[unroll]] for (uint k = 0u; k < BLOCK_Y * BLOCK_X; k++)
            finite = finite && finite_sum(acc[k]);
        if (!EXACT && !finite) {
#if RESAMPLE_DEPTH
            [[unroll]] for (uint k = 0u; k < BLOCK_Y * BLOCK_X; k++)
                sums[k] = 0.0;
            add_depth_planes(false, true, i0, int(i1), 1u, x0, y0, jy, y_blocks, yw, wx, sums);
            [[unroll]] for (uint k = 0u; k < BLOCK_Y * BLOCK_X; k++)
                acc[k] = sums[k];
#else
            [[unroll]] for (uint k = 0u; k < BLOCK_Y * BLOCK_X; k++)
                acc[k] = 0.0;
            add_rows(false, true, plane, x0, y0, jy, y_blocks, yw, wx, acc);
#endif
        }

        // ox wraps below 0 in the first block with X_PHASE: ox + bx >= sx there skips those members.
        uint ox = jx * BLOCK_X - X_PHASE, out_base = i0 * pc.p.out_strides[0] + i1 * pc.p.out_strides[1] + ox * pc.p.out_strides[3];
        bool vector_out = VECTOR_STORES && (ALIGNED || vec4_aligned(pc.dst));
#if DMLVK_SHUFFLE && !RESAMPLE_DEPTH
        if (!vector_out && stores_shuffled()) {
            store_rows_transposed(jy, ox, out_base, acc);
            return;
        }
        RowNeighbours neighbours;
        if (ODD_ROW_WORDS)
            neighbours = row_neighbours(block, jx, ox, acc, finite);
#endif
        [[unroll]] for (uint by = 0u; by < BLOCK_Y; by++) {
            uint y = jy * BLOCK_Y + by;
            if (y >= sy)
                break;
            uint o = out_base + y * pc.p.out_strides[2];
            uint k = by * BLOCK_X;
            if (vector_out) {
                store4_tested(pc.dst, o >> 2, vec4(acc[k], acc[k + 1u], acc[k + 2u], acc[k + 3u]), finite);
            } else if (pc.p.out_strides[3] == 1u) {
#if DMLVK_SHUFFLE && !RESAMPLE_DEPTH
                if (ODD_ROW_WORDS && (o & 1u) != 0u) {
                    store_odd_row(o, ox, by, acc, neighbours, finite);
                    continue;
                }
#endif
                // Pairs leave as one word where the address allows (float16 above all).
                [[unroll]] for (uint bx = 0u; bx < BLOCK_X; bx += 2u) {
                    bool first = ox + bx < sx, second = bx + 1u < BLOCK_X && ox + bx + 1u < sx;
                    if (first && second) {
                        store2_tested(pc.dst, o + bx, acc[k + bx], acc[k + bx + 1u], finite);
                    } else {
                        if (first)
                            store(pc.dst, o + bx, acc[k + bx]);
                        if (second)
                            store(pc.dst, o + bx + 1u, acc[k + bx + 1u]);
                    }
                }
            } else {
                [[unroll]] for (uint bx = 0u; bx < BLOCK_X; bx++)
                    if (ox + bx < sx)
                        store(pc.dst, o + bx * pc.p.out_strides[3], acc[k + bx]);
            }
        }
    }
}

// Channels-last planes (RESAMPLE_CHANNEL_BLOCKS, lib/resample.c): where the channel axis (1) moves
// fastest in memory, each invocation writes LANES neighbouring channels of a BLOCK_Y x BLOCK_X
// block of pixels, and neighbouring invocations take neighbouring channel groups of the same block,
// so that a warp's window loads are contiguous runs of memory. The window is CHUNKS columns
// (CHUNK 1), each a group of LANES channels, summed as each arrives.

layout(constant_id = RESAMPLE_SPEC_PAIRS) const uint PAIRS = 0u;
const uint GROUP_SCALARS = 0u, GROUP_VECTOR = 1u, GROUP_PAIRS = 2u;

// The LANES channels from offset `at` (channel c0's) as pairs, one 2-element load each (PAIRS);
// a pair past the last channel reads the last pair and is not stored.
void load_channel_pairs(uint at, uint c0, out float v[MAX_LANES])
{
    [[unroll]] for (uint l = 0u; l < MAX_LANES; l += 2u) {
        vec2 pair = l < LANES ? load2(pc.src, (at + min(c0 + l, pc.p.in_sizes[1] - 2u) - c0) >> 1) : vec2(0.0);
        v[l] = pair.x;
        v[l + 1u] = pair.y;
    }
}

// As add_rows, for channel groups loaded as `access` (GROUP_*): `careful` leaves out every tap of
// weight 0.
void add_channel_rows(uint access, bool careful, uint base, uint c0, int x0, int y0, uint jy, uint y_blocks, uint yw,
                      float wx[MAX_WINDOW * MAX_BLOCK_X], inout float acc[MAX_CHANNEL_BLOCK_Y * MAX_BLOCK_X * MAX_LANES])
{
    int last_row = int(pc.p.in_sizes[2]) - 1, last_col = int(pc.p.in_sizes[3]) - 1;
    [[unroll]] for (uint r = 0u; r < ROWS; r++) {
        uint row = base + uint(clamp(y0 + int(r), 0, last_row)) * pc.p.in_strides[2];
        float sums[MAX_BLOCK_X * MAX_LANES];
        [[unroll]] for (uint k = 0u; k < BLOCK_X * MAX_LANES; k++)
            sums[k] = 0.0;
        [[unroll]] for (uint t = 0u; t < CHUNKS; t++) {
            bool used = false;
            [[unroll]] for (uint bx = 0u; bx < BLOCK_X; bx++)
                used = used || tapped(X_TAPS_LO, X_TAPS_HI, t * BLOCK_X + bx);
            if (!used)
                continue;
            float v[MAX_LANES];
            uint at = row + uint(clamp(x0 + int(t), 0, last_col)) * pc.p.in_strides[3];
            if (access == GROUP_PAIRS)
                load_channel_pairs(at, c0, v);
            else
                load_lanes(access == GROUP_VECTOR, at, c0, 1u, v);
            [[unroll]] for (uint bx = 0u; bx < BLOCK_X; bx++) {
                if (!tapped(X_TAPS_LO, X_TAPS_HI, t * BLOCK_X + bx))
                    continue;
                float w = wx[t * BLOCK_X + bx];
                [[unroll]] for (uint l = 0u; l < LANES; l++)
                    sums[bx * MAX_LANES + l] += CAREFUL_TERM_UNLESS(w, v[l], careful && w == 0.0);
            }
        }
        [[unroll]] for (uint by = 0u; by < BLOCK_Y; by++) {
            if (!tapped(Y_TAPS_LO, Y_TAPS_HI, r * BLOCK_Y + by))
                continue;
            float w = block_weight(yw, y_blocks, jy, r * BLOCK_Y + by);
            [[unroll]] for (uint bx = 0u; bx < BLOCK_X; bx++)
                [[unroll]] for (uint l = 0u; l < LANES; l++)
                    acc[(by * BLOCK_X + bx) * MAX_LANES + l] += CAREFUL_TERM_UNLESS(w, sums[bx * MAX_LANES + l], careful && w == 0.0);
        }
    }
}

void block_gather_channels(uint e)
{
    uint sy = pc.p.out_sizes[2], sx = pc.p.out_sizes[3];
    uint y_blocks = (sy + BLOCK_Y - 1u) / BLOCK_Y, x_blocks = (sx + X_PHASE + BLOCK_X - 1u) / BLOCK_X;
    uint groups = (pc.p.out_sizes[1] + LANES - 1u) / LANES;
    uint q = div_by(e, groups, pc.p.block_magic[0]);
    uint c0 = (e - q * groups) * LANES;
    e = q;
    q = div_by(e, x_blocks, pc.p.block_magic[1]);
    uint jx = e - q * x_blocks;
    e = q;
    q = div_by(e, y_blocks, pc.p.block_magic[2]);
    uint jy = e - q * y_blocks, n = q;

    uint yt = pc.p.block_table[0], xt = pc.p.block_table[1];
    int y0 = int(ParamWords(pc.p).v[yt + jy]), x0 = int(ParamWords(pc.p).v[xt + jx]);
    uint yw = block_weights(yt, y_blocks), xw = block_weights(xt, x_blocks);
    float wx[MAX_WINDOW * MAX_BLOCK_X];
    [[unroll]] for (uint g = 0u; g < (CHUNKS * BLOCK_X + 3u) / 4u; g++) {
        vec4 w = ParamVec4s(pc.p).v[xw + g * x_blocks + jx];
        [[unroll]] for (uint k = 0u; k < 4u; k++)
            wx[4u * g + k] = w[k];
    }
    float acc[MAX_CHANNEL_BLOCK_Y * MAX_BLOCK_X * MAX_LANES];
    [[unroll]] for (uint k = 0u; k < BLOCK_Y * BLOCK_X * MAX_LANES; k++)
        acc[k] = 0.0;
    uint base = n * pc.p.in_strides[0] + c0 * pc.p.in_strides[1];
    if (VECTOR_LOADS && (ALIGNED || chunk_aligned(pc.src, LANES)))
        add_channel_rows(GROUP_VECTOR, false, base, c0, x0, y0, jy, y_blocks, yw, wx, acc);
    else if ((PAIRS & 1u) != 0u && chunk_aligned(pc.src, 2u))
        add_channel_rows(GROUP_PAIRS, false, base, c0, x0, y0, jy, y_blocks, yw, wx, acc);
    else
        add_channel_rows(GROUP_SCALARS, false, base, c0, x0, y0, jy, y_blocks, yw, wx, acc);
    bool finite = true;
    [[unroll]] for (uint k = 0u; k < BLOCK_Y * BLOCK_X * MAX_LANES; k++)
        finite = finite && finite_sum(acc[k]);
    if (!finite) {
        [[unroll]] for (uint k = 0u; k < BLOCK_Y * BLOCK_X * MAX_LANES; k++)
            acc[k] = 0.0;
        add_channel_rows(GROUP_SCALARS, true, base, c0, x0, y0, jy, y_blocks, yw, wx, acc);
    }

    uint inside = min(LANES, pc.p.out_sizes[1] - c0);
    uint out_base = n * pc.p.out_strides[0] + c0 * pc.p.out_strides[1];
    bool vector_out = VECTOR_STORES && (ALIGNED || chunk_aligned(pc.dst, LANES));
    bool pairs_out = (PAIRS & 2u) != 0u && chunk_aligned(pc.dst, 2u);
    [[unroll]] for (uint by = 0u; by < BLOCK_Y; by++) {
        uint y = jy * BLOCK_Y + by;
        if (y >= sy)
            break;
        [[unroll]] for (uint bx = 0u; bx < BLOCK_X; bx++) {
            uint x = jx * BLOCK_X + bx - X_PHASE;   // wraps below 0 in the first block with X_PHASE
            if (x >= sx)
                continue;
            uint o = out_base + y * pc.p.out_strides[2] + x * pc.p.out_strides[3], k = (by * BLOCK_X + bx) * MAX_LANES;
            if (vector_out) {
                if (LANES == 8u)
                    store8_tested(pc.dst, o >> 3, vec4(acc[k], acc[k + 1u], acc[k + 2u], acc[k + 3u]),
                                  vec4(acc[k + 4u], acc[k + 5u], acc[k + 6u], acc[k + 7u]), finite);
                else
                    store4_tested(pc.dst, o >> 2, vec4(acc[k], acc[k + 1u], acc[k + 2u], acc[k + 3u]), finite);
            } else if (pairs_out) {
                [[unroll]] for (uint l = 0u; l < MAX_LANES; l += 2u)
                    if (l < inside)
                        store2_tested(pc.dst, o + l, acc[k + l], acc[k + l + 1u], finite);
            } else {
                [[unroll]] for (uint l = 0u; l < MAX_LANES; l++)
                    if (l < inside)
                        store(pc.dst, o + l * pc.p.out_strides[1], acc[k + l]);
            }
        }
    }
}

// The entry point of the block gathers' modules: planes of rows (resample_*_blocks.comp), or with
// RESAMPLE_CHANNEL_BLOCKS channels-last planes (resample_channel_blocks.comp). Each path is a
// module of its own, apart from the general loops too, so that a driver parses and specializes
// only the code it runs.
void main()
{
    uint e = invocation_index();
    if (e >= pc.p.count)
        return;
#if RESAMPLE_CHANNEL_BLOCKS
    block_gather_channels(e);
#else
    block_gather(e);
#endif
}
