// Element-wise operators over ELEMENTWISE_TENSORS tensors of one shape with their own strides.
// The host merges dimensions that are contiguous in every tensor, so DIMS is usually 1.
layout(constant_id = 1) const uint DIMS = 1;
// Every tensor packed and alike: each invocation takes 4 consecutive elements (VECTOR_WIDTH).
layout(constant_id = 2) const bool CONTIGUOUS = false;
const uint VECTOR_WIDTH = 4u;

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Params {
    uint count;
    uint sizes[8];
    uint strides[ELEMENTWISE_TENSORS][8];
};

void element_offsets(Params p, uint i, out uint off[ELEMENTWISE_TENSORS])
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
