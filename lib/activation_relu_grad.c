/* ACTIVATION_RELU_GRAD (OPERATORS.md section 2): dX = X > 0 ? dY : 0. Shader: glsl/activation_relu_grad.comp. */
#include <stddef.h>

#include "elementwise.h"

#define NAME "ACTIVATION_RELU_GRAD"

static dmlvk_status plan(const struct dmlvk_op_context *ctx, const void *opaque, struct dmlvk_op_plan *p)
{
    const dmlvk_activation_relu_grad_operator_desc *desc = opaque;
    struct dmlvk_tensor t[3];
    dmlvk_status st;
    if ((st = dmlvk_check_tensor(ctx, "InputTensor", desc->InputTensor, DMLVK_FLOAT_TYPES, 1, 8, false, &t[0])) ||
        (st = dmlvk_check_tensor(ctx, "InputGradientTensor", desc->InputGradientTensor, DMLVK_FLOAT_TYPES, 1, 8, false,
                                 &t[1])) ||
        (st = dmlvk_check_tensor(ctx, "OutputGradientTensor", desc->OutputGradientTensor, DMLVK_FLOAT_TYPES, 1, 8, true,
                                 &t[2])) ||
        (st = dmlvk_check_same(NAME, "InputTensor", &t[0], "InputGradientTensor", &t[1], true)) ||
        (st = dmlvk_check_same(NAME, "InputTensor", &t[0], "OutputGradientTensor", &t[2], true)))
        return st;
    struct dmlvk_dispatch_plan *d = dmlvk_plan_elementwise(ctx, p, DMLVK_SHADER_ACTIVATION_RELU_GRAD,
                                                           DMLVK_PUSH_SLOTS(activation_relu_grad_push), t, 3);
    if (!d)
        return DMLVK_ERROR_UNSUPPORTED;
    DMLVK_BIND(d, activation_relu_grad_push, p, DMLVK_SLOT_PARAMS);
    DMLVK_BIND(d, activation_relu_grad_push, x, 0);
    DMLVK_BIND(d, activation_relu_grad_push, dy, 1);
    DMLVK_BIND(d, activation_relu_grad_push, dx, 2);
    return DMLVK_OK;
}

static const dmlvk_field_info fields[] = {
    { "InputTensor", DMLVK_FIELD_INPUT_TENSOR, offsetof(dmlvk_activation_relu_grad_operator_desc, InputTensor) },
    { "InputGradientTensor", DMLVK_FIELD_INPUT_TENSOR,
      offsetof(dmlvk_activation_relu_grad_operator_desc, InputGradientTensor) },
    { "OutputGradientTensor", DMLVK_FIELD_OUTPUT_TENSOR,
      offsetof(dmlvk_activation_relu_grad_operator_desc, OutputGradientTensor) },
};

const struct dmlvk_op_class dmlvk_op_activation_relu_grad = {
    .info = {
        .type = DMLVK_OPERATOR_ACTIVATION_RELU_GRAD,
        .name = NAME,
        .desc_size = sizeof(dmlvk_activation_relu_grad_operator_desc),
        .field_count = DMLVK_ARRAY_SIZE(fields),
        .fields = fields,
        .tensor_count = 3,
    },
    .plan = plan,
};
