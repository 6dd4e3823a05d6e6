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
    uint i = invocation_index();
    if (i >= pc.p.count)
        return;
    uint off[2];
    element_offsets(pc.p, i, off);
    float x = load(pc.x, off[0]);
    store(pc.y, off[1], x > 0.0 ? x : 0.0);
}
