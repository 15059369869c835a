/* glide_h5.h: a selection's chunks compressed by worker threads and written
 * by the calling thread with H5Dwrite_chunk (or read with H5Dread_chunk and
 * decoded by the workers). The workers and the caller meet at a fixed set
 * of slots (a chunk's stream each): a bounded pipeline in which HDF5 is
 * only ever called from the caller's thread. */
#include "glide_h5.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "box.h"
#include "cd_values.h"
#include "chunk_params.h"
#include "format.h"
#ifdef GLIDE_HAVE_GPU
#include "gpu_backend.h"
#endif
#include "h5_bind.h"

/* Worker threads by default on the GPU, each with its own context: as many
 * as gpu/gg_context.h's GG_MAX_CONTEXTS, up to the cores; fewer measured
 * slower at 64^3 and 128^3 (docs/PERFORMANCE.md, "Direct chunk I/O") */
#define GH_GPU_THREADS 16
/* and no more than half the device's free memory holds: a thread's context
 * and buffers take about GH_THREAD_FIXED plus GH_THREAD_CHUNKS chunks
 * (measured: 19 MiB a thread at 64^3, 55 at 128^3, float32), so that large
 * chunks on a small GPU do not run out of memory and fall back to the CPU */
#define GH_THREAD_FIXED ((uint64_t)16 << 20)
#define GH_THREAD_CHUNKS 8
#define GH_MAX_THREADS 64

static _Thread_local char g_err[512];
static gh_api g_api;
static int g_bound;
static pthread_mutex_t g_bind_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t fail(glide_error code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static size_t fail(glide_error code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g_err, sizeof g_err, fmt, ap);
    va_end(ap);
    return (size_t) - (ptrdiff_t)code;
}

const char *glide_h5_last_error(void) { return g_err; }

void glide_h5_opts_init(glide_h5_opts *o)
{
    memset(o, 0, sizeof *o);
    o->memory = GLIDE_MEM_HOST;
    o->backend = GLIDE_BACKEND_AUTO;
}

size_t glide_h5_bind(const void *addr)
{
    char msg[sizeof g_err];
    gh_api a;
    pthread_mutex_lock(&g_bind_lock);
    const int bad = gh_bind(addr, &a, msg, sizeof msg);
    if (!bad) {
        g_api = a;
        g_bound = 1;
    }
    pthread_mutex_unlock(&g_bind_lock);
    return bad ? fail(GLIDE_ERR_PARAM, "%s", msg) : 0;
}

static const gh_api *api(void)
{
    pthread_mutex_lock(&g_bind_lock);
    int ok = g_bound;
    pthread_mutex_unlock(&g_bind_lock);
    if (!ok && glide_is_error(glide_h5_bind(NULL))) return NULL;
    return &g_api;
}

/* What the dataset says about its chunks. */
typedef struct {
    unsigned rank;
    uint64_t dims[GLIDE_MAX_RANK], chunk[GLIDE_MAX_RANK];
    size_t esz, chunk_bytes;
    uint64_t chunk_points;
    gf_config cfg;
    uint64_t pad_bits;  /* what HDF5 puts in a new chunk's unwritten part */
    uint64_t fill_bits; /* what a chunk never written reads as */
} ds_desc;

static size_t describe(const gh_api *a, hid_t dset, ds_desc *d)
{
    memset(d, 0, sizeof *d);
    size_t r = 0;
    hid_t space = a->Dget_space(dset), type = -1, dcpl = -1;
    if (space < 0) return fail(GLIDE_ERR_PARAM, "glide: not a dataset id (H5Dget_space failed)");
    const int nd = a->Sget_simple_extent_ndims(space);
    hsize_t dims[H5S_MAX_RANK];
    if (nd < 1 || nd > GLIDE_MAX_RANK || a->Sget_simple_extent_dims(space, dims, NULL) < 0) {
        r = fail(GLIDE_ERR_PARAM, "glide: the dataset has no simple dataspace of rank 1 to %d", GLIDE_MAX_RANK);
        goto done;
    }
    d->rank = (unsigned)nd;
    for (int i = 0; i < nd; i++) d->dims[i] = dims[i];
    if ((type = a->Dget_type(dset)) < 0) {
        r = fail(GLIDE_ERR_PARAM, "glide: H5Dget_type failed");
        goto done;
    }
    if (a->Tequal(type, *a->IEEE_F32LE) > 0) d->esz = 4;
    else if (a->Tequal(type, *a->IEEE_F64LE) > 0) d->esz = 8;
    else {
        r = fail(GLIDE_ERR_PARAM, "glide: the dataset's type is not little-endian IEEE float32 or float64 "
                                  "(direct chunk I/O converts no types)");
        goto done;
    }
    if ((dcpl = a->Dget_create_plist(dset)) < 0) {
        r = fail(GLIDE_ERR_PARAM, "glide: H5Dget_create_plist failed");
        goto done;
    }
    if (a->Pget_layout(dcpl) != H5D_CHUNKED) {
        r = fail(GLIDE_ERR_PARAM, "glide: the dataset is not chunked (direct chunk I/O needs a chunked dataset "
                                  "with the GLIDE filter)");
        goto done;
    }
    hsize_t cd[H5S_MAX_RANK];
    if (a->Pget_chunk(dcpl, nd, cd) != nd) {
        r = fail(GLIDE_ERR_PARAM, "glide: H5Pget_chunk failed");
        goto done;
    }
    const int nf = a->Pget_nfilters(dcpl);
    unsigned flags = 0, vals[GF_CD_MAX + 1], conf = 0;
    size_t nv = GF_CD_MAX + 1;
    char name[64];
    const H5Z_filter_t id = nf >= 1 ? a->Pget_filter2(dcpl, 0, &flags, &nv, vals, sizeof name, name, &conf) : -1;
    if (nf != 1 || id != GF_FILTER_ID) {
        r = fail(GLIDE_ERR_PARAM,
                 "glide: the dataset's filter pipeline must be GLIDE (%d) alone; it has %d filter(s)%s", GF_FILTER_ID,
                 nf, nf >= 1 && id != GF_FILTER_ID ? ", the first not GLIDE" : "");
        goto done;
    }
    char msg[256];
    if (nv > GF_CD_MAX || gf_parse(vals, nv, &d->cfg, msg, sizeof msg) || !d->cfg.has_internal) {
        r = fail(GLIDE_ERR_PARAM, "glide: the dataset's GLIDE parameters are not valid: %s",
                 nv > GF_CD_MAX ? "too many values" : d->cfg.has_internal ? msg : "set_local's part is missing");
        goto done;
    }
    d->chunk_points = 1;
    for (int i = 0; i < nd; i++) {
        d->chunk[i] = cd[i];
        if ((unsigned)nd != d->cfg.rank || cd[i] != d->cfg.dims[i]) {
            r = fail(GLIDE_ERR_PARAM, "glide: the GLIDE parameters' chunk shape is not the dataset's");
            goto done;
        }
        d->chunk_points *= cd[i];
    }
    if (gf_elem_size(d->cfg.dtype) != d->esz || d->cfg.byte_order != GF_ORDER_LE) {
        r = fail(GLIDE_ERR_PARAM, "glide: the GLIDE parameters' type or byte order is not the dataset's");
        goto done;
    }
    d->chunk_bytes = d->chunk_points * d->esz;
    if ((uint64_t)d->chunk_bytes > GLIDE_MAX_INPUT_BYTES) {
        r = fail(GLIDE_ERR_SIZE, "glide: chunks over 4 GiB");
        goto done;
    }
    /* HDF5 fills a new chunk with the fill value unless told never to
     * (then zeros); set_local's has_fill covers the default value (0) */
    H5D_fill_time_t ft = H5D_FILL_TIME_IFSET;
    a->Pget_fill_time(dcpl, &ft);
    d->fill_bits = d->cfg.has_fill ? d->cfg.fill_bits : 0;
    d->pad_bits = ft == H5D_FILL_TIME_NEVER ? 0 : d->fill_bits;
done:
    if (dcpl >= 0) a->Pclose(dcpl);
    if (type >= 0) a->Tclose(type);
    a->Sclose(space);
    return r;
}

/* The selection as a grid of chunks. */
typedef struct {
    uint64_t start[GLIDE_MAX_RANK], count[GLIDE_MAX_RANK], nc[GLIDE_MAX_RANK];
    uint64_t n; /* chunks */
} sel_desc;

static size_t select_box(const ds_desc *d, const uint64_t *start, const uint64_t *count, sel_desc *s)
{
    s->n = 1;
    for (unsigned i = 0; i < d->rank; i++) {
        s->start[i] = start ? start[i] : 0;
        s->count[i] = count ? count[i] : d->dims[i];
        const uint64_t end = s->start[i] + s->count[i];
        if (s->start[i] > d->dims[i] || s->count[i] > d->dims[i] - s->start[i])
            return fail(GLIDE_ERR_PARAM, "glide: the selection reaches past the dataset on axis %u", i);
        if (s->start[i] % d->chunk[i] || (s->count[i] % d->chunk[i] && end != d->dims[i]))
            return fail(GLIDE_ERR_PARAM,
                        "glide: the selection is not a box of whole chunks on axis %u (start %llu, count %llu, "
                        "chunk %llu, dataset %llu)",
                        i, (unsigned long long)s->start[i], (unsigned long long)s->count[i],
                        (unsigned long long)d->chunk[i], (unsigned long long)d->dims[i]);
        s->nc[i] = (s->count[i] + d->chunk[i] - 1) / d->chunk[i];
        s->n *= s->nc[i];
    }
    return 0;
}

/* Chunk k of the selection: its box in the caller's buffer, and its offset in the dataset. */
static void chunk_at(const ds_desc *d, const sel_desc *s, uint64_t k, gh_box *b, hsize_t *offset)
{
    b->rank = d->rank;
    b->esz = d->esz;
    b->big = s->count;
    b->chunk = d->chunk;
    b->partial = 0;
    for (int i = (int)d->rank - 1; i >= 0; i--) {
        const uint64_t c = k % s->nc[i];
        k /= s->nc[i];
        b->off[i] = c * d->chunk[i];
        b->ext[i] = s->count[i] - b->off[i] < d->chunk[i] ? s->count[i] - b->off[i] : d->chunk[i];
        b->partial |= b->ext[i] < d->chunk[i];
        offset[i] = s->start[i] + b->off[i];
    }
}

enum { SLOT_STREAM, SLOT_RAW, SLOT_EMPTY };

typedef struct {
    uint64_t k;
    void *buf;
    size_t cap, size;
    int kind;
} slot;

/* One call's pipeline. free_ holds idle slots, ready those handed on. */
typedef struct {
    const ds_desc *d;
    const sel_desc *s;
    glide_params p;
    glide_memory mem;
    const void *src;
    void *dst;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    slot *slots;
    int *free_, nfree;
    int *ready, rhead, rcount, nslots;
    uint64_t next;
    int feeding_done, failed;
    size_t code;
    char msg[sizeof g_err];
} pipe_t;

static void pipe_fail(pipe_t *q, size_t code, const char *msg)
{
    pthread_mutex_lock(&q->mu);
    if (!q->failed) {
        q->failed = 1;
        q->code = code;
        snprintf(q->msg, sizeof q->msg, "%s", msg);
    }
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
}

static void push_ready(pipe_t *q, int i)
{
    q->ready[(q->rhead + q->rcount++) % q->nslots] = i;
    pthread_cond_broadcast(&q->cv);
}

static int pop_ready(pipe_t *q)
{
    const int i = q->ready[q->rhead];
    q->rhead = (q->rhead + 1) % q->nslots;
    q->rcount--;
    return i;
}

/* Slot i handed on to the next stage, or back to the idle ones (mu not held). */
static void hand_on(pipe_t *q, int i)
{
    pthread_mutex_lock(&q->mu);
    push_ready(q, i);
    pthread_mutex_unlock(&q->mu);
}

static void release(pipe_t *q, int i)
{
    pthread_mutex_lock(&q->mu);
    q->free_[q->nfree++] = i;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
}

/* A worker's own chunk buffer: on the device (device memory), pinned on
 * the host (host memory through the GPU backend), or plain host memory. */
typedef struct {
    pipe_t *q;
    void *host; /* a chunk of values in host memory */
    gh_dev *dev;
} worker;

static void worker_free(worker *w)
{
    if (w->dev) gh_dev_put(w->dev);
    else free(w->host);
}

static int worker_init(worker *w, pipe_t *q)
{
    char msg[256];
    memset(w, 0, sizeof *w);
    w->q = q;
    const size_t cb = q->d->chunk_bytes;
    if (q->mem == GLIDE_MEM_DEVICE) {
        if (!(w->dev = gh_dev_get(cb, 1, msg, sizeof msg))) {
            pipe_fail(q, GLIDE_ERROR(BACKEND), msg);
            return -1;
        }
        return 0;
    }
    /* pinned where the GPU codes the chunk; plain memory serves where it can't be had */
    if (glide_backend_resolve(q->p.backend) == GLIDE_BACKEND_GPU && (w->dev = gh_dev_get(cb, 0, msg, sizeof msg)))
        w->host = gh_dev_host(w->dev);
    else if (!(w->host = malloc(cb))) {
        pipe_fail(q, GLIDE_ERROR(NOMEM), "glide: out of memory (a worker's chunk buffer)");
        return -1;
    }
    return 0;
}

static size_t compress_one(worker *w, slot *sl)
{
    pipe_t *q = w->q;
    gh_box b;
    hsize_t off[GLIDE_MAX_RANK];
    chunk_at(q->d, q->s, sl->k, &b, off);
    glide_params p = q->p;
    if (q->mem == GLIDE_MEM_DEVICE) {
        if (gh_dev_gather(w->dev, &b, q->src, q->d->pad_bits)) return GLIDE_ERROR(GPU);
        return glide_compress_device(&p, gh_dev_chunk(w->dev), q->d->chunk_bytes, sl->buf, sl->cap);
    }
    gh_gather(&b, w->host, q->src, q->d->pad_bits);
    return glide_compress(&p, w->host, q->d->chunk_bytes, sl->buf, sl->cap);
}

static void *write_worker(void *arg)
{
    worker *w = arg;
    pipe_t *q = w->q;
    for (;;) {
        pthread_mutex_lock(&q->mu);
        while (!q->failed && q->next < q->s->n && q->nfree == 0) pthread_cond_wait(&q->cv, &q->mu);
        if (q->failed || q->next >= q->s->n) {
            pthread_mutex_unlock(&q->mu);
            break;
        }
        const int i = q->free_[--q->nfree];
        q->slots[i].k = q->next++;
        pthread_mutex_unlock(&q->mu);
        const size_t r = compress_one(w, &q->slots[i]);
        if (glide_is_error(r)) {
            char m[sizeof g_err];
            snprintf(m, sizeof m, "glide: chunk %llu could not be compressed (%s)", (unsigned long long)q->slots[i].k,
                     glide_error_name(r));
            pipe_fail(q, r, m);
            break;
        }
        q->slots[i].size = r;
        hand_on(q, i);
    }
    return NULL;
}

static size_t decode_one(worker *w, slot *sl)
{
    pipe_t *q = w->q;
    const ds_desc *d = q->d;
    gh_box b;
    hsize_t off[GLIDE_MAX_RANK];
    chunk_at(d, q->s, sl->k, &b, off);
    const int dev = q->mem == GLIDE_MEM_DEVICE;
    if (sl->kind == SLOT_EMPTY) {
        if (dev) return gh_dev_fill(w->dev, &b, q->dst, d->fill_bits) ? GLIDE_ERROR(GPU) : 0;
        gh_fill(w->host, d->chunk_points, d->esz, d->fill_bits);
        gh_scatter(&b, q->dst, w->host);
        return 0;
    }
    if (sl->kind == SLOT_RAW) { /* the filter was skipped for this chunk: the values as stored */
        if (sl->size != d->chunk_bytes) return GLIDE_ERROR(CORRUPT);
        if (dev) return gh_dev_scatter(w->dev, &b, q->dst, sl->buf) ? GLIDE_ERROR(GPU) : 0;
        gh_scatter(&b, q->dst, sl->buf);
        return 0;
    }
    glide_params sp;
    size_t r = glide_stream_info(sl->buf, sl->size, &sp);
    if (glide_is_error(r)) return r;
    if (r != d->chunk_bytes || gf_elem_size(sp.dtype) != d->esz || sp.rank != d->rank)
        return GLIDE_ERROR(CORRUPT);
    for (unsigned i = 0; i < d->rank; i++)
        if (sp.dims[i] != d->chunk[i]) return GLIDE_ERROR(CORRUPT);
    if (dev) {
        r = glide_decompress_device(sl->buf, sl->size, gh_dev_chunk(w->dev), d->chunk_bytes);
        if (!glide_is_error(r) && gh_dev_scatter(w->dev, &b, q->dst, gh_dev_chunk(w->dev)))
            r = GLIDE_ERROR(GPU);
        return r;
    }
    r = glide_decompress_with(q->p.backend, sl->buf, sl->size, w->host, d->chunk_bytes);
    if (!glide_is_error(r)) gh_scatter(&b, q->dst, w->host);
    return r;
}

static void *read_worker(void *arg)
{
    worker *w = arg;
    pipe_t *q = w->q;
    for (;;) {
        pthread_mutex_lock(&q->mu);
        while (!q->failed && q->rcount == 0 && !q->feeding_done) pthread_cond_wait(&q->cv, &q->mu);
        if (q->failed || q->rcount == 0) {
            pthread_mutex_unlock(&q->mu);
            break;
        }
        const int i = pop_ready(q);
        pthread_mutex_unlock(&q->mu);
        const size_t r = decode_one(w, &q->slots[i]);
        if (glide_is_error(r)) {
            char m[sizeof g_err];
            snprintf(m, sizeof m, "glide: chunk %llu could not be read (%s)", (unsigned long long)q->slots[i].k,
                     glide_error_name(r));
            pipe_fail(q, r, m);
            break;
        }
        release(q, i);
    }
    return NULL;
}

/* The caller's side of a write: each ready stream into the file. */
static void write_main(pipe_t *q, const gh_api *a, hid_t dset, hid_t dxpl)
{
    for (uint64_t done = 0; done < q->s->n;) {
        pthread_mutex_lock(&q->mu);
        while (!q->failed && q->rcount == 0) pthread_cond_wait(&q->cv, &q->mu);
        if (q->failed) {
            pthread_mutex_unlock(&q->mu);
            return;
        }
        const int i = pop_ready(q);
        pthread_mutex_unlock(&q->mu);
        slot *sl = &q->slots[i];
        gh_box b;
        hsize_t off[GLIDE_MAX_RANK];
        chunk_at(q->d, q->s, sl->k, &b, off);
        if (a->Dwrite_chunk(dset, dxpl, 0, off, sl->size, sl->buf) < 0) {
            char m[sizeof g_err];
            snprintf(m, sizeof m, "glide: H5Dwrite_chunk failed for chunk %llu (see HDF5's error stack)",
                     (unsigned long long)sl->k);
            pipe_fail(q, GLIDE_ERROR(GENERIC), m);
            return;
        }
        done++;
        release(q, i);
    }
}

/* The caller's side of a read: each chunk's bytes from the file into a slot. */
static void read_main(pipe_t *q, const gh_api *a, hid_t dset, hid_t dxpl)
{
    for (uint64_t k = 0; k < q->s->n; k++) {
        pthread_mutex_lock(&q->mu);
        while (!q->failed && q->nfree == 0) pthread_cond_wait(&q->cv, &q->mu);
        if (q->failed) {
            pthread_mutex_unlock(&q->mu);
            return;
        }
        const int i = q->free_[--q->nfree];
        pthread_mutex_unlock(&q->mu);
        slot *sl = &q->slots[i];
        gh_box b;
        hsize_t off[GLIDE_MAX_RANK], nbytes = 0;
        haddr_t addr = HADDR_UNDEF;
        unsigned fmask = 0;
        chunk_at(q->d, q->s, k, &b, off);
        sl->k = k;
        char m[sizeof g_err] = "";
        size_t code = GLIDE_ERROR(GENERIC);
        /* a chunk never written has no storage: it reads as the fill value */
        if (a->Dget_chunk_info_by_coord(dset, off, &fmask, &addr, &nbytes) < 0) {
            snprintf(m, sizeof m, "glide: H5Dget_chunk_info_by_coord failed for chunk %llu (see HDF5's error stack)",
                     (unsigned long long)k);
        } else if (addr == HADDR_UNDEF || nbytes == 0) {
            sl->kind = SLOT_EMPTY;
        } else if (nbytes > GLIDE_MAX_INPUT_BYTES + (uint64_t)GLIDE_MAX_RANK * 8 + 4096) {
            snprintf(m, sizeof m, "glide: chunk %llu claims %llu bytes", (unsigned long long)k,
                     (unsigned long long)nbytes);
        } else {
            if (nbytes > sl->cap) {
                void *nb = realloc(sl->buf, nbytes);
                if (!nb) {
                    snprintf(m, sizeof m, "glide: out of memory (a %llu-byte chunk)", (unsigned long long)nbytes);
                    code = GLIDE_ERROR(NOMEM);
                } else {
                    sl->buf = nb, sl->cap = nbytes;
                }
            }
            uint32_t mask = 0;
            size_t got = sl->cap;
            if (!m[0] && (a->Dread_chunk ? a->Dread_chunk(dset, dxpl, off, &mask, sl->buf)
                                         : a->Dread_chunk2(dset, dxpl, off, &mask, sl->buf, &got)) < 0)
                snprintf(m, sizeof m, "glide: H5Dread_chunk failed for chunk %llu (see HDF5's error stack)",
                         (unsigned long long)k);
            sl->size = nbytes;
            sl->kind = mask & 1 ? SLOT_RAW : SLOT_STREAM;
        }
        if (m[0]) {
            pipe_fail(q, code, m);
            return;
        }
        hand_on(q, i);
    }
}

static size_t run(int64_t dset, int64_t dxpl, const uint64_t *start, const uint64_t *count, const void *src,
                  void *dst, const glide_h5_opts *o, int writing)
{
    g_err[0] = 0;
    glide_h5_opts dflt;
    if (!o) glide_h5_opts_init(&dflt), o = &dflt;
    if ((!src && !dst) || (unsigned)o->memory > GLIDE_MEM_DEVICE || (unsigned)o->backend > GLIDE_BACKEND_GPU ||
        o->threads > GH_MAX_THREADS)
        return fail(GLIDE_ERR_PARAM, "glide: bad argument (NULL buffer, or an unknown memory, backend or thread count)");
    const gh_api *a = api();
    if (!a) return GLIDE_ERROR(PARAM); /* g_err says why */
    ds_desc d;
    sel_desc s;
    size_t r = describe(a, (hid_t)dset, &d);
    if (!glide_is_error(r)) r = select_box(&d, start, count, &s);
    if (glide_is_error(r) || s.n == 0) return r;
    const glide_backend be = o->backend;
    if (o->memory == GLIDE_MEM_DEVICE && glide_backend_resolve(GLIDE_BACKEND_GPU) != GLIDE_BACKEND_GPU)
        return fail(GLIDE_ERR_BACKEND, "glide: device memory needs the GPU backend, and none is usable here");
    unsigned nt = o->threads;
    if (!nt) {
        const long cores = sysconf(_SC_NPROCESSORS_ONLN);
        nt = cores > 0 ? (unsigned)cores : 1;
        if (glide_backend_resolve(be) == GLIDE_BACKEND_GPU) {
            if (nt > GH_GPU_THREADS) nt = GH_GPU_THREADS;
#ifdef GLIDE_HAVE_GPU
            const uint64_t fit = glide_gpu_free_memory() / 2 / (GH_THREAD_FIXED + GH_THREAD_CHUNKS * (uint64_t)d.chunk_bytes);
            if (nt > fit) nt = fit ? (unsigned)fit : 1;
#endif
        }
    }
    if (nt > s.n) nt = (unsigned)s.n;
    if (nt > GH_MAX_THREADS) nt = GH_MAX_THREADS;
#ifdef GLIDE_HAVE_GPU
    if (nt > 1 && glide_backend_resolve(be) == GLIDE_BACKEND_GPU) glide_gpu_reserve(nt);
#endif

    pipe_t q;
    memset(&q, 0, sizeof q);
    q.d = &d;
    q.s = &s;
    q.mem = o->memory;
    q.src = src;
    q.dst = dst;
    gf_chunk_params(&d.cfg, be, &q.p);
    pthread_mutex_init(&q.mu, NULL);
    pthread_cond_init(&q.cv, NULL);
    q.nslots = 2 * (int)nt;
    const size_t cap = glide_compress_bound(&q.p);
    q.slots = calloc((size_t)q.nslots, sizeof *q.slots);
    q.free_ = calloc((size_t)q.nslots, sizeof(int));
    q.ready = calloc((size_t)q.nslots, sizeof(int));
    worker *w = calloc(nt, sizeof *w);
    pthread_t *th = calloc(nt, sizeof *th);
    int ok = q.slots && q.free_ && q.ready && w && th && !glide_is_error(cap);
    for (int i = 0; ok && i < q.nslots; i++) {
        if (!(q.slots[i].buf = malloc(cap))) ok = 0;
        q.slots[i].cap = cap;
        q.free_[q.nfree++] = i;
    }
    if (!ok) pipe_fail(&q, GLIDE_ERROR(NOMEM), "glide: out of memory (the pipeline's buffers)");
    unsigned started = 0;
    for (; ok && started < nt; started++) {
        if (worker_init(&w[started], &q) ||
            pthread_create(&th[started], NULL, writing ? write_worker : read_worker, &w[started])) {
            worker_free(&w[started]);
            pipe_fail(&q, GLIDE_ERROR(GENERIC), "glide: could not start a worker thread");
            break;
        }
    }
    if (!q.failed) {
        if (writing) write_main(&q, a, (hid_t)dset, (hid_t)dxpl);
        else read_main(&q, a, (hid_t)dset, (hid_t)dxpl);
    }
    pthread_mutex_lock(&q.mu);
    q.feeding_done = 1;
    pthread_cond_broadcast(&q.cv);
    pthread_mutex_unlock(&q.mu);
    for (unsigned i = 0; i < started; i++) {
        pthread_join(th[i], NULL);
        worker_free(&w[i]);
    }
    r = q.failed ? q.code : 0;
    if (q.failed) snprintf(g_err, sizeof g_err, "%s", q.msg);
    for (int i = 0; q.slots && i < q.nslots; i++) free(q.slots[i].buf);
    free(q.slots);
    free(q.free_);
    free(q.ready);
    free(w);
    free(th);
    pthread_mutex_destroy(&q.mu);
    pthread_cond_destroy(&q.cv);
    return r;
}

size_t glide_h5_write(int64_t dset, int64_t dxpl, const uint64_t *start, const uint64_t *count, const void *buf,
                      const glide_h5_opts *o)
{
    if (!buf) return fail(GLIDE_ERR_PARAM, "glide: NULL buffer");
    return run(dset, dxpl, start, count, buf, NULL, o, 1);
}

size_t glide_h5_read(int64_t dset, int64_t dxpl, const uint64_t *start, const uint64_t *count, void *buf,
                     const glide_h5_opts *o)
{
    if (!buf) return fail(GLIDE_ERR_PARAM, "glide: NULL buffer");
    return run(dset, dxpl, start, count, NULL, buf, o, 0);
}
