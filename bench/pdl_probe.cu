/* pdl_probe: what a launch costs inside a chain of small dependent kernels,
 * and whether programmatic dependent launch (PDL: the next kernel launched
 * early, waiting in griddepcontrol.wait) takes it away. docs/DESIGN.md
 * ("The 64^3 call, measured whole") quotes it.
 *   pdl_probe          (prints one line per blocks x chain length x PDL x graph)
 * Each kernel scales 256 Ki floats with `blocks` blocks of 256 threads;
 * median of 41 timed launches of the chain (stream or one graph replay). */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include "probe_check.h"

__global__ void step(float *a, int n, int k, int pdl)
{
#if __CUDA_ARCH__ >= 900
    if (pdl) {
        asm volatile("griddepcontrol.wait;" ::: "memory");
        asm volatile("griddepcontrol.launch_dependents;");
    }
#endif
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) a[i] = a[i] * 0.5f + (float)k;
}

static cudaError_t chain(float *a, int n, int K, int blocks, int pdl, cudaStream_t s)
{
    for (int k = 0; k < K; k++) {
        cudaLaunchConfig_t c = {};
        c.gridDim = dim3((unsigned)blocks);
        c.blockDim = dim3(256);
        c.stream = s;
        cudaLaunchAttribute at[1];
        at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        at[0].val.programmaticStreamSerializationAllowed = 1;
        c.attrs = at;
        c.numAttrs = pdl ? 1 : 0;
        cudaError_t e = cudaLaunchKernelEx(&c, step, a, n, k, pdl);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

static int cmp(const void *x, const void *y)
{
    float a = *(const float *)x, b = *(const float *)y;
    return (a > b) - (a < b);
}

int main(void)
{
    const int n = 262144, runs = 41;
    float *a;
    CK(cudaMalloc(&a, n * sizeof(float)));
    CK(cudaMemset(a, 0, n * sizeof(float)));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    static const int blocks_of[] = {64, 512}, len_of[] = {1, 8, 16};
    for (int bi = 0; bi < 2; bi++)
        for (int li = 0; li < 3; li++)
            for (int pdl = 0; pdl < 2; pdl++)
                for (int graph = 0; graph < 2; graph++) {
                    const int blocks = blocks_of[bi], K = len_of[li];
                    cudaGraphExec_t ge = NULL;
                    if (graph) {
                        cudaGraph_t g;
                        CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
                        CK(chain(a, n, K, blocks, pdl, s));
                        CK(cudaStreamEndCapture(s, &g));
                        CK(cudaGraphInstantiateWithFlags(&ge, g, 0));
                        CK(cudaGraphDestroy(g));
                    }
                    float t[41];
                    for (int r = 0; r < runs; r++) {
                        CK(cudaEventRecord(e0, s));
                        if (graph) CK(cudaGraphLaunch(ge, s));
                        else CK(chain(a, n, K, blocks, pdl, s));
                        CK(cudaEventRecord(e1, s));
                        CK(cudaEventSynchronize(e1));
                        CK(cudaEventElapsedTime(&t[r], e0, e1));
                    }
                    qsort(t, runs, sizeof t[0], cmp);
                    printf("blocks %3d, chain of %2d, pdl %d, graph %d: %.2f us (%.2f per kernel)\n", blocks, K, pdl,
                           graph, t[runs / 2] * 1e3, t[runs / 2] * 1e3 / K);
                    if (ge) CK(cudaGraphExecDestroy(ge));
                }
    return 0;
}
