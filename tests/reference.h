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

/* Resample (OPERATORS.md section 3), on tensors of dims axes. */
enum ref_rounding { REF_ROUND_HALF_DOWN, REF_ROUND_FLOOR, REF_ROUND_CEIL };

struct ref_resample {
    uint32_t dims;
    uint32_t small_sizes[4];    /* forward input / backward OutputGradient */
    uint32_t big_sizes[4];      /* forward output / backward InputGradient */
    int linear;
    enum ref_rounding rounding;
    float scales[4], input_offsets[4], output_offsets[4];
};

/* out has big_sizes elements; abs_out (may be NULL) gets the sum of |terms| per element. */
void ref_resample_forward(const struct ref_resample *r, const double *in, double *out, double *abs_out);
/* out has small_sizes elements; abs_out (may be NULL) gets the sum of |terms| per element. */
void ref_resample_backward(const struct ref_resample *r, const double *in_grad, double *out_grad, double *abs_out);
