/* Value range, anchors, outliers and the final fix-up pass (templated). */

/* glide_value_range without fill points, in vector lanes that keep their
 * own extremes (the first to reach them in the lane). Values that compare
 * equal are the same but for 0 and -0, so an extreme that is zero is then
 * taken from the first zero, as the sequential loop would. */
#if GLIDE_T_IS_DOUBLE
typedef int64_t FN(sbits);
#else
typedef int32_t FN(sbits);
#endif
typedef T FN(vec) __attribute__((vector_size(16)));
typedef FN(sbits) FN(vmask) __attribute__((vector_size(16)));
static void FN(finite_range)(const T *x, uint64_t n, T *lo, T *hi, int *seen)
{
    enum { VL = 16 / sizeof(T) };
    FN(vec) mnv, mxv;
    for (unsigned k = 0; k < VL; k++) mnv[k] = (T)INFINITY, mxv[k] = (T)-INFINITY;
    uint64_t i = 0;
    for (; i + VL <= n; i += VL) {
        FN(vec) v;
        memcpy(&v, x + i, sizeof v);
        const FN(vmask) fin = v - v == 0; /* 0 exactly where v is finite */
        const FN(vmask) lt = fin & (v < mnv), gt = fin & (v > mxv);
        mnv = (FN(vec))((lt & (FN(vmask))v) | (~lt & (FN(vmask))mnv));
        mxv = (FN(vec))((gt & (FN(vmask))v) | (~gt & (FN(vmask))mxv));
    }
    T mn = (T)INFINITY, mx = (T)-INFINITY;
    for (unsigned k = 0; k < VL; k++) {
        if (mnv[k] < mn) mn = mnv[k];
        if (mxv[k] > mx) mx = mxv[k];
    }
    for (; i < n; i++)
        if (isfinite(x[i])) {
            if (x[i] < mn) mn = x[i];
            if (x[i] > mx) mx = x[i];
        }
    *seen = mn <= mx; /* finite values only */
    if (!*seen) mn = mx = 0;
    else if (mn == 0 || mx == 0)
        for (uint64_t j = 0; j < n; j++)
            if (x[j] == 0) {
                if (mn == 0) mn = x[j];
                if (mx == 0) mx = x[j];
                break;
            }
    *lo = mn;
    *hi = mx;
}

/* The finite values' least and greatest, each the first to reach it in
 * index order (0 and 0 if there is none), fill points left out. */
void FN(glide_value_range)(const glide_grid *g, const T *x, double *lo, double *hi, int *any, int *fills)
{
    T mn = 0, mx = 0;
    int seen = 0, fill = 0;
    if (!g->has_fill) {
        FN(finite_range)(x, g->count, &mn, &mx, &seen);
        *lo = mn; *hi = mx; *any = seen; *fills = 0;
        return;
    }
    for (uint64_t i = 0; i < g->count; i++) {
        T v = x[i];
        if (FN(is_fill)(g, v)) { fill = 1; continue; }
        if (!isfinite(v)) continue;
        if (!seen) { mn = mx = v; seen = 1; continue; }
        if (v < mn) mn = v;
        if (v > mx) mx = v;
    }
    *lo = mn; *hi = mx; *any = seen; *fills = fill;
}

/* Anchors: every point whose coordinates are all multiples of the stride
 * (on axis 0, within its slab), in index order, stored as they are. Fill and non-finite anchors count as
 * the substitute for prediction and are restored by the fix-up pass. */
void FN(glide_anchors_encode)(const glide_grid *g, const T *x, T *r, uint16_t *sym, T *anc, T subst)
{
    uint64_t B = 1ull << g->blog, k = 0;
    for (uint64_t s = 0; s < g->slabs; s++) /* every slab's rows from its first */
    for (uint64_t z = s * g->slab_rows; z < (s + 1) * g->slab_rows; z += B)
        for (uint64_t y = 0; y < g->n[1]; y += B)
            for (uint64_t xx = 0; xx < g->n[2]; xx += B) {
                size_t i = z * g->st[0] + y * g->st[1] + xx;
                T v = x[i];
                anc[k++] = v;
                int fill = FN(is_fill)(g, v), fin = isfinite(v);
                r[i] = (fill || !fin) ? subst : v;
                sym[i] = fill ? GLIDE_SYM_FILL : !fin ? GLIDE_SYM_OUTLIER : GLIDE_SYM_ZERO;
            }
}

/* The symbol at an anchor is implied by its value; anything else is corrupt. */
size_t FN(glide_anchors_decode)(const glide_grid *g, T *r, const uint16_t *sym, const T *anc, T subst)
{
    uint64_t B = 1ull << g->blog, k = 0;
    for (uint64_t s = 0; s < g->slabs; s++)
    for (uint64_t z = s * g->slab_rows; z < (s + 1) * g->slab_rows; z += B)
        for (uint64_t y = 0; y < g->n[1]; y += B)
            for (uint64_t xx = 0; xx < g->n[2]; xx += B) {
                size_t i = z * g->st[0] + y * g->st[1] + xx;
                T v = anc[k++];
                int fill = FN(is_fill)(g, v), fin = isfinite(v);
                unsigned want = fill ? GLIDE_SYM_FILL : !fin ? GLIDE_SYM_OUTLIER : GLIDE_SYM_ZERO;
                if (sym[i] != want) return GLIDE_ERROR(CORRUPT);
                r[i] = (fill || !fin) ? subst : v;
            }
    return 0;
}

#ifndef GLIDE_POINTS_DEFS
#define GLIDE_POINTS_DEFS
/* The passes over every symbol below look only at outliers and fills, which
 * are rare: they skip GLIDE_SYM_SPAN symbols at a time where none is one,
 * tested four to a 64-bit word: sym >= GLIDE_SYM_OUTLIER (0x3FF) where
 * sym + 1 or sym has a bit of 0xFC00 set (a lane's carry, from sym =
 * 0xFFFF only, can only add a false alarm to the next). Returns the end of
 * the span from i to look at one by one (i where the span holds none). */
#define GLIDE_SYM_SPAN 16
static inline uint64_t glide_special_span(const uint16_t *sym, uint64_t i, uint64_t n)
{
    if (n - i < GLIDE_SYM_SPAN) return n;
    const uint64_t lanes = 0x0001000100010001ull;
    uint64_t any = 0;
    for (unsigned k = 0; k < GLIDE_SYM_SPAN; k += 4) {
        uint64_t v;
        memcpy(&v, sym + i + k, sizeof v);
        any |= (v + lanes) | v;
    }
    return any & 0xFC00 * lanes ? i + GLIDE_SYM_SPAN : i;
}
#endif

uint64_t FN(glide_outliers_gather)(const uint16_t *sym, const T *x, uint64_t n, T *out)
{
    uint64_t k = 0;
    for (uint64_t i = 0; i < n;) {
        const uint64_t e = glide_special_span(sym, i, n);
        if (e == i) { i += GLIDE_SYM_SPAN; continue; }
        for (; i < e; i++)
            if (sym[i] == GLIDE_SYM_OUTLIER) out[k++] = x[i];
    }
    return k;
}

size_t FN(glide_outliers_place)(const glide_grid *g, const uint16_t *sym, uint64_t n, const T *out, uint64_t n_out,
                                T *r, T subst)
{
    uint64_t k = 0;
    for (uint64_t i = 0; i < n;) {
        const uint64_t e = glide_special_span(sym, i, n);
        if (e == i) { i += GLIDE_SYM_SPAN; continue; }
        for (; i < e; i++) {
            if (sym[i] == GLIDE_SYM_FILL && !g->has_fill) return GLIDE_ERROR(CORRUPT);
            if (sym[i] != GLIDE_SYM_OUTLIER) continue;
            if (k == n_out) return GLIDE_ERROR(CORRUPT);
            T v = out[k++];
            r[i] = isfinite(v) ? v : subst;
        }
    }
    return k == n_out ? 0 : GLIDE_ERROR(CORRUPT);
}

void FN(glide_fixup)(const uint16_t *sym, uint64_t n, const T *out, T *r, T fill)
{
    uint64_t k = 0;
    for (uint64_t i = 0; i < n;) {
        const uint64_t e = glide_special_span(sym, i, n);
        if (e == i) { i += GLIDE_SYM_SPAN; continue; }
        for (; i < e; i++) {
            if (sym[i] == GLIDE_SYM_FILL) r[i] = fill;
            else if (sym[i] == GLIDE_SYM_OUTLIER) r[i] = out[k++];
        }
    }
}
