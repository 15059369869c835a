/* Format 5's symbol planes on the device (docs/FORMAT.md §10.6): the
 * symbols in raster order to plane order (plane 0: every coordinate even
 * within its slab; plane 1: the rest) with plane 0's histogram, and back.
 * A point's place in its plane follows from its coordinates, so both are
 * one pass with no scan. Counts fit 32 bits: a chunk holds fewer than 2^30
 * values (4 GiB of float32). */
#include "gg_planes.h"

namespace {

constexpr unsigned kThreads = 256;

struct plane_map {
    uint32_t n1, n2, rows;     /* grid extents of axes 1 and 2, slab rows on axis 0 */
    uint32_t e0, h0, w0;       /* plane 0's extents: ceil(rows / 2), ceil(n1 / 2), ceil(n2 / 2) */
    uint32_t n0;               /* plane 0's points */
};

plane_map map_of(const gg_grid &g, uint64_t n0)
{
    plane_map m;
    m.n1 = (uint32_t)g.n[1];
    m.n2 = (uint32_t)g.n[2];
    m.rows = (uint32_t)g.slab_rows;
    m.e0 = (m.rows + 1) / 2;
    m.h0 = (m.n1 + 1) / 2;
    m.w0 = (m.n2 + 1) / 2;
    m.n0 = (uint32_t)n0;
    return m;
}

/* Work items: a piece of kSpan points of one row (fixed slowest
 * coordinates), so that the coordinates cost one division per item, not per
 * point. Plane 0's points before a row's first point: the even rows of
 * earlier slabs and the earlier even rows of its own slab (each h0 * w0
 * points), then, in an even row, the even columns before it (w0 each); in
 * a row whose coordinates are all even, the even x before a point add
 * (x + 1) / 2. A plane 0 point's rank is that count, a plane 1 point's is
 * i less it. */
constexpr uint32_t kSpan = 1024;

struct row_item {
    uint32_t i0, x0, x1, before; /* first raster index of the row, the item's x range, plane 0 points before the row */
    bool even;                   /* every coordinate but x is even: the row holds plane 0 points */
};

__device__ __forceinline__ row_item item_of(const plane_map &m, uint32_t chunks, uint32_t b)
{
    row_item it;
    const uint32_t row = b / chunks, c = b - row * chunks;
    const uint32_t y = row % m.n1, z = row / m.n1, slab = z / m.rows, zl = z - slab * m.rows;
    it.before = (slab * m.e0 + (zl + 1) / 2) * m.h0 * m.w0;
    if (!(zl & 1u)) it.before += (y + 1) / 2 * m.w0;
    it.even = !((zl | y) & 1u);
    it.i0 = row * m.n2;
    it.x0 = c * kSpan;
    it.x1 = min(m.n2, it.x0 + kSpan);
    return it;
}

/* where point x of the row goes; p0: whether it is in plane 0 */
__device__ __forceinline__ uint32_t plane_index(const plane_map &m, const row_item &it, uint32_t x, bool &p0)
{
    p0 = it.even && !(x & 1u);
    const uint32_t before = it.before + (it.even ? (x + 1) / 2 : 0);
    return p0 ? before : m.n0 + (it.i0 + x - before);
}

__global__ void __launch_bounds__(kThreads) split_k(const uint16_t *__restrict__ sym, uint32_t items, uint32_t chunks,
                                                     plane_map m, uint16_t *__restrict__ out,
                                                     unsigned long long *hist0)
{
    __shared__ unsigned h[GLIDE_NSYM];
    for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x) h[t] = 0;
    __syncthreads();
    for (uint32_t b = blockIdx.x; b < items; b += gridDim.x) {
        const row_item it = item_of(m, chunks, b);
        for (uint32_t x = it.x0 + threadIdx.x; x < it.x1; x += blockDim.x) {
            bool p0;
            const uint32_t k = plane_index(m, it, x, p0);
            const unsigned s = sym[it.i0 + x];
            out[k] = (uint16_t)s;
            /* one shared atomic per distinct symbol of the warp's plane 0 points */
            const unsigned key = p0 && s < GLIDE_NSYM ? s : 0xFFFFu;
            const unsigned peers = __match_any_sync(__activemask(), key);
            if (key != 0xFFFFu && (threadIdx.x & 31) == (unsigned)(__ffs(peers) - 1))
                atomicAdd(&h[key], (unsigned)__popc(peers));
        }
    }
    __syncthreads();
    for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x)
        if (h[t]) atomicAdd(&hist0[t], (unsigned long long)h[t]);
}

/* plane 1's histogram: the chunk's less plane 0's */
__global__ void rest_k(const uint64_t *__restrict__ hist, const uint64_t *__restrict__ hist0, uint64_t *hist1)
{
    for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x) hist1[t] = hist[t] - hist0[t];
}

__global__ void __launch_bounds__(kThreads) merge_k(const uint16_t *__restrict__ in, uint32_t items, uint32_t chunks,
                                                     plane_map m, uint16_t *__restrict__ sym)
{
    for (uint32_t b = blockIdx.x; b < items; b += gridDim.x) {
        const row_item it = item_of(m, chunks, b);
        for (uint32_t x = it.x0 + threadIdx.x; x < it.x1; x += blockDim.x) {
            bool p0;
            sym[it.i0 + x] = in[plane_index(m, it, x, p0)];
        }
    }
}

/* items (row pieces) and their grid: enough blocks to fill the device a
 * few times over, each looping over items */
struct launch {
    uint32_t items, chunks;
    unsigned grid;
};

launch launch_for(const gg_grid &g)
{
    launch l;
    const uint32_t n2 = (uint32_t)g.n[2], rows = (uint32_t)(g.count / g.n[2]);
    l.chunks = (n2 + kSpan - 1) / kSpan;
    l.items = rows * l.chunks;
    l.grid = l.items < 2048 ? (l.items ? l.items : 1) : 2048;
    return l;
}

} /* namespace */

extern "C" cudaError_t gg_planes_split(const uint16_t *d_sym, gg_grid g, uint64_t n0, uint16_t *d_out, gg_state *d_st,
                                       cudaStream_t s)
{
    const launch l = launch_for(g);
    split_k<<<l.grid, kThreads, 0, s>>>(d_sym, l.items, l.chunks, map_of(g, n0), d_out,
                                        reinterpret_cast<unsigned long long *>(d_st->hist_pl[0]));
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    rest_k<<<1, 1024, 0, s>>>(d_st->hist, d_st->hist_pl[0], d_st->hist_pl[1]);
    return cudaGetLastError();
}

extern "C" cudaError_t gg_planes_merge(const uint16_t *d_in, gg_grid g, uint64_t n0, uint16_t *d_sym, cudaStream_t s)
{
    const launch l = launch_for(g);
    merge_k<<<l.grid, kThreads, 0, s>>>(d_in, l.items, l.chunks, map_of(g, n0), d_sym);
    return cudaGetLastError();
}
