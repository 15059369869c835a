/* Format 5's symbol planes on the device (docs/FORMAT.md §10.6): the
 * symbols in raster order to plane order (plane 0: every coordinate even
 * within its slab; plane 1: the rest) with plane 0's histogram, and back.
 * A point's place in its plane follows from its coordinates, so both are
 * one pass with no scan. Counts fit 32 bits: a chunk holds fewer than 2^30
 * values (4 GiB of float32).
 *
 * Both passes are bound by memory latency unless each thread keeps several
 * loads in flight: a warp takes kTile consecutive points, lane l those at
 * l + 32 u (loads and stores stay coalesced), loads them all, then places
 * them. Coordinates come from divisions by multiply-high constants, once
 * per row where a tile spans at most two rows. On an H100 at 256^3: row
 * pieces with one point per thread took 93 us (one load in flight per
 * thread); eight points per thread with three divisions each, 48 us
 * (split) and 38 us (merge). Rows of whole groups of 8 (most chunk shapes)
 * take the vector kernels below, which move 16 bytes of the raster order
 * per thread: on an H200 at 256^3 split 51.8 -> 20.6 us and merge 32.0 ->
 * 17.1 us (ncu). The encoder reads the planes in place where rows are
 * whole groups of 64 (plane_runs.h, huff_encode.cu), and then only plane
 * 0's histogram is made here (hist0_k). */
#include "gg_planes.h"
#include "outlier_words.cuh"
#include "pdl.cuh"

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kPer = 8;          /* points per thread and round */
constexpr unsigned kGridMax = 1024;   /* about eight blocks per SM: plane 0's histogram is flushed once per block */

struct plane_map {
    gg_fdiv n2, n1, rows;   /* grid extents of axes 2 and 1, slab rows on axis 0 */
    uint32_t hw0, w0, e0; /* plane 0's points per even row pair of a slab, per even row; its rows per slab */
    uint32_t p1;          /* plane 1's start in the plane-order buffer */
    uint32_t n;           /* points */
};

plane_map map_of(const gg_grid &g, uint64_t n0)
{
    plane_map m;
    m.n2 = gg_fdiv_of((uint32_t)g.n[2]);
    m.n1 = gg_fdiv_of((uint32_t)g.n[1]);
    m.rows = gg_fdiv_of((uint32_t)g.slab_rows);
    m.w0 = ((uint32_t)g.n[2] + 1) / 2;
    m.hw0 = ((uint32_t)g.n[1] + 1) / 2 * m.w0;
    m.e0 = ((uint32_t)g.slab_rows + 1) / 2;
    m.p1 = (uint32_t)gg_plane1_base(n0);
    m.n = (uint32_t)g.count;
    return m;
}

/* A row's (fixed slowest coordinates) part of the mapping: its first
 * raster index, plane 0's points before that (the even rows of earlier
 * slabs and the earlier even rows of its own slab, then, in an even row,
 * the even columns before it), and whether all its coordinates but x are
 * even (then its even x are plane 0's). */
struct row_info {
    uint32_t start, before;
    bool even;
};

__device__ __forceinline__ row_info row_of(const plane_map &m, uint32_t row)
{
    const uint32_t z = gg_quot(m.n1, row), y = row - z * m.n1.d;
    const uint32_t slab = gg_quot(m.rows, z), zl = z - slab * m.rows.d;
    row_info r;
    r.start = row * m.n2.d;
    r.before = (slab * m.e0 + (zl + 1) / 2) * m.hw0;
    if (!(zl & 1u)) r.before += (y + 1) / 2 * m.w0;
    r.even = !((zl | y) & 1u);
    return r;
}

/* Point i (of row r)'s slot in the plane-order buffer; p0: whether it is
 * in plane 0. In an even row the even x before it add (x + 1) / 2 plane 0
 * points; a plane 1 point's rank is i less plane 0's points before it. */
__device__ __forceinline__ uint32_t slot_in(const plane_map &m, const row_info &r, uint32_t i, bool &p0)
{
    const uint32_t x = i - r.start, before = r.before + (r.even ? (x + 1) / 2 : 0);
    p0 = r.even && !(x & 1u);
    return p0 ? before : m.p1 + (i - before);
}

/* A warp's tile of kTile consecutive points. Where the tile spans at most
 * two rows (rows of kTile points or more: the large chunks) both rows'
 * parts are computed once and each point only picks one; else every point
 * divides for its own row. Warp-uniform. */
constexpr uint32_t kTile = 32 * kPer;

struct tile {
    row_info a, b; /* the first row and the next (b.start > every index when there is none) */
    bool two;      /* at most two rows */
};

__device__ __forceinline__ tile tile_of(const plane_map &m, uint32_t base)
{
    tile t;
    const uint32_t last = min(base + kTile, m.n) - 1, ra = gg_quot(m.n2, base), rb = gg_quot(m.n2, last);
    t.two = rb - ra <= 1;
    t.a = row_of(m, ra);
    t.b.start = 0xFFFFFFFFu;
    if (t.two && rb != ra) t.b = row_of(m, rb);
    return t;
}

__device__ __forceinline__ uint32_t slot_of(const plane_map &m, const tile &t, uint32_t i, bool &p0)
{
    if (t.two) return slot_in(m, i >= t.b.start ? t.b : t.a, i, p0);
    return slot_in(m, row_of(m, gg_quot(m.n2, i)), i, p0);
}

/* A block's plane 0 histogram in shared memory: cleared before its
 * points, added to the chunk's once after them. */
__device__ __forceinline__ void hist_clear(unsigned *h)
{
    for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x) h[t] = 0;
    __syncthreads();
}

__device__ __forceinline__ void hist_flush(const unsigned *h, unsigned long long *hist0)
{
    __syncthreads();
    for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x)
        if (h[t]) atomicAdd(&hist0[t], (unsigned long long)h[t]);
}

/* plane 0's counts for one symbol per lane (key 0xFFFF: none): one shared
 * atomic when the warp's plane 0 symbols agree (the usual case), else one
 * each. Warp-uniform. */
__device__ __forceinline__ void count_p0(unsigned *h, unsigned key, unsigned lane)
{
    const unsigned p0m = __ballot_sync(0xFFFFFFFFu, key != 0xFFFFu);
    if (!p0m) return;
    const unsigned first = (unsigned)__ffs(p0m) - 1, k0 = __shfl_sync(0xFFFFFFFFu, key, first);
    if (__ballot_sync(0xFFFFFFFFu, key == k0) == p0m) {
        if (lane == first) atomicAdd(&h[k0], (unsigned)__popc(p0m));
    } else if (key != 0xFFFFu) {
        atomicAdd(&h[key], 1u);
    }
}

__global__ void __launch_bounds__(kThreads) split_k(const uint16_t *__restrict__ sym, plane_map m,
                                                     uint16_t *__restrict__ out, unsigned long long *hist0)
{
    __shared__ unsigned h[GLIDE_NSYM];
    hist_clear(h);
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const uint32_t stride = gridDim.x * kThreads * kPer;
    for (uint32_t base = blockIdx.x * kThreads * kPer + warp * kTile; base < m.n; base += stride) {
        unsigned s[kPer];
#pragma unroll
        for (unsigned u = 0; u < kPer; u++) {
            const uint32_t i = base + lane + 32 * u;
            s[u] = i < m.n ? __ldg(sym + i) : 0xFFFFu;
        }
        const tile t = tile_of(m, base);
#pragma unroll
        for (unsigned u = 0; u < kPer; u++) {
            const uint32_t i = base + lane + 32 * u;
            unsigned key = 0xFFFFu;
            if (i < m.n) {
                bool p0;
                out[slot_of(m, t, i, p0)] = (uint16_t)s[u];
                if (p0 && s[u] < GLIDE_NSYM) key = s[u];
            }
            count_p0(h, key, lane);
        }
    }
    hist_flush(h, hist0);
}

/* Where rows are whole groups of 8 (nx % 8 == 0) a thread moves 8
 * consecutive raster symbols as one 16-byte access and 8-byte accesses to
 * the planes: in an even row the 4 even columns are 4 consecutive plane 0
 * slots and the 4 odd ones 4 consecutive plane 1 slots; an odd row's 8 are
 * consecutive plane 1 slots. Every slot is then a multiple of 4: the row's
 * plane 0 count before it is (w0 = nx / 2 being one), and so is plane 1's
 * start. V groups per thread and round are loaded before any is placed
 * (V = 4 for large chunks; 1 where that would leave SMs idle: at 64^3,
 * 32 blocks of V = 4 took 5.3 us, 128 of V = 1 3.2 us). */
__device__ __forceinline__ void store4(uint16_t *p, unsigned a, unsigned b, unsigned c, unsigned d)
{
    *reinterpret_cast<uint2 *>(p) = make_uint2(a | b << 16, c | d << 16);
}

template <unsigned V>
__global__ void __launch_bounds__(kThreads) split_vec_k(const uint16_t *__restrict__ sym, plane_map m,
                                                         uint16_t *__restrict__ out, unsigned long long *hist0)
{
    __shared__ unsigned h[GLIDE_NSYM];
    hist_clear(h);
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const uint32_t groups = m.n / 8, stride = gridDim.x * kThreads * V;
    const uint4 *src = reinterpret_cast<const uint4 *>(sym);
    for (uint32_t base = blockIdx.x * kThreads * V + warp * 32 * V; base < groups; base += stride) {
        uint4 v[V];
#pragma unroll
        for (unsigned u = 0; u < V; u++) {
            const uint32_t gi = base + lane + 32 * u;
            v[u] = gi < groups ? __ldg(src + gi) : make_uint4(0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu);
        }
#pragma unroll
        for (unsigned u = 0; u < V; u++) {
            const uint32_t gi = base + lane + 32 * u, i = gi * 8;
            const unsigned w[4] = {v[u].x, v[u].y, v[u].z, v[u].w};
            bool even = false;
            if (gi < groups) {
                const row_info r = row_of(m, gg_quot(m.n2, i));
                const uint32_t half = (i - r.start) / 2;
                even = r.even;
                if (even) {
                    store4(out + r.before + half, w[0] & 0xFFFFu, w[1] & 0xFFFFu, w[2] & 0xFFFFu, w[3] & 0xFFFFu);
                    store4(out + m.p1 + i - r.before - half, w[0] >> 16, w[1] >> 16, w[2] >> 16, w[3] >> 16);
                } else {
                    uint16_t *o = out + m.p1 + i - r.before;
                    *reinterpret_cast<uint2 *>(o) = make_uint2(w[0], w[1]);
                    *reinterpret_cast<uint2 *>(o + 4) = make_uint2(w[2], w[3]);
                }
            }
#pragma unroll
            for (unsigned j = 0; j < 4; j++) {
                const unsigned k = w[j] & 0xFFFFu;
                count_p0(h, even && k < GLIDE_NSYM ? k : 0xFFFFu, lane);
            }
        }
    }
    hist_flush(h, hist0);
}

/* The merge also makes the decoder's outlier words when asked (words not
 * NULL: outliers.cu's outlier_words_k, whose pass over the symbols it
 * spares: at 512^3, 3368 -> 3305 us kernel-only decompression, H200): a
 * word is four consecutive groups, so four consecutive lanes; the loop
 * test is the warp's, so whole warps shuffle.
 * W is a template argument: the words' code cost the merge 17.1 -> 19.6 us
 * at 256^3 (ncu, H200) even where it made none. */
template <unsigned V, bool W>
__global__ void __launch_bounds__(kThreads) merge_vec_k(const uint16_t *__restrict__ in, plane_map m,
                                                         uint16_t *__restrict__ sym, uint32_t *__restrict__ words)
{
    const uint32_t groups = m.n / 8, stride = gridDim.x * kThreads * V, nw = (m.n + 31) / 32;
    const unsigned lane = threadIdx.x & 31;
    uint4 *dst = reinterpret_cast<uint4 *>(sym);
    for (uint32_t wb = blockIdx.x * kThreads * V + (threadIdx.x & ~31u); wb < groups; wb += stride) {
        uint2 a[V], b[V];
#pragma unroll
        for (unsigned u = 0; u < V; u++) {
            const uint32_t gi = wb + lane + kThreads * u, i = gi * 8;
            a[u] = b[u] = make_uint2(0, 0);
            if (gi >= groups) continue;
            const row_info r = row_of(m, gg_quot(m.n2, i));
            const uint32_t half = (i - r.start) / 2;
            const uint16_t *p0 = r.even ? in + r.before + half : in + m.p1 + i - r.before;
            const uint16_t *p1 = r.even ? in + m.p1 + i - r.before - half : p0 + 4;
            a[u] = __ldg(reinterpret_cast<const uint2 *>(p0));
            b[u] = __ldg(reinterpret_cast<const uint2 *>(p1));
            if (r.even) { /* a: the even columns, b: the odd ones */
                const uint2 e = a[u], o = b[u];
                a[u] = make_uint2((e.x & 0xFFFFu) | o.x << 16, (e.x >> 16) | (o.x & 0xFFFF0000u));
                b[u] = make_uint2((e.y & 0xFFFFu) | o.y << 16, (e.y >> 16) | (o.y & 0xFFFF0000u));
            }
        }
#pragma unroll
        for (unsigned u = 0; u < V; u++) {
            const uint32_t gi = wb + lane + kThreads * u;
            const uint4 v = make_uint4(a[u].x, a[u].y, b[u].x, b[u].y);
            if (gi < groups) dst[gi] = v;
            if (W) {
                const unsigned w = outlier_word(gi < groups ? outlier_bits8(v) : 0u, lane);
                if ((lane & 3u) == 0 && gi < groups) {
                    words[gi / 4] = w;
                    words[nw + gi / 4] = (uint32_t)__popc(w);
                }
            }
        }
    }
}

/* V = 4 where a round of that still gives every SM a few blocks */
unsigned vec_blocks(const plane_map &m, unsigned v)
{
    const uint64_t b = ((uint64_t)m.n / 8 + kThreads * v - 1) / (kThreads * v);
    return b == 0 ? 1u : b < kGridMax ? (unsigned)b : kGridMax;
}

bool vec_ok(const gg_grid &g, const void *raster, const void *planes)
{
    return g.n[2] % 8 == 0 && ((uintptr_t)raster & 15u) == 0 && ((uintptr_t)planes & 7u) == 0;
}

constexpr unsigned kVecBig = 4, kVecMinBlocks = 256;

__global__ void __launch_bounds__(kThreads) merge_k(const uint16_t *__restrict__ in, plane_map m,
                                                     uint16_t *__restrict__ sym)
{
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const uint32_t stride = gridDim.x * kThreads * kPer;
    for (uint32_t base = blockIdx.x * kThreads * kPer + warp * kTile; base < m.n; base += stride) {
        const tile t = tile_of(m, base);
        unsigned s[kPer];
#pragma unroll
        for (unsigned u = 0; u < kPer; u++) {
            const uint32_t i = base + lane + 32 * u;
            bool p0;
            s[u] = i < m.n ? __ldg(in + slot_of(m, t, i, p0)) : 0;
        }
#pragma unroll
        for (unsigned u = 0; u < kPer; u++) {
            const uint32_t i = base + lane + 32 * u;
            if (i < m.n) sym[i] = (uint16_t)s[u];
        }
    }
}

unsigned grid_for(const plane_map &m)
{
    const uint64_t b = ((uint64_t)m.n + kThreads * kPer - 1) / (kThreads * kPer);
    return b == 0 ? 1u : b < kGridMax ? (unsigned)b : kGridMax;
}

/* Plane 0's histogram alone, for an encoder that reads the planes in
 * place (plane_runs.h): only the even rows of even layers are read, a
 * 16-byte group per thread (four plane 0 points), V groups in flight. */
template <unsigned V>
__global__ void __launch_bounds__(kThreads) hist0_k(const uint16_t *__restrict__ sym, gg_plane_runs r,
                                                     uint32_t groups, unsigned long long *hist0, const uint32_t *made)
{
    pdl_wait(); /* after the commits (GG_PDL_TAIL) */
    pdl_trigger();
    if (*made) return; /* the interpolation kernel counted plane 0 (gg_state.hist0_made) */
    __shared__ unsigned h[GLIDE_NSYM];
    hist_clear(h);
    const unsigned lane = threadIdx.x & 31;
    const uint32_t stride = gridDim.x * kThreads * V;
    for (uint32_t base = blockIdx.x * kThreads * V + (threadIdx.x & ~31u) * V; base < groups; base += stride) {
        uint4 v[V];
#pragma unroll
        for (unsigned u = 0; u < V; u++) {
            const uint32_t gi = base + lane + 32 * u;
            v[u] = make_uint4(0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu);
            if (gi < groups) {
                unsigned pick;
                const uint64_t at = gg_run_start(r, 0, gi / 8, pick) + 8 * (gi % 8);
                v[u] = __ldg(reinterpret_cast<const uint4 *>(sym + at));
            }
        }
#pragma unroll
        for (unsigned u = 0; u < V; u++) {
            const unsigned w[4] = {v[u].x, v[u].y, v[u].z, v[u].w};
#pragma unroll
            for (unsigned j = 0; j < 4; j++) {
                const unsigned k = w[j] & 0xFFFFu;
                count_p0(h, k < GLIDE_NSYM ? k : 0xFFFFu, lane);
            }
        }
    }
    hist_flush(h, hist0);
}

} /* namespace */

extern "C" cudaError_t gg_planes_split(const uint16_t *d_sym, gg_grid g, uint64_t n0, uint16_t *d_out, gg_state *d_st,
                                       cudaStream_t s)
{
    const plane_map m = map_of(g, n0);
    unsigned long long *h0 = reinterpret_cast<unsigned long long *>(d_st->hist_pl[0]);
    if (!vec_ok(g, d_sym, d_out))
        split_k<<<grid_for(m), kThreads, 0, s>>>(d_sym, m, d_out, h0);
    else if (vec_blocks(m, kVecBig) >= kVecMinBlocks)
        split_vec_k<kVecBig><<<vec_blocks(m, kVecBig), kThreads, 0, s>>>(d_sym, m, d_out, h0);
    else
        split_vec_k<1><<<vec_blocks(m, 1), kThreads, 0, s>>>(d_sym, m, d_out, h0);
    return cudaGetLastError();
}

extern "C" cudaError_t gg_planes_merge(const uint16_t *d_in, gg_grid g, uint64_t n0, uint16_t *d_sym, uint32_t *d_words,
                                       int *made, cudaStream_t s)
{
    const plane_map m = map_of(g, n0);
    *made = 0;
    if (!vec_ok(g, d_sym, d_in)) {
        merge_k<<<grid_for(m), kThreads, 0, s>>>(d_in, m, d_sym);
        return cudaGetLastError();
    }
    *made = d_words != nullptr;
    const bool big = vec_blocks(m, kVecBig) >= kVecMinBlocks;
    const unsigned grid = vec_blocks(m, big ? kVecBig : 1);
    if (big && d_words) merge_vec_k<kVecBig, true><<<grid, kThreads, 0, s>>>(d_in, m, d_sym, d_words);
    else if (big) merge_vec_k<kVecBig, false><<<grid, kThreads, 0, s>>>(d_in, m, d_sym, nullptr);
    else if (d_words) merge_vec_k<1, true><<<grid, kThreads, 0, s>>>(d_in, m, d_sym, d_words);
    else merge_vec_k<1, false><<<grid, kThreads, 0, s>>>(d_in, m, d_sym, nullptr);
    return cudaGetLastError();
}

extern "C" cudaError_t gg_planes_hist0(const uint16_t *d_sym, const gg_plane_runs *runs, uint64_t n0, gg_state *d_st,
                                       int pdl, cudaStream_t s)
{
    if (!runs || ((uintptr_t)d_sym & 15u) || n0 % GG_RUN_SYMS) return cudaErrorInvalidValue;
    const gg_plane_runs r = *runs;
    unsigned long long *h0 = reinterpret_cast<unsigned long long *>(d_st->hist_pl[0]);
    const uint32_t groups = (uint32_t)(n0 / 4); /* 8 raster points, 4 of plane 0 */
    const uint64_t big = ((uint64_t)groups + kThreads * kVecBig - 1) / (kThreads * kVecBig);
    /* latency bound: a block per 256 x kVecBig groups beats fewer blocks that
     * flush their histograms fewer times (docs/DESIGN.md, what we tried) */
    if (big >= kVecMinBlocks)
        return pdl_launch(hist0_k<kVecBig>, dim3(big < kGridMax ? (unsigned)big : kGridMax), dim3(kThreads), 0, s, pdl,
                         d_sym, r, groups, h0, &d_st->hist0_made);
    const uint64_t b = ((uint64_t)groups + kThreads - 1) / kThreads;
    return pdl_launch(hist0_k<1>, dim3(b == 0 ? 1u : b < kGridMax ? (unsigned)b : kGridMax), dim3(kThreads), 0, s, pdl,
                     d_sym, r, groups, h0, &d_st->hist0_made);
}
