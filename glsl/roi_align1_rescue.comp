#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
// ROI_ALIGN1's second sums of the regions whose walk overflowed (roi_align1.glsl).
#define ROI_ALIGN1_ROWS 0
#define ROI_ALIGN1_RESCUE 1
#define ROI_ALIGN1_SHARED_TAPS 0
#include "roi_align1.glsl"
