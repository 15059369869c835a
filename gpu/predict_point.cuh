/* What the encode and decode kernels of every method share: the decoder's
 * inputs (DecodeIn) and outliers, the visit of one point, the histograms,
 * and a blended level's per-set plans (SPlan). */
#ifndef GLIDE_PREDICT_POINT_CUH
#define GLIDE_PREDICT_POINT_CUH
#include "predict_box.cuh"

/* omask, opre: gg_outlier_scan's ranks (outlier_at) */
/* omask, opre: gg_outlier_scan's ranks (outlier_at) */
struct DecodeIn {
    const uint16_t *sym;
    const uint32_t *omask, *opre;
    const uint8_t *anchors, *outliers;
    uint64_t n_outliers;
    uint32_t *err;
    /* the coarse kernel of a split interpolation (interp_sh_k PART_COARSE),
     * decoding or encoding: its point indices are the even lattice's
     * (strides hst); the chunk's own (strides fst) rank outliers and place
     * its loads */
    uint64_t hst0, hst1, fst0, fst1;
    uint32_t half;
};

/* Point gi's exact value from the outlier section (its index: the count of
 * OUTLIER symbols before it, from its word's count before it and the word's
 * OUTLIER bits below its own); a stream with too few outliers is corrupt. */
template <class T> __device__ __forceinline__ T outlier_at(const DecodeIn &in, uint64_t gi, T subst)
{
    if (in.half) {
        const uint64_t z = gi / in.hst0, rz = gi - z * in.hst0, y = rz / in.hst1;
        gi = 2 * (z * in.fst0 + y * in.fst1 + (rz - y * in.hst1));
    }
    const uint64_t wd = gi >> 5;
    uint32_t k = in.n_outliers ? in.opre[wd] + (uint32_t)__popc(in.omask[wd] & ((1u << (gi & 31u)) - 1u)) : 0;
    if (k < in.n_outliers) return load_le<T>(in.outliers + (uint64_t)k * sizeof(T));
    *in.err = GG_ERR_CORRUPT;
    return subst;
}


template <class T, int OP>
__device__ __forceinline__ void visit(const gg_grid &g, const T *x, uint16_t *sym, const DecodeIn &in, T *y,
                                      unsigned *hist, uint64_t i, bool owned, T pred, T e2, double eb, T subst,
                                      T *r)
{
    if (OP == OP_ENCODE) {
        T xv = x[i], rv;
        unsigned sy;
        if (is_fill(g, xv)) {
            sy = GLIDE_SYM_FILL;
            rv = subst;
        } else {
            int q = quantize(xv, pred, e2, eb, &rv);
            if (q >= 0) sy = (unsigned)q;
            else {
                sy = GLIDE_SYM_OUTLIER;
                rv = isfinite(xv) ? xv : subst;
            }
        }
        *r = rv;
        if (owned) {
            sym[i] = (uint16_t)sy;
            atomicAdd(&hist[sy], 1u);
        }
    } else {
        unsigned sy = in.sym[i];
        T rv, out;
        if (sy < GLIDE_NQUANT) {
            rv = out = pred + (T)((int)sy - GLIDE_SYM_ZERO) * e2;
        } else if (sy == GLIDE_SYM_FILL) {
            if (!g.has_fill) *in.err = GG_ERR_CORRUPT;
            rv = subst;
            out = Bits<T>::from((typename Bits<T>::U)g.fill_bits);
        } else {
            out = outlier_at(in, i, subst);
            rv = isfinite(out) ? out : subst;
        }
        *r = rv;
        if (owned) y[i] = out;
    }
}

/* Decoding, FORMAT.md §7 steps 1-2: an anchor's prediction value is its
 * anchor-section value, except that an OUTLIER point's comes from the
 * outlier section (the two agree in every encoder-made stream). */
template <class T>
__device__ __forceinline__ T anchor_r(const DecodeIn &in, uint64_t gi, unsigned want, T v, T subst)
{
    if (want != GLIDE_SYM_OUTLIER) return want == GLIDE_SYM_FILL ? subst : v;
    T o = outlier_at(in, gi, subst);
    return isfinite(o) ? o : subst;
}

/* Counts a symbol in a shared histogram, one atomic per distinct symbol of
 * the warp: most points of a chunk share the zero symbol. */
__device__ __forceinline__ void hist_add(unsigned *hist, unsigned sy)
{
    unsigned peers = __match_any_sync(__activemask(), sy);
    if ((threadIdx.x & 31) == (unsigned)(__ffs(peers) - 1)) atomicAdd(&hist[sy], (unsigned)__popc(peers));
}

/* Plane 0's points (every coordinate even) of a box a commit kernel has
 * just stored, counted again from its symbols into hist (its own counts
 * already flushed) and flushed to h0: base is the box's corner (even
 * coordinates: one slab, boxes of an even edge, as hist0_of asks), n0..n2
 * the owned points along each axis. The commit after a speculating
 * trial's pick then leaves no chunk for hist0_k, which the front no
 * longer queues where every kernel that can store the symbols counts
 * plane 0 (gg_encode_counts_hist0). hist0_made = 2 tells the tests it was a
 * commit. */
__device__ __forceinline__ void box_hist0(const uint16_t *sym, uint64_t base, uint64_t s0, uint64_t s1, uint32_t n0,
                                       uint32_t n1, uint32_t n2, unsigned *hist, unsigned long long *h0, gg_state *st)
{
    __syncthreads(); /* the box's symbols stored, its own counts flushed */
    for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x) hist[t] = 0;
    __syncthreads();
    const uint32_t hz = (n0 + 1) / 2, hy = (n1 + 1) / 2, hx = (n2 + 1) / 2, hn = hz * hy * hx;
    for (uint32_t t = threadIdx.x; t < hn; t += blockDim.x) {
        const uint32_t c = t % hx, u = t / hx, b = u % hy, a = u / hy;
        hist_add(hist, sym[base + 2 * a * s0 + 2 * b * s1 + 2 * c]);
    }
    __syncthreads();
    for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x)
        if (hist[t]) atomicAdd(h0 + t, (unsigned long long)hist[t]);
    if (threadIdx.x == 0) st->hist0_made = 2;
}

/* One step (plain level: step j) or point set (blended level: mask m) of
 * a level in interp_sh_k's box, set up once per block by one thread: a
 * thread owns about 16 points of a 17^3 box over all levels, and set-up
 * done by every thread for every step and set (lattice counts, divisors,
 * the phase's start offset) cost about a third of the kernel's
 * instructions (ncu, H200, 256^3). o, hi, ax: per odd axis j (a plain
 * step: its axis at j = 0); t0: the thread whose turn the set's first
 * point is (a phase's sets are one index space, so each starts where the
 * last one's threads left off); k: odd axes; end: last set of a phase. */
struct SPlan {
    LStep S;
    int o[3];
    uint32_t hi[3], ax[3], t0, mask, k, end;
};
#define GG_PLAN_MAX 7 /* entries per level: the 7 odd-axis masks of a 3-D blended level */

/* entry i of a blended level of stride 2^ls: its odd-axis mask's set
 * (threads i < blend_nsets call it) */
template <int NT>
__device__ __forceinline__ void splan_set(const gg_grid &g, const uint32_t e[3], const int ri[3], unsigned ls, unsigned i,
                                          SPlan &P)
{
    const int s = 1 << ls;
    const unsigned nsets = blend_nsets(g.eff_rank);
    if (i >= nsets) return;
    const unsigned mask = blend_set(g.eff_rank, i), k = (unsigned)__popc(mask);
    lset_make<true>(P.S, e, ls, mask);
    unsigned ax[3];
    mask_axes(mask, ax);
    for (unsigned j = 0; j < 3; j++) {
        P.ax[j] = ax[j];
        P.o[j] = j < k ? s * ri[ax[j]] : 0;
        P.hi[j] = j < k ? e[ax[j]] - 1 : 0;
    }
    uint32_t seg0 = 0; /* the points of the phase's earlier sets */
    for (unsigned m = 0; m < i; m++) {
        const unsigned mm = blend_set(g.eff_rank, m);
        if ((unsigned)__popc(mm) != k) continue;
        uint32_t cnt = 1;
        for (unsigned a = 0; a < 3; a++) {
            const uint32_t st = (mm >> a & 1u) ? (uint32_t)s : 0u, last = e[a] - 1;
            cnt *= st <= last ? ((last - st) >> (ls + 1)) + 1 : 0;
        }
        seg0 += cnt;
    }
    P.t0 = seg0 % NT;
    P.mask = mask;
    P.k = k;
    P.end = i + 1 == nsets || (unsigned)__popc(blend_set(g.eff_rank, i + 1)) != k;
}

/* entry i of level l (1-based: stride 2^(l-1)); threads i < the level's
 * entry count call it. loff: the chunk's level of the box's first (1 in
 * the coarse kernel of a split interpolation, whose box is the even
 * lattice's, every level one finer than the chunk's) */
template <int NT, bool BL>
__device__ __forceinline__ void splan_make(const gg_grid &g, const gg_levels *lv, const uint32_t e[3], const int ri[3],
                                           unsigned l, unsigned i, SPlan &P, unsigned loff = 0)
{
    const unsigned ls = l - 1, cfg = lv->level_cfg[ls + loff];
    const int s = 1 << ls;
    if (BL && cfg_blended(g.eff_rank, cfg)) {
        splan_set<NT>(g, e, ri, ls, i, P);
    } else {
        if (i >= g.eff_rank) return;
        const uint8_t *ax = c_axes[g.eff_rank - 1][cfg >> 2];
        lstep_make<true>(P.S, e, ls, ax, i);
        const unsigned d = ax[i];
        P.ax[0] = d;
        P.o[0] = s * ri[d];
        P.hi[0] = e[d] - 1;
        P.t0 = 0;
        P.mask = P.k = 0;
        P.end = 1;
    }
}

#endif
