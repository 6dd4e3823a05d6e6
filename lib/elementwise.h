/* Plans for element-wise operators: tensors of one shape, each with its own strides. */
#ifndef DMLVK_ELEMENTWISE_H
#define DMLVK_ELEMENTWISE_H

#include "internal.h"

/*
 * Fills plan with one dispatch of shader over the n tensors (in its push-constant order, bound
 * from bindings 0..n-1), after merging dimensions that are contiguous in all of them. The shader
 * includes glsl/elementwise.glsl with ELEMENTWISE_TENSORS = n.
 */
dmlvk_status dmlvk_plan_elementwise(const struct dmlvk_op_context *ctx, struct dmlvk_op_plan *plan, const char *shader,
                                    const struct dmlvk_tensor *tensors, uint32_t n);

#endif
