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

#include <math.h>
#include <string.h>

struct tap {
    uint32_t index[2];
    double weight[2];
    int count;
};

/* The taps of larger-side index o on axis d, straight from the spec's formulas. */
static void resample_taps(const struct ref_resample *r, uint32_t d, uint32_t o, struct tap *t)
{
    double s = r->small_sizes[d];
    double x = ((double)o - r->output_offsets[d]) / r->scales[d] - r->input_offsets[d];
    if (r->linear) {
        double c = x < 0 ? 0 : x > s - 1 ? s - 1 : x;
        double i = floor(c), w = c - i;
        t->count = 2;
        t->index[0] = (uint32_t)i;
        t->weight[0] = 1 - w;
        t->index[1] = (uint32_t)(i + 1 < s - 1 ? i + 1 : s - 1);
        t->weight[1] = w;
        return;
    }
    double k = r->rounding == REF_ROUND_HALF_DOWN ? ceil(x - 0.5) : r->rounding == REF_ROUND_FLOOR ? floor(x) : ceil(x);
    t->count = 1;
    t->index[0] = (uint32_t)(k < 0 ? 0 : k > s - 1 ? s - 1 : k);
    t->weight[0] = 1;
}

/* Calls visit(o, i, weight) for every larger-side element o and every N-dimensional tap. */
static void resample_visit(const struct ref_resample *r,
                           void (*visit)(void *user, uint64_t o, uint64_t i, double w), void *user)
{
    uint64_t big = 1;
    for (uint32_t d = 0; d < r->dims; d++)
        big *= r->big_sizes[d];
    for (uint64_t o = 0; o < big; o++) {
        struct tap taps[4];
        uint64_t rem = o;
        for (uint32_t d = r->dims; d-- > 0;) {
            resample_taps(r, d, (uint32_t)(rem % r->big_sizes[d]), &taps[d]);
            rem /= r->big_sizes[d];
        }
        uint32_t combos = 1;
        for (uint32_t d = 0; d < r->dims; d++)
            combos *= (uint32_t)taps[d].count;
        for (uint32_t c = 0; c < combos; c++) {
            uint64_t i = 0;
            double w = 1;
            uint32_t sel = c;
            for (uint32_t d = 0; d < r->dims; d++) {
                uint32_t k = sel % (uint32_t)taps[d].count;
                sel /= (uint32_t)taps[d].count;
                i = i * r->small_sizes[d] + taps[d].index[k];
                w *= taps[d].weight[k];
            }
            visit(user, o, i, w);
        }
    }
}

struct sums {
    const double *src;
    double *dst, *abs_dst;
    int backward;
};

static void accumulate(void *user, uint64_t o, uint64_t i, double w)
{
    struct sums *s = user;
    if (w == 0) /* finite data: a zero weight adds nothing */
        return;
    uint64_t from = s->backward ? o : i, to = s->backward ? i : o;
    s->dst[to] += w * s->src[from];
    if (s->abs_dst)
        s->abs_dst[to] += fabs(w * s->src[from]);
}

void ref_resample_forward(const struct ref_resample *r, const double *in, double *out, double *abs_out)
{
    uint64_t n = 1;
    for (uint32_t d = 0; d < r->dims; d++)
        n *= r->big_sizes[d];
    memset(out, 0, n * sizeof(double));
    if (abs_out)
        memset(abs_out, 0, n * sizeof(double));
    struct sums s = { in, out, abs_out, 0 };
    resample_visit(r, accumulate, &s);
}

void ref_resample_backward(const struct ref_resample *r, const double *in_grad, double *out_grad, double *abs_out)
{
    uint64_t n = 1;
    for (uint32_t d = 0; d < r->dims; d++)
        n *= r->small_sizes[d];
    memset(out_grad, 0, n * sizeof(double));
    if (abs_out)
        memset(abs_out, 0, n * sizeof(double));
    struct sums s = { in_grad, out_grad, abs_out, 1 };
    resample_visit(r, accumulate, &s);
}

struct roi_axis {
    int oob, clamped;
    uint32_t i0, i1;
    double w, t;
};

static void roi_sample_axis(const struct ref_roi *r, double start, double extent, uint32_t s, uint32_t n, uint32_t size,
                            struct roi_axis *a)
{
    if (r->align_corners)
        a->t = n == 1 ? 0.5 : (double)s / (n - 1);
    else
        a->t = ((double)s - r->output_offset) / n;
    double pos = start + extent * a->t - r->input_offset;
    a->oob = pos < -1 || pos > size;
    double last = size - 1.0, c = pos < 0 ? 0 : pos > last ? last : pos;
    a->clamped = pos < 0 || pos > last;
    if (r->linear) {
        a->i0 = (uint32_t)floor(c);
        a->w = c - a->i0;
        a->i1 = a->i0 + 1 < size ? a->i0 + 1 : size - 1;
    } else {
        a->i0 = (uint32_t)ceil(c - 0.5);
        a->w = 0;
        a->i1 = a->i0;
    }
}

static uint32_t roi_samples(const struct ref_roi *r, double extent, uint32_t bins)
{
    double q = ceil(fabs(extent) / bins);
    if (q < r->min_samples)
        q = r->min_samples;
    if (q > r->max_samples)
        q = r->max_samples;
    return (uint32_t)q;
}

struct roi_region {
    double x1, y1, w, h;
    uint32_t nx, ny, b;
    int valid;
};

static void roi_region(const struct ref_roi *r, uint32_t k, struct roi_region *g)
{
    const double *c = r->rois + 4 * k;
    g->x1 = c[0] * r->spatial_x;
    g->y1 = c[1] * r->spatial_y;
    g->w = c[2] * r->spatial_x - g->x1;
    g->h = c[3] * r->spatial_y - g->y1;
    g->nx = roi_samples(r, g->w, r->out_w);
    g->ny = roi_samples(r, g->h, r->out_h);
    g->b = r->batch_indices[k];
    g->valid = g->b < r->batch;
}

static double roi_at(const struct ref_roi *r, const double *x, uint32_t b, uint32_t c, uint32_t y, uint32_t xx)
{
    return x[(((uint64_t)b * r->channels + c) * r->height + y) * r->width + xx];
}

static double roi_read(const struct ref_roi *r, const double *x, uint32_t b, uint32_t c, const struct roi_axis *y,
                       const struct roi_axis *xa)
{
    double a = roi_at(r, x, b, c, y->i0, xa->i0), bb = roi_at(r, x, b, c, y->i0, xa->i1);
    double cc = roi_at(r, x, b, c, y->i1, xa->i0), d = roi_at(r, x, b, c, y->i1, xa->i1);
    return (1 - y->w) * ((1 - xa->w) * a + xa->w * bb) + y->w * ((1 - xa->w) * cc + xa->w * d);
}

/* Visits the samples of bin (k, c, oy, ox) that carry gradient: every in-bounds sample with
 * share dy/(nx*ny) for AVERAGE, the winner (if in bounds) with share dy for MAX. */
static void roi_bin(const struct ref_roi *r, const double *x, uint32_t k, uint32_t c, uint32_t oy, uint32_t ox, double dy,
                    void (*visit)(void *user, const struct roi_region *g, uint32_t c, const struct roi_axis *y,
                                  const struct roi_axis *xa, double share),
                    void *user)
{
    struct roi_region g;
    roi_region(r, k, &g);
    if (!g.valid)
        return;
    uint32_t ny = g.ny * r->out_h, nx = g.nx * r->out_w;
    struct roi_axis best_y = { 0 }, best_x = { 0 };
    double best = 0;
    int first = 1, best_in = 0;
    for (uint32_t iy = 0; iy < g.ny; iy++) {
        struct roi_axis y;
        roi_sample_axis(r, g.y1, g.h, oy * g.ny + iy, ny, r->height, &y);
        for (uint32_t ix = 0; ix < g.nx; ix++) {
            struct roi_axis xa;
            roi_sample_axis(r, g.x1, g.w, ox * g.nx + ix, nx, r->width, &xa);
            int oob = y.oob || xa.oob;
            if (r->maximum) {
                double v = oob ? 0 : roi_read(r, x, g.b, c, &y, &xa);
                if (first || v > best) {
                    best = v;
                    best_in = !oob;
                    best_y = y;
                    best_x = xa;
                }
                first = 0;
            } else if (!oob) {
                visit(user, &g, c, &y, &xa, dy / (g.nx * g.ny));
            }
        }
    }
    if (r->maximum && best_in)
        visit(user, &g, c, &best_y, &best_x, dy);
}

void ref_roi_forward(const struct ref_roi *r, const double *x, double *out)
{
    for (uint32_t k = 0; k < r->num_rois; k++) {
        struct roi_region g;
        roi_region(r, k, &g);
        for (uint32_t c = 0; c < r->channels; c++)
            for (uint32_t oy = 0; oy < r->out_h; oy++)
                for (uint32_t ox = 0; ox < r->out_w; ox++) {
                    double acc = r->oob_value;
                    if (g.valid) {
                        uint32_t ny = g.ny * r->out_h, nx = g.nx * r->out_w;
                        int first = 1;
                        acc = 0;
                        for (uint32_t iy = 0; iy < g.ny; iy++) {
                            struct roi_axis y;
                            roi_sample_axis(r, g.y1, g.h, oy * g.ny + iy, ny, r->height, &y);
                            for (uint32_t ix = 0; ix < g.nx; ix++) {
                                struct roi_axis xa;
                                roi_sample_axis(r, g.x1, g.w, ox * g.nx + ix, nx, r->width, &xa);
                                double v = (y.oob || xa.oob) ? r->oob_value : roi_read(r, x, g.b, c, &y, &xa);
                                if (r->maximum)
                                    acc = first || v > acc ? v : acc;
                                else
                                    acc += v;
                                first = 0;
                            }
                        }
                        if (!r->maximum)
                            acc /= (double)g.nx * g.ny;
                    }
                    out[(((uint64_t)k * r->channels + c) * r->out_h + oy) * r->out_w + ox] = acc;
                }
    }
}

struct roi_grads {
    const struct ref_roi *r;
    const double *x;
    double *dx, *droi, *dx_abs, *droi_abs;
    uint32_t k;
};

static void roi_add_dx(struct roi_grads *s, uint32_t b, uint32_t c, uint32_t y, uint32_t x, double v)
{
    uint64_t i = (((uint64_t)b * s->r->channels + c) * s->r->height + y) * s->r->width + x;
    s->dx[i] += v;
    if (s->dx_abs)
        s->dx_abs[i] += fabs(v);
}

static void roi_visit(void *user, const struct roi_region *g, uint32_t c, const struct roi_axis *y,
                      const struct roi_axis *xa, double share)
{
    struct roi_grads *s = user;
    const struct ref_roi *r = s->r;
    if (s->dx) {
        roi_add_dx(s, g->b, c, y->i0, xa->i0, share * (1 - y->w) * (1 - xa->w));
        roi_add_dx(s, g->b, c, y->i0, xa->i1, share * (1 - y->w) * xa->w);
        roi_add_dx(s, g->b, c, y->i1, xa->i0, share * y->w * (1 - xa->w));
        roi_add_dx(s, g->b, c, y->i1, xa->i1, share * y->w * xa->w);
    }
    if (s->droi && r->linear) {
        double a = roi_at(r, s->x, g->b, c, y->i0, xa->i0), b = roi_at(r, s->x, g->b, c, y->i0, xa->i1);
        double cc = roi_at(r, s->x, g->b, c, y->i1, xa->i0), d = roi_at(r, s->x, g->b, c, y->i1, xa->i1);
        double dvdx = xa->clamped ? 0 : (1 - y->w) * (b - a) + y->w * (d - cc);
        double dvdy = y->clamped ? 0 : (1 - xa->w) * (cc - a) + xa->w * (d - b);
        double t[4] = { share * dvdx * r->spatial_x * (1 - xa->t), share * dvdy * r->spatial_y * (1 - y->t),
                        share * dvdx * r->spatial_x * xa->t, share * dvdy * r->spatial_y * y->t };
        for (int q = 0; q < 4; q++) {
            s->droi[4 * s->k + q] += t[q];
            if (s->droi_abs)
                s->droi_abs[4 * s->k + q] += fabs(t[q]);
        }
    }
}

void ref_roi_backward(const struct ref_roi *r, const double *x, const double *dy, double *dx, double *droi,
                      double *dx_abs, double *droi_abs)
{
    uint64_t n = (uint64_t)r->batch * r->channels * r->height * r->width;
    if (dx)
        memset(dx, 0, n * sizeof(double));
    if (dx_abs)
        memset(dx_abs, 0, n * sizeof(double));
    if (droi)
        memset(droi, 0, 4 * r->num_rois * sizeof(double));
    if (droi_abs)
        memset(droi_abs, 0, 4 * r->num_rois * sizeof(double));
    struct roi_grads s = { r, x, dx, droi, dx_abs, droi_abs, 0 };
    for (uint32_t k = 0; k < r->num_rois; k++) {
        s.k = k;
        for (uint32_t c = 0; c < r->channels; c++)
            for (uint32_t oy = 0; oy < r->out_h; oy++)
                for (uint32_t ox = 0; ox < r->out_w; ox++)
                    roi_bin(r, x, k, c, oy, ox, dy[(((uint64_t)k * r->channels + c) * r->out_h + oy) * r->out_w + ox],
                            roi_visit, &s);
    }
}
