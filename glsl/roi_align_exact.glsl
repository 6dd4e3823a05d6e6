// Exact sums of a sample's position (OPERATORS.md section 4), shared by the geometry stage
// (roi_align_geometry.glsl), which decides every sample's place on them, and MAX's winner search
// under ROI_ALIGN_GRAD (roi_align_grad_ties.glsl), which decides near ties on them. The including
// shader declares the push constants (roi_align_abi.h, with rois) and includes roi_align_table.glsl
// first.

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
        uint add = k < 5u ? part[k] : 0u, c1, c2, d;
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

// A term of 2*D*p: -1^negative * a1 * a2 * c * 2^shift (a1, a2 < 2^32, c < 2^64).
struct Term {
    bool negative;
    uint a1, a2;
    uvec2 c;
    int shift;
};

// What the terms of sample s's 2*D*p take: S*lo*w_lo + S*hi*w_hi - InputPixelOffset*w_off, each
// weight an integer below 2^64 plus (but aligned to corners) OutputPixelOffset times -1, +1 and 0,
// all doubled: weights D - s, s, D (1, 1, 2 for a single sample).
struct Position {
    FloatParts sc, lo, hi, in_off, out_off;
    uvec2 w_lo, w_hi, w_off;
};

Position position_of(RoiAxis a, uvec2 s)
{
    bool single = a.single;
    uvec2 one = uvec2(1u, 0u);
    Position p;
    p.w_lo = single ? one : sub_64(a.d, s);
    p.w_hi = single ? one : s;
    p.w_off = single ? uvec2(2u, 0u) : a.d;
    p.sc = float_parts(a.scale);
    p.lo = float_parts(a.lo);
    p.hi = float_parts(a.hi);
    p.in_off = float_parts(pc.p.in_off);
    p.out_off = float_parts(!single && !ALIGN_CORNERS ? pc.p.out_off : 0.0);
    return p;
}

// Term t, 0 to 4.
Term position_term(Position p, uint t)
{
    bool hi_term = t == 1u || t == 3u;
    FloatParts x = hi_term ? p.hi : p.lo;
    Term m;
    m.negative = p.sc.negative != x.negative;
    m.a1 = p.sc.mantissa;
    m.a2 = x.mantissa;
    m.c = hi_term ? p.w_hi : p.w_lo;
    m.shift = 1 + p.sc.exponent + x.exponent;
    if (t == 2u || t == 3u) {   // S*lo*o and -S*hi*o, from u = s - o in both weights
        m.c = uvec2(p.out_off.mantissa, 0u);
        m.shift += p.out_off.exponent;
        m.negative = m.negative != p.out_off.negative != (t == 3u);
    } else if (t == 4u) {
        m.a1 = p.in_off.mantissa;
        m.a2 = 1u;
        m.c = p.w_off;
        m.shift = 1 + p.in_off.exponent;
        m.negative = !p.in_off.negative;
    }
    return m;
}

// 2*D*p of sample s (0 <= s < count), exactly, in big. One call site of big_add: the sum is
// compiled once, and sum_sample is inlined wherever a sample is placed.
void sum_sample(RoiAxis a, uvec2 s)
{
    Position p = position_of(a, s);
    big_clear();
    for (uint t = 0u; t < 5u; t++) {
        Term m = position_term(p, t);
        big_add(m.negative, m.a1, m.a2, m.c, m.shift);
    }
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

// Region r's axis (x or y) with n samples per bin.
RoiAxis axis_of(uint r, bool x)
{
    uint at = r * pc.p.roi_strides[0] + (x ? 0u : pc.p.roi_strides[1]);
    RoiAxis a;
    a.lo = load(pc.rois, at);
    a.hi = load(pc.rois, at + 2u * pc.p.roi_strides[1]);
    a.scale = x ? pc.p.spatial_x : pc.p.spatial_y;
    a.bins = x ? pc.p.out_w : pc.p.out_h;
    a.size = x ? pc.p.in_w : pc.p.in_h;
    a.dir = float_sign(a.scale) * float_compare(a.hi, a.lo);
    a.n = 0u;
    a.count = uvec2(0u);
    a.d = uvec2(0u);
    a.single = false;
    return a;
}

RoiAxis with_samples(RoiAxis a, uint n)
{
    a.n = n;
    a.count = mul_32x32(a.bins, n);
    a.single = ALIGN_CORNERS && a.count == uvec2(1u, 0u);
    a.d = a.single ? uvec2(2u, 0u) : ALIGN_CORNERS ? sub_64(a.count, uvec2(1u, 0u)) : a.count;
    return a;
}
