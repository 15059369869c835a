/* The GPU's blended-level stencils (gpu/blend.cuh, format 4) against the
 * CPU reference (cpu/blend_tmpl.h), point by point, on the host: every
 * point of every blended level of random 2-D and 3-D grids (windows cut
 * short by the grid's end included), each spline and residual spline,
 * with and without fill-awareness; the open-loop prediction (tuning, the
 * predictor choice) on values with fill points and infinities, and the
 * closed-loop one (encode, decode) on reconstructions, residuals with NaNs
 * and symbols with FILLs. The prediction, the blend flag and the last
 * axis' term must agree bit for bit. Needs no GPU. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blend.cuh"
namespace cpu {
extern "C" {
#include "interp.c"
#include "interp_dec_f32.c"
#include "interp_dec_f64.c"
}
} // namespace cpu
using namespace cpu;

static uint64_t rng = 88172645463325252ull;
static uint64_t rnd() { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static double urand() { return (double)(rnd() >> 11) * 0x1p-53; }

template <class T> struct Cpu;
template <> struct Cpu<float> {
    static float open(const glide_grid *g, int fa, const float *x, size_t i, const glide_bpoint *P,
                      unsigned sp, unsigned rs, float subst, int *bl)
    {
        return bl_open_f32(g, fa, x, i, P, sp, rs, subst, bl);
    }
    static float closed(const glide_grid *g, int fa, const float *r, const float *w, const uint16_t *sym, size_t i,
                        const glide_bpoint *P, unsigned sp, unsigned rs, float subst, int *bl, float *pl)
    {
        return bl_predict_f32(g, fa, r, w, sym, i, P, sp, rs, subst, 1, bl, pl);
    }
};
template <> struct Cpu<double> {
    static double open(const glide_grid *g, int fa, const double *x, size_t i, const glide_bpoint *P,
                       unsigned sp, unsigned rs, double subst, int *bl)
    {
        return bl_open_f64(g, fa, x, i, P, sp, rs, subst, bl);
    }
    static double closed(const glide_grid *g, int fa, const double *r, const double *w, const uint16_t *sym, size_t i,
                         const glide_bpoint *P, unsigned sp, unsigned rs, double subst, int *bl, double *pl)
    {
        return bl_predict_f64(g, fa, r, w, sym, i, P, sp, rs, subst, 1, bl, pl);
    }
};

/* accessors: offsets from point i */
template <class T> struct At {
    const T *p;
    long long i;
    __host__ __device__ T operator()(long long off) const { return p[i + off]; }
};
template <class T> struct FillAt {
    const T *p;
    long long i;
    T fill;
    bool on;
    __host__ __device__ bool operator()(long long off) const
    {
        const T v = p[i + off];
        uint64_t a = 0, b = 0;
        memcpy(&a, &v, sizeof v);
        memcpy(&b, &fill, sizeof fill);
        return on && a == b;
    }
};
struct SymFill {
    const uint16_t *s;
    long long i;
    __host__ __device__ bool operator()(long long off) const { return s[i + off] == GLIDE_SYM_FILL; }
};

template <class T> static bool same(T a, T b) { return memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b); }

template <class T>
static long run_case(unsigned rank, unsigned blog, const uint64_t n[3], int fa, long *checked, long *blends)
{
    glide_grid g;
    memset(&g, 0, sizeof g);
    for (int a = 0; a < 3; a++) g.n[a] = n[a];
    g.st[2] = 1;
    g.st[1] = n[2];
    g.st[0] = n[1] * n[2];
    g.count = n[0] * n[1] * n[2];
    g.eff_rank = rank;
    g.blog = blog;
    g.slabs = 1;
    g.slab_rows = n[0];
    const T fillv = (T)-9999.0;
    uint64_t fb = 0;
    memcpy(&fb, &fillv, sizeof fillv);
    g.has_fill = fa;
    g.fill_bits = fa ? fb : 0;
    g.fill_aware = fa;
    const size_t N = g.count;
    T *x = new T[N], *r = new T[N], *w = new T[N];
    uint16_t *sym = new uint16_t[N];
    const double fx = urand() * 3, fy = urand() * 3, fz = urand() * 3;
    for (size_t i = 0; i < N; i++) {
        const size_t z = i / g.st[0], y = i / g.st[1] % n[1], xx = i % n[2];
        const double v = sin(fx * (double)z * 0.3) + cos(fy * (double)y * 0.2) * 2 + (double)xx * fz * 0.1 + 0.01 * urand();
        x[i] = (T)v;
        if (fa && urand() < 0.08) x[i] = fillv;
        if (urand() < 0.005) x[i] = (T)INFINITY;
        r[i] = (T)(v + 0.001 * urand());
        if (urand() < 0.003) r[i] = (T)-INFINITY;
        w[i] = (T)(0.01 * urand() - 0.005);
        if (urand() < 0.05) w[i] = (T)NAN;
        sym[i] = (fa && urand() < 0.08) ? (uint16_t)GLIDE_SYM_FILL : (uint16_t)(rnd() % 1024);
    }
    const T subst = (T)0.5;
    const uint64_t B = 1ull << blog;
    unsigned masks[7];
    const unsigned nsets = glide_blend_sets(rank, masks);
    long bad = 0;
    for (unsigned l = blog; l >= 1; l--) {
        const uint64_t s = 1ull << (l - 1);
        for (unsigned sp = 0; sp < GLIDE_NSPLINES; sp++)
            for (int lin = 0; lin < 2; lin++) {
                const unsigned rs = lin ? (unsigned)GLIDE_SPLINE_LINEAR : sp;
                for (unsigned m = 0; m < nsets; m++) {
                    const unsigned mask = masks[m];
                    const uint64_t lo0[3] = {0, 0, 0};
                    uint64_t start[3], step[3], c[3];
                    glide_set_lattice(lo0, s, mask, start, step);
                    for (c[0] = start[0]; c[0] < n[0]; c[0] += step[0])
                        for (c[1] = start[1]; c[1] < n[1]; c[1] += step[1])
                            for (c[2] = start[2]; c[2] < n[2]; c[2] += step[2]) {
                                const size_t i = c[0] * g.st[0] + c[1] * g.st[1] + c[2];
                                glide_bpoint P;
                                P.k = 0;
                                BRd<long long> Rs[3], Rr[3];
                                for (unsigned a = 0; a < 3; a++) {
                                    if (!(mask >> a & 1u)) continue;
                                    const unsigned j = P.k++;
                                    glide_bpoint_axis(&P, j, a, c[a], g.n, g.st, B, s, sp, rs);
                                    const long long o = (long long)(s * g.st[a]);
                                    Rs[j] = brd_make(o, c[a], s, P.lo[j], P.hi[j], sp);
                                    Rr[j] = brd_make(o, c[a], s, P.lo[j], P.hi[j], rs);
                                }
                                const unsigned k = P.k;
                                int cbl;
                                const T co = Cpu<T>::open(&g, fa, x, i, &P, sp, rs, subst, &cbl);
                                const T go = bl_open<T>(k, Rs, Rr, sp, rs, fa != 0, subst, At<T>{x, (long long)i},
                                                        FillAt<T>{x, (long long)i, fillv, fa != 0});
                                (*checked)++;
                                if (!same(co, go)) {
                                    if (bad < 10)
                                        printf("open: k %u mask %u s %llu sp %u rs %u fa %d i %zu: cpu %.9g gpu %.9g\n", k,
                                               mask, (unsigned long long)s, sp, rs, fa, i, (double)co, (double)go);
                                    bad++;
                                }
                                T cpl = 0, gpl = 0;
                                const T cc = Cpu<T>::closed(&g, fa, r, w, sym, i, &P, sp, rs, subst, &cbl, &cpl);
                                bool gbl;
                                const T gc = bl_closed<T>(k, Rs, Rr, sp, rs, fa != 0, subst, At<T>{r, (long long)i},
                                                          At<T>{w, (long long)i}, SymFill{sym, (long long)i}, gbl, gpl);
                                (*checked)++;
                                *blends += cbl && k > 1;
                                /* pl counts where the level loops use it: blends of two axes, and fallbacks */
                                const bool pl_used = k < 3 || !cbl;
                                if (!same(cc, gc) || (int)gbl != cbl || (pl_used && !same(cpl, gpl))) {
                                    if (bad < 10)
                                        printf("closed: k %u mask %u s %llu sp %u rs %u fa %d i %zu: cpu %.9g/%d/%.9g gpu "
                                               "%.9g/%d/%.9g\n",
                                               k, mask, (unsigned long long)s, sp, rs, fa, i, (double)cc, cbl,
                                               (double)cpl, (double)gc, (int)gbl, (double)gpl);
                                    bad++;
                                }
                            }
                }
            }
    }
    delete[] x;
    delete[] r;
    delete[] w;
    delete[] sym;
    return bad;
}

int main()
{
    long bad = 0, checked = 0, blends = 0;
    for (int t = 0; t < 60; t++) {
        const unsigned rank = 2 + (t & 1), blog = 2 + (unsigned)(rnd() % 3);
        uint64_t n[3];
        n[0] = rank == 3 ? 2 + rnd() % 30 : 1;
        n[1] = 2 + rnd() % 40;
        n[2] = 2 + rnd() % 40;
        if (t % 7 == 0) { /* whole boxes */
            const uint64_t B = 1ull << blog;
            n[1] = 2 * B + 1;
            n[2] = 3 * B + 1;
            if (rank == 3) n[0] = B + 1;
        }
        for (int fa = 0; fa < 2; fa++) {
            bad += run_case<float>(rank, blog, n, fa, &checked, &blends);
            bad += run_case<double>(rank, blog, n, fa, &checked, &blends);
        }
    }
    printf("test_blend_host: %ld predictions (%ld closed-loop blends), %ld differ from the CPU's\n", checked, blends, bad);
    return bad != 0 || blends == 0;
}
