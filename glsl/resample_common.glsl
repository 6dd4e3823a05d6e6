// Shared by the resample shaders: the parameter block written by lib/resample.c. Tensors are
// padded to 4 axes; table[] holds per axis the map (for each larger-side index: the input index
// and the weight of the next one) and, for the backward operators, the range of larger-side
// indices that reach each smaller-side index.
layout(constant_id = 1) const bool LINEAR = false;
layout(constant_id = 2) const uint DIMS = 4;   // the real axes are the last DIMS of 4

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Params {
    uint count;             // invocations
    uint out_sizes[4];
    uint in_sizes[4];
    uint out_strides[4];
    uint in_strides[4];
    uint map_offset[4];
    uint range_offset[4];
    uint block_table[2];    // backward block gather, axes 2 and 3: where their tables start in
                            // this block, in words from its start (see lib/resample.c)
    uint block_magic[3];    // div_by's m for the blocks per row, per column and out_sizes[1]
    uint table[];
};

layout(push_constant) uniform Push {
    Params p;
    Tensor src;
    Tensor dst;
} pc;

// The written element's index per axis, and its offset.
uint written_index(uint e, out uint idx[4])
{
    uint off = 0u;
    for (uint k = 0u; k < 4u; k++) {
        uint d = 3u - k;
        if (k + 1u < DIMS) {
            uint s = pc.p.out_sizes[d];
            uint q = e / s;
            idx[d] = e - q * s;
            e = q;
        } else if (k < DIMS) {
            idx[d] = e;
        } else {
            idx[d] = 0u;
        }
        off += idx[d] * pc.p.out_strides[d];
    }
    return off;
}
