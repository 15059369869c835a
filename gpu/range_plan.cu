/* Stage 1 of the encoder (docs/FORMAT.md §5-6): the value range of the
 * finite non-fill values, and from it the level plan, where a REL error
 * bound becomes the absolute bound eb_abs and the levels' bounds follow
 * (exactly cpu/codec_tmpl.h's compress()). */
#include "predict_common.cuh"

template <class T> __device__ void plan(const gg_grid &g, int mode, double eb, double alpha_opt, int interp, gg_state *st);

template <class T> struct Vec16;
template <> struct Vec16<float> { typedef float4 V; };
template <> struct Vec16<double> { typedef double2 V; };

/* The sentinel rule's extremes (cpu/predict.h glide_extremes) over keys:
 * least and greatest, the next distinct ones inwards, and their counts. */
template <class K> struct Ext {
    K mn, mn2, mx, mx2;
    uint32_t cmn, cmx;
    __device__ __forceinline__ void none()
    {
        mn = mn2 = ~(K)0, mx = mx2 = 0, cmn = cmx = 0; /* no finite key is all ones or zero */
    }
    __device__ __forceinline__ void take(K k)
    {
        const bool lt = k < mn, le = k == mn, gt = k > mx, ge = k == mx;
        mn2 = lt ? mn : le ? mn2 : (k < mn2 ? k : mn2);
        cmn = lt ? 1u : cmn + le;
        mn = lt ? k : mn;
        mx2 = gt ? mx : ge ? mx2 : (k > mx2 ? k : mx2);
        cmx = gt ? 1u : cmx + ge;
        mx = gt ? k : mx;
    }
    __device__ __forceinline__ void merge(K bmn, K bmn2, uint32_t bcmn, K bmx, K bmx2, uint32_t bcmx)
    {
        if (bmn < mn) mn2 = mn < bmn2 ? mn : bmn2, mn = bmn, cmn = bcmn;
        else if (bmn == mn) mn2 = mn2 < bmn2 ? mn2 : bmn2, cmn += bcmn;
        else mn2 = bmn < mn2 ? bmn : mn2;
        if (bmx > mx) mx2 = mx > bmx2 ? mx : bmx2, mx = bmx, cmx = bcmx;
        else if (bmx == mx) mx2 = mx2 > bmx2 ? mx2 : bmx2, cmx += bcmx;
        else mx2 = bmx > mx2 ? bmx : mx2;
    }
    /* the warp's lanes into lane 0 */
    __device__ __forceinline__ void warp_reduce()
    {
        for (int o = 16; o > 0; o >>= 1) {
            const K a = __shfl_down_sync(0xFFFFFFFFu, mn, o), a2 = __shfl_down_sync(0xFFFFFFFFu, mn2, o);
            const K b = __shfl_down_sync(0xFFFFFFFFu, mx, o), b2 = __shfl_down_sync(0xFFFFFFFFu, mx2, o);
            const uint32_t ca = __shfl_down_sync(0xFFFFFFFFu, cmn, o), cb = __shfl_down_sync(0xFFFFFFFFu, cmx, o);
            merge(a, a2, ca, b, b2, cb);
        }
    }
};

/* One atomic per thread block: the grid is a few waves, each thread strides.
 * The last block to finish plans the levels (plan below) and combines the
 * blocks' slots into the sentinel rule's extremes. */
template <class T>
__global__ void __launch_bounds__(GG_THREADS)
    range_k(const T *x, gg_grid g, int mode, double eb, double alpha_opt, int interp, gg_state *st,
            gg_range_slot *slots)
{
    /* keys as wide as the values: 64-bit compares on float keys cost the
     * scan more instructions than its loads could hide */
    typedef typename Bits<T>::U K;
    __shared__ K smn[GG_THREADS / 32], smn2[GG_THREADS / 32], smx[GG_THREADS / 32], smx2[GG_THREADS / 32];
    __shared__ uint32_t scmn[GG_THREADS / 32], scmx[GG_THREADS / 32];
    const uint64_t stride = (uint64_t)gridDim.x * blockDim.x, tid = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    /* the state's reset but for the accumulators, before this block counts
     * itself (last_block), so before the last block's plan writes st->lv:
     * a memset node ahead of this kernel cost a launch and a gap */
    static_assert(offsetof(gg_state, lv) == sizeof(gg_range_acc) && sizeof(gg_state) % 8 == 0, "the state's words");
    for (uint64_t i = sizeof(gg_range_acc) / 8 + tid; i < sizeof(gg_state) / 8; i += stride)
        reinterpret_cast<uint64_t *>(st)[i] = 0;
    Ext<K> e;
    e.none();
    bool saw_fill = false;
    auto take = [&](T v) {
        const bool f = is_fill(g, v);
        saw_fill |= f;
        if (!isfinite(v) || f) return;
        e.take(Bits<T>::key(v));
    };
    /* 16-byte loads (the work buffer is cudaMalloc'd, so aligned), several
     * in flight per thread: the scan is bound by memory latency */
    typedef typename Vec16<T>::V V;
    constexpr unsigned W = sizeof(V) / sizeof(T);
    const uint64_t nv = g.count / W;
#pragma unroll 4
    for (uint64_t i = tid; i < nv; i += stride) {
        const V v = __ldg(reinterpret_cast<const V *>(x) + i);
        const T *el = reinterpret_cast<const T *>(&v);
#pragma unroll
        for (unsigned w = 0; w < W; w++) take(el[w]);
    }
    for (uint64_t i = nv * W + tid; i < g.count; i += stride) take(x[i]);
    e.warp_reduce();
    if ((threadIdx.x & 31) == 0) {
        const unsigned w = threadIdx.x >> 5;
        smn[w] = e.mn, smn2[w] = e.mn2, smx[w] = e.mx, smx2[w] = e.mx2, scmn[w] = e.cmn, scmx[w] = e.cmx;
    }
    const int blk_fill = __syncthreads_or(saw_fill);
    if (threadIdx.x == 0) {
        if (blk_fill) atomicOr(&st->rng.any_fill, 1u);
        for (unsigned w = 1; w < blockDim.x / 32; w++) e.merge(smn[w], smn2[w], scmn[w], smx[w], smx2[w], scmx[w]);
        slots[blockIdx.x] = gg_range_slot{e.mn, e.mn2, e.mx, e.mx2, e.cmn, e.cmx};
        if (e.mn != ~(K)0) { /* no finite key is all ones (that would be a NaN) */
            atomicMax((unsigned long long *)&st->rng.lo_inv, ~(unsigned long long)e.mn);
            atomicMax((unsigned long long *)&st->rng.hi_key, (unsigned long long)e.mx);
        }
    }
    if (last_block(&st->rng.done)) {
        e.none();
        for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
            /* past L1: other blocks wrote them */
            const gg_range_slot *sl = &slots[b];
            e.merge((K)__ldcg(&sl->mn), (K)__ldcg(&sl->mn2), __ldcg(&sl->cmn), (K)__ldcg(&sl->mx), (K)__ldcg(&sl->mx2),
                    __ldcg(&sl->cmx));
        }
        e.warp_reduce();
        __syncthreads(); /* the shared arrays' last readers were thread 0's merges above */
        if ((threadIdx.x & 31) == 0) {
            const unsigned w = threadIdx.x >> 5;
            smn[w] = e.mn, smn2[w] = e.mn2, smx[w] = e.mx, smx2[w] = e.mx2, scmn[w] = e.cmn, scmx[w] = e.cmx;
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            for (unsigned w = 1; w < blockDim.x / 32; w++) e.merge(smn[w], smn2[w], scmn[w], smx[w], smx2[w], scmx[w]);
            plan<T>(g, mode, eb, alpha_opt, interp, st);
            gg_levels *lv = &st->lv;
            lv->any = e.mn != ~(K)0;
            lv->any_fill = *(volatile uint32_t *)&st->rng.any_fill;
            lv->lo = lv->any ? (double)Bits<T>::unkey(e.mn) : 0.0;
            lv->hi = lv->any ? (double)Bits<T>::unkey(e.mx) : 0.0;
            lv->lo2 = e.mn2 != ~(K)0 ? (double)Bits<T>::unkey(e.mn2) : (double)INFINITY;
            lv->hi2 = e.mx2 != 0 ? (double)Bits<T>::unkey(e.mx2) : -(double)INFINITY;
            lv->n_lo = e.cmn;
            lv->n_hi = e.cmx;
            st->rng = gg_range_acc{}; /* zero for the next chunk's scan (the stream orders it after this one) */
        }
    }
}

/* cpu/codec_tmpl.h compress(): the bound, substitute, cost unit and level bounds */
template <class T> __device__ void plan(const gg_grid &g, int mode, double eb, double alpha_opt, int interp, gg_state *st)
{
    const unsigned long long lo_key = ~*(volatile unsigned long long *)&st->rng.lo_inv,
                             hi_key = *(volatile unsigned long long *)&st->rng.hi_key;
    int any = lo_key != ~0ull; /* lo_inv still 0: no finite key (none is all ones) */
    double lo = any ? (double)Bits<T>::unkey(lo_key) : 0.0, hi = any ? (double)Bits<T>::unkey(hi_key) : 0.0;
    double range = any ? hi - lo : 0;
    double eb_abs = mode == GLIDE_MODE_REL && eb > 0 ? eb * range : eb;
    if (!(eb_abs <= DBL_MAX)) eb_abs = DBL_MAX;
    T subst = any ? (T)(lo * 0.5 + hi * 0.5) : (T)0;
    if (subst == 0) subst = 0;
    gg_levels *lv = &st->lv;
    lv->eb_abs = eb_abs;
    lv->subst_bits = Bits<T>::of(subst);
    lv->unit = range > 0 && range <= DBL_MAX ? range * 0x1p-24 : 1.0;
    lv->alpha = 1.0;
    /* cpu/codec_tmpl.h: format 3's stencils wherever a fill point occurs */
    lv->fill_aware = interp && *(volatile uint32_t *)&st->rng.any_fill ? 1u : 0u;
    if (interp) {
        /* cpu/codec.c glide_level_alpha */
        double rel = range > 0 ? eb_abs / range : 1.0;
        lv->alpha = alpha_opt >= 1.0 ? alpha_opt : rel >= 1e-2 ? 1.25 : 1.0;
    }
    double e = eb_abs;
    for (unsigned l = 0; l < GLIDE_MAX_LEVELS; l++) {
        lv->level_eb[l] = l < g.blog ? e : 0.0;
        lv->level_cfg[l] = 0;
        if (l < g.blog) e = e / lv->alpha;
    }
}

extern "C" cudaError_t gg_range_plan(const void *d_x, gg_grid g, int mode, double eb, double alpha_opt, int interp,
                                    gg_state *d_st, gg_range_slot *d_slots, cudaStream_t s)
{
    /* about 8 values per thread at least, at most a few waves of blocks */
    uint64_t b = (g.count + 8 * GG_THREADS - 1) / (8 * GG_THREADS);
    unsigned nb = b > GG_RANGE_SLOTS ? (unsigned)GG_RANGE_SLOTS : (unsigned)(b ? b : 1);
    if (g.dtype == GLIDE_FLOAT64)
        range_k<double><<<nb, GG_THREADS, 0, s>>>((const double *)d_x, g, mode, eb, alpha_opt, interp, d_st, d_slots);
    else
        range_k<float><<<nb, GG_THREADS, 0, s>>>((const float *)d_x, g, mode, eb, alpha_opt, interp, d_st, d_slots);
    return cudaGetLastError();
}
