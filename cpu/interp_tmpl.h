/* Level-by-level spline interpolation (templated). See docs/FORMAT.md,
 * "Interpolation": the point sets of each level and step, the neighbour
 * rule, and the exact arithmetic. */

/* Prediction along one axis (element stride st) for a point at coordinate c
 * on that axis, level stride s, inside its block's closed box [lo, hi]. */
static inline T FN(interp_predict)(const T *r, size_t i, size_t st, uint64_t c, uint64_t s,
                                   uint64_t lo, uint64_t hi, unsigned spline)
{
    size_t o1 = (size_t)s * st;
    T b = r[i - o1];
    if (c + s > hi) {
        /* past the last anchor: linear extrapolation from two left neighbours */
        if (spline != GLIDE_SPLINE_LINEAR && c >= lo + 3 * s) return b * (T)1.5 - r[i - 3 * o1] * (T)0.5;
        return b;
    }
    T cc = r[i + o1];
    if (spline != GLIDE_SPLINE_LINEAR) {
        int l3 = c >= lo + 3 * s, r3 = c + 3 * s <= hi;
        size_t o3 = 3 * o1;
        if (l3 && r3) {
            T a = r[i - o3], d = r[i + o3];
            if (spline == GLIDE_SPLINE_CUBIC_NAK) return ((b + cc) * (T)9 - (a + d)) * (T)0.0625;
            return ((b + cc) * (T)23 - (a + d) * (T)3) * (T)(1.0 / 40.0);
        }
        if (l3) return (b * (T)6 + cc * (T)3 - r[i - o3]) * (T)0.125;
        if (r3) return (cc * (T)6 + b * (T)3 - r[i + o3]) * (T)0.125;
    }
    return (b + cc) * (T)0.5;
}

#ifndef GLIDE_INTERP_OPS
#define GLIDE_INTERP_OPS
enum { OP_ENCODE, OP_DECODE, OP_ESTIMATE, OP_BITS };
#endif

typedef struct { uint64_t lo[3], hi[3]; } FN(box);

/* One level (stride s) over a closed box of the grid, in the level's axis
 * order. op is a compile-time constant at every call site. */
static inline __attribute__((always_inline)) void
FN(interp_level)(const glide_grid *g, const int op, const T *x, T *r, uint16_t *sym, const FN(box) *bx,
                 uint64_t s, unsigned cfg, T e2, double eb, T subst, uint64_t *est)
{
    unsigned spline = cfg & 3u;
    const uint8_t *ax = glide_order_axes(g->eff_rank, cfg >> 2);
    uint64_t B = 1ull << g->blog;
    uint64_t acc = 0;
    for (unsigned j = 0; j < g->eff_rank; j++) {
        unsigned d = ax[j];
        uint64_t start[3], step[3];
        for (unsigned a = 0; a < 3; a++) {
            int cls = 0; /* 0: multiples of 2s, 1: multiples of s, 2: odd multiples of s */
            if (a == d) cls = 2;
            else
                for (unsigned k = 0; k < j; k++)
                    if (ax[k] == a) cls = 1;
            uint64_t lo = bx->lo[a];
            if (cls == 2) {
                uint64_t c0 = lo / (2 * s) * (2 * s) + s;
                start[a] = c0 < lo ? c0 + 2 * s : c0;
                step[a] = 2 * s;
            } else {
                uint64_t m = cls == 1 ? s : 2 * s;
                start[a] = (lo + m - 1) / m * m;
                step[a] = m;
            }
        }
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
                        T p = FN(interp_predict)(r, i, st, c, s, lo, hi, spline), rv;
                        int q = FN(quantize)(xv, p, e2, eb, &rv);
                        if (q >= 0) { sym[i] = (uint16_t)q; r[i] = rv; }
                        else { sym[i] = GLIDE_SYM_OUTLIER; r[i] = isfinite(xv) ? xv : subst; }
                    } else if (op == OP_DECODE) {
                        unsigned sy = sym[i];
                        if (sy < GLIDE_NQUANT)
                            r[i] = FN(interp_predict)(r, i, st, c, s, lo, hi, spline) + (T)((int)sy - GLIDE_SYM_ZERO) * e2;
                        else if (sy == GLIDE_SYM_FILL)
                            r[i] = subst;
                    } else {
                        T xv = x[i];
                        if (FN(is_fill)(g, xv)) continue;
                        double e = fabs((double)xv - (double)FN(interp_predict)(x, i, st, c, s, lo, hi, spline));
                        /* in OP_ESTIMATE, eb is the cost unit: an integer sum
                         * gives the same choice in any summation order (GPU).
                         * OP_BITS sums glide_cost_bits, eb the bound. */
                        if (op == OP_BITS) { acc += glide_cost_bits(e, eb, GLIDE_NOISE_INTERP); est[1]++; }
                        else if (e < INFINITY) { double q = e / eb; acc += q < 4294967296.0 ? (uint64_t)q : 4294967296ull; }
                    }
                }
    }
    if (op == OP_ESTIMATE || op == OP_BITS) est[0] += acc;
}

static void FN(whole_box)(const glide_grid *g, FN(box) *b)
{
    for (int a = 0; a < 3; a++) { b->lo[a] = 0; b->hi[a] = g->n[a] - 1; }
}

void FN(glide_interp_encode)(const glide_grid *g, const T *x, T *r, uint16_t *sym,
                             const uint8_t *level_cfg, const double *level_eb, double eb, T subst)
{
    FN(box) all;
    FN(whole_box)(g, &all);
    for (unsigned l = g->blog; l >= 1; l--)
        FN(interp_level)(g, OP_ENCODE, x, r, sym, &all, 1ull << (l - 1), level_cfg[l - 1],
                         (T)(2.0 * level_eb[l - 1]), eb, subst, NULL);
}

void FN(glide_interp_decode)(const glide_grid *g, T *r, const uint16_t *sym,
                             const uint8_t *level_cfg, const double *level_eb, T subst)
{
    FN(box) all;
    FN(whole_box)(g, &all);
    for (unsigned l = g->blog; l >= 1; l--)
        FN(interp_level)(g, OP_DECODE, NULL, r, (uint16_t *)sym, &all, 1ull << (l - 1), level_cfg[l - 1],
                         (T)(2.0 * level_eb[l - 1]), 0, subst, NULL);
}

/* Light auto-tuning: per level, the spline then the axis order that predict
 * a lattice of sample blocks best from the original values, the cost being
 * the sum of floor(|error| / unit). Encoder-only: the choice is recorded in
 * the stream. */
void FN(glide_interp_tune)(const glide_grid *g, const T *x, double unit, uint8_t *level_cfg)
{
    FN(box) bx;
    glide_sample_lattice lat;
    glide_sample_lattice_init(g, &lat);
    static const unsigned splines[GLIDE_NSPLINES] = {GLIDE_SPLINE_CUBIC_NAK, GLIDE_SPLINE_LINEAR,
                                                     GLIDE_SPLINE_CUBIC_NATURAL};
    unsigned n_ord = glide_n_orders(g->eff_rank);
    for (unsigned l = g->blog; l >= 1; l--) {
        uint64_t s = 1ull << (l - 1);
        uint64_t best = UINT64_MAX;
        unsigned best_cfg = 0;
        for (unsigned c = 0; c < GLIDE_NSPLINES + n_ord - 1; c++) {
            unsigned cfg = c < GLIDE_NSPLINES ? splines[c] : ((best_cfg & 3u) | ((c - GLIDE_NSPLINES + 1) << 2));
            uint64_t est[2] = {0, 0};
            for (uint64_t b = 0; b < lat.count; b++) {
                glide_sample_block(g, &lat, b, bx.lo, bx.hi);
                FN(interp_level)(g, OP_ESTIMATE, x, NULL, NULL, &bx, s, cfg, 0, unit, 0, est);
            }
            if (est[0] < best) { best = est[0]; best_cfg = cfg; }
        }
        level_cfg[l - 1] = (uint8_t)best_cfg;
    }
}

/* Estimated size of the sample blocks under the tuned interpolation, in
 * glide_cost_bits per point: est[0] the sum, est[1] the points. */
void FN(glide_interp_estimate)(const glide_grid *g, const T *x, const uint8_t *level_cfg, double eb, uint64_t est[2])
{
    est[0] = est[1] = 0;
    FN(box) bx;
    glide_sample_lattice lat;
    glide_sample_lattice_init(g, &lat);
    for (uint64_t b = 0; b < lat.count; b++) {
        glide_sample_block(g, &lat, b, bx.lo, bx.hi);
        for (unsigned l = g->blog; l >= 1; l--)
            FN(interp_level)(g, OP_BITS, x, NULL, NULL, &bx, 1ull << (l - 1), level_cfg[l - 1], 0, eb, 0, est);
    }
}
