/* Blended levels (format 4, docs/FORMAT.md §8.4), templated; included by
 * interp_tmpl.h. A point odd on the axes a1 < a2 (< a3) is predicted by the
 * Boolean sum of the 1-D operators, in residual form: the operator along
 * a1 reads the residuals w = r - p of the level's earlier phase, so the
 * stencil cancels any sum of functions of fewer coordinates, as Lorenzo's
 * does, at about twice the loads of a plain step. */

#ifndef GLIDE_BLEND_DEFS
#define GLIDE_BLEND_DEFS
/* Which neighbours the 1-D operator I_a^t reads at coordinate c (FORMAT.md
 * §8.4 "reads"): c - s always, then these; o1 the element offset of s. */
typedef struct {
    size_t o1;
    int hc, ha, hd;
} glide_reads;

static inline __attribute__((always_inline)) glide_reads glide_reads_at(uint64_t c, uint64_t s, uint64_t lo, uint64_t hi, size_t st, unsigned t)
{
    const int cub = t != GLIDE_SPLINE_LINEAR;
    glide_reads R = {(size_t)s * st, c + s <= hi, cub && c >= lo + 3 * s, cub && c + 3 * s <= hi};
    return R;
}

/* Whether reads R of a spline (cub: cubic) reach every neighbour: the
 * window's interior, where blend_run applies. */
static inline int glide_reads_full(const glide_reads *R, int cub) { return R->hc && R->ha == cub && R->hd == cub; }

/* One point of a blended level: its odd axes ascending (k of them), and per
 * odd axis its coordinate, window and the reads of the level's spline (sp)
 * and of the residuals' spline (rs). */
typedef struct {
    unsigned k, ax[3];
    uint64_t c[3], lo[3], hi[3];
    glide_reads Rs[3], Rr[3];
} glide_bpoint;

/* The level's point sets by phase: odd-axis masks of 1, then 2, then 3
 * effective axes (3 - eff_rank .. 2). */
static inline unsigned glide_blend_sets(unsigned eff_rank, unsigned masks[7])
{
    unsigned n = 0, first = 3 - eff_rank;
    for (unsigned k = 1; k <= eff_rank; k++)
        for (unsigned m = 1; m < 8; m++)
            if ((unsigned)__builtin_popcount(m) == k && !(m & ((1u << first) - 1))) masks[n++] = m;
    return n;
}

/* The lattice of one odd-axis mask inside a closed box: odd multiples of s
 * on the mask's axes, multiples of 2s elsewhere. */
static inline void glide_set_lattice(const uint64_t lo[3], uint64_t s, unsigned mask, uint64_t start[3],
                                     uint64_t step[3])
{
    for (unsigned a = 0; a < 3; a++) {
        uint64_t m2 = 2 * s;
        if (mask >> a & 1u) {
            uint64_t c0 = lo[a] / m2 * m2 + s;
            start[a] = c0 < lo[a] ? c0 + m2 : c0;
        } else {
            start[a] = (lo[a] + m2 - 1) / m2 * m2;
        }
        step[a] = m2;
    }
}

/* The reads of the level's spline sp and of the residuals' rs at c in the
 * window [lo, hi] (stride st). */
static inline __attribute__((always_inline)) void glide_axis_reads(uint64_t c, uint64_t lo, uint64_t hi, size_t st, uint64_t s,
                                                                   unsigned sp, unsigned rs, glide_reads *Rs, glide_reads *Rr)
{
    *Rs = glide_reads_at(c, s, lo, hi, st, sp);
    /* rs is sp or linear: the same reads, or the two nearest only */
    *Rr = *Rs;
    if (rs != sp) Rr->ha = Rr->hd = 0;
}

/* Odd axis j of P is grid axis a at coordinate c. */
static inline __attribute__((always_inline)) void glide_bpoint_axis(glide_bpoint *P, unsigned j, unsigned a, uint64_t c, const uint64_t n[3],
                                     const size_t st[3], uint64_t B, uint64_t s, unsigned sp, unsigned rs)
{
    uint64_t lo = c & ~(B - 1), nd1 = n[a] - 1, hi = lo + B < nd1 ? lo + B : nd1;
    P->ax[j] = a;
    P->c[j] = c;
    P->lo[j] = lo;
    P->hi[j] = hi;
    glide_axis_reads(c, lo, hi, st[a], s, sp, rs, &P->Rs[j], &P->Rr[j]);
}
#endif

/* I_a^t(v) at i: §8.2's plain form on the array v */
static inline __attribute__((always_inline)) T FN(bl_op)(const T *v, size_t i, const glide_reads *R, unsigned t)
{
    return FN(interp_form)(v, i, R->o1, 1, R->hc, R->ha, R->hd, t, (T)0);
}

/* Whether a read of R at i is a fill point (symbols, or values if sym is NULL). */
static inline int FN(bl_reads_fill)(const glide_grid *g, const T *v, const uint16_t *sym, size_t i,
                                    const glide_reads *R)
{
    const size_t o1 = R->o1, o3 = 3 * o1;
    return FN(nb_fill)(g, v, sym, i - o1) || (R->hc && FN(nb_fill)(g, v, sym, i + o1)) ||
           (R->ha && FN(nb_fill)(g, v, sym, i - o3)) || (R->hd && FN(nb_fill)(g, v, sym, i + o3));
}

/* Phase 3: whether a read Q of I_a2^rs at i, or a read of I_a3^sp at Q, is
 * a fill point (the points D = r - I_a3(r) is taken from). */
static inline int FN(bl_d_fill)(const glide_grid *g, const T *v, const uint16_t *sym, size_t i, const glide_bpoint *P)
{
    const glide_reads *R = &P->Rr[1];
    const size_t o1 = R->o1;
#define GLIDE_BL_DFILL(j) (FN(nb_fill)(g, v, sym, j) || FN(bl_reads_fill)(g, v, sym, j, &P->Rs[2]))
    return GLIDE_BL_DFILL(i - o1) || (R->hc && GLIDE_BL_DFILL(i + o1)) || (R->ha && GLIDE_BL_DFILL(i - 3 * o1)) ||
           (R->hd && GLIDE_BL_DFILL(i + 3 * o1));
#undef GLIDE_BL_DFILL
}

/* The values an operator reads at i, as four scalars (0 where not read),
 * each EXPR_OF_J of its element index j_: the residual gathers stay in
 * registers. */
typedef struct { T m3, m1, p1, p3; } FN(quad);

#define GLIDE_BL_GATHER(q, R, i, EXPR_OF_J)                                                                            \
    do {                                                                                                               \
        size_t j_ = (i) - (R)->o1;                                                                                     \
        (q).m3 = (q).p1 = (q).p3 = (T)0;                                                                               \
        (q).m1 = (EXPR_OF_J);                                                                                          \
        if ((R)->hc) { j_ = (i) + (R)->o1; (q).p1 = (EXPR_OF_J); }                                                     \
        if ((R)->ha) { j_ = (i) - 3 * (R)->o1; (q).m3 = (EXPR_OF_J); }                                                 \
        if ((R)->hd) { j_ = (i) + 3 * (R)->o1; (q).p3 = (EXPR_OF_J); }                                                 \
    } while (0)

static inline __attribute__((always_inline)) FN(quad) FN(bl_quad)(const T *v, size_t i, const glide_reads *R)
{
    FN(quad) q;
    GLIDE_BL_GATHER(q, R, i, v[j_]);
    return q;
}

static inline __attribute__((always_inline)) int FN(bl_quad_nan)(FN(quad) q, const glide_reads *R)
{
    return q.m1 != q.m1 || (R->hc && q.p1 != q.p1) || (R->ha && q.m3 != q.m3) || (R->hd && q.p3 != q.p3);
}

/* interp_form on the gathered values (c - s always counts): the same
 * operations in the same order */
static inline __attribute__((always_inline)) T FN(bl_quad_op)(FN(quad) q, const glide_reads *R, unsigned t)
{
    if (R->hc) {
        const T b = q.m1, cc = q.p1;
        if (R->ha && R->hd) {
            if (t == GLIDE_SPLINE_CUBIC_NAK) return ((b + cc) * (T)9 - (q.m3 + q.p3)) * (T)0.0625;
            return ((b + cc) * (T)23 - (q.m3 + q.p3) * (T)3) * (T)(1.0 / 40.0);
        }
        if (R->ha) return (b * (T)6 + cc * (T)3 - q.m3) * (T)0.125;
        if (R->hd) return (cc * (T)6 + b * (T)3 - q.p3) * (T)0.125;
        return (b + cc) * (T)0.5;
    }
    return R->ha ? q.m1 * (T)1.5 - q.m3 * (T)0.5 : q.m1;
}

/* Phase 1's prediction (and every fallback's): the level's 1-D stencil with
 * the reads R of the spline sp along one odd axis (interp_predict's and
 * interp_predict_fa's neighbours inside the window). */
static inline __attribute__((always_inline)) T FN(bl_1d)(const glide_grid *g, const int fa, const T *r, const uint16_t *sym, size_t i,
                          const glide_reads *R, unsigned sp, T subst)
{
    return fa ? FN(interp_form_fa)(g, r, sym, i, R->o1, R->hc, R->ha, R->hd, sp, subst) : FN(bl_op)(r, i, R, sp);
}

/* Closed loop (encode, decode): the prediction of P at i from the
 * reconstruction r and the level's residuals w; *bl = 0 where it fell back.
 * *pl: the term along the last odd axis, I_aL(r) (the whole prediction
 * where it fell back).
 *
 * Phase 3 needs D(Q) = r(Q) - I_a3(r, Q) at its neighbours Q along a2,
 * points odd on axes 0 and 2 of a 3-D grid, and no point reads those
 * points' w (phase 3 reads w on axes 1 and 2 only). So their w slot keeps
 * r - I_a3(r) instead, as it stood in their own phase (keep_d): the same
 * value, since where it is read Q was blended or fell back to the plain
 * stencil along a3 (a fill read would have made P fall back too). */
static inline __attribute__((always_inline)) T FN(bl_predict)(const glide_grid *g, const int fa, const T *r, const T *w, const uint16_t *sym,
                               size_t i, const glide_bpoint *P, unsigned sp, unsigned rs, T subst, int nan_seen, int *bl,
                               T *pl)
{
    *bl = 1;
    if (P->k == 1) return *pl = FN(bl_1d)(g, fa, r, sym, i, &P->Rs[0], sp, subst);
    const unsigned L = P->k - 1; /* the last odd axis */
    FN(quad) wq; /* set before any use; declared here so no jump skips an initialisation */
    if (fa && FN(bl_reads_fill)(g, r, sym, i, &P->Rs[L])) goto fallback;
    wq = FN(bl_quad)(w, i, &P->Rr[0]);
    if (nan_seen && FN(bl_quad_nan)(wq, &P->Rr[0])) goto fallback;
    if (P->k == 2) return (*pl = FN(bl_op)(r, i, &P->Rs[1], sp)) + FN(bl_quad_op)(wq, &P->Rr[0], rs);
    if (fa && FN(bl_d_fill)(g, r, sym, i, P)) goto fallback;
    {
        const FN(quad) dq = FN(bl_quad)(w, i, &P->Rr[1]); /* D, kept in w (above) */
        return (FN(bl_op)(r, i, &P->Rs[2], sp) + FN(bl_quad_op)(dq, &P->Rr[1], rs)) + FN(bl_quad_op)(wq, &P->Rr[0], rs);
    }
fallback:
    *bl = 0;
    return *pl = FN(bl_1d)(g, fa, r, sym, i, &P->Rs[L], sp, subst);
}

/* Open loop, as FORMAT.md §11.2 defines it for tuning and the predictor
 * choice: the same prediction from the original values x alone, each
 * residual w(Q) = x(Q) - pb(Q) evaluated on the spot (NaN where Q is fill
 * or fell back). The encoder computes the same values phase by phase with
 * a residual scratch (blend_set's open-loop ops); this recursive form is
 * the reference that h5tests/gpu/test_blend_host.cu holds both backends'
 * open loops to. */
static inline T FN(bl_open)(const glide_grid *g, const int fa, const T *x, size_t i, const glide_bpoint *P, unsigned sp,
                            unsigned rs, T subst, int *bl);

/* wx of the point j that differs from P only along P's odd axis `drop`:
 * its odd axes are P's without that one. */
static inline T FN(bl_open_w)(const glide_grid *g, const int fa, const T *x, size_t j, const glide_bpoint *P,
                              unsigned drop, unsigned sp, unsigned rs, T subst)
{
    if (fa && FN(is_fill)(g, x[j])) return (T)NAN;
    glide_bpoint Q;
    Q.k = 0;
    for (unsigned m = 0; m < P->k; m++) {
        if (m == drop) continue;
        unsigned q = Q.k++;
        Q.ax[q] = P->ax[m];
        Q.c[q] = P->c[m];
        Q.lo[q] = P->lo[m];
        Q.hi[q] = P->hi[m];
        Q.Rs[q] = P->Rs[m];
        Q.Rr[q] = P->Rr[m];
    }
    int bl;
    T p = FN(bl_open)(g, fa, x, j, &Q, sp, rs, subst, &bl);
    return bl ? x[j] - p : (T)NAN;
}

static inline T FN(bl_open)(const glide_grid *g, const int fa, const T *x, size_t i, const glide_bpoint *P, unsigned sp,
                            unsigned rs, T subst, int *bl)
{
    *bl = 1;
    if (P->k == 1) return FN(bl_1d)(g, fa, x, NULL, i, &P->Rs[0], sp, subst);
    const unsigned L = P->k - 1;
    FN(quad) wq, dq;
    if (fa && FN(bl_reads_fill)(g, x, NULL, i, &P->Rs[L])) goto fallback;
    if (P->k == 3 && fa && FN(bl_d_fill)(g, x, NULL, i, P)) goto fallback;
    GLIDE_BL_GATHER(wq, &P->Rr[0], i, FN(bl_open_w)(g, fa, x, j_, P, 0, sp, rs, subst));
    if (FN(bl_quad_nan)(wq, &P->Rr[0])) goto fallback;
    if (P->k == 2) return FN(bl_op)(x, i, &P->Rs[1], sp) + FN(bl_quad_op)(wq, &P->Rr[0], rs);
    GLIDE_BL_GATHER(dq, &P->Rr[1], i, x[j_] - FN(bl_op)(x, j_, &P->Rs[2], sp));
    return (FN(bl_op)(x, i, &P->Rs[2], sp) + FN(bl_quad_op)(dq, &P->Rr[1], rs)) + FN(bl_quad_op)(wq, &P->Rr[0], rs);
fallback:
    *bl = 0;
    return FN(bl_1d)(g, fa, x, NULL, i, &P->Rs[L], sp, subst);
}

/* A blended level's spline and residual spline from its cfg byte. */
static inline void FN(bl_splines)(const glide_grid *g, unsigned cfg, unsigned *sp, unsigned *rs)
{
    *sp = cfg & 3u;
    *rs = (cfg >> 2) == glide_n_orders(g->eff_rank) + GLIDE_BLEND_SPLINE_R ? *sp : GLIDE_SPLINE_LINEAR;
}

/* One point of a blended level at i, P its reads: encode or decode (closed
 * loop), or the open loop's cost term into *sum. *ns, *nz: blend_set's. Without
 * fa there is no fill point to test for: the encoder blends with the plain
 * stencils only where the data has none, and a blended stream has the
 * fill-aware ones wherever HAS_FILL, without which a FILL symbol is corrupt
 * (glide_outliers_place). */
static inline __attribute__((always_inline)) void
FN(blend_point)(const glide_grid *g, const int op, const int fa, const T *x, T *r, T *w, uint16_t *sym, size_t i,
                const glide_bpoint *P, unsigned sp, unsigned rs, const int keep_d, T e2, double eb, double unit, double n2,
                T subst, uint64_t *sum, uint64_t *pts, int *ns, T *nz)
{
    int bl;
    if (op == OP_ENCODE) {
        T xv = x[i], rv;
        if (fa && FN(is_fill)(g, xv)) { sym[i] = GLIDE_SYM_FILL; r[i] = subst; w[i] = (T)NAN; *ns = 1; return; }
        T pl, p = FN(bl_predict)(g, fa, r, w, sym, i, P, sp, rs, subst, *ns, &bl, &pl);
        int q = FN(quantize)(xv, p, e2, eb, &rv);
        if (q >= 0) { sym[i] = (uint16_t)q; r[i] = rv; }
        else { sym[i] = GLIDE_SYM_OUTLIER; r[i] = isfinite(xv) ? xv : subst; }
        const T wv = keep_d ? r[i] - pl : bl ? r[i] - p : (T)NAN;
        w[i] = wv;
        *nz += wv - wv;
    } else if (op == OP_DECODE) {
        unsigned sy = sym[i];
        if (fa && sy == GLIDE_SYM_FILL) { r[i] = subst; w[i] = (T)NAN; *ns = 1; return; }
        T pl, p = FN(bl_predict)(g, fa, r, w, sym, i, P, sp, rs, subst, *ns, &bl, &pl);
        if (sy < GLIDE_NQUANT) r[i] = p + (T)((int)sy - GLIDE_SYM_ZERO) * e2;
        const T wv = keep_d ? r[i] - pl : bl ? r[i] - p : (T)NAN;
        w[i] = wv;
        *nz += wv - wv;
    } else {
        /* open loop: the closed loop's stencils on x, with the residuals
         * wx = x - pb kept in the scratch w phase by phase (bl_open's
         * values, without its recursion) */
        T xv = x[i];
        if (fa && FN(is_fill)(g, xv)) { w[i] = (T)NAN; *ns = 1; return; }
        T pl, p = FN(bl_predict)(g, fa, x, w, NULL, i, P, sp, rs, subst, *ns, &bl, &pl);
        const T wv = keep_d ? xv - pl : bl ? xv - p : (T)NAN;
        w[i] = wv;
        *nz += wv - wv;
        if (op == OP_TUNE) {
            *sum += FN(tune_term)(xv, p, unit);
        } else {
            *sum += glide_cost_bits(fabs((double)xv - (double)p), eb, n2);
            (*pts)++;
        }
    }
}

/* GLIDE_BLEND_RUN4: this type's four-lane code exists (float on x86-64) */
#undef GLIDE_BLEND_RUN4
#if !GLIDE_T_IS_DOUBLE && defined(__SSE2__)
#include "blend_sse2.h"
/* blend_point's encoding of the lanes at i, i + 2, i + 4, i + 6 from their
 * predictions p (pl: the term along the last odd axis): symbols,
 * reconstructions, residuals; the residuals' NaN test summed into *nzv. */
static inline __attribute__((always_inline)) void FN(blend_enc4)(__m128 p, __m128 pl, const int keep_d, const T *x, T *r,
                                                                 T *w, uint16_t *sym, size_t i, T e2, double eb, T subst,
                                                                 __m128 *nzv)
{
    const __m128 xv = glide_sse_g2(x, i);
    __m128i q;
    __m128 v;
    const int ok = glide_sse_quantize(xv, p, e2, eb, &q, &v);
    float rv[4];
    int qs[4];
    _mm_storeu_si128((__m128i *)(void *)qs, q);
    if (ok != 15) {
        float xs[4];
        _mm_storeu_ps(rv, v);
        _mm_storeu_ps(xs, xv);
        for (unsigned l = 0; l < 4; l++)
            if (!(ok >> l & 1)) rv[l] = isfinite(xs[l]) ? xs[l] : subst, qs[l] = GLIDE_SYM_OUTLIER - GLIDE_SYM_ZERO;
        v = _mm_loadu_ps(rv);
    }
    const __m128 wv = _mm_sub_ps(v, keep_d ? pl : p);
    *nzv = _mm_add_ps(*nzv, _mm_sub_ps(wv, wv));
    glide_sse_put2(r, i, v);
    glide_sse_put2(w, i, wv);
    for (unsigned l = 0; l < 4; l++) sym[i + 2 * l] = (uint16_t)(qs[l] + GLIDE_SYM_ZERO);
}

/* blend_point's decoding of the same lanes: reconstructions from the
 * symbols (an outlier's is placed already), residuals, NaN test. */
static inline __attribute__((always_inline)) void FN(blend_dec4)(__m128 p, __m128 pl, const int keep_d, T *r, T *w,
                                                                 const uint16_t *sym, size_t i, T e2, __m128 *nzv)
{
    const __m128i sy = _mm_setr_epi32(sym[i], sym[i + 2], sym[i + 4], sym[i + 6]);
    const __m128 v = _mm_add_ps(p, _mm_mul_ps(_mm_cvtepi32_ps(_mm_sub_epi32(sy, _mm_set1_epi32(GLIDE_SYM_ZERO))),
                                              _mm_set1_ps(e2)));
    const __m128 q = _mm_castsi128_ps(_mm_cmplt_epi32(sy, _mm_set1_epi32(GLIDE_NQUANT)));
    const __m128 rv = _mm_or_ps(_mm_and_ps(q, v), _mm_andnot_ps(q, glide_sse_g2(r, i)));
    const __m128 wv = _mm_sub_ps(rv, keep_d ? pl : p);
    *nzv = _mm_add_ps(*nzv, _mm_sub_ps(wv, wv));
    glide_sse_put2(r, i, rv);
    glide_sse_put2(w, i, wv);
}

/* blend_point's open loop (OP_TUNE) of the same lanes: residuals on x,
 * NaN test, the cost terms into *sum. */
static inline __attribute__((always_inline)) void FN(blend_tune4)(__m128 p, __m128 pl, const int keep_d, const T *x, T *w,
                                                                  size_t i, double unit, uint64_t *sum, __m128 *nzv)
{
    const __m128 xv = glide_sse_g2(x, i);
    const __m128 wv = _mm_sub_ps(xv, keep_d ? pl : p);
    *nzv = _mm_add_ps(*nzv, _mm_sub_ps(wv, wv));
    glide_sse_put2(w, i, wv);
    *sum += glide_sse_tune4(xv, p, unit, FN(tune_term));
}

/* The four-lane prediction from the reads P of K odd axes; a0 (a
 * function of the lanes' index i) the term along the last odd axis. */
#define GLIDE_SSE_OP(V, R, SP) glide_sse_form(V, i, 2, (R)->o1, (R)->hc, (R)->ha, (R)->hd, SP)
#define GLIDE_SSE_PREDICT(K, P, A0, p, pl)                                                                             \
    do {                                                                                                               \
        if ((K) == 1) {                                                                                                \
            pl = p = (A0);                                                                                             \
        } else if ((K) == 2) {                                                                                         \
            pl = (A0);                                                                                                 \
            p = _mm_add_ps(pl, GLIDE_SSE_OP(w, &(P)->Rr[0], rs));                                                      \
        } else {                                                                                                       \
            pl = _mm_setzero_ps();                                                                                     \
            p = _mm_add_ps(_mm_add_ps((A0), GLIDE_SSE_OP(w, &(P)->Rr[1], rs)), GLIDE_SSE_OP(w, &(P)->Rr[0], rs));    \
        }                                                                                                              \
    } while (0)

/* blend_point's coding of the points i0, i0 + 2, .. (up to i1) four at a
 * time, where they share the reads P (K odd axes) and no NaN residual was
 * met in the level (*ns = 0, so nothing falls back, and without fill
 * points nothing sets it); encoding, e2 > 0. Returns the first point it
 * left to the scalar loop. */
static inline __attribute__((always_inline)) size_t
FN(blend_run4)(const int op, const unsigned K, const glide_bpoint *P, const T *x, T *r, T *w, uint16_t *sym, size_t i0,
               size_t i1, unsigned sp, unsigned rs, const int keep_d, T e2, double eb, double unit, T subst, uint64_t *sum,
               T *nz)
{
    if (i0 + 6 > i1) return i0; /* fewer than four points */
    const T *rd = op == OP_TUNE ? x : r; /* the open loop predicts from x */
    __m128 nzv = _mm_setzero_ps();
    size_t i = i0;
    for (; i + 6 <= i1; i += 8) {
        __m128 p, pl;
        GLIDE_SSE_PREDICT(K, P, GLIDE_SSE_OP(rd, &P->Rs[K - 1], sp), p, pl);
        if (op == OP_ENCODE) FN(blend_enc4)(p, pl, keep_d, x, r, w, sym, i, e2, eb, subst, &nzv);
        else if (op == OP_DECODE) FN(blend_dec4)(p, pl, keep_d, r, w, sym, i, e2, &nzv);
        else FN(blend_tune4)(p, pl, keep_d, x, w, i, unit, sum, &nzv);
    }
    *nz += glide_sse_fold(nzv);
    return i;
}

/* blend_blocks' rows at s = 1 four points at a time: nb blocks of B
 * points from element i0, each block's B / 2 points (a multiple of 4) from
 * its element 1, the first reading no c - 3 on axis 2 and the last no
 * c + 3 (glide_sse_block_reads); the other odd axes' reads P; cubic
 * spline sp along axis 2. cut: one more block, the grid's last along axis
 * 2, without its far end (its last point extrapolates from c - 1 and
 * c - 3, the one before reads no c + 3). */
static inline __attribute__((always_inline)) void
FN(blend_blocks4)(const int op, const unsigned K, const glide_bpoint *P, const T *x, T *r, T *w, uint16_t *sym,
                  size_t i0, uint64_t nb, const int cut, uint64_t B, unsigned sp, unsigned rs, const int keep_d, T e2,
                  double eb, double unit, T subst, uint64_t *sum, T *nz)
{
    const T *rd = op == OP_TUNE ? x : r; /* the open loop predicts from x */
    __m128 nzv = _mm_setzero_ps();
    for (uint64_t blk = 0; blk < nb + (cut != 0); blk++, i0 += (size_t)B)
        for (uint64_t k = 0; k < B / 2; k += 4) {
            const size_t i = i0 + 1 + 2 * (size_t)k;
            const int first = k == 0, last = k + 4 == B / 2, end = last && blk == nb;
            __m128 b, cc, a, d;
            glide_sse_block_reads(rd, i, first, last, end, &b, &cc, &a, &d);
            const __m128 a0 = glide_sse_block_form(b, cc, a, d, first, last, end, sp);
            __m128 p, pl;
            GLIDE_SSE_PREDICT(K, P, a0, p, pl);
            if (op == OP_ENCODE) FN(blend_enc4)(p, pl, keep_d, x, r, w, sym, i, e2, eb, subst, &nzv);
            else if (op == OP_DECODE) FN(blend_dec4)(p, pl, keep_d, r, w, sym, i, e2, &nzv);
            else FN(blend_tune4)(p, pl, keep_d, x, w, i, unit, sum, &nzv);
        }
    *nz += glide_sse_fold(nzv);
}
#undef GLIDE_SSE_PREDICT
#undef GLIDE_SSE_OP
#define GLIDE_BLEND_RUN4 1
#endif
/* where the four-lane code takes over: the closed loop, and tuning's open
 * one, without fill points or NaN residuals met (nothing falls back),
 * encoding with e2 > 0 (the quantizer's division) */
#undef GLIDE_LANES_OK
#define GLIDE_LANES_OK(op, fa, ns) \
    ((((op) == OP_ENCODE && e2 > 0) || (op) == OP_DECODE || (op) == OP_TUNE) && !(fa) && !(ns) && !g->scalar)

/* The points i0, i0 + di, .. i1, each with every read inside its windows;
 * o[j] the element offset of s along odd axis j. The reads' flags are then
 * constants (cub, rcub: the splines are cubic), so the stencil is straight-
 * line code; the same operations as at any other point. */
static inline __attribute__((always_inline)) void
FN(blend_run)(const glide_grid *g, const int op, const int fa, const unsigned K, const int cub, const int rcub, const T *x,
              T *r, T *w, uint16_t *sym, size_t i0, size_t i1, size_t di, const size_t o[3], unsigned sp, unsigned rs,
              const int keep_d, T e2, double eb, double unit, double n2, T subst, uint64_t *sum, uint64_t *pts, int *ns, T *nz)
{
    glide_bpoint F;
    F.k = K;
    for (unsigned j = 0; j < K; j++) {
        const glide_reads Rs = {o[j], 1, cub, cub}, Rr = {o[j], 1, rcub, rcub};
        F.Rs[j] = Rs;
        F.Rr[j] = Rr;
    }
    size_t i = i0;
#ifdef GLIDE_BLEND_RUN4
    if (GLIDE_LANES_OK(op, fa, *ns) && di == 2)
        i = FN(blend_run4)(op, K, &F, x, r, w, sym, i0, i1, sp, rs, keep_d, e2, eb, unit, subst, sum, nz);
#endif
    for (; i <= i1; i += di)
        FN(blend_point)(g, op, fa, x, r, w, sym, i, &F, sp, rs, keep_d, e2, eb, unit, n2, subst, sum, pts, ns, nz);
}

/* A row's whole blocks along axis 2 (the last odd axis; cubic splines,
 * four points a block at least), nb of them from element i: each block's
 * first point reads no c - 3s on axis 2, its last no c + 3s, and the points
 * between read all; every other odd axis reads all (the row's windows). */
static inline __attribute__((always_inline)) void
FN(blend_blocks)(const glide_grid *g, const int op, const int fa, const unsigned K, const int rcub, const T *x, T *r, T *w,
                 uint16_t *sym, size_t i, uint64_t nb, const int cut4, uint64_t B, uint64_t s, const size_t o[3], unsigned sp,
                 unsigned rs, const int keep_d, T e2, double eb, double unit, double n2, T subst, uint64_t *sum,
                 uint64_t *pts, int *ns, T *nz)
{
    glide_bpoint F, Ff, Fl;
    F.k = Ff.k = Fl.k = K;
    for (unsigned j = 0; j < K; j++) {
        const glide_reads Rs = {o[j], 1, 1, 1}, Rr = {o[j], 1, rcub, rcub};
        F.Rs[j] = Ff.Rs[j] = Fl.Rs[j] = Rs;
        F.Rr[j] = Ff.Rr[j] = Fl.Rr[j] = Rr;
    }
    Ff.Rs[K - 1].ha = Ff.Rr[K - 1].ha = 0;
    Fl.Rs[K - 1].hd = Fl.Rr[K - 1].hd = 0;
    const size_t di = (size_t)(2 * s);
#ifdef GLIDE_BLEND_RUN4
    if (GLIDE_LANES_OK(op, fa, *ns) && s == 1 && B % 8 == 0) {
        FN(blend_blocks4)(op, K, &F, x, r, w, sym, i, nb, cut4, B, sp, rs, keep_d, e2, eb, unit, subst, sum, nz);
        return;
    }
#endif
    (void)cut4; /* set only where the lanes take the blocks */
    for (uint64_t b = 0; b < nb; b++, i += (size_t)B) {
        FN(blend_point)(g, op, fa, x, r, w, sym, i + (size_t)s, &Ff, sp, rs, keep_d, e2, eb, unit, n2, subst, sum, pts, ns, nz);
        for (size_t j = i + 3 * (size_t)s; j <= i + (size_t)(B - 3 * s); j += di)
            FN(blend_point)(g, op, fa, x, r, w, sym, j, &F, sp, rs, keep_d, e2, eb, unit, n2, subst, sum, pts, ns, nz);
        FN(blend_point)(g, op, fa, x, r, w, sym, i + (size_t)(B - s), &Fl, sp, rs, keep_d, e2, eb, unit, n2, subst, sum, pts,
                        ns, nz);
    }
}

/* The points of one odd-axis mask (K axes) inside a box. The odd axes'
 * windows and reads are set per row (axes 0, 1) and, on axis 2, once per
 * run of points that share them; runs whose reads are all inside the
 * windows, and a row's whole blocks along axis 2, take the constant
 * stencils (blend_run, blend_blocks). K is a constant at each call site. */
static inline __attribute__((always_inline)) void
FN(blend_set)(const glide_grid *g, const int op, const int fa, const unsigned K, const T *x, T *r, T *w, uint16_t *sym,
              const FN(box) *bx, uint64_t s, unsigned mask, unsigned sp, unsigned rs, T e2, double eb, double unit,
              T subst, uint64_t *sum, uint64_t *pts, int *nan_seen)
{
    /* *nan_seen: a NaN residual was written in this level (fill points, a
     * fallback, or arithmetic); until then no read can find one, so the
     * NaN tests are skipped (same predictions) */
    int ns = *nan_seen;
    /* the set's own residuals: nz += w - w, NaN once one was not finite
     * (inf too, which only adds tests), folded into *nan_seen at the end:
     * no point reads the residuals of its own phase */
    T nz = 0;
    const uint64_t B = 1ull << g->blog;
    const size_t s0 = g->st[0], s1 = g->st[1];
    const unsigned j1 = mask & 1u, j2 = K - 1; /* P's index of axis 1, and of axis 2 if odd */
    const unsigned krow = mask & 4u ? K - 1 : K; /* odd axes set per row */
    const double n2 = glide_blend_noise(K);
    const int keep_d = K == 2 && mask == 5u; /* bl_predict: w keeps D there */
    const int cub = sp != GLIDE_SPLINE_LINEAR;
    /* the splines' flags as constants where that pays for its code: the
     * closed loop's points without fill points (tuning runs on a sample) */
    const int spec = (op == OP_ENCODE || op == OP_DECODE) && !fa;
    uint64_t start[3], step[3], c[3];
    glide_set_lattice(bx->lo, s, mask, start, step);
    glide_bpoint P;
    P.k = K;
    size_t o[3] = {0, 0, 0};
    /* Axis 2, if odd, is set per run. Its blocks that the box holds whole
     * and the grid does not cut short (lo + B <= full_hi) share one
     * pattern: the reads at their first and last points (Rf, Rl), and
     * every read inside the window from the second to the last but one
     * (cubic splines; four points a block at least). */
    const uint64_t M = B / (2 * s);
    const uint64_t full_hi = mask & 4u && cub && M >= 4 ? (g->n[2] - 1 < bx->hi[2] + s ? g->n[2] - 1 : bx->hi[2] + s) : 0;
    glide_reads Rf[2], Rm[2], Rl[2];
    if (mask & 4u) {
        o[j2] = (size_t)s * g->st[2];
        glide_axis_reads(s, 0, B, g->st[2], s, sp, rs, &Rf[0], &Rf[1]);
        glide_axis_reads(3 * s, 0, B, g->st[2], s, sp, rs, &Rm[0], &Rm[1]);
        glide_axis_reads(B - s, 0, B, g->st[2], s, sp, rs, &Rl[0], &Rl[1]);
    }
    for (c[0] = start[0]; c[0] <= bx->hi[0]; c[0] += step[0]) {
        if (mask & 1u) glide_bpoint_axis(&P, 0, 0, c[0], g->n, g->st, B, s, sp, rs);
        for (c[1] = start[1]; c[1] <= bx->hi[1]; c[1] += step[1]) {
            if (mask & 2u) glide_bpoint_axis(&P, j1, 1, c[1], g->n, g->st, B, s, sp, rs);
            int row_in = 1;
            for (unsigned j = 0; j < krow; j++) {
                row_in &= glide_reads_full(&P.Rs[j], cub);
                o[j] = P.Rs[j].o1;
            }
            const size_t row = (size_t)c[0] * s0 + (size_t)c[1] * s1;
            c[2] = start[2];
            const uint64_t lo2 = c[2] & ~(B - 1);
            /* whole blocks from the row's start, and whether the grid's last
             * block, without its far end, follows them (for the lanes) */
            const uint64_t nb = c[2] == lo2 + s && lo2 + B <= full_hi ? (full_hi - lo2) / B : 0;
            int cut4 = 0;
#ifdef GLIDE_BLEND_RUN4
            cut4 = c[2] == lo2 + s && full_hi && full_hi == g->n[2] - 1 && lo2 + (nb + 1) * B == g->n[2] &&
                   GLIDE_LANES_OK(op, fa, ns) && s == 1 && B % 8 == 0;
#endif
            if (spec && row_in && nb) {
#define GLIDE_BL_BLOCKS(RCUB, SP, RS)                                                                                  \
    FN(blend_blocks)(g, op, fa, K, RCUB, x, r, w, sym, row + (size_t)lo2, nb, cut4, B, s, o, SP, RS, keep_d, e2, eb, unit, \
                     n2, subst, sum, pts, &ns, &nz)
                if (sp == GLIDE_SPLINE_CUBIC_NAK) {
                    if (rs == GLIDE_SPLINE_LINEAR) GLIDE_BL_BLOCKS(0, GLIDE_SPLINE_CUBIC_NAK, GLIDE_SPLINE_LINEAR);
                    else GLIDE_BL_BLOCKS(1, GLIDE_SPLINE_CUBIC_NAK, GLIDE_SPLINE_CUBIC_NAK);
                } else {
                    if (rs == GLIDE_SPLINE_LINEAR) GLIDE_BL_BLOCKS(0, GLIDE_SPLINE_CUBIC_NATURAL, GLIDE_SPLINE_LINEAR);
                    else GLIDE_BL_BLOCKS(1, GLIDE_SPLINE_CUBIC_NATURAL, GLIDE_SPLINE_CUBIC_NATURAL);
                }
#undef GLIDE_BL_BLOCKS
                c[2] = lo2 + (nb + (cut4 != 0)) * B + s;
            }
#ifdef GLIDE_BLEND_RUN4
            else if (GLIDE_LANES_OK(op, fa, ns) && s == 1 && B % 8 == 0 && (nb || cut4)) {
                /* a row whose other odd axes read short of their windows
                 * (or without a whole block before the grid's last): its
                 * blocks with those reads (P's) */
                FN(blend_blocks4)(op, K, &P, x, r, w, sym, row + (size_t)lo2, nb, cut4, B, sp, rs, keep_d, e2, eb, unit, subst,
                                  sum, &nz);
                c[2] = lo2 + (nb + (cut4 != 0)) * B + s;
            }
#endif
            while (c[2] <= bx->hi[2]) {
                /* the points from c[2] to `last` share their reads */
                uint64_t last = bx->hi[2];
                int in = row_in;
                if (mask & 4u) {
                    const uint64_t lo = c[2] & ~(B - 1);
                    if (lo + B <= full_hi) {
                        const glide_reads *R = c[2] == lo + s ? Rf : c[2] == lo + B - s ? Rl : Rm;
                        P.Rs[j2] = R[0];
                        P.Rr[j2] = R[1];
                        if (R != Rm) in = 0;
                        last = R == Rm ? lo + B - 3 * s : c[2];
                    } else {
                        glide_bpoint_axis(&P, j2, 2, c[2], g->n, g->st, B, s, sp, rs);
                        if (glide_reads_full(&P.Rs[j2], cub)) {
                            /* to where its block's window (hi) ends */
                            const uint64_t e = P.hi[j2] - (cub ? 3 * s : s);
                            if (e < last) last = e;
                        } else {
                            last = c[2];
                            in = 0;
                        }
                    }
                }
                last = c[2] + (last - c[2]) / step[2] * step[2];
                const size_t i0 = row + (size_t)c[2], i1 = row + (size_t)last;
                if (!in) {
                    size_t i = i0;
#ifdef GLIDE_BLEND_RUN4
                    /* the row's own reads, the same for every point of the run */
                    if (GLIDE_LANES_OK(op, fa, ns) && step[2] == 2)
                        i = FN(blend_run4)(op, K, &P, x, r, w, sym, i0, i1, sp, rs, keep_d, e2, eb, unit, subst, sum, &nz);
#endif
                    for (; i <= i1; i += step[2])
                        FN(blend_point)(g, op, fa, x, r, w, sym, i, &P, sp, rs, keep_d, e2, eb, unit, n2, subst, sum, pts,
                                        &ns, &nz);
                }
#define GLIDE_BL_RUN(CUB, RCUB, SP, RS)                                                                                \
    FN(blend_run)(g, op, fa, K, CUB, RCUB, x, r, w, sym, i0, i1, step[2], o, SP, RS, keep_d, e2, eb, unit, n2, subst, sum, \
                  pts, &ns, &nz)
                else if (!spec) GLIDE_BL_RUN(cub, rs != GLIDE_SPLINE_LINEAR, sp, rs);
                else if (!cub) GLIDE_BL_RUN(0, 0, GLIDE_SPLINE_LINEAR, GLIDE_SPLINE_LINEAR);
                else if (sp == GLIDE_SPLINE_CUBIC_NAK) {
                    if (rs == GLIDE_SPLINE_LINEAR) GLIDE_BL_RUN(1, 0, GLIDE_SPLINE_CUBIC_NAK, GLIDE_SPLINE_LINEAR);
                    else GLIDE_BL_RUN(1, 1, GLIDE_SPLINE_CUBIC_NAK, GLIDE_SPLINE_CUBIC_NAK);
                } else {
                    if (rs == GLIDE_SPLINE_LINEAR) GLIDE_BL_RUN(1, 0, GLIDE_SPLINE_CUBIC_NATURAL, GLIDE_SPLINE_LINEAR);
                    else GLIDE_BL_RUN(1, 1, GLIDE_SPLINE_CUBIC_NATURAL, GLIDE_SPLINE_CUBIC_NATURAL);
                }
#undef GLIDE_BL_RUN
                c[2] = last + step[2];
            }
        }
    }
    *nan_seen = ns | (nz != nz);
}

/* Each (op, fa, K) instance of blend_set is a function of its own: inlined
 * whole into the passes they made functions of tens of thousands of lines,
 * which GCC's debug builds (ASan, -O1 -g) took about ten minutes to
 * compile. A call per point set costs nothing measurable. */
#define GLIDE_BSET_DEF(OPN, FAV, KV)                                                                                    \
    static __attribute__((noinline, unused)) void FN(bset_##OPN##_##FAV##_##KV)(                                         \
        const glide_grid *g, const T *x, T *r, T *w, uint16_t *sym, const FN(box) *bx, uint64_t s, unsigned mask,         \
        unsigned sp, unsigned rs, T e2, double eb, double unit, T subst, uint64_t *sum, uint64_t *pts, int *nan_seen)     \
    {                                                                                                                  \
        FN(blend_set)(g, OPN, FAV, KV, x, r, w, sym, bx, s, mask, sp, rs, e2, eb, unit, subst, sum, pts, nan_seen);   \
    }
#define GLIDE_BSET_DEFS(OPN) GLIDE_BSET_DEF(OPN, 0, 1) GLIDE_BSET_DEF(OPN, 0, 2) GLIDE_BSET_DEF(OPN, 0, 3) \
    GLIDE_BSET_DEF(OPN, 1, 1) GLIDE_BSET_DEF(OPN, 1, 2) GLIDE_BSET_DEF(OPN, 1, 3)
GLIDE_BSET_DEFS(OP_ENCODE)
GLIDE_BSET_DEFS(OP_DECODE)
GLIDE_BSET_DEFS(OP_BITS)
GLIDE_BSET_DEFS(OP_TUNE)
#undef GLIDE_BSET_DEFS
#undef GLIDE_BSET_DEF

/* One blended level over a closed box, phase by phase: encode or decode
 * (closed loop), or OP_BITS / OP_TUNE sums of the open-loop errors into
 * acc[0] (points into acc[1] for OP_BITS); w the grid-sized residual
 * scratch either way. op and fa are compile-time constants at every call
 * site. */
static inline __attribute__((always_inline)) void
FN(blend_level)(const glide_grid *g, const int op, const int fa, const T *x, T *r, T *w, uint16_t *sym,
                const FN(box) *bx, uint64_t s, unsigned cfg, T e2, double eb, double unit, T subst, uint64_t acc[2])
{
    unsigned sp, rs, masks[7];
    FN(bl_splines)(g, cfg, &sp, &rs);
    const unsigned nsets = glide_blend_sets(g->eff_rank, masks);
    uint64_t sum = 0, pts = 0;
    int nan_seen = 0;
    for (unsigned m = 0; m < nsets; m++) {
        const unsigned k = (unsigned)__builtin_popcount(masks[m]);
#define GLIDE_BSET_CALL(OPN)                                                                                           \
    do {                                                                                                               \
        if (fa) {                                                                                                      \
            if (k == 1) FN(bset_##OPN##_1_1)(g, x, r, w, sym, bx, s, masks[m], sp, rs, e2, eb, unit, subst, &sum, &pts, &nan_seen); \
            else if (k == 2) FN(bset_##OPN##_1_2)(g, x, r, w, sym, bx, s, masks[m], sp, rs, e2, eb, unit, subst, &sum, &pts, &nan_seen); \
            else FN(bset_##OPN##_1_3)(g, x, r, w, sym, bx, s, masks[m], sp, rs, e2, eb, unit, subst, &sum, &pts, &nan_seen); \
        } else {                                                                                                       \
            if (k == 1) FN(bset_##OPN##_0_1)(g, x, r, w, sym, bx, s, masks[m], sp, rs, e2, eb, unit, subst, &sum, &pts, &nan_seen); \
            else if (k == 2) FN(bset_##OPN##_0_2)(g, x, r, w, sym, bx, s, masks[m], sp, rs, e2, eb, unit, subst, &sum, &pts, &nan_seen); \
            else FN(bset_##OPN##_0_3)(g, x, r, w, sym, bx, s, masks[m], sp, rs, e2, eb, unit, subst, &sum, &pts, &nan_seen); \
        }                                                                                                              \
    } while (0)
        if (op == OP_ENCODE) GLIDE_BSET_CALL(OP_ENCODE);
        else if (op == OP_DECODE) GLIDE_BSET_CALL(OP_DECODE);
        else if (op == OP_BITS) GLIDE_BSET_CALL(OP_BITS);
        else GLIDE_BSET_CALL(OP_TUNE);
#undef GLIDE_BSET_CALL
    }
    if (op == OP_TUNE || op == OP_BITS) {
        acc[0] += sum;
        acc[1] += pts;
    }
}
