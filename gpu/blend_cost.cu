/* Stage 2 of the encoder, format 4: the costs of blending each level
 * (cpu/blend_tmpl.h OP_TUNE / OP_BITS) on the sample lattice, after
 * tune_k's splines or beside it (GG_BLEND_SPEC), and the pick (blend_pick,
 * tune_pick.cuh) by the last block. blend_k costs the open loop from the
 * values in place; blend_w_k keeps the box and the residuals in shared
 * memory. */
#include "predict_launch.cuh"
#include "tune_pick.cuh"

/* blend_k's points of one odd-axis mask (K axes): both blends' open-loop
 * costs (only one where the level's spline is linear: then both blends
 * are one), only the reads the phase uses set, as in blend_set_sh. seg0
 * advances by the set's points. */
template <class T, bool BITS, int K, bool FA>
__device__ __forceinline__ void blend_cost_set(const gg_grid &g, const T *base, const long long rs[3],
                                               const uint32_t e[3], unsigned ls, unsigned mask, unsigned sp, bool two,
                                               double unit, double eb, T subst, uint32_t t1, uint32_t dt,
                                               unsigned long long acc[GLIDE_NBLENDS],
                                               unsigned long long bits[GLIDE_NBLENDS], unsigned long long &pts,
                                               uint32_t &seg0)
{
    const uint32_t s = 1u << ls;
    const double n2 = glide_blend_noise((unsigned)K);
    LStep S;
    lset_make(S, e, ls, mask);
    unsigned ax[3];
    mask_axes(mask, ax);
    long long o[3];
    uint32_t hi[3];
#pragma unroll
    for (int j = 0; j < K; j++) {
        o[j] = (long long)s * pick3(rs, ax[j]);
        hi[j] = pick3(e, ax[j]) - 1;
    }
    auto term = [&](T xv, T pr, unsigned v) {
        const double err = fabs((double)xv - (double)pr);
        if (err < INFINITY) {
            const double q = err / unit;
            acc[v] += q < 4294967296.0 ? (unsigned long long)q : 4294967296ull;
        }
        if (BITS) bits[v] += glide_cost_bits(err, eb, n2);
    };
    for (uint32_t t = t1; t < S.total; t += dt) {
        uint32_t lc[3];
        lstep_point(S, t, lc);
        const T *p = base + (lc[0] * rs[0] + lc[1] * rs[1] + lc[2]);
        const T xv = *p;
        if (is_fill(g, xv)) continue;
        /* bl_open reads Rs of the last axis, and Rs (phase 3) and Rr of
         * the earlier ones: with rs = sp those are Rs */
        BRd<long long> Rs[3], Rl[3];
#pragma unroll
        for (int j = 0; j < K; j++) {
            const uint32_t c = pick3(lc, ax[j]);
            Rs[j] = brd_make(o[j], c, s, 0u, hi[j], sp);
            if (K > 1 && j < K - 1) Rl[j] = brd_make(o[j], c, s, 0u, hi[j], (unsigned)GLIDE_SPLINE_LINEAR);
        }
        auto X = [&](long long off) { return p[off]; };
        auto isf = [&](long long off) { return is_fill(g, p[off]); };
        const T p0 = bl_open<T>((unsigned)K, Rs, Rs, sp, sp, FA, subst, X, isf);
        term(xv, p0, GLIDE_BLEND_SPLINE_R);
        if (two) {
            const T p1 = K == 1 ? p0 : bl_open<T>((unsigned)K, Rs, Rl, sp, (unsigned)GLIDE_SPLINE_LINEAR, FA, subst, X, isf);
            term(xv, p1, GLIDE_BLEND_LINEAR_R);
        }
        pts++;
    }
    seg0 += S.total;
}

/* grid: x = sample block x part, y = level (blog - y), the levels' chosen
 * splines from tune_k. Costs both blends of every point of the level (all
 * phases: the open-loop prediction needs no barrier) into st->bcost, and
 * with BITS their estimate sums (glide_cost_bits) into st->bbits. Integer
 * sums: any order gives the CPU's totals. SH as in choose_k. */
template <class T, bool SH, bool BITS>
__global__ void __launch_bounds__(GG_THREADS) blend_k(const T *x, gg_grid g, uint64_t k, unsigned parts, gg_state *st,
                                                      unsigned)
{
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ unsigned long long red[GG_THREADS / 32];
    Box bx;
    sample_box(g, k, blockIdx.x / parts, bx);
    const uint32_t t0 = (blockIdx.x % parts) * blockDim.x + threadIdx.x, dt = parts * blockDim.x;
    uint32_t e[3];
    long long rs[3];
    const T *base = sample_view<T, SH>(x, g, bx, e, smem, rs);
    const unsigned l = g.blog - blockIdx.y;
    const unsigned sp = st->lv.level_cfg[l - 1] & 3u;
    const bool two = sp != GLIDE_SPLINE_LINEAR; /* else both blends are one */
    const bool fa = st->lv.fill_aware;
    const double unit = st->lv.unit, eb = st->lv.eb_abs;
    const T subst = Bits<T>::from((typename Bits<T>::U)st->lv.subst_bits);
    unsigned long long acc[GLIDE_NBLENDS] = {0, 0}, bits[GLIDE_NBLENDS] = {0, 0}, pts = 0;
    const unsigned nsets = blend_nsets(g.eff_rank);
    uint32_t seg0 = 0; /* as in tune_k: each set starts where the last one's threads left off */
    for (unsigned m = 0; m < nsets; m++) {
        const unsigned mask = blend_set(g.eff_rank, m), kk = (unsigned)__popc(mask);
        const uint32_t t1 = (t0 + dt - seg0 % dt) % dt;
#define GG_BLEND_COST(K, FA)                                                                                           \
    blend_cost_set<T, BITS, K, FA>(g, base, rs, e, l - 1, mask, sp, two, unit, eb, subst, t1, dt, acc, bits, pts, seg0)
        if (fa) {
            if (kk == 1) GG_BLEND_COST(1, true);
            else if (kk == 2) GG_BLEND_COST(2, true);
            else GG_BLEND_COST(3, true);
        } else {
            if (kk == 1) GG_BLEND_COST(1, false);
            else if (kk == 2) GG_BLEND_COST(2, false);
            else GG_BLEND_COST(3, false);
        }
#undef GG_BLEND_COST
    }
#pragma unroll
    for (int v = 0; v < GLIDE_NBLENDS; v++) {
        const unsigned long long a = block_sum(acc[v], red);
        if (threadIdx.x == 0 && a) atomicAdd((unsigned long long *)&st->bcost[l - 1][v], a);
        if (BITS) {
            const unsigned long long b = block_sum(bits[v], red);
            if (threadIdx.x == 0 && b) atomicAdd((unsigned long long *)&st->bbits[l - 1][v], b);
        }
    }
    if (BITS) {
        const unsigned long long c = block_sum(pts, red);
        if (threadIdx.x == 0 && c) atomicAdd((unsigned long long *)&st->bpts[l - 1], c);
    }
    if (last_block(&st->done[2])) blend_pick(g, BITS, st);
}

/* format 4 tuning with the level residuals in shared memory (cpu/blend_tmpl.h
 * OP_TUNE / OP_BITS): the closed loop's stencils on the original values,
 * phase by phase, each phase's residuals wx = x - pb kept for the next
 * (w[0] for the blend with the level's spline on residuals, w[1] for linear
 * residuals; phase 1's are the same, the residual read rs not being used
 * there). NV 2: both blends (two: unless the spline is linear, where they
 * are one), NV 1: blend v only, in w[0]. bl_open's values, with a barrier
 * per phase in place of its recursion, which re-evaluates a phase 3 point's
 * neighbours' neighbours (H200, 256^3: blend_k 82 us). */
template <class T, bool BITS, int NT, bool FA, int K, int NV>
__device__ __forceinline__ void blend_cost_w(const gg_grid &g, const T *xs, T *const w[NV], const int ri[3],
                                             unsigned ls, const SPlan &P, unsigned sp, bool two, unsigned v1,
                                             double unit, double eb, T subst, unsigned long long acc[GLIDE_NBLENDS],
                                             unsigned long long bits[GLIDE_NBLENDS], unsigned long long &pts)
{
    const uint32_t s = 1u << ls;
    const double n2 = glide_blend_noise((unsigned)K);
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
    auto term = [&](T xv, T pr, unsigned v) {
        const double err = fabs((double)xv - (double)pr);
        if (err < INFINITY) {
            const double q = err / unit;
            acc[v] += q < 4294967296.0 ? (unsigned long long)q : 4294967296ull;
        }
        if (BITS) bits[v] += glide_cost_bits(err, eb, n2);
    };
    for (uint32_t t = (threadIdx.x + NT - P.t0) % NT; t < S.total; t += NT) {
        uint32_t lc[3];
        lstep_point(S, t, lc);
        const int lt = (int)(lc[0] * ri[0] + lc[1] * ri[1] + lc[2]);
        const T *p = xs + lt;
        const T xv = *p;
        if (is_fill(g, xv)) {
#pragma unroll
            for (int i = 0; i < NV; i++) w[i][lt] = (T)NAN;
            continue;
        }
        BRd<int> Rs[3], Rr[3];
        Rs[K - 1] = brd_make(o[K - 1], pick3(lc, ax[K - 1]), s, 0u, hi[K - 1], sp);
        auto X = [&](int off) { return p[off]; };
        auto isf = [&](int off) { return is_fill(g, p[off]); };
        T pr = (T)0, wv = (T)0;
#pragma unroll
        for (int i = 0; i < NV; i++) {
            const unsigned v = NV == 2 ? (unsigned)i : v1;
            if (NV == 2 && i == 1 && !two) break;
            if (!(K == 1 && i == 1)) { /* phase 1: one prediction for both */
                const unsigned rs = v == GLIDE_BLEND_SPLINE_R ? sp : (unsigned)GLIDE_SPLINE_LINEAR;
#pragma unroll
                for (int j = 0; j < K - 1; j++) Rr[j] = brd_make(o[j], pick3(lc, ax[j]), s, 0u, hi[j], rs);
                const T *q = w[i] + lt;
                bool bl;
                T pl;
                pr = bl_closed<T>((unsigned)K, Rs, Rr, sp, rs, FA, subst, X, [&](int off) { return q[off]; }, isf, bl, pl);
                wv = keep_d ? xv - pl : bl ? xv - pr : (T)NAN;
            }
            w[i][lt] = wv;
            term(xv, pr, v);
        }
        pts++;
    }
}

/* blend_w_k's grids (GG_BLEND_*, predict_launch.cuh): both blends in each
 * block; one blend a block (grid z); one spline and blend a block for every
 * spline (z = spline index x 2 + blend), run beside tune_k before it has
 * chosen the splines */

/* grid: x = sample block, y = level (blog - y), z by MODE; NT threads, the
 * box and the residuals in shared memory (box_bytes BOX_BLEND_TUNE, or
 * BOX_BLEND_TUNE1 for one blend a block); the levels' chosen splines from
 * tune_k, except in GG_BLEND_SPEC. Same sums as blend_k. On a small sample
 * (a 64^3 chunk has one box: 4 levels, 4 blocks) the split puts twice the
 * blocks to work, and GG_BLEND_SPEC runs them beside tune_k instead of
 * after it (other: tune_k's blocks, for the last of both to pick). On many
 * boxes either costs more than it gives: the phase-1 points and the box
 * load are done again per block. */
template <class T, bool BITS, int NT, int MODE>
__global__ void __launch_bounds__(NT, 2) blend_w_k(const T *x, gg_grid g, uint64_t k, unsigned other, gg_state *st)
{
    constexpr int NV = MODE == GG_BLEND_BOTH ? 2 : 1;
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ unsigned long long red[NT / 32];
    __shared__ SPlan plan[GG_PLAN_MAX];
    const unsigned l = g.blog - blockIdx.y, ls = l - 1;
    const unsigned v1 = MODE == GG_BLEND_BOTH ? 0u : MODE == GG_BLEND_SPLIT ? blockIdx.z : blockIdx.z % GLIDE_NBLENDS;
    const unsigned si = MODE == GG_BLEND_SPEC ? blockIdx.z / GLIDE_NBLENDS : 0u;
    const unsigned sp = MODE == GG_BLEND_SPEC ? (unsigned)c_splines[si] : st->lv.level_cfg[ls] & 3u;
    const bool two = sp != GLIDE_SPLINE_LINEAR; /* else both blends are one */
    if (v1 == GLIDE_BLEND_SPLINE_R || two) {
        Box bx;
        sample_box(g, k, blockIdx.x, bx);
        uint32_t e[3];
        long long rs[3];
        {
            uint32_t ee[3];
            box_ext(bx, ee);
            const int ri0[3] = {(int)(ee[1] * ee[2]), (int)ee[2], 1};
            if (threadIdx.x < GG_PLAN_MAX) splan_set<NT>(g, ee, ri0, ls, threadIdx.x, plan[threadIdx.x]);
        }
        const T *xs = sample_view<T, true>(x, g, bx, e, smem, rs); /* its barrier publishes the plan */
        const uint32_t E = e[0] * e[1] * e[2];
        T *w[NV];
#pragma unroll
        for (int i = 0; i < NV; i++) w[i] = (T *)(smem + (size_t)E * sizeof(T) * (i + 1));
        const int ri[3] = {(int)rs[0], (int)rs[1], 1};
        const bool fa = st->lv.fill_aware;
        const double unit = st->lv.unit, eb = st->lv.eb_abs;
        const T subst = Bits<T>::from((typename Bits<T>::U)st->lv.subst_bits);
        unsigned long long acc[GLIDE_NBLENDS] = {0, 0}, bits[GLIDE_NBLENDS] = {0, 0}, pts = 0;
        const unsigned nsets = blend_nsets(g.eff_rank);
        for (unsigned m = 0; m < nsets; m++) {
            const SPlan &P = plan[m];
#define GG_BLEND_COST(K, FA) \
    blend_cost_w<T, BITS, NT, FA, K, NV>(g, xs, w, ri, ls, P, sp, two, v1, unit, eb, subst, acc, bits, pts)
            if (fa) {
                if (P.k == 1) GG_BLEND_COST(1, true);
                else if (P.k == 2) GG_BLEND_COST(2, true);
                else GG_BLEND_COST(3, true);
            } else {
                if (P.k == 1) GG_BLEND_COST(1, false);
                else if (P.k == 2) GG_BLEND_COST(2, false);
                else GG_BLEND_COST(3, false);
            }
#undef GG_BLEND_COST
            if (P.end) __syncthreads();
        }
        unsigned long long *cost = (unsigned long long *)(MODE == GG_BLEND_SPEC ? &st->scost[ls][si][0] : &st->bcost[ls][0]);
        unsigned long long *bsum = (unsigned long long *)(MODE == GG_BLEND_SPEC ? &st->sbits[ls][si][0] : &st->bbits[ls][0]);
        unsigned long long *psum = (unsigned long long *)(MODE == GG_BLEND_SPEC ? &st->spts[ls][si] : &st->bpts[ls]);
#pragma unroll
        for (int v = 0; v < GLIDE_NBLENDS; v++) {
            if (MODE != GG_BLEND_BOTH && (unsigned)v != v1) continue;
            const unsigned long long a = block_sum(acc[v], red);
            if (threadIdx.x == 0 && a) atomicAdd(&cost[v], a);
            if (BITS) {
                const unsigned long long b = block_sum(bits[v], red);
                if (threadIdx.x == 0 && b) atomicAdd(&bsum[v], b);
            }
        }
        if (BITS && v1 == GLIDE_BLEND_SPLINE_R) {
            const unsigned long long c = block_sum(pts, red);
            if (threadIdx.x == 0 && c) atomicAdd(psum, c);
        }
    }
    if (MODE == GG_BLEND_SPEC) {
        if (last_block_of(&st->done[3], gridDim.x * gridDim.y * gridDim.z + other)) blend_pick_spec(g, BITS, st);
    } else if (last_block(&st->done[2])) {
        blend_pick(g, BITS, st);
    }
}

template <class T, bool B, int MODE>
static cudaError_t launch_blend_w_t(const void *d_x, gg_grid g, uint64_t k, dim3 grid, size_t sh, unsigned other,
                                    gg_state *d_st, cudaStream_t s)
{
    constexpr int NT = 512;
    cudaError_t e = allow_shared((const void *)blend_w_k<T, B, NT, MODE>, sh);
    if (e != cudaSuccess) return e;
    blend_w_k<T, B, NT, MODE><<<grid, NT, sh, s>>>((const T *)d_x, g, k, other, d_st);
    return cudaGetLastError();
}

template <class T>
cudaError_t launch_blend_w(const void *d_x, gg_grid g, uint64_t k, int bits, int mode, dim3 grid, size_t sh,
                           unsigned other, gg_state *d_st, cudaStream_t s)
{
    if (mode == GG_BLEND_SPEC)
        return bits ? launch_blend_w_t<T, true, GG_BLEND_SPEC>(d_x, g, k, grid, sh, other, d_st, s)
                    : launch_blend_w_t<T, false, GG_BLEND_SPEC>(d_x, g, k, grid, sh, other, d_st, s);
    if (bits && mode == GG_BLEND_SPLIT) return launch_blend_w_t<T, true, GG_BLEND_SPLIT>(d_x, g, k, grid, sh, other, d_st, s);
    if (bits) return launch_blend_w_t<T, true, GG_BLEND_BOTH>(d_x, g, k, grid, sh, other, d_st, s);
    if (mode == GG_BLEND_SPLIT) return launch_blend_w_t<T, false, GG_BLEND_SPLIT>(d_x, g, k, grid, sh, other, d_st, s);
    return launch_blend_w_t<T, false, GG_BLEND_BOTH>(d_x, g, k, grid, sh, other, d_st, s);
}

template <class T> cudaError_t launch_blend_k(const void *d_x, gg_grid g, uint64_t k, int bits, gg_state *d_st, cudaStream_t s)
{
    if (bits)
        return launch_sample<T>(blend_k<T, true, true>, blend_k<T, false, true>, d_x, g, k, g.blog, 512, d_st, s, true);
    return launch_sample<T>(blend_k<T, true, false>, blend_k<T, false, false>, d_x, g, k, g.blog, 512, d_st, s, true);
}

#define GG_BLEND_INST(T)                                                                                               \
    template cudaError_t launch_blend_w<T>(const void *, gg_grid, uint64_t, int, int, dim3, size_t, unsigned,         \
                                           gg_state *, cudaStream_t);                                                  \
    template cudaError_t launch_blend_k<T>(const void *, gg_grid, uint64_t, int, gg_state *, cudaStream_t);
GG_BLEND_INST(float)
GG_BLEND_INST(double)
