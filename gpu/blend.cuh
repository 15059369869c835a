/* Blended levels (format 4, docs/FORMAT.md §8.4): the per-point stencils
 * of cpu/blend_tmpl.h, for the device (gpu/blend_level.cuh, blend_cost.cu) and the host
 * (h5tests/gpu/test_blend_host.cu holds them to the CPU's point by point).
 * A point of a blended level is odd on k of the effective axes (a1 < a2 <
 * a3); per odd axis a BRd says which neighbours the 1-D operator reads.
 * Values come through accessors taking an element offset from the point,
 * so one code serves shared memory (int offsets), global memory (long
 * long) and the open loop on the original values. Same operations in the
 * same order as the CPU (compiled with --fmad=false). */
#ifndef GLIDE_BLEND_CUH
#define GLIDE_BLEND_CUH
#include <math.h>
#include "format.h"

#define GG_HD __host__ __device__ __forceinline__

/* The reads of I_a^t at a point (glide_reads): c - s always, then these;
 * o the element offset of s along a. */
template <class O> struct BRd {
    O o;
    bool hc, ha, hd;
};

template <class O, class I> GG_HD BRd<O> brd_make(O o, I c, I s, I lo, I hi, unsigned t)
{
    const bool cub = t != GLIDE_SPLINE_LINEAR;
    return BRd<O>{o, c + s <= hi, cub && c >= lo + 3 * s, cub && c + 3 * s <= hi};
}

/* cpu/interp_tmpl.h interp_form over a getter: get(m) is the value at
 * offset m * s, m = -3, -1, 1, 3 (a constant at every call). */
template <class T, class G>
GG_HD T bform(G get, bool hb, bool hc, bool ha, bool hd, unsigned spline, T subst)
{
    if (hb && hc) {
        const T b = get(-1), cc = get(1);
        if (ha && hd) {
            const T a = get(-3), d = get(3);
            if (spline == GLIDE_SPLINE_CUBIC_NAK) return ((b + cc) * (T)9 - (a + d)) * (T)0.0625;
            return ((b + cc) * (T)23 - (a + d) * (T)3) * (T)(1.0 / 40.0);
        }
        if (ha) return (b * (T)6 + cc * (T)3 - get(-3)) * (T)0.125;
        if (hd) return (cc * (T)6 + b * (T)3 - get(3)) * (T)0.125;
        return (b + cc) * (T)0.5;
    }
    if (hb) return ha ? get(-1) * (T)1.5 - get(-3) * (T)0.5 : get(-1);
    if (hc) return hd ? get(1) * (T)1.5 - get(3) * (T)0.5 : get(1);
    return subst;
}

/* I_a^t(v) (bl_op): the plain form; at(off) reads v at an element offset
 * from the point. t is the spline R was made for. */
template <class T, class O, class A> GG_HD T bop(A at, const BRd<O> &R, unsigned t)
{
    return bform<T>([&](int m) { return at((O)m * R.o); }, true, R.hc, R.ha, R.hd, t, (T)0);
}

/* the same on gathered values: loc[(m + 3) / 2] holds the value at m * s (bl_op_loc) */
template <class T, class O> GG_HD T bop_loc(const T loc[4], const BRd<O> &R, unsigned t)
{
    return bform<T>([&](int m) { return loc[(m + 3) >> 1]; }, true, R.hc, R.ha, R.hd, t, (T)0);
}

/* loc[(m + 3) / 2] = f(m * s) at the reads of R (GLIDE_BL_GATHER) */
template <class T, class O, class F> GG_HD void bgather(T loc[4], const BRd<O> &R, F f)
{
    loc[1] = f(-R.o);
    if (R.hc) loc[2] = f(R.o);
    if (R.ha) loc[0] = f(-3 * R.o);
    if (R.hd) loc[3] = f(3 * R.o);
}

/* bl_loc_nan: a NaN among the gathered values R reads */
template <class T, class O> GG_HD bool bloc_nan(const T loc[4], const BRd<O> &R)
{
    return isnan(loc[1]) || (R.hc && isnan(loc[2])) || (R.ha && isnan(loc[0])) || (R.hd && isnan(loc[3]));
}

/* bl_reads_fill: a read of R at offset q is a fill point (isf(off)) */
template <class O, class F> GG_HD bool breads_fill(F isf, O q, const BRd<O> &R)
{
    return isf(q - R.o) || (R.hc && isf(q + R.o)) || (R.ha && isf(q - 3 * R.o)) || (R.hd && isf(q + 3 * R.o));
}

/* bl_d_fill (phase 3): a read Q of I_a2^rs (Rr2), or a read of I_a3^sp
 * (Rs3) at Q, is a fill point */
template <class O, class F>
GG_HD bool bd_fill(F isf, const BRd<O> &Rr2, const BRd<O> &Rs3)
{
    auto q = [&](O j) { return isf(j) || breads_fill(isf, j, Rs3); };
    return q(-Rr2.o) || (Rr2.hc && q(Rr2.o)) || (Rr2.ha && q(-3 * Rr2.o)) || (Rr2.hd && q(3 * Rr2.o));
}

/* bl_1d: the level's 1-D stencil (format 3's where fa) at offset q along
 * the axis of Rs (made for the spline sp), from the values at(off) */
template <class T, class O, class A, class F>
GG_HD T b1d(A at, F isf, O q, const BRd<O> &Rs, unsigned sp, bool fa, T subst)
{
    auto get = [&](int m) { return at(q + (O)m * Rs.o); };
    if (!fa) return bform<T>(get, true, Rs.hc, Rs.ha, Rs.hd, sp, (T)0);
    const bool hb = !isf(q - Rs.o), hc = Rs.hc && !isf(q + Rs.o), ha = Rs.ha && !isf(q - 3 * Rs.o),
               hd = Rs.hd && !isf(q + 3 * Rs.o);
    return bform<T>(get, hb, hc, ha, hd, sp, subst);
}

/* bl_predict (closed loop: encode, decode): P's prediction from the
 * reconstruction R(off) and the level's residuals W(off), isf(off) its
 * fill test (symbols); Rs/Rr the reads per odd axis for sp and rs.
 * bl = false where it fell back; pl the term along the last odd axis,
 * I_aL^sp(r) (the whole prediction where it fell back).
 *
 * Phase 3's D(Q) = r(Q) - I_a3^sp(r, Q) is read from W: its Q are the
 * phase 2 points odd on axes 0 and 2, whose w no point reads (phase 3
 * reads w of those odd on 1 and 2), so their slot keeps r - pl (keep_d in
 * the level loops), as cpu/blend_tmpl.h does: the same value wherever P
 * blends (Q blended, or fell back to the plain stencil along a3: with a
 * fill read there P falls back too). */
template <class T, class O, class RA, class WA, class F>
GG_HD T bl_closed(unsigned k, const BRd<O> Rs[3], const BRd<O> Rr[3], unsigned sp, unsigned rs, bool fa, T subst, RA R,
                  WA W, F isf, bool &bl, T &pl)
{
    bl = true;
    if (k == 1) return pl = b1d<T>(R, isf, (O)0, Rs[0], sp, fa, subst);
    const BRd<O> RL = k == 2 ? Rs[1] : Rs[2];
    bool ok = !(fa && breads_fill(isf, (O)0, RL));
    T wl[4] = {(T)0, (T)0, (T)0, (T)0};
    if (ok) {
        bgather(wl, Rr[0], W);
        ok = !bloc_nan(wl, Rr[0]);
    }
    if (ok && k == 2) return (pl = bop<T>(R, Rs[1], sp)) + bop_loc(wl, Rr[0], rs);
    if (ok && !(fa && bd_fill(isf, Rr[1], Rs[2]))) {
        T dl[4] = {(T)0, (T)0, (T)0, (T)0};
        bgather(dl, Rr[1], W); /* D, kept in w */
        return (bop<T>(R, Rs[2], sp) + bop_loc(dl, Rr[1], rs)) + bop_loc(wl, Rr[0], rs);
    }
    bl = false;
    return pl = b1d<T>(R, isf, (O)0, RL, sp, fa, subst);
}

/* bl_open (tuning, the predictor choice): the same from the original
 * values X(off) alone, each residual wx(Q) = x(Q) - pb(Q) evaluated on the
 * spot (NaN where Q is fill, only if fa, or fell back); phase by phase
 * without recursion: open2 at offset q is the phase 2 point odd on the
 * axes of Rr1 (its a1, residual reads) and Rs2 (its a2), its phase 1
 * neighbours odd on Rs2's. */
template <class T, class O, class XA, class F>
GG_HD T bl_open2(XA X, F isf, O q, const BRd<O> &Rs2, const BRd<O> &Rr1,
                                      unsigned sp, unsigned rs, bool fa, T subst, bool &bl)
{
    bl = true;
    bool ok = !(fa && breads_fill(isf, q, Rs2));
    T wl[4] = {(T)0, (T)0, (T)0, (T)0};
    if (ok) {
        bgather(wl, Rr1, [&](O j) {
            const O u = q + j;
            return fa && isf(u) ? (T)NAN : X(u) - b1d<T>(X, isf, u, Rs2, sp, fa, subst);
        });
        ok = !bloc_nan(wl, Rr1);
    }
    if (ok) return bop<T>([&](O m) { return X(q + m); }, Rs2, sp) + bop_loc(wl, Rr1, rs);
    bl = false;
    return b1d<T>(X, isf, q, Rs2, sp, fa, subst);
}

template <class T, class O, class XA, class F>
GG_HD T bl_open(unsigned k, const BRd<O> Rs[3], const BRd<O> Rr[3], unsigned sp, unsigned rs,
                                     bool fa, T subst, XA X, F isf)
{
    bool bl;
    if (k == 1) return b1d<T>(X, isf, (O)0, Rs[0], sp, fa, subst);
    if (k == 2) return bl_open2<T>(X, isf, (O)0, Rs[1], Rr[0], sp, rs, fa, subst, bl);
    bool ok = !(fa && (breads_fill(isf, (O)0, Rs[2]) || bd_fill(isf, Rr[1], Rs[2])));
    T wl[4] = {(T)0, (T)0, (T)0, (T)0};
    if (ok) {
        bgather(wl, Rr[0], [&](O j) {
            if (fa && isf(j)) return (T)NAN;
            bool b2;
            const T p = bl_open2<T>(X, isf, j, Rs[2], Rr[1], sp, rs, fa, subst, b2);
            return b2 ? X(j) - p : (T)NAN;
        });
        ok = !bloc_nan(wl, Rr[0]);
    }
    if (ok) {
        T dl[4] = {(T)0, (T)0, (T)0, (T)0};
        bgather(dl, Rr[1], [&](O j) { return X(j) - bop<T>([&](O m) { return X(j + m); }, Rs[2], sp); });
        return (bop<T>(X, Rs[2], sp) + bop_loc(dl, Rr[1], rs)) + bop_loc(wl, Rr[0], rs);
    }
    return b1d<T>(X, isf, (O)0, Rs[2], sp, fa, subst);
}

#endif
