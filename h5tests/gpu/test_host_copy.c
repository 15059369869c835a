/* The GPU backend's parallel host copy (gpu/host_copy.c): plain C, so it
 * runs without a GPU. Every byte lands, `before` runs once per piece ahead
 * of its copy, `after` runs on the caller's thread in piece order over
 * pieces already copied, failures are reported and leave the next job
 * clean, and thousands of back-to-back jobs (helpers racing for pieces,
 * waking late, sleeping and being woken) never mix two jobs. A posted job
 * (gg_copy_post) calls `copied` once per piece with its bytes in place,
 * is finished by the helpers alone while the caller does something else
 * (the gated upload's deadlock freedom rests on it), and its join returns
 * with every piece copied, helpers or not.
 *   test_host_copy HELPERS */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "check.h"
#include "host_copy.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

enum { POISON = 0xA5 };

/* One 20 µs nap of a wait that *t0 (zero before the first) started; 0 once
 * the wait is over 5 s old, so that a test waiting for the helpers on a
 * busy machine still ends. */
static int nap_within_5s(struct timespec *t0)
{
    struct timespec now, nap = {0, 20000};
    if (!t0->tv_sec && !t0->tv_nsec) clock_gettime(CLOCK_MONOTONIC, t0);
    nanosleep(&nap, NULL);
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec - t0->tv_sec <= 5;
}

typedef struct {
    const uint8_t *src;
    uint8_t *dst;
    size_t bytes, piece, np;
    atomic_uint before_calls[GG_COPY_MAX_PIECES];
    atomic_int before_saw_copied; /* a piece's destination already written when its `before` ran */
    size_t after_next;            /* the piece the next `after` must start at */
    int after_calls, after_bad_order, after_not_copied, after_wrong_thread, after_failed, after_past_failure;
    pthread_t caller;
    long fail_before, fail_after; /* piece whose hook fails, or -1 */
} probe;

static int hook_before(void *ctx, size_t k)
{
    probe *p = ctx;
    atomic_fetch_add(&p->before_calls[k], 1u);
    if (p->dst[k * p->piece] != POISON) atomic_store(&p->before_saw_copied, 1);
    return (long)k == p->fail_before;
}

static int hook_after(void *ctx, size_t first, size_t count)
{
    probe *p = ctx;
    p->after_calls++;
    if (p->after_failed) p->after_past_failure++;
    if (!pthread_equal(pthread_self(), p->caller)) p->after_wrong_thread++;
    if (first != p->after_next || count == 0 || first + count > p->np) p->after_bad_order++;
    p->after_next = first + count;
    const size_t off = first * p->piece, end = (first + count) * p->piece;
    const size_t len = (end < p->bytes ? end : p->bytes) - off;
    if (memcmp(p->dst + off, p->src + off, len) != 0) p->after_not_copied++;
    if ((long)first <= p->fail_after && p->fail_after < (long)(first + count)) p->after_failed = 1;
    return p->after_failed;
}

/* One job of `bytes` with hooks; returns gg_copy_run's result and fills p. */
static int run_probe(probe *p, uint8_t *src, uint8_t *dst, size_t bytes, size_t min_piece, long fail_before,
                     long fail_after)
{
    memset(p, 0, sizeof *p);
    p->src = src;
    p->dst = dst;
    p->bytes = bytes;
    p->piece = gg_copy_piece(bytes, min_piece);
    p->np = (bytes + p->piece - 1) / p->piece;
    p->caller = pthread_self();
    p->fail_before = fail_before;
    p->fail_after = fail_after;
    for (size_t i = 0; i < bytes; i++) src[i] = (uint8_t)rnd();
    for (size_t k = 0; k < p->np; k++) src[k * p->piece] = (uint8_t)~POISON; /* every piece's first byte changes */
    memset(dst, POISON, bytes);
    gg_copy_job j = {dst, src, bytes, p->piece, hook_before, hook_after, p, NULL, 0, NULL};
    return gg_copy_run(&j);
}

typedef struct {
    const uint8_t *src, *dst;
    size_t piece, bytes;
    atomic_uint calls[GG_COPY_MAX_PIECES];
    atomic_int not_in_place;
} copied_probe;

static void hook_copied(void *ctx, size_t k)
{
    copied_probe *c = ctx;
    const size_t off = k * c->piece, len = c->bytes - off < c->piece ? c->bytes - off : c->piece;
    if (memcmp(c->dst + off, c->src + off, len) != 0) atomic_store(&c->not_in_place, 1);
    atomic_fetch_add(&c->calls[k], 1u);
}

static int once_each(probe *p)
{
    for (size_t k = 0; k < p->np; k++)
        if (atomic_load(&p->before_calls[k]) != 1) return 0;
    return 1;
}

/* A work job's record: how often each piece's task ran, whether one ran
 * off the caller's thread, and which piece fails (-1: none). */
typedef struct {
    size_t np;
    long fail_at;
    pthread_t caller;
    atomic_int calls[GG_COPY_MAX_PIECES];
    atomic_int off_caller;
} work_probe;

static int hook_work(void *ctx, size_t k)
{
    work_probe *w = ctx;
    atomic_fetch_add(&w->calls[k], 1);
    if (!pthread_equal(pthread_self(), w->caller)) atomic_fetch_add(&w->off_caller, 1);
    return (long)k == w->fail_at;
}

int main(int argc, char **argv)
{
    const unsigned want = argc > 1 ? (unsigned)atoi(argv[1]) : 3;
    const unsigned got = gg_copy_start(want, 200000);
    CHECK(got == (want > GG_COPY_MAX_HELPERS ? GG_COPY_MAX_HELPERS : want), "%u helpers started, %u asked", got,
          want);
    CHECK(gg_copy_start(want + 2, 0) == got, "a second start keeps the helpers");

    /* the cut: 4 KiB multiples, at least min_piece, at most 64 pieces, covering the bytes */
    {
        int bad = 0;
        for (int i = 0; i < 20000; i++) {
            const size_t bytes = 1 + (size_t)(rnd() % ((i % 3 == 0) ? (1ull << 34) : (1ull << 22)));
            const size_t min_piece = (size_t)4096 << (rnd() % 8);
            const size_t p = gg_copy_piece(bytes, min_piece), np = (bytes + p - 1) / p;
            if (p % 4096 || p < min_piece || np > GG_COPY_MAX_PIECES || np * p < bytes) bad++;
        }
        CHECK(bad == 0, "gg_copy_piece: %d of 20000 cuts out of bounds", bad);
    }

    const size_t max_bytes = (size_t)9 << 20;
    uint8_t *src = malloc(max_bytes), *dst = malloc(max_bytes);
    if (!src || !dst) return 1;
    probe *p = calloc(1, sizeof *p);

    /* sizes from one byte to 9 MiB, pieces from 4 KiB */
    {
        int bad_data = 0, bad_before = 0, bad_after = 0, rc = 0, jobs = 0;
        for (int i = 0; i < 300; i++) {
            size_t bytes = i < 40 ? (size_t)i + 1 : 1 + (size_t)(rnd() % max_bytes);
            if (i % 7 == 0) bytes = (size_t)((rnd() % 64) + 1) * 4096; /* whole pieces */
            const size_t min_piece = (size_t)4096 << (rnd() % 7);
            rc |= run_probe(p, src, dst, bytes, min_piece, -1, -1);
            jobs++;
            if (memcmp(src, dst, bytes) != 0) bad_data++;
            if (!once_each(p) || atomic_load(&p->before_saw_copied)) bad_before++;
            if (p->after_bad_order || p->after_not_copied || p->after_wrong_thread || p->after_next != p->np)
                bad_after++;
        }
        CHECK(rc == 0, "every job reports success");
        CHECK(bad_data == 0, "%d of %d jobs copied every byte wrongly", bad_data, jobs);
        CHECK(bad_before == 0, "%d of %d jobs: `before` not once per piece ahead of its copy", bad_before, jobs);
        CHECK(bad_after == 0, "%d of %d jobs: `after` not in order, on the caller, over copied pieces", bad_after,
              jobs);
    }

    /* failing hooks: reported, and the next job is clean */
    {
        const size_t bytes = (size_t)3 << 20;
        int rc = run_probe(p, src, dst, bytes, 4096, 5, -1);
        CHECK(rc != 0, "a failing `before` fails the job");
        CHECK(once_each(p) && p->after_next == p->np, "the other pieces still run their hooks");
        rc = run_probe(p, src, dst, bytes, 4096, -1, 3);
        CHECK(rc != 0, "a failing `after` fails the job");
        CHECK(p->after_failed && p->after_past_failure == 0, "no `after` past the failing one");
        rc = run_probe(p, src, dst, bytes, 4096, -1, -1);
        CHECK(rc == 0 && memcmp(src, dst, bytes) == 0 && once_each(p), "the job after the failures is clean");
    }

    /* a job without hooks; an empty job */
    {
        const size_t bytes = (size_t)5 << 20;
        for (size_t i = 0; i < bytes; i++) src[i] = (uint8_t)rnd();
        memset(dst, 0, bytes);
        gg_copy_job j = {dst, src, bytes, gg_copy_piece(bytes, 65536), NULL, NULL, NULL, NULL, 0, NULL};
        CHECK(gg_copy_run(&j) == 0 && memcmp(src, dst, bytes) == 0, "no hooks: every byte copied");
        gg_copy_job e = {dst, src, 0, 4096, NULL, NULL, NULL, NULL, 0, NULL};
        CHECK(gg_copy_run(&e) == 0, "an empty job succeeds");
        gg_copy_job over = {dst, src, bytes, 4096, NULL, NULL, NULL, NULL, 0, NULL}; /* 1280 pieces */
        CHECK(gg_copy_run(&over) != 0, "more than GG_COPY_MAX_PIECES pieces is refused");
    }

    /* back to back: many small jobs of many pieces, where helpers arriving
     * late for one job meet the next */
    {
        int bad = 0;
        const int n_jobs = 20000;
        for (int i = 0; i < n_jobs; i++) {
            const size_t bytes = 1 + (size_t)(rnd() % (256 * 1024));
            const uint8_t tag = (uint8_t)i;
            memset(src, tag, bytes);
            dst[bytes - 1] = (uint8_t)~tag;
            dst[0] = (uint8_t)~tag;
            gg_copy_job j = {dst, src, bytes, gg_copy_piece(bytes, 4096), NULL, NULL, NULL, NULL, 0, NULL};
            if (gg_copy_run(&j) != 0 || dst[0] != tag || dst[bytes - 1] != tag || dst[bytes / 2] != tag) bad++;
        }
        CHECK(bad == 0, "%d of %d back-to-back jobs wrong", bad, n_jobs);
    }

    /* posted jobs: `copied` once per piece with its bytes there; with
     * helpers, the job completes while the caller waits elsewhere */
    {
        copied_probe *c = calloc(1, sizeof *c);
        int bad = 0, alone = 0;
        for (int i = 0; i < 200; i++) {
            const size_t bytes = 1 + (size_t)(rnd() % ((size_t)2 << 20));
            for (size_t b = 0; b < bytes; b++) src[b] = (uint8_t)rnd();
            memset(dst, POISON, bytes);
            memset(c, 0, sizeof *c);
            c->src = src, c->dst = dst, c->bytes = bytes, c->piece = gg_copy_piece(bytes, 4096 << (i % 7));
            const size_t np = (bytes + c->piece - 1) / c->piece;
            /* every other job with non-temporal stores: same bytes, odd tails included */
            gg_copy_job j = {dst, src, bytes, c->piece, NULL, NULL, c, hook_copied, (i & 1) ? GG_COPY_STREAM : 0u,
                             NULL};
            if (gg_copy_post(&j)) { bad++; continue; }
            if (got) { /* the helpers finish it without the caller (up to 5 s) */
                struct timespec t0 = {0, 0};
                for (size_t k = 0; k < np;) {
                    if (atomic_load(&c->calls[k])) k++;
                    else if (!nap_within_5s(&t0)) break;
                }
                for (size_t k = 0; k < np; k++) alone += atomic_load(&c->calls[k]) == 1;
                alone -= (int)np; /* 0 when every piece was copied by the helpers */
            }
            if (gg_copy_join() != 0 || memcmp(src, dst, bytes) != 0 || atomic_load(&c->not_in_place)) bad++;
            for (size_t k = 0; k < np; k++) bad += atomic_load(&c->calls[k]) != 1;
        }
        CHECK(bad == 0, "posted jobs: %d wrong (bytes, or `copied` not once per piece after its copy)", bad);
        CHECK(alone == 0, "posted jobs: %d pieces left for the caller's join although helpers run", -alone);
        free(c);
    }

    /* work jobs (the host plan's planes): each piece's task once, no byte
     * copied, a failing task fails the job; busy from post to join; with
     * helpers, they take tasks */
    {
        work_probe w;
        int bad = 0, shared = 0;
        memset(dst, POISON, 4096);
        for (int i = 0; i < 2000; i++) {
            memset(&w, 0, sizeof w);
            w.np = 1 + (size_t)(rnd() % 8);
            w.fail_at = i % 10 == 9 ? (long)(rnd() % w.np) : -1;
            w.caller = pthread_self();
            gg_copy_job j = {NULL, NULL, w.np * 4096, 4096, NULL, NULL, &w, NULL, 0, hook_work};
            if (gg_copy_busy() || gg_copy_post(&j) || !gg_copy_busy()) { bad++; continue; }
            if (got && i % 100 == 0) { /* on a busy machine the helpers may not run within one job: wait (up to 5 s) */
                struct timespec t0 = {0, 0};
                while (!atomic_load(&w.off_caller) && nap_within_5s(&t0)) {
                }
            }
            const int rc = gg_copy_join();
            bad += gg_copy_busy() || (rc != 0) != (w.fail_at >= 0);
            for (size_t k = 0; k < w.np; k++) bad += atomic_load(&w.calls[k]) != 1;
            shared += atomic_load(&w.off_caller) > 0;
        }
        CHECK(bad == 0, "work jobs: %d wrong (a task not once, a verdict, or the busy flag)", bad);
        CHECK(!got || shared > 0, "work jobs: helpers took none of the tasks of 2000 jobs");
        size_t k = 0;
        while (k < 4096 && dst[k] == POISON) k++;
        CHECK(k == 4096, "work jobs copy nothing");
    }

    /* helpers asleep (past their spin): the next job wakes them, and still completes */
    {
        struct timespec ts = {0, 300 * 1000 * 1000};
        nanosleep(&ts, NULL);
        const int rc = run_probe(p, src, dst, (size_t)8 << 20, 4096, -1, -1);
        CHECK(rc == 0 && memcmp(src, dst, (size_t)8 << 20) == 0 && once_each(p), "a job after the helpers slept");
    }

    free(p);
    free(src);
    free(dst);
    return CHECK_DONE();
}
