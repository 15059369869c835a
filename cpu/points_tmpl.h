/* Value range, anchors, outliers and the final fix-up pass (templated). */

/* glide_value_range without fill points: lanes of GLIDE_RANGE_LANES points
 * keep their own extremes, in a loop the compiler vectorises. Values that
 * compare equal are the same but for 0 and -0, so an extreme that is zero
 * is then taken from the first zero, as the sequential loop would. */
#define GLIDE_RANGE_LANES 8
static void FN(finite_range)(const T *x, uint64_t n, T *lo, T *hi, int *seen)
{
    T mnl[GLIDE_RANGE_LANES], mxl[GLIDE_RANGE_LANES];
    for (unsigned k = 0; k < GLIDE_RANGE_LANES; k++) mnl[k] = (T)INFINITY, mxl[k] = (T)-INFINITY;
    const uint64_t nv = n - n % GLIDE_RANGE_LANES;
    /* v - v is 0 exactly where v is finite */
#define GLIDE_RANGE_STEP(k, v)                                                                                         \
    do {                                                                                                               \
        const T a = (v) - (v) == 0 ? (v) : (T)INFINITY, c = (v) - (v) == 0 ? (v) : (T)-INFINITY;                       \
        mnl[k] = a < mnl[k] ? a : mnl[k];                                                                              \
        mxl[k] = c > mxl[k] ? c : mxl[k];                                                                              \
    } while (0)
    for (uint64_t i = 0; i < nv; i += GLIDE_RANGE_LANES)
        for (unsigned k = 0; k < GLIDE_RANGE_LANES; k++) GLIDE_RANGE_STEP(k, x[i + k]);
    for (uint64_t i = nv; i < n; i++) GLIDE_RANGE_STEP(i - nv, x[i]);
#undef GLIDE_RANGE_STEP
    T mn = (T)INFINITY, mx = (T)-INFINITY;
    for (unsigned k = 0; k < GLIDE_RANGE_LANES; k++) {
        if (mnl[k] < mn) mn = mnl[k];
        if (mxl[k] > mx) mx = mxl[k];
    }
    *seen = mn <= mx; /* finite values only */
    if (!*seen) mn = mx = 0;
    else if (mn == 0 || mx == 0)
        for (uint64_t i = 0; i < n; i++)
            if (x[i] == 0) {
                if (mn == 0) mn = x[i];
                if (mx == 0) mx = x[i];
                break;
            }
    *lo = mn;
    *hi = mx;
}
#undef GLIDE_RANGE_LANES

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
