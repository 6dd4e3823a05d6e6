#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN_GRAD: the ROI gradient, one workgroup per region with a fixed reduction tree.
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
    uvec3 n = gl_NumWorkGroups;
    uint r = (gl_WorkGroupID.z * n.y + gl_WorkGroupID.y) * n.x + gl_WorkGroupID.x;
    uint lid = gl_LocalInvocationID.x;
    bool live = r < pc.p.num_rois;
    Region g;
    if (live)
        g = region(r);
    vec4 sum = vec4(0.0);
    if (live && g.valid && LINEAR) {
        uint items = pc.p.channels * pc.p.out_h * pc.p.out_w;
        for (uint k = lid; k < items; k += gl_WorkGroupSize.x) {
            uvec4 i = bin_index(r * items + k);
            float dy = load(pc.dy, bin_offset(i));
            uint plane = g.b * pc.p.in_strides[0] + i.y * pc.p.in_strides[1];
            if (MAXIMUM) {
                Axis y, x;
                if (max_sample(g, i, plane, y, x))
                    sum += sample_roi_grad(plane, y, x, dy);
                continue;
            }
            float share = div_rn(dy, sample_count(g));
            uvec2 rows = bin_rows(g, i.z), columns = bin_columns(g, i.w);
            for (uint iy = rows.x; iy < rows.y; iy++) {
                Axis y = sample_y(g, i.z, iy);
                for (uint ix = columns.x; ix < columns.y; ix++)
                    sum += sample_roi_grad(plane, y, sample_x(g, i.w, ix), share);
            }
        }
    }
    // A fixed reduction tree: the same sum run to run.
    partial[lid] = sum;
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
        if (lid < s)
            partial[lid] += partial[lid + s];
        barrier();
    }
    if (lid == 0u && live) {
        vec4 t = partial[0] * vec4(pc.p.spatial_x, pc.p.spatial_y, pc.p.spatial_x, pc.p.spatial_y);
        uint base = r * pc.p.roi_grad_strides[0];
        for (uint k = 0u; k < 4u; k++)
            store(pc.roi_grad, base + k * pc.p.roi_grad_strides[1], t[k]);
    }
}
