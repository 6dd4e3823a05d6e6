#version 460
// dmlvk-bench's copy ceiling: 16-byte loads and stores in a grid-stride loop.
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 256) in;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec4s { uvec4 v[]; };
layout(push_constant) uniform Push {
    Vec4s src;
    Vec4s dst;
    uint n;
} pc;

void main()
{
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    for (uint i = gl_GlobalInvocationID.x; i < pc.n; i += stride)
        pc.dst.v[i] = pc.src.v[i];
}
