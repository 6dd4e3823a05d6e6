#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require
// ROI_ALIGN1 by sample rows (roi_align1.glsl).
#define ROI_ALIGN1_ROWS 1
#define ROI_ALIGN1_RESCUE 0
#define ROI_ALIGN1_SHARED_TAPS 0
#include "roi_align1.glsl"
