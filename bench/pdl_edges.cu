/* pdl_edges: what stream capture makes of a kernel launched with
 * programmatic stream serialization (PDL), on the same stream as the kernel
 * before it and across an event join, and whether the dependent's blocks
 * then start before the primary ends (docs/DESIGN.md, "Programmatic
 * dependent launch" quotes it).
 *   pdl_edges     (prints the captured edges' types and the start times)
 * The primary spins about 20 us and triggers its dependents at its start;
 * the dependent stamps the global timer before and after griddepcontrol.wait. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include "probe_check.h"

__device__ __forceinline__ unsigned long long now_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void primary(unsigned long long *t, int trigger)
{
#if __CUDA_ARCH__ >= 900
    if (trigger) asm volatile("griddepcontrol.launch_dependents;");
#endif
    const unsigned long long t0 = now_ns();
    while (now_ns() - t0 < 20000) {
    }
    if (threadIdx.x == 0) atomicMax(&t[0], now_ns());
}

__global__ void dependent(unsigned long long *t)
{
    if (threadIdx.x == 0) atomicMin(&t[1], now_ns());
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
    if (threadIdx.x == 0) atomicMin(&t[2], now_ns());
}

static const char *edge_type(unsigned char ty)
{
    return ty == cudaGraphDependencyTypeProgrammatic ? "programmatic" : ty == cudaGraphDependencyTypeDefault ? "default"
                                                                                                           : "other";
}

/* cross: the dependent on a second stream after an event join */
static void one(int cross, int pdl, unsigned long long *d_t)
{
    cudaStream_t s0, s1;
    cudaEvent_t ev;
    CK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
    cudaGraph_t gr;
    CK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeThreadLocal));
    primary<<<8, 128, 0, s0>>>(d_t, pdl);
    cudaStream_t sd = s0;
    if (cross) {
        CK(cudaEventRecord(ev, s0));
        CK(cudaStreamWaitEvent(s1, ev, 0));
        sd = s1;
    }
    cudaLaunchConfig_t c = {};
    c.gridDim = dim3(8);
    c.blockDim = dim3(128);
    c.stream = sd;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    c.attrs = at;
    c.numAttrs = pdl ? 1 : 0;
    CK(cudaLaunchKernelEx(&c, dependent, d_t));
    if (cross) {
        CK(cudaEventRecord(ev, s1));
        CK(cudaStreamWaitEvent(s0, ev, 0));
    }
    CK(cudaStreamEndCapture(s0, &gr));
    size_t ne = 0;
    CK(cudaGraphGetEdges(gr, NULL, NULL, NULL, &ne));
    cudaGraphNode_t from[16], to[16];
    cudaGraphEdgeData ed[16];
    if (ne > 16) ne = 16;
    CK(cudaGraphGetEdges(gr, from, to, ed, &ne));
    printf("%s, %s: %zu edge(s):", cross ? "across an event join" : "same stream", pdl ? "PDL" : "plain", ne);
    for (size_t i = 0; i < ne; i++) printf(" %s (from port %u)", edge_type(ed[i].type), ed[i].from_port);
    cudaGraphExec_t ex;
    CK(cudaGraphInstantiate(&ex, gr, 0));
    for (int rep = 0; rep < 3; rep++) {
        unsigned long long h[3] = {0, ~0ull, ~0ull};
        CK(cudaMemcpy(d_t, h, sizeof h, cudaMemcpyHostToDevice));
        CK(cudaGraphLaunch(ex, s0));
        CK(cudaStreamSynchronize(s0));
        CK(cudaMemcpy(h, d_t, sizeof h, cudaMemcpyDeviceToHost));
        if (rep == 2)
            printf("; dependent started %+.1f us, passed its wait %+.1f us after the primary's end\n",
                   ((double)h[1] - (double)h[0]) * 1e-3, ((double)h[2] - (double)h[0]) * 1e-3);
    }
    CK(cudaGraphExecDestroy(ex));
    CK(cudaGraphDestroy(gr));
    CK(cudaEventDestroy(ev));
    CK(cudaStreamDestroy(s0));
    CK(cudaStreamDestroy(s1));
}

int main(void)
{
    unsigned long long *d_t;
    CK(cudaMalloc(&d_t, 3 * sizeof(unsigned long long)));
    for (int cross = 0; cross < 2; cross++)
        for (int pdl = 0; pdl < 2; pdl++) one(cross, pdl, d_t);
    CK(cudaFree(d_t));
    return 0;
}
