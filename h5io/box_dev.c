/* The boxes' copies on the device: one cudaMemcpy3DAsync per box of rank
 * up to 3 (the last three axes of higher ranks, once per outer index),
 * cudaMemcpyDefault so the other side may be host or device memory; and
 * the pool of the workers' GPU resources (box.h). */
#include "box.h"
#include "gpu_backend.h"

#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct gh_dev {
    int device;
    cudaStream_t s;
    size_t bytes; /* this call's chunk */
    void *chunk, *pad, *host;
    size_t chunk_cap, pad_cap, host_cap;
    size_t pad_esz, pad_made; /* the pad holds pad_made bytes of pad_bits in values of pad_esz bytes */
    uint64_t pad_bits;
};

/* Idle resources, kept for the next call: as many as workers ever ran at once, up to this many */
#define GH_POOL 64
static gh_dev *g_pool[GH_POOL];
static unsigned g_pooled;
static pthread_mutex_t g_pool_lock = PTHREAD_MUTEX_INITIALIZER;

static void destroy(gh_dev *d)
{
    if (!d) return;
    cudaSetDevice(d->device);
    if (d->chunk) cudaFree(d->chunk);
    if (d->pad) cudaFree(d->pad);
    if (d->host) cudaFreeHost(d->host);
    if (d->s) cudaStreamDestroy(d->s);
    cudaGetLastError();
    free(d);
}

/* *p of at least need bytes (device, or pinned host), its contents dropped where it grows */
static int grow(void **p, size_t *cap, size_t need, int host)
{
    if (*cap >= need && *p) return 0;
    if (*p) host ? cudaFreeHost(*p) : cudaFree(*p);
    *p = NULL, *cap = 0;
    if ((host ? cudaHostAlloc(p, need ? need : 1, cudaHostAllocDefault) : cudaMalloc(p, need ? need : 1)) !=
        cudaSuccess) {
        *p = NULL;
        return -1;
    }
    *cap = need;
    return 0;
}

gh_dev *gh_dev_get(size_t chunk_bytes, int dev_chunk, char *msg, size_t len)
{
    const int dev = glide_gpu_device();
    if (dev < 0) {
        snprintf(msg, len, "glide: no usable GPU");
        return NULL;
    }
    gh_dev *d = NULL;
    pthread_mutex_lock(&g_pool_lock);
    if (g_pooled) d = g_pool[--g_pooled];
    pthread_mutex_unlock(&g_pool_lock);
    int bad = cudaSetDevice(dev) != cudaSuccess;
    if (!d && !bad) {
        bad = !(d = calloc(1, sizeof *d));
        if (!bad) {
            d->device = dev;
            bad = cudaStreamCreateWithFlags(&d->s, cudaStreamNonBlocking) != cudaSuccess;
        }
    }
    if (!bad) {
        d->bytes = chunk_bytes;
        bad = dev_chunk ? grow(&d->chunk, &d->chunk_cap, chunk_bytes, 0) : grow(&d->host, &d->host_cap, chunk_bytes, 1);
    }
    if (bad) {
        snprintf(msg, len, "glide: GPU setup failed (a worker's stream or %s chunk buffer)",
                 dev_chunk ? "device" : "pinned host");
        cudaGetLastError();
        destroy(d);
        return NULL;
    }
    return d;
}

void gh_dev_put(gh_dev *d)
{
    if (!d) return;
    pthread_mutex_lock(&g_pool_lock);
    const int kept = g_pooled < GH_POOL;
    if (kept) g_pool[g_pooled++] = d;
    pthread_mutex_unlock(&g_pool_lock);
    if (!kept) destroy(d);
}

void *gh_dev_chunk(gh_dev *d) { return d->chunk; }

void *gh_dev_host(gh_dev *d) { return d->host; }

/* The device pad: a whole chunk of bits, made once for each value */
static int pad_make(gh_dev *d, size_t esz, uint64_t bits)
{
    if (d->pad_made >= d->bytes && d->pad_esz == esz && d->pad_bits == bits) return 0;
    d->pad_made = 0;
    if (grow(&d->pad, &d->pad_cap, d->bytes, 0)) return -1;
    int bad;
    if (!bits) {
        bad = cudaMemsetAsync(d->pad, 0, d->bytes, d->s) != cudaSuccess;
    } else {
        void *h = malloc(d->bytes ? d->bytes : 1);
        if (!h) return -1;
        gh_fill(h, d->bytes / esz, esz, bits);
        /* on the worker's stream, which does not wait for the legacy one
         * (a cudaMemcpy from pageable memory may return before its DMA is
         * done); h is freed once the copy is */
        bad = cudaMemcpyAsync(d->pad, h, d->bytes, cudaMemcpyHostToDevice, d->s) != cudaSuccess ||
              cudaStreamSynchronize(d->s) != cudaSuccess;
        free(h);
    }
    if (bad) return -1;
    d->pad_made = d->bytes, d->pad_esz = esz, d->pad_bits = bits;
    return 0;
}

/* to_chunk: big -> chunk, else chunk -> big */
static int copy_box(gh_dev *d, const gh_box *b, void *big, void *chunk, int to_chunk)
{
    const unsigned r = b->rank, outer = r > 3 ? r - 3 : 0;
    uint64_t bd[3] = {1, 1, 1}, cd[3] = {1, 1, 1}, off[3] = {0, 0, 0}, ext[3] = {1, 1, 1};
    for (unsigned k = outer; k < r; k++) {
        const unsigned a = 3 - (r - k);
        bd[a] = b->big[k], cd[a] = b->chunk[k], off[a] = b->off[k], ext[a] = b->ext[k];
    }
    uint64_t idx[GLIDE_MAX_RANK] = {0};
    for (;;) {
        uint64_t bo = 0, co = 0; /* the outer axes' offsets, in elements */
        for (unsigned k = 0; k < outer; k++) {
            bo = bo * b->big[k] + b->off[k] + idx[k];
            co = co * b->chunk[k] + idx[k];
        }
        bo *= bd[0] * bd[1] * bd[2];
        co *= cd[0] * cd[1] * cd[2];
        struct cudaMemcpy3DParms p = {0};
        struct cudaPitchedPtr pb = make_cudaPitchedPtr((uint8_t *)big + bo * b->esz, bd[2] * b->esz, bd[2], bd[1]);
        struct cudaPitchedPtr pc = make_cudaPitchedPtr((uint8_t *)chunk + co * b->esz, cd[2] * b->esz, cd[2], cd[1]);
        const struct cudaPos at = make_cudaPos(off[2] * b->esz, off[1], off[0]), zero = make_cudaPos(0, 0, 0);
        p.srcPtr = to_chunk ? pb : pc;
        p.srcPos = to_chunk ? at : zero;
        p.dstPtr = to_chunk ? pc : pb;
        p.dstPos = to_chunk ? zero : at;
        p.extent = make_cudaExtent(ext[2] * b->esz, ext[1], ext[0]);
        p.kind = cudaMemcpyDefault;
        if (cudaMemcpy3DAsync(&p, d->s) != cudaSuccess) return -1;
        int k = (int)outer - 1;
        while (k >= 0 && ++idx[k] == b->ext[k]) idx[k--] = 0;
        if (k < 0) break;
    }
    return 0;
}

static int ended(int bad)
{
    if (bad) cudaGetLastError();
    return bad ? -1 : 0;
}

int gh_dev_gather(gh_dev *d, const gh_box *b, const void *big, uint64_t pad_bits)
{
    int bad = cudaSetDevice(d->device) != cudaSuccess;
    if (!bad && b->partial)
        bad = pad_make(d, b->esz, pad_bits) ||
              cudaMemcpyAsync(d->chunk, d->pad, d->bytes, cudaMemcpyDeviceToDevice, d->s) != cudaSuccess;
    bad = bad || copy_box(d, b, (void *)big, d->chunk, 1) || cudaStreamSynchronize(d->s) != cudaSuccess;
    return ended(bad);
}

int gh_dev_scatter(gh_dev *d, const gh_box *b, void *big, const void *chunk)
{
    const int bad = cudaSetDevice(d->device) != cudaSuccess || copy_box(d, b, big, (void *)chunk, 0) ||
                    cudaStreamSynchronize(d->s) != cudaSuccess;
    return ended(bad);
}

int gh_dev_fill(gh_dev *d, const gh_box *b, void *big, uint64_t fill_bits)
{
    const int bad = cudaSetDevice(d->device) != cudaSuccess || pad_make(d, b->esz, fill_bits) ||
                    copy_box(d, b, big, d->pad, 0) || cudaStreamSynchronize(d->s) != cudaSuccess;
    return ended(bad);
}
