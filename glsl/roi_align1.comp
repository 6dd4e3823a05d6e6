#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN1 (lib/roi_align1.c): one invocation per output element reduces its bin's samples.
#include "common.glsl"

#include "roi_align_abi.h"
DMLVK_PUSH(roi_align1_push, ROI_ALIGN1_PUSH)

#include "roi_align_common.glsl"

void main()
{
    uint e = invocation_index();
    if (e >= pc.p.num_rois * pc.p.channels * pc.p.out_h * pc.p.out_w)
        return;
    uvec4 i = bin_index(e);
    Region g = region(i.x);
    if (!g.valid && i.y == 0u && i.z == 0u && i.w == 0u)
        atomicAdd(pc.counters.v[ROI_COUNTER_SKIPPED_REGIONS], 1u);
    float result = pc.p.oob_value;
    if (g.valid) {
        uint plane = g.b * pc.p.in_strides[0] + i.y * pc.p.in_strides[1];
        uint ny = g.ny * pc.p.out_h, nx = g.nx * pc.p.out_w;
        float acc = 0.0;
        bool first = true;
        for (uint iy = 0u; iy < g.ny; iy++) {
            Axis y = sample_axis(g.y1, g.h, i.z * g.ny + iy, ny, pc.p.in_h);
            for (uint ix = 0u; ix < g.nx; ix++) {
                Axis x = sample_axis(g.x1, g.w, i.w * g.nx + ix, nx, pc.p.in_w);
                float v = (y.oob || x.oob) ? pc.p.oob_value : read_input(plane, y, x);
                if (MAXIMUM) {
                    if (first || v > acc)   // strict: ties keep the first sample
                        acc = v;
                    first = false;
                } else {
                    acc += v;
                }
            }
        }
        result = MAXIMUM ? acc : div_rn(acc, float(g.nx * g.ny));
    }
    store(pc.y, bin_offset(i), result);
}
