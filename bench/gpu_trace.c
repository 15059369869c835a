/* gpu_trace: where one API call's time goes, as the device and the host saw
 * it, with the graphs replayed as in use (CUDA events cannot be placed
 * inside a graph, so the stage tables of glide_gpu_bench run with graphs
 * off and count launch gaps that real calls do not have).
 *   gpu_trace [SIDE [CALLS [host]]]      (defaults 64 and 30; host: the host
 *   plans every chunk's entropy stage, glide_gpu_planner)
 * After CALLS warm-up calls each way, CUPTI's activity records (kernels,
 * copies, memsets, runtime API calls) of TRACED more compress and
 * decompress calls of a SIDE^3 Nyx-like float chunk (REL 1e-3, GPU
 * backend, pageable buffers as the filter gets them) are collected, and
 * for the call of median wall time each record is printed against the
 * call's start: device rows with the idle time before them (no kernel or
 * copy running), host rows with their API name. The summary gives the
 * wall time, the device's busy time (union of its intervals) and span. */
#include "glide.h"
#include "gpu_backend.h"
#include "gpu_cube.h"
#include "bench_time.h"
#include <cupti.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACED 7
#define BUF_BYTES ((size_t)8 << 20)

typedef struct {
    uint64_t start, end;
    uint32_t stream;
    int device;    /* 1: runs on the device (kernel, copy, memset); 0: a host API call */
    char what[96]; /* name, grid or bytes */
} rec;

static rec *g_recs;
static size_t g_n, g_cap;
/* CUPTI may hand full buffers over on its own thread while calls run */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

static rec *add_rec(void)
{
    if (g_n == g_cap) {
        size_t cap = g_cap ? 2 * g_cap : 4096;
        rec *r = realloc(g_recs, cap * sizeof *r);
        if (!r) return NULL;
        g_recs = r, g_cap = cap;
    }
    return &g_recs[g_n++];
}

/* The last identifier of an Itanium-mangled name (_ZN..<len><id>..E or
 * _Z<len><id>), template arguments left out; the name itself otherwise. */
static void short_name(const char *m, char *out, size_t cap)
{
    snprintf(out, cap, "%s", m ? m : "?");
    if (!m || strncmp(m, "_Z", 2)) return;
    const char *p = m + 2, *best = NULL;
    size_t blen = 0;
    int nested = *p == 'N';
    if (nested) p++;
    while (*p >= '0' && *p <= '9') {
        char *e;
        long len = strtol(p, &e, 10);
        if (len <= 0 || (size_t)len > strlen(e)) break;
        best = e, blen = (size_t)len;
        p = e + len;
        if (!nested) break;
        if (*p == 'I' || *p == 'E') break;
    }
    if (best) snprintf(out, cap, "%.*s", (int)blen, best);
}

static void CUPTIAPI buf_request(uint8_t **buf, size_t *size, size_t *max_records)
{
    *buf = aligned_alloc(8, BUF_BYTES);
    *size = *buf ? BUF_BYTES : 0;
    *max_records = 0;
}

static void CUPTIAPI buf_complete(CUcontext ctx, uint32_t stream, uint8_t *buf, size_t size, size_t valid)
{
    (void)ctx, (void)stream, (void)size;
    CUpti_Activity *a = NULL;
    pthread_mutex_lock(&g_lock);
    while (cuptiActivityGetNextRecord(buf, valid, &a) == CUPTI_SUCCESS) {
        rec *r = NULL;
        char nm[64];
        switch (a->kind) {
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
            const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)a;
            if (!(r = add_rec())) break;
            short_name(k->name, nm, sizeof nm);
            *r = (rec){k->start, k->end, k->streamId, 1, ""};
            snprintf(r->what, sizeof r->what, "%s (%d,%d,%d)x%d", nm, k->gridX, k->gridY, k->gridZ, k->blockX);
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMCPY: {
            const CUpti_ActivityMemcpy6 *c = (const CUpti_ActivityMemcpy6 *)a;
            if (!(r = add_rec())) break;
            *r = (rec){c->start, c->end, c->streamId, 1, ""};
            snprintf(r->what, sizeof r->what, "copy %s %llu B",
                     c->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD   ? "H2D"
                     : c->copyKind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH ? "D2H"
                                                                      : "other",
                     (unsigned long long)c->bytes);
            break;
        }
        case CUPTI_ACTIVITY_KIND_MEMSET: {
            const CUpti_ActivityMemset4 *s = (const CUpti_ActivityMemset4 *)a;
            if (!(r = add_rec())) break;
            *r = (rec){s->start, s->end, s->streamId, 1, ""};
            snprintf(r->what, sizeof r->what, "memset %llu B", (unsigned long long)s->bytes);
            break;
        }
        case CUPTI_ACTIVITY_KIND_RUNTIME: {
            const CUpti_ActivityAPI *api = (const CUpti_ActivityAPI *)a;
            const char *name = NULL;
            if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, api->cbid, &name) != CUPTI_SUCCESS) name = "?";
            if (!(r = add_rec())) break;
            *r = (rec){api->start, api->end, 0, 0, ""};
            snprintf(r->what, sizeof r->what, "%s", name);
            break;
        }
        default:
            break;
        }
    }
    pthread_mutex_unlock(&g_lock);
    free(buf);
}

static int by_start(const void *a, const void *b)
{
    const rec *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* Prints the records inside [t0, t1] and returns the device's busy time (µs). */
static double report(const char *title, uint64_t t0, uint64_t t1, int print)
{
    double busy = 0;
    uint64_t reach = t0, first = 0, last = 0;
    if (print) {
        printf("\n%s: wall %.1f us (host, call start to return)\n", title, (t1 - t0) / 1e3);
        printf("| start us | end us | dur us | device idle before | stream | what |\n|---|---|---|---|---|---|\n");
    }
    for (size_t i = 0; i < g_n; i++) {
        const rec *r = &g_recs[i];
        if (r->start < t0 || r->start > t1) continue;
        char idle[32] = "";
        if (r->device) {
            if (!first) first = r->start;
            if (r->start > reach) snprintf(idle, sizeof idle, "%.1f", (r->start - reach) / 1e3);
            const uint64_t from = r->start > reach ? r->start : reach;
            if (r->end > from) busy += (r->end - from) / 1e3;
            if (r->end > reach) reach = r->end;
            if (r->end > last) last = r->end;
        }
        if (print)
            printf("| %.1f | %.1f | %.1f | %s | %s%u | %s |\n", (r->start - t0) / 1e3, (r->end - t0) / 1e3,
                   (r->end - r->start) / 1e3, idle, r->device ? "" : "host ", r->device ? r->stream : 0u, r->what);
    }
    if (print)
        printf("device busy %.1f us, span %.1f us (first device start to last end), host-only %.1f us\n", busy,
               first ? (last - first) / 1e3 : 0.0, (t1 - t0) / 1e3 - busy);
    return busy;
}

static int cmp_u(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    const size_t s = argc > 1 ? (size_t)atol(argv[1]) : 64;
    const int warm = argc > 2 ? atoi(argv[2]) : 30;
    if (s < 2 || warm < 1) return 2;
    if (argc > 3 && !strcmp(argv[3], "host")) glide_gpu_planner(GLIDE_GPU_PLANNER_HOST);
    const size_t n = s * s * s, bytes = n * sizeof(float);
    glide_params p;
    float *x = gpu_cube(s, &p), *back = malloc(bytes);
    if (!x || !back) return 1;
    const size_t cap = glide_compress_bound(&p);
    uint8_t *dst = malloc(cap);
    if (!dst) return 1;
    size_t sz = 0;
    for (int i = 0; i < warm; i++) {
        sz = glide_compress(&p, x, bytes, dst, cap);
        if (glide_is_error(sz)) return fprintf(stderr, "compress: %s\n", glide_error_name(sz)), 1;
        size_t r = glide_decompress_with(GLIDE_BACKEND_GPU, dst, sz, back, bytes);
        if (glide_is_error(r)) return fprintf(stderr, "decompress: %s\n", glide_error_name(r)), 1;
    }
    if (cuptiActivityRegisterCallbacks(buf_request, buf_complete) != CUPTI_SUCCESS) return fprintf(stderr, "cupti\n"), 1;
    const CUpti_ActivityKind kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                        CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_RUNTIME};
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
        if (cuptiActivityEnable(kinds[k]) != CUPTI_SUCCESS) return fprintf(stderr, "cupti enable %d\n", (int)kinds[k]), 1;
    /* a few calls under the tracer first: its own set-up lands there */
    uint64_t tc[TRACED + 3][2], td[TRACED + 3][2];
    for (int i = 0; i < TRACED + 3; i++) {
        cuptiGetTimestamp(&tc[i][0]);
        sz = glide_compress(&p, x, bytes, dst, cap);
        cuptiGetTimestamp(&tc[i][1]);
        if (glide_is_error(sz)) return fprintf(stderr, "compress: %s\n", glide_error_name(sz)), 1;
    }
    for (int i = 0; i < TRACED + 3; i++) {
        cuptiGetTimestamp(&td[i][0]);
        size_t r = glide_decompress_with(GLIDE_BACKEND_GPU, dst, sz, back, bytes);
        cuptiGetTimestamp(&td[i][1]);
        if (glide_is_error(r)) return fprintf(stderr, "decompress: %s\n", glide_error_name(r)), 1;
    }
    cuptiActivityFlushAll(1);
    qsort(g_recs, g_n, sizeof *g_recs, by_start);
    printf("gpu_trace: %zu^3 float32 Nyx-like, REL 1e-3, CR %.2f; %d traced calls each way, the median one shown\n", s,
           (double)bytes / sz, TRACED);
    for (int dir = 0; dir < 2; dir++) {
        uint64_t(*t)[2] = dir ? td : tc;
        uint64_t w[TRACED], b[TRACED];
        for (int i = 0; i < TRACED; i++) {
            w[i] = t[i + 3][1] - t[i + 3][0];
            b[i] = (uint64_t)(report("", t[i + 3][0], t[i + 3][1], 0) * 1e3);
        }
        uint64_t ws[TRACED];
        memcpy(ws, w, sizeof ws);
        qsort(ws, TRACED, sizeof *ws, cmp_u);
        qsort(b, TRACED, sizeof *b, cmp_u);
        int mi = 0;
        for (int i = 0; i < TRACED; i++)
            if (w[i] == ws[TRACED / 2]) mi = i;
        char title[96];
        snprintf(title, sizeof title, "%zu^3 %s (median wall of %d: %.1f us; median device busy %.1f us)", s,
                 dir ? "decompress" : "compress", TRACED, ws[TRACED / 2] / 1e3, b[TRACED / 2] / 1e3);
        report(title, t[mi + 3][0], t[mi + 3][1], 1);
    }
    free(x), free(back), free(dst), free(g_recs);
    return 0;
}
