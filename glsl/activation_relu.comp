#version 460
#extension GL_GOOGLE_include_directive : require
// ACTIVATION_RELU: Y = X > 0 ? X : 0 (NaN and -0 give +0, subnormals pass: positive_mask()).
#include "common.glsl"
#define ELEMENTWISE_TENSORS 2
#include "elementwise.glsl"

DMLVK_PUSH(activation_relu_push, ACTIVATION_RELU_PUSH)

// The accesses from this invocation's on: whole ones at once where `vector` (as two 8-byte halves
// where `halves`), the rest element by element.
void relu_accesses(bool vector, bool halves)
{
    uint count = pc.p.count, whole = count / ACCESS;
    for (uint q = invocation_index(); q * ACCESS < count; q += invocation_count()) {
        if (vector && q < whole) {
            uvec4 x = access_words(pc.x, q, halves);
            store_access_words(pc.y, q, halves, x & positive_mask(x));
            continue;
        }
        for (uint i = q * ACCESS; i < min(q * ACCESS + ACCESS, count); i++) {
            uint x = load_element_bits(pc.x, i);
            store_element_bits(pc.y, i, x & positive_mask(x));
        }
    }
}

void main()
{
    if (CONTIGUOUS) {
        if (chunk_aligned(pc.x, ACCESS) && chunk_aligned(pc.y, ACCESS))
            relu_accesses(true, false);
        else
            relu_accesses(vec4_aligned(pc.x) && vec4_aligned(pc.y), true);
        return;
    }
    uint i = invocation_index();
    if (i >= pc.p.count)
        return;
    uint off[2];
    element_offsets(pc.p, i, off);
    uint x = load_element_bits(pc.x, off[0]);
    store_element_bits(pc.y, off[1], x & positive_mask(x));
}
