/* Stage 2 of the encoder: tuning (cpu/interp_tmpl.h glide_interp_tune),
 * each level's spline and axis order from their costs on the sample
 * lattice (tune_k), then format 4's blends of the levels (blend_cost.cu);
 * and GLIDE_PRED_AUTO's choice of interpolation or Lorenzo (choose_k). */
#include "predict_launch.cuh"
#include "tune_pick.cuh"

/* grid: x = sample block x part, y = axis order; every thread costs the
 * three splines of its point (cost index order * 3 + spline index). The
 * cost is cpu/interp_tmpl.h OP_ESTIMATE: integer sums, so any summation
 * order and any split of a box's points over `parts` blocks gives the CPU's
 * totals. SH: the box's values are read once into shared memory (parts 1). */
template <class T, bool SH>
__global__ void __launch_bounds__(GG_THREADS) tune_k(const T *x, gg_grid g, uint64_t k, unsigned parts, gg_state *st,
                                                     unsigned other)
{
    extern __shared__ __align__(16) unsigned char smem[];
    /* The box and the steps' lattices, made once per block: on a small
     * sample (64^3: one box over 192 blocks) a thread costs about one
     * point, and making them in every thread (the box's 64-bit divisions,
     * twelve steps' lattices) was most of its instructions and of the
     * kernel's time (ncu source counters, H200). */
    __shared__ Box s_bx;
    __shared__ LStep s_step[GLIDE_MAX_LEVELS * 3];
    if (threadIdx.x == 0) sample_box(g, k, blockIdx.x / parts, s_bx);
    __syncthreads();
    const Box bx = s_bx;
    const unsigned order = blockIdx.y;
    const uint8_t *ax = c_axes[g.eff_rank - 1][order];
    const uint32_t t0 = (blockIdx.x % parts) * blockDim.x + threadIdx.x, dt = parts * blockDim.x;
    RView<const T> v;
    uint32_t e[3];
    uint32_t E = box_ext(bx, e);
    if (threadIdx.x < g.blog * g.eff_rank) /* coarsest level first, as the loop below takes them */
        lstep_make(s_step[threadIdx.x], e, g.blog - 1 - threadIdx.x / g.eff_rank, ax, threadIdx.x % g.eff_rank);
    if (SH) {
        T *sb = (T *)smem;
        const Walk W = walk_make(e[1], e[2], E);
        box_gather(sb, E, blockDim.x, [&](uint32_t t) {
            uint32_t lx, ly, lz;
            walk_point(W, t, lz, ly, lx);
            return x[(bx.lo[0] + lz) * g.st[0] + (bx.lo[1] + ly) * g.st[1] + bx.lo[2] + lx];
        });
        __syncthreads();
        v.base = sb;
        for (int a = 0; a < 3; a++) v.org[a] = bx.lo[a];
        v.rs[2] = 1;
        v.rs[1] = e[2];
        v.rs[0] = (long long)e[2] * e[1];
    } else {
        v.base = x;
        for (int a = 0; a < 3; a++) v.org[a] = 0;
        for (int a = 0; a < 3; a++) v.rs[a] = (long long)g.st[a];
    }
    static_assert(GLIDE_NSPLINES == 3, "ipredict3 costs three splines");
    const double unit = st->lv.unit;
    const bool fa = st->lv.fill_aware;
    const T subst = Bits<T>::from((typename Bits<T>::U)st->lv.subst_bits);
    const int rl[3] = {(int)e[1] * (int)e[2], (int)e[2], 1};
    /* The costs are of the original values, so the levels do not depend on
     * each other: a thread adds its sums of a level to the block's shared
     * ones and goes on, one barrier for all levels instead of reductions
     * per level (small chunks, with few points per level, were bound by
     * those). The steps' points count as one index space, coarsest level
     * first, so that each step starts where the last one's threads left
     * off and the threads share the work evenly. */
    __shared__ unsigned long long s_cost[GLIDE_MAX_LEVELS][GLIDE_NSPLINES];
    if (threadIdx.x < GLIDE_MAX_LEVELS * GLIDE_NSPLINES) (&s_cost[0][0])[threadIdx.x] = 0;
    __syncthreads();
    uint32_t seg0 = 0; /* index of the step's first point */
    const LStep *step = s_step; /* the level's first */
    for (unsigned l = g.blog; l >= 1; l--, step += g.eff_rank) {
        const uint32_t s = 1u << (l - 1);
        unsigned long long acc[GLIDE_NSPLINES] = {0, 0, 0};
        for (unsigned j = 0; j < g.eff_rank; j++) {
            const LStep &S = step[j];
            const unsigned d = ax[j];
            const long long o1 = (long long)s * (SH ? rl[d] : v.rs[d]);
            for (uint32_t t = (t0 + dt - seg0 % dt) % dt; t < S.total; t += dt) { /* t0 < dt */
                uint32_t lc[3];
                lstep_point(S, t, lc);
                const T *p = SH ? v.base + (lc[0] * rl[0] + lc[1] * rl[1] + lc[2])
                                : x + ((bx.lo[0] + lc[0]) * g.st[0] + (bx.lo[1] + lc[1]) * g.st[1] + bx.lo[2] + lc[2]);
                T xv = *p;
                if (is_fill(g, xv)) continue;
                T pr[GLIDE_NSPLINES];
                if (fa) {
                    auto isf = [&](long long off) { return is_fill(g, p[off]); };
                    for (int si = 0; si < GLIDE_NSPLINES; si++)
                        pr[si] = ipredict_fa(p, o1, lc[d], s, 0u, e[d] - 1, (unsigned)c_splines[si], subst, isf);
                } else {
                    ipredict3(p, o1, lc[d], s, 0u, e[d] - 1, pr);
                }
#pragma unroll
                for (int si = 0; si < GLIDE_NSPLINES; si++) {
                    double err = fabs((double)xv - (double)pr[si]);
                    if (err < INFINITY) {
                        double q = err / unit;
                        acc[si] += q < 4294967296.0 ? (unsigned long long)q : 4294967296ull;
                    }
                }
            }
            seg0 += S.total;
        }
#pragma unroll
        for (int si = 0; si < GLIDE_NSPLINES; si++) {
            unsigned long long a = acc[si];
            for (int o = 16; o > 0; o >>= 1) a += __shfl_xor_sync(0xFFFFFFFFu, a, o);
            if ((threadIdx.x & 31) == 0 && a) atomicAdd(&s_cost[l - 1][si], a);
        }
    }
    __syncthreads();
    if (threadIdx.x < g.blog * GLIDE_NSPLINES) {
        const unsigned lv = threadIdx.x / GLIDE_NSPLINES, si = threadIdx.x % GLIDE_NSPLINES;
        const unsigned long long tot = s_cost[lv][si];
        if (tot) atomicAdd((unsigned long long *)&st->cost[lv][order * GLIDE_NSPLINES + si], tot);
    }
    if (last_block(&st->done[0])) tune_pick(g, st);
    /* other: blend_w_k's blocks running beside (low 31 bits) and its BITS */
    if (other && last_block_of(&st->done[3], gridDim.x * gridDim.y + (other & 0x7FFFFFFFu)))
        blend_pick_spec(g, (other >> 31) != 0, st);
}

/* cpu/codec_tmpl.h: Lorenzo streams have alpha 1 and no level_cfg. Run by
 * the last block of choose_k to finish. */
__device__ void choose_pick(const gg_grid &g, gg_state *st)
{
    const volatile unsigned long long *est = (const volatile unsigned long long *)&st->est[0][0];
    uint64_t ei[2] = {est[0], est[1]}, el[2] = {est[2], est[3]};
    st->lorenzo = glide_prefer_lorenzo(ei, el);
    if (!st->lorenzo) return;
    st->lv.alpha = 1.0;
    st->lv.blended = 0;
    for (unsigned l = 0; l < GLIDE_MAX_LEVELS; l++) {
        st->lv.level_eb[l] = l < g.blog ? st->lv.eb_abs : 0.0;
        st->lv.level_cfg[l] = 0;
    }
}

/* GLIDE_PRED_AUTO: cpu/interp_tmpl.h glide_interp_estimate with the tuned
 * level_cfg and cpu/lorenzo_tmpl.h glide_lorenzo_estimate on the sample
 * blocks. grid: x = sample block x part, y = interpolation level (y < blog) or
 * Lorenzo (y == blog). SH: the box is read once into shared memory and
 * indexed with 32-bit box-local arithmetic, as in tune_k. Integer sums: any
 * order gives the CPU's totals. */
template <class T, bool SH>
__global__ void __launch_bounds__(GG_THREADS) choose_k(const T *x, gg_grid g, uint64_t k, unsigned parts, gg_state *st,
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
    const double eb = st->lv.eb_abs;
    const T subst = Bits<T>::from((typename Bits<T>::U)st->lv.subst_bits);
    unsigned long long cost = 0, pts = 0;
    /* a blended level's sums came from blend_k (blend_pick adds the chosen one's) */
    if (blockIdx.y < g.blog && !cfg_blended(g.eff_rank, st->lv.level_cfg[g.blog - blockIdx.y - 1])) {
        const unsigned l = g.blog - blockIdx.y;
        const uint32_t s = 1u << (l - 1);
        const unsigned cfg = st->lv.level_cfg[l - 1], spline = cfg & 3u;
        const uint8_t *ax = c_axes[g.eff_rank - 1][cfg >> 2];
        const bool fa = st->lv.fill_aware;
        for (unsigned j = 0; j < g.eff_rank; j++) {
            LStep S;
            lstep_make(S, e, l - 1, ax, j);
            const unsigned d = ax[j];
            const long long o1 = (long long)s * rs[d];
            for (uint32_t t = t0; t < S.total; t += dt) {
                uint32_t lc[3];
                lstep_point(S, t, lc);
                const T *p = base + (lc[0] * rs[0] + lc[1] * rs[1] + lc[2]);
                T xv = *p;
                if (is_fill(g, xv)) continue;
                const T pr = fa ? ipredict_fa(p, o1, lc[d], s, 0u, e[d] - 1, spline, subst,
                                              [&](long long off) { return is_fill(g, p[off]); })
                                : ipredict(p, o1, lc[d], s, 0u, e[d] - 1, spline);
                double err = fabs((double)xv - (double)pr);
                cost += glide_cost_bits(err, eb, GLIDE_NOISE_INTERP);
                pts++;
            }
        }
    } else if (blockIdx.y == g.blog) {
        /* Lorenzo over the half-open block: box-local coordinates below B */
        const uint32_t B = 1u << g.blog;
        uint32_t o[3];
        for (int a = 0; a < 3; a++) o[a] = e[a] < B ? e[a] : B;
        const uint32_t O = o[0] * o[1] * o[2];
        const long long s0 = rs[0], s1 = rs[1];
        const Walk Wo = walk_make(o[1], o[2], O);
        for (uint32_t t = t0; t < O; t += dt) {
            uint32_t lx, ly, lz;
            walk_point(Wo, t, lz, ly, lx);
            int pz = lz != 0, py = ly != 0, px = lx != 0;
            if (!pz && !py && !px) continue;
            const T *rp = base + (lz * s0 + ly * s1 + lx);
            T xv = *rp;
            if (is_fill(g, xv)) continue;
            const T pr = g.has_fill ? lpredict_sub(g, rp, s0, s1, px, py, pz, subst) : lpredict(rp, s0, s1, px, py, pz);
            double err = fabs((double)xv - (double)pr);
            cost += glide_cost_bits(err, eb, glide_lorenzo_noise(px, py, pz));
            pts++;
        }
    }
    const int which = blockIdx.y == g.blog;
    unsigned long long tc = block_sum(cost, red), tp = block_sum(pts, red);
    if (threadIdx.x == 0 && tp) {
        atomicAdd((unsigned long long *)&st->est[which][0], tc);
        atomicAdd((unsigned long long *)&st->est[which][1], tp);
    }
    if (last_block(&st->done[1]) && threadIdx.x == 0) choose_pick(g, st);
}

template <class T> static cudaError_t launch_tune(const void *d_x, gg_grid g, uint64_t k, int bits, gg_state *d_st,
                                                  const gg_par *par, cudaStream_t s)
{
    const unsigned n_ord = g.eff_rank == 3 ? 6 : g.eff_rank == 2 ? 2 : 1;
    const uint64_t ns = n_samples(g, k);
    /* format 4: the blends of each level (rows cost one level of a box, as
     * the predictor choice's). blend_w_k runs one block per SM at most:
     * where the sample is small enough that every spline's blends leave
     * SMs idle, they are costed for every spline beside tune_k, on a side
     * stream; else, where the two blends apart still do, each blend gets
     * its blocks; else each block costs both, after tune_k. */
    const unsigned sms = sm_count();
    const bool spec = par && g.eff_rank >= 2 && box_bytes(g, BOX_BLEND_TUNE1) &&
                      ns * g.blog * GLIDE_NSPLINES * GLIDE_NBLENDS <= sms;
    cudaError_t e;
    if (spec) {
        unsigned parts;
        const dim3 tg = sample_grid(g, k, n_ord, 256, &parts);
        const dim3 bg((unsigned)ns, g.blog, GLIDE_NSPLINES * GLIDE_NBLENDS);
        const unsigned tune_blocks = tg.x * tg.y, blend_blocks = bg.x * bg.y * bg.z;
        const size_t sh = box_bytes(g, BOX_BLEND_TUNE1);
        if ((e = cudaEventRecord(par->fork, s)) != cudaSuccess ||
            (e = cudaStreamWaitEvent(par->aux[0], par->fork, 0)) != cudaSuccess)
            return e;
        e = launch_blend_w<T>(d_x, g, k, bits, GG_BLEND_SPEC, bg, sh, tune_blocks, d_st, par->aux[0]);
        if (e != cudaSuccess) return e;
        e = launch_sample<T>(tune_k<T, true>, tune_k<T, false>, d_x, g, k, n_ord, 256, d_st, s, false,
                             blend_blocks | (bits ? 0x80000000u : 0u));
        if (e != cudaSuccess) return e;
        if ((e = cudaEventRecord(par->join[0], par->aux[0])) != cudaSuccess) return e;
        return cudaStreamWaitEvent(s, par->join[0], 0);
    }
    e = launch_sample<T>(tune_k<T, true>, tune_k<T, false>, d_x, g, k, n_ord, 256, d_st, s);
    if (e != cudaSuccess || g.eff_rank < 2) return e;
    const bool split = ns * g.blog * GLIDE_NBLENDS <= sms;
    const size_t sh = box_bytes(g, split ? BOX_BLEND_TUNE1 : BOX_BLEND_TUNE);
    if (sh) {
        const dim3 grid((unsigned)ns, g.blog, split ? GLIDE_NBLENDS : 1);
        return launch_blend_w<T>(d_x, g, k, bits, split ? GG_BLEND_SPLIT : GG_BLEND_BOTH, grid, sh, 0, d_st, s);
    }
    return launch_blend_k<T>(d_x, g, k, bits, d_st, s);
}

extern "C" cudaError_t gg_tune(const void *d_x, gg_grid g, uint64_t k, int bits, gg_state *d_st, const gg_par *par,
                               cudaStream_t s)
{
    if (g.dtype == GLIDE_FLOAT64) return launch_tune<double>(d_x, g, k, bits, d_st, par, s);
    return launch_tune<float>(d_x, g, k, bits, d_st, par, s);
}

extern "C" cudaError_t gg_choose(const void *d_x, gg_grid g, uint64_t k, gg_state *d_st, cudaStream_t s)
{
    if (g.dtype == GLIDE_FLOAT64)
        return launch_sample<double>(choose_k<double, true>, choose_k<double, false>, d_x, g, k, g.blog + 1, 512, d_st,
                                     s);
    return launch_sample<float>(choose_k<float, true>, choose_k<float, false>, d_x, g, k, g.blog + 1, 512, d_st, s);
}
