// RESAMPLE_GRAD and RESAMPLE_GRAD1 as a gather: each OutputGradient element walks, per axis, the
// contiguous range of InputGradient indices whose taps reach it, and sums in a fixed order.
#extension GL_EXT_control_flow_attributes : require
#include "resample_common.glsl"

// The weight with which larger-side index o reaches smaller-side index i on axis d.
float tap_weight(uint d, uint o, uint i)
{
    if (!LINEAR)
        return 1.0;
    uint m = pc.p.map_offset[d] + 2u * o;
    uint k = pc.p.table[m];
    float w = uintBitsToFloat(pc.p.table[m + 1u]);
    return k == i ? 1.0 - w : w;   // the range holds only o with k == i, or k + 1 == i and w > 0
}

// Axes 0 and 1 are identities and axes 2 and 3 gather from at most TAPS_Y x TAPS_X positions,
// with the weights precomputed per index: unrolled loops, one row partial sum per tap row.
float fast_gather(uint i[4])
{
    // Per axis: lo[S], count[S], weight t [S]... (structure of arrays, S = that axis's size).
    uint sy = pc.p.out_sizes[2], sx = pc.p.out_sizes[3];
    uint ey = pc.p.fast_offset[0] + i[2];
    uint ex = pc.p.fast_offset[1] + i[3];
    uint lo_y = pc.p.table[ey], n_y = pc.p.table[ey + sy];
    uint lo_x = pc.p.table[ex], n_x = pc.p.table[ex + sx];
    uint base = i[0] * pc.p.in_strides[0] + i[1] * pc.p.in_strides[1] + lo_x * pc.p.in_strides[3];
    // The x weights once, in registers: the compiler does not hoist these loads out of the row loop.
    float wx[8];   // TAPS_X <= 8 (FAST_MAX_TAPS in lib/resample.c)
    [[unroll]] for (uint tx = 0u; tx < TAPS_X; tx++)
        wx[tx] = LINEAR && tx < n_x ? uintBitsToFloat(pc.p.table[ex + (2u + tx) * sx]) : 0.0;
    float acc = 0.0;
    [[unroll]] for (uint ty = 0u; ty < TAPS_Y; ty++) {
        if (ty >= n_y)
            break;
        uint row = base + (lo_y + ty) * pc.p.in_strides[2];
        float racc = 0.0;
        [[unroll]] for (uint tx = 0u; tx < TAPS_X; tx++) {
            if (tx >= n_x)
                break;
            float v = load(pc.src, row + tx * pc.p.in_strides[3]);
            racc += LINEAR ? wx[tx] * v : v;
        }
        acc += LINEAR ? uintBitsToFloat(pc.p.table[ey + (2u + ty) * sy]) * racc : racc;
    }
    return acc;
}

void main()
{
    uint e = invocation_index();
    if (e >= pc.p.count)
        return;
    uint i[4];
    if (PAIRS) {
        // e counts pairs along the last axis: the element index is 2 * (e mod pairs) there.
        uint width = pc.p.out_sizes[3], pairs = (width + 1u) / 2u;
        uint row = e / pairs, x = 2u * (e - row * pairs);
        uint out_off = written_index(row * width + x, i);
        float a = fast_gather(i);
        if (x + 1u < width) {
            i[3] = x + 1u;
            store2(pc.dst, out_off, a, fast_gather(i));
        } else {
            store(pc.dst, out_off, a);
        }
        return;
    }
    uint out_off = written_index(e, i);
    if (TAPS_Y > 0u) {
        store(pc.dst, out_off, fast_gather(i));
        return;
    }
    uint lo[4], hi[4];
    for (uint d = 0u; d < 4u; d++) {
        uint r = pc.p.range_offset[d] + 2u * i[d];
        lo[d] = pc.p.table[r];
        hi[d] = pc.p.table[r + 1u];
    }
    float acc = 0.0;
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
                    acc += LINEAR ? wt * load(pc.src, ot) : load(pc.src, ot);
                }
            }
        }
    }
    store(pc.dst, out_off, acc);
}
