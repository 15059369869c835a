/* Format 5's symbol planes on the device (planes.cu, docs/FORMAT.md §10.6). */
#ifndef GLIDE_GG_PLANES_H
#define GLIDE_GG_PLANES_H
#include "gg_state.h"

#ifdef __cplusplus
extern "C" {
#endif
/* d_out = the symbols in plane order (plane 0's n0 first); d_st->hist_pl =
 * the planes' histograms (plane 0's counted, plane 1's = d_st->hist less
 * it; hist_pl[0] must be zero before). Only enqueues. */
cudaError_t gg_planes_split(const uint16_t *d_sym, gg_grid g, uint64_t n0, uint16_t *d_out, gg_state *d_st,
                            cudaStream_t s);
/* d_sym = the plane-order symbols d_in back in raster order. */
cudaError_t gg_planes_merge(const uint16_t *d_in, gg_grid g, uint64_t n0, uint16_t *d_sym, cudaStream_t s);
#ifdef __cplusplus
}
#endif
#endif
