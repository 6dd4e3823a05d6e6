// Shared by the stages of ROI_ALIGN_GRAD (lib/roi_align_grad.c), one shader each:
//   roi_align_grad_zero             clears OutputGradientTensor, or the scratch the scatter adds into;
//   roi_align_grad_max_abs          (deterministic) finds max |dY| to scale the fixed-point sums;
//   roi_align_grad_scatter          one invocation per InputGradient element adds its samples'
//                                   shares into the input gradient;
//   roi_align_grad_scatter_regions  (AVERAGE) one workgroup per region and channels does the same;
//   roi_align_grad_convert          turns the float32 or fixed-point scratch sums into the output;
//   roi_align_grad_prepare          copies dY to scratch with the channel fastest and lists each
//                                   region's weights per input row and column, for
//   roi_align_grad_winners          (MAX, in place of the copy) each bin's winner per channel;
//   roi_align_grad_gather           one workgroup per tile of the input gradient sums the regions
//                                   over it and stores each element once: no atomics;
//   roi_align_grad_roi              workgroups per region sum the ROI coordinates' derivatives,
//   roi_align_grad_roi_sum          and where a region has several, this adds their sums.
// The scatter's additions (DMLVK_ATOMICS): 0 compare-and-swap, 1 VK_EXT_shader_atomic_float,
// 2 int64 fixed point (the int64_atomics variant).
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
#include "roi_align_abi.h"

layout(buffer_reference) buffer Scratch;
DMLVK_PUSH(roi_align_grad_push, ROI_ALIGN_GRAD_PUSH)

#include "roi_align_common.glsl"

layout(constant_id = ROI_SPEC_TO_SCRATCH) const bool TO_SCRATCH = false;
// The gather's parts of the regions (roi_align_abi.h, ROI_GATHER_MAX_PARTS): each stores its sums
// to scratch, which roi_align_grad_convert adds.
layout(constant_id = ROI_SPEC_GATHER_PARTS) const uint PARTS = 1u;
// Channels per workgroup: the scatter by regions takes this many of one region; the gather a
// multiple of a load's channels times QUADS, at most 4 * ROI_GATHER_VECS * QUADS.
layout(constant_id = ROI_SPEC_GROUP_CHANNELS) const uint GROUP_CHANNELS = 0;

// The gather's transposed dY (roi_align_grad_tiles.glsl): channels per bin, whole workgroups'
// worth, a multiple of 4 and of a 16-byte load's channels.
uint gather_stride()
{
    return (pc.p.channels + GROUP_CHANNELS - 1u) / GROUP_CHANNELS * GROUP_CHANNELS;
}

layout(buffer_reference, std430, buffer_reference_align = 4) buffer FloatSums { float v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer UintSums { uint v[]; };
#if DMLVK_ATOMICS == 2
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Scratch {
    uint max_abs_bits;
    uint pad[3];
    int64_t v[];
};

// Fixed point: 2^exponent units per 1.0, so that no sum can pass 2^62. A bin adds at most |dY| in
// all (its tap weights sum to 1), so |sum| <= max|dY| * NumROIs * OutH * OutW < 2^(e_dy + e_n), the
// two exponents apart (their product may pass float32's range). Max |dY| is finite (Inf and NaN
// go to the flags below); from a subnormal one the exponent reaches about 210.
int fixed_exponent()
{
    float max_abs = uintBitsToFloat(pc.scratch.max_abs_bits);
    if (max_abs == 0.0)
        return 0;
    int e_dy, e_n;
    frexp(max_abs, e_dy);
    frexp(float(pc.p.num_rois) * float(pc.p.out_h) * float(pc.p.out_w), e_n);
    return 62 - e_dy - e_n;
}

// Non-finite terms do not fit the fixed point: each element's kinds of them are flags in a uint
// after the sums (OR is associative too), and the conversion gives Inf or NaN as float addition
// would have.
const uint FIXED_POSITIVE_INF = 1u, FIXED_NEGATIVE_INF = 2u, FIXED_NAN = 4u;

uvec2 fixed_flags()     // at 16 + 8 * grad_elements bytes into scratch, which may pass 4 GiB
{
    uvec2 a = uvec2(pc.scratch);
    uint offset = (pc.p.grad_elements << 3) + 16u, high = (pc.p.grad_elements >> 29) + (offset < 16u ? 1u : 0u);
    uint lo = a.x + offset;
    return uvec2(lo, a.y + high + (lo < a.x ? 1u : 0u));
}
#else
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Scratch { float v[]; };
#endif

// The ROI gradient's copy of InputTensor (ROI_INPUT_LOAD_BYTES in roi_align_abi.h): channels per
// pixel, whole loads of them.
#if DMLVK_STORAGE16
const uint INPUT_LOAD_CHANNELS = ROI_INPUT_LOAD_BYTES / 2u;
#else
const uint INPUT_LOAD_CHANNELS = ROI_INPUT_LOAD_BYTES / 4u;
#endif
uint input_stride()
{
    return (pc.p.channels + INPUT_LOAD_CHANNELS - 1u) / INPUT_LOAD_CHANNELS * INPUT_LOAD_CHANNELS;
}

// Where InputTensor is laid out as that copy (ROI_SPEC_INPUT_IN_PLACE), the tensor itself stands in
// for it.
layout(constant_id = ROI_SPEC_INPUT_IN_PLACE) const bool INPUT_IN_PLACE = false;

// Its address, input_base uvec4 into scratch: 64-bit arithmetic, where the other stages' scratch
// may pass 4 GiB.
uvec2 input_copy()
{
    if (INPUT_IN_PLACE)
        return uvec2(pc.x);
    uvec2 a = uvec2(pc.scratch);
    uint lo = a.x + (pc.p.input_base << 4);
    return uvec2(lo, a.y + (pc.p.input_base >> 28) + (lo < a.x ? 1u : 0u));
}

// OutputGradientTensor's offset of (b, c, y, x).
uint grad_offset(uvec4 i)
{
    return i.x * pc.p.grad_strides[0] + i.y * pc.p.grad_strides[1] + i.z * pc.p.grad_strides[2] + i.w * pc.p.grad_strides[3];
}

// Index of (b, c, y, x) in a packed input gradient: the scratch sums' layout.
uint grad_packed(uint b, uint c, uint y, uint x)
{
    return ((b * pc.p.channels + c) * pc.p.in_h + y) * pc.p.in_w + x;
}

uint grad_target(uint b, uint c, uint y, uint x)
{
    if (TO_SCRATCH)
        return grad_packed(b, c, y, x);
    return grad_offset(uvec4(b, c, y, x));
}

// Where part `part` of the gather keeps the sum of element e (part_element), in floats into scratch.
uint part_sum(uint part, uint e)
{
    return pc.p.parts_base + part * pc.p.grad_elements + e;
}

// The gather's parts keep an element's sums at its offset in OutputGradientTensor where its offsets
// are exactly 0 .. elements - 1 (any order of packed axes), so that they and roi_align_grad_convert
// touch the elements in the output's own order; elsewhere at its packed index.
layout(constant_id = ROI_SPEC_PARTS_IN_PLACE) const bool PARTS_IN_PLACE = false;

uint part_element(uint b, uint c, uint y, uint x)
{
    return PARTS_IN_PLACE ? grad_offset(uvec4(b, c, y, x)) : grad_packed(b, c, y, x);
}

void add(uint i, float v, vec2 fixed_scale)
{
#if DMLVK_ATOMICS == 2
    if (!finite_float(v)) {
        uint kind = (floatBitsToUint(v) & 0x7fffffu) != 0u ? FIXED_NAN : v > 0.0 ? FIXED_POSITIVE_INF : FIXED_NEGATIVE_INF;
        atomicOr(UintSums(fixed_flags()).v[i], kind);
        return;
    }
    atomicAdd(pc.scratch.v[i], int64_t(round(scale_by_factors(v, fixed_scale))));
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

// The bin's winning sample under MAX: the first largest in-bounds one, against the out-of-bounds
// samples, which count as 0 and the first of which, in order, wins a tie at 0. False when an
// out-of-bounds sample wins (no gradient flows from the bin).
bool max_sample(Region g, uvec4 i, uint plane, out Axis wy, out Axis wx)
{
    uvec2 rows = bin_rows(g, i.z), columns = bin_columns(g, i.w);
    float best = 0.0;
    uvec2 at = uvec2(0u);
    bool found = false;
    for (uint iy = rows.x; iy < rows.y; iy++) {
        Axis y = sample_y(g, i.z, iy);
        for (uint ix = columns.x; ix < columns.y; ix++) {
            Axis x = sample_x(g, i.w, ix);
            float v = read_input(plane, y, x);
            if (!found || v > best) {   // strict: ties keep the first sample
                found = true;
                best = v;
                at = uvec2(iy, ix);
                wy = y;
                wx = x;
            }
        }
    }
    bool all_rows = rows == uvec2(0u, g.ny), all_columns = columns == uvec2(0u, g.nx);
    if (!found || (all_rows && all_columns))
        return found;
    if (best != 0.0)
        return best > 0.0;
    uvec2 first_outside = rows.x > 0u || columns.x > 0u ? uvec2(0u) : !all_columns ? uvec2(0u, columns.y) : uvec2(rows.y, 0u);
    return at.x < first_outside.x || (at.x == first_outside.x && at.y < first_outside.y);
}

void scatter_sample(Region g, uint c, Axis y, Axis x, float share, vec2 fixed_scale)
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

// The fixed point's 2^fixed_exponent as power_of_two_factors, once per invocation.
vec2 fixed_point_scale()
{
#if DMLVK_ATOMICS == 2
    return power_of_two_factors(fixed_exponent());
#else
    return vec2(1.0);
#endif
}

// Bin i's samples, each added into the taps it read.
void scatter_bin(Region g, uvec4 i, vec2 fixed_scale)
{
    float dy = load(pc.dy, bin_offset(i));
    uint plane = g.b * pc.p.in_strides[0] + i.y * pc.p.in_strides[1];
    if (MAXIMUM) {
        Axis y, x;
        if (max_sample(g, i, plane, y, x))
            scatter_sample(g, i.y, y, x, dy, fixed_scale);
        return;
    }
    float share = div_rn(dy, sample_count(g));
    uvec2 rows = bin_rows(g, i.z), columns = bin_columns(g, i.w);
    for (uint iy = rows.x; iy < rows.y; iy++) {
        Axis y = sample_y(g, i.z, iy);
        for (uint ix = columns.x; ix < columns.y; ix++)
            scatter_sample(g, i.y, y, sample_x(g, i.w, ix), share, fixed_scale);
    }
}

// Region r's ROI gradient from the sum of its samples' derivatives.
void store_roi_grad(uint r, vec4 sum)
{
    vec4 t = sum * vec4(pc.p.spatial_x, pc.p.spatial_y, pc.p.spatial_x, pc.p.spatial_y);
    uint base = r * pc.p.roi_grad_strides[0];
    for (uint k = 0u; k < 4u; k++)
        store(pc.roi_grad, base + k * pc.p.roi_grad_strides[1], t[k]);
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

