// ROI_ALIGN1 (lib/roi_align1.c), for roi_align1.comp and roi_align1_rows.comp: a workgroup takes
// one region and GROUP_CHANNELS channels. Each invocation reduces whole bins of CHANNELS
// channels, the sample positions and weights shared by its channels, its neighbours on the
// neighbouring bins of one channel. With ROI_ALIGN1_ROWS (float32 where the device shuffles
// within subgroups) a subgroup's lanes instead hold neighbouring sample columns of one sample
// row, a bin's columns then summed by shuffles: each load instruction falls on one input row,
// where whole bins spread a warp's loads over several bin rows (BENCHMARKS.md note 56). Regions
// whose samples per bin along x are not a power of two that fits the subgroup take whole bins.
#include "common.glsl"

#include "roi_align_abi.h"
layout(buffer_reference) buffer Scratch;
DMLVK_PUSH(roi_align1_push, ROI_ALIGN1_PUSH)
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Scratch { uvec4 v[]; };

#include "roi_align_common.glsl"
layout(constant_id = ROI_SPEC_GROUP_CHANNELS) const uint GROUP_CHANNELS = 1;

// A sum of finite samples can overflow where their mean does not (float32 inputs near its
// largest, or OutOfBoundsInputValue's share): an AVERAGE bin whose result is not finite is
// summed again with every sample and OutOfBoundsInputValue times 2^-shift, enough for the bin's
// count (exact: powers of two do not round in the normal range), and its mean scaled back; Inf
// and NaN samples give Inf and NaN all the same. That second sum is a second walk over the
// invocation's bins (`rescue`) where the first found any, so that the first walk's loops keep
// their shape (BENCHMARKS.md note 87).
int overflow_shift(Region g)
{
    int e;
    frexp(sample_count(g) + 1.0, e);
    return e + 1;
}

// The result of a bin from the sum (or maximum) of its `inside` in-bounds samples, under AVERAGE
// their sum times 2^-shift.
float bin_result(Region g, float acc, float inside, int shift)
{
    float total = sample_count(g);
    if (MAXIMUM)
        return inside == 0.0 ? pc.p.oob_value : inside < total ? max(acc, pc.p.oob_value) : acc;
    float oob = shift == 0 ? pc.p.oob_value : scale_by_power_of_two(pc.p.oob_value, -shift);
    precise float sum = inside < total ? acc + (total - inside) * oob : acc;
    float mean = div_rn_by_count(sum, total);
    return shift == 0 ? mean : scale_by_power_of_two(mean, shift);
}

// Bin (oy, ox) of CHANNELS channels from c0, in one invocation: true where an AVERAGE result is
// not finite. With `rescue`, such channels again from sums scaled by 2^-overflow_shift.
bool whole_bin(Region g, uint r, uint c0, uint oy, uint ox, bool rescue)
{
    float acc[ROI_MAX_CHANNELS];
    [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++)
        acc[k] = 0.0;
    uvec2 rows = g.valid ? bin_rows(g, oy) : uvec2(0u), columns = g.valid ? bin_columns(g, ox) : uvec2(0u);
    uint plane = g.b * pc.p.in_strides[0] + c0 * pc.p.in_strides[1];
    for (uint iy = rows.x; iy < rows.y; iy++) {
        Axis y = sample_y(g, oy, iy);
        for (uint ix = columns.x; ix < columns.y; ix++) {
            Axis x = sample_x(g, ox, ix);
            bool first = iy == rows.x && ix == columns.x;
            [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++) {
                if (k < CHANNELS && c0 + k < pc.p.channels) {
                    float v = read_input(plane + k * pc.p.in_strides[1], y, x);
                    if (!MAXIMUM)
                        acc[k] += v;
                    else if (first || v > acc[k])
                        acc[k] = v;
                }
            }
        }
    }
    float inside = float(rows.y - rows.x) * float(columns.y - columns.x);
    bool over[ROI_MAX_CHANNELS], any = false;
    [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++) {
        over[k] = false;
        if (k < CHANNELS && c0 + k < pc.p.channels) {
            float result = g.valid ? bin_result(g, acc[k], inside, 0) : pc.p.oob_value;
            over[k] = !MAXIMUM && g.valid && !finite_float(result);
            any = any || over[k];
            if (!rescue)
                store(pc.y, bin_offset(uvec4(r, c0 + k, oy, ox)), result);
        }
    }
    if (!rescue || !any)
        return any;
    int shift = overflow_shift(g);
    float scale = scale_by_power_of_two(1.0, -shift);
    [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++)
        acc[k] = 0.0;
    for (uint iy = rows.x; iy < rows.y; iy++) {
        Axis y = sample_y(g, oy, iy);
        for (uint ix = columns.x; ix < columns.y; ix++) {
            Axis x = sample_x(g, ox, ix);
            [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++)
                if (k < CHANNELS && c0 + k < pc.p.channels)
                    acc[k] += read_input(plane + k * pc.p.in_strides[1], y, x) * scale;
        }
    }
    [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++)
        if (over[k])
            store(pc.y, bin_offset(uvec4(r, c0 + k, oy, ox)), bin_result(g, acc[k], inside, shift));
    return true;
}

// The invocation's whole bins of the workgroup's region and channels: true where one's AVERAGE
// result is not finite (whole_bin).
bool whole_bins(Region g, uint r, uint c_first, uint c_end, bool rescue)
{
    uint bins = pc.p.out_h * pc.p.out_w, jobs = (c_end - c_first + CHANNELS - 1u) / CHANNELS * bins;
    bool any = false;
    for (uint j = gl_LocalInvocationID.x; j < jobs; j += gl_WorkGroupSize.x) {
        uint b = j % bins;
        if (whole_bin(g, r, c_first + j / bins * CHANNELS, b / pc.p.out_w, b % pc.p.out_w, rescue))
            any = true;
    }
    return any;
}

#if ROI_ALIGN1_ROWS
// The subgroup's bins by sample rows (main's lanes: lane t of `lanes`), stored by each bin's
// first lane: true where one's AVERAGE result is not finite. With `rescue`, such bins again
// from sums scaled by 2^-overflow_shift, the whole subgroup together for its shuffles (a bin's
// lanes share its count, so its shift).
bool rows_walk(Region g, uint r, uint c_first, uint c_end, uint t, uint lanes, bool rescue)
{
    uint nx = g.nx;
    // Lane t: sample ix of bin column ox for lane group k's CHANNELS channels: a bin row's sample
    // columns take `width` lanes (a power of two), up to the subgroup, which takes as many
    // groups as it holds widths.
    uint columns_all = pc.p.out_w >= lanes ? lanes : pc.p.out_w * nx;    // no overflow: nx <= lanes
    uint width = columns_all >= lanes ? lanes : 1u << findMSB(2u * columns_all - 1u);
    uint per_subgroup = lanes / width, per_pass = width / nx;
    uint k = t / width, u = t % width, ix = u % nx, step = gl_NumSubgroups * per_subgroup * CHANNELS;
    bool any = false;
    for (uint first = c_first + gl_SubgroupID * per_subgroup * CHANNELS; first < c_end; first += step) {
        uint c0 = first + k * CHANNELS;
        uint plane = g.b * pc.p.in_strides[0] + c0 * pc.p.in_strides[1];
        for (uint ox0 = 0u; ox0 < pc.p.out_w; ox0 += per_pass) {
            uint ox = c0 < c_end ? ox0 + u / nx : pc.p.out_w;
            uvec2 columns = ox < pc.p.out_w ? bin_columns(g, ox) : uvec2(0u);
            bool sampled = ix >= columns.x && ix < columns.y;
            Axis x;
            if (sampled)
                x = sample_x(g, ox, ix);
            for (uint oy = 0u; oy < pc.p.out_h; oy++) {
                uvec2 rows = bin_rows(g, oy);
                float acc[ROI_MAX_CHANNELS];
                [[unroll]] for (uint m = 0u; m < ROI_MAX_CHANNELS; m++)
                    acc[m] = 0.0;
                // Two sample rows at a time, so that their loads are in flight together (the sums in
                // row order all the same). Counted from the end: rows.y may be 2^32 - 1.
                uint iy = rows.x;
                for (; rows.y - iy >= 2u; iy += 2u) {
                    Axis y0 = sample_y(g, oy, iy), y1 = sample_y(g, oy, iy + 1u);
                    [[unroll]] for (uint m = 0u; m < ROI_MAX_CHANNELS; m++) {
                        if (m < CHANNELS && sampled && c0 + m < c_end) {
                            float v0 = read_input(plane + m * pc.p.in_strides[1], y0, x);
                            float v1 = read_input(plane + m * pc.p.in_strides[1], y1, x);
                            acc[m] += v0;
                            acc[m] += v1;
                        }
                    }
                }
                if (iy < rows.y) {
                    Axis y = sample_y(g, oy, iy);
                    [[unroll]] for (uint m = 0u; m < ROI_MAX_CHANNELS; m++)
                        if (m < CHANNELS && sampled && c0 + m < c_end)
                            acc[m] += read_input(plane + m * pc.p.in_strides[1], y, x);
                }
                float inside = float(rows.y - rows.x) * float(columns.y - columns.x);
                bool over[ROI_MAX_CHANNELS], here = false;
                [[unroll]] for (uint m = 0u; m < ROI_MAX_CHANNELS; m++) {
                    over[m] = false;
                    if (m >= CHANNELS)
                        break;
                    // The bin's columns in lane order: the same sums in every run.
                    for (uint s = 1u; s < nx; s <<= 1)
                        acc[m] += subgroupShuffleXor(acc[m], s);
                    float result = bin_result(g, acc[m], inside, 0);
                    bool mine = ix == 0u && ox < pc.p.out_w && c0 + m < c_end;
                    over[m] = mine && !finite_float(result);
                    here = here || over[m];
                    if (!rescue && mine)
                        store(pc.y, bin_offset(uvec4(r, c0 + m, oy, ox)), result);
                }
                any = any || here;
                if (!rescue || !subgroupAny(here))
                    continue;
                int shift = overflow_shift(g);
                float scale = scale_by_power_of_two(1.0, -shift);
                [[unroll]] for (uint m = 0u; m < ROI_MAX_CHANNELS; m++) {
                    if (m >= CHANNELS)
                        break;
                    acc[m] = 0.0;
                    for (uint iy = rows.x; iy < rows.y; iy++)
                        if (sampled && c0 + m < c_end)
                            acc[m] += read_input(plane + m * pc.p.in_strides[1], sample_y(g, oy, iy), x) * scale;
                    for (uint s = 1u; s < nx; s <<= 1)
                        acc[m] += subgroupShuffleXor(acc[m], s);
                    if (over[m])
                        store(pc.y, bin_offset(uvec4(r, c0 + m, oy, ox)), bin_result(g, acc[m], inside, shift));
                }
            }
        }
    }
    return any;
}
#endif

void main()
{
    uint group = workgroup_index();
    uint r = group % pc.p.num_rois, c_first = group / pc.p.num_rois * GROUP_CHANNELS;
    if (c_first >= pc.p.channels)
        return;
    uint c_end = min(c_first + GROUP_CHANNELS, pc.p.channels);
    Region g = region(r);
#if ROI_ALIGN1_ROWS
    // Lanes by their rank among the present ones; shuffles pair lanes by their ids, so sample
    // rows need the present lanes to be the first ones.
    uvec4 present = subgroupBallot(true);
    uint lanes = subgroupBallotBitCount(present), t = subgroupBallotExclusiveBitCount(present), nx = g.nx;
    if (!(MAXIMUM || !g.valid || nx == 0u || nx > lanes || (nx & (nx - 1u)) != 0u || !subgroupAll(t == gl_SubgroupInvocationID))) {
        if (subgroupAny(rows_walk(g, r, c_first, c_end, t, lanes, false)))
            rows_walk(g, r, c_first, c_end, t, lanes, true);
        return;
    }
#endif
    if (whole_bins(g, r, c_first, c_end, false))
        whole_bins(g, r, c_first, c_end, true);
}
