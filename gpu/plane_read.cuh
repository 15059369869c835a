/* Format 8's kernels (run_stats.cu, runs_encode.cu) read a plane's
 * symbols as the Huffman encoder does: from each plane's own array (the
 * split planes) or in place from the raster order (plane_runs.h), a few
 * consecutive symbols of a plane at a time. A 4096-point segment is then
 * one block of 128 threads, 32 consecutive points each (or, on small
 * chunks, 512 threads of 8), and the block finds where its runs begin and
 * end from its threads' neighbours. */
#ifndef GLIDE_PLANE_READ_CUH
#define GLIDE_PLANE_READ_CUH
#include "format.h"
#include "plane_runs.h"

/* Plane p: n[p] symbols from sym[p]; in place, both planes from the raster
 * order at sym[0] (16-byte aligned, n[0] and n[1] multiples of GG_RUN_SYMS). */
struct plane_src {
    const uint16_t *sym[GLIDE_NPLANES];
    uint64_t n[GLIDE_NPLANES];
    gg_plane_runs runs;
    uint32_t in_place;
};

/* Launches over at most kWidePoints points (both planes) read kWideP
 * points a thread, 512 threads a segment, instead of GG_RUN_SYMS: a 64^3
 * chunk's few segments (a block each, a wave that leaves most SMs idle)
 * are then bound by a block's serial work, which this divides by four. */
constexpr uint64_t kWidePoints = (uint64_t)1 << 19;
constexpr unsigned kWideP = 8;

/* a run-coded segment's threads at P points each */
template <unsigned P> __host__ __device__ constexpr unsigned seg_threads() { return GLIDE_RUN_SEG_SYMS / P; }

/* past a plane's end: no symbol (codes as nothing, ends every run) */
constexpr unsigned kNoSym = 0xFFFFu;

/* symbol h (0..7) of a 16-byte vector of little-endian u16 */
__device__ __forceinline__ unsigned sym_of(const uint4 &v, unsigned h)
{
    const unsigned w = h < 4 ? (h < 2 ? v.x : v.y) : (h < 6 ? v.z : v.w);
    return h & 1u ? w >> 16 : w & 0xFFFFu;
}

/* K symbols of plane p from its r-th (r a multiple of K; K a multiple of
 * 8 that divides GG_RUN_SYMS, so that in place they lie in one run) */
template <unsigned K>
__device__ __forceinline__ void plane_load(const plane_src &m, unsigned p, uint64_t r, unsigned s[K])
{
    static_assert(K % 8 == 0 && GG_RUN_SYMS % K == 0, "whole vectors within one run");
    if (m.in_place) {
        if (r >= m.n[p]) { /* plane counts are whole runs: all K or none */
#pragma unroll
            for (unsigned j = 0; j < K; j++) s[j] = kNoSym;
            return;
        }
        unsigned pick;
        const uint64_t at = gg_run_start(m.runs, p, (uint32_t)(r / GG_RUN_SYMS), pick);
        const unsigned off = (unsigned)(r % GG_RUN_SYMS);
        if (!pick) {
            const uint4 *v = reinterpret_cast<const uint4 *>(m.sym[0] + at + off);
#pragma unroll
            for (unsigned q = 0; q < K / 8; q++) {
                const uint4 u = __ldg(v + q);
#pragma unroll
                for (unsigned h = 0; h < 8; h++) s[8 * q + h] = sym_of(u, h);
            }
        } else { /* every other point of 2K, the even ones (pick 1) or the odd ones (pick 2) */
            const uint4 *v = reinterpret_cast<const uint4 *>(m.sym[0] + at + 2 * off);
            const unsigned odd = pick == 2;
#pragma unroll
            for (unsigned q = 0; q < K / 4; q++) {
                const uint4 u = __ldg(v + q);
#pragma unroll
                for (unsigned h = 0; h < 4; h++) s[4 * q + h] = sym_of(u, 2 * h + odd);
            }
        }
        return;
    }
    const uint16_t *b = m.sym[p] + r;
    const uint64_t n = m.n[p];
    if (r + K <= n && ((uintptr_t)b & 15u) == 0) {
        const uint4 *v = reinterpret_cast<const uint4 *>(b);
#pragma unroll
        for (unsigned q = 0; q < K / 8; q++) {
            const uint4 u = __ldg(v + q);
#pragma unroll
            for (unsigned h = 0; h < 8; h++) s[8 * q + h] = sym_of(u, h);
        }
    } else {
#pragma unroll
        for (unsigned j = 0; j < K; j++) s[j] = r + j < n ? __ldg(b + j) : kNoSym;
    }
}

/* A segment's runs, its points held P a thread (thread t: points Pt ..
 * Pt + P - 1 of the segment, kNoSym past the plane's end) by a block of NT
 * threads: bit j of brk where point j differs from the point before it
 * (the segment's first point always), bit j of end where it differs from
 * the point after it (the segment's last always). Returns the last break
 * before the thread's points (-1 in thread 0, whose first point is one):
 * where the run its first point is in began, unless that point begins
 * one. Every thread of the block calls it, once per kernel. */
template <unsigned NT, unsigned P = GG_RUN_SYMS>
__device__ __forceinline__ int run_marks(const unsigned s[P], unsigned &brk, unsigned &end)
{
    static_assert(P <= 32 && NT % 32 == 0, "a bit a point, whole warps");
    __shared__ uint16_t s_first[NT], s_last[NT];
    __shared__ int s_wmax[NT / 32];
    const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    s_first[tid] = (uint16_t)s[0];
    s_last[tid] = (uint16_t)s[P - 1];
    __syncthreads();
    const unsigned prev = tid ? s_last[tid - 1] : kNoSym, next = tid + 1 < NT ? s_first[tid + 1] : kNoSym;
    int last = -1; /* the thread's last break */
    brk = end = 0;
#pragma unroll
    for (unsigned j = 0; j < P; j++) {
        const unsigned before = j ? s[j - 1] : prev, after = j + 1 < P ? s[j + 1] : next;
        if (s[j] != before) brk |= 1u << j, last = (int)(P * tid + j);
        if (s[j] != after) end |= 1u << j;
    }
    /* the threads before this one: their last break, an exclusive max-scan */
    int v = last;
#pragma unroll
    for (unsigned d = 1; d < 32; d <<= 1) {
        const int u = __shfl_up_sync(0xFFFFFFFFu, v, d);
        if (lane >= d) v = max(v, u);
    }
    if (lane == 31) s_wmax[warp] = v;
    int carry = __shfl_up_sync(0xFFFFFFFFu, v, 1);
    if (lane == 0) carry = -1;
    __syncthreads();
    for (unsigned w = 0; w < warp; w++) carry = max(carry, s_wmax[w]);
    return carry;
}
#endif
