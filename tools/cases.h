/*
 * Loads operator cases in the JSON format of CASES.md and turns them into dmlvk descriptors.
 * Used by dmlvk-run, the fuzz target and the tests; it only uses the public API.
 */
#ifndef DMLVK_TOOLS_CASES_H
#define DMLVK_TOOLS_CASES_H

#include <stdbool.h>
#include <stdint.h>

#include <dmlvk/dmlvk.h>

#define CASE_MAX_TENSORS 8
#define CASE_MAX_ARRAYS 4
/* More than dmlvk accepts, so that such cases reach the library and get its error. */
#define CASE_MAX_DIMS 16

enum data_source { DATA_NONE, DATA_INLINE, DATA_RANDOM, DATA_FILE };

struct data_spec {
    enum data_source source;
    double *values;             /* DATA_INLINE: count values in logical order */
    uint64_t count;
    uint64_t seed;              /* DATA_RANDOM */
    double min, max;
    char *path;                 /* DATA_FILE: resolved against the case file */
};

struct case_tensor {
    const char *field;          /* the descriptor member this binds */
    bool present, output;
    dmlvk_tensor_desc desc;
    uint32_t sizes[CASE_MAX_DIMS];
    uint32_t strides[CASE_MAX_DIMS];
    uint64_t elements;
    struct data_spec data;      /* inputs */
    bool has_expected;
    struct data_spec expected;  /* outputs */
    bool has_ulp, has_abs;
    double ulp, abs;
};

struct test_case {
    char *name;
    char *file;
    const dmlvk_operator_info *info;
    dmlvk_operator_desc op;
    void *desc;                 /* the operator's struct, info->desc_size bytes */
    float *arrays[CASE_MAX_ARRAYS];
    struct case_tensor *tensors; /* CASE_MAX_TENSORS, in binding order; the descriptor points into them */
    char *expect_error;         /* "invalid-argument", "unsupported" or NULL */
    char *skip;
    bool requires_float16;
    char *unknown_requirement;
};

struct case_list {
    struct test_case *cases;
    uint32_t count;
};

/*
 * Parses one file and appends its cases. On failure returns false and writes
 * "FILE:LINE:COLUMN: reason" into err.
 */
bool cases_load_file(const char *path, struct case_list *list, char *err, size_t err_size);

/* Same, from text in memory (for the fuzz target); path is used in messages and for data files. */
bool cases_load_text(const char *text, size_t size, const char *path, struct case_list *list, char *err,
                     size_t err_size);

void cases_free(struct case_list *list);

/*
 * Materializes a data spec as count values in logical order (random draws, or a file's elements).
 * The caller frees *values. On failure writes a message into err.
 */
bool data_values(const struct data_spec *spec, dmlvk_tensor_data_type type, uint64_t count, double **values,
                 char *err, size_t err_size);

#endif
