#version 460
#extension GL_GOOGLE_include_directive : require
// RESAMPLE_GRAD and RESAMPLE_GRAD1 (lib/resample_grad.c, lib/resample_grad1.c) as a gather: each
// OutputGradient element walks, per axis, the contiguous range of InputGradient indices whose
// taps reach it, and sums in a fixed order. Planes of rows run resample_backward_blocks.comp.
#include "common.glsl"
#include "resample_common.glsl"

// The weight with which larger-side index o reaches smaller-side index i on axis d.
float tap_weight(uint d, uint o, uint i)
{
    if (!LINEAR || identity_axis(d))
        return 1.0;
    uint m = pc.p.map_offset[d] + RESAMPLE_MAP_WORDS * o;
    // The range holds only o with k == i, or k + 1 == i and a weight above 0 on k + 1.
    return uintBitsToFloat(pc.p.table[pc.p.table[m] == i ? m + 2u : m + 1u]);
}

void main()
{
    uint e = invocation_index();
    if (e >= pc.p.count)
        return;
    uint i[4];
    uint out_off = written_index(e, i);
    // Lanes run along an identity axis (lib/resample.c): one tap there, the same for every lane,
    // which the nest below counts as one tap at 0.
    uint la = lane_axis(), inside = lanes_inside(i);
    uint lo[4], hi[4];
    [[unroll]] for (uint d = 0u; d < 4u; d++) {
        if (identity_axis(d)) {
            lo[d] = d == la && LANES > 1u ? 0u : i[d];
            hi[d] = lo[d] + 1u;
        } else {
            uint r = pc.p.range_offset[d] + 2u * i[d];
            lo[d] = pc.p.table[r];
            hi[d] = pc.p.table[r + 1u];
        }
    }
    bool vector = lane_loads_vector();
    float acc[MAX_LANES];
    [[unroll]] for (uint l = 0u; l < MAX_LANES; l++)
        acc[l] = 0.0;
    for (uint a = lo[0]; a < hi[0]; a++) {
        float wa = tap_weight(0u, a, i[0]);
        uint oa = a * pc.p.in_strides[0];
        for (uint b = lo[1]; b < hi[1]; b++) {
            float wb = wa * tap_weight(1u, b, i[1]);
            uint ob = oa + b * pc.p.in_strides[1];
            for (uint c = lo[2]; c < hi[2]; c++) {
                float wc = wb * tap_weight(2u, c, i[2]);
                uint oc = ob + c * pc.p.in_strides[2];
                for (uint t = lo[3]; t < hi[3]; t++) {
                    float wt = wc * tap_weight(3u, t, i[3]);
                    uint ot = oc + t * pc.p.in_strides[3];
                    if (LANES > 1u)
                        add_lanes(vector, ot + i[la] * pc.p.in_strides[la], i[la], wt, acc);
                    else
                        acc[0] += LINEAR ? wt * load(pc.src, ot) : load(pc.src, ot);
                }
            }
        }
    }
    store_lanes(out_off, inside, acc);
}
