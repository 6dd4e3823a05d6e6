#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
// ROI_ALIGN_GRAD (lib/roi_align_grad.c), in stages chosen by a specialization constant:
//   ZERO     clears OutputGradientTensor where the scatter adds into it directly;
//   MAX_ABS  (deterministic mode) finds max |dY| to scale the fixed-point sums;
//   SCATTER  one invocation per InputGradient element adds its samples' shares into the input
//            gradient: float atomics, a compare-and-swap loop, or int64 fixed point;
//   PREPARE  (AVERAGE) copies dY to scratch with the channel fastest and lists each region's
//            weights per input row and column, for GATHER:
//   GATHER   one workgroup per tile of the input gradient sums the regions over it and stores
//            each element once: no atomics, the same order every run;
//   CONVERT  turns the float32 or fixed-point scratch sums into OutputGradientTensor;
//   ROI      one workgroup per region sums the ROI coordinates' derivatives, deterministically.
// DMLVK_ATOMICS: 0 compare-and-swap, 1 VK_EXT_shader_atomic_float, 2 int64 fixed point.
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

layout(buffer_reference) buffer Params;
layout(buffer_reference) buffer Scratch;
layout(push_constant) uniform Push {
    Params p;
    Tensor x;
    Tensor dy;
    Tensor rois;
    UintTensor batch;
    Tensor grad;
    Tensor roi_grad;
    Scratch scratch;
    UintTensor skipped;     // diagnostics: regions with an out-of-range batch index
} pc;

#include "roi_align_common.glsl"

layout(constant_id = 4) const uint STAGE = 2;
layout(constant_id = 5) const bool TO_SCRATCH = false;  // sums go to scratch, not straight to grad
layout(constant_id = 6) const bool COUNT_SKIPPED = false; // this stage counts the skipped regions
// Channels per workgroup: SCATTER under AVERAGE, one workgroup per region and this many channels
// (0: one invocation per bin); GATHER, at most GATHER_CHANNELS_MAX and a multiple of 4.
layout(constant_id = 7) const uint GROUP_CHANNELS = 0;

const uint STAGE_ZERO = 0u, STAGE_MAX_ABS = 1u, STAGE_SCATTER = 2u, STAGE_CONVERT = 3u, STAGE_ROI = 4u;
const uint STAGE_GATHER = 5u, STAGE_PREPARE = 6u;

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

uint grad_target(uint b, uint c, uint y, uint x)
{
    if (TO_SCRATCH)
        return ((b * pc.p.channels + c) * pc.p.in_h + y) * pc.p.in_w + x;
    return b * pc.p.grad_strides[0] + c * pc.p.grad_strides[1] + y * pc.p.grad_strides[2] + x * pc.p.grad_strides[3];
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

void scatter()
{
    uint e = invocation_index();
    if (e >= pc.p.num_rois * pc.p.channels * pc.p.out_h * pc.p.out_w)
        return;
    uvec4 i = bin_index(e);
    Region g = region(i.x);
    if (!g.valid) {
        if (COUNT_SKIPPED && i.y == 0u && i.z == 0u && i.w == 0u)
            atomicAdd(pc.skipped.v[0], 1u);
        return;
    }
    scatter_bin(g, i, fixed_point_scale());
}

// The scatter by regions (AVERAGE). A region's samples sit on a grid, so a sample's taps are the
// product of a row tap and a column tap: each distinct input pixel of the region receives
// sum over bins (ky, kx) of Wy[row][ky] * Wx[column][kx] * dY[ky][kx] / samples, where Wy and
// Wx sum the tap weights of each bin's samples on that row or column. One workgroup lists the
// region's row and column taps once, then adds each pixel's total with one atomic instead of
// one per sample tap, neighbouring invocations on neighbouring pixels.
const uint TAPS_MAX = 128u;     // per axis; more (huge regions) takes the per-bin path
const uint TAP_BINS = 2u;       // bins a tap entry spans; a pixel under more gets another entry
shared uint tap_pixel[2][TAPS_MAX];
shared uint tap_bin[2][TAPS_MAX];
shared float tap_weight[2][TAPS_MAX * TAP_BINS];
shared uint tap_count[2];

// Adds weight w of bin k on pixel p to axis a's list. The samples move monotonically, so a pixel
// that is tapped again is one of the last two entries; any other repeat gets a new entry, which
// only costs an atomic more.
bool add_tap(uint a, inout uint count, uint p, uint k, float w)
{
    for (uint back = 1u; back <= 2u && back <= count; back++) {
        uint j = count - back;
        if (tap_pixel[a][j] == p && k >= tap_bin[a][j] && k - tap_bin[a][j] < TAP_BINS) {
            tap_weight[a][j * TAP_BINS + k - tap_bin[a][j]] += w;
            return true;
        }
    }
    if (count == TAPS_MAX)
        return false;
    tap_pixel[a][count] = p;
    tap_bin[a][count] = k;
    for (uint t = 0u; t < TAP_BINS; t++)
        tap_weight[a][count * TAP_BINS + t] = t == 0u ? w : 0.0;
    count++;
    return true;
}

// Lists axis a's taps (0: rows, 1: columns); the count is TAPS_MAX + 1 where they do not fit.
void list_taps(uint a, Region g)
{
    uint bins = a == 0u ? pc.p.out_h : pc.p.out_w, per_bin = a == 0u ? g.ny : g.nx;
    uint n = per_bin * bins, count = 0u;
    bool fits = n <= 4u * TAPS_MAX;  // past that, listing alone would take a long single-thread loop
    for (uint s = 0u; s < n && fits; s++) {
        Axis t = a == 0u ? sample_axis(g.y1, g.h, s, n, pc.p.in_h) : sample_axis(g.x1, g.w, s, n, pc.p.in_w);
        if (t.oob)
            continue;
        fits = add_tap(a, count, t.i0, s / per_bin, 1.0 - t.w);
        if (fits && t.w > 0.0)
            fits = add_tap(a, count, t.i1, s / per_bin, t.w);
    }
    tap_count[a] = fits ? count : TAPS_MAX + 1u;
}

void scatter_regions()
{
    uint chunks = (pc.p.channels + GROUP_CHANNELS - 1u) / GROUP_CHANNELS;
    uint group = invocation_index() / gl_WorkGroupSize.x, lid = gl_LocalInvocationID.x;
    uint r = group / chunks, c0 = (group % chunks) * GROUP_CHANNELS;
    if (r >= pc.p.num_rois)
        return;
    Region g = region(r);
    if (!g.valid) {
        if (COUNT_SKIPPED && c0 == 0u && lid == 0u)
            atomicAdd(pc.skipped.v[0], 1u);
        return;
    }
    float fixed_scale = fixed_point_scale();
    uint channels = min(GROUP_CHANNELS, pc.p.channels - c0);
    uint lister = min(32u, gl_WorkGroupSize.x - 1u);  // another warp, where there is one
    if (lid == 0u)
        list_taps(0u, g);
    if (lid == lister)
        list_taps(1u, g);
    barrier();
    uint rows = tap_count[0], cols = tap_count[1];
    if (rows > TAPS_MAX || cols > TAPS_MAX) {
        uint bins = pc.p.out_h * pc.p.out_w;
        for (uint k = lid; k < channels * bins; k += gl_WorkGroupSize.x) {
            uint c = k / bins, b = k - c * bins;
            scatter_bin(g, uvec4(r, c0 + c, b / pc.p.out_w, b % pc.p.out_w), fixed_scale);
        }
        return;
    }
    float samples = float(g.nx * g.ny);
    for (uint k = lid; k < channels * rows * cols; k += gl_WorkGroupSize.x) {
        uint jx = k % cols, q = k / cols;
        uint jy = q % rows, c = c0 + q / rows;
        float sum = 0.0;
        [[unroll]] for (uint ty = 0u; ty < TAP_BINS; ty++) {
            float wy = tap_weight[0][jy * TAP_BINS + ty];
            if (wy == 0.0)
                continue;
            float row = 0.0;
            [[unroll]] for (uint tx = 0u; tx < TAP_BINS; tx++) {
                float wx = tap_weight[1][jx * TAP_BINS + tx];
                if (wx != 0.0)
                    row += wx * load(pc.dy, bin_offset(uvec4(r, c, tap_bin[0][jy] + ty, tap_bin[1][jx] + tx)));
            }
            sum += wy * row;
        }
        add(grad_target(g.b, c, tap_pixel[0][jy], tap_pixel[1][jx]), div_rn(sum, samples), fixed_scale);
    }
}

// The gather by tiles (AVERAGE). Input gradient element (y, x) of channel c receives, from each
// region over it, sum over bins (ky, kx) of Wy[y][ky] * Wx[x][kx] * dY[ky][kx] / samples, where Wy
// sums the tap weights that bin row ky's samples put on row y (Wx likewise): a region's samples
// sit on a grid. A first pass (PREPARE) copies dY to scratch as [region][ky][kx][channel], so that
// a bin's channels are one contiguous read, and lists each region's Wy / samples for every row and
// Wx for every column (up to LINE_BINS bins each, more marked LINE_OVER), and where each region
// reaches. Then a workgroup owns a TILE_H x TILE_W tile of GROUP_CHANNELS channels, finds the
// regions over the tile and accumulates their terms in registers, in region order, without
// barriers. QUADS invocations share an element, each loading 4 channels of a bin at once:
// neighbouring invocations read neighbouring bytes, and neighbouring elements mostly the same bins.
const uint QUADS = 4u;
const uint TILE_PIXELS = gl_WorkGroupSize.x / QUADS;
const uint TILE_W = TILE_PIXELS < 8u ? TILE_PIXELS : 8u;   // measured: 4 and 16 columns were slower
const uint TILE_H = TILE_PIXELS / TILE_W;
const uint GATHER_VECS_MAX = 8u;          // vec4s of channels per invocation
const uint LINE_BINS = 3u;                // a line is a uvec4: the weights' bits, then its header
const uint LINE_OVER = 0xffffu;           // a line's count: more bins than LINE_BINS reach it
const uint NO_BIN = 0xffffffffu;
shared uint gather_over[(gl_WorkGroupSize.x + 31u) / 32u];  // bit: the region reaches this tile
layout(buffer_reference, std430, buffer_reference_align = 16) buffer ScratchVec4 { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer ScratchUvec4 { uvec4 v[]; };

// Scratch: the transposed dY, then a uvec4 per line (its bins' weights, then a header:
// count << 16 | first bin), then the regions' records (regions_vec4).
uint gather_stride()    // channels per bin: whole workgroups' worth
{
    return (pc.p.channels + GROUP_CHANNELS - 1u) / GROUP_CHANNELS * GROUP_CHANNELS;
}

uint transposed_size()
{
    return pc.p.num_rois * pc.p.out_h * pc.p.out_w * gather_stride();
}

uint line_count()
{
    return pc.p.num_rois * (pc.p.in_h + pc.p.in_w);
}

uint lines_vec4()
{
    return transposed_size() / 4u;  // the stride is a multiple of 16
}

// Then two uvec4 per region: the rows and columns its taps may reach (first, last, first,
// last), and its batch index (NO_BIN where out of range).
uint regions_vec4()
{
    return lines_vec4() + line_count();
}

// Samples of n that may tap pixel p: positions within [p - 1, p + 1] (the edges' clamped positions
// included), a superset from inverting the sample position; sample_axis decides exactly.
uvec2 candidate_samples(float start, float extent, uint n, uint p)
{
    float scale = ALIGN_CORNERS ? float(n) - 1.0 : float(n);
    float shift = ALIGN_CORNERS ? 0.0 : pc.p.out_off;
    if (extent == 0.0 || scale <= 0.0)
        return uvec2(0u, n);
    float a = ((float(p) - 1.0 + pc.p.in_off - start) / extent) * scale + shift;
    float b = ((float(p) + 1.0 + pc.p.in_off - start) / extent) * scale + shift;
    if (isnan(a) || isnan(b))
        return uvec2(0u, n);
    float margin = 2.0 + float(n) * (1.0 / 1048576.0);
    float first = clamp(floor(min(a, b)) - margin, 0.0, float(n));
    float end = clamp(ceil(max(a, b)) + margin + 1.0, 0.0, float(n));
    return uvec2(first, end);
}

struct Samples {
    float start, extent;
    uint n, per, size;
};

Samples axis_samples(uint a, Region g)
{
    Samples x;
    bool rows = a == 0u;
    x.start = rows ? g.y1 : g.x1;
    x.extent = rows ? g.h : g.w;
    x.per = rows ? g.ny : g.nx;
    x.n = x.per * (rows ? pc.p.out_h : pc.p.out_w);
    x.size = rows ? pc.p.in_h : pc.p.in_w;
    return x;
}

// The weight sample k puts on pixel p: scatter_sample's taps, i0 with 1 - w, i1 only where w > 0.
float sample_weight(Samples x, uint k, uint p)
{
    Axis t = sample_axis(x.start, x.extent, k, x.n, x.size);
    if (t.oob)
        return 0.0;
    return (t.i0 == p ? 1.0 - t.w : 0.0) + (t.w > 0.0 && t.i1 == p ? t.w : 0.0);
}

// The rows (a = 0) or columns the region's taps may reach: between its first and last samples'.
uvec2 tap_span(uint a, Region g)
{
    Samples x = axis_samples(a, g);
    Axis s0 = sample_axis(x.start, x.extent, 0u, x.n, x.size), s1 = sample_axis(x.start, x.extent, x.n - 1u, x.n, x.size);
    return uvec2(min(s0.i0, s1.i0), max(s0.i1, s1.i1));
}

// Line l of region r: row l (l < InputHeight) or column l - InputHeight. Rows' weights are
// divided by the region's sample count. Each bin sums its samples in order.
void prepare_line(uint r, uint l)
{
    Region g = region(r);
    uint a = l < pc.p.in_h ? 0u : 1u, p = a == 0u ? l : l - pc.p.in_h;
    uint first = NO_BIN, bin = NO_BIN;
    bool over = false;
    vec4 w = vec4(0.0);
    if (g.valid) {
        Samples x = axis_samples(a, g);
        float samples = float(g.nx * g.ny);
        uvec2 s = candidate_samples(x.start, x.extent, x.n, p);
        float sum = 0.0;
        for (uint k = s.x; k <= s.y; k++) {
            float v = k < s.y ? sample_weight(x, k, p) : 0.0;
            uint kb = k < s.y ? k / x.per : NO_BIN;
            if (bin != NO_BIN && (kb != bin || k == s.y)) {
                if (bin - first < LINE_BINS)
                    w[bin - first] = a == 0u ? div_rn(sum, samples) : sum;
                else
                    over = true;
            }
            if (k == s.y)
                break;
            if (v == 0.0)
                continue;
            if (kb != bin) {
                first = bin == NO_BIN ? kb : first;
                bin = kb;
                sum = 0.0;
            }
            sum += v;
        }
    }
    if (l == 0u) {
        if (COUNT_SKIPPED && !g.valid)
            atomicAdd(pc.skipped.v[0], 1u);
        uvec2 sy = g.valid ? tap_span(0u, g) : uvec2(0u), sx = g.valid ? tap_span(1u, g) : uvec2(0u);
        ScratchUvec4(pc.scratch).v[regions_vec4() + 2u * r] = uvec4(sy, sx);
        ScratchUvec4(pc.scratch).v[regions_vec4() + 2u * r + 1u] = uvec4(g.valid ? g.b : NO_BIN, 0u, 0u, 0u);
    }
    uint line = r * (pc.p.in_h + pc.p.in_w) + l;
    uint header = bin == NO_BIN ? 0u : over ? LINE_OVER << 16 : (bin - first + 1u) << 16 | first;
    ScratchUvec4(pc.scratch).v[lines_vec4() + line] = uvec4(floatBitsToUint(w.xyz), header);
}

// dY to [region][bin][channel] through 32 x 32 blocks in shared memory, so that reads and writes
// are both contiguous, then the lines: the first workgroups transpose, the rest weigh lines.
shared float transpose_block[32][33];

uint transpose_groups()     // one per region and 32 channels
{
    return pc.p.num_rois * ((gather_stride() + 31u) / 32u);
}

void prepare()
{
    uvec3 n = gl_NumWorkGroups;
    uint group = (gl_WorkGroupID.z * n.y + gl_WorkGroupID.y) * n.x + gl_WorkGroupID.x, lid = gl_LocalInvocationID.x;
    uint bins = pc.p.out_h * pc.p.out_w, stride = gather_stride(), blocks = transpose_groups();
    if (group < blocks) {
        uint channel_blocks = (stride + 31u) / 32u;
        uint c0 = (group % channel_blocks) * 32u, r = group / channel_blocks;
        // Integer division costs tens of instructions: with whole warps of 32 in the workgroup an
        // invocation keeps its bin (reading) and its channel (writing) within a block.
        bool whole_warps = gl_WorkGroupSize.x % 32u == 0u;
        for (uint bin0 = 0u; bin0 < bins; bin0 += 32u) {
            uint my_bin = bin0 + lid % 32u, at = bin_offset(uvec4(r, 0u, my_bin / pc.p.out_w, my_bin % pc.p.out_w));
            for (uint i = lid; i < 32u * 32u; i += gl_WorkGroupSize.x) {
                uint c = c0 + i / 32u, bin = bin0 + i % 32u;
                float v = 0.0;
                if (c < pc.p.channels && bin < bins)
                    v = load(pc.dy, whole_warps ? at + c * pc.p.bin_strides[1]
                                                : bin_offset(uvec4(r, c, bin / pc.p.out_w, bin % pc.p.out_w)));
                transpose_block[i / 32u][i % 32u] = v;
            }
            barrier();
            for (uint i = lid; i < 32u * 32u; i += gl_WorkGroupSize.x) {
                uint c = c0 + i % 32u, bin = bin0 + i / 32u;
                if (c < stride && bin < bins)
                    FloatSums(pc.scratch).v[(r * bins + bin) * stride + c] = transpose_block[i % 32u][i / 32u];
            }
            barrier();
        }
        return;
    }
    uint e = (group - blocks) * gl_WorkGroupSize.x + lid;
    if (e < line_count())
        prepare_line(e / (pc.p.in_h + pc.p.in_w), e % (pc.p.in_h + pc.p.in_w));
}


// The next region of a scan that reaches the tile (NO_BIN: none left), in order.
uint next_region(inout uint word, inout uint bits)
{
    while (bits == 0u && word + 1u < (gl_WorkGroupSize.x + 31u) / 32u)
        bits = gather_over[++word];
    if (bits == 0u)
        return NO_BIN;
    uint slot = word * 32u + uint(findLSB(bits));
    bits &= bits - 1u;
    return slot;
}

void gather()
{
    const uint lid = gl_LocalInvocationID.x, vecs = GROUP_CHANNELS / (4u * QUADS);
    uvec3 n = gl_NumWorkGroups;
    uint group = (gl_WorkGroupID.z * n.y + gl_WorkGroupID.y) * n.x + gl_WorkGroupID.x;
    uint tiles_x = (pc.p.in_w + TILE_W - 1u) / TILE_W, tiles_y = (pc.p.in_h + TILE_H - 1u) / TILE_H;
    uint chunks = (pc.p.channels + GROUP_CHANNELS - 1u) / GROUP_CHANNELS;
    uint tx = group % tiles_x, ty = (group / tiles_x) % tiles_y, q = group / (tiles_x * tiles_y);
    uint c0 = (q % chunks) * GROUP_CHANNELS, b = q / chunks;
    if (b >= pc.p.batch_count)
        return;
    uint y0 = ty * TILE_H, x0 = tx * TILE_W;
    uint pixel = lid / QUADS, quad = lid % QUADS;
    uint y = y0 + pixel / TILE_W, x = x0 + pixel % TILE_W;
    bool inside = y < pc.p.in_h && x < pc.p.in_w;
    ScratchVec4 dy = ScratchVec4(pc.scratch);
    ScratchUvec4 lines_of = ScratchUvec4(pc.scratch);
    uint bin_vecs = gather_stride() / 4u, lines = pc.p.in_h + pc.p.in_w;
    uint line_base = lines_vec4();
    vec4 acc[GATHER_VECS_MAX];
    [[unroll]] for (uint v = 0u; v < GATHER_VECS_MAX; v++)
        acc[v] = vec4(0.0);
    for (uint base = 0u; base < pc.p.num_rois; base += gl_WorkGroupSize.x) {
        barrier();
        if (lid < (gl_WorkGroupSize.x + 31u) / 32u)
            gather_over[lid] = 0u;
        barrier();
        uint r = base + lid;
        if (r < pc.p.num_rois) {
            uvec4 span = lines_of.v[regions_vec4() + 2u * r];
            uint batch = lines_of.v[regions_vec4() + 2u * r + 1u].x;
            if (batch == b && span.x < y0 + TILE_H && span.y >= y0 && span.z < x0 + TILE_W && span.w >= x0)
                atomicOr(gather_over[lid / 32u], 1u << (lid % 32u));
        }
        barrier();
        if (!inside)
            continue;
        // One region ahead: its two lines load while this one's bins are read.
        uint word = 0u, bits = gather_over[0];
        uint slot = next_region(word, bits);
        uvec4 next_y = uvec4(0u), next_x = uvec4(0u);
        if (slot != NO_BIN) {
            next_y = lines_of.v[line_base + (base + slot) * lines + y];
            next_x = lines_of.v[line_base + (base + slot) * lines + pc.p.in_h + x];
        }
        while (slot != NO_BIN) {
            uint rr = base + slot;
            uvec4 ly = next_y, lx = next_x;
            slot = next_region(word, bits);
            if (slot != NO_BIN) {
                next_y = lines_of.v[line_base + (base + slot) * lines + y];
                next_x = lines_of.v[line_base + (base + slot) * lines + pc.p.in_h + x];
            }
            uint hy = ly.w, hx = lx.w;
            vec3 wy = uintBitsToFloat(ly.xyz), wx = uintBitsToFloat(lx.xyz);
            if (hy == 0u || hx == 0u)
                continue;
            uint region_bins = rr * pc.p.out_h;
            if ((hy >> 16) != LINE_OVER && (hx >> 16) != LINE_OVER) {
                for (uint i = 0u; i < (hy >> 16); i++) {
                    for (uint j = 0u; j < (hx >> 16); j++) {
                        float w = wy[i] * wx[j];
                        if (w == 0.0)
                            continue;
                        uint at = ((region_bins + (hy & 0xffffu) + i) * pc.p.out_w + (hx & 0xffffu) + j) * bin_vecs + c0 / 4u + quad;
                        [[unroll]] for (uint v = 0u; v < vecs; v++)
                            acc[v] += w * dy.v[at + QUADS * v];
                    }
                }
                continue;
            }
            // More bins than a line lists: sample by sample (tiny regions, many bins).
            Region g = region(rr);
            Samples sy = axis_samples(0u, g), sx = axis_samples(1u, g);
            float samples = float(g.nx * g.ny);
            uvec2 ky = candidate_samples(sy.start, sy.extent, sy.n, y);
            uvec2 kx = candidate_samples(sx.start, sx.extent, sx.n, x);
            for (uint i = ky.x; i < ky.y; i++) {
                float wyi = sample_weight(sy, i, y);
                if (wyi == 0.0)
                    continue;
                for (uint j = kx.x; j < kx.y; j++) {
                    float wxj = sample_weight(sx, j, x);
                    if (wxj == 0.0)
                        continue;
                    float w = div_rn(wyi, samples) * wxj;
                    uint at = ((region_bins + i / sy.per) * pc.p.out_w + j / sx.per) * bin_vecs + c0 / 4u + quad;
                    [[unroll]] for (uint v = 0u; v < vecs; v++)
                        acc[v] += w * dy.v[at + QUADS * v];
                }
            }
        }
    }
    if (!inside)
        return;
    [[unroll]] for (uint v = 0u; v < vecs; v++) {
        [[unroll]] for (uint k = 0u; k < 4u; k++) {
            uint c = c0 + 4u * (quad + QUADS * v) + k;
            if (c < pc.p.channels)
                store(pc.grad, b * pc.p.grad_strides[0] + c * pc.p.grad_strides[1] + y * pc.p.grad_strides[2] +
                                   x * pc.p.grad_strides[3], acc[v][k]);
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

void zero_or_convert()
{
    uint e = invocation_index();
    if (e >= pc.p.grad_elements)
        return;
    if (STAGE == STAGE_ZERO && TO_SCRATCH) {
#if DMLVK_ATOMICS == 2
        if (e == 0u)
            pc.scratch.max_abs_bits = 0u;
        pc.scratch.v[e] = 0l;
#else
        pc.scratch.v[e] = 0.0;
#endif
        return;
    }
    uvec4 i = grad_index(e);
    float v = 0.0;
    if (STAGE == STAGE_CONVERT) {
#if DMLVK_ATOMICS == 2
        v = float(pc.scratch.v[e]) * ldexp(1.0, -fixed_exponent());
#else
        v = pc.scratch.v[e];
#endif
    }
    store(pc.grad, i.x * pc.p.grad_strides[0] + i.y * pc.p.grad_strides[1] + i.z * pc.p.grad_strides[2] +
                       i.w * pc.p.grad_strides[3], v);
}

shared vec4 partial[gl_WorkGroupSize.x];
shared uint partial_max[gl_WorkGroupSize.x];

void max_abs()
{
#if DMLVK_ATOMICS == 2
    // Positive floats order like their bits. One atomic per workgroup: all of them on one address
    // would serialize.
    uint e = invocation_index(), lid = gl_LocalInvocationID.x;
    uint bits = 0u;
    if (e < pc.p.num_rois * pc.p.channels * pc.p.out_h * pc.p.out_w) {
        float dy = abs(load(pc.dy, bin_offset(bin_index(e))));
        if (!isinf(dy) && !isnan(dy))
            bits = floatBitsToUint(dy);
    }
    partial_max[lid] = bits;
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
        if (lid < s)
            partial_max[lid] = max(partial_max[lid], partial_max[lid + s]);
        barrier();
    }
    if (lid == 0u && partial_max[0] != 0u)
        atomicMax(pc.scratch.max_abs_bits, partial_max[0]);
#endif
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

void roi_gradient()
{
    uvec3 n = gl_NumWorkGroups;
    uint r = (gl_WorkGroupID.z * n.y + gl_WorkGroupID.y) * n.x + gl_WorkGroupID.x;
    uint lid = gl_LocalInvocationID.x;
    bool live = r < pc.p.num_rois;
    Region g;
    if (live)
        g = region(r);
    if (COUNT_SKIPPED && live && !g.valid && lid == 0u)
        atomicAdd(pc.skipped.v[0], 1u);
    vec4 sum = vec4(0.0);
    if (live && g.valid && LINEAR) {
        uint items = pc.p.channels * pc.p.out_h * pc.p.out_w;
        uint ny = g.ny * pc.p.out_h, nx = g.nx * pc.p.out_w;
        for (uint k = lid; k < items; k += gl_WorkGroupSize.x) {
            uvec4 i = bin_index(r * items + k);
            float dy = load(pc.dy, bin_offset(i));
            uint plane = g.b * pc.p.in_strides[0] + i.y * pc.p.in_strides[1];
            if (MAXIMUM) {
                Axis y, x;
                if (max_sample(g, i, plane, y, x))
                    sum += sample_roi_grad(plane, y, x, dy);
                continue;
            }
            float share = div_rn(dy, float(g.nx * g.ny));
            for (uint iy = 0u; iy < g.ny; iy++) {
                Axis y = sample_axis(g.y1, g.h, i.z * g.ny + iy, ny, pc.p.in_h);
                if (y.oob)
                    continue;
                for (uint ix = 0u; ix < g.nx; ix++) {
                    Axis x = sample_axis(g.x1, g.w, i.w * g.nx + ix, nx, pc.p.in_w);
                    if (!x.oob)
                        sum += sample_roi_grad(plane, y, x, share);
                }
            }
        }
    }
    // A fixed reduction tree: the same sum run to run.
    partial[lid] = sum;
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2u; s > 0u; s >>= 1u) {
        if (lid < s)
            partial[lid] += partial[lid + s];
        barrier();
    }
    if (lid == 0u && live) {
        vec4 t = partial[0] * vec4(pc.p.spatial_x, pc.p.spatial_y, pc.p.spatial_x, pc.p.spatial_y);
        uint base = r * pc.p.roi_grad_strides[0];
        for (uint k = 0u; k < 4u; k++)
            store(pc.roi_grad, base + k * pc.p.roi_grad_strides[1], t[k]);
    }
}

void main()
{
    if (STAGE == STAGE_GATHER)
        gather();
    else if (STAGE == STAGE_PREPARE)
        prepare();
    else if (STAGE == STAGE_SCATTER && GROUP_CHANNELS > 0u)
        scatter_regions();
    else if (STAGE == STAGE_SCATTER)
        scatter();
    else if (STAGE == STAGE_ZERO || STAGE == STAGE_CONVERT)
        zero_or_convert();
    else if (STAGE == STAGE_MAX_ABS)
        max_abs();
    else
        roi_gradient();
}
