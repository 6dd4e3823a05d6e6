#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN1's and ROI_ALIGN_GRAD's first stage (roi_align_geometry.glsl): a workgroup per region.
#include "common.glsl"
#include "roi_align_abi.h"

layout(buffer_reference) buffer Scratch;
DMLVK_PUSH(roi_align_geometry_push, ROI_GEOMETRY_PUSH)
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Scratch { uvec4 v[]; };

#include "roi_align_table.glsl"
#include "roi_align_geometry.glsl"

void main()
{
    uint r = workgroup_index();
    if (r < pc.p.num_rois)
        place_region(r);
}
