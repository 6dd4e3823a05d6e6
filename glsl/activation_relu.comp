#version 460
#extension GL_GOOGLE_include_directive : require
// ACTIVATION_RELU: Y = X > 0 ? X : 0 (NaN gives 0: the comparison is ordered).
#include "common.glsl"
#define ELEMENTWISE_TENSORS 2
#include "elementwise.glsl"

layout(push_constant) uniform Push {
    Params p;
    Tensor x;
    Tensor y;
} pc;

void main()
{
    if (CONTIGUOUS) {
        uint q = invocation_index(), first = q * VECTOR_WIDTH;
        if (first >= pc.p.count)
            return;
        if (first + VECTOR_WIDTH <= pc.p.count && vec4_aligned(pc.x) && vec4_aligned(pc.y)) {
            vec4 x = load4(pc.x, q);
            store4(pc.y, q, vec4(x.x > 0.0 ? x.x : 0.0, x.y > 0.0 ? x.y : 0.0, x.z > 0.0 ? x.z : 0.0, x.w > 0.0 ? x.w : 0.0));
            return;
        }
        for (uint i = first; i < min(first + VECTOR_WIDTH, pc.p.count); i++) {
            float x = load(pc.x, i);
            store(pc.y, i, x > 0.0 ? x : 0.0);
        }
        return;
    }
    uint i = invocation_index();
    if (i >= pc.p.count)
        return;
    uint off[2];
    element_offsets(pc.p, i, off);
    float x = load(pc.x, off[0]);
    store(pc.y, off[1], x > 0.0 ? x : 0.0);
}
