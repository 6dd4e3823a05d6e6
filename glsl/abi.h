/*
 * What C and GLSL share, written once: both include the operator families' *_abi.h headers,
 * which build on these macros. glslang compiles with DMLVK_GLSL defined; C sees plain structs.
 *
 * A parameter block holds 32-bit scalars and arrays of them only (std430 and C lay those out
 * alike); a push-constant block holds buffer addresses only. At build time glsl/check_abi.py
 * reads every shader's layout of these blocks and generates static assertions that the C structs
 * agree, member by member.
 */
#ifndef DMLVK_ABI_H
#define DMLVK_ABI_H

/* The workgroup size is specialization constant 0 of every shader. */
#define DMLVK_SPEC_WORKGROUP_SIZE 0
/* Specialization constants a shader may declare: ids 0 .. DMLVK_MAX_SPEC_CONSTANTS - 1. */
#define DMLVK_MAX_SPEC_CONSTANTS 32
/* Buffer addresses in one push-constant block (the minimum maxPushConstantsSize is 128 bytes). */
#define DMLVK_PUSH_CONSTANT_BYTES 128
#define DMLVK_MAX_PUSH_ADDRESSES (DMLVK_PUSH_CONSTANT_BYTES / 8)
/* A dispatch with an aligned form (dmlvk_dispatch_aligned in lib/internal.h) is recorded with it
 * where its bindings' addresses are multiples of this: the widest access a shader makes. */
#define DMLVK_ALIGNED_BYTES 16

#ifdef DMLVK_GLSL

#define DMLVK_U32 uint
#define DMLVK_F32 float
#define DMLVK_PARAMS_BEGIN(name) layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer name {
#define DMLVK_PARAMS_END(name) };
#define DMLVK_PUSH_MEMBER_(type, member) type member;
/* Declares the push-constant block `pc` from a list X(type, member) ...; instantiated by each shader
 * once the buffer types it names exist. */
#define DMLVK_PUSH(name, LIST) layout(push_constant) uniform name { LIST(DMLVK_PUSH_MEMBER_) } pc;

#else

#include <stddef.h>
#include <stdint.h>

#define DMLVK_U32 uint32_t
#define DMLVK_F32 float
#define DMLVK_PARAMS_BEGIN(name) struct name {
#define DMLVK_PARAMS_END(name)                                                                                         \
    };                                                                                                                 \
    _Static_assert(_Alignof(struct name) == 4 && sizeof(struct name) % 4 == 0, #name ": 32-bit members only");
#define DMLVK_PUSH_MEMBER_(type, member) uint64_t member;
#define DMLVK_PUSH(name, LIST)                                                                                         \
    struct name {                                                                                                      \
        LIST(DMLVK_PUSH_MEMBER_)                                                                                       \
    };                                                                                                                 \
    _Static_assert(sizeof(struct name) <= DMLVK_PUSH_CONSTANT_BYTES, #name ": too many push-constant addresses");
/* The push-constant slot of a member: what a dispatch plan binds there. */
#define DMLVK_PUSH_SLOT(name, member) ((uint32_t)(offsetof(struct name, member) / 8))
#define DMLVK_PUSH_SLOTS(name) ((uint32_t)(sizeof(struct name) / 8))

#endif

#endif
