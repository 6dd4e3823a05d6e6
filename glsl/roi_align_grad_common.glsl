// Shared by the stages of ROI_ALIGN_GRAD (lib/roi_align_grad.c), one shader each:
//   roi_align_grad_zero             clears OutputGradientTensor, or the scratch the scatter adds into;
//   roi_align_grad_max_abs          (deterministic) finds max |dY| to scale the fixed-point sums;
//   roi_align_grad_scatter          one invocation per InputGradient element adds its samples'
//                                   shares into the input gradient;
//   roi_align_grad_scatter_regions  (AVERAGE) one workgroup per region and channels does the same;
//   roi_align_grad_convert          turns the float32 or fixed-point scratch sums into the output;
//   roi_align_grad_prepare          (AVERAGE) copies dY to scratch with the channel fastest and
//                                   lists each region's weights per input row and column, for
//   roi_align_grad_gather           one workgroup per tile of the input gradient sums the regions
//                                   over it and stores each element once: no atomics;
//   roi_align_grad_roi              one workgroup per region sums the ROI coordinates' derivatives.
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
layout(constant_id = ROI_SPEC_COUNT_SKIPPED) const bool COUNT_SKIPPED = false;
// Channels per workgroup: the scatter by regions takes this many of one region; the gather at
// most ROI_GATHER_CHANNELS_MAX, a multiple of ROI_GATHER_CHANNEL_STEP.
layout(constant_id = ROI_SPEC_GROUP_CHANNELS) const uint GROUP_CHANNELS = 0;

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

// OutputGradientTensor's offset of (b, c, y, x).
uint grad_offset(uvec4 i)
{
    return i.x * pc.p.grad_strides[0] + i.y * pc.p.grad_strides[1] + i.z * pc.p.grad_strides[2] + i.w * pc.p.grad_strides[3];
}

uint grad_target(uint b, uint c, uint y, uint x)
{
    if (TO_SCRATCH)
        return ((b * pc.p.channels + c) * pc.p.in_h + y) * pc.p.in_w + x;
    return grad_offset(uvec4(b, c, y, x));
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

// (b, c, y, x) of a packed index over the input's sizes.
uvec4 grad_index(uint e)
{
    uint x = e % pc.p.in_w;
    e /= pc.p.in_w;
    uint y = e % pc.p.in_h;
    e /= pc.p.in_h;
    return uvec4(e / pc.p.channels, e % pc.p.channels, y, x);
}

void count_skipped()
{
    if (COUNT_SKIPPED)
        atomicAdd(pc.counters.v[ROI_COUNTER_SKIPPED_REGIONS], 1u);
}
