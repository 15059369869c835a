/* The boxes' copies on the device: one cudaMemcpy3DAsync per box of rank
 * up to 3 (the last three axes of higher ranks, once per outer index),
 * cudaMemcpyDefault so the other side may be host or device memory. */
#include "box.h"
#include "gpu_backend.h"

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

struct gh_dev {
    cudaStream_t s;
    void *chunk;
    size_t bytes;
};

gh_dev *gh_dev_new(size_t chunk_bytes, char *msg, size_t len)
{
    gh_dev *d = calloc(1, sizeof *d);
    const int dev = glide_gpu_device();
    if (!d || dev < 0 || cudaSetDevice(dev) != cudaSuccess ||
        cudaStreamCreateWithFlags(&d->s, cudaStreamNonBlocking) != cudaSuccess ||
        cudaMalloc(&d->chunk, chunk_bytes ? chunk_bytes : 1) != cudaSuccess) {
        snprintf(msg, len, "glide: %s", dev < 0 ? "no usable GPU for device memory" : "GPU setup failed (stream or chunk buffer)");
        cudaGetLastError();
        gh_dev_free(d);
        return NULL;
    }
    d->bytes = chunk_bytes;
    return d;
}

void gh_dev_free(gh_dev *d)
{
    if (!d) return;
    if (d->chunk) cudaFree(d->chunk);
    if (d->s) cudaStreamDestroy(d->s);
    free(d);
}

void *gh_dev_chunk(gh_dev *d) { return d->chunk; }

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

int gh_dev_gather(gh_dev *d, const gh_box *b, const void *big, const void *pad_chunk)
{
    int bad = b->partial && cudaMemcpyAsync(d->chunk, pad_chunk, d->bytes, cudaMemcpyHostToDevice, d->s) != cudaSuccess;
    bad = bad || copy_box(d, b, (void *)big, d->chunk, 1) || cudaStreamSynchronize(d->s) != cudaSuccess;
    if (bad) cudaGetLastError();
    return bad ? -1 : 0;
}

int gh_dev_scatter(gh_dev *d, const gh_box *b, void *big, const void *chunk)
{
    const int bad = copy_box(d, b, big, (void *)chunk, 0) || cudaStreamSynchronize(d->s) != cudaSuccess;
    if (bad) cudaGetLastError();
    return bad ? -1 : 0;
}
