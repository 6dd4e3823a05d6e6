#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
// ROI_ALIGN1 (lib/roi_align1.c): one invocation per output bin and CHANNELS channels reduces the
// bin's samples, the sample positions and weights shared by its channels.
#include "common.glsl"

#include "roi_align_abi.h"
layout(buffer_reference) buffer Scratch;
DMLVK_PUSH(roi_align1_push, ROI_ALIGN1_PUSH)
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Scratch { uvec4 v[]; };

#include "roi_align_common.glsl"

void main()
{
    uint e = invocation_index();
    uint groups = (pc.p.channels + CHANNELS - 1u) / CHANNELS;
    if (e >= pc.p.num_rois * groups * pc.p.out_h * pc.p.out_w)
        return;
    uvec4 i = bin_index_channel_major(e);
    i.y *= CHANNELS;    // the index counts groups of CHANNELS channels
    uint c0 = i.y;
    Region g = region(i.x);
    float result[ROI_MAX_CHANNELS];
    [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++)
        result[k] = pc.p.oob_value;
    if (g.valid) {
        // Only the in-bounds samples are visited; the others read OutOfBoundsInputValue.
        uint plane = g.b * pc.p.in_strides[0] + c0 * pc.p.in_strides[1];
        uvec2 rows = bin_rows(g, i.z), columns = bin_columns(g, i.w);
        float total = sample_count(g), inside = float(rows.y - rows.x) * float(columns.y - columns.x);
        float acc[ROI_MAX_CHANNELS];
        [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++)
            acc[k] = 0.0;
        for (uint iy = rows.x; iy < rows.y; iy++) {
            Axis y = sample_y(g, i.z, iy);
            for (uint ix = columns.x; ix < columns.y; ix++) {
                Axis x = sample_x(g, i.w, ix);
                bool first = iy == rows.x && ix == columns.x;
                [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++) {
                    if (k < CHANNELS && c0 + k < pc.p.channels) {
                        float v = read_input(plane + k * pc.p.in_strides[1], y, x);
                        if (!MAXIMUM)
                            acc[k] += v;
                        else if (first || v > acc[k])
                            acc[k] = v;
                    }
                }
            }
        }
        [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++) {
            if (MAXIMUM)
                result[k] = inside == 0.0 ? pc.p.oob_value : inside < total ? max(acc[k], pc.p.oob_value) : acc[k];
            else
                result[k] = div_rn(inside < total ? acc[k] + (total - inside) * pc.p.oob_value : acc[k], total);
        }
    }
    [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++)
        if (k < CHANNELS && c0 + k < pc.p.channels)
            store(pc.y, bin_offset(i) + k * pc.p.bin_strides[1], result[k]);
}
