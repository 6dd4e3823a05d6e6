#version 460
#extension GL_GOOGLE_include_directive : require
// RESAMPLE1 and RESAMPLE2 (lib/resample1.c, lib/resample2.c): each output element sums its taps,
// 1 or 2 per axis.
#include "common.glsl"
#include "resample_common.glsl"

void main()
{
    uint e = invocation_index();
    if (e >= pc.p.count)
        return;
    uint o[4];
    uint out_off = written_index(e, o);
    uint i0[4], i1[4];
    float w[4];
    for (uint d = 0u; d < 4u; d++) {
        uint m = pc.p.map_offset[d] + 2u * o[d];
        i0[d] = pc.p.table[m];
        w[d] = LINEAR ? uintBitsToFloat(pc.p.table[m + 1u]) : 0.0;
        i1[d] = min(i0[d] + 1u, pc.p.in_sizes[d] - 1u);
    }
    // A tap of weight 0 is not read: the sum is the same in real arithmetic, and a non-finite
    // neighbour must not leak through a zero weight.
    float acc = 0.0;
    for (uint a = 0u; a < (w[0] > 0.0 ? 2u : 1u); a++) {
        float wa = a == 0u ? 1.0 - w[0] : w[0];
        uint oa = (a == 0u ? i0[0] : i1[0]) * pc.p.in_strides[0];
        for (uint b = 0u; b < (w[1] > 0.0 ? 2u : 1u); b++) {
            float wb = wa * (b == 0u ? 1.0 - w[1] : w[1]);
            uint ob = oa + (b == 0u ? i0[1] : i1[1]) * pc.p.in_strides[1];
            for (uint c = 0u; c < (w[2] > 0.0 ? 2u : 1u); c++) {
                float wc = wb * (c == 0u ? 1.0 - w[2] : w[2]);
                uint oc = ob + (c == 0u ? i0[2] : i1[2]) * pc.p.in_strides[2];
                for (uint t = 0u; t < (w[3] > 0.0 ? 2u : 1u); t++) {
                    float wt = wc * (t == 0u ? 1.0 - w[3] : w[3]);
                    uint ot = oc + (t == 0u ? i0[3] : i1[3]) * pc.p.in_strides[3];
                    acc += LINEAR ? wt * load(pc.src, ot) : load(pc.src, ot);
                }
            }
        }
    }
    store(pc.dst, out_off, acc);
}
