#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#include "roi_align_grad_common.glsl"

// ROI_ALIGN_GRAD: the scatter by regions (AVERAGE). A region's samples sit on a grid, so a
// sample's taps are the product of a row tap and a column tap: each distinct input pixel of the region receives
// sum over bins (ky, kx) of Wy[row][ky] * Wx[column][kx] * dY[ky][kx] / samples, where Wy and
// Wx sum the tap weights of each bin's samples on that row or column. One workgroup lists the
// region's row and column taps once, then adds each pixel's total with one atomic instead of
// one per sample tap, neighbouring invocations on neighbouring pixels.
const uint TAPS_MAX = 128u;     // per axis; more (huge regions) takes the per-bin path
const uint TAP_BINS = 2u;       // bins a tap entry spans; a pixel under more gets another entry
shared uint tap_pixel[2][TAPS_MAX];
shared uint tap_bin[2][TAPS_MAX];
shared float tap_weight[2][TAPS_MAX * TAP_BINS];
shared uint tap_count[2];

// Adds weight w of bin k on pixel p to axis a's list. The samples move monotonically, so a pixel
// that is tapped again is one of the last two entries; any other repeat gets a new entry, which
// only costs an atomic more.
bool add_tap(uint a, inout uint count, uint p, uint k, float w)
{
    for (uint back = 1u; back <= 2u && back <= count; back++) {
        uint j = count - back;
        if (tap_pixel[a][j] == p && k >= tap_bin[a][j] && k - tap_bin[a][j] < TAP_BINS) {
            tap_weight[a][j * TAP_BINS + k - tap_bin[a][j]] += w;
            return true;
        }
    }
    if (count == TAPS_MAX)
        return false;
    tap_pixel[a][count] = p;
    tap_bin[a][count] = k;
    for (uint t = 0u; t < TAP_BINS; t++)
        tap_weight[a][count * TAP_BINS + t] = t == 0u ? w : 0.0;
    count++;
    return true;
}

// Lists axis a's taps (0: rows, 1: columns); the count is TAPS_MAX + 1 where they do not fit.
void list_taps(uint a, Region g)
{
    uvec4 w = a == 0u ? g.wy : g.wx;
    uint per_bin = a == 0u ? g.ny : g.nx, count = 0u;
    uint samples = window_samples(w, per_bin);
    bool fits = samples <= 4u * TAPS_MAX;   // past that, listing alone would take a long single-thread loop
    uint bin = w.x, j = w.y;
    for (uint e = 0u; e < samples && fits; e++) {
        uint size = a == 0u ? pc.p.in_h : pc.p.in_w;
        Axis t = axis_entry(table_word(a == 0u ? y_entry_index(g, e) : x_entry_index(g, e)), size);
        fits = add_tap(a, count, t.i0, bin, 1.0 - t.w);
        if (fits && t.w > 0.0)
            fits = add_tap(a, count, t.i1, bin, t.w);
        if (++j == per_bin) {
            j = 0u;
            bin++;
        }
    }
    tap_count[a] = fits ? count : TAPS_MAX + 1u;
}

// Sum over the bins of row tap jy and column tap jx of their weights times channel c's dY (times
// `scale`).
float tap_sum(uint r, uint c, uint jy, uint jx, float scale)
{
    float sum = 0.0;
    [[unroll]] for (uint ty = 0u; ty < TAP_BINS; ty++) {
        float wy = tap_weight[0][jy * TAP_BINS + ty];
        if (wy == 0.0)
            continue;
        float row = 0.0;
        [[unroll]] for (uint tx = 0u; tx < TAP_BINS; tx++) {
            float wx = tap_weight[1][jx * TAP_BINS + tx];
            if (wx != 0.0)
                row += wx * (load(pc.dy, bin_offset(uvec4(r, c, tap_bin[0][jy] + ty, tap_bin[1][jx] + tx))) * scale);
        }
        sum += wy * row;
    }
    return sum;
}

void main()
{
    uint chunks = (pc.p.channels + GROUP_CHANNELS - 1u) / GROUP_CHANNELS;
    uint group = invocation_index() / gl_WorkGroupSize.x, lid = gl_LocalInvocationID.x;
    uint r = group / chunks, c0 = (group % chunks) * GROUP_CHANNELS;
    if (r >= pc.p.num_rois)
        return;
    Region g = region(r);
    if (!g.valid)
        return;
    vec2 fixed_scale = fixed_point_scale();
    uint channels = min(GROUP_CHANNELS, pc.p.channels - c0);
    uint lister = min(32u, gl_WorkGroupSize.x - 1u);  // another warp, where there is one
    if (lid == 0u)
        list_taps(0u, g);
    if (lid == lister)
        list_taps(1u, g);
    barrier();
    uint rows = tap_count[0], cols = tap_count[1];
    if (rows > TAPS_MAX || cols > TAPS_MAX) {
        uint bins = pc.p.out_h * pc.p.out_w;
        for (uint k = lid; k < channels * bins; k += gl_WorkGroupSize.x) {
            uint c = k / bins, b = k - c * bins;
            scatter_bin(g, uvec4(r, c0 + c, b / pc.p.out_w, b % pc.p.out_w), fixed_scale);
        }
        return;
    }
    float samples = sample_count(g);
    for (uint k = lid; k < channels * rows * cols; k += gl_WorkGroupSize.x) {
        uint jx = k % cols, q = k / cols;
        uint jy = q % rows, c = c0 + q / rows;
        float sum = tap_sum(r, c, jy, jx, 1.0);
        float share = div_rn(sum, samples);
        if (!finite_float(sum)) {
            // A sum of finite terms can overflow where its share does not (dY near float32's
            // largest): again with dY times 2^-e, past the weights' total of at most
            // TAP_BINS^2 times the samples (exact: powers of two), and the share scaled back.
            int e;
            frexp(float(TAP_BINS * TAP_BINS) * samples, e);
            share = scale_by_power_of_two(div_rn(tap_sum(r, c, jy, jx, power_of_two(-e)), samples), e);
        }
        add(grad_target(g.b, c, tap_pixel[0][jy], tap_pixel[1][jx]), share, fixed_scale);
    }
}
