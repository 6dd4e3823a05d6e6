/* Helpers of the random case generator, shared by its per-operator parts. */
#ifndef DMLVK_TESTS_REFGEN_H
#define DMLVK_TESTS_REFGEN_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#define GEN_MAX_DIMS 8

struct rng {
    uint64_t state;
    uint32_t size;   /* multiplies the resample and ROI shapes' upper bounds; 0 means 1 */
};

struct gen_tensor {
    uint32_t dims;
    uint32_t sizes[GEN_MAX_DIMS];
    uint32_t strides[GEN_MAX_DIMS];
    bool has_strides;
    uint64_t elements;
    uint64_t max_offset;
};

uint64_t rng_u64(struct rng *r);
uint32_t rng_range(struct rng *r, uint32_t lo, uint32_t hi);
double rng_uniform(struct rng *r, double lo, double hi);
enum gen_type { GEN_FLOAT32, GEN_FLOAT16, GEN_BFLOAT16, GEN_TYPES };
extern const char *const gen_type_names[GEN_TYPES];
/* What a value becomes once stored in a tensor of the type: the reference sees what the GPU sees. */
double representable(double v, enum gen_type type);

/* Random sizes with at most max_elements elements (each size 1..7). */
void gen_shape(struct rng *r, struct gen_tensor *t, uint32_t dims, uint32_t max_elements);
/* Packed, padded, transposed or (inputs only) broadcast strides. */
void gen_strides(struct rng *r, struct gen_tensor *t, bool input);
/* Values for every element offset of t, already representable in the type. */
double *gen_memory(struct rng *r, const struct gen_tensor *t, enum gen_type type, bool specials);
/* Reads memory through t's strides into logical order. */
void gen_logical(const struct gen_tensor *t, const double *memory, double *logical);

json_t *json_numbers(const double *v, uint64_t n);
json_t *json_u32s(const uint32_t *v, uint32_t n);
json_t *gen_tensor_json(const struct gen_tensor *t, const char *type, const double *logical);
/* A negative tolerance is left out. */
json_t *gen_expected_json(const double *values, uint64_t n, double ulp, double abs_tol);

#endif
