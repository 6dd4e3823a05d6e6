// Shared by the resample shaders: the parameter block written by lib/resample.c (resample_abi.h).
#include "resample_abi.h"
layout(constant_id = RESAMPLE_SPEC_LINEAR) const bool LINEAR = false;
layout(constant_id = RESAMPLE_SPEC_DIMS) const uint DIMS = 4;   // the real axes are the last DIMS of 4

DMLVK_PUSH(resample_push, RESAMPLE_PUSH)

// The written element's index per axis, and its offset.
uint written_index(uint e, out uint idx[4])
{
    uint off = 0u;
    for (uint k = 0u; k < 4u; k++) {
        uint d = pc.p.walk[k];
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
