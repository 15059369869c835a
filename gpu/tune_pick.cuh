/* Tuning's and the predictor choice's picks and their view of a sample
 * box, shared by tune.cu (tune_k, choose_k) and blend_cost.cu (the blends'
 * costs), whose last blocks to finish pick (static: each file its own
 * copy, as the library builds without relocatable device code). */
#ifndef GLIDE_TUNE_PICK_CUH
#define GLIDE_TUNE_PICK_CUH
#include "predict_box.cuh"

/* cpu/interp_tmpl.h glide_interp_tune's choice: per level the best spline
 * (first minimum in the order NAK, linear, natural) with order 0, then the
 * best order with that spline. Run by the last block of tune_k to finish. */
static __device__ void tune_pick(const gg_grid &g, gg_state *st)
{
    __shared__ unsigned long long cost[GLIDE_MAX_LEVELS][GG_MAX_CFG];
    const volatile unsigned long long *src = (const volatile unsigned long long *)&st->cost[0][0];
    for (unsigned t = threadIdx.x; t < GLIDE_MAX_LEVELS * GG_MAX_CFG; t += blockDim.x) (&cost[0][0])[t] = src[t];
    __syncthreads();
    if (threadIdx.x) return;
    unsigned n_ord = g.eff_rank == 3 ? 6 : g.eff_rank == 2 ? 2 : 1;
    for (unsigned l = g.blog; l >= 1; l--) {
        unsigned long long best = ~0ull;
        unsigned best_cfg = 0, best_si = 0;
        for (unsigned c = 0; c < GLIDE_NSPLINES + n_ord - 1; c++) {
            unsigned cfg, idx;
            if (c < GLIDE_NSPLINES) {
                cfg = c_splines[c];
                idx = c;
            } else {
                unsigned o = c - GLIDE_NSPLINES + 1;
                cfg = (best_cfg & 3u) | (o << 2);
                idx = o * GLIDE_NSPLINES + best_si;
            }
            unsigned long long est = cost[l - 1][idx];
            if (est < best) {
                best = est;
                best_cfg = cfg;
                if (c < GLIDE_NSPLINES) best_si = c;
            }
        }
        st->lv.level_cfg[l - 1] = (uint8_t)best_cfg;
    }
}

/* Format 4 (FORMAT.md §11.2 "Blending", cpu/interp_tmpl.h glide_interp_tune):
 * per level, the blends with the chosen spline, (best & 3) | (n_orders << 2)
 * then (best & 3) | ((n_orders + 1) << 2), each taken only if its cost is
 * strictly below the best so far. With the linear spline both are the same
 * prediction (rs = sp = 0), so the second never wins and is not costed.
 * bits: GLIDE_PRED_AUTO, whose interpolation estimate takes the chosen
 * blend's sums here (choose_k skips blended levels). Run by the last block
 * of blend_k to finish. */
static __device__ void blend_pick(const gg_grid &g, bool bits, gg_state *st)
{
    if (threadIdx.x) return;
    const unsigned n_ord = g.eff_rank == 3 ? 6 : 2;
    const volatile unsigned long long *bc = (const volatile unsigned long long *)&st->bcost[0][0];
    const volatile unsigned long long *bb = (const volatile unsigned long long *)&st->bbits[0][0];
    const volatile unsigned long long *bp = (const volatile unsigned long long *)&st->bpts[0];
    uint32_t any = 0;
    unsigned long long add_bits = 0, add_pts = 0;
    for (unsigned l = g.blog; l >= 1; l--) {
        const unsigned sp = st->lv.level_cfg[l - 1] & 3u;
        /* tune_pick's best: the cost of the chosen cfg (index order * 3 + spline index of c_splines) */
        const unsigned si = sp == GLIDE_SPLINE_CUBIC_NAK ? 0 : sp == GLIDE_SPLINE_LINEAR ? 1 : 2;
        unsigned long long best = *(const volatile unsigned long long *)&st->cost[l - 1][(st->lv.level_cfg[l - 1] >> 2) * GLIDE_NSPLINES + si];
        int ch = -1;
        for (unsigned v = 0; v < GLIDE_NBLENDS; v++) {
            if (v == GLIDE_BLEND_LINEAR_R && sp == GLIDE_SPLINE_LINEAR) break;
            const unsigned long long c = bc[(l - 1) * GLIDE_NBLENDS + v];
            if (c < best) {
                best = c;
                ch = (int)v;
            }
        }
        if (ch < 0) continue;
        st->lv.level_cfg[l - 1] = (uint8_t)(sp | ((n_ord + (unsigned)ch) << 2));
        any = 1;
        add_bits += bb[(l - 1) * GLIDE_NBLENDS + ch];
        add_pts += bp[l - 1];
    }
    st->lv.blended = any;
    if (bits) { /* choose_k adds the other levels' after this */
        st->est[0][0] += add_bits;
        st->est[0][1] += add_pts;
    }
}

/* blend_pick where blend_w_k costed the blends for every spline beside
 * tune_k (GG_BLEND_SPEC): the chosen spline's sums first. Run by the last
 * block of the two grids, after tune_pick. */
static __device__ void blend_pick_spec(const gg_grid &g, bool bits, gg_state *st)
{
    if (threadIdx.x) return;
    const volatile uint8_t *cfg = (const volatile uint8_t *)st->lv.level_cfg;
    const volatile unsigned long long *sc = (const volatile unsigned long long *)&st->scost[0][0][0];
    const volatile unsigned long long *sb = (const volatile unsigned long long *)&st->sbits[0][0][0];
    const volatile unsigned long long *sp_ = (const volatile unsigned long long *)&st->spts[0][0];
    for (unsigned l = g.blog; l >= 1; l--) {
        const unsigned sp = cfg[l - 1] & 3u;
        const unsigned si = sp == GLIDE_SPLINE_CUBIC_NAK ? 0 : sp == GLIDE_SPLINE_LINEAR ? 1 : 2;
        for (unsigned v = 0; v < GLIDE_NBLENDS; v++) {
            const unsigned i = ((l - 1) * GLIDE_NSPLINES + si) * GLIDE_NBLENDS + v;
            st->bcost[l - 1][v] = sc[i];
            st->bbits[l - 1][v] = sb[i];
        }
        st->bpts[l - 1] = sp_[(l - 1) * GLIDE_NSPLINES + si];
    }
    blend_pick(g, bits, st);
}

/* choose_k's and blend_k's view of a sample box: its values at base with
 * element strides rs, the grid's, or the box's once SH has read the box
 * into shared memory (every block of a box reads it whole); e gets the
 * box's extents. */
template <class T, bool SH>
__device__ __forceinline__ const T *sample_view(const T *x, const gg_grid &g, const Box &bx, uint32_t e[3],
                                                unsigned char *smem, long long rs[3])
{
    const uint32_t E = box_ext(bx, e);
    const T *base = x + (bx.lo[0] * g.st[0] + bx.lo[1] * g.st[1] + bx.lo[2]);
    rs[0] = (long long)g.st[0];
    rs[1] = (long long)g.st[1];
    rs[2] = 1;
    if (SH) {
        T *sb = (T *)smem;
        const Walk W = walk_make(e[1], e[2], E);
        box_gather(sb, E, blockDim.x, [&](uint32_t t) {
            uint32_t lx, ly, lz;
            walk_point(W, t, lz, ly, lx);
            return base[lz * rs[0] + ly * rs[1] + lx];
        });
        __syncthreads();
        base = sb;
        rs[0] = (long long)e[1] * e[2];
        rs[1] = e[2];
    }
    return base;
}

#endif
