/* A program outside dmlvk's tree that uses an installed dmlvk (pkg-config) or a subproject. */
#include <stdio.h>

#include <dmlvk/dmlvk.h>

int main(void)
{
    dmlvk_device *dev;
    if (dmlvk_device_create(NULL, &dev) != DMLVK_OK) {
        fprintf(stderr, "consumer: %s\n", dmlvk_last_error());
        return 1;
    }
    const uint32_t sizes[] = { 4 };
    dmlvk_tensor_desc t = { .DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32, .DimensionCount = 1, .Sizes = sizes,
                            .TotalTensorSizeInBytes = 16 };
    dmlvk_activation_relu_operator_desc relu = { &t, &t };
    dmlvk_operator_desc od = { DMLVK_OPERATOR_ACTIVATION_RELU, &relu };
    dmlvk_operator *op;
    dmlvk_buffer *in, *out;
    float x[4] = { -1, 2, -3, 4 }, y[4];
    int ok = dmlvk_operator_create(dev, &od, NULL, &op) == DMLVK_OK && dmlvk_buffer_create(dev, 16, &in) == DMLVK_OK &&
             dmlvk_buffer_create(dev, 16, &out) == DMLVK_OK && dmlvk_buffer_write(in, 0, x, 16) == DMLVK_OK;
    dmlvk_binding b[2] = { { .buffer = in, .size = 16 }, { .buffer = out, .size = 16 } };
    ok = ok && dmlvk_operator_execute(op, b, 2) == DMLVK_OK && dmlvk_buffer_read(out, 0, y, 16) == DMLVK_OK;
    ok = ok && y[0] == 0 && y[1] == 2 && y[2] == 0 && y[3] == 4;
    printf("consumer: dmlvk %s: %s\n", dmlvk_version(), ok ? "relu ok" : dmlvk_last_error());
    dmlvk_operator_destroy(op);
    dmlvk_buffer_destroy(in);
    dmlvk_buffer_destroy(out);
    dmlvk_device_destroy(dev);
    return ok ? 0 : 1;
}
