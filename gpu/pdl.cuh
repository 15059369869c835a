/* Programmatic dependent launch (PDL, sm_90 on): a kernel launched with it
 * may have its blocks scheduled before the kernel ahead of it on its
 * stream (its primary) has finished: once every block of the primary has
 * passed pdl_trigger, or exited. The dependent does the work that needs
 * nothing of the primary and then waits in pdl_wait, which returns once
 * the primary has completed and its writes are visible. Both are no-ops
 * before sm_90 and in a kernel launched without PDL. Every block of a
 * kernel launched with PDL passes pdl_wait before it exits, early returns
 * included, so that the kernel's completion still means its primary's.
 * Stream capture keeps the edge (programmatic) on the same stream and
 * across an event join alike. Which launches use it: gg_launch.pdl
 * (gg_predict.h). */
#ifndef GLIDE_PDL_CUH
#define GLIDE_PDL_CUH
#include <cuda_runtime.h>
#include "gg_predict.h" /* GG_PDL_*, gg_launch */

__device__ __forceinline__ void pdl_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

__device__ __forceinline__ void pdl_trigger()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* k<<<grid, block, sh, s>>>(args...), with PDL where pdl */
template <class... P, class... A>
static cudaError_t pdl_launch(void (*k)(P...), dim3 grid, dim3 block, size_t sh, cudaStream_t s, bool pdl, A... args)
{
    if (!pdl) {
        k<<<grid, block, sh, s>>>(args...);
        return cudaGetLastError();
    }
    cudaLaunchConfig_t c = {};
    c.gridDim = grid;
    c.blockDim = block;
    c.dynamicSmemBytes = sh;
    c.stream = s;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    c.attrs = at;
    c.numAttrs = 1;
    return cudaLaunchKernelEx(&c, k, args...);
}

#endif
