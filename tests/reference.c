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
