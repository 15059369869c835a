/* Format 8's run statistics on the device: for each plane, what
 * cpu/huff_runs.c glide_run_stats_count gives (per kind, ZERO and FILL,
 * the maximal runs within segments of GLIDE_RUN_SEG_SYMS points, their
 * classes and extra bits), which the host's plan (gpu_plan.c) hands to the
 * CPU codec's own decision. Integer counts: any order of summation gives
 * the CPU's. One block a segment, 32 points a thread (8 on small chunks:
 * plane_read.cuh's kWideP); each run is counted by the thread holding its
 * last point. */
#include "gg_huff.h"
#include "plane_read.cuh"

namespace {

constexpr unsigned kCounters = GLIDE_RUN_KINDS * GLIDE_RUN_CLASSES;
constexpr unsigned kNoKey = 0xFFu;
static_assert(seg_threads<GG_RUN_SYMS>() % 32 == 0 && kCounters + GLIDE_RUN_KINDS <= seg_threads<GG_RUN_SYMS>(),
              "whole warps, a counter a thread");

/* At 32 points a thread, six blocks an SM (80 registers, as before the
 * 8-point instance): left to itself the compiler took 96, and large
 * chunks' thousands of segments then ran in more waves. */
template <unsigned P>
__global__ void __launch_bounds__(seg_threads<P>(), P == GG_RUN_SYMS ? 6 : 1)
    run_stats_k(plane_src m, uint64_t seg0, glide_run_stats *out, gg_pick_gate gate, uint32_t *opened)
{
    if (!gg_gate_open(gate)) return;
    if (opened && blockIdx.x == 0 && threadIdx.x == 0) *opened = 1;
    __shared__ unsigned s_cls[kCounters];
    const unsigned tid = threadIdx.x, lane = tid & 31;
    const uint64_t seg = blockIdx.x;
    const unsigned p = seg >= seg0;
    const uint64_t first = (seg - (p ? seg0 : 0)) * GLIDE_RUN_SEG_SYMS;
    unsigned s[P];
    plane_load<P>(m, p, first + (uint64_t)tid * P, s);
    if (tid < kCounters) s_cls[tid] = 0;
    unsigned brk, end;
    int start = run_marks<seg_threads<P>(), P>(s, brk, end); /* also orders the counters' zeroing before the adds */
#pragma unroll
    for (unsigned j = 0; j < P; j++) {
        if (brk >> j & 1u) start = (int)(P * tid + j);
        unsigned key = kNoKey;
        if ((s[j] == GLIDE_SYM_ZERO || s[j] == GLIDE_SYM_FILL) && (end >> j & 1u)) {
            const unsigned L = P * tid + j - (unsigned)start + 1, c = 31 - __clz(L);
            key = (s[j] == GLIDE_SYM_FILL) * GLIDE_RUN_CLASSES + c;
        }
        /* one shared add per distinct key of the warp: lone zeros of a noisy
         * plane all fall on one counter */
        if (!__any_sync(0xFFFFFFFFu, key != kNoKey)) continue; /* most points end no run */
        const unsigned peers = __match_any_sync(0xFFFFFFFFu, key);
        if (key != kNoKey && lane == (unsigned)__ffs(peers) - 1) atomicAdd(&s_cls[key], (unsigned)__popc(peers));
    }
    __syncthreads();
    glide_run_stats *o = out + p;
    if (tid < kCounters) {
        const unsigned v = s_cls[tid];
        if (v) atomicAdd(reinterpret_cast<unsigned long long *>(&o->cls[tid / GLIDE_RUN_CLASSES][tid % GLIDE_RUN_CLASSES]),
                         (unsigned long long)v);
    } else if (tid < kCounters + GLIDE_RUN_KINDS) { /* a kind's runs and extra bits, from its classes */
        const unsigned k = tid - kCounters;
        unsigned long long runs = 0, extra = 0;
        for (unsigned c = 0; c < GLIDE_RUN_CLASSES; c++) {
            runs += s_cls[k * GLIDE_RUN_CLASSES + c];
            extra += (unsigned long long)c * s_cls[k * GLIDE_RUN_CLASSES + c];
        }
        if (runs) atomicAdd(reinterpret_cast<unsigned long long *>(&o->runs[k]), runs);
        if (extra) atomicAdd(reinterpret_cast<unsigned long long *>(&o->extra_bits[k]), extra);
    }
}

uint64_t run_segs(uint64_t n) { return (n + GLIDE_RUN_SEG_SYMS - 1) / GLIDE_RUN_SEG_SYMS; }

} /* namespace */

extern "C" cudaError_t gg_run_stats(const uint16_t *d_sym0, uint64_t n0, const uint16_t *d_sym1, uint64_t n1,
                                    const gg_plane_runs *runs, glide_run_stats *d_out, gg_pick_gate gate,
                                    uint32_t *d_opened, cudaStream_t s)
{
    plane_src m = {{d_sym0, d_sym1}, {n0, n1}, {}, 0};
    if (runs) { /* both planes from the raster order at d_sym0 */
        if (n0 % GG_RUN_SYMS || n1 % GG_RUN_SYMS || ((uintptr_t)d_sym0 & 15u)) return cudaErrorInvalidValue;
        m.sym[1] = d_sym0, m.runs = *runs, m.in_place = 1;
    }
    if (!d_out || (n0 && !m.sym[0]) || (n1 && !m.sym[1])) return cudaErrorInvalidValue;
    const uint64_t seg0 = run_segs(n0), n_seg = seg0 + run_segs(n1);
    if (!n_seg) return cudaSuccess;
    if (n_seg > 0x7FFFFFFFu) return cudaErrorInvalidValue;
    if (n0 + n1 <= kWidePoints)
        run_stats_k<kWideP><<<(unsigned)n_seg, seg_threads<kWideP>(), 0, s>>>(m, seg0, d_out, gate, d_opened);
    else
        run_stats_k<GG_RUN_SYMS><<<(unsigned)n_seg, seg_threads<GG_RUN_SYMS>(), 0, s>>>(m, seg0, d_out, gate, d_opened);
    return cudaGetLastError();
}
