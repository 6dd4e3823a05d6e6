// Element-wise operators over tensors of one shape with their own strides (elementwise_abi.h).
#include "elementwise_abi.h"
layout(constant_id = ELEMENTWISE_SPEC_DIMS) const uint DIMS = 1;
// Every tensor packed and alike: each invocation takes VECTOR_WIDTH consecutive elements.
layout(constant_id = ELEMENTWISE_SPEC_CONTIGUOUS) const bool CONTIGUOUS = false;
const uint VECTOR_WIDTH = ELEMENTWISE_VECTOR_WIDTH;

void element_offsets(elementwise_params p, uint i, out uint off[ELEMENTWISE_TENSORS])
{
    for (uint t = 0; t < ELEMENTWISE_TENSORS; t++)
        off[t] = 0u;
    uint rem = i;
    for (uint d = DIMS - 1u; d > 0u; d--) {
        uint s = p.sizes[d];
        uint q = rem / s;
        uint idx = rem - q * s;
        rem = q;
        for (uint t = 0; t < ELEMENTWISE_TENSORS; t++)
            off[t] += idx * p.strides[t][d];
    }
    for (uint t = 0; t < ELEMENTWISE_TENSORS; t++)
        off[t] += rem * p.strides[t][0];
}
