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
                            for (uint64_t xx = 0; xx < n2; xx += ostep)
                                FN(slice_odd)(g, fv, encode, fills, first, x, r, sp, sym, row + xx, s0, (size_t)s * s1, hc,
                                              ha, hd, e2, eb, subst);
                        }
                    } else {
                        /* odd on x: block by block along the row */
                        for (uint64_t y = 0; y < n1; y += ostep) {
                            const size_t row = base + (size_t)y * s1;
                            for (uint64_t lo = 0; lo + s < n2; lo += B) {
                                const uint64_t hi = lo + B < n2 - 1 ? lo + B : n2 - 1;
                                for (uint64_t xx = lo + s; xx < lo + B && xx < n2; xx += 2 * s)
                                    FN(slice_odd)(g, fv, encode, fills, first, x, r, sp, sym, row + xx, s0, s, xx + s <= hi,
                                                  xx >= lo + 3 * s, xx + 3 * s <= hi, e2, eb, subst);
                            }
                        }
                    }
                }
        }
}

void FN(glide_slice_encode)(const glide_grid *g, const T *x, T *r, T *sp, uint16_t *sym, double eb, T subst, int yx)
{
    if (g->has_fill || g->fill_aware) FN(slice_sweep_k)(g, 1, 1, x, r, sp, sym, eb, subst, yx);
    else FN(slice_sweep_k)(g, 1, 0, x, r, sp, sym, eb, subst, yx);
}

void FN(glide_slice_decode)(const glide_grid *g, T *r, T *sp, uint16_t *sym, double eb, T subst, int yx)
{
    if (g->has_fill || g->fill_aware) FN(slice_sweep_k)(g, 0, 1, NULL, r, sp, sym, eb, subst, yx);
    else FN(slice_sweep_k)(g, 0, 0, NULL, r, sp, sym, eb, subst, yx);
}
