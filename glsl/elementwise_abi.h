/* ACTIVATION_RELU and ACTIVATION_RELU_GRAD: lib/elementwise.c, lib/activation_relu*.c and their shaders. */
#ifndef DMLVK_ELEMENTWISE_ABI_H
#define DMLVK_ELEMENTWISE_ABI_H

#include "abi.h"

#define ELEMENTWISE_MAX_DIMS 8
#define ELEMENTWISE_MAX_TENSORS 3
/* Bytes of each tensor per invocation where every tensor is packed (CONTIGUOUS): one 16-byte
 * access, 4 float32 or 8 16-bit elements. */
#define ELEMENTWISE_ACCESS_BYTES 16u

/* The host merges axes that are contiguous in every tensor, so DIMS is usually 1. */
#define ELEMENTWISE_SPEC_DIMS 1
#define ELEMENTWISE_SPEC_CONTIGUOUS 2

DMLVK_PARAMS_BEGIN(elementwise_params)
    DMLVK_U32 count;
    DMLVK_U32 sizes[ELEMENTWISE_MAX_DIMS];
    DMLVK_U32 strides[ELEMENTWISE_MAX_TENSORS][ELEMENTWISE_MAX_DIMS];
DMLVK_PARAMS_END(elementwise_params)

#define ACTIVATION_RELU_PUSH(X) X(elementwise_params, p) X(Tensor, x) X(Tensor, y)
#define ACTIVATION_RELU_GRAD_PUSH(X) X(elementwise_params, p) X(Tensor, x) X(Tensor, dy) X(Tensor, dx)

#ifndef DMLVK_GLSL
DMLVK_PUSH(activation_relu_push, ACTIVATION_RELU_PUSH)
DMLVK_PUSH(activation_relu_grad_push, ACTIVATION_RELU_GRAD_PUSH)
#endif

#endif
