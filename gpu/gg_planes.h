/* Format 5's symbol planes on the device (planes.cu, docs/FORMAT.md §10.6). */
#ifndef GLIDE_GG_PLANES_H
#define GLIDE_GG_PLANES_H
#include "gg_state.h"
#include "plane_runs.h"

/* Where plane 1 starts in the plane-order buffer: plane 0's n0 symbols
 * rounded up to 8, so that both planes' segments start 16-byte aligned
 * (the Huffman kernels' vector loads). The buffer holds gg_planes_len(n). */
static inline uint64_t gg_plane1_base(uint64_t n0) { return (n0 + 7u) & ~(uint64_t)7u; }
static inline uint64_t gg_planes_len(uint64_t n) { return n + 8u; }

#ifdef __cplusplus
extern "C" {
#endif
/* d_out = the symbols in plane order (plane 0's n0 at 0, plane 1's at
 * gg_plane1_base(n0)); d_st->hist_pl[0] = plane 0's histogram (it must be
 * zero before; plane 1's is left to gg_book_select). Only enqueues. */
cudaError_t gg_planes_split(const uint16_t *d_sym, gg_grid g, uint64_t n0, uint16_t *d_out, gg_state *d_st,
                            cudaStream_t s);
/* d_sym = the plane-order symbols d_in (laid out as above) back in raster
 * order. With d_words, where the merge can (*made = 1), it also writes the
 * decoder's outlier words there as gg_outlier_scan does (each word's
 * OUTLIER bits, then the words' counts), which saves that scan a pass over
 * the symbols; else *made = 0. */
cudaError_t gg_planes_merge(const uint16_t *d_in, gg_grid g, uint64_t n0, uint16_t *d_sym, uint32_t *d_words,
                            int *made, cudaStream_t s);
/* For a grid whose planes cut into runs (gg_plane_runs_make, plane_runs.h),
 * d_st->hist_pl[0] = plane 0's histogram of its n0 points (zero before),
 * read from the raster-order symbols at d_sym (16-byte aligned); the
 * split's histogram without the split; pdl: by programmatic dependent
 * launch (gg_launch.pdl's GG_PDL_TAIL). Only enqueues. */
cudaError_t gg_planes_hist0(const uint16_t *d_sym, const gg_plane_runs *runs, uint64_t n0, gg_state *d_st, int pdl,
                            cudaStream_t s);
#ifdef __cplusplus
}
#endif
#endif
