#version 460
#extension GL_GOOGLE_include_directive : require
// ACTIVATION_RELU: Y = X > 0 ? X : 0 (NaN gives 0: the comparison is ordered).
#include "common.glsl"
#define ELEMENTWISE_TENSORS 2
#include "elementwise.glsl"

DMLVK_PUSH(activation_relu_push, ACTIVATION_RELU_PUSH)

void main()
{
    if (CONTIGUOUS) {
        uint count = pc.p.count, whole = count / VECTOR_WIDTH;
        bool aligned = vec4_aligned(pc.x) && vec4_aligned(pc.y);
        for (uint q = invocation_index(); q * VECTOR_WIDTH < count; q += invocation_count()) {
            if (aligned && q < whole) {
                vec4 x = load4(pc.x, q);
                store4(pc.y, q, vec4(x.x > 0.0 ? x.x : 0.0, x.y > 0.0 ? x.y : 0.0, x.z > 0.0 ? x.z : 0.0,
                                     x.w > 0.0 ? x.w : 0.0));
                continue;
            }
            for (uint i = q * VECTOR_WIDTH; i < min(q * VECTOR_WIDTH + VECTOR_WIDTH, count); i++) {
                float x = load(pc.x, i);
                store(pc.y, i, x > 0.0 ? x : 0.0);
            }
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
