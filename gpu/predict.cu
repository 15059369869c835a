/* Prediction stages on the device: the same arithmetic, in the same order,
 * as cpu/interp_tmpl.h, cpu/lorenzo_tmpl.h and cpu/points_tmpl.h (compiled
 * with --fmad=false so no product is fused into an add). One thread block
 * owns one anchor block: it computes the block's closed box (docs/FORMAT.md
 * §8.3), so blocks never wait for each other, and writes the symbols of the
 * points it owns (coordinates in [lo, lo + B) on every axis). */
#include "gg_predict.h"
#include "cost.h"
#include "last_block.cuh"
#include "outlier_words.cuh"
#include "pdl.cuh"
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/device/device_scan.cuh>
#include <float.h>
#include <type_traits>

#define GG_THREADS 256
#define GG_THREADS_MAX 1024 /* interp_sh_k on chunks with few blocks */
#define GG_SPLIT_THREADS 32 /* the coarse part of a split interpolation: one warp a 9^3 box */
#define GG_MERGE_THREADS 256 /* or a block for a 17^3 box of eight of them (PART_COARSE_M) */
#define GG_SHARED_LIMIT (40 * 1024) /* box bytes kept in shared memory; larger boxes use global scratch */

enum { OP_ENCODE, OP_DECODE };

template <class T> struct Bits;
template <> struct Bits<float> {
    typedef uint32_t U;
    static __device__ __forceinline__ U of(float v) { return __float_as_uint(v); }
    static __device__ __forceinline__ float from(U b) { return __uint_as_float(b); }
    /* order-preserving: negatives flipped whole, positives get the sign bit */
    static __device__ __forceinline__ U key(float v)
    {
        const U u = of(v);
        return u ^ ((U)((int32_t)u >> 31) | 0x80000000u);
    }
    static __device__ __forceinline__ float unkey(unsigned long long k)
    {
        U u = (U)k;
        return from((u & 0x80000000u) ? (u & 0x7FFFFFFFu) : ~u);
    }
};
template <> struct Bits<double> {
    typedef unsigned long long U;
    static __device__ __forceinline__ U of(double v) { return (U)__double_as_longlong(v); }
    static __device__ __forceinline__ double from(U b) { return __longlong_as_double((long long)b); }
    static __device__ __forceinline__ U key(double v)
    {
        U u = of(v);
        return (u >> 63) ? ~u : (u | 0x8000000000000000ull);
    }
    static __device__ __forceinline__ double unkey(unsigned long long k)
    {
        return from((k >> 63) ? (k & 0x7FFFFFFFFFFFFFFFull) : ~k);
    }
};

/* docs/FORMAT.md §8.1: axis orders per effective rank */
__constant__ uint8_t c_axes[3][6][3] = {
    {{2, 0, 0}},
    {{1, 2, 0}, {2, 1, 0}},
    {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
__constant__ uint8_t c_splines[GLIDE_NSPLINES] = {GLIDE_SPLINE_CUBIC_NAK, GLIDE_SPLINE_LINEAR,
                                                  GLIDE_SPLINE_CUBIC_NATURAL};

template <class T> __device__ __forceinline__ bool is_fill(const gg_grid &g, T v)
{
    return g.has_fill && Bits<T>::of(v) == (typename Bits<T>::U)g.fill_bits;
}

template <class T> __device__ __forceinline__ T tfloor(T v);
template <> __device__ __forceinline__ float tfloor(float v) { return floorf(v); }
template <> __device__ __forceinline__ double tfloor(double v) { return floor(v); }

/* the shared quantizer of cpu/tmpl_begin.h */
template <class T> __device__ __forceinline__ int quantize(T x, T p, T e2, double eb, T *rv)
{
    T diff = x - p;
    T qf = e2 > 0 ? tfloor(diff / e2 + (T)0.5) : (T)0;
    if (!(qf >= (T) - (GLIDE_RADIUS - 1) && qf <= (T)(GLIDE_RADIUS - 1))) return -1;
    int q = (int)qf;
    T v = p + (T)q * e2;
    if (!(fabs((double)x - (double)v) <= eb)) return -1;
    *rv = v;
    return q + GLIDE_SYM_ZERO;
}

/* v[d] for an axis d known only at run time, by selection: indexing a
 * small array with it puts the array in local memory (a store and a load
 * per point in the level loops). Used by the prediction kernels; the
 * sampling kernels (tune, choose) keep the indexing: with selections they
 * took 10-14 more registers and ran slower at 256^3 (H200: tune 54 -> 63 us). */
template <class V> __device__ __forceinline__ V pick3(const V v[3], unsigned d)
{
    return d == 0 ? v[0] : d == 1 ? v[1] : v[2];
}

/* cpu/interp_tmpl.h interp_predict; p points at the predicted element, o1
 * is the element offset of one level stride along the axis. Coordinates
 * may be global (I = uint64_t) or box-local (I = uint32_t, lo = 0): only
 * their differences matter. */
template <class T, class I, class O>
__device__ __forceinline__ T ipredict(const T *p, O o1, I c, I s, I lo, I hi, unsigned spline)
{
    T b = p[-o1];
    if (c + s > hi) {
        if (spline != GLIDE_SPLINE_LINEAR && c >= lo + 3 * s) return b * (T)1.5 - p[-3 * o1] * (T)0.5;
        return b;
    }
    T cc = p[o1];
    if (spline != GLIDE_SPLINE_LINEAR) {
        bool l3 = c >= lo + 3 * s, r3 = c + 3 * s <= hi;
        if (l3 && r3) {
            T a = p[-3 * o1], d = p[3 * o1];
            if (spline == GLIDE_SPLINE_CUBIC_NAK) return ((b + cc) * (T)9 - (a + d)) * (T)0.0625;
            return ((b + cc) * (T)23 - (a + d) * (T)3) * (T)(1.0 / 40.0);
        }
        if (l3) return (b * (T)6 + cc * (T)3 - p[-3 * o1]) * (T)0.125;
        if (r3) return (cc * (T)6 + b * (T)3 - p[3 * o1]) * (T)0.125;
    }
    return (b + cc) * (T)0.5;
}

/* ipredict for the three splines of c_splines at once (NAK, linear,
 * natural: out[0..2]), with the same expressions, loading the neighbours
 * once; tuning costs every spline on every point. */
template <class T, class I, class O>
__device__ __forceinline__ void ipredict3(const T *p, O o1, I c, I s, I lo, I hi, T out[3])
{
    const T b = p[-o1];
    if (c + s > hi) {
        out[1] = b;
        out[0] = out[2] = c >= lo + 3 * s ? b * (T)1.5 - p[-3 * o1] * (T)0.5 : b;
        return;
    }
    const T cc = p[o1];
    out[1] = (b + cc) * (T)0.5;
    const bool l3 = c >= lo + 3 * s, r3 = c + 3 * s <= hi;
    if (l3 && r3) {
        const T a = p[-3 * o1], d = p[3 * o1];
        out[0] = ((b + cc) * (T)9 - (a + d)) * (T)0.0625;
        out[2] = ((b + cc) * (T)23 - (a + d) * (T)3) * (T)(1.0 / 40.0);
    } else if (l3) {
        out[0] = out[2] = (b * (T)6 + cc * (T)3 - p[-3 * o1]) * (T)0.125;
    } else if (r3) {
        out[0] = out[2] = (cc * (T)6 + b * (T)3 - p[3 * o1]) * (T)0.125;
    } else {
        out[0] = out[2] = out[1];
    }
}

/* cpu/interp_tmpl.h interp_predict_fa (format 3): neighbours that are fill
 * points leave the stencil. isf(off): whether the point `off` elements
 * from p is one (its symbol, or its value where p holds original values). */
template <class T, class I, class O, class F>
__device__ __forceinline__ T ipredict_fa(const T *p, O o1, I c, I s, I lo, I hi, unsigned spline, T subst, F isf)
{
    const bool cub = spline != GLIDE_SPLINE_LINEAR;
    const bool hb = !isf(-o1);
    const bool hc = c + s <= hi && !isf(o1);
    const bool ha = cub && c >= lo + 3 * s && !isf(-3 * o1);
    const bool hd = cub && c + 3 * s <= hi && !isf(3 * o1);
    if (hb && hc) {
        const T b = p[-o1], cc = p[o1];
        if (ha && hd) {
            const T a = p[-3 * o1], d = p[3 * o1];
            if (spline == GLIDE_SPLINE_CUBIC_NAK) return ((b + cc) * (T)9 - (a + d)) * (T)0.0625;
            return ((b + cc) * (T)23 - (a + d) * (T)3) * (T)(1.0 / 40.0);
        }
        if (ha) return (b * (T)6 + cc * (T)3 - p[-3 * o1]) * (T)0.125;
        if (hd) return (cc * (T)6 + b * (T)3 - p[3 * o1]) * (T)0.125;
        return (b + cc) * (T)0.5;
    }
    if (hb) return ha ? p[-o1] * (T)1.5 - p[-3 * o1] * (T)0.5 : p[-o1];
    if (hc) return hd ? p[o1] * (T)1.5 - p[3 * o1] * (T)0.5 : p[o1];
    return subst;
}

/* ------------------------------------------ blended levels (format 4) */

/* cpu/blend_tmpl.h, docs/FORMAT.md §8.4. A blended level's point is odd on
 * k of the effective axes (its odd set S, ascending a1 < a2 < a3); the
 * level runs in phases k = 1 .. eff_rank, a barrier between phases. These
 * helpers are used only by the blended instantiations and kernels, so the
 * plain ones keep their registers. */

__device__ __forceinline__ bool cfg_blended(unsigned eff_rank, unsigned cfg)
{
    return (cfg >> 2) >= (eff_rank == 3 ? 6u : eff_rank == 2 ? 2u : 1u);
}

/* a blended cfg's spline of the operators on residuals (rs) */
__device__ __forceinline__ unsigned blend_rs(unsigned eff_rank, unsigned cfg)
{
    const unsigned n_ord = eff_rank == 3 ? 6u : 2u;
    return (cfg >> 2) == n_ord + GLIDE_BLEND_SPLINE_R ? (cfg & 3u) : (unsigned)GLIDE_SPLINE_LINEAR;
}

/* glide_blend_sets: the odd-axis masks of the effective axes, phase by
 * phase (1, 2, then 3 axes), for effective rank 2 and 3 */
__constant__ uint8_t c_bsets[2][7] = {{2, 4, 6}, {1, 2, 4, 3, 5, 6, 7}};
__device__ __forceinline__ unsigned blend_nsets(unsigned eff_rank) { return eff_rank == 3 ? 7u : 3u; }
__device__ __forceinline__ unsigned blend_set(unsigned eff_rank, unsigned m) { return c_bsets[eff_rank - 2][m]; }

#include "blend.cuh"

/* cpu/lorenzo_tmpl.h lorenzo_predict_sub: fill neighbours as the substitute */
template <class T>
__device__ __forceinline__ T lpredict_sub(const gg_grid &g, const T *rp, long long s0, long long s1, int px, int py,
                                          int pz, T subst)
{
    auto v = [&](long long o) {
        const T w = rp[o];
        return is_fill(g, w) ? subst : w;
    };
    T p = (px ? v(-1) : (T)0) + (py ? v(-s1) : (T)0);
    p = p + (pz ? v(-s0) : (T)0);
    p = p - (px && py ? v(-s1 - 1) : (T)0);
    p = p - (px && pz ? v(-s0 - 1) : (T)0);
    p = p - (py && pz ? v(-s0 - s1) : (T)0);
    return p + (px && py && pz ? v(-s0 - s1 - 1) : (T)0);
}

/* cpu/lorenzo_tmpl.h lorenzo_predict, same order; rp points at the
 * predicted element, s0/s1 are the element strides of the two slow axes. */
template <class T>
__device__ __forceinline__ T lpredict(const T *rp, long long s0, long long s1, int px, int py, int pz)
{
    T p = (px ? rp[-1] : (T)0) + (py ? rp[-s1] : (T)0);
    p = p + (pz ? rp[-s0] : (T)0);
    p = p - (px && py ? rp[-s1 - 1] : (T)0);
    p = p - (px && pz ? rp[-s0 - 1] : (T)0);
    p = p - (py && pz ? rp[-s0 - s1] : (T)0);
    return p + (px && py && pz ? rp[-s0 - s1 - 1] : (T)0);
}

template <class T> __device__ __forceinline__ T load_le(const uint8_t *p)
{
    typename Bits<T>::U b = 0;
    for (int k = 0; k < (int)sizeof(T); k++) b |= (typename Bits<T>::U)p[k] << (8 * k);
    return Bits<T>::from(b);
}

template <class T> __device__ __forceinline__ void store_le(uint8_t *p, T v)
{
    typename Bits<T>::U b = Bits<T>::of(v);
    for (int k = 0; k < (int)sizeof(T); k++) p[k] = (uint8_t)(b >> (8 * k));
}

/* ---------------------------------------------------------------- range */

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
     * a memset node ahead of this kernel cost 1 us and a gap of 2.6 (256^3,
     * H200, bench/gpu-runs/s1127e run 3's trace) */
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

/* --------------------------------------------------------- point sets */

struct Box {
    uint64_t lo[3], hi[3];
};

__device__ __forceinline__ void block_box(const gg_grid &g, uint64_t b, Box &bx)
{
    uint64_t bi[3];
    bi[2] = b % g.nb[2];
    b /= g.nb[2];
    bi[1] = b % g.nb[1];
    bi[0] = b / g.nb[1];
    uint64_t B = 1ull << g.blog;
    for (int a = 1; a < 3; a++) {
        bx.lo[a] = bi[a] * B;
        bx.hi[a] = bx.lo[a] + B < g.n[a] - 1 ? bx.lo[a] + B : g.n[a] - 1;
    }
    /* axis 0: the blocks of slab bi / nbl, which end at its last row (one
     * slab, format 1's grid, skips the division: it costs the decoder's
     * box kernels their start) */
    uint64_t z0 = 0, bl = bi[0];
    if (g.nbl != g.nb[0]) {
        const uint32_t s = (uint32_t)bi[0] / (uint32_t)g.nbl; /* block counts fit 32 bits (count < 2^32) */
        z0 = s * g.slab_rows;
        bl = bi[0] - (uint64_t)s * g.nbl;
    }
    const uint64_t last = z0 + g.slab_rows - 1;
    bx.lo[0] = z0 + bl * B;
    bx.hi[0] = bx.lo[0] + B < last ? bx.lo[0] + B : last;
}

/* A closed box that ends on its grid's last point along an axis (axis 0:
 * its slab's last row) owns that far face too, so the one-point-thin box
 * beyond it (n = kB + 1 points: a trial box of 17^3 at B = 16 is seven
 * such boxes beside one whole one) owns nothing and returns at once; both
 * compute the face from the face's own points, the same values. own[a]:
 * the box owns its points below lo[a] + own[a]. Axes from a0 (the slice
 * kernels pass 1: a run never holds its slab's last row). False: a spare
 * box. working_blocks counts the others. */
__device__ __forceinline__ bool box_own(const gg_grid &g, uint64_t b, const Box &bx, int a0, uint32_t own[3],
                                        uint32_t B = 0)
{
    if (!B) B = 1u << g.blog;
    own[0] = own[1] = own[2] = B;
    for (int a = a0; a < 3; a++) {
        uint64_t first = 0, last = g.n[a] - 1;
        if (a == 0) {
            const uint64_t s = g.nbl != g.nb[0] ? b / (g.nb[1] * g.nb[2]) / g.nbl : 0;
            first = s * g.slab_rows;
            last = first + g.slab_rows - 1;
        }
        if (bx.hi[a] != last) continue;
        if (bx.lo[a] == last && last != first) return false;
        own[a] = (uint32_t)(bx.hi[a] - bx.lo[a] + 1);
    }
    return true;
}

/* Box b of a merged coarse kernel (PART_COARSE_M): 2 x 2 x 2 of g's boxes,
 * edge 2B (one slab: split_ok). */
__device__ __forceinline__ void merged_box(const gg_grid &g, uint64_t b, Box &bx)
{
    const uint64_t m1 = (g.nb[1] + 1) / 2, m2 = (g.nb[2] + 1) / 2, B2 = 2ull << g.blog;
    const uint64_t bi[3] = {b / m2 / m1, b / m2 % m1, b % m2};
    for (int a = 0; a < 3; a++) {
        bx.lo[a] = bi[a] * B2;
        bx.hi[a] = bx.lo[a] + B2 < g.n[a] - 1 ? bx.lo[a] + B2 : g.n[a] - 1;
    }
}

/* A stencil's bounds along an axis at box coordinate c: the box's [0, ehi],
 * or in a merged box (MG) those of the sub-box of edge sub holding c: c is
 * an odd multiple of the level's stride, never on a sub-box's face, and each
 * sub-box predicts as the box it replaces. */
template <bool MG>
__device__ __forceinline__ void sub_bounds(uint32_t c, uint32_t ehi, uint32_t sub, uint32_t &lo, uint32_t &hi)
{
    if (!MG) {
        lo = 0;
        hi = ehi;
        return;
    }
    lo = c & ~(sub - 1u);
    hi = lo + sub < ehi ? lo + sub : ehi;
}

/* Index of the anchor at (z, y, x), all anchor coordinates, in the anchor
 * section (blocks in index order, a slab's own on axis 0). */
__device__ __forceinline__ uint64_t anchor_index(const gg_grid &g, uint64_t z, uint64_t y, uint64_t x)
{
    uint64_t bz = z >> g.blog;
    if (g.nbl != g.nb[0]) {
        const uint32_t s = (uint32_t)z / (uint32_t)g.slab_rows; /* rows fit 32 bits */
        bz = s * g.nbl + ((z - (uint64_t)s * g.slab_rows) >> g.blog);
    }
    return (bz * g.nb[1] + (y >> g.blog)) * g.nb[2] + (x >> g.blog);
}

/* Box of sample block b: cpu/interp.c glide_sample_block (every k-th
 * anchor block per axis, numbered in index order). */
__device__ __forceinline__ void sample_box(const gg_grid &g, uint64_t k, uint64_t b, Box &bx)
{
    uint64_t m1 = (g.nb[1] + k - 1) / k, m2 = (g.nb[2] + k - 1) / k;
    uint64_t sx = b % m2, sy = b / m2 % m1, sz = b / m2 / m1;
    block_box(g, ((sz * k) * g.nb[1] + sy * k) * g.nb[2] + sx * k, bx);
}

/* The points of step j of level s inside a closed box (docs/FORMAT.md §8.1). */
struct Step {
    uint64_t start[3], step[3];
    uint32_t cnt[3], total;
};

/* Axis a at step j of a level (axes in the order ax): 2 the axis being
 * interpolated (odd multiples of s), 1 an axis done earlier in the level
 * (multiples of s), 0 one still to come (multiples of 2s). */
__device__ __forceinline__ int step_class(const uint8_t *ax, unsigned j, unsigned a)
{
    if (a == ax[j]) return 2;
    for (unsigned k = 0; k < j; k++)
        if (ax[k] == a) return 1;
    return 0;
}

__device__ __forceinline__ void step_make(Step &S, const Box &bx, uint64_t s, const uint8_t *ax, unsigned j)
{
    uint64_t tot = 1;
    for (unsigned a = 0; a < 3; a++) {
        const int cls = step_class(ax, j, a);
        /* a box starts a block (a multiple of B >= 2s from its slab's first
         * row), so its classes start at lo + s or lo */
        const uint64_t lo = bx.lo[a];
        S.start[a] = cls == 2 ? lo + s : lo;
        S.step[a] = cls == 1 ? s : 2 * s;
        S.cnt[a] = S.start[a] <= bx.hi[a] ? (uint32_t)((bx.hi[a] - S.start[a]) / S.step[a] + 1) : 0;
        tot *= S.cnt[a];
    }
    S.total = (uint32_t)tot;
}

/* Row-order split of an index t over an e1 x e2 grid of rows (rows of e2):
 * t / e2 and (t / e2) / e1. A hardware-less 32-bit division costs about
 * twenty instructions, so a Walk carries m = ceil(2^32 / e) and divides by
 * a multiply-high: with m = (2^32 + r) / e, 0 <= r < e,
 * floor(t * m / 2^32) = floor(t / e) whenever t * e < 2^32 (the error
 * t * r / 2^32 / e stays below 1 / e), which `fast` checks; larger extents
 * (strides far above the defaults) divide plainly. A step walks its point
 * lattice with one (LStep: the same in box-local coordinates, with shifts:
 * boxes start at multiples of B, and 2s <= B, so a level's classes start at
 * 0 or s locally); the box passes (loads, row-order stores) walk the box. */
struct Walk {
    uint32_t e1, e2, m1, m2;
    bool fast;
};

struct LStep {
    uint32_t start[3], lg[3], cnt[3], total;
    Walk w; /* over cnt[1] x cnt[2] */
};

/* ceil(2^32 / d) for d >= 2 (0xFFFFFFFF / d + 1, exact also for powers of
 * two); d <= 1 divides by selection instead. Steps of the default strides
 * count at most 65 points per axis: those come from a table, since one
 * division per step and thread would cost as much as it saves. */
constexpr uint32_t kMagicTab = 66;
struct MagicTab {
    uint32_t m[kMagicTab];
    constexpr MagicTab() : m()
    {
        for (uint32_t d = 2; d < kMagicTab; d++) m[d] = 0xFFFFFFFFu / d + 1;
    }
};
__constant__ MagicTab c_magic = MagicTab();

__device__ __forceinline__ uint32_t div_magic(uint32_t d)
{
    return d < kMagicTab ? c_magic.m[d] : 0xFFFFFFFFu / d + 1;
}

__device__ __forceinline__ uint32_t div_by(uint32_t t, uint32_t d, uint32_t m) { return d >= 2 ? __umulhi(t, m) : t; }

/* total: the points walked, for the exactness check (t * e < 2^32) */
__device__ __forceinline__ Walk walk_make(uint32_t e1, uint32_t e2, uint32_t total)
{
    const uint32_t dmax = e1 > e2 ? e1 : e2;
    return Walk{e1, e2, div_magic(e1), div_magic(e2), (uint64_t)total * dmax < (1ull << 32)};
}

__device__ __forceinline__ void walk_point(const Walk &W, uint32_t t, uint32_t &lz, uint32_t &ly, uint32_t &lx)
{
    if (W.fast) {
        const uint32_t u = div_by(t, W.e2, W.m2);
        lx = t - u * W.e2;
        lz = div_by(u, W.e1, W.m1);
        ly = u - lz * W.e1;
    } else {
        const uint32_t u = t / W.e2;
        lx = t % W.e2;
        ly = u % W.e1;
        lz = u / W.e1;
    }
}


/* A box's values from global into shared memory in row order (load(t):
 * the value of box point t), kGatherU loads in flight per thread. One at
 * a time, each load waited for the store before it, which the compiler
 * cannot move it above (a generic pointer may alias shared memory): a
 * round trip to L2 per point, 19 of them per thread of a 256-thread block
 * on a 17^3 box. */
constexpr unsigned kGatherU = 4;
template <class V, class L> __device__ __forceinline__ void box_gather(V *dst, uint32_t E, uint32_t step, L load)
{
    for (uint32_t t0 = threadIdx.x; t0 < E; t0 += step * kGatherU) {
        V v[kGatherU];
#pragma unroll
        for (unsigned u = 0; u < kGatherU; u++)
            if (t0 + u * step < E) v[u] = load(t0 + u * step);
#pragma unroll
        for (unsigned u = 0; u < kGatherU; u++)
            if (t0 + u * step < E) dst[t0 + u * step] = v[u];
    }
}

/* A thread's box points t, t + step, ... in row order (extents e1, e2 of
 * the two faster axes), their coordinates carried from one to the next:
 * the division per point (walk_point) cost the prediction kernel's gather
 * about 25 instructions a point (ncu source counters, H200, 256^3). */
struct Stepper {
    uint32_t z, y, x, dz, dy, dx, e1, e2;
};

__device__ __forceinline__ Stepper stepper_make(uint32_t e1, uint32_t e2, uint32_t t, uint32_t step)
{
    Stepper s;
    s.e1 = e1;
    s.e2 = e2;
    const uint32_t u = t / e2, v = step / e2;
    s.x = t - u * e2;
    s.z = u / e1;
    s.y = u - s.z * e1;
    s.dx = step - v * e2;
    s.dz = v / e1;
    s.dy = v - s.dz * e1;
    return s;
}

/* x + dx < 2 e2 and y + dy + 1 < 2 e1: one carry each */
__device__ __forceinline__ void stepper_next(Stepper &s)
{
    s.x += s.dx;
    uint32_t c = s.x >= s.e2;
    if (c) s.x -= s.e2;
    s.y += s.dy + c;
    c = s.y >= s.e1;
    if (c) s.y -= s.e1;
    s.z += s.dz + c;
}

/* box_gather with load(z, y, x) for the box's E = e0 e1 e2 points */
template <class V, class L>
__device__ __forceinline__ void box_gather_rows(V *dst, uint32_t E, uint32_t e1, uint32_t e2, uint32_t step, L load)
{
    Stepper s = stepper_make(e1, e2, threadIdx.x, step);
    for (uint32_t t0 = threadIdx.x; t0 < E; t0 += step * kGatherU) {
        V v[kGatherU];
#pragma unroll
        for (unsigned u = 0; u < kGatherU; u++) {
            if (t0 + u * step < E) v[u] = load(s.z, s.y, s.x);
            stepper_next(s);
        }
#pragma unroll
        for (unsigned u = 0; u < kGatherU; u++)
            if (t0 + u * step < E) dst[t0 + u * step] = v[u];
    }
}

/* MAGIC: divide by multiply-high where exact. Worth it in the prediction
 * kernel, whose threads walk many points per step; the sampling kernels
 * (tune, choose) visit few points per thread and step, and measured slower
 * with it (H200, 256^3: tune 55 -> 62 us). */
template <bool MAGIC = false>
__device__ __forceinline__ void lstep_make(LStep &S, const uint32_t e[3], unsigned ls, const uint8_t *ax, unsigned j)
{
    uint32_t tot = 1;
    for (unsigned a = 0; a < 3; a++) {
        const int cls = step_class(ax, j, a);
        uint32_t st = cls == 2 ? (1u << ls) : 0u, lg = cls == 1 ? ls : ls + 1, last = e[a] - 1;
        S.start[a] = st;
        S.lg[a] = lg;
        S.cnt[a] = st <= last ? ((last - st) >> lg) + 1 : 0;
        tot *= S.cnt[a];
    }
    S.total = tot;
    if (MAGIC) S.w = walk_make(S.cnt[1], S.cnt[2], tot);
    else S.w = Walk{S.cnt[1], S.cnt[2], 0, 0, false};
}

__device__ __forceinline__ void lstep_point(const LStep &S, uint32_t t, uint32_t l[3])
{
    uint32_t ix, iy, iz;
    walk_point(S.w, t, iz, iy, ix);
    l[0] = S.start[0] + (iz << S.lg[0]);
    l[1] = S.start[1] + (iy << S.lg[1]);
    l[2] = S.start[2] + (ix << S.lg[2]);
}

__device__ __forceinline__ void step_point(const Step &S, uint32_t t, uint64_t c[3])
{
    uint32_t ix = t % S.cnt[2];
    t /= S.cnt[2];
    uint32_t iy = t % S.cnt[1], iz = t / S.cnt[1];
    c[0] = S.start[0] + iz * S.step[0];
    c[1] = S.start[1] + iy * S.step[1];
    c[2] = S.start[2] + ix * S.step[2];
}

/* glide_set_lattice: the points of a blended level of stride s = 2^ls odd
 * on the axes of mask (class 2 there, 0 elsewhere), box-local. */
template <bool MAGIC = false>
__device__ __forceinline__ void lset_make(LStep &S, const uint32_t e[3], unsigned ls, unsigned mask)
{
    uint32_t tot = 1;
    for (unsigned a = 0; a < 3; a++) {
        const uint32_t st = (mask >> a & 1u) ? (1u << ls) : 0u, last = e[a] - 1;
        S.start[a] = st;
        S.lg[a] = ls + 1;
        S.cnt[a] = st <= last ? ((last - st) >> (ls + 1)) + 1 : 0;
        tot *= S.cnt[a];
    }
    S.total = tot;
    if (MAGIC) S.w = walk_make(S.cnt[1], S.cnt[2], tot);
    else S.w = Walk{S.cnt[1], S.cnt[2], 0, 0, false};
}

/* the same in grid coordinates (interp_k) */
__device__ __forceinline__ void set_make(Step &S, const Box &bx, uint64_t s, unsigned mask)
{
    uint64_t tot = 1;
    for (unsigned a = 0; a < 3; a++) {
        const uint64_t lo = bx.lo[a];
        S.start[a] = (mask >> a & 1u) ? lo + s : lo;
        S.step[a] = 2 * s;
        S.cnt[a] = S.start[a] <= bx.hi[a] ? (uint32_t)((bx.hi[a] - S.start[a]) / S.step[a] + 1) : 0;
        tot *= S.cnt[a];
    }
    S.total = (uint32_t)tot;
}

/* ------------------------------------------------------------- tuning */


__device__ __forceinline__ unsigned long long block_sum(unsigned long long v, unsigned long long *red)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xFFFFFFFFu, v, o);
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;
    __syncthreads();
    unsigned long long t = 0;
    if (threadIdx.x == 0)
        for (unsigned w = 0; w < blockDim.x / 32; w++) t += red[w];
    __syncthreads();
    return t;
}

/* Where a thread block keeps the reconstructed values of its box: shared
 * memory (origin = box corner, box strides) or global scratch (origin 0,
 * grid strides). */
template <class T> struct RView {
    T *base; /* T may be const */
    uint64_t org[3];
    long long rs[3];
    __device__ __forceinline__ T *at(const uint64_t c[3]) const
    {
        return base + (long long)(c[0] - org[0]) * rs[0] + (long long)(c[1] - org[1]) * rs[1] +
               (long long)(c[2] - org[2]);
    }
};

/* The extents of a closed box and its element count. */
__device__ __forceinline__ uint32_t box_ext(const Box &bx, uint32_t e[3])
{
    for (int a = 0; a < 3; a++) e[a] = (uint32_t)(bx.hi[a] - bx.lo[a] + 1);
    return e[0] * e[1] * e[2];
}

/* cpu/interp_tmpl.h glide_interp_tune's choice: per level the best spline
 * (first minimum in the order NAK, linear, natural) with order 0, then the
 * best order with that spline. Run by the last block of tune_k to finish. */
__device__ void tune_pick(const gg_grid &g, gg_state *st)
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

__device__ void blend_pick_spec(const gg_grid &g, bool bits, gg_state *st);

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

/* Format 4 (FORMAT.md §11.2 "Blending", cpu/interp_tmpl.h glide_interp_tune):
 * per level, the blends with the chosen spline, (best & 3) | (n_orders << 2)
 * then (best & 3) | ((n_orders + 1) << 2), each taken only if its cost is
 * strictly below the best so far. With the linear spline both are the same
 * prediction (rs = sp = 0), so the second never wins and is not costed.
 * bits: GLIDE_PRED_AUTO, whose interpolation estimate takes the chosen
 * blend's sums here (choose_k skips blended levels). Run by the last block
 * of blend_k to finish. */
__device__ void blend_pick(const gg_grid &g, bool bits, gg_state *st)
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
__device__ void blend_pick_spec(const gg_grid &g, bool bits, gg_state *st)
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

/* The odd axes a1 < a2 < a3 of a blended level's point set (absent ones: 3) */
__device__ __forceinline__ void mask_axes(unsigned mask, unsigned ax[3])
{
    const unsigned m2 = mask & (mask - 1), m3 = m2 & (m2 - 1);
    ax[0] = (unsigned)__ffs((int)mask) - 1;
    ax[1] = m2 ? (unsigned)__ffs((int)m2) - 1 : 3u;
    ax[2] = m3 ? (unsigned)__ffs((int)m3) - 1 : 3u;
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

/* ------------------------------------------------- encode and decode */

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

/* blend_w_k's grids: both blends in each block; one blend a block (grid z);
 * one spline and blend a block for every spline (z = spline index x 2 +
 * blend), run beside tune_k before it has chosen the splines */
enum { GG_BLEND_BOTH, GG_BLEND_SPLIT, GG_BLEND_SPEC };

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

/* A split interpolation (large chunks): the levels of stride 2 and up run
 * on the even lattice alone (every coordinate even: the points they
 * predict and read), a box of it a block, in a kernel of its own
 * (PART_COARSE, g: the lattice's grid, half_grid) that writes their
 * reconstructions and symbols to compact arrays in the lattice's order
 * (rc, sc); then the finest level (PART_FINE, g: the chunk's) takes those
 * into its box in place of the values. One box's chain of barrier-separated
 * phases was a dozen long, and the coarse phases' few points left most of
 * a 256-thread block waiting; the coarse kernel's blocks are small and
 * many. Same operations on the same values: the same bytes. */
enum { PART_ALL = 0, PART_COARSE = 1, PART_FINE = 2, PART_COARSE_M = 3 };
struct GSplit {
    void *rc;     /* reconstructions of the even lattice (T) */
    uint16_t *sc; /* and their symbols (encoding) */
    /* Not the split's: format 5's plane 0 histogram (gg_state.hist_pl[0])
     * where the encoder reads the planes in place, else null. PART_ALL then
     * counts plane 0 (every coordinate even) apart and sets hist0_made, so
     * that hist0_k, which reads a quarter of the rows again after the
     * kernel, returns at once: 64^3 kernel-only compression 111.6 -> 108.7
     * us (H200, bench/gpu-runs/s1127d run 6). A split interpolation's
     * coarse kernel counts it as it stores the lattice's symbols (its
     * points are plane 0's): 256^3 455.3 -> 452.0 us, 449.1 with the fine
     * kernel by PDL (H100, five rounds, bench/gpu-runs/s1130 run 3).
     * Counted by the fine kernel, or from the lattice beside it, it had
     * cost more than hist0_k's 7.6 us (s1127d runs 2-4). */
    unsigned long long *h0;
};

/* interp_sh_k's store of 16^3 owned points (rows of kRowLen) with a block of kRowThreads */
constexpr unsigned kRowLen = 16, kRowThreads = kRowLen * kRowLen;

/* The 16^3 owned points of a box to dst (g0: the box corner's element,
 * st0/st1 the chunk's strides, rs0/rs1 the box's), val(lt, gi) giving the
 * element of box point lt, chunk point gi. A row of 16 is 16 * sizeof(E)
 * bytes, sizeof(E) pieces of 16: adjacent threads take a row's adjacent
 * pieces, so a warp's store covers whole rows (16-byte stores where vec:
 * every row starts at a multiple of 8 elements; dst 16-byte aligned). With
 * a thread a row, each 16-byte store of a warp spread over 32 rows, and
 * the coarse encoder went 40.8 -> 45.6 us (ncu, H200, 256^3). Every thread
 * takes sizeof(E) pieces: whole warps run each step (val may use warp
 * intrinsics). */
template <class E, class F>
__device__ __forceinline__ void row_pass(E *dst, uint64_t g0, uint32_t st0, uint32_t st1, uint32_t rs0, uint32_t rs1,
                                         bool vec, F val)
{
    constexpr unsigned P = 16 / sizeof(E), C = kRowLen / P; /* elements a piece, pieces a row */
    vec = vec && ((uintptr_t)dst & 15u) == 0;
#pragma unroll 1
    for (unsigned task = threadIdx.x; task < kRowThreads * C; task += kRowThreads) {
        const uint32_t row = task / C, c = task % C, lz = row / kRowLen, ly = row % kRowLen;
        const uint32_t lt = lz * rs0 + ly * rs1 + c * P;
        const uint64_t gi = g0 + (uint64_t)(lz * st0 + ly * st1 + c * P);
        E v[P];
#pragma unroll
        for (unsigned j = 0; j < P; j++) v[j] = val(lt + j, gi + j);
        if (vec) {
            uint4 w;
            memcpy(&w, v, 16);
            *reinterpret_cast<uint4 *>(dst + gi) = w;
        } else {
#pragma unroll
            for (unsigned j = 0; j < P; j++) dst[gi + j] = v[j];
        }
    }
}

/* Interpolation with the whole closed box in shared memory: values
 * (encode: the input, overwritten in place by the reconstruction, since a
 * point is read as input only before its own step) and symbols. Global
 * memory is touched only by coalesced row-order passes. BL: the chunk has
 * blended levels (format 4): the level residuals w beside the values (E
 * more elements), fill-awareness from lv (both kinds in one instance; FA
 * unused). PART: all levels, or one part of a split (GSplit). */
/* resident blocks an SM may hold: 32 on sm_80 and sm_90, 24 on sm_89, 16 on
 * sm_75 and sm_86 (a launch bound above it is ignored, with a warning) */
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 800 || __CUDA_ARCH__ >= 900)
#define GG_SM_BLOCKS 32
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 890
#define GG_SM_BLOCKS 24
#else
#define GG_SM_BLOCKS 16
#endif
/* 256-thread instances at four blocks an SM: the row store took the
 * non-blended encoders to 66 registers (three blocks) */
template <class T, int OP, int NT, bool FA, bool BL, int PART = PART_ALL>
__global__ void __launch_bounds__(NT, !BL && PART != PART_COARSE_M && NT != kRowThreads ? 1
                                  : 1024 / NT < GG_SM_BLOCKS ? 1024 / NT
                                                             : GG_SM_BLOCKS)
    interp_sh_k(gg_grid g, const gg_levels *lv, const T *x, uint16_t *sym, gg_state *st, DecodeIn in, T *y, bool gate,
                GSplit sp)
{
    /* PART_COARSE_M: the coarse part, a block for 2 x 2 x 2 of the lattice's boxes */
    constexpr bool coarse = PART == PART_COARSE || PART == PART_COARSE_M, MG = PART == PART_COARSE_M;
    /* the fine kernel (launched with PDL where gg_set_pdl says so) loads
     * its box as the coarse kernel's blocks leave and waits before it
     * reads their lattice; what it reads before was written before the
     * coarse kernel began */
    constexpr bool pdl_fine = PART == PART_FINE;
    /* decoding has nothing beside the coarse kernel: the fine one's blocks
     * may load from its start (encoding: after the levels, below) */
    if (coarse && OP == OP_DECODE) pdl_trigger();
    /* the coarse kernel (encoding) by PDL (GG_PDL_COARSE): every read after this */
    if (coarse) pdl_wait();
    if (gate && (st->lorenzo || st->slice)) { /* GG_CHOSEN: Lorenzo was */
        if (pdl_fine) pdl_wait();
        return;
    }
    /* launch_predict: the other one's chunk */
    if (OP == OP_ENCODE && (BL != (lv->blended != 0) || FA != (lv->fill_aware != 0))) {
        if (pdl_fine) pdl_wait();
        return;
    }
    constexpr unsigned loff = coarse ? 1u : 0u;
    extern __shared__ __align__(16) unsigned char smem[];
    /* the coarse kernel's: plane 0's alone (GSplit.h0), its points being the lattice's */
    constexpr bool hists = OP == OP_ENCODE;
    __shared__ unsigned hist[hists ? GLIDE_NSYM : 1];
    Box bx;
    if (MG) merged_box(g, blockIdx.x, bx);
    else block_box(g, blockIdx.x, bx);
    uint32_t own[3];
    if (!box_own(g, blockIdx.x, bx, 0, own, MG ? 2u << g.blog : 0u)) {
        if (pdl_fine) pdl_wait();
        return;
    }
    const uint64_t B = 1ull << g.blog;
    uint32_t e[3];
    const uint32_t E = box_ext(bx, e);
    /* the points this block owns: [0, o) of its box on each axis */
    uint32_t o[3];
    for (int a = 0; a < 3; a++) o[a] = e[a] < own[a] ? e[a] : own[a];
    /* plane 0 counted apart (GSplit.h0): box corners are multiples of B,
     * so a point's parity in the box is its parity in the chunk */
    const bool h0 = OP == OP_ENCODE && (PART == PART_ALL || coarse) && sp.h0 != nullptr;
    T *r = (T *)smem;
    T *w = BL ? (T *)(smem + (size_t)E * sizeof(T)) : nullptr;
    uint16_t *sb = (uint16_t *)(smem + (size_t)E * sizeof(T) * (BL ? 2 : 1));
    const long long rs[3] = {(long long)e[1] * e[2], (long long)e[2], 1};
    const T subst = Bits<T>::from((typename Bits<T>::U)lv->subst_bits);
    const double eb = lv->eb_abs;

    /* element index of a box point: the box's corner, then the offset in
     * 32 bits where the chunk's count fits (the offset is below it), which
     * the load and store passes (one per point) take at 256^3 */
    const uint64_t g0 = bx.lo[0] * g.st[0] + bx.lo[1] * g.st[1] + bx.lo[2];
    const bool s32 = g.count <= (1ull << 32);
    const uint32_t st0 = (uint32_t)g.st[0], st1 = (uint32_t)g.st[1];
    auto gidx = [&](uint32_t lz, uint32_t ly, uint32_t lx) {
        return g0 + (s32 ? (uint64_t)(lz * st0 + ly * st1 + lx) : lz * g.st[0] + ly * g.st[1] + lx);
    };
    /* the coarse kernel's box is the chunk's points at twice its
     * coordinates (in.fst: the chunk's strides, set for both operations),
     * whose offsets from its corner fit 32 bits while the lattice has at
     * most 2^28 points (the chunk at most about 2^31) */
    const uint64_t g0f = 2 * (bx.lo[0] * in.fst0 + bx.lo[1] * in.fst1 + bx.lo[2]);
    const bool f32 = coarse ? g.count <= (1ull << 28) : s32;
    const uint64_t gb = coarse ? g0f : g0;
    const uint32_t fs0 = coarse ? 2 * (uint32_t)in.fst0 : st0, fs1 = coarse ? 2 * (uint32_t)in.fst1 : st1,
                   fs2 = coarse ? 2u : 1u;
    if constexpr (OP == OP_DECODE) {
        /* the decoder keeps the division per point: with the carried
         * coordinates and the row store its fine kernel spilled (28 bytes
         * against 16) and ran slower (187.2 -> 194.7 us, ncu, H200, 256^3) */
        const Walk W = walk_make(e[1], e[2], E);
        auto gi_of = [&](uint32_t t) {
            uint32_t lx, ly, lz;
            walk_point(W, t, lz, ly, lx);
            if (coarse) return g0f + 2 * (lz * in.fst0 + ly * in.fst1 + lx);
            return gidx(lz, ly, lx);
        };
        box_gather(sb, E, NT, [&](uint32_t t) { return in.sym[gi_of(t)]; });
    } else if (f32) {
        box_gather_rows(r, E, e[1], e[2], NT,
                        [&](uint32_t z, uint32_t yy, uint32_t xx) { return x[gb + (z * fs0 + yy * fs1 + xx * fs2)]; });
    } else {
        const uint64_t f0 = coarse ? 2 * in.fst0 : g.st[0], f1 = coarse ? 2 * in.fst1 : g.st[1];
        box_gather_rows(r, E, e[1], e[2], NT,
                        [&](uint32_t z, uint32_t yy, uint32_t xx) { return x[gb + z * f0 + yy * f1 + xx * fs2]; });
    }
    if (hists)
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += NT) hist[t] = 0;
    __syncthreads();
    if (PART == PART_FINE) {
        pdl_wait();
        /* the even lattice's points as the coarse kernel left them */
        const T *rc = (const T *)sp.rc;
        uint32_t h[3];
        for (int a = 0; a < 3; a++) h[a] = (e[a] + 1) / 2;
        const uint64_t hs1 = (g.n[2] + 1) / 2, hs0 = ((g.n[1] + 1) / 2) * hs1;
        const uint64_t hg0 = bx.lo[0] / 2 * hs0 + bx.lo[1] / 2 * hs1 + bx.lo[2] / 2;
        const uint32_t H = h[0] * h[1] * h[2];
        if constexpr (OP == OP_DECODE) {
            const Walk Wh = walk_make(h[1], h[2], H);
            for (uint32_t t = threadIdx.x; t < H; t += NT) {
                uint32_t hx, hy, hz;
                walk_point(Wh, t, hz, hy, hx);
                const uint32_t lt = 2 * (hz * (uint32_t)rs[0] + hy * (uint32_t)rs[1] + hx);
                r[lt] = rc[hg0 + hz * hs0 + hy * hs1 + hx];
            }
        } else {
            /* coordinates carried, every load of a thread before its stores (box_gather_rows) */
            Stepper sh = stepper_make(h[1], h[2], threadIdx.x, NT);
            for (uint32_t t0 = threadIdx.x; t0 < H; t0 += NT * kGatherU) {
                T v[kGatherU];
                uint16_t q[kGatherU];
                uint32_t lt[kGatherU];
#pragma unroll
                for (unsigned u = 0; u < kGatherU; u++) {
                    if (t0 + u * NT < H) {
                        const uint64_t hi = hg0 + (s32 ? (uint64_t)(sh.z * (uint32_t)hs0 + sh.y * (uint32_t)hs1 + sh.x)
                                                       : sh.z * hs0 + sh.y * hs1 + sh.x);
                        lt[u] = 2 * (sh.z * (uint32_t)rs[0] + sh.y * (uint32_t)rs[1] + sh.x);
                        v[u] = rc[hi];
                        q[u] = sp.sc[hi];
                    }
                    stepper_next(sh);
                }
#pragma unroll
                for (unsigned u = 0; u < kGatherU; u++) {
                    if (t0 + u * NT >= H) continue;
                    r[lt[u]] = v[u];
                    sb[lt[u]] = q[u];
                }
            }
        }
        __syncthreads();
    }

    /* anchors of the closed box: lo and, where the box is full, lo + B */
    if (PART != PART_FINE) {
        uint32_t ca[3];
        for (int a = 0; a < 3; a++) ca[a] = (uint32_t)((bx.hi[a] - bx.lo[a]) / B + 1);
        uint32_t na = ca[0] * ca[1] * ca[2];
        for (uint32_t t = threadIdx.x; t < na; t += NT) {
            uint32_t u = t, l[3];
            l[2] = (u % ca[2]) * (uint32_t)B;
            u /= ca[2];
            l[1] = (u % ca[1]) * (uint32_t)B;
            l[0] = (u / ca[1]) * (uint32_t)B;
            long long lt = l[0] * rs[0] + l[1] * rs[1] + l[2];
            T v;
            if (OP == OP_ENCODE) v = r[lt];
            else {
                uint64_t k = anchor_index(g, bx.lo[0] + l[0], bx.lo[1] + l[1], bx.lo[2] + l[2]);
                v = load_le<T>(in.anchors + k * sizeof(T));
            }
            bool fill = is_fill(g, v), fin = isfinite(v);
            unsigned want = fill ? GLIDE_SYM_FILL : !fin ? GLIDE_SYM_OUTLIER : GLIDE_SYM_ZERO;
            if (OP == OP_ENCODE) {
                r[lt] = (fill || !fin) ? subst : v;
                sb[lt] = (uint16_t)want;
            } else {
                if (sb[lt] != want) *in.err = GG_ERR_CORRUPT;
                uint64_t gi = (bx.lo[0] + l[0]) * g.st[0] + (bx.lo[1] + l[1]) * g.st[1] + bx.lo[2] + l[2];
                r[lt] = anchor_r(in, gi, want, v, subst);
            }
        }
    }
    /* the first level's plan; each level makes the next one's (the other
     * buffer, last read before the previous level's final barrier) */
    const int ri[3] = {(int)rs[0], (int)rs[1], 1};
    __shared__ SPlan plan[2][GG_PLAN_MAX];
    const unsigned top = PART == PART_FINE ? 1u : g.blog;
    if (threadIdx.x < GG_PLAN_MAX) splan_make<NT, BL>(g, lv, e, ri, top, threadIdx.x, plan[top & 1][threadIdx.x], loff);
    __syncthreads();

    constexpr bool fa = FA;
    /* blend_level_full's box */
    const bool full =
        BL && !MG && g.eff_rank == 3 && g.blog == kFullBlog && e[0] == kFullE && e[1] == kFullE && e[2] == kFullE;
    for (unsigned l = top; l >= 1; l--) {
        if (l >= 2 && threadIdx.x < GG_PLAN_MAX)
            splan_make<NT, BL>(g, lv, e, ri, l - 1, threadIdx.x, plan[(l - 1) & 1][threadIdx.x], loff);
        const SPlan *pl = plan[l & 1];
        const uint32_t s = 1u << (l - 1);
        const unsigned cfg = lv->level_cfg[l - 1 + loff], spline = cfg & 3u;
        const T e2 = (T)(2.0 * lv->level_eb[l - 1 + loff]);
        if (BL && cfg_blended(g.eff_rank, cfg)) {
            blend_level_sh<T, OP, NT, FA, MG>(g, g0, ri, r, w, sb, in, l - 1, pl, cfg, e2, eb, subst, full,
                                              (uint32_t)B);
            continue;
        }
        for (unsigned j = 0; j < g.eff_rank; j++) {
            const LStep S = pl[j].S;
            const unsigned d = pl[j].ax[0];
            const int o1 = pl[j].o[0];
            const uint32_t ehi = pl[j].hi[0];
            for (uint32_t t = threadIdx.x; t < S.total; t += NT) {
                uint32_t lc[3];
                lstep_point(S, t, lc);
                const int lt = (int)(lc[0] * ri[0] + lc[1] * ri[1] + lc[2]);
                T *rp = r + lt;
                const uint32_t c = pick3(lc, d);
                uint32_t clo, chi;
                sub_bounds<MG>(c, ehi, (uint32_t)B, clo, chi);
                if (OP == OP_ENCODE) {
                    T xv = *rp, rv;
                    unsigned sy;
                    if (is_fill(g, xv)) {
                        sy = GLIDE_SYM_FILL;
                        rv = subst;
                    } else {
                        const uint16_t *sp = sb + lt;
                        T pred = fa ? ipredict_fa(rp, o1, c, s, clo, chi, spline, subst,
                                                  [&](int off) { return sp[off] == GLIDE_SYM_FILL; })
                                    : ipredict(rp, o1, c, s, clo, chi, spline);
                        int q = quantize(xv, pred, e2, eb, &rv);
                        if (q >= 0) sy = (unsigned)q;
                        else {
                            sy = GLIDE_SYM_OUTLIER;
                            rv = isfinite(xv) ? xv : subst;
                        }
                    }
                    *rp = rv;
                    sb[lt] = (uint16_t)sy;
                } else {
                    unsigned sy = sb[lt];
                    T rv;
                    if (sy < GLIDE_NQUANT) {
                        const uint16_t *sp = sb + lt;
                        const T pred = fa ? ipredict_fa(rp, o1, c, s, clo, chi, spline, subst,
                                                        [&](int off) { return sp[off] == GLIDE_SYM_FILL; })
                                          : ipredict(rp, o1, c, s, clo, chi, spline);
                        rv = pred + (T)((int)sy - GLIDE_SYM_ZERO) * e2;
                    } else if (sy == GLIDE_SYM_FILL) {
                        rv = subst;
                    } else {
                        T v = outlier_at(in, g0 + lc[0] * g.st[0] + lc[1] * g.st[1] + lc[2], subst);
                        rv = isfinite(v) ? v : subst;
                    }
                    *rp = rv;
                }
            }
            __syncthreads();
        }
    }

    /* the fine kernel's blocks take the places of the coarse kernel's as
     * they finish: triggered at the start, they held SMs the block trial's
     * kernels wanted (256^3 compression slower) */
    if (coarse && OP == OP_ENCODE) pdl_trigger();
    /* the points this block owns, in row order */
    constexpr bool rows = NT == kRowThreads && (coarse || OP == OP_ENCODE);
    if (rows && o[0] == kRowLen && o[1] == kRowLen && o[2] == kRowLen && s32) {
        /* 16^3 owned points (every box of an anchor stride 16 chunk whose
         * extents are multiples of 16): whole rows, 16 bytes a thread
         * (row_pass), for the point-by-point loop, which spent about 45
         * instructions a point (H200, 256^3) */
        const uint32_t r0 = (uint32_t)rs[0], r1 = (uint32_t)rs[1];
        const bool vec = ((g0 | st0 | st1) & 7u) == 0;
        if (coarse) {
            row_pass((T *)sp.rc, g0, st0, st1, r0, r1, vec, [&](uint32_t lt, uint64_t) { return r[lt]; });
            if (OP == OP_ENCODE)
                row_pass(sp.sc, g0, st0, st1, r0, r1, vec, [&](uint32_t lt, uint64_t) {
                    const uint16_t sy = sb[lt];
                    if (h0) hist_add(hist, sy);
                    return sy;
                });
        } else {
            row_pass(sym, g0, st0, st1, r0, r1, vec, [&](uint32_t lt, uint64_t) {
                const uint16_t sy = sb[lt];
                hist_add(hist, sy);
                return sy;
            });
        }
    } else {
        const uint32_t O = o[0] * o[1] * o[2];
        const Walk Wo = walk_make(o[1], o[2], O);
        for (uint32_t t = threadIdx.x; t < O; t += NT) {
            uint32_t lx, ly, lz;
            walk_point(Wo, t, lz, ly, lx);
            const uint32_t lt = lz * (uint32_t)rs[0] + ly * (uint32_t)rs[1] + lx;
            const uint64_t gi = gidx(lz, ly, lx);
            unsigned sy = sb[lt];
            if (coarse) {
                ((T *)sp.rc)[gi] = r[lt];
                if (OP == OP_ENCODE) sp.sc[gi] = (uint16_t)sy;
                if (h0) hist_add(hist, sy);
            } else if (OP == OP_ENCODE) {
                sym[gi] = (uint16_t)sy;
                hist_add(hist, sy);
            } else {
                T out;
                if (sy < GLIDE_NQUANT) out = r[lt];
                else if (sy == GLIDE_SYM_FILL) {
                    if (!g.has_fill) *in.err = GG_ERR_CORRUPT;
                    out = Bits<T>::from((typename Bits<T>::U)g.fill_bits);
                } else {
                    out = outlier_at(in, gi, subst);
                }
                y[gi] = out;
            }
        }
    }
    if (coarse && hists) { /* plane 0's points only */
        if (h0) {
            __syncthreads();
            for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += NT)
                if (hist[t]) atomicAdd(sp.h0 + t, (unsigned long long)hist[t]);
            if (threadIdx.x == 0) st->hist0_made = 1;
        }
    } else if (hists) {
        __syncthreads();
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += NT) {
            const unsigned c = hist[t];
            if (c) {
                atomicAdd((unsigned long long *)&st->hist[t], (unsigned long long)c);
                if (h0) hist[t] = 0;
            }
        }
        if (h0) { /* then the owned even points again, from the box */
            __syncthreads();
            const uint32_t hz = (o[0] + 1) / 2, hy = (o[1] + 1) / 2, hx = (o[2] + 1) / 2, HN = hz * hy * hx;
            const Walk Wh = walk_make(hy, hx, HN);
            for (uint32_t t = threadIdx.x; t < HN; t += NT) {
                uint32_t a, b, c;
                walk_point(Wh, t, a, b, c);
                hist_add(hist, sb[2 * (a * (uint32_t)rs[0] + b * (uint32_t)rs[1] + c)]);
            }
            __syncthreads();
            for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += NT)
                if (hist[t]) atomicAdd(sp.h0 + t, (unsigned long long)hist[t]);
            if (threadIdx.x == 0) st->hist0_made = 1;
        }
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

/* One thread block per anchor block, interpolation (docs/FORMAT.md §8):
 * the general path, with the reconstruction in global scratch, for boxes
 * too large for shared memory (anchor strides above the defaults). */
template <class T, int OP, bool FA, bool BL>
__global__ void __launch_bounds__(GG_THREADS)
    interp_k(gg_grid g, const gg_levels *lv, const T *x, uint16_t *sym, gg_state *st, DecodeIn in, T *y, T *rglob,
             T *wglob, bool gate)
{
    if (gate && (st->lorenzo || st->slice)) return;
    if (OP == OP_ENCODE && (BL != (lv->blended != 0) || FA != (lv->fill_aware != 0))) return;
    __shared__ unsigned hist[OP == OP_ENCODE ? GLIDE_NSYM : 1];
    Box bx;
    block_box(g, blockIdx.x, bx);
    const uint64_t B = 1ull << g.blog;
    RView<T> rv;
    rv.base = rglob;
    for (int a = 0; a < 3; a++) rv.org[a] = 0;
    for (int a = 0; a < 3; a++) rv.rs[a] = (long long)g.st[a];
    if (OP == OP_ENCODE)
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x) hist[t] = 0;
    const T subst = Bits<T>::from((typename Bits<T>::U)lv->subst_bits);
    const double eb = lv->eb_abs;

    /* anchors of the closed box: lo and, where the box is full, lo + B */
    {
        uint32_t ca[3];
        for (int a = 0; a < 3; a++) ca[a] = (uint32_t)((bx.hi[a] - bx.lo[a]) / B + 1);
        uint32_t na = ca[0] * ca[1] * ca[2];
        if (OP == OP_ENCODE) __syncthreads(); /* hist zeroed */
        for (uint32_t t = threadIdx.x; t < na; t += blockDim.x) {
            uint64_t c[3];
            uint32_t u = t;
            c[2] = bx.lo[2] + (u % ca[2]) * B;
            u /= ca[2];
            c[1] = bx.lo[1] + (u % ca[1]) * B;
            c[0] = bx.lo[0] + (u / ca[1]) * B;
            uint64_t i = c[0] * g.st[0] + c[1] * g.st[1] + c[2];
            bool owned = c[0] < bx.lo[0] + B && c[1] < bx.lo[1] + B && c[2] < bx.lo[2] + B;
            T v;
            if (OP == OP_ENCODE) v = x[i];
            else {
                uint64_t k = anchor_index(g, c[0], c[1], c[2]);
                v = load_le<T>(in.anchors + k * sizeof(T));
            }
            bool fill = is_fill(g, v), fin = isfinite(v);
            unsigned want = fill ? GLIDE_SYM_FILL : !fin ? GLIDE_SYM_OUTLIER : GLIDE_SYM_ZERO;
            *rv.at(c) = OP == OP_ENCODE ? ((fill || !fin) ? subst : v) : anchor_r(in, i, want, v, subst);
            if (OP == OP_ENCODE) {
                if (owned) {
                    sym[i] = (uint16_t)want;
                    atomicAdd(&hist[want], 1u);
                }
            } else {
                if (in.sym[i] != want) *in.err = GG_ERR_CORRUPT;
                if (owned) {
                    y[i] = want == GLIDE_SYM_OUTLIER ? outlier_at(in, i, subst) : v;
                }
            }
        }
    }
    __syncthreads();

    constexpr bool fa = FA;
    for (unsigned l = g.blog; l >= 1; l--) {
        const uint64_t s = 1ull << (l - 1);
        const unsigned cfg = lv->level_cfg[l - 1], spline = cfg & 3u;
        const T e2 = (T)(2.0 * lv->level_eb[l - 1]);
        if (BL && cfg_blended(g.eff_rank, cfg)) {
            blend_level_glob<T, OP>(g, bx, x, sym, in, y, hist, rglob, wglob, s, cfg, e2, eb, subst, fa);
            continue;
        }
        const uint8_t *ax = c_axes[g.eff_rank - 1][cfg >> 2];
        for (unsigned j = 0; j < g.eff_rank; j++) {
            Step S;
            step_make(S, bx, s, ax, j);
            const unsigned d = ax[j];
            const long long o1 = (long long)s * pick3(rv.rs, d);
            for (uint32_t t = threadIdx.x; t < S.total; t += blockDim.x) {
                uint64_t c[3];
                step_point(S, t, c);
                uint64_t i = c[0] * g.st[0] + c[1] * g.st[1] + c[2];
                bool owned = c[0] < bx.lo[0] + B && c[1] < bx.lo[1] + B && c[2] < bx.lo[2] + B;
                T *rp = rv.at(c);
                T pred;
                if (OP == OP_DECODE && in.sym[i] >= GLIDE_NQUANT) pred = (T)0;
                else if (fa) /* the grid's strides here: offsets from rp are offsets from i */
                    pred = ipredict_fa(rp, o1, pick3(c, d), s, pick3(bx.lo, d), pick3(bx.hi, d), spline, subst,
                                       [&](long long off) {
                                           return OP == OP_ENCODE ? is_fill(g, x[(long long)i + off])
                                                                  : in.sym[(long long)i + off] == GLIDE_SYM_FILL;
                                       });
                else pred = ipredict(rp, o1, pick3(c, d), s, pick3(bx.lo, d), pick3(bx.hi, d), spline);
                visit<T, OP>(g, x, sym, in, y, hist, i, owned, pred, e2, eb, subst, rp);
            }
            __syncthreads();
        }
    }
    if (OP == OP_ENCODE)
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x)
            if (hist[t]) atomicAdd((unsigned long long *)&st->hist[t], (unsigned long long)hist[t]);
}

/* One thread block per anchor block, Lorenzo (docs/FORMAT.md §9): points on
 * the same anti-diagonal a + b + c = w of the block depend only on earlier
 * diagonals, so each diagonal is one parallel step. */
template <class T, int OP, bool SH>
__device__ __forceinline__ void lorenzo_box(const gg_grid &g, const gg_levels *lv, const T *x, uint16_t *sym,
                                            gg_state *st, const DecodeIn &in, T *y, T *rglob, unsigned bi,
                                            unsigned long long *h0)
{
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ unsigned hist[OP == OP_ENCODE ? GLIDE_NSYM : 1];
    Box bx;
    block_box(g, bi, bx);
    const uint64_t B = 1ull << g.blog;
    uint64_t e[3];
    for (int a = 1; a < 3; a++) e[a] = bx.lo[a] + B <= g.n[a] ? B : g.n[a] - bx.lo[a];
    const uint64_t zend = g.nbl == g.nb[0] ? g.n[0] : ((uint32_t)bx.lo[0] / (uint32_t)g.slab_rows + 1) * g.slab_rows;
    e[0] = bx.lo[0] + B <= zend ? B : zend - bx.lo[0];
    if (g.n[0] == 1) e[0] = 1;
    if (g.n[1] == 1) e[1] = 1;
    RView<T> rv;
    if (SH) {
        rv.base = (T *)smem;
        for (int a = 0; a < 3; a++) rv.org[a] = bx.lo[a];
        rv.rs[2] = 1;
        rv.rs[1] = (long long)e[2];
        rv.rs[0] = (long long)(e[2] * e[1]);
    } else {
        rv.base = rglob;
        for (int a = 0; a < 3; a++) rv.org[a] = 0;
        for (int a = 0; a < 3; a++) rv.rs[a] = (long long)g.st[a];
    }
    if (OP == OP_ENCODE) {
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x) hist[t] = 0;
        __syncthreads();
    }
    const T subst = Bits<T>::from((typename Bits<T>::U)lv->subst_bits);
    const double eb = lv->eb_abs;
    const T e2 = (T)(2.0 * eb);
    if (threadIdx.x == 0) {
        /* the block's one anchor, its corner */
        uint64_t i = bx.lo[0] * g.st[0] + bx.lo[1] * g.st[1] + bx.lo[2];
        T v;
        if (OP == OP_ENCODE) v = x[i];
        else {
            uint64_t k = anchor_index(g, bx.lo[0], bx.lo[1], bx.lo[2]);
            v = load_le<T>(in.anchors + k * sizeof(T));
        }
        bool fill = is_fill(g, v), fin = isfinite(v);
        unsigned want = fill ? GLIDE_SYM_FILL : !fin ? GLIDE_SYM_OUTLIER : GLIDE_SYM_ZERO;
        uint64_t c[3] = {bx.lo[0], bx.lo[1], bx.lo[2]};
        *rv.at(c) = OP == OP_ENCODE ? ((fill || !fin) ? subst : v) : anchor_r(in, i, want, v, subst);
        if (OP == OP_ENCODE) {
            sym[i] = (uint16_t)want;
            hist[want]++;
        } else {
            if (in.sym[i] != want) *in.err = GG_ERR_CORRUPT;
            y[i] = want == GLIDE_SYM_OUTLIER ? outlier_at(in, i, subst) : v;
        }
    }
    __syncthreads();
    /* e[0] * e[1] <= B^2 <= 2^30: the pairs count in 32 bits, and the
     * division by e[1], once per pair and wavefront, by multiply-high */
    const uint32_t pairs = (uint32_t)(e[0] * e[1]);
    const uint64_t wmax = (e[0] - 1) + (e[1] - 1) + (e[2] - 1);
    const Walk Wp = walk_make((uint32_t)e[0], (uint32_t)e[1], pairs);
    for (uint64_t w = 1; w <= wmax; w++) {
        for (uint32_t t = threadIdx.x; t < pairs; t += blockDim.x) {
            uint32_t z, a32, b32;
            walk_point(Wp, t, z, a32, b32); /* z = 0: the rows are e[0] x e[1] */
            const uint64_t a = a32, b = b32;
            if (a + b > w || w - a - b >= e[2]) continue;
            uint64_t c[3] = {bx.lo[0] + a, bx.lo[1] + b, bx.lo[2] + (w - a - b)};
            uint64_t i = c[0] * g.st[0] + c[1] * g.st[1] + c[2];
            T *rp = rv.at(c);
            int pz = a != 0, py = b != 0, px = w - a - b != 0;
            const long long s0 = rv.rs[0], s1 = rv.rs[1];
            T pred = (T)0;
            if (OP == OP_ENCODE || in.sym[i] < GLIDE_NQUANT) pred = lpredict(rp, s0, s1, px, py, pz);
            visit<T, OP>(g, x, sym, in, y, hist, i, true, pred, e2, eb, subst, rp);
        }
        __syncthreads();
    }
    if (OP == OP_ENCODE)
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x)
            if (hist[t]) atomicAdd((unsigned long long *)&st->hist[t], (unsigned long long)hist[t]);
    if (OP == OP_ENCODE && h0)
        box_hist0(sym, bx.lo[0] * g.st[0] + bx.lo[1] * g.st[1] + bx.lo[2], g.st[0], g.st[1], (uint32_t)e[0],
                  (uint32_t)e[1], (uint32_t)e[2], hist, h0, st);
}

/* gate (the chunk's commit after the block trial's pick): a grid of at most
 * as many blocks as the device holds at once (gg_commit_grid), each taking
 * every grid-th box, so that a chunk whose trial picked another method
 * pays for a few hundred blocks returning at once, not one a box (4096 at
 * 256^3, about 4 us; 32768 at 512^3) */
template <class T, int OP, bool SH>
__global__ void __launch_bounds__(GG_THREADS)
    lorenzo_k(gg_grid g, const gg_levels *lv, const T *x, uint16_t *sym, gg_state *st, DecodeIn in, T *y, T *rglob,
              bool gate, unsigned nbox, unsigned long long *h0)
{
    pdl_wait(); /* the chunk's commit: after the pick (GG_PDL_TAIL) */
    if (gate) pdl_trigger();
    if (gate && !st->lorenzo) return;
    for (unsigned bi = blockIdx.x; bi < nbox; bi += gridDim.x) {
        lorenzo_box<T, OP, SH>(g, lv, x, sym, st, in, y, rglob, bi, h0);
        __syncthreads(); /* the next box reuses shared memory */
    }
}

/* ------------------------------------------- slices (format 6) */

#include "slice.cuh"

/* --------------------------------------------- anchors and outliers */

/* the anchors in index order (grid-stride), as bytes at place->anchors_off */
template <class T> __device__ void anchors_store(const T *x, const gg_grid &g, uint8_t *buf, const gg_place *place)
{
    uint8_t *dst = buf + place->anchors_off;
    uint64_t na = g.nb[0] * g.nb[1] * g.nb[2];
    for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k < na; k += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t u = k, ax = u % g.nb[2];
        u /= g.nb[2];
        uint64_t ay = u % g.nb[1], az = u / g.nb[1];
        uint64_t z = az << g.blog; /* a slab's blocks start at its first row */
        if (g.nbl != g.nb[0]) z = (uint32_t)az / (uint32_t)g.nbl * g.slab_rows + (((uint32_t)az % (uint32_t)g.nbl) << g.blog);
        uint64_t i = z * g.st[0] + (ay << g.blog) * g.st[1] + (ax << g.blog);
        store_le<T>(dst + k * sizeof(T), x[i]);
    }
}

/* The decoder's outlier ranks: per word of 32 symbols its OUTLIER bits
 * (mask) and their count (cnt, then scanned into the outliers before the
 * word). A thread reads 8 symbols in one 16-byte load and four lanes make a
 * word. They replaced a full-length flag per point and its scan (4 bytes a
 * point written, scanned and read back), which took 860 us of a 512^3
 * decode (ncu, H100). sym must be 16-byte aligned (a device allocation). */
__global__ void __launch_bounds__(GG_THREADS) outlier_words_k(const uint16_t *sym, uint64_t n, uint32_t *mask,
                                                              uint32_t *cnt)
{
    const uint64_t n8 = n / 8, nw = (n + 31) / 32, stride = (uint64_t)gridDim.x * GG_THREADS;
    const unsigned lane = threadIdx.x & 31;
    /* the loop test is the block's, so whole warps shuffle */
    for (uint64_t b = blockIdx.x * (uint64_t)GG_THREADS; b < nw * 4; b += stride) {
        const uint64_t i = b + threadIdx.x;
        unsigned m = 0;
        if (i < n8) {
            m = outlier_bits8(reinterpret_cast<const uint4 *>(sym)[i]);
        } else {
            for (uint64_t j = i * 8; j < i * 8 + 8 && j < n; j++) m |= (unsigned)(sym[j] == GLIDE_SYM_OUTLIER) << (j & 7);
        }
        const unsigned word = outlier_word(m, lane);
        if ((lane & 3u) == 0 && i / 4 < nw) {
            mask[i / 4] = word;
            cnt[i / 4] = (uint32_t)__popc(word);
        }
    }
}

__global__ void outlier_total_k(uint64_t nw, const uint32_t *mask, const uint32_t *pre, gg_state *st)
{
    st->n_outliers = (unsigned long long)pre[nw - 1] + (unsigned long long)__popc(mask[nw - 1]);
}

/* The encoder's outlier section: OUTLIER symbols' values in index order.
 * Outliers are rare and often absent, and only the device knows how many
 * there are, so both kernels return at once when the histogram has none
 * (or the plan declined). Counting: one warp per tile of kOutTile
 * symbols; the last block turns the counts into exclusive offsets. */
constexpr unsigned kOutTile = 4096;

__device__ bool outliers_wanted(const gg_state *st) { return st->place.ok && st->hist[GLIDE_SYM_OUTLIER] != 0; }

/* The anchors first (one kernel for both: a launch of its own cost about
 * 3 us of a 64^3 chunk's critical path), then the outlier counts. */
template <class T>
__global__ void __launch_bounds__(GG_THREADS) outlier_count_k(const T *x, gg_grid g, uint8_t *buf,
                                                              const uint16_t *sym, uint64_t n, uint32_t *tile_off,
                                                              gg_state *st)
{
    if (!st->place.ok) return; /* uniform */
    anchors_store<T>(x, g, buf, &st->place);
    if (!outliers_wanted(st)) return; /* uniform */
    /* a warp per tile (sym 16-byte aligned, as a device allocation is) */
    const uint64_t n_tiles = (n + kOutTile - 1) / kOutTile, wpb = GG_THREADS / 32;
    const unsigned lane = threadIdx.x & 31;
    for (uint64_t t = blockIdx.x * wpb + (threadIdx.x >> 5); t < n_tiles; t += gridDim.x * wpb) {
        const uint64_t end = (t + 1) * kOutTile < n ? (t + 1) * kOutTile : n;
        unsigned c = 0;
        if (end - t * kOutTile == kOutTile) { /* a whole tile: 16-byte loads (its start is 8 KB aligned) */
            const uint4 *v = reinterpret_cast<const uint4 *>(sym + t * kOutTile);
#pragma unroll 4
            for (unsigned i = lane; i < kOutTile / 8; i += 32) c += (unsigned)__popc(outlier_bits8(v[i]));
        } else {
            for (uint64_t i = t * kOutTile + lane; i < end; i += 32) c += sym[i] == GLIDE_SYM_OUTLIER;
        }
        for (int o = 16; o > 0; o >>= 1) c += __shfl_xor_sync(0xFFFFFFFFu, c, o);
        if (lane == 0) tile_off[t] = c;
    }
    if (!last_block(&st->place.outlier_ticket)) return;
    /* exclusive scan in place, kScanItems counts a thread per round, loaded
     * and stored coalesced (a contiguous run per thread read 256 scattered
     * lines per load: the one block's scan of 32768 tiles at 512^3) */
    constexpr int kScanItems = 16;
    typedef cub::BlockLoad<uint32_t, GG_THREADS, kScanItems, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
    typedef cub::BlockStore<uint32_t, GG_THREADS, kScanItems, cub::BLOCK_STORE_WARP_TRANSPOSE> Store;
    typedef cub::BlockScan<uint32_t, GG_THREADS> Scan;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
        typename Scan::TempStorage scan;
    } tmp;
    uint32_t carry = 0;
    for (uint64_t base = 0; base < n_tiles; base += GG_THREADS * kScanItems) {
        const int valid = n_tiles - base < GG_THREADS * kScanItems ? (int)(n_tiles - base) : GG_THREADS * kScanItems;
        uint32_t v[kScanItems], round;
        Load(tmp.load).Load(tile_off + base, v, valid, 0u);
        __syncthreads();
        Scan(tmp.scan).ExclusiveSum(v, v, round);
        __syncthreads();
#pragma unroll
        for (int i = 0; i < kScanItems; i++) v[i] += carry;
        Store(tmp.store).Store(tile_off + base, v, valid);
        __syncthreads();
        carry += round;
    }
}

template <class T>
__global__ void __launch_bounds__(GG_THREADS) outlier_pack_k(const T *x, uint64_t n, const uint16_t *sym,
                                                             const uint32_t *tile_off, const gg_state *st,
                                                             uint8_t *buf)
{
    if (!outliers_wanted(st)) return; /* uniform */
    uint8_t *dst = buf + st->place.outliers_off;
    __shared__ unsigned s_w[GG_THREADS / 32];
    const uint64_t n_tiles = (n + kOutTile - 1) / kOutTile, total = st->hist[GLIDE_SYM_OUTLIER];
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (uint64_t t = blockIdx.x; t < n_tiles; t += gridDim.x) {
        uint64_t base = tile_off[t];
        if (base == (t + 1 < n_tiles ? tile_off[t + 1] : total)) continue; /* none here: uniform */
        const uint64_t end = (t + 1) * kOutTile < n ? (t + 1) * kOutTile : n;
        for (uint64_t r = t * kOutTile; r < end; r += GG_THREADS) {
            const uint64_t i = r + threadIdx.x;
            const bool out = i < end && sym[i] == GLIDE_SYM_OUTLIER;
            const unsigned m = __ballot_sync(0xFFFFFFFFu, out);
            if (lane == 0) s_w[warp] = __popc(m);
            __syncthreads();
            unsigned at = __popc(m & ((1u << lane) - 1u)), round = 0;
            for (unsigned w = 0; w < GG_THREADS / 32; w++) {
                at += w < warp ? s_w[w] : 0;
                round += s_w[w];
            }
            if (out) store_le<T>(dst + (base + at) * sizeof(T), x[i]);
            base += round;
            __syncthreads(); /* s_w read by all before the next round */
        }
    }
}

/* ------------------------------------------------------------ launchers */

/* the decoder's outlier rank words (gg_outlier_scan) */
static uint64_t outlier_words(uint64_t n) { return (n + 31) / 32; }

static unsigned grid_for(uint64_t n)
{
    uint64_t b = (n + GG_THREADS - 1) / GG_THREADS;
    if (b > 65535ull * 16) b = 65535ull * 16;
    return b ? (unsigned)b : 1u;
}

static uint64_t n_blocks(const gg_grid &g) { return g.nb[0] * g.nb[1] * g.nb[2]; }

/* the blocks box_own leaves working (from axis a0 on) */
static uint64_t working_blocks(const gg_grid &g, int a0)
{
    const uint64_t B = 1ull << g.blog;
    uint64_t w = 1;
    for (int a = 0; a < 3; a++) {
        const uint64_t n = a ? g.n[a] : g.slab_rows;
        const uint64_t spare = a >= a0 && n > 1 && (n - 1) % B == 0 ? (a ? 1 : g.nb[0] / g.nbl) : 0;
        w *= g.nb[a] - spare;
    }
    return w;
}

/* sample blocks of tuning and the predictor choice (every k-th per axis) */
static uint64_t n_samples(const gg_grid &g, uint64_t k)
{
    uint64_t m = 1;
    for (int a = 0; a < 3; a++) m *= (g.nb[a] + k - 1) / k;
    return m;
}

enum { BOX_TUNE, BOX_INTERP, BOX_BLEND, BOX_LORENZO, BOX_BLEND_TUNE, BOX_BLEND_TUNE1 };
/* attribute a of the current device, read once into *cache (chunks are
 * serialised by the context's mutex); fallback where the query fails */
static int device_attr(cudaDeviceAttr a, int fallback, int *cache)
{
    if (!*cache) {
        int dev = 0, v = 0;
        if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&v, a, dev) != cudaSuccess || v < 1)
            v = fallback;
        *cache = v;
    }
    return *cache;
}

/* largest dynamic shared memory a block may opt in to on this device
 * (64 KiB on Turing, 227 KiB on Hopper); the same for every call */
static size_t shared_max(void)
{
    static int cached;
    const size_t v = (size_t)device_attr(cudaDevAttrMaxSharedMemoryPerBlockOptin, 48 * 1024, &cached);
    return v > 8 * 1024 ? v - 8 * 1024 : 0; /* less the kernels' static shared memory (histogram, reductions) */
}

/* the device's SMs (the same for every call) */
static unsigned sm_count(void)
{
    static int cached;
    return (unsigned)device_attr(cudaDevAttrMultiProcessorCount, 1, &cached);
}

/* shared bytes a kernel needs for one block's box, or 0 if it must use the
 * global-memory path */
static size_t box_bytes(const gg_grid &g, int kind)
{
    uint64_t B = 1ull << g.blog, e = 1;
    for (int a = 0; a < 3; a++) {
        uint64_t ext = kind == BOX_LORENZO ? (g.n[a] < B ? g.n[a] : B) : (g.n[a] < B + 1 ? g.n[a] : B + 1);
        e *= ext;
    }
    size_t per = g.dtype == GLIDE_FLOAT64 ? 8 : 4;
    if (kind == BOX_BLEND) per *= 2; /* the level residuals w */
    if (kind == BOX_BLEND_TUNE) per *= 3; /* the values and both blends' residuals */
    if (kind == BOX_BLEND_TUNE1) per *= 2; /* the values and one blend's residuals */
    if (kind == BOX_INTERP || kind == BOX_BLEND) per += 2;
    size_t limit = kind == BOX_LORENZO ? GG_SHARED_LIMIT : shared_max();
    return e * per <= limit ? (size_t)(e * per) : 0;
}

/* a slice's points in the largest box of slice_sh_k or slice_wf_k */
static uint64_t slice_box_points(const gg_grid &g)
{
    const uint64_t B = 1ull << g.blog, e1 = g.n[1] < B + 1 ? g.n[1] : B + 1, e2 = g.n[2] < B + 1 ? g.n[2] : B + 1;
    return e1 * e2;
}

/* shared bytes of slice_sh_k's box (two slices' reconstructions and 2-D
 * predictions, one slice's values, symbols and two fill flags per point),
 * or 0: slice_k with global scratch */
static size_t slice_box_bytes(const gg_grid &g)
{
    const size_t per = g.dtype == GLIDE_FLOAT64 ? slice_sh_per_point<double>() : slice_sh_per_point<float>();
    const size_t bytes = (size_t)slice_box_points(g) * per;
    return bytes <= shared_max() ? bytes : 0;
}

/* shared bytes of slice_wf_k's run (every slice's reconstructions, 2-D
 * predictions, values or symbols and fill flags; a slice's point table),
 * or 0 */
static size_t slice_run_bytes(const gg_grid &g)
{
    const uint64_t B = 1ull << g.blog, E = slice_box_points(g);
    const uint64_t nz = g.slab_rows < B ? g.slab_rows : B;
    const bool f64 = g.dtype == GLIDE_FLOAT64;
    const size_t per = f64 ? slice_wf_per_point<double>() : slice_wf_per_point<float>();
    const size_t bytes = (size_t)(nz * E) * per + (size_t)E * slice_wf_per_table();
    return bytes <= shared_max() ? bytes : 0;
}

/* lets a kernel take more than the default 48 KiB of dynamic shared memory */
static cudaError_t allow_shared(const void *kernel, size_t bytes)
{
    /* 48 KiB is the default for static plus dynamic: leave room for the static */
    if (bytes + 8 * 1024 <= 48 * 1024) return cudaSuccess;
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
}

/* the grid of a gated commit (lorenzo_k, slice_wf_k order -1): the blocks
 * of kernel (nt threads, sh dynamic shared bytes) the device holds at once */
static unsigned commit_grid_set = 0;
extern "C" void gg_set_commit_grid(unsigned blocks) { commit_grid_set = blocks; }
static cudaError_t gg_commit_grid(const void *kernel, unsigned nt, size_t sh, unsigned *grid)
{
    if (commit_grid_set) {
        *grid = commit_grid_set;
        return cudaSuccess;
    }
    int per = 0;
    const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kernel, (int)nt, sh);
    if (e != cudaSuccess) return e;
    *grid = sm_count() * (unsigned)(per > 0 ? per : 1);
    return cudaSuccess;
}

/* blend: blended levels may occur (encoding rank 2 and 3) or do (decoding) */
static bool may_blend(const gg_grid &g, int method, int blend)
{
    return method != GG_LORENZO && blend && g.eff_rank >= 2;
}

/* the slice method keeps its reconstructions and 2-D predictions in global r and w */
static bool slices_may(const gg_grid &g, int method)
{
    return (method == GG_CHOSEN3 || method == GG_SLICE_XY || method == GG_SLICE_YX) && slice_box_bytes(g) == 0;
}

/* A split interpolation (PART_COARSE, PART_FINE) where it pays: 3-D
 * chunks of many blocks and one slab, boxes in shared memory, over 2^21
 * points (more than 128^3). H100, bench/gpu-runs/split-coarse run 5,
 * medians of three alternated rounds: 256^3 kernel-only compression 644.3
 * -> 591.9 us, decompression 464.6 -> 392.2; but 128^3 API decompression
 * 410.2 -> 423.6 us (compression 968.8 -> 951.1): its 512 blocks are one
 * wave of the one kernel, whose coarse levels' waits the other blocks
 * hide, and the split adds a launch and a dependency. */
#define GG_SPLIT_POINTS ((uint64_t)1 << 21)
static int split_mode = 1;                  /* 0 never, 1 GG_SPLIT_POINTS, 2 split_points */
static uint64_t split_points = GG_SPLIT_POINTS;
extern "C" void gg_set_split(int on, long long points)
{
    split_mode = !on ? 0 : points < 0 ? 1 : 2;
    split_points = points < 0 ? GG_SPLIT_POINTS : (uint64_t)points;
}
/* the split's coarse part as PART_COARSE_M (1) or a warp a box (0; A/B runs) */
static int coarse_merge = 1;
extern "C" void gg_set_coarse_merge(int on) { coarse_merge = on != 0; }
static bool split_ok(const gg_grid &g, int method)
{
    if (!split_mode || method == GG_LORENZO || method == GG_SLICE_XY || method == GG_SLICE_YX) return false;
    if (g.eff_rank != 3 || g.nbl != g.nb[0] || g.blog < 2 || g.count <= split_points) return false;
    /* launch_interp's `few` (one kernel of 1024 threads a box) unless the
     * threshold was set (tests: the split's kernels on small chunks) */
    if (split_mode == 1 && working_blocks(g, 0) < 512) return false;
    return box_bytes(g, BOX_BLEND) != 0;
}

/* the even lattice of g as a grid of its own (PART_COARSE): its blocks are
 * g's, one level fewer */
static gg_grid half_grid(const gg_grid &g)
{
    gg_grid h = g;
    for (int a = 0; a < 3; a++) h.n[a] = (g.n[a] + 1) / 2;
    h.st[2] = 1;
    h.st[1] = h.n[2];
    h.st[0] = h.n[1] * h.n[2];
    h.count = h.n[0] * h.st[0];
    h.slab_rows = h.n[0];
    h.blog = g.blog - 1;
    return h;
}

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

extern "C" size_t gg_global_r_bytes(gg_grid g, int method, int blend)
{
    const size_t esz = g.dtype == GLIDE_FLOAT64 ? 8 : 4;
    if (gg_needs_global_r(g, method, blend)) return (size_t)g.count * esz;
    if (!split_ok(g, method)) return 0;
    return (size_t)half_grid(g).count * (esz + 2); /* GSplit's rc, then sc */
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

/* Small chunks have one or a few sample boxes: split each box's points over
 * enough blocks to fill the device (about 512 blocks in all), unless there
 * are `whole` rows or more: then one block per box, with the box in shared
 * memory. Tuning, whose blocks cost every level of their box, gains from
 * that at 256^3 (64 boxes x 6 orders: 55 -> 46 us on the H200); the
 * predictor choice, whose blocks cost one level of a box, lost (18 -> 23 us). */
static unsigned split_parts(uint64_t blocks, uint64_t whole)
{
    if (blocks >= whole) return 1;
    uint64_t p = (512 + blocks - 1) / blocks;
    return p > 32 ? 32u : (unsigned)p;
}

/* tune_k and choose_k: one row of blocks per sample box (times parts) and
 * `rows` rows; the box in shared memory when each box has one block */
template <class T> using sample_kernel = void (*)(const T *, gg_grid, uint64_t, unsigned, gg_state *, unsigned);

/* the launches gg_launch gives PDL (gg_set_pdl) */
static unsigned pdl_edges = 0;
extern "C" void gg_set_pdl(unsigned edges) { pdl_edges = edges; }
extern "C" unsigned gg_pdl_edges(void) { return pdl_edges; }

/* launch_sample's grid: one row of blocks per sample box (times parts) */
static dim3 sample_grid(const gg_grid &g, uint64_t k, unsigned rows, uint64_t whole, unsigned *parts)
{
    const uint64_t m = n_samples(g, k);
    *parts = split_parts(m * rows, whole);
    return dim3((unsigned)(m * *parts), rows);
}

template <class T>
static cudaError_t launch_sample(sample_kernel<T> with_box, sample_kernel<T> without_box, const void *d_x, gg_grid g,
                                 uint64_t k, unsigned rows, uint64_t whole, gg_state *d_st, cudaStream_t s,
                                 bool box_always = false, unsigned other = 0)
{
    unsigned parts;
    const dim3 grid = sample_grid(g, k, rows, whole, &parts);
    /* box_always: every part loads the whole box (blend_k, whose open-loop
     * stencils read each value many times) */
    const size_t sh = parts == 1 || box_always ? box_bytes(g, BOX_TUNE) : 0;
    if (sh) {
        cudaError_t e = allow_shared((const void *)with_box, sh);
        if (e != cudaSuccess) return e;
        with_box<<<grid, GG_THREADS, sh, s>>>((const T *)d_x, g, k, parts, d_st, other);
    } else {
        without_box<<<grid, GG_THREADS, 0, s>>>((const T *)d_x, g, k, parts, d_st, other);
    }
    return cudaGetLastError();
}

template <class T, bool B, int MODE>
static cudaError_t launch_blend_w(const void *d_x, gg_grid g, uint64_t k, dim3 grid, size_t sh, unsigned other,
                                  gg_state *d_st, cudaStream_t s)
{
    constexpr int NT = 512;
    cudaError_t e = allow_shared((const void *)blend_w_k<T, B, NT, MODE>, sh);
    if (e != cudaSuccess) return e;
    blend_w_k<T, B, NT, MODE><<<grid, NT, sh, s>>>((const T *)d_x, g, k, other, d_st);
    return cudaGetLastError();
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
        e = bits ? launch_blend_w<T, true, GG_BLEND_SPEC>(d_x, g, k, bg, sh, tune_blocks, d_st, par->aux[0])
                 : launch_blend_w<T, false, GG_BLEND_SPEC>(d_x, g, k, bg, sh, tune_blocks, d_st, par->aux[0]);
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
        if (bits && split) return launch_blend_w<T, true, GG_BLEND_SPLIT>(d_x, g, k, grid, sh, 0, d_st, s);
        if (bits) return launch_blend_w<T, true, GG_BLEND_BOTH>(d_x, g, k, grid, sh, 0, d_st, s);
        if (split) return launch_blend_w<T, false, GG_BLEND_SPLIT>(d_x, g, k, grid, sh, 0, d_st, s);
        return launch_blend_w<T, false, GG_BLEND_BOTH>(d_x, g, k, grid, sh, 0, d_st, s);
    }
    if (bits)
        return launch_sample<T>(blend_k<T, true, true>, blend_k<T, false, true>, d_x, g, k, g.blog, 512, d_st, s, true);
    return launch_sample<T>(blend_k<T, true, false>, blend_k<T, false, false>, d_x, g, k, g.blog, 512, d_st, s, true);
}

extern "C" cudaError_t gg_tune(const void *d_x, gg_grid g, uint64_t k, int bits, gg_state *d_st, const gg_par *par,
                               cudaStream_t s)
{
    if (g.dtype == GLIDE_FLOAT64) return launch_tune<double>(d_x, g, k, bits, d_st, par, s);
    return launch_tune<float>(d_x, g, k, bits, d_st, par, s);
}

/* The interpolation kernels with format 3's stencils and without, one of
 * each or both: their registers differ (with the fill tests in the plain
 * kernel, 256^3 prediction took 234 -> 270 us and reconstruction 177 -> 210
 * on the H200). */
/* One interp_sh_k instance, a block a box. (The instances that blended
 * chunks leave empty were also tried on the grid the device holds, each
 * block looping over boxes: on a chunk that blends no level the looping
 * fine kernel took 1490 against 1350 us at 512^3, and the trial's 1024-
 * thread instance, whose sample boxes are mostly spare, 41.0 against 26.2
 * us at 256^3; H200, bench/gpu-runs/s0626 run 2.) */
template <class T, int OP, int NT, bool FA, bool BL, int PART>
static cudaError_t launch_box(const gg_grid &g, unsigned nbox, size_t sh, const gg_levels *lv, const T *x,
                              uint16_t *sym, gg_state *st, const DecodeIn &in, T *y, bool gate, GSplit sp,
                              cudaStream_t s)
{
    cudaError_t e = allow_shared((const void *)interp_sh_k<T, OP, NT, FA, BL, PART>, sh);
    if (e != cudaSuccess) return e;
    const bool pdl = PART == PART_FINE ? (pdl_edges & GG_PDL_FINE) != 0
                     : (PART == PART_COARSE || PART == PART_COARSE_M) && OP == OP_ENCODE && (pdl_edges & GG_PDL_COARSE);
    return gg_launch(interp_sh_k<T, OP, NT, FA, BL, PART>, dim3(nbox), dim3(NT), sh, s, pdl, g, lv, x, sym, st, in, y,
                     gate, sp);
}

template <class T, int OP, bool FA, bool BL>
static cudaError_t launch_interp(gg_grid g, unsigned nb, const gg_levels *lv, const T *x, uint16_t *sym, gg_state *st,
                                 DecodeIn in, T *y, T *r, T *w, bool gate, int method, cudaStream_t s,
                                 bool narrow = false, unsigned long long *h0 = nullptr)
{
    const size_t sh = box_bytes(g, BL ? BOX_BLEND : BOX_INTERP);
    if (!sh) {
        interp_k<T, OP, FA, BL><<<nb, GG_THREADS, 0, s>>>(g, lv, x, sym, st, in, y, r, w, gate);
        return cudaGetLastError();
    }
    GSplit sp = {};
    sp.h0 = h0;
    if (r && split_ok(g, method)) {
        const gg_grid h = half_grid(g);
        sp.rc = r;
        sp.sc = (uint16_t *)(r + h.count);
        DecodeIn hin = in; /* encoding too: the coarse kernel's loads take its fst */
        hin.half = 1;
        hin.hst0 = h.st[0];
        hin.hst1 = h.st[1];
        hin.fst0 = g.st[0];
        hin.fst1 = g.st[1];
        /* the coarse part: a block of GG_MERGE_THREADS for 2 x 2 x 2 lattice
         * boxes (where its box fits shared memory), else a warp a box */
        gg_grid hm = h;
        hm.blog++;
        const size_t msh = coarse_merge ? box_bytes(hm, BL ? BOX_BLEND : BOX_INTERP) : 0;
        cudaError_t e;
        if (msh) {
            const unsigned nbm = (unsigned)(((h.nb[0] + 1) / 2) * ((h.nb[1] + 1) / 2) * ((h.nb[2] + 1) / 2));
            e = launch_box<T, OP, GG_MERGE_THREADS, FA, BL, PART_COARSE_M>(h, nbm, msh, lv, x, sym, st, hin, y, gate,
                                                                             sp, s);
        } else {
            const size_t hsh = box_bytes(h, BL ? BOX_BLEND : BOX_INTERP);
            e = launch_box<T, OP, GG_SPLIT_THREADS, FA, BL, PART_COARSE>(h, nb, hsh, lv, x, sym, st, hin, y, gate, sp,
                                                                          s);
        }
        if (e != cudaSuccess) return e;
        return launch_box<T, OP, GG_THREADS, FA, BL, PART_FINE>(g, nb, sh, lv, x, sym, st, in, y, gate, sp, s);
    }
    /* A block walks its levels step by step, with a barrier after each:
     * chunks with few blocks (64^3 has 64) leave most of the device idle,
     * so their blocks get more threads per step. Two instantiations: the
     * launch bound sets the register budget, and the large one's would cost
     * the many-block case occupancy. */
    if (working_blocks(g, 0) < 512 && !narrow)
        return launch_box<T, OP, GG_THREADS_MAX, FA, BL, PART_ALL>(g, nb, sh, lv, x, sym, st, in, y, gate, sp, s);
    return launch_box<T, OP, GG_THREADS, FA, BL, PART_ALL>(g, nb, sh, lv, x, sym, st, in, y, gate, sp, s);
}

/* fa: format 3's stencils (1) or not (0), or -1 (encoding: the range scan
 * decides on the device, so both run and one returns at once). bl: the
 * same for blended levels (format 4): encoding at rank 2 and 3 launches
 * all four, the range scan and tuning decide which one works. */
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
     * (trial_run: early). Forked before them (93b8c7e), a
     * 256^3 chunk's working coarse kernel no longer waited about 19 us for
     * the empty instances, but the block trial's interpolation (512 blocks of
     * 1024 threads), which had run in that gap, found the SMs' shared memory
     * taken by the coarse kernel's 4096 blocks and then ran beside the fine
     * kernel (218 -> 232 us): kernel-only compression 582.1 -> 603.0 us at
     * 256^3, 3288 -> 3304 at 512^3 (H100, medians of five alternated rounds
     * of two binaries, bench/gpu-runs/s0326 run 6). */
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

/* the slice method's kernel for this grid; order -2: both orders (the
 * trial), order k with state st + k */
template <class T, int OP>
static cudaError_t launch_slice(gg_grid g, unsigned nb, const gg_levels *lv, const T *x, uint16_t *sym, gg_state *st,
                                DecodeIn in, T *y, T *r, T *w, int order, cudaStream_t s, bool pdl = false,
                                unsigned long long *h0 = nullptr)
{
    const size_t wf = slice_run_bytes(g), sh = slice_box_bytes(g);
    if (wf) {
        /* a run's steps are sequential: a thread a point of a slice does
         * each step in one pass (17 x 17 = 289 points at B = 16) */
        const bool wide = slice_box_points(g) > GG_SLICE_WF_THREADS;
        const void *k = wide ? (const void *)slice_wf_k<T, OP, GG_THREADS_MAX> : (const void *)slice_wf_k<T, OP, GG_SLICE_WF_THREADS>;
        const unsigned nt = wide ? GG_THREADS_MAX : GG_SLICE_WF_THREADS;
        cudaError_t e = allow_shared(k, wf);
        if (e != cudaSuccess) return e;
        unsigned gx = nb; /* order -1: the chunk's commit (lorenzo_k's gate) */
        if (order == -1 && (e = gg_commit_grid(k, nt, wf, &gx)) != cudaSuccess) return e;
        if (gx > nb) gx = nb;
        const dim3 grid(gx, order == -2 ? 2 : 1);
        if (wide) return gg_launch(slice_wf_k<T, OP, GG_THREADS_MAX>, grid, dim3(GG_THREADS_MAX), wf, s, pdl, g, lv, x, sym, st, in, y, order, nb, h0);
        return gg_launch(slice_wf_k<T, OP, GG_SLICE_WF_THREADS>, grid, dim3(GG_SLICE_WF_THREADS), wf, s, pdl, g, lv, x, sym, st, in, y, order, nb, h0);
    } else if (sh) {
        cudaError_t e = allow_shared((const void *)slice_sh_k<T, OP>, sh);
        if (e != cudaSuccess) return e;
        slice_sh_k<T, OP><<<dim3(nb, order == -2 ? 2 : 1), GG_SLICE_THREADS, sh, s>>>(g, lv, x, sym, st, in, y, order);
    } else if (order == -2) {
        slice_k<T, OP><<<nb, GG_THREADS, 0, s>>>(g, lv, x, sym, st, in, y, r, w, 0);
        slice_k<T, OP><<<nb, GG_THREADS, 0, s>>>(g, lv, x, sym, st + 1, in, y, r, w, 1);
    } else {
        slice_k<T, OP><<<nb, GG_THREADS, 0, s>>>(g, lv, x, sym, st, in, y, r, w, order);
    }
    return cudaGetLastError();
}

/* GLIDE_GPU_HIST0_COMMIT=0 (A/B runs): Lorenzo and the slices leave plane 0
 * to hist0_k (gg_set_hist0_commit) */
static bool hist0_commit = true;
extern "C" void gg_set_hist0_commit(int on) { hist0_commit = on != 0; }

/* Which of the interpolation's instances (the plain ones or the blended
 * ones) an encoder launches first where both are (tuning decides on the
 * device which one works, the other returns at once): the working coarse
 * kernel's blocks are dispatched 1.5-1.6 us later when the other's are
 * first (256^3, H100 traces: the Nyx-like field blends, uniform noise does
 * not; bench/gpu-runs/s1131 run 1). The host sets it before a front's
 * launch or capture, by the chunk before (gpu_codec.c, GLIDE_GPU_BLEND_FIRST). */
static bool blend_first = false;
extern "C" void gg_set_blend_first(int on) { blend_first = on != 0; }

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
    if (!h0 || !hist0_commit) return false;
    const bool slice_only = method == GG_SLICE_XY || method == GG_SLICE_YX;
    if ((slice_only || method == GG_CHOSEN3 || method == GG_CHOSEN3_SPEC) && !slice_run_bytes(g)) return false;
    return slice_only || method == GG_LORENZO || interp_counts_h0(g);
}

/* h0 (encoding): plane 0's histogram for every kernel launched that can
 * count it (counts_hist0) */
template <class T, int OP>
static cudaError_t launch_predict(gg_grid g, int method, int fa, int bl, const gg_levels *lv, const T *x,
                                  uint16_t *sym, gg_state *st, DecodeIn in, T *y, T *r, T *w, const gg_par *par,
                                  cudaStream_t s0, unsigned naux = GG_PAR_AUX, bool narrow = false,
                                  bool early = false, unsigned long long *h0 = nullptr)
{
    unsigned nb = (unsigned)n_blocks(g);
    /* GG_CHOSEN launches both, GG_CHOSEN3 the slices too (GG_CHOSEN3_SPEC:
     * all but interpolation); those not chosen return at once */
    const bool gate = method == GG_CHOSEN || method == GG_CHOSEN3 || method == GG_CHOSEN3_SPEC;
    const bool slice_only = method == GG_SLICE_XY || method == GG_SLICE_YX;
    ParLanes lanes{par, s0, naux};
    /* after a speculating trial, the chosen Lorenzo or slices (at most
     * one works) side by side: queued one after the other, their empty
     * launches after the pick took 1.8 + 1.9 us and a gap at 256^3 (H200
     * trace, bench/gpu-runs/s1127d run 6); not timed apart since */
    lanes.early = early || method == GG_CHOSEN3_SPEC;
    /* those commits after the pick by PDL (their kernels wait at their start) */
    const bool pdl = method == GG_CHOSEN3_SPEC && (pdl_edges & GG_PDL_TAIL);
    /* Lorenzo and slice_wf_k count plane 0 as the interpolation kernels do
     * (box_hist0): a speculating chunk's commit then needs no hist0_k
     * after it, 1.4-1.6 us on the 256^3 chain (H100 traces, s1130) */
    unsigned long long *hc = OP == OP_ENCODE && hist0_commit ? h0 : nullptr;
    cudaStream_t s;
    cudaError_t e;
    if (slice_only || method == GG_CHOSEN3 || method == GG_CHOSEN3_SPEC) {
        if ((e = lanes.next(s)) != cudaSuccess ||
            (e = launch_slice<T, OP>(g, nb, lv, x, sym, st, in, y, r, w, slice_only ? method - GG_SLICE_XY : -1, s,
                                     pdl, hc)) != cudaSuccess)
            return e;
        if (slice_only) {
            if ((e = cudaGetLastError()) != cudaSuccess) return e;
            return lanes.done();
        }
    }
    if (method != GG_INTERP) {
        if ((e = lanes.next(s)) != cudaSuccess) return e;
        size_t sh = box_bytes(g, BOX_LORENZO);
        const void *k = sh ? (const void *)lorenzo_k<T, OP, true> : (const void *)lorenzo_k<T, OP, false>;
        unsigned grid = nb;
        if (gate && (e = gg_commit_grid(k, GG_THREADS, sh, &grid)) != cudaSuccess) return e;
        if (grid > nb) grid = nb;
        e = sh ? gg_launch(lorenzo_k<T, OP, true>, dim3(grid), dim3(GG_THREADS), sh, s, pdl, g, lv, x, sym, st, in, y, r,
                           gate, nb, hc)
               : gg_launch(lorenzo_k<T, OP, false>, dim3(grid), dim3(GG_THREADS), 0, s, pdl, g, lv, x, sym, st, in, y, r,
                           gate, nb, hc);
        if (e != cudaSuccess) return e;
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
                 (r2 = launch_interp<T, OP, false, BL>(g, nb, lv, x, sym, st, in, y, r, w, gate, method, s, narrow,
                                                        h0)) != cudaSuccess))
                return r2;
            if (bl != (BL ? 0 : 1) && fa != 0 &&
                ((r2 = lanes.next(s)) != cudaSuccess ||
                 (r2 = launch_interp<T, OP, true, BL>(g, nb, lv, x, sym, st, in, y, r, w, gate, method, s, narrow,
                                                       h0)) != cudaSuccess))
                return r2;
            return cudaSuccess;
        };
        if ((e = blend_first ? kind(std::true_type{}) : kind(std::false_type{})) != cudaSuccess ||
            (e = blend_first ? kind(std::false_type{}) : kind(std::true_type{})) != cudaSuccess)
            return e;
    }
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    return lanes.done();
}

/* plane 0's histogram for the interpolation kernels (GSplit.h0), where
 * asked and the box parity is the chunk's: one slab, boxes of an even
 * stride */
static unsigned long long *hist0_of(const gg_grid &g, gg_state *d_st, int hist0)
{
    if (!hist0 || g.nbl != g.nb[0] || g.blog < 1) return nullptr;
    return reinterpret_cast<unsigned long long *>(d_st->hist_pl[0]);
}

extern "C" cudaError_t gg_encode(const void *d_x, gg_grid g, int method, gg_state *d_st, uint16_t *d_sym, void *d_r,
                                 void *d_w, const gg_par *par, int hist0, cudaStream_t s)
{
    DecodeIn in = {};
    /* without a fill value the range scan finds no fill point (is_fill), so
     * the fill-aware instances would only return: they are not launched */
    const int fa = g.has_fill ? -1 : 0;
    unsigned long long *h0 = hist0_of(g, d_st, hist0);
    if (g.dtype == GLIDE_FLOAT64)
        return launch_predict<double, OP_ENCODE>(g, method, fa, -1, &d_st->lv, (const double *)d_x, d_sym, d_st, in,
                                                 NULL, (double *)d_r, (double *)d_w, par, s, GG_PAR_AUX, false, false,
                                                 h0);
    return launch_predict<float, OP_ENCODE>(g, method, fa, -1, &d_st->lv, (const float *)d_x, d_sym, d_st, in, NULL,
                                            (float *)d_r, (float *)d_w, par, s, GG_PAR_AUX, false, false, h0);
}

extern "C" int gg_encode_counts_hist0(gg_grid g, int method, gg_state *d_st, int hist0)
{
    return counts_hist0(g, method, hist0_of(g, d_st, hist0));
}

/* phase 0 (after the range scan, before tuning): the sample gathered and
 * the states set, then Lorenzo and both slice orders, which do not need
 * tuning: all of it on side streams 2 and 3 (tuning's blends use side
 * stream 0), beside tuning. Phase 1 (after tuning): interpolation with the
 * tuned levels (st's own: the trial's state holds only its histogram),
 * the join, the decision. Where an encoder needs the global scratch (large
 * boxes) all of it runs on s0, the methods in phase 1 one after the other. */
template <class T>
static cudaError_t trial_run(const T *x, gg_grid g, gg_grid tg, gg_trial_boxes tb, int lorenzo_ok, gg_state *st,
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
     * instead of waiting for 1024 free thread slots on one SM. H100,
     * kernel-only, seven alternated rounds (bench/gpu-runs/s1127 run 1):
     * 256^3 compression 521.1 -> 513.9 us, 512^3 2852 -> 2812 (medians),
     * faster in six rounds of seven at each size. */
    const bool narrow_trial = g.count > ((uint64_t)1 << 19);
    if (spec && phase == 1) spec->on = speculate;
    DecodeIn in = {};
    const unsigned nb = (unsigned)n_blocks(tg);
    const uint64_t tn = tg.count;
    /* method m (1 Lorenzo, 2 both slice orders, 0 interpolation) and its books */
    auto method = [&](int m, cudaStream_t s) -> cudaError_t {
        cudaError_t r;
        if (m == 2)
            r = launch_slice<T, OP_ENCODE>(tg, nb, &tst[2].lv, tx, slice_box_bytes(tg) ? NULL : tsym + 2 * tn, &tst[2], in,
                                           NULL, tr_r, tr_w, -2, s);
        else /* interpolation's instances side by side, as the chunk's */
            r = launch_predict<T, OP_ENCODE>(tg, m == 0 ? GG_INTERP : GG_LORENZO, tg.has_fill ? -1 : 0, -1,
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
         * one does not wait behind the other's empty launches (about 5 +
         * 5.6 us at 256^3, H200 trace, bench/gpu-runs/s1127 run 8): 256^3
         * kernel-only compression 483.2 -> 478.4 us, 512^3 2535 -> 2517,
         * faster in each of three alternated rounds (H200, s1127b run 2).
         * It had lost beside the trial's 1024-thread interpolation (s0826
         * run 8), which now runs in 256-thread blocks on these chunks. */
        gg_par sp = *par;
        sp.aux[0] = par->aux[1], sp.join[0] = par->join[1];
        if ((e = launch_predict<T, OP_ENCODE>(g, GG_INTERP, g.has_fill ? -1 : 0, -1, &st->lv, x, spec->sym, st, in,
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
    return gg_launch(trial_pick_k, dim3(1), dim3(256), 0, s0, speculate && (pdl_edges & GG_PDL_TAIL), tst, tr,
                     lorenzo_ok, (unsigned)sizeof(T), g.blog, st, speculate);
}

extern "C" cudaError_t gg_trial_run(const void *d_x, gg_grid g, gg_grid tg, gg_trial_boxes tb, int lorenzo_ok,
                                    gg_state *d_st, gg_state *d_tst, gg_trial *d_tr, void *d_tx, uint16_t *d_tsym,
                                    void *d_tr_r, void *d_tr_w, gg_dict dict, gg_select_work *d_work, const gg_par *par,
                                    int phase, gg_spec *spec, cudaStream_t s)
{
    if (g.dtype == GLIDE_FLOAT64)
        return trial_run<double>((const double *)d_x, g, tg, tb, lorenzo_ok, d_st, d_tst, d_tr, (double *)d_tx, d_tsym,
                                 (double *)d_tr_r, (double *)d_tr_w, dict, d_work, par, phase, spec, s);
    return trial_run<float>((const float *)d_x, g, tg, tb, lorenzo_ok, d_st, d_tst, d_tr, (float *)d_tx, d_tsym,
                            (float *)d_tr_r, (float *)d_tr_w, dict, d_work, par, phase, spec, s);
}

extern "C" cudaError_t gg_slice_force(gg_state *d_st, unsigned order, cudaStream_t s)
{
    slice_force_k<<<1, 32, 0, s>>>(d_st, order);
    return cudaGetLastError();
}

extern "C" cudaError_t gg_decode(gg_grid g, int method, int fill_aware, int blend, const gg_state *d_st,
                                 const uint16_t *d_sym, const uint32_t *d_pos, const uint8_t *d_anchors,
                                 const uint8_t *d_outliers, uint64_t n_outliers, void *d_y, void *d_r, void *d_w,
                                 uint32_t *d_err, cudaStream_t s)
{
    DecodeIn in = {d_sym, d_pos, d_pos + outlier_words(g.count), d_anchors, d_outliers, n_outliers, d_err, 0, 0, 0, 0, 0};
    if (g.dtype == GLIDE_FLOAT64)
        return launch_predict<double, OP_DECODE>(g, method, fill_aware, blend, &d_st->lv, NULL, NULL, NULL, in,
                                                 (double *)d_y, (double *)d_r, (double *)d_w, NULL, s);
    return launch_predict<float, OP_DECODE>(g, method, fill_aware, blend, &d_st->lv, NULL, NULL, NULL, in,
                                            (float *)d_y, (float *)d_r, (float *)d_w, NULL, s);
}

extern "C" cudaError_t gg_choose(const void *d_x, gg_grid g, uint64_t k, gg_state *d_st, cudaStream_t s)
{
    if (g.dtype == GLIDE_FLOAT64)
        return launch_sample<double>(choose_k<double, true>, choose_k<double, false>, d_x, g, k, g.blog + 1, 512, d_st,
                                     s);
    return launch_sample<float>(choose_k<float, true>, choose_k<float, false>, d_x, g, k, g.blog + 1, 512, d_st, s);
}

extern "C" size_t gg_outlier_scan_scratch(uint64_t n)
{
    size_t bytes = 0;
    cub::DeviceScan::ExclusiveSum(NULL, bytes, (uint32_t *)NULL, (uint32_t *)NULL, (int)outlier_words(n));
    return bytes;
}

extern "C" size_t gg_outlier_scan_bytes(uint64_t n) { return (size_t)outlier_words(n) * 2 * sizeof(uint32_t); }

extern "C" cudaError_t gg_outlier_scan(const uint16_t *d_sym, uint64_t n, uint32_t *d_pos, gg_state *d_st,
                                       void *d_scratch, size_t scratch_bytes, cudaStream_t s)
{
    const uint64_t nw = outlier_words(n);
    uint32_t *mask = d_pos, *pre = d_pos + nw;
    if (d_sym) outlier_words_k<<<grid_for(nw * 4), GG_THREADS, 0, s>>>(d_sym, n, mask, pre);
    cudaError_t e = cub::DeviceScan::ExclusiveSum(d_scratch, scratch_bytes, pre, pre, (int)nw, s);
    if (e != cudaSuccess) return e;
    outlier_total_k<<<1, 1, 0, s>>>(nw, mask, pre, d_st);
    return cudaGetLastError();
}

extern "C" size_t gg_outlier_tile_bytes(uint64_t n) { return (size_t)((n + kOutTile - 1) / kOutTile) * sizeof(uint32_t); }

extern "C" cudaError_t gg_anchors_outliers(const void *d_x, gg_grid g, const uint16_t *d_sym, uint32_t *d_tiles,
                                        gg_state *d_st, uint8_t *d_buf, cudaStream_t s)
{
    const uint64_t n_tiles = (g.count + kOutTile - 1) / kOutTile, wpb = GG_THREADS / 32;
    uint64_t count_blocks = (n_tiles + wpb - 1) / wpb; /* a warp per tile */
    const uint64_t anchor_blocks = grid_for(n_blocks(g));
    if (count_blocks < anchor_blocks) count_blocks = anchor_blocks;
    const unsigned cgrid = count_blocks < 4096 ? (unsigned)count_blocks : 4096u; /* both loops stride */
    const unsigned grid = n_tiles < 4096 ? (unsigned)n_tiles : 4096u;
    if (g.dtype == GLIDE_FLOAT64) {
        outlier_count_k<double><<<cgrid, GG_THREADS, 0, s>>>((const double *)d_x, g, d_buf, d_sym, g.count, d_tiles, d_st);
        outlier_pack_k<double><<<grid, GG_THREADS, 0, s>>>((const double *)d_x, g.count, d_sym, d_tiles, d_st, d_buf);
    } else {
        outlier_count_k<float><<<cgrid, GG_THREADS, 0, s>>>((const float *)d_x, g, d_buf, d_sym, g.count, d_tiles, d_st);
        outlier_pack_k<float><<<grid, GG_THREADS, 0, s>>>((const float *)d_x, g.count, d_sym, d_tiles, d_st, d_buf);
    }
    return cudaGetLastError();
}
