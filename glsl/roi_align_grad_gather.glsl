// ROI_ALIGN_GRAD: the gather by tiles (roi_align_grad_tiles.glsl), the body of
// roi_align_grad_gather and, with DMLVK_GATHER_ROI_GRAD, of roi_align_grad_gather_roi, which sums
// the ROI gradient on the way (roi_align_abi.h, ROI_DERIVATIVE_LINE_VEC4).
#ifndef DMLVK_GATHER_ROI_GRAD
#define DMLVK_GATHER_ROI_GRAD 0
#endif
#include "roi_align_grad_common.glsl"

#include "roi_align_grad_tiles.glsl"

// Declared here, not beside SCAN_REGIONS, so that the other shaders of the tiles (the winners) do
// not carry it: theirs must fit Vulkan's minimum 16 KiB of shared memory.
shared uint gather_over[(gl_WorkGroupSize.x * SCAN_REGIONS + 31u) / 32u];  // bit: the region reaches this tile

shared vec4 split_sums[SPLITS > 1u ? gl_WorkGroupSize.x / 4u * ROI_GATHER_SPLIT_SUMS : 1u];
// A round of ROWS's stores: ROI_GATHER_ROW_SUMS channels of each invocation's, [channel][pixel],
// a channel's row padded by one pixel so that a warp's writes meet distinct banks.
const uint ROW_STRIDE = TILE_PIXELS + 1u;
shared float row_sums[ROWS ? ROI_GATHER_ROW_SUMS * QUADS * ROW_STRIDE : 1u];

// STAGED: the walk reads the lines of CHUNK regions over the tile at a time from shared memory,
// staged by the whole workgroup at once (a uvec4 per region and tile row, then column), and per
// line bits of the regions with bins there, so that a walk visits only those with weight on its
// element; otherwise each walk loads its lines one region ahead. Staging costs a load and two
// barriers per chunk, and pays where each pixel has few of the regions over its tile
// (BENCHMARKS.md note 75). Two sets of the bits: one is cleared while the other is filled.
layout(constant_id = ROI_SPEC_GATHER_STAGED) const bool STAGED = false;
const uint TILE_LINES = TILE_H + TILE_W;
const uint CHUNK = STAGED ? ROI_GATHER_CHUNK_REGIONS : 1u;
shared uvec4 chunk_lines[STAGED ? CHUNK * TILE_LINES : 1u];
shared uint chunk_bits[STAGED ? 2u * SPLITS * TILE_LINES : 1u];
shared uint over_list[STAGED ? gl_WorkGroupSize.x : 1u];   // slots of the regions over the tile, in order
// A round of the scan: SCAN regions per invocation (one where it stages: over_list holds a
// workgroup's), each round's loads issued together, so that a tile with few regions over it
// waits on fewer rounds and their barriers.
const uint SCAN = STAGED ? 1u : SCAN_REGIONS;
const uint ROUND_REGIONS = gl_WorkGroupSize.x * SCAN, ROUND_WORDS = (ROUND_REGIONS + 31u) / 32u;

// The next region of a scan that reaches the tile and is in this invocation's share (the slots
// that `share` masks: every SPLITS-th), in order (NO_BIN: none left). A bound known when the
// pipeline compiles: one at run time (the last round's regions) made walks over many regions
// slower (BENCHMARKS.md note 86).
uint next_region(inout uint word, inout uint bits, uint share)
{
    while (bits == 0u && word + 1u < ROUND_WORDS)
        bits = gather_over[++word] & share;
    if (bits == 0u)
        return NO_BIN;
    uint slot = word * 32u + uint(findLSB(bits));
    bits &= bits - 1u;
    return slot;
}

// Under MAX, what a channel's record (roi_align_grad_winners) adds to element (y, x): dY times the
// winner's tap weight there, as the scatter adds it, and nothing where the winner did not tap it.
float winner_share(uvec4 record, uint y, uint x)
{
    uint y0 = record.y >> 16, x0 = record.y & 0xffffu;
    float wy = uintBitsToFloat(record.z), wx = uintBitsToFloat(record.w);
    uint y1 = LINEAR ? min(y0 + 1u, pc.p.in_h - 1u) : y0, x1 = LINEAR ? min(x0 + 1u, pc.p.in_w - 1u) : x0;
    bool top = y == y0, bottom = wy > 0.0 && y == y1, left = x == x0, right = wx > 0.0 && x == x1;
    if (!(top || bottom) || !(left || right))
        return 0.0;
    float ty = (top ? 1.0 - wy : 0.0) + (bottom ? wy : 0.0), tx = (left ? 1.0 - wx : 0.0) + (right ? wx : 0.0);
    return uintBitsToFloat(record.x) * (ty * tx);
}

// Sum n of an invocation's (acc[n / 4][n % 4]) is channel c0 + sum_channel(n): channel
// n % LOAD_CHANNELS of its load n / LOAD_CHANNELS.
uint sum_channel(uint n, uint quad)
{
    return LOAD_CHANNELS * (quad + QUADS * (n / LOAD_CHANNELS)) + n % LOAD_CHANNELS;
}

// Adds w times one load of a bin's channels (at: in loads) to the sums of load l (under MAX, the
// record's share to channel l). A macro: the sums stay registers, where a function would copy the
// array in and out. SUM masks its index: under MAX the AVERAGE branch is dead but still compiled
// with MAX's load counts, and must not index past the array.
#define SUM(v) acc[(v) & (ROI_GATHER_VECS - 1u)]
#if DMLVK_STORAGE16
#define ADD_AVERAGE(l, at, w)                                                      \
    {                                                                              \
        uvec4 bits = ScratchUvec4(pc.scratch).v[at];                               \
        SUM(2u * (l)) += (w) * vec4(unpack16x2(bits.x), unpack16x2(bits.y));       \
        SUM(2u * (l) + 1u) += (w) * vec4(unpack16x2(bits.z), unpack16x2(bits.w));  \
    }
#else
#define ADD_AVERAGE(l, at, w) SUM(l) += (w) * ScratchVec4(pc.scratch).v[at];
#endif
#define ADD_LOAD(l, at, w)                                                         \
    if (MAXIMUM)                                                                   \
        acc[(l) >> 2][(l) & 3u] += winner_share(ScratchUvec4(pc.scratch).v[at], y, x); \
    else                                                                           \
        ADD_AVERAGE(l, at, w)

// Weight i of a line (or of its derivative line): in the pool at `at` where the line is pooled (more
// than LINE_BINS bins), else its own, whose vector must not be indexed past its end (SPIR-V leaves
// that undefined, even where a select discards the value). Float32 branches; 16-bit types select,
// reading the line's word i & 3 (LINE_WEIGHT): each form kept NVIDIA's code and times for its
// types where the other slowed presets by 6-10% (BENCHMARKS.md note 215).
float line_weight(bool pooled, uint at, vec3 own, uint i)
{
    if (pooled)
        return FloatSums(pc.scratch).v[at + i];
    return own[i];
}
#if DMLVK_STORAGE16
#define LINE_WEIGHT(pooled, line, own, i) ((pooled) ? pool.v[(line).x + (i)] : uintBitsToFloat((line)[(i) & 3u]))
#else
#define LINE_WEIGHT(pooled, line, own, i) line_weight(pooled, (line).x, own, i)
#endif

#if DMLVK_GATHER_ROI_GRAD
// The ROI gradient: each bin also adds s * rw (ROI_WEIGHTS: its row weight times the column's
// derivative weights, the row's derivative weights times the column weight), s the dot product of
// the element's input channels (xs, as acc) with the bin's dY, into roi_sum: (x1, y1, x2, y2).
layout(constant_id = ROI_SPEC_GATHER_WARPS) const uint WARPS = 1u;
#define XS(v) xs[(v) & (ROI_GATHER_VECS - 1u)]
#if DMLVK_STORAGE16
#define ADD_LOAD_ROI(l, at, w)                                                     \
    {                                                                              \
        uvec4 bits = ScratchUvec4(pc.scratch).v[at];                               \
        vec4 lo = vec4(unpack16x2(bits.x), unpack16x2(bits.y));                    \
        vec4 hi = vec4(unpack16x2(bits.z), unpack16x2(bits.w));                    \
        if ((w) != 0.0) {                                                          \
            SUM(2u * (l)) += (w) * lo;                                             \
            SUM(2u * (l) + 1u) += (w) * hi;                                        \
        }                                                                          \
        s += dot(XS(2u * (l)), lo) + dot(XS(2u * (l) + 1u), hi);                   \
    }
#else
#define ADD_LOAD_ROI(l, at, w)                                                     \
    {                                                                              \
        vec4 v = ScratchVec4(pc.scratch).v[at];                                    \
        if ((w) != 0.0)                                                            \
            SUM(l) += (w) * v;                                                     \
        s += dot(XS(l), v);                                                        \
    }
#endif
#define ROI_WEIGHTS(wyi, wxj, gy0i, gy1i, gx0j, gx1j) vec4((wyi) * (gx0j), (gy0i) * (wxj), (wyi) * (gx1j), (gy1i) * (wxj))
#define DERIVATIVE(pooled, line, off, g, i) line_weight(pooled, (line).x + (off), g, i)
#define NOTHING(w, rw) ((w) == 0.0 && (rw) == vec4(0.0))
#define NOTHING_IN_ROW(wyi, gy0i, gy1i) ((wyi) == 0.0 && (gy0i) == 0.0 && (gy1i) == 0.0)
#else
#define ROI_WEIGHTS(wyi, wxj, gy0i, gy1i, gx0j, gx1j) vec4(0.0)
#define DERIVATIVE(pooled, line, off, g, i) 0.0
#define NOTHING(w, rw) ((w) == 0.0)
#define NOTHING_IN_ROW(wyi, gy0i, gy1i) ((wyi) == 0.0)
#endif

// Adds w times bin (i, j) of ADD_REGION's region (its bins from by and bx of its lines) to the
// sums, and with the ROI gradient its terms (rw) to roi_sum.
#if DMLVK_GATHER_ROI_GRAD
#define ADD_BIN(i, j, w, rw)                                                                                  \
    {                                                                                                         \
        uint at = ((region_bins + by + (i)) * pc.p.out_w + bx + (j)) * bin_loads + c0 / LOAD_CHANNELS + quad; \
        float s = 0.0;                                                                                        \
        [[unroll]] for (uint l = 0u; l < loads; l++)                                                          \
            ADD_LOAD_ROI(l, at + QUADS * l, w)                                                                \
        roi_sum += s * (rw);                                                                                  \
    }
#else
#define ADD_BIN(i, j, w, rw)                                                                                  \
    {                                                                                                         \
        uint at = ((region_bins + by + (i)) * pc.p.out_w + bx + (j)) * bin_loads + c0 / LOAD_CHANNELS + quad; \
        [[unroll]] for (uint l = 0u; l < loads; l++)                                                          \
            ADD_LOAD(l, at + QUADS * l, w)                                                                    \
    }
#endif

// Adds region rr's terms to the sums, from its lines over the element's row and column (with the
// ROI gradient also their derivative weights gy0, gy1 of the row and gx0, gx1 of the column): a
// macro, as ADD_LOAD. Where the lines hold their bins, the bin loops are unrolled to constant
// bounds, so that every bin's loads issue before the sums wait on them (few workgroups, on small
// maps, cannot hide one latency per bin); more bins than a line holds (bins narrower than a
// pixel) have their weights in the region's pool, where POOL_STEP > 1 read that many columns'
// weights and bins at once (float32 gathers over many bins per region, without the ROI gradient:
// lib/roi_align_grad.c). Not under MAX, whose bins load a record per
// channel: nine unrolled copies of those loads ran a third slower (BENCHMARKS.md note 163).
#define ADD_REGION(rr, row_line, column_line, gy0, gy1, gx0, gx1)                                                     \
    {                                                                                                                 \
        uvec4 line_y = row_line, line_x = column_line;                                                                \
        uint ny = line_y.w >> 16, nx = line_x.w >> 16, by = line_y.w & 0xffffu, bx = line_x.w & 0xffffu;              \
        vec3 wy = uintBitsToFloat(line_y.xyz), wx = uintBitsToFloat(line_x.xyz);                                      \
        uint region_bins = (rr) * pc.p.out_h;                                                                         \
        if (ny == 0u || nx == 0u) {                                                                                   \
        } else if (!MAXIMUM && ny <= LINE_BINS && nx <= LINE_BINS) {                                                  \
            [[unroll]] for (uint i = 0u; i < LINE_BINS; i++) {                                                        \
                [[unroll]] for (uint j = 0u; j < LINE_BINS; j++) {                                                    \
                    float w = wy[i] * wx[j];                                                                          \
                    vec4 rw = ROI_WEIGHTS(wy[i], wx[j], gy0[i], gy1[i], gx0[j], gx1[j]);                              \
                    if (i >= ny || j >= nx || NOTHING(w, rw))                                                         \
                        continue;                                                                                     \
                    ADD_BIN(i, j, w, rw)                                                                              \
                }                                                                                                     \
            }                                                                                                         \
        } else if (POOL_STEP > 1u && !MAXIMUM && DMLVK_GATHER_ROI_GRAD == 0) {                                        \
            bool pooled_x = nx > LINE_BINS;                                                                           \
            for (uint i = 0u; i < ny; i++) {                                                                          \
                float wyi = ny > LINE_BINS ? pool.v[line_y.x + i] : wy[min(i, LINE_BINS - 1u)];                       \
                if (wyi == 0.0)                                                                                       \
                    continue;                                                                                         \
                for (uint j0 = 0u; j0 < nx; j0 += POOL_STEP) {                                                        \
                    float wxs[POOL_STEP];                                                                             \
                    [[unroll]] for (uint k = 0u; k < POOL_STEP; k++) {                                                \
                        uint j = min(j0 + k, nx - 1u);                                                                \
                        wxs[k] = j0 + k >= nx ? 0.0 : pooled_x ? pool.v[line_x.x + j] : wx[min(j, LINE_BINS - 1u)];   \
                    }                                                                                                 \
                    [[unroll]] for (uint k = 0u; k < POOL_STEP; k++) {                                                \
                        float w = wyi * wxs[k];                                                                       \
                        if (w == 0.0)                                                                                 \
                            continue;                                                                                 \
                        ADD_BIN(i, j0 + k, w, vec4(0.0))                                                              \
                    }                                                                                                 \
                }                                                                                                     \
            }                                                                                                         \
        } else {                                                                                                      \
            for (uint i = 0u; i < ny; i++) {                                                                          \
                bool pooled_y = ny > LINE_BINS;                                                                       \
                float wyi = LINE_WEIGHT(pooled_y, line_y, wy, i);                                                     \
                float gy0i = DERIVATIVE(pooled_y, line_y, off0, gy0, i), gy1i = DERIVATIVE(pooled_y, line_y, off1, gy1, i); \
                if (NOTHING_IN_ROW(wyi, gy0i, gy1i))                                                                  \
                    continue;                                                                                         \
                for (uint j = 0u; j < nx; j++) {                                                                      \
                    bool pooled_x = nx > LINE_BINS;                                                                   \
                    float wxj = LINE_WEIGHT(pooled_x, line_x, wx, j);                                                 \
                    float gx0j = DERIVATIVE(pooled_x, line_x, off0, gx0, j), gx1j = DERIVATIVE(pooled_x, line_x, off1, gx1, j); \
                    float w = wyi * wxj;                                                                              \
                    vec4 rw = ROI_WEIGHTS(wyi, wxj, gy0i, gy1i, gx0j, gx1j);                                          \
                    if (NOTHING(w, rw))                                                                               \
                        continue;                                                                                     \
                    ADD_BIN(i, j, w, rw)                                                                              \
                }                                                                                                     \
            }                                                                                                         \
        }                                                                                                             \
    }

#if DMLVK_GATHER_ROI_GRAD
// The subgroup's sum of the four components, component k in the invocations whose two highest
// lane bits are k (a butterfly that halves what it exchanges at the two top levels: 6 shuffles
// where a whole vec4's would take 4 per level; each pair added in either order is the same float,
// so every invocation of a component holds the same sum). Subgroups of at least 4.
float subgroup_component_total(vec4 v)
{
    uint lane = gl_SubgroupInvocationID, top = gl_SubgroupSize >> 1, next = gl_SubgroupSize >> 2;
    bool high = (lane & top) != 0u;
    vec2 keep = high ? v.zw : v.xy;
    keep += subgroupShuffleXor(high ? v.xy : v.zw, top);
    bool odd = (lane & next) != 0u;
    float sum = odd ? keep.y : keep.x;
    sum += subgroupShuffleXor(odd ? keep.x : keep.y, next);
    for (uint m = next >> 1; m > 0u; m >>= 1u)
        sum += subgroupShuffleXor(sum, m);
    return sum;
}
#endif

void main()
{
    // Loads of LOAD_CHANNELS channels of a bin per invocation (under MAX one channel's record).
    const uint lid = gl_LocalInvocationID.x, loads = GROUP_CHANNELS / (LOAD_CHANNELS * QUADS);
    uint group = workgroup_index();
    uint tiles_x = (pc.p.in_w + TILE_W - 1u) / TILE_W, tiles_y = (pc.p.in_h + TILE_H - 1u) / TILE_H;
    uint chunks = (pc.p.channels + GROUP_CHANNELS - 1u) / GROUP_CHANNELS;
    uint tx = group % tiles_x, ty = (group / tiles_x) % tiles_y, q = group / (tiles_x * tiles_y);
    uint c0 = (q % chunks) * GROUP_CHANNELS, b = q / chunks % pc.p.batch_count, part = q / chunks / pc.p.batch_count;
    if (part >= PARTS)
        return;
    // This part's regions: [first_region, end_region).
    uint per_part = (pc.p.num_rois + PARTS - 1u) / PARTS, first_region = part * per_part;
    uint end_region = min(pc.p.num_rois, first_region + per_part);
    uint y0 = ty * TILE_H, x0 = tx * TILE_W;
    // A warp's invocations share a split, so that their loads of a bin are contiguous.
    uint split = lid / TILE_INVOCATIONS, pixel = lid % TILE_INVOCATIONS / QUADS, quad = lid % QUADS;
    uint share = 0xffffffffu / ((1u << SPLITS) - 1u) << split;  // bits split, split + SPLITS, ...
    uint y = y0 + pixel / TILE_W, x = x0 + pixel % TILE_W;
    bool inside = y < pc.p.in_h && x < pc.p.in_w;
    // With the ROI gradient every invocation walks (its subgroup's sums need all of them), those
    // outside the input on its last row and column with no input channels.
    const bool roi = DMLVK_GATHER_ROI_GRAD != 0;
    uint line_y = min(y, pc.p.in_h - 1u), line_x = min(x, pc.p.in_w - 1u);
    ScratchUvec4 lines_of = ScratchUvec4(pc.scratch);
    FloatSums pool = FloatSums(pc.scratch);
    uint bin_loads = gather_stride() / LOAD_CHANNELS, lines = pc.p.in_h + pc.p.in_w;
    uint line_base = lines_vec4();
    vec4 acc[ROI_GATHER_VECS];
    [[unroll]] for (uint v = 0u; v < ROI_GATHER_VECS; v++)
        acc[v] = vec4(0.0);
#if DMLVK_GATHER_ROI_GRAD
    // The element's input channels, as its sums (acc). In registers: in shared memory the gather
    // was slower still (BENCHMARKS.md note 82).
    vec4 xs[ROI_GATHER_VECS];
    [[unroll]] for (uint v = 0u; v < ROI_GATHER_VECS; v++) {
        [[unroll]] for (uint k = 0u; k < 4u; k++) {
            uint c = c0 + sum_channel(4u * v + k, quad);
            xs[v][k] = v < GROUP_CHANNELS / (4u * QUADS) && inside && c < pc.p.channels
                           ? load(pc.x, b * pc.p.in_strides[0] + c * pc.p.in_strides[1] + y * pc.p.in_strides[2] + x * pc.p.in_strides[3])
                           : 0.0;
        }
    }
    uint derivative_lines = derivative_lines_vec4(), off0 = derivative_pool_offset(0u), off1 = derivative_pool_offset(1u);
    // Subgroups are runs of consecutive invocations (as the splits' contiguous loads assume too).
    uint partial_at = pc.p.roi_grad_base + ((ty * tiles_x + tx) * chunks + q % chunks) * WARPS + lid % TILE_INVOCATIONS / gl_SubgroupSize;
    uint partial_stride = tiles_x * tiles_y * chunks * WARPS;   // per region
#endif
    const uint row = pixel / TILE_W, column = TILE_H + pixel % TILE_W;
    uint set = 0u;
    for (uint base = first_region; base < end_region; base += ROUND_REGIONS) {
        barrier();
        for (uint n = lid; n < ROUND_WORDS; n += gl_WorkGroupSize.x)
            gather_over[n] = 0u;
        for (uint n = lid; STAGED && n < SPLITS * TILE_LINES; n += gl_WorkGroupSize.x)
            chunk_bits[set * SPLITS * TILE_LINES + n] = 0u;
        barrier();
        uvec4 span[SCAN];
        uint batch[SCAN];
        [[unroll]] for (uint k = 0u; k < SCAN; k++) {
            uint r = base + k * gl_WorkGroupSize.x + lid;
            span[k] = r < end_region ? lines_of.v[regions_vec4() + 2u * r] : uvec4(1u, 0u, 1u, 0u);
            batch[k] = r < end_region ? lines_of.v[regions_vec4() + 2u * r + 1u].x : NO_BIN;
        }
        bool over = false;      // slot lid's (where it stages, the only one)
        [[unroll]] for (uint k = 0u; k < SCAN; k++) {
            uint slot = k * gl_WorkGroupSize.x + lid;
            bool reaches = batch[k] == b && span[k].x < y0 + TILE_H && span[k].y >= y0 && span[k].z < x0 + TILE_W &&
                           span[k].w >= x0;
            over = k == 0u ? reaches : over;
            if (reaches)
                atomicOr(gather_over[slot / 32u], 1u << (slot % 32u));
        }
        barrier();
#if !DMLVK_GATHER_ROI_GRAD
        if (STAGED) {
            uint rank = 0u, count = 0u;
            for (uint w = 0u; w < ROUND_WORDS; w++) {
                uint bits = gather_over[w];
                rank += w < lid / 32u ? bitCount(bits) : 0u;
                count += bitCount(bits);
            }
            if (over)
                over_list[rank + bitCount(gather_over[lid / 32u] & ((1u << (lid % 32u)) - 1u))] = lid;
            barrier();
            for (uint first = 0u; first < count; first += CHUNK) {
                for (uint n = lid; n < SPLITS * TILE_LINES; n += gl_WorkGroupSize.x)
                    chunk_bits[(set ^ 1u) * SPLITS * TILE_LINES + n] = 0u;
                for (uint n = lid; n < CHUNK * TILE_LINES; n += gl_WorkGroupSize.x) {
                    uint e = n / TILE_LINES, l = n % TILE_LINES;
                    uint at = l < TILE_H ? y0 + l : x0 + l - TILE_H, size = l < TILE_H ? pc.p.in_h : pc.p.in_w;
                    if (first + e >= count || at >= size)
                        continue;
                    uint staged = over_list[first + e];
                    uvec4 line = lines_of.v[line_base + (base + staged) * lines + (l < TILE_H ? 0u : pc.p.in_h) + at];
                    chunk_lines[n] = line;
                    if ((line.w >> 16) != 0u)
                        atomicOr(chunk_bits[(set * SPLITS + staged % SPLITS) * TILE_LINES + l], 1u << e);
                }
                barrier();
                uint bits = chunk_bits[(set * SPLITS + split) * TILE_LINES + row] &
                            chunk_bits[(set * SPLITS + split) * TILE_LINES + column];
                set ^= 1u;
                while (inside && bits != 0u) {
                    uint e = uint(findLSB(bits));
                    bits &= bits - 1u;
                    ADD_REGION(base + over_list[first + e], chunk_lines[e * TILE_LINES + row],
                               chunk_lines[e * TILE_LINES + column], vec3(0.0), vec3(0.0), vec3(0.0), vec3(0.0))
                }
                barrier();
            }
            continue;
        }
#endif
        if (!inside && !roi)
            continue;
        // One region ahead: its two lines load while this one's bins are read.
        uint word = 0u, bits = gather_over[0] & share;
        uint slot = next_region(word, bits, share);
        uvec4 next_y = uvec4(0u), next_x = uvec4(0u);
        if (slot != NO_BIN) {
            next_y = lines_of.v[line_base + (base + slot) * lines + line_y];
            next_x = lines_of.v[line_base + (base + slot) * lines + pc.p.in_h + line_x];
        }
        while (slot != NO_BIN) {
            uint rr = base + slot;
            uvec4 ly = next_y, lx = next_x;
            slot = next_region(word, bits, share);
            if (slot != NO_BIN) {
                next_y = lines_of.v[line_base + (base + slot) * lines + line_y];
                next_x = lines_of.v[line_base + (base + slot) * lines + pc.p.in_h + line_x];
            }
#if DMLVK_GATHER_ROI_GRAD
            uint dy_at = derivative_lines + ROI_DERIVATIVE_LINE_VEC4 * (rr * lines + line_y);
            uint dx_at = derivative_lines + ROI_DERIVATIVE_LINE_VEC4 * (rr * lines + pc.p.in_h + line_x);
            vec3 gy0 = uintBitsToFloat(lines_of.v[dy_at].xyz), gy1 = uintBitsToFloat(lines_of.v[dy_at + 1u].xyz);
            vec3 gx0 = uintBitsToFloat(lines_of.v[dx_at].xyz), gx1 = uintBitsToFloat(lines_of.v[dx_at + 1u].xyz);
            vec4 roi_sum = vec4(0.0);
            ADD_REGION(rr, ly, lx, gy0, gy1, gx0, gx1)
            // Each component's first invocation stores it (nothing to add where the subgroup
            // has no term).
            float total = subgroupAll(roi_sum == vec4(0.0)) ? 0.0 : subgroup_component_total(roi_sum);
            uint component = gl_SubgroupInvocationID / (gl_SubgroupSize >> 2);
            if (gl_SubgroupInvocationID % (gl_SubgroupSize >> 2) == 0u)
                pool.v[4u * (partial_at + rr * partial_stride) + component] = total;
#else
            ADD_REGION(rr, ly, lx, vec3(0.0), vec3(0.0), vec3(0.0), vec3(0.0))
#endif
        }
    }
    if (SPLITS > 1u) {
        // The other splits' sums, added in split order.
        const uint vecs = GROUP_CHANNELS / (4u * QUADS), inner = lid % TILE_INVOCATIONS;
        barrier();
        if (split > 0u) {
            [[unroll]] for (uint v = 0u; v < vecs; v++)
                split_sums[((split - 1u) * TILE_INVOCATIONS + inner) * vecs + v] = acc[v];
        }
        barrier();
        for (uint k = 1u; k < SPLITS && split == 0u; k++) {
            [[unroll]] for (uint v = 0u; v < vecs; v++)
                acc[v] += split_sums[((k - 1u) * TILE_INVOCATIONS + inner) * vecs + v];
        }
    }
    if (!ROWS || PARTS > 1u) {
        if (split > 0u || !inside)
            return;
        [[unroll]] for (uint v = 0u; v < GROUP_CHANNELS / (4u * QUADS); v++) {
            [[unroll]] for (uint k = 0u; k < 4u; k++) {
                uint c = c0 + sum_channel(4u * v + k, quad);
                if (c >= pc.p.channels)
                    continue;
                if (PARTS > 1u)
                    pool.v[part_sum(part, part_element(b, c, y, x))] = acc[v][k];
                else
                    store(pc.grad, grad_offset(uvec4(b, c, y, x)), acc[v][k]);
            }
        }
        return;
    }
    // Rounds of ROI_GATHER_ROW_SUMS sums per invocation (the host asks for whole rounds): in one
    // round the invocations hold channels [c0 + QUADS * n0, + ROI_GATHER_ROW_SUMS * QUADS), as
    // ROI_GATHER_ROW_SUMS is a multiple of LOAD_CHANNELS.
#if DMLVK_STORAGE16
    const uint segment = ROI_GATHER_LOAD_BYTES / 2u;
#else
    const uint segment = ROI_GATHER_LOAD_BYTES / 4u;
#endif
    const uint segments = TILE_W / segment;
    const uint round_channels = ROI_GATHER_ROW_SUMS * QUADS;
    // A packed row's stores (last stride 1): whole segments where every row of the tile has them
    // on 16-byte addresses, a segment per invocation; otherwise (rows whose bytes are no multiple
    // of 16, the map's last tile of a row) an element per invocation, neighbouring invocations on
    // neighbouring addresses: a segment's elements stored one by one take a warp store each, each
    // a quarter of its sectors (BENCHMARKS.md note 169). Other strides store a segment's elements
    // per invocation (note 169: the other orders and 8-byte halves tried ran slower).
    const uint strides_or = pc.p.grad_strides[0] | pc.p.grad_strides[1] | pc.p.grad_strides[2];
    const bool packed = pc.p.grad_strides[3] == 1u;
    const bool whole = packed && x0 + TILE_W <= pc.p.in_w && chunk_aligned(pc.grad, segment) &&
                       (strides_or & (segment - 1u)) == 0u;
    [[unroll]] for (uint round = 0u; round < 4u * ROI_GATHER_VECS / ROI_GATHER_ROW_SUMS; round++) {
        const uint n0 = round * ROI_GATHER_ROW_SUMS;
        if (n0 >= GROUP_CHANNELS / QUADS)
            break;
        barrier();
        if (split == 0u) {
            [[unroll]] for (uint k = 0u; k < ROI_GATHER_ROW_SUMS; k++) {
                uint n = n0 + k, local = sum_channel(n, quad) - QUADS * n0;
                row_sums[local * ROW_STRIDE + pixel] = SUM(n >> 2u)[n & 3u];
            }
        }
        barrier();
        if (whole) {
            // Segments fastest: neighbouring invocations store neighbouring bytes of a row.
            for (uint i = lid; i < round_channels * TILE_H * segments; i += gl_WorkGroupSize.x) {
                uint local = i / (TILE_H * segments), row = i / segments % TILE_H, first = i % segments * segment;
                uint c = c0 + QUADS * n0 + local, yy = y0 + row;
                if (c >= pc.p.channels || yy >= pc.p.in_h)
                    continue;
                uint from = local * ROW_STRIDE + row * TILE_W + first, at = grad_offset(uvec4(b, c, yy, x0 + first));
                vec4 lo = vec4(row_sums[from], row_sums[from + 1u], row_sums[from + 2u], row_sums[from + 3u]);
#if DMLVK_STORAGE16
                vec4 hi = vec4(row_sums[from + 4u], row_sums[from + 5u], row_sums[from + 6u], row_sums[from + 7u]);
                // store8 of float16 under DMLVK_RTE16 is two stores of 8 bytes: faster in tiles
                // ROI_GATHER_TILE_W_16BIT wide, slower than one rounded in software in narrower
                // ones (BENCHMARKS.md note 73).
                if (TILE_W == ROI_GATHER_TILE_W_16BIT)
                    store8(pc.grad, at / segment, lo, hi);
                else
                    TensorVec4(pc.grad).v[at / segment] = uvec4(pack16x2(lo.x, lo.y), pack16x2(lo.z, lo.w),
                                                                pack16x2(hi.x, hi.y), pack16x2(hi.z, hi.w));
#else
                store4(pc.grad, at / segment, lo);
#endif
            }
            continue;
        }
        if (packed) {
            // Pixels fastest.
            for (uint i = lid; i < round_channels * TILE_PIXELS; i += gl_WorkGroupSize.x) {
                uint local = i / TILE_PIXELS, row = i % TILE_PIXELS / TILE_W, col = i % TILE_W;
                uint c = c0 + QUADS * n0 + local, yy = y0 + row, xx = x0 + col;
                if (c >= pc.p.channels || yy >= pc.p.in_h || xx >= pc.p.in_w)
                    continue;
                store(pc.grad, grad_offset(uvec4(b, c, yy, xx)), row_sums[local * ROW_STRIDE + row * TILE_W + col]);
            }
            continue;
        }
        for (uint i = lid; i < round_channels * TILE_H * segments; i += gl_WorkGroupSize.x) {
            uint local = i / (TILE_H * segments), row = i / segments % TILE_H, first = i % segments * segment;
            uint c = c0 + QUADS * n0 + local, yy = y0 + row, xx = x0 + first;
            if (c >= pc.p.channels || yy >= pc.p.in_h || xx >= pc.p.in_w)
                continue;
            uint from = local * ROW_STRIDE + row * TILE_W + first, at = grad_offset(uvec4(b, c, yy, xx));
            for (uint e = 0u; e < segment && xx + e < pc.p.in_w; e++)
                store(pc.grad, at + e * pc.p.grad_strides[3], row_sums[from + e]);
        }
    }
}
