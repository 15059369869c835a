/* One point given its prediction p: encoding, its symbol and
 * reconstruction (a fill point FILL and the substitute); decoding, its
 * reconstruction from the symbol (an OUTLIER's is placed already). */
static inline void FN(slice_point)(const glide_grid *g, int encode, const T *x, T *r, uint16_t *sym, size_t i, T p, T e2,
                                   double eb, T subst)
{
    if (encode) {
        const T xv = x[i];
        T rv;
        int q;
        if (FN(is_fill)(g, xv)) { sym[i] = GLIDE_SYM_FILL; r[i] = subst; }
        else if ((q = FN(quantize)(xv, p, e2, eb, &rv)) >= 0) { sym[i] = (uint16_t)q; r[i] = rv; }
        else { sym[i] = GLIDE_SYM_OUTLIER; r[i] = isfinite(xv) ? xv : subst; }
    } else {
        const unsigned sy = sym[i];
        if (sy < GLIDE_NQUANT) r[i] = p + (T)((int)sy - GLIDE_SYM_ZERO) * e2;
        else if (sy == GLIDE_SYM_FILL) r[i] = subst;
    }
}

/* Format 6's slice method (docs/FORMAT.md §9a, DESIGN.md "The slice
 * method"); gpu/slice.cuh computes the same. Each slice across axis 0 of a
 * slab is a 2-D hierarchy (levels B/2 .. 1, x then y, or y then x with yx;
 * the block boxes, splines' neighbour rule
 * and fill-aware stencils of interpolation, cubic not-a-knot), and every
 * prediction adds the previous slice's residual at that point (its
 * reconstructed value less the 2-D prediction it had), except in the first
 * slice of each run of B slices, whose 2-D anchors are the stream's anchors.
 * The other slices' 2-D anchors are predicted by the value before them on
 * axis 0. sp holds each point's 2-D prediction (the shift's second term). */
static void FN(slice_sweep)(const glide_grid *g, const int encode, const T *x, T *r, T *sp, uint16_t *sym, double eb,
                            T subst, int yx)
{
    const uint64_t B = 1ull << g->blog, n1 = g->n[1], n2 = g->n[2];
    const size_t s0 = g->st[0], s1 = g->st[1];
    const T e2 = (T)(2.0 * eb);
    const int fa = g->fill_aware;
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
                    const T p = sym[i - s0] == GLIDE_SYM_FILL ? subst : r[i - s0];
                    FN(slice_point)(g, encode, x, r, sym, i, p, e2, eb, subst);
                }
            for (uint64_t s = B / 2; s >= 1; s /= 2)
                for (int pass = 0; pass < 2; pass++) {
                    /* d: the axis the points are odd on (and predicted along) */
                    const unsigned d = (pass == 0) != (yx != 0) ? 2u : 1u;
                    /* the other axis: multiples of 2s in the first pass, of s in the second */
                    const uint64_t ostep = pass == 0 ? 2 * s : s;
                    const uint64_t y0 = d == 1 ? s : 0, ys = d == 1 ? 2 * s : ostep;
                    const uint64_t x0 = d == 2 ? s : 0, xs = d == 2 ? 2 * s : ostep;
                    const size_t st = d == 1 ? s1 : 1;
                    const uint64_t nd1 = (d == 1 ? n1 : n2) - 1;
                    for (uint64_t y = y0; y < n1; y += ys)
                        for (uint64_t xx = x0; xx < n2; xx += xs) {
                            const uint64_t c = d == 1 ? y : xx;
                            const uint64_t lo = c & ~(B - 1), hi = lo + B < nd1 ? lo + B : nd1;
                            const size_t i = base + (size_t)y * s1 + (size_t)xx;
                            T p = 0;
                            if (encode ? FN(is_fill)(g, x[i]) : sym[i] == GLIDE_SYM_FILL) {
                                sp[i] = 0;
                            } else {
                                const T p2 = fa ? FN(interp_predict_fa)(g, r, sym, i, st, c, s, lo, hi, GLIDE_SPLINE_CUBIC_NAK, subst)
                                                : FN(interp_predict)(r, i, st, c, s, lo, hi, GLIDE_SPLINE_CUBIC_NAK);
                                sp[i] = p2;
                                p = !first && sym[i - s0] != GLIDE_SYM_FILL ? p2 + (r[i - s0] - sp[i - s0]) : p2;
                            }
                            FN(slice_point)(g, encode, x, r, sym, i, p, e2, eb, subst);
                        }
                }
        }
}

void FN(glide_slice_encode)(const glide_grid *g, const T *x, T *r, T *sp, uint16_t *sym, double eb, T subst, int yx)
{
    FN(slice_sweep)(g, 1, x, r, sp, sym, eb, subst, yx);
}

void FN(glide_slice_decode)(const glide_grid *g, T *r, T *sp, uint16_t *sym, double eb, T subst, int yx)
{
    FN(slice_sweep)(g, 0, NULL, r, sp, sym, eb, subst, yx);
}
