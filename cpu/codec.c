#include "codec.h"
#include "bytes.h"
#include "huff_build.h"
#include "huff_codec.h"
#include "book_select.h"
#include "predict.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

glide_encode_opts glide_default_encode_opts(void)
{
    glide_encode_opts o = {glide_dict_get(GLIDE_DICT_VERSION), GLIDE_SCORE_SIZE, GLIDE_AUTO_SLACK, 0.0, NULL, 0, 0, 0, NULL, NULL, 1, GLIDE_SLICE_TRIAL, NULL, NULL, 1, 0, 0, 0, NULL, NULL};
    return o;
}

double glide_level_alpha(double rel)
{
    /* Tighter bounds on coarse levels buy PSNR with bit rate. Measured on the
     * real fields (docs/DESIGN.md), only loose bounds gain enough PSNR per
     * bit to be worth it; below 1e-2 alpha = 1 is best in CR and in R-D. */
    return rel >= 1e-2 ? 1.25 : 1.0;
}

void glide_level_bounds(double eb, double alpha, unsigned levels, double *out)
{
    double e = eb;
    for (unsigned l = 0; l < levels; l++) { out[l] = e; e = e / alpha; }
}

/* What a plane's decisions share, computed where one needs it: the
 * plane's histogram and its run-coded variants differ only in ZERO's and
 * FILL's counts (nonzero in each, a run being at least a point), so one
 * pass with logarithms gives every entropy, and one pass the used symbols
 * of every custom book. */
typedef struct {
    const uint64_t *hist; /* the plane's */
    int have, have_used;
    glide_hist_rest rest;
    unsigned m_used;
    uint16_t used[GLIDE_NSYM]; /* hist's nonzero symbols, increasing */
} plane_entropy;

/* How many used symbols pe's histogram has, and in *used which: those of
 * any histogram that is pe's but for ZERO's and FILL's nonzero counts */
static unsigned used_of(plane_entropy *pe, const uint16_t **used)
{
    if (!pe->have_used) pe->m_used = glide_used_counts(pe->hist, GLIDE_NSYM, pe->used), pe->have_used = 1;
    *used = pe->used;
    return pe->m_used;
}

/* The entropy of hist, which is pe's histogram but for ZERO and FILL (pe
 * NULL: a pass over hist). */
static double entropy_of(const uint64_t *hist, plane_entropy *pe)
{
    if (!pe) return glide_hist_entropy_bits(hist);
    if (!pe->have) {
        const uint16_t *used;
        const unsigned m = used_of(pe, &used);
        glide_hist_rest_of_used(pe->hist, used, m, &pe->rest);
        pe->have = 1;
    }
    return glide_hist_entropy_variant(&pe->rest, hist[GLIDE_SYM_ZERO], hist[GLIDE_SYM_FILL]);
}

/* One book for a histogram of n symbols: the dictionary's best, or a
 * custom one under GLIDE_BOOK_CUSTOM, or under AUTO when the dictionary's
 * costs more than auto_slack over the entropy and the custom book (with its
 * section) really is smaller. An empty histogram (format 5's plane 1 of a
 * one-point chunk) gets the dictionary's choice. */
static size_t plan_book(const glide_params *p, const glide_encode_opts *o, const uint64_t *hist, uint64_t n,
                        const glide_book_choice *given, glide_plan_book *b, uint8_t *len, uint8_t *packed,
                        plane_entropy *pe)
{
    const glide_dictionary *d = o->dict;
    uint64_t dict_bits = 0;
    unsigned book;
    if (given) {
        book = given->book;
        dict_bits = given->bits;
    } else {
        book = glide_book_select(d, hist, o->score, &dict_bits);
    }
    int custom = p->codebook == GLIDE_BOOK_CUSTOM && n;
    if (p->codebook == GLIDE_BOOK_AUTO) {
        /* custom iff dict_bits > slack * max(entropy, n) (Huffman pays >= 1
         * bit); max(entropy, n) >= n, so where dict_bits <= slack * n the
         * entropy's logarithms (a few microseconds on the GPU path's
         * critical one) decide nothing. */
        const double slack = 1.0 + o->auto_slack;
        custom = (double)dict_bits > slack * (double)n &&
                 (double)dict_bits > slack * fmax(entropy_of(hist, pe), (double)n);
    }
    b->bytes = 0;
    if (custom) {
        uint8_t clen[GLIDE_NSYM];
        uint16_t own[GLIDE_NSYM];
        const uint16_t *used = own;
        const unsigned m = pe ? used_of(pe, &used) : glide_used_counts(hist, GLIDE_NSYM, own);
        if (glide_huff_lengths_used(hist, GLIDE_NSYM, used, m, GLIDE_HUFF_MAX_LEN, clen) != 0) return GLIDE_ERROR(GENERIC);
        /* a custom book's used symbols are its histogram's */
        const size_t book_bytes = glide_book_pack_used(clen, used, m, packed, GLIDE_NSYM);
        if (book_bytes == (size_t)-1) return GLIDE_ERROR(GENERIC);
        uint64_t cbits = glide_book_bits_used(clen, hist, used, m);
        /* auto keeps the dictionary book unless the custom one really is smaller */
        if (p->codebook == GLIDE_BOOK_CUSTOM || cbits + 8 * book_bytes < dict_bits) {
            memcpy(len, clen, GLIDE_NSYM);
            b->bits = cbits;
            b->bytes = (uint32_t)book_bytes;
        } else {
            custom = 0;
        }
    }
    if (!custom) {
        memcpy(len, d->books[book].len, GLIDE_NSYM);
        b->bits = dict_bits;
    }
    b->kind = custom ? GLIDE_BOOKKIND_CUSTOM : GLIDE_BOOKKIND_DICT;
    b->id = custom ? 0 : (uint16_t)book;
    /* the oldest dictionary holding the book, so that older decoders read
     * every stream that does not need a newer book */
    b->dict_version = custom ? GLIDE_DICT_FIRST_VERSION : glide_dict_book_version(d, book);
    return 0;
}

/* The layout once the books are chosen; RAW when a raw copy is no larger. */
static size_t plan_layout(glide_header *h, const uint64_t *hist0, const uint64_t *hist1, uint64_t bits, uint64_t n,
                          size_t esz, glide_entropy_plan *plan)
{
    h->n_outliers = hist0[GLIDE_SYM_OUTLIER] + (hist1 ? hist1[GLIDE_SYM_OUTLIER] : 0);
    h->n_segments = (uint32_t)glide_header_segments(n, plan->n0, plan->planes, h->flags);
    /* upper bound: every segment pads at most 7 bits */
    h->stream_bytes = (bits + 7ull * h->n_segments) / 8;
    size_t r = glide_layout_compute(h, &plan->lay);
    if (glide_is_error(r)) return r;
    plan->raw_total = glide_header_size(h->rank) + n * esz + GLIDE_CRC_BYTES;
    if (plan->lay.total >= plan->raw_total) h->method = GLIDE_METHOD_RAW;
    return 0;
}

size_t glide_entropy_plan_hist(const glide_params *p, const glide_encode_opts *o, glide_header *h,
                               const uint64_t *hist, const glide_book_choice *given, uint64_t n, size_t esz,
                               glide_entropy_plan *plan)
{
    plan->o = o;
    plan->planes = 0;
    plan->n0 = n;
    if (o->hist_out) memcpy(o->hist_out, hist, GLIDE_NSYM * sizeof *hist);
    glide_plan_book b;
    size_t r = plan_book(p, o, hist, n, given, &b, plan->len, plan->book, NULL);
    if (glide_is_error(r)) return r;
    h->dict_version = (uint8_t)b.dict_version;
    h->book_kind = b.kind;
    h->book_id = b.id;
    h->book_bytes = b.bytes;
    return plan_layout(h, hist, NULL, b.bits, n, esz, plan);
}

/* Bits a plane's choice is compared by: the code, its books, and per
 * segment its table entry and half a byte of padding. */
static uint64_t plane_cost(uint64_t bits, uint64_t book_bytes, uint64_t n_seg)
{
    return bits + 8 * book_bytes + 20 * n_seg;
}

/* A floor under any prefix code's bits for hist's n symbols: a bit a
 * symbol, the entropy, and (with pe) where ZERO or FILL is over half the
 * symbols the one-bit floor, each less a margin for its rounding. The one-bit
 * floor is what spares a plain plane's Huffman build where its runs win:
 * the entropy lets a plane of mostly ZERO cost far less than any code. */
static uint64_t code_floor(const uint64_t *hist, uint64_t n, plane_entropy *pe)
{
    const double f = floor(entropy_of(hist, pe) * (1.0 - 1e-9)) - 1.0;
    const uint64_t r = f > (double)n ? (uint64_t)f : n;
    if (!pe) return r;
    /* entropy_of has made pe's rest; -1 (no floor) where neither is over half */
    const double g = floor(glide_hist_onebit_variant(&pe->rest, hist[GLIDE_SYM_ZERO], hist[GLIDE_SYM_FILL]) *
                           (1.0 - 1e-9)) - 1.0;
    return g > (double)r ? (uint64_t)g : r;
}

/* A floor under plan_book's bits + 8 * bytes for hist (n > 0 symbols,
 * pe's histogram), whose dictionary book costs dict_bits: those bits where
 * plan_book builds no custom book, else the least of them and a floor
 * under the custom book's: its section's bytes, known from the used
 * symbols, and n (a Huffman code spends a bit a symbol at least) where
 * that already exceeds `over`, else code_floor's. */
static uint64_t book_floor(const glide_params *p, const glide_encode_opts *o, const uint64_t *hist, uint64_t n,
                           uint64_t dict_bits, uint64_t over, plane_entropy *pe)
{
    const int forced = p->codebook == GLIDE_BOOK_CUSTOM;
    if (!forced && !(p->codebook == GLIDE_BOOK_AUTO && (double)dict_bits > (1.0 + o->auto_slack) * (double)n))
        return dict_bits;
    const uint16_t *used;
    const unsigned m = used_of(pe, &used); /* before `used` is read */
    const uint64_t section = 8 * glide_book_pack_size_used(used, m);
    const uint64_t e = (n <= over ? code_floor(hist, n, pe) : n) + section;
    return forced || e < dict_bits ? e : dict_bits;
}

/* A plane's book, run-coded where that is cheaper (format 8): every
 * nonempty set of the run-coded symbols that occur, ZERO, FILL, both, is
 * costed with its own book for the collapsed histogram (a run counts as
 * one symbol) and class codes; the least cost wins, ties to the plain
 * plane and then to the earlier set. *on gets the set (0: plain). */
static size_t plan_plane(const glide_params *p, const glide_encode_opts *o, const uint64_t *hist, uint64_t n,
                         const glide_book_choice *given, const glide_run_stats *st, glide_plan_book *b,
                         uint8_t *len, uint8_t *packed, uint8_t run_len[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES],
                         unsigned *on)
{
    *on = 0;
    memset(run_len, 0, GLIDE_RUN_KINDS * GLIDE_RUN_CLASSES);
    if (!st || !o->runs || !n) return plan_book(p, o, hist, n, given, b, len, packed, NULL);
    unsigned present = 0;
    for (unsigned k = 0; k < GLIDE_RUN_KINDS; k++)
        if (st->runs[k] && st->runs[k] <= hist[glide_run_sym[k]]) present |= 1u << k; /* runs of points that occur */
    _Static_assert(GLIDE_RUN_KINDS == 2, "four sets of run-coded kinds");
    /* the dictionary's best book for the plane as it is and for each set of
     * run-coded kinds, in one pass over the books */
    glide_book_choice choice[4];
    {
        uint64_t zero[4], fill[4], bits[4];
        unsigned book[4], want = given ? 0u : 1u;
        for (unsigned set = 0; set < 4; set++) {
            if (set && (set & present) == set) want |= 1u << set;
            zero[set] = set & 1u ? st->runs[0] : hist[GLIDE_SYM_ZERO];
            fill[set] = set & 2u ? st->runs[1] : hist[GLIDE_SYM_FILL];
        }
        if (given && given->sizes) glide_book_select_variants_sized(o->dict, given->sizes, hist, want, zero, fill, book, bits);
        else glide_book_select_variants(o->dict, hist, o->score, want, zero, fill, book, bits);
        for (unsigned set = 0; set < 4; set++) choice[set] = (glide_book_choice){book[set], bits[set], NULL};
    }
    const glide_book_choice *plain = given ? given : &choice[0];
    uint8_t cls_len[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES];
    uint64_t cls_bits[GLIDE_RUN_KINDS] = {0, 0};
    for (unsigned k = 0; k < GLIDE_RUN_KINDS; k++) {
        if (!(present >> k & 1u)) continue;
        if (glide_huff_lengths(st->cls[k], GLIDE_RUN_CLASSES, GLIDE_RUN_MAX_LEN, cls_len[k]) != 0)
            return GLIDE_ERROR(GENERIC);
        for (unsigned c = 0; c < GLIDE_RUN_CLASSES; c++) cls_bits[k] += st->cls[k][c] * cls_len[k][c];
        cls_bits[k] += st->extra_bits[k];
    }
    /* The sets first, the first least cost winning among them; then the
     * plain plane, which wins where it costs no more. Its custom book (a
     * Huffman build, the plan's largest cost) is built only where its floor
     * does not already lose to the best set. */
    plane_entropy pe;
    pe.hist = hist, pe.have = 0, pe.have_used = 0;
    uint64_t best = UINT64_MAX;
    unsigned best_set = 0;
    glide_plan_book bs = {0};
    uint64_t h2[GLIDE_NSYM];
    uint8_t len2[GLIDE_NSYM], packed2[GLIDE_NSYM], len_s[GLIDE_NSYM], packed_s[GLIDE_NSYM];
    size_t r;
    const uint64_t nseg0 = glide_plane_segments(n, 0), nseg1 = glide_plane_segments(n, 1);
    /* Under AUTO the plain plane costs at most its dictionary book (a
     * custom one is taken only where smaller), and it wins ties: a set
     * whose floor (a bit an event, the entropy) reaches that cannot be
     * chosen, and its book, a Huffman build where the runs are short, is
     * not made. */
    const uint64_t plain_most = p->codebook == GLIDE_BOOK_AUTO && !o->plan_all ? plane_cost(plain->bits, 0, nseg0) : UINT64_MAX;
    for (unsigned set = 1; set < 1u << GLIDE_RUN_KINDS; set++) {
        if ((set & present) != set) continue;
        memcpy(h2, hist, sizeof h2);
        uint64_t events = n, extra = 0;
        for (unsigned k = 0; k < GLIDE_RUN_KINDS; k++)
            if (set >> k & 1u) {
                events -= hist[glide_run_sym[k]] - st->runs[k];
                h2[glide_run_sym[k]] = st->runs[k];
                extra += cls_bits[k];
            }
        /* FILL's classes take a second half of the run book */
        const uint64_t rb = GLIDE_RUN_SUBBOOK_BYTES * (set & 2u ? 2u : 1u);
        if (plain_most != UINT64_MAX && plane_cost(code_floor(h2, events, &pe) + extra, rb, nseg1) >= plain_most)
            continue;
        glide_plan_book b2;
        r = plan_book(p, o, h2, events, &choice[set], &b2, len2, packed2, &pe);
        if (glide_is_error(r)) return r;
        const uint64_t c = plane_cost(b2.bits + extra, b2.bytes + rb, nseg1);
        if (c >= best) continue;
        best = c;
        best_set = set;
        b2.bits += extra;
        bs = b2;
        memcpy(len_s, len2, GLIDE_NSYM);
        memcpy(packed_s, packed2, b2.bytes);
    }
    if (!best_set || o->plan_all || plane_cost(book_floor(p, o, hist, n, plain->bits, best, &pe), 0, nseg0) <= best) {
        r = plan_book(p, o, hist, n, plain, b, len, packed, &pe);
        if (glide_is_error(r) || plane_cost(b->bits, b->bytes, nseg0) <= best) return r;
    }
    *on = best_set;
    *b = bs;
    memcpy(len, len_s, GLIDE_NSYM);
    memcpy(packed, packed_s, bs.bytes);
    for (unsigned k = 0; k < GLIDE_RUN_KINDS; k++)
        if (best_set >> k & 1u) memcpy(run_len[k], cls_len[k], GLIDE_RUN_CLASSES);
    return 0;
}

/* One plane's share of glide_entropy_plan_planes: its inputs, and its
 * outputs apart from the plan's arrays (each plane writes its own). */
typedef struct {
    const glide_params *p;
    const glide_encode_opts *o;
    const uint64_t *const *hist;
    const glide_book_choice *given;
    const glide_run_stats *runs;
    uint64_t n0, n;
    glide_entropy_plan *plan;
    glide_plan_book b[GLIDE_NPLANES];
    unsigned on[GLIDE_NPLANES];
    size_t r[GLIDE_NPLANES];
} planes_job;

static void plan_plane_of(void *arg, unsigned pl)
{
    planes_job *J = arg;
    glide_entropy_plan *plan = J->plan;
    J->r[pl] = plan_plane(J->p, J->o, J->hist[pl], pl ? J->n - J->n0 : J->n0, J->given ? &J->given[pl] : NULL,
                          J->runs ? &J->runs[pl] : NULL, &J->b[pl], pl ? plan->len1 : plan->len,
                          pl ? plan->book1 : plan->book, plan->run_len[pl], &J->on[pl]);
}

size_t glide_entropy_plan_planes(const glide_params *p, const glide_encode_opts *o, glide_header *h,
                                 const uint64_t *const hist[GLIDE_NPLANES], const glide_book_choice *given,
                                 const glide_run_stats *runs, uint64_t n0, uint64_t n, size_t esz,
                                 glide_entropy_plan *plan, const glide_plan_par *par)
{
    plan->o = o;
    plan->planes = 1;
    plan->n0 = n0;
    if (o->hist_out)
        for (unsigned k = 0; k < GLIDE_NSYM; k++) o->hist_out[k] = hist[0][k] + hist[1][k];
    planes_job J = {p, o, hist, given, runs, n0, n, plan, {{0}}, {0, 0}, {0, 0}};
    if (par) {
        par->both(par->ctx, plan_plane_of, &J);
    } else {
        plan_plane_of(&J, 0);
        if (!glide_is_error(J.r[0])) plan_plane_of(&J, 1);
    }
    const glide_plan_book *b = J.b;
    for (unsigned pl = 0; pl < GLIDE_NPLANES; pl++) {
        if (glide_is_error(J.r[pl])) return J.r[pl];
        if (J.on[pl]) {
            h->format_version = GLIDE_FORMAT_RUNS;
            h->flags |= pl ? GLIDE_FLAG_RUNS1 : GLIDE_FLAG_RUNS0;
            if (J.on[pl] & 2u) h->flags |= pl ? GLIDE_FLAG_FILLRUNS1 : GLIDE_FLAG_FILLRUNS0;
        }
    }
    /* one dictionary version names both books: the newer of the two needed */
    h->dict_version = (uint8_t)(b[0].dict_version > b[1].dict_version ? b[0].dict_version : b[1].dict_version);
    h->book_kind = b[0].kind;
    h->book_id = b[0].id;
    h->book_bytes = b[0].bytes;
    h->book_kind1 = b[1].kind;
    h->book_id1 = b[1].id;
    h->book_bytes1 = b[1].bytes;
    return plan_layout(h, hist[0], hist[1], b[0].bits + b[1].bits, n, esz, plan);
}

/* Format 5's symbol order: plane 0 (every effective coordinate even within
 * its slab) then plane 1, each in raster order. split: raster -> planes;
 * merge: back. Rows with an odd slow coordinate are plane 1 whole; the
 * others alternate. */
static void planes_order(const glide_shape *s, const uint16_t *in, uint16_t *out, uint64_t n0, int merge)
{
    uint64_t d[3] = {1, 1, 1}, rows = 1; /* padded in front, as the grid of FORMAT.md §4 */
    for (unsigned a = 0; a < s->rank; a++) d[3 - s->rank + a] = s->n[a];
    if (s->rank == 3) rows = s->slab_rows;
    const uint64_t nx = d[2], e = (nx + 1) / 2, o = nx / 2;
    uint64_t i = 0, k0 = 0, k1 = n0;
    for (uint64_t z = 0, zl = 0; z < d[0]; z++, zl = zl + 1 == rows ? 0 : zl + 1)
        for (uint64_t y = 0; y < d[1]; y++, i += nx) {
            if ((zl | y) & 1u) {
                if (merge) memcpy(out + i, in + k1, nx * sizeof *out);
                else memcpy(out + k1, in + i, nx * sizeof *out);
                k1 += nx;
                continue;
            }
            if (merge) {
                for (uint64_t x = 0; x < o; x++) {
                    out[i + 2 * x] = in[k0 + x];
                    out[i + 2 * x + 1] = in[k1 + x];
                }
                if (nx & 1u) out[i + nx - 1] = in[k0 + o];
            } else {
                for (uint64_t x = 0; x < o; x++) {
                    out[k0 + x] = in[i + 2 * x];
                    out[k1 + x] = in[i + 2 * x + 1];
                }
                if (nx & 1u) out[k0 + o] = in[i + nx - 1];
            }
            k0 += e;
            k1 += o;
        }
}

/* Picks the codebook(s) and lays out the stream. Sets h->method to RAW when
 * a raw copy would be no larger. Format 5 (h names it): ord gets the
 * symbols in stream order, plane 0's then plane 1's; else ord is unused. */
static size_t glide_entropy_plan_make(const glide_params *p, const glide_encode_opts *o, glide_header *h,
                                      const glide_shape *sh, const uint16_t *sym, uint16_t *ord, uint64_t n,
                                      size_t esz, glide_entropy_plan *plan)
{
    uint64_t hist[GLIDE_NPLANES][GLIDE_NSYM] = {{0}};
    if (h->format_version < GLIDE_FORMAT_PLANES) {
        glide_hist_add(sym, n, hist[0]);
        return glide_entropy_plan_hist(p, o, h, hist[0], NULL, n, esz, plan);
    }
    const uint64_t n0 = glide_plane0_count(sh);
    planes_order(sh, sym, ord, n0, 0);
    glide_hist_add(ord, n0, hist[0]);
    glide_hist_add(ord + n0, n - n0, hist[1]);
    const uint64_t *const hp[GLIDE_NPLANES] = {hist[0], hist[1]};
    glide_run_stats st[GLIDE_NPLANES];
    if (o->runs) {
        glide_run_stats_count(ord, n0, &st[0]);
        glide_run_stats_count(ord + n0, n - n0, &st[1]);
    }
    return glide_entropy_plan_planes(p, o, h, hp, NULL, o->runs ? st : NULL, n0, n, esz, plan, NULL);
}

static size_t glide_finish(glide_header *h, uint8_t *dst)
{
    glide_layout lay;
    size_t r = glide_layout_compute(h, &lay);
    if (glide_is_error(r)) return r;
    glide_header_write(h, dst);
    put_u32(dst + lay.crc_off, glide_crc32(dst, lay.crc_off));
    return lay.total;
}

/* sym: the symbols in stream order (format 5: plane 0's, then plane 1's). */
static size_t glide_entropy_write(glide_entropy_plan *plan, glide_header *h, const uint16_t *sym, uint64_t n,
                                  uint8_t *dst)
{
    memcpy(dst + plan->lay.book_off, plan->book, h->book_bytes);
    if (plan->planes) memcpy(dst + plan->lay.book_off + h->book_bytes, plan->book1, h->book_bytes1);
    uint8_t *runbook = dst + plan->lay.runbook_off;
    /* never larger than the raw stream */
    size_t room = plan->raw_total - GLIDE_CRC_BYTES - plan->lay.stream_off, got = 0;
    uint8_t *segtab = dst + plan->lay.segtab_off;
    const uint64_t cnt[GLIDE_NPLANES] = {plan->n0, n - plan->n0};
    for (unsigned pl = 0; pl < (plan->planes ? GLIDE_NPLANES : 1u); pl++) {
        glide_huff_enc enc;
        glide_huff_enc_init(&enc, pl ? plan->len1 : plan->len);
        const int runs = (h->flags & (pl ? GLIDE_FLAG_RUNS1 : GLIDE_FLAG_RUNS0)) != 0;
        size_t g;
        if (runs) {
            glide_run_code rc;
            if (glide_run_code_init(&rc, (const uint8_t(*)[GLIDE_RUN_CLASSES])plan->run_len[pl]) != 0)
                return GLIDE_ERROR(GENERIC);
            runbook += glide_run_book_pack((const uint8_t(*)[GLIDE_RUN_CLASSES])plan->run_len[pl], runbook);
            g = glide_runs_encode(&enc, &rc, sym + (pl ? plan->n0 : 0), cnt[pl], segtab,
                                  dst + plan->lay.stream_off + got, room - got);
        } else {
            g = glide_huff_encode(&enc, sym + (pl ? plan->n0 : 0), cnt[pl], segtab, dst + plan->lay.stream_off + got,
                                  room - got);
        }
        if (g == (size_t)-1) { h->method = GLIDE_METHOD_RAW; return 0; }
        got += g;
        segtab += 2 * glide_plane_segments(cnt[pl], runs);
    }
    h->stream_bytes = got;
    return glide_finish(h, dst);
}

/* A book's code lengths: from the dictionary or the custom section. */
static size_t read_book(const glide_header *h, unsigned kind, unsigned id, const uint8_t *packed, uint32_t bytes,
                        uint8_t *len)
{
    if (kind == GLIDE_BOOKKIND_DICT) {
        memcpy(len, glide_dict_get(h->dict_version)->books[id].len, GLIDE_NSYM);
        return 0;
    }
    return glide_book_unpack(packed, bytes, len);
}

/* codec.h */
size_t glide_entropy_read(const glide_header *h, const glide_layout *lay, const uint8_t *src,
                                 uint16_t *sym, uint64_t n, uint64_t n0)
{
    const int planes = h->format_version >= GLIDE_FORMAT_PLANES;
    const uint64_t cnt[GLIDE_NPLANES] = {planes ? n0 : n, planes ? n - n0 : 0};
    const uint8_t *segtab = src + lay->segtab_off, *in = src + lay->stream_off;
    const uint8_t *runbook = src + lay->runbook_off;
    size_t left = h->stream_bytes, r = 0;
    glide_huff_dec *dec = malloc(sizeof *dec);
    if (!dec) return GLIDE_ERROR(NOMEM);
    for (unsigned pl = 0; pl < (planes ? GLIDE_NPLANES : 1u) && !glide_is_error(r); pl++) {
        uint8_t len[GLIDE_NSYM];
        r = pl ? read_book(h, h->book_kind1, h->book_id1, src + lay->book_off + h->book_bytes, h->book_bytes1, len)
               : read_book(h, h->book_kind, h->book_id, src + lay->book_off, h->book_bytes, len);
        if (glide_is_error(r)) break;
        if (glide_huff_dec_init(dec, len) != 0) { r = GLIDE_ERROR(CORRUPT); break; }
        const int runs = (h->flags & (pl ? GLIDE_FLAG_RUNS1 : GLIDE_FLAG_RUNS0)) != 0;
        glide_run_code rc;
        if (runs) {
            /* a run-coded plane codes ZERO or FILL in runs (FILL only with
             * HAS_FILL), with valid class codes */
            uint8_t rl[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES];
            const int fill = (h->flags & (pl ? GLIDE_FLAG_FILLRUNS1 : GLIDE_FLAG_FILLRUNS0)) != 0;
            r = glide_run_book_unpack(runbook, fill, rl);
            runbook += glide_plane_runbook_bytes(h->flags, pl);
            if (glide_is_error(r)) break;
            /* FILL's half, where there, codes FILL (one stream, one encoding) */
            if (glide_run_code_init(&rc, (const uint8_t(*)[GLIDE_RUN_CLASSES])rl) != 0 || !(rc.on[0] | rc.on[1]) ||
                rc.on[1] != fill) {
                r = GLIDE_ERROR(CORRUPT);
                break;
            }
        }
        /* this plane's bytes: its segments' sum, checked against what is left */
        const uint64_t nseg = glide_plane_segments(cnt[pl], runs);
        const size_t bytes = planes && !pl ? glide_segtab_sum(segtab, nseg) : left;
        if (bytes > left) { r = GLIDE_ERROR(CORRUPT); break; }
        r = runs ? glide_runs_decode(dec, &rc, segtab, nseg, in, bytes, sym + (pl ? n0 : 0), cnt[pl])
                 : glide_huff_decode(dec, segtab, (uint32_t)nseg, in, bytes, sym + (pl ? n0 : 0), cnt[pl]);
        segtab += 2 * nseg;
        in += bytes;
        left -= bytes;
    }
    free(dec);
    return r;
}

#define GLIDE_T_IS_DOUBLE 0
#include "tmpl_begin.h"
#include "codec_tmpl.h"
#include "tmpl_end.h"
#undef GLIDE_T_IS_DOUBLE
#define GLIDE_T_IS_DOUBLE 1
#include "tmpl_begin.h"
#include "codec_tmpl.h"
#include "tmpl_end.h"

size_t glide_write_raw(glide_header *h, const void *src, uint64_t n, uint8_t *dst, size_t cap)
{
    size_t esz = glide_dtype_size(h->dtype);
    h->method = GLIDE_METHOD_RAW;
    h->format_version = GLIDE_FORMAT_FIRST_VERSION; /* raw values: no slabs, readable by every version */
    h->flags &= GLIDE_FLAG_HAS_FILL; /* and no second fill value */
    h->fill2_bits = 0;
    h->n_runs = 0;
    h->dict_version = GLIDE_DICT_FIRST_VERSION;
    h->book_kind = GLIDE_BOOKKIND_NONE;
    h->book_id = 0;
    h->block_log2 = 0;
    h->book_bytes = 0;
    h->n_segments = 0;
    h->n_outliers = 0;
    h->alpha = 1.0;
    h->subst_bits = 0;
    memset(h->level_cfg, 0, sizeof h->level_cfg);
    h->stream_bytes = n * esz;
    glide_layout lay;
    size_t r = glide_layout_compute(h, &lay);
    if (glide_is_error(r)) return r;
    if (lay.total > cap) return GLIDE_ERROR(DST_TOO_SMALL);
    if (esz == 4) store_le_f32(src, n, dst + lay.stream_off);
    else store_le_f64(src, n, dst + lay.stream_off);
    return glide_finish(h, dst);
}

void glide_header_begin(glide_header *h, const glide_params *p)
{
    memset(h, 0, sizeof *h);
    h->format_version = (uint8_t)glide_format_version_for(p->rank, p->dims);
    h->dict_version = GLIDE_DICT_FIRST_VERSION; /* until a dictionary book is chosen */
    h->dtype = (uint8_t)p->dtype;
    h->mode = (uint8_t)p->mode;
    h->rank = (uint8_t)p->rank;
    h->flags = p->has_fill ? GLIDE_FLAG_HAS_FILL : 0;
    h->eb_user = p->eb;
    h->fill_bits = p->has_fill ? (p->dtype == GLIDE_FLOAT32 ? (p->fill_bits & 0xFFFFFFFFu) : p->fill_bits) : 0;
    memcpy(h->dims, p->dims, p->rank * sizeof(uint64_t));
}

size_t glide_cpu_compress(const glide_params *p, const glide_encode_opts *o, const void *src, void *dst, size_t cap)
{
    glide_header h;
    glide_header_begin(&h, p);
    glide_shape sh;
    glide_shape_from_dims(p->rank, p->dims, h.format_version, &sh);
    glide_params q = *p;
    q.fill_bits = h.fill_bits;
    size_t raw_total = glide_header_size(p->rank) + sh.count * glide_dtype_size(p->dtype) + GLIDE_CRC_BYTES;
    /* the entropy stage writes in place, so it needs room for the raw case */
    uint8_t *out = dst, *tmp = NULL;
    if (cap < raw_total) {
        tmp = malloc(raw_total);
        if (!tmp) return GLIDE_ERROR(NOMEM);
        out = tmp;
    }
    size_t r = p->dtype == GLIDE_FLOAT32 ? compress_f32(&q, &sh, src, out, raw_total, &h, o)
                                         : compress_f64(&q, &sh, src, out, raw_total, &h, o);
    if (!glide_is_error(r) && h.method == GLIDE_METHOD_RAW) r = glide_write_raw(&h, src, sh.count, out, raw_total);
    if (tmp) {
        if (!glide_is_error(r)) {
            if (r > cap) r = GLIDE_ERROR(DST_TOO_SMALL);
            else memcpy(dst, tmp, r);
        }
        free(tmp);
    }
    return r;
}

size_t glide_cpu_decompress(const glide_header *h, const glide_layout *lay, const uint8_t *src, void *dst)
{
    return h->dtype == GLIDE_FLOAT32 ? decompress_f32(h, lay, src, dst) : decompress_f64(h, lay, src, dst);
}
