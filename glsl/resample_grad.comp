#version 460
#extension GL_GOOGLE_include_directive : require
// RESAMPLE_GRAD: see lib/resample_grad.c; the gather shared with the other resample gradient.
#include "common.glsl"
#include "resample_backward.glsl"
