/* What the GPU pipeline keeps on the device for one chunk, and the grid its
 * kernels see. Plain C structs: the host orchestration (gpu_compress.c,
 * gpu_decompress.c) copies gg_state back once per chunk to write the header. */
#ifndef GLIDE_GG_STATE_H
#define GLIDE_GG_STATE_H
#include <stddef.h>
#include <stdint.h>
#include "format.h"
#include "gg_huff.h"

#define GG_MAX_CFG (GLIDE_NSPLINES * 6) /* splines x dimension orders */

/* The padded 3-D grid of docs/FORMAT.md §4 and its anchor blocks. */
typedef struct {
    uint64_t n[3], st[3], nb[3]; /* extents, element strides, blocks per axis */
    uint64_t slab_rows, nbl;     /* rows of a slab on axis 0 and its blocks there (format 2; else n[0], nb[0]) */
    uint64_t count;
    uint32_t eff_rank, blog, has_fill, dtype;
    uint64_t fill_bits;
} gg_grid;

/* Level parameters: computed on the device when encoding (plan kernel and
 * tuning), copied from the header when decoding. */
typedef struct {
    double eb_abs, alpha, unit;
    uint64_t subst_bits;
    double level_eb[GLIDE_MAX_LEVELS];
    uint8_t level_cfg[GLIDE_MAX_LEVELS];
    uint32_t fill_aware; /* format 3's stencils (FORMAT.md §8.2): interpolation with a fill point */
    uint32_t blended;    /* some level_cfg byte names a blended level (format 4, FORMAT.md §8.4) */
    /* encoder: the range scan's extremes for the sentinel rule
     * (cpu/predict.h glide_extremes; the host applies it) */
    double lo, hi, lo2, hi2;
    uint32_t n_lo, n_hi, any, any_fill;
} gg_levels;

/* One block of the range scan: its least and greatest keys, the next ones
 * inwards (all ones / zero where none) and how many values hold each end;
 * the scan's last block combines them. */
typedef struct {
    unsigned long long mn, mn2, mx, mx2;
    uint32_t cmn, cmx;
} gg_range_slot;
#define GG_RANGE_SLOTS 1024 /* range_k's most blocks */

/* The range scan's accumulators, at the state's head. Zero whenever
 * range_k starts: its last block zeroes them again once it has read them
 * (so does a state reset), and its blocks zero the rest of the state, so
 * that the encoder's front starts without a memset. */
typedef struct {
    /* order-preserving keys of the finite, non-fill min (as its complement,
     * so that zero means "none yet" for both) and max */
    uint64_t lo_inv, hi_key;
    uint32_t any_fill; /* the range scan met a fill point */
    uint32_t done;     /* range_k's blocks finished */
} gg_range_acc;

typedef struct {
    gg_range_acc rng;
    gg_levels lv;
    uint64_t cost[GLIDE_MAX_LEVELS][GG_MAX_CFG]; /* tuning cost per level and config */
    uint64_t bcost[GLIDE_MAX_LEVELS][GLIDE_NBLENDS]; /* format 4: the blends' tuning costs with the chosen spline */
    uint64_t bbits[GLIDE_MAX_LEVELS][GLIDE_NBLENDS]; /* GLIDE_PRED_AUTO: their estimate sums (common/cost.h) */
    uint64_t bpts[GLIDE_MAX_LEVELS];               /* and the points those cost */
    /* blend_w_k beside tune_k (small samples): the blends' costs for every spline, by c_splines index */
    uint64_t scost[GLIDE_MAX_LEVELS][GLIDE_NSPLINES][GLIDE_NBLENDS];
    uint64_t sbits[GLIDE_MAX_LEVELS][GLIDE_NSPLINES][GLIDE_NBLENDS];
    uint64_t spts[GLIDE_MAX_LEVELS][GLIDE_NSPLINES];
    uint64_t est[2][2];            /* GLIDE_PRED_AUTO: [interp, Lorenzo] x [cost, points] on the sample */
    uint32_t lorenzo;              /* the method chosen: 1 Lorenzo, 0 interpolation */
    uint32_t slice;                /* format 6: the slice method chosen (1 x before y, 2 y before x), else 0 */
    uint32_t hist0_made;           /* format 5 in place: plane 0 counted into hist_pl[0] by interpolation (1), Lorenzo or the slices (2) */
    uint32_t tuned_blend;          /* lv.blended as tuning left it, where the trial's pick then chose Lorenzo or the slices */
    uint32_t done[4];              /* blocks finished: tuning, predictor choice, blends, tuning and blends side by side (the last one decides) */
    uint64_t hist[GLIDE_NSYM];
    gg_select sel;
    gg_place place;
    /* format 5 (symbol planes): each plane's histogram and book (place and
     * stream_bytes cover both planes' Huffman streams) */
    uint64_t hist_pl[GLIDE_NPLANES][GLIDE_NSYM];
    gg_select sel_pl[GLIDE_NPLANES];
    /* format 8: each plane's run statistics (gg_run_stats), for the host's plan */
    glide_run_stats run_st[GLIDE_NPLANES];
    /* where the block trial chose another method than the speculated
     * interpolation, whose statistics run_st then holds: that method's, and
     * runs_other = 1 (gpu_front.c spec_other) */
    glide_run_stats run_st_o[GLIDE_NPLANES];
    uint32_t runs_other;
    /* format 5: the planes' book choice's work area, in the state so that
     * every book's bits come to the host with it (the host's run-coding
     * plan derives the variants' books from them: glide_book_select_variants_sized) */
    gg_select_work sel_work;
    uint64_t n_outliers;           /* outlier symbols counted by the scan */
    uint64_t stream_bytes;           /* Huffman stream size, UINT64_MAX if it did not fit */
    uint64_t crc_len;                /* bytes the CRC covers (header to end of the Huffman stream) */
    uint64_t total;                /* stream size written by the finish kernel */
    uint32_t crc;
    uint32_t err;                    /* decode: nonzero if the payload is inconsistent */
    uint32_t crc_bad;                /* decode: the CRC does not match */
    uint32_t crc_ticket;             /* the CRC kernel's blocks done (zero between launches) */
} gg_state;

/* Where the fields the encoder's tail writes begin (sizes, CRC): what the
 * host still needs after the tail once the rest came early (glide_gpu_compress,
 * gg_deliver). place.outlier_ticket, before it, moves during the tail too,
 * but the host never reads it. */
#define GG_STATE_TAIL offsetof(gg_state, n_outliers)

#define GG_ERR_CORRUPT 1u
#endif
