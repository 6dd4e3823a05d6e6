#version 460
#extension GL_GOOGLE_include_directive : require
// ACTIVATION_RELU_GRAD: dX = X > 0 ? dY : 0 (NaN in X gives 0; NaN or Inf in dY passes).
#include "common.glsl"
#define ELEMENTWISE_TENSORS 3
#include "elementwise.glsl"

layout(push_constant) uniform Push {
    Params p;
    Tensor x;
    Tensor dy;
    Tensor dx;
} pc;

void main()
{
    uint i = invocation_index();
    if (i >= pc.p.count)
        return;
    uint off[3];
    element_offsets(pc.p, i, off);
    float x = load(pc.x, off[0]);
    store(pc.dx, off[2], x > 0.0 ? load(pc.dy, off[1]) : 0.0);
}
