#version 460
#extension GL_GOOGLE_include_directive : require
#if DMLVK_SHUFFLE
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#endif
// RESAMPLE_GRAD and RESAMPLE_GRAD1 over planes of rows: the block gather (resample_block.glsl).
#include "common.glsl"
#include "resample_common.glsl"
#define RESAMPLE_BACKWARD 1
#include "resample_block.glsl"
