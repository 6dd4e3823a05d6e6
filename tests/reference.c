#include "reference.h"

void ref_relu(const double *x, double *y, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        y[i] = x[i] > 0 ? x[i] : 0;
}

void ref_relu_grad(const double *x, const double *dy, double *dx, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        dx[i] = x[i] > 0 ? dy[i] : 0;
}
