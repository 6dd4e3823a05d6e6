#include <math.h>
#include <string.h>

#include "half.h"

uint16_t half_from_float(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u)
        return (uint16_t)(sign | 0x7c00u | (ax > 0x7f800000u ? (0x200u | ((ax >> 13) & 0x3ffu)) : 0u));
    if (ax >= 0x477ff000u)
        return (uint16_t)(sign | 0x7c00u);
    if (ax < 0x38800000u) {
        if (ax < 0x33000000u)
            return (uint16_t)sign;
        uint32_t e = ax >> 23, m = (ax & 0x7fffffu) | 0x800000u, shift = 126u - e;
        uint32_t r = m >> shift, rem = m & ((1u << shift) - 1u), halfway = 1u << (shift - 1u);
        if (rem > halfway || (rem == halfway && (r & 1u)))
            r++;
        return (uint16_t)(sign | r);
    }
    uint32_t r = ax - 0x38000000u;
    return (uint16_t)(sign | ((r + 0xfffu + ((r >> 13) & 1u)) >> 13));
}

float half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, x;
    if (e == 0x1f) {
        x = sign | 0x7f800000u | (m << 13);
    } else if (e) {
        x = sign | ((e + 112u) << 23) | (m << 13);
    } else if (m) {
        /* subnormal: normalize */
        e = 113u;
        while (!(m & 0x400u)) {
            m <<= 1;
            e--;
        }
        x = sign | (e << 23) | ((m & 0x3ffu) << 13);
    } else {
        x = sign;
    }
    float f;
    memcpy(&f, &x, 4);
    return f;
}

/* Maps sign-magnitude bits onto a line where adjacent values differ by 1. */
static int64_t ordered(uint64_t bits, unsigned width)
{
    uint64_t sign = UINT64_C(1) << (width - 1);
    return (bits & sign) ? -(int64_t)(bits & (sign - 1)) : (int64_t)bits;
}

uint64_t ulp_distance32(float a, float b)
{
    uint32_t x, y;
    memcpy(&x, &a, 4);
    memcpy(&y, &b, 4);
    int64_t d = ordered(x, 32) - ordered(y, 32);
    return (uint64_t)(d < 0 ? -d : d);
}

uint64_t ulp_distance16(uint16_t a, uint16_t b)
{
    int64_t d = ordered(a, 16) - ordered(b, 16);
    return (uint64_t)(d < 0 ? -d : d);
}

uint64_t splitmix64_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

uint16_t half_from_double(double d)
{
    uint16_t sign = signbit(d) ? 0x8000u : 0;
    if (isnan(d))
        return (uint16_t)(sign | 0x7e00u);
    double a = fabs(d);
    if (a >= 65520.0)
        return (uint16_t)(sign | 0x7c00u);
    if (a < 0x1p-14)
        return (uint16_t)(sign | (uint16_t)nearbyint(a * 0x1p24)); /* may carry into the smallest normal */
    int e;
    frexp(a, &e);
    /* a = q * 2^(e-11), q in [1024, 2048]; rounding q to an integer is exact scaling plus one rounding. */
    double q = nearbyint(ldexp(a, 11 - e));
    return (uint16_t)(sign | (((unsigned)(e - 1 + 15) << 10) + (unsigned)(q - 1024.0)));
}

uint16_t bfloat16_from_float(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

float bfloat16_to_float(uint16_t b)
{
    uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, 4);
    return f;
}

uint16_t bfloat16_from_double(double d)
{
    uint32_t sign = signbit(d) ? 0x8000u : 0;
    if (isnan(d))
        return (uint16_t)(sign | 0x7fc0u);
    double a = fabs(d);
    /* Halfway between the largest bfloat16 (0x7f7f) and 2^128 rounds to even, which is Inf. */
    if (a >= 0x1.ffp127)
        return (uint16_t)(sign | 0x7f80u);
    /* The quantum: 8 significant bits, or 2^-133 in the subnormal range. */
    int e = 0;
    frexp(a, &e);
    int q = e - 8 < -133 ? -133 : e - 8;
    float r = (float)ldexp(nearbyint(ldexp(a, -q)), q); /* exact: 8 bits fit a float */
    uint32_t x;
    memcpy(&x, &r, 4);
    return (uint16_t)(sign | (x >> 16));
}
