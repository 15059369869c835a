/* Dictionary book choice on the device: the same book and bits as
 * cpu/book_select.c's glide_book_select.
 *
 * One block of 1024 threads does everything, because the interface has no
 * scratch for per-book costs and a single block needs no cross-block
 * communication. The work is small: the histogram is first compacted to its
 * nonzero symbols (in increasing symbol order, as the CPU visits them), so a
 * typical chunk scores 96 books over a few dozen symbols.
 *
 * SIZE score: integer sums, exact in any order, so a warp sums books with
 * its lanes striding over the symbols.
 * CE score: the CPU's double sum runs in increasing symbol order with one
 * rounding per multiply and per subtraction; the chain cannot be
 * reassociated, so one thread walks one book, with __dmul_rn/__dsub_rn so
 * that no fma contraction can occur whatever the compile flags. */
#include "gg_huff.h"
#include <math.h>

namespace {

constexpr unsigned kThreads = 1024;
constexpr unsigned kMaxBooks = kThreads; /* CE uses one thread per book */
constexpr unsigned kChunks = (GLIDE_NSYM + 31) / 32;
constexpr unsigned kGroup = 4;          /* SIZE: books summed together by one warp */
constexpr unsigned kTileFloats = 6144;  /* CE: 24 KB tile; >= 2 * kMaxBooks so a tile holds >= 1 symbol */
static_assert(kTileFloats >= 2 * kMaxBooks, "CE tile too small for the largest dictionary");

__global__ void __launch_bounds__(kThreads) k_book_select(const uint64_t *__restrict__ hist,
                                                          const uint8_t *__restrict__ len,
                                                          const float *__restrict__ log2q, unsigned n_books,
                                                          int score, gg_select *__restrict__ out)
{
    __shared__ uint64_t s_h[GLIDE_NSYM];   /* counts of the nonzero symbols, compacted */
    __shared__ uint16_t s_nz[GLIDE_NSYM];  /* their symbol ids, increasing */
    __shared__ unsigned s_base[kChunks + 1];
    __shared__ double s_cost[kMaxBooks];
    __shared__ union {
        uint64_t bits[kMaxBooks];   /* SIZE: each book's exact bits */
        float q[kTileFloats];       /* CE: a tile of log2 q values */
    } s_u;
    __shared__ unsigned s_best;

    const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, n_warps = blockDim.x >> 5;

    /* Compaction: 32-symbol chunks, one ballot each, then a serial prefix
     * over the 33 chunk counts (cheap, and keeps the symbol order). */
    for (unsigned ch = warp; ch < kChunks; ch += n_warps) {
        const unsigned i = ch * 32 + lane;
        const bool nz = i < GLIDE_NSYM && hist[i] != 0;
        const unsigned m = __ballot_sync(0xFFFFFFFFu, nz);
        if (lane == 0) s_base[ch] = __popc(m);
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
    for (unsigned ch = warp; ch < kChunks; ch += n_warps) {
        const unsigned i = ch * 32 + lane;
        const uint64_t h = i < GLIDE_NSYM ? hist[i] : 0;
        const unsigned m = __ballot_sync(0xFFFFFFFFu, h != 0);
        if (h) {
            const unsigned k = s_base[ch] + __popc(m & ((1u << lane) - 1u));
            s_h[k] = h;
            s_nz[k] = (uint16_t)i;
        }
    }
    __syncthreads();
    const unsigned m = s_base[kChunks];

    if (score == 0) {
        /* a warp sums kGroup books at once, so that many independent loads
         * of the (L2-resident) length table are in flight per lane */
        for (unsigned b0 = warp; b0 < n_books; b0 += n_warps * kGroup) {
            const uint8_t *bl[kGroup];
            uint64_t c[kGroup];
#pragma unroll
            for (unsigned j = 0; j < kGroup; j++) {
                const unsigned b = b0 + j * n_warps;
                bl[j] = len + (size_t)(b < n_books ? b : b0) * GLIDE_NSYM;
                c[j] = 0;
            }
#pragma unroll 4
            for (unsigned k = lane; k < m; k += 32) {
                const uint64_t h = s_h[k];
                const unsigned sy = s_nz[k];
#pragma unroll
                for (unsigned j = 0; j < kGroup; j++) c[j] += h * (uint64_t)__ldg(bl[j] + sy);
            }
#pragma unroll
            for (unsigned j = 0; j < kGroup; j++) {
                for (int o = 16; o > 0; o >>= 1) c[j] += __shfl_xor_sync(0xFFFFFFFFu, c[j], o);
                const unsigned b = b0 + j * n_warps;
                if (lane == 0 && b < n_books) {
                    s_u.bits[b] = c[j];
                    s_cost[b] = (double)c[j]; /* the CPU compares the converted double */
                }
            }
        }
    } else {
        /* The products can be formed in any order, the sum not: one thread
         * walks one book's sum in symbol order. Its log2 q values come
         * through a shared tile that the whole block fills with coalesced
         * loads, tk symbols x n_books at a time (one book's run of tk is
         * padded to tk + 1 floats so that the walkers' reads spread over
         * the banks). */
        const unsigned tk = kTileFloats / n_books - 1, stride = tk + 1;
        double cost = 0;
        for (unsigned k0 = 0; k0 < m; k0 += tk) {
            const unsigned kn = m - k0 < tk ? m - k0 : tk;
            for (unsigned i = tid; i < kn * n_books; i += blockDim.x) {
                const unsigned b = i / kn, k = i - b * kn;
                s_u.q[b * stride + k] = __ldg(log2q + (size_t)b * GLIDE_NSYM + s_nz[k0 + k]);
            }
            __syncthreads();
            if (tid < n_books)
                for (unsigned k = 0; k < kn; k++)
                    cost = __dsub_rn(cost, __dmul_rn((double)s_h[k0 + k], (double)s_u.q[tid * stride + k]));
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
        uint64_t bits;
        if (score == 0) {
            bits = s_u.bits[best];
        } else {
            const uint8_t *bl = len + (size_t)best * GLIDE_NSYM;
            uint64_t c = 0;
            for (unsigned k = lane; k < m; k += 32) c += s_h[k] * (uint64_t)__ldg(bl + s_nz[k]);
            for (int o = 16; o > 0; o >>= 1) c += __shfl_xor_sync(0xFFFFFFFFu, c, o);
            bits = c;
        }
        if (lane == 0) {
            out->book = best;
            out->pad = 0;
            out->bits = bits;
        }
    }
}

} /* namespace */

extern "C" cudaError_t gg_book_select(const uint64_t *d_hist, gg_dict dict, int score, gg_select *d_out,
                                      cudaStream_t s)
{
    if (!d_hist || !d_out || !dict.len || dict.n_books == 0 || dict.n_books > kMaxBooks) return cudaErrorInvalidValue;
    if (score != 0 && !dict.log2q) return cudaErrorInvalidValue;
    k_book_select<<<1, kThreads, 0, s>>>(d_hist, dict.len, dict.log2q, dict.n_books, score, d_out);
    return cudaGetLastError();
}
