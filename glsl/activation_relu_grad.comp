#version 460
#extension GL_GOOGLE_include_directive : require
// ACTIVATION_RELU_GRAD: dX = X > 0 ? dY : 0 (NaN or -0 in X gives +0, a subnormal X passes dY:
// positive_mask(); NaN or Inf in dY passes).
#include "common.glsl"
#define ELEMENTWISE_TENSORS 3
#include "elementwise.glsl"

DMLVK_PUSH(activation_relu_grad_push, ACTIVATION_RELU_GRAD_PUSH)

// The accesses from this invocation's on: whole ones at once where `vector` (as two 8-byte halves
// where `halves`), the rest element by element.
void relu_grad_accesses(bool vector, bool halves)
{
    uint count = pc.p.count, whole = count / ACCESS;
    for (uint q = invocation_index(); q * ACCESS < count; q += invocation_count()) {
        if (vector && q < whole) {
            uvec4 x = access_words(pc.x, q, halves), dy = access_words(pc.dy, q, halves);
            store_access_words(pc.dx, q, halves, dy & positive_mask(x));
            continue;
        }
        for (uint i = q * ACCESS; i < min(q * ACCESS + ACCESS, count); i++)
            store_element_bits(pc.dx, i, load_element_bits(pc.dy, i) & positive_mask(load_element_bits(pc.x, i)));
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
    store_element_bits(pc.dx, off[2], load_element_bits(pc.dy, off[1]) & positive_mask(load_element_bits(pc.x, off[0])));
}
