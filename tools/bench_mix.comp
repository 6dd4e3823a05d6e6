#version 460
// dmlvk-bench's same-mix copy (--mix): the bytes a workload reads and writes, in its proportions,
// each moved once. Invocation i writes 16 bytes; where there is less to read than to write, every
// k-th invocation (k = writes / reads) reads 16 bytes, so reads spread over the whole pass as an
// operator's do; where there is more, each invocation reads its share of it.
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 256) in;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec4s { uvec4 v[]; };
layout(push_constant) uniform Push {
    Vec4s src;
    Vec4s dst;
    uint reads;
    uint writes;
} pc;

void main()
{
    uint i = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    if (i >= pc.writes)
        return;
    uvec4 v = uvec4(i);
    if (pc.reads <= pc.writes) {
        uint k = pc.writes / pc.reads;
        if (i % k == 0u && i / k < pc.reads)
            v ^= pc.src.v[i / k];
    } else {
        for (uint j = i; j < pc.reads; j += pc.writes)
            v ^= pc.src.v[j];
    }
    pc.dst.v[i] = v;
}
