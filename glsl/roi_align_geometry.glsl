// ROI_ALIGN1's and ROI_ALIGN_GRAD's first stage: one workgroup per region decides where its
// samples sit (OPERATORS.md section 4) and writes the region's sample tables (roi_align_abi.h).
// Every decision (samples per bin, in or out of bounds, clamped, which cells) is made on the
// exact value: a position p of sample s is D*p = S*lo*(D - u) + S*hi*u - InputPixelOffset*D with
// u = s - OutputPixelOffset, D = NX (or u = s, D = NX - 1 aligned to corners; u = 1, D = 2 with one
// sample), summed without rounding in a wide fixed-point integer, or (float64 variant) in float64
// where its error bound proves the same decisions. Weights and t stay float32.
// Only the samples that may be in bounds are listed, so no bin does work the input cannot hold.
// Included by roi_align_geometry.comp after the push constants and roi_align_table.glsl.

// Word i of the tables in scratch, and of the kept copy where the lines read it (geometry_lines).
void store_table(uint i, uvec4 v)
{
    RoiTable(pc.scratch).v[i] = v;
    if (pc.p.geometry_lines != 0u && i - kept_base < ROI_KEPT_TABLE_VEC4)
        kept_table[i - kept_base] = v;
}

// ---- 64- and 128-bit integers: uvec2 / uvec4, lowest word first, two's complement ----
uvec2 mul_32x32(uint a, uint b)
{
    uint hi, lo;
    umulExtended(a, b, hi, lo);
    return uvec2(lo, hi);
}

uvec4 add_128(uvec4 a, uvec4 b)
{
    uvec4 r;
    uint carry = 0u;
    for (uint k = 0u; k < 4u; k++) {
        uint c1, c2;
        r[k] = uaddCarry(a[k], b[k], c1);
        r[k] = uaddCarry(r[k], carry, c2);
        carry = c1 | c2;
    }
    return r;
}

uvec4 negate_128(uvec4 a)
{
    return add_128(~a, uvec4(1u, 0u, 0u, 0u));
}

bool negative_128(uvec4 a)
{
    return (a.w >> 31) != 0u;
}

// sign(a - b) for signed 128-bit a and b whose difference fits.
int compare_128(uvec4 a, uvec4 b)
{
    uvec4 d = add_128(a, negate_128(b));
    return negative_128(d) ? -1 : d == uvec4(0u) ? 0 : 1;
}

// a * b for a < 2^64, b < 2^64.
uvec4 mul_64x64(uvec2 a, uvec2 b)
{
    uvec2 p00 = mul_32x32(a.x, b.x), p01 = mul_32x32(a.x, b.y), p10 = mul_32x32(a.y, b.x), p11 = mul_32x32(a.y, b.y);
    uvec4 r = uvec4(p00, p11);
    r = add_128(r, uvec4(0u, p01, 0u));
    return add_128(r, uvec4(0u, p10, 0u));
}

// k * d, signed k.
uvec4 mul_int(int k, uvec2 d)
{
    uvec4 m = mul_64x64(uvec2(uint(abs(k)), 0u), d);
    return k < 0 ? negate_128(m) : m;
}

float float_64(uvec2 v)
{
    return float(v.y) * 4294967296.0 + float(v.x);
}

uvec2 add_64(uvec2 a, uvec2 b)
{
    return add_128(uvec4(a, 0u, 0u), uvec4(b, 0u, 0u)).xy;
}

uvec2 sub_64(uvec2 a, uvec2 b)
{
    return add_128(uvec4(a, 0u, 0u), negate_128(uvec4(b, 0u, 0u))).xy;
}

// A signed 128-bit value, roughly.
float float_128(uvec4 v)
{
    bool negative = negative_128(v);
    uvec4 m = negative ? negate_128(v) : v;
    float f = ((float(m.w) * 4294967296.0 + float(m.z)) * 4294967296.0 + float(m.y)) * 4294967296.0 + float(m.x);
    return negative ? -f : f;
}

bool less_64(uvec2 a, uvec2 b)
{
    return a.y < b.y || (a.y == b.y && a.x < b.x);
}

// ---- exact sums: BIG_WORDS words of two's complement fixed point, bit BIG_ZERO weighing 1 ----
// The terms are products of up to three float32 values and an integer below 2^64: none has a
// bit below 2^-447 (three subnormals) and no sum of them reaches 2^383.
const uint BIG_WORDS = 26u;
const int BIG_ZERO = 448;
const uint BIG_ONE = 14u;       // the word holding 2^0
uint big[BIG_WORDS];

void big_clear()
{
    for (uint k = 0u; k < BIG_WORDS; k++)
        big[k] = 0u;
}

// big += -1^negative * a * b * c * 2^shift (a, b < 2^32, c < 2^64).
void big_add(bool negative, uint a, uint b, uvec2 c, int shift)
{
    uvec4 v = mul_64x64(mul_32x32(a, b), c);
    if (v == uvec4(0u))
        return;
    uint at = uint(shift + BIG_ZERO), w = at >> 5, r = at & 31u;
    uint part[5];
    part[0] = v.x << r;
    part[1] = r == 0u ? v.y : (v.y << r) | (v.x >> (32u - r));
    part[2] = r == 0u ? v.z : (v.z << r) | (v.y >> (32u - r));
    part[3] = r == 0u ? v.w : (v.w << r) | (v.z >> (32u - r));
    part[4] = r == 0u ? 0u : v.w >> (32u - r);
    uint carry = 0u;
    for (uint k = 0u; w + k < BIG_WORDS; k++) {
        if (k >= 5u && carry == 0u)
            break;
        uint add = 0u, c1, c2, d;
        if (k < 5u)     // a branch: a select would read past part's end
            add = part[k];
        if (negative) {
            d = usubBorrow(big[w + k], add, c1);
            big[w + k] = usubBorrow(d, carry, c2);
        } else {
            d = uaddCarry(big[w + k], add, c1);
            big[w + k] = uaddCarry(d, carry, c2);
        }
        carry = c1 | c2;
    }
}

// The sum as floor (128-bit, when it fits) and whether a fraction remains. range: -1 below
// -2^126, 1 at or above 2^126, 0 when `whole` holds the floor.
struct Exact {
    int range;
    uvec4 whole;
    bool fraction;
    float part;         // the fraction, roughly
};

Exact big_value()
{
    Exact e;
    bool negative = (big[BIG_WORDS - 1u] >> 31) != 0u;
    uint extension = negative ? 0xffffffffu : 0u;
    bool fits = (big[BIG_ONE + 3u] >> 31) == (negative ? 1u : 0u);
    for (uint k = BIG_ONE + 4u; k < BIG_WORDS; k++)
        fits = fits && big[k] == extension;
    e.range = fits ? 0 : negative ? -1 : 1;
    e.whole = uvec4(big[BIG_ONE], big[BIG_ONE + 1u], big[BIG_ONE + 2u], big[BIG_ONE + 3u]);
    e.fraction = false;
    for (uint k = 0u; k < BIG_ONE; k++)
        e.fraction = e.fraction || big[k] != 0u;
    e.part = float(big[BIG_ONE - 1u]) * (1.0 / 4294967296.0) + float(big[BIG_ONE - 2u]) * (1.0 / 18446744073709551616.0);
    return e;
}

struct FloatParts {
    bool negative;
    uint mantissa;
    int exponent;   // value = mantissa * 2^exponent
};

FloatParts float_parts(float f)
{
    uint bits = floatBitsToUint(f), biased = (bits >> 23) & 0xffu;
    FloatParts p;
    p.negative = (bits >> 31) != 0u;
    p.mantissa = (bits & 0x7fffffu) | (biased != 0u ? 0x800000u : 0u);
    p.exponent = int(max(biased, 1u)) - 150;
    return p;
}

// ---- one axis of the region (a table entry is roi_align_table.glsl's Axis) ----
struct RoiAxis {
    float lo, hi;       // the ROI's coordinates on this axis, unscaled
    float scale;
    uint bins, size, n; // bins, input size, samples per bin
    int dir;            // sign of the extent: 1, -1, or 0 (every sample at one place)
    uvec2 count;        // bins * n
    uvec2 d;            // D
    bool single;        // aligned to corners with one sample: t = 1/2
};

// Sums S*lo*w_lo + S*hi*w_hi - InputPixelOffset*w_off, each weight an integer below 2^64 plus
// (offset_terms) OutputPixelOffset times -1, +1 and 0, all doubled: 2*D*p for weights D - s, s, D.
void sum_position(RoiAxis a, uvec2 w_lo, uvec2 w_hi, uvec2 w_off, bool offset_terms)
{
    FloatParts sc = float_parts(a.scale), lo = float_parts(a.lo), hi = float_parts(a.hi);
    FloatParts in_off = float_parts(pc.p.in_off), out_off = float_parts(offset_terms ? pc.p.out_off : 0.0);
    big_clear();
    // One call site: the sum is compiled once.
    for (uint t = 0u; t < 5u; t++) {
        bool hi_term = t == 1u || t == 3u;
        FloatParts x = hi_term ? hi : lo;
        bool negative = sc.negative != x.negative;
        uint a1 = sc.mantissa, a2 = x.mantissa;
        uvec2 c = hi_term ? w_hi : w_lo;
        int shift = 1 + sc.exponent + x.exponent;
        if (t == 2u || t == 3u) {   // S*lo*o and -S*hi*o, from u = s - o in both weights
            c = uvec2(out_off.mantissa, 0u);
            shift += out_off.exponent;
            negative = negative != out_off.negative != (t == 3u);
        } else if (t == 4u) {
            a1 = in_off.mantissa;
            a2 = 1u;
            c = w_off;
            shift = 1 + in_off.exponent;
            negative = !in_off.negative;
        }
        big_add(negative, a1, a2, c, shift);
    }
}

// 2*D*p of sample s (0 <= s < count), exactly, in big: one call of sum_position, which is inlined
// wherever a sample is placed.
void sum_sample(RoiAxis a, uvec2 s)
{
    bool single = a.single;
    uvec2 one = uvec2(1u, 0u);
    sum_position(a, single ? one : sub_64(a.d, s), single ? one : s, single ? uvec2(2u, 0u) : a.d, !single && !ALIGN_CORNERS);
}

// q = floor(2p) where it lies in [-4, 2 * size + 2), else -5 below or 2 * size + 2 above; r = 2Dp - qD
// where inside, and whether that is exact.
struct Place {
    int q;
    uvec2 r;
    bool exact;
    float part;     // the fraction of 2Dp, so that r + part is 2Dp - qD roughly
};

Place place(RoiAxis a, Exact e)
{
    Place p;
    int top = 2 * int(a.size) + 2;
    p.r = uvec2(0u);
    p.exact = false;
    p.part = e.part;
    if (e.range != 0 || compare_128(e.whole, mul_int(-4, a.d)) < 0) {
        p.q = e.range > 0 ? top : -5;
        return p;
    }
    if (compare_128(e.whole, mul_int(top, a.d)) >= 0) {
        p.q = top;
        return p;
    }
    // The largest q with q * D <= whole: a float guess and its neighbour first (mostly right),
    // then bisection.
    int lo = -4, hi = top - 1;
    int guess = int(clamp(floor(float_128(e.whole) / float_64(a.d)), float(lo), float(hi)));
    if (compare_128(e.whole, mul_int(guess, a.d)) >= 0) {
        lo = guess;
        if (guess < hi && compare_128(e.whole, mul_int(guess + 1, a.d)) >= 0)
            lo = guess + 1;
        else
            hi = guess;
    } else {
        hi = guess - 1;
        if (compare_128(e.whole, mul_int(guess - 1, a.d)) >= 0)
            lo = guess - 1;
        else
            hi = guess - 2;
    }
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (compare_128(e.whole, mul_int(mid, a.d)) >= 0)
            lo = mid;
        else
            hi = mid - 1;
    }
    p.q = lo;
    p.r = add_128(e.whole, negate_128(mul_int(lo, a.d))).xy;
    p.exact = p.r == uvec2(0u) && !e.fraction;
    return p;
}

#if DMLVK_FLOAT64
// place() of sample s from a float64 sum of the five terms, where that sum's error bound keeps the
// exact value inside one cell (strictly: an exact multiple of D never passes), so every decision is
// the exact sum's; false elsewhere (subnormal or non-finite inputs, D of 2^30 or more, a map of
// 2^20 or more, a sum near an edge). Its chain is a few float64 operations where the exact sum's
// is hundreds of dependent integer ones (BENCHMARKS.md note 201).
bool place_estimated(RoiAxis a, uvec2 s, out Place p)
{
    p.q = 0;
    p.r = uvec2(0u);
    p.exact = false;
    p.part = 0.0;
    float o = !a.single && !ALIGN_CORNERS ? pc.p.out_off : 0.0;
    // A float64 conversion may flush a subnormal float32; zero and normal values convert exactly.
    uvec4 bits = floatBitsToUint(vec4(a.scale, a.lo, a.hi, pc.p.in_off)) & 0x7fffffffu;
    uint o_bits = floatBitsToUint(o) & 0x7fffffffu;
    bool normal = all(lessThan(bits, uvec4(0x7f800000u))) && all(greaterThanEqual(bits - 1u, uvec4(0x7fffffu))) &&
                  o_bits < 0x7f800000u && o_bits - 1u >= 0x7fffffu;
    if (!normal || a.d.y != 0u || a.d.x >= (1u << 30) || s.y != 0u || a.size >= (1u << 20))
        return false;
    double d = double(a.d.x);
    double w_lo = a.single ? 1.0LF : d - double(s.x), w_hi = a.single ? 1.0LF : double(s.x);
    double w_off = a.single ? 2.0LF : d;
    // 2*S*lo and 2*S*hi are exact (48 bits); the five terms and the four sums round once each, by at
    // most 2^-53 of the terms' summed magnitude: 2^-49 of it bounds the error with room.
    double lo2 = 2.0LF * double(a.scale) * double(a.lo), hi2 = 2.0LF * double(a.scale) * double(a.hi);
    double t0 = lo2 * w_lo, t1 = hi2 * w_hi, t2 = lo2 * double(o), t3 = -(hi2 * double(o));
    double t4 = -(2.0LF * double(pc.p.in_off) * w_off);
    double sum = ((t0 + t1) + (t2 + t3)) + t4;
    double bound = (abs(t0) + abs(t1) + abs(t2) + abs(t3) + abs(t4)) * (1.0LF / 562949953421312.0LF); // 2^-49
    int top = 2 * int(a.size) + 2;
    if (sum + bound < -4.0LF * d) {
        p.q = -5;
        return true;
    }
    if (sum - bound >= double(top) * d) {
        p.q = top;
        return true;
    }
    // q * d is exact (|q| < 2^22, d < 2^30) and so is the check: the division's rounding cannot pass it.
    double q = floor(sum / d);
    if (q < -4.0LF || q > double(top - 1))
        return false;
    double t = sum - q * d, error = bound + abs(t) * (1.0LF / 4503599627370496.0LF);   // 2^-52
    if (!(t - error > 0.0LF && t + error < d))
        return false;
    double whole = floor(t);
    p.q = int(q);
    p.r = uvec2(uint(whole), 0u);
    p.part = float(t - whole);
    return true;
}
#endif

Place place_sample(RoiAxis a, uvec2 s)
{
#if DMLVK_FLOAT64
    Place estimated;
    if (place_estimated(a, s, estimated))
        return estimated;
#endif
    sum_sample(a, s);
    return place(a, big_value());
}

// p < -1 and p > size: out of bounds on either side.
bool below(Place p)
{
    return p.q < -2;
}

bool above(RoiAxis a, Place p)
{
    int top = 2 * int(a.size);
    return p.q > top || (p.q == top && !p.exact);
}

bool outside(RoiAxis a, Place p)
{
    return below(p) || above(a, p);
}

// Whether sample s lies at or past the far edge of the bounds in the axis' direction (past
// size going up, below -1 going down), or (first) at or past the near edge.
bool past(RoiAxis a, uvec2 s, bool first)
{
    Place p = place_sample(a, s);
    if (a.dir >= 0)
        return first ? !below(p) : above(a, p);
    return first ? !above(a, p) : below(p);
}

// ceil(|W| / bins) clamped to [MinimumSamplesPerOutput, MaximumSamplesPerOutput], |W| exactly.
uint samples_per_bin(RoiAxis a)
{
    if (pc.p.min_samples == pc.p.max_samples)   // a fixed sampling ratio: |W| cannot move the clamp
        return pc.p.min_samples;
    FloatParts sc = float_parts(a.scale), lo = float_parts(a.lo), hi = float_parts(a.hi);
    big_clear();
    for (uint t = 0u; t < 2u; t++) {
        FloatParts x = t == 0u ? hi : lo;
        big_add((sc.negative != x.negative) != (t == 1u), sc.mantissa, x.mantissa, uvec2(1u, 0u), sc.exponent + x.exponent);
    }
    Exact e = big_value();
    if (a.dir < 0) {    // |W|: floor(-W) = -floor(W) - 1 where a fraction remains
        e.range = -e.range;
        e.whole = negate_128(e.whole);
        if (e.fraction)
            e.whole = add_128(e.whole, uvec4(0xffffffffu));
    }
    uint lo_n = pc.p.min_samples, hi_n = pc.p.max_samples;
    // The smallest k with bins * k >= ceil(|W|), by bisection over [min, max].
    uvec4 need = e.fraction ? add_128(e.whole, uvec4(1u, 0u, 0u, 0u)) : e.whole;
    if (e.range == 0 && need.yzw == uvec3(0u))
        return clamp(need.x / a.bins + (need.x % a.bins != 0u ? 1u : 0u), lo_n, hi_n);
    if (e.range > 0 || compare_128(need, mul_64x64(uvec2(a.bins, 0u), uvec2(hi_n, 0u))) > 0)
        return hi_n;
    while (lo_n < hi_n) {
        uint mid = lo_n + (hi_n - lo_n) / 2u;
        if (compare_128(need, mul_64x64(uvec2(a.bins, 0u), uvec2(mid, 0u))) <= 0)
            hi_n = mid;
        else
            lo_n = mid + 1u;
    }
    return lo_n;
}

int float_sign(float f)
{
    uint bits = floatBitsToUint(f);
    return (bits & 0x7fffffffu) == 0u ? 0 : (bits >> 31) != 0u ? -1 : 1;
}

// sign(a - b), exactly (no subtraction that could flush or round).
int float_compare(float a, float b)
{
    int sa = float_sign(a), sb = float_sign(b);
    if (sa != sb)
        return sa > sb ? 1 : -1;
    if (sa == 0)
        return 0;
    uint ma = floatBitsToUint(a) & 0x7fffffffu, mb = floatBitsToUint(b) & 0x7fffffffu;
    return ma == mb ? 0 : (ma > mb) == (sa > 0) ? 1 : -1;
}

RoiAxis make_axis(float lo, float hi, float scale, uint bins, uint size)
{
    RoiAxis a;
    a.lo = lo;
    a.hi = hi;
    a.scale = scale;
    a.bins = bins;
    a.size = size;
    a.dir = float_sign(scale) * float_compare(hi, lo);
    a.n = samples_per_bin(a);
    a.count = mul_32x32(bins, a.n);
    a.single = ALIGN_CORNERS && a.count == uvec2(1u, 0u);
    a.d = a.single ? uvec2(2u, 0u) : ALIGN_CORNERS ? sub_64(a.count, uvec2(1u, 0u)) : a.count;
    return a;
}

// Roughly the sample at which the position reaches edge (float arithmetic, for a starting point).
float sample_estimate(RoiAxis a, float edge)
{
    float start = a.scale * a.lo, extent = a.scale * a.hi - start;
    float t = (edge + pc.p.in_off - start) / extent;
    float s = t * float_64(a.d) + (ALIGN_CORNERS ? 0.0 : pc.p.out_off);
    return isnan(s) ? 0.0 : s;
}

// Sample s's table entry (roi_align_abi.h), from its place p.
uvec4 placed_entry(RoiAxis a, uvec2 s, Place p)
{
    int top = 2 * int(a.size);
    uint flags = 0u;
    bool low = p.q < 0, high = p.q > top - 2 || (p.q == top - 2 && !p.exact);
    uint i0 = 0u;
    float w = 0.0;
    if (low || high) {
        flags |= ROI_ENTRY_CLAMPED;
        i0 = low ? 0u : a.size - 1u;
    } else if (LINEAR) {
        i0 = uint(p.q) >> 1;
        float d = float_64(a.d);
        w = clamp((float_64(p.r) + p.part + ((p.q & 1) != 0 ? d : 0.0)) / (2.0 * d), 0.0, 1.0);
        if (i0 == a.size - 1u)
            w = 0.0;
    } else {
        i0 = min(uint(p.exact ? p.q : p.q + 1) >> 1, a.size - 1u);
    }
    float t;
    if (a.single)
        t = 0.5;
    else if (ALIGN_CORNERS)
        t = float_64(s) / float_64(a.d);
    else
        t = (float_64(s) - pc.p.out_off) / float_64(a.d);
    return uvec4(i0, flags, floatBitsToUint(w), floatBitsToUint(t));
}

// The windows' edges: per axis, the first sample at or past the near edge of the bounds and the
// first past the far edge, each the first s in [0, count] where past() holds (it is monotone).
// The first round's lanes probe the samples next to a float estimate; later rounds probe evenly
// spaced samples of the range, from the side the estimate was on, at steps growing by the lane
// count each round while the range is wider (an estimate off by 2^k costs about k / log2(lanes)
// rounds). The first probe that holds, with the one before it, narrows the range.
const uint SEARCHES = 4u;               // x near, x far, y near, y far
const uint NO_HIT = 0xffffffffu;
shared uvec4 search_range[SEARCHES];    // [lo, hi]: where the answer lies
shared uvec2 search_start[SEARCHES];    // the first round's first probe
shared uint search_hit[SEARCHES];       // the first lane whose probe holds, this round
shared uint search_down;                // bit k: search k's answer lay below its first round's probes
shared uvec4 axis_window[2];
shared RoiAxis axes[2];
// An axis of at most DIRECT_LANES samples takes no search: one invocation places each of its
// samples (axis k on invocations [k * DIRECT_LANES, (k + 1) * DIRECT_LANES)), the counts of those
// below and above the bounds give its window, and the same places give its entries. That is one
// exact sum on the way, where a search round and the entries took two.
const uint DIRECT_LANES = gl_WorkGroupSize.x / 2u;
shared bool axis_direct[2];
shared uint direct_below[2], direct_above[2];
// Per axis, the positions (first tap plus weight) of the middle two samples of its window: where
// they lie less than a pixel apart, so do all (evenly spaced, or clamped onto one tap), and n
// samples per bin tap at most n + 1 lines (ROI_SHARED_TAPS).
shared float middle_at[2][2];

// Notes entry e of axis k's window of `count` entries where it is one of the middle two.
void note_middle(uint k, uint e, uint count, uvec4 entry)
{
    if (count >= 2u && e + 1u >= count / 2u && e <= count / 2u)
        middle_at[k][e + 1u - count / 2u] = float(entry.x) + uintBitsToFloat(entry.z);
}

// Whether axis k's samples of its window of `count` entries share taps (middle_at).
bool axis_shares_taps(uint k, uint count)
{
    return axes[k].n >= 2u && count >= 2u && abs(middle_at[k][1] - middle_at[k][0]) < 1.0;
}

// ROI_SHARED_TAPS, or 0: the lists of the bins' taps fit and load at most
// ROI_SHARED_TAPS_MOST_LOADS_NUM / ROI_SHARED_TAPS_MOST_LOADS_DEN of the taps the walks load (two
// per sample and axis where LINEAR, else one).
uint shared_taps(uint count_x, uint count_y)
{
    uint nx = axes[0].n, ny = axes[1].n, per_sample = LINEAR ? 2u : 1u;
    if (pc.p.out_w > ROI_SHARED_TAPS_BINS || pc.p.out_h > ROI_SHARED_TAPS_BINS ||
        nx > ROI_SHARED_TAPS_ENTRIES / (2u * pc.p.out_w) || ny > ROI_SHARED_TAPS_ENTRIES / (2u * pc.p.out_h))
        return 0u;
    bool sx = axis_shares_taps(0u, count_x), sy = axis_shares_taps(1u, count_y);
    uint tx = sx ? nx + 1u : per_sample * nx, ty = sy ? ny + 1u : per_sample * ny;
    uint walk_loads = per_sample * per_sample * nx * ny;
    bool fewer = ROI_SHARED_TAPS_MOST_LOADS_DEN * tx * ty <= ROI_SHARED_TAPS_MOST_LOADS_NUM * walk_loads;
    return (sx || sy) && fewer ? ROI_SHARED_TAPS : 0u;
}

// Lanes per search: a power of two, so that the four searches fill a warp of 32; more would
// only add work where the estimate is right, as it mostly is.
uint search_lanes()
{
    return 1u << findMSB(clamp(gl_WorkGroupSize.x / SEARCHES, 1u, 8u));
}

// Lane t's probe in search k; false where it has none.
bool search_probe(uint k, uint t, uint round, out uvec2 probe)
{
    uvec4 range = search_range[k];
    uint lanes = search_lanes();
    probe = uvec2(0u);
    if (t >= lanes)
        return false;
    if (round == 0u) {
        probe = add_64(search_start[k], uvec2(t, 0u));
        return less_64(probe, range.zw);
    }
    // step: the span over 2^shift rounded up, or less while the search still widens
    uvec2 span = sub_64(range.zw, range.xy);
    uint shift = max(uint(findMSB(lanes)), 1u), grow = shift * round;
    uvec2 up = add_64(span, uvec2((1u << shift) - 1u, 0u));
    uvec2 step = uvec2((up.x >> shift) | (up.y << (32u - shift)), up.y >> shift);
    uvec2 widening = grow < 32u ? uvec2(1u << grow, 0u) : grow < 64u ? uvec2(0u, 1u << (grow - 32u)) : step;
    if (less_64(widening, step))
        step = widening;
    if ((search_down & (1u << k)) == 0u) {
        probe = sub_64(add_64(range.xy, mul_64x64(uvec2(t + 1u, 0u), step).xy), uvec2(1u, 0u));
        return less_64(probe, range.zw);
    }
    uvec2 back = mul_64x64(uvec2(lanes - t, 0u), step).xy;
    probe = sub_64(range.zw, back);
    return !less_64(span, back);
}

// Search k's range after a round: below the first probe that held, past the one before it.
void search_narrow(uint k, uint round)
{
    uint hit = search_hit[k];
    uvec4 range = search_range[k];
    uvec2 probe;
    if (round == 0u && hit == 0u)
        atomicOr(search_down, 1u << k);
    if (hit != NO_HIT) {
        search_probe(k, hit, round, probe);
        range.zw = probe;
        if (hit > 0u && search_probe(k, hit - 1u, round, probe))
            range.xy = add_64(probe, uvec2(1u, 0u));
    } else {
        uint t = search_lanes();
        while (t > 0u && !search_probe(k, t - 1u, round, probe))
            t--;
        range.xy = add_64(probe, uvec2(1u, 0u));
    }
    search_range[k] = range;
    search_hit[k] = NO_HIT;
}

// Sets up axis k's searches (none where its window is known at once) and its window where known.
void start_searches(uint k, RoiAxis a, bool valid)
{
    uvec4 done = uvec4(0u);
    search_range[2u * k] = done;
    search_range[2u * k + 1u] = done;
    search_hit[2u * k] = NO_HIT;
    search_hit[2u * k + 1u] = NO_HIT;
    axis_window[k] = uvec4(0u);
    axis_direct[k] = false;
    direct_below[k] = 0u;
    direct_above[k] = 0u;
    if (!valid)
        return;
    if (a.dir == 0 || a.single) {   // every sample at one place: all in bounds or none
        if (!outside(a, place_sample(a, uvec2(0u))))
            axis_window[k] = uvec4(0u, 0u, a.count);
        return;
    }
    if (a.count.y == 0u && a.count.x <= DIRECT_LANES) {
        axis_direct[k] = true;
        return;
    }
    uint lanes = search_lanes();
    for (uint e = 0u; e < 2u; e++) {
        float edge = (e == 0u) == (a.dir > 0) ? -1.0 : float(a.size);
        float estimate = sample_estimate(a, edge) - float(lanes / 2u);
        uvec2 start = uvec2(0u);
        if (estimate > 0.0)
            start = estimate >= float_64(a.count) ? a.count
                                                  : uvec2(uint(mod(estimate, 4294967296.0)), uint(estimate / 4294967296.0));
        // lanes probes from start, inside [0, count)
        uvec2 room = less_64(a.count, uvec2(lanes, 0u)) ? uvec2(0u) : sub_64(a.count, uvec2(lanes, 0u));
        search_start[2u * k + e] = less_64(room, start) ? room : start;
        search_range[2u * k + e] = uvec4(0u, 0u, a.count);
    }
}

// Axis k's window of in-bounds samples, from its searches or its direct counts, into axis_window.
void set_window(uint k, bool valid)
{
    RoiAxis a = axes[k];
    uvec4 w = axis_window[k];
    if (axis_direct[k]) {
        // Positions are monotone: the samples below the bounds come first going up, last going
        // down, and those above the other way round; as a search would find it.
        uint before = a.dir > 0 ? direct_below[k] : direct_above[k];
        uint after = a.dir > 0 ? direct_above[k] : direct_below[k];
        w = uvec4(before, 0u, max(before, a.count.x - after), 0u);
    } else if (valid && a.dir != 0 && !a.single) {
        uvec2 first = search_range[2u * k].xy, end = search_range[2u * k + 1u].xy;
        w = uvec4(first, less_64(end, first) ? first : end);
    }
    // The proof of the tables' sizes (lib/roi_align.c) holds; this only keeps writes inside.
    uvec2 cap = uvec2(k == 0u ? pc.p.table_x : pc.p.table_y, 0u);
    if (less_64(cap, sub_64(w.zw, w.xy)))
        w.zw = add_64(w.xy, cap);
    axis_window[k] = w;
}

// Region r's tables and record, by the whole workgroup.
void place_region(uint r)
{
    uint lid = gl_LocalInvocationID.x;
    uint b = pc.batch.v[r * pc.p.batch_stride];
    bool valid = b < pc.p.batch_count;
    uint base = pc.p.table_base + r * (ROI_RECORD_VEC4 + pc.p.table_x + pc.p.table_y);
    if (lid == 0u)
        search_down = 0u;
    barrier();
    for (uint k = lid; k < 2u; k += gl_WorkGroupSize.x) {
        bool x = k == 0u;
        uint at = r * pc.p.roi_strides[0] + (x ? 0u : pc.p.roi_strides[1]);
        float lo = load(pc.rois, at), hi = load(pc.rois, at + 2u * pc.p.roi_strides[1]);
        RoiAxis a = make_axis(lo, hi, x ? pc.p.spatial_x : pc.p.spatial_y, x ? pc.p.out_w : pc.p.out_h,
                           x ? pc.p.in_w : pc.p.in_h);
        axes[k] = a;
        start_searches(k, a, valid);
    }
    uint lanes = search_lanes();
    for (uint round = 0u;; round++) {
        barrier();
        bool searching = false;
        for (uint k = 0u; k < SEARCHES; k++)
            searching = searching || search_range[k].xy != search_range[k].zw;
        if (!searching)
            break;
        for (uint i = lid; i < SEARCHES * lanes; i += gl_WorkGroupSize.x) {
            uint k = i / lanes;
            uvec2 probe;
            if (search_range[k].xy != search_range[k].zw && search_probe(k, i % lanes, round, probe) &&
                past(axes[k >> 1], probe, (k & 1u) == 0u))
                atomicMin(search_hit[k], i % lanes);
        }
        barrier();
        for (uint k = lid; k < SEARCHES; k += gl_WorkGroupSize.x)
            if (search_range[k].xy != search_range[k].zw)
                search_narrow(k, round);
    }
    // Two phases, with one call that places a sample (it is inlined wherever called): first the
    // direct axes' samples, whose counts give their windows, then the searched axes' entries.
    uint direct_axis = DIRECT_LANES > 0u ? lid / max(DIRECT_LANES, 1u) : 2u, direct_sample = lid - direct_axis * DIRECT_LANES;
    bool placing = direct_axis < 2u && axis_direct[direct_axis] && direct_sample < axes[direct_axis].count.x;
    uvec4 direct_entry = uvec4(0u);
    uint count_x = 0u, count_y = 0u;
    for (uint phase = 0u; phase < 2u; phase++) {
        if (phase == 1u) {
            barrier();
            for (uint k = lid; k < 2u; k += gl_WorkGroupSize.x)
                set_window(k, valid);
            barrier();
            count_x = axis_window[0].z - axis_window[0].x;
            count_y = axis_window[1].z - axis_window[1].x;
            uvec4 w = placing ? axis_window[direct_axis] : uvec4(0u);
            if (placing && direct_sample >= w.x && direct_sample < w.z) {
                uint e = direct_sample - w.x;
                store_table(base + ROI_RECORD_VEC4 + (direct_axis == 0u ? 0u : pc.p.table_x) + e, direct_entry);
                note_middle(direct_axis, e, direct_axis == 0u ? count_x : count_y, direct_entry);
            }
        }
        for (uint k = lid; k < (phase == 0u ? gl_WorkGroupSize.x : count_x + count_y); k += gl_WorkGroupSize.x) {
            bool x = k < count_x;
            uint slot = phase == 0u ? direct_axis : x ? 0u : 1u, e = x ? k : k - count_x;
            if (phase == 0u ? !placing : axis_direct[slot])
                continue;
            uvec2 s = phase == 0u ? uvec2(direct_sample, 0u) : add_64(axis_window[slot].xy, uvec2(e, 0u));
            RoiAxis a = axes[slot];
            Place p = place_sample(a, s);
            uvec4 entry = placed_entry(a, s, p);
            if (phase == 1u) {
                store_table(base + ROI_RECORD_VEC4 + (x ? 0u : pc.p.table_x) + e, entry);
                note_middle(slot, e, x ? count_x : count_y, entry);
                continue;
            }
            direct_entry = entry;
            if (below(p))
                atomicAdd(direct_below[slot], 1u);
            if (above(a, p))
                atomicAdd(direct_above[slot], 1u);
        }
    }
    barrier();
    if (lid == 0u) {
        if (!valid)
            atomicAdd(pc.counters.v[ROI_COUNTER_SKIPPED_REGIONS], 1u);
        // Windows as (bin, sample in bin) of their first and end samples.
        uvec4 record[2];
        for (uint k = 0u; k < 2u; k++) {
            uint n = axes[k].n;
            uvec4 w = axis_window[k];
            uvec4 split;
            for (uint e = 0u; e < 2u; e++) {
                uvec2 s = e == 0u ? w.xy : w.zw;
                // s / n < 2^32 (s <= bins * n): directly below 2^32, else bisection on the quotient.
                uint lo = s.y == 0u ? s.x / n : 0u, hi = s.y == 0u ? lo : 0xffffffffu;
                while (lo < hi) {
                    uint mid = hi - ((hi - lo) >> 1);
                    if (less_64(s, mul_32x32(mid, n)))
                        hi = mid - 1u;
                    else
                        lo = mid;
                }
                split[2u * e] = lo;
                split[2u * e + 1u] = s.x - lo * n;
            }
            record[k] = split;
        }
        uint flags = (axes[0].dir < 0 ? ROI_DECREASING_X : 0u) | (axes[1].dir < 0 ? ROI_DECREASING_Y : 0u);
        flags |= valid ? shared_taps(count_x, count_y) : 0u;
        store_table(base, uvec4(valid ? b : ROI_NO_BATCH, axes[0].n, axes[1].n, flags));
        store_table(base + 1u, record[0]);
        store_table(base + 2u, record[1]);
    }
}
