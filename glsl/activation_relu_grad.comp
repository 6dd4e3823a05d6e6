#version 460
#extension GL_GOOGLE_include_directive : require
// ACTIVATION_RELU_GRAD: dX = X > 0 ? dY : 0 (NaN in X gives 0; NaN or Inf in dY passes).
#include "common.glsl"
#define ELEMENTWISE_TENSORS 3
#include "elementwise.glsl"

DMLVK_PUSH(activation_relu_grad_push, ACTIVATION_RELU_GRAD_PUSH)

vec4 relu_grad4(vec4 x, vec4 dy)
{
    return vec4(x.x > 0.0 ? dy.x : 0.0, x.y > 0.0 ? dy.y : 0.0, x.z > 0.0 ? dy.z : 0.0, x.w > 0.0 ? dy.w : 0.0);
}

void main()
{
    if (CONTIGUOUS) {
        uint count = pc.p.count, whole = count / VECTOR_WIDTH;
        bool aligned = vec4_aligned(pc.x) && vec4_aligned(pc.dy) && vec4_aligned(pc.dx);
        for (uint q = invocation_index(); q * VECTOR_WIDTH < count; q += invocation_count()) {
            if (aligned && q < whole) {
                store4(pc.dx, q, relu_grad4(load4(pc.x, q), load4(pc.dy, q)));
                continue;
            }
            for (uint i = q * VECTOR_WIDTH; i < min(q * VECTOR_WIDTH + VECTOR_WIDTH, count); i++)
                store(pc.dx, i, load(pc.x, i) > 0.0 ? load(pc.dy, i) : 0.0);
        }
        return;
    }
    uint i = invocation_index();
    if (i >= pc.p.count)
        return;
    uint off[3];
    element_offsets(pc.p, i, off);
    float x = load(pc.x, off[0]);
    store(pc.dx, off[2], x > 0.0 ? load(pc.dy, off[1]) : 0.0);
}
