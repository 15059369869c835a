/* Format 6's block trial (cpu/codec_tmpl.h block_trial): the sample's
 * boxes gathered, encoded with each method (interpolation, Lorenzo, both
 * slice orders), each histogram's best book scored, and the least bits
 * picked; for small chunks with the chunk's own interpolation speculated
 * beside it. */
#include "predict_launch.cuh"
#include "gg_huff.h"

/* The block trial's sample (cpu/interp.c glide_trial_box_origin): box b of
 * d[0] x d[1] x d[2] points copied to out + b * that, block (b, z) its
 * plane z (one block a box left a small chunk's single box to one SM).
 * Blocks (m, 0), m < GG_TRIAL_METHODS, also set method m's state: its
 * histogram from zero, and for Lorenzo and the slices (interpolation reads
 * the chunk's tuned levels in place) the chunk's levels; so the grid is at
 * least that wide. */
template <class T>
__global__ void trial_gather_k(const T *x, gg_grid g, gg_trial_boxes tb, unsigned boxes, T *out, const gg_state *st,
                               gg_state *tst)
{
    const unsigned b = blockIdx.x, z = blockIdx.y;
    if (z == 0 && b < GG_TRIAL_METHODS) {
        gg_state *t = tst + b;
        for (unsigned i = threadIdx.x; i < GLIDE_NSYM; i += blockDim.x) t->hist[i] = 0;
        if (threadIdx.x == 0 && (b == 1 || b == 2)) t->lv = st->lv;
    }
    if (b >= boxes) return;
    const uint64_t bi[3] = {b / (tb.m[1] * tb.m[2]), b / tb.m[2] % tb.m[1], b % tb.m[2]};
    const uint64_t B = 1ull << g.blog, n[3] = {g.slab_rows, g.n[1], g.n[2]};
    const uint64_t slab = bi[0] * tb.k / g.nbl;
    uint64_t lo[3] = {bi[0] * tb.k % g.nbl * B, bi[1] * tb.k * B, bi[2] * tb.k * B};
    for (int a = 0; a < 3; a++)
        if (lo[a] + tb.d[a] > n[a]) lo[a] = n[a] - tb.d[a];
    /* a box is at most (B + 1)^2 points a plane */
    const unsigned d2 = (unsigned)tb.d[2], plane = (unsigned)tb.d[1] * d2;
    const T *src = x + (slab * g.slab_rows + lo[0] + z) * g.st[0] + lo[1] * g.st[1] + lo[2];
    T *dst = out + ((uint64_t)b * tb.d[0] + z) * plane;
    for (unsigned t = threadIdx.x; t < plane; t += blockDim.x) {
        const unsigned yy = t / d2;
        dst[t] = src[yy * g.st[1] + (t - yy * d2)];
    }
}

/* The chosen method's level parameters as the CPU writes them (c: 1
 * Lorenzo, 2 + k slice order k; interpolation keeps the tuned ones). */
__device__ __forceinline__ void trial_levels(gg_state *st, unsigned c, unsigned blog)
{
    st->tuned_blend = st->lv.blended; /* for the host's order of the next chunk's instances (gg_launch.blend_first) */
    st->lv.alpha = 1.0;
    st->lv.blended = 0;
    for (unsigned l = 0; l < GLIDE_MAX_LEVELS; l++) {
        st->lv.level_eb[l] = l < blog ? st->lv.eb_abs : 0.0;
        st->lv.level_cfg[l] = 0;
    }
    if (c >= 2) st->lv.level_cfg[0] = (uint8_t)(c - 2);
}

/* The block trial's decision (cpu/codec_tmpl.h block_trial): per method the
 * best book's bits plus the outliers', the least wins, ties to the earlier;
 * st->lorenzo and st->slice, and the chosen method's levels. spec: the
 * chunk's speculative interpolation has finished (its histogram in st):
 * where the trial chose another method, that histogram and plane 0's
 * (gg_state.hist0_made) are dropped (the chosen method's kernels write
 * every symbol again). One kernel after both,
 * where a pick right after the trial and a commit after the speculation
 * took two launches on the critical path. */
__global__ void trial_pick_k(const gg_state *tst, const gg_trial *tr, int lorenzo_ok, unsigned esz, unsigned blog,
                             gg_state *st, int spec)
{
    pdl_wait(); /* speculating: after the interpolation (GG_PDL_TAIL) */
    pdl_trigger();
    __shared__ unsigned s_c;
    if (threadIdx.x == 0) {
        uint64_t best = UINT64_MAX;
        unsigned c = 0;
        for (unsigned m = 0; m < GG_TRIAL_METHODS; m++) {
            if (m == 1 && !lorenzo_ok) continue;
            const uint64_t bits = tr->sel[m].bits + tst[m].hist[GLIDE_SYM_OUTLIER] * 8ull * esz;
            if (bits < best) {
                best = bits;
                c = m;
            }
        }
        st->lorenzo = c == 1;
        st->slice = c >= 2 ? c - 1 : 0;
        if (c) trial_levels(st, c, blog);
        s_c = c;
    }
    __syncthreads();
    if (spec && s_c) {
        for (unsigned i = threadIdx.x; i < GLIDE_NSYM; i += blockDim.x) st->hist[i] = st->hist_pl[0][i] = 0;
        if (threadIdx.x == 0) st->hist0_made = 0;
    }
}


/* phase 0 (after the range scan, before tuning): the sample gathered and
 * the states set, then Lorenzo and both slice orders, which do not need
 * tuning: all of it on side streams 2 and 3 (tuning's blends use side
 * stream 0), beside tuning. Phase 1 (after tuning): interpolation with the
 * tuned levels (st's own: the trial's state holds only its histogram),
 * the join, the decision. Where an encoder needs the global scratch (large
 * boxes) all of it runs on s0, the methods in phase 1 one after the other. */
template <class T>
static cudaError_t trial_run(const gg_launch *L, const T *x, gg_grid g, gg_grid tg, gg_trial_boxes tb, int lorenzo_ok, gg_state *st,
                             gg_state *tst, gg_trial *tr, T *tx, uint16_t *tsym, T *tr_r, T *tr_w, gg_dict dict,
                             gg_select_work *work, const gg_par *par, int phase, gg_spec *spec, cudaStream_t s0)
{
    cudaError_t e;
    const bool apart = par && GG_PAR_AUX >= 4 && !gg_needs_global_r(tg, GG_CHOSEN3, 1) &&
                       !gg_needs_global_w(tg, GG_CHOSEN3, 1);
    const bool speculate = phase == 1 && spec && spec->on && apart;
    /* On chunks over 2^19 points the trial's interpolation runs in
     * GG_THREADS-thread blocks, not GG_THREADS_MAX: its 64 working blocks
     * then find room beside the chunk's speculated coarse and fine kernels
     * instead of waiting for 1024 free thread slots on one SM. */
    const bool narrow_trial = g.count > ((uint64_t)1 << 19);
    if (spec && phase == 1) spec->on = speculate;
    DecodeIn in = {};
    const unsigned nb = (unsigned)n_blocks(tg);
    const uint64_t tn = tg.count;
    /* method m (1 Lorenzo, 2 both slice orders, 0 interpolation) and its books */
    auto method = [&](int m, cudaStream_t s) -> cudaError_t {
        cudaError_t r;
        if (m == 2)
            r = launch_slice<T, OP_ENCODE>(L, tg, nb, &tst[2].lv, tx, slice_box_bytes(tg) ? NULL : tsym + 2 * tn, &tst[2], in,
                                           NULL, tr_r, tr_w, -2, s);
        else /* interpolation's instances side by side, as the chunk's */
            r = launch_predict<T, OP_ENCODE>(L, tg, m == 0 ? GG_INTERP : GG_LORENZO, tg.has_fill ? -1 : 0, -1,
                                             m == 0 ? &st->lv : &tst[m].lv, tx, tsym + m * tn, &tst[m], in, NULL, tr_r,
                                             tr_w, m == 0 && apart && !speculate ? par : NULL, s, GG_PAR_AUX,
                                             m == 0 && narrow_trial);
        if (r != cudaSuccess) return r;
        if (m == 2) /* both orders' books in one launch */
            return gg_book_select_two(tst[2].hist, (size_t)(tst[3].hist - tst[2].hist), dict, 0 /* GLIDE_SCORE_SIZE */,
                                      &tr->sel[2], work + 2, s);
        return gg_book_select(tst[m].hist, dict, 0 /* GLIDE_SCORE_SIZE */, &tr->sel[m], work + m, s);
    };
    if (phase == 0) {
        const unsigned boxes = (unsigned)(tb.m[0] * tb.m[1] * tb.m[2]);
        const dim3 grid(boxes > GG_TRIAL_METHODS ? boxes : GG_TRIAL_METHODS, (unsigned)tb.d[0]);
        if (!apart) {
            trial_gather_k<T><<<grid, GG_THREADS, 0, s0>>>(x, g, tb, boxes, tx, st, tst);
            return cudaGetLastError();
        }
        /* side stream 2 gathers, then runs Lorenzo; 3 waits for the sample */
        if ((e = cudaEventRecord(par->fork, s0)) != cudaSuccess ||
            (e = cudaStreamWaitEvent(par->aux[2], par->fork, 0)) != cudaSuccess)
            return e;
        trial_gather_k<T><<<grid, GG_THREADS, 0, par->aux[2]>>>(x, g, tb, boxes, tx, st, tst);
        if ((e = cudaGetLastError()) != cudaSuccess || (e = cudaEventRecord(par->ready, par->aux[2])) != cudaSuccess ||
            (e = cudaStreamWaitEvent(par->aux[3], par->ready, 0)) != cudaSuccess)
            return e;
        for (int m = 1; m <= 2; m++) {
            if (m == 1 && !lorenzo_ok) continue;
            if ((e = method(m, par->aux[m + 1])) != cudaSuccess ||
                (e = cudaEventRecord(par->join[m + 1], par->aux[m + 1])) != cudaSuccess)
                return e;
        }
        return cudaSuccess;
    }
    if (apart && (e = cudaStreamWaitEvent(s0, par->ready, 0)) != cudaSuccess) return e;
    if (speculate) {
        /* the chunk's interpolation (its tuned levels are final) on side
         * streams 0 and 1 beside the trial's, kept if the trial picks it */
        if ((e = cudaEventRecord(par->fork, s0)) != cudaSuccess ||
            (e = cudaStreamWaitEvent(par->aux[0], par->fork, 0)) != cudaSuccess)
            return e;
        /* Its plain and blended instances forked together, so the working
         * one does not wait behind the other's empty launches (this pays
         * only since the trial's interpolation runs in 256-thread blocks on
         * these chunks: narrow_trial). */
        gg_par sp = *par;
        sp.aux[0] = par->aux[1], sp.join[0] = par->join[1];
        if ((e = launch_predict<T, OP_ENCODE>(L, g, GG_INTERP, g.has_fill ? -1 : 0, -1, &st->lv, x, spec->sym, st, in,
                                              NULL, (T *)spec->r, (T *)spec->w, &sp, par->aux[0], 1, false, true,
                                              hist0_of(g, st, spec->hist0))) != cudaSuccess ||
            (e = cudaEventRecord(par->join[0], par->aux[0])) != cudaSuccess)
            return e;
    }
    if ((e = method(0, s0)) != cudaSuccess) return e;
    for (int m = 1; m <= 2; m++) {
        if (m == 1 && !lorenzo_ok) continue;
        e = apart ? cudaStreamWaitEvent(s0, par->join[m + 1], 0) : method(m, s0);
        if (e != cudaSuccess) return e;
    }
    if (speculate && (e = cudaStreamWaitEvent(s0, par->join[0], 0)) != cudaSuccess) return e;
    return pdl_launch(trial_pick_k, dim3(1), dim3(256), 0, s0, speculate && (L->pdl & GG_PDL_TAIL), tst, tr,
                     lorenzo_ok, (unsigned)sizeof(T), g.blog, st, speculate);
}

extern "C" cudaError_t gg_trial_run(const void *d_x, gg_grid g, gg_grid tg, gg_trial_boxes tb, int lorenzo_ok,
                                    gg_state *d_st, gg_state *d_tst, gg_trial *d_tr, void *d_tx, uint16_t *d_tsym,
                                    void *d_tr_r, void *d_tr_w, gg_dict dict, gg_select_work *d_work, const gg_par *par,
                                    int phase, gg_spec *spec, const gg_launch *L, cudaStream_t s)
{
    if (g.dtype == GLIDE_FLOAT64)
        return trial_run<double>(L, (const double *)d_x, g, tg, tb, lorenzo_ok, d_st, d_tst, d_tr, (double *)d_tx, d_tsym,
                                 (double *)d_tr_r, (double *)d_tr_w, dict, d_work, par, phase, spec, s);
    return trial_run<float>(L, (const float *)d_x, g, tg, tb, lorenzo_ok, d_st, d_tst, d_tr, (float *)d_tx, d_tsym,
                            (float *)d_tr_r, (float *)d_tr_w, dict, d_work, par, phase, spec, s);
}

