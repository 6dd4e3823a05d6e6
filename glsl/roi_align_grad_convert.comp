#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN_GRAD: turns the scatter's float32 or fixed-point sums in scratch into OutputGradientTensor.
#include "roi_align_grad_common.glsl"

void main()
{
    uint e = invocation_index();
    if (e >= pc.p.grad_elements)
        return;
    uvec4 i = grad_index(e);
#if DMLVK_ATOMICS == 2
    float v = float(pc.scratch.v[e]) * ldexp(1.0, -fixed_exponent());
#else
    float v = pc.scratch.v[e];
#endif
    store(pc.grad, grad_offset(i), v);
}
