// The gather by tiles. Under AVERAGE, input gradient element (y, x) of channel c receives, from each
// region over it, sum over bins (ky, kx) of Wy[y][ky] * Wx[x][kx] * dY[ky][kx] / samples, where Wy
// sums the tap weights that bin row ky's samples put on row y (Wx likewise): a region's samples
// sit on a grid. A first pass (roi_align_grad_prepare) copies dY to scratch as
// [region][ky][kx][channel], so that a bin's channels are one contiguous read, and lists each
// region's Wy / samples for every row and Wx for every column (up to LINE_BINS bins in the line
// itself, more in the region's pool), and where each region reaches. Then a workgroup owns a
// TILE_H x TILE_W tile of GROUP_CHANNELS channels, finds the regions over the tile and
// accumulates their terms in registers, in region order (where STAGED, reading the regions' lines
// from shared memory, a chunk of regions at a time; otherwise without barriers) (where ROWS, the sums
// then pass through shared memory, so that each invocation stores 16 bytes of a tile row, with
// neighbouring invocations on neighbouring bytes). QUADS invocations
// share an element, each loading 16 bytes of a bin's channels at once (4 of float32, 8 of a 16-bit
// type): neighbouring invocations read neighbouring bytes, and neighbouring elements mostly the
// same bins. On small maps SPLITS invocations per element and channels each walk every SPLITS-th
// region, so that each walk is shorter, and their sums meet in shared memory; under many regions
// PARTS of consecutive regions walk the same tiles in workgroups of their own, each storing its
// sums to scratch for roi_align_grad_convert to add. Under MAX the same
// lines name the bins whose samples reach the element, and each channel's record says whether
// its winner tapped it (no weights in the lines are used).
layout(constant_id = ROI_SPEC_GATHER_QUADS) const uint QUADS = ROI_GATHER_QUADS;
layout(constant_id = ROI_SPEC_GATHER_SPLITS) const uint SPLITS = 1u;
layout(constant_id = ROI_SPEC_GATHER_ROWS) const bool ROWS = false;
layout(constant_id = ROI_SPEC_GATHER_TILE_W) const uint MOST_TILE_W = ROI_GATHER_TILE_W;
const uint TILE_INVOCATIONS = gl_WorkGroupSize.x / SPLITS;    // one share of the regions each
const uint TILE_PIXELS = TILE_INVOCATIONS / QUADS;
const uint TILE_W = TILE_PIXELS < MOST_TILE_W ? TILE_PIXELS : MOST_TILE_W;
const uint TILE_H = TILE_PIXELS / TILE_W;
// A line is a uvec4: its bins' weights (the first word: where they start in the pool, past
// LINE_BINS of them), then a header, count << 16 | first bin.
const uint LINE_BINS = ROI_LINE_BINS;
const uint NO_BIN = 0xffffffffu;
// The gather scans the regions' reach SCAN_REGIONS regions per invocation at a time.
layout(constant_id = ROI_SPEC_GATHER_SCAN) const uint SCAN_REGIONS = 1u;
layout(constant_id = ROI_SPEC_GATHER_POOL_STEP) const uint POOL_STEP = 1u;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer ScratchVec4 { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer ScratchUvec4 { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer ScratchFloat { float v[]; };

// Scratch: the transposed dY in the tensors' type (16-bit types as their bits; under MAX a uvec4
// record per channel, roi_align_grad_winners), then a uvec4 per line (ROI_LINES_VEC4), then the
// regions' records (regions_vec4), then their pools (pool_word).
#if ROI_MODES_AT_RUN_TIME
// (the geometry stage loads no dY)
#elif DMLVK_STORAGE16
const uint LOAD_CHANNELS = MAXIMUM ? ROI_GATHER_LOAD_BYTES / ROI_WINNER_BYTES : ROI_GATHER_LOAD_BYTES / 2u;
#else
const uint LOAD_CHANNELS = MAXIMUM ? ROI_GATHER_LOAD_BYTES / ROI_WINNER_BYTES : ROI_GATHER_LOAD_BYTES / 4u;
#endif

uint line_count()
{
    return pc.p.num_rois * (pc.p.in_h + pc.p.in_w);
}

uint lines_vec4()
{
#if ROI_KEPT_TABLE
    return pc.p.lines_base;
#else
    return ROI_LINES_VEC4(pc.p.num_rois * pc.p.out_h * pc.p.out_w * gather_stride(), LOAD_CHANNELS);
#endif
}

// Then two uvec4 per region: the rows and columns its taps may reach (first, last, first,
// last), and its batch index (NO_BIN where out of range).
uint regions_vec4()
{
    return lines_vec4() + line_count();
}

// ROI_GRAD (roi_align_abi.h, ROI_DERIVATIVE_LINE_VEC4): the lines carry derivatives as well, and
// after the pools come the derivative lines, then the derivative pools.
layout(constant_id = ROI_SPEC_GATHER_ROI_GRAD) const bool ROI_GRAD = false;

uint pools_word()       // where the pools start
{
    return 4u * regions_vec4() + ROI_REGION_WORDS * pc.p.num_rois;
}

uint region_pool_words()      // ROI_POOL_WORDS per table entry
{
    return ROI_POOL_WORDS * (pc.p.table_x + pc.p.table_y);
}

uint pools_words()
{
    return pc.p.num_rois * region_pool_words();
}

uint derivative_lines_vec4()
{
    return (pools_word() + pools_words() + 3u) / 4u;
}

// From a line's weight in the pool to its derivative weight k (0: times 1 - t, 1: times t).
uint derivative_pool_offset(uint k)
{
    return 4u * (derivative_lines_vec4() + ROI_DERIVATIVE_LINE_VEC4 * line_count()) - pools_word() + k * pools_words();
}

// The float word where region r's pool for rows (a = 0) or columns starts: ROI_POOL_WORDS per
// table entry, columns first.
uint pool_word(uint r, uint a)
{
    uint at = pools_word() + r * region_pool_words();
    return at + (a == 0u ? ROI_POOL_WORDS * pc.p.table_x : 0u);
}

// An axis of a region: its in-bounds samples, entries [0, count) of its table.
struct Samples {
    uint base, count;
    uint first_bin, first_j, per, size;
    bool decreasing;
};

Samples axis_samples(uint a, Region g)
{
    Samples x;
    bool rows = a == 0u;
    uvec4 w = rows ? g.wy : g.wx;
    x.per = rows ? g.ny : g.nx;
    x.size = rows ? pc.p.in_h : pc.p.in_w;
    x.count = window_samples(w, x.per);
    x.base = rows ? y_entry_index(g, 0u) : x_entry_index(g, 0u);
    x.first_bin = w.x;
    x.first_j = w.y;
    x.decreasing = (g.decreasing & (rows ? ROI_DECREASING_Y : ROI_DECREASING_X)) != 0u;
    return x;
}

Axis sample_entry(Samples x, uint e)
{
    return axis_entry(table_word(x.base + e), x.size);
}

uint entry_bin(Samples x, uint e)
{
    uint first_left = x.per - x.first_j;   // entries in the first bin; e + first_j may pass 2^32
    return e < first_left ? x.first_bin : x.first_bin + 1u + (e - first_left) / x.per;
}

// The first entry whose first tap lies past v in the axis' direction, or count (first taps
// move monotonically).
uint first_past_tap(Samples x, int v)
{
    uint lo = 0u, hi = x.count;
    while (lo < hi) {
        uint mid = lo + (hi - lo) / 2u;
        int i0 = int(sample_entry(x, mid).i0);
        if (x.decreasing ? i0 < v : i0 > v)
            hi = mid;
        else
            lo = mid + 1u;
    }
    return lo;
}

// The entries that may tap pixel p (first tap p - 1 or p): [x, y). The two searches of
// first_past_tap step together, so that each step's two loads are in flight at once.
uvec2 candidate_samples(Samples x, uint p)
{
    int q = int(p);
    ivec2 v = x.decreasing ? ivec2(q + 1, q - 1) : ivec2(q - 2, q);
    uvec2 lo = uvec2(0u), hi = uvec2(x.count);
    while (any(lessThan(lo, hi))) {
        uvec2 mid = lo + (hi - lo) / 2u;
        bvec2 open = lessThan(lo, hi);
        ivec2 i0 = ivec2(open.x ? int(sample_entry(x, mid.x).i0) : 0, open.y ? int(sample_entry(x, mid.y).i0) : 0);
        bvec2 past = x.decreasing ? lessThan(i0, v) : greaterThan(i0, v);
        hi = mix(hi, mix(hi, mid, past), open);
        lo = mix(lo, mix(mid + 1u, lo, past), open);
    }
    return uvec2(lo.x, max(lo.x, lo.y));
}

// The weight a sample puts on pixel p: scatter_sample's taps, i0 with 1 - w, i1 only where w > 0.
float tap_weight(Axis t, uint p)
{
    return (t.i0 == p ? 1.0 - t.w : 0.0) + (t.w > 0.0 && t.i1 == p ? t.w : 0.0);
}

// The derivative of that weight along the axis (where the sample was not clamped): -1 on i0, +1 on
// i1, 0 where both are p (the last pixel).
float tap_derivative(Axis t, uint p)
{
    return t.clamped ? 0.0 : (t.i1 == p ? 1.0 : 0.0) - (t.i0 == p ? 1.0 : 0.0);
}

// The rows (a = 0) or columns the region's taps may reach: between its first and last samples'
// (first > last where none is in bounds).
uvec2 tap_span(uint a, Region g)
{
    Samples x = axis_samples(a, g);
    if (x.count == 0u)
        return uvec2(0xffffffffu, 0u);
    Axis s0 = sample_entry(x, 0u), s1 = sample_entry(x, x.count - 1u);
    return uvec2(min(s0.i0, s1.i0), max(s0.i1, s1.i1));
}
