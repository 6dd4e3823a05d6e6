// Shared by the resample shaders: the parameter block written by lib/resample.c (resample_abi.h).
#extension GL_EXT_control_flow_attributes : require
#include "resample_abi.h"
layout(constant_id = RESAMPLE_SPEC_LINEAR) const bool LINEAR = false;
layout(constant_id = RESAMPLE_SPEC_DIMS) const uint DIMS = 4;   // the real axes are the last DIMS of 4
layout(constant_id = RESAMPLE_SPEC_WALK) const uint WALK = 0x1bu; // axes 3, 2, 1, 0
layout(constant_id = RESAMPLE_SPEC_LANES) const uint LANES = 1;
layout(constant_id = RESAMPLE_SPEC_IDENTITY) const uint IDENTITY = 0;
layout(constant_id = RESAMPLE_SPEC_VECTOR_LOADS) const bool VECTOR_LOADS = false;
layout(constant_id = RESAMPLE_SPEC_VECTOR_STORES) const bool VECTOR_STORES = false;

DMLVK_PUSH(resample_push, RESAMPLE_PUSH)

const uint MAX_LANES = RESAMPLE_MAX_LANES;

// The k-th axis of the walk. Constant once specialized. Loops over lanes run to MAX_LANES, a
// constant, so that they unroll before specialization: an array indexed by a value the compiler
// cannot fold would live in slow local memory.
uint walk_axis(uint k)
{
    return (WALK >> (2u * k)) & 3u;
}

uint lane_axis()
{
    return walk_axis(0u);
}

bool identity_axis(uint d)
{
    return ((IDENTITY >> d) & 1u) != 0u;
}

// The written element's index per axis (on the lane axis: the first lane's), and its offset.
uint written_index(uint e, out uint idx[4])
{
    uint v[4];
    [[unroll]] for (uint k = 0u; k < 4u; k++) {
        uint d = walk_axis(k);
        uint s = k == 0u ? (pc.p.out_sizes[d] + LANES - 1u) / LANES : pc.p.out_sizes[d];
        if (k + 1u < DIMS) {
            uint m = pc.p.walk_magic[k];
            uint q = m == 1u ? e / s : div_by(e, s, m);
            v[k] = e - q * s;
            e = q;
        } else {
            v[k] = k < DIMS ? e : 0u;
            e = 0u;
        }
    }
    v[0] *= LANES;
    uint off = 0u;
    [[unroll]] for (uint d = 0u; d < 4u; d++) {
        idx[d] = d == walk_axis(0u) ? v[0] : d == walk_axis(1u) ? v[1] : d == walk_axis(2u) ? v[2] : v[3];
        off += idx[d] * pc.p.out_strides[d];
    }
    return off;
}

// How many of the invocation's lanes are inside the written tensor.
uint lanes_inside(uint idx[4])
{
    return min(LANES, pc.p.out_sizes[lane_axis()] - idx[lane_axis()]);
}

// Whether each tap's lanes may be one load: rows whole (the host) and the address aligned.
bool lane_loads_vector()
{
    return LANES > 1u && VECTOR_LOADS && chunk_aligned(pc.src, LANES);
}

// Stores the lanes: one store where the host found the written tensor's rows whole and the
// address allows it.
void store_lanes(uint off, uint inside, float acc[MAX_LANES])
{
    if (LANES > 1u && VECTOR_STORES && chunk_aligned(pc.dst, LANES)) {
        if (LANES == 8u)
            store8(pc.dst, off >> 3, vec4(acc[0], acc[1], acc[2], acc[3]), vec4(acc[4], acc[5], acc[6], acc[7]));
        else
            store4(pc.dst, off >> 2, vec4(acc[0], acc[1], acc[2], acc[3]));
        return;
    }
    [[unroll]] for (uint l = 0u; l < MAX_LANES; l++)
        if (l < inside)
            store(pc.dst, off + l * pc.p.out_strides[lane_axis()], acc[l]);
}

// The read tensor's LANES neighbours along axis d from offset `at` (that of index `first`): one
// load where `vector` says the host and the address allow it; lanes past the edge read the last
// element and are not stored.
void load_lanes(bool vector, uint at, uint first, uint d, out float v[MAX_LANES])
{
    if (vector) {
        vec4 q[2];
        if (LANES == 8u)
            load8(pc.src, at >> 3, q[0], q[1]);
        else
            q[0] = load4(pc.src, at >> 2);
        [[unroll]] for (uint l = 0u; l < MAX_LANES; l++)
            v[l] = l < LANES ? q[l >> 2][l & 3u] : 0.0;
    } else {
        [[unroll]] for (uint l = 0u; l < MAX_LANES; l++)
            v[l] = l < LANES ? load(pc.src, at + (min(first + l, pc.p.in_sizes[d] - 1u) - first) * pc.p.in_strides[d]) : 0.0;
    }
}

// Adds w times the read tensor's LANES neighbours along an identity lane axis from offset `at`
// (the first lane's) into acc.
void add_lanes(bool vector, uint at, uint first, float w, inout float acc[MAX_LANES])
{
    float v[MAX_LANES];
    load_lanes(vector, at, first, lane_axis(), v);
    [[unroll]] for (uint l = 0u; l < MAX_LANES; l++)
        if (l < LANES)
            acc[l] += LINEAR ? w * v[l] : v[l];
}
