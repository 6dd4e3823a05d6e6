#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN_GRAD under MAX: a workgroup per region and GROUP_CHANNELS channels, each invocation
// scattering the winning sample of a bin of one channel, its neighbours on the neighbouring bins.
#include "roi_align_grad_common.glsl"

void main()
{
    uint group = workgroup_index();
    uint r = group % pc.p.num_rois, c_first = group / pc.p.num_rois * GROUP_CHANNELS;
    if (c_first >= pc.p.channels)
        return;
    Region g = region(r);
    if (!g.valid)
        return;
    uint bins = pc.p.out_h * pc.p.out_w, channels = min(c_first + GROUP_CHANNELS, pc.p.channels) - c_first;
    vec2 fixed_scale = fixed_point_scale();
    for (uint j = gl_LocalInvocationID.x; j < channels * bins; j += gl_WorkGroupSize.x) {
        uvec2 job = whole_bins_job(j, channels, bins);
        scatter_bin(g, uvec4(r, c_first + job.x, job.y / pc.p.out_w, job.y % pc.p.out_w), fixed_scale);
    }
}
