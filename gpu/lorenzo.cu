/* Lorenzo prediction (docs/FORMAT.md §9), encode and decode: a thread
 * block per anchor block, or on the chunk's gated commit a grid of the
 * blocks the device holds, each taking every grid-th box. */
#include "predict_launch.cuh"

/* One thread block per anchor block, Lorenzo (docs/FORMAT.md §9): points on
 * the same anti-diagonal a + b + c = w of the block depend only on earlier
 * diagonals, so each diagonal is one parallel step. */
template <class T, int OP, bool SH>
__device__ __forceinline__ void lorenzo_box(const gg_grid &g, const gg_levels *lv, const T *x, uint16_t *sym,
                                            gg_state *st, const DecodeIn &in, T *y, T *rglob, unsigned bi,
                                            unsigned long long *h0)
{
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ unsigned hist[OP == OP_ENCODE ? GLIDE_NSYM : 1];
    Box bx;
    block_box(g, bi, bx);
    const uint64_t B = 1ull << g.blog;
    uint64_t e[3];
    for (int a = 1; a < 3; a++) e[a] = bx.lo[a] + B <= g.n[a] ? B : g.n[a] - bx.lo[a];
    const uint64_t zend = g.nbl == g.nb[0] ? g.n[0] : ((uint32_t)bx.lo[0] / (uint32_t)g.slab_rows + 1) * g.slab_rows;
    e[0] = bx.lo[0] + B <= zend ? B : zend - bx.lo[0];
    if (g.n[0] == 1) e[0] = 1;
    if (g.n[1] == 1) e[1] = 1;
    RView<T> rv;
    if (SH) {
        rv.base = (T *)smem;
        for (int a = 0; a < 3; a++) rv.org[a] = bx.lo[a];
        rv.rs[2] = 1;
        rv.rs[1] = (long long)e[2];
        rv.rs[0] = (long long)(e[2] * e[1]);
    } else {
        rv.base = rglob;
        for (int a = 0; a < 3; a++) rv.org[a] = 0;
        for (int a = 0; a < 3; a++) rv.rs[a] = (long long)g.st[a];
    }
    if (OP == OP_ENCODE) {
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x) hist[t] = 0;
        __syncthreads();
    }
    const T subst = Bits<T>::from((typename Bits<T>::U)lv->subst_bits);
    const double eb = lv->eb_abs;
    const T e2 = (T)(2.0 * eb);
    if (threadIdx.x == 0) {
        /* the block's one anchor, its corner */
        uint64_t i = bx.lo[0] * g.st[0] + bx.lo[1] * g.st[1] + bx.lo[2];
        T v;
        if (OP == OP_ENCODE) v = x[i];
        else {
            uint64_t k = anchor_index(g, bx.lo[0], bx.lo[1], bx.lo[2]);
            v = load_le<T>(in.anchors + k * sizeof(T));
        }
        bool fill = is_fill(g, v), fin = isfinite(v);
        unsigned want = fill ? GLIDE_SYM_FILL : !fin ? GLIDE_SYM_OUTLIER : GLIDE_SYM_ZERO;
        uint64_t c[3] = {bx.lo[0], bx.lo[1], bx.lo[2]};
        *rv.at(c) = OP == OP_ENCODE ? ((fill || !fin) ? subst : v) : anchor_r(in, i, want, v, subst);
        if (OP == OP_ENCODE) {
            sym[i] = (uint16_t)want;
            hist[want]++;
        } else {
            if (in.sym[i] != want) *in.err = GG_ERR_CORRUPT;
            y[i] = want == GLIDE_SYM_OUTLIER ? outlier_at(in, i, subst) : v;
        }
    }
    __syncthreads();
    /* e[0] * e[1] <= B^2 <= 2^30: the pairs count in 32 bits, and the
     * division by e[1], once per pair and wavefront, by multiply-high */
    const uint32_t pairs = (uint32_t)(e[0] * e[1]);
    const uint64_t wmax = (e[0] - 1) + (e[1] - 1) + (e[2] - 1);
    const Walk Wp = walk_make((uint32_t)e[0], (uint32_t)e[1], pairs);
    for (uint64_t w = 1; w <= wmax; w++) {
        for (uint32_t t = threadIdx.x; t < pairs; t += blockDim.x) {
            uint32_t z, a32, b32;
            walk_point(Wp, t, z, a32, b32); /* z = 0: the rows are e[0] x e[1] */
            const uint64_t a = a32, b = b32;
            if (a + b > w || w - a - b >= e[2]) continue;
            uint64_t c[3] = {bx.lo[0] + a, bx.lo[1] + b, bx.lo[2] + (w - a - b)};
            uint64_t i = c[0] * g.st[0] + c[1] * g.st[1] + c[2];
            T *rp = rv.at(c);
            int pz = a != 0, py = b != 0, px = w - a - b != 0;
            const long long s0 = rv.rs[0], s1 = rv.rs[1];
            T pred = (T)0;
            if (OP == OP_ENCODE || in.sym[i] < GLIDE_NQUANT) pred = lpredict(rp, s0, s1, px, py, pz);
            visit<T, OP>(g, x, sym, in, y, hist, i, true, pred, e2, eb, subst, rp);
        }
        __syncthreads();
    }
    if (OP == OP_ENCODE)
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x)
            if (hist[t]) atomicAdd((unsigned long long *)&st->hist[t], (unsigned long long)hist[t]);
    if (OP == OP_ENCODE && h0)
        box_hist0(sym, bx.lo[0] * g.st[0] + bx.lo[1] * g.st[1] + bx.lo[2], g.st[0], g.st[1], (uint32_t)e[0],
                  (uint32_t)e[1], (uint32_t)e[2], hist, h0, st);
}

/* gate (the chunk's commit after the block trial's pick): a grid of at most
 * as many blocks as the device holds at once (commit_grid), each taking
 * every grid-th box, so that a chunk whose trial picked another method
 * pays for a few hundred blocks returning at once, not one a box (4096 at
 * 256^3, about 4 us; 32768 at 512^3) */
template <class T, int OP, bool SH>
__global__ void __launch_bounds__(GG_THREADS)
    lorenzo_k(gg_grid g, const gg_levels *lv, const T *x, uint16_t *sym, gg_state *st, DecodeIn in, T *y, T *rglob,
              bool gate, unsigned nbox, unsigned long long *h0)
{
    pdl_wait(); /* the chunk's commit: after the pick (GG_PDL_TAIL) */
    if (gate) pdl_trigger();
    if (gate && !st->lorenzo) return;
    for (unsigned bi = blockIdx.x; bi < nbox; bi += gridDim.x) {
        lorenzo_box<T, OP, SH>(g, lv, x, sym, st, in, y, rglob, bi, h0);
        __syncthreads(); /* the next box reuses shared memory */
    }
}

template <class T, int OP>
cudaError_t launch_lorenzo(const gg_launch *L, gg_grid g, unsigned nb, const gg_levels *lv, const T *x, uint16_t *sym,
                           gg_state *st, DecodeIn in, T *y, T *r, bool gate, bool pdl, unsigned long long *hc,
                           cudaStream_t s)
{
    cudaError_t e;
    size_t sh = box_bytes(g, BOX_LORENZO);
    const void *k = sh ? (const void *)lorenzo_k<T, OP, true> : (const void *)lorenzo_k<T, OP, false>;
    unsigned grid = nb;
    if (gate && (e = commit_grid(L, k, GG_THREADS, sh, &grid)) != cudaSuccess) return e;
    if (grid > nb) grid = nb;
    return sh ? pdl_launch(lorenzo_k<T, OP, true>, dim3(grid), dim3(GG_THREADS), sh, s, pdl, g, lv, x, sym, st, in, y, r,
                           gate, nb, hc)
              : pdl_launch(lorenzo_k<T, OP, false>, dim3(grid), dim3(GG_THREADS), 0, s, pdl, g, lv, x, sym, st, in, y, r,
                           gate, nb, hc);
}

#define GG_LORENZO_INST(T, OP)                                                                                         \
    template cudaError_t launch_lorenzo<T, OP>(const gg_launch *, gg_grid, unsigned, const gg_levels *, const T *,    \
                                               uint16_t *, gg_state *, DecodeIn, T *, T *, bool, bool,                \
                                               unsigned long long *, cudaStream_t);
GG_LORENZO_INST(float, OP_ENCODE)
GG_LORENZO_INST(float, OP_DECODE)
GG_LORENZO_INST(double, OP_ENCODE)
GG_LORENZO_INST(double, OP_DECODE)
