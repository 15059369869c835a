/* Device prediction stages (docs/FORMAT.md §5-9): value range, level plan,
 * tuning, interpolation and Lorenzo encode/decode, anchors and outliers.
 * Same conventions as gg_huff.h: d_* are device pointers, calls only enqueue. */
#ifndef GLIDE_GG_PREDICT_H
#define GLIDE_GG_PREDICT_H
#include "gg_state.h"

#ifdef __cplusplus
extern "C" {
#endif

/* the launches made by programmatic dependent launch (gpu/pdl.cuh; only
 * where the device has it, sm_90 on), a bit set: GG_PDL_FINE the split's
 * fine kernel after its coarse kernel; GG_PDL_TAIL the front's kernels
 * after the interpolation (the block trial's pick, the gated commits,
 * plane 0's histogram, the planes' books); GG_PDL_COARSE the split's
 * coarse kernel (encoding) after the blends' costs. */
enum { GG_PDL_FINE = 1, GG_PDL_TAIL = 2, GG_PDL_COARSE = 4, GG_PDL_ALL = 7 };
/* How the prediction kernels are launched: the GPU context fills one at start-up
 * (tests may change it through their test-only interface); blend_first is per chunk. */
typedef struct {
    unsigned pdl;           /* GG_PDL_* edges that use programmatic dependent launch; 0 where the device lacks it */
    long long split_points; /* < 0: the default size from which large 3-D chunks split their interpolation; >= 0: that size (tests) */
    int coarse_merge;       /* 1 (default): the split's coarse kernel a block for 2x2x2 boxes; 0: a warp a box (tests) */
    unsigned commit_grid;   /* 0 (default): gated commits on the blocks the device holds at once; else that many (tests) */
    int blend_first;        /* this chunk launches its blended interpolation instances first */
} gg_launch;

/* Encoder, in this order: */
/* min/max of the finite non-fill values into st->rng (zero before, as
 * every launch leaves it; the rest of st is zeroed here), then eb_abs,
 * subst, unit, alpha and level
 * bounds from them: exactly cpu/codec_tmpl.h's compress(); d_x 16-byte aligned.
 * The extremes for the sentinel rule go to st->lv, by way of d_slots
 * (GG_RANGE_SLOTS of them). */
cudaError_t gg_range_plan(const void *d_x, gg_grid g, int mode, double eb, double alpha_opt, int interp,
                          gg_state *d_st, gg_range_slot *d_slots, cudaStream_t s);
/* Streams and events (the context's, made once) on which gg_encode runs
 * its prediction instances side by side (all but the chunk's own return at
 * once, and one after the other those empty launches cost about 3 us each
 * at 64^3, H100), and gg_tune the blends' costs beside the tuning on small
 * samples. NULL: all on s. */
#define GG_PAR_AUX 4
typedef struct {
    cudaStream_t aux[GG_PAR_AUX];
    cudaEvent_t fork, join[GG_PAR_AUX];
    cudaEvent_t ready; /* the block trial's sample gathered (side stream 2) */
} gg_par;
/* tuning costs on the sample lattice (every k-th block per axis), then the
 * choice; at effective rank 2 and 3 then the blends (format 4), with bits
 * (GLIDE_PRED_AUTO: gg_choose follows) also their estimate for gg_choose */
cudaError_t gg_tune(const void *d_x, gg_grid g, uint64_t k, int bits, gg_state *d_st, const gg_par *par,
                    cudaStream_t s);
/* GLIDE_PRED_AUTO, after gg_tune: both methods' cost on the same sample
 * (common/cost.h) into st->lorenzo; Lorenzo also resets alpha and level_cfg */
cudaError_t gg_choose(const void *d_x, gg_grid g, uint64_t k, gg_state *d_st, cudaStream_t s);
/* symbols and histogram, by method GG_INTERP, GG_LORENZO or GG_CHOSEN
 * (whichever st->lorenzo says); d_r and d_w are scratch of count elements
 * each, needed only when gg_needs_global_r / gg_needs_global_w(g, method,
 * blend) say so, blend = 1 when encoding (tuning may blend levels) and
 * when decoding a stream with a blended level (format 4), else 0 */
enum { GG_INTERP = 0, GG_LORENZO = 1, GG_CHOSEN = 2 };
/* Format 6: GG_CHOSEN3 = whichever gg_trial chose (interpolation, Lorenzo
 * or a slice order: st->lorenzo, st->slice); GG_SLICE_XY / GG_SLICE_YX =
 * the slice method with that order (decoding; encoding a forced order
 * after gg_slice_force). */
enum { GG_CHOSEN3 = 3, GG_SLICE_XY = 4, GG_SLICE_YX = 5 };
/* GG_CHOSEN3 after a trial that speculated (gg_spec): the chunk's
 * interpolation is done, Lorenzo and the slices run if chosen */
enum { GG_CHOSEN3_SPEC = 6 };
/* hist0: the prediction kernels also count plane 0 into d_st->hist_pl[0]
 * where they can (format 5 read in place: gg_planes_hist0 then returns at
 * once; st->hist0_made says so, 1 interpolation, 2 Lorenzo or the slices).
 * gg_encode_counts_hist0: every kernel that gg_encode (and, for
 * GG_CHOSEN3_SPEC, the speculation before it) may have store the chunk's
 * symbols counts it, so gg_planes_hist0 is not needed at all. L: the
 * launches (split, PDL, commit grid; blend_first: where an encoder
 * launches both, the blended interpolation instances before the plain
 * ones, so that the working one's blocks are dispatched first when the
 * chunk before blended). */
cudaError_t gg_encode(const void *d_x, gg_grid g, int method, gg_state *d_st, uint16_t *d_sym, void *d_r, void *d_w,
                      const gg_par *par, int hist0, const gg_launch *L, cudaStream_t s);
int gg_encode_counts_hist0(gg_grid g, int method, gg_state *d_st, int hist0);
int gg_needs_global_r(gg_grid g, int method, int blend);
int gg_needs_global_w(gg_grid g, int method, int blend);
/* the bytes gg_encode's or gg_decode's d_r must hold: count elements where
 * gg_needs_global_r says so, else a split interpolation's compact arrays
 * (an eighth of the points and their symbols; large 3-D chunks, as L's
 * split_points says: interp.cuh PART_COARSE, PART_FINE), else 0 */
size_t gg_global_r_bytes(gg_grid g, int method, int blend, const gg_launch *L);
/* The block trial (cpu/codec_tmpl.h block_trial), in two calls: phase 0
 * after gg_range_plan, phase 1 after gg_tune. The sample's boxes gathered
 * into d_tx as the slabs of grid tg (host-made: glide_trial_box and a 4-D
 * shape of the sample's count of them), encoded with each method under its
 * own state (d_tst: GG_TRIAL_METHODS states, Lorenzo's and the slices'
 * levels copied from d_st; the gather, Lorenzo and the slices beside tuning on par's
 * side streams 2 and 3), each histogram's best book scored into d_tr (d_work:
 * GG_TRIAL_METHODS work areas), and the choice written to d_st (lorenzo,
 * slice, and the level parameters the CPU writes for it). lorenzo_ok:
 * GLIDE_PRED_AUTO (else interpolation or slices). d_tsym:
 * GG_TRIAL_METHODS x tg.count symbols; d_tr_r, d_tr_w: tg.count elements
 * each. */
#define GG_TRIAL_METHODS 4 /* interpolation, Lorenzo, slices x before y, y before x */
typedef struct {
    gg_select sel[GG_TRIAL_METHODS];
} gg_trial;
/* Speculation (small chunks, where latency counts): in phase 1 the chunk's
 * own interpolation into sym and d_st's histogram runs beside the trial's
 * (r, w: gg_encode's scratch), and is kept if the trial picks
 * interpolation; then gg_encode with GG_CHOSEN3_SPEC. on: asked for; the
 * call clears it where it could not (the trial's boxes need the global
 * scratch, or no side streams). */
typedef struct {
    int on;
    uint16_t *sym;
    void *r, *w;
    int hist0; /* as gg_encode's */
} gg_spec;
typedef struct {
    uint64_t k, m[3], d[3]; /* glide_sample_lattice's k and m, glide_trial_box's d */
} gg_trial_boxes;
cudaError_t gg_trial_run(const void *d_x, gg_grid g, gg_grid tg, gg_trial_boxes tb, int lorenzo_ok, gg_state *d_st,
                         gg_state *d_tst, gg_trial *d_tr, void *d_tx, uint16_t *d_tsym, void *d_tr_r, void *d_tr_w,
                         gg_dict dict, gg_select_work *d_work, const gg_par *par, int phase, gg_spec *spec,
                         const gg_launch *L, cudaStream_t s);
/* A forced slice order (glide_encode_opts.slice 1 or 2: order 0 or 1) into
 * d_st as the trial would leave it; then gg_encode with GG_CHOSEN3. */
cudaError_t gg_slice_force(gg_state *d_st, unsigned order, cudaStream_t s);

/* Decoder: the ranks of OUTLIER symbols (per word of 32 symbols its bits,
 * then the count before it) into d_pos, gg_outlier_scan_bytes(n) bytes;
 * the total into st->n_outliers. gg_decode reads them. d_sym NULL: the
 * words' bits and counts are in d_pos already (gg_planes_merge made them),
 * only the counts' scan and the total are left. */
size_t gg_outlier_scan_scratch(uint64_t n);
size_t gg_outlier_scan_bytes(uint64_t n);
cudaError_t gg_outlier_scan(const uint16_t *d_sym, uint64_t n, uint32_t *d_pos, gg_state *d_st, void *d_scratch,
                            size_t scratch_bytes, cudaStream_t s);
/* The encoder's anchor and outlier sections: the anchors in index order
 * as little-endian bytes at d_buf + st->place.anchors_off, the OUTLIER
 * values in index order at d_buf + st->place.outliers_off, as many as
 * st->hist counts; nothing when place.ok is 0. d_tiles: scratch of
 * gg_outlier_tile_bytes(count) bytes. */
size_t gg_outlier_tile_bytes(uint64_t n);
cudaError_t gg_anchors_outliers(const void *d_x, gg_grid g, const uint16_t *d_sym, uint32_t *d_tiles, gg_state *d_st,
                                uint8_t *d_buf, cudaStream_t s);

/* Decoder: after Huffman decode and gg_outlier_scan, every check of §7 and
 * the reconstruction, written to d_y. Anchors and outliers are read from the
 * stream's little-endian bytes; n_outliers is the header's. L: the
 * split and its PDL edge, as the encoder's (blend_first is not read). */
cudaError_t gg_decode(gg_grid g, int method, int fill_aware, int blend, const gg_state *d_st, const uint16_t *d_sym,
                      const uint32_t *d_pos, const uint8_t *d_anchors, const uint8_t *d_outliers, uint64_t n_outliers,
                      void *d_y, void *d_r, void *d_w, uint32_t *d_err, const gg_launch *L, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
