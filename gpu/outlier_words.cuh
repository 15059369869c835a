/* The decoder's outlier words (gg_outlier_scan, FORMAT.md §6's ranks): per
 * word of 32 symbols their OUTLIER bits, made by four consecutive lanes of
 * 8 symbols each. Shared by outliers.cu's outlier_words_k and the planes'
 * merge (planes.cu), which makes them on its way. */
#ifndef GLIDE_OUTLIER_WORDS_CUH
#define GLIDE_OUTLIER_WORDS_CUH
#include "format.h"

/* the OUTLIER symbols among 8 (one 16-byte load, little-endian), as bits */
__device__ __forceinline__ unsigned outlier_bits8(uint4 v)
{
    const uint32_t p[4] = {v.x, v.y, v.z, v.w};
    unsigned m = 0;
#pragma unroll
    for (unsigned j = 0; j < 4; j++)
        m |= (unsigned)((p[j] & 0xFFFFu) == GLIDE_SYM_OUTLIER) << (2 * j) |
             (unsigned)((p[j] >> 16) == GLIDE_SYM_OUTLIER) << (2 * j + 1);
    return m;
}

/* The word of lanes 4k .. 4k + 3 (lane & 3 = the place of its 8 symbols),
 * in every one of them. Whole warps call it. */
__device__ __forceinline__ unsigned outlier_word(unsigned bits8, unsigned lane)
{
    unsigned w = bits8 << ((lane & 3u) * 8u);
    w |= __shfl_xor_sync(0xFFFFFFFFu, w, 1);
    w |= __shfl_xor_sync(0xFFFFFFFFu, w, 2);
    return w;
}
#endif
