#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
// ROI_ALIGN_GRAD: the ROI gradient. roi_grad_parts workgroups per region each reduce a share of
// the region's (channel, bin) items with a fixed tree; with more than one part (TO_SCRATCH) each
// stores its sum to scratch and roi_align_grad_roi_sum adds them in part order: deterministic.
#include "roi_align_grad_common.glsl"

shared vec4 partial[gl_WorkGroupSize.x];

// d sum(dY * out) / d(x1, y1, x2, y2) of one sample read with weight `share`, before the spatial scales.
vec4 sample_roi_grad(uint plane, Axis y, Axis x, float share)
{
    float a = load(pc.x, plane + y.i0 * pc.p.in_strides[2] + x.i0 * pc.p.in_strides[3]);
    float b = load(pc.x, plane + y.i0 * pc.p.in_strides[2] + x.i1 * pc.p.in_strides[3]);
    float c = load(pc.x, plane + y.i1 * pc.p.in_strides[2] + x.i0 * pc.p.in_strides[3]);
    float d = load(pc.x, plane + y.i1 * pc.p.in_strides[2] + x.i1 * pc.p.in_strides[3]);
    float dvdx = x.clamped ? 0.0 : (1.0 - y.w) * (b - a) + y.w * (d - c);
    float dvdy = y.clamped ? 0.0 : (1.0 - x.w) * (c - a) + x.w * (d - b);
    return share * vec4(dvdx * (1.0 - x.t), dvdy * (1.0 - y.t), dvdx * x.t, dvdy * y.t);
}

void main()
{
    uint group = workgroup_index();
    // Parts slowest: the workgroups in flight share channels, whose planes stay in cache.
    uint r = group % pc.p.num_rois, part = group / pc.p.num_rois;
    uint lid = gl_LocalInvocationID.x;
    bool live = part < pc.p.roi_grad_parts;
    Region g;
    if (live)
        g = region(r);
    vec4 sum = vec4(0.0);
    if (live && g.valid && LINEAR) {
        uint bins = pc.p.out_h * pc.p.out_w, items = (pc.p.channels + CHANNELS - 1u) / CHANNELS * bins;
        uint per = (items + pc.p.roi_grad_parts - 1u) / pc.p.roi_grad_parts;
        uint end = min(items, (part + 1u) * per);
        for (uint k = part * per + lid; k < end; k += gl_WorkGroupSize.x) {
            uint bin = k % bins;
            uvec4 i = uvec4(r, k / bins * CHANNELS, bin / pc.p.out_w, bin % pc.p.out_w);
            uint plane = g.b * pc.p.in_strides[0] + i.y * pc.p.in_strides[1];
            if (MAXIMUM) {  // CHANNELS is 1: each channel has its own winner
                Axis y, x;
                if (max_sample(g, i, plane, y, x))
                    sum += sample_roi_grad(plane, y, x, load(pc.dy, bin_offset(i)));
                continue;
            }
            float share[ROI_MAX_CHANNELS];
            [[unroll]] for (uint c = 0u; c < ROI_MAX_CHANNELS; c++)
                share[c] = c < CHANNELS && i.y + c < pc.p.channels
                               ? div_rn(load(pc.dy, bin_offset(i) + c * pc.p.bin_strides[1]), sample_count(g)) : 0.0;
            uvec2 rows = bin_rows(g, i.z), columns = bin_columns(g, i.w);
            for (uint iy = rows.x; iy < rows.y; iy++) {
                Axis y = sample_y(g, i.z, iy);
                for (uint ix = columns.x; ix < columns.y; ix++) {
                    Axis x = sample_x(g, i.w, ix);
                    [[unroll]] for (uint c = 0u; c < ROI_MAX_CHANNELS; c++)
                        if (c < CHANNELS && i.y + c < pc.p.channels)
                            sum += sample_roi_grad(plane + c * pc.p.in_strides[1], y, x, share[c]);
                }
            }
        }
    }
    // A fixed reduction tree: the same sum run to run.
    partial[lid] = sum;
    barrier();
    for (uint s = tree_top(); s > 0u; s >>= 1u) {
        if (lid < s && lid + s < gl_WorkGroupSize.x)
            partial[lid] += partial[lid + s];
        barrier();
    }
    if (lid != 0u || !live)
        return;
    if (TO_SCRATCH) {
        uint at = 4u * (pc.p.roi_grad_base + r * pc.p.roi_grad_parts + part);
        for (uint k = 0u; k < 4u; k++)
            pc.scratch.v[at + k] = partial[0][k];
    } else {
        store_roi_grad(r, partial[0]);
    }
}
