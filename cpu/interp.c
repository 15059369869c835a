#include "predict.h"
#include <math.h>
#include <string.h>

uint64_t glide_tune_stride(const glide_grid *g, uint64_t nb[3])
{
    uint64_t B = 1ull << g->blog, per_block = 1;
    for (int a = 0; a < 3; a++) {
        nb[a] = ((g->n[a] - 1) >> g->blog) + 1;
        if (g->n[a] > 1) per_block *= B;
    }
    nb[0] = g->slabs * (((g->slab_rows - 1) >> g->blog) + 1); /* each slab's own blocks */
    /* about 1/32 of the points, at most GLIDE_TUNE_MAX_POINTS, at least one block */
    uint64_t budget = g->count / 32 < GLIDE_TUNE_MAX_POINTS ? g->count / 32 : GLIDE_TUNE_MAX_POINTS, k = 1;
    if (budget < per_block) budget = per_block;
    for (;; k++) {
        uint64_t m = 1;
        for (int a = 0; a < 3; a++) m *= (nb[a] + k - 1) / k;
        if (m * per_block <= budget || m == 1) break;
    }
    return k;
}

void glide_sample_lattice_init(const glide_grid *g, glide_sample_lattice *s)
{
    uint64_t nb[3];
    s->k = glide_tune_stride(g, nb);
    s->count = 1;
    for (int a = 0; a < 3; a++) {
        s->m[a] = (nb[a] + s->k - 1) / s->k;
        s->count *= s->m[a];
    }
}

void glide_sample_block(const glide_grid *g, const glide_sample_lattice *s, uint64_t b, uint64_t lo[3], uint64_t hi[3],
                        uint64_t *slab)
{
    uint64_t B = 1ull << g->blog, per_slab = ((g->slab_rows - 1) >> g->blog) + 1;
    uint64_t bi[3] = {b / (s->m[1] * s->m[2]), b / s->m[2] % s->m[1], b % s->m[2]};
    uint64_t n[3] = {g->slab_rows, g->n[1], g->n[2]};
    *slab = bi[0] * s->k / per_slab;
    for (int a = 0; a < 3; a++) {
        lo[a] = (a == 0 ? bi[0] * s->k % per_slab : bi[a] * s->k) * B;
        hi[a] = lo[a] + B < n[a] - 1 ? lo[a] + B : n[a] - 1;
    }
}

void glide_trial_box(const glide_grid *g, uint64_t d[3])
{
    const uint64_t B = 1ull << g->blog, n[3] = {g->slab_rows, g->n[1], g->n[2]};
    for (int a = 0; a < 3; a++) d[a] = n[a] < B + 1 ? n[a] : B + 1;
}

uint64_t glide_trial_box_origin(const glide_grid *g, const glide_sample_lattice *s, uint64_t b, const uint64_t d[3],
                                uint64_t lo[3])
{
    uint64_t hi[3], slab;
    const uint64_t n[3] = {g->slab_rows, g->n[1], g->n[2]};
    glide_sample_block(g, s, b, lo, hi, &slab);
    for (int a = 0; a < 3; a++)
        if (lo[a] + d[a] > n[a]) lo[a] = n[a] - d[a];
    return slab;
}
