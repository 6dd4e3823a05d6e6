#version 460
#extension GL_GOOGLE_include_directive : require
// ACTIVATION_RELU_GRAD: dX = X > 0 ? dY : 0 (NaN or -0 in X gives +0, a subnormal X passes dY:
// positive(); NaN or Inf in dY passes).
#include "common.glsl"
#define ELEMENTWISE_TENSORS 3
#include "elementwise.glsl"

DMLVK_PUSH(activation_relu_grad_push, ACTIVATION_RELU_GRAD_PUSH)

vec4 relu_grad4(vec4 x, vec4 dy)
{
    return mix(vec4(0.0), dy, positive4(x));
}

// The accesses from this invocation's on: whole ones at once where `vector` (as two 8-byte halves
// where `halves`), the rest element by element.
void relu_grad_accesses(bool vector, bool halves)
{
    uint count = pc.p.count, whole = count / ACCESS;
    for (uint q = invocation_index(); q * ACCESS < count; q += invocation_count()) {
        if (vector && q < whole) {
            vec4 x_lo, x_hi, dy_lo, dy_hi;
            access_load(pc.x, q, halves, x_lo, x_hi);
            access_load(pc.dy, q, halves, dy_lo, dy_hi);
            access_store(pc.dx, q, halves, relu_grad4(x_lo, dy_lo), relu_grad4(x_hi, dy_hi));
            continue;
        }
        for (uint i = q * ACCESS; i < min(q * ACCESS + ACCESS, count); i++)
            store(pc.dx, i, positive(load(pc.x, i)) ? load(pc.dy, i) : 0.0);
    }
}

void main()
{
    if (CONTIGUOUS) {
        if (chunk_aligned(pc.x, ACCESS) && chunk_aligned(pc.dy, ACCESS) && chunk_aligned(pc.dx, ACCESS))
            relu_grad_accesses(true, false);
        else
            relu_grad_accesses(vec4_aligned(pc.x) && vec4_aligned(pc.dy) && vec4_aligned(pc.dx), true);
        return;
    }
    uint i = invocation_index();
    if (i >= pc.p.count)
        return;
    uint off[3];
    element_offsets(pc.p, i, off);
    float x = load(pc.x, off[0]);
    store(pc.dx, off[2], positive(x) ? load(pc.dy, off[1]) : 0.0);
}
