#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
// ROI_ALIGN_GRAD: the gather by tiles (roi_align_grad_gather.glsl).
#include "roi_align_grad_gather.glsl"
