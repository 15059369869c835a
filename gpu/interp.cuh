/* Interpolation (docs/FORMAT.md §8), the kernels and their launcher:
 * interp_sh_k with the block's closed box in shared memory (whole, or
 * split into a coarse kernel on the even lattice and a fine kernel for the
 * finest level), interp_k with global scratch for larger boxes. Included
 * by interp_encode.cu and interp_decode.cu, each of which instantiates one
 * direction (they compile in parallel). */
#ifndef GLIDE_INTERP_CUH
#define GLIDE_INTERP_CUH
#include "predict_launch.cuh"
#include "blend_level.cuh"

/* A split interpolation (large chunks): the levels of stride 2 and up run
 * on the even lattice alone (every coordinate even: the points they
 * predict and read), a box of it a block, in a kernel of its own
 * (PART_COARSE, g: the lattice's grid, half_grid) that writes their
 * reconstructions and symbols to compact arrays in the lattice's order
 * (rc, sc); then the finest level (PART_FINE, g: the chunk's) takes those
 * into its box in place of the values. One box's chain of barrier-separated
 * phases was a dozen long, and the coarse phases' few points left most of
 * a 256-thread block waiting; the coarse kernel's blocks are small and
 * many. Same operations on the same values: the same bytes. */
enum { PART_ALL = 0, PART_COARSE = 1, PART_FINE = 2, PART_COARSE_M = 3 };
struct GSplit {
    void *rc;     /* reconstructions of the even lattice (T) */
    uint16_t *sc; /* and their symbols (encoding) */
    /* Not the split's: format 5's plane 0 histogram (gg_state.hist_pl[0])
     * where the encoder reads the planes in place, else null. PART_ALL then
     * counts plane 0 (every coordinate even) apart and sets hist0_made, so
     * that hist0_k, which reads a quarter of the rows again after the
     * kernel, returns at once. A split interpolation's coarse kernel counts
     * it as it stores the lattice's symbols (its points are plane 0's);
     * counted by the fine kernel, or from the lattice beside it, it had
     * cost more than hist0_k. */
    unsigned long long *h0;
};

/* interp_sh_k's store of 16^3 owned points (rows of kRowLen) with a block of kRowThreads */
constexpr unsigned kRowLen = 16, kRowThreads = kRowLen * kRowLen;

/* The 16^3 owned points of a box to dst (g0: the box corner's element,
 * st0/st1 the chunk's strides, rs0/rs1 the box's), val(lt, gi) giving the
 * element of box point lt, chunk point gi. A row of 16 is 16 * sizeof(E)
 * bytes, sizeof(E) pieces of 16: adjacent threads take a row's adjacent
 * pieces, so a warp's store covers whole rows (16-byte stores where vec:
 * every row starts at a multiple of 8 elements; dst 16-byte aligned). With
 * a thread a row, each 16-byte store of a warp spread over 32 rows, and
 * the coarse encoder went 40.8 -> 45.6 us (ncu, H200, 256^3). Every thread
 * takes sizeof(E) pieces: whole warps run each step (val may use warp
 * intrinsics). */
template <class E, class F>
__device__ __forceinline__ void row_pass(E *dst, uint64_t g0, uint32_t st0, uint32_t st1, uint32_t rs0, uint32_t rs1,
                                         bool vec, F val)
{
    constexpr unsigned P = 16 / sizeof(E), C = kRowLen / P; /* elements a piece, pieces a row */
    vec = vec && ((uintptr_t)dst & 15u) == 0;
#pragma unroll 1
    for (unsigned task = threadIdx.x; task < kRowThreads * C; task += kRowThreads) {
        const uint32_t row = task / C, c = task % C, lz = row / kRowLen, ly = row % kRowLen;
        const uint32_t lt = lz * rs0 + ly * rs1 + c * P;
        const uint64_t gi = g0 + (uint64_t)(lz * st0 + ly * st1 + c * P);
        E v[P];
#pragma unroll
        for (unsigned j = 0; j < P; j++) v[j] = val(lt + j, gi + j);
        if (vec) {
            uint4 w;
            memcpy(&w, v, 16);
            *reinterpret_cast<uint4 *>(dst + gi) = w;
        } else {
#pragma unroll
            for (unsigned j = 0; j < P; j++) dst[gi + j] = v[j];
        }
    }
}

/* Interpolation with the whole closed box in shared memory: values
 * (encode: the input, overwritten in place by the reconstruction, since a
 * point is read as input only before its own step) and symbols. Global
 * memory is touched only by coalesced row-order passes. BL: the chunk has
 * blended levels (format 4): the level residuals w beside the values (E
 * more elements), fill-awareness from lv (both kinds in one instance; FA
 * unused). PART: all levels, or one part of a split (GSplit). */
/* resident blocks an SM may hold: 32 on sm_80 and sm_90, 24 on sm_89, 16 on
 * sm_75 and sm_86 (a launch bound above it is ignored, with a warning) */
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 800 || __CUDA_ARCH__ >= 900)
#define GG_SM_BLOCKS 32
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 890
#define GG_SM_BLOCKS 24
#else
#define GG_SM_BLOCKS 16
#endif
/* 256-thread instances at four blocks an SM: the row store took the
 * non-blended encoders to 66 registers (three blocks) */
template <class T, int OP, int NT, bool FA, bool BL, int PART = PART_ALL>
__global__ void __launch_bounds__(NT, !BL && PART != PART_COARSE_M && NT != kRowThreads ? 1
                                  : 1024 / NT < GG_SM_BLOCKS ? 1024 / NT
                                                             : GG_SM_BLOCKS)
    interp_sh_k(gg_grid g, const gg_levels *lv, const T *x, uint16_t *sym, gg_state *st, DecodeIn in, T *y, bool gate,
                GSplit sp)
{
    /* PART_COARSE_M: the coarse part, a block for 2 x 2 x 2 of the lattice's boxes */
    constexpr bool coarse = PART == PART_COARSE || PART == PART_COARSE_M, MG = PART == PART_COARSE_M;
    /* the fine kernel (launched with PDL where L->pdl says so) loads
     * its box as the coarse kernel's blocks leave and waits before it
     * reads their lattice; what it reads before was written before the
     * coarse kernel began */
    constexpr bool pdl_fine = PART == PART_FINE;
    /* decoding has nothing beside the coarse kernel: the fine one's blocks
     * may load from its start (encoding: after the levels, below) */
    if (coarse && OP == OP_DECODE) pdl_trigger();
    /* the coarse kernel (encoding) by PDL (GG_PDL_COARSE): every read after this */
    if (coarse) pdl_wait();
    if (gate && (st->lorenzo || st->slice)) { /* GG_CHOSEN: Lorenzo was */
        if (pdl_fine) pdl_wait();
        return;
    }
    /* launch_predict: the other one's chunk */
    if (OP == OP_ENCODE && (BL != (lv->blended != 0) || FA != (lv->fill_aware != 0))) {
        if (pdl_fine) pdl_wait();
        return;
    }
    constexpr unsigned loff = coarse ? 1u : 0u;
    extern __shared__ __align__(16) unsigned char smem[];
    /* the coarse kernel's: plane 0's alone (GSplit.h0), its points being the lattice's */
    constexpr bool hists = OP == OP_ENCODE;
    __shared__ unsigned hist[hists ? GLIDE_NSYM : 1];
    Box bx;
    if (MG) merged_box(g, blockIdx.x, bx);
    else block_box(g, blockIdx.x, bx);
    uint32_t own[3];
    if (!box_own(g, blockIdx.x, bx, 0, own, MG ? 2u << g.blog : 0u)) {
        if (pdl_fine) pdl_wait();
        return;
    }
    const uint64_t B = 1ull << g.blog;
    uint32_t e[3];
    const uint32_t E = box_ext(bx, e);
    /* the points this block owns: [0, o) of its box on each axis */
    uint32_t o[3];
    for (int a = 0; a < 3; a++) o[a] = e[a] < own[a] ? e[a] : own[a];
    /* plane 0 counted apart (GSplit.h0): box corners are multiples of B,
     * so a point's parity in the box is its parity in the chunk */
    const bool h0 = OP == OP_ENCODE && (PART == PART_ALL || coarse) && sp.h0 != nullptr;
    T *r = (T *)smem;
    T *w = BL ? (T *)(smem + (size_t)E * sizeof(T)) : nullptr;
    uint16_t *sb = (uint16_t *)(smem + (size_t)E * sizeof(T) * (BL ? 2 : 1));
    const long long rs[3] = {(long long)e[1] * e[2], (long long)e[2], 1};
    const T subst = Bits<T>::from((typename Bits<T>::U)lv->subst_bits);
    const double eb = lv->eb_abs;

    /* element index of a box point: the box's corner, then the offset in
     * 32 bits where the chunk's count fits (the offset is below it), which
     * the load and store passes (one per point) take at 256^3 */
    const uint64_t g0 = bx.lo[0] * g.st[0] + bx.lo[1] * g.st[1] + bx.lo[2];
    const bool s32 = g.count <= (1ull << 32);
    const uint32_t st0 = (uint32_t)g.st[0], st1 = (uint32_t)g.st[1];
    auto gidx = [&](uint32_t lz, uint32_t ly, uint32_t lx) {
        return g0 + (s32 ? (uint64_t)(lz * st0 + ly * st1 + lx) : lz * g.st[0] + ly * g.st[1] + lx);
    };
    /* the coarse kernel's box is the chunk's points at twice its
     * coordinates (in.fst: the chunk's strides, set for both operations),
     * whose offsets from its corner fit 32 bits while the lattice has at
     * most 2^28 points (the chunk at most about 2^31) */
    const uint64_t g0f = 2 * (bx.lo[0] * in.fst0 + bx.lo[1] * in.fst1 + bx.lo[2]);
    const bool f32 = coarse ? g.count <= (1ull << 28) : s32;
    const uint64_t gb = coarse ? g0f : g0;
    const uint32_t fs0 = coarse ? 2 * (uint32_t)in.fst0 : st0, fs1 = coarse ? 2 * (uint32_t)in.fst1 : st1,
                   fs2 = coarse ? 2u : 1u;
    if constexpr (OP == OP_DECODE) {
        /* the decoder keeps the division per point: with the carried
         * coordinates and the row store its fine kernel spilled (28 bytes
         * against 16) and ran slower (187.2 -> 194.7 us, ncu, H200, 256^3) */
        const Walk W = walk_make(e[1], e[2], E);
        auto gi_of = [&](uint32_t t) {
            uint32_t lx, ly, lz;
            walk_point(W, t, lz, ly, lx);
            if (coarse) return g0f + 2 * (lz * in.fst0 + ly * in.fst1 + lx);
            return gidx(lz, ly, lx);
        };
        box_gather(sb, E, NT, [&](uint32_t t) { return in.sym[gi_of(t)]; });
    } else if (f32) {
        box_gather_rows(r, E, e[1], e[2], NT,
                        [&](uint32_t z, uint32_t yy, uint32_t xx) { return x[gb + (z * fs0 + yy * fs1 + xx * fs2)]; });
    } else {
        const uint64_t f0 = coarse ? 2 * in.fst0 : g.st[0], f1 = coarse ? 2 * in.fst1 : g.st[1];
        box_gather_rows(r, E, e[1], e[2], NT,
                        [&](uint32_t z, uint32_t yy, uint32_t xx) { return x[gb + z * f0 + yy * f1 + xx * fs2]; });
    }
    if (hists)
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += NT) hist[t] = 0;
    __syncthreads();
    if (PART == PART_FINE) {
        pdl_wait();
        /* the even lattice's points as the coarse kernel left them */
        const T *rc = (const T *)sp.rc;
        uint32_t h[3];
        for (int a = 0; a < 3; a++) h[a] = (e[a] + 1) / 2;
        const uint64_t hs1 = (g.n[2] + 1) / 2, hs0 = ((g.n[1] + 1) / 2) * hs1;
        const uint64_t hg0 = bx.lo[0] / 2 * hs0 + bx.lo[1] / 2 * hs1 + bx.lo[2] / 2;
        const uint32_t H = h[0] * h[1] * h[2];
        if constexpr (OP == OP_DECODE) {
            const Walk Wh = walk_make(h[1], h[2], H);
            for (uint32_t t = threadIdx.x; t < H; t += NT) {
                uint32_t hx, hy, hz;
                walk_point(Wh, t, hz, hy, hx);
                const uint32_t lt = 2 * (hz * (uint32_t)rs[0] + hy * (uint32_t)rs[1] + hx);
                r[lt] = rc[hg0 + hz * hs0 + hy * hs1 + hx];
            }
        } else {
            /* coordinates carried, every load of a thread before its stores (box_gather_rows) */
            Stepper sh = stepper_make(h[1], h[2], threadIdx.x, NT);
            for (uint32_t t0 = threadIdx.x; t0 < H; t0 += NT * kGatherU) {
                T v[kGatherU];
                uint16_t q[kGatherU];
                uint32_t lt[kGatherU];
#pragma unroll
                for (unsigned u = 0; u < kGatherU; u++) {
                    if (t0 + u * NT < H) {
                        const uint64_t hi = hg0 + (s32 ? (uint64_t)(sh.z * (uint32_t)hs0 + sh.y * (uint32_t)hs1 + sh.x)
                                                       : sh.z * hs0 + sh.y * hs1 + sh.x);
                        lt[u] = 2 * (sh.z * (uint32_t)rs[0] + sh.y * (uint32_t)rs[1] + sh.x);
                        v[u] = rc[hi];
                        q[u] = sp.sc[hi];
                    }
                    stepper_next(sh);
                }
#pragma unroll
                for (unsigned u = 0; u < kGatherU; u++) {
                    if (t0 + u * NT >= H) continue;
                    r[lt[u]] = v[u];
                    sb[lt[u]] = q[u];
                }
            }
        }
        __syncthreads();
    }

    /* anchors of the closed box: lo and, where the box is full, lo + B */
    if (PART != PART_FINE) {
        uint32_t ca[3];
        for (int a = 0; a < 3; a++) ca[a] = (uint32_t)((bx.hi[a] - bx.lo[a]) / B + 1);
        uint32_t na = ca[0] * ca[1] * ca[2];
        for (uint32_t t = threadIdx.x; t < na; t += NT) {
            uint32_t u = t, l[3];
            l[2] = (u % ca[2]) * (uint32_t)B;
            u /= ca[2];
            l[1] = (u % ca[1]) * (uint32_t)B;
            l[0] = (u / ca[1]) * (uint32_t)B;
            long long lt = l[0] * rs[0] + l[1] * rs[1] + l[2];
            T v;
            if (OP == OP_ENCODE) v = r[lt];
            else {
                uint64_t k = anchor_index(g, bx.lo[0] + l[0], bx.lo[1] + l[1], bx.lo[2] + l[2]);
                v = load_le<T>(in.anchors + k * sizeof(T));
            }
            bool fill = is_fill(g, v), fin = isfinite(v);
            unsigned want = fill ? GLIDE_SYM_FILL : !fin ? GLIDE_SYM_OUTLIER : GLIDE_SYM_ZERO;
            if (OP == OP_ENCODE) {
                r[lt] = (fill || !fin) ? subst : v;
                sb[lt] = (uint16_t)want;
            } else {
                if (sb[lt] != want) *in.err = GG_ERR_CORRUPT;
                uint64_t gi = (bx.lo[0] + l[0]) * g.st[0] + (bx.lo[1] + l[1]) * g.st[1] + bx.lo[2] + l[2];
                r[lt] = anchor_r(in, gi, want, v, subst);
            }
        }
    }
    /* the first level's plan; each level makes the next one's (the other
     * buffer, last read before the previous level's final barrier) */
    const int ri[3] = {(int)rs[0], (int)rs[1], 1};
    __shared__ SPlan plan[2][GG_PLAN_MAX];
    const unsigned top = PART == PART_FINE ? 1u : g.blog;
    if (threadIdx.x < GG_PLAN_MAX) splan_make<NT, BL>(g, lv, e, ri, top, threadIdx.x, plan[top & 1][threadIdx.x], loff);
    __syncthreads();

    constexpr bool fa = FA;
    /* blend_level_full's box */
    const bool full =
        BL && !MG && g.eff_rank == 3 && g.blog == kFullBlog && e[0] == kFullE && e[1] == kFullE && e[2] == kFullE;
    for (unsigned l = top; l >= 1; l--) {
        if (l >= 2 && threadIdx.x < GG_PLAN_MAX)
            splan_make<NT, BL>(g, lv, e, ri, l - 1, threadIdx.x, plan[(l - 1) & 1][threadIdx.x], loff);
        const SPlan *pl = plan[l & 1];
        const uint32_t s = 1u << (l - 1);
        const unsigned cfg = lv->level_cfg[l - 1 + loff], spline = cfg & 3u;
        const T e2 = (T)(2.0 * lv->level_eb[l - 1 + loff]);
        if (BL && cfg_blended(g.eff_rank, cfg)) {
            blend_level_sh<T, OP, NT, FA, MG>(g, g0, ri, r, w, sb, in, l - 1, pl, cfg, e2, eb, subst, full,
                                              (uint32_t)B);
            continue;
        }
        for (unsigned j = 0; j < g.eff_rank; j++) {
            const LStep S = pl[j].S;
            const unsigned d = pl[j].ax[0];
            const int o1 = pl[j].o[0];
            const uint32_t ehi = pl[j].hi[0];
            for (uint32_t t = threadIdx.x; t < S.total; t += NT) {
                uint32_t lc[3];
                lstep_point(S, t, lc);
                const int lt = (int)(lc[0] * ri[0] + lc[1] * ri[1] + lc[2]);
                T *rp = r + lt;
                const uint32_t c = pick3(lc, d);
                uint32_t clo, chi;
                sub_bounds<MG>(c, ehi, (uint32_t)B, clo, chi);
                if (OP == OP_ENCODE) {
                    T xv = *rp, rv;
                    unsigned sy;
                    if (is_fill(g, xv)) {
                        sy = GLIDE_SYM_FILL;
                        rv = subst;
                    } else {
                        const uint16_t *sp = sb + lt;
                        T pred = fa ? ipredict_fa(rp, o1, c, s, clo, chi, spline, subst,
                                                  [&](int off) { return sp[off] == GLIDE_SYM_FILL; })
                                    : ipredict(rp, o1, c, s, clo, chi, spline);
                        int q = quantize(xv, pred, e2, eb, &rv);
                        if (q >= 0) sy = (unsigned)q;
                        else {
                            sy = GLIDE_SYM_OUTLIER;
                            rv = isfinite(xv) ? xv : subst;
                        }
                    }
                    *rp = rv;
                    sb[lt] = (uint16_t)sy;
                } else {
                    unsigned sy = sb[lt];
                    T rv;
                    if (sy < GLIDE_NQUANT) {
                        const uint16_t *sp = sb + lt;
                        const T pred = fa ? ipredict_fa(rp, o1, c, s, clo, chi, spline, subst,
                                                        [&](int off) { return sp[off] == GLIDE_SYM_FILL; })
                                          : ipredict(rp, o1, c, s, clo, chi, spline);
                        rv = pred + (T)((int)sy - GLIDE_SYM_ZERO) * e2;
                    } else if (sy == GLIDE_SYM_FILL) {
                        rv = subst;
                    } else {
                        T v = outlier_at(in, g0 + lc[0] * g.st[0] + lc[1] * g.st[1] + lc[2], subst);
                        rv = isfinite(v) ? v : subst;
                    }
                    *rp = rv;
                }
            }
            __syncthreads();
        }
    }

    /* the fine kernel's blocks take the places of the coarse kernel's as
     * they finish: triggered at the start, they held SMs the block trial's
     * kernels wanted (256^3 compression slower) */
    if (coarse && OP == OP_ENCODE) pdl_trigger();
    /* the points this block owns, in row order */
    constexpr bool rows = NT == kRowThreads && (coarse || OP == OP_ENCODE);
    if (rows && o[0] == kRowLen && o[1] == kRowLen && o[2] == kRowLen && s32) {
        /* 16^3 owned points (every box of an anchor stride 16 chunk whose
         * extents are multiples of 16): whole rows, 16 bytes a thread
         * (row_pass), for the point-by-point loop, which spent about 45
         * instructions a point (H200, 256^3) */
        const uint32_t r0 = (uint32_t)rs[0], r1 = (uint32_t)rs[1];
        const bool vec = ((g0 | st0 | st1) & 7u) == 0;
        if (coarse) {
            row_pass((T *)sp.rc, g0, st0, st1, r0, r1, vec, [&](uint32_t lt, uint64_t) { return r[lt]; });
            if (OP == OP_ENCODE)
                row_pass(sp.sc, g0, st0, st1, r0, r1, vec, [&](uint32_t lt, uint64_t) {
                    const uint16_t sy = sb[lt];
                    if (h0) hist_add(hist, sy);
                    return sy;
                });
        } else {
            row_pass(sym, g0, st0, st1, r0, r1, vec, [&](uint32_t lt, uint64_t) {
                const uint16_t sy = sb[lt];
                hist_add(hist, sy);
                return sy;
            });
        }
    } else {
        const uint32_t O = o[0] * o[1] * o[2];
        const Walk Wo = walk_make(o[1], o[2], O);
        for (uint32_t t = threadIdx.x; t < O; t += NT) {
            uint32_t lx, ly, lz;
            walk_point(Wo, t, lz, ly, lx);
            const uint32_t lt = lz * (uint32_t)rs[0] + ly * (uint32_t)rs[1] + lx;
            const uint64_t gi = gidx(lz, ly, lx);
            unsigned sy = sb[lt];
            if (coarse) {
                ((T *)sp.rc)[gi] = r[lt];
                if (OP == OP_ENCODE) sp.sc[gi] = (uint16_t)sy;
                if (h0) hist_add(hist, sy);
            } else if (OP == OP_ENCODE) {
                sym[gi] = (uint16_t)sy;
                hist_add(hist, sy);
            } else {
                T out;
                if (sy < GLIDE_NQUANT) out = r[lt];
                else if (sy == GLIDE_SYM_FILL) {
                    if (!g.has_fill) *in.err = GG_ERR_CORRUPT;
                    out = Bits<T>::from((typename Bits<T>::U)g.fill_bits);
                } else {
                    out = outlier_at(in, gi, subst);
                }
                y[gi] = out;
            }
        }
    }
    if (coarse && hists) { /* plane 0's points only */
        if (h0) {
            __syncthreads();
            for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += NT)
                if (hist[t]) atomicAdd(sp.h0 + t, (unsigned long long)hist[t]);
            if (threadIdx.x == 0) st->hist0_made = 1;
        }
    } else if (hists) {
        __syncthreads();
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += NT) {
            const unsigned c = hist[t];
            if (c) {
                atomicAdd((unsigned long long *)&st->hist[t], (unsigned long long)c);
                if (h0) hist[t] = 0;
            }
        }
        if (h0) { /* then the owned even points again, from the box */
            __syncthreads();
            const uint32_t hz = (o[0] + 1) / 2, hy = (o[1] + 1) / 2, hx = (o[2] + 1) / 2, HN = hz * hy * hx;
            const Walk Wh = walk_make(hy, hx, HN);
            for (uint32_t t = threadIdx.x; t < HN; t += NT) {
                uint32_t a, b, c;
                walk_point(Wh, t, a, b, c);
                hist_add(hist, sb[2 * (a * (uint32_t)rs[0] + b * (uint32_t)rs[1] + c)]);
            }
            __syncthreads();
            for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += NT)
                if (hist[t]) atomicAdd(sp.h0 + t, (unsigned long long)hist[t]);
            if (threadIdx.x == 0) st->hist0_made = 1;
        }
    }
}

/* One thread block per anchor block, interpolation (docs/FORMAT.md §8):
 * the general path, with the reconstruction in global scratch, for boxes
 * too large for shared memory (anchor strides above the defaults). */
template <class T, int OP, bool FA, bool BL>
__global__ void __launch_bounds__(GG_THREADS)
    interp_k(gg_grid g, const gg_levels *lv, const T *x, uint16_t *sym, gg_state *st, DecodeIn in, T *y, T *rglob,
             T *wglob, bool gate)
{
    if (gate && (st->lorenzo || st->slice)) return;
    if (OP == OP_ENCODE && (BL != (lv->blended != 0) || FA != (lv->fill_aware != 0))) return;
    __shared__ unsigned hist[OP == OP_ENCODE ? GLIDE_NSYM : 1];
    Box bx;
    block_box(g, blockIdx.x, bx);
    const uint64_t B = 1ull << g.blog;
    RView<T> rv;
    rv.base = rglob;
    for (int a = 0; a < 3; a++) rv.org[a] = 0;
    for (int a = 0; a < 3; a++) rv.rs[a] = (long long)g.st[a];
    if (OP == OP_ENCODE)
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x) hist[t] = 0;
    const T subst = Bits<T>::from((typename Bits<T>::U)lv->subst_bits);
    const double eb = lv->eb_abs;

    /* anchors of the closed box: lo and, where the box is full, lo + B */
    {
        uint32_t ca[3];
        for (int a = 0; a < 3; a++) ca[a] = (uint32_t)((bx.hi[a] - bx.lo[a]) / B + 1);
        uint32_t na = ca[0] * ca[1] * ca[2];
        if (OP == OP_ENCODE) __syncthreads(); /* hist zeroed */
        for (uint32_t t = threadIdx.x; t < na; t += blockDim.x) {
            uint64_t c[3];
            uint32_t u = t;
            c[2] = bx.lo[2] + (u % ca[2]) * B;
            u /= ca[2];
            c[1] = bx.lo[1] + (u % ca[1]) * B;
            c[0] = bx.lo[0] + (u / ca[1]) * B;
            uint64_t i = c[0] * g.st[0] + c[1] * g.st[1] + c[2];
            bool owned = c[0] < bx.lo[0] + B && c[1] < bx.lo[1] + B && c[2] < bx.lo[2] + B;
            T v;
            if (OP == OP_ENCODE) v = x[i];
            else {
                uint64_t k = anchor_index(g, c[0], c[1], c[2]);
                v = load_le<T>(in.anchors + k * sizeof(T));
            }
            bool fill = is_fill(g, v), fin = isfinite(v);
            unsigned want = fill ? GLIDE_SYM_FILL : !fin ? GLIDE_SYM_OUTLIER : GLIDE_SYM_ZERO;
            *rv.at(c) = OP == OP_ENCODE ? ((fill || !fin) ? subst : v) : anchor_r(in, i, want, v, subst);
            if (OP == OP_ENCODE) {
                if (owned) {
                    sym[i] = (uint16_t)want;
                    atomicAdd(&hist[want], 1u);
                }
            } else {
                if (in.sym[i] != want) *in.err = GG_ERR_CORRUPT;
                if (owned) {
                    y[i] = want == GLIDE_SYM_OUTLIER ? outlier_at(in, i, subst) : v;
                }
            }
        }
    }
    __syncthreads();

    constexpr bool fa = FA;
    for (unsigned l = g.blog; l >= 1; l--) {
        const uint64_t s = 1ull << (l - 1);
        const unsigned cfg = lv->level_cfg[l - 1], spline = cfg & 3u;
        const T e2 = (T)(2.0 * lv->level_eb[l - 1]);
        if (BL && cfg_blended(g.eff_rank, cfg)) {
            blend_level_glob<T, OP>(g, bx, x, sym, in, y, hist, rglob, wglob, s, cfg, e2, eb, subst, fa);
            continue;
        }
        const uint8_t *ax = c_axes[g.eff_rank - 1][cfg >> 2];
        for (unsigned j = 0; j < g.eff_rank; j++) {
            Step S;
            step_make(S, bx, s, ax, j);
            const unsigned d = ax[j];
            const long long o1 = (long long)s * pick3(rv.rs, d);
            for (uint32_t t = threadIdx.x; t < S.total; t += blockDim.x) {
                uint64_t c[3];
                step_point(S, t, c);
                uint64_t i = c[0] * g.st[0] + c[1] * g.st[1] + c[2];
                bool owned = c[0] < bx.lo[0] + B && c[1] < bx.lo[1] + B && c[2] < bx.lo[2] + B;
                T *rp = rv.at(c);
                T pred;
                if (OP == OP_DECODE && in.sym[i] >= GLIDE_NQUANT) pred = (T)0;
                else if (fa) /* the grid's strides here: offsets from rp are offsets from i */
                    pred = ipredict_fa(rp, o1, pick3(c, d), s, pick3(bx.lo, d), pick3(bx.hi, d), spline, subst,
                                       [&](long long off) {
                                           return OP == OP_ENCODE ? is_fill(g, x[(long long)i + off])
                                                                  : in.sym[(long long)i + off] == GLIDE_SYM_FILL;
                                       });
                else pred = ipredict(rp, o1, pick3(c, d), s, pick3(bx.lo, d), pick3(bx.hi, d), spline);
                visit<T, OP>(g, x, sym, in, y, hist, i, owned, pred, e2, eb, subst, rp);
            }
            __syncthreads();
        }
    }
    if (OP == OP_ENCODE)
        for (unsigned t = threadIdx.x; t < GLIDE_NSYM; t += blockDim.x)
            if (hist[t]) atomicAdd((unsigned long long *)&st->hist[t], (unsigned long long)hist[t]);
}

/* ------------------------------------------------------------ launchers */

/* One interp_sh_k instance, a block a box; PDL on the split's fine kernel
 * (GG_PDL_FINE) and the encoder's coarse kernel (GG_PDL_COARSE) where L
 * says so. (The instances a chunk leaves empty were also tried on the grid
 * the device holds, each block looping over boxes: the working instance
 * then ran slower, by more than the empty launches cost.) */
template <class T, int OP, int NT, bool FA, bool BL, int PART>
static cudaError_t launch_box(const gg_launch *L, const gg_grid &g, unsigned nbox, size_t sh, const gg_levels *lv,
                              const T *x, uint16_t *sym, gg_state *st, const DecodeIn &in, T *y, bool gate, GSplit sp,
                              cudaStream_t s)
{
    cudaError_t e = allow_shared((const void *)interp_sh_k<T, OP, NT, FA, BL, PART>, sh);
    if (e != cudaSuccess) return e;
    const bool pdl = PART == PART_FINE ? (L->pdl & GG_PDL_FINE) != 0
                     : (PART == PART_COARSE || PART == PART_COARSE_M) && OP == OP_ENCODE && (L->pdl & GG_PDL_COARSE);
    return pdl_launch(interp_sh_k<T, OP, NT, FA, BL, PART>, dim3(nbox), dim3(NT), sh, s, pdl, g, lv, x, sym, st, in, y,
                      gate, sp);
}

/* The interpolation kernels with format 3's stencils (FA) and without are
 * separate instances, since their registers differ (the fill tests cost
 * the plain kernel occupancy). */
template <class T, int OP, bool FA, bool BL>
cudaError_t launch_interp(const gg_launch *L, gg_grid g, unsigned nb, const gg_levels *lv, const T *x, uint16_t *sym,
                          gg_state *st, DecodeIn in, T *y, T *r, T *w, bool gate, int method, cudaStream_t s,
                          bool narrow, unsigned long long *h0)
{
    const size_t sh = box_bytes(g, BL ? BOX_BLEND : BOX_INTERP);
    if (!sh) {
        interp_k<T, OP, FA, BL><<<nb, GG_THREADS, 0, s>>>(g, lv, x, sym, st, in, y, r, w, gate);
        return cudaGetLastError();
    }
    GSplit sp = {};
    sp.h0 = h0;
    if (r && split_ok(L, g, method)) {
        const gg_grid h = half_grid(g);
        sp.rc = r;
        sp.sc = (uint16_t *)(r + h.count);
        DecodeIn hin = in; /* encoding too: the coarse kernel's loads take its fst */
        hin.half = 1;
        hin.hst0 = h.st[0];
        hin.hst1 = h.st[1];
        hin.fst0 = g.st[0];
        hin.fst1 = g.st[1];
        /* the coarse part: a block of GG_MERGE_THREADS for 2 x 2 x 2 lattice
         * boxes (where its box fits shared memory), else a warp a box */
        gg_grid hm = h;
        hm.blog++;
        const size_t msh = L->coarse_merge ? box_bytes(hm, BL ? BOX_BLEND : BOX_INTERP) : 0;
        cudaError_t e;
        if (msh) {
            const unsigned nbm = (unsigned)(((h.nb[0] + 1) / 2) * ((h.nb[1] + 1) / 2) * ((h.nb[2] + 1) / 2));
            e = launch_box<T, OP, GG_MERGE_THREADS, FA, BL, PART_COARSE_M>(L, h, nbm, msh, lv, x, sym, st, hin, y, gate,
                                                                             sp, s);
        } else {
            const size_t hsh = box_bytes(h, BL ? BOX_BLEND : BOX_INTERP);
            e = launch_box<T, OP, GG_SPLIT_THREADS, FA, BL, PART_COARSE>(L, h, nb, hsh, lv, x, sym, st, hin, y, gate,
                                                                          sp, s);
        }
        if (e != cudaSuccess) return e;
        return launch_box<T, OP, GG_THREADS, FA, BL, PART_FINE>(L, g, nb, sh, lv, x, sym, st, in, y, gate, sp, s);
    }
    /* A block walks its levels step by step, with a barrier after each:
     * chunks with few blocks (64^3 has 64) leave most of the device idle,
     * so their blocks get more threads per step. Two instantiations: the
     * launch bound sets the register budget, and the large one's would cost
     * the many-block case occupancy. */
    if (working_blocks(g, 0) < 512 && !narrow)
        return launch_box<T, OP, GG_THREADS_MAX, FA, BL, PART_ALL>(L, g, nb, sh, lv, x, sym, st, in, y, gate, sp, s);
    return launch_box<T, OP, GG_THREADS, FA, BL, PART_ALL>(L, g, nb, sh, lv, x, sym, st, in, y, gate, sp, s);
}

#define GG_INTERP_INST(T, OP, FA, BL)                                                                                  \
    template cudaError_t launch_interp<T, OP, FA, BL>(const gg_launch *, gg_grid, unsigned, const gg_levels *,        \
                                                      const T *, uint16_t *, gg_state *, DecodeIn, T *, T *, T *,      \
                                                      bool, int, cudaStream_t, bool, unsigned long long *);
/* one file's instances: encoding or decoding (interp_encode.cu, interp_decode.cu) */
#define GG_INTERP_INST_OP(OP)                                                                                          \
    GG_INTERP_INST(float, OP, false, false)                                                                            \
    GG_INTERP_INST(float, OP, false, true)                                                                             \
    GG_INTERP_INST(float, OP, true, false)                                                                             \
    GG_INTERP_INST(float, OP, true, true)                                                                              \
    GG_INTERP_INST(double, OP, false, false)                                                                           \
    GG_INTERP_INST(double, OP, false, true)                                                                            \
    GG_INTERP_INST(double, OP, true, false)                                                                            \
    GG_INTERP_INST(double, OP, true, true)

#endif
