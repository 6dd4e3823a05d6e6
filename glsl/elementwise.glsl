// Element-wise operators over tensors of one shape with their own strides (elementwise_abi.h).
#include "elementwise_abi.h"
layout(constant_id = ELEMENTWISE_SPEC_DIMS) const uint DIMS = 1;
// Every tensor packed and alike: each invocation takes ACCESS consecutive elements, 16 bytes of
// each tensor (access_load, access_store).
layout(constant_id = ELEMENTWISE_SPEC_CONTIGUOUS) const bool CONTIGUOUS = false;
#if DMLVK_STORAGE16
const uint ACCESS = ELEMENTWISE_ACCESS_BYTES / 2u;
#else
const uint ACCESS = ELEMENTWISE_ACCESS_BYTES / 4u;
#endif

// Access q's elements, the first four in lo (float32 has no others: hi is 0). `halves`: 16-bit
// elements in two loads of 8 bytes, for tensors aligned to 8 bytes but not 16.
void access_load(Tensor t, uint q, bool halves, out vec4 lo, out vec4 hi)
{
#if DMLVK_STORAGE16
    if (halves) {
        lo = load4(t, 2u * q);
        hi = load4(t, 2u * q + 1u);
    } else {
        load8(t, q, lo, hi);
    }
#else
    lo = load4(t, q);
    hi = vec4(0.0);
#endif
}

void access_store(Tensor t, uint q, bool halves, vec4 lo, vec4 hi)
{
#if DMLVK_STORAGE16
    if (halves) {
        store4(t, 2u * q, lo);
        store4(t, 2u * q + 1u, hi);
    } else {
        store8(t, q, lo, hi);
    }
#else
    store4(t, q, lo);
#endif
}

// x > 0 decided on the bits: +Inf and subnormals are, NaN and -0 are not, whatever a device does
// with float comparisons where the shader declares no float controls (it may flush subnormals to
// 0, or assume that no NaN occurs and compare NaN as it likes).
bool positive(float x)
{
    return floatBitsToUint(x) - 1u < 0x7f800000u;
}

bvec4 positive4(vec4 x)
{
    return lessThan(floatBitsToUint(x) - 1u, uvec4(0x7f800000u));
}

void element_offsets(elementwise_params p, uint i, out uint off[ELEMENTWISE_TENSORS])
{
    for (uint t = 0; t < ELEMENTWISE_TENSORS; t++)
        off[t] = 0u;
    uint rem = i;
    for (uint d = DIMS - 1u; d > 0u; d--) {
        uint s = p.sizes[d];
        uint q = rem / s;
        uint idx = rem - q * s;
        rem = q;
        for (uint t = 0; t < ELEMENTWISE_TENSORS; t++)
            off[t] += idx * p.strides[t][d];
    }
    for (uint t = 0; t < ELEMENTWISE_TENSORS; t++)
        off[t] += rem * p.strides[t][0];
}
