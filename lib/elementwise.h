/* Plans for element-wise operators: tensors of one shape, each with its own strides. */
#ifndef DMLVK_ELEMENTWISE_H
#define DMLVK_ELEMENTWISE_H

#include "internal.h"

#include "elementwise_abi.h"

/*
 * Fills plan with one dispatch of shader over the n tensors (the last the one written), its axes
 * in the written tensor's stride order and merged where contiguous in all of them. Returns the
 * dispatch, whose push slots the caller binds (tensor t is strides[t] of the parameter block); NULL
 * with the error set.
 */
struct dmlvk_dispatch_plan *dmlvk_plan_elementwise(const struct dmlvk_op_context *ctx, struct dmlvk_op_plan *plan,
                                                   enum dmlvk_shader shader, uint32_t push_slots,
                                                   const struct dmlvk_tensor *tensors, uint32_t n);

#endif
