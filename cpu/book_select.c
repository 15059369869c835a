#include "book_select.h"
#include "huff_build.h"
#include <math.h>
#include <pthread.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Per dictionary this build holds, tables the book choices' passes read
 * instead of the books (two cache lines a book, 864 books in v2; most of a
 * plan's time when the caches are cold, as they are where the GPU's host
 * plans between its waits):
 * - zf: every book's ZERO and FILL lengths side by side, which those
 *   passes read first for every book;
 * - tail[b][t]: book b's least length over |q| >= tier_q[t - 1] (0 at
 *   TIERS), so that a pass can bound the rest of a book's size by the
 *   histogram's mass there and leave the book once the bound is out of
 *   reach. Tier 0 holds the outliers, tier t >= 1 the codes |q| in
 *   [tier_q[t - 1], tier_q[t]): half octaves, where most books part;
 * - least[t][b]: book b's least length in tier t alone, so that one
 *   vector pass bounds every book's size below before any book is
 *   summed (book_floors). */
#define ZF_MAX_BOOKS 1024u
#define TIERS 18u
static const unsigned tier_q[TIERS] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, GLIDE_RADIUS};
typedef struct {
    uint8_t zf[2][ZF_MAX_BOOKS];
    uint8_t tail[ZF_MAX_BOOKS][TIERS + 1];
    uint8_t least[TIERS][ZF_MAX_BOOKS];
} book_tables;
static book_tables tables[GLIDE_DICT_VERSION + 1];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void tables_build(void)
{
    for (unsigned v = 1; v <= GLIDE_DICT_VERSION; v++) {
        const glide_dictionary *d = glide_dict_get(v);
        if (!d || d->n_books > ZF_MAX_BOOKS) continue;
        for (unsigned b = 0; b < d->n_books; b++) {
            const uint8_t *len = d->books[b].len;
            uint8_t *tail = tables[v].tail[b];
            tables[v].zf[0][b] = len[GLIDE_SYM_ZERO];
            tables[v].zf[1][b] = len[GLIDE_SYM_FILL];
            tail[0] = tail[TIERS] = 0; /* tier 0 comes first, and nothing follows the last */
            tables[v].least[0][b] = len[GLIDE_SYM_OUTLIER];
            for (unsigned t = TIERS - 1; t >= 1; t--) {
                /* the codes of |q| in the tier lie in two runs of len */
                const unsigned q0 = tier_q[t - 1], q1 = tier_q[t];
                uint8_t least = UINT8_MAX;
                for (unsigned j = GLIDE_SYM_ZERO + q0; j < GLIDE_SYM_ZERO + q1; j++) least = len[j] < least ? len[j] : least;
                for (unsigned j = GLIDE_SYM_ZERO - q1 + 1; j <= GLIDE_SYM_ZERO - q0; j++)
                    least = len[j] < least ? len[j] : least;
                tables[v].least[t][b] = least;
                tail[t] = t + 1 < TIERS && tail[t + 1] < least ? tail[t + 1] : least;
            }
        }
    }
}

/* d's tables, or NULL for a dictionary the build does not hold (the
 * benchmarks' trial ones): then the books are read. */
static const book_tables *tables_of(const glide_dictionary *d)
{
    if (d->version < 1 || d->version > GLIDE_DICT_VERSION || glide_dict_get(d->version) != d ||
        d->n_books > ZF_MAX_BOOKS)
        return NULL;
    pthread_once(&tables_once, tables_build);
    return &tables[d->version];
}

uint64_t glide_book_bits(const uint8_t *len, const uint64_t *hist)
{
    uint16_t used[GLIDE_NSYM];
    return glide_book_bits_used(len, hist, used, glide_used_lengths(len, GLIDE_NSYM, used));
}

uint64_t glide_book_bits_used(const uint8_t *len, const uint64_t *hist, const uint16_t *used, unsigned m)
{
    uint64_t b = 0;
    for (unsigned k = 0; k < m; k++) b += hist[used[k]] * len[used[k]];
    return b;
}

unsigned glide_book_select(const glide_dictionary *d, const uint64_t *hist, glide_score score, uint64_t *bits)
{
    /* CE needs the books' own distributions, which only v1 stores */
    if (!d->books[0].log2q) score = GLIDE_SCORE_SIZE;
    if (score == GLIDE_SCORE_SIZE) { /* one variant: the histogram as it is */
        const uint64_t zero[4] = {hist[GLIDE_SYM_ZERO]}, fill[4] = {hist[GLIDE_SYM_FILL]};
        unsigned book[4];
        uint64_t b4[4];
        glide_book_select_variants(d, hist, score, 1u, zero, fill, book, b4);
        *bits = b4[0];
        return book[0];
    }
    unsigned nz[GLIDE_NSYM], m = 0, best = 0;
    for (unsigned i = 0; i < GLIDE_NSYM; i++)
        if (hist[i]) nz[m++] = i;
    double best_cost = INFINITY;
    for (unsigned b = 0; b < d->n_books; b++) {
        const glide_book *bk = &d->books[b];
        double cost = 0;
        for (unsigned k = 0; k < m; k++) cost -= (double)hist[nz[k]] * bk->log2q[nz[k]];
        if (cost < best_cost) { best_cost = cost; best = b; }
    }
    *bits = glide_book_bits(d->books[best].len, hist);
    return best;
}

/* floors[b] << shift: at most book b's bits for the histogram's symbols
 * other than ZERO and FILL, whose tiers hold mass[t] (the sum over tiers of
 * mass at the book's least length there), plus zero ZERO and fill FILL
 * symbols at its lengths. The counts are scaled down by 2^shift (rounding
 * down, so the bound stays below) to fit 16 bits, where SSE2 multiplies
 * and adds two tiers of four books in one instruction. A floor is under
 * 2^28, so a shift over 36 (counts no chunk reaches) would not fit 64
 * bits: -1 then, and no floors. */
static int book_floors(const book_tables *tb, unsigned n_books, const uint64_t mass[TIERS], uint64_t zero,
                       uint64_t fill, uint32_t *floors)
{
    /* the tiers, then ZERO and FILL: an even count, two to a 32-bit lane */
    const uint8_t *least[TIERS + 2];
    uint64_t top = zero > fill ? zero : fill;
    for (unsigned t = 0; t < TIERS; t++) top = mass[t] > top ? mass[t] : top, least[t] = tb->least[t];
    least[TIERS] = tb->zf[0], least[TIERS + 1] = tb->zf[1];
    unsigned shift = 0;
    while (top >> shift > INT16_MAX) shift++;
    if (shift > 36) return -1;
    uint16_t m16[TIERS + 2];
    for (unsigned t = 0; t < TIERS; t++) m16[t] = (uint16_t)(mass[t] >> shift);
    m16[TIERS] = (uint16_t)(zero >> shift), m16[TIERS + 1] = (uint16_t)(fill >> shift);
    unsigned b = 0;
#if defined(__SSE2__)
    const __m128i z = _mm_setzero_si128();
    for (; b + 8 <= n_books; b += 8) {
        __m128i lo = z, hi = z;
        for (unsigned t = 0; t < TIERS + 2; t += 2) {
            const __m128i w = _mm_set1_epi32((int)((uint32_t)m16[t] | (uint32_t)m16[t + 1] << 16));
            const __m128i pair = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(least[t] + b)),
                                                   _mm_loadl_epi64((const __m128i *)(least[t + 1] + b)));
            lo = _mm_add_epi32(lo, _mm_madd_epi16(_mm_unpacklo_epi8(pair, z), w));
            hi = _mm_add_epi32(hi, _mm_madd_epi16(_mm_unpackhi_epi8(pair, z), w));
        }
        _mm_storeu_si128((__m128i *)(floors + b), lo);
        _mm_storeu_si128((__m128i *)(floors + b + 4), hi);
    }
#endif
    for (; b < n_books; b++) {
        uint32_t f = 0;
        for (unsigned t = 0; t < TIERS + 2; t++) f += (uint32_t)m16[t] * least[t][b];
        floors[b] = f;
    }
    return (int)shift;
}

/* The SIZE score's pass over the books for each variant of want: the
 * first book of least size below cap (best[v] stays cap, book[v] 0, where
 * none is). Every term is positive, so a book whose partial sum reaches
 * the best size so far can no longer beat it (a tie keeps the earlier
 * book): stopping there still gives the exact first minimum. ZERO and
 * FILL, where the counts usually are largest, come first; then outliers
 * and outwards from the zero code, a tier of |q| at a time, after each of
 * which the rest of the histogram's mass at the book's least length there
 * bounds the size from below, so that most books stop early. */
static inline __attribute__((always_inline)) void select_sized_k(const glide_dictionary *d, const uint64_t *hist,
                                                                 unsigned want, const unsigned nv, const uint64_t zero[4],
                                                                 const uint64_t fill[4], uint64_t cap, unsigned book[4],
                                                                 uint64_t best[4])
{
    /* nz: the terms in order; tier t's end at end[t], after[t] the mass after them */
    unsigned nz[GLIDE_NSYM], m = 0, end[TIERS];
    uint64_t after[TIERS], mass[TIERS];
    if (hist[GLIDE_SYM_OUTLIER]) nz[m++] = GLIDE_SYM_OUTLIER;
    end[0] = m;
    mass[0] = hist[GLIDE_SYM_OUTLIER];
    for (unsigned t = 1; t < TIERS; t++) {
        mass[t] = 0;
        for (unsigned q = tier_q[t - 1]; q < tier_q[t]; q++) {
            if (hist[GLIDE_SYM_ZERO - q]) nz[m++] = GLIDE_SYM_ZERO - q, mass[t] += hist[GLIDE_SYM_ZERO - q];
            if (hist[GLIDE_SYM_ZERO + q]) nz[m++] = GLIDE_SYM_ZERO + q, mass[t] += hist[GLIDE_SYM_ZERO + q];
        }
        end[t] = m;
    }
    after[TIERS - 1] = 0;
    for (unsigned t = TIERS - 1; t > 0; t--) after[t - 1] = after[t] + mass[t];
    for (unsigned v = 0; v < 4; v++) best[v] = cap, book[v] = 0;
    const book_tables *tb = tables_of(d);
    static const uint8_t no_tail[TIERS + 1];
    /* Every book's floor; with one variant its ZERO and FILL bits are in
     * it, so a book whose floor reaches the best is out at once. The book
     * of least floor is summed first: its bits + 1 as the best to beat
     * still leaves the first book of least bits to the pass, which then
     * sums few others. */
    uint32_t floors[ZF_MAX_BOOKS];
    const int shift = tb ? book_floors(tb, d->n_books, mass, nv == 1 ? zero[0] : 0, nv == 1 ? fill[0] : 0, floors) : -1;
    if (shift >= 0) {
        unsigned s = 0;
        for (unsigned b = 1; b < d->n_books; b++) s = floors[b] < floors[s] ? b : s;
        const uint8_t *len = d->books[s].len;
        uint64_t c = 0;
        for (unsigned k = 0; k < m; k++) c += hist[nz[k]] * len[nz[k]];
        for (unsigned v = 0; v < nv; v++) {
            const uint64_t e = zero[v] * tb->zf[0][s] + fill[v] * tb->zf[1][s] + c;
            if ((want >> v & 1u) && e < best[v]) best[v] = e + 1;
        }
    }
    for (unsigned b = 0; b < d->n_books; b++) {
        if (nv == 1 && shift >= 0 && (uint64_t)floors[b] << shift >= best[0]) continue;
        const uint8_t *len = d->books[b].len, *tail = tb ? tb->tail[b] : no_tail;
        const uint64_t lz = tb ? tb->zf[0][b] : len[GLIDE_SYM_ZERO], lf = tb ? tb->zf[1][b] : len[GLIDE_SYM_FILL];
        /* each variant's ZERO and FILL bits; the rest is common, and the
         * book is out for every variant once it reaches the largest gap */
        uint64_t head[4] = {0, 0, 0, 0}, gap = 0;
        for (unsigned v = 0; v < nv; v++) {
            if (!(want >> v & 1u)) continue;
            head[v] = zero[v] * lz + fill[v] * lf;
            if (head[v] < best[v] && best[v] - head[v] > gap) gap = best[v] - head[v];
        }
        if (gap <= (nv > 1 && shift >= 0 ? (uint64_t)floors[b] << shift : 0)) continue;
        uint64_t c = 0;
        unsigned k = 0, t = 0;
        for (; t < TIERS; t++) {
            for (; k < end[t] && c < gap; k++) c += hist[nz[k]] * len[nz[k]];
            if (c >= gap || c + after[t] * tail[t + 1] >= gap) break;
        }
        if (t < TIERS) continue;
        for (unsigned v = 0; v < nv; v++)
            if ((want >> v & 1u) && head[v] + c < best[v]) best[v] = head[v] + c, book[v] = b;
    }
}

/* select_sized_k for want = 1 (one histogram: the block trial's methods,
 * a plain plane) with its variant loops gone, else for any want */
static void select_sized(const glide_dictionary *d, const uint64_t *hist, unsigned want, const uint64_t zero[4],
                         const uint64_t fill[4], uint64_t cap, unsigned book[4], uint64_t best[4])
{
    if (want == 1u) select_sized_k(d, hist, 1u, 1, zero, fill, cap, book, best);
    else select_sized_k(d, hist, want, 4, zero, fill, cap, book, best);
}

void glide_book_select_variants(const glide_dictionary *d, const uint64_t *hist, glide_score score, unsigned want,
                                const uint64_t zero[4], const uint64_t fill[4], unsigned book[4], uint64_t bits[4])
{
    if (!d->books[0].log2q) score = GLIDE_SCORE_SIZE;
    if (score != GLIDE_SCORE_SIZE) { /* CE: the distributions' sums do not split as simply */
        uint64_t h[GLIDE_NSYM];
        memcpy(h, hist, sizeof h);
        for (unsigned v = 0; v < 4; v++) {
            if (!(want >> v & 1u)) continue;
            h[GLIDE_SYM_ZERO] = zero[v];
            h[GLIDE_SYM_FILL] = fill[v];
            book[v] = glide_book_select(d, h, score, &bits[v]);
        }
        return;
    }
    uint64_t best[4];
    select_sized(d, hist, want, zero, fill, UINT64_MAX, book, best);
    for (unsigned v = 0; v < 4; v++) bits[v] = want >> v & 1u ? best[v] : 0;
}

uint64_t glide_book_select_below(const glide_dictionary *d, const uint64_t *hist, uint64_t cap)
{
    const uint64_t zero[4] = {hist[GLIDE_SYM_ZERO]}, fill[4] = {hist[GLIDE_SYM_FILL]};
    unsigned book[4];
    uint64_t best[4];
    select_sized(d, hist, 1u, zero, fill, cap, book, best);
    return best[0] < cap ? best[0] : UINT64_MAX;
}

void glide_book_select_variants_sized(const glide_dictionary *d, const uint64_t *sizes, const uint64_t *hist,
                                      unsigned want, const uint64_t zero[4], const uint64_t fill[4], unsigned book[4],
                                      uint64_t bits[4])
{
    /* the wanted variants only; a variant's bits are a book's plus its ZERO
     * and FILL count changes at that book's lengths (modulo 2^64, where the
     * true sum lies) */
    unsigned act[4], na = 0, bk[4] = {0, 0, 0, 0};
    uint64_t dz[4], df[4], best[4] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX};
    for (unsigned v = 0; v < 4; v++) {
        book[v] = 0, bits[v] = 0;
        if (!(want >> v & 1u)) continue;
        act[na] = v, dz[na] = zero[v] - hist[GLIDE_SYM_ZERO], df[na] = fill[v] - hist[GLIDE_SYM_FILL];
        na++;
    }
    const book_tables *tb = tables_of(d);
    for (unsigned b = 0; b < d->n_books; b++) {
        const uint64_t lz = tb ? tb->zf[0][b] : d->books[b].len[GLIDE_SYM_ZERO];
        const uint64_t lf = tb ? tb->zf[1][b] : d->books[b].len[GLIDE_SYM_FILL];
        for (unsigned k = 0; k < na; k++) {
            const uint64_t c = sizes[b] + dz[k] * lz + df[k] * lf;
            if (c < best[k]) best[k] = c, bk[k] = b; /* the first minimum, as the unsized pass */
        }
    }
    for (unsigned k = 0; k < na; k++) book[act[k]] = bk[k], bits[act[k]] = best[k];
}

static double hlogh_of(uint64_t h) { return h ? (double)h * log2((double)h) : 0.0; }

/* h log2 h of the small counts most of a histogram's symbols have, the
 * same doubles as hlogh_of's, computed once a process: the logarithms
 * were most of an entropy's time */
#define HLOGH_TABLE 1024u
static double hlogh_table[HLOGH_TABLE];
static pthread_once_t hlogh_once = PTHREAD_ONCE_INIT;
static void hlogh_build(void)
{
    for (unsigned h = 0; h < HLOGH_TABLE; h++) hlogh_table[h] = hlogh_of(h);
}

static double hlogh(uint64_t h) { return h < HLOGH_TABLE ? hlogh_table[h] : hlogh_of(h); }

void glide_hist_rest_of(const uint64_t *hist, glide_hist_rest *r)
{
    uint16_t used[GLIDE_NSYM];
    glide_hist_rest_of_used(hist, used, glide_used_counts(hist, GLIDE_NSYM, used), r);
}

void glide_hist_rest_of_used(const uint64_t *hist, const uint16_t *used, unsigned m, glide_hist_rest *r)
{
    pthread_once(&hlogh_once, hlogh_build);
    r->n = 0;
    r->hlogh = 0;
    /* in increasing symbol order, as the sum's doubles were always added */
    for (unsigned k = 0; k < m; k++) {
        const unsigned i = used[k];
        if (i == GLIDE_SYM_ZERO || i == GLIDE_SYM_FILL) continue;
        r->n += hist[i];
        r->hlogh += hlogh(hist[i]);
    }
}

/* sum h log2(n / h) = n log2 n - sum h log2 h */
double glide_hist_entropy_variant(const glide_hist_rest *r, uint64_t zero, uint64_t fill)
{
    pthread_once(&hlogh_once, hlogh_build);
    const uint64_t n = r->n + zero + fill;
    if (n == 0) return 0;
    const double e = hlogh(n) - r->hlogh - hlogh(zero) - hlogh(fill);
    return e > 0 ? e : 0;
}

double glide_hist_onebit_variant(const glide_hist_rest *r, uint64_t zero, uint64_t fill)
{
    pthread_once(&hlogh_once, hlogh_build);
    const uint64_t n = r->n + zero + fill;
    const uint64_t big = zero > fill ? zero : fill, small = zero > fill ? fill : zero;
    if (big <= n - big) return -1;
    /* the others' n log n less their h log h: their entropy in bits */
    const double e = hlogh(n - big) - r->hlogh - hlogh(small);
    return (double)n + (e > 0 ? e : 0);
}

double glide_hist_entropy_bits(const uint64_t *hist)
{
    glide_hist_rest r;
    glide_hist_rest_of(hist, &r);
    return glide_hist_entropy_variant(&r, hist[GLIDE_SYM_ZERO], hist[GLIDE_SYM_FILL]);
}
