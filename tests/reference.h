/*
 * float64 CPU references for every operator, written straight from OPERATORS.md. Tensors are
 * in logical row-major order: strides are the GPU path's business, the maths is the reference's.
 */
#ifndef DMLVK_TESTS_REFERENCE_H
#define DMLVK_TESTS_REFERENCE_H

#include <stdint.h>

void ref_relu(const double *x, double *y, uint64_t n);
void ref_relu_grad(const double *x, const double *dy, double *dx, uint64_t n);

#endif
