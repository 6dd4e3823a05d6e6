/*
 * Operators: created from a descriptor, then executed synchronously or recorded into a command
 * buffer the caller owns.
 *
 * Thread-safety: operators may be created, executed, recorded and destroyed from several threads
 * at once, including operators of one device. One operator may be executed or recorded by several
 * threads at once, but operators with scratch memory (dmlvk_operator_get_properties) must not have
 * two of their recorded dispatches executing on the GPU at the same time: order them with a
 * barrier, as for any other write-after-write.
 */
#ifndef DMLVK_OPERATOR_H
#define DMLVK_OPERATOR_H

#include <stdint.h>

#include <vulkan/vulkan_core.h>

#include "buffer.h"
#include "common.h"
#include "device.h"
#include "operators.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dmlvk_operator dmlvk_operator;

/*
 * How an operator runs. A zeroed struct (or NULL) means the defaults. Fields added in later
 * versions take space from `reserved` and mean "the default" at zero, so the struct keeps its size;
 * a library refuses a struct whose reserved words are not zero (fields it does not know).
 */
typedef struct dmlvk_operator_params {
    /* Bitwise identical results run to run where the default path uses atomics (ROI_ALIGN_GRAD's
     * input gradient under MAX, which then gathers); see the operator's documentation. */
    dmlvk_bool deterministic;
    uint32_t reserved[15];
} dmlvk_operator_params;

/*
 * Where a tensor lives: [offset, offset + size) of a dmlvk buffer (made by dmlvk_buffer_create, or a
 * host VkBuffer given to dmlvk_buffer_wrap). size may be VK_WHOLE_SIZE: the rest of the buffer. offset
 * must be a multiple of 4 bytes. An absent optional tensor has buffer NULL.
 */
typedef struct dmlvk_binding {
    dmlvk_buffer *buffer;
    uint64_t offset;
    uint64_t size;
} dmlvk_binding;

typedef struct dmlvk_operator_properties {
    uint32_t binding_count;      /* bindings, one per tensor field in descriptor order */
    uint32_t dispatch_count;     /* compute dispatches one execution records */
    uint64_t scratch_bytes;      /* device memory the operator owns for intermediate results */
} dmlvk_operator_properties;

/*
 * Validates the descriptor (every rule of OPERATORS.md; the message names the operator, field and
 * reason) and creates the pipelines, reusing any the device already has. params may be NULL. A
 * dispatch whose shader has a faster form for tensors on 16-byte addresses gets its other pipeline
 * from the first execute or record that binds a tensor elsewhere (compiled there, once per device).
 */
DMLVK_API dmlvk_status dmlvk_operator_create(dmlvk_device *device, const dmlvk_operator_desc *desc,
                                   const dmlvk_operator_params *params, dmlvk_operator **op);

/* NULL is a no-op. */
DMLVK_API dmlvk_status dmlvk_operator_destroy(dmlvk_operator *op);

/* How many bindings the operator takes, how many dispatches it records, how much scratch it owns. */
DMLVK_API dmlvk_status dmlvk_operator_get_properties(const dmlvk_operator *op, dmlvk_operator_properties *props);

/*
 * Binds the tensors, runs the operator and waits for it. bindings holds one entry per tensor field
 * of the descriptor, in the descriptor's order; count must be that number.
 */
DMLVK_API dmlvk_status dmlvk_operator_execute(dmlvk_operator *op, const dmlvk_binding *bindings, uint32_t count);

#define DMLVK_MAX_COUNTERS 8

/* A count an operator's shaders keep during one execution; its documentation names them. */
typedef struct dmlvk_counter {
    const char *name;            /* static storage: valid for the library's lifetime */
    uint64_t value;
} dmlvk_counter;

/* What dmlvk_operator_execute_diagnosed reports of one execution. */
typedef struct dmlvk_diagnostics {
    /* GPU time from before the operator's first dispatch to after its last (Vulkan timestamps);
     * -1 when the device's queue has no timestamps. */
    double gpu_ms;
    /* The operator's counters, in the order its documentation gives (ROI_ALIGN1 and
     * ROI_ALIGN_GRAD: "skipped_regions", regions whose batch index was outside [0, BatchCount),
     * a data error: they read and write nothing). Other operators have none. */
    uint32_t counter_count;
    dmlvk_counter counters[DMLVK_MAX_COUNTERS];
} dmlvk_diagnostics;

/* The value of the counter called name; DMLVK_ERROR_INVALID_ARGUMENT where the operator has none
 * of that name. */
DMLVK_API dmlvk_status dmlvk_diagnostics_get_counter(const dmlvk_diagnostics *diagnostics, const char *name,
                                                     uint64_t *value);

/* dmlvk_operator_execute that also fills *diagnostics. Concurrent calls on one operator each get
 * their own counts. */
DMLVK_API dmlvk_status dmlvk_operator_execute_diagnosed(dmlvk_operator *op, const dmlvk_binding *bindings,
                                                        uint32_t count, dmlvk_diagnostics *diagnostics);

/*
 * Records the operator into cmd, which must be in the recording state on a queue family with
 * compute, outside a render pass. The operator's dispatches are ordered among themselves. What it
 * leaves behind: it binds its own compute pipeline and sets push constants through its own pipeline
 * layout (no descriptor sets), so the host must bind its compute pipeline and set its push constants
 * again before its next dispatch; the host's bound descriptor sets and all graphics state are left
 * alone. Ordering against the host's commands is the host's: see dmlvk_record_barrier.
 */
DMLVK_API dmlvk_status dmlvk_operator_record(dmlvk_operator *op, VkCommandBuffer cmd, const dmlvk_binding *bindings,
                                   uint32_t count);

/*
 * The two barriers a host needs around dmlvk_operator_record. The operator reads its inputs and
 * writes its outputs (and its own scratch) in compute shaders through buffer device addresses:
 *
 *   BEFORE: srcStageMask = the stages of the host's earlier use of the bound ranges,
 *           srcAccessMask = its writes there; dstStageMask = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
 *           dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT.
 *   AFTER:  srcStageMask = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, srcAccessMask =
 *           VK_ACCESS_SHADER_WRITE_BIT; dstStageMask / dstAccessMask = the host's next use
 *           (VK_PIPELINE_STAGE_HOST_BIT / VK_ACCESS_HOST_READ_BIT to map the results).
 *
 * dmlvk_record_barrier records that as a global VkMemoryBarrier with vkCmdPipelineBarrier:
 * host_stages and host_access are the host's side (its earlier use for BEFORE, its next use for
 * AFTER). Operators recorded back to back need one AFTER barrier with host_stages
 * VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT and host_access VK_ACCESS_SHADER_READ_BIT |
 * VK_ACCESS_SHADER_WRITE_BIT between them. Writes the host made before vkQueueSubmit need no barrier.
 */
typedef enum dmlvk_barrier_side {
    DMLVK_BARRIER_BEFORE = 0,
    DMLVK_BARRIER_AFTER = 1,
} dmlvk_barrier_side;

DMLVK_API dmlvk_status dmlvk_record_barrier(dmlvk_device *device, VkCommandBuffer cmd, dmlvk_barrier_side side,
                                            VkPipelineStageFlags host_stages, VkAccessFlags host_access);

#ifdef __cplusplus
}
#endif

#endif
