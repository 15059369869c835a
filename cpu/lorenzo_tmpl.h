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

static inline __attribute__((always_inline)) void
FN(lorenzo_sweep)(const glide_grid *g, const int encode, const T *x, T *r, uint16_t *sym, double eb, T subst)
{
    const uint64_t M = (1ull << g->blog) - 1;
    const size_t s0 = g->st[0], s1 = g->st[1];
    const T e2 = (T)(2.0 * eb);
    for (uint64_t z = 0; z < g->n[0]; z++)
        for (uint64_t y = 0; y < g->n[1]; y++)
            for (uint64_t xx = 0; xx < g->n[2]; xx++) {
                int pz = (z & M) != 0, py = (y & M) != 0, px = (xx & M) != 0;
                if (!pz && !py && !px) continue; /* anchor */
                size_t i = (size_t)z * s0 + (size_t)y * s1 + (size_t)xx;
                if (encode) {
                    T xv = x[i];
                    if (FN(is_fill)(g, xv)) { sym[i] = GLIDE_SYM_FILL; r[i] = subst; continue; }
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
void FN(glide_lorenzo_estimate)(const glide_grid *g, const T *x, double eb, uint64_t est[2])
{
    const uint64_t B = 1ull << g->blog, M = B - 1;
    const size_t s0 = g->st[0], s1 = g->st[1];
    uint64_t nb[3], k = glide_tune_stride(g, nb), acc = 0, cnt = 0;
    for (uint64_t bz = 0; bz < nb[0]; bz += k)
        for (uint64_t by = 0; by < nb[1]; by += k)
            for (uint64_t bx = 0; bx < nb[2]; bx += k)
                for (uint64_t z = bz * B; z < g->n[0] && z < (bz + 1) * B; z++)
                    for (uint64_t y = by * B; y < g->n[1] && y < (by + 1) * B; y++)
                        for (uint64_t xx = bx * B; xx < g->n[2] && xx < (bx + 1) * B; xx++) {
                            int pz = (z & M) != 0, py = (y & M) != 0, px = (xx & M) != 0;
                            if (!pz && !py && !px) continue;
                            size_t i = (size_t)z * s0 + (size_t)y * s1 + (size_t)xx;
                            T xv = x[i];
                            if (FN(is_fill)(g, xv)) continue;
                            double e = fabs((double)xv - (double)FN(lorenzo_predict)(x, i, s0, s1, pz, py, px));
                            /* the noise of the neighbours this point really has */
                            acc += glide_cost_bits(e, eb, (double)(px + py + pz + px * py + px * pz + py * pz + px * py * pz) * GLIDE_NOISE_LORENZO_PER_NEIGHBOUR);
                            cnt++;
                        }
    est[0] = acc;
    est[1] = cnt;
}
