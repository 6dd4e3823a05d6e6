#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN1's and ROI_ALIGN_GRAD's first stage (roi_align_geometry.glsl): a workgroup per region.
// Where roi_align_params' geometry_lines is set (ROI_ALIGN_GRAD on small maps, lib/roi_align_grad.c),
// the workgroup then writes the region's lines for the gather (roi_align_grad_lines.glsl) from the
// copy of its tables it kept in shared memory: no dispatch between, and no line's search waits on
// loads from memory (the lines' own stage is a chain of them, BENCHMARKS.md note 201). A runtime
// switch, not a specialization: both operators share this pipeline, whose compile is heavy; so are
// the modes (ROI_MODES_AT_RUN_TIME), which specialize every other stage.
#define ROI_KEPT_TABLE 1
#define ROI_MODES_AT_RUN_TIME 1
#include "common.glsl"
#include "roi_align_abi.h"

layout(buffer_reference) buffer Scratch;
DMLVK_PUSH(roi_align_geometry_push, ROI_GEOMETRY_PUSH)
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Scratch { uvec4 v[]; };

#include "roi_align_table.glsl"

#include "roi_align_grad_tiles.glsl"

#include "roi_align_grad_lines.glsl"

#include "roi_align_geometry.glsl"

void main()
{
    uint r = workgroup_index();
    if (r >= pc.p.num_rois)
        return;
    kept_base = pc.p.table_base + r * (ROI_RECORD_VEC4 + pc.p.table_x + pc.p.table_y);
    place_region(r);
    if (pc.p.geometry_lines == 0u)
        return;
    barrier();
    for (uint l = gl_LocalInvocationID.x; l < pc.p.in_h + pc.p.in_w; l += gl_WorkGroupSize.x)
        prepare_line(r, l);
}
