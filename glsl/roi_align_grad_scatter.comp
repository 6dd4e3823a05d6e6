#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN_GRAD: one invocation per InputGradient element scatters its samples, channels slowest.
#include "roi_align_grad_common.glsl"

void main()
{
    uint e = invocation_index();
    if (e >= pc.p.num_rois * pc.p.channels * pc.p.out_h * pc.p.out_w)
        return;
    uvec4 i = bin_index_channel_major(e);
    Region g = region(i.x);
    if (!g.valid)
        return;
    scatter_bin(g, i, fixed_point_scale());
}
