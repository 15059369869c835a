/* One point given its prediction p: encoding, its symbol and
 * reconstruction (a fill point FILL and the substitute); decoding, its
 * reconstruction from the symbol (an OUTLIER's is placed already). */
static inline __attribute__((always_inline)) void FN(slice_point)(FN(fill_test) fv, const int encode, const int fills,
                                                                  const T *x, T *r, uint16_t *sym, size_t i, T p, T e2,
                                                                  double eb, T subst)
{
    if (encode) {
        const T xv = x[i];
        T rv;
        int q;
        if (fills && FN(fill_is)(fv, xv)) { sym[i] = GLIDE_SYM_FILL; r[i] = subst; }
        else if ((q = FN(quantize)(xv, p, e2, eb, &rv)) >= 0) { sym[i] = (uint16_t)q; r[i] = rv; }
        else { sym[i] = GLIDE_SYM_OUTLIER; r[i] = isfinite(xv) ? xv : subst; }
    } else {
        const unsigned sy = sym[i];
        if (sy < GLIDE_NQUANT) r[i] = p + (T)((int)sy - GLIDE_SYM_ZERO) * e2;
        else if (sy == GLIDE_SYM_FILL) r[i] = subst;
    }
}

/* One point odd on the pass's axis (element offset o1 = s x stride to its
 * neighbours; hc, ha, hd as interp_predict finds them in its block's box):
 * its 2-D prediction into sp, then its symbol or reconstruction. */
static inline __attribute__((always_inline)) void FN(slice_odd)(const glide_grid *g, FN(fill_test) fv, const int encode,
                                                               const int fills, const int first, const T *x, T *r, T *sp,
                                                               uint16_t *sym, size_t i, size_t s0, size_t o1, int hc, int ha,
                                                               int hd, T e2, double eb, T subst)
{
    /* where the encoder writes no FILL, none need be looked for */
    const int sym_fill = fills || !encode;
    if (encode ? fills && FN(fill_is)(fv, x[i]) : sym[i] == GLIDE_SYM_FILL) {
        sp[i] = 0;
        FN(slice_point)(fv, encode, fills, x, r, sym, i, 0, e2, eb, subst);
        return;
    }
    const T p2 = fills && g->fill_aware ? FN(interp_form_fa)(g, r, sym, i, o1, hc, ha, hd, GLIDE_SPLINE_CUBIC_NAK, subst)
                                        : FN(interp_form)(r, i, o1, 1, hc, ha, hd, GLIDE_SPLINE_CUBIC_NAK, (T)0);
    sp[i] = p2;
    const T p = !first && !(sym_fill && sym[i - s0] == GLIDE_SYM_FILL) ? p2 + (r[i - s0] - sp[i - s0]) : p2;
    /* not a fill point: known without a second test */
    FN(slice_point)(fv, encode, 0, x, r, sym, i, p, e2, eb, subst);
}

#ifdef GLIDE_BLEND_RUN4
/* Whether slice_odd's lanes i + l k (l < 4) all take the plain stencil
 * and shift: no lane is a fill point, and no read the flags name, nor the
 * point below (unless first), holds FILL. */
static inline __attribute__((always_inline)) int FN(slice_plain4)(FN(fill_test) fv, const int fills, const int first,
                                                                  __m128 xv, const uint16_t *sym, size_t i, size_t k,
                                                                  size_t s0, size_t o1, int hc, int ha, int hd, int fa)
{
    if (!fills) return 1;
    if (FN(fill_lanes)(fv, xv)) return 0;
    for (unsigned l = 0; l < 4; l++) {
        const size_t j = i + l * k;
        if (!first && sym[j - s0] == GLIDE_SYM_FILL) return 0;
        if (fa && (sym[j - o1] == GLIDE_SYM_FILL || (hc && sym[j + o1] == GLIDE_SYM_FILL) ||
                   (ha && sym[j - 3 * o1] == GLIDE_SYM_FILL) || (hc && hd && sym[j + 3 * o1] == GLIDE_SYM_FILL)))
            return 0;
    }
    return 1;
}

/* slice_odd's encoding of the lanes i + l k from their 2-D predictions
 * p2: the shift by the slice below (unless first), symbols and
 * reconstructions, the outliers by the scalar rule. */
static inline __attribute__((always_inline)) void FN(slice_enc4)(const int first, __m128 xv, __m128 p2, const T *x, T *r,
                                                                 T *sp, uint16_t *sym, size_t i, size_t k, size_t s0, T e2,
                                                                 double eb, T subst)
{
    glide_sse_st4(sp, i, k, p2);
    const __m128 p = first ? p2
                           : _mm_add_ps(p2, _mm_sub_ps(glide_sse_ld4(r, i - s0, k), glide_sse_ld4(sp, i - s0, k)));
    __m128i q;
    __m128 v;
    const int ok = glide_sse_quantize(xv, p, e2, eb, &q, &v);
    int qs[4];
    _mm_storeu_si128((__m128i *)(void *)qs, q);
    if (ok != 15) {
        float rv[4];
        _mm_storeu_ps(rv, v);
        for (unsigned l = 0; l < 4; l++)
            if (!(ok >> l & 1)) {
                const T xl = x[i + l * k];
                rv[l] = isfinite(xl) ? xl : subst, qs[l] = GLIDE_SYM_OUTLIER - GLIDE_SYM_ZERO;
            }
        v = _mm_loadu_ps(rv);
    }
    glide_sse_st4(r, i, k, v);
    for (unsigned l = 0; l < 4; l++) sym[i + l * k] = (uint16_t)(qs[l] + GLIDE_SYM_ZERO);
}

/* slice_odd's encoding of the four points c0, c0 + 2, .. (element i) of a
 * row odd on x at s = 1, in the block from lo (window to hi): the block's
 * first lane (bfirst) reads no c - 3, its last (blast) no c + 3; at the
 * row's end (end: the block lacks its far end) lane 2 reads no c + 3 and
 * lane 3 no c + 1, whose c + 1 then comes from the c - 1 shifted, so that
 * nothing past the row is read. A group with a fill point, a FILL read or
 * below goes point by point. */
static inline __attribute__((always_inline)) void
FN(slice_group4)(const glide_grid *g, FN(fill_test) fv, const int fills, const int fa, const int first, const T *x, T *r,
                 T *sp, uint16_t *sym, size_t i, uint64_t c0, uint64_t lo, uint64_t hi, size_t s0, const int bfirst,
                 const int blast, const int end, T e2, double eb, T subst)
{
    const __m128 xv = glide_sse_g2(x, i);
    /* the reads c + 1 are the next lanes' c - 1, but at the row's end */
    int plain = FN(slice_plain4)(fv, fills, first, xv, sym, i, 2, s0, 1, !end, 0, 0, fa);
    if (plain && fa)
        for (unsigned l = 0; l < 4; l++)
            plain &= (l == 0 && bfirst ? 1 : sym[i + 2 * l - 3] != GLIDE_SYM_FILL) &&
                     (l + (end != 0) >= 3 && blast ? 1 : sym[i + 2 * l + 3] != GLIDE_SYM_FILL);
    if (!plain) {
        for (unsigned l = 0; l < 4; l++) {
            const uint64_t c = c0 + 2 * l;
            FN(slice_odd)(g, fv, 1, fills, first, x, r, sp, sym, i + 2 * l, s0, 1, c + 1 <= hi, c >= lo + 3, c + 3 <= hi, e2,
                          eb, subst);
        }
        return;
    }
    __m128 b, cc, a, d;
    glide_sse_block_reads(r, i, bfirst, blast, end, &b, &cc, &a, &d);
    const __m128 p2 = glide_sse_block_form(b, cc, a, d, bfirst, blast, end, GLIDE_SPLINE_CUBIC_NAK);
    FN(slice_enc4)(first, xv, p2, x, r, sp, sym, i, 2, s0, e2, eb, subst);
}
#endif

/* Format 6's slice method (docs/FORMAT.md §9a, DESIGN.md "The slice
 * method"); gpu/slice.cuh computes the same. Each slice across axis 0 of a
 * slab is a 2-D hierarchy (levels B/2 .. 1, x then y, or y then x with yx;
 * the block boxes, splines' neighbour rule
 * and fill-aware stencils of interpolation, cubic not-a-knot), and every
 * prediction adds the previous slice's residual at that point (its
 * reconstructed value less the 2-D prediction it had), except in the first
 * slice of each run of B slices, whose 2-D anchors are the stream's anchors.
 * The other slices' 2-D anchors are predicted by the value before them on
 * axis 0. sp holds each point's 2-D prediction (the shift's second term).
 *
 * fills 0: a grid without a fill value, where no point of the data is
 * one and the stencils are plain (the encoder then writes no FILL; the
 * decoder still treats a FILL symbol as it would otherwise). The sweep
 * is instantiated for each, so that grids without fill points skip the
 * tests. */
static inline __attribute__((always_inline)) void FN(slice_sweep_k)(const glide_grid *g, const int encode, const int fills,
                                                                   const T *x, T *r, T *sp, uint16_t *sym, double eb,
                                                                   T subst, int yx)
{
    const FN(fill_test) fv = FN(fill_test_of)(g);
    const uint64_t B = 1ull << g->blog, n1 = g->n[1], n2 = g->n[2];
    const size_t s0 = g->st[0], s1 = g->st[1];
    const T e2 = (T)(2.0 * eb);
#ifdef GLIDE_BLEND_RUN4
    /* encoding four points at a time (the quantizer's division: e2 > 0) */
    const int lanes = encode && e2 > 0 && !g->scalar, fa = fills && g->fill_aware;
#endif
    for (uint64_t sl = 0; sl < g->slabs; sl++)
        for (uint64_t zl = 0; zl < g->slab_rows; zl++) {
            const uint64_t z = sl * g->slab_rows + zl;
            const int first = zl % B == 0;
            const size_t base = (size_t)z * s0;
            /* the slice's 2-D anchors */
            for (uint64_t y = 0; y < n1; y += B)
                for (uint64_t xx = 0; xx < n2; xx += B) {
                    const size_t i = base + (size_t)y * s1 + (size_t)xx;
                    sp[i] = 0;
                    if (first) continue; /* the stream's anchors, set already */
                    const T p = (fills || !encode) && sym[i - s0] == GLIDE_SYM_FILL ? subst : r[i - s0];
                    FN(slice_point)(fv, encode, fills, x, r, sym, i, p, e2, eb, subst);
                }
            for (uint64_t s = B / 2; s >= 1; s /= 2)
                for (int pass = 0; pass < 2; pass++) {
                    /* the first pass predicts along x (along y with yx) the points
                     * odd on that axis and multiples of 2s on the other; the
                     * second along the other axis, with multiples of s */
                    const int along_x = (pass == 0) != (yx != 0);
                    const uint64_t ostep = pass == 0 ? 2 * s : s;
                    if (!along_x) {
                        /* odd on y: a row's stencil is the same for all its points */
                        for (uint64_t y = s; y < n1; y += 2 * s) {
                            const uint64_t lo = y & ~(B - 1), hi = lo + B < n1 - 1 ? lo + B : n1 - 1;
                            const int hc = y + s <= hi, ha = y >= lo + 3 * s, hd = y + 3 * s <= hi;
                            const size_t row = base + (size_t)y * s1;
                            uint64_t xx = 0;
#ifdef GLIDE_BLEND_RUN4
                            /* four points at a time: their reads lie on other rows */
                            if (lanes) {
                                const size_t o1 = (size_t)s * s1, k = (size_t)ostep;
                                for (; xx + 3 * ostep < n2; xx += 4 * ostep) {
                                    const size_t i = row + xx;
                                    const __m128 xv = glide_sse_ld4(x, i, k);
                                    if (!FN(slice_plain4)(fv, fills, first, xv, sym, i, k, s0, o1, hc, ha, hd, fa)) {
                                        for (unsigned l = 0; l < 4; l++)
                                            FN(slice_odd)(g, fv, encode, fills, first, x, r, sp, sym, i + l * k, s0, o1, hc,
                                                          ha, hd, e2, eb, subst);
                                        continue;
                                    }
                                    const __m128 p2 = glide_sse_form(r, i, k, o1, hc, ha, hd, GLIDE_SPLINE_CUBIC_NAK);
                                    FN(slice_enc4)(first, xv, p2, x, r, sp, sym, i, k, s0, e2, eb, subst);
                                }
                            }
#endif
                            for (; xx < n2; xx += ostep)
                                FN(slice_odd)(g, fv, encode, fills, first, x, r, sp, sym, row + xx, s0, (size_t)s * s1, hc,
                                              ha, hd, e2, eb, subst);
                        }
                    } else {
                        /* odd on x: block by block along the row */
                        for (uint64_t y = 0; y < n1; y += ostep) {
                            const size_t row = base + (size_t)y * s1;
                            for (uint64_t lo = 0; lo + s < n2; lo += B) {
                                const uint64_t hi = lo + B < n2 - 1 ? lo + B : n2 - 1;
#ifdef GLIDE_BLEND_RUN4
                                /* a whole block at s = 1, as blend_blocks4: its first point
                                 * reads no c - 3, its last no c + 3; or the row's last
                                 * block without its far end (cut: its last point reads no
                                 * c + 1, the one before no c + 3) */
                                const int cut = lo + B == n2;
                                if (lanes && s == 1 && B % 8 == 0 && (lo + B <= hi || cut)) {
                                    for (uint64_t j = 0; j < B / 2; j += 4) {
                                        const int bfirst = j == 0, blast = j + 4 == B / 2;
#define GLIDE_SLICE_GROUP(LAST, END)                                                                                   \
    FN(slice_group4)(g, fv, fills, fa, first, x, r, sp, sym, row + (size_t)lo + 1 + 2 * (size_t)j, lo + 1 + 2 * j, lo, hi, \
                     s0, bfirst, LAST, END, e2, eb, subst)
                                        if (blast && cut) GLIDE_SLICE_GROUP(1, 1);
                                        else GLIDE_SLICE_GROUP(blast, 0);
#undef GLIDE_SLICE_GROUP
                                    }
                                    continue;
                                }
#endif
                                for (uint64_t xx = lo + s; xx < lo + B && xx < n2; xx += 2 * s)
                                    FN(slice_odd)(g, fv, encode, fills, first, x, r, sp, sym, row + xx, s0, s, xx + s <= hi,
                                                  xx >= lo + 3 * s, xx + 3 * s <= hi, e2, eb, subst);
                            }
                        }
                    }
                }
        }
}

#if GLIDE_TMPL_HAS(GLIDE_PART_ENCODE)
void FN(glide_slice_encode)(const glide_grid *g, const T *x, T *r, T *sp, uint16_t *sym, double eb, T subst, int yx)
{
    if (g->has_fill || g->fill_aware) FN(slice_sweep_k)(g, 1, 1, x, r, sp, sym, eb, subst, yx);
    else FN(slice_sweep_k)(g, 1, 0, x, r, sp, sym, eb, subst, yx);
}

#endif

#if GLIDE_TMPL_HAS(GLIDE_PART_DECODE)
void FN(glide_slice_decode)(const glide_grid *g, T *r, T *sp, uint16_t *sym, double eb, T subst, int yx)
{
    if (g->has_fill || g->fill_aware) FN(slice_sweep_k)(g, 0, 1, NULL, r, sp, sym, eb, subst, yx);
    else FN(slice_sweep_k)(g, 0, 0, NULL, r, sp, sym, eb, subst, yx);
}
#endif
