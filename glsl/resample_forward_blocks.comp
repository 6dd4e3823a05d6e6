#version 460
#extension GL_GOOGLE_include_directive : require
#if DMLVK_SHUFFLE
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#endif
// RESAMPLE1 and RESAMPLE2 over planes of rows: the block gather (resample_block.glsl).
#include "common.glsl"
#include "resample_common.glsl"
#include "resample_block.glsl"
