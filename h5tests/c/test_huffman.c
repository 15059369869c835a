/* Huffman builder, segmented coder, segment table and custom-book packing. */
#include "check.h"
#include "book_select.h"
#include "dict.h"
#include "format.h"
#include "huff_build.h"
#include "huff_codec.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return (uint32_t)rng; }

static int kraft_ok(const uint8_t *len, unsigned n, int need_complete)
{
    uint64_t k = 0;
    for (unsigned i = 0; i < n; i++) {
        if (len[i] > GLIDE_HUFF_MAX_LEN) return 0;
        if (len[i]) k += 1ull << (GLIDE_HUFF_MAX_LEN - len[i]);
    }
    return need_complete ? k == (1ull << GLIDE_HUFF_MAX_LEN) : k <= (1ull << GLIDE_HUFF_MAX_LEN);
}

/* Encode syms with the lengths, decode, compare. Returns 1 on success. */
static int round_trip(const uint8_t *len, const uint16_t *sym, uint64_t n)
{
    glide_huff_enc enc;
    glide_huff_dec dec;
    glide_huff_enc_init(&enc, len);
    if (glide_huff_dec_init(&dec, len) != 0) return 0;
    uint32_t nseg = (uint32_t)glide_segment_count(n);
    uint8_t *segtab = malloc(2 * nseg + 1), *out = malloc(n * 2 + 16);
    uint16_t *back = malloc(n * 2 + 2);
    size_t bytes = glide_huff_encode(&enc, sym, n, segtab, out, n * 2 + 16);
    int ok = bytes != (size_t)-1 && glide_huff_decode(&dec, segtab, nseg, out, bytes, back, n) == 0 &&
             memcmp(sym, back, n * 2) == 0;
    free(segtab); free(out); free(back);
    return ok;
}

/* The decoder's tables as a pass over every symbol makes them (the
 * canonical code of huff_build.c); -1 where the lengths are no prefix code. */
static int dec_reference(glide_huff_dec *d, const uint8_t *len)
{
    if (!kraft_ok(len, GLIDE_NSYM, 0)) return -1;
    uint16_t code[GLIDE_NSYM];
    glide_huff_canonical(len, GLIDE_NSYM, code);
    memset(d, 0, sizeof *d);
    unsigned nonzero = 0;
    for (unsigned i = 0; i < GLIDE_NSYM; i++) { d->count[len[i]]++; nonzero += len[i] != 0; }
    if (!nonzero) return -1;
    d->count[0] = 0;
    unsigned c = 0, off = 0, fill[GLIDE_HUFF_MAX_LEN + 1];
    for (unsigned l = 1; l <= GLIDE_HUFF_MAX_LEN; l++) {
        c = (c + d->count[l - 1]) << 1;
        d->first[l] = c;
        d->offset[l] = fill[l] = off;
        off += d->count[l];
    }
    for (unsigned i = 0; i < GLIDE_NSYM; i++)
        if (len[i]) d->sorted[fill[len[i]]++] = (uint16_t)i;
    for (unsigned i = 0; i < GLIDE_NSYM; i++) {
        const unsigned l = len[i];
        if (!l || l > GLIDE_HUFF_LUT_BITS) continue;
        const unsigned shift = GLIDE_HUFF_LUT_BITS - l, base = (unsigned)code[i] << shift;
        for (unsigned k = 0; k < (1u << shift); k++) d->lut[base + k] = (uint16_t)(i | (l << 11));
    }
    return 0;
}

/* glide_huff_dec_init walks the used symbols only: the same tables and
 * verdicts as the pass over every symbol, for every dictionary book and
 * for codes of a few to all symbols, complete, incomplete and broken. */
static void dec_init_exact(void)
{
    static glide_huff_dec a, b;
    uint8_t len[GLIDE_NSYM];
    uint64_t freq[GLIDE_NSYM];
    int bad = 0, trials = 0, refused = 0;
    for (unsigned v = 1; v <= 2; v++) {
        const glide_dictionary *d = glide_dict_get(v);
        for (unsigned k = 0; k < d->n_books; k++, trials++) {
            const int ra = glide_huff_dec_init(&a, d->books[k].len), rb = dec_reference(&b, d->books[k].len);
            bad += ra != rb || (ra == 0 && memcmp(&a, &b, sizeof a) != 0);
        }
    }
    for (int t = 0; t < 3000; t++, trials++) {
        memset(freq, 0, sizeof freq);
        const unsigned used = t % 3 == 0 ? 1 + rnd() % 8 : t % 3 == 1 ? 1 + rnd() % 80 : 1 + rnd() % GLIDE_NSYM;
        for (unsigned u = 0; u < used; u++) freq[rnd() % GLIDE_NSYM] += 1 + (rnd() % 4 ? rnd() % 9 : rnd() % 100000);
        if (glide_huff_lengths(freq, GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, len) != 0) continue;
        const int kind = t % 7;
        if (kind == 1) { /* incomplete: one code made longer */
            for (unsigned i = 0; i < GLIDE_NSYM; i++)
                if (len[i] && len[i] < GLIDE_HUFF_MAX_LEN) { len[i]++; break; }
        } else if (kind == 2) { /* over-subscribed: a used symbol made shorter, or a second code of length 1 */
            unsigned i = rnd() % GLIDE_NSYM;
            len[i] = len[i] > 1 ? len[i] - 1 : 1;
        } else if (kind == 3) { /* a length past the limit */
            len[rnd() % GLIDE_NSYM] = GLIDE_HUFF_MAX_LEN + 1 + rnd() % 100;
        } else if (kind == 4) { /* nothing coded */
            memset(len, 0, sizeof len);
        }
        const int ra = glide_huff_dec_init(&a, len), rb = dec_reference(&b, len);
        refused += ra != 0;
        bad += ra != rb || (ra == 0 && memcmp(&a, &b, sizeof a) != 0);
    }
    CHECK(bad == 0 && refused > 0 && refused < trials,
          "decoder tables from the used symbols: %d codes (%d refused), the full pass's tables and verdicts, %d not",
          trials, refused, bad);
}

/* glide_book_select stops a book's sum once it reaches the best so far; it
 * must still return the first book of least size, as a full scan does. The
 * registry's dictionaries take their books' ZERO and FILL lengths from a
 * table; copies of them (as the benchmarks' trial dictionaries) from the
 * books. */
static void book_select_exact(void)
{
    static glide_dictionary copies[2];
    copies[0] = *glide_dict_get(1), copies[1] = *glide_dict_get(2);
    const glide_dictionary *dicts[4] = {glide_dict_get(1), glide_dict_get(2), &copies[0], &copies[1]};
    uint64_t hist[GLIDE_NSYM];
    int bad = 0, trials = 0, bad_cap = 0, capped = 0, tied = 0;
    for (int dv = 0; dv < 4; dv++) {
        const glide_dictionary *d = dicts[dv];
        for (int t = 0; t < 400; t++, trials++) {
            memset(hist, 0, sizeof hist);
            const int kind = t % 6;
            const unsigned w = 1 + rnd() % 200;
            if (kind == 0) { /* empty: every book ties at 0, book 0 wins */
            } else if (kind == 5) { /* a few codes near zero: many books tie, the first of them wins */
                hist[GLIDE_SYM_ZERO] = rnd() % 1000;
                for (unsigned q = 1; q <= rnd() % 3; q++) hist[GLIDE_SYM_ZERO + q] = hist[GLIDE_SYM_ZERO - q] = rnd() % 3;
                if (rnd() % 2) hist[GLIDE_SYM_FILL] = rnd() % 5;
            } else if (kind == 1) {
                for (unsigned i = 0; i < GLIDE_NSYM; i++) hist[i] = rnd() % 50;
            } else {
                for (int k = 0; k < 3000; k++) {
                    int q = (int)(rnd() % (2 * w + 1)) - (int)w;
                    q = q * (int)(rnd() % 4) / 3;
                    hist[GLIDE_SYM_ZERO + (q < -511 ? -511 : q > 511 ? 511 : q)] += 1 + rnd() % 9;
                }
                if (kind == 3) hist[GLIDE_SYM_FILL] = rnd() % 40000;
                if (kind == 4) hist[GLIDE_SYM_ZERO] += rnd() % 100000, hist[GLIDE_SYM_OUTLIER] = rnd() % 30;
            }
            /* counts as a chunk has them, then larger: the books' floors scale
             * counts down to 16 bits, and give up past what 64 bits hold */
            const unsigned scale = (unsigned[]){0, 0, 20, 36}[t / 6 % 4];
            for (unsigned i = 0; i < GLIDE_NSYM; i++) hist[i] <<= scale;
            uint64_t bits = 0, best_bits = UINT64_MAX;
            unsigned got = glide_book_select(d, hist, GLIDE_SCORE_SIZE, &bits), want = 0;
            for (unsigned b = 0; b < d->n_books; b++) {
                uint64_t c = glide_book_bits(d->books[b].len, hist);
                if (c < best_bits) best_bits = c, want = b;
            }
            unsigned n_best = 0;
            for (unsigned b = 0; b < d->n_books; b++) n_best += glide_book_bits(d->books[b].len, hist) == best_bits;
            tied += kind != 0 && n_best > 1 && want > 0;
            bad += got != want || bits != best_bits;
            /* under a cap: the least size where it is below the cap, else none */
            const uint64_t caps[4] = {best_bits, best_bits + 1, best_bits / 2, best_bits + 1 + rnd() % 1000};
            for (int c = 0; c < 4; c++) {
                const uint64_t below = glide_book_select_below(d, hist, caps[c]);
                capped++;
                bad_cap += below != (best_bits < caps[c] ? best_bits : UINT64_MAX);
            }
        }
    }
    CHECK(bad == 0 && tied > 0, "book selection with early exit equals a full scan, registry dictionaries and copies "
          "(%d of %d histograms differ; %d non-empty ones where later books tie with the first best)", bad, trials, tied);
    CHECK(bad_cap == 0, "book selection under a cap: the full scan's least size where below the cap, else none (%d of "
          "%d differ)", bad_cap, capped);
}

/* glide_book_select_variants (format 8's planning) must give each variant
 * what glide_book_select gives its own histogram, under both scores; so
 * must glide_book_select_variants_sized from every book's bits. A copy of
 * the dictionary (its books' ZERO and FILL lengths read from the books,
 * not the registry's table) must give the same. */
static void book_select_variants(void)
{
    const glide_dictionary *dicts[2] = {glide_dict_get(1), glide_dict_get(2)};
    static glide_dictionary copies[2];
    copies[0] = *dicts[0], copies[1] = *dicts[1];
    uint64_t hist[GLIDE_NSYM], h[GLIDE_NSYM];
    int bad = 0, trials = 0;
    for (int dv = 0; dv < 2; dv++)
        for (int t = 0; t < 300; t++) {
            const glide_dictionary *d = dicts[dv];
            memset(hist, 0, sizeof hist);
            const unsigned w = 1 + rnd() % 100;
            for (int k = 0; k < 2000; k++) {
                int q = (int)(rnd() % (2 * w + 1)) - (int)w;
                q = q * (int)(rnd() % 4) / 3;
                hist[GLIDE_SYM_ZERO + (q < -511 ? -511 : q > 511 ? 511 : q)] += 1 + rnd() % 9;
            }
            if (t % 3) hist[GLIDE_SYM_ZERO] += rnd() % 200000;
            if (t % 4 == 1) hist[GLIDE_SYM_FILL] = rnd() % 100000;
            if (t % 5 == 2) hist[GLIDE_SYM_OUTLIER] = rnd() % 50;
            if (t % 7 == 3) memset(hist, 0, sizeof hist); /* empty: book 0 */
            uint64_t zero[4], fill[4], bits[4];
            unsigned book[4];
            const unsigned want = 1 + rnd() % 15; /* any non-empty set of variants */
            for (unsigned v = 0; v < 4; v++) {
                /* ZERO and FILL as runs count them: fewer, sometimes none */
                zero[v] = v & 1u ? (hist[GLIDE_SYM_ZERO] ? rnd() % (hist[GLIDE_SYM_ZERO] + 1) : 0) : hist[GLIDE_SYM_ZERO];
                fill[v] = v & 2u ? (hist[GLIDE_SYM_FILL] ? rnd() % (hist[GLIDE_SYM_FILL] + 1) : 0) : hist[GLIDE_SYM_FILL];
            }
            /* the sized pass (the GPU's every-book bits for hist) under SIZE */
            static uint64_t sizes[1024];
            for (unsigned k = 0; k < d->n_books && k < 1024; k++) sizes[k] = glide_book_bits(d->books[k].len, hist);
            for (int score = 0; score < 3; score++) {
                trials++;
                uint64_t cbits[4];
                unsigned cbook[4];
                if (score == 2) {
                    glide_book_select_variants_sized(d, sizes, hist, want, zero, fill, book, bits);
                    glide_book_select_variants_sized(&copies[dv], sizes, hist, want, zero, fill, cbook, cbits);
                } else {
                    glide_book_select_variants(d, hist, (glide_score)score, want, zero, fill, book, bits);
                    glide_book_select_variants(&copies[dv], hist, (glide_score)score, want, zero, fill, cbook, cbits);
                }
                if (memcmp(book, cbook, sizeof book) || memcmp(bits, cbits, sizeof bits)) { bad++; continue; }
                const glide_score sc = score == 2 ? GLIDE_SCORE_SIZE : (glide_score)score;
                memcpy(h, hist, sizeof h);
                for (unsigned v = 0; v < 4; v++) {
                    if (!(want >> v & 1u)) continue;
                    h[GLIDE_SYM_ZERO] = zero[v];
                    h[GLIDE_SYM_FILL] = fill[v];
                    uint64_t b1 = 0;
                    const unsigned k1 = glide_book_select(d, h, sc, &b1);
                    if (k1 != book[v] || b1 != bits[v]) { bad++; break; }
                }
            }
        }
    CHECK(bad == 0, "book selection of up to four ZERO/FILL variants in one pass (or from every book's bits) equals a "
          "call each and a copy of the dictionary's (%d of %d differ)", bad, trials);
}

/* The plan's entropies come from a histogram's shared rest (no pass per
 * variant) and serve as floors under Huffman's bits: each must match a
 * direct sum well within the floor's margins, and no built code may cost
 * less than the floor the plan takes from it (codec.c's book_floor). */
static void entropy_variants(void)
{
    uint64_t hist[GLIDE_NSYM], h[GLIDE_NSYM];
    uint8_t len[GLIDE_NSYM];
    int bad = 0, under = 0, trials = 0;
    for (int t = 0; t < 400; t++) {
        memset(hist, 0, sizeof hist);
        const unsigned used = t % 9 == 0 ? 1 : 1 + rnd() % 300;
        for (unsigned k = 0; k < used; k++) hist[GLIDE_SYM_ZERO + (int)(rnd() % 201) - 100] += 1 + rnd() % (t % 2 ? 9 : 90000);
        if (t % 3 == 1) hist[GLIDE_SYM_FILL] = rnd() % 100000;
        if (t % 5 == 2) hist[GLIDE_SYM_ZERO] = (uint64_t)rnd() * 64; /* counts past 2^32 */
        glide_hist_rest r;
        glide_hist_rest_of(hist, &r);
        for (int v = 0; v < 4; v++) {
            memcpy(h, hist, sizeof h);
            if (v & 1) h[GLIDE_SYM_ZERO] = hist[GLIDE_SYM_ZERO] ? rnd() % (hist[GLIDE_SYM_ZERO] + 1) : 0;
            if (v & 2) h[GLIDE_SYM_FILL] = hist[GLIDE_SYM_FILL] ? rnd() % (hist[GLIDE_SYM_FILL] + 1) : 0;
            long double n = 0, direct = 0;
            for (unsigned i = 0; i < GLIDE_NSYM; i++) n += h[i];
            for (unsigned i = 0; i < GLIDE_NSYM; i++)
                if (h[i]) direct -= (long double)h[i] * log2l((long double)h[i] / n);
            const double e = glide_hist_entropy_variant(&r, h[GLIDE_SYM_ZERO], h[GLIDE_SYM_FILL]);
            trials++;
            /* within the floor's margins: 1e-9 of the entropy and a bit */
            if (fabsl((long double)e - direct) > 1e-10L * direct + 0.1L) bad++;
            uint64_t used_syms = 0;
            for (unsigned i = 0; i < GLIDE_NSYM; i++) used_syms += h[i] != 0;
            if (used_syms < 2 || glide_huff_lengths(h, GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, len) != 0) continue;
            if ((double)glide_book_bits(len, h) < floor(e * (1.0 - 1e-9)) - 1.0) under++;
        }
    }
    CHECK(bad == 0, "entropy of ZERO/FILL variants from the shared rest equals a direct sum (%d of %d differ)", bad,
          trials);
    CHECK(under == 0, "no Huffman code costs less than the entropy floor (%d under)", under);
}

/* The passes over a book or a histogram that visit its used symbols only
 * (glide_book_pack, glide_huff_canonical, glide_book_bits, the entropy's
 * h log2 h table) against the plain loops they replace, on books from
 * empty to full whose gaps of absent symbols straddle the packing's
 * 128-symbol bytes: the same bytes, codes, sums and doubles. */
static size_t pack_reference(const uint8_t *len, uint8_t *out, size_t cap)
{
    size_t o = 0;
    for (unsigned i = 0; i < GLIDE_NSYM;) {
        if (o >= cap) return (size_t)-1;
        if (len[i]) { out[o++] = len[i++]; continue; }
        unsigned k = 0;
        while (i < GLIDE_NSYM && !len[i] && k < 128) { i++; k++; }
        out[o++] = (uint8_t)(0x80 | (k - 1));
    }
    return o;
}

static double hlogh_reference(uint64_t h) { return h ? (double)h * log2((double)h) : 0.0; }

static void used_symbol_passes(void)
{
    static const unsigned gaps[] = {1, 2, 127, 128, 129, 255, 256, 257, 300, 1024};
    uint8_t len[GLIDE_NSYM], a[GLIDE_NSYM], b[GLIDE_NSYM];
    uint16_t ca[GLIDE_NSYM], cb[GLIDE_NSYM];
    uint64_t hist[GLIDE_NSYM];
    int bad_pack = 0, bad_cap = 0, bad_code = 0, bad_bits = 0, bad_ent = 0, books = 0;
    for (int t = 0; t < 600; t++) {
        /* used symbols with gaps from the list or random, some books dense, one empty */
        memset(len, 0, sizeof len);
        memset(hist, 0, sizeof hist);
        const int dense = t % 7 == 3;
        for (unsigned i = t % 11 == 0 ? GLIDE_NSYM : (t % 5 ? gaps[rnd() % 10] - 1 : 0); i < GLIDE_NSYM;) {
            len[i] = (uint8_t)(1 + rnd() % GLIDE_HUFF_MAX_LEN);
            hist[i] = t % 4 == 1 ? 1 + rnd() % 2000 : (uint64_t)rnd() * (1 + rnd() % 64);
            i += dense ? 1 + rnd() % 2 : t % 3 ? gaps[rnd() % 10] : 1 + rnd() % 40;
        }
        if (t % 13 == 5) len[GLIDE_NSYM - 1] = 3, hist[GLIDE_NSYM - 1] = 7;
        books++;
        const size_t na = glide_book_pack(len, a, sizeof a), nb = pack_reference(len, b, sizeof b);
        bad_pack += na != nb || memcmp(a, b, na) != 0;
        bad_cap += na > 0 && glide_book_pack(len, a, na - 1) != (size_t)-1;
        glide_huff_canonical(len, GLIDE_NSYM, ca);
        {
            unsigned count[17] = {0}, next[17] = {0}, c = 0;
            for (unsigned i = 0; i < GLIDE_NSYM; i++) count[len[i]]++;
            count[0] = 0;
            for (unsigned l = 1; l <= 16; l++) { c = (c + count[l - 1]) << 1; next[l] = c; }
            for (unsigned i = 0; i < GLIDE_NSYM; i++) cb[i] = len[i] ? (uint16_t)next[len[i]]++ : 0;
        }
        bad_code += memcmp(ca, cb, sizeof ca) != 0;
        uint64_t bits = 0, n = 0;
        double hl = 0;
        for (unsigned i = 0; i < GLIDE_NSYM; i++) {
            bits += hist[i] * len[i];
            n += hist[i];
            if (i != GLIDE_SYM_ZERO && i != GLIDE_SYM_FILL) hl += hlogh_reference(hist[i]);
        }
        bad_bits += glide_book_bits(len, hist) != bits;
        double e = hlogh_reference(n) - hl - hlogh_reference(hist[GLIDE_SYM_ZERO]) - hlogh_reference(hist[GLIDE_SYM_FILL]);
        e = n && e > 0 ? e : 0;
        bad_ent += glide_hist_entropy_bits(hist) != e; /* the same doubles, not within a margin */
    }
    CHECK(bad_pack == 0 && bad_cap == 0, "book packing by used symbols: the byte loop's bytes (%d of %d differ, %d "
          "ignore the room)", bad_pack, books, bad_cap);
    CHECK(bad_code == 0 && bad_bits == 0, "canonical codes and book bits by used symbols: %d and %d of %d differ",
          bad_code, bad_bits, books);
    CHECK(bad_ent == 0, "entropy with the h log2 h table: the same doubles as the logarithms (%d of %d differ)",
          bad_ent, books);
}

/* The entry points that take a plane's shared list of used symbols (the
 * plan builds a plane's run-coded variants' books from its histogram's
 * list): with the list glide_used_counts gives they equal the calls that
 * find it themselves, for the histogram and for a variant with other
 * nonzero ZERO and FILL counts; a list that is not such a list (a symbol
 * out of order, absent or past the end) is refused, never followed. */
static void shared_used_lists(void)
{
    uint64_t hist[GLIDE_NSYM], h2[GLIDE_NSYM];
    uint8_t la[GLIDE_NSYM], lb[GLIDE_NSYM], pa[GLIDE_NSYM], pb[GLIDE_NSYM];
    uint16_t used[GLIDE_NSYM], bad[GLIDE_NSYM];
    int diff = 0, followed = 0, trials = 0;
    for (int t = 0; t < 400; t++) {
        memset(hist, 0, sizeof hist);
        const unsigned w = 1 + rnd() % (t % 3 ? 60 : 500);
        for (int k = 0; k < 3000; k++) {
            const int q = (int)(rnd() % (2 * w + 1)) - (int)w;
            hist[GLIDE_SYM_ZERO + q] += 1 + rnd() % 5;
        }
        if (t % 2) hist[GLIDE_SYM_FILL] = 1 + rnd() % 50000;
        const unsigned m = glide_used_counts(hist, GLIDE_NSYM, used);
        for (int v = 0; v < 2; v++) {
            /* v 1: a run-coded variant, ZERO and FILL fewer but present */
            memcpy(h2, hist, sizeof h2);
            if (v) {
                if (hist[GLIDE_SYM_ZERO]) h2[GLIDE_SYM_ZERO] = 1 + rnd() % hist[GLIDE_SYM_ZERO];
                if (hist[GLIDE_SYM_FILL]) h2[GLIDE_SYM_FILL] = 1 + rnd() % hist[GLIDE_SYM_FILL];
            }
            trials++;
            const int ra = glide_huff_lengths(h2, GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, la);
            const int rb = glide_huff_lengths_used(h2, GLIDE_NSYM, used, m, GLIDE_HUFF_MAX_LEN, lb);
            if (ra != rb || memcmp(la, lb, sizeof la)) { diff++; continue; }
            if (ra) continue;
            const size_t na = glide_book_pack(la, pa, sizeof pa), nb = glide_book_pack_used(la, used, m, pb, sizeof pb);
            diff += na != nb || memcmp(pa, pb, na) != 0;
            diff += glide_book_bits(la, h2) != glide_book_bits_used(la, h2, used, m);
            glide_hist_rest ra_, rb_;
            glide_hist_rest_of(h2, &ra_);
            glide_hist_rest_of_used(h2, used, m, &rb_);
            diff += ra_.n != rb_.n || ra_.hlogh != rb_.hlogh;
        }
        /* lists that are not h2's: swapped, an absent symbol, one past the end */
        if (m < 2) continue;
        memcpy(bad, used, m * sizeof *bad);
        const unsigned i = 1 + rnd() % (m - 1);
        const uint16_t keep = bad[i];
        bad[i] = bad[i - 1], bad[i - 1] = keep;
        followed += glide_huff_lengths_used(hist, GLIDE_NSYM, bad, m, GLIDE_HUFF_MAX_LEN, lb) != -1;
        followed += glide_book_pack_used(la, bad, m, pb, sizeof pb) != (size_t)-1;
        memcpy(bad, used, m * sizeof *bad);
        unsigned absent = 0;
        while (hist[absent]) absent++;
        bad[0] = (uint16_t)(absent < bad[1] ? absent : bad[0]);
        if (bad[0] == absent) {
            followed += glide_huff_lengths_used(hist, GLIDE_NSYM, bad, m, GLIDE_HUFF_MAX_LEN, lb) != -1;
            followed += glide_book_pack_used(la, bad, m, pb, sizeof pb) != (size_t)-1;
        }
        memcpy(bad, used, m * sizeof *bad);
        bad[m - 1] = GLIDE_NSYM;
        followed += glide_huff_lengths_used(hist, GLIDE_NSYM, bad, m, GLIDE_HUFF_MAX_LEN, lb) != -1;
        followed += glide_book_pack_used(la, bad, m, pb, sizeof pb) != (size_t)-1;
    }
    CHECK(diff == 0, "builds, packing, bits and entropy rest from a plane's shared used list equal their own passes "
          "(%d of %d differ)", diff, trials);
    CHECK(followed == 0, "used lists out of order, with an absent symbol or past the end refused (%d followed)", followed);
}

/* The builder's leaf order, pinned: a reference that sorts the leaves with
 * qsort by weight, then symbol, and builds as the format says (two queues,
 * ties to the leaf; depths clamped, the rarest lengthened, slack to the most
 * frequent), against glide_huff_lengths over weights on both sides of the
 * sort's small-weight pass (256) and its insertion cut (32 leaves); and the
 * used-symbol scan against a plain one, on lengths that are not a multiple
 * of its groups. */
typedef struct { uint64_t w; unsigned sym; } ref_leaf;

static int ref_leaf_cmp(const void *a, const void *b)
{
    const ref_leaf *x = a, *y = b;
    return x->w != y->w ? (x->w < y->w ? -1 : 1) : (x->sym > y->sym) - (x->sym < y->sym);
}

static void ref_lengths(const uint64_t *freq, unsigned n, unsigned max_len, uint8_t *len)
{
    static ref_leaf lv[GLIDE_NSYM];
    static uint64_t nw[GLIDE_NSYM];
    static unsigned parent[2 * GLIDE_NSYM], depth[2 * GLIDE_NSYM];
    unsigned m = 0;
    memset(len, 0, n);
    for (unsigned i = 0; i < n; i++)
        if (freq[i]) lv[m].w = freq[i], lv[m].sym = i, m++;
    if (m == 1) len[lv[0].sym] = 1;
    if (m < 2) return;
    qsort(lv, m, sizeof *lv, ref_leaf_cmp);
    unsigned li = 0, ni = 0;
    for (unsigned k = 0; k < m - 1; k++) {
        uint64_t s = 0;
        for (int t = 0; t < 2; t++) {
            unsigned id;
            if (li < m && (ni >= k || lv[li].w <= nw[ni])) s += lv[li].w, id = li++;
            else s += nw[ni], id = m + ni++;
            parent[id] = m + k;
        }
        nw[k] = s;
    }
    depth[2 * m - 2] = 0;
    for (unsigned id = 2 * m - 2; id-- > 0;) depth[id] = depth[parent[id]] + 1;
    const uint64_t cap = 1ull << max_len;
    uint64_t kraft = 0;
    for (unsigned i = 0; i < m; i++) {
        len[lv[i].sym] = (uint8_t)(depth[i] > max_len ? max_len : depth[i]);
        kraft += 1ull << (max_len - len[lv[i].sym]);
    }
    while (kraft > cap)
        for (unsigned i = 0; i < m && kraft > cap; i++)
            if (len[lv[i].sym] < max_len) kraft -= 1ull << (max_len - ++len[lv[i].sym]);
    for (unsigned i = m; kraft < cap && i-- > 0;)
        while (len[lv[i].sym] > 1 && kraft + (1ull << (max_len - len[lv[i].sym])) <= cap)
            kraft += 1ull << (max_len - len[lv[i].sym]--);
}

static void builder_reference(void)
{
    uint64_t hist[GLIDE_NSYM];
    uint8_t la[GLIDE_NSYM], lb[GLIDE_NSYM];
    uint16_t used[GLIDE_NSYM], want[GLIDE_NSYM];
    int diff = 0, scan = 0, builds = 0;
    for (int t = 0; t < 3000; t++) {
        memset(hist, 0, sizeof hist);
        /* a span of symbols at some density; weights small, around 256,
         * mostly small with a few large, or large */
        const unsigned span = 1 + rnd() % GLIDE_NSYM, lo = rnd() % (GLIDE_NSYM - span + 1), dens = 1 + rnd() % 100;
        const unsigned mode = (unsigned)t % 4;
        for (unsigned i = lo; i < lo + span; i++) {
            if (rnd() % 100 >= dens) continue;
            hist[i] = mode == 0   ? 1 + rnd() % 4
                      : mode == 1 ? 200 + rnd() % 120
                      : mode == 2 ? (rnd() % 8 ? 1 + rnd() % 255 : 256 + rnd() % 100000)
                                  : (uint64_t)rnd() * (1 + rnd() % 1000);
        }
        const unsigned n = GLIDE_NSYM - (unsigned)t % 5;
        unsigned m = 0;
        for (unsigned i = 0; i < n; i++)
            if (hist[i]) want[m++] = (uint16_t)i;
        scan += glide_used_counts(hist, n, used) != m || memcmp(used, want, m * sizeof *used) != 0;
        const unsigned max_len = t % 3 ? GLIDE_HUFF_MAX_LEN : 9 + (unsigned)t % 5;
        if (m > (1u << max_len)) continue;
        builds++;
        ref_lengths(hist, n, max_len, la);
        diff += glide_huff_lengths(hist, n, max_len, lb) != 0 || memcmp(la, lb, n) != 0;
    }
    CHECK(scan == 0, "used-symbol scan equals a plain one (%d of 3000 differ)", scan);
    CHECK(diff == 0, "lengths equal a build on a qsort by weight then symbol (%d of %d differ)", diff, builds);
}

/* The plan's floors under a custom book (cpu/codec.c): the one-bit floor
 * lies between the entropy and the bits of the Huffman build itself, on
 * histograms where ZERO or FILL holds over half the symbols (and is -1
 * elsewhere), and the book section's size from the used symbols alone is
 * the packer's. */
static void plan_floor_parts(void)
{
    uint64_t hist[GLIDE_NSYM];
    uint8_t len[GLIDE_NSYM], packed[2 * GLIDE_NSYM];
    uint16_t used[GLIDE_NSYM];
    int bad_floor = 0, bad_none = 0, bad_size = 0, applied = 0, above = 0;
    for (int t = 0; t < 2000; t++) {
        memset(hist, 0, sizeof hist);
        const unsigned w = 1 + rnd() % (t % 3 ? 40 : 500), others = 1 + rnd() % 5000;
        for (unsigned k = 0; k < others; k++) {
            const int q = (int)(rnd() % (2 * w + 1)) - (int)w;
            if (q) hist[GLIDE_SYM_ZERO + q] += 1 + rnd() % 3;
        }
        uint64_t rest = 0;
        for (unsigned i = 0; i < GLIDE_NSYM; i++) rest += hist[i];
        /* the common symbol from a tenth of the others to 200 times them; the other one present or not */
        const uint64_t big = rest * (1 + rnd() % 2000) / 10, small = t % 4 ? rnd() % (rest + 1) : 0;
        const int fill_big = t % 2;
        hist[fill_big ? GLIDE_SYM_FILL : GLIDE_SYM_ZERO] = big;
        hist[fill_big ? GLIDE_SYM_ZERO : GLIDE_SYM_FILL] = small;
        glide_hist_rest r;
        glide_hist_rest_of(hist, &r);
        const double g = glide_hist_onebit_variant(&r, hist[GLIDE_SYM_ZERO], hist[GLIDE_SYM_FILL]);
        const uint64_t n = rest + big + small;
        if (2 * big <= n) {
            bad_none += g != -1;
            continue;
        }
        if (glide_huff_lengths(hist, GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, len) != 0) continue;
        applied++;
        const double bits = (double)glide_book_bits(len, hist), e = glide_hist_entropy_bits(hist);
        bad_floor += !(g <= bits * (1 + 1e-12) && g >= e * (1 - 1e-12));
        above += g > e + 1;
        const unsigned m = glide_used_counts(hist, GLIDE_NSYM, used);
        bad_size += glide_book_pack_size_used(used, m) != glide_book_pack_used(len, used, m, packed, sizeof packed);
    }
    for (int t = 0; t < 300; t++) { /* sparse and dense used lists, gaps across 128 */
        unsigned m = 0;
        for (unsigned i = rnd() % 300; i < GLIDE_NSYM; i += 1 + rnd() % (t % 3 ? 300 : 3)) used[m++] = (uint16_t)i;
        memset(len, 0, sizeof len);
        for (unsigned k = 0; k < m; k++) len[used[k]] = (uint8_t)(1 + rnd() % GLIDE_HUFF_MAX_LEN);
        bad_size += glide_book_pack_size_used(used, m) != glide_book_pack_used(len, used, m, packed, sizeof packed);
    }
    CHECK(bad_floor == 0 && bad_none == 0 && applied > 500 && above > applied / 2,
          "one-bit floor between the entropy and the Huffman bits (%d of %d outside, %d above the entropy; %d "
          "not -1 where no symbol holds half)", bad_floor, applied, above, bad_none);
    CHECK(bad_size == 0, "book section size from the used symbols equals the packer's (%d differ)", bad_size);
}

int main(void)
{
    builder_reference();
    plan_floor_parts();
    used_symbol_passes();
    shared_used_lists();
    dec_init_exact();
    book_select_exact();
    book_select_variants();
    entropy_variants();
    uint64_t freq[GLIDE_NSYM];
    uint8_t len[GLIDE_NSYM];

    /* all 1025 symbols, skewed weights: complete code, every symbol coded */
    for (unsigned i = 0; i < GLIDE_NSYM; i++) freq[i] = 1 + (rnd() % 1000) * (i % 7 == 0 ? 1000 : 1);
    CHECK(glide_huff_lengths(freq, GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, len) == 0, "lengths");
    CHECK(kraft_ok(len, GLIDE_NSYM, 1), "complete code over 1025 symbols");
    uint64_t n = 5 * GLIDE_SEG_SYMS + 333;
    uint16_t *sym = malloc(n * 2);
    for (uint64_t i = 0; i < n; i++) sym[i] = (uint16_t)(i < GLIDE_NSYM ? i : rnd() % GLIDE_NSYM);
    CHECK(round_trip(len, sym, n), "round trip of all 1025 symbols");

    /* Ties go to the lower symbol (the frozen streams depend on the order):
     * five equal weights give the two lowest symbols the long codes */
    {
        static const unsigned at[5] = {0, 1, 600, 601, GLIDE_NSYM - 1};
        static const uint8_t want[5] = {3, 3, 2, 2, 2};
        for (unsigned shift = 0; shift <= 48; shift += 8) {
            memset(freq, 0, sizeof freq);
            for (unsigned k = 0; k < 5; k++) freq[at[k]] = 7ull << shift;
            int ok = glide_huff_lengths(freq, GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, len) == 0;
            for (unsigned k = 0; k < 5; k++) ok = ok && len[at[k]] == want[k];
            CHECK(ok, "equal weights 7 << %u: lengths by symbol order", shift);
        }
    }
    /* Scaling every weight by 2^k keeps their order, so the lengths: the
     * sort sees the weights' differences in every byte position */
    {
        uint8_t base[GLIDE_NSYM];
        for (unsigned i = 0; i < GLIDE_NSYM; i++) freq[i] = i % 3 ? 0 : 1 + rnd() % 300;
        CHECK(glide_huff_lengths(freq, GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, base) == 0, "lengths, unscaled");
        int same = 1;
        for (unsigned k = 6; k <= 42; k += 6) { /* sums stay below 2^62 */
            for (unsigned i = 0; i < GLIDE_NSYM; i++) freq[i] <<= 6;
            same = same && glide_huff_lengths(freq, GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, len) == 0 &&
                   memcmp(len, base, GLIDE_NSYM) == 0;
        }
        CHECK(same, "lengths unchanged when every weight is scaled by 2^6 .. 2^42");
    }

    /* Fibonacci weights force an unlimited depth far beyond 16 */
    uint64_t a = 1, b = 1;
    for (unsigned i = 0; i < GLIDE_NSYM; i++) {
        freq[i] = i < 60 ? a : 1;
        uint64_t c = a + b; a = b; b = c;
    }
    CHECK(glide_huff_lengths(freq, GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, len) == 0, "limited lengths");
    unsigned mx = 0;
    for (unsigned i = 0; i < GLIDE_NSYM; i++) mx = len[i] > mx ? len[i] : mx;
    CHECK(mx == GLIDE_HUFF_MAX_LEN, "length limit reached and respected (max %u)", mx);
    CHECK(kraft_ok(len, GLIDE_NSYM, 1), "limited code still complete");
    CHECK(round_trip(len, sym, n), "round trip with 16-bit codes");

    /* a lone symbol gets one bit; absent symbols none */
    memset(freq, 0, sizeof freq);
    freq[511] = 1000;
    CHECK(glide_huff_lengths(freq, GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, len) == 0 && len[511] == 1 && len[0] == 0,
          "single symbol");
    for (uint64_t i = 0; i < n; i++) sym[i] = 511;
    CHECK(round_trip(len, sym, n), "single-symbol stream");

    /* every dictionary book codes every symbol */
    const glide_dictionary *d = glide_dict_get(GLIDE_DICT_VERSION);
    int books_ok = 1;
    for (uint64_t i = 0; i < n; i++) sym[i] = (uint16_t)(rnd() % GLIDE_NSYM);
    for (unsigned k = 0; k < d->n_books; k++) books_ok &= round_trip(d->books[k].len, sym, n);
    CHECK(books_ok, "round trip under all %u dictionary books", d->n_books);

    /* segment table: sizes add up; a wrong entry or truncation is detected */
    {
        glide_huff_enc enc;
        glide_huff_dec dec;
        glide_huff_enc_init(&enc, d->books[40].len);
        glide_huff_dec_init(&dec, d->books[40].len);
        uint32_t nseg = (uint32_t)glide_segment_count(n);
        CHECK(nseg == 6, "segment count %u", nseg);
        uint8_t *segtab = malloc(2 * nseg), *out = malloc(n * 2);
        uint16_t *back = malloc(n * 2);
        size_t bytes = glide_huff_encode(&enc, sym, n, segtab, out, n * 2);
        size_t sum = 0;
        for (uint32_t s = 0; s < nseg; s++) sum += segtab[2 * s] | (segtab[2 * s + 1] << 8);
        CHECK(sum == bytes, "segment sizes sum to the stream size");
        /* each segment decodes alone: decode segment 3 from its offset */
        size_t off = 0;
        for (uint32_t s = 0; s < 3; s++) off += segtab[2 * s] | (segtab[2 * s + 1] << 8);
        size_t len3 = segtab[6] | (segtab[7] << 8);
        CHECK(glide_huff_decode(&dec, segtab + 6, 1, out + off, len3, back, GLIDE_SEG_SYMS) == 0 &&
                  memcmp(back, sym + 3 * GLIDE_SEG_SYMS, 2 * GLIDE_SEG_SYMS) == 0,
              "a segment decodes on its own");
        CHECK(glide_is_error(glide_huff_decode(&dec, segtab, nseg, out, bytes - 1, back, n)), "truncated stream");
        segtab[0]--;
        CHECK(glide_is_error(glide_huff_decode(&dec, segtab, nseg, out, bytes, back, n)), "short segment entry");
        segtab[0] += 2;
        CHECK(glide_is_error(glide_huff_decode(&dec, segtab, nseg, out, bytes, back, n)), "long segment entry");
        segtab[0]--;
        CHECK(glide_is_error(glide_huff_decode(&dec, segtab, nseg - 1, out, bytes, back, n)), "segment count");
        CHECK(glide_huff_encode(&enc, sym, n, segtab, out, bytes - 1) == (size_t)-1, "encoder respects capacity");
        free(segtab); free(out); free(back);
    }

    /* custom book packing */
    {
        uint8_t packed[GLIDE_NSYM], back[GLIDE_NSYM];
        memset(freq, 0, sizeof freq);
        for (unsigned i = 400; i < 620; i++) freq[i] = 1 + rnd() % 50;
        freq[GLIDE_SYM_OUTLIER] = 3;
        glide_huff_lengths(freq, GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, len);
        size_t pb = glide_book_pack(len, packed, sizeof packed);
        CHECK(pb < 260 && glide_book_unpack(packed, pb, back) == 0 && memcmp(back, len, GLIDE_NSYM) == 0,
              "pack/unpack (%zu bytes)", pb);
        CHECK(glide_is_error(glide_book_unpack(packed, pb - 1, back)), "short book rejected");
        uint8_t bad[2] = {17, 0x80};
        CHECK(glide_is_error(glide_book_unpack(bad, 1, back)), "length 17 rejected");
        uint8_t over[12];
        memset(over, 0xFF, sizeof over);
        CHECK(glide_is_error(glide_book_unpack(over, sizeof over, back)), "overlong run rejected");
        uint8_t ones[GLIDE_NSYM];
        memset(ones, 1, sizeof ones);
        glide_huff_dec dec;
        CHECK(glide_huff_dec_init(&dec, ones) != 0, "over-subscribed code rejected");
    }
    free(sym);
    return CHECK_DONE();
}
