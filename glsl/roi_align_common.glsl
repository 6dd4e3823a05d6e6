// Shared by ROI_ALIGN1 and ROI_ALIGN_GRAD: the regions' sample grids and the reads of the input.
// The including shader declares the push constants (roi_align_abi.h) first.
layout(constant_id = ROI_SPEC_LINEAR) const bool LINEAR = true;
layout(constant_id = ROI_SPEC_MAXIMUM) const bool MAXIMUM = false;
layout(constant_id = ROI_SPEC_ALIGN_CORNERS) const bool ALIGN_CORNERS = false;

struct Region {
    bool valid;         // its batch index is in range
    uint b;
    float x1, y1;       // scaled corners X1, Y1
    float w, h;         // W = X2 - X1, H = Y2 - Y1
    uint nx, ny;        // samples per bin along x and y
};

uint samples_per_bin(float extent, uint bins)
{
    float q = ceil(div_rn(abs(extent), float(bins)));
    q = clamp(q, float(pc.p.min_samples), float(min(pc.p.max_samples, 1u << 24)));
    return clamp(uint(q), pc.p.min_samples, pc.p.max_samples);
}

Region region(uint r)
{
    Region g;
    uint base = r * pc.p.roi_strides[0];
    float x1 = load(pc.rois, base) * pc.p.spatial_x;
    float y1 = load(pc.rois, base + pc.p.roi_strides[1]) * pc.p.spatial_y;
    float x2 = load(pc.rois, base + 2u * pc.p.roi_strides[1]) * pc.p.spatial_x;
    float y2 = load(pc.rois, base + 3u * pc.p.roi_strides[1]) * pc.p.spatial_y;
    g.b = pc.batch.v[r * pc.p.batch_stride];
    g.valid = g.b < pc.p.batch_count;
    g.x1 = x1;
    g.y1 = y1;
    g.w = x2 - x1;
    g.h = y2 - y1;
    g.nx = samples_per_bin(g.w, pc.p.out_w);
    g.ny = samples_per_bin(g.h, pc.p.out_h);
    return g;
}

// Where sample s of n sits along the region, as a fraction t of its extent.
float sample_t(uint s, uint n)
{
    if (ALIGN_CORNERS)
        return n == 1u ? 0.5 : div_rn(float(s), float(n - 1u));
    return div_rn(float(s) - pc.p.out_off, float(n));
}

// One axis of a sample: out of bounds, or clamped taps i0 and i1 (weight w on i1).
struct Axis {
    bool oob;
    bool clamped;       // the coordinate was moved into the input: no derivative along it
    uint i0, i1;
    float w;
    float t;
};

Axis sample_axis(float start, float extent, uint s, uint n, uint size)
{
    Axis a;
    a.t = sample_t(s, n);
    float pos = start + extent * a.t - pc.p.in_off;
    a.oob = pos < -1.0 || pos > float(size);
    float last = float(size - 1u);
    float c = clamp(pos, 0.0, last);
    a.clamped = pos < 0.0 || pos > last;
    if (LINEAR) {
        a.i0 = uint(floor(c));
        a.w = c - float(a.i0);
        a.i1 = min(a.i0 + 1u, size - 1u);
    } else {
        a.i0 = uint(ceil(c - 0.5));
        a.w = 0.0;
        a.i1 = a.i0;
    }
    return a;
}

// The input at a sample: the bilinear (or nearest) read; a tap of weight 0 is not read.
float read_input(uint plane, Axis y, Axis x)
{
    uint r0 = plane + y.i0 * pc.p.in_strides[2], r1 = plane + y.i1 * pc.p.in_strides[2];
    uint c0 = x.i0 * pc.p.in_strides[3], c1 = x.i1 * pc.p.in_strides[3];
    float top = load(pc.x, r0 + c0);
    if (x.w > 0.0)
        top = (1.0 - x.w) * top + x.w * load(pc.x, r0 + c1);
    if (y.w == 0.0)
        return top;
    float bottom = load(pc.x, r1 + c0);
    if (x.w > 0.0)
        bottom = (1.0 - x.w) * bottom + x.w * load(pc.x, r1 + c1);
    return (1.0 - y.w) * top + y.w * bottom;
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
