/* The encoder's two launch sequences (gpu_front.c, gpu_tail.c) replayed
 * as captured CUDA graphs. Both are the same for every chunk of one shape
 * and bound, since everything that varies per chunk sits in device memory;
 * one launch of the graph spares a small chunk's device about ten host
 * launches after the host's codebook work. A graph is captured anew when a
 * buffer, the shape or a parameter changes (the key). With stage timing a
 * graph is one stage; with the graphs off (a test hook) the kernels go one
 * by one, with events between the stages. */
#include "gg_context.h"

#include <string.h>

cudaError_t gg_graphed(gg_graph *c, const void *key, size_t klen, enqueue_fn f, const void *arg, int *used)
{
    *used = 0;
    if (!gg_G.test.graphs || klen > GG_KEY_MAX) return f(arg, gg_G.timing);
    if (!c->ok || c->klen != klen || memcmp(c->key, key, klen) != 0) {
        if (c->ok) cudaGraphExecDestroy(c->exec);
        c->ok = 0;
        cudaGraph_t gr = NULL;
        cudaError_t e = cudaStreamBeginCapture(gg_G.s, cudaStreamCaptureModeThreadLocal);
        if (e != cudaSuccess) return e;
        e = f(arg, 0);
        cudaError_t e2 = cudaStreamEndCapture(gg_G.s, &gr); /* ends the capture whatever f did */
        if (e == cudaSuccess) e = e2;
        /* the nodes keep the priorities of the streams they were captured
         * from (the front of large chunks runs on s_hi), not gg_G.s's */
        if (e == cudaSuccess) e = cudaGraphInstantiateWithFlags(&c->exec, gr, cudaGraphInstantiateFlagUseNodePriority);
        if (gr) cudaGraphDestroy(gr);
        if (e != cudaSuccess) return e;
        c->ok = 1;
        c->klen = klen;
        memcpy(c->key, key, klen);
    }
    *used = 1;
    return cudaGraphLaunch(c->exec, gg_G.s);
}
