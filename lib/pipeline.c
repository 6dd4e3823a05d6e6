#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"

/* The pipeline cache, one per device. */
/* ---- in-memory cache: one VkPipeline per shader variant and specialization ---------------- */

struct pipeline_entry {
    struct pipeline_entry *next;
    const struct dmlvk_shader_blob *blob;
    uint32_t spec[DMLVK_MAX_SPEC_CONSTANTS];
    uint32_t spec_set;
    VkPipeline pipeline;
};

struct dmlvk_pipeline_cache {
    dmlvk_device *dev;
    pthread_mutex_t lock;               /* guards entries and the file */
    struct pipeline_entry *entries;
    VkPipelineCache vk_cache;
    char *path;                         /* NULL: no file */
    uint64_t disk_bytes;
    atomic_uint_fast64_t compiled, memory_hits, disk_hits;
};

static const struct dmlvk_shader_blob *find_blob(enum dmlvk_shader shader, uint32_t variant)
{
    for (size_t i = 0; i < dmlvk_shader_blob_count; i++)
        if (dmlvk_shader_blobs[i].shader == shader && dmlvk_shader_blobs[i].variant == variant)
            return &dmlvk_shader_blobs[i];
    return NULL;
}

DMLVK_PRINTF(4, 5) static size_t append(char *line, size_t size, size_t at, const char *fmt, ...)
{
    if (at >= size)
        return at;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line + at, size - at, fmt, ap);
    va_end(ap);
    return n < 0 ? size : at + (size_t)n;
}

/* What the driver reports of a pipeline it compiled, as one line: the shader, its variant, the
 * specialization constants that were set, then each statistic. */
static void log_statistics(dmlvk_device *dev, const struct dmlvk_shader_blob *blob, const uint32_t *spec,
                           uint32_t spec_set, VkPipeline pipeline)
{
    VkPipelineExecutableInfoKHR info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR,
        .pipeline = pipeline,
    };
    VkPipelineExecutableStatisticKHR stats[16];
    uint32_t n = DMLVK_ARRAY_SIZE(stats);
    for (uint32_t i = 0; i < n; i++)
        stats[i] = (VkPipelineExecutableStatisticKHR){ .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR };
    VkResult r = dev->pipeline_statistics(dev->device, &info, &n, stats);
    if (r < 0) {
        dmlvk_log(dev, DMLVK_LOG_WARN, "pipeline %s: vkGetPipelineExecutableStatisticsKHR failed (%d)", blob->name, (int)r);
        return;
    }
    char line[1024];
    size_t at = 0;
    at = append(line, sizeof(line), at, "pipeline %s, variant %u, specialization", blob->name, blob->variant);
    for (uint32_t id = 0; id < DMLVK_MAX_SPEC_CONSTANTS; id++)
        if (spec_set >> id & 1)
            at = append(line, sizeof(line), at, " %u=%u", id, spec[id]);
    for (uint32_t i = 0; i < n; i++) {
        const VkPipelineExecutableStatisticKHR *st = &stats[i];
        if (st->format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR)
            at = append(line, sizeof(line), at, "; %s %s", st->name, st->value.b32 ? "true" : "false");
        else if (st->format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR)
            at = append(line, sizeof(line), at, "; %s %lld", st->name, (long long)st->value.i64);
        else if (st->format == VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR)
            at = append(line, sizeof(line), at, "; %s %llu", st->name, (unsigned long long)st->value.u64);
        else
            at = append(line, sizeof(line), at, "; %s %g", st->name, st->value.f64);
    }
    dmlvk_log(dev, DMLVK_LOG_INFO, "%s", line);
}

static dmlvk_status compile(struct dmlvk_pipeline_cache *cache, const struct dmlvk_shader_blob *blob,
                            const uint32_t *spec, uint32_t spec_set, VkPipeline *pipeline)
{
    dmlvk_device *dev = cache->dev;
    VkShaderModuleCreateInfo smci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = blob->size,
        .pCode = blob->code,
    };
    VkShaderModule module;
    VkResult r = dmlvk_fault(dev) ? VK_ERROR_OUT_OF_HOST_MEMORY : dev->vk.vkCreateShaderModule(dev->device, &smci, NULL, &module);
    if (r != VK_SUCCESS)
        return dmlvk_vk_error(r, "vkCreateShaderModule");
    VkSpecializationMapEntry entries[DMLVK_MAX_SPEC_CONSTANTS];
    uint32_t count = 0;
    for (uint32_t id = 0; id < DMLVK_MAX_SPEC_CONSTANTS; id++)
        if (spec_set >> id & 1)
            entries[count++] = (VkSpecializationMapEntry){ .constantID = id, .offset = 4 * id, .size = 4 };
    VkSpecializationInfo si = {
        .mapEntryCount = count,
        .pMapEntries = entries,
        .dataSize = 4 * DMLVK_MAX_SPEC_CONSTANTS,
        .pData = spec,
    };
    VkPipelineCreationFeedback feedback = { 0 };
    VkPipelineCreationFeedbackCreateInfo fci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO,
        .pPipelineCreationFeedback = &feedback,
    };
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .pNext = dev->api_version >= VK_API_VERSION_1_3 ? &fci : NULL,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = module,
            .pName = "main",
            .pSpecializationInfo = &si,
        },
        .layout = dev->layout,
    };
    if (dev->pipeline_statistics)
        ci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    r = dmlvk_fault(dev) ? VK_ERROR_OUT_OF_DEVICE_MEMORY
                         : dev->vk.vkCreateComputePipelines(dev->device, cache->vk_cache, 1, &ci, NULL, pipeline);
    dev->vk.vkDestroyShaderModule(dev->device, module, NULL);
    if (r != VK_SUCCESS)
        return dmlvk_vk_error(r, "vkCreateComputePipelines");
    if (dev->pipeline_statistics)
        log_statistics(dev, blob, spec, spec_set, *pipeline);
    atomic_fetch_add(&cache->compiled, 1);
    if (feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT)
        atomic_fetch_add(&cache->disk_hits, 1);
    return DMLVK_OK;
}

dmlvk_status dmlvk_pipeline_get(struct dmlvk_pipeline_cache *cache, enum dmlvk_shader shader, uint32_t variant,
                                const uint32_t *spec, uint32_t spec_set, VkPipeline *pipeline)
{
    const struct dmlvk_shader_blob *blob = find_blob(shader, variant);
    if (!blob)
        return dmlvk_error(DMLVK_ERROR_UNSUPPORTED, "no variant 0x%x of a shader (enum dmlvk_shader %d) was built",
                           variant, (int)shader);
    /* A constant that the module does not declare changes nothing: out of the key, so that plans
     * that differ only there share one pipeline (and one compile). */
    uint32_t declared[DMLVK_MAX_SPEC_CONSTANTS] = { 0 };
    spec_set &= blob->spec_ids;
    for (uint32_t id = 0; id < DMLVK_MAX_SPEC_CONSTANTS; id++)
        if (spec_set >> id & 1)
            declared[id] = spec[id];
    spec = declared;
    /* Compiling under the lock keeps "one compile per key" true when threads race on one key. */
    pthread_mutex_lock(&cache->lock);
    for (struct pipeline_entry *e = cache->entries; e; e = e->next)
        if (e->blob == blob && e->spec_set == spec_set && !memcmp(e->spec, spec, sizeof(e->spec))) {
            *pipeline = e->pipeline;
            pthread_mutex_unlock(&cache->lock);
            atomic_fetch_add(&cache->memory_hits, 1);
            return DMLVK_OK;
        }
    dmlvk_status st;
    struct pipeline_entry *e = dmlvk_calloc(cache->dev, 1, sizeof(*e));
    if (!e) {
        st = dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "out of host memory caching a pipeline");
    } else if ((st = compile(cache, blob, spec, spec_set, &e->pipeline)) != DMLVK_OK) {
        free(e);
    } else {
        e->blob = blob;
        e->spec_set = spec_set;
        memcpy(e->spec, spec, sizeof(e->spec));
        e->next = cache->entries;
        cache->entries = e;
        *pipeline = e->pipeline;
    }
    pthread_mutex_unlock(&cache->lock);
    return st;
}

void dmlvk_pipeline_cache_stats(struct dmlvk_pipeline_cache *cache, dmlvk_device_stats *stats)
{
    stats->pipelines_compiled = atomic_load(&cache->compiled);
    stats->pipeline_memory_hits = atomic_load(&cache->memory_hits);
    stats->pipeline_disk_hits = atomic_load(&cache->disk_hits);
    stats->disk_cache_bytes_loaded = cache->disk_bytes;
}

/* ---- disk cache ------------------------------------------------------------------------------
 * The file is our header followed by vkGetPipelineCacheData's bytes. The header ties it to one
 * device and driver build and carries a checksum, so a truncated, corrupted or foreign file is
 * never handed to the driver (some drivers trust that data blindly); it is ignored and replaced
 * at the next save.
 */

#define CACHE_MAGIC "DMLVKPC1"
#define CACHE_MAX_BYTES (UINT64_C(256) << 20)

struct cache_header {
    char magic[8];
    uint32_t vendor_id;
    uint32_t device_id;
    uint32_t driver_version;
    uint8_t uuid[VK_UUID_SIZE];
    uint32_t reserved;
    uint64_t data_size;
    uint64_t checksum;
};

static uint64_t fnv1a(const void *data, size_t size)
{
    const uint8_t *p = data;
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < size; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001b3);
    return h;
}

static void fill_header(const dmlvk_device *dev, struct cache_header *h)
{
    memset(h, 0, sizeof(*h));
    memcpy(h->magic, CACHE_MAGIC, 8);
    h->vendor_id = dev->props.vendorID;
    h->device_id = dev->props.deviceID;
    h->driver_version = dev->props.driverVersion;
    memcpy(h->uuid, dev->props.pipelineCacheUUID, VK_UUID_SIZE);
}

static char *cache_file_path(dmlvk_device *dev, const char *dir_in)
{
    char dir[4096];
    const char *env;
    if (dir_in)
        snprintf(dir, sizeof(dir), "%s", dir_in);
    else if ((env = getenv("DMLVK_CACHE_DIR")) && *env)
        snprintf(dir, sizeof(dir), "%s", env);
    else if ((env = getenv("XDG_CACHE_HOME")) && *env)
        snprintf(dir, sizeof(dir), "%s/dmlvk", env);
    else if ((env = getenv("HOME")) && *env)
        snprintf(dir, sizeof(dir), "%s/.cache/dmlvk", env);
    else
        return NULL;
    char uuid[2 * VK_UUID_SIZE + 1];
    for (unsigned i = 0; i < VK_UUID_SIZE; i++)
        snprintf(uuid + 2 * i, 3, "%02x", dev->props.pipelineCacheUUID[i]);
    size_t n = strlen(dir) + 64 + sizeof(uuid);
    char *path = dmlvk_malloc(dev, n);
    if (path)
        snprintf(path, n, "%s/%04x-%04x-%s.cache", dir, dev->props.vendorID, dev->props.deviceID, uuid);
    return path;
}

/* Reads and checks the file; returns the Vulkan cache bytes or NULL. */
static void *load_file(dmlvk_device *dev, const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct cache_header want, got;
    fill_header(dev, &want);
    void *data = NULL;
    const char *why = NULL;
    if (fread(&got, sizeof(got), 1, f) != 1)
        why = "truncated header";
    else if (memcmp(got.magic, want.magic, 8))
        why = "not a dmlvk cache file";
    else if (got.vendor_id != want.vendor_id || got.device_id != want.device_id ||
             got.driver_version != want.driver_version || memcmp(got.uuid, want.uuid, VK_UUID_SIZE))
        why = "written by another device or driver";
    else if (got.data_size < 32 || got.data_size > CACHE_MAX_BYTES)
        why = "implausible size";
    else if (!(data = dmlvk_malloc(dev, got.data_size)))
        why = "out of host memory";
    else if (fread(data, 1, got.data_size, f) != got.data_size)
        why = "truncated data";
    else if (fnv1a(data, got.data_size) != got.checksum)
        why = "checksum mismatch";
    else {
        /* VkPipelineCacheHeaderVersionOne, checked too: the driver gets nothing it did not write. */
        const uint8_t *p = data;
        uint32_t vk_header[4];
        memcpy(vk_header, p, sizeof(vk_header));
        if (vk_header[1] != VK_PIPELINE_CACHE_HEADER_VERSION_ONE || vk_header[2] != want.vendor_id ||
            vk_header[3] != want.device_id || memcmp(p + 16, want.uuid, VK_UUID_SIZE))
            why = "Vulkan cache header does not match the device";
    }
    fclose(f);
    if (why) {
        dmlvk_log(dev, DMLVK_LOG_WARN, "pipeline cache %s ignored: %s", path, why);
        free(data);
        return NULL;
    }
    *size = got.data_size;
    return data;
}

static dmlvk_status make_dirs(const char *file)
{
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s", file);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return DMLVK_OK;
    *slash = '\0';
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0755) && errno != EEXIST)
            return dmlvk_error(DMLVK_ERROR_IO, "cannot create cache directory %s: %s", dir, strerror(errno));
        *p = '/';
    }
    if (mkdir(dir, 0755) && errno != EEXIST)
        return dmlvk_error(DMLVK_ERROR_IO, "cannot create cache directory %s: %s", dir, strerror(errno));
    return DMLVK_OK;
}

/* Under the cache's lock (or with no other user left). */
static dmlvk_status save_file(struct dmlvk_pipeline_cache *cache)
{
    dmlvk_device *dev = cache->dev;
    size_t size = 0;
    VkResult r = dev->vk.vkGetPipelineCacheData(dev->device, cache->vk_cache, &size, NULL);
    if (r != VK_SUCCESS)
        return dmlvk_vk_error(r, "vkGetPipelineCacheData");
    if (size < 32 || size > CACHE_MAX_BYTES)
        return DMLVK_OK;
    void *data = dmlvk_malloc(dev, size);
    if (!data)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "out of host memory saving the pipeline cache");
    if ((r = dev->vk.vkGetPipelineCacheData(dev->device, cache->vk_cache, &size, data)) != VK_SUCCESS) {
        free(data);
        return dmlvk_vk_error(r, "vkGetPipelineCacheData");
    }
    struct cache_header h;
    fill_header(dev, &h);
    h.data_size = size;
    h.checksum = fnv1a(data, size);

    dmlvk_status st = make_dirs(cache->path);
    char tmp[4200];
    snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", cache->path, (long)getpid());
    FILE *f = st == DMLVK_OK ? fopen(tmp, "wb") : NULL;
    if (st == DMLVK_OK && !f)
        st = dmlvk_error(DMLVK_ERROR_IO, "cannot write pipeline cache %s: %s", tmp, strerror(errno));
    if (f) {
        bool ok = fwrite(&h, sizeof(h), 1, f) == 1 && fwrite(data, 1, size, f) == size;
        ok = (fclose(f) == 0) && ok;
        /* rename() replaces atomically: a reader sees the old file or the new one, never half. */
        if (!ok || rename(tmp, cache->path)) {
            st = dmlvk_error(DMLVK_ERROR_IO, "cannot write pipeline cache %s: %s", cache->path, strerror(errno));
            remove(tmp);
        }
    }
    free(data);
    if (st != DMLVK_OK)
        dmlvk_log(dev, DMLVK_LOG_WARN, "%s", dmlvk_last_error());
    return st;
}

dmlvk_status dmlvk_pipeline_cache_create(dmlvk_device *dev, const char *cache_dir, bool disabled,
                                         struct dmlvk_pipeline_cache **out)
{
    struct dmlvk_pipeline_cache *cache = dmlvk_calloc(dev, 1, sizeof(*cache));
    if (!cache)
        return dmlvk_error(DMLVK_ERROR_OUT_OF_MEMORY, "out of host memory creating the pipeline cache");
    cache->dev = dev;
    pthread_mutex_init(&cache->lock, NULL);
    size_t size = 0;
    void *data = NULL;
    if (!disabled) {
        cache->path = cache_file_path(dev, cache_dir);
        if (cache->path)
            data = load_file(dev, cache->path, &size);
    }
    VkPipelineCacheCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
        .initialDataSize = size,
        .pInitialData = data,
    };
    VkResult r = dev->vk.vkCreatePipelineCache(dev->device, &ci, NULL, &cache->vk_cache);
    if (r != VK_SUCCESS && data) {
        /* The driver refused data it wrote itself; start empty rather than fail. */
        ci.initialDataSize = 0;
        ci.pInitialData = NULL;
        size = 0;
        r = dev->vk.vkCreatePipelineCache(dev->device, &ci, NULL, &cache->vk_cache);
    }
    cache->disk_bytes = size;
    free(data);
    if (r != VK_SUCCESS) {
        dmlvk_pipeline_cache_destroy(cache);
        return dmlvk_vk_error(r, "vkCreatePipelineCache");
    }
    *out = cache;
    return DMLVK_OK;
}

dmlvk_status dmlvk_pipeline_cache_destroy(struct dmlvk_pipeline_cache *cache)
{
    if (!cache)
        return DMLVK_OK;
    dmlvk_device *dev = cache->dev;
    dmlvk_status st = DMLVK_OK;
    if (cache->vk_cache) {
        if (cache->path)
            st = save_file(cache);
        dev->vk.vkDestroyPipelineCache(dev->device, cache->vk_cache, NULL);
    }
    while (cache->entries) {
        struct pipeline_entry *e = cache->entries;
        cache->entries = e->next;
        dev->vk.vkDestroyPipeline(dev->device, e->pipeline, NULL);
        free(e);
    }
    pthread_mutex_destroy(&cache->lock);
    free(cache->path);
    free(cache);
    return st;
}

dmlvk_status dmlvk_device_save_pipeline_cache(dmlvk_device *dev)
{
    if (!dev)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_device_save_pipeline_cache: device is NULL");
    struct dmlvk_pipeline_cache *cache = dev->pipelines;
    if (!cache->path)
        return DMLVK_OK;
    pthread_mutex_lock(&cache->lock);
    dmlvk_status st = save_file(cache);
    pthread_mutex_unlock(&cache->lock);
    return st;
}

dmlvk_status dmlvk_device_get_cache_path(const dmlvk_device *dev, const char **path)
{
    if (!dev)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_device_get_cache_path: device is NULL");
    if (!path)
        return dmlvk_error(DMLVK_ERROR_INVALID_ARGUMENT, "dmlvk_device_get_cache_path: path is NULL");
    *path = dev->pipelines->path ? dev->pipelines->path : "";
    return DMLVK_OK;
}
