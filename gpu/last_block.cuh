/* The "last block to finish" step of one-launch reductions (range, tuning,
 * predictor choice, outlier tiles, book scores, CRC pieces): every block
 * counts itself on a zeroed counter; the block that arrives last sees all the
 * others' global writes and takes the decision that would otherwise need one
 * more (single-thread) launch. */
#ifndef GLIDE_LAST_BLOCK_CUH
#define GLIDE_LAST_BLOCK_CUH
#include <stdint.h>

/* True in the one block of the grid that finishes last, once every other
 * block's writes are visible. Every thread of every block must call it;
 * *count is left at the grid's block count (the caller resets it, or a
 * state reset does). last_block_of: the same over `total` blocks, which
 * may belong to two grids running side by side. */
static __device__ __forceinline__ bool last_block_of(uint32_t *count, uint32_t total)
{
    __shared__ bool last;
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd(count, 1u) == total - 1;
    }
    __syncthreads();
    if (last) __threadfence();
    return last;
}

static __device__ __forceinline__ bool last_block(uint32_t *count)
{
    return last_block_of(count, gridDim.x * gridDim.y * gridDim.z);
}

#endif
