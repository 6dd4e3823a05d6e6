#version 460
#extension GL_GOOGLE_include_directive : require
// RESAMPLE_GRAD and RESAMPLE_GRAD1 over planes of rows whose axis 1 scales too (volumes): the
// block gather (resample_block.glsl), RESAMPLE_DEPTH.
#include "common.glsl"
#include "resample_common.glsl"
#define RESAMPLE_BACKWARD 1
#define RESAMPLE_DEPTH 1
#include "resample_block.glsl"
