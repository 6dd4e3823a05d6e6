#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN_GRAD: clears OutputGradientTensor, or (TO_SCRATCH) the sums the scatter adds into.
#include "roi_align_grad_common.glsl"

void main()
{
    uint e = invocation_index();
    if (e >= pc.p.grad_elements)
        return;
    if (TO_SCRATCH) {
#if DMLVK_ATOMICS == 2
        if (e == 0u)
            pc.scratch.max_abs_bits = 0u;
        pc.scratch.v[e] = 0l;
        UintSums(fixed_flags()).v[e] = 0u;
#else
        pc.scratch.v[e] = 0.0;
#endif
        return;
    }
    uvec4 i = grad_index(e);
    store(pc.grad, grad_offset(i), 0.0);
}
