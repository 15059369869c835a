/* Level-by-level spline interpolation (templated). See docs/FORMAT.md,
 * "Interpolation": the point sets of each level and step, the neighbour
 * rule, and the exact arithmetic.
 *
 * GLIDE_TMPL_PART: what a translation unit compiles of it and of
 * slice_tmpl.h, the encoders (cpu/interp_enc_f*.c), the decoders
 * (cpu/interp_dec_f*.c) or tuning and the estimate (cpu/interp_tune_f*.c);
 * all where unset. Their large instances then compile in parallel. */
#ifndef GLIDE_TMPL_PARTS
#define GLIDE_TMPL_PARTS
#define GLIDE_PART_ENCODE 1
#define GLIDE_PART_DECODE 2
#define GLIDE_PART_TUNE 3
#define GLIDE_TMPL_HAS(part) (!GLIDE_TMPL_PART || GLIDE_TMPL_PART == (part))
#endif
#ifndef GLIDE_TMPL_PART
#define GLIDE_TMPL_PART 0
#endif

/* The stencil forms of one point along one axis (FORMAT.md §8.2), from
 * which neighbours count: b = c - s, cc = c + s, a = c - 3s, d = c + 3s
 * (element offset o1 = s * stride). a and d count only for the cubics. */
static inline __attribute__((always_inline)) T
FN(interp_form)(const T *r, size_t i, size_t o1, int hb, int hc, int ha, int hd, unsigned spline, T subst)
{
    const size_t o3 = 3 * o1;
    if (hb && hc) {
        T b = r[i - o1], cc = r[i + o1];
        if (ha && hd) {
            T a = r[i - o3], d = r[i + o3];
            if (spline == GLIDE_SPLINE_CUBIC_NAK) return ((b + cc) * (T)9 - (a + d)) * (T)0.0625;
            return ((b + cc) * (T)23 - (a + d) * (T)3) * (T)(1.0 / 40.0);
        }
        if (ha) return (b * (T)6 + cc * (T)3 - r[i - o3]) * (T)0.125;
        if (hd) return (cc * (T)6 + b * (T)3 - r[i + o3]) * (T)0.125;
        return (b + cc) * (T)0.5;
    }
    /* one side: linear extrapolation from two neighbours, else constant */
    if (hb) return ha ? r[i - o1] * (T)1.5 - r[i - o3] * (T)0.5 : r[i - o1];
    if (hc) return hd ? r[i + o1] * (T)1.5 - r[i + o3] * (T)0.5 : r[i + o1];
    return subst;
}

/* Prediction along one axis (element stride st) for a point at coordinate c
 * on that axis, level stride s, inside its block's closed box [lo, hi]:
 * every neighbour inside the box counts (the left one always is). */
static inline T FN(interp_predict)(const T *r, size_t i, size_t st, uint64_t c, uint64_t s,
                                   uint64_t lo, uint64_t hi, unsigned spline)
{
    const int cub = spline != GLIDE_SPLINE_LINEAR;
    return FN(interp_form)(r, i, (size_t)s * st, 1, c + s <= hi, cub && c >= lo + 3 * s, cub && c + 3 * s <= hi,
                           spline, (T)0);
}

/* Format 3, fill-aware stencils (FORMAT.md §8.2): a neighbour that is a
 * fill point (a land mask, missing data, HDF5's default fill 0 in a sparse
 * field) is left out of the stencil instead of standing in as the
 * substitute. Whether it is one: its symbol where r holds reconstructions
 * (encode, decode), its value where r is the original data (tuning). */
static inline int FN(nb_fill)(const glide_grid *g, const T *r, const uint16_t *sym, size_t j)
{
    return sym ? sym[j] == GLIDE_SYM_FILL : FN(is_fill)(g, r[j]);
}

/* hc, ha, hd: the neighbours inside the window (as interp_predict finds
 * them), of which the fill points then drop out */
static inline __attribute__((always_inline)) T
FN(interp_form_fa)(const glide_grid *g, const T *r, const uint16_t *sym, size_t i, size_t o1, int hc, int ha, int hd,
                   unsigned spline, T subst)
{
    const size_t o3 = 3 * o1;
    const int hb = !FN(nb_fill)(g, r, sym, i - o1);
    hc = hc && !FN(nb_fill)(g, r, sym, i + o1);
    ha = ha && !FN(nb_fill)(g, r, sym, i - o3);
    hd = hd && !FN(nb_fill)(g, r, sym, i + o3);
    return FN(interp_form)(r, i, o1, hb, hc, ha, hd, spline, subst);
}

static inline T FN(interp_predict_fa)(const glide_grid *g, const T *r, const uint16_t *sym, size_t i, size_t st,
                                      uint64_t c, uint64_t s, uint64_t lo, uint64_t hi, unsigned spline, T subst)
{
    const int cub = spline != GLIDE_SPLINE_LINEAR;
    return FN(interp_form_fa)(g, r, sym, i, (size_t)s * st, c + s <= hi, cub && c >= lo + 3 * s, cub && c + 3 * s <= hi,
                              spline, subst);
}

/* Tuning's cost term of one prediction (FORMAT.md §11.2). */
static inline uint64_t FN(tune_term)(T xv, T p, double unit)
{
    double e = fabs((double)xv - (double)p);
    if (!(e < INFINITY)) return 0;
    double q = e / unit;
    return q < 4294967296.0 ? (uint64_t)q : 4294967296ull;
}

#ifndef GLIDE_INTERP_OPS
#define GLIDE_INTERP_OPS
enum { OP_ENCODE, OP_DECODE, OP_BITS, OP_TUNE };

/* The points of a level step inside a closed box with lower corner lo
 * (FORMAT.md §8.1): on axis d the odd multiples of s, on the axes of mask
 * `done` (the steps before it) the multiples of s, elsewhere of 2s. A
 * step's points depend on (d, done) only, which tuning relies on. */
static inline void glide_step_lattice(const uint64_t lo[3], uint64_t s, unsigned d, unsigned done, uint64_t start[3],
                                      uint64_t step[3])
{
    for (unsigned a = 0; a < 3; a++) {
        if (a == d) {
            uint64_t c0 = lo[a] / (2 * s) * (2 * s) + s;
            start[a] = c0 < lo[a] ? c0 + 2 * s : c0;
            step[a] = 2 * s;
        } else {
            uint64_t m = done >> a & 1u ? s : 2 * s;
            start[a] = (lo[a] + m - 1) / m * m;
            step[a] = m;
        }
    }
}
#endif

typedef struct { uint64_t lo[3], hi[3]; } FN(box);

#include "blend_tmpl.h"

/* One level (stride s) over a closed box of the grid, in the level's axis
 * order. op is a compile-time constant at every call site. */
static inline __attribute__((always_inline)) void
FN(interp_level)(const glide_grid *g, const int op, const int fa, const T *x, T *r, uint16_t *sym,
                 const FN(box) *bx, uint64_t s, unsigned cfg, T e2, double eb, T subst, uint64_t *est)
{
    unsigned spline = cfg & 3u;
    const uint8_t *ax = glide_order_axes(g->eff_rank, cfg >> 2);
    uint64_t B = 1ull << g->blog;
    uint64_t acc = 0;
    for (unsigned j = 0, done = 0; j < g->eff_rank; done |= 1u << ax[j], j++) {
        unsigned d = ax[j];
        uint64_t start[3], step[3];
        glide_step_lattice(bx->lo, s, d, done, start, step);
        const size_t st = g->st[d], s0 = g->st[0], s1 = g->st[1];
        const uint64_t nd1 = g->n[d] - 1;
        for (uint64_t z = start[0]; z <= bx->hi[0]; z += step[0])
            for (uint64_t y = start[1]; y <= bx->hi[1]; y += step[1])
                for (uint64_t xx = start[2]; xx <= bx->hi[2]; xx += step[2]) {
                    uint64_t c = d == 0 ? z : d == 1 ? y : xx;
                    uint64_t lo = c & ~(B - 1), hi = lo + B < nd1 ? lo + B : nd1;
                    size_t i = (size_t)z * s0 + (size_t)y * s1 + (size_t)xx;
                    if (op == OP_ENCODE) {
                        T xv = x[i];
                        if (FN(is_fill)(g, xv)) { sym[i] = GLIDE_SYM_FILL; r[i] = subst; continue; }
                        T p = fa ? FN(interp_predict_fa)(g, r, sym, i, st, c, s, lo, hi, spline, subst)
                                 : FN(interp_predict)(r, i, st, c, s, lo, hi, spline), rv;
                        int q = FN(quantize)(xv, p, e2, eb, &rv);
                        if (q >= 0) { sym[i] = (uint16_t)q; r[i] = rv; }
                        else { sym[i] = GLIDE_SYM_OUTLIER; r[i] = isfinite(xv) ? xv : subst; }
                    } else if (op == OP_DECODE) {
                        unsigned sy = sym[i];
                        if (sy < GLIDE_NQUANT)
                            r[i] = (fa ? FN(interp_predict_fa)(g, r, sym, i, st, c, s, lo, hi, spline, subst)
                                       : FN(interp_predict)(r, i, st, c, s, lo, hi, spline)) +
                                   (T)((int)sy - GLIDE_SYM_ZERO) * e2;
                        else if (sy == GLIDE_SYM_FILL)
                            r[i] = subst;
                    } else { /* OP_BITS: glide_cost_bits of the open-loop error, eb the bound */
                        T xv = x[i];
                        if (FN(is_fill)(g, xv)) continue;
                        T p = fa ? FN(interp_predict_fa)(g, x, NULL, i, st, c, s, lo, hi, spline, subst)
                                 : FN(interp_predict)(x, i, st, c, s, lo, hi, spline);
                        double e = fabs((double)xv - (double)p);
                        acc += glide_cost_bits(e, eb, GLIDE_NOISE_INTERP);
                        est[1]++;
                    }
                }
    }
    if (op == OP_BITS) est[0] += acc;
}

#if GLIDE_TMPL_HAS(GLIDE_PART_ENCODE) || GLIDE_TMPL_HAS(GLIDE_PART_DECODE)
static void FN(whole_box)(const glide_grid *g, FN(box) *b)
{
    for (int a = 0; a < 3; a++) { b->lo[a] = 0; b->hi[a] = g->n[a] - 1; }
}

/* Every level over a closed box of a slab's grid (gs), in order; the
 * fill-aware stencils (format 3) as a separate instance, so that the plain
 * one keeps its tight loop. op is a constant at both call sites. */
static inline __attribute__((always_inline)) void
FN(interp_box)(const glide_grid *gs, const int op, const T *x, T *r, T *w, uint16_t *sym, const FN(box) *bx,
               const uint8_t *level_cfg, const double *level_eb, double eb, T subst)
{
    for (unsigned l = gs->blog; l >= 1; l--) {
        const uint64_t s = 1ull << (l - 1);
        const T e2 = (T)(2.0 * level_eb[l - 1]);
        const unsigned cfg = level_cfg[l - 1];
        if (glide_cfg_blended(gs->eff_rank, cfg)) {
            if (gs->fill_aware) FN(blend_level)(gs, op, 1, x, r, w, sym, bx, s, cfg, e2, eb, 0, subst, NULL);
            else FN(blend_level)(gs, op, 0, x, r, w, sym, bx, s, cfg, e2, eb, 0, subst, NULL);
        } else if (gs->fill_aware)
            FN(interp_level)(gs, op, 1, x, r, sym, bx, s, cfg, e2, eb, subst, NULL);
        else
            FN(interp_level)(gs, op, 0, x, r, sym, bx, s, cfg, e2, eb, subst, NULL);
    }
}

#endif

/* What block b's closed box holds: BOX_ALL_FILL only fill points,
 * BOX_NO_FILL none, else BOX_MIXED. By value when encoding, by symbol
 * when decoding (the decoder has every symbol first). */
#ifndef GLIDE_BOX_KINDS
#define GLIDE_BOX_KINDS
enum { BOX_MIXED = 0, BOX_ALL_FILL = 1, BOX_NO_FILL = 2 };
#endif
static int FN(block_fill)(const glide_grid *gs, const T *x, const uint16_t *sym, const FN(box) *b)
{
    const FN(fill_test) ft = FN(fill_test_of)(gs);
    const uint64_t w = b->hi[2] - b->lo[2] + 1;
    uint64_t fills = 0, seen = 0;
    for (uint64_t z = b->lo[0]; z <= b->hi[0]; z++)
        for (uint64_t y = b->lo[1]; y <= b->hi[1]; y++) {
            const size_t row = (size_t)z * gs->st[0] + (size_t)y * gs->st[1] + (size_t)b->lo[2];
            /* a row's count in a loop the compiler vectorizes */
            uint64_t c = 0;
            if (!x) {
                for (uint64_t k = 0; k < w; k++) c += sym[row + k] == GLIDE_SYM_FILL;
            } else if (ft.on) {
                for (uint64_t k = 0; k < w; k++) {
                    TBITS v;
                    memcpy(&v, &x[row + k], sizeof v);
                    c += (v == ft.a) | (v == ft.b);
                }
            }
            fills += c, seen += w;
            if (fills && fills < seen) return BOX_MIXED;
        }
    return fills ? BOX_ALL_FILL : BOX_NO_FILL;
}

#if GLIDE_TMPL_HAS(GLIDE_PART_ENCODE) || GLIDE_TMPL_HAS(GLIDE_PART_DECODE)
/* Blocks along each axis: block k's closed box is [kB, min(kB + B, n - 1)]. */
static inline uint64_t FN(blocks_on)(uint64_t n, uint64_t B) { return n > 1 ? (n - 1 + B - 1) / B : 1; }

/* The closed box of the blocks first[a] .. last[a] on each axis. */
static inline void FN(blocks_box)(const glide_grid *gs, uint64_t B, const uint64_t first[3], const uint64_t last[3],
                                  FN(box) *b)
{
    for (int a = 0; a < 3; a++) {
        b->lo[a] = first[a] * B;
        b->hi[a] = last[a] * B + B < gs->n[a] - 1 ? last[a] * B + B : gs->n[a] - 1;
    }
}

/* A slab holding fill points: the blocks whose closed box holds only fill
 * points (HDF5's padding of a partial edge chunk, a land mask) take FILL
 * at every point without the level passes, which would find that point by
 * point; the blocks whose closed box holds none run their levels with the
 * plain stencils (which the fill-aware ones are there, and which have a
 * four-lane path); the others with the fill-aware ones. Each in boxes of
 * consecutive blocks of one kind along axis 2. No point reads outside its
 * block's closed box (FORMAT.md §8.3), so every point comes out as in one
 * pass over the slab (a face two boxes share: the same values from either).
 * Returns 0 where every block holds fill and other points (the caller then
 * makes that pass), -1 where out of memory. */
static int FN(interp_fill_blocks)(const glide_grid *gs, const int op, const T *x, T *r, T *w, uint16_t *sym,
                                  const uint8_t *level_cfg, const double *level_eb, double eb, T subst)
{
    const uint64_t B = 1ull << gs->blog, nb[3] = {FN(blocks_on)(gs->n[0], B), FN(blocks_on)(gs->n[1], B),
                                                  FN(blocks_on)(gs->n[2], B)};
    const uint64_t total = nb[0] * nb[1] * nb[2];
    uint8_t *kind = (uint8_t *)malloc(total);
    if (!kind) return -1;
    uint64_t n_mixed = 0, k = 0;
    FN(box) b;
    for (uint64_t bz = 0; bz < nb[0]; bz++)
        for (uint64_t by = 0; by < nb[1]; by++)
            for (uint64_t bx = 0; bx < nb[2]; bx++, k++) {
                const uint64_t c[3] = {bz, by, bx};
                FN(blocks_box)(gs, B, c, c, &b);
                kind[k] = (uint8_t)FN(block_fill)(gs, x, sym, &b);
                n_mixed += kind[k] == BOX_MIXED;
            }
    if (n_mixed < total) {
        glide_grid plain = *gs;
        plain.fill_aware = 0;
        k = 0;
        for (uint64_t bz = 0; bz < nb[0]; bz++)
            for (uint64_t by = 0; by < nb[1]; by++, k += nb[2])
                for (uint64_t x0 = 0, x1; x0 < nb[2]; x0 = x1) {
                    for (x1 = x0 + 1; x1 < nb[2] && kind[k + x1] == kind[k + x0]; x1++) {}
                    const uint64_t first[3] = {bz, by, x0}, last[3] = {bz, by, x1 - 1};
                    FN(blocks_box)(gs, B, first, last, &b);
                    if (kind[k + x0] != BOX_ALL_FILL) {
                        FN(interp_box)(kind[k + x0] == BOX_NO_FILL ? &plain : gs, op, x, r, w, sym, &b, level_cfg, level_eb,
                                       eb, subst);
                        continue;
                    }
                    /* what the levels give a fill point (anchors: the same) */
                    for (uint64_t z = b.lo[0]; z <= b.hi[0]; z++)
                        for (uint64_t y = b.lo[1]; y <= b.hi[1]; y++) {
                            const size_t row = (size_t)z * gs->st[0] + (size_t)y * gs->st[1];
                            for (uint64_t xx = b.lo[2]; xx <= b.hi[2]; xx++) {
                                if (op == OP_ENCODE) sym[row + xx] = GLIDE_SYM_FILL;
                                r[row + xx] = subst;
                                if (w) w[row + xx] = (T)NAN;
                            }
                        }
                }
    }
    free(kind);
    return n_mixed < total;
}

/* Slab by slab (one slab: the whole grid), each as a grid of its own. */
static inline __attribute__((always_inline)) void
FN(interp_pass)(const glide_grid *g, const int op, const T *x, T *r, T *w, uint16_t *sym, const uint8_t *level_cfg,
                const double *level_eb, double eb, T subst)
{
    glide_grid gs;
    glide_grid_slab(g, &gs);
    FN(box) all;
    FN(whole_box)(&gs, &all);
    for (uint64_t k = 0, o = 0; k < g->slabs; k++, o += glide_slab_elems(g)) {
        const T *xo = x ? x + o : NULL;
        T *wo = w ? w + o : NULL;
        /* every block mixed (or no memory for the kinds): one pass */
        if (gs.fill_aware && !g->whole_pass &&
            FN(interp_fill_blocks)(&gs, op, xo, r + o, wo, sym + o, level_cfg, level_eb, eb, subst) > 0)
            continue;
        FN(interp_box)(&gs, op, xo, r + o, wo, sym + o, &all, level_cfg, level_eb, eb, subst);
    }
}

#if GLIDE_TMPL_HAS(GLIDE_PART_ENCODE)
void FN(glide_interp_encode)(const glide_grid *g, const T *x, T *r, T *w, uint16_t *sym,
                             const uint8_t *level_cfg, const double *level_eb, double eb, T subst)
{
    FN(interp_pass)(g, OP_ENCODE, x, r, w, sym, level_cfg, level_eb, eb, subst);
}

#endif

#if GLIDE_TMPL_HAS(GLIDE_PART_DECODE)
void FN(glide_interp_decode)(const glide_grid *g, T *r, T *w, const uint16_t *sym,
                             const uint8_t *level_cfg, const double *level_eb, T subst)
{
    FN(interp_pass)(g, OP_DECODE, NULL, r, w, (uint16_t *)sym, level_cfg, level_eb, 0, subst);
}

#endif
#endif

#ifdef GLIDE_BLEND_RUN4
/* The lanes of xv that hold a fill value, a bit each */
static inline __attribute__((always_inline)) int FN(fill_mask)(FN(fill_test) ft, __m128 xv)
{
    if (!ft.on) return 0;
    const __m128i v = _mm_castps_si128(xv);
    return _mm_movemask_ps(_mm_castsi128_ps(_mm_or_si128(_mm_cmpeq_epi32(v, _mm_set1_epi32((int)ft.a)),
                                                         _mm_cmpeq_epi32(v, _mm_set1_epi32((int)ft.b)))));
}

/* Whether a lane of xv is a fill value (then its group goes point by point). */
static inline __attribute__((always_inline)) int FN(fill_lanes)(FN(fill_test) ft, __m128 xv)
{
    return FN(fill_mask)(ft, xv) != 0;
}
#endif

#if GLIDE_TMPL_HAS(GLIDE_PART_TUNE)
/* The three splines' predictions of one point (indexed by GLIDE_SPLINE_*),
 * each exactly interp_predict's, from one set of neighbour loads. */
static inline void FN(interp_predict3)(const T *r, size_t i, size_t st, uint64_t c, uint64_t s, uint64_t lo,
                                       uint64_t hi, T p[GLIDE_NSPLINES])
{
    size_t o1 = (size_t)s * st;
    T b = r[i - o1];
    if (c + s > hi) {
        p[GLIDE_SPLINE_LINEAR] = b;
        p[GLIDE_SPLINE_CUBIC_NAK] = p[GLIDE_SPLINE_CUBIC_NATURAL] =
            c >= lo + 3 * s ? b * (T)1.5 - r[i - 3 * o1] * (T)0.5 : b;
        return;
    }
    T cc = r[i + o1];
    T lin = (b + cc) * (T)0.5;
    p[GLIDE_SPLINE_LINEAR] = lin;
    int l3 = c >= lo + 3 * s, r3 = c + 3 * s <= hi;
    size_t o3 = 3 * o1;
    if (l3 && r3) {
        T a = r[i - o3], d = r[i + o3];
        p[GLIDE_SPLINE_CUBIC_NAK] = ((b + cc) * (T)9 - (a + d)) * (T)0.0625;
        p[GLIDE_SPLINE_CUBIC_NATURAL] = ((b + cc) * (T)23 - (a + d) * (T)3) * (T)(1.0 / 40.0);
        return;
    }
    T cub = l3 ? (b * (T)6 + cc * (T)3 - r[i - o3]) * (T)0.125 : r3 ? (cc * (T)6 + b * (T)3 - r[i + o3]) * (T)0.125 : lin;
    p[GLIDE_SPLINE_CUBIC_NAK] = p[GLIDE_SPLINE_CUBIC_NATURAL] = cub;
}

/* Tuning's cost terms of the point i (coordinate c on axis d, window
 * [lo, hi]) into acc: the three splines' (all) or only `spline`'s. */
static inline __attribute__((always_inline)) void
FN(tune_point)(const T *x, size_t i, uint64_t c, uint64_t s, uint64_t lo, uint64_t hi, size_t st, FN(fill_test) ft,
               const int all, const int fa, unsigned spline, double unit, T subst, uint64_t acc[GLIDE_NSPLINES])
{
    const size_t o1 = (size_t)s * st, o3 = 3 * o1;
    T xv = x[i];
    if (FN(fill_is)(ft, xv)) return;
    if (fa) {
        /* interp_predict_fa's neighbours, tested for fill once for
         * all splines (the window's cubic reads only count for
         * the cubics) */
        const int hb = !FN(fill_is)(ft, x[i - o1]), hc = c + s <= hi && !FN(fill_is)(ft, x[i + o1]);
        const int ha = c >= lo + 3 * s && !FN(fill_is)(ft, x[i - o3]);
        const int hd = c + 3 * s <= hi && !FN(fill_is)(ft, x[i + o3]);
        for (unsigned k = 0; k < GLIDE_NSPLINES; k++)
            if (all || k == spline) {
                const int cub = k != GLIDE_SPLINE_LINEAR;
                acc[all ? k : 0] += FN(tune_term)(xv, FN(interp_form)(x, i, o1, hb, hc, cub && ha, cub && hd, k, subst), unit);
            }
    } else if (all) {
        T p[GLIDE_NSPLINES];
        FN(interp_predict3)(x, i, st, c, s, lo, hi, p);
        acc[GLIDE_SPLINE_LINEAR] += FN(tune_term)(xv, p[GLIDE_SPLINE_LINEAR], unit);
        uint64_t t = FN(tune_term)(xv, p[GLIDE_SPLINE_CUBIC_NAK], unit);
        acc[GLIDE_SPLINE_CUBIC_NAK] += t;
        /* the cubics differ only with two neighbours on each side */
        acc[GLIDE_SPLINE_CUBIC_NATURAL] +=
            p[GLIDE_SPLINE_CUBIC_NATURAL] == p[GLIDE_SPLINE_CUBIC_NAK] ? t : FN(tune_term)(xv, p[GLIDE_SPLINE_CUBIC_NATURAL], unit);
    } else {
        acc[0] += FN(tune_term)(xv, FN(interp_predict)(x, i, st, c, s, lo, hi, spline), unit);
    }
}

#ifdef GLIDE_BLEND_RUN4
/* tune_point of four lanes from their neighbours: along a row of one
 * window (blk 0) with interp_form's flags hc, l3 = c - 3s and r3 = c + 3s
 * inside the window, the same for all lanes; or in a block's row at s = 1
 * (blk 1) each lane with its place's reads (glide_sse_block_form) */
static inline __attribute__((always_inline)) void
FN(tune_lanes)(__m128 xv, __m128 b, __m128 cc, __m128 a, __m128 d, int hc, int l3, int r3, const int blk, int first,
               int last, const int all, unsigned spline, double unit, uint64_t acc[GLIDE_NSPLINES])
{
    for (unsigned k = 0; k < GLIDE_NSPLINES; k++) {
        if (!all && k != spline) continue;
        const int cub = k != GLIDE_SPLINE_LINEAR;
        const __m128 p = blk ? glide_sse_block_form(b, cc, a, d, first, last, 0, k)
                             : glide_sse_form4(b, cc, a, d, hc, cub && l3, cub && r3, k);
        /* the scalar code's natural-cubic term where both cubics agree is the same value */
        acc[all ? k : 0] += glide_sse_tune4(xv, p, unit, FN(tune_term));
    }
}

/* tune_point over a row of a step, four points at a time, from xx = x0
 * (the row's element row + x0) to x1 at stride k: along axes 0 and 1
 * (d < 2) every point has the same window; along axis 2 at s = 1 a whole
 * block's row (B / 2 points, B a multiple of 8), its first point without
 * c - 3, its last without c + 3. With fill-aware stencils (fa) a group
 * whose reads hold no fill point takes the plain stencil, which is then
 * the same; a group with one goes point by point. Returns the first xx
 * left to the scalar loop. */
static inline __attribute__((always_inline)) uint64_t
FN(tune_row4)(const T *x, size_t row, uint64_t x0, uint64_t x1, uint64_t k, unsigned d, uint64_t c, uint64_t s,
              uint64_t B, uint64_t nd1, size_t st, FN(fill_test) ft, const int all, const int fa, unsigned spline,
              double unit, T subst, uint64_t acc[GLIDE_NSPLINES])
{
    const __m128 z = _mm_setzero_ps();
    if (d < 2) {
        const uint64_t lo = c & ~(B - 1), hi = lo + B < nd1 ? lo + B : nd1;
        const int hc = c + s <= hi, l3 = c >= lo + 3 * s, r3 = c + 3 * s <= hi;
        const size_t o1 = (size_t)s * st, o3 = 3 * o1;
        const int wa = all || spline != GLIDE_SPLINE_LINEAR; /* a cubic is costed */
        uint64_t xx = x0;
        for (; xx + 3 * k <= x1; xx += 4 * k) {
            const size_t i = row + (size_t)xx;
            const __m128 xv = glide_sse_ld4(x, i, (size_t)k);
            if (!FN(fill_lanes)(ft, xv)) {
                const __m128 b = glide_sse_ld4(x, i - o1, (size_t)k), cc = hc ? glide_sse_ld4(x, i + o1, (size_t)k) : z;
                const __m128 a = wa && l3 ? glide_sse_ld4(x, i - o3, (size_t)k) : z;
                const __m128 dd = wa && hc && r3 ? glide_sse_ld4(x, i + o3, (size_t)k) : z;
                if (!fa || !(FN(fill_lanes)(ft, b) || (hc && FN(fill_lanes)(ft, cc)) ||
                             (wa && l3 && FN(fill_lanes)(ft, a)) || (wa && hc && r3 && FN(fill_lanes)(ft, dd)))) {
                    FN(tune_lanes)(xv, b, cc, a, dd, hc, l3, r3, 0, 0, 0, all, spline, unit, acc);
                    continue;
                }
            }
            for (unsigned l = 0; l < 4; l++)
                FN(tune_point)(x, i + l * (size_t)k, c, s, lo, hi, st, ft, all, fa, spline, unit, subst, acc);
        }
        return xx;
    }
    const uint64_t lo = x0 & ~(B - 1);
    if (s != 1 || B % 8 || x0 != lo + 1 || x1 < lo + B - 1 || lo + B > nd1) return x0;
    for (uint64_t j = 0; j < B / 2; j += 4) {
        const size_t i = row + (size_t)lo + 1 + 2 * (size_t)j;
        const __m128 xv = glide_sse_g2(x, i);
        const int first = j == 0, last = j + 4 == B / 2;
        if (!FN(fill_lanes)(ft, xv)) {
            __m128 b, cc, a, dd;
            glide_sse_block_reads(x, i, first, last, 0, &b, &cc, &a, &dd);
            /* the block's first point reads no c - 3, its last no c + 3 (those lanes hold 0) */
            if (!fa || !(FN(fill_lanes)(ft, b) || FN(fill_lanes)(ft, cc) || (FN(fill_mask)(ft, a) & (first ? 14 : 15)) ||
                         (FN(fill_mask)(ft, dd) & (last ? 7 : 15)))) {
                FN(tune_lanes)(xv, b, cc, a, dd, 1, 1, 1, 1, first, last, all, spline, unit, acc);
                continue;
            }
        }
        for (unsigned l = 0; l < 4; l++)
            FN(tune_point)(x, i + 2 * l, lo + 1 + 2 * j + 2 * l, 1, lo, lo + B, st, ft, all, fa, spline, unit, subst, acc);
    }
    return lo + B + 1;
}
#endif

/* Tuning cost of one step (d, done) of level s over a box
 * (glide_step_lattice), each point predicted along d.
 * all: the three splines' sums into cost[spline]; else only `spline`'s. */
static inline __attribute__((always_inline)) void
FN(tune_step)(const glide_grid *g, const T *x, const FN(box) *bx, uint64_t s, unsigned d, unsigned done,
              const int all, const int fa, unsigned spline, double unit, T subst, uint64_t cost[GLIDE_NSPLINES])
{
    const uint64_t B = 1ull << g->blog, nd1 = g->n[d] - 1;
    uint64_t start[3], step[3];
    glide_step_lattice(bx->lo, s, d, done, start, step);
    const size_t st = g->st[d], s0 = g->st[0], s1 = g->st[1];
    uint64_t acc[GLIDE_NSPLINES] = {0, 0, 0};
    const FN(fill_test) ft = FN(fill_test_of)(g);
    for (uint64_t z = start[0]; z <= bx->hi[0]; z += step[0])
        for (uint64_t y = start[1]; y <= bx->hi[1]; y += step[1]) {
            const size_t row = (size_t)z * s0 + (size_t)y * s1;
            uint64_t xx = start[2];
#ifdef GLIDE_BLEND_RUN4
            if (!g->scalar)
                xx = FN(tune_row4)(x, row, xx, bx->hi[2], step[2], d, d == 0 ? z : y, s, B, nd1, st, ft, all, fa, spline,
                                   unit, subst, acc);
#endif
            for (; xx <= bx->hi[2]; xx += step[2]) {
                uint64_t c = d == 0 ? z : d == 1 ? y : xx;
                uint64_t lo = c & ~(B - 1), hi = lo + B < nd1 ? lo + B : nd1;
                FN(tune_point)(x, row + (size_t)xx, c, s, lo, hi, st, ft, all, fa, spline, unit, subst, acc);
            }
        }
    if (all)
        for (unsigned k = 0; k < GLIDE_NSPLINES; k++) cost[k] += acc[k];
    else
        cost[spline] += acc[0];
}

/* Light auto-tuning: per level, the spline then the axis order that predict
 * a lattice of sample blocks best from the original values, the cost being
 * the sum of floor(|error| / unit). Encoder-only: the choice is recorded in
 * the stream.
 *
 * A candidate's cost is the sum of its steps' costs, and a step's cost
 * depends only on its axis, the axes done before it and the spline
 * (tune_step), so each distinct step is costed once per level: the three
 * splines in one pass over the first order's steps, then the other orders'
 * steps for the best spline as they first appear (a 3-D level has 12
 * distinct steps against 24 in 8 candidates). Sums of integers, so the
 * costs, and the choices, are those of costing every candidate whole. */
void FN(glide_interp_tune)(const glide_grid *g, const T *x, T *w, double unit, T subst, uint8_t *level_cfg)
{
    FN(box) bx;
    glide_sample_lattice lat;
    glide_sample_lattice_init(g, &lat);
    glide_grid gs; /* the boxes are in their slab's coordinates */
    glide_grid_slab(g, &gs);
    const size_t se = glide_slab_elems(g);
    uint64_t sl;
    /* fa[b]: box b holds a fill point, so its stencils are the fill-aware
     * ones (elsewhere they are the plain ones, with a four-lane path);
     * every box in whole_pass, or where the sample has more boxes than the
     * flags hold (the budget of GLIDE_TUNE_MAX_POINTS keeps it to 128) */
    uint8_t fa_box[256];
    uint8_t *fa = g->fill_aware && !g->whole_pass && lat.count <= sizeof fa_box ? fa_box : NULL;
    for (uint64_t b = 0; fa && b < lat.count; b++) {
        glide_sample_block(g, &lat, b, bx.lo, bx.hi, &sl);
        fa[b] = FN(block_fill)(&gs, x + sl * se, NULL, &bx) != BOX_NO_FILL;
    }
#define BOX_FA(b) (g->fill_aware && (!fa || fa[b]))
    static const unsigned splines[GLIDE_NSPLINES] = {GLIDE_SPLINE_CUBIC_NAK, GLIDE_SPLINE_LINEAR,
                                                     GLIDE_SPLINE_CUBIC_NATURAL};
    const unsigned n_ord = glide_n_orders(g->eff_rank);
    for (unsigned l = g->blog; l >= 1; l--) {
        const uint64_t s = 1ull << (l - 1);
        /* memo[spline][d * 8 + done]: a step's cost over the sample */
        uint64_t memo[GLIDE_NSPLINES][24];
        uint32_t have = 0; /* steps costed (for every spline at once in the first order, else the best) */
        memset(memo, 0, sizeof memo);
        const uint8_t *ax0 = glide_order_axes(g->eff_rank, 0);
        for (unsigned j = 0, done = 0; j < g->eff_rank; done |= 1u << ax0[j], j++) {
            const unsigned key = ax0[j] * 8u + done;
            uint64_t cost[GLIDE_NSPLINES] = {0, 0, 0};
            for (uint64_t b = 0; b < lat.count; b++) {
                glide_sample_block(g, &lat, b, bx.lo, bx.hi, &sl);
                if (BOX_FA(b)) FN(tune_step)(&gs, x + sl * se, &bx, s, ax0[j], done, 1, 1, 0, unit, subst, cost);
                else FN(tune_step)(&gs, x + sl * se, &bx, s, ax0[j], done, 1, 0, 0, unit, subst, cost);
            }
            for (unsigned k = 0; k < GLIDE_NSPLINES; k++) memo[k][key] = cost[k];
            if (g->tune_trace) g->tune_trace[(l - 1) * GLIDE_TUNE_TRACE] += cost[0] + cost[1] + cost[2];
            have |= 1u << key;
        }
        uint64_t best = UINT64_MAX;
        unsigned best_cfg = 0;
        for (unsigned c = 0; c < GLIDE_NSPLINES + n_ord - 1; c++) {
            const unsigned cfg = c < GLIDE_NSPLINES ? splines[c] : ((best_cfg & 3u) | ((c - GLIDE_NSPLINES + 1) << 2));
            const unsigned spline = cfg & 3u;
            const uint8_t *ax = glide_order_axes(g->eff_rank, cfg >> 2);
            uint64_t est = 0;
            for (unsigned j = 0, done = 0; j < g->eff_rank; done |= 1u << ax[j], j++) {
                const unsigned key = ax[j] * 8u + done;
                if (!(have >> key & 1u)) {
                    /* orders past the first run with the spline chosen by then */
                    uint64_t cost[GLIDE_NSPLINES] = {0, 0, 0};
                    for (uint64_t b = 0; b < lat.count; b++) {
                        glide_sample_block(g, &lat, b, bx.lo, bx.hi, &sl);
                        if (BOX_FA(b))
                            FN(tune_step)(&gs, x + sl * se, &bx, s, ax[j], done, 0, 1, spline, unit, subst, cost);
                        else FN(tune_step)(&gs, x + sl * se, &bx, s, ax[j], done, 0, 0, spline, unit, subst, cost);
                    }
                    memo[spline][key] = cost[spline];
                    if (g->tune_trace) g->tune_trace[(l - 1) * GLIDE_TUNE_TRACE] += cost[spline];
                    have |= 1u << key;
                }
                est += memo[spline][key];
            }
            if (est < best) { best = est; best_cfg = cfg; }
        }
        if (g->tune_trace) g->tune_trace[(l - 1) * GLIDE_TUNE_TRACE + 1] = best;
        if (g->blend >= GLIDE_TUNE_FORCE && g->eff_rank >= 2) { /* tests: every level blended */
            level_cfg[l - 1] = (uint8_t)((best_cfg & 3u) | ((n_ord + g->blend - GLIDE_TUNE_FORCE) << 2));
            continue;
        }
        /* format 4: the two blends with the chosen spline (FORMAT.md §11.2) */
        for (unsigned v = 0; g->blend && g->eff_rank >= 2 && v < GLIDE_NBLENDS; v++) {
            const unsigned cfg = (best_cfg & 3u) | ((n_ord + v) << 2);
            uint64_t acc[2] = {0, 0};
            for (uint64_t b = 0; b < lat.count; b++) {
                glide_sample_block(g, &lat, b, bx.lo, bx.hi, &sl);
                if (BOX_FA(b))
                    FN(blend_level)(&gs, OP_TUNE, 1, x + sl * se, NULL, w + sl * se, NULL, &bx, s, cfg, 0, 0, unit, subst, acc);
                else FN(blend_level)(&gs, OP_TUNE, 0, x + sl * se, NULL, w + sl * se, NULL, &bx, s, cfg, 0, 0, unit, subst, acc);
            }
            if (g->tune_trace) g->tune_trace[(l - 1) * GLIDE_TUNE_TRACE + 2 + v] = acc[0];
            if (acc[0] < best) { best = acc[0]; best_cfg = cfg; }
        }
        level_cfg[l - 1] = (uint8_t)best_cfg;
    }
#undef BOX_FA
}

/* Estimated size of the sample blocks under the tuned interpolation, in
 * glide_cost_bits per point: est[0] the sum, est[1] the points. */
void FN(glide_interp_estimate)(const glide_grid *g, const T *x, T *w, const uint8_t *level_cfg, double eb, T subst,
                               uint64_t est[2])
{
    est[0] = est[1] = 0;
    FN(box) bx;
    glide_sample_lattice lat;
    glide_sample_lattice_init(g, &lat);
    glide_grid gs;
    glide_grid_slab(g, &gs);
    const size_t se = glide_slab_elems(g);
    uint64_t sl;
    for (uint64_t b = 0; b < lat.count; b++) {
        glide_sample_block(g, &lat, b, bx.lo, bx.hi, &sl);
        for (unsigned l = g->blog; l >= 1; l--)
            if (glide_cfg_blended(g->eff_rank, level_cfg[l - 1])) {
                if (g->fill_aware)
                    FN(blend_level)(&gs, OP_BITS, 1, x + sl * se, NULL, w + sl * se, NULL, &bx, 1ull << (l - 1), level_cfg[l - 1],
                                    0, eb, 0, subst, est);
                else
                    FN(blend_level)(&gs, OP_BITS, 0, x + sl * se, NULL, w + sl * se, NULL, &bx, 1ull << (l - 1), level_cfg[l - 1],
                                    0, eb, 0, subst, est);
            } else if (g->fill_aware)
                FN(interp_level)(&gs, OP_BITS, 1, x + sl * se, NULL, NULL, &bx, 1ull << (l - 1), level_cfg[l - 1], 0, eb,
                                 subst, est);
            else
                FN(interp_level)(&gs, OP_BITS, 0, x + sl * se, NULL, NULL, &bx, 1ull << (l - 1), level_cfg[l - 1], 0, eb,
                                 subst, est);
    }
}
#endif
