// The regions' sample tables (roi_align_abi.h), as roi_align_geometry.glsl writes them and the
// stages of ROI_ALIGN1 and ROI_ALIGN_GRAD read them. The including shader declares the push
// constants (roi_align_abi.h) first.
#if ROI_MODES_AT_RUN_TIME
// The geometry stage: one pipeline serves every mode, its compile being heavy.
#define LINEAR ((pc.p.modes & ROI_MODE_LINEAR) != 0u)
#define MAXIMUM ((pc.p.modes & ROI_MODE_MAXIMUM) != 0u)
#define ALIGN_CORNERS ((pc.p.modes & ROI_MODE_ALIGN_CORNERS) != 0u)
#else
layout(constant_id = ROI_SPEC_LINEAR) const bool LINEAR = true;
layout(constant_id = ROI_SPEC_MAXIMUM) const bool MAXIMUM = false;
layout(constant_id = ROI_SPEC_ALIGN_CORNERS) const bool ALIGN_CORNERS = false;
#endif

layout(buffer_reference, std430, buffer_reference_align = 16) buffer RoiTable { uvec4 v[]; };

// Word i of scratch's tables. The geometry stage (ROI_KEPT_TABLE 1) reads its own region's from
// shared memory, where it kept a copy as it wrote them (ROI_KEPT_TABLE_VEC4).
#ifndef ROI_KEPT_TABLE
#define ROI_KEPT_TABLE 0
#endif
#if ROI_KEPT_TABLE
shared uvec4 kept_table[ROI_KEPT_TABLE_VEC4];
uint kept_base;     // the kept region's record, as an index into scratch

uvec4 table_word(uint i)
{
    return kept_table[i - kept_base];
}
#else
uvec4 table_word(uint i)
{
    return RoiTable(pc.scratch).v[i];
}
#endif

// A region as roi_align_geometry.glsl recorded it (roi_align_abi.h).
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
    uvec4 h = table_word(g.base);
    g.b = h.x;
    g.valid = h.x != ROI_NO_BATCH;
    g.nx = h.y;
    g.ny = h.z;
    g.decreasing = h.w;
    g.wx = table_word(g.base + 1u);
    g.wy = table_word(g.base + 2u);
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
    return axis_entry(table_word(y_entry_index(g, e)), pc.p.in_h);
}

Axis sample_x(Region g, uint ox, uint j)
{
    uint e = (ox - g.wx.x) * g.nx + j - g.wx.y;
    return axis_entry(table_word(x_entry_index(g, e)), pc.p.in_w);
}
