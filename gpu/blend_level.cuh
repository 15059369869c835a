/* Blended levels (format 4, cpu/blend_tmpl.h, docs/FORMAT.md §8.4) in the
 * interpolation kernels: one point, one odd-axis set, one level, in a box
 * in shared memory (interp_sh_k) or in global scratch (interp_k). */
#ifndef GLIDE_BLEND_LEVEL_CUH
#define GLIDE_BLEND_LEVEL_CUH
#include "predict_point.cuh"

/* One point of a blended level in interp_sh_k's box (cpu/blend_tmpl.h
 * blend_set, encode or decode): r and sb as there, w the level's residuals
 * (NaN where a point is fill or fell back); lc its box coordinates, lt its
 * element, g0 the chunk element of the box's corner, Rs/Rr its reads
 * (K = 1: Rs of a1; 2: Rs of a2, Rr of a1; 3: Rs of a3, Rr of a1 and a2).
 * keep_d: the points odd on axes 0 and 2, whose w keeps D (bl_closed). */
template <class T, int OP, bool FA, int K>
__device__ __forceinline__ void blend_point(const gg_grid &g, uint64_t g0, const uint32_t lc[3], int lt, T *r, T *w,
                                            uint16_t *sb, const DecodeIn &in, const BRd<int> Rs[3],
                                            const BRd<int> Rr[3], unsigned sp, unsigned rs, T e2, double eb, T subst,
                                            bool keep_d)
{
    T *rp = r + lt, *wp = w + lt;
    const uint16_t *sq = sb + lt;
    auto R = [&](int off) { return rp[off]; };
    auto Wr = [&](int off) { return wp[off]; };
    auto isf = [&](int off) { return sq[off] == GLIDE_SYM_FILL; };
    T rv, wv = (T)NAN, pl;
    bool bl;
    if (OP == OP_ENCODE) {
        const T xv = *rp;
        unsigned sy;
        if (is_fill(g, xv)) {
            sy = GLIDE_SYM_FILL;
            rv = subst;
        } else {
            const T p = bl_closed<T>((unsigned)K, Rs, Rr, sp, rs, FA, subst, R, Wr, isf, bl, pl);
            int q = quantize(xv, p, e2, eb, &rv);
            if (q >= 0) sy = (unsigned)q;
            else {
                sy = GLIDE_SYM_OUTLIER;
                rv = isfinite(xv) ? xv : subst;
            }
            if (keep_d) wv = rv - pl;
            else if (bl) wv = rv - p;
        }
        sb[lt] = (uint16_t)sy;
    } else {
        const unsigned sy = sb[lt];
        if (sy == GLIDE_SYM_FILL) {
            rv = subst;
        } else {
            const T p = bl_closed<T>((unsigned)K, Rs, Rr, sp, rs, FA, subst, R, Wr, isf, bl, pl);
            if (sy < GLIDE_NQUANT) {
                rv = p + (T)((int)sy - GLIDE_SYM_ZERO) * e2;
            } else {
                T v = outlier_at(in, g0 + lc[0] * g.st[0] + lc[1] * g.st[1] + lc[2], subst);
                rv = isfinite(v) ? v : subst;
            }
            if (keep_d) wv = rv - pl;
            else if (bl) wv = rv - p;
        }
    }
    *rp = rv;
    *wp = wv;
}

/* The points of one odd-axis mask (K axes, a1 < .. < aK) of a blended
 * level in interp_sh_k's box, from its plan P. K and FA are constants of
 * each instance, and only the reads the phase uses are set, which keeps
 * the registers down. */
template <class T, int OP, int NT, bool FA, int K, bool MG>
__device__ __forceinline__ void blend_set_sh(const gg_grid &g, uint64_t g0, const int ri[3], T *r, T *w, uint16_t *sb,
                                             const DecodeIn &in, unsigned ls, const SPlan &P, unsigned sp, unsigned rs,
                                             T e2, double eb, T subst, uint32_t t0, uint32_t sub)
{
    const uint32_t s = 1u << ls;
    const bool keep_d = P.mask == 5u;
    const LStep S = P.S;
    unsigned ax[3];
    int o[3];
    uint32_t hi[3];
#pragma unroll
    for (int j = 0; j < K; j++) {
        ax[j] = P.ax[j];
        o[j] = P.o[j];
        hi[j] = P.hi[j];
    }
    for (uint32_t t = t0; t < S.total; t += NT) {
        uint32_t lc[3];
        lstep_point(S, t, lc);
        const int lt = (int)(lc[0] * ri[0] + lc[1] * ri[1] + lc[2]);
        BRd<int> Rs[3], Rr[3];
        uint32_t blo, bhi;
        sub_bounds<MG>(pick3(lc, ax[K - 1]), hi[K - 1], sub, blo, bhi);
        Rs[K - 1] = brd_make(o[K - 1], pick3(lc, ax[K - 1]), s, blo, bhi, sp);
        if (K >= 2) {
            sub_bounds<MG>(pick3(lc, ax[0]), hi[0], sub, blo, bhi);
            Rr[0] = brd_make(o[0], pick3(lc, ax[0]), s, blo, bhi, rs);
        }
        if (K == 3) {
            sub_bounds<MG>(pick3(lc, ax[1]), hi[1], sub, blo, bhi);
            Rr[1] = brd_make(o[1], pick3(lc, ax[1]), s, blo, bhi, rs);
        }
        blend_point<T, OP, FA, K>(g, g0, lc, lt, r, w, sb, in, Rs, Rr, sp, rs, e2, eb, subst, keep_d);
    }
}

/* The finest two levels of a full box (3-D, anchor stride 16: 17^3), not
 * fill-aware: about 97 % of a chunk's points at the default stride. Each
 * set's lattice, strides and read offsets are constants here (mask M,
 * level stride 2^LS), so its points' coordinates come from constant
 * divisions, the stencils read at immediate offsets, and no plan is
 * loaded (about a quarter of the generic loop's instructions by ncu's
 * source counters, H100, 256^3; the kernel gained 3 %, since it waits on
 * its shared-memory chains and barriers about as much as it issues). The
 * same points, stencils and barriers as blend_set_sh, so the same bits.
 * SEG0: the points of the phase's earlier sets (the phase is one index
 * space for the threads). */
constexpr unsigned kFullBlog = 4, kFullE = (1u << kFullBlog) + 1; /* the full box's stride and edge */
__host__ __device__ constexpr unsigned mask_bits(unsigned m) { return (m & 1u) + (m >> 1 & 1u) + (m >> 2 & 1u); }
/* the j-th set axis of m, ascending */
__host__ __device__ constexpr unsigned mask_axis(unsigned m, unsigned j)
{
    return j == 0 ? ((m & 1u) ? 0u : (m & 2u) ? 1u : 2u) : mask_axis(m & (m - 1u), j - 1);
}
__host__ __device__ constexpr uint32_t full_cnt(unsigned m, unsigned a, int ls)
{
    return (((m >> a & 1u) ? kFullE - 1u - (1u << ls) : kFullE - 1u) >> (ls + 1)) + 1u;
}
__host__ __device__ constexpr uint32_t full_total(unsigned m, int ls)
{
    return full_cnt(m, 0, ls) * full_cnt(m, 1, ls) * full_cnt(m, 2, ls);
}

template <class T, int OP, int NT, int LS, unsigned M, uint32_t SEG0>
__device__ __forceinline__ void blend_set_full(const gg_grid &g, uint64_t g0, T *r, T *w, uint16_t *sb,
                                               const DecodeIn &in, unsigned sp, unsigned rs, T e2, double eb, T subst)
{
    constexpr int K = (int)mask_bits(M);
    constexpr uint32_t S = 1u << LS, HI = kFullE - 1, C1 = full_cnt(M, 1, LS), C2 = full_cnt(M, 2, LS);
    constexpr uint32_t TOTAL = full_total(M, LS);
    constexpr uint32_t ST0 = (M & 1u) ? S : 0u, ST1 = (M & 2u) ? S : 0u, ST2 = (M & 4u) ? S : 0u;
    constexpr unsigned A0 = mask_axis(M, 0), A1 = K >= 2 ? mask_axis(M, 1) : 0u, A2 = K == 3 ? mask_axis(M, 2) : 0u;
    constexpr int O[3] = {(int)(S * kFullE * kFullE), (int)(S * kFullE), (int)S};
    const uint32_t t0 = (threadIdx.x + NT - SEG0 % NT) % NT;
#pragma unroll 1
    for (uint32_t t = t0; t < TOTAL; t += NT) {
        const uint32_t u = t / C2;
        const uint32_t lc[3] = {ST0 + ((u / C1) << (LS + 1)), ST1 + ((u % C1) << (LS + 1)), ST2 + ((t % C2) << (LS + 1))};
        const int lt = (int)(lc[0] * (kFullE * kFullE) + lc[1] * kFullE + lc[2]);
        BRd<int> Rs[3], Rr[3];
        constexpr unsigned AL = K == 1 ? A0 : K == 2 ? A1 : A2;
        Rs[K - 1] = brd_make(O[AL], lc[AL], S, 0u, HI, sp);
        if (K >= 2) Rr[0] = brd_make(O[A0], lc[A0], S, 0u, HI, rs);
        if (K == 3) Rr[1] = brd_make(O[A1], lc[A1], S, 0u, HI, rs);
        blend_point<T, OP, false, K>(g, g0, lc, lt, r, w, sb, in, Rs, Rr, sp, rs, e2, eb, subst, M == 5u);
    }
}

template <class T, int OP, int NT, int LS>
__device__ __forceinline__ void blend_level_full(const gg_grid &g, uint64_t g0, T *r, T *w, uint16_t *sb,
                                                 const DecodeIn &in, unsigned sp, unsigned rs, T e2, double eb,
                                                 T subst)
{
    constexpr uint32_t P1 = full_total(1, LS), P2 = full_total(3, LS); /* a set of phase 1, of phase 2 */
    blend_set_full<T, OP, NT, LS, 1, 0>(g, g0, r, w, sb, in, sp, rs, e2, eb, subst);
    blend_set_full<T, OP, NT, LS, 2, P1>(g, g0, r, w, sb, in, sp, rs, e2, eb, subst);
    blend_set_full<T, OP, NT, LS, 4, 2 * P1>(g, g0, r, w, sb, in, sp, rs, e2, eb, subst);
    __syncthreads();
    blend_set_full<T, OP, NT, LS, 3, 0>(g, g0, r, w, sb, in, sp, rs, e2, eb, subst);
    blend_set_full<T, OP, NT, LS, 5, P2>(g, g0, r, w, sb, in, sp, rs, e2, eb, subst);
    blend_set_full<T, OP, NT, LS, 6, 2 * P2>(g, g0, r, w, sb, in, sp, rs, e2, eb, subst);
    __syncthreads();
    blend_set_full<T, OP, NT, LS, 7, 0>(g, g0, r, w, sb, in, sp, rs, e2, eb, subst);
    __syncthreads();
}

/* One blended level (cpu/blend_tmpl.h blend_level) in interp_sh_k's box,
 * phase by phase, a barrier after each; pl: the level's sets (splan_make). */
template <class T, int OP, int NT, bool FA, bool MG>
__device__ __forceinline__ void blend_level_sh(const gg_grid &g, uint64_t g0, const int ri[3], T *r, T *w,
                                               uint16_t *sb, const DecodeIn &in, unsigned ls, const SPlan *pl,
                                               unsigned cfg, T e2, double eb, T subst, bool full, uint32_t sub)
{
    const unsigned sp = cfg & 3u, rs = blend_rs(g.eff_rank, cfg);
    if (!FA && full && ls <= 1) {
        if (ls == 0) blend_level_full<T, OP, NT, 0>(g, g0, r, w, sb, in, sp, rs, e2, eb, subst);
        else blend_level_full<T, OP, NT, 1>(g, g0, r, w, sb, in, sp, rs, e2, eb, subst);
        return;
    }
    const unsigned nsets = blend_nsets(g.eff_rank);
    for (unsigned m = 0; m < nsets; m++) {
        const SPlan &P = pl[m];
        const unsigned kk = P.k;
        const uint32_t t0 = (threadIdx.x + NT - P.t0) % NT;
        if (kk == 1) blend_set_sh<T, OP, NT, FA, 1, MG>(g, g0, ri, r, w, sb, in, ls, P, sp, rs, e2, eb, subst, t0, sub);
        else if (kk == 2)
            blend_set_sh<T, OP, NT, FA, 2, MG>(g, g0, ri, r, w, sb, in, ls, P, sp, rs, e2, eb, subst, t0, sub);
        else blend_set_sh<T, OP, NT, FA, 3, MG>(g, g0, ri, r, w, sb, in, ls, P, sp, rs, e2, eb, subst, t0, sub);
        if (P.end) __syncthreads();
    }
}

/* blend_level_sh in interp_k's global scratch (grid strides: r and w at
 * the points' own indices; shared faces are written by both blocks, with
 * the same values, as r is). */
template <class T, int OP>
__device__ __forceinline__ void blend_level_glob(const gg_grid &g, const Box &bx, const T *x, uint16_t *sym,
                                                 const DecodeIn &in, T *y, unsigned *hist, T *r, T *w, uint64_t s,
                                                 unsigned cfg, T e2, double eb, T subst, bool fa)
{
    const uint64_t B = 1ull << g.blog;
    const unsigned sp = cfg & 3u, rs = blend_rs(g.eff_rank, cfg);
    const unsigned nsets = blend_nsets(g.eff_rank);
    const long long gst[3] = {(long long)g.st[0], (long long)g.st[1], 1};
    for (unsigned m = 0; m < nsets; m++) {
        const unsigned mask = blend_set(g.eff_rank, m), kk = (unsigned)__popc(mask);
        const bool keep_d = mask == 5u; /* bl_closed: w keeps D there */
        Step S;
        set_make(S, bx, s, mask);
        unsigned ax[3];
        mask_axes(mask, ax);
        long long o[3];
        uint64_t lo[3], hi[3];
        for (int j = 0; j < 3; j++) {
            o[j] = (long long)s * pick3(gst, ax[j]);
            lo[j] = pick3(bx.lo, ax[j]);
            hi[j] = pick3(bx.hi, ax[j]);
        }
        for (uint32_t t = threadIdx.x; t < S.total; t += blockDim.x) {
            uint64_t c[3];
            step_point(S, t, c);
            const uint64_t i = c[0] * g.st[0] + c[1] * g.st[1] + c[2];
            const bool owned = c[0] < bx.lo[0] + B && c[1] < bx.lo[1] + B && c[2] < bx.lo[2] + B;
            BRd<long long> Rs[3], Rr[3];
#pragma unroll
            for (int j = 0; j < 3; j++) {
                const uint64_t cj = pick3(c, ax[j]);
                Rs[j] = brd_make(o[j], cj, s, lo[j], hi[j], sp);
                Rr[j] = brd_make(o[j], cj, s, lo[j], hi[j], rs);
            }
            T *rp = r + i, *wp = w + i;
            auto R = [&](long long off) { return rp[off]; };
            auto Wr = [&](long long off) { return wp[off]; };
            auto isf = [&](long long off) {
                return OP == OP_ENCODE ? is_fill(g, x[(long long)i + off]) : in.sym[(long long)i + off] == GLIDE_SYM_FILL;
            };
            const bool fill = OP == OP_ENCODE ? is_fill(g, x[i]) : in.sym[i] == GLIDE_SYM_FILL;
            bool bl = false;
            T pred = (T)0, pl = (T)0;
            if (!fill) pred = bl_closed<T>(kk, Rs, Rr, sp, rs, fa, subst, R, Wr, isf, bl, pl);
            visit<T, OP>(g, x, sym, in, y, hist, i, owned, pred, e2, eb, subst, rp);
            *wp = fill ? (T)NAN : keep_d ? *rp - pl : bl ? *rp - pred : (T)NAN;
        }
        if (m + 1 == nsets || (unsigned)__popc(blend_set(g.eff_rank, m + 1)) != kk) __syncthreads(); /* end of a phase */
    }
}

#endif
