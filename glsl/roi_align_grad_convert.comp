#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN_GRAD: turns the scatter's float32 or fixed-point sums in scratch into OutputGradientTensor,
// or the gather's parts' float32 sums, added in part order.
#include "roi_align_grad_common.glsl"

void main()
{
    uint e = invocation_index();
    if (e >= pc.p.grad_elements)
        return;
#if DMLVK_ATOMICS == 2
    uint flags = UintSums(fixed_flags()).v[e];
    float v = scale_by_power_of_two(float(pc.scratch.v[e]), -fixed_exponent());
    if (flags != 0u) {
        bool nan = (flags & FIXED_NAN) != 0u || flags == (FIXED_POSITIVE_INF | FIXED_NEGATIVE_INF);
        v = nan ? uintBitsToFloat(0x7fc00000u) : uintBitsToFloat(flags == FIXED_POSITIVE_INF ? 0x7f800000u : 0xff800000u);
    }
#else
    float v = FloatSums(pc.scratch).v[part_sum(0u, e)];
    for (uint part = 1u; part < PARTS; part++)
        v += FloatSums(pc.scratch).v[part_sum(part, e)];
#endif
    store(pc.grad, PARTS_IN_PLACE ? e : grad_offset(grad_index(e)), v);
}
