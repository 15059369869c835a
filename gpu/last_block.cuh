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
 * state reset does). */
static __device__ __forceinline__ bool last_block(uint32_t *count)
{
    __shared__ bool last;
    __syncthreads();
    if (threadIdx.x == 0) {
        __threadfence();
        last = atomicAdd(count, 1u) == gridDim.x * gridDim.y * gridDim.z - 1;
    }
    __syncthreads();
    if (last) __threadfence();
    return last;
}

#endif
