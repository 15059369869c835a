/* The chunk's values between HDF5's pageable buffer and the device, and
 * the stream back. A pageable cudaMemcpy runs at one thread's memcpy
 * speed; here the values cross through a pinned buffer, copied on the host
 * by the copy helpers (gpu/host_copy.h) while the DMA engine moves the
 * pieces already there:
 * - downloads from 256 KiB (they paid at every size on every host tried);
 *   up to 1 MiB a kernel (values_out.cu) writes them into the pinned
 *   buffer piece by piece, raising each piece's word in mapped memory, so
 *   no DMA starts after the last kernel and no event is waited on per
 *   piece; above, DMA pieces, which the kernel's writes over the link lost
 *   to (docs/DESIGN.md);
 * - uploads from 16 MiB: a chunk that fits in the caller's caches arrives
 *   dirty there (HDF5 has just filled it), one thread copies it fast, and
 *   helpers must pull every line from that core, so smaller staged uploads
 *   measured slower through H5Dwrite on most hosts (docs/DESIGN.md);
 * - uploads from 1 MiB to 16 MiB take the gated upload (gg_gate_arm): the
 *   helpers copy while the caller queues the whole pipeline.
 * Transfers below these sizes or too large to stage, and a host whose
 * pinned buffer cannot be had, take the pageable copy; host memory that is
 * pinned already moves by one DMA. */
#include "gg_context.h"

#include <stdio.h>
#include <string.h>

#define GG_STAGE_DOWN_MIN ((size_t)256 << 10)
#define GG_STAGE_UP_MIN ((size_t)16 << 20)
#define GG_STAGE_MAX ((size_t)256 << 20)
#define GG_OUT_KERNEL_MAX ((size_t)1 << 20)
#define GG_OUT_PIECE_MIN ((size_t)64 << 10)

/* The gated upload: from 1 MiB; the helpers copy pieces of at least 64
 * KiB, and one DMA moves 512 KiB of them (or a piece, if larger). Each
 * stream wait costs the copy engine a few microseconds and a piece's DMA
 * cannot start before its copy is done: two DMAs of 64 KiB pieces let the
 * first half move while the helpers copy the second, and beat one DMA, four
 * and sixteen (docs/DESIGN.md). */
#define GG_GATE_MIN ((size_t)1 << 20)
#define GG_GATE_PIECE ((size_t)64 << 10)
#define GG_GATE_DMA ((size_t)512 << 10)

/* Streams of up to this many bytes come back written by the tail's last
 * kernel into pinned host memory (gg_deliver), not by copies queued behind
 * the tail's graph, whose first copy could start several microseconds after
 * the CRC kernel ended; a larger limit did not move 128^3 chunks' streams
 * beyond noise. */
#define GG_DELIVER_MAX ((uint64_t)256 << 10)

/* 1 if host memory p is pinned (glide_h5's workers pin theirs): the DMA
 * reads and writes it at full speed, where staging would only add a copy */
static int pinned(const void *p)
{
    struct cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeHost;
}

/* 1 if a transfer of bytes from or to host memory h goes through the
 * pinned buffer (from `from` bytes on) */
static int staged(const void *h, size_t bytes, size_t from)
{
    if (!gg_G.copy_helpers || bytes < from || bytes > GG_STAGE_MAX || bytes >= gg_G.stage_refused || pinned(h))
        return 0;
    if (gg_grow_host(&gg_G.h_stage, bytes)) return 1;
    gg_G.stage_refused = bytes;
    return 0;
}

typedef struct {
    void *dev;
    size_t bytes, piece;
    cudaError_t err;
} xfer;

/* upload: the copied pieces' DMA, queued in order as they are done */
static int up_after(void *ctx, size_t first, size_t count)
{
    xfer *x = ctx;
    const size_t off = first * x->piece, end = (first + count) * x->piece;
    x->err = cudaMemcpyAsync((uint8_t *)x->dev + off, (uint8_t *)gg_G.h_stage.p + off,
                             (end < x->bytes ? end : x->bytes) - off, cudaMemcpyHostToDevice, gg_G.s);
    return x->err != cudaSuccess;
}

/* download: a piece is copied out once its DMA is done (from any thread) */
static int down_before(void *ctx, size_t k)
{
    (void)ctx;
    return cudaEventSynchronize(gg_G.ev_piece[k]) != cudaSuccess;
}

/* Queues bytes from src into device memory d: returns once the host's part
 * is done. The helpers write the pinned pieces with non-temporal stores, so
 * that the DMA finds them in memory rather than dirty in a core's cache. */
cudaError_t gg_upload_values(void *d, const void *src, size_t bytes)
{
    if (!staged(src, bytes, GG_STAGE_UP_MIN)) return cudaMemcpyAsync(d, src, bytes, cudaMemcpyHostToDevice, gg_G.s);
    xfer x = {d, bytes, gg_copy_piece(bytes, (size_t)64 << 10), cudaSuccess};
    gg_copy_job j = {gg_G.h_stage.p, src, bytes, x.piece, NULL, up_after, &x, NULL, GG_COPY_STREAM, NULL};
    if (gg_copy_run(&j)) return x.err != cudaSuccess ? x.err : cudaErrorUnknown;
    return cudaSuccess;
}

/* The gated upload of a chunk too small for the staged one: the helper
 * threads start copying the values into the pinned buffer at once, the
 * last piece of each DMA's group raising the group's word in mapped
 * memory, while the caller queues each group's DMA behind a stream wait on
 * that word, then the whole pipeline; it joins the copy (gg_gate_fill)
 * before it waits on the device. A pageable cudaMemcpy returns only once
 * the driver has staged the whole chunk, and the device waits for that, the
 * DMA and the front's launch in turn.
 * The copy must not depend on the caller: queuing a kernel may wait for
 * the device (lazy module loading synchronises the context), and a copy
 * made after queuing hung there. Without helpers, or with stage timing
 * (its upload stage is the copy), the pageable copy; below 1 MiB too. The
 * pieces are written with non-temporal stores (GG_COPY_STREAM): with plain
 * stores they sat dirty in the helpers' caches, the DMA behind the waits
 * moved slower, and the gated upload lost to the pageable one on small
 * chunks (docs/DESIGN.md). */

static void gate_open(void *ctx, size_t k)
{
    (void)ctx;
    const size_t g = k / gg_G.gate.per_group;
    if (atomic_fetch_sub_explicit(&gg_G.gate.left[g], 1, memory_order_acq_rel) == 1)
        __atomic_store_n(&gg_G.h_gate[g], gg_G.gate.seq, __ATOMIC_RELEASE); /* after the group's stores */
}

/* Joins the posted copy; a no-op unless armed. */
void gg_gate_fill(void)
{
    if (!gg_G.gate.armed) return;
    gg_copy_join();
    gg_G.gate.armed = 0;
}

/* Queues the gated upload of bytes from src into device memory d: 1 if
 * queued (gg_gate_fill must follow before anything waits for the stream),
 * 0 if this upload is not gated (the caller uploads), -1 on a CUDA error
 * (the copy is joined: nothing stays blocked). */
int gg_gate_arm(void *d, const void *src, size_t bytes)
{
    gg_ctx *c = &gg_G;
    if (!c->wait32 || !c->copy_helpers || c->timing || bytes < GG_GATE_MIN || bytes >= GG_STAGE_UP_MIN ||
        pinned(src) || !gg_grow_host(&c->h_stage, bytes))
        return 0;
    const size_t piece = gg_copy_piece(bytes, GG_GATE_PIECE);
    size_t per = GG_GATE_DMA / piece;
    if (per < 1) per = 1;
    c->gate.per_group = per;
    const size_t np = (bytes + piece - 1) / piece, dma = per * piece;
    for (size_t g = 0; g * per < np; g++)
        atomic_store_explicit(&c->gate.left[g], (unsigned)(np - g * per < per ? np - g * per : per), memory_order_relaxed);
    c->gate.seq++;
    gg_copy_job j = {c->h_stage.p, src, bytes, piece, NULL, NULL, NULL, gate_open, GG_COPY_STREAM, NULL};
    if (gg_copy_post(&j)) return 0;
    c->gate.armed = 1;
    size_t k = 0;
    for (size_t off = 0; off < bytes; off += dma, k++) {
        const size_t m = bytes - off < dma ? bytes - off : dma;
        if (c->wait32(c->s, (CUdeviceptr)(uintptr_t)(c->dh_gate + k), c->gate.seq, CU_STREAM_WAIT_VALUE_GEQ) !=
            CUDA_SUCCESS) {
            /* a driver that refuses the wait: no gated uploads from now on.
             * The pieces queued so far move once the copy is joined, and the
             * caller's pageable upload follows them with the same bytes. */
            gg_gate_fill();
            c->wait32 = NULL;
            if (c->debug) fprintf(stderr, "glide: stream waits refused; uploads stay pageable\n");
            return 0;
        }
        if (cudaMemcpyAsync((uint8_t *)d + off, (uint8_t *)c->h_stage.p + off, m, cudaMemcpyHostToDevice, c->s) !=
            cudaSuccess) {
            gg_gate_fill();
            return -1;
        }
    }
    return 1;
}

/* values_out_k's piece k is in the pinned buffer once its word reads the
 * call's number; a word still not raised once the event behind the kernel
 * has passed, or a device error, fails the download */
static int out_before(void *ctx, size_t k)
{
    gg_ctx *c = ctx; /* the caller's context: helper threads have their own gg_cur */
    const uint32_t seq = c->out_seq;
    for (unsigned i = 1;; i++) {
        if (__atomic_load_n(&c->h_out_words[k], __ATOMIC_ACQUIRE) == seq) return 0;
        if ((i & 255u) == 0) {
            const cudaError_t e = cudaEventQuery(c->ev_out);
            if (e == cudaSuccess) return __atomic_load_n(&c->h_out_words[k], __ATOMIC_ACQUIRE) != seq;
            if (e != cudaErrorNotReady) return 1;
        }
        gg_copy_relax();
    }
}

/* Copies bytes of device memory d into dst, after everything queued so far,
 * and queues the copy of tail_bytes from tail_src (device) to tail_dst
 * (pinned) behind the values' copies: a staged download returns once its
 * host copies are done, and a small copy queued only then (the decoder's
 * state) would add its call, its DMA and a wait to the end of every call. */
cudaError_t gg_download_values(void *dst, const void *d, size_t bytes, void *tail_dst, const void *tail_src,
                               size_t tail_bytes)
{
    cudaError_t e;
    if (!staged(dst, bytes, GG_STAGE_DOWN_MIN)) {
        e = cudaMemcpyAsync(dst, d, bytes, cudaMemcpyDeviceToHost, gg_G.s);
        return e == cudaSuccess ? cudaMemcpyAsync(tail_dst, tail_src, tail_bytes, cudaMemcpyDeviceToHost, gg_G.s) : e;
    }
    if (bytes <= GG_OUT_KERNEL_MAX) {
        gg_ctx *c = &gg_G;
        const size_t piece = gg_copy_piece(bytes, GG_OUT_PIECE_MIN);
        c->out_seq++;
        uint32_t raise = c->out_seq;
        if (c->test.out_lost > 0) { /* the test hook: words that never come */
            c->test.out_lost--;
            raise--;
        }
        e = gg_values_out(d, bytes, piece, c->h_stage.p, c->d_out_cnt, c->dh_out_words, raise, c->s);
        if (e == cudaSuccess) e = cudaEventRecord(c->ev_out, c->s);
        if (e == cudaSuccess) e = cudaMemcpyAsync(tail_dst, tail_src, tail_bytes, cudaMemcpyDeviceToHost, c->s);
        if (e != cudaSuccess) return e;
        gg_copy_job j = {dst, c->h_stage.p, bytes, piece, out_before, NULL, c, NULL, 0, NULL};
        return gg_copy_run(&j) ? cudaErrorUnknown : cudaSuccess;
    }
    /* coarser pieces than the upload's: each costs a copy call and an event here */
    const size_t piece = gg_copy_piece(bytes, (size_t)256 << 10);
    for (size_t off = 0, k = 0; off < bytes; off += piece, k++) {
        e = cudaMemcpyAsync((uint8_t *)gg_G.h_stage.p + off, (const uint8_t *)d + off,
                            bytes - off < piece ? bytes - off : piece, cudaMemcpyDeviceToHost, gg_G.s);
        if (e == cudaSuccess) e = cudaEventRecord(gg_G.ev_piece[k], gg_G.s);
        if (e != cudaSuccess) return e;
    }
    if ((e = cudaMemcpyAsync(tail_dst, tail_src, tail_bytes, cudaMemcpyDeviceToHost, gg_G.s)) != cudaSuccess) return e;
    /* plain stores: the caller reads its buffer next, and non-temporal
     * stores into it made the call slower */
    gg_copy_job j = {dst, gg_G.h_stage.p, bytes, piece, down_before, NULL, NULL, NULL, 0, NULL};
    return gg_copy_run(&j) ? cudaErrorUnknown : cudaSuccess;
}

/* Queues the copy back of at most `bytes` of the stream and of the state
 * from offset state_from on (0, or GG_STATE_TAIL once the rest came early). */
cudaError_t gg_download_queue(size_t bytes, size_t state_from)
{
    cudaError_t e =
        bytes ? cudaMemcpyAsync(gg_G.h_out.p, gg_G.buf.p, bytes, cudaMemcpyDeviceToHost, gg_G.s) : cudaSuccess;
    if (e != cudaSuccess) return e;
    return cudaMemcpyAsync((uint8_t *)gg_G.h_st + state_from, (const uint8_t *)gg_G.d_st + state_from,
                           sizeof *gg_G.h_st - state_from, cudaMemcpyDeviceToHost, gg_G.s);
}

/* The whole state and `bytes` of the stream back; then the wait. */
size_t gg_download(size_t bytes)
{
    size_t r = 0;
    CK(gg_download_queue(bytes, 0), "download");
    CK(cudaStreamSynchronize(gg_G.s), "sync");
    gg_stage("download");
done:
    return r;
}

/* The largest stream gg_deliver hands over for a chunk whose raw stream
 * is raw_total bytes (0: none, and no kernel): up to GG_DELIVER_MAX, in
 * chunks of at most 16 times that (larger ones rarely compress that far,
 * and an empty kernel would lengthen their tail), never under stage timing
 * (its kernel-only times leave transfers out). */
uint64_t gg_deliver_limit(uint64_t raw_total)
{
    if (gg_G.timing || raw_total / 16 > GG_DELIVER_MAX) return 0;
    return GG_DELIVER_MAX < gg_G.h_out.cap ? GG_DELIVER_MAX : gg_G.h_out.cap;
}

int glide_gpu_copy(void *dst, const void *src, size_t bytes, int to_device)
{
    if (!glide_gpu_usable() || cudaSetDevice(gg_context()->device) != cudaSuccess ||
        cudaMemcpy(dst, src, bytes, to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    return 0;
}
