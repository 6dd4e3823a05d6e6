#version 460
#extension GL_GOOGLE_include_directive : require
// RESAMPLE1 and RESAMPLE2 (lib/resample1.c, lib/resample2.c): each output element sums its taps,
// 1 or 2 per axis. Planes of rows run resample_forward_blocks.comp; here an invocation writes
// LANES neighbouring elements along the written tensor's fastest axis, sharing the other axes' taps.
#include "common.glsl"
#include "resample_common.glsl"

// The input indices that larger-side index o of axis d taps, and their weights.
void axis_taps(uint d, uint o, out uint i0, out uint i1, out float w0, out float w)
{
    if (identity_axis(d)) {
        i0 = o;
        i1 = o;
        w0 = 1.0;
        w = 0.0;
        return;
    }
    uint m = pc.p.map_offset[d] + RESAMPLE_MAP_WORDS * o;
    i0 = pc.p.table[m];
    w = LINEAR ? uintBitsToFloat(pc.p.table[m + 1u]) : 0.0;
    w0 = LINEAR ? uintBitsToFloat(pc.p.table[m + 2u]) : 1.0;
    i1 = min(i0 + 1u, pc.p.in_sizes[d] - 1u);
}

void main()
{
    uint e = invocation_index();
    if (e >= pc.p.count)
        return;
    uint o[4];
    uint out_off = written_index(e, o);
    uint la = lane_axis(), inside = lanes_inside(o);
    // The lane axis's taps per lane; in the nest below it counts as one tap of weight 1 at 0.
    uint i0[4], i1[4];
    float w0[4], w[4];
    [[unroll]] for (uint d = 0u; d < 4u; d++) {
        if (d == la) {
            i0[d] = 0u;
            i1[d] = 0u;
            w0[d] = 1.0;
            w[d] = 0.0;
        } else {
            axis_taps(d, o[d], i0[d], i1[d], w0[d], w[d]);
        }
    }
    uint l0[MAX_LANES], l1[MAX_LANES];
    float lw0[MAX_LANES], lw[MAX_LANES];
    [[unroll]] for (uint l = 0u; l < MAX_LANES; l++) {
        l0[l] = 0u;
        l1[l] = 0u;
        lw0[l] = 1.0;
        lw[l] = 0.0;
        if (l < LANES)
            axis_taps(la, min(o[la] + l, pc.p.out_sizes[la] - 1u), l0[l], l1[l], lw0[l], lw[l]);
    }
    bool vector = lane_loads_vector();
    uint ls = pc.p.in_strides[la];

    // A tap of weight 0 is not read: the sum is the same in real arithmetic, and a non-finite
    // neighbour must not leak through a zero weight.
    float acc[MAX_LANES];
    [[unroll]] for (uint l = 0u; l < MAX_LANES; l++)
        acc[l] = 0.0;
    for (uint a = 0u; a < (w[0] > 0.0 ? 2u : 1u); a++) {
        float wa = a == 0u ? w0[0] : w[0];
        uint oa = (a == 0u ? i0[0] : i1[0]) * pc.p.in_strides[0];
        for (uint b = 0u; b < (w[1] > 0.0 ? 2u : 1u); b++) {
            float wb = wa * (b == 0u ? w0[1] : w[1]);
            uint ob = oa + (b == 0u ? i0[1] : i1[1]) * pc.p.in_strides[1];
            for (uint c = 0u; c < (w[2] > 0.0 ? 2u : 1u); c++) {
                float wc = wb * (c == 0u ? w0[2] : w[2]);
                uint oc = ob + (c == 0u ? i0[2] : i1[2]) * pc.p.in_strides[2];
                for (uint t = 0u; t < (w[3] > 0.0 ? 2u : 1u); t++) {
                    float wt = wc * (t == 0u ? w0[3] : w[3]);
                    uint ot = oc + (t == 0u ? i0[3] : i1[3]) * pc.p.in_strides[3];
                    if (identity_axis(la)) {
                        add_lanes(vector, ot + o[la] * ls, o[la], wt, acc);
                        continue;
                    }
                    [[unroll]] for (uint l = 0u; l < MAX_LANES; l++) {
                        if (l < LANES) {
                            float v = load(pc.src, ot + l0[l] * ls);
                            if (!LINEAR) {
                                acc[l] += v;
                            } else {
                                acc[l] += wt * lw0[l] * v;
                                if (lw[l] > 0.0)
                                    acc[l] += wt * lw[l] * load(pc.src, ot + l1[l] * ls);
                            }
                        }
                    }
                }
            }
        }
    }
    store_lanes(out_off, inside, acc);
}
