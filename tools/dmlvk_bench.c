/*
 * dmlvk-bench: times operators with Vulkan timestamp queries on a device of its own, which it
 * hands to dmlvk (the way an ML runtime embeds the library), and measures the copy ceiling of that
 * device in the same run: a compute-shader copy of a large buffer.
 *
 * For each workload it prints the median time over many runs (after warm-up, on random inputs),
 * the effective bandwidth on the minimal bytes (every input read once, every output written once;
 * of a downsampling forward resample's input, what it taps) and that bandwidth as a fraction of
 * the copy ceiling. A workload's size moves what it can reach (a dispatch's start and drain weigh
 * more in small ones; working sets that fit the last-level cache stay there from run to run), so
 * it also times the same copy moving the workload's bytes and reports the fraction of that. It also reports how long creating the pipelines takes cold
 * and from the disk cache.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <volk.h>

#include <dmlvk/dmlvk.h>

#include "bench_copy_spv.h"
#include "bench_mix_spv.h"
#include "bench_read_spv.h"
#include "half.h"

struct vk {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    uint32_t family;
    VkQueue queue;
    VkCommandPool pool;
    VkQueryPool queries;
    uint32_t query_count;
    float period;
    /* How the device was made, kept for dmlvk_device_import; the chain points into req. */
    dmlvk_device_requirements req;
    bool statistics; /* --stats: the device enables VK_KHR_pipeline_executable_properties */
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executable;
    float priority;
    VkDeviceQueueCreateInfo qci;
    VkDeviceCreateInfo dci;
};

struct options {
    const char *device;
    int iterations, warmup;
    bool json;
    bool addresses;
    bool stats;
    bool mix;
    bool op_only; /* --op-only: no per-workload copies */
    bool list;    /* --list: print the selected workloads' names, time nothing */
    bool read_rates; /* --read-rates: time bench_read, nothing else */
    uint64_t offset; /* --offset: every tensor bound this many bytes into its buffer */
    const char *preset;
    const char *only;
    int repeat;
    uint64_t seed; /* --preset random's */
    int count;
    const char *shapes; /* --shape: these resample workloads instead of the preset's */
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#define CHECK_VK(call)                                                                                                 \
    do {                                                                                                               \
        VkResult r_ = (call);                                                                                          \
        if (r_ != VK_SUCCESS) {                                                                                        \
            fprintf(stderr, "dmlvk-bench: %s failed (%d)\n", #call, (int)r_);                                          \
            exit(2);                                                                                                   \
        }                                                                                                              \
    } while (0)

#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        if ((call) != DMLVK_OK) {                                                                                      \
            fprintf(stderr, "dmlvk-bench: %s: %s\n", #call, dmlvk_last_error());                                       \
            exit(2);                                                                                                   \
        }                                                                                                              \
    } while (0)

/* ---- a Vulkan device of our own ---------------------------------------------------------------- */

static void vk_create(struct vk *v, const char *want)
{
    CHECK_VK(volkInitialize());
    VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "dmlvk-bench",
                              .apiVersion = VK_API_VERSION_1_2 };
    VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app };
    CHECK_VK(vkCreateInstance(&ici, NULL, &v->instance));
    volkLoadInstance(v->instance);
    uint32_t n = 0;
    CHECK_VK(vkEnumeratePhysicalDevices(v->instance, &n, NULL));
    VkPhysicalDevice *pds = calloc(n ? n : 1, sizeof(*pds));
    CHECK_VK(vkEnumeratePhysicalDevices(v->instance, &n, pds));
    int chosen = -1, rank = 9;
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        if (want) {
            char *end;
            long idx = strtol(want, &end, 10);
            if ((*end == '\0' && idx == (long)i) || (*end != '\0' && strstr(p.deviceName, want))) {
                chosen = (int)i;
                break;
            }
            continue;
        }
        int r = p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ? 0 : p.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? 1 : 2;
        if (r < rank) {
            rank = r;
            chosen = (int)i;
        }
    }
    if (chosen < 0) {
        fprintf(stderr, "dmlvk-bench: no matching Vulkan device\n");
        exit(2);
    }
    v->physical = pds[chosen];
    free(pds);

    if (dmlvk_device_get_requirements(vkGetInstanceProcAddr, v->instance, v->physical, &v->req) != DMLVK_OK) {
        fprintf(stderr, "dmlvk-bench: %s\n", dmlvk_last_error());
        exit(2);
    }

    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(v->physical, &nq, NULL);
    VkQueueFamilyProperties *qf = calloc(nq, sizeof(*qf));
    vkGetPhysicalDeviceQueueFamilyProperties(v->physical, &nq, qf);
    v->family = UINT32_MAX;
    for (uint32_t i = 0; i < nq && v->family == UINT32_MAX; i++)
        if ((qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && qf[i].timestampValidBits)
            v->family = i;
    free(qf);
    if (v->family == UINT32_MAX) {
        fprintf(stderr, "dmlvk-bench: no compute queue with timestamps\n");
        exit(2);
    }
    if (v->statistics) {
        uint32_t ne = 0;
        vkEnumerateDeviceExtensionProperties(v->physical, NULL, &ne, NULL);
        VkExtensionProperties *ext = calloc(ne ? ne : 1, sizeof(*ext));
        bool found = false;
        if (ext && vkEnumerateDeviceExtensionProperties(v->physical, NULL, &ne, ext) == VK_SUCCESS)
            for (uint32_t i = 0; i < ne && !found; i++)
                found = !strcmp(ext[i].extensionName, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
        free(ext);
        if (!found) {
            fprintf(stderr, "dmlvk-bench: --stats: the device lacks %s\n", VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
            exit(2);
        }
        v->executable = (VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR){
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
            .pNext = v->req.features.pNext, .pipelineExecutableInfo = VK_TRUE };
        v->req.features.pNext = &v->executable;
        v->req.extensions[v->req.extension_count++] = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
    }
    v->priority = 1;
    v->qci = (VkDeviceQueueCreateInfo){ .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = v->family,
                                        .queueCount = 1, .pQueuePriorities = &v->priority };
    v->dci = (VkDeviceCreateInfo){ .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &v->req.features,
                                   .queueCreateInfoCount = 1, .pQueueCreateInfos = &v->qci,
                                   .enabledExtensionCount = v->req.extension_count,
                                   .ppEnabledExtensionNames = v->req.extensions };
    CHECK_VK(vkCreateDevice(v->physical, &v->dci, NULL, &v->device));
    volkLoadDevice(v->device);
    vkGetDeviceQueue(v->device, v->family, 0, &v->queue);
    VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, .queueFamilyIndex = v->family };
    CHECK_VK(vkCreateCommandPool(v->device, &pci, NULL, &v->pool));
    v->query_count = 2 * 1024;
    VkQueryPoolCreateInfo qpi = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                  .queryCount = v->query_count };
    CHECK_VK(vkCreateQueryPool(v->device, &qpi, NULL, &v->queries));
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(v->physical, &props);
    v->period = props.limits.timestampPeriod;
}

static void log_to_stderr(void *user, dmlvk_log_level level, const char *message)
{
    (void)user;
    (void)level;
    fprintf(stderr, "dmlvk: %s\n", message);
}

static dmlvk_device *import_device(const struct vk *v, const char *cache_dir)
{
    dmlvk_vulkan_import imp = {
        .get_instance_proc_addr = vkGetInstanceProcAddr,
        .instance = v->instance,
        .api_version = VK_API_VERSION_1_2,
        .physical_device = v->physical,
        .device = v->device,
        .device_create_info = &v->dci,
        .queue_family_index = v->family,
    };
    dmlvk_device_params p = DMLVK_DEVICE_PARAMS_DEFAULT;
    p.cache_dir = cache_dir;
    if (v->statistics) {
        p.pipeline_statistics = 1;
        p.log = log_to_stderr;
        p.log_level = DMLVK_LOG_INFO;
    }
    dmlvk_device *dev;
    CHECK(dmlvk_device_import(&imp, &p, &dev));
    return dev;
}

/* ---- timing --------------------------------------------------------------------------------- */

typedef void (*record_fn)(VkCommandBuffer cmd, void *user);

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Records `runs` runs of record(), each followed by a full barrier; with timestamps around each when timed. */
static double submit_runs(struct vk *v, record_fn record, void *user, int runs, bool timed, double *ms_out)
{
    VkCommandBuffer cmd;
    VkCommandBufferAllocateInfo cai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = v->pool,
                                        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
    CHECK_VK(vkAllocateCommandBuffers(v->device, &cai, &cmd));
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    CHECK_VK(vkBeginCommandBuffer(cmd, &bi));
    if (timed)
        vkCmdResetQueryPool(cmd, v->queries, 0, 2 * (uint32_t)runs);
    VkMemoryBarrier mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                           .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                           .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                            VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT };
    VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    for (int i = 0; i < runs; i++) {
        if (timed)
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, v->queries, 2 * (uint32_t)i);
        record(cmd, user);
        vkCmdPipelineBarrier(cmd, stages, stages, 0, 1, &mb, 0, NULL, 0, NULL);
        if (timed)
            vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, v->queries, 2 * (uint32_t)i + 1);
    }
    CHECK_VK(vkEndCommandBuffer(cmd));
    VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd };
    double t0 = now_ms();
    CHECK_VK(vkQueueSubmit(v->queue, 1, &si, VK_NULL_HANDLE));
    CHECK_VK(vkQueueWaitIdle(v->queue));
    double wall = now_ms() - t0;
    if (timed) {
        uint64_t *ts = calloc(2 * (size_t)runs, sizeof(uint64_t));
        CHECK_VK(vkGetQueryPoolResults(v->device, v->queries, 0, 2 * (uint32_t)runs, 2 * (size_t)runs * 8, ts, 8,
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
        for (int i = 0; i < runs; i++)
            ms_out[i] = (double)(ts[2 * i + 1] - ts[2 * i]) * v->period * 1e-6;
        free(ts);
    }
    vkFreeCommandBuffers(v->device, v->pool, 1, &cmd);
    return wall;
}

/*
 * Median milliseconds of one record() over `iterations` timed runs, after a warm-up measured in
 * time: the host spends seconds preparing each workload and the GPU's clocks fall meanwhile. They
 * rise again only under sustained load (an H100's SM clock stayed at 345 MHz through the first
 * 200-300 ms of work), which memory-bound kernels hardly notice and compute-bound ones do (3-4x
 * slower; a clock held low is steady too, so agreement alone is not enough). So batches of
 * about 50 ms run until 1 s has passed and two batches in a row agree within 2% per run, or 5 s
 * have passed.
 */
static double time_runs(struct vk *v, record_fn record, void *user, int warmup, int iterations)
{
    if (iterations > (int)v->query_count / 2)
        iterations = (int)v->query_count / 2;
    if (warmup > 0) {
        double per_run = submit_runs(v, record, user, warmup, false, NULL) / warmup, elapsed = 0, previous = 0;
        for (;;) {
            int runs = (int)fmin(4000, fmax(1, ceil(50.0 / fmax(per_run, 1e-3))));
            double wall = submit_runs(v, record, user, runs, false, NULL);
            elapsed += wall;
            per_run = wall / runs;
            bool settled = previous > 0 && fabs(per_run - previous) <= 0.02 * previous;
            previous = per_run;
            if ((elapsed >= 1000 && settled) || elapsed >= 5000)
                break;
        }
    }
    double *ms = calloc((size_t)iterations, sizeof(double));
    submit_runs(v, record, user, iterations, true, ms);
    qsort(ms, (size_t)iterations, sizeof(double), compare_double);
    double median = ms[iterations / 2];
    free(ms);
    return median;
}

/* ---- the copy ceiling ----------------------------------------------------------------------- */

struct copy_job {
    VkPipeline pipeline;
    VkPipelineLayout layout;
    VkDeviceAddress src, dst;
    uint32_t vec4s;
    uint32_t writes;            /* bench_mix: vec4s is what it reads; bench_read: its rounds, vec4s its mask */
    uint32_t spread;            /* bench_read */
    uint32_t groups[2];
};

static void record_copy(VkCommandBuffer cmd, void *user)
{
    struct copy_job *c = user;
    struct {
        VkDeviceAddress src, dst;
        uint32_t n, writes, spread;
    } push = { c->src, c->dst, c->vec4s, c->writes, c->spread };
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->pipeline);
    vkCmdPushConstants(cmd, c->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    vkCmdDispatch(cmd, c->groups[0], c->groups[1], 1);
}

static VkDeviceAddress address_of(struct vk *v, dmlvk_buffer *b)
{
    VkBuffer vb;
    CHECK(dmlvk_buffer_get_vk(b, &vb, NULL));
    VkBufferDeviceAddressInfo ai = { .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = vb };
    return vkGetBufferDeviceAddress(v->device, &ai);
}

/* A copy's pipeline (bench_copy or bench_mix), made once for the ceiling and every workload's
 * same-size or same-mix copy. */
struct copy_kernel {
    VkShaderModule module;
    VkPipelineLayout layout;
    VkPipeline pipeline;
};

static void copy_kernel_create(struct vk *v, const uint32_t *code, size_t size, struct copy_kernel *k)
{
    VkShaderModuleCreateInfo smci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                      .pCode = code };
    CHECK_VK(vkCreateShaderModule(v->device, &smci, NULL, &k->module));
    VkPushConstantRange range = { VK_SHADER_STAGE_COMPUTE_BIT, 0, 32 };
    VkPipelineLayoutCreateInfo lci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .pushConstantRangeCount = 1,
                                       .pPushConstantRanges = &range };
    CHECK_VK(vkCreatePipelineLayout(v->device, &lci, NULL, &k->layout));
    VkComputePipelineCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
                                       .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                  .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = k->module, .pName = "main" },
                                       .layout = k->layout };
    CHECK_VK(vkCreateComputePipelines(v->device, VK_NULL_HANDLE, 1, &ci, NULL, &k->pipeline));
}

static void copy_kernel_destroy(struct vk *v, struct copy_kernel *k)
{
    vkDestroyPipeline(v->device, k->pipeline, NULL);
    vkDestroyPipelineLayout(v->device, k->layout, NULL);
    vkDestroyShaderModule(v->device, k->module, NULL);
}

/* Rows of at most 65535 workgroups of 256 for `invocations`, as even as they come. */
static void one_pass_groups(uint32_t invocations, uint32_t groups[2])
{
    uint32_t all = (invocations + 255) / 256;
    groups[1] = (all + 65534) / 65535;
    groups[0] = (all + groups[1] - 1) / groups[1];
}

/* Milliseconds of job `c` (its counts and grid set) between buffers of `src_bytes` and
 * `dst_bytes` made for it. */
static double time_copy_job(struct vk *v, dmlvk_device *dev, struct copy_job c, uint64_t src_bytes, uint64_t dst_bytes,
                            const struct options *o)
{
    dmlvk_buffer *a, *b;
    CHECK(dmlvk_buffer_create(dev, src_bytes, &a));
    CHECK(dmlvk_buffer_create(dev, dst_bytes, &b));
    c.src = address_of(v, a);
    c.dst = address_of(v, b);
    double ms = time_runs(v, record_copy, &c, o->warmup, o->iterations);
    dmlvk_buffer_destroy(a);
    dmlvk_buffer_destroy(b);
    return ms;
}

/* GB/s (bytes read + written) of a compute-shader copy of `bytes`: one pass (an invocation per 16
 * bytes) or a grid-stride loop over 16 workgroups per multiprocessor of an H100. */
static double copy_rate(struct vk *v, dmlvk_device *dev, const struct copy_kernel *k, uint64_t bytes, bool one_pass,
                        const struct options *o)
{
    struct copy_job c = { .pipeline = k->pipeline, .layout = k->layout, .vec4s = (uint32_t)(bytes / 16),
                          .groups = { 132 * 16, 1 } };
    if (one_pass) /* none idle but the last few */
        one_pass_groups(c.vec4s, c.groups);
    return 2.0 * (double)bytes / (time_copy_job(v, dev, c, bytes, bytes, o) * 1e6);
}

/* The faster of the two copies: one pass beat the grid-stride loop on an H100 (BENCHMARKS.md note
 * 105), which need not hold at every size or on every device. */
static double best_copy_rate(struct vk *v, dmlvk_device *dev, const struct copy_kernel *k, uint64_t bytes,
                             const struct options *o, double *grid_stride, double *one_pass)
{
    double g = copy_rate(v, dev, k, bytes, false, o), p = copy_rate(v, dev, k, bytes, true, o);
    if (grid_stride)
        *grid_stride = g;
    if (one_pass)
        *one_pass = p;
    return fmax(g, p);
}

/* GB/s (bytes read + written) of bench_mix reading `read` bytes and writing `written`, each at
 * least 16, in one pass. */
static double mix_rate(struct vk *v, dmlvk_device *dev, const struct copy_kernel *k, uint64_t read, uint64_t written,
                       const struct options *o)
{
    uint32_t reads = read / 16 ? (uint32_t)(read / 16) : 1, writes = written / 16 ? (uint32_t)(written / 16) : 1;
    struct copy_job c = { .pipeline = k->pipeline, .layout = k->layout, .vec4s = reads, .writes = writes };
    one_pass_groups(writes, c.groups);
    double ms = time_copy_job(v, dev, c, 16 * (uint64_t)reads, 16 * (uint64_t)writes, o);
    return 16.0 * ((double)reads + writes) / (ms * 1e6);
}

/* --read-rates: bench_read's loads from a buffer that L1 holds, from buffers that L2 holds and
 * from one it cannot, in GB/s of the bytes loaded and of the 32-byte sectors they touch; 16
 * workgroups per multiprocessor of an H100, each invocation `rounds` loads (fewer of both, and
 * buffers 16 times smaller, on a CPU device). */
static void print_read_rates(struct vk *v, dmlvk_device *dev, const struct options *o)
{
    bool small = !strcmp(o->preset, "small");
    static const struct {
        uint32_t spread, load_bytes, sector_bytes;
        const char *what;
    } modes[] = {
        { 0, 16, 16, "16-byte loads, a warp's 512 bytes contiguous" },
        { 1, 4, 4, "4-byte loads, a warp's 128 bytes contiguous" },
        { 8, 4, 32, "4-byte loads, a 32-byte sector per lane" },
    };
    const uint64_t sizes[] = { UINT64_C(64) << 10, UINT64_C(4) << 20, UINT64_C(16) << 20, UINT64_C(32) << 20,
                               UINT64_C(1) << 30 };
    uint32_t invocations = small ? 16 * 256 : 132 * 16 * 256, rounds = small ? 8 : 256, shrink = small ? 4 : 0;
    struct copy_kernel k;
    copy_kernel_create(v, bench_read_spv, sizeof(bench_read_spv), &k);
    printf("read rates, GB/s of the bytes loaded (of the 32-byte sectors touched): %u invocations of %u loads each\n",
           invocations, rounds);
    printf("%-48s", "buffer");
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
        printf(" %9llu KiB", (unsigned long long)(sizes[s] >> shrink >> 10));
    printf("\n");
    for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
        printf("%-48s", modes[m].what);
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            uint64_t bytes = sizes[s] >> shrink;
            struct copy_job c = { .pipeline = k.pipeline, .layout = k.layout, .vec4s = (uint32_t)(bytes / 4 - 1),
                                  .writes = rounds, .spread = modes[m].spread };
            one_pass_groups(invocations, c.groups);
            double ms = time_copy_job(v, dev, c, bytes, 4 * (uint64_t)invocations, o);
            double loads = (double)invocations * rounds;
            if (modes[m].sector_bytes == modes[m].load_bytes)
                printf(" %13.1f", loads * modes[m].load_bytes / (ms * 1e6));
            else
                printf(" %5.1f (%6.1f)", loads * modes[m].load_bytes / (ms * 1e6),
                       loads * modes[m].sector_bytes / (ms * 1e6));
        }
        printf("\n");
        fflush(stdout);
    }
    copy_kernel_destroy(v, &k);
}

/* ---- workloads ------------------------------------------------------------------------------ */

/* The most workloads a preset holds (add_sweep checks its list against it at compile time). */
#define MAX_WORKLOADS 192

/* Resample tensors' memory orders other than NCHW and NHWC (channels_last). */
enum layout { LAYOUT_DEFAULT, LAYOUT_NCWH, LAYOUT_CHWN };
static const char *const layout_names[] = { "default", "ncwh", "chwn" };

enum kind { RELU_GRAD, NEAREST_GRAD, BILINEAR_GRAD, ROI_ALIGN_GRAD, RELU, NEAREST, BILINEAR, ROI_ALIGN1 };
static const char *const kind_names[] = { "relu_grad", "nearest_grad", "bilinear_grad", "roi_align_grad",
                                          "relu",      "nearest",      "bilinear",      "roi_align1" };

struct workload {
    char name[64];
    enum kind kind;
    dmlvk_tensor_data_type type;   /* FLOAT32, FLOAT16 or BFLOAT16 */
    bool deterministic;
    uint32_t n, c, h, w;        /* input of the forward pass (relu: n elements, or {n, c, h, w} channels-last) */
    uint32_t oh, ow;            /* resample: forward output; roi: bins */
    uint32_t rois, samples;     /* samples: per bin and axis, 0 adaptive */
    float spatial_scale;
    bool huge;                  /* regions of +-1e30 instead of the preset's boxes */
    bool channels_last;         /* NHWC strides (resample, relu; ROI align: input, bins, input gradient) */
    enum layout layout;         /* resample: height (NCWH) or batch (CHWN) fastest in memory */
    uint32_t oc;                /* resample: the forward's output channels where that axis scales too (0: c) */
    uint32_t dims;              /* resample: 4 (N, C, H, W) or 3 (N, C, W; h must be 1) */
    bool maximum, roi_grad;     /* ROI align: MAX; ROI_ALIGN_GRAD also computes the ROI gradient */
    bool aligned_false;         /* ROI align: torchvision's aligned=False */
};

struct bound_op {
    dmlvk_operator *op;
    dmlvk_binding bindings[8];
    uint32_t count;
};

static void record_op(VkCommandBuffer cmd, void *user)
{
    struct bound_op *b = user;
    if (dmlvk_operator_record(b->op, cmd, b->bindings, b->count) != DMLVK_OK) {
        fprintf(stderr, "dmlvk-bench: %s\n", dmlvk_last_error());
        exit(2);
    }
}

static uint16_t to16(dmlvk_tensor_data_type type, double v)
{
    return type == DMLVK_TENSOR_DATA_TYPE_FLOAT16 ? half_from_double(v) : bfloat16_from_double(v);
}

/* Fills a buffer from byte `offset` with uniform values in [lo, hi) (never all zeros), in chunks. */
static void fill_random(dmlvk_buffer *b, uint64_t offset, uint64_t elements, dmlvk_tensor_data_type type, double lo,
                        double hi, uint64_t seed)
{
    bool f16 = dmlvk_data_type_size(type) == 2;
    const uint64_t chunk = 1 << 22;
    void *host = malloc(chunk * 4);
    for (uint64_t at = 0; at < elements; at += chunk) {
        uint64_t n = elements - at < chunk ? elements - at : chunk;
        for (uint64_t i = 0; i < n; i++) {
            double u = lo + (hi - lo) * ((double)(splitmix64_next(&seed) >> 11) * 0x1p-53);
            if (f16)
                ((uint16_t *)host)[i] = to16(type, u);
            else
                ((float *)host)[i] = (float)u;
        }
        CHECK(dmlvk_buffer_write(b, offset + at * (f16 ? 2 : 4), host, n * (f16 ? 2 : 4)));
    }
    free(host);
}

/* Which of an axis's `in` input indices a forward resample to `out` reads: the taps of PyTorch's
 * conventions (half-pixel bilinear, floor(o * in / out) nearest) that have a weight, since a tap
 * of weight 0 is not read. Downsampling by more than 2 (and nearest by 2) skips some. Bilinear
 * taps come from the descriptor's Scale, out / in rounded to float as
 * dmlvk_resample_fields_from_convention gives it: where float cannot hold the ratio (1/3), a
 * sample that PyTorch puts on an input index falls a hair off it, and the index beside it has a
 * weight of about 1e-7 that DirectML's formula does not drop. */
static uint32_t axis_reads(uint32_t in, uint32_t out, bool nearest, bool *read)
{
    memset(read, 0, in);
    for (uint32_t o = 0; o < out; o++) {
        if (nearest) {
            uint64_t i = (uint64_t)o * in / out;
            read[i < in ? i : in - 1] = true;
            continue;
        }
        double x = ((double)o + 0.5) / (double)(float)((double)out / in) - 0.5;
        uint32_t i0 = x <= 0 ? 0 : x >= in - 1 ? in - 1 : (uint32_t)x;
        double t = x - i0;
        if (t < 1)
            read[i0] = true;
        if (t > 0 && i0 + 1 < in)
            read[i0 + 1] = true;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < in; i++)
        n += read[i];
    return n;
}

/* The bytes a forward resample must read of its input {n, c, h, w} (w only where dims is 3): the
 * rows it taps, and in each the 32-byte sectors holding a tapped column (channels-last: the tapped
 * pixels' channels, contiguous). */
static double resample_read_bytes(const struct workload *w, uint32_t dims, bool nearest, uint64_t es)
{
    uint32_t h = dims == 3 ? 1 : w->h, oh = dims == 3 ? 1 : w->oh;
    bool *rows = malloc(h), *cols = malloc(w->w);
    uint32_t nrows = axis_reads(h, oh, nearest, rows), ncols = axis_reads(w->w, w->ow, nearest, cols);
    double per_row = (double)ncols * w->c * es;
    if (!w->channels_last) {
        uint64_t sectors = 0, last = UINT64_MAX;
        for (uint32_t i = 0; i < w->w; i++)
            if (cols[i] && i * es / 32 != last) {
                last = i * es / 32;
                sectors++;
            }
        per_row = fmin(32.0 * sectors, (double)w->w * es) * w->c;
    }
    free(rows);
    free(cols);
    return (double)w->n * nrows * per_row;
}

/* Packed strides of sizes whose axes lie in memory in `order`, the slowest first. */
static void ordered_strides(const uint32_t *sizes, const uint32_t *order, uint32_t *strides)
{
    uint32_t s = 1;
    for (int k = 3; k >= 0; k--) {
        strides[order[k]] = s;
        s *= sizes[order[k]];
    }
}

/* NHWC strides of {N, C, H, W} sizes. */
static void nhwc_strides(const uint32_t *sizes, uint32_t *strides)
{
    strides[1] = 1;
    strides[3] = sizes[1];
    strides[2] = sizes[3] * sizes[1];
    strides[0] = sizes[2] * strides[2];
}

/* The boxes of the ROI align preset; tools/bench_torch.py draws the same ones. */
static void roi_boxes(const struct workload *w, float *boxes, uint32_t *batch)
{
    uint64_t s = 2024;
    double img_w = w->w / w->spatial_scale, img_h = w->h / w->spatial_scale;
    for (uint32_t k = 0; k < w->rois; k++) {
        double u[4];
        for (int i = 0; i < 4; i++)
            u[i] = (double)(splitmix64_next(&s) >> 11) * 0x1p-53;
        double bw = 16 + u[2] * (img_w / 3), bh = 16 + u[3] * (img_h / 3);
        double x1 = u[0] * (img_w - bw), y1 = u[1] * (img_h - bh);
        if (w->huge) { /* centred anywhere on the map, spanning +-1e30 */
            x1 = -1e30 + u[0] * img_w;
            y1 = -1e30 + u[1] * img_h;
            bw = bh = 2e30;
        }
        boxes[4 * k] = (float)x1;
        boxes[4 * k + 1] = (float)y1;
        boxes[4 * k + 2] = (float)(x1 + bw);
        boxes[4 * k + 3] = (float)(y1 + bh);
        batch[k] = k % w->n;
    }
}

struct result {
    double ms, bytes, create_cold_ms, create_cached_ms;
    double written;             /* of `bytes`, those written */
    double same_size_gbps;      /* the copy moving the workload's bytes */
    double same_mix_gbps;       /* --mix: bench_mix with the workload's bytes read and written; 0 without */
};

/* A buffer for a tensor bound `offset` bytes into it. */
static dmlvk_buffer *tensor_buffer(dmlvk_device *dev, uint64_t elements, dmlvk_tensor_data_type type, uint64_t offset)
{
    dmlvk_buffer *b;
    CHECK(dmlvk_buffer_create(dev, offset + ((elements * dmlvk_data_type_size(type) + 3) & ~UINT64_C(3)), &b));
    return b;
}

static void run_workload(struct vk *v, dmlvk_device *dev, const struct workload *w, const struct options *o,
                         const char *cache_dir, struct result *res)
{
    dmlvk_tensor_data_type type = w->type;
    uint64_t es = dmlvk_data_type_size(type);
    struct bound_op b = { 0 };
    dmlvk_buffer *bufs[8] = { 0 };
    uint32_t s_small[4] = { w->n, w->c, w->h, w->w };
    uint32_t s_relu[1] = { w->n }, s_rois[2] = { w->rois, 4 }, s_batch[1] = { w->rois };
    uint32_t s_bins[4] = { w->rois, w->c, w->oh, w->ow };
    dmlvk_tensor_desc t[6];
    dmlvk_operator_desc od;
    dmlvk_activation_relu_grad_operator_desc relu;
    dmlvk_resample_grad1_operator_desc rs;
    dmlvk_resample_fields rf;
    dmlvk_roi_align_grad_operator_desc roi;
    dmlvk_roi_align1_operator_desc roi1;
    dmlvk_activation_relu_operator_desc relu1;
    dmlvk_resample2_operator_desc rs2;
    dmlvk_roi_align_fields roif;
    dmlvk_operator_params params = { .deterministic = w->deterministic };
    const uint32_t oc = w->oc ? w->oc : w->c;
    uint64_t e_small = (uint64_t)w->n * w->c * w->h * w->w, e_big = (uint64_t)w->n * oc * w->oh * w->ow;
    uint64_t e_bins = (uint64_t)w->rois * w->c * w->oh * w->ow;
#define TENSOR(i, dims, sizes, dt)                                                                                     \
    do {                                                                                                               \
        t[i] = (dmlvk_tensor_desc){ .DataType = (dt), .DimensionCount = (dims), .Sizes = (sizes) };                    \
        CHECK(dmlvk_tensor_min_size(&t[i], &t[i].TotalTensorSizeInBytes));                                             \
    } while (0)
    /* Resample tensors: {N, C, H, W} (or {N, C, W}), NHWC strides where channels_last. */
    uint32_t dims = w->dims ? w->dims : 4;
    uint32_t r_small[4] = { w->n, w->c, w->h, w->w }, r_big[4] = { w->n, oc, w->oh, w->ow };
    uint32_t st_small[4], st_big[4], st_x[4], st_bins[4]; /* st_x, st_bins: ROI align's, channels-last */
    if (dims == 3) {
        r_small[2] = w->w;
        r_big[2] = w->ow;
    }
    if (w->channels_last) {
        nhwc_strides(r_small, st_small);
        nhwc_strides(r_big, st_big);
    }
    if (w->layout != LAYOUT_DEFAULT) {
        static const uint32_t orders[][4] = { [LAYOUT_NCWH] = { 0, 1, 3, 2 }, [LAYOUT_CHWN] = { 1, 2, 3, 0 } };
        ordered_strides(r_small, orders[w->layout], st_small);
        ordered_strides(r_big, orders[w->layout], st_big);
    }
#define RESAMPLE_TENSOR(i, sizes, strides)                                                                             \
    do {                                                                                                               \
        t[i] = (dmlvk_tensor_desc){ .DataType = type, .DimensionCount = dims, .Sizes = (sizes),                        \
                                    .Strides = w->channels_last || w->layout ? (strides) : NULL };                     \
        CHECK(dmlvk_tensor_min_size(&t[i], &t[i].TotalTensorSizeInBytes));                                             \
    } while (0)
    switch (w->kind) {
    case RELU_GRAD:
    case RELU: {
        /* n elements, or {n, c, h, w} in NHWC strides where channels_last */
        const uint64_t count = w->channels_last ? e_small : w->n;
        const int tensors = w->kind == RELU_GRAD ? 3 : 2;
        for (int i = 0; i < tensors; i++) {
            if (w->channels_last)
                RESAMPLE_TENSOR(i, r_small, st_small);
            else
                TENSOR(i, 1, s_relu, type);
            bufs[i] = tensor_buffer(dev, count, w->type, o->offset);
        }
        relu = (dmlvk_activation_relu_grad_operator_desc){ &t[0], &t[1], &t[2] };
        relu1 = (dmlvk_activation_relu_operator_desc){ &t[0], &t[1] };
        od = w->kind == RELU_GRAD ? (dmlvk_operator_desc){ DMLVK_OPERATOR_ACTIVATION_RELU_GRAD, &relu }
                                  : (dmlvk_operator_desc){ DMLVK_OPERATOR_ACTIVATION_RELU, &relu1 };
        b.count = (uint32_t)tensors;
        for (int i = 0; i < tensors - 1; i++)
            fill_random(bufs[i], o->offset, count, w->type, -1, 1, 1 + (uint64_t)i);
        res->bytes = (double)tensors * count * es;
        res->written = (double)count * es;
        break;
    }
    case NEAREST:
    case BILINEAR:
    case NEAREST_GRAD:
    case BILINEAR_GRAD: {
        /* Slot 0 is read, slot 1 written: the smaller side forward, the larger one backward. */
        bool backward = w->kind == NEAREST_GRAD || w->kind == BILINEAR_GRAD;
        bool nearest = w->kind == NEAREST || w->kind == NEAREST_GRAD;
        RESAMPLE_TENSOR(0, backward ? r_big : r_small, backward ? st_big : st_small);
        RESAMPLE_TENSOR(1, backward ? r_small : r_big, backward ? st_small : st_big);
        CHECK(dmlvk_resample_fields_from_convention(nearest ? DMLVK_RESAMPLE_CONVENTION_PYTORCH_NEAREST
                                                            : DMLVK_RESAMPLE_CONVENTION_HALF_PIXEL_LINEAR,
                                                    dims, r_small, r_big, NULL, &rf));
        if (backward) {
            rs = (dmlvk_resample_grad1_operator_desc){ &t[0], &t[1] };
            CHECK(dmlvk_resample_grad1_desc_set_fields(&rs, &rf));
            od = (dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE_GRAD1, &rs };
        } else {
            rs2 = (dmlvk_resample2_operator_desc){ &t[0], &t[1] };
            CHECK(dmlvk_resample2_desc_set_fields(&rs2, &rf));
            od = (dmlvk_operator_desc){ DMLVK_OPERATOR_RESAMPLE2, &rs2 };
        }
        uint64_t e_read = backward ? e_big : e_small;
        b.count = 2;
        bufs[0] = tensor_buffer(dev, e_read, w->type, o->offset);
        bufs[1] = tensor_buffer(dev, backward ? e_small : e_big, w->type, o->offset);
        fill_random(bufs[0], o->offset, e_read, w->type, -1, 1, 3);
        res->bytes = (backward || w->oc ? (double)e_small * es : resample_read_bytes(w, dims, nearest, es)) + (double)e_big * es;
        res->written = (double)(backward ? e_small : e_big) * es;
        break;
    }
    case ROI_ALIGN1:
    case ROI_ALIGN_GRAD: {
        /* Slots as ROI_ALIGN_GRAD binds them: X, dY, regions, batch indices, dX, ROI gradient;
         * ROI_ALIGN1 takes X, regions, batch indices, Y. */
        bool forward = w->kind == ROI_ALIGN1, needs_x = forward || w->maximum || w->roi_grad;
        int sx = 0, sbins = forward ? 3 : 1, srois = forward ? 1 : 2, sbatch = forward ? 2 : 3;
        TENSOR(sx, 4, s_small, type);
        TENSOR(sbins, 4, s_bins, type);
        TENSOR(srois, 2, s_rois, type);
        TENSOR(sbatch, 1, s_batch, DMLVK_TENSOR_DATA_TYPE_UINT32);
        TENSOR(4, 4, s_small, type);
        TENSOR(5, 2, s_rois, type);
        /* Channels-last: the input, its gradient and the bins in NHWC strides (a permutation of
         * packed strides: the same sizes in bytes). */
        if (w->channels_last) {
            nhwc_strides(s_small, st_x);
            nhwc_strides(s_bins, st_bins);
            t[sx].Strides = t[4].Strides = st_x;
            t[sbins].Strides = st_bins;
        }
        CHECK(dmlvk_roi_align_fields_from_convention(w->aligned_false ? DMLVK_ROI_ALIGN_CONVENTION_OUTPUT_HALF_PIXEL
                                                                      : DMLVK_ROI_ALIGN_CONVENTION_HALF_PIXEL,
                                                     w->spatial_scale, (int32_t)w->samples,
                                                     w->maximum ? DMLVK_REDUCE_FUNCTION_MAX : DMLVK_REDUCE_FUNCTION_AVERAGE,
                                                     &roif));
        if (forward) {
            roi1 = (dmlvk_roi_align1_operator_desc){ &t[sx], &t[srois], &t[sbatch], &t[sbins] };
            CHECK(dmlvk_roi_align1_desc_set_fields(&roi1, &roif));
            od = (dmlvk_operator_desc){ DMLVK_OPERATOR_ROI_ALIGN1, &roi1 };
            b.count = 4;
        } else {
            roi = (dmlvk_roi_align_grad_operator_desc){ needs_x ? &t[sx] : NULL, &t[sbins], &t[srois], &t[sbatch], &t[4],
                                                        w->roi_grad ? &t[5] : NULL };
            CHECK(dmlvk_roi_align_grad_desc_set_fields(&roi, &roif));
            od = (dmlvk_operator_desc){ DMLVK_OPERATOR_ROI_ALIGN_GRAD, &roi };
            b.count = 6;
            bufs[4] = tensor_buffer(dev, e_small, w->type, o->offset);
            if (w->roi_grad)
                bufs[5] = tensor_buffer(dev, 4 * (uint64_t)w->rois, w->type, o->offset);
        }
        if (needs_x) {
            bufs[sx] = tensor_buffer(dev, e_small, w->type, o->offset);
            fill_random(bufs[sx], o->offset, e_small, w->type, -1, 1, 5);
        }
        bufs[sbins] = tensor_buffer(dev, e_bins, w->type, o->offset);
        bufs[srois] = tensor_buffer(dev, 4 * (uint64_t)w->rois, w->type, o->offset);
        CHECK(dmlvk_buffer_create(dev, o->offset + 4 * (uint64_t)w->rois, &bufs[sbatch]));
        if (!forward)
            fill_random(bufs[sbins], o->offset, e_bins, w->type, -1, 1, 4);
        float *boxes = malloc(16 * (size_t)w->rois);
        uint32_t *batch = malloc(4 * (size_t)w->rois);
        roi_boxes(w, boxes, batch);
        if (es == 2) {
            uint16_t *h = malloc(8 * (size_t)w->rois);
            for (uint32_t i = 0; i < 4 * w->rois; i++)
                h[i] = to16(type, boxes[i]);
            CHECK(dmlvk_buffer_write(bufs[srois], o->offset, h, 8 * (uint64_t)w->rois));
            free(h);
        } else {
            CHECK(dmlvk_buffer_write(bufs[srois], o->offset, boxes, 16 * (uint64_t)w->rois));
        }
        CHECK(dmlvk_buffer_write(bufs[sbatch], o->offset, batch, 4 * (uint64_t)w->rois));
        free(boxes);
        free(batch);
        /* The floor: every tensor once, but X under the forward pass, which reads only what the
         * regions cover (a lower bound there). */
        double regions = 4.0 * w->rois * es + 4.0 * w->rois;
        if (forward)
            res->bytes = (double)e_bins * es + regions;
        else
            res->bytes = (double)(e_bins + e_small) * es + regions + (needs_x ? (double)e_small * es : 0) +
                         (w->roi_grad ? 4.0 * w->rois * es : 0);
        res->written = forward ? (double)e_bins * es : (double)e_small * es + (w->roi_grad ? 4.0 * w->rois * es : 0);
        break;
    }
    }
#undef TENSOR
    for (uint32_t i = 0; i < b.count; i++)
        if (bufs[i])
            b.bindings[i] = (dmlvk_binding){ .buffer = bufs[i], .offset = o->offset, .size = VK_WHOLE_SIZE };

    /* Pipeline creation: cold on a fresh device and cache directory, then from the disk cache. */
    res->create_cold_ms = res->create_cached_ms = -1;
    if (cache_dir) {
        char dir[8192];
        snprintf(dir, sizeof(dir), "%.4000s/%.64s", cache_dir, w->name);
        for (int pass = 0; pass < 2; pass++) {
            dmlvk_device *fresh = import_device(v, dir);
            dmlvk_operator *op;
            double t0 = now_ms();
            CHECK(dmlvk_operator_create(fresh, &od, &params, &op));
            double t1 = now_ms();
            if (pass == 0)
                res->create_cold_ms = t1 - t0;
            else
                res->create_cached_ms = t1 - t0;
            dmlvk_operator_destroy(op);
            dmlvk_device_destroy(fresh);
        }
    }
    CHECK(dmlvk_operator_create(dev, &od, &params, &b.op));
    res->ms = time_runs(v, record_op, &b, o->warmup, o->iterations);
    if (o->addresses) {
        /* Where the tensors landed: for timings that change with the allocation. */
        fprintf(stderr, "%s %.4f ms:", w->name, res->ms);
        for (uint32_t i = 0; i < b.count; i++)
            if (bufs[i])
                fprintf(stderr, " %u@0x%llx", i, (unsigned long long)address_of(v, bufs[i]));
        fprintf(stderr, "\n");
    }
    dmlvk_operator_destroy(b.op);
    for (int i = 0; i < 8; i++)
        dmlvk_buffer_destroy(bufs[i]);
}

/* The types the presets time, and the suffixes of their workloads' names. */
static const dmlvk_tensor_data_type bench_types[3] = { DMLVK_TENSOR_DATA_TYPE_FLOAT32, DMLVK_TENSOR_DATA_TYPE_FLOAT16,
                                                       DMLVK_TENSOR_DATA_TYPE_BFLOAT16 };
static const char *const bench_type_names[3] = { "f32", "f16", "bf16" };

static const char *type_suffix(dmlvk_tensor_data_type type)
{
    return bench_type_names[type == DMLVK_TENSOR_DATA_TYPE_BFLOAT16  ? 2
                            : type == DMLVK_TENSOR_DATA_TYPE_FLOAT16 ? 1
                                                                     : 0];
}

/* The sweep (issue 15): shapes a user's models would use, forward and backward, layouts, odd and
 * non-integer scales, small and large problems, ROI configurations torchvision supports and not.
 * Types past float32 only where a device has 16-bit storage. tools/bench_torch.py times PyTorch on
 * the parameters dmlvk-bench prints for each. */
static int add_sweep(struct workload *w, int n, bool f16_ok)
{
#define F32 DMLVK_TENSOR_DATA_TYPE_FLOAT32
#define F16 DMLVK_TENSOR_DATA_TYPE_FLOAT16
#define BF16 DMLVK_TENSOR_DATA_TYPE_BFLOAT16
    /* static: a local array is filled by code at each call, which GCC compiles slowly under the
     * sanitizers */
    static const struct workload list[] = {
        /* resample backward: {n, c, h, w} the forward's input, {oh, ow} its output */
        { "bilinear_grad_nhwc_2x", BILINEAR_GRAD, F32, .n = 16, .c = 256, .h = 64, .w = 64, .oh = 128, .ow = 128, .channels_last = 1 },
        { "bilinear_grad_nhwc_2x", BILINEAR_GRAD, F16, .n = 16, .c = 256, .h = 64, .w = 64, .oh = 128, .ow = 128, .channels_last = 1 },
        { "bilinear_grad_nhwc_2x", BILINEAR_GRAD, BF16, .n = 16, .c = 256, .h = 64, .w = 64, .oh = 128, .ow = 128, .channels_last = 1 },
        { "nearest_grad_nhwc_2x", NEAREST_GRAD, F32, .n = 16, .c = 256, .h = 64, .w = 64, .oh = 128, .ow = 128, .channels_last = 1 },
        { "nearest_grad_nhwc_2x", NEAREST_GRAD, F16, .n = 16, .c = 256, .h = 64, .w = 64, .oh = 128, .ow = 128, .channels_last = 1 },
        { "bilinear_grad_odd", BILINEAR_GRAD, F32, .n = 4, .c = 64, .h = 97, .w = 131, .oh = 200, .ow = 260 },
        { "bilinear_grad_odd", BILINEAR_GRAD, F16, .n = 4, .c = 64, .h = 97, .w = 131, .oh = 200, .ow = 260 },
        { "bilinear_grad_nhwc_odd", BILINEAR_GRAD, F32, .n = 4, .c = 64, .h = 97, .w = 131, .oh = 200, .ow = 260, .channels_last = 1 },
        { "bilinear_grad_nhwc_odd", BILINEAR_GRAD, F16, .n = 4, .c = 64, .h = 97, .w = 131, .oh = 200, .ow = 260, .channels_last = 1 },
        { "bilinear_grad_nhwc_odd", BILINEAR_GRAD, BF16, .n = 4, .c = 64, .h = 97, .w = 131, .oh = 200, .ow = 260, .channels_last = 1 },
        { "bilinear_grad_4x", BILINEAR_GRAD, F32, .n = 8, .c = 64, .h = 64, .w = 64, .oh = 256, .ow = 256 },
        { "bilinear_grad_4x", BILINEAR_GRAD, F16, .n = 8, .c = 64, .h = 64, .w = 64, .oh = 256, .ow = 256 },
        { "bilinear_grad_4x", BILINEAR_GRAD, BF16, .n = 8, .c = 64, .h = 64, .w = 64, .oh = 256, .ow = 256 },
        { "bilinear_grad_2x3x", BILINEAR_GRAD, F32, .n = 8, .c = 64, .h = 64, .w = 64, .oh = 128, .ow = 192 },
        { "nearest_grad_1.5x", NEAREST_GRAD, F16, .n = 8, .c = 128, .h = 96, .w = 96, .oh = 144, .ow = 144 },
        { "bilinear_grad_small", BILINEAR_GRAD, F32, .n = 1, .c = 32, .h = 32, .w = 32, .oh = 64, .ow = 64 },
        { "bilinear_grad_small", BILINEAR_GRAD, F16, .n = 1, .c = 32, .h = 32, .w = 32, .oh = 64, .ow = 64 },
        { "linear1d_grad_2x", BILINEAR_GRAD, F32, .n = 16, .c = 256, .h = 1, .w = 4096, .oh = 1, .ow = 8192, .dims = 3 },
        /* scales between the presets' (BENCHMARKS.md note 64) */
        { "bilinear_grad_1.75x", BILINEAR_GRAD, F32, .n = 16, .c = 64, .h = 128, .w = 128, .oh = 224, .ow = 224 },
        { "bilinear_grad_2.5x", BILINEAR_GRAD, F32, .n = 16, .c = 64, .h = 128, .w = 128, .oh = 320, .ow = 320 },
        { "bilinear_grad_2.5x", BILINEAR_GRAD, BF16, .n = 16, .c = 64, .h = 128, .w = 128, .oh = 320, .ow = 320 },
        { "bilinear_grad_3x", BILINEAR_GRAD, F16, .n = 16, .c = 64, .h = 128, .w = 128, .oh = 384, .ow = 384 },
        { "bilinear_grad_2x3x", BILINEAR_GRAD, BF16, .n = 8, .c = 64, .h = 64, .w = 64, .oh = 128, .ow = 192 },
        { "bilinear_grad_odd", BILINEAR_GRAD, BF16, .n = 4, .c = 64, .h = 97, .w = 131, .oh = 200, .ow = 260 },
        { "nearest_grad_odd", NEAREST_GRAD, F32, .n = 4, .c = 64, .h = 97, .w = 131, .oh = 200, .ow = 260 },
        /* downsampling (the forward's output the smaller side): the backward gathers 0-2 taps per
         * element of the larger gradient */
        { "bilinear_grad_down2x", BILINEAR_GRAD, F32, .n = 16, .c = 64, .h = 256, .w = 256, .oh = 128, .ow = 128 },
        { "bilinear_grad_down2x", BILINEAR_GRAD, F16, .n = 16, .c = 64, .h = 256, .w = 256, .oh = 128, .ow = 128 },
        { "bilinear_grad_down2x", BILINEAR_GRAD, BF16, .n = 16, .c = 64, .h = 256, .w = 256, .oh = 128, .ow = 128 },
        { "bilinear_grad_nhwc_down2x", BILINEAR_GRAD, F32, .n = 16, .c = 256, .h = 128, .w = 128, .oh = 64, .ow = 64, .channels_last = 1 },
        { "bilinear_grad_nhwc_down2x", BILINEAR_GRAD, F16, .n = 16, .c = 256, .h = 128, .w = 128, .oh = 64, .ow = 64, .channels_last = 1 },
        { "bilinear_grad_down3x", BILINEAR_GRAD, F32, .n = 8, .c = 64, .h = 384, .w = 384, .oh = 128, .ow = 128 },
        { "bilinear_grad_down_odd", BILINEAR_GRAD, F32, .n = 4, .c = 64, .h = 200, .w = 260, .oh = 97, .ow = 131 },
        { "bilinear_grad_down_odd", BILINEAR_GRAD, F16, .n = 4, .c = 64, .h = 200, .w = 260, .oh = 97, .ow = 131 },
        { "nearest_grad_down2x", NEAREST_GRAD, F32, .n = 16, .c = 64, .h = 256, .w = 256, .oh = 128, .ow = 128 },
        { "nearest_grad_down2x", NEAREST_GRAD, F16, .n = 16, .c = 64, .h = 256, .w = 256, .oh = 128, .ow = 128 },
        /* resample forward */
        { "bilinear_2x", BILINEAR, F32, .n = 32, .c = 64, .h = 128, .w = 128, .oh = 256, .ow = 256 },
        { "bilinear_2x", BILINEAR, F16, .n = 32, .c = 64, .h = 128, .w = 128, .oh = 256, .ow = 256 },
        { "bilinear_2x", BILINEAR, BF16, .n = 32, .c = 64, .h = 128, .w = 128, .oh = 256, .ow = 256 },
        { "nearest_2x", NEAREST, F32, .n = 32, .c = 64, .h = 128, .w = 128, .oh = 256, .ow = 256 },
        { "nearest_2x", NEAREST, F16, .n = 32, .c = 64, .h = 128, .w = 128, .oh = 256, .ow = 256 },
        { "bilinear_nhwc_2x", BILINEAR, F32, .n = 16, .c = 256, .h = 64, .w = 64, .oh = 128, .ow = 128, .channels_last = 1 },
        { "bilinear_nhwc_2x", BILINEAR, F16, .n = 16, .c = 256, .h = 64, .w = 64, .oh = 128, .ow = 128, .channels_last = 1 },
        { "nearest_nhwc_2x", NEAREST, F16, .n = 16, .c = 256, .h = 64, .w = 64, .oh = 128, .ow = 128, .channels_last = 1 },
        { "bilinear_odd", BILINEAR, F32, .n = 4, .c = 64, .h = 97, .w = 131, .oh = 200, .ow = 260 },
        { "bilinear_odd", BILINEAR, F16, .n = 4, .c = 64, .h = 97, .w = 131, .oh = 200, .ow = 260 },
        { "bilinear_odd", BILINEAR, BF16, .n = 4, .c = 64, .h = 97, .w = 131, .oh = 200, .ow = 260 },
        { "linear1d_2x", BILINEAR, F32, .n = 16, .c = 256, .h = 1, .w = 4096, .oh = 1, .ow = 8192, .dims = 3 },
        { "bilinear_down2x", BILINEAR, F32, .n = 16, .c = 64, .h = 256, .w = 256, .oh = 128, .ow = 128 },
        { "bilinear_down2x", BILINEAR, F16, .n = 16, .c = 64, .h = 256, .w = 256, .oh = 128, .ow = 128 },
        { "bilinear_nhwc_down2x", BILINEAR, F16, .n = 16, .c = 256, .h = 128, .w = 128, .oh = 64, .ow = 64, .channels_last = 1 },
        { "bilinear_down_odd", BILINEAR, F32, .n = 4, .c = 64, .h = 200, .w = 260, .oh = 97, .ow = 131 },
        { "bilinear_down_odd", BILINEAR, F16, .n = 4, .c = 64, .h = 200, .w = 260, .oh = 97, .ow = 131 },
        { "bilinear_down_odd", BILINEAR, BF16, .n = 4, .c = 64, .h = 200, .w = 260, .oh = 97, .ow = 131 },
        /* odd output widths: no 4-element stores (BENCHMARKS.md note 123) */
        { "bilinear_odd_width", BILINEAR, F16, .n = 4, .c = 64, .h = 97, .w = 131, .oh = 200, .ow = 261 },
        { "bilinear_odd_width", BILINEAR, F32, .n = 4, .c = 64, .h = 97, .w = 131, .oh = 200, .ow = 261 },
        { "bilinear_odd_width", BILINEAR, BF16, .n = 4, .c = 64, .h = 97, .w = 131, .oh = 200, .ow = 261 },
        { "nearest_odd_width", NEAREST, F32, .n = 4, .c = 64, .h = 97, .w = 131, .oh = 200, .ow = 261 },
        { "bilinear_down2x_odd_width", BILINEAR, F16, .n = 16, .c = 64, .h = 256, .w = 262, .oh = 128, .ow = 131 },
        { "bilinear_down3x_odd_width", BILINEAR, F16, .n = 8, .c = 64, .h = 384, .w = 393, .oh = 128, .ow = 131 },
        { "bilinear_down4x", BILINEAR, F32, .n = 2, .c = 64, .h = 512, .w = 512, .oh = 128, .ow = 128 },
        { "bilinear_down4x", BILINEAR, F16, .n = 2, .c = 64, .h = 512, .w = 512, .oh = 128, .ow = 128 },
        { "bilinear_down3x", BILINEAR, F32, .n = 8, .c = 64, .h = 384, .w = 384, .oh = 128, .ow = 128 },
        { "nearest_down4x", NEAREST, F32, .n = 2, .c = 64, .h = 512, .w = 512, .oh = 128, .ow = 128 },
        { "nearest_down2x", NEAREST, F16, .n = 16, .c = 64, .h = 256, .w = 256, .oh = 128, .ow = 128 },
        /* 16-bit upsampling at other scales than 2x (a 4x decoder head, 1.5x): where 4x4 blocks would
         * store whole rows, 8x4 (BENCHMARKS.md notes 129, 134) */
        { "bilinear_4x", BILINEAR, F16, .n = 8, .c = 64, .h = 64, .w = 64, .oh = 256, .ow = 256 },
        { "bilinear_4x", BILINEAR, BF16, .n = 8, .c = 64, .h = 64, .w = 64, .oh = 256, .ow = 256 },
        { "bilinear_1.5x", BILINEAR, F16, .n = 16, .c = 64, .h = 128, .w = 128, .oh = 192, .ow = 192 },
        /* ROI align backward (AVERAGE unless named) and forward; regions drawn like the presets' */
        { "roi_align_grad_14x14_unaligned_small_map", ROI_ALIGN_GRAD, F32, .n = 2, .c = 256, .h = 50, .w = 76, .oh = 14, .ow = 14, .rois = 256, .samples = 2, .spatial_scale = 0.0625f, .aligned_false = 1 },
        { "roi_align_grad_14x14_unaligned_small_map", ROI_ALIGN_GRAD, F16, .n = 2, .c = 256, .h = 50, .w = 76, .oh = 14, .ow = 14, .rois = 256, .samples = 2, .spatial_scale = 0.0625f, .aligned_false = 1 },
        { "roi_align_grad_7x7_4096_regions", ROI_ALIGN_GRAD, F32, .n = 8, .c = 256, .h = 64, .w = 64, .oh = 7, .ow = 7, .rois = 4096, .samples = 2, .spatial_scale = 0.125f },
        { "roi_align_grad_7x7_4096_regions", ROI_ALIGN_GRAD, F16, .n = 8, .c = 256, .h = 64, .w = 64, .oh = 7, .ow = 7, .rois = 4096, .samples = 2, .spatial_scale = 0.125f },
        { "roi_align_grad_7x7_4096_regions", ROI_ALIGN_GRAD, BF16, .n = 8, .c = 256, .h = 64, .w = 64, .oh = 7, .ow = 7, .rois = 4096, .samples = 2, .spatial_scale = 0.125f },
        { "roi_align_grad_7x7_64_regions_tiny_map", ROI_ALIGN_GRAD, F32, .n = 1, .c = 256, .h = 25, .w = 38, .oh = 7, .ow = 7, .rois = 64, .samples = 2, .spatial_scale = 0.03125f },
        { "roi_align_grad_7x7_64_regions_tiny_map", ROI_ALIGN_GRAD, F16, .n = 1, .c = 256, .h = 25, .w = 38, .oh = 7, .ow = 7, .rois = 64, .samples = 2, .spatial_scale = 0.03125f },
        { "roi_align_grad_7x7_64_regions_tiny_map", ROI_ALIGN_GRAD, BF16, .n = 1, .c = 256, .h = 25, .w = 38, .oh = 7, .ow = 7, .rois = 64, .samples = 2, .spatial_scale = 0.03125f },
        { "roi_align_grad_7x7_adaptive_mid_map", ROI_ALIGN_GRAD, F32, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 0, .spatial_scale = 0.125f },
        { "roi_align_grad_max_7x7", ROI_ALIGN_GRAD, F32, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.125f, .maximum = 1 },
        { "roi_align_grad_max_7x7_det", ROI_ALIGN_GRAD, F32, .deterministic = 1, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.125f, .maximum = 1 },
        { "roi_align_grad_avg_7x7_same_shape", ROI_ALIGN_GRAD, F32, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.125f },
        /* The forward on the MAX rows' shape: under MAX the backward must find each bin's winner,
         * which is the forward's search (BENCHMARKS.md note 161) */
        { "roi_align1_max_7x7_same_shape", ROI_ALIGN1, F32, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.125f, .maximum = 1 },
        { "roi_align1_7x7_same_shape", ROI_ALIGN1, F32, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.125f },
        { "roi_align_grad_7x7_with_roi_gradient", ROI_ALIGN_GRAD, F32, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.125f, .roi_grad = 1 },
        { "roi_align_grad_avg_7x7_same_shape", ROI_ALIGN_GRAD, F16, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.125f },
        { "roi_align_grad_7x7_with_roi_gradient", ROI_ALIGN_GRAD, F16, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.125f, .roi_grad = 1 },
        { "roi_align_grad_avg_7x7_same_shape", ROI_ALIGN_GRAD, BF16, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.125f },
        { "roi_align_grad_7x7_with_roi_gradient", ROI_ALIGN_GRAD, BF16, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.125f, .roi_grad = 1 },
        /* The ROI gradient beside the input gradient on the other shapes (names within 50 characters) */
        { "roi_align_grad_14x14_small_map_roi_gradient", ROI_ALIGN_GRAD, F16, .n = 2, .c = 256, .h = 50, .w = 76, .oh = 14, .ow = 14, .rois = 256, .samples = 2, .spatial_scale = 0.0625f, .aligned_false = 1, .roi_grad = 1 },
        { "roi_align_grad_7x7_4096_regions_roi_gradient", ROI_ALIGN_GRAD, F32, .n = 8, .c = 256, .h = 64, .w = 64, .oh = 7, .ow = 7, .rois = 4096, .samples = 2, .spatial_scale = 0.125f, .roi_grad = 1 },
        { "roi_align_grad_7x7_tiny_map_roi_gradient", ROI_ALIGN_GRAD, F32, .n = 1, .c = 256, .h = 25, .w = 38, .oh = 7, .ow = 7, .rois = 64, .samples = 2, .spatial_scale = 0.03125f, .roi_grad = 1 },
        { "roi_align_grad_7x7_adaptive_mid_map_roi_gradient", ROI_ALIGN_GRAD, F32, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 0, .spatial_scale = 0.125f, .roi_grad = 1 },
        /* Corners of issue 15's range that the rows above leave out: 14x14 bins, many regions and
         * adaptive sampling on the tiny map; many and few regions on the presets' large map */
        { "roi_align_grad_14x14_64_regions_tiny_map", ROI_ALIGN_GRAD, F32, .n = 1, .c = 256, .h = 25, .w = 38, .oh = 14, .ow = 14, .rois = 64, .samples = 2, .spatial_scale = 0.03125f },
        { "roi_align_grad_14x14_64_regions_tiny_map", ROI_ALIGN_GRAD, F16, .n = 1, .c = 256, .h = 25, .w = 38, .oh = 14, .ow = 14, .rois = 64, .samples = 2, .spatial_scale = 0.03125f },
        { "roi_align_grad_7x7_1024_regions_tiny_map", ROI_ALIGN_GRAD, F32, .n = 1, .c = 256, .h = 25, .w = 38, .oh = 7, .ow = 7, .rois = 1024, .samples = 2, .spatial_scale = 0.03125f },
        { "roi_align_grad_7x7_1024_regions_tiny_map", ROI_ALIGN_GRAD, F16, .n = 1, .c = 256, .h = 25, .w = 38, .oh = 7, .ow = 7, .rois = 1024, .samples = 2, .spatial_scale = 0.03125f },
        { "roi_align_grad_7x7_adaptive_tiny_map", ROI_ALIGN_GRAD, F32, .n = 1, .c = 256, .h = 25, .w = 38, .oh = 7, .ow = 7, .rois = 64, .samples = 0, .spatial_scale = 0.03125f },
        { "roi_align_grad_7x7_4096_regions_large_map", ROI_ALIGN_GRAD, F32, .n = 2, .c = 256, .h = 200, .w = 304, .oh = 7, .ow = 7, .rois = 4096, .samples = 2, .spatial_scale = 0.25f },
        { "roi_align_grad_7x7_64_regions_large_map", ROI_ALIGN_GRAD, F32, .n = 2, .c = 256, .h = 200, .w = 304, .oh = 7, .ow = 7, .rois = 64, .samples = 2, .spatial_scale = 0.25f },
        /* An FPN's largest level, which gets few of the regions: between the 64 above and the presets' 512 */
        { "roi_align_grad_7x7_128_regions_large_map", ROI_ALIGN_GRAD, F32, .n = 2, .c = 256, .h = 200, .w = 304, .oh = 7, .ow = 7, .rois = 128, .samples = 2, .spatial_scale = 0.25f },
        { "roi_align_grad_7x7_256_regions_large_map", ROI_ALIGN_GRAD, F32, .n = 2, .c = 256, .h = 200, .w = 304, .oh = 7, .ow = 7, .rois = 256, .samples = 2, .spatial_scale = 0.25f },
        /* Maps whose rows are no multiple of 16 bytes (182 floats, 117 halves), drawn by the random
         * preset (run 81's rnd061 and rnd056; BENCHMARKS.md note 169) */
        { "roi_align_grad_7x7_70_regions_rows_off_16_bytes", ROI_ALIGN_GRAD, F32, .n = 4, .c = 256, .h = 130, .w = 182, .oh = 7, .ow = 7, .rois = 70, .samples = 2, .spatial_scale = 0.0625f, .aligned_false = 1 },
        { "roi_align_grad_7x7_197_regions_rows_off_16_bytes", ROI_ALIGN_GRAD, F16, .n = 4, .c = 512, .h = 84, .w = 117, .oh = 7, .ow = 7, .rois = 197, .samples = 2, .spatial_scale = 0.125f, .aligned_false = 1 },
        { "roi_align1_7x7", ROI_ALIGN1, F32, .n = 2, .c = 256, .h = 200, .w = 304, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.25f },
        { "roi_align1_7x7", ROI_ALIGN1, F16, .n = 2, .c = 256, .h = 200, .w = 304, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.25f },
        { "roi_align1_7x7", ROI_ALIGN1, BF16, .n = 2, .c = 256, .h = 200, .w = 304, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.25f },
        { "roi_align1_14x14_4096_regions", ROI_ALIGN1, F32, .n = 8, .c = 256, .h = 64, .w = 64, .oh = 14, .ow = 14, .rois = 4096, .samples = 2, .spatial_scale = 0.125f },
        /* Channels-last input, bins and input gradient, as a host with NHWC tensors hands them
         * (PyTorch's side runs NCHW: torchvision makes its inputs contiguous) */
        { "roi_align_grad_7x7_nhwc", ROI_ALIGN_GRAD, F32, .n = 2, .c = 256, .h = 200, .w = 304, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.25f, .channels_last = 1 },
        { "roi_align_grad_7x7_nhwc", ROI_ALIGN_GRAD, F16, .n = 2, .c = 256, .h = 200, .w = 304, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.25f, .channels_last = 1 },
        { "roi_align_grad_avg_7x7_same_shape_nhwc", ROI_ALIGN_GRAD, F32, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.125f, .channels_last = 1 },
        { "roi_align_grad_avg_7x7_same_shape_nhwc", ROI_ALIGN_GRAD, F16, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.125f, .channels_last = 1 },
        { "roi_align_grad_7x7_with_roi_gradient_nhwc", ROI_ALIGN_GRAD, F32, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.125f, .roi_grad = 1, .channels_last = 1 },
        { "roi_align_grad_7x7_with_roi_gradient_nhwc", ROI_ALIGN_GRAD, F16, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.125f, .roi_grad = 1, .channels_last = 1 },
        { "roi_align1_max_7x7_nhwc", ROI_ALIGN1, F32, .n = 2, .c = 256, .h = 200, .w = 304, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.25f, .maximum = 1, .channels_last = 1 },
        { "roi_align_grad_max_7x7_nhwc", ROI_ALIGN_GRAD, F32, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.125f, .maximum = 1, .channels_last = 1 },
        { "roi_align1_7x7_nhwc", ROI_ALIGN1, F32, .n = 2, .c = 256, .h = 200, .w = 304, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.25f, .channels_last = 1 },
        { "roi_align1_7x7_nhwc", ROI_ALIGN1, F16, .n = 2, .c = 256, .h = 200, .w = 304, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.25f, .channels_last = 1 },
        { "roi_align1_14x14_4096_regions_nhwc", ROI_ALIGN1, F32, .n = 8, .c = 256, .h = 64, .w = 64, .oh = 14, .ow = 14, .rois = 4096, .samples = 2, .spatial_scale = 0.125f, .channels_last = 1 },
        { "roi_align1_max_7x7", ROI_ALIGN1, F32, .n = 2, .c = 256, .h = 200, .w = 304, .oh = 7, .ow = 7, .rois = 512, .samples = 2, .spatial_scale = 0.25f, .maximum = 1 },
        /* Layers of other models, added untimed and untuned (session 57): RGB images channels-last
         * (3 channels: no 16-byte channel groups), a mobile net's 32 channels, an FPN's top level,
         * non-integer scales, a large batch of small maps, short 1-D rows, a mask head's 14x14
         * bins, many adaptive regions on a small map, ROI_ALIGN1 in float16 on the same */
        { "bilinear_grad_nhwc_c3_2x", BILINEAR_GRAD, F32, .n = 8, .c = 3, .h = 256, .w = 256, .oh = 512, .ow = 512, .channels_last = 1 },
        { "bilinear_grad_nhwc_c3_2x", BILINEAR_GRAD, F16, .n = 8, .c = 3, .h = 256, .w = 256, .oh = 512, .ow = 512, .channels_last = 1 },
        { "nearest_grad_nhwc_c3_2x", NEAREST_GRAD, F32, .n = 8, .c = 3, .h = 256, .w = 256, .oh = 512, .ow = 512, .channels_last = 1 },
        { "bilinear_grad_nhwc_c32_2x", BILINEAR_GRAD, F16, .n = 16, .c = 32, .h = 64, .w = 64, .oh = 128, .ow = 128, .channels_last = 1 },
        { "bilinear_grad_fpn_top_2x", BILINEAR_GRAD, F16, .n = 8, .c = 256, .h = 13, .w = 20, .oh = 26, .ow = 40 },
        { "bilinear_grad_fpn_top_2x", BILINEAR_GRAD, F32, .n = 8, .c = 256, .h = 13, .w = 20, .oh = 26, .ow = 40 },
        { "bilinear_grad_1.3x", BILINEAR_GRAD, F32, .n = 8, .c = 64, .h = 100, .w = 100, .oh = 130, .ow = 130 },
        { "bilinear_grad_1.3x", BILINEAR_GRAD, BF16, .n = 8, .c = 64, .h = 100, .w = 100, .oh = 130, .ow = 130 },
        { "bilinear_grad_down0.7x", BILINEAR_GRAD, F32, .n = 8, .c = 64, .h = 130, .w = 130, .oh = 91, .ow = 91 },
        { "bilinear_grad_batch256_8x8", BILINEAR_GRAD, F32, .n = 256, .c = 64, .h = 8, .w = 8, .oh = 16, .ow = 16 },
        { "bilinear_grad_batch256_8x8", BILINEAR_GRAD, F16, .n = 256, .c = 64, .h = 8, .w = 8, .oh = 16, .ow = 16 },
        { "bilinear_grad_batch256_8x8", BILINEAR_GRAD, BF16, .n = 256, .c = 64, .h = 8, .w = 8, .oh = 16, .ow = 16 },
        { "bilinear_grad_batch1024_4x4", BILINEAR_GRAD, F16, .n = 1024, .c = 64, .h = 4, .w = 4, .oh = 8, .ow = 8 },
        { "nearest_grad_batch256_8x8", NEAREST_GRAD, F16, .n = 256, .c = 64, .h = 8, .w = 8, .oh = 16, .ow = 16 },
        { "linear1d_grad_short_rows", BILINEAR_GRAD, F32, .n = 64, .c = 256, .h = 1, .w = 50, .oh = 1, .ow = 100, .dims = 3 },
        { "bilinear_nhwc_c3_2x", BILINEAR, F32, .n = 8, .c = 3, .h = 256, .w = 256, .oh = 512, .ow = 512, .channels_last = 1 },
        { "bilinear_nhwc_c3_2x", BILINEAR, F16, .n = 8, .c = 3, .h = 256, .w = 256, .oh = 512, .ow = 512, .channels_last = 1 },
        { "nearest_nhwc_c32_2x", NEAREST, F16, .n = 16, .c = 32, .h = 64, .w = 64, .oh = 128, .ow = 128, .channels_last = 1 },
        { "bilinear_fpn_top_2x", BILINEAR, F16, .n = 8, .c = 256, .h = 13, .w = 20, .oh = 26, .ow = 40 },
        { "bilinear_1.3x", BILINEAR, F32, .n = 8, .c = 64, .h = 100, .w = 100, .oh = 130, .ow = 130 },
        { "bilinear_batch256_8x8", BILINEAR, F16, .n = 256, .c = 64, .h = 8, .w = 8, .oh = 16, .ow = 16 },
        { "bilinear_batch256_8x8", BILINEAR, BF16, .n = 256, .c = 64, .h = 8, .w = 8, .oh = 16, .ow = 16 },
        { "bilinear_batch1024_4x4", BILINEAR, F16, .n = 1024, .c = 64, .h = 4, .w = 4, .oh = 8, .ow = 8 },
        { "linear1d_short_rows", BILINEAR, F32, .n = 64, .c = 256, .h = 1, .w = 50, .oh = 1, .ow = 100, .dims = 3 },
        { "roi_align_grad_14x14_mask_head", ROI_ALIGN_GRAD, F32, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 14, .ow = 14, .rois = 200, .samples = 2, .spatial_scale = 0.125f },
        { "roi_align_grad_14x14_mask_head", ROI_ALIGN_GRAD, F16, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 14, .ow = 14, .rois = 200, .samples = 2, .spatial_scale = 0.125f },
        { "roi_align_grad_7x7_1000_adaptive_small_map", ROI_ALIGN_GRAD, F16, .n = 2, .c = 256, .h = 50, .w = 76, .oh = 7, .ow = 7, .rois = 1000, .samples = 0, .spatial_scale = 0.0625f },
        { "roi_align_grad_7x7_1000_adaptive_small_map", ROI_ALIGN_GRAD, F32, .n = 2, .c = 256, .h = 50, .w = 76, .oh = 7, .ow = 7, .rois = 1000, .samples = 0, .spatial_scale = 0.0625f },
        { "roi_align1_7x7_1000_adaptive_small_map", ROI_ALIGN1, F16, .n = 2, .c = 256, .h = 50, .w = 76, .oh = 7, .ow = 7, .rois = 1000, .samples = 0, .spatial_scale = 0.0625f },
        { "roi_align1_14x14_mask_head", ROI_ALIGN1, F32, .n = 2, .c = 256, .h = 100, .w = 152, .oh = 14, .ow = 14, .rois = 200, .samples = 2, .spatial_scale = 0.125f },
        /* Other memory orders (issue 15's "any layout"): height fastest (a transposed view), batch
         * fastest; and a volume's three scaled axes (3-D U-Nets: {N, D, H, W}, PyTorch's trilinear) */
        { "bilinear_grad_ncwh_2x", BILINEAR_GRAD, F32, .n = 8, .c = 64, .h = 128, .w = 128, .oh = 256, .ow = 256, .layout = LAYOUT_NCWH },
        { "bilinear_grad_ncwh_2x", BILINEAR_GRAD, F16, .n = 8, .c = 64, .h = 128, .w = 128, .oh = 256, .ow = 256, .layout = LAYOUT_NCWH },
        { "bilinear_ncwh_2x", BILINEAR, F16, .n = 8, .c = 64, .h = 128, .w = 128, .oh = 256, .ow = 256, .layout = LAYOUT_NCWH },
        { "bilinear_grad_chwn_2x", BILINEAR_GRAD, F32, .n = 16, .c = 32, .h = 128, .w = 128, .oh = 256, .ow = 256, .layout = LAYOUT_CHWN },
        { "trilinear_grad_2x", BILINEAR_GRAD, F32, .n = 8, .c = 32, .h = 64, .w = 64, .oc = 64, .oh = 128, .ow = 128 },
        { "trilinear_grad_2x", BILINEAR_GRAD, F16, .n = 8, .c = 32, .h = 64, .w = 64, .oc = 64, .oh = 128, .ow = 128 },
        { "trilinear_2x", BILINEAR, F32, .n = 8, .c = 32, .h = 64, .w = 64, .oc = 64, .oh = 128, .ow = 128 },
        /* More volumes (session 59): float16 forward, a non-integer scale, the backward of a
         * downscale (the read side smaller) */
        { "trilinear_2x", BILINEAR, F16, .n = 8, .c = 32, .h = 64, .w = 64, .oc = 64, .oh = 128, .ow = 128 },
        { "trilinear_grad_1.5x", BILINEAR_GRAD, F32, .n = 16, .c = 32, .h = 64, .w = 64, .oc = 48, .oh = 96, .ow = 96 },
        { "trilinear_1.5x", BILINEAR, F32, .n = 16, .c = 32, .h = 64, .w = 64, .oc = 48, .oh = 96, .ow = 96 },
        { "trilinear_grad_down2x", BILINEAR_GRAD, F32, .n = 8, .c = 64, .h = 128, .w = 128, .oc = 32, .oh = 64, .ow = 64 },
        { "nearest3d_grad_2x", NEAREST_GRAD, F16, .n = 8, .c = 32, .h = 64, .w = 64, .oc = 64, .oh = 128, .ow = 128 },
        { "trilinear_grad_2x", BILINEAR_GRAD, BF16, .n = 8, .c = 32, .h = 64, .w = 64, .oc = 64, .oh = 128, .ow = 128 },
        { "trilinear_grad_1.5x", BILINEAR_GRAD, F16, .n = 16, .c = 32, .h = 64, .w = 64, .oc = 48, .oh = 96, .ow = 96 },
        { "trilinear_1.5x", BILINEAR, F16, .n = 16, .c = 32, .h = 64, .w = 64, .oc = 48, .oh = 96, .ow = 96 },
        { "trilinear_down2x", BILINEAR, F32, .n = 8, .c = 64, .h = 128, .w = 128, .oc = 32, .oh = 64, .ow = 64 },
        { "nearest3d_2x", NEAREST, F16, .n = 8, .c = 32, .h = 64, .w = 64, .oc = 64, .oh = 128, .ow = 128 },
        /* Few channels-last channels beyond RGB (session 58): an optical-flow network's 2-channel
         * flow upsampled 4x (PWC-Net, its training pass too), an image pyramid's RGB level halved,
         * RGBA in float16 (4 channels: no 16-byte group of a 16-bit type) */
        { "bilinear_nhwc_c2_flow_4x", BILINEAR, F32, .n = 8, .c = 2, .h = 96, .w = 128, .oh = 384, .ow = 512, .channels_last = 1 },
        { "bilinear_grad_nhwc_c2_flow_4x", BILINEAR_GRAD, F32, .n = 8, .c = 2, .h = 96, .w = 128, .oh = 384, .ow = 512, .channels_last = 1 },
        { "bilinear_nhwc_c3_down2x", BILINEAR, F32, .n = 8, .c = 3, .h = 512, .w = 512, .oh = 256, .ow = 256, .channels_last = 1 },
        { "bilinear_nhwc_c3_down2x", BILINEAR, F16, .n = 8, .c = 3, .h = 512, .w = 512, .oh = 256, .ow = 256, .channels_last = 1 },
        { "bilinear_nhwc_c4_2x", BILINEAR, F16, .n = 8, .c = 4, .h = 256, .w = 256, .oh = 512, .ow = 512, .channels_last = 1 },
        { "bilinear_grad_nhwc_c4_2x", BILINEAR_GRAD, F16, .n = 8, .c = 4, .h = 256, .w = 256, .oh = 512, .ow = 512, .channels_last = 1 },
        /* Channels-last class logits that make no whole 16-byte groups (session 72, BENCHMARKS.md
         * note 174): a segmentation head's ADE20K 150 classes upsampled 4x, and Cityscapes' 19 in
         * float32 (not few there), forward and training pass */
        { "bilinear_nhwc_seg150_4x", BILINEAR, F16, .n = 2, .c = 150, .h = 128, .w = 128, .oh = 512, .ow = 512, .channels_last = 1 },
        { "bilinear_grad_nhwc_seg150_4x", BILINEAR_GRAD, F16, .n = 2, .c = 150, .h = 128, .w = 128, .oh = 512, .ow = 512, .channels_last = 1 },
        { "bilinear_nhwc_seg19_4x", BILINEAR, F32, .n = 2, .c = 19, .h = 128, .w = 256, .oh = 512, .ow = 1024, .channels_last = 1 },
        { "bilinear_grad_nhwc_seg19_4x", BILINEAR_GRAD, F32, .n = 2, .c = 19, .h = 128, .w = 256, .oh = 512, .ow = 1024, .channels_last = 1 },
        /* ReLU forward */
        { "relu", RELU, F32, .n = 1u << 28 },
        { "relu", RELU, F16, .n = 1u << 28 },
        { "relu", RELU, BF16, .n = 1u << 28 },
        /* ReLU on channels-last tensors (PyTorch's channels_last models): 2^28 elements as above */
        { "relu_nhwc", RELU, F32, .n = 64, .c = 256, .h = 128, .w = 128, .channels_last = 1 },
        { "relu_grad_nhwc", RELU_GRAD, F32, .n = 64, .c = 256, .h = 128, .w = 128, .channels_last = 1 },
        { "relu_grad_nhwc", RELU_GRAD, F16, .n = 64, .c = 256, .h = 128, .w = 128, .channels_last = 1 },
    };
    _Static_assert(sizeof(list) / sizeof(list[0]) <= MAX_WORKLOADS, "the sweep outgrew MAX_WORKLOADS");
    for (size_t i = 0; i < sizeof(list) / sizeof(list[0]); i++) {
        struct workload x = list[i];
        if (x.type != F32 && !f16_ok)
            continue;
        snprintf(x.name, sizeof(x.name), "%.50s_%s", list[i].name, type_suffix(x.type));
        w[n++] = x;
    }
#undef F32
#undef F16
#undef BF16
    return n;
}

/* One result with the workload's parameters, from which tools/bench_torch.py builds PyTorch's. */
static void print_json_result(const struct workload *w, const struct result *r, double gbps, double ceiling, bool more)
{
    const char *type = "?";
    dmlvk_enum_get_name(DMLVK_ENUM_TENSOR_DATA_TYPE, (uint32_t)w->type, &type);
    printf("  {\"name\": \"%s\", \"ms\": %.5f, \"bytes\": %.0f, \"gbps\": %.1f, \"fraction_of_copy\": %.3f, "
           "\"same_size_copy_gbps\": %.1f, \"fraction_of_same_size_copy\": %.3f, \"written_bytes\": %.0f, "
           "\"same_mix_copy_gbps\": %.1f, \"fraction_of_same_mix_copy\": %.3f, \"create_cold_ms\": %.2f, "
           "\"create_cached_ms\": %.2f,\n   \"params\": {\"kind\": \"%s\", \"type\": \"%s\", "
           "\"n\": %u, \"c\": %u, \"h\": %u, \"w\": %u, \"oh\": %u, \"ow\": %u, \"dims\": %u, \"channels_last\": %d, "
           "\"rois\": %u, \"samples\": %u, \"spatial_scale\": %.9g, \"huge\": %d, \"maximum\": %d, \"roi_grad\": %d, "
           "\"aligned\": %d, \"deterministic\": %d, \"layout\": \"%s\", \"oc\": %u}}%s\n",
           w->name, r->ms, r->bytes, gbps, gbps / ceiling, r->same_size_gbps,
           r->same_size_gbps > 0 ? gbps / r->same_size_gbps : 0.0, r->written,
           r->same_mix_gbps, r->same_mix_gbps > 0 ? gbps / r->same_mix_gbps : 0.0, r->create_cold_ms,
           r->create_cached_ms, kind_names[w->kind], type, w->n, w->c, w->h, w->w, w->oh, w->ow,
           w->dims ? w->dims : 4, w->channels_last, w->rois, w->samples, w->spatial_scale, w->huge, w->maximum,
           w->roi_grad, !w->aligned_false, w->deterministic, layout_names[w->layout], w->oc ? w->oc : w->c,
           more ? "," : "");
}

/* 2^(k / 16), k from 0 to 15: the shapes' draws use exact arithmetic only (no libm), so that
 * every machine draws the same shapes from a seed. */
static const double octave_sixteenths[16] = {
    1.0, 1.0442737824274138, 1.0905077326652577, 1.1387886347566916, 1.189207115002721, 1.241857812073484,
    1.2968395546510096, 1.3542555469368927, 1.4142135623730951, 1.4768261459394993, 1.5422108254079407,
    1.6104903319492543, 1.681792830507429, 1.7562521603732995, 1.8340080864093424, 1.9152065613971474,
};

/* 2^(k / 16). */
static double exp2_sixteenths(uint32_t k)
{
    return ldexp(octave_sixteenths[k % 16], (int)(k / 16));
}

/* A value between lo and hi drawn uniformly on a log scale, in steps of 2^(1/8). */
static uint32_t log_uniform(uint64_t *s, uint32_t lo, uint32_t hi)
{
    uint32_t steps = 0;
    while (exp2_sixteenths(2 * steps) * lo < hi)
        steps++;
    double v = exp2_sixteenths(2 * (uint32_t)(splitmix64_next(s) % (steps + 1))) * lo + 0.5;
    return v > hi ? hi : (uint32_t)v;
}

/* size * 2^(k / 16 - 2), rounded, at least 1: scales from 1/4 (k = 0) to 4 (k = 64). */
static uint32_t scaled(uint32_t size, uint32_t k)
{
    double v = exp2_sixteenths(k) / 4 * size + 0.5;
    return v < 1 ? 1 : (uint32_t)v;
}

/* One of n choices, uniformly. */
static uint32_t pick(uint64_t *s, uint32_t n)
{
    return (uint32_t)(splitmix64_next(s) % n);
}

/* A resample workload's name in --preset random's form: "rnd" and its index first where `index`
 * is not negative, the forward's input sizes, then its output's (a gradient's written tensor
 * first). --shape reads names back by printing what it parsed and comparing. */
static void resample_name(struct workload *x, int index)
{
    char prefix[16] = "";
    if (index >= 0)
        snprintf(prefix, sizeof(prefix), "rnd%03d_", index);
    snprintf(x->name, sizeof(x->name), "%s%s_%s%s_%ux%ux%ux%u_%ux%u", prefix, kind_names[x->kind],
             type_suffix(x->type), x->channels_last ? "_nhwc" : "", x->n, x->c, x->h, x->w, x->oh, x->ow);
}

/* --preset random: `count` workloads drawn from `seed` over the space issue 15's targets cover:
 * resample forward and backward (bilinear, nearest; NCHW and NHWC; 4-D and 1-D; integer,
 * non-integer, down- and per-axis scales; 1 to 512 channels) and ROI align AVERAGE forward and
 * backward (64 to 4096 regions, 7x7 or 14x14 bins, fixed and adaptive sampling, aligned or not,
 * maps of 25 to 200 rows), every type, each between 1 and 512 MiB of tensors, so that claims of
 * "every shape" meet shapes nobody tuned for. */
static int add_random(struct workload *w, int n, bool f16_ok, uint64_t seed, int count)
{
    uint64_t s = seed;
    for (int i = 0; i < count; i++) {
        struct workload x;
        uint64_t bytes;
        uint32_t ti;
        do {
            x = (struct workload){ .kind = pick(&s, 2) ? (pick(&s, 3) ? BILINEAR_GRAD : NEAREST_GRAD)
                                                       : (pick(&s, 3) ? BILINEAR : NEAREST) };
            if (pick(&s, 5) < 2)
                x.kind = pick(&s, 3) ? ROI_ALIGN_GRAD : ROI_ALIGN1;
            ti = f16_ok ? pick(&s, 3) : 0;
            x.type = bench_types[ti];
            uint64_t elements;
            if (x.kind == ROI_ALIGN_GRAD || x.kind == ROI_ALIGN1) {
                static const uint32_t batches[4] = { 1, 2, 4, 8 }, channels[5] = { 64, 128, 256, 256, 512 };
                static const uint32_t samples[5] = { 0, 1, 2, 2, 4 };
                static const float scales[4] = { 0.25f, 0.125f, 0.0625f, 0.03125f };
                x.n = batches[pick(&s, 4)];
                x.c = channels[pick(&s, 5)];
                x.h = log_uniform(&s, 25, 200);
                x.w = x.h + x.h * pick(&s, 7) / 10;
                x.oh = x.ow = pick(&s, 5) < 3 ? 7 : 14;
                x.rois = log_uniform(&s, 64, 4096);
                x.samples = samples[pick(&s, 5)];
                x.spatial_scale = scales[pick(&s, 4)];
                x.aligned_false = pick(&s, 2);
                x.channels_last = pick(&s, 6) == 0;
                elements = (uint64_t)x.n * x.c * x.h * x.w + (uint64_t)x.rois * x.c * x.oh * x.ow;
            } else {
                /* Scales from 1/4 to 4 in steps of 2^(1/16): 1/2, 2, 4 and the odd ones between. */
                x.dims = pick(&s, 10) ? 4 : 3;
                x.channels_last = x.dims == 4 && pick(&s, 3) == 0;
                x.n = log_uniform(&s, 1, 32);
                x.c = log_uniform(&s, 1, 512);
                x.h = x.dims == 3 ? 1 : log_uniform(&s, 8, 512);
                x.w = log_uniform(&s, 8, 512);
                uint32_t kx = pick(&s, 65), ky = pick(&s, 2) ? kx : pick(&s, 65);
                x.ow = scaled(x.w, kx);
                x.oh = x.dims == 3 ? 1 : scaled(x.h, ky);
                elements = (uint64_t)x.n * x.c * ((uint64_t)x.h * x.w + (uint64_t)x.oh * x.ow);
            }
            bytes = elements * dmlvk_data_type_size(x.type);
        } while (bytes < (UINT64_C(1) << 20) || bytes > (UINT64_C(512) << 20));
        if (x.kind == ROI_ALIGN_GRAD || x.kind == ROI_ALIGN1)
            snprintf(x.name, sizeof(x.name), "rnd%03d_%s_%s%s_%ux%ux%ux%u_%u_r%u_s%u%s", i, kind_names[x.kind],
                     bench_type_names[ti], x.channels_last ? "_nhwc" : "", x.n, x.c, x.h, x.w, x.oh, x.rois, x.samples,
                     x.aligned_false ? "u" : "");
        else
            resample_name(&x, i);
        w[n++] = x;
    }
    return n;
}

/* The length of `word` and the '_' after it where `at` starts with both, else 0. */
static size_t word_at(const char *at, const char *word)
{
    size_t len = strlen(word);
    return !strncmp(at, word, len) && at[len] == '_' ? len + 1 : 0;
}

/* One --shape name (`len` characters of `text`) as a resample workload: [rndNNN_]KIND_TYPE[_nhwc]_
 * NxCxHxW_OHxOW, KIND bilinear_grad, nearest_grad, bilinear or nearest, TYPE f32, f16 or bf16, as
 * --preset random names its rows (so any of them can be timed alone); H and OH both 1 give the 3-D
 * form (N, C, W). False where the text is not such a name. */
static bool parse_shape(const char *text, size_t len, struct workload *x)
{
    /* The gradients first: "bilinear_" begins their names too. */
    static const enum kind kinds[] = { BILINEAR_GRAD, NEAREST_GRAD, BILINEAR, NEAREST };
    char name[sizeof(x->name)];
    if (len >= sizeof(name))
        return false;
    memcpy(name, text, len);
    name[len] = 0;
    *x = (struct workload){ .dims = 4 };
    const char *at = name;
    int index = -1, used = 0;
    if (sscanf(at, "rnd%3d_%n", &index, &used) == 1 && used)
        at += used;
    else
        index = -1;
    size_t k = 0, t = 0, skip = 0;
    while (k < sizeof(kinds) / sizeof(kinds[0]) && !(skip = word_at(at, kind_names[kinds[k]])))
        k++;
    if (!skip)
        return false;
    x->kind = kinds[k];
    at += skip;
    while (t < 3 && !(skip = word_at(at, bench_type_names[t])))
        t++;
    if (!skip)
        return false;
    x->type = bench_types[t];
    at += skip;
    if ((skip = word_at(at, "nhwc"))) {
        x->channels_last = true;
        at += skip;
    }
    if (sscanf(at, "%ux%ux%ux%u_%ux%u", &x->n, &x->c, &x->h, &x->w, &x->oh, &x->ow) != 6 || !x->n || !x->c || !x->h ||
        !x->w || !x->oh || !x->ow)
        return false;
    if (x->h == 1 && x->oh == 1 && !x->channels_last)
        x->dims = 3;
    resample_name(x, index);
    return !strcmp(x->name, name);
}

/* --shape's workloads; -1 (with a message) where one of its names is not a resample shape. */
static int add_shapes(struct workload *w, const char *shapes)
{
    int n = 0;
    for (const char *t = shapes; *t;) {
        size_t len = strcspn(t, ",");
        if (n == MAX_WORKLOADS) {
            fprintf(stderr, "dmlvk-bench: --shape: more than %d names\n", MAX_WORKLOADS);
            return -1;
        }
        if (!parse_shape(t, len, &w[n])) {
            fprintf(stderr, "dmlvk-bench: --shape: \"%.*s\" is not a resample shape such as "
                            "bilinear_grad_f16_2x64x200x261_97x131 (see --help)\n", (int)len, t);
            return -1;
        }
        n++;
        t += len + (t[len] == ',');
    }
    if (!n)
        fprintf(stderr, "dmlvk-bench: --shape: no names\n");
    return n ? n : -1;
}

static int add_preset(struct workload *w, int n, const struct options *o, bool f16_ok)
{
    const char *preset = o->preset;
    if (!strcmp(preset, "sweep"))
        return add_sweep(w, n, f16_ok);
    if (!strcmp(preset, "random"))
        return add_random(w, n, f16_ok, o->seed, o->count);
    bool small = !strcmp(preset, "small");
    for (int ti = 0; ti < (f16_ok ? 3 : 1); ti++) {
        dmlvk_tensor_data_type type = bench_types[ti];
        struct workload relu = { .kind = RELU_GRAD, .type = type, .n = small ? 1u << 20 : 1u << 28 };
        snprintf(relu.name, sizeof(relu.name), "relu_grad_%s", bench_type_names[ti]);
        w[n++] = relu;
        const uint32_t from[2] = { 256, 192 };
        for (int k = 0; k < 2; k++) {
            for (int interp = 0; interp < 2; interp++) {
                struct workload r = { .kind = interp ? BILINEAR_GRAD : NEAREST_GRAD, .type = type, .n = small ? 2 : 32,
                                      .c = small ? 4 : 64, .h = small ? 32 : 128, .w = small ? 32 : 128 };
                r.oh = r.ow = small ? from[k] / 4 : from[k];
                snprintf(r.name, sizeof(r.name), "%s_grad_%s_%s", interp ? "bilinear" : "nearest", k ? "1.5x" : "2x",
                         bench_type_names[ti]);
                w[n++] = r;
            }
        }
        const uint32_t bins[2] = { 7, 14 };
        for (int k = 0; k < 2; k++)
            for (int det = 0; det < 2; det++) {
                struct workload r = { .kind = ROI_ALIGN_GRAD, .type = type, .deterministic = det, .n = 2,
                                      .c = small ? 8 : 256, .h = small ? 50 : 200, .w = small ? 76 : 304,
                                      .oh = bins[k], .ow = bins[k], .rois = small ? 32 : 512, .samples = 2,
                                      .spatial_scale = 0.25f };
                snprintf(r.name, sizeof(r.name), "roi_align_grad_%ux%u%s_%s", bins[k], bins[k], det ? "_det" : "",
                         bench_type_names[ti]);
                w[n++] = r;
            }
        /* Adaptive sample counts, on the preset's boxes and on regions of +-1e30: the exact
         * geometry visits only in-bounds samples, so both should take about as long. */
        for (int huge = 0; huge < 2 && ti == 0; huge++) {
            struct workload r = { .kind = ROI_ALIGN_GRAD, .type = type, .n = 2, .c = small ? 8 : 256,
                                  .h = small ? 50 : 200, .w = small ? 76 : 304, .oh = 7, .ow = 7,
                                  .rois = small ? 32 : 512, .samples = 0, .spatial_scale = 0.25f, .huge = huge };
            snprintf(r.name, sizeof(r.name), "roi_align_grad_7x7_adaptive%s_%s", huge ? "_1e30" : "",
                     bench_type_names[ti]);
            w[n++] = r;
        }
    }
    return n;
}

/* Whether a workload's name contains one of --only's comma-separated substrings. */
static bool name_picked(const char *name, const char *only)
{
    if (!*only)
        return true;
    for (const char *t = only; *t;) {
        size_t len = strcspn(t, ",");
        for (const char *at = name; len && *at; at++)
            if (!strncmp(at, t, len))
                return true;
        t += len + (t[len] == ',');
    }
    return false;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: dmlvk-bench [--preset gpu|small|sweep|random] [--device N|NAME] [--iterations N] [--warmup N]\n"
               "                   [--json] [--only SUBSTRING[,SUBSTRING...]] [--repeat N] [--addresses] [--stats]\n"
               "                   [--mix | --op-only] [--offset BYTES] [--list] [--read-rates] [--seed N] [--count N]\n"
               "                   [--shape NAME[,NAME...]]\n"
               "Times dmlvk's backward operators with Vulkan timestamps next to a compute-shader copy of the same\n"
               "device. gpu: the workloads of BENCHMARKS.md; small: the same kinds, sized for a CPU device; sweep:\n"
               "more layouts, shapes, types and ROI configurations, forward and backward (issue 15); random:\n"
               "--count workloads (48; at most 192) drawn from --seed (1) over the kinds, layouts, scales, types\n"
               "and ROI configurations of issue 15, each of 1 to 512 MiB (the same on every machine).\n"
               "--shape: these resample workloads instead of the preset's (which still sizes the copy: small for a\n"
               "CPU device), named as the random preset names its rows, with or without their rndNNN_:\n"
               "KIND_TYPE[_nhwc]_NxCxHxW_OHxOW, KIND bilinear_grad, nearest_grad, bilinear or nearest, TYPE f32,\n"
               "f16 or bf16, H x W the forward's input (a gradient's written tensor), OH x OW its output; H and OH\n"
               "both 1: the 3-D form (N, C, W).\n"
               "--only: the workloads whose name contains one of the substrings.\n"
               "--stats: print what the driver reports of each pipeline it compiles (register counts and the\n"
               "like; needs VK_KHR_pipeline_executable_properties).\n"
               "--mix: also time a copy that reads and writes each workload's own bytes (\"same mix\"): the floor\n"
               "of its proportions, where the ceiling's copy reads as much as it writes.\n"
               "--op-only: no copy per workload (\"same size\" reads -, its JSON fields 0), whose two warm-ups\n"
               "take most of a workload's time: for comparisons of times alone (tools/bench_ab.py and\n"
               "tools/bench_variants.py).\n"
               "--offset: bind every tensor this many bytes (a multiple of 4, at most 4096) into its buffer, to\n"
               "time the paths for tensors off 16-byte alignment.\n"
               "--list: print the names of the workloads the other options select, one per line, and time\n"
               "nothing (tools/bench_torch.py --chunk runs them a few at a time).\n"
               "--read-rates: time loads from buffers of 64 KiB (which L1 holds), of 4 to 32 MiB (L2 on large\n"
               "GPUs) and of 1 GiB, by 16 bytes, 4 bytes contiguous and 4 bytes a sector apart per lane, and time\n"
               "nothing else.\n");
}

/* Times the picked workloads next to the device's copy ceiling and prints them (text or JSON). */
static void time_workloads(struct vk *v, dmlvk_device *dev, const dmlvk_device_info *info, const struct options *o,
                           const char *cache_dir, const struct workload *picked, int n)
{
    bool small = !strcmp(o->preset, "small");
    struct copy_kernel copy, mix;
    copy_kernel_create(v, bench_copy_spv, sizeof(bench_copy_spv), &copy);
    copy_kernel_create(v, bench_mix_spv, sizeof(bench_mix_spv), &mix);
    double grid_stride, one_pass;
    double ceiling =
        best_copy_rate(v, dev, &copy, small ? (UINT64_C(64) << 20) : (UINT64_C(1) << 30), o, &grid_stride, &one_pass);
    if (o->json)
        printf("{\"device\": \"%s\", \"driver_version\": %u, \"copy_gbps\": %.1f, \"copy_grid_stride_gbps\": %.1f, "
               "\"copy_one_pass_gbps\": %.1f, \"offset\": %llu, \"results\": [\n",
               info->name, info->driver_version, ceiling, grid_stride, one_pass, (unsigned long long)o->offset);
    else {
        char bound[64] = "";
        if (o->offset)
            snprintf(bound, sizeof(bound), "tensors bound %llu bytes into their buffers\n", (unsigned long long)o->offset);
        printf("device: %s (driver %u)\ncopy ceiling: %.1f GB/s (compute-shader copy, bytes read + written; grid-stride "
               "%.1f, one pass %.1f)\n%s\n%-28s %10s %10s %9s %10s %12s %12s%s\n",
               info->name, info->driver_version, ceiling, grid_stride, one_pass, bound, "workload", "ms", "GB/s",
               "of copy", "same size", "create cold", "from cache", o->mix ? "   same mix" : "");
    }
    for (int i = 0; i < n; i++) {
        struct result r = { 0 };
        run_workload(v, dev, &picked[i], o, cache_dir, &r);
        /* Read + written: a copy of half the bytes moves them all. */
        uint64_t half = (uint64_t)(r.bytes / 2) / 16 * 16;
        if (!o->op_only)
            r.same_size_gbps = best_copy_rate(v, dev, &copy, half > 16 ? half : 16, o, NULL, NULL);
        if (o->mix)
            r.same_mix_gbps = mix_rate(v, dev, &mix, (uint64_t)(r.bytes - r.written), (uint64_t)r.written, o);
        double gbps = r.bytes / (r.ms * 1e6);
        if (o->json)
            print_json_result(&picked[i], &r, gbps, ceiling, i + 1 < n);
        else {
            printf("%-28s %10.4f %10.1f %8.1f%% ", picked[i].name, r.ms, gbps, 100 * gbps / ceiling);
            if (o->op_only)
                printf("%10s", "-");
            else
                printf("%9.1f%%", 100 * gbps / r.same_size_gbps);
            printf(" %10.2fms %10.2fms", r.create_cold_ms, r.create_cached_ms);
            if (o->mix)
                printf(" %9.1f%%", 100 * gbps / r.same_mix_gbps);
            printf("\n");
        }
        fflush(stdout);
    }
    if (o->json)
        printf("]}\n");
    copy_kernel_destroy(v, &copy);
    copy_kernel_destroy(v, &mix);
}

int main(int argc, char **argv)
{
    struct options o = { .iterations = 50, .warmup = 5, .preset = "gpu", .repeat = 1, .seed = 1, .count = 48 };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            o.json = true;
        else if (!strcmp(argv[i], "--addresses"))
            o.addresses = true;
        else if (!strcmp(argv[i], "--stats"))
            o.stats = true;
        else if (!strcmp(argv[i], "--mix"))
            o.mix = true;
        else if (!strcmp(argv[i], "--op-only"))
            o.op_only = true;
        else if (!strcmp(argv[i], "--list"))
            o.list = true;
        else if (!strcmp(argv[i], "--read-rates"))
            o.read_rates = true;
        else if (!strcmp(argv[i], "--preset") && i + 1 < argc)
            o.preset = argv[++i];
        else if (!strcmp(argv[i], "--device") && i + 1 < argc)
            o.device = argv[++i];
        else if (!strcmp(argv[i], "--iterations") && i + 1 < argc)
            o.iterations = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--warmup") && i + 1 < argc)
            o.warmup = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            o.only = argv[++i];
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            o.repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--offset") && i + 1 < argc)
            o.offset = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            o.seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--count") && i + 1 < argc)
            o.count = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--shape") && i + 1 < argc)
            o.shapes = argv[++i];
        else if (!strcmp(argv[i], "--help")) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (o.iterations < 1 || o.warmup < 0 || o.repeat < 1 || (o.mix && o.op_only) || o.offset % 4 || o.offset > 4096 ||
        o.count < 1 || o.count > MAX_WORKLOADS ||
        (strcmp(o.preset, "gpu") && strcmp(o.preset, "small") && strcmp(o.preset, "sweep") && strcmp(o.preset, "random"))) {
        usage(stderr);
        return 2;
    }
    /* --shape's names are checked before any device exists, so that a refusal leaves nothing behind. */
    struct workload w[MAX_WORKLOADS];
    int all = o.shapes ? add_shapes(w, o.shapes) : 0, n = 0;
    if (all < 0)
        return 2;
    struct vk v = { .statistics = o.stats };
    vk_create(&v, o.device);
    char cache_dir[] = "/tmp/dmlvk-bench-cache-XXXXXX";
    if (!mkdtemp(cache_dir))
        return 2;
    dmlvk_device *dev = import_device(&v, cache_dir);
    dmlvk_device_info info;
    CHECK(dmlvk_device_get_info(dev, &info));

    const bool f16_ok = v.req.vulkan11.storageBuffer16BitAccess;
    int status = 0;
    if (!o.shapes)
        all = add_preset(w, 0, &o, f16_ok);
    for (int i = 0; i < all && !f16_ok && !status; i++)
        if (w[i].type != DMLVK_TENSOR_DATA_TYPE_FLOAT32) {
            fprintf(stderr, "dmlvk-bench: --shape: %s needs 16-bit storage buffers, which the device lacks\n",
                    w[i].name);
            status = 2;
        }
    /* --only keeps the workloads whose name contains one of its substrings; --repeat runs each
     * several times. */
    struct workload picked[MAX_WORKLOADS * 8];
    for (int i = 0; i < all; i++)
        for (int r = 0; r < o.repeat && (!o.only || name_picked(w[i].name, o.only)) && n < MAX_WORKLOADS * 8; r++)
            picked[n++] = w[i];
    if (!status && o.list) {
        for (int i = 0; i < n; i++)
            printf("%s\n", picked[i].name);
    } else if (!status && o.read_rates) {
        print_read_rates(&v, dev, &o);
    } else if (!status) {
        time_workloads(&v, dev, &info, &o, cache_dir, picked, n);
    }
    dmlvk_device_destroy(dev);
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cache_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "dmlvk-bench: could not remove %s\n", cache_dir);
    vkDestroyQueryPool(v.device, v.queries, NULL);
    vkDestroyCommandPool(v.device, v.pool, NULL);
    vkDestroyDevice(v.device, NULL);
    vkDestroyInstance(v.instance, NULL);
    return status;
}
