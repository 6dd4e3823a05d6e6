// Shared by ROI_ALIGN1 and ROI_ALIGN_GRAD: the regions' sample grids (roi_align_table.glsl) and
// the reads of the input. The including shader declares the push constants (roi_align_abi.h) first.
#include "roi_align_table.glsl"

// Channels per invocation where a stage takes several (ROI_ALIGN1, the ROI gradient).
layout(constant_id = ROI_SPEC_CHANNELS) const uint CHANNELS = 1;
// Where a stage's whole bins put neighbouring invocations on neighbouring channels of a bin
// (ROI_ALIGN1, the MAX scatter; input whose channels lie closer than its columns, as NHWC), so
// that a warp's tap is one contiguous read.
layout(constant_id = ROI_SPEC_CHANNEL_LANES) const bool CHANNEL_LANES = false;

// Job j of whole bins over `sets` sets of channels and `bins` bins: (set, bin), by CHANNEL_LANES.
uvec2 whole_bins_job(uint j, uint sets, uint bins)
{
    return CHANNEL_LANES ? uvec2(j % sets, j / sets) : uvec2(j / bins, j % bins);
}

// a and b weighted by 1 - w and w; a tap of weight 0 takes no part (its value, which may be Inf
// or NaN, is selected away). Under MAX, where a sample's value decides which sample wins, equal
// taps give their value exactly: samples that tie in real arithmetic (on a flat neighbourhood)
// then tie in float32 too, and the first wins, where float32's 1 - w and w need not sum to 1.
float weigh_taps(float a, float b, float w)
{
    return w == 0.0 || (MAXIMUM && a == b) ? a : (1.0 - w) * a + w * b;
}

// The input at a sample: the bilinear (or nearest) read. All four taps (in bounds) load at once.
float read_input(uint plane, Axis y, Axis x)
{
    uint r0 = plane + y.i0 * pc.p.in_strides[2], r1 = plane + y.i1 * pc.p.in_strides[2];
    uint c0 = x.i0 * pc.p.in_strides[3], c1 = x.i1 * pc.p.in_strides[3];
    float a = load(pc.x, r0 + c0), b = load(pc.x, r0 + c1), c = load(pc.x, r1 + c0), d = load(pc.x, r1 + c1);
    return weigh_taps(weigh_taps(a, b, x.w), weigh_taps(c, d, x.w), y.w);
}

// (r, c, oy, ox) of a packed index over {NumROIs, ChannelCount, OutH, OutW}.
uvec4 bin_index(uint e)
{
    uint ox = e % pc.p.out_w;
    e /= pc.p.out_w;
    uint oy = e % pc.p.out_h;
    e /= pc.p.out_h;
    return uvec4(e / pc.p.channels, e % pc.p.channels, oy, ox);
}

uint bin_offset(uvec4 i)
{
    return i.x * pc.p.bin_strides[0] + i.y * pc.p.bin_strides[1] + i.z * pc.p.bin_strides[2] + i.w * pc.p.bin_strides[3];
}
