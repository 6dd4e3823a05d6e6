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

// Adds w times one load of a bin's channels (at: in loads) to the sums of load l. A macro: the
// sums stay registers, where a function would copy the array in and out.
#if DMLVK_STORAGE16
#define ADD_LOAD(l, at, w)                                                         \
    {                                                                              \
        uvec4 bits = ScratchUvec4(pc.scratch).v[at];                               \
        acc[2u * (l)] += (w) * vec4(unpack16x2(bits.x), unpack16x2(bits.y));       \
        acc[2u * (l) + 1u] += (w) * vec4(unpack16x2(bits.z), unpack16x2(bits.w));  \
    }
#else
#define ADD_LOAD(l, at, w) acc[l] += (w) * ScratchVec4(pc.scratch).v[at];
#endif

void main()
{
    // Loads of LOAD_CHANNELS channels per bin, each into LOAD_CHANNELS / 4 sums.
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
    uint y = y0 + pixel / TILE_W, x = x0 + pixel % TILE_W;
    bool inside = y < pc.p.in_h && x < pc.p.in_w;
    ScratchUvec4 lines_of = ScratchUvec4(pc.scratch);
    FloatSums pool = FloatSums(pc.scratch);
    uint bin_loads = gather_stride() / LOAD_CHANNELS, lines = pc.p.in_h + pc.p.in_w;
    uint line_base = lines_vec4();
    vec4 acc[ROI_GATHER_VECS];
    [[unroll]] for (uint v = 0u; v < ROI_GATHER_VECS; v++)
        acc[v] = vec4(0.0);
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
        // One region ahead: its two lines load while this one's bins are read.
        uint word = 0u, bits = gather_over[0];
        uint slot = next_region(word, bits);
        uvec4 next_y = uvec4(0u), next_x = uvec4(0u);
        if (slot != NO_BIN) {
            next_y = lines_of.v[line_base + (base + slot) * lines + y];
            next_x = lines_of.v[line_base + (base + slot) * lines + pc.p.in_h + x];
        }
        while (slot != NO_BIN) {
            uint rr = base + slot;
            uvec4 ly = next_y, lx = next_x;
            slot = next_region(word, bits);
            if (slot != NO_BIN) {
                next_y = lines_of.v[line_base + (base + slot) * lines + y];
                next_x = lines_of.v[line_base + (base + slot) * lines + pc.p.in_h + x];
            }
            uint ny = ly.w >> 16, nx = lx.w >> 16, by = ly.w & 0xffffu, bx = lx.w & 0xffffu;
            vec3 wy = uintBitsToFloat(ly.xyz), wx = uintBitsToFloat(lx.xyz);
            if (ny == 0u || nx == 0u)
                continue;
            uint region_bins = rr * pc.p.out_h;
            if (ny <= LINE_BINS && nx <= LINE_BINS) {
                // Unrolled to constant bounds, so that every bin's loads issue before the sums
                // wait on them: few workgroups (small maps) cannot hide one latency per bin.
                [[unroll]] for (uint i = 0u; i < LINE_BINS; i++) {
                    [[unroll]] for (uint j = 0u; j < LINE_BINS; j++) {
                        float w = wy[i] * wx[j];
                        if (i >= ny || j >= nx || w == 0.0)
                            continue;
                        uint at = ((region_bins + by + i) * pc.p.out_w + bx + j) * bin_loads + c0 / LOAD_CHANNELS + quad;
                        [[unroll]] for (uint l = 0u; l < loads; l++)
                            ADD_LOAD(l, at + QUADS * l, w)
                    }
                }
                continue;
            }
            // More bins than a line holds (bins narrower than a pixel): their weights in the pool.
            for (uint i = 0u; i < ny; i++) {
                float wyi = ny > LINE_BINS ? pool.v[ly.x + i] : wy[i];
                if (wyi == 0.0)
                    continue;
                for (uint j = 0u; j < nx; j++) {
                    float w = wyi * (nx > LINE_BINS ? pool.v[lx.x + j] : wx[j]);
                    if (w == 0.0)
                        continue;
                    uint at = ((region_bins + by + i) * pc.p.out_w + bx + j) * bin_loads + c0 / LOAD_CHANNELS + quad;
                    [[unroll]] for (uint l = 0u; l < loads; l++)
                        ADD_LOAD(l, at + QUADS * l, w)
                }
            }
        }
    }
    if (!inside)
        return;
    // Sum v holds channels 4 * (v % per) + k of load v / per.
    const uint per = LOAD_CHANNELS / 4u;
    [[unroll]] for (uint v = 0u; v < loads * per; v++) {
        [[unroll]] for (uint k = 0u; k < 4u; k++) {
            uint c = c0 + LOAD_CHANNELS * (quad + QUADS * (v / per)) + 4u * (v % per) + k;
            if (c < pc.p.channels)
                store(pc.grad, grad_offset(uvec4(b, c, y, x)), acc[v][k]);
        }
    }
}
