#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN_GRAD: the ROI gradient's parts (roi_align_grad_roi), added in part order.
#include "roi_align_grad_common.glsl"

void main()
{
    uint r = invocation_index();
    if (r >= pc.p.num_rois)
        return;
    vec4 sum = vec4(0.0);
    for (uint part = 0u; part < pc.p.roi_grad_parts; part++) {
        uint at = 4u * (pc.p.roi_grad_base + r * pc.p.roi_grad_parts + part);
        sum += vec4(pc.scratch.v[at], pc.scratch.v[at + 1u], pc.scratch.v[at + 2u], pc.scratch.v[at + 3u]);
    }
    store_roi_grad(r, sum);
}
