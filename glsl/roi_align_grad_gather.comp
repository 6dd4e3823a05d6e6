#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
// ROI_ALIGN_GRAD: the gather by tiles (roi_align_grad_tiles.glsl).
#include "roi_align_grad_common.glsl"

#include "roi_align_grad_tiles.glsl"

// The next region of a scan that reaches the tile (NO_BIN: none left), in order.
uint next_region(inout uint word, inout uint bits)
{
    while (bits == 0u && word + 1u < (gl_WorkGroupSize.x + 31u) / 32u)
        bits = gather_over[++word];
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

// A line's weight for its k-th bin (0 past its n bins; k may have wrapped below 0).
float line_weight(vec3 w, uint k, uint n)
{
    return k >= n ? 0.0 : k == 0u ? w.x : k == 1u ? w.y : w.z;
}

// Adds one load of a bin's channels (at: in loads) to the sums of load l of the invocation's
// first element with weight w and of its second with weight w2 (a zero weight adds nothing, not
// even 0 * Inf; under MAX a weight only says whether the bin reaches the element, and the record's
// share is added to channel l). Macros: the sums stay registers, where a function would copy the
// arrays in and out. SUM masks its index: under MAX the AVERAGE branch is dead but still compiled
// with MAX's load counts, and must not index past the array.
#define SUM(a, v) a[(v) & (ROI_GATHER_VECS - 1u)]
#if DMLVK_STORAGE16
#define LOAD_BIN(at, lo, hi)                                                       \
    {                                                                              \
        uvec4 bits = ScratchUvec4(pc.scratch).v[at];                               \
        lo = vec4(unpack16x2(bits.x), unpack16x2(bits.y));                         \
        hi = vec4(unpack16x2(bits.z), unpack16x2(bits.w));                         \
    }
#define ADD_AVERAGE(a, l, w, lo, hi)                                               \
    {                                                                              \
        SUM(a, 2u * (l)) += (w) * lo;                                              \
        SUM(a, 2u * (l) + 1u) += (w) * hi;                                         \
    }
#else
#define LOAD_BIN(at, lo, hi) lo = ScratchVec4(pc.scratch).v[at];
#define ADD_AVERAGE(a, l, w, lo, hi) SUM(a, l) += (w) * lo;
#endif
#define ADD_LOAD(l, at, w, w2)                                                     \
    if (MAXIMUM) {                                                                 \
        uvec4 record = ScratchUvec4(pc.scratch).v[at];                             \
        if ((w) != 0.0)                                                            \
            acc[(l) >> 2][(l) & 3u] += winner_share(record, y, x);                 \
        if ((w2) != 0.0)                                                           \
            acc2[(l) >> 2][(l) & 3u] += winner_share(record, y + 1u, x);           \
    } else {                                                                       \
        vec4 lo, hi;                                                               \
        LOAD_BIN(at, lo, hi)                                                       \
        if ((w) != 0.0)                                                            \
            ADD_AVERAGE(acc, l, w, lo, hi)                                         \
        if ((w2) != 0.0)                                                           \
            ADD_AVERAGE(acc2, l, w2, lo, hi)                                       \
    }

void main()
{
    // Loads of LOAD_CHANNELS channels of a bin per invocation (under MAX one channel's record),
    // for element (y, x) and, with ROWS 2, (y + 1, x).
    const uint lid = gl_LocalInvocationID.x, loads = GROUP_CHANNELS / (LOAD_CHANNELS * QUADS);
    uvec3 n = gl_NumWorkGroups;
    uint group = (gl_WorkGroupID.z * n.y + gl_WorkGroupID.y) * n.x + gl_WorkGroupID.x;
    uint tiles_x = (pc.p.in_w + TILE_W - 1u) / TILE_W, tiles_y = (pc.p.in_h + TILE_H - 1u) / TILE_H;
    uint chunks = (pc.p.channels + GROUP_CHANNELS - 1u) / GROUP_CHANNELS;
    uint tx = group % tiles_x, ty = (group / tiles_x) % tiles_y, q = group / (tiles_x * tiles_y);
    uint c0 = (q % chunks) * GROUP_CHANNELS, b = q / chunks;
    if (b >= pc.p.batch_count)
        return;
    uint y0 = ty * TILE_H, x0 = tx * TILE_W;
    uint pixel = lid / QUADS, quad = lid % QUADS;
    uint y = y0 + pixel / TILE_W * ROWS, x = x0 + pixel % TILE_W;
    bool inside = y < pc.p.in_h && x < pc.p.in_w, inside2 = ROWS == 2u && inside && y + 1u < pc.p.in_h;
    ScratchUvec4 lines_of = ScratchUvec4(pc.scratch);
    FloatSums pool = FloatSums(pc.scratch);
    uint bin_loads = gather_stride() / LOAD_CHANNELS, lines = pc.p.in_h + pc.p.in_w;
    uint line_base = lines_vec4();
    vec4 acc[ROI_GATHER_VECS], acc2[ROI_GATHER_VECS];
    [[unroll]] for (uint v = 0u; v < ROI_GATHER_VECS; v++) {
        acc[v] = vec4(0.0);
        acc2[v] = vec4(0.0);
    }
    for (uint base = 0u; base < pc.p.num_rois; base += gl_WorkGroupSize.x) {
        barrier();
        if (lid < (gl_WorkGroupSize.x + 31u) / 32u)
            gather_over[lid] = 0u;
        barrier();
        uint r = base + lid;
        if (r < pc.p.num_rois) {
            uvec4 span = lines_of.v[regions_vec4() + 2u * r];
            uint batch = lines_of.v[regions_vec4() + 2u * r + 1u].x;
            if (batch == b && span.x < y0 + TILE_H && span.y >= y0 && span.z < x0 + TILE_W && span.w >= x0)
                atomicOr(gather_over[lid / 32u], 1u << (lid % 32u));
        }
        barrier();
        if (!inside)
            continue;
        // One region ahead: its lines load while this one's bins are read.
        uint word = 0u, bits = gather_over[0];
        uint slot = next_region(word, bits);
        uvec4 next_y = uvec4(0u), next_y2 = uvec4(0u), next_x = uvec4(0u);
        if (slot != NO_BIN) {
            uint at = line_base + (base + slot) * lines;
            next_y = lines_of.v[at + y];
            if (inside2)
                next_y2 = lines_of.v[at + y + 1u];
            next_x = lines_of.v[at + pc.p.in_h + x];
        }
        while (slot != NO_BIN) {
            uint rr = base + slot;
            uvec4 ly = next_y, ly2 = next_y2, lx = next_x;
            slot = next_region(word, bits);
            if (slot != NO_BIN) {
                uint at = line_base + (base + slot) * lines;
                next_y = lines_of.v[at + y];
                if (inside2)
                    next_y2 = lines_of.v[at + y + 1u];
                next_x = lines_of.v[at + pc.p.in_h + x];
            }
            uint ny = ly.w >> 16, ny2 = ly2.w >> 16, nx = lx.w >> 16;
            uint by = ly.w & 0xffffu, by2 = ly2.w & 0xffffu, bx = lx.w & 0xffffu;
            vec3 wy = uintBitsToFloat(ly.xyz), wy2 = uintBitsToFloat(ly2.xyz), wx = uintBitsToFloat(lx.xyz);
            if (nx == 0u || (ny == 0u && ny2 == 0u))
                continue;
            uint region_bins = rr * pc.p.out_h;
            // Both rows' bins from the first of them (rows of a region's bins move monotonically,
            // either way): where they fit LINE_BINS + ROWS - 1 rows, each load serves both.
            uint first = ny == 0u ? by2 : ny2 == 0u ? by : min(by, by2), d = by - first, d2 = by2 - first;
            uint span = max(ny == 0u ? 0u : d + ny, ny2 == 0u ? 0u : d2 + ny2);
            if (ny <= LINE_BINS && ny2 <= LINE_BINS && nx <= LINE_BINS && span <= LINE_BINS + ROWS - 1u) {
                // Unrolled to constant bounds, so that every bin's loads issue before the sums
                // wait on them: few workgroups (small maps) cannot hide one latency per bin.
                [[unroll]] for (uint i = 0u; i < LINE_BINS + ROWS - 1u; i++) {
                    float a = line_weight(wy, i - d, ny), a2 = ROWS == 2u ? line_weight(wy2, i - d2, ny2) : 0.0;
                    [[unroll]] for (uint j = 0u; j < LINE_BINS; j++) {
                        float w = a * wx[j], w2 = a2 * wx[j];
                        if (j >= nx || (w == 0.0 && w2 == 0.0))
                            continue;
                        uint at = ((region_bins + first + i) * pc.p.out_w + bx + j) * bin_loads + c0 / LOAD_CHANNELS + quad;
                        [[unroll]] for (uint l = 0u; l < loads; l++)
                            ADD_LOAD(l, at + QUADS * l, w, w2)
                    }
                }
                continue;
            }
            // More bins than a line holds (bins narrower than a pixel), or rows far apart: each
            // element alone, its bins' weights in the pool past LINE_BINS.
            [[unroll]] for (uint e = 0u; e < ROWS; e++) {
                uint ne = e == 0u ? ny : ny2, be = e == 0u ? by : by2, pool_y = e == 0u ? ly.x : ly2.x;
                vec3 we = e == 0u ? wy : wy2;
                for (uint i = 0u; i < ne; i++) {
                    float wyi = ne > LINE_BINS ? pool.v[pool_y + i] : line_weight(we, i, ne);
                    if (wyi == 0.0)
                        continue;
                    for (uint j = 0u; j < nx; j++) {
                        float w = wyi * (nx > LINE_BINS ? pool.v[lx.x + j] : wx[j]);
                        if (w == 0.0)
                            continue;
                        uint at = ((region_bins + be + i) * pc.p.out_w + bx + j) * bin_loads + c0 / LOAD_CHANNELS + quad;
                        [[unroll]] for (uint l = 0u; l < loads; l++)
                            ADD_LOAD(l, at + QUADS * l, e == 0u ? w : 0.0, e == 0u ? 0.0 : w)
                    }
                }
            }
        }
    }
    if (!inside)
        return;
    // Channel n = 4 v + k of the invocation's: channel n % LOAD_CHANNELS of load n / LOAD_CHANNELS.
    [[unroll]] for (uint v = 0u; v < GROUP_CHANNELS / (4u * QUADS); v++) {
        [[unroll]] for (uint k = 0u; k < 4u; k++) {
            uint n = 4u * v + k;
            uint c = c0 + LOAD_CHANNELS * (quad + QUADS * (n / LOAD_CHANNELS)) + n % LOAD_CHANNELS;
            if (c < pc.p.channels) {
                store(pc.grad, grad_offset(uvec4(b, c, y, x)), acc[v][k]);
                if (inside2)
                    store(pc.grad, grad_offset(uvec4(b, c, y + 1u, x)), acc2[v][k]);
            }
        }
    }
}
