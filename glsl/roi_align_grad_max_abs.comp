#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN_GRAD, deterministic scatter: max |dY|, which scales the fixed-point sums.
#include "roi_align_grad_common.glsl"
#if DMLVK_ATOMICS != 2
#error "built only as the int64_atomics variant"
#endif

shared uint partial_max[gl_WorkGroupSize.x];

void main()
{
    // Positive floats order like their bits. One atomic per workgroup: all of them on one address
    // would serialize.
    uint e = invocation_index(), lid = gl_LocalInvocationID.x;
    uint bits = 0u;
    if (e < pc.p.num_rois * pc.p.channels * pc.p.out_h * pc.p.out_w) {
        float dy = abs(load(pc.dy, bin_offset(bin_index(e))));
        if (!isinf(dy) && !isnan(dy))
            bits = floatBitsToUint(dy);
    }
    partial_max[lid] = bits;
    barrier();
    for (uint s = tree_top(); s > 0u; s >>= 1u) {
        if (lid < s && lid + s < gl_WorkGroupSize.x)
            partial_max[lid] = max(partial_max[lid], partial_max[lid + s]);
        barrier();
    }
    if (lid == 0u && partial_max[0] != 0u)
        atomicMax(pc.scratch.max_abs_bits, partial_max[0]);
}
