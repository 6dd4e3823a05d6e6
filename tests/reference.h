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

/* ROI align (OPERATORS.md section 4), with exact decisions: where each sample sits, in or out of
 * bounds, which cells it reads, are computed on rationals (GMP); values in float64. Only the
 * samples in bounds are visited, so huge regions cost no more than the input holds. Input {B, C, H, W}, rois {R, 4}, output {R, C, OH, OW}. */
struct ref_roi {
    uint32_t batch, channels, height, width;
    uint32_t num_rois, out_h, out_w;
    int linear, maximum, align_corners;
    double spatial_x, spatial_y, input_offset, output_offset, oob_value;
    uint32_t min_samples, max_samples;
    const double *rois;             /* num_rois x 4: x1, y1, x2, y2 */
    const uint32_t *batch_indices;  /* num_rois; out-of-range regions contribute nothing */
    /* Optional: the backward pass counts in *ambiguous the MAX bins whose winner lies within
     * max_tie * (|winner| + 1) of another sample's value (at other taps, or 0 out of bounds),
     * but for ties between samples that compute their values alike, as on flat neighbourhoods. */
    uint64_t *ambiguous;
    double max_tie;
};

void ref_roi_forward(const struct ref_roi *r, const double *x, double *out);
/* dx (B*C*H*W) and droi (R*4) may each be NULL; x may be NULL for AVERAGE without droi.
 * dx_abs / droi_abs (may be NULL) get the sums of |terms|, for tolerances. */
void ref_roi_backward(const struct ref_roi *r, const double *x, const double *dy, double *dx, double *droi,
                      double *dx_abs, double *droi_abs);
