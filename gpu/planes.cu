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
 * (split) and 38 us (merge). */
#include "gg_planes.h"

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kPer = 8;          /* points per thread and round */
constexpr unsigned kGridMax = 1024;   /* about eight blocks per SM: plane 0's histogram is flushed once per block */

/* n / d for n < 2^31 as (umulhi(n, m) + n) >> s (the round-up method: m =
 * floor(2^32 (2^s - d) / d) + 1, s = ceil(log2 d)); the sum cannot wrap as
 * umulhi(n, m) < n < 2^31. */
struct fdiv {
    uint32_t d, m, s;
};

fdiv fdiv_of(uint32_t d)
{
    fdiv f;
    f.d = d ? d : 1;
    f.s = 0;
    while ((1ull << f.s) < f.d) f.s++;
    f.m = (uint32_t)((((1ull << f.s) - f.d) << 32) / f.d + 1);
    return f;
}

__device__ __forceinline__ uint32_t quot(const fdiv &f, uint32_t n) { return (__umulhi(n, f.m) + n) >> f.s; }

struct plane_map {
    fdiv n2, n1, rows;   /* grid extents of axes 2 and 1, slab rows on axis 0 */
    uint32_t hw0, w0, e0; /* plane 0's points per even row pair of a slab, per even row; its rows per slab */
    uint32_t p1;          /* plane 1's start in the plane-order buffer */
    uint32_t n;           /* points */
};

plane_map map_of(const gg_grid &g, uint64_t n0)
{
    plane_map m;
    m.n2 = fdiv_of((uint32_t)g.n[2]);
    m.n1 = fdiv_of((uint32_t)g.n[1]);
    m.rows = fdiv_of((uint32_t)g.slab_rows);
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
    const uint32_t z = quot(m.n1, row), y = row - z * m.n1.d;
    const uint32_t slab = quot(m.rows, z), zl = z - slab * m.rows.d;
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
    const uint32_t last = min(base + kTile, m.n) - 1, ra = quot(m.n2, base), rb = quot(m.n2, last);
    t.two = rb - ra <= 1;
    t.a = row_of(m, ra);
    t.b.start = 0xFFFFFFFFu;
    if (t.two && rb != ra) t.b = row_of(m, rb);
    return t;
}

__device__ __forceinline__ uint32_t slot_of(const plane_map &m, const tile &t, uint32_t i, bool &p0)
{
    if (t.two) return slot_in(m, i >= t.b.start ? t.b : t.a, i, p0);
    return slot_in(m, row_of(m, quot(m.n2, i)), i, p0);
}

__global__ void __launch_bounds__(kThreads) split_k(const uint16_t *__restrict__ sym, plane_map m,
                                                     uint16_t *__restrict__ out, unsigned long long *hist0)
{
    __shared__ unsigned h[GLIDE_NSYM];
    for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x) h[t] = 0;
    __syncthreads();
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
            /* plane 0's counts: one shared atomic when the warp's plane 0
             * points share a symbol (the usual case), else one each */
            const unsigned p0m = __ballot_sync(0xFFFFFFFFu, key != 0xFFFFu);
            if (p0m) {
                const unsigned first = (unsigned)__ffs(p0m) - 1, k0 = __shfl_sync(0xFFFFFFFFu, key, first);
                if (__ballot_sync(0xFFFFFFFFu, key == k0) == p0m) {
                    if (lane == first) atomicAdd(&h[k0], (unsigned)__popc(p0m));
                } else if (key != 0xFFFFu) {
                    atomicAdd(&h[key], 1u);
                }
            }
        }
    }
    __syncthreads();
    for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x)
        if (h[t]) atomicAdd(&hist0[t], (unsigned long long)h[t]);
}

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

} /* namespace */

extern "C" cudaError_t gg_planes_split(const uint16_t *d_sym, gg_grid g, uint64_t n0, uint16_t *d_out, gg_state *d_st,
                                       cudaStream_t s)
{
    const plane_map m = map_of(g, n0);
    split_k<<<grid_for(m), kThreads, 0, s>>>(d_sym, m, d_out, reinterpret_cast<unsigned long long *>(d_st->hist_pl[0]));
    return cudaGetLastError();
}

extern "C" cudaError_t gg_planes_merge(const uint16_t *d_in, gg_grid g, uint64_t n0, uint16_t *d_sym, cudaStream_t s)
{
    const plane_map m = map_of(g, n0);
    merge_k<<<grid_for(m), kThreads, 0, s>>>(d_in, m, d_sym);
    return cudaGetLastError();
}
