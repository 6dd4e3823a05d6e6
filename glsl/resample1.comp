#version 460
#extension GL_GOOGLE_include_directive : require
// RESAMPLE1: see lib/resample1.c; the forward pass shared with the other resample operator.
#include "common.glsl"
#include "resample_forward.glsl"
