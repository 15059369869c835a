/* Run-coded planes (format 8, FORMAT.md §10.7): the run coder against its
 * own decoder and a brute-force count, on symbol arrays made to hit every
 * class, segment ends and both kinds; hand-made segments that break each
 * decoder rule; whole streams through the public API (the bound, fill and
 * non-finite values exact, the same values as GLIDE 1.7's format, never more
 * than 1 % larger); and the header rules of format 8 on CRC-resealed
 * mutations. */
#include "glide.h"
#include "codec.h"
#include "huff_runs.h"
#include "huff_build.h"
#include "bytes.h"
#include "check.h"
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t xr(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

/* a plane's book for these symbols: the custom lengths of their histogram */
static void book_for(const uint16_t *s, uint64_t n, uint8_t *len)
{
    uint64_t h[GLIDE_NSYM] = {0};
    for (uint64_t i = 0; i < n; i++) h[s[i]]++;
    glide_huff_lengths(h, GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, len);
}

/* symbols with runs of ZERO and FILL of every length class, some crossing
 * segment ends, between literals */
static uint64_t make_syms(uint16_t *s, uint64_t cap, int fill)
{
    uint64_t n = 0;
    while (n < cap) {
        const uint64_t r = xr();
        uint64_t L = 1 + (r >> 20) % ((r & 3) == 0 ? 9000 : (r & 3) == 1 ? 40 : 3);
        if (L > cap - n) L = cap - n;
        const unsigned what = (r >> 8) % 4;
        const uint16_t v = what == 0 ? GLIDE_SYM_ZERO
                           : what == 1 && fill ? GLIDE_SYM_FILL
                                               : (uint16_t)(GLIDE_SYM_ZERO + 1 + (r >> 40) % 20);
        for (uint64_t k = 0; k < L; k++) s[n++] = what >= 2 ? (uint16_t)(400 + (xr() >> 50) % 200) : v;
    }
    return n;
}

static void brute_stats(const uint16_t *s, uint64_t n, glide_run_stats *st)
{
    memset(st, 0, sizeof *st);
    for (uint64_t i = 0; i < n; i++) {
        const int k = s[i] == GLIDE_SYM_ZERO ? 0 : s[i] == GLIDE_SYM_FILL ? 1 : -1;
        if (k < 0) continue;
        /* a run starts at a segment start or after another symbol */
        if (i % GLIDE_RUN_SEG_SYMS && s[i - 1] == s[i]) continue;
        uint64_t L = 1;
        while (i + L < n && (i + L) % GLIDE_RUN_SEG_SYMS && s[i + L] == s[i]) L++;
        unsigned c = 0;
        while ((2ull << c) <= L) c++;
        st->runs[k]++, st->cls[k][c]++, st->extra_bits[k] += c;
    }
}

static void coder_trips(void)
{
    const uint64_t sizes[] = {1, 4095, 4096, 4097, 3 * 4096 + 17, 50000};
    for (unsigned t = 0; t < sizeof sizes / sizeof *sizes; t++)
        for (int fill = 0; fill < 2; fill++)
            for (unsigned kinds = 1; kinds < 4; kinds++) {
                const uint64_t n = sizes[t];
                uint16_t *s = malloc(n * 2), *d = malloc(n * 2);
                make_syms(s, n, fill);
                if (t == 2) for (uint64_t i = 0; i < n; i++) s[i] = GLIDE_SYM_ZERO; /* one class-12 run */
                glide_run_stats st, bt;
                glide_run_stats_count(s, n, &st);
                brute_stats(s, n, &bt);
                CHECK(!memcmp(&st, &bt, sizeof st), "run stats of %llu symbols", (unsigned long long)n);
                uint8_t len[GLIDE_NSYM], rl[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES] = {{0}};
                book_for(s, n, len);
                for (unsigned k = 0; k < GLIDE_RUN_KINDS; k++)
                    if (kinds >> k & 1 && st.runs[k]) glide_huff_lengths(st.cls[k], GLIDE_RUN_CLASSES, GLIDE_RUN_MAX_LEN, rl[k]);
                int any = 0; /* a plane with no run-coded kind is not a run-coded plane */
                for (unsigned k = 0; k < GLIDE_RUN_KINDS; k++)
                    for (unsigned c = 0; c < GLIDE_RUN_CLASSES; c++) any |= rl[k][c];
                if (!any) { free(s); free(d); continue; }
                glide_run_code rc;
                CHECK(glide_run_code_init(&rc, (const uint8_t(*)[GLIDE_RUN_CLASSES])rl) == 0, "class codes valid");
                uint8_t packed[GLIDE_RUN_BOOK_BYTES], rl2[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES];
                const size_t pb = glide_run_book_pack((const uint8_t(*)[GLIDE_RUN_CLASSES])rl, packed);
                CHECK(pb == (rc.on[1] ? 14u : 7u) && glide_run_book_unpack(packed, rc.on[1], rl2) == 0 &&
                          !memcmp(rl, rl2, sizeof rl),
                      "run book packs (FILL's half only where FILL is run-coded) and unpacks");
                glide_huff_enc e;
                glide_huff_dec *dec = malloc(sizeof *dec);
                glide_huff_enc_init(&e, len);
                glide_huff_dec_init(dec, len);
                const uint64_t nseg = glide_plane_segments(n, 1);
                const size_t cap = 3 * n + 64;
                uint8_t *tab = malloc(2 * nseg), *out = malloc(cap);
                const size_t b = glide_runs_encode(&e, &rc, s, n, tab, out, cap);
                int seg_ok = b != (size_t)-1 && glide_segtab_sum(tab, nseg) == b;
                for (uint64_t g = 0; g < nseg && seg_ok; g++) seg_ok = get_u16(tab + 2 * g) <= GLIDE_RUN_SEG_MAX_BYTES;
                CHECK(seg_ok, "%llu symbols: the table sums to the stream, entries within bounds", (unsigned long long)n);
                memset(d, 0xFF, n * 2);
                const size_t r = glide_runs_decode(dec, &rc, tab, nseg, out, b, d, n);
                CHECK(r == 0 && !memcmp(s, d, n * 2), "%llu symbols, kinds %u, fill %d: decode gives the symbols back",
                      (unsigned long long)n, kinds, fill);
                /* every truncation is an error, never a crash */
                int trunc_ok = 1;
                for (size_t cut = 1; cut <= 3 && cut <= b; cut++)
                    trunc_ok &= glide_is_error(glide_runs_decode(dec, &rc, tab, nseg, out, b - cut, d, n));
                CHECK(trunc_ok, "truncated run streams are rejected");
                free(tab), free(out), free(dec), free(s), free(d);
            }
}

/* MSB-first bits into a segment, for the hand-made ones below */
typedef struct { uint8_t b[64]; unsigned bit; } bits;
static void put(bits *w, uint32_t v, unsigned n)
{
    for (unsigned i = n; i-- > 0; w->bit++)
        if (v >> i & 1u) w->b[w->bit / 8] |= (uint8_t)(0x80u >> (w->bit % 8));
}

/* A plane of 10 points whose book has ZERO (code 0) and symbol 600 (code 1),
 * ZERO run-coded with classes 0..3 at 2 bits each: events are checked. */
static size_t hand_decode(const bits *w, size_t bytes, uint16_t *out)
{
    uint8_t len[GLIDE_NSYM] = {0}, rl[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES] = {{0}};
    len[GLIDE_SYM_ZERO] = 1, len[600] = 1;
    rl[0][0] = rl[0][1] = rl[0][2] = rl[0][3] = 2;
    glide_huff_dec dec;
    glide_run_code rc;
    glide_huff_dec_init(&dec, len);
    glide_run_code_init(&rc, (const uint8_t(*)[GLIDE_RUN_CLASSES])rl);
    uint8_t tab[2];
    put_u16(tab, (uint16_t)bytes);
    return glide_runs_decode(&dec, &rc, tab, 1, w->b, bytes, out, 10);
}

static void decoder_rules(void)
{
    uint16_t out[10];
    /* ZERO run of 4 (class 2, extra 00), 600, ZERO run of 5 (class 2, extra 01) */
    bits w = {{0}, 0};
    put(&w, 0, 1), put(&w, 2, 2), put(&w, 0, 2), put(&w, 1, 1), put(&w, 0, 1), put(&w, 2, 2), put(&w, 1, 2);
    size_t r = hand_decode(&w, (w.bit + 7) / 8, out);
    CHECK(r == 0 && out[0] == GLIDE_SYM_ZERO && out[3] == GLIDE_SYM_ZERO && out[4] == 600 && out[9] == GLIDE_SYM_ZERO,
          "a hand-made segment decodes");
    /* the same with the last 5 zeros as runs of 4 and 1: not maximal */
    bits m = {{0}, 0};
    put(&m, 0, 1), put(&m, 2, 2), put(&m, 0, 2), put(&m, 1, 1), put(&m, 0, 1), put(&m, 2, 2), put(&m, 0, 2);
    put(&m, 0, 1), put(&m, 0, 2);
    CHECK(glide_get_error(hand_decode(&m, (m.bit + 7) / 8, out)) == GLIDE_ERR_CORRUPT, "a run after a run of its symbol");
    /* a run of 8 (class 3) where 5 points are left */
    bits l = {{0}, 0};
    put(&l, 0, 1), put(&l, 2, 2), put(&l, 0, 2), put(&l, 1, 1), put(&l, 0, 1), put(&l, 3, 2), put(&l, 0, 3);
    CHECK(glide_get_error(hand_decode(&l, (l.bit + 7) / 8, out)) == GLIDE_ERR_CORRUPT, "a run past the segment end");
    /* padding bits must be zero, and the entry exactly the bits used */
    bits p = w;
    put(&p, 1, 1);
    CHECK(glide_get_error(hand_decode(&p, (w.bit + 7) / 8, out)) == GLIDE_ERR_CORRUPT, "nonzero padding");
    CHECK(glide_get_error(hand_decode(&w, (w.bit + 7) / 8 + 1, out)) == GLIDE_ERR_CORRUPT, "an entry longer than its bits");
    /* an incomplete class code: class 0 alone (code 0), then a 1 bit */
    uint8_t len[GLIDE_NSYM] = {0}, rl[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES] = {{0}};
    len[GLIDE_SYM_ZERO] = 1, len[600] = 1;
    rl[0][0] = 1;
    glide_huff_dec dec;
    glide_run_code rc;
    glide_huff_dec_init(&dec, len);
    CHECK(glide_run_code_init(&rc, (const uint8_t(*)[GLIDE_RUN_CLASSES])rl) == 0, "a one-class code is valid");
    bits c = {{0}, 0};
    put(&c, 0, 1), put(&c, 1, 1);
    uint8_t tab[2];
    put_u16(tab, 1);
    CHECK(glide_get_error(glide_runs_decode(&dec, &rc, tab, 1, c.b, 1, out, 10)) == GLIDE_ERR_CORRUPT,
          "a class codeword the code lacks");
    /* class lengths past 8 bits, an oversubscribed class code, the unused nibble */
    rl[0][0] = 9;
    CHECK(glide_run_code_init(&rc, (const uint8_t(*)[GLIDE_RUN_CLASSES])rl) != 0, "a class length over 8");
    rl[0][0] = 1, rl[0][1] = 1, rl[0][2] = 1;
    CHECK(glide_run_code_init(&rc, (const uint8_t(*)[GLIDE_RUN_CLASSES])rl) != 0, "an oversubscribed class code");
    uint8_t book[GLIDE_RUN_BOOK_BYTES] = {0x10};
    book[GLIDE_RUN_SUBBOOK_BYTES - 1] = 0x01;
    CHECK(glide_get_error(glide_run_book_unpack(book, 0, rl)) == GLIDE_ERR_CORRUPT, "the run book's unused nibble");
    uint8_t big[2];
    put_u16(big, GLIDE_RUN_SEG_MAX_BYTES + 1);
    uint8_t *huge = calloc(GLIDE_RUN_SEG_MAX_BYTES + 1, 1);
    rl[0][1] = rl[0][2] = 0;
    glide_run_code_init(&rc, (const uint8_t(*)[GLIDE_RUN_CLASSES])rl);
    CHECK(glide_get_error(glide_runs_decode(&dec, &rc, big, 1, huge, GLIDE_RUN_SEG_MAX_BYTES + 1, out, 10)) ==
              GLIDE_ERR_CORRUPT,
          "a table entry over the most a segment can use");
    free(huge);
}

/* fields whose planes pay for runs: a smooth bump on a flat floor (ZERO
 * runs at loose bounds), optionally a mask of fill (FILL runs) and a few
 * non-finite values */
static void field(double *v, const uint64_t *d, int mask)
{
    for (uint64_t z = 0, i = 0; z < d[0]; z++)
        for (uint64_t y = 0; y < d[1]; y++)
            for (uint64_t x = 0; x < d[2]; x++, i++) {
                const double r2 = (double)((z - 9) * (z - 9) + (y - 20) * (y - 20) + (x - 13) * (x - 13));
                v[i] = 5.0 + 40.0 * exp(-r2 / 60.0) + 1e-3 * (double)((xr() >> 40) % 100);
                if (mask && x + y < 12) v[i] = -999.0;
            }
    if (mask) v[5] = NAN, v[77] = INFINITY, v[300] = -INFINITY;
}

static void reseal(uint8_t *s, size_t len) { put_u32(s + len - 4, glide_crc32(s, len - 4)); }

static void streams(void)
{
    const uint64_t d[3] = {19, 40, 33};
    const uint64_t n = d[0] * d[1] * d[2];
    double *v = malloc(n * 8), *y8 = malloc(n * 8), *y7 = malloc(n * 8);
    uint8_t *keep = NULL;
    size_t keep_len = 0;
    int n_runs = 0, n_all = 0;
    for (int mask = 0; mask < 2; mask++)
        for (int f64 = 0; f64 < 2; f64++)
            for (int book = 0; book < 3; book++)
                for (int pred = 0; pred < 3; pred++)
                    for (int b = 0; b < 3; b++) {
                        field(v, d, mask);
                        const size_t esz = f64 ? 8 : 4;
                        void *x = v;
                        if (!f64) {
                            float *f = malloc(n * 4);
                            for (uint64_t i = 0; i < n; i++) f[i] = (float)v[i];
                            x = f;
                        }
                        glide_params p;
                        glide_params_init(&p, f64 ? GLIDE_FLOAT64 : GLIDE_FLOAT32, 3, d);
                        p.mode = GLIDE_MODE_REL;
                        p.eb = b == 0 ? 1e-2 : b == 1 ? 1e-3 : 1e-5;
                        p.codebook = book == 0 ? GLIDE_BOOK_DICT : book == 1 ? GLIDE_BOOK_CUSTOM : GLIDE_BOOK_AUTO;
                        p.predictor = pred == 0 ? GLIDE_PRED_AUTO : pred == 1 ? GLIDE_PRED_INTERP : GLIDE_PRED_LORENZO;
                        p.backend = GLIDE_BACKEND_CPU;
                        if (mask) {
                            p.has_fill = 1;
                            if (f64) { double fv = -999.0; memcpy(&p.fill_bits, &fv, 8); }
                            else { float fv = -999.0f; uint32_t fb; memcpy(&fb, &fv, 4); p.fill_bits = fb; }
                        }
                        const size_t cap = glide_compress_bound(&p);
                        uint8_t *s8 = malloc(cap), *s7 = malloc(cap);
                        glide_encode_opts o = glide_default_encode_opts(), o7 = o;
                        o7.runs = 0;
                        const size_t l8 = glide_cpu_compress(&p, &o, x, s8, cap), l7 = glide_cpu_compress(&p, &o7, x, s7, cap);
                        CHECK(!glide_is_error(l8) && !glide_is_error(l7), "compress");
                        const int runs = s8[4] == GLIDE_FORMAT_RUNS;
                        n_runs += runs, n_all++;
                        CHECK(runs ? (s8[14] & GLIDE_FLAG_RUNS) != 0 : (s8[14] & GLIDE_FLAG_RUNS) == 0 && l8 == l7 &&
                                                                       !memcmp(s8, s7, l7),
                              "format 8 exactly where a plane is run-coded, else GLIDE 1.7's bytes");
                        CHECK(s7[4] != GLIDE_FORMAT_RUNS, "runs = 0 never writes format 8");
                        CHECK(l8 <= l7 + l7 / 100, "mask %d f64 %d book %d pred %d eb %g: %zu bytes, GLIDE 1.7 %zu", mask,
                              f64, book, pred, p.eb, l8, l7);
                        CHECK(glide_decompress(s8, l8, y8, n * esz) == n * esz &&
                                  glide_decompress(s7, l7, y7, n * esz) == n * esz && !memcmp(y8, y7, n * esz),
                              "the same values as GLIDE 1.7's stream");
                        double lo = INFINITY, hi = -INFINITY, worst = 0;
                        uint64_t bad = 0;
                        for (uint64_t i = 0; i < n; i++) {
                            const double a = f64 ? v[i] : (double)((float *)x)[i];
                            if (!isfinite(a) || a == -999.0) continue;
                            lo = fmin(lo, a), hi = fmax(hi, a);
                        }
                        for (uint64_t i = 0; i < n; i++) {
                            const double a = f64 ? v[i] : (double)((float *)x)[i];
                            const double c = f64 ? y8[i] : (double)((float *)y8)[i];
                            if (isnan(a)) bad += !isnan(c);
                            else if (!isfinite(a) || a == -999.0) bad += a != c;
                            else worst = fmax(worst, fabs(a - c));
                        }
                        CHECK(bad == 0 && worst <= p.eb * (hi - lo), "bound (%g of %g) and exact values (%llu off)", worst,
                              p.eb * (hi - lo), (unsigned long long)bad);
                        if (runs && mask && !f64 && book == 1 && pred == 1 && b == 0 && !keep) {
                            keep = malloc(l8);
                            memcpy(keep, s8, l8);
                            keep_len = l8;
                        }
                        free(s8), free(s7);
                        if (!f64) free(x);
                    }
    CHECK(n_runs > n_all / 4 && n_runs < n_all, "both kinds of streams: %d of %d run-coded", n_runs, n_all);
    CHECK(keep != NULL, "a format 8 stream with fill and custom books to mutate");
    if (keep) {
        uint8_t *s = malloc(keep_len), *out = malloc(n * 4);
        glide_header h;
        glide_layout lay;
        CHECK(!glide_is_error(glide_header_read(keep, keep_len, &h, &lay)), "the kept stream reads");
        struct { size_t off; uint8_t val; const char *what; } rules[] = {
            {GLIDE_HDR_FLAGS, (uint8_t)(keep[GLIDE_HDR_FLAGS] & ~GLIDE_FLAG_RUNS), "format 8 without a run-coded plane"},
            {GLIDE_HDR_FLAGS, (uint8_t)(keep[GLIDE_HDR_FLAGS] | 0x40), "format 8 with flag bit 6"},
            {GLIDE_HDR_FLAGS, (uint8_t)((keep[GLIDE_HDR_FLAGS] & ~GLIDE_FLAG_HAS_FILL) | GLIDE_FLAG_HAS_FILL2),
             "HAS_FILL2 without HAS_FILL"},
            {GLIDE_HDR_FORMAT_VERSION, GLIDE_FORMAT_PLANES, "format 5 with run flags"},
            {GLIDE_HDR_FLAGS, (uint8_t)(keep[GLIDE_HDR_FLAGS] ^ GLIDE_FLAG_FILLRUNS1), "plane 1's FILL half flipped"},
            {GLIDE_HDR_FLAGS, (uint8_t)(keep[GLIDE_HDR_FLAGS] & ~GLIDE_FLAG_HAS_FILL), "FILL runs without HAS_FILL"},
            {lay.runbook_off + GLIDE_RUN_SUBBOOK_BYTES - 1, 0x0F, "a run book's unused nibble"},
            {lay.runbook_off, 0x00, "a run book whose first class lengths change"},
        };
        for (size_t k = 0; k < sizeof rules / sizeof *rules; k++) {
            memcpy(s, keep, keep_len);
            s[rules[k].off] = rules[k].val;
            reseal(s, keep_len);
            const size_t r = glide_decompress_with(GLIDE_BACKEND_CPU, s, keep_len, out, n * 4);
            CHECK(glide_is_error(r), "%s is rejected (%s)", rules[k].what, glide_error_name(r));
        }
        /* an emptied run book: neither kind run-coded */
        memcpy(s, keep, keep_len);
        memset(s + lay.runbook_off, 0, lay.anchors_off - lay.runbook_off);
        reseal(s, keep_len);
        CHECK(glide_get_error(glide_decompress_with(GLIDE_BACKEND_CPU, s, keep_len, out, n * 4)) == GLIDE_ERR_CORRUPT,
              "a run-coded plane with an empty run book");
        /* every truncation is an error */
        int ok = 1;
        for (size_t cut = 1; cut < keep_len; cut += 1 + cut / 8)
            ok &= glide_is_error(glide_decompress_with(GLIDE_BACKEND_CPU, keep, keep_len - cut, out, n * 4));
        CHECK(ok, "truncated format 8 streams are rejected");
        free(s), free(out), free(keep);
    }
    /* a run-coded plane whose FILL half is there but empty: built by hand from
     * a ZERO-run stream of a field with fill but no fill point, flag and book
     * grown by the 7 zero bytes (CORRUPT: FILLRUNS says FILL is run-coded) */
    {
        field(v, d, 0);
        glide_params p;
        glide_params_init(&p, GLIDE_FLOAT64, 3, d);
        p.mode = GLIDE_MODE_REL, p.eb = 1e-2, p.backend = GLIDE_BACKEND_CPU;
        p.has_fill = 1;
        const double fv = -12345.0;
        memcpy(&p.fill_bits, &fv, 8);
        const size_t cap = glide_compress_bound(&p);
        uint8_t *s = malloc(cap + GLIDE_RUN_SUBBOOK_BYTES), *t = malloc(cap + GLIDE_RUN_SUBBOOK_BYTES);
        const size_t l = glide_compress(&p, v, n * 8, s, cap);
        glide_header h;
        glide_layout lay;
        CHECK(!glide_is_error(l) && s[4] == GLIDE_FORMAT_RUNS && !glide_is_error(glide_header_read(s, l, &h, &lay)) &&
                  (h.flags & GLIDE_FLAG_RUNS0) && !(h.flags & GLIDE_FLAG_FILLRUNS),
              "a format 8 stream with HAS_FILL and ZERO runs only");
        if (s[4] == GLIDE_FORMAT_RUNS) {
            const size_t at = lay.runbook_off + GLIDE_RUN_SUBBOOK_BYTES;
            memcpy(t, s, at);
            memset(t + at, 0, GLIDE_RUN_SUBBOOK_BYTES);
            memcpy(t + at + GLIDE_RUN_SUBBOOK_BYTES, s + at, l - at);
            t[GLIDE_HDR_FLAGS] |= GLIDE_FLAG_FILLRUNS0;
            reseal(t, l + GLIDE_RUN_SUBBOOK_BYTES);
            CHECK(glide_get_error(glide_decompress_with(GLIDE_BACKEND_CPU, t, l + GLIDE_RUN_SUBBOOK_BYTES, y8, n * 8)) ==
                      GLIDE_ERR_CORRUPT,
                  "an empty FILL half");
        }
        free(s), free(t);
    }
    free(v), free(y8), free(y7);
}

/* A glide_plan_par that plans plane 1 on a thread of its own while this
 * one plans plane 0 (in turn where no thread starts). */
typedef struct {
    void (*fn)(void *, unsigned);
    void *arg;
} plane_one;

static void *plane_one_run(void *a)
{
    plane_one *t = a;
    t->fn(t->arg, 1);
    return NULL;
}

static void planes_on_threads(void *ctx, void (*fn)(void *arg, unsigned plane), void *arg)
{
    (void)ctx;
    plane_one t = {fn, arg};
    pthread_t th;
    const int started = pthread_create(&th, NULL, plane_one_run, &t) == 0;
    fn(arg, 0);
    if (started) pthread_join(th, NULL);
    else fn(arg, 1);
}

/* Whether two plans agree in every byte they decide. */
static int same_plan(size_t ra, const glide_header *a, const glide_entropy_plan *pa, size_t rb, const glide_header *b,
                     const glide_entropy_plan *pb)
{
    return ra == rb && a->format_version == b->format_version && a->flags == b->flags &&
           a->book_kind == b->book_kind && a->book_id == b->book_id && a->book_bytes == b->book_bytes &&
           a->book_kind1 == b->book_kind1 && a->book_id1 == b->book_id1 && a->book_bytes1 == b->book_bytes1 &&
           a->n_segments == b->n_segments && a->stream_bytes == b->stream_bytes &&
           a->dict_version == b->dict_version && a->method == b->method && !memcmp(pa->len, pb->len, GLIDE_NSYM) &&
           !memcmp(pa->len1, pb->len1, GLIDE_NSYM) && !memcmp(pa->book, pb->book, a->book_bytes) &&
           !memcmp(pa->book1, pb->book1, a->book_bytes1) && !memcmp(pa->run_len, pb->run_len, sizeof pa->run_len);
}

/* The plan of a run-coded plane skips the plain plane's custom book where
 * its floor already loses to a set (cpu/codec.c book_floor): on random
 * planes, under each codebook mode, with the books chosen here (CPU) and
 * given with every book's bits (GPU), the plan must be the one that builds
 * every candidate (plan_all), and the one whose planes ran on two threads. */
static void plan_floors(void)
{
    static uint64_t hist[GLIDE_NPLANES][GLIDE_NSYM], sizes[GLIDE_NPLANES][1024];
    int bad = 0, bad_par = 0, trials = 0, runs_won = 0, plain_won = 0, custom = 0;
    for (int t = 0; t < 400; t++) {
        glide_run_stats st[GLIDE_NPLANES];
        memset(hist, 0, sizeof hist);
        memset(st, 0, sizeof st);
        uint64_t np[GLIDE_NPLANES];
        for (unsigned k = 0; k < GLIDE_NPLANES; k++) {
            np[k] = 500 + xr() % 150000;
            const uint64_t zero = np[k] * (xr() % 1000) / 1000, fill = t % 3 == 0 ? (np[k] - zero) * (xr() % 500) / 1000 : 0;
            const unsigned w = 1 + (unsigned)(xr() % 80);
            hist[k][GLIDE_SYM_ZERO] = zero;
            hist[k][GLIDE_SYM_FILL] = fill;
            for (uint64_t i = zero + fill; i < np[k]; i++) {
                int q = (int)(xr() % (2 * w + 1)) - (int)w;
                q = q * (int)(xr() % 4) / 3;
                hist[k][xr() % 97 == 0 ? GLIDE_SYM_OUTLIER : (unsigned)(GLIDE_SYM_ZERO + (q ? q : 1))]++;
            }
            for (unsigned r = 0; r < GLIDE_RUN_KINDS; r++) { /* runs of mean length 1 .. 500 (or 3) */
                const uint64_t c = hist[k][r ? GLIDE_SYM_FILL : GLIDE_SYM_ZERO];
                if (!c) continue;
                st[k].runs[r] = 1 + c / (1 + xr() % (t % 2 ? 3 : 500)); /* odd t: short runs, where plain planes win */
                for (uint64_t left = st[k].runs[r]; left;) {
                    const unsigned cl = (unsigned)(xr() % GLIDE_RUN_CLASSES);
                    const uint64_t m = 1 + xr() % left;
                    st[k].cls[r][cl] += m;
                    st[k].extra_bits[r] += m * cl;
                    left -= m;
                }
            }
        }
        const uint64_t n = np[0] + np[1];
        const uint64_t dims[1] = {n};
        glide_params p;
        glide_params_init(&p, GLIDE_FLOAT32, 1, dims);
        glide_encode_opts o = glide_default_encode_opts();
        glide_book_choice given[GLIDE_NPLANES];
        for (unsigned k = 0; k < GLIDE_NPLANES; k++) {
            given[k] = (glide_book_choice){0, UINT64_MAX, sizes[k]};
            for (unsigned b = 0; b < o.dict->n_books; b++) {
                sizes[k][b] = glide_book_bits(o.dict->books[b].len, hist[k]);
                if (sizes[k][b] < given[k].bits) given[k].book = b, given[k].bits = sizes[k][b];
            }
        }
        const uint64_t *const hp[GLIDE_NPLANES] = {hist[0], hist[1]};
        static const glide_plan_par par = {planes_on_threads, NULL};
        for (int cb = 0; cb < 3; cb++)
            for (int g = 0; g < 2; g++) {
                static glide_entropy_plan pl[3];
                glide_header h[3];
                size_t r[3];
                p.codebook = cb == 0 ? GLIDE_BOOK_AUTO : cb == 1 ? GLIDE_BOOK_CUSTOM : GLIDE_BOOK_DICT;
                /* 0: the floors; 1: every book built; 2: the floors, the planes on two threads */
                for (int v = 0; v < 3; v++) {
                    o.plan_all = v == 1;
                    glide_header_begin(&h[v], &p);
                    h[v].format_version = GLIDE_FORMAT_PLANES;
                    r[v] = glide_entropy_plan_planes(&p, &o, &h[v], hp, g ? given : NULL, st, np[0], n, 4, &pl[v],
                                                     v == 2 ? &par : NULL);
                }
                trials++;
                bad += !same_plan(r[0], &h[0], &pl[0], r[1], &h[1], &pl[1]);
                bad_par += !same_plan(r[0], &h[0], &pl[0], r[2], &h[2], &pl[2]);
                const glide_header *a = &h[0];
                runs_won += (a->flags & GLIDE_FLAG_RUNS) != 0;
                plain_won += (a->flags & GLIDE_FLAG_RUNS) != GLIDE_FLAG_RUNS;
                custom += a->book_kind == GLIDE_BOOKKIND_CUSTOM || a->book_kind1 == GLIDE_BOOKKIND_CUSTOM;
            }
    }
    printf("plan floors: %d plans, %d with a run-coded plane, %d with a plain one, %d with a custom book\n", trials,
           runs_won, plain_won, custom);
    CHECK(bad == 0 && runs_won > 0 && plain_won > 0 && custom > 0,
          "plans with the floors equal those that build every book (%d of %d differ; %d with a run-coded plane, %d "
          "with a plain one, %d with a custom book)",
          bad, trials, runs_won, plain_won, custom);
    CHECK(bad_par == 0, "plans whose planes ran on two threads (the GPU backend's host plan) equal those planned in "
          "turn (%d of %d differ)", bad_par, trials);
}

int main(void)
{
    plan_floors();
    coder_trips();
    decoder_rules();
    streams();
    return CHECK_DONE();
}
