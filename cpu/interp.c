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
    /* about 1/32 of the points, at least one block */
    uint64_t budget = g->count / 32 > per_block ? g->count / 32 : per_block, k = 1;
    for (;; k++) {
        uint64_t m = 1;
        for (int a = 0; a < 3; a++) m *= (nb[a] + k - 1) / k;
        if (m * per_block <= budget || m == 1) break;
    }
    return k;
}

#define GLIDE_T_IS_DOUBLE 0
#include "tmpl_begin.h"
#include "interp_tmpl.h"
#include "tmpl_end.h"
#undef GLIDE_T_IS_DOUBLE
#define GLIDE_T_IS_DOUBLE 1
#include "tmpl_begin.h"
#include "interp_tmpl.h"
#include "tmpl_end.h"
