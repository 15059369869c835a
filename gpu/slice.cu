/* Format 6's slice method (docs/FORMAT.md §9a): which of slice.cuh's
 * kernels a chunk takes (a run of slices in shared memory, one box's
 * slices in shared memory, or global scratch), and the forced order. */
#include "slice.cuh"

template <class T, int OP>
cudaError_t launch_slice(const gg_launch *L, gg_grid g, unsigned nb, const gg_levels *lv, const T *x, uint16_t *sym,
                         gg_state *st, DecodeIn in, T *y, T *r, T *w, int order, cudaStream_t s, bool pdl,
                         unsigned long long *h0)
{
    const size_t wf = slice_run_bytes(g), sh = slice_box_bytes(g);
    if (wf) {
        /* a run's steps are sequential: a thread a point of a slice does
         * each step in one pass (17 x 17 = 289 points at B = 16) */
        const bool wide = slice_box_points(g) > GG_SLICE_WF_THREADS;
        const void *k = wide ? (const void *)slice_wf_k<T, OP, GG_THREADS_MAX> : (const void *)slice_wf_k<T, OP, GG_SLICE_WF_THREADS>;
        const unsigned nt = wide ? GG_THREADS_MAX : GG_SLICE_WF_THREADS;
        cudaError_t e = allow_shared(k, wf);
        if (e != cudaSuccess) return e;
        unsigned gx = nb; /* order -1: the chunk's commit (lorenzo_k's gate) */
        if (order == -1 && (e = commit_grid(L, k, nt, wf, &gx)) != cudaSuccess) return e;
        if (gx > nb) gx = nb;
        const dim3 grid(gx, order == -2 ? 2 : 1);
        if (wide) return pdl_launch(slice_wf_k<T, OP, GG_THREADS_MAX>, grid, dim3(GG_THREADS_MAX), wf, s, pdl, g, lv, x, sym, st, in, y, order, nb, h0);
        return pdl_launch(slice_wf_k<T, OP, GG_SLICE_WF_THREADS>, grid, dim3(GG_SLICE_WF_THREADS), wf, s, pdl, g, lv, x, sym, st, in, y, order, nb, h0);
    } else if (sh) {
        cudaError_t e = allow_shared((const void *)slice_sh_k<T, OP>, sh);
        if (e != cudaSuccess) return e;
        slice_sh_k<T, OP><<<dim3(nb, order == -2 ? 2 : 1), GG_SLICE_THREADS, sh, s>>>(g, lv, x, sym, st, in, y, order);
    } else if (order == -2) {
        slice_k<T, OP><<<nb, GG_THREADS, 0, s>>>(g, lv, x, sym, st, in, y, r, w, 0);
        slice_k<T, OP><<<nb, GG_THREADS, 0, s>>>(g, lv, x, sym, st + 1, in, y, r, w, 1);
    } else {
        slice_k<T, OP><<<nb, GG_THREADS, 0, s>>>(g, lv, x, sym, st, in, y, r, w, order);
    }
    return cudaGetLastError();
}

#define GG_SLICE_INST(T, OP)                                                                                           \
    template cudaError_t launch_slice<T, OP>(const gg_launch *, gg_grid, unsigned, const gg_levels *, const T *,      \
                                             uint16_t *, gg_state *, DecodeIn, T *, T *, T *, int, cudaStream_t,      \
                                             bool, unsigned long long *);
GG_SLICE_INST(float, OP_ENCODE)
GG_SLICE_INST(float, OP_DECODE)
GG_SLICE_INST(double, OP_ENCODE)
GG_SLICE_INST(double, OP_DECODE)

/* A forced slice order (glide_encode_opts.slice 1 or 2) as the trial would
 * leave it. */
__global__ void slice_force_k(gg_state *st, unsigned order)
{
    if (threadIdx.x) return;
    st->slice = order + 1;
    st->lv.level_cfg[0] = (uint8_t)order;
}

extern "C" cudaError_t gg_slice_force(gg_state *d_st, unsigned order, cudaStream_t s)
{
    slice_force_k<<<1, 32, 0, s>>>(d_st, order);
    return cudaGetLastError();
}
