#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN_GRAD: the ROI gradient summed by roi_align_grad_gather_roi, a workgroup per region
// adding its sums of every tile its taps reach, every channel group and subgroup, each invocation
// a fixed share in order, then a fixed tree: deterministic. Dispatched in the gather's workgroup
// size with its tile constants, so that both see the same tiles.
#include "roi_align_grad_common.glsl"

#include "roi_align_grad_tiles.glsl"

layout(constant_id = ROI_SPEC_GATHER_WARPS) const uint WARPS = 1u;
shared vec4 partial[gl_WorkGroupSize.x];

void main()
{
    uint r = workgroup_index(), lid = gl_LocalInvocationID.x;
    vec4 sum = vec4(0.0);
    if (r < pc.p.num_rois) {
        uvec4 span = ScratchUvec4(pc.scratch).v[regions_vec4() + 2u * r];
        uint batch = ScratchUvec4(pc.scratch).v[regions_vec4() + 2u * r + 1u].x;
        if (batch != NO_BIN && span.x <= span.y && span.z <= span.w) {
            uint tiles_x = (pc.p.in_w + TILE_W - 1u) / TILE_W, tiles_y = (pc.p.in_h + TILE_H - 1u) / TILE_H;
            uint per_tile = (pc.p.channels + GROUP_CHANNELS - 1u) / GROUP_CHANNELS * WARPS;
            uint ty0 = span.x / TILE_H, tx0 = span.z / TILE_W, columns = span.w / TILE_W - tx0 + 1u;
            uint count = (span.y / TILE_H - ty0 + 1u) * columns * per_tile;
            uint base = pc.p.roi_grad_base + r * tiles_x * tiles_y * per_tile;
            for (uint k = lid; k < count; k += gl_WorkGroupSize.x) {
                uint t = k / per_tile, tile = (ty0 + t / columns) * tiles_x + tx0 + t % columns;
                sum += ScratchVec4(pc.scratch).v[base + tile * per_tile + k % per_tile];
            }
        }
    }
    partial[lid] = sum;
    barrier();
    for (uint s = tree_top(); s > 0u; s >>= 1u) {
        if (lid < s && lid + s < gl_WorkGroupSize.x)
            partial[lid] += partial[lid + s];
        barrier();
    }
    if (lid == 0u && r < pc.p.num_rois)
        store_roi_grad(r, partial[0]);
}
