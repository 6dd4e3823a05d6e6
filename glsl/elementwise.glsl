// Element-wise operators over tensors of one shape with their own strides (elementwise_abi.h).
#include "elementwise_abi.h"
layout(constant_id = ELEMENTWISE_SPEC_DIMS) const uint DIMS = 1;
// Every tensor packed and alike: each invocation takes ACCESS consecutive elements, 16 bytes of
// each tensor (access_words, store_access_words).
layout(constant_id = ELEMENTWISE_SPEC_CONTIGUOUS) const bool CONTIGUOUS = false;
#if DMLVK_STORAGE16
const uint ACCESS = ELEMENTWISE_ACCESS_BYTES / 2u;
#else
const uint ACCESS = ELEMENTWISE_ACCESS_BYTES / 4u;
#endif

// The element-wise operators pass values or zero them, so they work on elements' bits: no
// conversion to float32 and back (bfloat16's rounding cost instructions on every element), and
// values pass exactly as they came, subnormals and NaN payloads included.

// Access q's 16 bytes as four words: one float32 element each, or two 16-bit ones (the first in
// the low half). `halves`: two loads of 8 bytes, for tensors aligned to 8 bytes but not 16.
uvec4 access_words(Tensor t, uint q, bool halves)
{
#if DMLVK_STORAGE16
    if (halves)
        return uvec4(TensorUvec2(t).v[2u * q], TensorUvec2(t).v[2u * q + 1u]);
#endif
    return TensorVec4(t).v[q];
}

void store_access_words(Tensor t, uint q, bool halves, uvec4 w)
{
#if DMLVK_STORAGE16
    if (halves) {
        TensorUvec2(t).v[2u * q] = w.xy;
        TensorUvec2(t).v[2u * q + 1u] = w.zw;
        return;
    }
#endif
    TensorVec4(t).v[q] = w;
}

// Element i's bits, in the low bits of the word.
uint load_element_bits(Tensor t, uint i)
{
#if DMLVK_STORAGE16
    return (TensorWords(t).v[i >> 1] >> (16u * (i & 1u))) & 0xffffu;
#else
    return TensorWords(t).v[i];
#endif
}

void store_element_bits(Tensor t, uint i, uint bits)
{
#if DMLVK_STORAGE16
    TensorBits(t).v[i] = uint16_t(bits);
#else
    TensorWords(t).v[i] = bits;
#endif
}

// Ones in the bits of each element of w that is > 0, decided on the bits: +Inf and subnormals are,
// NaN and -0 are not, whatever a device does with float comparisons where the shader declares no
// float controls (it may flush subnormals to 0, or assume that no NaN occurs).
#if DMLVK_STORAGE16
const uint POSITIVE_BELOW = DMLVK_BF16 != 0 ? 0x7f80u : 0x7c00u;   // +Inf's bits
uvec4 positive_mask(uvec4 w)
{
    uvec4 lo = w & 0xffffu, hi = w >> 16;
    return mix(uvec4(0u), uvec4(0xffffu), lessThan(lo - 1u, uvec4(POSITIVE_BELOW))) |
           mix(uvec4(0u), uvec4(0xffff0000u), lessThan(hi - 1u, uvec4(POSITIVE_BELOW)));
}
#else
uvec4 positive_mask(uvec4 w)
{
    return mix(uvec4(0u), uvec4(~0u), lessThan(w - 1u, uvec4(0x7f800000u)));
}
#endif

// The same for one element's bits (load_element_bits).
uint positive_mask(uint bits)
{
    return positive_mask(uvec4(bits)).x;
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
