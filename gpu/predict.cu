/* The prediction of a chunk: which methods' kernels gg_encode and gg_decode
 * (and the block trial, trial.cu) launch for a method, on which streams,
 * and the scratch they need. The kernels are in interp_*.cu, lorenzo.cu
 * and slice.cu. */
#include "predict_launch.cuh"

extern "C" int gg_needs_global_r(gg_grid g, int method, int blend)
{
    if (slices_may(g, method)) return 1;
    return (method != GG_INTERP && box_bytes(g, BOX_LORENZO) == 0) ||
           (method != GG_LORENZO && box_bytes(g, BOX_INTERP) == 0) ||
           (may_blend(g, method, blend) && box_bytes(g, BOX_BLEND) == 0);
}

extern "C" int gg_needs_global_w(gg_grid g, int method, int blend)
{
    if (slices_may(g, method)) return 1;
    return may_blend(g, method, blend) && box_bytes(g, BOX_BLEND) == 0;
}

extern "C" size_t gg_global_r_bytes(gg_grid g, int method, int blend, const gg_launch *L)
{
    const size_t esz = g.dtype == GLIDE_FLOAT64 ? 8 : 4;
    if (gg_needs_global_r(g, method, blend)) return (size_t)g.count * esz;
    if (!split_ok(L, g, method)) return 0;
    return (size_t)half_grid(g).count * (esz + 2); /* GSplit's rc, then sc */
}

/* The streams of launch_predict's instances: the first on s, the others,
 * where par gives them, forked from s and joined back by done(). */
struct ParLanes {
    const gg_par *par;
    cudaStream_t s;
    unsigned naux = GG_PAR_AUX; /* side streams it may take, from par->aux[0] */
    unsigned used = 0, aux = 0;
    bool early = false; /* the fork taken before the first instance's launches */
    /* The fork is taken after the first instance's launches, so the side
     * streams' instances queue behind it, except for the speculated chunk
     * (trial_run: early). Forked before them, the working coarse kernel no
     * longer waited for the empty instances, but the block trial's
     * interpolation, which had run in that gap, found the SMs' shared
     * memory taken by the coarse kernel's blocks and ran slower beside the
     * fine kernel: a net loss. */
    cudaError_t next(cudaStream_t &out)
    {
        if (!par || used == 0 || aux == naux) {
            const cudaError_t e0 = early && par && used == 0 && naux ? cudaEventRecord(par->fork, s) : cudaSuccess;
            used++;
            out = s;
            return e0;
        }
        cudaError_t e = cudaSuccess;
        if (aux == 0 && !early) e = cudaEventRecord(par->fork, s); /* early: recorded by the first call */
        if (e == cudaSuccess) e = cudaStreamWaitEvent(par->aux[aux], par->fork, 0);
        out = par->aux[aux++];
        used++;
        return e;
    }
    cudaError_t done()
    {
        cudaError_t e = cudaSuccess;
        for (unsigned i = 0; i < aux && e == cudaSuccess; i++) {
            e = cudaEventRecord(par->join[i], par->aux[i]);
            if (e == cudaSuccess) e = cudaStreamWaitEvent(s, par->join[i], 0);
        }
        return e;
    }
};

/* an encoder's interpolation instances (plain, and blended at rank 2 and
 * 3) count plane 0 where given h0: none takes interp_k, which does not */
static bool interp_counts_h0(const gg_grid &g)
{
    return box_bytes(g, BOX_INTERP) && (g.eff_rank < 2 || box_bytes(g, BOX_BLEND));
}

/* Whether every kernel that may store the chunk's symbols, encoding by
 * method with h0, counts plane 0 (the speculated interpolation's, which
 * trial_run launches with the same h0, included), so that the front can
 * leave hist0_k out: Lorenzo does, slice_wf_k does (slice_sh_k and slice_k
 * do not), the interpolation instances do (launch_interp's interp_k does
 * not). */
static bool counts_hist0(const gg_grid &g, int method, const unsigned long long *h0)
{
    if (!h0) return false;
    const bool slice_only = method == GG_SLICE_XY || method == GG_SLICE_YX;
    if ((slice_only || method == GG_CHOSEN3 || method == GG_CHOSEN3_SPEC) && !slice_run_bytes(g)) return false;
    return slice_only || method == GG_LORENZO || interp_counts_h0(g);
}

/* fa: format 3's stencils (1) or not (0), or -1 (encoding: the range scan
 * decides on the device, so both run and one returns at once). bl: the
 * same for blended levels (format 4): encoding at rank 2 and 3 launches
 * all four, the range scan and tuning decide which one works, and
 * L->blend_first which kind goes first (the working one's blocks are then
 * dispatched first; the chunk before is the guide). h0 (encoding): plane
 * 0's histogram for every kernel launched that can count it
 * (counts_hist0). */
template <class T, int OP>
cudaError_t launch_predict(const gg_launch *L, gg_grid g, int method, int fa, int bl, const gg_levels *lv, const T *x,
                           uint16_t *sym, gg_state *st, DecodeIn in, T *y, T *r, T *w, const gg_par *par,
                           cudaStream_t s0, unsigned naux, bool narrow, bool early, unsigned long long *h0)
{
    unsigned nb = (unsigned)n_blocks(g);
    /* GG_CHOSEN launches both, GG_CHOSEN3 the slices too (GG_CHOSEN3_SPEC:
     * all but interpolation); those not chosen return at once */
    const bool gate = method == GG_CHOSEN || method == GG_CHOSEN3 || method == GG_CHOSEN3_SPEC;
    const bool slice_only = method == GG_SLICE_XY || method == GG_SLICE_YX;
    ParLanes lanes{par, s0, naux};
    /* after a speculating trial, the chosen Lorenzo or slices (at most
     * one works) side by side: queued one after the other, their empty
     * launches after the pick stood on the critical path */
    lanes.early = early || method == GG_CHOSEN3_SPEC;
    /* those commits after the pick by PDL (their kernels wait at their start) */
    const bool pdl = method == GG_CHOSEN3_SPEC && (L->pdl & GG_PDL_TAIL);
    /* Lorenzo and slice_wf_k count plane 0 as the interpolation kernels do
     * (box_hist0): a speculating chunk's commit then needs no hist0_k
     * after it on the critical path */
    unsigned long long *hc = OP == OP_ENCODE ? h0 : nullptr;
    cudaStream_t s;
    cudaError_t e;
    if (slice_only || method == GG_CHOSEN3 || method == GG_CHOSEN3_SPEC) {
        if ((e = lanes.next(s)) != cudaSuccess ||
            (e = launch_slice<T, OP>(L, g, nb, lv, x, sym, st, in, y, r, w, slice_only ? method - GG_SLICE_XY : -1, s,
                                     pdl, hc)) != cudaSuccess)
            return e;
        if (slice_only) {
            if ((e = cudaGetLastError()) != cudaSuccess) return e;
            return lanes.done();
        }
    }
    if (method != GG_INTERP) {
        if ((e = lanes.next(s)) != cudaSuccess) return e;
        if ((e = launch_lorenzo<T, OP>(L, g, nb, lv, x, sym, st, in, y, r, gate, pdl, hc, s)) != cudaSuccess) return e;
    }
    if (method != GG_LORENZO && method != GG_CHOSEN3_SPEC) {
        if (g.eff_rank < 2) bl = 0;
        /* the instances of one kind (blc: std::true_type for blended levels),
         * fill-aware or not as fa says */
        auto kind = [&](auto blc) -> cudaError_t {
            constexpr bool BL = decltype(blc)::value;
            cudaError_t r2 = cudaSuccess;
            if (bl != (BL ? 0 : 1) && fa != 1 &&
                ((r2 = lanes.next(s)) != cudaSuccess ||
                 (r2 = launch_interp<T, OP, false, BL>(L, g, nb, lv, x, sym, st, in, y, r, w, gate, method, s, narrow,
                                                        h0)) != cudaSuccess))
                return r2;
            if (bl != (BL ? 0 : 1) && fa != 0 &&
                ((r2 = lanes.next(s)) != cudaSuccess ||
                 (r2 = launch_interp<T, OP, true, BL>(L, g, nb, lv, x, sym, st, in, y, r, w, gate, method, s, narrow,
                                                       h0)) != cudaSuccess))
                return r2;
            return cudaSuccess;
        };
        if ((e = L->blend_first ? kind(std::true_type{}) : kind(std::false_type{})) != cudaSuccess ||
            (e = L->blend_first ? kind(std::false_type{}) : kind(std::true_type{})) != cudaSuccess)
            return e;
    }
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    return lanes.done();
}

#define GG_PREDICT_INST(T, OP)                                                                                         \
    template cudaError_t launch_predict<T, OP>(const gg_launch *, gg_grid, int, int, int, const gg_levels *, const T *, \
                                               uint16_t *, gg_state *, DecodeIn, T *, T *, T *, const gg_par *,       \
                                               cudaStream_t, unsigned, bool, bool, unsigned long long *);
GG_PREDICT_INST(float, OP_ENCODE)
GG_PREDICT_INST(float, OP_DECODE)
GG_PREDICT_INST(double, OP_ENCODE)
GG_PREDICT_INST(double, OP_DECODE)

extern "C" cudaError_t gg_encode(const void *d_x, gg_grid g, int method, gg_state *d_st, uint16_t *d_sym, void *d_r,
                                 void *d_w, const gg_par *par, int hist0, const gg_launch *L, cudaStream_t s)
{
    DecodeIn in = {};
    /* without a fill value the range scan finds no fill point (is_fill), so
     * the fill-aware instances would only return: they are not launched */
    const int fa = g.has_fill ? -1 : 0;
    unsigned long long *h0 = hist0_of(g, d_st, hist0);
    if (g.dtype == GLIDE_FLOAT64)
        return launch_predict<double, OP_ENCODE>(L, g, method, fa, -1, &d_st->lv, (const double *)d_x, d_sym, d_st, in,
                                                 NULL, (double *)d_r, (double *)d_w, par, s, GG_PAR_AUX, false, false,
                                                 h0);
    return launch_predict<float, OP_ENCODE>(L, g, method, fa, -1, &d_st->lv, (const float *)d_x, d_sym, d_st, in, NULL,
                                            (float *)d_r, (float *)d_w, par, s, GG_PAR_AUX, false, false, h0);
}

extern "C" int gg_encode_counts_hist0(gg_grid g, int method, gg_state *d_st, int hist0)
{
    return counts_hist0(g, method, hist0_of(g, d_st, hist0));
}

extern "C" cudaError_t gg_decode(gg_grid g, int method, int fill_aware, int blend, const gg_state *d_st,
                                 const uint16_t *d_sym, const uint32_t *d_pos, const uint8_t *d_anchors,
                                 const uint8_t *d_outliers, uint64_t n_outliers, void *d_y, void *d_r, void *d_w,
                                 uint32_t *d_err, const gg_launch *L, cudaStream_t s)
{
    DecodeIn in = {d_sym, d_pos, d_pos + outlier_words(g.count), d_anchors, d_outliers, n_outliers, d_err, 0, 0, 0, 0, 0};
    if (g.dtype == GLIDE_FLOAT64)
        return launch_predict<double, OP_DECODE>(L, g, method, fill_aware, blend, &d_st->lv, NULL, NULL, NULL, in,
                                                 (double *)d_y, (double *)d_r, (double *)d_w, NULL, s);
    return launch_predict<float, OP_DECODE>(L, g, method, fill_aware, blend, &d_st->lv, NULL, NULL, NULL, in,
                                            (float *)d_y, (float *)d_r, (float *)d_w, NULL, s);
}

