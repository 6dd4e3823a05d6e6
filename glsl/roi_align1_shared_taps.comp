#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
// ROI_ALIGN1's regions whose samples share taps, by their bins' tap lists (roi_align1.glsl).
#define ROI_ALIGN1_ROWS 0
#define ROI_ALIGN1_RESCUE 0
#define ROI_ALIGN1_SHARED_TAPS 1
#include "roi_align1.glsl"
