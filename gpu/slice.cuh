/* Format 6's slice method (docs/FORMAT.md §9a), as cpu/slice_tmpl.h
 * computes it: the kernels, launched by slice.cu.
 *
 * One thread block owns one anchor block: a run of at most B slices (axis
 * 0) of a B x B box, its far edge lines included. The slices of a run go
 * one after the other (each prediction adds the previous slice's residual
 * at that point); inside a slice the levels and passes go as the CPU's
 * sweep, a barrier after each. The edge lines a block shares with the next
 * box are 1-D hierarchies of their own, so both blocks compute the same
 * values; only the owner (coordinates below lo + B, or the grid's far
 * edge: box_own) writes symbols and output values. r (reconstructions)
 * and sp (each point's 2-D prediction) are global scratch of count
 * elements: a shared edge point may be written by both blocks, always
 * with the same value. */
#ifndef GLIDE_SLICE_CUH
#define GLIDE_SLICE_CUH
#include "predict_launch.cuh"

/* Whether point i is a fill point: its value when encoding (a symbol of
 * another block's point may not be written yet), its symbol when decoding. */
template <class T, int OP>
__device__ __forceinline__ bool slice_fill(const gg_grid &g, const T *x, const DecodeIn &in, uint64_t i)
{
    if (OP == OP_ENCODE) return is_fill(g, x[i]);
    return in.sym[i] == GLIDE_SYM_FILL;
}

/* order: 0 x before y, 1 y before x, -1 the trial's choice (st->slice;
 * none: return at once) */

template <class T, int OP>
__global__ void __launch_bounds__(GG_THREADS)
    slice_k(gg_grid g, const gg_levels *lv, const T *x, uint16_t *sym, gg_state *st, DecodeIn in, T *y, T *r, T *sp,
            int order)
{
    if (order < 0) {
        const unsigned c = st->slice;
        if (!c) return;
        order = (int)c - 1;
    }
    __shared__ unsigned hist[OP == OP_ENCODE ? GLIDE_NSYM : 1];
    if (OP == OP_ENCODE) {
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x) hist[t] = 0;
        __syncthreads();
    }
    Box bx;
    block_box(g, blockIdx.x, bx);
    uint32_t own[3];
    if (!box_own(g, blockIdx.x, bx, 1, own)) return;
    const uint32_t B = 1u << g.blog;
    const uint32_t ey = (uint32_t)(bx.hi[1] - bx.lo[1] + 1), ex = (uint32_t)(bx.hi[2] - bx.lo[2] + 1);
    const uint64_t zr = bx.hi[0] - bx.lo[0] + 1;
    const uint32_t nz = zr < B ? (uint32_t)zr : B;
    const uint64_t s0 = g.st[0], s1 = g.st[1];
    const T subst = Bits<T>::from((typename Bits<T>::U)lv->subst_bits);
    const double eb = lv->eb_abs;
    const T e2 = (T)(2.0 * eb);
    const bool fa = g.has_fill != 0;
    for (uint32_t zl = 0; zl < nz; zl++) {
        const uint64_t z = bx.lo[0] + zl;
        const bool first = zl == 0;
        const uint64_t base = z * s0 + bx.lo[1] * s1 + bx.lo[2];
        /* the slice's 2-D anchors: the box's corners (the first slice of a
         * run: the stream's anchors; else predicted by the slice before) */
        const uint32_t ay = (ey - 1) / B + 1, ax = (ex - 1) / B + 1;
        for (uint32_t t = threadIdx.x; t < ay * ax; t += blockDim.x) {
            const uint32_t ly = t / ax * B, lx = t % ax * B;
            const uint64_t i = base + ly * s1 + lx;
            const bool owned = ly < own[1] && lx < own[2];
            sp[i] = (T)0;
            if (first) {
                T v;
                if (OP == OP_ENCODE) v = x[i];
                else v = load_le<T>(in.anchors + anchor_index(g, z, bx.lo[1] + ly, bx.lo[2] + lx) * sizeof(T));
                const bool fill = is_fill(g, v), fin = isfinite(v);
                const unsigned want = fill ? GLIDE_SYM_FILL : !fin ? GLIDE_SYM_OUTLIER : GLIDE_SYM_ZERO;
                if (OP == OP_ENCODE) {
                    r[i] = (fill || !fin) ? subst : v;
                    if (owned) {
                        sym[i] = (uint16_t)want;
                        atomicAdd(&hist[want], 1u);
                    }
                } else {
                    r[i] = anchor_r(in, i, want, v, subst);
                    if (owned) {
                        if (in.sym[i] != want) *in.err = GG_ERR_CORRUPT;
                        y[i] = want == GLIDE_SYM_OUTLIER ? outlier_at(in, i, subst) : v;
                    }
                }
            } else {
                const T p = slice_fill<T, OP>(g, x, in, i - s0) ? subst : r[i - s0];
                visit<T, OP>(g, x, sym, in, y, hist, i, owned, p, e2, eb, subst, &r[i]);
            }
        }
        __syncthreads();
        for (uint32_t s = B / 2; s >= 1; s /= 2)
            for (int pass = 0; pass < 2; pass++) {
                /* d: the axis the points are odd on (1 = y, 2 = x) */
                const unsigned d = (pass == 0) != (order != 0) ? 2u : 1u;
                const uint32_t ostep = pass == 0 ? 2 * s : s;
                const uint32_t y0 = d == 1 ? s : 0, ys = d == 1 ? 2 * s : ostep;
                const uint32_t x0 = d == 2 ? s : 0, xs = d == 2 ? 2 * s : ostep;
                const uint32_t ny = ey > y0 ? (ey - 1 - y0) / ys + 1 : 0, nx = ex > x0 ? (ex - 1 - x0) / xs + 1 : 0;
                const uint64_t o1 = (d == 1 ? s1 : 1) * s;
                const uint32_t hi = (d == 1 ? ey : ex) - 1;
                for (uint32_t t = threadIdx.x; t < ny * nx; t += blockDim.x) {
                    const uint32_t ly = y0 + t / nx * ys, lx = x0 + t % nx * xs;
                    const uint64_t i = base + ly * s1 + lx;
                    const bool owned = ly < own[1] && lx < own[2];
                    T p = (T)0;
                    if (slice_fill<T, OP>(g, x, in, i)) {
                        sp[i] = (T)0;
                    } else {
                        const uint32_t c = d == 1 ? ly : lx;
                        const T *rp = r + i;
                        const T p2 = fa ? ipredict_fa(rp, (long long)o1, c, s, 0u, hi, GLIDE_SPLINE_CUBIC_NAK, subst,
                                                      [&](long long off) {
                                                          return slice_fill<T, OP>(g, x, in, (uint64_t)((long long)i + off));
                                                      })
                                        : ipredict(rp, (long long)o1, c, s, 0u, hi, GLIDE_SPLINE_CUBIC_NAK);
                        sp[i] = p2;
                        p = !first && !slice_fill<T, OP>(g, x, in, i - s0) ? p2 + (r[i - s0] - sp[i - s0]) : p2;
                    }
                    visit<T, OP>(g, x, sym, in, y, hist, i, owned, p, e2, eb, subst, &r[i]);
                }
                __syncthreads();
            }
    }
    if (OP == OP_ENCODE)
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x)
            if (hist[t]) atomicAdd((unsigned long long *)&st->hist[t], (unsigned long long)hist[t]);
}

/* One point of slice_sh_k given its prediction p: encode (xv its value)
 * or decode (sy its symbol) as visit() does, with the reconstruction to *r;
 * the owner writes the symbol (if sym) and counts it, or writes y. */
template <class T, int OP>
__device__ __forceinline__ void slice_point(const gg_grid &g, T xv, unsigned sy, uint64_t gi, bool owned, T p, T e2,
                                            double eb, T subst, T *r, uint16_t *sym, unsigned *hist, const DecodeIn &in,
                                            T *y)
{
    if (OP == OP_ENCODE) {
        T rv;
        if (is_fill(g, xv)) {
            sy = GLIDE_SYM_FILL;
            rv = subst;
        } else {
            const int q = quantize(xv, p, e2, eb, &rv);
            if (q >= 0) sy = (unsigned)q;
            else {
                sy = GLIDE_SYM_OUTLIER;
                rv = isfinite(xv) ? xv : subst;
            }
        }
        *r = rv;
        if (owned) {
            if (sym) sym[gi] = (uint16_t)sy;
            hist_add(hist, sy);
        }
    } else {
        T rv, out;
        if (sy < GLIDE_NQUANT) {
            rv = out = p + (T)((int)sy - GLIDE_SYM_ZERO) * e2;
        } else if (sy == GLIDE_SYM_FILL) {
            if (!g.has_fill) *in.err = GG_ERR_CORRUPT;
            rv = subst;
            out = Bits<T>::from((typename Bits<T>::U)g.fill_bits);
        } else {
            out = outlier_at(in, gi, subst);
            rv = isfinite(out) ? out : subst;
        }
        *r = rv;
        if (owned) y[gi] = out;
    }
}

/* slice_k with the box's slices in shared memory: each slice's values (or
 * symbols) and fill flags are read once, the levels then work on shared
 * memory only, and the previous slice's reconstructions and 2-D
 * predictions stay there (two buffers, swapped per slice). order -2: the
 * trial's both orders in one launch, order = blockIdx.y with state
 * st + blockIdx.y. sym may be NULL (the trial needs the histogram only). */
/* order -2: this block's order is blockIdx.y, with state st + blockIdx.y;
 * order -1: the one the trial's pick set (st->slice), false if none */
__device__ __forceinline__ bool slice_order(int &order, gg_state *&st)
{
    if (order == -2) {
        order = (int)blockIdx.y;
        st += blockIdx.y;
    } else if (order < 0) {
        const unsigned c = st->slice;
        if (!c) return false;
        order = (int)c - 1;
    }
    return true;
}


template <class T, int OP>
__global__ void __launch_bounds__(GG_SLICE_THREADS)
    slice_sh_k(gg_grid g, const gg_levels *lv, const T *x, uint16_t *sym, gg_state *st, DecodeIn in, T *y, int order)
{
    if (!slice_order(order, st)) return;
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ unsigned hist[OP == OP_ENCODE ? GLIDE_NSYM : 1];
    if (OP == OP_ENCODE)
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x) hist[t] = 0;
    Box bx;
    block_box(g, blockIdx.x, bx);
    uint32_t own[3];
    if (!box_own(g, blockIdx.x, bx, 1, own)) return;
    const uint32_t B = 1u << g.blog;
    const uint32_t ey = (uint32_t)(bx.hi[1] - bx.lo[1] + 1), ex = (uint32_t)(bx.hi[2] - bx.lo[2] + 1), E = ey * ex;
    T *R[2] = {(T *)smem, (T *)smem + E}, *P[2] = {(T *)smem + 2 * E, (T *)smem + 3 * E}, *X = (T *)smem + 4 * E;
    uint16_t *SY = (uint16_t *)(X + E);
    uint8_t *F[2] = {(uint8_t *)(SY + E), (uint8_t *)(SY + E) + E};
    const uint64_t zr = bx.hi[0] - bx.lo[0] + 1;
    const uint32_t nz = zr < B ? (uint32_t)zr : B;
    const uint64_t s0 = g.st[0], s1 = g.st[1];
    const T subst = Bits<T>::from((typename Bits<T>::U)lv->subst_bits);
    const double eb = lv->eb_abs;
    const T e2 = (T)(2.0 * eb);
    const bool fa = g.has_fill != 0;
    const uint32_t ay = (ey - 1) / B + 1, ax = (ex - 1) / B + 1;
    for (uint32_t zl = 0; zl < nz; zl++) {
        const uint64_t z = bx.lo[0] + zl;
        const bool first = zl == 0;
        const uint64_t base = z * s0 + bx.lo[1] * s1 + bx.lo[2];
        T *Rc = R[zl & 1], *Pc = P[zl & 1];
        const T *Rp = R[(zl + 1) & 1], *Pp = P[(zl + 1) & 1];
        uint8_t *Fc = F[zl & 1];
        const uint8_t *Fp = F[(zl + 1) & 1];
        for (uint32_t t = threadIdx.x; t < E; t += blockDim.x) {
            const uint64_t gi = base + (uint64_t)(t / ex) * s1 + t % ex;
            if (OP == OP_ENCODE) {
                const T xv = x[gi];
                X[t] = xv;
                Fc[t] = is_fill(g, xv);
            } else {
                const uint16_t sy = in.sym[gi];
                SY[t] = sy;
                Fc[t] = sy == GLIDE_SYM_FILL;
            }
        }
        __syncthreads();
        for (uint32_t t = threadIdx.x; t < ay * ax; t += blockDim.x) {
            const uint32_t ly = t / ax * B, lx = t % ax * B, lt = ly * ex + lx;
            const uint64_t i = base + (uint64_t)ly * s1 + lx;
            const bool owned = ly < own[1] && lx < own[2];
            Pc[lt] = (T)0;
            if (first) {
                T v;
                if (OP == OP_ENCODE) v = X[lt];
                else v = load_le<T>(in.anchors + anchor_index(g, z, bx.lo[1] + ly, bx.lo[2] + lx) * sizeof(T));
                const bool fill = is_fill(g, v), fin = isfinite(v);
                const unsigned want = fill ? GLIDE_SYM_FILL : !fin ? GLIDE_SYM_OUTLIER : GLIDE_SYM_ZERO;
                if (OP == OP_ENCODE) {
                    Rc[lt] = (fill || !fin) ? subst : v;
                    if (owned) {
                        if (sym) sym[i] = (uint16_t)want;
                        atomicAdd(&hist[want], 1u);
                    }
                } else {
                    Rc[lt] = anchor_r(in, i, want, v, subst);
                    if (owned) {
                        if (SY[lt] != want) *in.err = GG_ERR_CORRUPT;
                        y[i] = want == GLIDE_SYM_OUTLIER ? outlier_at(in, i, subst) : v;
                    }
                }
            } else {
                const T p = Fp[lt] ? subst : Rp[lt];
                slice_point<T, OP>(g, OP == OP_ENCODE ? X[lt] : (T)0, OP == OP_ENCODE ? 0u : SY[lt], i, owned, p, e2, eb,
                                   subst, &Rc[lt], sym, hist, in, y);
            }
        }
        __syncthreads();
        for (uint32_t s = B / 2; s >= 1; s /= 2)
            for (int pass = 0; pass < 2; pass++) {
                const unsigned d = (pass == 0) != (order != 0) ? 2u : 1u;
                const uint32_t ostep = pass == 0 ? 2 * s : s;
                const uint32_t y0 = d == 1 ? s : 0, ys = d == 1 ? 2 * s : ostep;
                const uint32_t x0 = d == 2 ? s : 0, xs = d == 2 ? 2 * s : ostep;
                const uint32_t ny = ey > y0 ? (ey - 1 - y0) / ys + 1 : 0, nx = ex > x0 ? (ex - 1 - x0) / xs + 1 : 0;
                const int o1 = (int)((d == 1 ? ex : 1u) * s);
                const uint32_t hi = (d == 1 ? ey : ex) - 1;
                for (uint32_t t = threadIdx.x; t < ny * nx; t += blockDim.x) {
                    const uint32_t ly = y0 + t / nx * ys, lx = x0 + t % nx * xs, lt = ly * ex + lx;
                    const uint64_t i = base + (uint64_t)ly * s1 + lx;
                    const bool owned = ly < own[1] && lx < own[2];
                    T p = (T)0;
                    if (Fc[lt]) {
                        Pc[lt] = (T)0;
                    } else {
                        const uint32_t c = d == 1 ? ly : lx;
                        const T *rp = Rc + lt;
                        const T p2 = fa ? ipredict_fa(rp, o1, c, s, 0u, hi, GLIDE_SPLINE_CUBIC_NAK, subst,
                                                      [&](int off) { return Fc[(int)lt + off] != 0; })
                                        : ipredict(rp, o1, c, s, 0u, hi, GLIDE_SPLINE_CUBIC_NAK);
                        Pc[lt] = p2;
                        p = !first && !Fp[lt] ? p2 + (Rp[lt] - Pp[lt]) : p2;
                    }
                    slice_point<T, OP>(g, OP == OP_ENCODE ? X[lt] : (T)0, OP == OP_ENCODE ? 0u : SY[lt], i, owned, p,
                                       e2, eb, subst, &Rc[lt], sym, hist, in, y);
                }
                __syncthreads();
            }
    }
    if (OP == OP_ENCODE)
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x)
            if (hist[t]) atomicAdd((unsigned long long *)&st->hist[t], (unsigned long long)hist[t]);
}

/* One phase of a slice in a box of ey x ex points: 0 its 2-D anchors
 * (every B-th point on both axes), then per level (s = B/2 .. 1) its two
 * passes; the points are y0 + i ys, x0 + j xs, predicted along d (1 y, 2 x). */
struct SlicePhase {
    uint32_t y0, ys, x0, xs, ny, nx, s, d;
};

__device__ __forceinline__ SlicePhase slice_phase(unsigned ph, uint32_t B, uint32_t ey, uint32_t ex, int order)
{
    SlicePhase P;
    if (ph == 0) {
        P.y0 = P.x0 = 0;
        P.ys = P.xs = B;
        P.s = B;
        P.d = 0;
    } else {
        const unsigned li = (ph - 1) >> 1, pass = (ph - 1) & 1;
        const uint32_t s = (B >> 1) >> li;
        P.d = (pass == 0) != (order != 0) ? 2u : 1u;
        const uint32_t ostep = pass == 0 ? 2 * s : s;
        P.y0 = P.d == 1 ? s : 0, P.ys = P.d == 1 ? 2 * s : ostep;
        P.x0 = P.d == 2 ? s : 0, P.xs = P.d == 2 ? 2 * s : ostep;
        P.s = s;
    }
    P.ny = ey > P.y0 ? (ey - 1 - P.y0) / P.ys + 1 : 0;
    P.nx = ex > P.x0 ? (ex - 1 - P.x0) / P.xs + 1 : 0;
    return P;
}

/* slice_k with a whole run in shared memory, as a wavefront: at step k,
 * slice z does its phase k - z (a point needs the slice before it at the
 * same point, done one step earlier, and its own slice's earlier phases),
 * so a run of nz slices of P phases takes P + nz - 1 barrier steps instead
 * of P nz. Every slice's values (or symbols) and fill flags are read at
 * the start. A table made once lists a slice's points by phase (its
 * coordinates, and its phase apart), so a step's thread reads its point's
 * phase, hence its slice, in one look-up: the steps are a run's critical
 * path (24 at B = 16), and walking the active slices' phases to find a
 * point took most of each. order as slice_sh_k. */

template <class T, int OP, int NT>
__device__ __forceinline__ void slice_wf_box(const gg_grid &g, const gg_levels *lv, const T *x, uint16_t *sym,
                                             gg_state *st, const DecodeIn &in, T *y, int order, unsigned bi,
                                             unsigned long long *h0)
{
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ unsigned hist[OP == OP_ENCODE ? GLIDE_NSYM : 1];
    __shared__ SlicePhase ph[2 * GLIDE_MAX_LEVELS + 1];
    __shared__ uint32_t cum[2 * GLIDE_MAX_LEVELS + 2];
    if (OP == OP_ENCODE)
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x) hist[t] = 0;
    Box bx;
    block_box(g, bi, bx);
    uint32_t own[3];
    if (!box_own(g, bi, bx, 1, own)) return;
    const uint32_t B = 1u << g.blog, NP = 2 * g.blog + 1;
    const uint32_t ey = (uint32_t)(bx.hi[1] - bx.lo[1] + 1), ex = (uint32_t)(bx.hi[2] - bx.lo[2] + 1), E = ey * ex;
    const uint64_t zr = bx.hi[0] - bx.lo[0] + 1;
    const uint32_t nz = zr < B ? (uint32_t)zr : B, N = nz * E;
    T *R = (T *)smem, *P = R + N, *X = P + N;
    uint16_t *SY = (uint16_t *)X; /* decoding: the symbols where encoding keeps the values */
    uint32_t *TYX = (uint32_t *)(X + N); /* the table: ly << 16 | lx (both below 2^15: E fits the run's bytes) */
    uint8_t *TP = (uint8_t *)(TYX + E), *F = TP + E; /* its phases; the fill flags */
    if (threadIdx.x < NP) ph[threadIdx.x] = slice_phase(threadIdx.x, B, ey, ex, order);
    const uint64_t s0 = g.st[0], s1 = g.st[1];
    const uint64_t base0 = bx.lo[0] * s0 + bx.lo[1] * s1 + bx.lo[2];
    for (uint32_t t = threadIdx.x; t < N; t += blockDim.x) {
        const uint32_t zl = t / E, lt = t - zl * E;
        const uint64_t gi = base0 + zl * s0 + (uint64_t)(lt / ex) * s1 + lt % ex;
        if (OP == OP_ENCODE) {
            const T xv = x[gi];
            X[t] = xv;
            F[t] = is_fill(g, xv);
        } else {
            const uint16_t sy = in.sym[gi];
            SY[t] = sy;
            F[t] = sy == GLIDE_SYM_FILL;
        }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        uint32_t c = 0;
        for (uint32_t p = 0; p < NP; p++) {
            cum[p] = c;
            c += ph[p].ny * ph[p].nx;
        }
        cum[NP] = c; /* = E: the phases split the slice */
    }
    __syncthreads();
    for (uint32_t u = threadIdx.x; u < E; u += blockDim.x) {
        uint32_t p = 0;
        while (u >= cum[p + 1]) p++;
        const SlicePhase &Q = ph[p];
        const uint32_t v = u - cum[p], ly = Q.y0 + v / Q.nx * Q.ys, lx = Q.x0 + v % Q.nx * Q.xs;
        TYX[u] = ly << 16 | lx;
        TP[u] = (uint8_t)p;
    }
    __syncthreads();
    const T subst = Bits<T>::from((typename Bits<T>::U)lv->subst_bits);
    const double eb = lv->eb_abs;
    const T e2 = (T)(2.0 * eb);
    const bool fa = g.has_fill != 0;
    for (uint32_t k = 0; k + 1 < NP + nz; k++) {
        for (uint32_t u = threadIdx.x; u < E; u += NT) {
            const uint32_t p = TP[u], z = k - p; /* k < p wraps above nz */
            if (z >= nz) continue;
            const SlicePhase &Q = ph[p];
            const uint32_t yx = TYX[u], ly = yx >> 16, lx = yx & 0xffffu, lt = ly * ex + lx, pt = z * E + lt;
            const uint64_t i = base0 + z * s0 + (uint64_t)ly * s1 + lx;
            const bool owned = ly < own[1] && lx < own[2], first = z == 0;
            if (Q.d == 0) { /* the slice's 2-D anchors */
                P[pt] = (T)0;
                if (first) {
                    T v;
                    if (OP == OP_ENCODE) v = X[pt];
                    else v = load_le<T>(in.anchors + anchor_index(g, bx.lo[0], bx.lo[1] + ly, bx.lo[2] + lx) * sizeof(T));
                    const bool fill = is_fill(g, v), fin = isfinite(v);
                    const unsigned want = fill ? GLIDE_SYM_FILL : !fin ? GLIDE_SYM_OUTLIER : GLIDE_SYM_ZERO;
                    if (OP == OP_ENCODE) {
                        R[pt] = (fill || !fin) ? subst : v;
                        if (owned) {
                            if (sym) sym[i] = (uint16_t)want;
                            hist_add(hist, want);
                        }
                    } else {
                        R[pt] = anchor_r(in, i, want, v, subst);
                        if (owned) {
                            if (SY[pt] != want) *in.err = GG_ERR_CORRUPT;
                            y[i] = want == GLIDE_SYM_OUTLIER ? outlier_at(in, i, subst) : v;
                        }
                    }
                } else {
                    const T pa = F[pt - E] ? subst : R[pt - E];
                    slice_point<T, OP>(g, OP == OP_ENCODE ? X[pt] : (T)0, OP == OP_ENCODE ? 0u : SY[pt], i, owned, pa,
                                       e2, eb, subst, &R[pt], sym, hist, in, y);
                }
                continue;
            }
            T pr = (T)0;
            if (F[pt]) {
                P[pt] = (T)0;
            } else {
                const uint32_t c = Q.d == 1 ? ly : lx, s = Q.s;
                const int o1 = (int)((Q.d == 1 ? ex : 1u) * s);
                const uint32_t hi = (Q.d == 1 ? ey : ex) - 1;
                const T *rp = R + pt;
                const T p2 = fa ? ipredict_fa(rp, o1, c, s, 0u, hi, GLIDE_SPLINE_CUBIC_NAK, subst,
                                              [&](int off) { return F[(int)pt + off] != 0; })
                                : ipredict(rp, o1, c, s, 0u, hi, GLIDE_SPLINE_CUBIC_NAK);
                P[pt] = p2;
                pr = !first && !F[pt - E] ? p2 + (R[pt - E] - P[pt - E]) : p2;
            }
            slice_point<T, OP>(g, OP == OP_ENCODE ? X[pt] : (T)0, OP == OP_ENCODE ? 0u : SY[pt], i, owned, pr, e2, eb,
                               subst, &R[pt], sym, hist, in, y);
        }
        __syncthreads();
    }
    if (OP == OP_ENCODE)
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x)
            if (hist[t]) atomicAdd((unsigned long long *)&st->hist[t], (unsigned long long)hist[t]);
    if (OP == OP_ENCODE && h0) /* the chunk's own slices, not the trial's (predict_point.cuh box_hist0) */
        box_hist0(sym, base0, s0, s1, nz, own[1], own[2], hist, h0, st);
}

/* order -1 (the chunk's commit after the block trial's pick) runs on a
 * grid of commit_grid's size, a block taking every grid-th box, as
 * lorenzo_k's gate does; nbox: the boxes */
template <class T, int OP, int NT>
__global__ void __launch_bounds__(NT)
    slice_wf_k(gg_grid g, const gg_levels *lv, const T *x, uint16_t *sym, gg_state *st, DecodeIn in, T *y, int order,
               unsigned nbox, unsigned long long *h0)
{
    pdl_wait(); /* the chunk's commit (order -1): after the pick (GG_PDL_TAIL) */
    if (order == -1) pdl_trigger();
    if (!slice_order(order, st)) return;
    for (unsigned bi = blockIdx.x; bi < nbox; bi += gridDim.x) {
        slice_wf_box<T, OP, NT>(g, lv, x, sym, st, in, y, order, bi, h0);
        __syncthreads(); /* the next box reuses shared memory */
    }
}

#endif
