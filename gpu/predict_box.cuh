/* Walking a block's closed box (docs/FORMAT.md §8.3): the boxes, the
 * level steps and point sets inside them, and the reductions and views the
 * kernels share. */
#ifndef GLIDE_PREDICT_BOX_CUH
#define GLIDE_PREDICT_BOX_CUH
#include "predict_common.cuh"

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
static __constant__ MagicTab c_magic = MagicTab();

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


/* The odd axes a1 < a2 < a3 of a blended level's point set (absent ones: 3) */
__device__ __forceinline__ void mask_axes(unsigned mask, unsigned ax[3])
{
    const unsigned m2 = mask & (mask - 1), m3 = m2 & (m2 - 1);
    ax[0] = (unsigned)__ffs((int)mask) - 1;
    ax[1] = m2 ? (unsigned)__ffs((int)m2) - 1 : 3u;
    ax[2] = m3 ? (unsigned)__ffs((int)m3) - 1 : 3u;
}

#endif
