#version 460
#extension GL_GOOGLE_include_directive : require
// RESAMPLE_GRAD and RESAMPLE_GRAD1 over planes of rows: the block gather (resample_block.glsl). A
// module of its own, apart from resample_backward.comp's general loop, so that a driver parses and
// specializes only the path it runs.
#include "common.glsl"
#include "resample_common.glsl"
#define RESAMPLE_BACKWARD 1
#include "resample_block.glsl"

void main()
{
    uint e = invocation_index();
    if (e < pc.p.count)
        gather_blocks(e);
}
