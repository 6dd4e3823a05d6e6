#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN_GRAD's first stage where a region's tables fit in shared memory (ROI_KEPT_TABLE_VEC4)
// and its lines are few (lib/roi_align_grad.c): a workgroup per region places its samples
// (roi_align_geometry.glsl), then writes its lines (roi_align_grad_lines.glsl) from the copy of
// its tables it kept, with no dispatch between and no line's search waiting on loads from memory
// (the lines' own stage is a chain of them, BENCHMARKS.md note 201).
#define ROI_KEPT_TABLE 1
#include "roi_align_grad_common.glsl"

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
    barrier();
    for (uint l = gl_LocalInvocationID.x; l < pc.p.in_h + pc.p.in_w; l += gl_WorkGroupSize.x)
        prepare_line(r, l);
}
