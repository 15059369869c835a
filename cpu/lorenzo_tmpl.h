/* Lorenzo prediction inside each anchor block (templated). Neighbours
 * outside the point's block count as 0, which gives the 2-D and 1-D
 * predictors on block faces and edges; block corners are the anchors, so
 * blocks are independent. */

static inline T FN(lorenzo_predict)(const T *r, size_t i, size_t s0, size_t s1, int pz, int py, int px)
{
    T p = (px ? r[i - 1] : (T)0) + (py ? r[i - s1] : (T)0);
    p = p + (pz ? r[i - s0] : (T)0);
    p = p - (px && py ? r[i - s1 - 1] : (T)0);
    p = p - (px && pz ? r[i - s0 - 1] : (T)0);
    p = p - (py && pz ? r[i - s0 - s1] : (T)0);
    return p + (px && py && pz ? r[i - s0 - s1 - 1] : (T)0);
}

/* lorenzo_predict on original values as the real pass sees them: a fill
 * neighbour contributes the substitute (the predictor choice's estimate) */
static inline T FN(lorenzo_predict_sub)(const glide_grid *g, const T *x, size_t i, size_t s0, size_t s1, int pz, int py,
                                        int px, T subst)
{
#define GLIDE_LV(j) (FN(is_fill)(g, x[j]) ? subst : x[j])
    T p = (px ? GLIDE_LV(i - 1) : (T)0) + (py ? GLIDE_LV(i - s1) : (T)0);
    p = p + (pz ? GLIDE_LV(i - s0) : (T)0);
    p = p - (px && py ? GLIDE_LV(i - s1 - 1) : (T)0);
    p = p - (px && pz ? GLIDE_LV(i - s0 - 1) : (T)0);
    p = p - (py && pz ? GLIDE_LV(i - s0 - s1) : (T)0);
    return p + (px && py && pz ? GLIDE_LV(i - s0 - s1 - 1) : (T)0);
#undef GLIDE_LV
}

/* One point of the sweep: pz, py, px whether its block holds the
 * neighbour below on axes 0, 1, 2 (not all 0: an anchor). */
static inline __attribute__((always_inline)) void FN(lorenzo_point)(FN(fill_test) ft, const int encode, const T *x, T *r,
                                                                   uint16_t *sym, size_t i, size_t s0, size_t s1, int pz,
                                                                   int py, int px, T e2, double eb, T subst)
{
    if (encode) {
        T xv = x[i];
        if (FN(fill_is)(ft, xv)) { sym[i] = GLIDE_SYM_FILL; r[i] = subst; return; }
        T rv;
        int q = FN(quantize)(xv, FN(lorenzo_predict)(r, i, s0, s1, pz, py, px), e2, eb, &rv);
        if (q >= 0) { sym[i] = (uint16_t)q; r[i] = rv; }
        else { sym[i] = GLIDE_SYM_OUTLIER; r[i] = isfinite(xv) ? xv : subst; }
    } else {
        unsigned sy = sym[i];
        if (sy < GLIDE_NQUANT)
            r[i] = FN(lorenzo_predict)(r, i, s0, s1, pz, py, px) + (T)((int)sy - GLIDE_SYM_ZERO) * e2;
        else if (sy == GLIDE_SYM_FILL)
            r[i] = subst;
    }
}

static inline __attribute__((always_inline)) void
FN(lorenzo_sweep)(const glide_grid *g, const int encode, const T *x, T *r, uint16_t *sym, double eb, T subst)
{
    const uint64_t M = (1ull << g->blog) - 1;
    const size_t s0 = g->st[0], s1 = g->st[1];
    const T e2 = (T)(2.0 * eb);
    /* Each point waits on its left neighbour's reconstruction (a division
     * and a rounding deep), so a row walked left to right is one long
     * dependency chain. Blocks are independent: walking the points of a
     * block in order, each step taken in a group of blocks side by side
     * (all blocks of a row, and enough rows and planes of blocks for about
     * 16 of them), gives the CPU one chain per block to overlap. Every point
     * still sees the same reconstructed neighbours, so the values and
     * symbols are the same in any order. */
    const uint64_t B = M + 1, n0 = g->slab_rows, n1 = g->n[1], n2 = g->n[2];
    const uint64_t nb0 = (n0 + M) / B, nb1 = (n1 + M) / B, nb2 = (n2 + M) / B;
    const FN(fill_test) ft = FN(fill_test_of)(g);
    if (n0 <= B + 1 && n1 <= B + 1 && n2 <= B + 1 && !g->scalar) {
        /* at most one block and a face per axis (the block trial's boxes):
         * one chain whatever the order, so raster order, without the
         * groups' loops */
        for (uint64_t z = 0; z < g->slabs * n0; z++) {
            const int pz = (z % n0 & M) != 0;
            for (uint64_t y = 0; y < n1; y++) {
                const int py = (y & M) != 0;
                const size_t row = (size_t)z * s0 + (size_t)y * s1;
                for (uint64_t xx = 0; xx < n2; xx++) {
                    const int px = (xx & M) != 0;
                    if (pz || py || px) /* else an anchor */
                        FN(lorenzo_point)(ft, encode, x, r, sym, row + (size_t)xx, s0, s1, pz, py, px, e2, eb, subst);
                }
            }
        }
        return;
    }
    /* g1 rows and g0 planes of blocks a group: at least 16 blocks, or all */
    uint64_t g1 = (16 + nb2 - 1) / nb2, g0;
    if (g1 > nb1) g1 = nb1;
    g0 = (16 + nb2 * g1 - 1) / (nb2 * g1);
    if (g0 > nb0) g0 = nb0;
    const uint64_t ex = B < n2 ? B : n2;
    for (uint64_t sl = 0; sl < g->slabs; sl++)
    for (uint64_t zb0 = 0; zb0 < nb0; zb0 += g0)
    for (uint64_t yb0 = 0; yb0 < nb1; yb0 += g1) {
        /* the group's blocks: rows z0 + zl + k B (k < g0) of its slab, y0 + yl + k B (k < g1) */
        const uint64_t z0 = zb0 * B, y0 = yb0 * B;
        const uint64_t ez = B < n0 - z0 ? B : n0 - z0, ey = B < n1 - y0 ? B : n1 - y0;
        const uint64_t zend = z0 + g0 * B < n0 ? z0 + g0 * B : n0, yend = y0 + g1 * B < n1 ? y0 + g1 * B : n1;
        for (uint64_t zl = 0; zl < ez; zl++)
        for (uint64_t yl = 0; yl < ey; yl++)
        for (uint64_t xl = 0; xl < ex; xl++)
        for (uint64_t zs = z0 + zl; zs < zend; zs += B)
        for (uint64_t y = y0 + yl; y < yend; y += B)
            for (uint64_t xx = xl; xx < n2; xx += B) {
                const uint64_t z = sl * n0 + zs;
                int pz = zl != 0, py = yl != 0, px = xl != 0;
                if (!pz && !py && !px) continue; /* anchor */
                FN(lorenzo_point)(ft, encode, x, r, sym, (size_t)z * s0 + (size_t)y * s1 + (size_t)xx, s0, s1, pz, py, px,
                                  e2, eb, subst);
            }
    }
}

void FN(glide_lorenzo_encode)(const glide_grid *g, const T *x, T *r, uint16_t *sym, double eb, T subst)
{
    FN(lorenzo_sweep)(g, 1, x, r, sym, eb, subst);
}

void FN(glide_lorenzo_decode)(const glide_grid *g, T *r, const uint16_t *sym, double eb, T subst)
{
    FN(lorenzo_sweep)(g, 0, NULL, r, (uint16_t *)sym, eb, subst);
}

/* Estimated size under Lorenzo of the same sample blocks as tuning, from the
 * original values (see glide_interp_estimate). */
void FN(glide_lorenzo_estimate)(const glide_grid *g, const T *x, double eb, T subst, uint64_t est[2])
{
    const uint64_t M = (1ull << g->blog) - 1;
    const size_t s0 = g->st[0], s1 = g->st[1], se = glide_slab_elems(g);
    uint64_t acc = 0, cnt = 0, lo[3], hi[3], sl;
    glide_sample_lattice lat;
    glide_sample_lattice_init(g, &lat);
    const T *x0 = x;
    for (uint64_t b = 0; b < lat.count; b++) {
        glide_sample_block(g, &lat, b, lo, hi, &sl); /* in its slab's coordinates */
        x = x0 + sl * se;
        /* the block's own points: its closed box less the upper faces it shares */
        for (uint64_t z = lo[0]; z <= hi[0] && (z == lo[0] || (z & M)); z++)
            for (uint64_t y = lo[1]; y <= hi[1] && (y == lo[1] || (y & M)); y++)
                for (uint64_t xx = lo[2]; xx <= hi[2] && (xx == lo[2] || (xx & M)); xx++) {
                    int pz = (z & M) != 0, py = (y & M) != 0, px = (xx & M) != 0;
                    if (!pz && !py && !px) continue;
                    size_t i = (size_t)z * s0 + (size_t)y * s1 + (size_t)xx;
                    T xv = x[i];
                    if (FN(is_fill)(g, xv)) continue;
                    T pr = g->has_fill ? FN(lorenzo_predict_sub)(g, x, i, s0, s1, pz, py, px, subst)
                                       : FN(lorenzo_predict)(x, i, s0, s1, pz, py, px);
                    double e = fabs((double)xv - (double)pr);
                    acc += glide_cost_bits(e, eb, glide_lorenzo_noise(px, py, pz));
                    cnt++;
                }
    }
    est[0] = acc;
    est[1] = cnt;
}
