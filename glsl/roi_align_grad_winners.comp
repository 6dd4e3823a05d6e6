#version 460
#extension GL_GOOGLE_include_directive : require
// ROI_ALIGN_GRAD under MAX: the first pass of the gather by tiles (roi_align_grad_tiles.glsl) in
// place of dY's transposition. Each bin's winning sample per channel (max_sample, the scatter's
// own choice), as a record in [region][bin][channel] order: dY where a sample wins (else 0), the
// winner's first taps (row << 16 | column) and its weights on the second ones (float bits).
#include "roi_align_grad_common.glsl"

#include "roi_align_grad_tiles.glsl"

const uint T = ROI_TRANSPOSE_CHANNELS;    // channels and bins per block
// Unpadded, so that the block fits Vulkan's minimum 16 KiB of shared memory; the bins are swizzled
// by channel instead, so that neither pass's accesses meet in one bank.
shared uvec4 winner_block[T][T];

uint swizzled(uint channel, uint bin)
{
    return bin ^ (channel & 7u);
}

void main()
{
    uint group = workgroup_index(), lid = gl_LocalInvocationID.x;
    uint bins = pc.p.out_h * pc.p.out_w, stride = gather_stride(), channel_blocks = (stride + T - 1u) / T;
    if (group >= pc.p.num_rois * channel_blocks)
        return;
    uint c0 = (group % channel_blocks) * T, r = group / channel_blocks;
    Region g = region(r);
    for (uint bin0 = 0u; bin0 < bins; bin0 += T) {
        // Neighbouring invocations on neighbouring bins of one channel (their samples share cache
        // lines), then through shared memory to records with the channel fastest.
        for (uint i = lid; i < T * T; i += gl_WorkGroupSize.x) {
            uint c = c0 + i / T, bin = bin0 + i % T;
            uvec4 record = uvec4(0u);
            if (g.valid && c < pc.p.channels && bin < bins) {
                uvec4 at = uvec4(r, c, bin / pc.p.out_w, bin % pc.p.out_w);
                Axis y, x;
                if (max_sample(g, at, g.b * pc.p.in_strides[0] + c * pc.p.in_strides[1], y, x))
                    record = uvec4(floatBitsToUint(load(pc.dy, bin_offset(at))), y.i0 << 16 | x.i0,
                                   floatBitsToUint(y.w), floatBitsToUint(x.w));
            }
            winner_block[i / T][swizzled(i / T, i % T)] = record;
        }
        barrier();
        for (uint i = lid; i < T * T; i += gl_WorkGroupSize.x) {
            uint c = c0 + i % T, bin = bin0 + i / T;
            if (c < stride && bin < bins)
                ScratchUvec4(pc.scratch).v[(r * bins + bin) * stride + c] = winner_block[i % T][swizzled(i % T, i / T)];
        }
        barrier();
    }
}
