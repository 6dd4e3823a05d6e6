#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN1 (lib/roi_align1.c): one invocation per output element reduces its bin's samples.
#include "common.glsl"

#include "roi_align_abi.h"
layout(buffer_reference) buffer Scratch;
DMLVK_PUSH(roi_align1_push, ROI_ALIGN1_PUSH)
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Scratch { uvec4 v[]; };

#include "roi_align_common.glsl"

void main()
{
    uint e = invocation_index();
    if (e >= pc.p.num_rois * pc.p.channels * pc.p.out_h * pc.p.out_w)
        return;
    uvec4 i = bin_index(e);
    Region g = region(i.x);
    float result = pc.p.oob_value;
    if (g.valid) {
        // Only the in-bounds samples are visited; the others read OutOfBoundsInputValue.
        uint plane = g.b * pc.p.in_strides[0] + i.y * pc.p.in_strides[1];
        uvec2 rows = bin_rows(g, i.z), columns = bin_columns(g, i.w);
        float total = sample_count(g), inside = float(rows.y - rows.x) * float(columns.y - columns.x);
        float acc = 0.0;
        for (uint iy = rows.x; iy < rows.y; iy++) {
            Axis y = sample_y(g, i.z, iy);
            for (uint ix = columns.x; ix < columns.y; ix++) {
                float v = read_input(plane, y, sample_x(g, i.w, ix));
                if (!MAXIMUM)
                    acc += v;
                else if ((iy == rows.x && ix == columns.x) || v > acc)
                    acc = v;
            }
        }
        if (MAXIMUM)
            result = inside == 0.0 ? pc.p.oob_value : inside < total ? max(acc, pc.p.oob_value) : acc;
        else
            result = div_rn(inside < total ? acc + (total - inside) * pc.p.oob_value : acc, total);
    }
    store(pc.y, bin_offset(i), result);
}
