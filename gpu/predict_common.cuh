/* The prediction kernels' shared device helpers: the same arithmetic, in the
 * same order, as cpu/interp_tmpl.h, cpu/lorenzo_tmpl.h and cpu/points_tmpl.h
 * (compiled with --fmad=false so no product is fused into an add). One
 * thread block owns one anchor block: it computes the block's closed box
 * (docs/FORMAT.md §8.3), so blocks never wait for each other, and writes the
 * symbols of the points it owns (coordinates in [lo, lo + B) on every axis).
 * Included by every gpu/ file of the prediction stages; the library builds
 * without relocatable device code, so what they share is inline or a
 * template here, and each file gets its own copy of the constant tables. */
#ifndef GLIDE_PREDICT_COMMON_CUH
#define GLIDE_PREDICT_COMMON_CUH
#include "gg_predict.h"
#include "cost.h"
#include "last_block.cuh"
#include "pdl.cuh"
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
static __constant__ uint8_t c_axes[3][6][3] = {
    {{2, 0, 0}},
    {{1, 2, 0}, {2, 1, 0}},
    {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}};
static __constant__ uint8_t c_splines[GLIDE_NSPLINES] = {GLIDE_SPLINE_CUBIC_NAK, GLIDE_SPLINE_LINEAR,
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
static __constant__ uint8_t c_bsets[2][7] = {{2, 4, 6}, {1, 2, 4, 3, 5, 6, 7}};
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


#endif
