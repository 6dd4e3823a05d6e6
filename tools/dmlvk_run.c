/* dmlvk-run: runs operator cases from JSON files (CASES.md) and compares with expected outputs. */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include <dmlvk/dmlvk.h>

#include "cases.h"
#include "half.h"

/* Bytes after each tensor that must stay untouched: catches writes past the end. */
#define GUARD_BYTES 256
#define POISON32 UINT32_C(0x7fc0dead) /* a quiet NaN */
#define POISON16 UINT16_C(0x7e5a)     /* a quiet NaN */
#define POISON_BF16 UINT16_C(0x7fda)  /* a quiet NaN */
#define POISON_UINT UINT32_C(0xdeadbeef)

enum outcome { PASS, FAIL, SKIP, FILE_ERROR };

struct result {
    enum outcome outcome;
    char message[1024];
    double max_err;
    uint64_t max_ulp;
};

struct options {
    uint64_t max_tensor_bytes;
    bool json;
    const char *dump_dir;
    const char *device;
    bool validation;
    bool stats;
    uint64_t offset; /* --offset: every tensor bound this many bytes into its buffer */
};

struct paths {
    char **items;
    size_t count;
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: dmlvk-run [options] FILE_OR_DIR...\n"
            "Runs dmlvk operator cases (JSON, see CASES.md) and compares the outputs with the expected ones.\n"
            "A directory means every *.json file below it, in sorted order.\n\n"
            "options:\n"
            "  --device N|NAME   run on device N, or the first whose name contains NAME\n"
            "                    (default: $DMLVK_DEVICE, else the first discrete GPU, integrated GPU, other)\n"
            "  --list-devices    list the Vulkan devices and exit\n"
            "  --json            write the results as one JSON document on stdout\n"
            "  --dump DIR        write every output tensor to DIR (created if missing) as NAME.TENSOR.bin with a\n"
            "                    .json header; a dump that cannot be written is exit status 2\n"
            "  --validation      enable VK_LAYER_KHRONOS_validation; any message fails the case\n"
            "  --stats           print the device's pipeline and cache counters on stderr at the end\n"
            "  --max-tensor-mib N  refuse (as a file error) tensors larger than N MiB (default 1024)\n"
            "  --offset BYTES    bind every tensor BYTES (a multiple of 4, at most 4096) into its buffer, to\n"
            "                    check the paths for tensors off 16-byte alignment; the bytes before it are\n"
            "                    checked for stray writes like the guard after it\n"
            "  --version         print the version and exit\n"
            "  --help            print this help and exit\n\n"
            "exit status: 0 all passed, 1 a case failed, 2 a file could not be read or parsed\n");
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool add_path(struct paths *p, const char *path)
{
    char **grown = realloc(p->items, (p->count + 1) * sizeof(*grown));
    if (!grown)
        return false;
    p->items = grown;
    size_t n = strlen(path) + 1;
    if (!(p->items[p->count] = malloc(n)))
        return false;
    memcpy(p->items[p->count++], path, n);
    return true;
}

/* Every *.json below dir, depth first; sorted afterwards. */
static bool collect_dir(struct paths *p, const char *dir, int depth)
{
    if (depth > 32)
        return true;
    DIR *d = opendir(dir);
    if (!d)
        return false;
    struct dirent *e;
    bool ok = true;
    while (ok && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        size_t n = strlen(dir) + strlen(e->d_name) + 2;
        char *full = malloc(n);
        if (!full) {
            ok = false;
            break;
        }
        snprintf(full, n, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(full, &st) == 0 && S_ISDIR(st.st_mode))
            ok = collect_dir(p, full, depth + 1);
        else if (n > 6 && !strcmp(full + strlen(full) - 5, ".json"))
            ok = add_path(p, full);
        free(full);
    }
    closedir(d);
    return ok;
}

static void index_string(const struct case_tensor *t, uint64_t linear, char *out, size_t size)
{
    uint32_t idx[CASE_MAX_DIMS];
    for (uint32_t d = t->desc.DimensionCount; d-- > 0;) {
        idx[d] = (uint32_t)(linear % t->sizes[d]);
        linear /= t->sizes[d];
    }
    size_t w = (size_t)snprintf(out, size, "[");
    for (uint32_t d = 0; d < t->desc.DimensionCount && w < size; d++)
        w += (size_t)snprintf(out + w, size - w, "%s%u", d ? "," : "", idx[d]);
    if (w < size)
        snprintf(out + w, size - w, "]");
}

/* Element offset of logical index linear. */
static uint64_t element_offset(const struct case_tensor *t, uint64_t linear)
{
    uint64_t off = 0;
    const uint32_t *strides = t->desc.Strides;
    uint64_t packed = 1;
    for (uint32_t d = t->desc.DimensionCount; d-- > 0;) {
        uint64_t i = linear % t->sizes[d];
        linear /= t->sizes[d];
        off += i * (strides ? strides[d] : packed);
        packed *= t->sizes[d];
    }
    return off;
}

/* Only types an operator accepted reach here: FLOAT32, FLOAT16, BFLOAT16, UINT32. */
static uint32_t elem_size(dmlvk_tensor_data_type type)
{
    return dmlvk_data_type_size(type);
}

static bool is16(dmlvk_tensor_data_type type)
{
    return elem_size(type) == 2;
}

/* Converts a case value to the tensor's element bits. */
static bool encode(dmlvk_tensor_data_type type, double v, uint8_t *dst)
{
    if (is16(type)) {
        uint16_t h = type == DMLVK_TENSOR_DATA_TYPE_FLOAT16 ? half_from_double(v) : bfloat16_from_double(v);
        memcpy(dst, &h, 2);
    } else if (type == DMLVK_TENSOR_DATA_TYPE_UINT32) {
        if (!(v >= 0 && v <= 4294967295.0) || v != floor(v))
            return false;
        uint32_t u = (uint32_t)v;
        memcpy(dst, &u, 4);
    } else {
        float f = (float)v;
        memcpy(dst, &f, 4);
    }
    return true;
}

static void fill_poison(dmlvk_tensor_data_type type, uint8_t *host, uint64_t bytes)
{
    for (uint64_t o = 0; o + elem_size(type) <= bytes; o += elem_size(type)) {
        if (is16(type)) {
            uint16_t p = type == DMLVK_TENSOR_DATA_TYPE_FLOAT16 ? POISON16 : POISON_BF16;
            memcpy(host + o, &p, 2);
        } else {
            uint32_t p = type == DMLVK_TENSOR_DATA_TYPE_UINT32 ? POISON_UINT : POISON32;
            memcpy(host + o, &p, 4);
        }
    }
}

struct bound {
    dmlvk_buffer *buffer;
    uint8_t *host;      /* the whole buffer's bytes */
    uint8_t *tensor;    /* host + offset: the tensor's first byte */
    uint64_t offset;    /* where the tensor is bound in the buffer */
    uint64_t bytes;     /* buffer size: the offset, the tensor's bytes and the guard */
};

static bool prepare_input(const struct test_case *c, const struct case_tensor *t, struct bound *b, struct result *r)
{
    double *values;
    char err[512];
    if (!data_values(&t->data, t->desc.DataType, t->elements, &values, err, sizeof(err))) {
        r->outcome = FILE_ERROR;
        snprintf(r->message, sizeof(r->message), "%s: %s: %s", c->file, t->field, err);
        return false;
    }
    uint32_t es = elem_size(t->desc.DataType);
    /* Where a stride of 0 makes several logical indices share an element, their values must agree. */
    uint8_t *written = calloc(b->bytes / es + 1, 1);
    bool ok = written != NULL;
    for (uint64_t i = 0; ok && i < t->elements; i++) {
        uint64_t off = element_offset(t, i);
        uint8_t bits[4];
        if (!encode(t->desc.DataType, values[i], bits)) {
            r->outcome = FILE_ERROR;
            snprintf(r->message, sizeof(r->message), "%s: %s: value %g is not a UINT32", c->file, t->field, values[i]);
            ok = false;
        } else if (written[off] && memcmp(b->tensor + off * es, bits, es)) {
            r->outcome = FILE_ERROR;
            snprintf(r->message, sizeof(r->message),
                     "%s: %s: values that a 0 stride maps onto one element differ (element %llu)", c->file, t->field,
                     (unsigned long long)i);
            ok = false;
        } else {
            memcpy(b->tensor + off * es, bits, es);
            written[off] = 1;
        }
    }
    if (!written) {
        r->outcome = FAIL;
        snprintf(r->message, sizeof(r->message), "out of host memory");
    }
    free(written);
    free(values);
    return ok;
}

static double decode(dmlvk_tensor_data_type type, const uint8_t *src)
{
    if (is16(type)) {
        uint16_t h;
        memcpy(&h, src, 2);
        return type == DMLVK_TENSOR_DATA_TYPE_FLOAT16 ? half_to_float(h) : bfloat16_to_float(h);
    }
    uint32_t u;
    memcpy(&u, src, 4);
    if (type == DMLVK_TENSOR_DATA_TYPE_UINT32)
        return u;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Compares one output with its expected values; false on a file error (r says why). */
static bool check_output(const struct test_case *c, const struct case_tensor *t, const struct bound *b,
                         struct result *r)
{
    double *expected;
    char err[512];
    if (!data_values(&t->expected, t->desc.DataType, t->elements, &expected, err, sizeof(err))) {
        r->outcome = FILE_ERROR;
        snprintf(r->message, sizeof(r->message), "%s: expected %s: %s", c->file, t->field, err);
        return false;
    }
    dmlvk_tensor_data_type type = t->desc.DataType;
    uint32_t es = elem_size(type);
    uint64_t bad = 0, first = 0, first_ulp = 0;
    double first_got = 0, first_want = 0;
    uint8_t *touched = calloc(b->bytes / es + 1, 1);
    for (uint64_t i = 0; i < t->elements; i++) {
        uint64_t off = element_offset(t, i);
        if (touched)
            touched[b->offset / es + off] = 1;
        const uint8_t *gbits = b->tensor + off * es;
        uint8_t wbits[4];
        double got = decode(type, gbits), want;
        uint64_t ulp;
        if (type == DMLVK_TENSOR_DATA_TYPE_UINT32) {
            want = expected[i];
            ulp = (uint64_t)fabs(got - want);
        } else {
            encode(type, expected[i], wbits);
            want = decode(type, wbits);
            if (is16(type)) {
                uint16_t g, w;
                memcpy(&g, gbits, 2);
                memcpy(&w, wbits, 2);
                ulp = ulp_distance16(g, w);
            } else {
                ulp = ulp_distance32((float)got, (float)want);
            }
        }
        bool ok;
        double e = fabs(got - want);
        if (isnan(want) || isnan(got)) {
            ok = isnan(want) && isnan(got);
            ulp = ok ? 0 : UINT64_MAX;
            e = ok ? 0 : INFINITY;
        } else if (!t->has_ulp && !t->has_abs) {
            ok = got == want;
        } else {
            ok = (t->has_ulp && (double)ulp <= t->ulp) || (t->has_abs && e <= t->abs) || got == want;
        }
        if (got == want)
            e = 0;
        if (!isnan(e) && e > r->max_err)
            r->max_err = e;
        if (ulp > r->max_ulp && ulp != UINT64_MAX)
            r->max_ulp = ulp;
        if (!ok && bad++ == 0) {
            first = i;
            first_ulp = ulp;
            first_got = got;
            first_want = want;
        }
    }
    /* Bytes outside the tensor's elements (the offset before it, gaps and the guard) must still
     * hold the poison. */
    uint64_t stray = 0, stray_at = 0;
    if (touched) {
        uint8_t poison[4];
        fill_poison(type, poison, es);
        for (uint64_t o = 0; o + es <= b->bytes; o += es)
            if (!touched[o / es] && memcmp(b->host + o, poison, es) && stray++ == 0)
                stray_at = o / es;
    }
    free(touched);
    free(expected);
    if (bad && r->outcome != FAIL) {
        char idx[128], tol[96] = "exact";
        index_string(t, first, idx, sizeof(idx));
        if (t->has_ulp && t->has_abs)
            snprintf(tol, sizeof(tol), "%llu ulp > %g and |err| > %g", (unsigned long long)first_ulp, t->ulp, t->abs);
        else if (t->has_ulp)
            snprintf(tol, sizeof(tol), "%llu ulp > %g", (unsigned long long)first_ulp, t->ulp);
        else if (t->has_abs)
            snprintf(tol, sizeof(tol), "|err| %g > %g", fabs(first_got - first_want), t->abs);
        else
            snprintf(tol, sizeof(tol), "%llu ulp, exact expected", (unsigned long long)first_ulp);
        r->outcome = FAIL;
        snprintf(r->message, sizeof(r->message), "%s%s = %.9g expected %.9g (%s), %llu of %llu elements off", t->field,
                 idx, first_got, first_want, tol, (unsigned long long)bad, (unsigned long long)t->elements);
    } else if (stray && r->outcome != FAIL) {
        r->outcome = FAIL;
        snprintf(r->message, sizeof(r->message),
                 "%s: %llu elements outside the tensor were written (first at element offset %llu)", t->field,
                 (unsigned long long)stray, (unsigned long long)stray_at);
    }
    return true;
}

static void sanitize(const char *in, char *out, size_t size)
{
    size_t i = 0;
    for (; in[i] && i + 1 < size; i++) {
        char ch = in[i];
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '-' ||
                  ch == '_' || ch == '.';
        out[i] = ok ? ch : '_';
    }
    out[i] = '\0';
}

static bool dump_output(const char *dir, const struct test_case *c, const struct case_tensor *t, const struct bound *b)
{
    char base[512], name[300], path[1100];
    sanitize(c->name, name, sizeof(name));
    snprintf(base, sizeof(base), "%s/%s.%s", dir, name, t->field);
    snprintf(path, sizeof(path), "%s.bin", base);
    FILE *f = fopen(path, "wb");
    if (!f)
        return false;
    uint32_t es = elem_size(t->desc.DataType);
    bool ok = true;
    for (uint64_t i = 0; i < t->elements && ok; i++)
        ok = fwrite(b->tensor + element_offset(t, i) * es, es, 1, f) == 1;
    ok = fclose(f) == 0 && ok;
    json_t *header = json_object();
    json_t *sizes = json_array();
    for (uint32_t d = 0; d < t->desc.DimensionCount; d++)
        json_array_append_new(sizes, json_integer(t->sizes[d]));
    json_object_set_new(header, "case", json_string(c->name));
    json_object_set_new(header, "tensor", json_string(t->field));
    const char *type_name = NULL;
    dmlvk_enum_get_name(DMLVK_ENUM_TENSOR_DATA_TYPE, (uint32_t)t->desc.DataType, &type_name);
    json_object_set_new(header, "dataType", json_string(type_name ? type_name : "FLOAT32"));
    json_object_set_new(header, "sizes", sizes);
    json_object_set_new(header, "file", json_string(strrchr(path, '/') + 1));
    snprintf(path, sizeof(path), "%s.json", base);
    ok = json_dump_file(header, path, JSON_INDENT(2)) == 0 && ok;
    json_decref(header);
    return ok;
}

/* Creates dir and its missing parents, like mkdir -p. */
static bool make_dirs(const char *dir)
{
    char path[4096];
    if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path)) {
        errno = ENAMETOOLONG;   /* for the caller's message */
        return false;
    }
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p)
            continue;
        char end = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return false;
        if (!end)
            break;
        *p = '/';
    }
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void run_case(dmlvk_device *dev, const dmlvk_device_info *info, const struct options *opt,
                     const struct test_case *c, struct result *r)
{
    memset(r, 0, sizeof(*r));
    if (c->skip) {
        r->outcome = SKIP;
        snprintf(r->message, sizeof(r->message), "%s", c->skip);
        return;
    }
    if (c->unknown_requirement) {
        r->outcome = SKIP;
        snprintf(r->message, sizeof(r->message), "requires \"%s\", which dmlvk-run does not know", c->unknown_requirement);
        return;
    }
    if (c->requires_float16 && !info->float16) {
        r->outcome = SKIP;
        snprintf(r->message, sizeof(r->message), "device has no float16 support");
        return;
    }
    dmlvk_device_stats before;
    dmlvk_device_get_stats(dev, &before);

    dmlvk_operator *op = NULL;
    dmlvk_status st = dmlvk_operator_create(dev, &c->op, NULL, &op);
    if (c->expect_error) {
        if (st == DMLVK_OK) {
            r->outcome = FAIL;
            snprintf(r->message, sizeof(r->message), "operator created; expected error %s", c->expect_error);
        } else if (strcmp(dmlvk_status_name(st), c->expect_error)) {
            r->outcome = FAIL;
            snprintf(r->message, sizeof(r->message), "error %s (%s); expected %s", dmlvk_status_name(st),
                     dmlvk_last_error(), c->expect_error);
        } else {
            r->outcome = PASS;
            snprintf(r->message, sizeof(r->message), "%s: %s", dmlvk_status_name(st), dmlvk_last_error());
        }
        dmlvk_operator_destroy(op);
        return;
    }
    if (st != DMLVK_OK) {
        r->outcome = FAIL;
        snprintf(r->message, sizeof(r->message), "operator creation failed: %s: %s", dmlvk_status_name(st),
                 dmlvk_last_error());
        return;
    }

    uint32_t n = c->info->tensor_count;
    for (uint32_t i = 0; i < n; i++)
        if (c->tensors[i].present && c->tensors[i].desc.TotalTensorSizeInBytes > opt->max_tensor_bytes) {
            /* Refused before any allocation: a hostile file must not exhaust memory. */
            r->outcome = FILE_ERROR;
            snprintf(r->message, sizeof(r->message), "%s: %s: %llu bytes is over dmlvk-run's limit of %llu (--max-tensor-mib)",
                     c->file, c->tensors[i].field, (unsigned long long)c->tensors[i].desc.TotalTensorSizeInBytes,
                     (unsigned long long)opt->max_tensor_bytes);
            dmlvk_operator_destroy(op);
            return;
        }
    struct bound bound[CASE_MAX_TENSORS] = { 0 };
    dmlvk_binding bindings[CASE_MAX_TENSORS] = { 0 };
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        const struct case_tensor *t = &c->tensors[i];
        if (!t->present)
            continue;
        struct bound *b = &bound[i];
        b->offset = opt->offset;
        b->bytes = b->offset + t->desc.TotalTensorSizeInBytes + GUARD_BYTES;
        b->host = malloc(b->bytes);
        b->tensor = b->host ? b->host + b->offset : NULL;
        if (!b->host || (st = dmlvk_buffer_create(dev, b->bytes, &b->buffer)) != DMLVK_OK) {
            r->outcome = FAIL;
            snprintf(r->message, sizeof(r->message), "%s: cannot allocate %llu bytes: %s", t->field,
                     (unsigned long long)b->bytes, b->host ? dmlvk_last_error() : "out of host memory");
            ok = false;
            break;
        }
        fill_poison(t->desc.DataType, b->host, b->bytes);
        if (!t->output)
            ok = prepare_input(c, t, b, r);
        if (ok && (st = dmlvk_buffer_write(b->buffer, 0, b->host, b->bytes)) != DMLVK_OK) {
            r->outcome = FAIL;
            snprintf(r->message, sizeof(r->message), "upload of %s failed: %s", t->field, dmlvk_last_error());
            ok = false;
        }
        bindings[i] = (dmlvk_binding){ .buffer = b->buffer, .offset = b->offset, .size = t->desc.TotalTensorSizeInBytes };
    }
    if (ok && (st = dmlvk_operator_execute(op, bindings, n)) != DMLVK_OK) {
        r->outcome = FAIL;
        snprintf(r->message, sizeof(r->message), "execution failed: %s: %s", dmlvk_status_name(st), dmlvk_last_error());
        ok = false;
    }
    for (uint32_t i = 0; i < n && ok; i++) {
        const struct case_tensor *t = &c->tensors[i];
        if (!t->present || !t->output)
            continue;
        if ((st = dmlvk_buffer_read(bound[i].buffer, 0, bound[i].host, bound[i].bytes)) != DMLVK_OK) {
            r->outcome = FAIL;
            snprintf(r->message, sizeof(r->message), "download of %s failed: %s", t->field, dmlvk_last_error());
            ok = false;
            break;
        }
        errno = 0;
        if (opt->dump_dir && !dump_output(opt->dump_dir, c, t, &bound[i])) {
            /* A dump asked for and not written is an error of the run, not of the operator. */
            r->outcome = FILE_ERROR;
            snprintf(r->message, sizeof(r->message), "dmlvk-run: cannot write %s's %s under %s: %s", c->name, t->field,
                     opt->dump_dir, errno ? strerror(errno) : "short write");
            ok = false;
            break;
        }
        if (t->has_expected)
            ok = check_output(c, t, &bound[i], r);
    }
    if (ok && r->outcome != FAIL) {
        dmlvk_device_stats after;
        dmlvk_device_get_stats(dev, &after);
        if (after.validation_messages != before.validation_messages) {
            r->outcome = FAIL;
            snprintf(r->message, sizeof(r->message), "the validation layer reported %llu messages",
                     (unsigned long long)(after.validation_messages - before.validation_messages));
        } else {
            r->outcome = PASS;
            snprintf(r->message, sizeof(r->message), "max |err| %g, max ulp %llu", r->max_err,
                     (unsigned long long)r->max_ulp);
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        dmlvk_buffer_destroy(bound[i].buffer);
        free(bound[i].host);
    }
    dmlvk_operator_destroy(op);
}

static int list_devices(void)
{
    uint32_t count = 0;
    if (dmlvk_enumerate_devices(NULL, &count) != DMLVK_OK) {
        fprintf(stderr, "dmlvk-run: %s\n", dmlvk_last_error());
        return 2;
    }
    dmlvk_device_info *infos = calloc(count ? count : 1, sizeof(*infos));
    if (!infos || dmlvk_enumerate_devices(infos, &count) != DMLVK_OK) {
        fprintf(stderr, "dmlvk-run: %s\n", infos ? dmlvk_last_error() : "out of memory");
        free(infos);
        return 2;
    }
    static const char *const types[] = { "other", "integrated GPU", "discrete GPU", "virtual GPU", "CPU" };
    for (uint32_t i = 0; i < count; i++)
        printf("%u: %s (%s, vendor 0x%04x, device 0x%04x, Vulkan %u.%u, float16 %s, float32 atomic add %s)\n", i,
               infos[i].name, types[infos[i].type], infos[i].vendor_id, infos[i].device_id,
               VK_API_VERSION_MAJOR(infos[i].api_version), VK_API_VERSION_MINOR(infos[i].api_version),
               infos[i].float16 ? "yes" : "no", infos[i].float32_atomic_add ? "yes" : "no");
    free(infos);
    return 0;
}

static void log_to_stderr(void *user, dmlvk_log_level level, const char *message)
{
    (void)user;
    fprintf(stderr, "dmlvk-run: %s: %s\n", level == DMLVK_LOG_ERROR ? "error" : level == DMLVK_LOG_WARN ? "warning" : "info",
            message);
}

int main(int argc, char **argv)
{
    struct options opt = { .max_tensor_bytes = UINT64_C(1) << 30 };
    struct paths inputs = { 0 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--version")) {
            printf("dmlvk-run %s\n", dmlvk_version());
            return 0;
        } else if (!strcmp(a, "--list-devices")) {
            return list_devices();
        } else if (!strcmp(a, "--json")) {
            opt.json = true;
        } else if (!strcmp(a, "--validation")) {
            opt.validation = true;
        } else if (!strcmp(a, "--stats")) {
            opt.stats = true;
        } else if (!strcmp(a, "--max-tensor-mib") && i + 1 < argc) {
            opt.max_tensor_bytes = strtoull(argv[++i], NULL, 10) << 20;
        } else if (!strcmp(a, "--offset") && i + 1 < argc) {
            char *end;
            opt.offset = strtoull(argv[++i], &end, 10);
            if (*end || end == argv[i] || opt.offset % 4 || opt.offset > 4096) {
                fprintf(stderr, "dmlvk-run: --offset %s: want a multiple of 4 from 0 to 4096 bytes\n", argv[i]);
                return 2;
            }
        } else if ((!strcmp(a, "--dump") || !strcmp(a, "--device")) && i + 1 < argc) {
            if (!strcmp(a, "--dump"))
                opt.dump_dir = argv[++i];
            else
                opt.device = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "dmlvk-run: unknown or incomplete option %s\n", a);
            usage(stderr);
            return 2;
        } else if (!add_path(&inputs, a)) {
            return 2;
        }
    }
    if (!inputs.count) {
        usage(stderr);
        return 2;
    }

    /* Every file is loaded before anything runs, so that a malformed file costs no device time. */
    int exit_code = 0;
    struct case_list cases = { 0 };
    for (size_t i = 0; i < inputs.count; i++) {
        struct stat st;
        struct paths files = { 0 };
        if (stat(inputs.items[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            if (!collect_dir(&files, inputs.items[i], 0)) {
                fprintf(stderr, "%s:0:0: cannot read directory\n", inputs.items[i]);
                exit_code = 2;
            }
            qsort(files.items, files.count, sizeof(char *), compare_strings);
        } else {
            add_path(&files, inputs.items[i]);
        }
        for (size_t f = 0; f < files.count; f++) {
            char err[1024];
            if (!cases_load_file(files.items[f], &cases, err, sizeof(err))) {
                fprintf(stderr, "%s\n", err);
                exit_code = 2;
            }
            free(files.items[f]);
        }
        free(files.items);
        free(inputs.items[i]);
    }
    free(inputs.items);
    if (opt.dump_dir && !make_dirs(opt.dump_dir)) {
        fprintf(stderr, "dmlvk-run: --dump %s: cannot create the folder: %s\n", opt.dump_dir, strerror(errno));
        cases_free(&cases);
        return 2;
    }

    dmlvk_device_params params = DMLVK_DEVICE_PARAMS_DEFAULT;
    params.validation = opt.validation;
    params.log = log_to_stderr;
    const char *device = opt.device ? opt.device : getenv("DMLVK_DEVICE");
    if (device && *device) {
        char *end;
        long index = strtol(device, &end, 10);
        if (*end == '\0' && index >= 0) {
            params.use_index = 1;
            params.index = (uint32_t)index;
        } else {
            params.name = device;
        }
    }
    dmlvk_device *dev = NULL;
    dmlvk_device_info info;
    if (cases.count && (dmlvk_device_create(&params, &dev) != DMLVK_OK || dmlvk_device_get_info(dev, &info) != DMLVK_OK)) {
        fprintf(stderr, "dmlvk-run: no device: %s\n", dmlvk_last_error());
        cases_free(&cases);
        return 2;
    }

    unsigned passed = 0, failed = 0, skipped = 0;
    json_t *results = opt.json ? json_array() : NULL;
    for (uint32_t i = 0; i < cases.count; i++) {
        const struct test_case *c = &cases.cases[i];
        struct result r;
        run_case(dev, &info, &opt, c, &r);
        static const char *const words[] = { "PASS", "FAIL", "SKIP", "ERROR" };
        switch (r.outcome) {
        case PASS: passed++; break;
        case FAIL: failed++; break;
        case SKIP: skipped++; break;
        case FILE_ERROR: exit_code = 2; break;
        }
        if (r.outcome == FILE_ERROR)
            fprintf(stderr, "%s\n", r.message);
        if (results) {
            json_t *o = json_object();
            json_object_set_new(o, "name", json_string(c->name));
            json_object_set_new(o, "file", json_string(c->file));
            json_object_set_new(o, "result", json_string(words[r.outcome]));
            json_object_set_new(o, "message", json_string(r.message));
            if (r.outcome == PASS && !c->expect_error) {
                json_object_set_new(o, "max_abs_error", json_real(r.max_err));
                json_object_set_new(o, "max_ulp", json_integer((json_int_t)r.max_ulp));
            }
            json_array_append_new(results, o);
        } else if (r.outcome == PASS) {
            printf("PASS %s (%s)\n", c->name, r.message);
        } else if (r.outcome != FILE_ERROR) {
            printf("%s %s: %s\n", words[r.outcome], c->name, r.message);
        }
        fflush(stdout);
    }
    if (results) {
        json_t *doc = json_object();
        json_object_set_new(doc, "device", json_string(dev ? info.name : ""));
        json_object_set_new(doc, "offset", json_integer((json_int_t)opt.offset));
        json_object_set_new(doc, "results", results);
        json_object_set_new(doc, "passed", json_integer(passed));
        json_object_set_new(doc, "failed", json_integer(failed));
        json_object_set_new(doc, "skipped", json_integer(skipped));
        json_dumpf(doc, stdout, JSON_INDENT(2));
        printf("\n");
        json_decref(doc);
    } else if (skipped) {
        printf("%u passed, %u failed, %u skipped\n", passed, failed, skipped);
    } else {
        printf("%u passed, %u failed\n", passed, failed);
    }
    cases_free(&cases);
    if (dev && opt.stats) {
        dmlvk_device_stats s;
        dmlvk_device_get_stats(dev, &s);
        fprintf(stderr,
                "stats: device \"%s\", pipelines compiled %llu, in-memory hits %llu, driver cache hits %llu, "
                "disk cache bytes loaded %llu, validation messages %llu\n",
                info.name, (unsigned long long)s.pipelines_compiled, (unsigned long long)s.pipeline_memory_hits,
                (unsigned long long)s.pipeline_disk_hits, (unsigned long long)s.disk_cache_bytes_loaded,
                (unsigned long long)s.validation_messages);
    }
    dmlvk_device_destroy(dev);
    if (exit_code == 0 && failed)
        exit_code = 1;
    return exit_code;
}
