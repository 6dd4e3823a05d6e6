#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
// ROI_ALIGN_GRAD: the ROI gradient in a dispatch of its own (roi_align_grad_roi.glsl).
#include "roi_align_grad_common.glsl"
#include "roi_align_grad_roi.glsl"

void main()
{
    roi_gradient_part(workgroup_index());
}
