#version 460
#extension GL_GOOGLE_include_directive : require
// All four resample operators over channels-last planes: the block gather (resample_block.glsl),
// whose direction only the host's tables tell.
#include "common.glsl"
#include "resample_common.glsl"
#define RESAMPLE_CHANNEL_BLOCKS 1
#include "resample_block.glsl"
