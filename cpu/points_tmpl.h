/* Value range, anchors, outliers and the final fix-up pass (templated). */

void FN(glide_value_range)(const glide_grid *g, const T *x, double *lo, double *hi, int *any, int *fills)
{
    T mn = 0, mx = 0;
    int seen = 0, fill = 0;
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

uint64_t FN(glide_outliers_gather)(const uint16_t *sym, const T *x, uint64_t n, T *out)
{
    uint64_t k = 0;
    for (uint64_t i = 0; i < n; i++)
        if (sym[i] == GLIDE_SYM_OUTLIER) out[k++] = x[i];
    return k;
}

size_t FN(glide_outliers_place)(const glide_grid *g, const uint16_t *sym, uint64_t n, const T *out, uint64_t n_out,
                                T *r, T subst)
{
    uint64_t k = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (sym[i] == GLIDE_SYM_FILL && !g->has_fill) return GLIDE_ERROR(CORRUPT);
        if (sym[i] != GLIDE_SYM_OUTLIER) continue;
        if (k == n_out) return GLIDE_ERROR(CORRUPT);
        T v = out[k++];
        r[i] = isfinite(v) ? v : subst;
    }
    return k == n_out ? 0 : GLIDE_ERROR(CORRUPT);
}

void FN(glide_fixup)(const uint16_t *sym, uint64_t n, const T *out, T *r, T fill)
{
    uint64_t k = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (sym[i] == GLIDE_SYM_FILL) r[i] = fill;
        else if (sym[i] == GLIDE_SYM_OUTLIER) r[i] = out[k++];
    }
}
