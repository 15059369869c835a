/* Parallel host copies (host_copy.h).
 *
 * A job is published through one 64-bit ticket: the job's generation in
 * the high half, the next piece to take in the low half. Threads take a
 * piece with a compare-and-swap on the whole ticket, so a helper that wakes
 * late for a finished job (generation moved on, or the ticket closed) can
 * never take a piece of it, nor of a job still being set up: the caller
 * closes the ticket before it touches the job's fields and publishes the
 * next generation after. A piece's done flag is the last thing a thread
 * writes for it; the caller returns once every flag is set, so no helper
 * touches a job's memory after gg_copy_run returns.
 *
 * Helpers spin a while for the next job before they sleep: the chunks of
 * one H5Dwrite come back to back, and a condition-variable wake-up costs
 * tens of microseconds, as much as the copy of a 64^3 chunk. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "host_copy.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__SSE2__)
#include <emmintrin.h>
#endif

#define CLOSED 0xFFFFFFFFu
#define PIECE_ALIGN ((size_t)4096)

static struct {
    pthread_mutex_t m;
    pthread_cond_t cv;
    int started;
    unsigned helpers, sleepers; /* sleepers: under m */
    long spin_ns;               /* how long an idle helper watches for the next job */
    _Atomic uint64_t ticket;    /* generation << 32 | next piece, or CLOSED between jobs */
    atomic_size_t n_pieces;     /* read by helpers before they know the job is theirs */
    gg_copy_job job;            /* written only while the ticket is closed */
    atomic_uchar done[GG_COPY_MAX_PIECES];
    atomic_int failed;
} P = {.m = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER, .ticket = CLOSED};

static long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static uint32_t gen_of(uint64_t t) { return (uint32_t)(t >> 32); }

/* The next piece of generation gen, or -1 when it has none left for us. */
static long take(uint32_t gen)
{
    uint64_t t = atomic_load_explicit(&P.ticket, memory_order_acquire);
    for (;;) {
        const uint32_t k = (uint32_t)t;
        if (gen_of(t) != gen || k == CLOSED || k >= atomic_load_explicit(&P.n_pieces, memory_order_relaxed))
            return -1;
        /* success means the ticket still read (gen, k): the job was not
         * closed, so n_pieces and the job's fields are this job's */
        if (atomic_compare_exchange_weak_explicit(&P.ticket, &t, t + 1, memory_order_acq_rel, memory_order_acquire))
            return (long)k;
    }
}

/* memcpy with non-temporal stores where dst is 16-byte aligned (x86-64's
 * SSE2), fenced so that the stores are visible before anything the
 * caller writes next (a gate's word). */
static void copy_stream(uint8_t *dst, const uint8_t *src, size_t len)
{
#if defined(__x86_64__) || defined(__SSE2__)
    if (((uintptr_t)dst & 15u) == 0) {
        size_t i = 0;
        for (; i + 64 <= len; i += 64) {
            const __m128i a = _mm_loadu_si128((const __m128i *)(src + i));
            const __m128i b = _mm_loadu_si128((const __m128i *)(src + i + 16));
            const __m128i c = _mm_loadu_si128((const __m128i *)(src + i + 32));
            const __m128i d = _mm_loadu_si128((const __m128i *)(src + i + 48));
            _mm_stream_si128((__m128i *)(dst + i), a);
            _mm_stream_si128((__m128i *)(dst + i + 16), b);
            _mm_stream_si128((__m128i *)(dst + i + 32), c);
            _mm_stream_si128((__m128i *)(dst + i + 48), d);
        }
        if (i < len) memcpy(dst + i, src + i, len - i);
        _mm_sfence();
        return;
    }
#endif
    memcpy(dst, src, len);
}

static void copy_piece(size_t k)
{
    const gg_copy_job *j = &P.job;
    const size_t off = k * j->piece, len = j->bytes - off < j->piece ? j->bytes - off : j->piece;
    if (j->work) {
        if (j->work(j->ctx, k)) atomic_store_explicit(&P.failed, 1, memory_order_relaxed);
    } else if (j->before && j->before(j->ctx, k)) {
        atomic_store_explicit(&P.failed, 1, memory_order_relaxed);
    } else {
        uint8_t *d = (uint8_t *)j->dst + off;
        const uint8_t *s = (const uint8_t *)j->src + off;
        if (j->flags & GG_COPY_STREAM) copy_stream(d, s, len);
        else memcpy(d, s, len);
        if (j->copied) j->copied(j->ctx, k);
    }
    atomic_store_explicit(&P.done[k], 1, memory_order_release);
}

static void *helper(void *arg)
{
    (void)arg;
    uint32_t seen = 0; /* the generation of the last job this helper looked at */
    for (;;) {
        uint64_t t = atomic_load_explicit(&P.ticket, memory_order_acquire);
        if (gen_of(t) == seen) {
            const long until = now_ns() + P.spin_ns;
            for (unsigned i = 1; gen_of(t) == seen; i++) {
                gg_copy_relax();
                t = atomic_load_explicit(&P.ticket, memory_order_acquire);
                if ((i & 255u) == 0 && now_ns() > until) break;
            }
            if (gen_of(t) == seen) {
                pthread_mutex_lock(&P.m);
                P.sleepers++;
                while (gen_of(t = atomic_load_explicit(&P.ticket, memory_order_acquire)) == seen)
                    pthread_cond_wait(&P.cv, &P.m);
                P.sleepers--;
                pthread_mutex_unlock(&P.m);
            }
        }
        seen = gen_of(t);
        long k;
        while ((k = take(seen)) >= 0) copy_piece((size_t)k);
    }
    return NULL;
}

unsigned gg_copy_start(unsigned helpers, long spin_ns)
{
    pthread_mutex_lock(&P.m);
    if (!P.started) {
        P.started = 1;
        P.spin_ns = spin_ns;
        if (helpers > GG_COPY_MAX_HELPERS) helpers = GG_COPY_MAX_HELPERS;
        pthread_attr_t a;
        pthread_attr_init(&a);
        pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
        pthread_attr_setstacksize(&a, 256 * 1024); /* a work task (the host plan's plane) keeps tens of KiB of tables */
        for (unsigned i = 0; i < helpers; i++) {
            pthread_t th;
            if (pthread_create(&th, &a, helper, NULL) != 0) break;
            P.helpers++;
        }
        pthread_attr_destroy(&a);
    }
    const unsigned n = P.helpers;
    pthread_mutex_unlock(&P.m);
    return n;
}

size_t gg_copy_piece(size_t bytes, size_t min_piece)
{
    size_t p = (bytes + 15) / 16; /* about 16 pieces: the DMA follows the copies closely */
    const size_t fit = (bytes + GG_COPY_MAX_PIECES - 1) / GG_COPY_MAX_PIECES;
    if (p < min_piece) p = min_piece;
    if (p < fit) p = fit;
    p = (p + PIECE_ALIGN - 1) / PIECE_ALIGN * PIECE_ALIGN;
    return p;
}

int gg_copy_post(const gg_copy_job *j)
{
    if (!j->piece) return 1;
    const size_t np = (j->bytes + j->piece - 1) / j->piece;
    if (np > GG_COPY_MAX_PIECES) return 1;
    /* the ticket is closed: nobody reads the fields now */
    P.job = *j;
    atomic_store_explicit(&P.n_pieces, np, memory_order_relaxed);
    for (size_t k = 0; k < np; k++) atomic_store_explicit(&P.done[k], 0, memory_order_relaxed);
    atomic_store_explicit(&P.failed, 0, memory_order_relaxed);
    const uint32_t gen = gen_of(atomic_load(&P.ticket)) + 1;
    atomic_store_explicit(&P.ticket, (uint64_t)gen << 32, memory_order_release);
    if (P.helpers) {
        pthread_mutex_lock(&P.m);
        if (P.sleepers) pthread_cond_broadcast(&P.cv);
        pthread_mutex_unlock(&P.m);
    }
    return 0;
}

int gg_copy_join(void)
{
    /* the posted job's: helpers only move the ticket's piece half */
    const gg_copy_job *j = &P.job;
    const uint32_t gen = gen_of(atomic_load(&P.ticket));
    const size_t np = atomic_load_explicit(&P.n_pieces, memory_order_relaxed);
    int bad = 0;
    size_t next = 0; /* the first piece whose `after` is still to come */
    while (next < np) {
        const long k = take(gen);
        if (k >= 0) copy_piece((size_t)k);
        const size_t first = next;
        while (next < np && atomic_load_explicit(&P.done[next], memory_order_acquire)) next++;
        if (next > first && j->after && !bad) bad = j->after(j->ctx, first, next - first) != 0;
        if (k < 0 && next < np) gg_copy_relax(); /* the rest are being copied by helpers */
    }
    atomic_store(&P.ticket, ((uint64_t)gen << 32) | CLOSED);
    return bad || atomic_load_explicit(&P.failed, memory_order_relaxed);
}

int gg_copy_busy(void) { return (uint32_t)atomic_load(&P.ticket) != CLOSED; }

int gg_copy_run(const gg_copy_job *j)
{
    if (!j->bytes) return 0;
    return gg_copy_post(j) || gg_copy_join();
}
