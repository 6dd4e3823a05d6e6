#version 460
// dmlvk-bench --read-rates: loads from a buffer of mask + 1 words (a power of two), lane i's k-th
// at word (i + k * invocations) * spread, wrapped by the mask, folded by XOR into one word it
// stores (so that none is optimized away). spread 0: 16-byte loads (a warp's 512 contiguous
// bytes); 1: 4-byte loads (128 contiguous bytes); 8: 4-byte loads, each lane's in a 32-byte
// sector of its own, as ROI align's taps where samples lie more than 8 columns apart.
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 256) in;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Words { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec4s { uvec4 v[]; };
layout(push_constant) uniform Push {
    Words src;
    Words dst;
    uint mask;
    uint rounds;
    uint spread;
} pc;

void main()
{
    uint invocations = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_WorkGroupSize.x;
    uint i = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
    uint v = 0u;
    if (pc.spread == 0u) {
        uvec4 q = uvec4(0u);
        for (uint k = 0u, at = 4u * i; k < pc.rounds; k++, at += 4u * invocations)
            q ^= Vec4s(pc.src).v[(at & pc.mask) / 4u];
        v = q.x ^ q.y ^ q.z ^ q.w;
    } else {
        for (uint k = 0u, at = i * pc.spread; k < pc.rounds; k++, at += invocations * pc.spread)
            v ^= pc.src.v[at & pc.mask];
    }
    pc.dst.v[i] = v;
}
