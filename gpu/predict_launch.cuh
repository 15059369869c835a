/* The host side the prediction stages share: the sizes that decide which
 * kernel runs (boxes in shared memory or global scratch, a split
 * interpolation), grids, and the launchers one file exports to another
 * (each defined, and explicitly instantiated, in the file of its kernels:
 * a kernel is compiled in one translation unit only). */
#ifndef GLIDE_PREDICT_LAUNCH_CUH
#define GLIDE_PREDICT_LAUNCH_CUH
#include "predict_point.cuh"

/* the decoder's outlier rank words (gg_outlier_scan) */
inline uint64_t outlier_words(uint64_t n) { return (n + 31) / 32; }

inline unsigned grid_for(uint64_t n)
{
    uint64_t b = (n + GG_THREADS - 1) / GG_THREADS;
    if (b > 65535ull * 16) b = 65535ull * 16;
    return b ? (unsigned)b : 1u;
}

inline uint64_t n_blocks(const gg_grid &g) { return g.nb[0] * g.nb[1] * g.nb[2]; }

/* the blocks box_own leaves working (from axis a0 on) */
inline uint64_t working_blocks(const gg_grid &g, int a0)
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
inline uint64_t n_samples(const gg_grid &g, uint64_t k)
{
    uint64_t m = 1;
    for (int a = 0; a < 3; a++) m *= (g.nb[a] + k - 1) / k;
    return m;
}

enum { BOX_TUNE, BOX_INTERP, BOX_BLEND, BOX_LORENZO, BOX_BLEND_TUNE, BOX_BLEND_TUNE1 };
/* attribute a of the current device, read once into *cache (chunks are
 * serialised by the context's mutex); fallback where the query fails */
inline int device_attr(cudaDeviceAttr a, int fallback, int *cache)
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
inline size_t shared_max(void)
{
    static int cached;
    const size_t v = (size_t)device_attr(cudaDevAttrMaxSharedMemoryPerBlockOptin, 48 * 1024, &cached);
    return v > 8 * 1024 ? v - 8 * 1024 : 0; /* less the kernels' static shared memory (histogram, reductions) */
}

/* the device's SMs (the same for every call) */
inline unsigned sm_count(void)
{
    static int cached;
    return (unsigned)device_attr(cudaDevAttrMultiProcessorCount, 1, &cached);
}

/* shared bytes a kernel needs for one block's box, or 0 if it must use the
 * global-memory path */
inline size_t box_bytes(const gg_grid &g, int kind)
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

/* the slice kernels' shapes (slice.cuh) */
#define GG_SLICE_THREADS 128 /* at most (B/2) x (B + 1) points a step (136 at B = 16) */
#define GG_SLICE_WF_THREADS 320 /* slice_wf_k: a slice of at most this many points, else GG_THREADS_MAX */
template <class T> __host__ __device__ constexpr size_t slice_sh_per_point() { return 5 * sizeof(T) + 4; }
template <class T> __host__ __device__ constexpr size_t slice_wf_per_point() { return 3 * sizeof(T) + 1; }
__host__ __device__ constexpr size_t slice_wf_per_table() { return sizeof(uint32_t) + 1; }

/* a slice's points in the largest box of slice_sh_k or slice_wf_k */
inline uint64_t slice_box_points(const gg_grid &g)
{
    const uint64_t B = 1ull << g.blog, e1 = g.n[1] < B + 1 ? g.n[1] : B + 1, e2 = g.n[2] < B + 1 ? g.n[2] : B + 1;
    return e1 * e2;
}

/* shared bytes of slice_sh_k's box (two slices' reconstructions and 2-D
 * predictions, one slice's values, symbols and two fill flags per point),
 * or 0: slice_k with global scratch */
inline size_t slice_box_bytes(const gg_grid &g)
{
    const size_t per = g.dtype == GLIDE_FLOAT64 ? slice_sh_per_point<double>() : slice_sh_per_point<float>();
    const size_t bytes = (size_t)slice_box_points(g) * per;
    return bytes <= shared_max() ? bytes : 0;
}

/* shared bytes of slice_wf_k's run (every slice's reconstructions, 2-D
 * predictions, values or symbols and fill flags; a slice's point table),
 * or 0 */
inline size_t slice_run_bytes(const gg_grid &g)
{
    const uint64_t B = 1ull << g.blog, E = slice_box_points(g);
    const uint64_t nz = g.slab_rows < B ? g.slab_rows : B;
    const bool f64 = g.dtype == GLIDE_FLOAT64;
    const size_t per = f64 ? slice_wf_per_point<double>() : slice_wf_per_point<float>();
    const size_t bytes = (size_t)(nz * E) * per + (size_t)E * slice_wf_per_table();
    return bytes <= shared_max() ? bytes : 0;
}

/* lets a kernel take more than the default 48 KiB of dynamic shared memory */
inline cudaError_t allow_shared(const void *kernel, size_t bytes)
{
    /* 48 KiB is the default for static plus dynamic: leave room for the static */
    if (bytes + 8 * 1024 <= 48 * 1024) return cudaSuccess;
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
}

/* the grid of a gated commit (lorenzo_k, slice_wf_k order -1): the blocks
 * of kernel (nt threads, sh dynamic shared bytes) the device holds at
 * once, or L->commit_grid */
inline cudaError_t commit_grid(const gg_launch *L, const void *kernel, unsigned nt, size_t sh, unsigned *grid)
{
    if (L->commit_grid) {
        *grid = L->commit_grid;
        return cudaSuccess;
    }
    int per = 0;
    const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kernel, (int)nt, sh);
    if (e != cudaSuccess) return e;
    *grid = sm_count() * (unsigned)(per > 0 ? per : 1);
    return cudaSuccess;
}

/* blend: blended levels may occur (encoding rank 2 and 3) or do (decoding) */
inline bool may_blend(const gg_grid &g, int method, int blend)
{
    return method != GG_LORENZO && blend && g.eff_rank >= 2;
}

/* the slice method keeps its reconstructions and 2-D predictions in global r and w */
inline bool slices_may(const gg_grid &g, int method)
{
    return (method == GG_CHOSEN3 || method == GG_SLICE_XY || method == GG_SLICE_YX) && slice_box_bytes(g) == 0;
}

/* A split interpolation (PART_COARSE, PART_FINE) where it pays: 3-D chunks
 * of many blocks and one slab, boxes in shared memory, over 2^21 points
 * (more than 128^3). Below that a chunk's blocks are about one wave of the
 * single kernel, whose coarse levels' waits the other blocks hide, and the
 * split would add a launch and a dependency. */
#define GG_SPLIT_POINTS ((uint64_t)1 << 21)
inline bool split_ok(const gg_launch *L, const gg_grid &g, int method)
{
    if (method == GG_LORENZO || method == GG_SLICE_XY || method == GG_SLICE_YX) return false;
    const uint64_t points = L->split_points < 0 ? GG_SPLIT_POINTS : (uint64_t)L->split_points;
    if (g.eff_rank != 3 || g.nbl != g.nb[0] || g.blog < 2 || g.count <= points) return false;
    /* launch_interp's `few` (one kernel of 1024 threads a box) unless the
     * threshold was set (tests: the split's kernels on small chunks) */
    if (L->split_points < 0 && working_blocks(g, 0) < 512) return false;
    return box_bytes(g, BOX_BLEND) != 0;
}

/* the even lattice of g as a grid of its own (PART_COARSE): its blocks are
 * g's, one level fewer */
inline gg_grid half_grid(const gg_grid &g)
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

/* plane 0's histogram for the interpolation kernels (GSplit.h0), where
 * asked and the box parity is the chunk's: one slab, boxes of an even
 * stride */
inline unsigned long long *hist0_of(const gg_grid &g, gg_state *d_st, int hist0)
{
    if (!hist0 || g.nbl != g.nb[0] || g.blog < 1) return nullptr;
    return reinterpret_cast<unsigned long long *>(d_st->hist_pl[0]);
}

/* ---------------------------------------------- tuning's sample launches */

/* Small chunks have one or a few sample boxes: split each box's points over
 * enough blocks to fill the device (about 512 blocks in all), unless there
 * are `whole` rows or more: then one block per box, with the box in shared
 * memory. Tuning, whose blocks cost every level of their box, gains from
 * that; the predictor choice, whose blocks cost one level of a box, lost
 *. */
inline unsigned split_parts(uint64_t blocks, uint64_t whole)
{
    if (blocks >= whole) return 1;
    uint64_t p = (512 + blocks - 1) / blocks;
    return p > 32 ? 32u : (unsigned)p;
}

/* tune_k, blend_k and choose_k: one row of blocks per sample box (times
 * parts) and `rows` rows; the box in shared memory when each box has one
 * block */
template <class T> using sample_kernel = void (*)(const T *, gg_grid, uint64_t, unsigned, gg_state *, unsigned);

/* launch_sample's grid: one row of blocks per sample box (times parts) */
inline dim3 sample_grid(const gg_grid &g, uint64_t k, unsigned rows, uint64_t whole, unsigned *parts)
{
    const uint64_t m = n_samples(g, k);
    *parts = split_parts(m * rows, whole);
    return dim3((unsigned)(m * *parts), rows);
}

template <class T>
cudaError_t launch_sample(sample_kernel<T> with_box, sample_kernel<T> without_box, const void *d_x, gg_grid g,
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

/* ------------------------------------ launchers exported across files */

/* blend_cost.cu: the blends' costs of format 4's tuning. blend_w_k (the
 * residuals in shared memory) on grid with sh shared bytes, mode
 * GG_BLEND_*; other: tune_k's blocks beside it (GG_BLEND_SPEC) */
enum { GG_BLEND_BOTH, GG_BLEND_SPLIT, GG_BLEND_SPEC };
template <class T>
cudaError_t launch_blend_w(const void *d_x, gg_grid g, uint64_t k, int bits, int mode, dim3 grid, size_t sh,
                           unsigned other, gg_state *d_st, cudaStream_t s);
/* blend_k (open loop, any box size) */
template <class T> cudaError_t launch_blend_k(const void *d_x, gg_grid g, uint64_t k, int bits, gg_state *d_st, cudaStream_t s);

/* interp_encode.cu, interp_decode.cu: one interpolation instance (FA
 * fill-aware, BL blended levels), split where split_ok says so */
template <class T, int OP, bool FA, bool BL>
cudaError_t launch_interp(const gg_launch *L, gg_grid g, unsigned nb, const gg_levels *lv, const T *x, uint16_t *sym,
                          gg_state *st, DecodeIn in, T *y, T *r, T *w, bool gate, int method, cudaStream_t s,
                          bool narrow, unsigned long long *h0);

/* lorenzo.cu: lorenzo_k (gate: the chunk's gated commit, on commit_grid's
 * grid); pdl, hc as launch_predict's */
template <class T, int OP>
cudaError_t launch_lorenzo(const gg_launch *L, gg_grid g, unsigned nb, const gg_levels *lv, const T *x, uint16_t *sym,
                           gg_state *st, DecodeIn in, T *y, T *r, bool gate, bool pdl, unsigned long long *hc,
                           cudaStream_t s);

/* slice.cu: the slice method's kernel for this grid; order -2: both orders
 * (the trial), order k with state st + k, -1 the chunk's gated commit */
template <class T, int OP>
cudaError_t launch_slice(const gg_launch *L, gg_grid g, unsigned nb, const gg_levels *lv, const T *x, uint16_t *sym,
                         gg_state *st, DecodeIn in, T *y, T *r, T *w, int order, cudaStream_t s, bool pdl = false,
                         unsigned long long *h0 = nullptr);

/* predict.cu: the kernels of a method (gg_encode, gg_decode, the block
 * trial's) */
template <class T, int OP>
cudaError_t launch_predict(const gg_launch *L, gg_grid g, int method, int fa, int bl, const gg_levels *lv, const T *x,
                           uint16_t *sym, gg_state *st, DecodeIn in, T *y, T *r, T *w, const gg_par *par,
                           cudaStream_t s0, unsigned naux = GG_PAR_AUX, bool narrow = false, bool early = false,
                           unsigned long long *h0 = nullptr);

#endif
