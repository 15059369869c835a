#include "predict.h"
#include "bytes.h"
#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static const uint8_t axes3[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
static const uint8_t axes2[2][2] = {{1, 2}, {2, 1}};
static const uint8_t axes1[1][1] = {{2}};


const uint8_t *glide_order_axes(unsigned eff_rank, unsigned order)
{
    return eff_rank == 3 ? axes3[order] : eff_rank == 2 ? axes2[order] : axes1[order];
}

void glide_grid_init(glide_grid *g, const glide_shape *s, unsigned blog, int has_fill, uint64_t fill_bits)
{
    unsigned pad = 3 - s->rank;
    for (unsigned d = 0; d < 3; d++) g->n[d] = d < pad ? 1 : s->n[d - pad];
    g->st[2] = 1;
    g->st[1] = (size_t)g->n[2];
    g->st[0] = (size_t)(g->n[2] * g->n[1]);
    g->count = s->count;
    g->eff_rank = s->rank;
    g->blog = blog;
    g->has_fill = has_fill;
    g->fill_bits = fill_bits;
    g->has_fill2 = 0;
    g->fill2_bits = 0;
    g->fill_aware = 0;
    g->blend = 0;
    g->whole_pass = 0;
    g->scalar = 0;
    g->slabs = s->slabs;
    g->slab_rows = s->slabs > 1 ? s->slab_rows : g->n[0]; /* a shape's axis 0 is the grid's only in 3-D */
}

int glide_sentinel_side(const glide_extremes *e, const int open[2])
{
    /* the gap to the end against the range of the other values; a lone
     * point (a heavy tail's extreme, or one land point) needs the wider gap */
    const double gap[2] = {e->lo2 - e->lo, e->hi - e->hi2};
    const double rest[2] = {e->hi - e->lo2, e->hi2 - e->lo};
    const double end[2] = {e->lo, e->hi};
    int q[2];
    for (int s = 0; s < 2; s++)
        q[s] = open[s] && end[s] != 0 && isfinite(s ? e->hi2 : e->lo2) &&
               gap[s] > (e->n[s] > 1 ? GLIDE_SENTINEL_GAP : GLIDE_SENTINEL_GAP_LONE) * rest[s];
    if (q[0] && q[1]) {
        const double a = gap[1] * rest[0], b = gap[0] * rest[1];
        return a > b ? 1 : a < b ? 0 : fabs(e->hi) >= fabs(e->lo) ? 1 : 0;
    }
    return q[1] ? 1 : q[0] ? 0 : -1;
}

void glide_grid_slab(const glide_grid *g, glide_grid *slab)
{
    *slab = *g;
    slab->n[0] = g->slab_rows;
    slab->count = g->slab_rows * g->n[1] * g->n[2];
    slab->slabs = 1;
}

#define GLIDE_T_IS_DOUBLE 0
#include "tmpl_begin.h"
#include "points_tmpl.h"
#include "tmpl_end.h"
#undef GLIDE_T_IS_DOUBLE
#define GLIDE_T_IS_DOUBLE 1
#include "tmpl_begin.h"
#include "points_tmpl.h"
#include "tmpl_end.h"
