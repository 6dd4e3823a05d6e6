#version 460
// dmlvk-bench's copy ceiling: 16-byte loads and stores in a grid-stride loop, over a 2-D grid of
// workgroups (one pass over a large buffer needs more than a dimension's 65535).
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
    uint stride = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_WorkGroupSize.x;
    uint first = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    for (uint i = first; i < pc.n; i += stride)
        pc.dst.v[i] = pc.src.v[i];
}
