// ROI_ALIGN_GRAD: the gather's lines (roi_align_grad_tiles.glsl), written by roi_align_grad_prepare
// after the geometry stage or, on small maps (roi_align_params' geometry_lines), by the geometry
// stage's workgroups right after their tables. Needs only pc.p and pc.scratch of the push constants.
// Line l of region r: row l (l < InputHeight) or column l - InputHeight. Rows' weights are
// divided by the region's sample count. Each bin sums its samples in order. A line that more than
// LINE_BINS bins reach keeps its weights in the region's pool at F(p) + F(next line), F the first
// candidate sample of a line, the next line the one after p in the samples' direction: its
// candidates start at or past F(p), so F(next) + (candidates of p) <= F(line after next) +
// F(next), the next line's place, and the candidates outnumber the bins. Both F stay below the
// window's count. With ROI_GRAD a bin is in the line where a sample taps it with a weight or a
// derivative (the weights' sums are the same: a sample adds 0 or nothing), and the derivative
// weights go to the derivative lines and pools.
void prepare_line(uint r, uint l)
{
    Region g = region(r);
    uint a = l < pc.p.in_h ? 0u : 1u, p = a == 0u ? l : l - pc.p.in_h;
    uint first = NO_BIN, bin = NO_BIN, pool = NO_BIN;
    vec4 w = vec4(0.0), d0 = vec4(0.0), d1 = vec4(0.0);
    ScratchFloat pool_of = ScratchFloat(pc.scratch);
    uint off0 = ROI_GRAD ? derivative_pool_offset(0u) : 0u, off1 = ROI_GRAD ? derivative_pool_offset(1u) : 0u;
    if (g.valid) {
        Samples x = axis_samples(a, g);
        float samples = sample_count(g);
        uvec2 s = candidate_samples(x, p);
        float sum = 0.0, sum0 = 0.0, sum1 = 0.0;
        for (uint k = s.x; k <= s.y; k++) {
            Axis e;
            float v = 0.0, dv = 0.0;
            uint kb = NO_BIN;
            if (k < s.y) {
                e = sample_entry(x, k);
                v = tap_weight(e, p);
                dv = ROI_GRAD ? tap_derivative(e, p) : 0.0;
                kb = entry_bin(x, k);
            }
            if (bin != NO_BIN && (kb != bin || k == s.y)) {
                // Bins [at, end) of the line are settled: this one's sum, then zeros up to the next.
                uint at = bin - first, end = k < s.y ? kb - first : at + 1u;
                if (end > LINE_BINS && pool == NO_BIN)
                    pool = pool_word(r, a) + s.x + first_past_tap(x, x.decreasing ? int(p) : int(p) - 1);
                float total = a == 0u ? div_rn(sum, samples) : sum;
                float total0 = a == 0u ? div_rn(sum0, samples) : sum0, total1 = a == 0u ? div_rn(sum1, samples) : sum1;
                if (at < LINE_BINS) {
                    w[at] = total;
                    d0[at] = total0;
                    d1[at] = total1;
                } else {
                    pool_of.v[pool + at] = total;
                    if (ROI_GRAD) {
                        pool_of.v[pool + off0 + at] = total0;
                        pool_of.v[pool + off1 + at] = total1;
                    }
                }
                for (uint z = max(at + 1u, LINE_BINS); z < end; z++) {
                    pool_of.v[pool + z] = 0.0;
                    if (ROI_GRAD) {
                        pool_of.v[pool + off0 + z] = 0.0;
                        pool_of.v[pool + off1 + z] = 0.0;
                    }
                }
            }
            if (k == s.y)
                break;
            if (v == 0.0 && dv == 0.0)
                continue;
            if (kb != bin) {
                first = bin == NO_BIN ? kb : first;
                bin = kb;
                sum = 0.0;
                sum0 = 0.0;
                sum1 = 0.0;
            }
            sum += v;
            sum0 += dv * (1.0 - e.t);
            sum1 += dv * e.t;
        }
    }
    if (l == 0u) {
        uvec2 sy = g.valid ? tap_span(0u, g) : uvec2(0u), sx = g.valid ? tap_span(1u, g) : uvec2(0u);
        ScratchUvec4(pc.scratch).v[regions_vec4() + 2u * r] = uvec4(sy, sx);
        ScratchUvec4(pc.scratch).v[regions_vec4() + 2u * r + 1u] = uvec4(g.valid ? g.b : NO_BIN, 0u, 0u, 0u);
    }
    uint line = r * (pc.p.in_h + pc.p.in_w) + l;
    uint count = bin == NO_BIN ? 0u : bin - first + 1u;
    if (count > LINE_BINS) {
        for (uint i = 0u; i < LINE_BINS; i++) {
            pool_of.v[pool + i] = w[i];
            if (ROI_GRAD) {
                pool_of.v[pool + off0 + i] = d0[i];
                pool_of.v[pool + off1 + i] = d1[i];
            }
        }
        w.x = uintBitsToFloat(pool);
    }
    ScratchUvec4(pc.scratch).v[lines_vec4() + line] = uvec4(floatBitsToUint(w.xyz), count == 0u ? 0u : count << 16 | first);
    if (ROI_GRAD) {
        uint at = derivative_lines_vec4() + ROI_DERIVATIVE_LINE_VEC4 * line;
        ScratchUvec4(pc.scratch).v[at] = floatBitsToUint(d0);
        ScratchUvec4(pc.scratch).v[at + 1u] = floatBitsToUint(d1);
    }
}
