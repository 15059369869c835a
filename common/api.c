/* The public API: parameter checks, backend choice, and the stream checks
 * every backend relies on. */
#include "format.h"
#include "codec.h"
#include "bytes.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void glide_params_init(glide_params *p, glide_dtype dtype, unsigned rank, const uint64_t *dims)
{
    memset(p, 0, sizeof *p);
    p->dtype = dtype;
    p->rank = rank;
    for (unsigned i = 0; i < rank && i < GLIDE_MAX_RANK; i++) p->dims[i] = dims[i];
    p->mode = GLIDE_MODE_REL;
    p->eb = 1e-3;
    p->predictor = GLIDE_PRED_AUTO;
    p->codebook = GLIDE_BOOK_AUTO;
    p->backend = GLIDE_BACKEND_AUTO;
}

static size_t check_params(const glide_params *p, uint64_t *count)
{
    if (!p || (p->dtype != GLIDE_FLOAT32 && p->dtype != GLIDE_FLOAT64)) return GLIDE_ERROR(PARAM);
    if (p->rank < 1 || p->rank > GLIDE_MAX_RANK) return GLIDE_ERROR(PARAM);
    if ((unsigned)p->mode > GLIDE_MODE_REL || (unsigned)p->predictor > GLIDE_PRED_INTERP ||
        (unsigned)p->codebook > GLIDE_BOOK_CUSTOM || (unsigned)p->backend > GLIDE_BACKEND_GPU ||
        (unsigned)p->sentinel > GLIDE_SENTINEL_VALUE)
        return GLIDE_ERROR(PARAM);
    if (!(p->eb >= 0) || !isfinite(p->eb)) return GLIDE_ERROR(PARAM);
    if (p->block_log2 > GLIDE_MAX_LEVELS - 1) return GLIDE_ERROR(PARAM);
    uint64_t c = 1, esz = glide_dtype_size(p->dtype);
    for (unsigned i = 0; i < p->rank; i++) {
        if (p->dims[i] == 0) return GLIDE_ERROR(PARAM);
        if (p->dims[i] > GLIDE_MAX_INPUT_BYTES / esz / c) return GLIDE_ERROR(SIZE);
        c *= p->dims[i];
    }
    *count = c;
    return 0;
}

size_t glide_compress_bound(const glide_params *p)
{
    uint64_t count = 0;
    size_t r = check_params(p, &count);
    if (glide_is_error(r)) return r;
    return glide_header_size(p->rank) + count * glide_dtype_size(p->dtype) + GLIDE_CRC_BYTES;
}

static uint32_t get_crc(const void *src, const glide_layout *lay)
{
    return get_u32((const uint8_t *)src + lay->crc_off);
}

#ifdef GLIDE_HAVE_GPU
#include "gpu_backend.h"
#include <pthread.h>
#include <stdio.h>
static pthread_once_t g_gpu_warn = PTHREAD_ONCE_INIT;
static void warn_gpu(void) { fprintf(stderr, "glide: the GPU failed on a chunk; this and any further failing chunk run on the CPU\n"); }
/* RAW streams are a copy, and the second fill value (format 7, and format
 * 8 with HAS_FILL2) is the CPU codec's alone: the host decodes those. */
static int gpu_decodes(const glide_header *h)
{
    return h->method != GLIDE_METHOD_RAW && h->format_version != GLIDE_FORMAT_FILL2 &&
           !(h->flags & GLIDE_FLAG_HAS_FILL2);
}
#else
static int glide_gpu_usable(void) { return 0; }
#endif

/* Chunks of fewer values than these take the CPU under GLIDE_BACKEND_AUTO:
 * below them one CPU thread beat a GPU call, transfers included
 * (docs/PERFORMANCE.md, "Small chunks"). */
#define GLIDE_AUTO_GPU_MIN_COMPRESS 4096
#define GLIDE_AUTO_GPU_MIN_DECOMPRESS 8192

/* GLIDE_BACKEND_AUTO prefers the GPU where one is built and present. */
static size_t pick_backend(glide_backend b)
{
    if (b == GLIDE_BACKEND_CPU) return GLIDE_BACKEND_CPU;
    if (glide_gpu_usable()) return GLIDE_BACKEND_GPU;
    return b == GLIDE_BACKEND_GPU ? GLIDE_ERROR(BACKEND) : GLIDE_BACKEND_CPU;
}

glide_backend glide_backend_resolve(glide_backend requested)
{
    size_t b = pick_backend(requested);
    return glide_is_error(b) ? GLIDE_BACKEND_CPU : (glide_backend)b;
}

const char *glide_backend_name(glide_backend b)
{
    return b == GLIDE_BACKEND_GPU ? "gpu" : b == GLIDE_BACKEND_CPU ? "cpu" : "auto";
}

/* The GPU's first try, from host or device memory (src_dev): the stream
 * or an error, or GLIDE_ERROR(GPU) where the host must scan the values
 * first (*gpu_failed set where the device failed). */
#ifdef GLIDE_HAVE_GPU
static size_t gpu_first(const glide_params *p, const void *src, int src_dev, void *dst, size_t cap, int *gpu_failed)
{
    size_t g = GLIDE_ERROR(GPU);
    *gpu_failed = 0;
    if (p->sentinel != GLIDE_SENTINEL_VALUE) {
        /* The device's range scan reports the extremes the sentinel rule
         * needs, so the host scans the chunk only where the rule finds one
         * (and then compresses again with it masked). */
        glide_encode_opts go = glide_default_encode_opts();
        glide_range_report rr = {0};
        go.range_out = &rr;
        g = glide_gpu_compress(p, &go, src, src_dev, dst, cap);
        if (glide_get_error(g) != GLIDE_ERR_GPU) {
            const int open[2] = {1, 1};
            const int side = rr.valid && rr.any ? glide_sentinel_side(&rr.e, open) : -1;
            if (glide_is_error(g) || p->sentinel == GLIDE_SENTINEL_OFF || (rr.valid && side < 0)) return g;
            if (side >= 0 && (!p->has_fill || !rr.any_fill)) {
                /* a chunk without fill points: the sentinel is its fill
                 * value, as glide_values_scan would decide */
                glide_params q = *p;
                const double s = side ? rr.e.hi : rr.e.lo;
                q.has_fill = 1;
                if (p->dtype == GLIDE_FLOAT32) {
                    const float f = (float)s;
                    uint32_t b;
                    memcpy(&b, &f, 4);
                    q.fill_bits = b;
                } else {
                    memcpy(&q.fill_bits, &s, 8);
                }
                g = glide_gpu_compress(&q, &go, src, src_dev, dst, cap);
                if (glide_get_error(g) != GLIDE_ERR_GPU) return g;
            } else {
                return GLIDE_ERROR(GPU); /* fill points beside a sentinel, or no report: the host scans the chunk */
            }
        }
        *gpu_failed = 1;
        pthread_once(&g_gpu_warn, warn_gpu);
    }
    return g;
}
#endif

/* After the GPU's first try (or without one): the host scans the values
 * (host: host memory) for the fill value, a sentinel and the range, once for
 * either backend; then backend `be` compresses, the GPU from gsrc (device
 * memory where gsrc_dev) unless it failed before or format 7 needs the CPU. */
static size_t compress_scanned(const glide_params *p, const void *host, size_t src_size, uint64_t count,
                               const void *gsrc, int gsrc_dev, void *dst, size_t cap, size_t be, int gpu_failed)
{
    /* the scan and the predictors read elements directly: give them an aligned copy */
    const void *x = host;
    void *a = NULL;
    if ((uintptr_t)host % glide_dtype_size(p->dtype)) {
        if (!(a = malloc(src_size))) return GLIDE_ERROR(NOMEM);
        memcpy(a, host, src_size);
        x = a;
    }
    glide_values v;
    if (p->dtype == GLIDE_FLOAT32) glide_values_scan_f32(p, x, count, &v);
    else glide_values_scan_f64(p, x, count, &v);
    glide_params q = *p;
    q.has_fill = v.has_fill;
    q.fill_bits = v.fill_bits;
    glide_encode_opts o = glide_default_encode_opts();
    o.values = &v;
    size_t r;
#ifdef GLIDE_HAVE_GPU
    /* format 7 (a sentinel beside fill points) is the CPU codec's alone */
    if (be == GLIDE_BACKEND_GPU && !v.has_fill2 && !gpu_failed) {
        r = glide_gpu_compress(&q, &o, gsrc, gsrc_dev, dst, cap);
        if (glide_get_error(r) != GLIDE_ERR_GPU) {
            free(a);
            return r;
        }
        pthread_once(&g_gpu_warn, warn_gpu);
    }
#else
    (void)gsrc, (void)gsrc_dev, (void)be, (void)gpu_failed;
#endif
    r = glide_cpu_compress(&q, &o, x, dst, cap);
    free(a);
    return r;
}

size_t glide_compress(const glide_params *p, const void *src, size_t src_size, void *dst, size_t cap)
{
    uint64_t count = 0;
    size_t r = check_params(p, &count);
    if (glide_is_error(r)) return r;
    if (!src || !dst) return GLIDE_ERROR(PARAM);
    if (src_size != count * glide_dtype_size(p->dtype)) return GLIDE_ERROR(SIZE);
    r = p->backend == GLIDE_BACKEND_AUTO && count < GLIDE_AUTO_GPU_MIN_COMPRESS ? GLIDE_BACKEND_CPU
                                                                                : pick_backend(p->backend);
    if (glide_is_error(r)) return r;
    int gpu_failed = 0;
#ifdef GLIDE_HAVE_GPU
    if (r == GLIDE_BACKEND_GPU) {
        const size_t g = gpu_first(p, src, 0, dst, cap, &gpu_failed);
        if (glide_get_error(g) != GLIDE_ERR_GPU) return g;
    }
#endif
    return compress_scanned(p, src, src_size, count, src, 0, dst, cap, r, gpu_failed);
}

size_t glide_stream_info(const void *src, size_t src_size, glide_params *p)
{
    glide_header h;
    glide_layout lay;
    if (!src) return GLIDE_ERROR(PARAM);
    size_t r = glide_header_read(src, src_size, &h, &lay);
    if (glide_is_error(r) || !p) return r;
    memset(p, 0, sizeof *p);
    p->dtype = (glide_dtype)h.dtype;
    p->rank = h.rank;
    memcpy(p->dims, h.dims, h.rank * sizeof(uint64_t));
    p->mode = (glide_mode)h.mode;
    p->eb = h.eb_user;
    p->predictor = h.method == GLIDE_METHOD_LORENZO ? GLIDE_PRED_LORENZO : GLIDE_PRED_INTERP;
    /* format 5: a custom book on one plane only is what auto chooses */
    const int c0 = h.book_kind == GLIDE_BOOKKIND_CUSTOM, planes = h.format_version >= GLIDE_FORMAT_PLANES;
    const int c1 = planes && h.book_kind1 == GLIDE_BOOKKIND_CUSTOM;
    p->codebook = !planes ? (c0 ? GLIDE_BOOK_CUSTOM : GLIDE_BOOK_DICT)
                  : c0 && c1 ? GLIDE_BOOK_CUSTOM
                  : c0 || c1 ? GLIDE_BOOK_AUTO
                             : GLIDE_BOOK_DICT;
    p->has_fill = (h.flags & GLIDE_FLAG_HAS_FILL) != 0;
    p->fill_bits = h.fill_bits;
    if (h.flags & GLIDE_FLAG_HAS_FILL2) { /* format 7: the sentinel beside the fill value */
        p->sentinel = GLIDE_SENTINEL_VALUE;
        p->sentinel_bits = h.fill2_bits;
    }
    p->block_log2 = h.block_log2;
    return r;
}

size_t glide_decompress_with(glide_backend backend, const void *src, size_t src_size, void *dst, size_t cap)
{
    glide_header h;
    glide_layout lay;
    if (!src || !dst || (unsigned)backend > GLIDE_BACKEND_GPU) return GLIDE_ERROR(PARAM);
    size_t out = glide_header_read(src, src_size, &h, &lay);
    if (glide_is_error(out)) return out;
    if (out > cap) return GLIDE_ERROR(DST_TOO_SMALL);
    const int small = out / glide_dtype_size(h.dtype) < GLIDE_AUTO_GPU_MIN_DECOMPRESS;
    size_t r = backend == GLIDE_BACKEND_AUTO && small ? GLIDE_BACKEND_CPU : pick_backend(backend);
    if (glide_is_error(r)) return r;
#ifdef GLIDE_HAVE_GPU
    if (r == GLIDE_BACKEND_GPU && gpu_decodes(&h)) {
        r = glide_gpu_decompress(&h, &lay, src, src_size, dst, 0);
        if (glide_get_error(r) != GLIDE_ERR_GPU) return glide_is_error(r) ? r : out;
        pthread_once(&g_gpu_warn, warn_gpu);
    }
#endif
    if (get_crc(src, &lay) != glide_crc32(src, lay.crc_off)) return GLIDE_ERROR(CHECKSUM);
    if ((uintptr_t)dst % glide_dtype_size(h.dtype)) {
        void *a = malloc(out);
        if (!a) return GLIDE_ERROR(NOMEM);
        r = glide_cpu_decompress(&h, &lay, src, a);
        if (!glide_is_error(r)) memcpy(dst, a, out);
        free(a);
    } else {
        r = glide_cpu_decompress(&h, &lay, src, dst);
    }
    return glide_is_error(r) ? r : out;
}

size_t glide_decompress(const void *src, size_t src_size, void *dst, size_t cap)
{
    return glide_decompress_with(GLIDE_BACKEND_AUTO, src, src_size, dst, cap);
}

size_t glide_compress_device(const glide_params *p, const void *d_src, size_t src_size, void *dst, size_t cap)
{
    uint64_t count = 0;
    size_t r = check_params(p, &count);
    if (glide_is_error(r)) return r;
    if (!d_src || !dst) return GLIDE_ERROR(PARAM);
    if (src_size != count * glide_dtype_size(p->dtype)) return GLIDE_ERROR(SIZE);
#ifdef GLIDE_HAVE_GPU
    r = pick_backend(p->backend);
    if (glide_is_error(r)) return r;
    int gpu_failed = 0;
    if (r == GLIDE_BACKEND_GPU) {
        const size_t g = gpu_first(p, d_src, 1, dst, cap, &gpu_failed);
        if (glide_get_error(g) != GLIDE_ERR_GPU) return g;
    }
    /* the host scans (the CPU backend, a sentinel beside fill points, a
     * failed device): the values come over, the GPU compresses again from
     * device memory unless it failed */
    void *h = malloc(src_size ? src_size : 1);
    if (!h) return GLIDE_ERROR(NOMEM);
    r = glide_gpu_copy(h, d_src, src_size, 0) ? GLIDE_ERROR(GPU)
                                               : compress_scanned(p, h, src_size, count, d_src, 1, dst, cap, r, gpu_failed);
    free(h);
    return r;
#else
    (void)cap;
    return GLIDE_ERROR(BACKEND);
#endif
}

size_t glide_decompress_device(const void *src, size_t src_size, void *d_dst, size_t cap)
{
    glide_header h;
    glide_layout lay;
    if (!src || !d_dst) return GLIDE_ERROR(PARAM);
    size_t out = glide_header_read(src, src_size, &h, &lay);
    if (glide_is_error(out)) return out;
    if (out > cap) return GLIDE_ERROR(DST_TOO_SMALL);
#ifdef GLIDE_HAVE_GPU
    if (!glide_gpu_usable()) return GLIDE_ERROR(BACKEND);
    size_t r = GLIDE_ERROR(GPU);
    if (gpu_decodes(&h)) {
        r = glide_gpu_decompress(&h, &lay, src, src_size, d_dst, 1);
        if (glide_get_error(r) != GLIDE_ERR_GPU) return glide_is_error(r) ? r : out;
        pthread_once(&g_gpu_warn, warn_gpu);
    }
    /* decoded on the host, then copied over */
    void *a = malloc(out ? out : 1);
    if (!a) return GLIDE_ERROR(NOMEM);
    r = glide_decompress_with(GLIDE_BACKEND_CPU, src, src_size, a, out);
    if (!glide_is_error(r) && glide_gpu_copy(d_dst, a, out, 1)) r = GLIDE_ERROR(GPU);
    free(a);
    return glide_is_error(r) ? r : out;
#else
    (void)lay;
    return GLIDE_ERROR(BACKEND);
#endif
}
