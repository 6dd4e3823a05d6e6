// Shared by every dmlvk shader. Built per tensor type: float32 (DMLVK_F16 and DMLVK_BF16 both 0),
// float16 (DMLVK_F16=1) and bfloat16 (DMLVK_BF16=1); 16-bit types share DMLVK_STORAGE16's code and
// differ only in how a float32 becomes 16 bits and back.
// Tensors are reached through buffer device addresses in push constants, so no descriptor sets
// exist and no tensor is limited by maxStorageBufferRange.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_buffer_reference_uvec2 : require
#include "abi.h"
#define DMLVK_STORAGE16 (DMLVK_F16 || DMLVK_BF16)
#if DMLVK_STORAGE16
#extension GL_EXT_shader_16bit_storage : require
#endif
#if DMLVK_RTE16
// Conversions to float16 round to nearest-even (SPV_KHR_float_controls, core in SPIR-V 1.4);
// lib/variant.c picks this variant where the device supports shaderRoundingModeRTEFloat16.
#extension GL_EXT_spirv_intrinsics : require
spirv_execution_mode(extensions = ["SPV_KHR_float_controls"], capabilities = [4467], 4462, 16);
#endif

layout(local_size_x_id = DMLVK_SPEC_WORKGROUP_SIZE) in;

#if DMLVK_F16
layout(buffer_reference, std430, buffer_reference_align = 2) buffer Tensor { float16_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = 2) buffer TensorBits { uint16_t v[]; };
#elif DMLVK_BF16
layout(buffer_reference, std430, buffer_reference_align = 2) buffer Tensor { uint16_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = 2) buffer TensorBits { uint16_t v[]; };
#else
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Tensor { float v[]; };
#endif
layout(buffer_reference, std430, buffer_reference_align = 4) buffer UintTensor { uint v[]; };
// Whole 32-bit words of a tensor (bases are 4-byte aligned): 16-bit loads through device
// addresses measured several times slower than 32-bit ones on an H100.
layout(buffer_reference, std430, buffer_reference_align = 4) buffer TensorWords { uint v[]; };
// Four elements at once: vec4 of float32 (16-byte aligned) or uvec2 of float16 (8-byte aligned).
layout(buffer_reference, std430, buffer_reference_align = 16) buffer TensorVec4 { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer TensorUvec2 { uvec2 v[]; };

#if DMLVK_F16
// Two elements of one 32-bit word, exactly.
vec2 unpack16x2(uint w)
{
    return unpackHalf2x16(w);
}
#elif DMLVK_BF16
vec2 unpack16x2(uint w)
{
    return uintBitsToFloat(uvec2(w << 16, w & 0xffff0000u));
}
#endif

#if DMLVK_STORAGE16
const uint VEC4_ALIGN = 8u;
float load(Tensor t, uint i)
{
    vec2 pair = unpack16x2(TensorWords(t).v[i >> 1]);
    return (i & 1u) != 0u ? pair.y : pair.x;
}
#else
const uint VEC4_ALIGN = 16u;
float load(Tensor t, uint i)
{
    return t.v[i];
}
#endif

// Whether t's address allows load4/store4.
bool vec4_aligned(Tensor t)
{
    return (uvec2(t).x & (VEC4_ALIGN - 1u)) == 0u;
}

// Whether t's address allows loads of n elements at once (load4, load2).
bool chunk_aligned(Tensor t, uint n)
{
    return (uvec2(t).x & (VEC4_ALIGN / 4u * n - 1u)) == 0u;
}

#if DMLVK_STORAGE16
#if DMLVK_F16
// float32 -> float16 bits, rounding to nearest-even: OpFConvert's rounding is left to the
// implementation, and the spec asks for nearest-even on every store.
uint f32_to_16_bits(float f)
{
    uint x = floatBitsToUint(f);
    uint sign = (x >> 16) & 0x8000u;
    uint ax = x & 0x7fffffffu;
    if (ax >= 0x7f800000u) // Inf or NaN (NaN stays quiet NaN)
        return sign | 0x7c00u | (ax > 0x7f800000u ? (0x200u | ((ax >> 13) & 0x3ffu)) : 0u);
    if (ax >= 0x477ff000u) // rounds past 65504
        return sign | 0x7c00u;
    if (ax < 0x38800000u) { // float16 subnormal range
        if (ax < 0x33000000u)
            return sign;
        uint e = ax >> 23;
        uint m = (ax & 0x7fffffu) | 0x800000u;
        uint shift = 126u - e;
        uint r = m >> shift;
        uint rem = m & ((1u << shift) - 1u);
        uint halfway = 1u << (shift - 1u);
        if (rem > halfway || (rem == halfway && (r & 1u) != 0u))
            r += 1u;
        return sign | r;
    }
    uint r = ax - 0x38000000u;
    return sign | ((r + 0xfffu + ((r >> 13) & 1u)) >> 13);
}
#else
// float32 -> bfloat16 bits, nearest-even: bfloat16 is float32's top half, so adding just under
// half of the dropped part (plus the kept part's last bit) rounds; finite values past the largest
// bfloat16 carry into the exponent and become Inf, as they should. NaN stays a quiet NaN.
uint f32_to_16_bits(float f)
{
    uint x = floatBitsToUint(f);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (x >> 16) | 0x40u;
    return (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
}
#endif

#if DMLVK_BF16
// Two bfloat16 elements into one word (a in the low half) where neither is NaN: the rounding
// alone, which costs about as much as the NaN test (BENCHMARKS.md note 70).
uint pack16x2_not_nan(float a, float b)
{
    uvec2 x = floatBitsToUint(vec2(a, b));
    uvec2 r = x + 0x7fffu + ((x >> 16) & 1u);
    return (r.x >> 16) | (r.y & 0xffff0000u);
}
#endif

// Two elements into one word (a in the low half), as f32_to_16_bits rounds each. Bfloat16 rounds
// the pair together where neither is NaN: a few integer operations per store.
uint pack16x2(float a, float b)
{
#if DMLVK_BF16
    uvec2 x = floatBitsToUint(vec2(a, b));
    // Bits, not isnan(): without SignedZeroInfNanPreserve a driver may assume no NaN.
    if (!any(greaterThan(x & 0x7fffffffu, uvec2(0x7f800000u))))
        return pack16x2_not_nan(a, b);
#endif
    return f32_to_16_bits(a) | (f32_to_16_bits(b) << 16);
}

#if DMLVK_RTE16
layout(buffer_reference, std430, buffer_reference_align = 4) buffer TensorHalf2 { f16vec2 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer TensorHalf4 { f16vec4 v[]; };

void store(Tensor t, uint i, float f)
{
    t.v[i] = float16_t(f);
}

void store2(Tensor t, uint i, float a, float b)
{
    if ((i & 1u) == 0u) {
        TensorHalf2(t).v[i >> 1] = f16vec2(vec2(a, b));
    } else {
        store(t, i, a);
        store(t, i + 1u, b);
    }
}
#else
void store(Tensor t, uint i, float f)
{
    TensorBits(t).v[i] = uint16_t(f32_to_16_bits(f));
}

// Elements i and i+1 (the last axis packed): one 32-bit store when i is even.
void store2(Tensor t, uint i, float a, float b)
{
    if ((i & 1u) == 0u) {
        TensorWords(t).v[i >> 1] = pack16x2(a, b);
    } else {
        store(t, i, a);
        store(t, i + 1u, b);
    }
}
#endif

// Elements 4q .. 4q+3.
vec4 load4(Tensor t, uint q)
{
    uvec2 w = TensorUvec2(t).v[q];
    return vec4(unpack16x2(w.x), unpack16x2(w.y));
}

// Elements 2q and 2q+1.
vec2 load2(Tensor t, uint q)
{
    return unpack16x2(TensorWords(t).v[q]);
}

void store4(Tensor t, uint q, vec4 f)
{
#if DMLVK_RTE16
    TensorHalf4(t).v[q] = f16vec4(f);
#else
    TensorUvec2(t).v[q] = uvec2(pack16x2(f.x, f.y), pack16x2(f.z, f.w));
#endif
}

// Elements 8q .. 8q+7 (16-byte aligned): one 16-byte access.
void load8(Tensor t, uint q, out vec4 lo, out vec4 hi)
{
    uvec4 w = TensorVec4(t).v[q];
    lo = vec4(unpack16x2(w.x), unpack16x2(w.y));
    hi = vec4(unpack16x2(w.z), unpack16x2(w.w));
}

void store8(Tensor t, uint q, vec4 lo, vec4 hi)
{
#if DMLVK_RTE16
    TensorHalf4(t).v[2u * q] = f16vec4(lo);
    TensorHalf4(t).v[2u * q + 1u] = f16vec4(hi);
#else
    TensorVec4(t).v[q] = uvec4(pack16x2(lo.x, lo.y), pack16x2(lo.z, lo.w), pack16x2(hi.x, hi.y), pack16x2(hi.z, hi.w));
#endif
}
#else
void store(Tensor t, uint i, float f)
{
    t.v[i] = f;
}

void store2(Tensor t, uint i, float a, float b)
{
    if ((i & 1u) == 0u && (uvec2(t).x & 7u) == 0u) {
        TensorUvec2(t).v[i >> 1] = floatBitsToUint(vec2(a, b));
    } else {
        store(t, i, a);
        store(t, i + 1u, b);
    }
}

vec4 load4(Tensor t, uint q)
{
    return uintBitsToFloat(TensorVec4(t).v[q]);
}

vec2 load2(Tensor t, uint q)
{
    return uintBitsToFloat(TensorUvec2(t).v[q]);
}

void store4(Tensor t, uint q, vec4 f)
{
    TensorVec4(t).v[q] = floatBitsToUint(f);
}

void load8(Tensor t, uint q, out vec4 lo, out vec4 hi)
{
    lo = load4(t, 2u * q);
    hi = load4(t, 2u * q + 1u);
}

void store8(Tensor t, uint q, vec4 lo, vec4 hi)
{
    store4(t, 2u * q, lo);
    store4(t, 2u * q + 1u, hi);
}
#endif

// store2, store4 and store8 of sums that the caller has tested: where `finite`, none is Inf or NaN,
// and bfloat16 rounds them without its NaN test. Other types store as ever (macros, so that their
// code is the same as without the test).
#if DMLVK_BF16
void store2_tested(Tensor t, uint i, float a, float b, bool finite)
{
    if (finite && (i & 1u) == 0u)
        TensorWords(t).v[i >> 1] = pack16x2_not_nan(a, b);
    else
        store2(t, i, a, b);
}

void store4_tested(Tensor t, uint q, vec4 f, bool finite)
{
    if (finite)
        TensorUvec2(t).v[q] = uvec2(pack16x2_not_nan(f.x, f.y), pack16x2_not_nan(f.z, f.w));
    else
        store4(t, q, f);
}

void store8_tested(Tensor t, uint q, vec4 lo, vec4 hi, bool finite)
{
    if (finite)
        TensorVec4(t).v[q] = uvec4(pack16x2_not_nan(lo.x, lo.y), pack16x2_not_nan(lo.z, lo.w),
                                   pack16x2_not_nan(hi.x, hi.y), pack16x2_not_nan(hi.z, hi.w));
    else
        store8(t, q, lo, hi);
}
#else
#define store2_tested(t, i, a, b, finite) store2(t, i, a, b)
#define store4_tested(t, q, f, finite) store4(t, q, f)
#define store8_tested(t, q, lo, hi, finite) store8(t, q, lo, hi)
#endif

// n / d for n and d below 2^31, given m = 2^32 / d + 1 (0 where d is 1) from the host: a
// multiply-high and one correction, where an integer division costs tens of instructions on
// some GPUs (an H100 among them). The estimate is floor(n / d) or one more.
uint div_by(uint n, uint d, uint m)
{
    if (m == 0u)
        return n;
    uint hi, lo;
    umulExtended(n, m, hi, lo);
    return hi * d > n ? hi - 1u : hi;
}

// All invocations of the dispatch, for grid-stride loops.
uint invocation_count()
{
    uvec3 n = gl_NumWorkGroups;
    return n.x * n.y * n.z * gl_WorkGroupSize.x;
}

// The first stride of a reduction tree over the workgroup's invocations, i and i + stride folding
// while i + stride is in the workgroup: half its size rounded up to a power of two, so that sizes
// that are not powers of two (48) leave nothing out.
uint tree_top()
{
    return gl_WorkGroupSize.x <= 1u ? 0u : 1u << findMSB(gl_WorkGroupSize.x - 1u);
}

// A linear workgroup index over a dispatch spread across x, y and z.
uint workgroup_index()
{
    uvec3 n = gl_NumWorkGroups;
    uvec3 g = gl_WorkGroupID;
    return (g.z * n.y + g.y) * n.x + g.x;
}

// A linear invocation index over the same.
uint invocation_index()
{
    return workgroup_index() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
}

// a * b = p + two_prod_err(a, b, p) exactly (Dekker's product: no fma, whose rounding Vulkan
// leaves open). `precise` keeps the compiler from fusing or reassociating.
float two_prod_err(float a, float b, float p)
{
    precise float c = 4097.0 * a;
    precise float ah = c - (c - a);
    precise float al = a - ah;
    precise float d = 4097.0 * b;
    precise float bh = d - (d - b);
    precise float bl = b - bh;
    precise float err = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    return err;
}

// div_rn where Dekker's split and products stay finite and exact: operands and quotient within
// [2^-60, 2^100] in magnitude.
float div_rn_in_range(float a, float b)
{
    precise float q = a / b;
    precise float p = q * b;
    precise float e = two_prod_err(q, b, p);
    precise float r = (a - p) - e;
    precise float result = q + r / b;
    return result;
}

bool finite_float(float v)
{
    return (floatBitsToUint(v) & 0x7f800000u) != 0x7f800000u;
}

// 2^k, k in [-126, 127], exactly.
float power_of_two(int k)
{
    return uintBitsToFloat(uint(k + 127) << 23);
}

// 2^k for k past float32's exponents as two factors of at most 2^+-126, to multiply by in turn:
// exact but where the result leaves the normal range.
vec2 power_of_two_factors(int k)
{
    int k1 = clamp(k, -126, 126);
    return vec2(power_of_two(k1), power_of_two(clamp(k - k1, -126, 126)));
}

float scale_by_factors(float v, vec2 factors)
{
    precise float once = v * factors.x;
    precise float twice = once * factors.y;
    return twice;
}

float scale_by_power_of_two(float v, int k)
{
    return scale_by_factors(v, power_of_two_factors(k));
}

// a / b rounded as IEEE division rounds, from +, - and * (which Vulkan rounds correctly): a
// shader's own division may be 2.5 ulp off, enough to move a coordinate that should sit exactly
// on a tie. One correction step from the exact remainder recovers every exactly representable
// quotient. Out of div_rn_in_range's range (its split would overflow to NaN past about 2^114)
// the operands are scaled into [0.5, 1) by powers of two, exactly, and the quotient scaled back
// (rounded again only where it leaves the normal range); Inf, NaN and zeros pass as the
// division gives them, where the correction would turn an infinite quotient into NaN.
const float DIV_RN_LOW = 8.673617379884035e-19, DIV_RN_HIGH = 1.2676506002282294e30;    // 2^-60, 2^100
float div_rn(float a, float b)
{
    precise float q = a / b;
    if (a == 0.0 || b == 0.0 || !finite_float(a) || !finite_float(b))
        return q;
    float fa = abs(a), fb = abs(b), fq = abs(q);
    if (fa >= DIV_RN_LOW && fa <= DIV_RN_HIGH && fb >= DIV_RN_LOW && fb <= DIV_RN_HIGH && fq >= DIV_RN_LOW &&
        fq <= DIV_RN_HIGH)
        return div_rn_in_range(a, b);
    int ea, eb;
    float ma = frexp(a, ea), mb = frexp(b, eb);
    return scale_by_power_of_two(div_rn_in_range(ma, mb), ea - eb);    // the quotient in (0.5, 2)
}

// div_rn by a count of samples, so by at least 1: where a and the quotient are in range one
// test of each suffices (b >= 1 puts a and b in range too), where div_rn tests all three and
// their finiteness (BENCHMARKS.md note 87). The same results.
float div_rn_by_count(float a, float count)
{
    precise float q = a / count;
    if (abs(a) <= DIV_RN_HIGH && abs(q) >= DIV_RN_LOW && count >= 1.0 && count <= DIV_RN_HIGH)
        return div_rn_in_range(a, count);
    return div_rn(a, count);
}
