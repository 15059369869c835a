/* The device pieces both segment decoders share (huff_decode.cu: a plain
 * plane's 1024-symbol segments; runs_decode.cu: a run-coded plane's 4096):
 * the segment table as an iterator for the offsets' scan, a segment's
 * bytes read MSB-first with zeros past its end (what the CPU's reader sees
 * there), one codeword looked up in a glide_huff_dec held in shared
 * memory, exactly as glide_huff_decode walks its tables, and the host's
 * side of the segments' offsets (their scan into the scratch). */
#ifndef GLIDE_HUFF_DEC_CUH
#define GLIDE_HUFF_DEC_CUH
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_scan.cuh>
#include <limits.h>
#include <stdint.h>
#include "format.h"
#include "gg_huff.h"
#include "huff_codec.h"

namespace {

static_assert(sizeof(glide_huff_dec) % 4 == 0, "the table copy moves 32-bit words");
static_assert(GLIDE_HUFF_MAX_LEN == 16 && GLIDE_HUFF_LUT_BITS == 11, "the bit window below assumes these");

/* Entry k of the segment table: u16 little-endian, at any alignment. */
struct seg_entry {
    const uint8_t *tab;
    __host__ __device__ uint64_t operator()(uint32_t k) const
    {
        return (uint64_t)tab[2 * (size_t)k] | (uint64_t)tab[2 * (size_t)k + 1] << 8;
    }
};
typedef thrust::transform_iterator<seg_entry, thrust::counting_iterator<uint32_t>, uint64_t> seg_iter;

/* Loads through the shared window by a 32-bit address: with a generic
 * pointer the compiler re-derived the window base (S2R, LEA) on every
 * iteration of the decode loops, on the critical path of each symbol. */
__device__ __forceinline__ unsigned lds_u16(uint32_t addr)
{
    unsigned short v;
    asm volatile("ld.shared.u16 %0, [%1];" : "=h"(v) : "r"(addr));
    return v;
}
__device__ __forceinline__ uint32_t lds_u32(uint32_t addr)
{
    uint32_t v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(addr));
    return v;
}

/* A glide_huff_dec copied into shared memory by the NT threads of a block,
 * every load issued before the first store: copied word by word, each load
 * waited for the store before it (a round trip to L2 each, 13 a thread),
 * which took about a tenth of a 64^3 chunk's decoding (ncu stall samples,
 * H200). The caller synchronises before use. */
template <unsigned NT> __device__ __forceinline__ void dec_table_load(glide_huff_dec *s_dec, const glide_huff_dec *g_dec)
{
    constexpr unsigned kWords = sizeof(glide_huff_dec) / 4, kPer = (kWords + NT - 1) / NT;
    const uint32_t *src = reinterpret_cast<const uint32_t *>(g_dec);
    uint32_t *dst = reinterpret_cast<uint32_t *>(s_dec);
    uint32_t v[kPer];
#pragma unroll
    for (unsigned u = 0; u < kPer; u++)
        if (threadIdx.x + u * NT < kWords) v[u] = __ldg(src + threadIdx.x + u * NT);
#pragma unroll
    for (unsigned u = 0; u < kPer; u++)
        if (threadIdx.x + u * NT < kWords) dst[threadIdx.x + u * NT] = v[u];
}

/* A segment's bytes read from global memory: bytes at or past its end read
 * as zero, so no load leaves the segment whatever the bit position. */
struct seg_global {
    const uint8_t *p;
    uint32_t nbytes;
};
__device__ __forceinline__ uint32_t be32(const seg_global &sg, uint32_t pos)
{
    const uint8_t *__restrict__ p = sg.p;
    if (pos + 4 <= sg.nbytes)
        return (uint32_t)__ldg(p + pos) << 24 | (uint32_t)__ldg(p + pos + 1) << 16 | (uint32_t)__ldg(p + pos + 2) << 8 |
               (uint32_t)__ldg(p + pos + 3);
    uint32_t w = 0;
    for (uint32_t j = 0; j < 4; j++) w = w << 8 | (pos + j < sg.nbytes ? (uint32_t)__ldg(p + pos + j) : 0u);
    return w;
}

/* MSB-first bit reader from any bit position: acc holds nb >= 16 unread
 * bits at its top (zeros below), enough for any codeword; nxt is the next
 * 4 bytes, read one refill ahead. Src is any type with a be32(src, pos). */
template <class Src> struct bit_reader {
    Src sg;
    uint32_t pos, nxt;
    uint64_t acc;
    int nb;
    __device__ __forceinline__ void init(const Src &seg, uint32_t bit)
    {
        sg = seg;
        const uint32_t b = bit >> 3;
        acc = ((uint64_t)be32(sg, b) << 32 | be32(sg, b + 4)) << (bit & 7);
        nb = 64 - (int)(bit & 7);
        pos = b + 8;
        nxt = be32(sg, pos);
    }
    __device__ __forceinline__ void refill()
    {
        if (nb < 16) {
            acc |= (uint64_t)nxt << (32 - nb);
            nb += 32;
            pos += 4;
            nxt = be32(sg, pos);
        }
    }
    __device__ __forceinline__ void consume(unsigned l)
    {
        acc <<= l;
        nb -= (int)l;
    }
};

/* The decoding tables, in shared memory, as separate arrays so that the
 * hot loop indexes them directly. */
struct dec_tabs {
    uint32_t lut; /* shared-window address of lut[0] */
    const uint16_t *sorted;
    const uint32_t *first, *count, *offset;
};

__device__ __forceinline__ dec_tabs dec_tabs_of(const glide_huff_dec &s_dec)
{
    return dec_tabs{(uint32_t)__cvta_generic_to_shared(s_dec.lut), s_dec.sorted, s_dec.first, s_dec.count,
                    s_dec.offset};
}

/* Length of the codeword at the top of acc (0: no codeword starts with
 * these bits), and its symbol: glide_huff_decode's table walk. */
__device__ __forceinline__ unsigned decode_one(const dec_tabs &d, uint64_t acc, unsigned *sym)
{
    const unsigned ent = lds_u16(d.lut + 2 * (uint32_t)(acc >> (64 - GLIDE_HUFF_LUT_BITS)));
    unsigned l = ent >> 11;
    *sym = ent & 0x7FFu;
    if (__builtin_expect(l != 0, 1)) return l;
    const uint32_t peek = (uint32_t)(acc >> 48);
    for (l = GLIDE_HUFF_LUT_BITS + 1; l <= GLIDE_HUFF_MAX_LEN; l++) {
        const uint32_t idx = (peek >> (16 - l)) - d.first[l];
        if (idx < d.count[l]) {
            const uint32_t k = d.offset[l] + idx;
            if (k >= GLIDE_NSYM) return 0; /* only a broken table; never index past it */
            *sym = d.sorted[k];
            return l;
        }
    }
    return 0;
}

__global__ void k_flag(unsigned *err) { atomicOr(err, 1u); }


/* A decoder's scratch: the segments' byte offsets (u64 a segment), then
 * CUB's temporary storage for their scan. */
struct offs_layout {
    size_t offs, temp, temp_bytes, total;
};

inline cudaError_t offs_layout_for(uint64_t n_seg, offs_layout *L)
{
    L->offs = 0;
    L->temp = gg_align256(n_seg * sizeof(uint64_t));
    L->temp_bytes = 0;
    L->total = L->temp;
    if (n_seg > (uint64_t)INT_MAX) return cudaErrorInvalidValue; /* CUB's int item count */
    cudaError_t e = cudaSuccess;
    if (n_seg) {
        seg_iter it(thrust::counting_iterator<uint32_t>(0), seg_entry{nullptr});
        e = cub::DeviceScan::ExclusiveSum(nullptr, L->temp_bytes, it, static_cast<uint64_t *>(nullptr), (int)n_seg);
    }
    L->total = L->temp + gg_align256(L->temp_bytes);
    return e;
}

/* The scratch for n points in segments of `per` (+ 1: two planes); where
 * no device answers CUB's query, a bound on it */
inline size_t offs_scratch(uint64_t n, uint64_t per)
{
    const uint64_t n_seg = (n + per - 1) / per + 1;
    offs_layout L;
    if (offs_layout_for(n_seg, &L) != cudaSuccess) return L.temp + gg_align256(16 * (size_t)n_seg + 4096);
    return L.total;
}

/* Queues the exclusive scan of the n_seg segments' byte counts (the table
 * at d_segtab) into the scratch; *offs gets where they are. */
inline cudaError_t offs_scan(const uint8_t *d_segtab, uint64_t n_seg, void *d_scratch, size_t scratch_bytes,
                             uint64_t **offs, cudaStream_t s)
{
    offs_layout L;
    cudaError_t e = offs_layout_for(n_seg, &L);
    if (e != cudaSuccess) return e;
    if (!d_scratch || scratch_bytes < L.total) return cudaErrorInvalidValue;
    char *base = static_cast<char *>(d_scratch);
    *offs = reinterpret_cast<uint64_t *>(base + L.offs);
    seg_iter it(thrust::counting_iterator<uint32_t>(0), seg_entry{d_segtab});
    size_t tb = L.temp_bytes;
    return cub::DeviceScan::ExclusiveSum(base + L.temp, tb, it, *offs, (int)n_seg, s);
}

} /* namespace */
#endif
