/* Parallel host copies for the GPU backend's transfers through pinned
 * memory. HDF5 hands the filter pageable buffers; a pageable cudaMemcpy is
 * a single-threaded host copy into the driver's staging plus the DMA, and
 * runs at the speed of that one copy (9-18 GB/s on the device hosts, where
 * the copy engine moves 55 GB/s from pinned memory). Here a few helper
 * threads and the caller copy pieces between the user's buffer and a pinned
 * one while the DMA engine moves the pieces already copied.
 *
 * Plain C and pthreads, no CUDA: the caller's hooks do the device side.
 * One job at a time (the GPU context's lock serialises chunks). */
#ifndef GLIDE_HOST_COPY_H
#define GLIDE_HOST_COPY_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GG_COPY_MAX_PIECES 64u
#define GG_COPY_MAX_HELPERS 16u
#define GG_COPY_DEFAULT_HELPERS 4u

/* One pause in a spin-wait (a helper watching for work, a hook watching
 * for a piece). */
static inline void gg_copy_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("pause");
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Starts `helpers` threads (at most GG_COPY_MAX_HELPERS) once per process;
 * returns how many run. Later calls return the same number. */
unsigned gg_copy_start(unsigned helpers, long spin_ns);

/* How a job of `bytes` is cut: about 16 pieces of at least min_piece
 * bytes, a multiple of 4 KiB, at most GG_COPY_MAX_PIECES of them. */
size_t gg_copy_piece(size_t bytes, size_t min_piece);

typedef struct {
    void *dst;
    const void *src;
    size_t bytes, piece; /* piece from gg_copy_piece */
    /* Called by whichever thread copies piece k, before it reads src
     * (a download waits there for the piece's DMA); may be NULL. Returns
     * nonzero on failure: the piece is then not copied. */
    int (*before)(void *ctx, size_t k);
    /* Called by the calling thread only, in piece order, for each run of
     * pieces first .. first + count - 1 whose copies are done (an upload
     * queues their DMA there); may be NULL. Returns nonzero on failure. */
    int (*after)(void *ctx, size_t first, size_t count);
    void *ctx;
    /* Called by whichever thread copied piece k, once its bytes are in
     * dst (a gated upload opens the piece's gate there); may be NULL. */
    void (*copied)(void *ctx, size_t k);
    /* GG_COPY_STREAM: write dst with non-temporal stores (x86; elsewhere
     * a plain copy), so that it is in memory, not dirty in a core's cache,
     * when a DMA engine reads it. */
    unsigned flags;
    /* Where set, called for piece k instead of its copy (dst, src and
     * flags unused; bytes and piece only count the pieces): the helpers
     * then run a few independent tasks, such as the host plan's planes.
     * Returns nonzero on failure. */
    int (*work)(void *ctx, size_t k);
} gg_copy_job;
#define GG_COPY_STREAM 1u

/* Runs the job with the helpers and returns once every piece is copied and
 * every `after` has been called: 0, or nonzero if a hook failed (the
 * remaining pieces are still accounted for, so the next job starts clean). */
int gg_copy_run(const gg_copy_job *job);

/* gg_copy_run in two halves: gg_copy_post hands the job to the helpers and
 * returns at once (nonzero, and nothing posted, for a job that cannot be
 * cut into GG_COPY_MAX_PIECES pieces), so the caller can do other work
 * while they copy; gg_copy_join then takes the pieces still left, waits
 * for the rest, makes the `after` calls and returns as gg_copy_run does.
 * Every post needs its join before the next job. */
int gg_copy_post(const gg_copy_job *job);
int gg_copy_join(void);

/* Whether a posted job awaits its join (no other job may be posted). */
int gg_copy_busy(void);

#ifdef __cplusplus
}
#endif
#endif
