// MAX's winner search under ROI_ALIGN_GRAD (max_sample in roi_align_grad_common.glsl) decides on
// float32 values, except where two samples' values, or the winner's and the 0 of the samples out
// of bounds, lie within float32's error of each other: there the stages' second pass (EXACT_TIES)
// decides in real arithmetic (OPERATORS.md section 4: the first largest), on the exact positions
// of roi_align_exact.glsl. Samples at fractions a float cannot hold (fifths of a pixel) may tie
// exactly on different taps, which float32 sums order by their rounding.
//
// Along an axis with D (roi_align_exact.glsl), 2F = 2Dp - 2 * i0 * D is the doubled numerator of
// the second tap's weight F / D, and 2D - 2F the first's: both in big's fixed point (BIG_ZERO
// bits of fraction) below 2D <= 2^65. A sample's value times 4 * D_y * D_x, which is the same for
// every sample of a bin, is the sum over its taps of the two weights' numerators times the tap:
// an integer once scaled by 2^(2 * BIG_ZERO + 149), summed without rounding in tie_sum.
#extension GL_EXT_control_flow_attributes : require
#include "roi_align_exact.glsl"

// Every loop here stays a loop, and each function has one call site: this path is rare, and
// unrolled and inlined it made lavapipe's compile of the MAX stages run for minutes.

const uint TIE_WORDS = BIG_ONE + 3u;
const uint TIE_PRODUCT = 2u * TIE_WORDS;
// A product of two numerators (TIE_PRODUCT words) times a float's mantissa (24 bits) at up to 253
// bits (8 words) above the least subnormal, eight of them, and a sign.
const uint TIE_SUM_WORDS = TIE_PRODUCT + 2u + 8u + 1u;
uint tie_high[2][TIE_WORDS], tie_low[2][TIE_WORDS];    // per axis (0 y, 1 x): 2F and 2D - 2F
uint tie_product[TIE_PRODUCT];
uint tie_sum[TIE_SUM_WORDS];

// tie_high[k] += -1^negative * a1 * a2 * c * 2^shift in big's fixed point, modulo 2^(32 * TIE_WORDS):
// the terms of 2Dp may pass 2^65 where their sum, less 2 * i0 * D, does not.
void tie_add_term(uint k, Term m)
{
    uvec4 v = mul_64x64(mul_32x32(m.a1, m.a2), m.c);
    int at = m.shift + BIG_ZERO;    // no term has a bit below 2^-BIG_ZERO
    if (v == uvec4(0u) || at >= int(32u * TIE_WORDS))
        return;
    uint w = uint(at) >> 5, r = uint(at) & 31u, carry = 0u;
    [[dont_unroll]] for (uint j = 0u; w + j < TIE_WORDS; j++) {
        if (j > 4u && carry == 0u)
            break;
        uint high = j < 4u ? v[j] : 0u, low = j >= 1u && j <= 4u ? v[j - 1u] : 0u;
        uint add = r == 0u ? high : (high << r) | (low >> (32u - r)), b1, b2, d;
        if (m.negative) {
            d = usubBorrow(tie_high[k][w + j], add, b1);
            tie_high[k][w + j] = usubBorrow(d, carry, b2);
        } else {
            d = uaddCarry(tie_high[k][w + j], add, b1);
            tie_high[k][w + j] = uaddCarry(d, carry, b2);
        }
        carry = b1 | b2;
    }
}

// Sample s (entry e) of axis a, k: its numerators into tie_high[k] and tie_low[k]. A clamped
// position, or one exactly on the last tap (i1 = i0), gives the second tap no weight. 2Dp's five
// terms (roi_align_exact.glsl) and -2 * i0 * D as a sixth, summed in loops: not the geometry's
// sum_sample, whose unrolled words took the MAX stages 128 registers on NVIDIA.
void tie_weights(uint k, RoiAxis a, uvec2 s, Axis e)
{
    [[dont_unroll]] for (uint w = 0u; w < TIE_WORDS; w++)
        tie_high[k][w] = 0u;
    if (!e.clamped && e.i1 != e.i0) {
        Position p = position_of(a, s);
        [[dont_unroll]] for (uint t = 0u; t < 6u; t++) {
            Term m;
            if (t < 5u) {
                m = position_term(p, t);
            } else {
                m.negative = true;
                m.a1 = e.i0;
                m.a2 = 2u;
                m.c = a.d;
                m.shift = 0;
            }
            tie_add_term(k, m);
        }
    }
    uvec2 d = a.d;
    uvec3 two_d = uvec3(d.x << 1, (d.y << 1) | (d.x >> 31), d.y >> 31);
    uint borrow = 0u;
    [[dont_unroll]] for (uint w = 0u; w < TIE_WORDS; w++) {
        uint b1, b2, v = usubBorrow(w >= BIG_ONE ? two_d[w - BIG_ONE] : 0u, tie_high[k][w], b1);
        tie_low[k][w] = usubBorrow(v, borrow, b2);
        borrow = b1 | b2;
    }
}

bool tie_nonzero(uint k)
{
    bool any = false;
    [[dont_unroll]] for (uint w = 0u; w < TIE_WORDS; w++)
        any = any || tie_high[k][w] != 0u;
    return any;
}

// tie_product = (y's second numerator, or its first) * (x's likewise).
void tie_multiply(bool y_high, bool x_high)
{
    [[dont_unroll]] for (uint w = 0u; w < TIE_PRODUCT; w++)
        tie_product[w] = 0u;
    [[dont_unroll]] for (uint i = 0u; i < TIE_WORDS; i++) {
        uint a = y_high ? tie_high[0][i] : tie_low[0][i];
        if (a == 0u)
            continue;
        uint carry = 0u;
        [[dont_unroll]] for (uint j = 0u; j < TIE_WORDS; j++) {
            uint b = x_high ? tie_high[1][j] : tie_low[1][j];
            uint hi, lo, c1, c2;
            umulExtended(a, b, hi, lo);
            lo = uaddCarry(lo, tie_product[i + j], c1);
            lo = uaddCarry(lo, carry, c2);
            tie_product[i + j] = lo;
            carry = hi + c1 + c2;   // a * b + two words < 2^64
        }
        tie_product[i + TIE_WORDS] = carry;
    }
}

// tie_sum += -1^negative * tie_product * c * 2^(32 * w), c < 2^55.
void tie_accumulate(bool negative, uvec2 c, uint w)
{
    uint carry_lo = 0u, carry_hi = 0u, chain = 0u;
    [[dont_unroll]] for (uint k = 0u; w + k < TIE_SUM_WORDS; k++) {
        uint word = 0u;
        if (k < TIE_PRODUCT + 2u) {
            uint p0 = k < TIE_PRODUCT ? tie_product[k] : 0u;
            uint p1 = k >= 1u && k <= TIE_PRODUCT ? tie_product[k - 1u] : 0u;
            uint h0, l0, h1, l1, c1, c2, c3, c4, c5;
            umulExtended(p0, c.x, h0, l0);
            umulExtended(p1, c.y, h1, l1);
            word = uaddCarry(l0, l1, c1);
            word = uaddCarry(word, carry_lo, c2);
            uint high = uaddCarry(h0, h1, c3);
            high = uaddCarry(high, carry_hi, c4);
            carry_lo = uaddCarry(high, c1 + c2, c5);
            carry_hi = c3 + c4 + c5;
        } else if (chain == 0u) {
            break;
        }
        uint b1, b2, v;
        if (negative) {
            v = usubBorrow(tie_sum[w + k], word, b1);
            tie_sum[w + k] = usubBorrow(v, chain, b2);
        } else {
            v = uaddCarry(tie_sum[w + k], word, b1);
            tie_sum[w + k] = uaddCarry(v, chain, b2);
        }
        chain = b1 | b2;
    }
}

// tie_sum += -1^negative * 4 * D_y * D_x * (the value of sample (sy, sx) of plane at entries y, x)
// in the fixed point; false where a tap of weight other than 0 is Inf or NaN.
bool tie_add_sample(bool negative, RoiAxis ay, RoiAxis ax, uvec2 sy, uvec2 sx, Axis y, Axis x, uint plane)
{
    [[dont_unroll]] for (uint k = 0u; k < 2u; k++)
        tie_weights(k, k == 0u ? ay : ax, k == 0u ? sy : sx, k == 0u ? y : x);
    bool y_second = tie_nonzero(0u), x_second = tie_nonzero(1u);
    [[dont_unroll]] for (uint t = 0u; t < 4u; t++) {
        bool y_high = t >= 2u, x_high = (t & 1u) != 0u;
        if ((y_high && !y_second) || (x_high && !x_second))
            continue;
        float v = load(pc.x, plane + (y_high ? y.i1 : y.i0) * pc.p.in_strides[2] + (x_high ? x.i1 : x.i0) * pc.p.in_strides[3]);
        if (!finite_float(v))
            return false;
        if (v == 0.0)
            continue;
        FloatParts f = float_parts(v);
        uint shift = uint(f.exponent + 149), r = shift & 31u;
        tie_multiply(y_high, x_high);
        tie_accumulate(negative != f.negative, uvec2(f.mantissa << r, r == 0u ? 0u : f.mantissa >> (32u - r)), shift >> 5);
    }
    return true;
}

// sign(V_b - V_a) in real arithmetic for samples a and b (iy, ix in their bin) of bin i in plane,
// or sign(-V_a) where !with_b; 2 where a tap that takes part is Inf or NaN.
int tie_compare(uvec4 i, uint plane, uvec2 a, Axis ay, Axis ax, bool with_b, uvec2 b, Axis by, Axis bx, uint ny, uint nx)
{
    RoiAxis y_axis = with_samples(axis_of(i.x, false), ny), x_axis = with_samples(axis_of(i.x, true), nx);
    uvec2 bin_y = mul_32x32(i.z, ny), bin_x = mul_32x32(i.w, nx);
    [[dont_unroll]] for (uint w = 0u; w < TIE_SUM_WORDS; w++)
        tie_sum[w] = 0u;
    [[dont_unroll]] for (uint k = 0u; k < (with_b ? 2u : 1u); k++) {
        uvec2 at = k == 0u ? a : b;
        if (!tie_add_sample(k == 0u, y_axis, x_axis, add_64(bin_y, uvec2(at.x, 0u)), add_64(bin_x, uvec2(at.y, 0u)),
                            k == 0u ? ay : by, k == 0u ? ax : bx, plane))
            return 2;
    }
    bool zero = true;
    [[dont_unroll]] for (uint w = 0u; w < TIE_SUM_WORDS; w++)
        zero = zero && tie_sum[w] == 0u;
    return zero ? 0 : (tie_sum[TIE_SUM_WORDS - 1u] >> 31) != 0u ? -1 : 1;
}
