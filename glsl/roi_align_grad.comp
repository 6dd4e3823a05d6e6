#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
// ROI_ALIGN_GRAD (lib/roi_align_grad.c), in stages chosen by a specialization constant:
//   ZERO     clears OutputGradientTensor where the scatter adds into it directly;
//   MAX_ABS  (deterministic mode) finds max |dY| to scale the fixed-point sums;
//   SCATTER  one invocation per InputGradient element adds its samples' shares into the input
//            gradient: float atomics, a compare-and-swap loop, or int64 fixed point;
//   CONVERT  turns the float32 or fixed-point scratch sums into OutputGradientTensor;
//   ROI      one workgroup per region sums the ROI coordinates' derivatives, deterministically.
// DMLVK_ATOMICS: 0 compare-and-swap, 1 VK_EXT_shader_atomic_float, 2 int64 fixed point.
#ifndef DMLVK_ATOMICS
#define DMLVK_ATOMICS 0
#endif
#if DMLVK_ATOMICS == 1
#extension GL_EXT_shader_atomic_float : require
#elif DMLVK_ATOMICS == 2
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
#endif
#include "common.glsl"

layout(buffer_reference) buffer Params;
layout(buffer_reference) buffer Scratch;
layout(push_constant) uniform Push {
    Params p;
    Tensor x;
    Tensor dy;
    Tensor rois;
    UintTensor batch;
    Tensor grad;
    Tensor roi_grad;
    Scratch scratch;
    UintTensor skipped;     // diagnostics: regions with an out-of-range batch index
} pc;

#include "roi_align_common.glsl"

layout(constant_id = 4) const uint STAGE = 2;
layout(constant_id = 5) const bool TO_SCRATCH = false;  // sums go to scratch, not straight to grad
layout(constant_id = 6) const bool COUNT_SKIPPED = false; // this stage counts the skipped regions
// SCATTER under AVERAGE: one workgroup per region and this many channels (0: one invocation per bin).
layout(constant_id = 7) const uint REGION_CHANNELS = 0;

const uint STAGE_ZERO = 0u, STAGE_MAX_ABS = 1u, STAGE_SCATTER = 2u, STAGE_CONVERT = 3u, STAGE_ROI = 4u;

layout(buffer_reference, std430, buffer_reference_align = 4) buffer FloatSums { float v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer UintSums { uint v[]; };
#if DMLVK_ATOMICS == 2
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Scratch {
    uint max_abs_bits;
    uint pad[3];
    int64_t v[];
};

// Fixed point: 2^exponent units per 1.0, so that no sum can pass 2^62. A bin adds at most |dY| in
// all (its tap weights sum to 1), so |sum| <= max|dY| * NumROIs * OutH * OutW.
int fixed_exponent()
{
    float bound = uintBitsToFloat(pc.scratch.max_abs_bits) * float(pc.p.num_rois * pc.p.out_h * pc.p.out_w);
    int e;
    frexp(max(bound, 1e-30), e);
    return clamp(62 - e, -100, 100);
}
#else
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Scratch { float v[]; };
#endif

uint grad_target(uint b, uint c, uint y, uint x)
{
    if (TO_SCRATCH)
        return ((b * pc.p.channels + c) * pc.p.in_h + y) * pc.p.in_w + x;
    return b * pc.p.grad_strides[0] + c * pc.p.grad_strides[1] + y * pc.p.grad_strides[2] + x * pc.p.grad_strides[3];
}

void add(uint i, float v, float fixed_scale)
{
#if DMLVK_ATOMICS == 2
    atomicAdd(pc.scratch.v[i], int64_t(round(v * fixed_scale)));
#else
    FloatSums sums = TO_SCRATCH ? FloatSums(pc.scratch) : FloatSums(pc.grad);
#if DMLVK_ATOMICS == 1
    atomicAdd(sums.v[i], v);
#else
    UintSums bits = UintSums(sums);
    uint seen = bits.v[i];
    for (;;) {
        uint want = floatBitsToUint(uintBitsToFloat(seen) + v);
        uint was = atomicCompSwap(bits.v[i], seen, want);
        if (was == seen)
            break;
        seen = was;
    }
#endif
#endif
}

// The bin's winning sample under MAX (out-of-bounds samples count as 0); false when it is out of bounds.
bool max_sample(Region g, uvec4 i, uint plane, out Axis wy, out Axis wx)
{
    uint ny = g.ny * pc.p.out_h, nx = g.nx * pc.p.out_w;
    float best = 0.0;
    bool first = true, inside = false;
    for (uint iy = 0u; iy < g.ny; iy++) {
        Axis y = sample_axis(g.y1, g.h, i.z * g.ny + iy, ny, pc.p.in_h);
        for (uint ix = 0u; ix < g.nx; ix++) {
            Axis x = sample_axis(g.x1, g.w, i.w * g.nx + ix, nx, pc.p.in_w);
            bool oob = y.oob || x.oob;
            float v = oob ? 0.0 : read_input(plane, y, x);
            if (first || v > best) {
                best = v;
                inside = !oob;
                wy = y;
                wx = x;
            }
            first = false;
        }
    }
    return inside;
}

void scatter_sample(Region g, uint c, Axis y, Axis x, float share, float fixed_scale)
{
    float wy1 = y.w, wx1 = x.w;
    add(grad_target(g.b, c, y.i0, x.i0), share * ((1.0 - wy1) * (1.0 - wx1)), fixed_scale);
    if (wx1 > 0.0)
        add(grad_target(g.b, c, y.i0, x.i1), share * ((1.0 - wy1) * wx1), fixed_scale);
    if (wy1 > 0.0) {
        add(grad_target(g.b, c, y.i1, x.i0), share * (wy1 * (1.0 - wx1)), fixed_scale);
        if (wx1 > 0.0)
            add(grad_target(g.b, c, y.i1, x.i1), share * (wy1 * wx1), fixed_scale);
    }
}

float fixed_point_scale()
{
#if DMLVK_ATOMICS == 2
    return ldexp(1.0, fixed_exponent());
#else
    return 1.0;
#endif
}

// Bin i's samples, each added into the taps it read.
void scatter_bin(Region g, uvec4 i, float fixed_scale)
{
    float dy = load(pc.dy, bin_offset(i));
    uint plane = g.b * pc.p.in_strides[0] + i.y * pc.p.in_strides[1];
    if (MAXIMUM) {
        Axis y, x;
        if (max_sample(g, i, plane, y, x))
            scatter_sample(g, i.y, y, x, dy, fixed_scale);
        return;
    }
    uint ny = g.ny * pc.p.out_h, nx = g.nx * pc.p.out_w;
    float share = div_rn(dy, float(g.nx * g.ny));
    for (uint iy = 0u; iy < g.ny; iy++) {
        Axis y = sample_axis(g.y1, g.h, i.z * g.ny + iy, ny, pc.p.in_h);
        if (y.oob)
            continue;
        for (uint ix = 0u; ix < g.nx; ix++) {
            Axis x = sample_axis(g.x1, g.w, i.w * g.nx + ix, nx, pc.p.in_w);
            if (!x.oob)
                scatter_sample(g, i.y, y, x, share, fixed_scale);
        }
    }
}

void scatter()
{
    uint e = invocation_index();
    if (e >= pc.p.num_rois * pc.p.channels * pc.p.out_h * pc.p.out_w)
        return;
    uvec4 i = bin_index(e);
    Region g = region(i.x);
    if (!g.valid) {
        if (COUNT_SKIPPED && i.y == 0u && i.z == 0u && i.w == 0u)
            atomicAdd(pc.skipped.v[0], 1u);
        return;
    }
    scatter_bin(g, i, fixed_point_scale());
}

// The scatter by regions (AVERAGE). A region's samples sit on a grid, so a sample's taps are the
// product of a row tap and a column tap: each distinct input pixel of the region receives
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
    uint bins = a == 0u ? pc.p.out_h : pc.p.out_w, per_bin = a == 0u ? g.ny : g.nx;
    uint n = per_bin * bins, count = 0u;
    bool fits = n <= 4u * TAPS_MAX;  // past that, listing alone would take a long single-thread loop
    for (uint s = 0u; s < n && fits; s++) {
        Axis t = a == 0u ? sample_axis(g.y1, g.h, s, n, pc.p.in_h) : sample_axis(g.x1, g.w, s, n, pc.p.in_w);
        if (t.oob)
            continue;
        fits = add_tap(a, count, t.i0, s / per_bin, 1.0 - t.w);
        if (fits && t.w > 0.0)
            fits = add_tap(a, count, t.i1, s / per_bin, t.w);
    }
    tap_count[a] = fits ? count : TAPS_MAX + 1u;
}

void scatter_regions()
{
    uint chunks = (pc.p.channels + REGION_CHANNELS - 1u) / REGION_CHANNELS;
    uint group = invocation_index() / gl_WorkGroupSize.x, lid = gl_LocalInvocationID.x;
    uint r = group / chunks, c0 = (group % chunks) * REGION_CHANNELS;
    if (r >= pc.p.num_rois)
        return;
    Region g = region(r);
    if (!g.valid) {
        if (COUNT_SKIPPED && c0 == 0u && lid == 0u)
            atomicAdd(pc.skipped.v[0], 1u);
        return;
    }
    float fixed_scale = fixed_point_scale();
    uint channels = min(REGION_CHANNELS, pc.p.channels - c0);
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
    float samples = float(g.nx * g.ny);
    for (uint k = lid; k < channels * rows * cols; k += gl_WorkGroupSize.x) {
        uint jx = k % cols, q = k / cols;
        uint jy = q % rows, c = c0 + q / rows;
        float sum = 0.0;
        [[unroll]] for (uint ty = 0u; ty < TAP_BINS; ty++) {
            float wy = tap_weight[0][jy * TAP_BINS + ty];
            if (wy == 0.0)
                continue;
            float row = 0.0;
            [[unroll]] for (uint tx = 0u; tx < TAP_BINS; tx++) {
                float wx = tap_weight[1][jx * TAP_BINS + tx];
                if (wx != 0.0)
                    row += wx * load(pc.dy, bin_offset(uvec4(r, c, tap_bin[0][jy] + ty, tap_bin[1][jx] + tx)));
            }
            sum += wy * row;
        }
        add(grad_target(g.b, c, tap_pixel[0][jy], tap_pixel[1][jx]), div_rn(sum, samples), fixed_scale);
    }
}

// (b, c, y, x) of a packed index over the input's sizes.
uvec4 grad_index(uint e)
{
    uint x = e % pc.p.in_w;
    e /= pc.p.in_w;
    uint y = e % pc.p.in_h;
    e /= pc.p.in_h;
    return uvec4(e / pc.p.channels, e % pc.p.channels, y, x);
}

void zero_or_convert()
{
    uint e = invocation_index();
    if (e >= pc.p.grad_elements)
        return;
    if (STAGE == STAGE_ZERO && TO_SCRATCH) {
#if DMLVK_ATOMICS == 2
        if (e == 0u)
            pc.scratch.max_abs_bits = 0u;
        pc.scratch.v[e] = 0l;
#else
        pc.scratch.v[e] = 0.0;
#endif
        return;
    }
    uvec4 i = grad_index(e);
    float v = 0.0;
    if (STAGE == STAGE_CONVERT) {
#if DMLVK_ATOMICS == 2
        v = float(pc.scratch.v[e]) * ldexp(1.0, -fixed_exponent());
#else
        v = pc.scratch.v[e];
#endif
    }
    store(pc.grad, i.x * pc.p.grad_strides[0] + i.y * pc.p.grad_strides[1] + i.z * pc.p.grad_strides[2] +
                       i.w * pc.p.grad_strides[3], v);
}

shared vec4 partial[gl_WorkGroupSize.x];
shared uint partial_max[gl_WorkGroupSize.x];

void max_abs()
{
#if DMLVK_ATOMICS == 2
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
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
        if (lid < s)
            partial_max[lid] = max(partial_max[lid], partial_max[lid + s]);
        barrier();
    }
    if (lid == 0u && partial_max[0] != 0u)
        atomicMax(pc.scratch.max_abs_bits, partial_max[0]);
#endif
}

// d sum(dY * out) / d(x1, y1, x2, y2) of one sample read with weight `share`, before the spatial scales.
vec4 sample_roi_grad(uint plane, Axis y, Axis x, float share)
{
    float a = load(pc.x, plane + y.i0 * pc.p.in_strides[2] + x.i0 * pc.p.in_strides[3]);
    float b = load(pc.x, plane + y.i0 * pc.p.in_strides[2] + x.i1 * pc.p.in_strides[3]);
    float c = load(pc.x, plane + y.i1 * pc.p.in_strides[2] + x.i0 * pc.p.in_strides[3]);
    float d = load(pc.x, plane + y.i1 * pc.p.in_strides[2] + x.i1 * pc.p.in_strides[3]);
    float dvdx = x.clamped ? 0.0 : (1.0 - y.w) * (b - a) + y.w * (d - c);
    float dvdy = y.clamped ? 0.0 : (1.0 - x.w) * (c - a) + x.w * (d - b);
    return share * vec4(dvdx * (1.0 - x.t), dvdy * (1.0 - y.t), dvdx * x.t, dvdy * y.t);
}

void roi_gradient()
{
    uvec3 n = gl_NumWorkGroups;
    uint r = (gl_WorkGroupID.z * n.y + gl_WorkGroupID.y) * n.x + gl_WorkGroupID.x;
    uint lid = gl_LocalInvocationID.x;
    bool live = r < pc.p.num_rois;
    Region g;
    if (live)
        g = region(r);
    if (COUNT_SKIPPED && live && !g.valid && lid == 0u)
        atomicAdd(pc.skipped.v[0], 1u);
    vec4 sum = vec4(0.0);
    if (live && g.valid && LINEAR) {
        uint items = pc.p.channels * pc.p.out_h * pc.p.out_w;
        uint ny = g.ny * pc.p.out_h, nx = g.nx * pc.p.out_w;
        for (uint k = lid; k < items; k += gl_WorkGroupSize.x) {
            uvec4 i = bin_index(r * items + k);
            float dy = load(pc.dy, bin_offset(i));
            uint plane = g.b * pc.p.in_strides[0] + i.y * pc.p.in_strides[1];
            if (MAXIMUM) {
                Axis y, x;
                if (max_sample(g, i, plane, y, x))
                    sum += sample_roi_grad(plane, y, x, dy);
                continue;
            }
            float share = div_rn(dy, float(g.nx * g.ny));
            for (uint iy = 0u; iy < g.ny; iy++) {
                Axis y = sample_axis(g.y1, g.h, i.z * g.ny + iy, ny, pc.p.in_h);
                if (y.oob)
                    continue;
                for (uint ix = 0u; ix < g.nx; ix++) {
                    Axis x = sample_axis(g.x1, g.w, i.w * g.nx + ix, nx, pc.p.in_w);
                    if (!x.oob)
                        sum += sample_roi_grad(plane, y, x, share);
                }
            }
        }
    }
    // A fixed reduction tree: the same sum run to run.
    partial[lid] = sum;
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
        if (lid < s)
            partial[lid] += partial[lid + s];
        barrier();
    }
    if (lid == 0u && live) {
        vec4 t = partial[0] * vec4(pc.p.spatial_x, pc.p.spatial_y, pc.p.spatial_x, pc.p.spatial_y);
        uint base = r * pc.p.roi_grad_strides[0];
        for (uint k = 0u; k < 4u; k++)
            store(pc.roi_grad, base + k * pc.p.roi_grad_strides[1], t[k]);
    }
}

void main()
{
    if (STAGE == STAGE_SCATTER && REGION_CHANNELS > 0u)
        scatter_regions();
    else if (STAGE == STAGE_SCATTER)
        scatter();
    else if (STAGE == STAGE_ZERO || STAGE == STAGE_CONVERT)
        zero_or_convert();
    else if (STAGE == STAGE_MAX_ABS)
        max_abs();
    else
        roi_gradient();
}
