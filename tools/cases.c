#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cases.h"
#include "half.h"

/* Files larger than this are refused before reading: cases carry their bulk in data files. */
#define MAX_JSON_BYTES (UINT64_C(256) << 20)
#define MAX_DEPTH 16

struct path_part {
    const char *key;            /* NULL for an array index */
    size_t index;
};

struct loader {
    const char *text;
    size_t size;
    const char *path;
    struct path_part parts[MAX_DEPTH];
    int depth;
    char *err;
    size_t err_size;
};

/* ---- where in the text a value sits --------------------------------------------------------
 * jansson reports line and column for syntax errors only. For a file that parsed but breaks a
 * rule of the format, this walks the (known well-formed) text along the path to the offending
 * value, so the message still points at a line and column.
 */

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

static const char *skip_string(const char *p, const char *end)
{
    for (p++; p < end && *p != '"'; p++)
        if (*p == '\\')
            p++;
    return p < end ? p + 1 : end;
}

static const char *skip_value(const char *p, const char *end)
{
    p = skip_ws(p, end);
    if (p >= end)
        return end;
    if (*p == '"')
        return skip_string(p, end);
    if (*p == '{' || *p == '[') {
        int depth = 0;
        for (; p < end; p++) {
            if (*p == '"') {
                p = skip_string(p, end) - 1;
            } else if (*p == '{' || *p == '[') {
                depth++;
            } else if (*p == '}' || *p == ']') {
                if (--depth == 0)
                    return p + 1;
            }
        }
        return end;
    }
    while (p < end && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\n' && *p != '\r' && *p != '\t')
        p++;
    return p;
}

static const char *locate(const struct loader *ld)
{
    const char *p = ld->text, *end = ld->text + ld->size;
    for (int i = 0; i < ld->depth; i++) {
        p = skip_ws(p, end);
        if (p >= end)
            return end;
        const struct path_part *part = &ld->parts[i];
        if (part->key && *p == '{') {
            const char *found = NULL;
            p++;
            while (!found) {
                p = skip_ws(p, end);
                if (p >= end || *p != '"')
                    return p;
                const char *key = p + 1, *key_end = skip_string(p, end) - 1;
                size_t n = strlen(part->key);
                p = skip_ws(key_end + 1, end);
                if (p < end && *p == ':')
                    p = skip_ws(p + 1, end);
                if ((size_t)(key_end - key) == n && !memcmp(key, part->key, n))
                    found = p;
                else
                    p = skip_ws(skip_value(p, end), end);
                if (!found && p < end && *p == ',')
                    p++;
            }
            p = found;
        } else if (!part->key && *p == '[') {
            p++;
            for (size_t k = 0; k < part->index && p < end; k++) {
                p = skip_ws(skip_value(p, end), end);
                if (p < end && *p == ',')
                    p++;
            }
            p = skip_ws(p, end);
        } else {
            return p;
        }
    }
    return skip_ws(p, end);
}

static bool fail(struct loader *ld, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool fail(struct loader *ld, const char *fmt, ...)
{
    const char *at = locate(ld);
    int line = 1, col = 1;
    for (const char *p = ld->text; p < at; p++) {
        if (*p == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    char where[256] = "";
    size_t w = 0;
    for (int i = 0; i < ld->depth && w < sizeof(where) - 32; i++) {
        if (ld->parts[i].key)
            w += (size_t)snprintf(where + w, sizeof(where) - w, "%s%s", i ? "." : "", ld->parts[i].key);
        else
            w += (size_t)snprintf(where + w, sizeof(where) - w, "[%zu]", ld->parts[i].index);
    }
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    snprintf(ld->err, ld->err_size, "%s:%d:%d: %s%s%s", ld->path, line, col, where, *where ? ": " : "", msg);
    return false;
}

static void push_key(struct loader *ld, const char *key)
{
    if (ld->depth < MAX_DEPTH)
        ld->parts[ld->depth] = (struct path_part){ key, 0 };
    ld->depth++;
}

static void push_index(struct loader *ld, size_t index)
{
    if (ld->depth < MAX_DEPTH)
        ld->parts[ld->depth] = (struct path_part){ NULL, index };
    ld->depth++;
}

static void pop(struct loader *ld)
{
    ld->depth--;
}

/* ---- values --------------------------------------------------------------------------------- */

/* A number, or one of the strings "nan", "inf", "-inf". */
static bool get_number(struct loader *ld, const json_t *v, double *out)
{
    if (json_is_number(v)) {
        *out = json_number_value(v);
        return true;
    }
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (!strcmp(s, "nan") || !strcmp(s, "NaN")) {
            *out = NAN;
            return true;
        }
        if (!strcmp(s, "inf") || !strcmp(s, "+inf") || !strcmp(s, "Infinity")) {
            *out = INFINITY;
            return true;
        }
        if (!strcmp(s, "-inf") || !strcmp(s, "-Infinity")) {
            *out = -INFINITY;
            return true;
        }
    }
    return fail(ld, "expected a number (or \"nan\", \"inf\", \"-inf\")");
}

static bool get_u32(struct loader *ld, const json_t *v, uint32_t *out)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > (json_int_t)UINT32_MAX)
        return fail(ld, "expected an integer from 0 to 4294967295");
    *out = (uint32_t)json_integer_value(v);
    return true;
}

static bool get_u32_array(struct loader *ld, const json_t *v, uint32_t *out, size_t *count, size_t max)
{
    if (!json_is_array(v))
        return fail(ld, "expected an array of integers");
    if (json_array_size(v) > max)
        return fail(ld, "%zu values; at most %zu are allowed", json_array_size(v), max);
    *count = json_array_size(v);
    for (size_t i = 0; i < *count; i++) {
        push_index(ld, i);
        bool ok = get_u32(ld, json_array_get(v, i), &out[i]);
        pop(ld);
        if (!ok)
            return false;
    }
    return true;
}

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static bool check_keys(struct loader *ld, const json_t *obj, const char *const *allowed)
{
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)obj, key, value) {
        bool ok = false;
        for (const char *const *a = allowed; *a && !ok; a++)
            ok = !strcmp(*a, key);
        if (!ok) {
            push_key(ld, key);
            return fail(ld, "unknown field");
        }
    }
    return true;
}

/* ---- data ----------------------------------------------------------------------------------- */

static char *resolve_path(const char *case_file, const char *rel)
{
    if (rel[0] == '/')
        return dup_string(rel);
    const char *slash = strrchr(case_file, '/');
    size_t dir = slash ? (size_t)(slash - case_file + 1) : 0;
    size_t n = dir + strlen(rel) + 1;
    char *p = malloc(n);
    if (p) {
        memcpy(p, case_file, dir);
        memcpy(p + dir, rel, strlen(rel) + 1);
    }
    return p;
}

/* Parses "data", "random" or "file" from obj into spec; count is the logical element count. */
static bool get_data(struct loader *ld, const json_t *obj, uint64_t count, bool count_known, bool allow_random,
                     struct data_spec *spec)
{
    const json_t *data = json_object_get(obj, "data"), *random = json_object_get(obj, "random"),
                 *file = json_object_get(obj, "file");
    int sources = !!data + !!random + !!file;
    if (sources > 1)
        return fail(ld, "give only one of \"data\", \"random\" and \"file\"");
    if (data) {
        push_key(ld, "data");
        if (!json_is_array(data))
            return fail(ld, "expected an array of numbers");
        size_t n = json_array_size(data);
        if (count_known && n != count)
            return fail(ld, "%zu values, but the sizes hold %llu elements", n, (unsigned long long)count);
        spec->values = malloc((n ? n : 1) * sizeof(double));
        if (!spec->values)
            return fail(ld, "out of memory");
        spec->count = n;
        spec->source = DATA_INLINE;
        for (size_t i = 0; i < n; i++) {
            push_index(ld, i);
            if (!get_number(ld, json_array_get(data, i), &spec->values[i]))
                return false;
            pop(ld);
        }
        pop(ld);
    } else if (random) {
        push_key(ld, "random");
        if (!allow_random)
            return fail(ld, "expected values cannot be random");
        if (!json_is_object(random))
            return fail(ld, "expected an object {\"seed\", \"min\", \"max\"}");
        static const char *const keys[] = { "seed", "min", "max", NULL };
        if (!check_keys(ld, random, keys))
            return false;
        const json_t *seed = json_object_get(random, "seed"), *min = json_object_get(random, "min"),
                     *max = json_object_get(random, "max");
        spec->source = DATA_RANDOM;
        spec->min = -1;
        spec->max = 1;
        if (seed) {
            push_key(ld, "seed");
            if (!json_is_integer(seed) || json_integer_value(seed) < 0)
                return fail(ld, "expected a non-negative integer");
            spec->seed = (uint64_t)json_integer_value(seed);
            pop(ld);
        }
        if (min) {
            push_key(ld, "min");
            if (!get_number(ld, min, &spec->min) || !isfinite(spec->min))
                return fail(ld, "expected a finite number");
            pop(ld);
        }
        if (max) {
            push_key(ld, "max");
            if (!get_number(ld, max, &spec->max) || !isfinite(spec->max))
                return fail(ld, "expected a finite number");
            pop(ld);
        }
        if (spec->min > spec->max)
            return fail(ld, "min is greater than max");
        pop(ld);
    } else if (file) {
        push_key(ld, "file");
        if (!json_is_string(file) || !*json_string_value(file))
            return fail(ld, "expected a file name");
        spec->source = DATA_FILE;
        spec->path = resolve_path(ld->path, json_string_value(file));
        if (!spec->path)
            return fail(ld, "out of memory");
        pop(ld);
    }
    return true;
}

bool data_values(const struct data_spec *spec, dmlvk_tensor_data_type type, uint64_t count, double **values,
                 char *err, size_t err_size)
{
    bool bf16 = type == DMLVK_TENSOR_DATA_TYPE_BFLOAT16;
    uint32_t esize = dmlvk_data_type_size(type);
    *values = malloc((count ? count : 1) * sizeof(double));
    if (!*values) {
        snprintf(err, err_size, "out of memory for %llu values", (unsigned long long)count);
        return false;
    }
    double *v = *values;
    if (spec->source == DATA_INLINE) {
        memcpy(v, spec->values, count * sizeof(double));
    } else if (spec->source == DATA_RANDOM) {
        uint64_t state = spec->seed;
        for (uint64_t i = 0; i < count; i++) {
            uint64_t r = splitmix64_next(&state);
            if (type == DMLVK_TENSOR_DATA_TYPE_UINT32) {
                double lo = ceil(spec->min), hi = floor(spec->max);
                uint64_t span = hi >= lo ? (uint64_t)(hi - lo) + 1 : 1;
                v[i] = lo + (double)(r % span);
            } else {
                v[i] = spec->min + (spec->max - spec->min) * ((double)(r >> 11) * 0x1p-53);
            }
        }
    } else if (spec->source == DATA_FILE) {
        struct stat st;
        if (stat(spec->path, &st) != 0) {
            snprintf(err, err_size, "%s: %s", spec->path, strerror(errno));
            goto fail;
        }
        if (!S_ISREG(st.st_mode)) {
            /* A FIFO or a device could block or never end. */
            snprintf(err, err_size, "%s: not a regular file", spec->path);
            goto fail;
        }
        FILE *f = fopen(spec->path, "rb");
        if (!f) {
            snprintf(err, err_size, "%s: %s", spec->path, strerror(errno));
            goto fail;
        }
        fseek(f, 0, SEEK_END);
        long size = ftell(f);
        fseek(f, 0, SEEK_SET);
        if (size < 0 || (uint64_t)size != count * esize) {
            snprintf(err, err_size, "%s: %ld bytes, but %llu elements of %u bytes are needed", spec->path, size,
                     (unsigned long long)count, esize);
            fclose(f);
            goto fail;
        }
        for (uint64_t i = 0; i < count; i++) {
            uint8_t b[4];
            if (fread(b, esize, 1, f) != 1) {
                snprintf(err, err_size, "%s: read error", spec->path);
                fclose(f);
                goto fail;
            }
            if (esize == 2) {
                uint16_t h = (uint16_t)(b[0] | b[1] << 8);
                v[i] = bf16 ? bfloat16_to_float(h) : half_to_float(h);
            } else {
                uint32_t u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
                float f32;
                memcpy(&f32, &u, 4);
                v[i] = type == DMLVK_TENSOR_DATA_TYPE_UINT32 ? (double)u : (double)f32;
            }
        }
        fclose(f);
    } else {
        snprintf(err, err_size, "no data given");
        goto fail;
    }
    return true;
fail:
    free(*values);
    *values = NULL;
    return false;
}

/* ---- one case ------------------------------------------------------------------------------- */

static const dmlvk_field_info *find_field(const dmlvk_operator_info *info, const char *name)
{
    for (uint32_t i = 0; i < info->field_count; i++)
        if (!strcmp(info->fields[i].name, name))
            return &info->fields[i];
    return NULL;
}

static bool parse_tensor(struct loader *ld, struct case_tensor *t, const json_t *obj)
{
    static const char *const keys[] = { "dataType", "sizes", "strides", "data", "random", "file", NULL };
    if (!json_is_object(obj))
        return fail(ld, "expected a tensor object");
    if (!check_keys(ld, obj, keys))
        return false;
    t->present = true;
    t->desc.DataType = DMLVK_TENSOR_DATA_TYPE_FLOAT32;
    const json_t *type = json_object_get(obj, "dataType");
    if (type) {
        push_key(ld, "dataType");
        uint32_t value;
        if (json_is_integer(type)) {
            if (!get_u32(ld, type, &value))
                return false;
        } else if (!json_is_string(type) ||
                   dmlvk_enum_from_name(DMLVK_ENUM_TENSOR_DATA_TYPE, json_string_value(type), &value) != DMLVK_OK) {
            return fail(ld, "expected a DirectML data type name (FLOAT32, DML_TENSOR_DATA_TYPE_FLOAT16, INT32, ...)");
        }
        t->desc.DataType = (dmlvk_tensor_data_type)value;
        pop(ld);
    }
    const json_t *sizes = json_object_get(obj, "sizes");
    if (!sizes)
        return fail(ld, "\"sizes\" is required");
    size_t n, ns = 0;
    push_key(ld, "sizes");
    if (!get_u32_array(ld, sizes, t->sizes, &n, CASE_MAX_DIMS))
        return false;
    pop(ld);
    const json_t *strides = json_object_get(obj, "strides");
    if (strides) {
        push_key(ld, "strides");
        if (!get_u32_array(ld, strides, t->strides, &ns, CASE_MAX_DIMS))
            return false;
        if (ns != n)
            return fail(ld, "%zu strides for %zu sizes", ns, n);
        pop(ld);
    }
    t->desc.DimensionCount = (uint32_t)n;
    t->desc.Sizes = t->sizes;
    t->desc.Strides = strides ? t->strides : NULL;
    t->elements = 1;
    bool count_known = true;
    for (size_t i = 0; i < n; i++) {
        if (t->sizes[i] && t->elements > UINT64_MAX / t->sizes[i])
            count_known = false;
        else
            t->elements *= t->sizes[i];
    }
    uint64_t bytes;
    /* A shape dmlvk cannot describe gets 0 bytes: the operator's checks then say what is wrong. */
    bool valid_shape = n > 0 && dmlvk_tensor_min_size(&t->desc, &bytes) == DMLVK_OK;
    t->desc.TotalTensorSizeInBytes = valid_shape ? bytes : 0;
    if (t->output) {
        if (json_object_get(obj, "data") || json_object_get(obj, "random") || json_object_get(obj, "file"))
            return fail(ld, "%s is an output: it takes no data", t->field);
        return true;
    }
    return get_data(ld, obj, t->elements, count_known, true, &t->data);
}

static bool parse_desc(struct loader *ld, struct test_case *c, const json_t *desc)
{
    const dmlvk_operator_info *info = c->info;
    const char *key;
    json_t *value;
    if (!json_is_object(desc))
        return fail(ld, "expected an object of descriptor fields");
    int64_t dimension_count = -1, first_array_length = -1;
    uint32_t narrays = 0;
    json_object_foreach((json_t *)desc, key, value) {
        push_key(ld, key);
        const dmlvk_field_info *f = find_field(info, key);
        if (!f)
            return fail(ld, "%s has no field of that name", info->name);
        char *field = (char *)c->desc + f->offset;
        double d;
        uint32_t u;
        switch (f->kind) {
        case DMLVK_FIELD_INPUT_TENSOR:
        case DMLVK_FIELD_OUTPUT_TENSOR:
            return fail(ld, "tensors belong under \"tensors\"");
        case DMLVK_FIELD_ENUM:
            if (json_is_integer(value)) {
                if (!get_u32(ld, value, &u))
                    return false;
            } else if (!json_is_string(value) || dmlvk_enum_from_name(f->enum_type, json_string_value(value), &u)) {
                return fail(ld, "not a valid value for %s", key);
            }
            memcpy(field, &u, 4);
            break;
        case DMLVK_FIELD_DIMENSION_COUNT:
        case DMLVK_FIELD_UINT:
            if (!get_u32(ld, value, &u))
                return false;
            memcpy(field, &u, 4);
            if (f->kind == DMLVK_FIELD_DIMENSION_COUNT)
                dimension_count = u;
            break;
        case DMLVK_FIELD_FLOAT: {
            if (!get_number(ld, value, &d))
                return false;
            float fv = (float)d;
            memcpy(field, &fv, 4);
            break;
        }
        case DMLVK_FIELD_BOOL: {
            if (!json_is_boolean(value) && !json_is_integer(value))
                return fail(ld, "expected true or false");
            dmlvk_bool b = json_is_boolean(value) ? json_is_true(value) : json_integer_value(value) != 0;
            memcpy(field, &b, sizeof(b));
            break;
        }
        case DMLVK_FIELD_FLOAT_ARRAY: {
            if (!json_is_array(value))
                return fail(ld, "expected an array of numbers");
            if (narrays >= CASE_MAX_ARRAYS)
                return fail(ld, "too many arrays");
            size_t n = json_array_size(value);
            if (n > 64)
                return fail(ld, "%zu values is more than any operator takes", n);
            float *arr = calloc(n ? n : 1, sizeof(float));
            if (!arr)
                return fail(ld, "out of memory");
            c->arrays[narrays++] = arr;
            for (size_t i = 0; i < n; i++) {
                push_index(ld, i);
                if (!get_number(ld, json_array_get(value, i), &d))
                    return false;
                arr[i] = (float)d;
                pop(ld);
            }
            memcpy(field, &arr, sizeof(arr));
            if (first_array_length < 0)
                first_array_length = (int64_t)n;
            break;
        }
        }
        pop(ld);
    }
    /* DimensionCount may be omitted: it is then the arrays' length. */
    const dmlvk_field_info *dc = NULL;
    for (uint32_t i = 0; i < info->field_count && !dc; i++)
        if (info->fields[i].kind == DMLVK_FIELD_DIMENSION_COUNT)
            dc = &info->fields[i];
    if (dc && dimension_count < 0 && first_array_length >= 0) {
        uint32_t len = (uint32_t)first_array_length;
        memcpy((char *)c->desc + dc->offset, &len, 4);
        dimension_count = first_array_length;
    }
    /*
     * The operator reads DimensionCount values of every array. A case may give fewer on purpose
     * (a descriptor that breaks the rules, expecting "invalid-argument"): the missing values are
     * NaN, which no rule accepts, so the operator's own checks report it, and nothing is read
     * past the end.
     */
    if (dimension_count > 64) {
        push_key(ld, "DimensionCount");
        return fail(ld, "%lld is more than any operator takes", (long long)dimension_count);
    }
    for (uint32_t i = 0; i < info->field_count && dimension_count > 0; i++) {
        const dmlvk_field_info *f = &info->fields[i];
        if (f->kind != DMLVK_FIELD_FLOAT_ARRAY || !json_object_get(desc, f->name))
            continue;
        size_t n = json_array_size(json_object_get(desc, f->name));
        if ((int64_t)n >= dimension_count)
            continue;
        float *arr;
        memcpy(&arr, (char *)c->desc + f->offset, sizeof(arr));
        float *grown = realloc(arr, (size_t)dimension_count * sizeof(float));
        if (!grown)
            return fail(ld, "out of memory");
        for (size_t k = n; k < (size_t)dimension_count; k++)
            grown[k] = NAN;
        for (uint32_t a = 0; a < CASE_MAX_ARRAYS; a++)
            if (c->arrays[a] == arr)
                c->arrays[a] = grown;
        memcpy((char *)c->desc + f->offset, &grown, sizeof(grown));
    }
    return true;
}

static bool parse_expected(struct loader *ld, struct test_case *c, const json_t *expected)
{
    const char *key;
    json_t *value;
    if (!json_is_object(expected))
        return fail(ld, "expected an object of output tensors");
    json_object_foreach((json_t *)expected, key, value) {
        push_key(ld, key);
        struct case_tensor *t = NULL;
        for (uint32_t i = 0; i < c->info->tensor_count && !t; i++)
            if (!strcmp(c->tensors[i].field, key))
                t = &c->tensors[i];
        if (!t || !t->output)
            return fail(ld, "not an output tensor of %s", c->info->name);
        if (!t->present)
            return fail(ld, "the output is not among \"tensors\"");
        static const char *const keys[] = { "data", "file", "ulp", "abs", NULL };
        if (!json_is_object(value))
            return fail(ld, "expected an object with \"data\" or \"file\"");
        if (!check_keys(ld, value, keys))
            return false;
        if (!json_object_get(value, "data") && !json_object_get(value, "file"))
            return fail(ld, "give \"data\" or \"file\"");
        if (!get_data(ld, value, t->elements, true, false, &t->expected))
            return false;
        t->has_expected = true;
        const json_t *ulp = json_object_get(value, "ulp"), *abs_tol = json_object_get(value, "abs");
        if (ulp) {
            push_key(ld, "ulp");
            if (!json_is_number(ulp) || json_number_value(ulp) < 0)
                return fail(ld, "expected a non-negative number");
            t->has_ulp = true;
            t->ulp = json_number_value(ulp);
            pop(ld);
        }
        if (abs_tol) {
            push_key(ld, "abs");
            if (!json_is_number(abs_tol) || json_number_value(abs_tol) < 0)
                return fail(ld, "expected a non-negative number");
            t->has_abs = true;
            t->abs = json_number_value(abs_tol);
            pop(ld);
        }
        pop(ld);
    }
    return true;
}

static bool parse_case(struct loader *ld, struct test_case *c, const json_t *obj, size_t index)
{
    static const char *const keys[] = { "name", "operator", "desc", "tensors", "expected", "error", "skip", "requires",
                                        NULL };
    if (!json_is_object(obj))
        return fail(ld, "expected a case object");
    if (!check_keys(ld, obj, keys))
        return false;
    c->file = dup_string(ld->path);
    const json_t *name = json_object_get(obj, "name");
    if (name && !json_is_string(name)) {
        push_key(ld, "name");
        return fail(ld, "expected a string");
    }
    char fallback[512];
    snprintf(fallback, sizeof(fallback), "%s#%zu", ld->path, index);
    c->name = dup_string(name ? json_string_value(name) : fallback);

    const json_t *op = json_object_get(obj, "operator");
    if (!op)
        return fail(ld, "\"operator\" is required");
    push_key(ld, "operator");
    dmlvk_operator_type type;
    if (!json_is_string(op) || dmlvk_operator_type_from_name(json_string_value(op), &type) != DMLVK_OK ||
        dmlvk_operator_get_info(type, &c->info) != DMLVK_OK)
        return fail(ld, "unknown operator");
    pop(ld);
    c->desc = calloc(1, c->info->desc_size);
    c->tensors = calloc(CASE_MAX_TENSORS, sizeof(*c->tensors));
    if (!c->desc || !c->tensors || !c->name || !c->file)
        return fail(ld, "out of memory");
    c->op.Type = type;
    c->op.Desc = c->desc;

    uint32_t b = 0;
    for (uint32_t i = 0; i < c->info->field_count; i++) {
        const dmlvk_field_info *f = &c->info->fields[i];
        if (f->kind == DMLVK_FIELD_INPUT_TENSOR || f->kind == DMLVK_FIELD_OUTPUT_TENSOR) {
            c->tensors[b].field = f->name;
            c->tensors[b].output = f->kind == DMLVK_FIELD_OUTPUT_TENSOR;
            b++;
        }
    }

    const json_t *error = json_object_get(obj, "error");
    if (error) {
        push_key(ld, "error");
        if (!json_is_string(error) ||
            (strcmp(json_string_value(error), "invalid-argument") && strcmp(json_string_value(error), "unsupported")))
            return fail(ld, "expected \"invalid-argument\" or \"unsupported\"");
        c->expect_error = dup_string(json_string_value(error));
        pop(ld);
    }
    const json_t *skip = json_object_get(obj, "skip");
    if (skip) {
        push_key(ld, "skip");
        if (!json_is_string(skip))
            return fail(ld, "expected a reason");
        c->skip = dup_string(json_string_value(skip));
        pop(ld);
    }
    const json_t *req = json_object_get(obj, "requires");
    if (req) {
        push_key(ld, "requires");
        if (!json_is_array(req))
            return fail(ld, "expected an array of feature names");
        for (size_t i = 0; i < json_array_size(req); i++) {
            push_index(ld, i);
            const json_t *r = json_array_get(req, i);
            if (!json_is_string(r))
                return fail(ld, "expected a feature name");
            if (!strcmp(json_string_value(r), "float16"))
                c->requires_float16 = true;
            else if (!c->unknown_requirement)
                c->unknown_requirement = dup_string(json_string_value(r));
            pop(ld);
        }
        pop(ld);
    }

    const json_t *desc = json_object_get(obj, "desc");
    if (desc) {
        push_key(ld, "desc");
        if (!parse_desc(ld, c, desc))
            return false;
        pop(ld);
    }
    const json_t *tensors = json_object_get(obj, "tensors");
    if (!tensors)
        return fail(ld, "\"tensors\" is required");
    push_key(ld, "tensors");
    if (!json_is_object(tensors))
        return fail(ld, "expected an object of tensors");
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)tensors, key, value) {
        push_key(ld, key);
        const dmlvk_field_info *f = find_field(c->info, key);
        if (!f || (f->kind != DMLVK_FIELD_INPUT_TENSOR && f->kind != DMLVK_FIELD_OUTPUT_TENSOR))
            return fail(ld, "%s has no tensor of that name", c->info->name);
        struct case_tensor *t = NULL;
        for (uint32_t i = 0; i < c->info->tensor_count && !t; i++)
            if (!strcmp(c->tensors[i].field, key))
                t = &c->tensors[i];
        if (!parse_tensor(ld, t, value))
            return false;
        const dmlvk_tensor_desc *ptr = &t->desc;
        memcpy((char *)c->desc + f->offset, &ptr, sizeof(ptr));
        if (!t->output && t->data.source == DATA_NONE && !error)
            return fail(ld, "input tensor %s has no \"data\", \"random\" or \"file\"", key);
        pop(ld);
    }
    pop(ld);

    const json_t *expected = json_object_get(obj, "expected");
    if (expected && error)
        return fail(ld, "give \"expected\" or \"error\", not both");
    if (!expected && !error && !skip)
        return fail(ld, "a case needs \"expected\" or \"error\"");
    if (expected) {
        push_key(ld, "expected");
        if (!parse_expected(ld, c, expected))
            return false;
        pop(ld);
    }
    return true;
}

static void case_free(struct test_case *c)
{
    free(c->name);
    free(c->file);
    free(c->desc);
    for (int i = 0; i < CASE_MAX_ARRAYS; i++)
        free(c->arrays[i]);
    for (int i = 0; c->tensors && i < CASE_MAX_TENSORS; i++) {
        free(c->tensors[i].data.values);
        free(c->tensors[i].data.path);
        free(c->tensors[i].expected.values);
        free(c->tensors[i].expected.path);
    }
    free(c->tensors);
    free(c->expect_error);
    free(c->skip);
    free(c->unknown_requirement);
}

static bool append_case(struct loader *ld, struct case_list *list, const json_t *obj, size_t index)
{
    struct test_case *grown = realloc(list->cases, (list->count + 1) * sizeof(*grown));
    if (!grown)
        return fail(ld, "out of memory");
    list->cases = grown;
    struct test_case *c = &list->cases[list->count];
    memset(c, 0, sizeof(*c));
    if (!parse_case(ld, c, obj, index)) {
        case_free(c);
        return false;
    }
    list->count++;
    return true;
}

bool cases_load_text(const char *text, size_t size, const char *path, struct case_list *list, char *err,
                     size_t err_size)
{
    struct loader ld = { .text = text, .size = size, .path = path, .err = err, .err_size = err_size };
    json_error_t jerr;
    json_t *root = json_loadb(text, size, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        snprintf(err, err_size, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
        return false;
    }
    uint32_t before = list->count;
    bool ok = true;
    const json_t *cases = json_is_object(root) ? json_object_get(root, "cases") : NULL;
    if (cases) {
        static const char *const keys[] = { "cases", NULL };
        ok = check_keys(&ld, root, keys);
        push_key(&ld, "cases");
        if (ok && !json_is_array(cases))
            ok = fail(&ld, "expected an array of cases");
        for (size_t i = 0; ok && i < json_array_size(cases); i++) {
            push_index(&ld, i);
            ok = append_case(&ld, list, json_array_get(cases, i), i);
            pop(&ld);
        }
    } else {
        ok = append_case(&ld, list, root, 0);
    }
    json_decref(root);
    if (!ok) {
        /* A file loads whole or not at all. */
        while (list->count > before)
            case_free(&list->cases[--list->count]);
    }
    return ok;
}

bool cases_load_file(const char *path, struct case_list *list, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "%s:0:0: cannot open: %s", path, strerror(errno));
        return false;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (size < 0 || (uint64_t)size > MAX_JSON_BYTES) {
        fclose(f);
        snprintf(err, err_size, "%s:0:0: not a regular file or larger than 256 MiB", path);
        return false;
    }
    char *text = malloc((size_t)size + 1);
    bool ok = text && fread(text, 1, (size_t)size, f) == (size_t)size;
    fclose(f);
    if (!ok) {
        free(text);
        snprintf(err, err_size, "%s:0:0: read error", path);
        return false;
    }
    ok = cases_load_text(text, (size_t)size, path, list, err, err_size);
    free(text);
    return ok;
}

void cases_free(struct case_list *list)
{
    for (uint32_t i = 0; i < list->count; i++)
        case_free(&list->cases[i]);
    free(list->cases);
    list->cases = NULL;
    list->count = 0;
}
