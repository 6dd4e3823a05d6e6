#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require
// ROI_ALIGN_GRAD: the gather by tiles with the ROI gradient (roi_align_grad_gather.glsl).
#define DMLVK_GATHER_ROI_GRAD 1
#include "roi_align_grad_gather.glsl"
