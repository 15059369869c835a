/* Dictionary book choice on the device: the same book and bits as
 * cpu/book_select.c's glide_book_select.
 *
 * SIZE score (the default): integer sums, exact in any order. One warp per
 * book over the whole histogram (a zero count adds nothing), lanes on
 * consecutive 4-symbol groups so that the length bytes come in coalesced
 * 32-bit words (gathered byte loads cost about five times as much per
 * instruction); the books are spread over a dozen blocks, and the last block
 * to finish (a ticket in the caller's work area) picks the winner. One block
 * doing every book was issue-bound on its one SM: 9-14 us where this takes
 * a few.
 *
 * Format 5's two planes are scored in the same launch (blockIdx.y, or
 * one CE block each): plane 0's histogram as counted, plane 1's as the
 * chunk's less plane 0's, which one warp also stores for the later steps.
 * Two unrelated histograms (the block trial's slice orders) go the same
 * way, the second one stride counts after the first.
 *
 * CE score: one block of 1024 threads. The histogram is first compacted to
 * its nonzero symbols (in increasing symbol order, as the CPU visits them).
 * The CPU's double sum runs in increasing symbol order with one
 * rounding per multiply and per subtraction; the chain cannot be
 * reassociated, so one thread walks one book, with __dmul_rn/__dsub_rn so
 * that no fma contraction can occur whatever the compile flags. */
#include "gg_huff.h"
#include "last_block.cuh"
#include "pdl.cuh"
#include <math.h>

namespace {

constexpr unsigned kThreads = 1024;
constexpr unsigned kMaxBooks = kThreads; /* CE uses one thread per book */
static_assert(kMaxBooks == GG_MAX_BOOKS, "gg_select_work holds every book");
constexpr unsigned kChunks = (GLIDE_NSYM + 31) / 32;
constexpr unsigned kSizeWarps = 8;     /* SIZE: books (warps) per block */
constexpr unsigned kTileFloats = 6144;  /* CE: 24 KB tile of log2 q values */
constexpr unsigned kGroups4 = (GLIDE_NSYM + 3) / 4; /* SIZE dense path: 4-symbol groups */
constexpr unsigned kPerThread = kTileFloats / kThreads;
static_assert(kTileFloats >= 3 * kMaxBooks && kTileFloats % kThreads == 0, "CE tile: >= 1 symbol, even share");

/* The length bytes of group g (4 symbols) of the book whose lengths start
 * at row come as one funnel-shifted pair of aligned words, unless that pair
 * would reach outside [tab, tab_end) or past the row's last symbol: then
 * bytes, one by one (word_pair says which). The pair is loaded from a safe
 * address either way, so that a warp's loads for all its groups can be in
 * flight together: issued group by group behind the branch, each waited
 * for its own L2 round trip. */
__device__ __forceinline__ bool word_pair(const uint8_t *row, unsigned g, const uint8_t *tab, const uint8_t *tab_end,
                                          const uint32_t *&base, unsigned &sh)
{
    const uint8_t *p = row + 4 * g;
    base = (const uint32_t *)((uintptr_t)p & ~(uintptr_t)3);
    sh = (unsigned)((uintptr_t)p & 3);
    return 4 * g + 4 <= GLIDE_NSYM && (const uint8_t *)base >= tab && (const uint8_t *)(base + 2) <= tab_end;
}

__device__ __forceinline__ uint32_t group_bytes(const uint8_t *row, unsigned g)
{
    const uint8_t *p = row + 4 * g;
    uint32_t w = 0;
    for (unsigned j = 0; j < 4; j++)
        if (4 * g + j < GLIDE_NSYM) w |= (uint32_t)p[j] << (8 * j);
    return w;
}

/* Count of symbol i in the histogram of this launch's plane (blockIdx.y
 * for SIZE, blockIdx.x for CE): without hist0, plane p's histogram at
 * hist + p * stride (two unrelated ones, or one); with it, hist0 for
 * plane 0 and hist less hist0 for plane 1. */
__device__ __forceinline__ uint64_t count_of(const uint64_t *__restrict__ hist, const uint64_t *__restrict__ hist0,
                                             size_t stride, unsigned plane, unsigned i)
{
    if (!hist0) return __ldg(hist + plane * stride + i);
    return plane ? __ldg(hist + i) - __ldg(hist0 + i) : __ldg(hist0 + i);
}

/* SIZE: warp w of block b sums book b * kSizeWarps + w; the last block of
 * the plane picks. work->bits[plane] must hold n_books values;
 * work->ticket[plane] is zero before and after. */
__global__ void __launch_bounds__(kSizeWarps * 32) k_book_size(const uint64_t *__restrict__ hist,
                                                                const uint64_t *__restrict__ hist0,
                                                                uint64_t *__restrict__ hist1, size_t stride,
                                                                const uint8_t *__restrict__ len, unsigned n_books,
                                                                gg_select_work *__restrict__ work,
                                                                gg_select *__restrict__ out, gg_pick_gate gate)
{
    pdl_wait(); /* the planes' books: after plane 0's histogram (GG_PDL_TAIL) */
    if (!gg_gate_open(gate)) return;
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned b = blockIdx.x * kSizeWarps + warp, plane = blockIdx.y;
    out += plane;
    uint64_t *const bits = work->bits[plane];
    /* the plane's counts, loaded once per block (every warp reads them all) */
    __shared__ __align__(16) uint64_t s_h[kGroups4 * 4];
    constexpr unsigned kT = kSizeWarps * 32, kHPer = (kGroups4 * 4 + kT - 1) / kT, kIt = (kGroups4 + 31) / 32;
    uint64_t hv[kHPer];
#pragma unroll
    for (unsigned u = 0; u < kHPer; u++) { /* all loads first */
        const unsigned i = threadIdx.x + u * kT;
        hv[u] = i < GLIDE_NSYM ? count_of(hist, hist0, stride, plane, i) : 0;
    }
    /* and this warp's length words before the barrier */
    const uint8_t *row = len + (size_t)(b < n_books ? b : 0) * GLIDE_NSYM, *tab_end = len + (size_t)n_books * GLIDE_NSYM;
    const uint32_t *safe = (const uint32_t *)(((uintptr_t)len + 3) & ~(uintptr_t)3); /* tables hold >= 1025 bytes */
    uint32_t w0[kIt], w1[kIt];
#pragma unroll
    for (unsigned i = 0; i < kIt; i++) {
        const uint32_t *base;
        unsigned sh;
        const bool ok = word_pair(row, lane + 32 * i, len, tab_end, base, sh);
        w0[i] = __ldg(ok ? base : safe);
        w1[i] = __ldg(ok && sh ? base + 1 : safe);
    }
#pragma unroll
    for (unsigned u = 0; u < kHPer; u++) {
        const unsigned i = threadIdx.x + u * kT;
        if (i < kGroups4 * 4) s_h[i] = hv[u];
        if (hist1 && plane == 1 && blockIdx.x == 0 && i < GLIDE_NSYM) hist1[i] = hv[u]; /* kept for the later steps */
    }
    __syncthreads();
    if (b < n_books) {
        uint64_t c = 0;
#pragma unroll
        for (unsigned i = 0; i < kIt; i++) {
            const unsigned g = lane + 32 * i;
            if (g < kGroups4) {
                const ulonglong2 lo = reinterpret_cast<const ulonglong2 *>(s_h)[2 * g],
                                 hi = reinterpret_cast<const ulonglong2 *>(s_h)[2 * g + 1]; /* 16-byte loads: no bank conflicts */
                const uint32_t *base;
                unsigned sh;
                const uint32_t w = word_pair(row, g, len, tab_end, base, sh) ? __funnelshift_r(w0[i], w1[i], 8 * sh)
                                                                              : group_bytes(row, g);
                c += lo.x * (w & 0xFFu) + lo.y * ((w >> 8) & 0xFFu) + hi.x * ((w >> 16) & 0xFFu) + hi.y * (w >> 24);
            }
        }
        for (int o = 16; o > 0; o >>= 1) c += __shfl_xor_sync(0xFFFFFFFFu, c, o);
        if (lane == 0) bits[b] = c;
    }
    if (!last_block_of(&work->ticket[plane], gridDim.x)) return;
    /* The first minimum of the u64 sizes, as cpu/book_select.c: equal sizes
     * keep the lower id. The whole block reads the sizes (one load per
     * thread for 432 books, where one warp took 14 rounds of L2 latency),
     * then each warp reduces, then warp 0. */
    __shared__ unsigned long long s_c[kSizeWarps];
    __shared__ unsigned s_i[kSizeWarps];
    unsigned long long bc = ~0ull;
    unsigned bi = 0xFFFFFFFFu;
    for (unsigned k = threadIdx.x; k < n_books; k += blockDim.x) {
        const unsigned long long c = __ldcg(bits + k);
        if (c < bc) { bc = c; bi = k; }
    }
    for (int o = 16; o > 0; o >>= 1) {
        const unsigned long long oc = __shfl_xor_sync(0xFFFFFFFFu, bc, o);
        const unsigned oi = __shfl_xor_sync(0xFFFFFFFFu, bi, o);
        if (oc < bc || (oc == bc && oi < bi)) { bc = oc; bi = oi; }
    }
    if (lane == 0) { s_c[warp] = bc; s_i[warp] = bi; }
    __syncthreads();
    if (warp != 0) return;
    bc = lane < kSizeWarps ? s_c[lane] : ~0ull;
    bi = lane < kSizeWarps ? s_i[lane] : 0xFFFFFFFFu;
    for (int o = 16; o > 0; o >>= 1) {
        const unsigned long long oc = __shfl_xor_sync(0xFFFFFFFFu, bc, o);
        const unsigned oi = __shfl_xor_sync(0xFFFFFFFFu, bi, o);
        if (oc < bc || (oc == bc && oi < bi)) { bc = oc; bi = oi; }
    }
    if (lane == 0) {
        const unsigned best = bi == 0xFFFFFFFFu ? 0 : bi;
        out->book = best;
        out->pad = 0;
        out->bits = __ldcg(bits + best);
        work->ticket[plane] = 0;
    }
}

__global__ void __launch_bounds__(kThreads) k_book_ce(const uint64_t *__restrict__ hist,
                                                          const uint64_t *__restrict__ hist0,
                                                          uint64_t *__restrict__ hist1, size_t stride,
                                                          const uint8_t *__restrict__ len,
                                                          const float *__restrict__ log2q, unsigned n_books,
                                                          gg_select *__restrict__ out, gg_pick_gate gate)
{
    pdl_wait(); /* the planes' books: after plane 0's histogram (GG_PDL_TAIL) */
    if (!gg_gate_open(gate)) return;
    __shared__ union {
        uint64_t h[GLIDE_NSYM];  /* counts of the nonzero symbols, compacted */
        double d[GLIDE_NSYM];    /* CE: the same counts as doubles, converted once */
    } s_hh;
    uint64_t *const s_h = s_hh.h;
    __shared__ uint16_t s_nz[GLIDE_NSYM];  /* their symbol ids, increasing */
    __shared__ unsigned s_base[kChunks + 1];
    __shared__ double s_cost[kMaxBooks];
    __shared__ __align__(16) float s_q[kTileFloats]; /* a tile of log2 q values */
    __shared__ unsigned s_best;

    const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, plane = blockIdx.x;
    constexpr unsigned n_warps = kThreads / 32;
    out += plane;

    /* Compaction: 32-symbol chunks (warp w has chunks w and w + 32), one
     * ballot each, then a serial prefix over the 33 chunk counts (cheap,
     * and keeps the symbol order). The counts stay in registers between
     * the two passes. */
    uint64_t hv[2];
#pragma unroll
    for (unsigned r = 0; r < 2; r++) {
        const unsigned ch = warp + r * n_warps, i = ch * 32 + lane;
        hv[r] = ch < kChunks && i < GLIDE_NSYM ? count_of(hist, hist0, stride, plane, i) : 0;
        if (hist1 && plane == 1 && ch < kChunks && i < GLIDE_NSYM) hist1[i] = hv[r];
    }
#pragma unroll
    for (unsigned r = 0; r < 2; r++) {
        const unsigned ch = warp + r * n_warps;
        const unsigned bm = __ballot_sync(0xFFFFFFFFu, hv[r] != 0);
        if (ch < kChunks && lane == 0) s_base[ch] = __popc(bm);
    }
    __syncthreads();
    if (tid == 0) {
        unsigned acc = 0;
        for (unsigned ch = 0; ch < kChunks; ch++) {
            const unsigned c = s_base[ch];
            s_base[ch] = acc;
            acc += c;
        }
        s_base[kChunks] = acc;
    }
    __syncthreads();
#pragma unroll
    for (unsigned r = 0; r < 2; r++) {
        const unsigned ch = warp + r * n_warps;
        const unsigned bm = __ballot_sync(0xFFFFFFFFu, hv[r] != 0);
        if (hv[r]) {
            const unsigned k = s_base[ch] + __popc(bm & ((1u << lane) - 1u));
            s_h[k] = hv[r];
            s_nz[k] = (uint16_t)(ch * 32 + lane);
        }
    }
    __syncthreads();
    const unsigned m = s_base[kChunks];

    {
        /* The products can be formed in any order, the sum not: one thread
         * walks one book's sum in symbol order. Its log2 q values come
         * through a shared tile of tk symbols x n_books that the whole block
         * fills; each thread loads its share of the next tile into registers
         * before the walkers start on the current one, so the loads' latency
         * hides behind the walk. A book's run of tk floats is padded to an
         * odd stride so that the walkers' reads fall in different banks. */
        /* the u64 -> double conversion is slow on some GPUs: once per symbol
         * here rather than once per symbol and book in the walks */
        for (unsigned k = tid; k < m; k += kThreads) s_hh.d[k] = (double)s_hh.h[k];
        __syncthreads();
        unsigned tk = kTileFloats / n_books - 1;
        if (tk & 1) tk--; /* stride tk + 1 odd; tk >= 2 as n_books <= kTileFloats / 3 */
        const unsigned stride = tk + 1;
        float nv[kPerThread];
        unsigned ni[kPerThread];
        auto fetch = [&](unsigned k0) {
            const unsigned kn = m - k0 < tk ? m - k0 : tk, total = kn * n_books;
#pragma unroll
            for (unsigned u = 0; u < kPerThread; u++) {
                const unsigned i = tid + u * kThreads;
                ni[u] = 0xFFFFFFFFu;
                if (k0 < m && i < total) {
                    const unsigned b = i / kn, k = i - b * kn;
                    ni[u] = b * stride + k;
                    nv[u] = __ldg(log2q + (size_t)b * GLIDE_NSYM + s_nz[k0 + k]);
                }
            }
        };
        double cost = 0;
        fetch(0);
        for (unsigned k0 = 0; k0 < m; k0 += tk) {
            const unsigned kn = m - k0 < tk ? m - k0 : tk;
#pragma unroll
            for (unsigned u = 0; u < kPerThread; u++)
                if (ni[u] != 0xFFFFFFFFu) s_q[ni[u]] = nv[u];
            __syncthreads();
            fetch(k0 + tk);
            if (tid < n_books) {
                const float *row = &s_q[tid * stride];
                unsigned k = 0;
                for (; k + 8 <= kn; k += 8) {
                    double pr[8];
#pragma unroll
                    for (unsigned u = 0; u < 8; u++) pr[u] = __dmul_rn(s_hh.d[k0 + k + u], (double)row[k + u]);
#pragma unroll
                    for (unsigned u = 0; u < 8; u++) cost = __dsub_rn(cost, pr[u]);
                }
                for (; k < kn; k++) cost = __dsub_rn(cost, __dmul_rn(s_hh.d[k0 + k], (double)row[k]));
            }
            __syncthreads();
        }
        if (tid < n_books) s_cost[tid] = cost;
    }
    __syncthreads();

    /* First minimum under the CPU's `cost < best_cost` starting from +inf:
     * NaN and +inf never win, equal costs keep the lower id, and if nothing
     * wins the book is 0. Each lane scans its books in increasing order,
     * then lanes merge by (cost, id). */
    if (warp == 0) {
        double bc = INFINITY;
        unsigned bi = 0xFFFFFFFFu;
        for (unsigned b = lane; b < n_books; b += 32) {
            const double c = s_cost[b];
            if (c < bc) { bc = c; bi = b; }
        }
        for (int o = 16; o > 0; o >>= 1) {
            const double oc = __shfl_xor_sync(0xFFFFFFFFu, bc, o);
            const unsigned oi = __shfl_xor_sync(0xFFFFFFFFu, bi, o);
            if (oc < bc || (oc == bc && oi < bi)) { bc = oc; bi = oi; }
        }
        if (lane == 0) s_best = bi == 0xFFFFFFFFu ? 0 : bi;
    }
    __syncthreads();
    const unsigned best = s_best;

    if (warp == 0) {
        const uint8_t *bl = len + (size_t)best * GLIDE_NSYM;
        uint64_t bits = 0;
        for (unsigned k = lane; k < m; k += 32) /* s_h holds doubles now */
            bits += count_of(hist, hist0, stride, plane, s_nz[k]) * (uint64_t)__ldg(bl + s_nz[k]);
        for (int o = 16; o > 0; o >>= 1) bits += __shfl_xor_sync(0xFFFFFFFFu, bits, o);
        if (lane == 0) {
            out->book = best;
            out->pad = 0;
            out->bits = bits;
        }
    }
}

} /* namespace */

static cudaError_t book_select(const uint64_t *d_hist, const uint64_t *d_hist0, uint64_t *d_hist1, size_t stride,
                               gg_dict dict, int score, gg_select *d_out, gg_select_work *d_work, cudaStream_t s,
                               bool pdl = false, gg_pick_gate gate = gg_pick_gate{})
{
    if (!d_hist || !d_out || !dict.len || dict.n_books == 0 || dict.n_books > kMaxBooks) return cudaErrorInvalidValue;
    const unsigned planes = d_hist0 || stride ? 2u : 1u;
    if (score == 0) {
        if (!d_work) return cudaErrorInvalidValue;
        const dim3 grid((dict.n_books + kSizeWarps - 1) / kSizeWarps, planes);
        return pdl_launch(k_book_size, grid, dim3(kSizeWarps * 32), 0, s, pdl, d_hist, d_hist0, d_hist1, stride,
                         dict.len, dict.n_books, d_work, d_out, gate);
    }
    if (!dict.log2q) return cudaErrorInvalidValue;
    return pdl_launch(k_book_ce, dim3(planes), dim3(kThreads), 0, s, pdl, d_hist, d_hist0, d_hist1, stride, dict.len,
                     dict.log2q, dict.n_books, d_out, gate);
}

extern "C" cudaError_t gg_book_select(const uint64_t *d_hist, gg_dict dict, int score, gg_select *d_out,
                                      gg_select_work *d_work, cudaStream_t s)
{
    return book_select(d_hist, nullptr, nullptr, 0, dict, score, d_out, d_work, s);
}

extern "C" cudaError_t gg_book_select_planes(const uint64_t *d_hist, const uint64_t *d_hist0, uint64_t *d_hist1,
                                             gg_dict dict, int score, gg_select *d_out, gg_select_work *d_work,
                                             int pdl, cudaStream_t s)
{
    if (!d_hist0) return cudaErrorInvalidValue;
    return book_select(d_hist, d_hist0, d_hist1, 0, dict, score, d_out, d_work, s,
                       pdl != 0);
}

extern "C" cudaError_t gg_book_select_planes_gated(const uint64_t *d_hist, const uint64_t *d_hist0,
                                                   uint64_t *d_hist1, gg_dict dict, int score, gg_select *d_out,
                                                   gg_select_work *d_work, gg_pick_gate gate, int pdl,
                                                   cudaStream_t s)
{
    if (!d_hist0 || (gate.lorenzo && !gate.slice)) return cudaErrorInvalidValue;
    return book_select(d_hist, d_hist0, d_hist1, 0, dict, score, d_out, d_work, s,
                       pdl != 0, gate);
}

extern "C" cudaError_t gg_book_select_two(const uint64_t *d_hist, size_t stride, gg_dict dict, int score,
                                          gg_select *d_out, gg_select_work *d_work, cudaStream_t s)
{
    if (!stride) return cudaErrorInvalidValue;
    return book_select(d_hist, nullptr, nullptr, stride, dict, score, d_out, d_work, s);
}
