// ROI_ALIGN1 (lib/roi_align1.c), for roi_align1.comp, roi_align1_rows.comp and, with
// ROI_ALIGN1_RESCUE, roi_align1_rescue.comp (RESCUE below). The walks: a workgroup takes one
// region and GROUP_CHANNELS channels; each invocation reduces whole bins of CHANNELS channels,
// the sample positions and weights shared by its channels, its neighbours on the neighbouring
// bins of one channel (CHANNEL_LANES: on the neighbouring channels of one bin). With
// ROI_ALIGN1_ROWS (float32 where the device shuffles within subgroups) a subgroup's lanes
// instead hold neighbouring sample columns of one sample row, a bin's columns
// then summed by shuffles: each load instruction falls on one input row, where whole bins spread
// a warp's loads over several bin rows (BENCHMARKS.md note 56). Regions whose samples per bin
// along x are not a power of two that fits the subgroup take whole bins. With
// ROI_ALIGN1_SHARED_TAPS, roi_align1_shared_taps.comp: the regions the geometry marked
// ROI_SHARED_TAPS, which the walks then skip, by lists of their bins' taps (takes_shared_taps).
#include "common.glsl"

#include "roi_align_abi.h"
layout(buffer_reference) buffer Scratch;
DMLVK_PUSH(roi_align1_push, ROI_ALIGN1_PUSH)
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Scratch { uvec4 v[]; };

#include "roi_align_common.glsl"
layout(constant_id = ROI_SPEC_GROUP_CHANNELS) const uint GROUP_CHANNELS = 1;

// A sum of finite samples can overflow where its mean does not (float32 inputs near its largest,
// or OutOfBoundsInputValue's share). Where RESCUE, an AVERAGE bin whose sum is not finite flags its
// region (a word at rescue_base in scratch), and roi_align1_rescue.comp, dispatched next, sums the
// bins of such a region whose stored result is not finite again: every sample and
// OutOfBoundsInputValue times 2^-shift, enough for the bin's count (exact: powers of two do not
// round in the normal range), its mean scaled back; Inf and NaN samples give Inf and NaN all the
// same. A dispatch of its own, because anything the walks' loops carry or keep for a second sum
// took the sample-rows walk from 32 registers to 40 or more and slowed it (BENCHMARKS.md note 89);
// the flag is set in a branch taken only there.
layout(constant_id = ROI_SPEC_RESCUE) const bool RESCUE = false;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer RescueFlags { uint w[]; };

int overflow_shift(Region g)
{
    int e;
    frexp(sample_count(g) + 1.0, e);
    return e + 1;
}

// AVERAGE: a bin's sum times 2^-shift from acc, the sum of its `inside` in-bounds samples times
// 2^-shift, and OutOfBoundsInputValue's share.
float bin_sum(Region g, float acc, float inside, int shift)
{
    float total = sample_count(g);
    float oob = shift == 0 ? pc.p.oob_value : scale_by_power_of_two(pc.p.oob_value, -shift);
    precise float sum = inside < total ? acc + (total - inside) * oob : acc;
    return sum;
}

// The result of a bin from the sum (or maximum) of its `inside` in-bounds samples, under AVERAGE
// their sum times 2^-shift.
float bin_result(Region g, float acc, float inside, int shift)
{
    if (MAXIMUM)
        return inside == 0.0 ? pc.p.oob_value : inside < sample_count(g) ? max(acc, pc.p.oob_value) : acc;
    float mean = div_rn_by_count(bin_sum(g, acc, inside, shift), sample_count(g));
    return shift == 0 ? mean : scale_by_power_of_two(mean, shift);
}

// Region r's flag, in words of scratch.
uint rescue_flag(uint r)
{
    return 4u * pc.p.rescue_base + r;
}

#if ROI_ALIGN1_RESCUE
// Bin (oy, ox) of channel c of a flagged region again from sums scaled by 2^-overflow_shift, where
// its stored result is not finite.
void rescue_bin(Region g, uint r, uint c, uint oy, uint ox)
{
    uint i = bin_offset(uvec4(r, c, oy, ox));
    if (finite_float(load(pc.y, i)))
        return;
    uvec2 rows = bin_rows(g, oy), columns = bin_columns(g, ox);
    int shift = overflow_shift(g);
    float scale = scale_by_power_of_two(1.0, -shift), acc = 0.0;
    uint plane = g.b * pc.p.in_strides[0] + c * pc.p.in_strides[1];
    for (uint iy = rows.x; iy < rows.y; iy++) {
        Axis y = sample_y(g, oy, iy);
        for (uint ix = columns.x; ix < columns.y; ix++)
            acc += read_input(plane, y, sample_x(g, ox, ix)) * scale;
    }
    float inside = float(rows.y - rows.x) * float(columns.y - columns.x);
    store(pc.y, i, bin_result(g, acc, inside, shift));
}

// A workgroup per region: where the walks flagged it, its bins again (rescue_bin), then the flag
// cleared for the next execution. A flag that new scratch holds costs one such search.
void main()
{
    uint r = workgroup_index();
    if (r >= pc.p.num_rois)
        return;
    uint flag = RescueFlags(pc.scratch).w[rescue_flag(r)];
    barrier();    // every invocation has read the flag before it is cleared
    if (flag == 0u)
        return;
    Region g = region(r);
    uint bins = pc.p.out_h * pc.p.out_w;
    if (g.valid)
        for (uint j = gl_LocalInvocationID.x; j < pc.p.channels * bins; j += gl_WorkGroupSize.x)
            rescue_bin(g, r, j / bins, j % bins / pc.p.out_w, j % pc.p.out_w);
    if (gl_LocalInvocationIndex == 0u)
        RescueFlags(pc.scratch).w[rescue_flag(r)] = 0u;
}
#else
// Stores a walk's result of bin i (region, channel, oy, ox) where `mine`; with RESCUE, flags the
// region where the bin's sum is not finite.
void store_bin(Region g, uvec4 i, float acc, float inside, bool mine)
{
    if (!mine)
        return;
    store(pc.y, bin_offset(i), bin_result(g, acc, inside, 0));
    if (RESCUE && !finite_float(bin_sum(g, acc, inside, 0)))
        atomicOr(RescueFlags(pc.scratch).w[rescue_flag(i.x)], 1u);
}

// Bin (oy, ox) of CHANNELS channels from c0, in one invocation.
void whole_bin(Region g, uint r, uint c0, uint oy, uint ox)
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
    [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++) {
        if (k < CHANNELS && c0 + k < pc.p.channels) {
            if (g.valid)
                store_bin(g, uvec4(r, c0 + k, oy, ox), acc[k], inside, true);
            else
                store(pc.y, bin_offset(uvec4(r, c0 + k, oy, ox)), pc.p.oob_value);
        }
    }
}

// Regions the geometry marked ROI_SHARED_TAPS take roi_align1_shared_taps where the plan has it
// (SHARED_TAPS_APART, AVERAGE), the other walks skip them.
layout(constant_id = ROI_SPEC_SHARED_TAPS_APART) const bool SHARED_TAPS_APART = false;

bool takes_shared_taps(Region g)
{
    return SHARED_TAPS_APART && (g.decreasing & ROI_SHARED_TAPS) != 0u;
}

#if ROI_ALIGN1_SHARED_TAPS
// The region's bins' taps per axis (0: x, 1: y), bin k of an axis with n samples per bin from entry
// 2nk (at most two taps per sample): the tap and the bits of its weight, the sum of the bin's
// samples' weights on it. A bin's sum is then the sum over its tap rows of the row's weight times
// the row's columns weighed by theirs, each pixel loaded once.
shared uvec2 listed_taps[2][ROI_SHARED_TAPS_ENTRIES];
shared uint listed_count[2][ROI_SHARED_TAPS_BINS];

// Adds weight w on tap i to the list of axis a from `first` holding `count` entries: onto one of its
// last three taps where one is i (samples move one way, so a tap recurs among those), else as a new
// entry. Returns the new count.
uint list_tap(uint a, uint first, uint count, uint i, float w)
{
    for (uint back = 1u; back <= min(count, 3u); back++) {
        uvec2 e = listed_taps[a][first + count - back];
        if (e.x == i) {
            listed_taps[a][first + count - back].y = floatBitsToUint(uintBitsToFloat(e.y) + w);
            return count;
        }
    }
    listed_taps[a][first + count] = uvec2(i, floatBitsToUint(w));
    return count + 1u;
}

// Lists bin k's taps along axis a; a tap of weight 0 takes no part, as in weigh_taps.
void list_bin_taps(Region g, uint a, uint k)
{
    uint n = a == 0u ? g.nx : g.ny, first = 2u * n * k, count = 0u;
    uvec2 window = a == 0u ? bin_columns(g, k) : bin_rows(g, k);
    for (uint j = window.x; j < window.y; j++) {
        Axis s = a == 0u ? sample_x(g, k, j) : sample_y(g, k, j);
        count = list_tap(a, first, count, s.i0, 1.0 - s.w);
        if (s.w != 0.0)
            count = list_tap(a, first, count, s.i1, s.w);
    }
    listed_count[a][k] = count;
}

// Bin (oy, ox) of CHANNELS channels from c0 by its listed taps, in one invocation.
void listed_bin(Region g, uint r, uint c0, uint oy, uint ox)
{
    float acc[ROI_MAX_CHANNELS];
    [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++)
        acc[k] = 0.0;
    uint plane = g.b * pc.p.in_strides[0] + c0 * pc.p.in_strides[1];
    uint first_x = 2u * g.nx * ox, columns = listed_count[0][ox];
    uint first_y = 2u * g.ny * oy, rows = listed_count[1][oy];
    for (uint j = 0u; j < rows; j++) {
        uvec2 tap_y = listed_taps[1][first_y + j];
        uint row = plane + tap_y.x * pc.p.in_strides[2];
        float row_sum[ROI_MAX_CHANNELS];
        [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++)
            row_sum[k] = 0.0;
        for (uint i = 0u; i < columns; i++) {
            uvec2 tap_x = listed_taps[0][first_x + i];
            uint at = row + tap_x.x * pc.p.in_strides[3];
            float w = uintBitsToFloat(tap_x.y);
            [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++)
                if (k < CHANNELS && c0 + k < pc.p.channels)
                    row_sum[k] += w * load(pc.x, at + k * pc.p.in_strides[1]);
        }
        [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++)
            acc[k] += uintBitsToFloat(tap_y.y) * row_sum[k];
    }
    uvec2 window_y = bin_rows(g, oy), window_x = bin_columns(g, ox);
    float inside = float(window_y.y - window_y.x) * float(window_x.y - window_x.x);
    [[unroll]] for (uint k = 0u; k < ROI_MAX_CHANNELS; k++)
        if (k < CHANNELS && c0 + k < pc.p.channels)
            store_bin(g, uvec4(r, c0 + k, oy, ox), acc[k], inside, true);
}
#endif

// The invocation's whole bins of the workgroup's region and channels: neighbouring invocations
// take neighbouring bins of a channel or, with CHANNEL_LANES, neighbouring channels of a bin.
void whole_bins(Region g, uint r, uint c_first, uint c_end)
{
    uint bins = pc.p.out_h * pc.p.out_w, sets = (c_end - c_first + CHANNELS - 1u) / CHANNELS, jobs = sets * bins;
    for (uint j = gl_LocalInvocationID.x; j < jobs; j += gl_WorkGroupSize.x) {
        uvec2 job = whole_bins_job(j, sets, bins);
#if ROI_ALIGN1_SHARED_TAPS
        listed_bin(g, r, c_first + job.x * CHANNELS, job.y / pc.p.out_w, job.y % pc.p.out_w);
#else
        whole_bin(g, r, c_first + job.x * CHANNELS, job.y / pc.p.out_w, job.y % pc.p.out_w);
#endif
    }
}

#if ROI_ALIGN1_ROWS
// The subgroup's bins by sample rows (main's lanes: lane t of `lanes`), stored by each bin's
// first lane.
void rows_walk(Region g, uint r, uint c_first, uint c_end, uint t, uint lanes)
{
    uint nx = g.nx;
    // Lane t: sample ix of bin column ox for lane group k's CHANNELS channels: a bin row's sample
    // columns take `width` lanes (a power of two), up to the subgroup, which takes as many
    // groups as it holds widths.
    uint columns_all = pc.p.out_w >= lanes ? lanes : pc.p.out_w * nx;    // no overflow: nx <= lanes
    uint width = columns_all >= lanes ? lanes : 1u << findMSB(2u * columns_all - 1u);
    uint per_subgroup = lanes / width, per_pass = width / nx;
    uint k = t / width, u = t % width, ix = u % nx, step = gl_NumSubgroups * per_subgroup * CHANNELS;
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
                [[unroll]] for (uint m = 0u; m < ROI_MAX_CHANNELS; m++) {
                    if (m >= CHANNELS)
                        break;
                    // The bin's columns in lane order: the same sums in every run.
                    for (uint s = 1u; s < nx; s <<= 1)
                        acc[m] += subgroupShuffleXor(acc[m], s);
                    store_bin(g, uvec4(r, c0 + m, oy, ox), acc[m], inside, ix == 0u && ox < pc.p.out_w && c0 + m < c_end);
                }
            }
        }
    }
}
#endif

#if ROI_ALIGN1_SHARED_TAPS
layout(constant_id = ROI_SPEC_SHARED_TAPS_SLOTS) const uint SHARED_TAPS_SLOTS = 1;
shared uint marked[(gl_WorkGroupSize.x + 31u) / 32u];

// Workgroup (slot, channel group) takes the marked regions among slot, slot + SHARED_TAPS_SLOTS,
// ..., looking at a workgroup's worth of them at once: a few workgroups, which cost little where
// no region is marked, in place of one per region and channel group as the other walks.
void main()
{
    uint group = workgroup_index(), lid = gl_LocalInvocationID.x;
    uint slot = group % SHARED_TAPS_SLOTS, c_first = group / SHARED_TAPS_SLOTS * GROUP_CHANNELS;
    if (c_first >= pc.p.channels || slot >= pc.p.num_rois)
        return;
    uint c_end = min(c_first + GROUP_CHANNELS, pc.p.channels);
    const uint words = (gl_WorkGroupSize.x + 31u) / 32u, per_round = SHARED_TAPS_SLOTS * gl_WorkGroupSize.x;
    for (uint first = slot;;) {
        barrier();     // the last round's bits are read
        if (lid < words)
            marked[lid] = 0u;
        barrier();
        uint candidates = (pc.p.num_rois - first - 1u) / SHARED_TAPS_SLOTS + 1u;
        if (lid < candidates && takes_shared_taps(region(first + lid * SHARED_TAPS_SLOTS)))
            atomicOr(marked[lid / 32u], 1u << (lid % 32u));
        barrier();
        for (uint w = 0u; w < words; w++) {
            for (uint bits = marked[w]; bits != 0u; bits &= bits - 1u) {
                uint r = first + (32u * w + uint(findLSB(bits))) * SHARED_TAPS_SLOTS;
                Region g = region(r);
                for (uint k = lid; k < pc.p.out_w + pc.p.out_h; k += gl_WorkGroupSize.x)
                    list_bin_taps(g, k < pc.p.out_w ? 0u : 1u, k < pc.p.out_w ? k : k - pc.p.out_w);
                barrier();
                whole_bins(g, r, c_first, c_end);
                barrier();     // the lists are read
            }
        }
        if (pc.p.num_rois - first <= per_round)
            break;
        first += per_round;
    }
}
#else
void main()
{
    uint group = workgroup_index();
    uint r = group % pc.p.num_rois, c_first = group / pc.p.num_rois * GROUP_CHANNELS;
    if (c_first >= pc.p.channels)
        return;
    uint c_end = min(c_first + GROUP_CHANNELS, pc.p.channels);
    Region g = region(r);
    if (takes_shared_taps(g))
        return;
#if ROI_ALIGN1_ROWS
    // Lanes by their rank among the present ones; shuffles pair lanes by their ids, so sample
    // rows need the present lanes to be the first ones.
    uvec4 present = subgroupBallot(true);
    uint lanes = subgroupBallotBitCount(present), t = subgroupBallotExclusiveBitCount(present), nx = g.nx;
    if (!(MAXIMUM || !g.valid || nx == 0u || nx > lanes || (nx & (nx - 1u)) != 0u || !subgroupAll(t == gl_SubgroupInvocationID))) {
        rows_walk(g, r, c_first, c_end, t, lanes);
        return;
    }
#endif
    whole_bins(g, r, c_first, c_end);
}
#endif
#endif
