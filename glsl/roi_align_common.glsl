// Shared by ROI_ALIGN1 and ROI_ALIGN_GRAD: the regions' sample grids and the reads of the input.
// The including shader declares the push constants (roi_align_abi.h) first.
layout(constant_id = ROI_SPEC_LINEAR) const bool LINEAR = true;
layout(constant_id = ROI_SPEC_MAXIMUM) const bool MAXIMUM = false;
layout(constant_id = ROI_SPEC_ALIGN_CORNERS) const bool ALIGN_CORNERS = false;
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

layout(buffer_reference, std430, buffer_reference_align = 16) buffer RoiTable { uvec4 v[]; };

// A region as roi_align_geometry.comp recorded it (roi_align_abi.h).
struct Region {
    bool valid;         // its batch index is in range
    uint b;
    uint nx, ny;        // samples per bin along x and y
    uint decreasing;    // ROI_DECREASING_* bits
    uvec4 wx, wy;       // the windows of in-bounds samples: first bin, first sample, end bin, end sample
    uint base;          // the record's index in the table
};

Region region(uint r)
{
    Region g;
    g.base = pc.p.table_base + r * (ROI_RECORD_VEC4 + pc.p.table_x + pc.p.table_y);
    RoiTable t = RoiTable(pc.scratch);
    uvec4 h = t.v[g.base];
    g.b = h.x;
    g.valid = h.x != ROI_NO_BATCH;
    g.nx = h.y;
    g.ny = h.z;
    g.decreasing = h.w;
    g.wx = t.v[g.base + 1u];
    g.wy = t.v[g.base + 2u];
    return g;
}

// Samples in a region: nx * ny, which may pass 2^32.
float sample_count(Region g)
{
    return float(g.nx) * float(g.ny);
}

// The in-bounds samples [x, y) of bin `bin` of an axis with window w and n samples per bin.
uvec2 bin_window(uvec4 w, uint n, uint bin)
{
    uint first = bin < w.x ? n : bin == w.x ? w.y : 0u;
    uint end = bin < w.z ? n : bin == w.z ? w.w : 0u;
    return uvec2(first, max(first, end));
}

// The samples in a window of n samples per bin: its entries in the table.
uint window_samples(uvec4 w, uint n)
{
    return (w.z - w.x) * n + w.w - w.y;
}

uvec2 bin_rows(Region g, uint oy)
{
    return bin_window(g.wy, g.ny, oy);
}

uvec2 bin_columns(Region g, uint ox)
{
    return bin_window(g.wx, g.nx, ox);
}

// One axis of an in-bounds sample: clamped taps i0 and i1 (weight w on i1).
struct Axis {
    bool clamped;       // the coordinate was moved into the input: no derivative along it
    uint i0, i1;
    float w;
    float t;
};

Axis axis_entry(uvec4 e, uint size)
{
    Axis a;
    a.i0 = e.x;
    a.clamped = (e.y & ROI_ENTRY_CLAMPED) != 0u;
    a.w = uintBitsToFloat(e.z);
    a.t = uintBitsToFloat(e.w);
    a.i1 = LINEAR ? min(a.i0 + 1u, size - 1u) : a.i0;
    return a;
}

// Entries of a region's table by their index in the axis' window.
uint x_entry_index(Region g, uint e)
{
    return g.base + ROI_RECORD_VEC4 + e;
}

uint y_entry_index(Region g, uint e)
{
    return g.base + ROI_RECORD_VEC4 + pc.p.table_x + e;
}

// Sample j (in bounds) of bin row oy or bin column ox.
Axis sample_y(Region g, uint oy, uint j)
{
    uint e = (oy - g.wy.x) * g.ny + j - g.wy.y;
    return axis_entry(RoiTable(pc.scratch).v[y_entry_index(g, e)], pc.p.in_h);
}

Axis sample_x(Region g, uint ox, uint j)
{
    uint e = (ox - g.wx.x) * g.nx + j - g.wx.y;
    return axis_entry(RoiTable(pc.scratch).v[x_entry_index(g, e)], pc.p.in_w);
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
