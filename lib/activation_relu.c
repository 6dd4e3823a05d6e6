/* ACTIVATION_RELU (OPERATORS.md section 2): Y = X > 0 ? X : 0. Shader: glsl/activation_relu.comp. */
#include <stddef.h>

#include "elementwise.h"

#define NAME "ACTIVATION_RELU"

static dmlvk_status plan(const struct dmlvk_op_context *ctx, const void *opaque, struct dmlvk_op_plan *p)
{
    const dmlvk_activation_relu_operator_desc *desc = opaque;
    struct dmlvk_tensor t[2];
    dmlvk_status st;
    if ((st = dmlvk_check_tensor(ctx, "InputTensor", desc->InputTensor, DMLVK_FLOAT_TYPES, 1, 8, false, &t[0])) ||
        (st = dmlvk_check_tensor(ctx, "OutputTensor", desc->OutputTensor, DMLVK_FLOAT_TYPES, 1, 8, true, &t[1])) ||
        (st = dmlvk_check_same(NAME, "InputTensor", &t[0], "OutputTensor", &t[1], true)))
        return st;
    struct dmlvk_dispatch_plan *d =
        dmlvk_plan_elementwise(ctx, p, DMLVK_SHADER_ACTIVATION_RELU, DMLVK_PUSH_SLOTS(activation_relu_push), t, 2);
    if (!d)
        return DMLVK_ERROR_UNSUPPORTED;
    DMLVK_BIND(d, activation_relu_push, p, DMLVK_SLOT_PARAMS);
    DMLVK_BIND(d, activation_relu_push, x, 0);
    DMLVK_BIND(d, activation_relu_push, y, 1);
    return DMLVK_OK;
}

static const dmlvk_field_info fields[] = {
    { "InputTensor", DMLVK_FIELD_INPUT_TENSOR, offsetof(dmlvk_activation_relu_operator_desc, InputTensor) },
    { "OutputTensor", DMLVK_FIELD_OUTPUT_TENSOR, offsetof(dmlvk_activation_relu_operator_desc, OutputTensor) },
};

const struct dmlvk_op_class dmlvk_op_activation_relu = {
    .info = {
        .type = DMLVK_OPERATOR_ACTIVATION_RELU,
        .name = NAME,
        .desc_size = sizeof(dmlvk_activation_relu_operator_desc),
        .field_count = DMLVK_ARRAY_SIZE(fields),
        .fields = fields,
        .tensor_count = 2,
    },
    .plan = plan,
};
