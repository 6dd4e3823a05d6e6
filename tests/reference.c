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

#include <gmp.h>
#include <math.h>
#include <stdlib.h>
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

/* One axis of a sample in bounds: taps i0 and i1 (weight w on i1), t = u / D. */
struct roi_axis {
    int clamped;
    uint32_t i0, i1;
    double w, t;
};

/* One axis of a region: samples per bin and the samples [first, end) that lie in bounds (the
 * positions move monotonically), every decision made on exact rationals (GMP). */
struct roi_line {
    uint32_t n;
    uint64_t first, end;
    struct roi_axis *samples;   /* end - first of them */
};

static void mpz_set_u64(mpz_t z, uint64_t v)
{
    mpz_set_ui(z, (unsigned long)(v >> 32));
    mpz_mul_2exp(z, z, 32);
    mpz_add_ui(z, z, (unsigned long)(v & 0xffffffffu));
}

static uint64_t mpz_get_u64(const mpz_t z)
{
    mpz_t t;
    mpz_init(t);
    mpz_fdiv_q_2exp(t, z, 32);
    uint64_t v = (uint64_t)mpz_get_ui(t) << 32;
    mpz_fdiv_r_2exp(t, z, 32);
    v |= mpz_get_ui(t);
    mpz_clear(t);
    return v;
}

/* clamp(v, 0, limit) of an integer, as uint64. */
static uint64_t clamp_count(const mpz_t v, uint64_t limit)
{
    if (mpz_sgn(v) <= 0)
        return 0;
    mpz_t l;
    mpz_init(l);
    mpz_set_u64(l, limit);
    uint64_t r = mpz_cmp(v, l) >= 0 ? limit : mpz_get_u64(v);
    mpz_clear(l);
    return r;
}

static void roi_line(const struct ref_roi *r, double lo, double hi, double scale, uint32_t bins, uint32_t size,
                     struct roi_line *l)
{
    mpq_t x1, w, a, d, o, p, q;
    mpz_t z;
    mpq_inits(x1, w, a, d, o, p, q, NULL);
    mpz_init(z);
    mpq_set_d(q, scale);
    mpq_set_d(x1, lo);
    mpq_mul(x1, x1, q);
    mpq_set_d(w, hi);
    mpq_mul(w, w, q);
    mpq_sub(w, w, x1);                                  /* W = X2 - X1 */
    mpq_abs(p, w);
    mpz_mul_ui(z, mpq_denref(p), bins);
    mpz_cdiv_q(z, mpq_numref(p), z);                    /* ceil(|W| / bins) */
    l->n = mpz_cmp_ui(z, r->min_samples) < 0 ? r->min_samples
           : mpz_cmp_ui(z, r->max_samples) > 0 ? r->max_samples
                                               : (uint32_t)mpz_get_ui(z);
    uint64_t count = (uint64_t)bins * l->n;
    int single = r->align_corners && count == 1;
    mpz_set_u64(z, single ? 2 : r->align_corners ? count - 1 : count);
    mpq_set_z(d, z);
    mpq_set_d(o, r->align_corners ? 0 : r->output_offset);
    mpq_set_d(q, r->input_offset);
    mpq_sub(a, x1, q);                                  /* A = X1 - InputPixelOffset */
    int dir = mpq_sgn(w);
    if (dir == 0 || single) {
        /* Every sample at A + W/2 (one sample) or at A (no extent). */
        mpq_set_ui(q, 1, 2);
        mpq_mul(q, q, w);
        mpq_add(p, a, q);
        int inside = mpq_cmp_si(p, -1, 1) >= 0 && mpq_cmp_ui(p, size, 1) <= 0;
        l->first = 0;
        l->end = inside ? count : 0;
    } else {
        /* p(s) = A + W * (s - o) / D reaches T at s = o + (T - A) * D / W. */
        for (int e = 0; e < 2; e++) {
            int edge_low = (e == 0) == (dir > 0);      /* the bound from -1, else from size */
            mpq_set_si(q, edge_low ? -1 : (long)size, 1);
            mpq_sub(q, q, a);
            mpq_mul(q, q, d);
            mpq_div(q, q, w);
            mpq_add(q, q, o);
            if (e == 0)
                mpz_cdiv_q(z, mpq_numref(q), mpq_denref(q));
            else {
                mpz_fdiv_q(z, mpq_numref(q), mpq_denref(q));
                mpz_add_ui(z, z, 1);
            }
            if (e == 0)
                l->first = clamp_count(z, count);
            else
                l->end = clamp_count(z, count);
        }
        if (l->end < l->first)
            l->end = l->first;
    }
    l->samples = calloc(l->end - l->first + 1, sizeof(struct roi_axis));
    for (uint64_t s = l->first; s < l->end; s++) {
        struct roi_axis *x = &l->samples[s - l->first];
        if (single) {
            mpq_set_ui(q, 1, 2);
            x->t = 0.5;
        } else {
            mpz_set_u64(z, s);
            mpq_set_z(q, z);
            mpq_sub(q, q, o);
            mpq_div(q, q, d);                           /* t = (s - o) / D */
            x->t = mpq_get_d(q);
        }
        mpq_mul(p, w, q);
        mpq_add(p, p, a);
        x->clamped = mpq_sgn(p) < 0 || mpq_cmp_ui(p, size - 1, 1) > 0;
        if (mpq_sgn(p) < 0)
            mpq_set_ui(p, 0, 1);
        else if (mpq_cmp_ui(p, size - 1, 1) > 0)
            mpq_set_ui(p, size - 1, 1);
        if (r->linear) {
            mpz_fdiv_q(z, mpq_numref(p), mpq_denref(p));
            x->i0 = (uint32_t)mpz_get_ui(z);
            mpq_set_z(q, z);
            mpq_sub(q, p, q);
            x->w = mpq_get_d(q);
            x->i1 = x->i0 + 1 < size ? x->i0 + 1 : size - 1;
        } else {
            mpq_set_ui(q, 1, 2);
            mpq_sub(q, p, q);
            mpz_cdiv_q(z, mpq_numref(q), mpq_denref(q));
            x->i0 = (uint32_t)mpz_get_ui(z);
            x->i1 = x->i0;
            x->w = 0;
        }
    }
    mpq_clears(x1, w, a, d, o, p, q, NULL);
    mpz_clear(z);
}

struct roi_region {
    struct roi_line x, y;
    uint32_t b;
    int valid;
};

static void roi_region(const struct ref_roi *r, uint32_t k, struct roi_region *g)
{
    const double *c = r->rois + 4 * k;
    roi_line(r, c[0], c[2], r->spatial_x, r->out_w, r->width, &g->x);
    roi_line(r, c[1], c[3], r->spatial_y, r->out_h, r->height, &g->y);
    g->b = r->batch_indices[k];
    g->valid = g->b < r->batch;
}

static void roi_region_free(struct roi_region *g)
{
    free(g->x.samples);
    free(g->y.samples);
}

/* The in-bounds samples [first, end) of bin `bin` of a line, as indices into its samples. */
static void roi_bin_samples(const struct roi_line *l, uint32_t bin, uint64_t *first, uint64_t *end)
{
    uint64_t lo = (uint64_t)bin * l->n, hi = lo + l->n;
    lo = lo > l->first ? lo : l->first;
    hi = hi < l->end ? hi : l->end;
    *first = lo - l->first;
    *end = (hi > lo ? hi : lo) - l->first;
}

static double roi_at(const struct ref_roi *r, const double *x, uint32_t b, uint32_t c, uint32_t y, uint32_t xx)
{
    return x[(((uint64_t)b * r->channels + c) * r->height + y) * r->width + xx];
}

/* How a sample's value is computed: the operands left once taps of weight 0 and equal taps fall
 * away (n = -1 where two halves of other forms met as equal values). Samples of one form get the
 * same value in any arithmetic, float32's on the GPU too. */
struct roi_form {
    int n;
    double v[7];
};

static int same_form(const struct roi_form *a, const struct roi_form *b)
{
    return a->n >= 0 && a->n == b->n && memcmp(a->v, b->v, (size_t)a->n * sizeof(double)) == 0;
}

/* a and b weighted by 1 - w and w, appended to f. A tap of weight 0 takes no part (as in the
 * resample reference): an Inf or NaN there does not leak into the sample. Equal taps give their
 * value exactly, as real arithmetic does (and the GPU under MAX: glsl/roi_align_common.glsl). */
static double roi_weigh(double a, double b, double w, struct roi_form *f)
{
    f->v[f->n++] = a;
    if (w == 0 || a == b)
        return a;
    f->v[f->n++] = b;
    f->v[f->n++] = w;
    return (1 - w) * a + w * b;
}

/* The input at a sample, and its form where f is not NULL. */
static double roi_read_form(const struct ref_roi *r, const double *x, uint32_t b, uint32_t c, const struct roi_axis *y,
                            const struct roi_axis *xa, struct roi_form *f)
{
    double a = roi_at(r, x, b, c, y->i0, xa->i0), bb = roi_at(r, x, b, c, y->i0, xa->i1);
    double cc = roi_at(r, x, b, c, y->i1, xa->i0), d = roi_at(r, x, b, c, y->i1, xa->i1);
    struct roi_form top_form = { 0 }, bottom_form = { 0 };
    double top = roi_weigh(a, bb, xa->w, &top_form), bottom = roi_weigh(cc, d, xa->w, &bottom_form);
    struct roi_form both = top_form;
    double v = top;
    if (y->w != 0 && top != bottom) {
        memcpy(both.v + both.n, bottom_form.v, (size_t)bottom_form.n * sizeof(double));
        both.n += bottom_form.n;
        both.v[both.n++] = y->w;
        v = (1 - y->w) * top + y->w * bottom;
    } else if (y->w != 0 && !same_form(&top_form, &bottom_form) && (top_form.n > 1 || bottom_form.n > 1)) {
        both.n = -1;
    }
    if (f)
        *f = both;
    return v;
}

static double roi_read(const struct ref_roi *r, const double *x, uint32_t b, uint32_t c, const struct roi_axis *y,
                       const struct roi_axis *xa)
{
    return roi_read_form(r, x, b, c, y, xa, NULL);
}

static int same_taps(const struct roi_axis *a, const struct roi_axis *b)
{
    return a->i0 == b->i0 && a->i1 == b->i1 && a->w == b->w;
}

/* Visits the samples of bin (k, c, oy, ox) that carry gradient: every in-bounds sample with
 * share dy/(nx*ny) for AVERAGE; for MAX the first largest sample, where it is in bounds (the
 * others count as 0, the first of them in order winning a tie). A MAX bin whose winner is within
 * r->max_tie of another sample at other taps adds one to r->ambiguous. */
static void roi_bin(const struct ref_roi *r, const double *x, const struct roi_region *g, uint32_t c, uint32_t oy,
                    uint32_t ox, double dy,
                    void (*visit)(void *user, const struct roi_region *g, uint32_t c, const struct roi_axis *y,
                                  const struct roi_axis *xa, double share),
                    void *user)
{
    if (!g->valid)
        return;
    uint64_t y0, y1, x0, x1;
    roi_bin_samples(&g->y, oy, &y0, &y1);
    roi_bin_samples(&g->x, ox, &x0, &x1);
    if (!r->maximum) {
        double share = dy / ((double)g->x.n * g->y.n);
        for (uint64_t iy = y0; iy < y1; iy++)
            for (uint64_t ix = x0; ix < x1; ix++)
                visit(user, g, c, &g->y.samples[iy], &g->x.samples[ix], share);
        return;
    }
    if (y0 == y1 || x0 == x1)
        return;
    double best = 0;
    uint64_t by = y0, bx = x0;
    for (uint64_t iy = y0; iy < y1; iy++)
        for (uint64_t ix = x0; ix < x1; ix++) {
            double v = roi_read(r, x, g->b, c, &g->y.samples[iy], &g->x.samples[ix]);
            if ((iy == y0 && ix == x0) || v > best) {
                best = v;
                by = iy;
                bx = ix;
            }
        }
    /* In-bin positions of the winner and of the first out-of-bounds sample. */
    uint64_t bin_y = (uint64_t)oy * g->y.n, bin_x = (uint64_t)ox * g->x.n;
    uint64_t wy = g->y.first + by - bin_y, wx = g->x.first + bx - bin_x;
    uint64_t fy = g->y.first + y0 - bin_y, ey = g->y.first + y1 - bin_y;
    uint64_t fx = g->x.first + x0 - bin_x, ex = g->x.first + x1 - bin_x;
    int all = fy == 0 && ey == g->y.n && fx == 0 && ex == g->x.n, wins = 1;
    if (!all && best <= 0) {
        uint64_t oy_ = 0, ox_ = 0;
        if (fy == 0 && fx == 0) {
            if (ex < g->x.n)
                ox_ = ex;
            else
                oy_ = ey;
        }
        wins = best < 0 ? 0 : (wy < oy_ || (wy == oy_ && wx < ox_));
    }
    if (r->ambiguous) {
        /* Values of one form tie alike on the GPU, as do the exact 0 of one tap and the samples out
         * of bounds. */
        struct roi_form best_form, form;
        roi_read_form(r, x, g->b, c, &g->y.samples[by], &g->x.samples[bx], &best_form);
        double tol = r->max_tie * (fabs(best) + 1);
        int near = !all && fabs(best) <= tol && !(best == 0 && best_form.n == 1);
        for (uint64_t iy = y0; iy < y1 && !near; iy++)
            for (uint64_t ix = x0; ix < x1 && !near; ix++) {
                const struct roi_axis *sy = &g->y.samples[iy], *sx = &g->x.samples[ix];
                if (same_taps(sy, &g->y.samples[by]) && same_taps(sx, &g->x.samples[bx]))
                    continue;
                double v = roi_read_form(r, x, g->b, c, sy, sx, &form);
                near = fabs(v - best) <= tol && !(v == best && same_form(&form, &best_form));
            }
        *r->ambiguous += near;
    }
    if (wins)
        visit(user, g, c, &g->y.samples[by], &g->x.samples[bx], dy);
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
                        uint64_t y0, y1, x0, x1;
                        roi_bin_samples(&g.y, oy, &y0, &y1);
                        roi_bin_samples(&g.x, ox, &x0, &x1);
                        double total = (double)g.x.n * g.y.n, inside = (double)(y1 - y0) * (double)(x1 - x0);
                        acc = 0;
                        for (uint64_t iy = y0; iy < y1; iy++)
                            for (uint64_t ix = x0; ix < x1; ix++) {
                                double v = roi_read(r, x, g.b, c, &g.y.samples[iy], &g.x.samples[ix]);
                                acc = !r->maximum ? acc + v : (iy == y0 && ix == x0) || v > acc ? v : acc;
                            }
                        if (r->maximum)
                            acc = inside == 0 ? r->oob_value : inside < total && r->oob_value > acc ? r->oob_value : acc;
                        else
                            acc = (acc + (total - inside) * r->oob_value) / total;
                    }
                    out[(((uint64_t)k * r->channels + c) * r->out_h + oy) * r->out_w + ox] = acc;
                }
        roi_region_free(&g);
    }
}
struct roi_grads {
    const struct ref_roi *r;
    const double *x;
    double *dx, *droi, *dx_abs, *droi_abs;
    uint32_t k;
};

/* Adds share * wy * wx to element (b, c, y, x); nothing at a weight of 0, as roi_read. */
static void roi_add_dx(struct roi_grads *s, uint32_t b, uint32_t c, uint32_t y, uint32_t x, double share, double wy,
                       double wx)
{
    if (wy == 0 || wx == 0)
        return;
    double v = share * wy * wx;
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
        roi_add_dx(s, g->b, c, y->i0, xa->i0, share, 1 - y->w, 1 - xa->w);
        roi_add_dx(s, g->b, c, y->i0, xa->i1, share, 1 - y->w, xa->w);
        roi_add_dx(s, g->b, c, y->i1, xa->i0, share, y->w, 1 - xa->w);
        roi_add_dx(s, g->b, c, y->i1, xa->i1, share, y->w, xa->w);
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
        struct roi_region g;
        roi_region(r, k, &g);
        for (uint32_t c = 0; c < r->channels; c++)
            for (uint32_t oy = 0; oy < r->out_h; oy++)
                for (uint32_t ox = 0; ox < r->out_w; ox++)
                    roi_bin(r, x, &g, c, oy, ox, dy[(((uint64_t)k * r->channels + c) * r->out_h + oy) * r->out_w + ox],
                            roi_visit, &s);
        roi_region_free(&g);
    }
}
