#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
// ROI_ALIGN_GRAD: the ROI gradient. roi_grad_parts workgroups per region each reduce a share of
// the region's (channels, bin) items with a fixed tree; with more than one part (TO_SCRATCH) each
// stores its sum to scratch and roi_align_grad_roi_sum adds them in part order: deterministic.
#include "roi_align_grad_common.glsl"

shared vec4 partial[gl_WorkGroupSize.x];

// With INPUT_LAST (AVERAGE, LINEAR) an item is a load of INPUT_LOAD_CHANNELS channels of a bin,
// whose taps it reads from InputTensor's channels-last copy (roi_align_grad_prepare), and
// neighbouring invocations take neighbouring channels.
layout(constant_id = ROI_SPEC_INPUT_LAST) const bool INPUT_LAST = false;
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer InputLoads { uvec4 v[]; };
// InputTensor read in place at an address off 16 bytes: each load as four words.
layout(constant_id = ROI_SPEC_INPUT_ALIGNED) const bool INPUT_ALIGNED = true;
layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer InputWords { uint v[]; };

// Where the gather runs, this stage gets the gather's GROUP_CHANNELS, and its dY shares come
// from the gather's transposed dY in scratch (roi_align_grad_tiles.glsl, at offset 0): one
// 16-byte load per item where NCHW dY took a strided load per channel. Same bits, same sums.
const bool DY_TRANSPOSED = INPUT_LAST && GROUP_CHANNELS != 0u;

// One load's channels.
void unpack_channels(uvec4 bits, out float v[INPUT_LOAD_CHANNELS])
{
#if DMLVK_STORAGE16
    [[unroll]] for (uint k = 0u; k < 4u; k++) {
        vec2 pair = unpack16x2(bits[k]);
        v[2u * k] = pair.x;
        v[2u * k + 1u] = pair.y;
    }
#else
    [[unroll]] for (uint k = 0u; k < 4u; k++)
        v[k] = uintBitsToFloat(bits[k]);
#endif
}

void tap_channels(InputLoads copy, uint at, out float v[INPUT_LOAD_CHANNELS])
{
    if (INPUT_IN_PLACE && !INPUT_ALIGNED) {
        InputWords w = InputWords(copy);
        unpack_channels(uvec4(w.v[4u * at], w.v[4u * at + 1u], w.v[4u * at + 2u], w.v[4u * at + 3u]), v);
    } else {
        unpack_channels(copy.v[at], v);
    }
}

// As the item loop below, for the channels of load v (INPUT_LOAD_CHANNELS from v times that) of
// bin (oy, ox): the channels' shares times each sample's derivatives, summed over the channels
// first.
vec4 channels_roi_grad(Region g, uint r, uint v, uint oy, uint ox)
{
    InputLoads copy = InputLoads(input_copy());
    uint c0 = v * INPUT_LOAD_CHANNELS;
    float share[INPUT_LOAD_CHANNELS];
    if (DY_TRANSPOSED) {
        uint bin = (r * pc.p.out_h + oy) * pc.p.out_w + ox;
        unpack_channels(InputLoads(pc.scratch).v[bin * (gather_stride() / INPUT_LOAD_CHANNELS) + v], share);
        [[unroll]] for (uint k = 0u; k < INPUT_LOAD_CHANNELS; k++)
            share[k] = c0 + k < pc.p.channels ? div_rn(share[k], sample_count(g)) : 0.0;
    } else {
        [[unroll]] for (uint k = 0u; k < INPUT_LOAD_CHANNELS; k++)
            share[k] = c0 + k < pc.p.channels ? div_rn(load(pc.dy, bin_offset(uvec4(r, c0 + k, oy, ox))), sample_count(g)) : 0.0;
    }
    uint loads = input_stride() / INPUT_LOAD_CHANNELS, plane = g.b * pc.p.in_h;
    vec4 sum = vec4(0.0);
    uvec2 rows = bin_rows(g, oy), columns = bin_columns(g, ox);
    for (uint iy = rows.x; iy < rows.y; iy++) {
        Axis y = sample_y(g, oy, iy);
        uint row0 = (plane + y.i0) * pc.p.in_w, row1 = (plane + y.i1) * pc.p.in_w;
        for (uint ix = columns.x; ix < columns.y; ix++) {
            Axis x = sample_x(g, ox, ix);
            float a[INPUT_LOAD_CHANNELS], b[INPUT_LOAD_CHANNELS], c[INPUT_LOAD_CHANNELS], d[INPUT_LOAD_CHANNELS];
            tap_channels(copy, (row0 + x.i0) * loads + v, a);
            tap_channels(copy, (row0 + x.i1) * loads + v, b);
            tap_channels(copy, (row1 + x.i0) * loads + v, c);
            tap_channels(copy, (row1 + x.i1) * loads + v, d);
            float gx = 0.0, gy = 0.0;
            [[unroll]] for (uint k = 0u; k < INPUT_LOAD_CHANNELS; k++) {
                float dvdx = x.clamped ? 0.0 : (1.0 - y.w) * (b[k] - a[k]) + y.w * (d[k] - c[k]);
                float dvdy = y.clamped ? 0.0 : (1.0 - x.w) * (c[k] - a[k]) + x.w * (d[k] - b[k]);
                gx += share[k] * dvdx;
                gy += share[k] * dvdy;
            }
            sum += vec4(gx * (1.0 - x.t), gy * (1.0 - y.t), gx * x.t, gy * y.t);
        }
    }
    return sum;
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

void main()
{
    uint group = workgroup_index();
    // Parts slowest: the workgroups in flight share channels, whose planes stay in cache.
    uint r = group % pc.p.num_rois, part = group / pc.p.num_rois;
    uint lid = gl_LocalInvocationID.x;
    bool live = part < pc.p.roi_grad_parts;
    Region g;
    if (live)
        g = region(r);
    vec4 sum = vec4(0.0);
    if (INPUT_LAST && live && g.valid) {
        uint bins = pc.p.out_h * pc.p.out_w, loads = input_stride() / INPUT_LOAD_CHANNELS, items = loads * bins;
        uint per = (items + pc.p.roi_grad_parts - 1u) / pc.p.roi_grad_parts;
        uint end = min(items, (part + 1u) * per);
        for (uint k = part * per + lid; k < end; k += gl_WorkGroupSize.x) {
            uint bin = k / loads;
            sum += channels_roi_grad(g, r, k - bin * loads, bin / pc.p.out_w, bin % pc.p.out_w);
        }
    } else if (live && g.valid && LINEAR) {
        uint bins = pc.p.out_h * pc.p.out_w, items = (pc.p.channels + CHANNELS - 1u) / CHANNELS * bins;
        uint per = (items + pc.p.roi_grad_parts - 1u) / pc.p.roi_grad_parts;
        uint end = min(items, (part + 1u) * per);
        for (uint k = part * per + lid; k < end; k += gl_WorkGroupSize.x) {
            uint bin = k % bins;
            uvec4 i = uvec4(r, k / bins * CHANNELS, bin / pc.p.out_w, bin % pc.p.out_w);
            uint plane = g.b * pc.p.in_strides[0] + i.y * pc.p.in_strides[1];
            if (MAXIMUM) {  // CHANNELS is 1: each channel has its own winner
                Axis y, x;
                if (max_sample(g, i, plane, y, x))
                    sum += sample_roi_grad(plane, y, x, load(pc.dy, bin_offset(i)));
                continue;
            }
            float share[ROI_MAX_CHANNELS];
            [[unroll]] for (uint c = 0u; c < ROI_MAX_CHANNELS; c++)
                share[c] = c < CHANNELS && i.y + c < pc.p.channels
                               ? div_rn(load(pc.dy, bin_offset(i) + c * pc.p.bin_strides[1]), sample_count(g)) : 0.0;
            uvec2 rows = bin_rows(g, i.z), columns = bin_columns(g, i.w);
            for (uint iy = rows.x; iy < rows.y; iy++) {
                Axis y = sample_y(g, i.z, iy);
                for (uint ix = columns.x; ix < columns.y; ix++) {
                    Axis x = sample_x(g, i.w, ix);
                    [[unroll]] for (uint c = 0u; c < ROI_MAX_CHANNELS; c++)
                        if (c < CHANNELS && i.y + c < pc.p.channels)
                            sum += sample_roi_grad(plane + c * pc.p.in_strides[1], y, x, share[c]);
                }
            }
        }
    }
    // A fixed reduction tree: the same sum run to run.
    partial[lid] = sum;
    barrier();
    for (uint s = tree_top(); s > 0u; s >>= 1u) {
        if (lid < s && lid + s < gl_WorkGroupSize.x)
            partial[lid] += partial[lid + s];
        barrier();
    }
    if (lid != 0u || !live)
        return;
    if (TO_SCRATCH) {
        uint at = 4u * (pc.p.roi_grad_base + r * pc.p.roi_grad_parts + part);
        for (uint k = 0u; k < 4u; k++)
            pc.scratch.v[at + k] = partial[0][k];
    } else {
        store_roi_grad(r, partial[0]);
    }
}
