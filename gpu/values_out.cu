/* Decompression's values into pinned host memory by a kernel, piece by
 * piece, each piece's word in mapped memory raised once its bytes are
 * there: the host's copy helpers take a piece as soon as its word says so,
 * with no DMA to start and no event to wait on (gpu_transfer.c). */
#include <cuda_runtime.h>
#include <cstdint>

constexpr unsigned kOutThreads = 256;
/* a block for each 16 KiB of a piece, up to 32: enough writers to keep
 * the link busy */
constexpr uint64_t kOutBlockBytes = 16 << 10;
constexpr unsigned kOutMaxBlocksPerPiece = 32;

__global__ void __launch_bounds__(kOutThreads) values_out_k(const uint8_t *__restrict__ d, uint64_t bytes,
                                                            uint64_t piece, uint8_t *__restrict__ h,
                                                            uint32_t *__restrict__ cnt, uint32_t *words,
                                                            uint32_t seq, unsigned bpp)
{
    const unsigned p = blockIdx.x / bpp, b = blockIdx.x % bpp;
    const uint64_t off = p * piece, end = off + piece < bytes ? off + piece : bytes; /* piece: a multiple of 16 */
    const uint4 *__restrict__ s4 = reinterpret_cast<const uint4 *>(d);
    uint4 *__restrict__ d4 = reinterpret_cast<uint4 *>(h);
    for (uint64_t i = off / 16 + b * kOutThreads + threadIdx.x; i < end / 16; i += (uint64_t)bpp * kOutThreads)
        d4[i] = s4[i];
    if (b == 0 && end == bytes)
        for (uint64_t i = end / 16 * 16 + threadIdx.x; i < end; i += kOutThreads) h[i] = d[i];
    __threadfence_system(); /* this thread's stores reach the host before the piece's word */
    __syncthreads();
    if (threadIdx.x == 0 && atomicAdd(&cnt[p], 1u) == bpp - 1) {
        cnt[p] = 0; /* no other block of this launch touches it again */
        __threadfence_system();
        *(volatile uint32_t *)&words[p] = seq;
    }
}

extern "C" cudaError_t gg_values_out(const void *d, uint64_t bytes, uint64_t piece, void *h, uint32_t *d_cnt,
                                     uint32_t *dh_words, uint32_t seq, cudaStream_t s)
{
    const uint64_t np = (bytes + piece - 1) / piece;
    uint64_t bpp = (piece + kOutBlockBytes - 1) / kOutBlockBytes;
    if (bpp > kOutMaxBlocksPerPiece) bpp = kOutMaxBlocksPerPiece;
    values_out_k<<<(unsigned)(np * bpp), kOutThreads, 0, s>>>(static_cast<const uint8_t *>(d), bytes, piece,
                                                              static_cast<uint8_t *>(h), d_cnt, dh_words, seq,
                                                              (unsigned)bpp);
    return cudaGetLastError();
}
