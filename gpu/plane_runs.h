/* Format 5's planes (docs/FORMAT.md §10.6) read where they lie in the
 * raster-order symbols, 32 at a time, instead of being copied out first.
 *
 * Where rows are whole groups of 64 points (n[2] % 64 == 0) and every slab
 * is whole, each plane cuts into runs of 32 of its symbols that lie in one
 * row: 32 consecutive points of a row that is all plane 1 (an odd row or
 * any row of an odd layer), or the even (plane 0) or odd (plane 1) points
 * of 64 consecutive points of an even row of an even layer. Run q of a
 * plane then follows from q by a few divisions, so the encoder reads its
 * segments (1024 symbols, 32 runs) straight from the raster order and the
 * split pass (a read and a write of every symbol) is not needed; only
 * plane 0's histogram is, from a quarter of the rows. */
#ifndef GLIDE_PLANE_RUNS_H
#define GLIDE_PLANE_RUNS_H
#include <stdint.h>

/* n / d for n < 2^31 as (umulhi(n, m) + n) >> s (the round-up method: m =
 * floor(2^32 (2^s - d) / d) + 1, s = ceil(log2 d)); the sum cannot wrap as
 * umulhi(n, m) < n < 2^31. */
typedef struct {
    uint32_t d, m, s;
} gg_fdiv;

static inline gg_fdiv gg_fdiv_of(uint32_t d)
{
    gg_fdiv f;
    f.d = d ? d : 1;
    f.s = 0;
    while ((1ull << f.s) < f.d) f.s++;
    f.m = (uint32_t)((((1ull << f.s) - f.d) << 32) / f.d + 1);
    return f;
}

#define GG_RUN_SYMS 32u

/* A grid's runs. H = n[2] / 64 runs per half row, W = 2H per row; an even
 * layer holds plane 0's ceil(n[1] / 2) rows of H runs and plane 1's
 * floor(n[1] / 2) pairs of (H, W) runs plus H for an odd n[1]; an odd
 * layer holds plane 1's n[1] W runs. */
typedef struct {
    gg_fdiv h, w, row3; /* H, W, 3H */
    gg_fdiv rows0;      /* plane 0's rows per even layer */
    gg_fdiv layers0;    /* even layers per slab */
    gg_fdiv pair1;      /* plane 1's runs per pair of layers (even, odd) */
    gg_fdiv slab1;      /* plane 1's runs per slab */
    uint32_t even1;     /* plane 1's runs in an even layer */
    uint32_t n1, n2, rows; /* grid extents of axes 1 and 2, rows per slab */
} gg_plane_runs;

/* Fills *r for a grid of n0 x n1 x n2 points with slabs of `rows` rows on
 * axis 0 and returns 1 where the runs apply (else 0: the planes are split
 * out). Counts must stay below 2^31 for the divisions. */
static inline int gg_plane_runs_make(uint64_t n0, uint64_t n1, uint64_t n2, uint64_t rows, gg_plane_runs *r)
{
    if (!n0 || !n1 || !rows || n2 == 0 || n2 % 64 != 0 || n0 % rows != 0 || n0 * n1 * n2 >= ((uint64_t)1 << 31))
        return 0;
    const uint32_t H = (uint32_t)(n2 / 64), e1 = (uint32_t)((n1 + 1) / 2);
    const uint32_t even1 = (uint32_t)(n1 / 2) * 3 * H + (uint32_t)(n1 & 1) * H, odd1 = (uint32_t)n1 * 2 * H;
    r->h = gg_fdiv_of(H);
    r->w = gg_fdiv_of(2 * H);
    r->row3 = gg_fdiv_of(3 * H);
    r->rows0 = gg_fdiv_of(e1);
    r->layers0 = gg_fdiv_of((uint32_t)((rows + 1) / 2));
    r->pair1 = gg_fdiv_of(even1 + odd1);
    r->slab1 = gg_fdiv_of((uint32_t)(rows / 2) * (even1 + odd1) + (uint32_t)(rows & 1) * even1);
    r->even1 = even1;
    r->n1 = (uint32_t)n1, r->n2 = (uint32_t)n2, r->rows = (uint32_t)rows;
    return 1;
}

#ifdef __CUDACC__
__device__ __forceinline__ uint32_t gg_quot(const gg_fdiv &f, uint32_t n) { return (__umulhi(n, f.m) + n) >> f.s; }

/* Where plane p's run q starts in the raster order, and how it lies:
 * *pick 0: its 32 points from there; 1: the even points of the 64 from
 * there (plane 0); 2: the odd ones (plane 1 in an even row of an even
 * layer). The start is a multiple of 32 (64 for picks 1 and 2). */
__device__ __forceinline__ uint64_t gg_run_start(const gg_plane_runs &r, unsigned p, uint32_t q, unsigned &pick)
{
    uint32_t z, y, x;
    if (p == 0) {
        const uint32_t row = gg_quot(r.h, q), lz = gg_quot(r.rows0, row), slab = gg_quot(r.layers0, lz);
        x = 64 * (q - row * r.h.d);
        y = 2 * (row - lz * r.rows0.d);
        z = slab * r.rows + 2 * (lz - slab * r.layers0.d);
        pick = 1;
    } else {
        const uint32_t slab = gg_quot(r.slab1, q), rem = q - slab * r.slab1.d, lp = gg_quot(r.pair1, rem);
        uint32_t k = rem - lp * r.pair1.d;
        z = slab * r.rows + 2 * lp;
        if (k < r.even1) { /* an even layer: rows in pairs of (even: H runs, odd: W runs) */
            const uint32_t yp = gg_quot(r.row3, k);
            k -= yp * r.row3.d;
            if (k < r.h.d) {
                y = 2 * yp, x = 64 * k, pick = 2;
            } else {
                y = 2 * yp + 1, x = 32 * (k - r.h.d), pick = 0;
            }
        } else { /* the odd layer after it: whole rows */
            k -= r.even1;
            y = gg_quot(r.w, k);
            x = 32 * (k - y * r.w.d);
            z += 1;
            pick = 0;
        }
    }
    return ((uint64_t)z * r.n1 + y) * r.n2 + x;
}
#endif
#endif
