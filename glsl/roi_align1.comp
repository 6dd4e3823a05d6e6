#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN1 (lib/roi_align1.c): each invocation reduces one bin's samples for LANE_CHANNELS channels.
#extension GL_EXT_control_flow_attributes : require
#include "common.glsl"

#include "roi_align_abi.h"
layout(buffer_reference) buffer Scratch;
DMLVK_PUSH(roi_align1_push, ROI_ALIGN1_PUSH)
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Scratch { uvec4 v[]; };

#include "roi_align_common.glsl"

void main()
{
    // (region, channel group, bin row, bin column), the column fastest: neighbouring invocations
    // write neighbouring bins of each channel.
    uint e = invocation_index();
    uint groups = (pc.p.channels + LANE_CHANNELS - 1u) / LANE_CHANNELS;
    if (e >= pc.p.num_rois * groups * pc.p.out_h * pc.p.out_w)
        return;
    uint ox = e % pc.p.out_w;
    e /= pc.p.out_w;
    uint oy = e % pc.p.out_h;
    e /= pc.p.out_h;
    uvec4 i = uvec4(e / groups, (e % groups) * LANE_CHANNELS, oy, ox);
    uint lanes = min(LANE_CHANNELS, pc.p.channels - i.y);
    Region g = region(i.x);
    float result[ROI_MAX_LANE_CHANNELS];
    [[unroll]] for (uint k = 0u; k < LANE_CHANNELS; k++)
        result[k] = pc.p.oob_value;
    if (g.valid) {
        // Only the in-bounds samples are visited; the others read OutOfBoundsInputValue. Each
        // sample's taps serve every lane's channel.
        uint plane = g.b * pc.p.in_strides[0] + i.y * pc.p.in_strides[1];
        uvec2 rows = bin_rows(g, i.z), columns = bin_columns(g, i.w);
        float total = sample_count(g), inside = float(rows.y - rows.x) * float(columns.y - columns.x);
        float acc[ROI_MAX_LANE_CHANNELS];
        [[unroll]] for (uint k = 0u; k < LANE_CHANNELS; k++)
            acc[k] = 0.0;
        for (uint iy = rows.x; iy < rows.y; iy++) {
            Axis y = sample_y(g, i.z, iy);
            for (uint ix = columns.x; ix < columns.y; ix++) {
                Axis x = sample_x(g, i.w, ix);
                bool first = iy == rows.x && ix == columns.x;
                [[unroll]] for (uint k = 0u; k < LANE_CHANNELS; k++) {
                    // Lanes past the last channel read the last one and are not stored.
                    float v = read_input(plane + min(k, lanes - 1u) * pc.p.in_strides[1], y, x);
                    if (!MAXIMUM)
                        acc[k] += v;
                    else if (first || v > acc[k])
                        acc[k] = v;
                }
            }
        }
        [[unroll]] for (uint k = 0u; k < LANE_CHANNELS; k++) {
            if (MAXIMUM)
                result[k] = inside == 0.0 ? pc.p.oob_value : inside < total ? max(acc[k], pc.p.oob_value) : acc[k];
            else
                result[k] = div_rn(inside < total ? acc[k] + (total - inside) * pc.p.oob_value : acc[k], total);
        }
    }
    uint at = bin_offset(i);
    [[unroll]] for (uint k = 0u; k < LANE_CHANNELS; k++)
        if (k < lanes)
            store(pc.y, at + k * pc.p.bin_strides[1], result[k]);
}
