#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
// ROI_ALIGN_GRAD: the gather's workgroups (roi_align_grad_gather.glsl) and the ROI gradient's
// (roi_align_grad_roi.glsl) in one dispatch, the ROI gradient's spread evenly among the gather's,
// so that the gather's walks, waiting on latency, and the ROI gradient's taps, waiting on L2's
// bandwidth, share the multiprocessors (lib/roi_align_grad.c, merge_roi_gradient).
#include "roi_align_grad_gather.glsl"
#include "roi_align_grad_roi.glsl"

void main()
{
    const uint w = workgroup_index(), roi = pc.p.merged_roi_groups, all = pc.p.merged_gather_groups + roi;
    if (w >= all)
        return;
    // Workgroups every - 1, 2 * every - 1, ... up to the roi-th are the ROI gradient's.
    const uint every = all / roi, slots = (w + 1u) / every;
    if ((w + 1u) % every == 0u && slots <= roi)
        roi_gradient_part(slots - 1u);
    else
        gather_tile(w - min(slots, roi));
}
