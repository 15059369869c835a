/* The one place for GLIDE stream-format constants (docs/FORMAT.md is the
 * prose version of this file). Both backends include it. Changing any value
 * here changes the format: bump GLIDE_FORMAT_VERSION and keep the old decoder. */
#ifndef GLIDE_FORMAT_H
#define GLIDE_FORMAT_H

#include <stdint.h>
#include <stddef.h>
#include "glide.h"

#define GLIDE_MAGIC0 'G'
#define GLIDE_MAGIC1 'L'
#define GLIDE_MAGIC2 'D'
#define GLIDE_MAGIC3 'E'
/* Format versions: 2 keeps the 3-D slabs of a chunk with more than three
 * axes apart (docs/FORMAT.md §4); 3 adds fill-aware interpolation stencils
 * (§8.2) to 2; 4 adds blended levels (§8.4) to 3. GLIDE 1.4's encoder wrote
 * 4 only for interpolation streams with a blended level, 3 only for those
 * with a fill point, 2 only for chunks of more than three axes (and never
 * for RAW), so its other streams stay readable by GLIDE 1.0/1.1, and more by
 * 1.2, 1.3; that encoder is glide_encode_opts.planes = 0 now. */
#define GLIDE_FORMAT_VERSION 8       /* the newest this build reads */
#define GLIDE_FORMAT_FIRST_VERSION 1 /* the oldest it reads */
#define GLIDE_FORMAT_SLABS 2         /* the first with slabs */
#define GLIDE_FORMAT_FILL_AWARE 3    /* the first with fill-aware stencils */
#define GLIDE_FORMAT_BLEND 4         /* the first with blended levels */
/* 5 (GLIDE 1.5, written for every coded stream): the symbols coded as
 * two planes, each with its own book (§10.6): the points whose coordinates
 * are all even (anchors and every interpolation level but the finest) and
 * the rest (the finest level). The finest level's residuals are narrower
 * than the coarse levels', and one book for their mixture costs the
 * difference (docs/DESIGN.md, "Two symbol planes"). glide_encode_opts.planes
 * = 0 gives the formats 1-4 encoder (tests, benchmarks). */
#define GLIDE_FORMAT_PLANES 5
/* GLIDE 1.6: method 3, slices (FORMAT.md §9a), and only method 3 */
#define GLIDE_FORMAT_SLICE 6
/* GLIDE 1.7: a second fill value (FORMAT.md §5a), written only for chunks
 * that hold a missing-value sentinel beside fill points: both are FILL,
 * and a section of run lengths says which FILL point is which. Otherwise
 * as 5 (methods 1, 2) and 6 (method 3). */
#define GLIDE_FORMAT_FILL2 7
/* GLIDE 1.8: run-coded planes (FORMAT.md §10.7). In a plane so flagged,
 * every maximal run of ZERO (or FILL) symbols in a segment is one codeword
 * of the plane's book followed by a run class from a small per-plane code
 * and the class's extra bits: where most points are exact zeros or fill,
 * Huffman's one bit per point becomes a few bits per run. Written only for
 * streams with at least one such plane; any coded method, and the second
 * fill value where HAS_FILL2 says so. */
#define GLIDE_FORMAT_RUNS 8

/* Symbol alphabet: quantization codes q in [-511, 511] map to q + 511, then
 * two escapes. 1023 quantization codes = radius 512. */
#define GLIDE_RADIUS 512
#define GLIDE_NQUANT 1023
#define GLIDE_SYM_ZERO 511
#define GLIDE_SYM_OUTLIER 1023 /* value stored exactly in the outlier section */
#define GLIDE_SYM_FILL 1024    /* value equals the fill value */
#define GLIDE_NSYM 1025

/* Huffman: codewords fit in 16 bits so that a 64-bit bit window always holds
 * at least three whole codewords after a refill, and the decoder's fast
 * table (GLIDE_HUFF_LUT_BITS) resolves nearly every symbol in one lookup. */
#define GLIDE_HUFF_MAX_LEN 16
#define GLIDE_HUFF_LUT_BITS 11
/* Symbols per Huffman segment. Each segment starts on a byte boundary and its
 * byte length is a u16 in the segment table (1024 * 16 bits = 2048 bytes max). */
#define GLIDE_SEG_SYMS 1024

/* Run-coded planes (format 8): a run of L points, 2^c <= L < 2^(c+1), is
 * class c followed by c extra bits (L - 2^c, MSB-first). Runs end at
 * segment ends, and a run-coded plane's segments hold GLIDE_RUN_SEG_SYMS
 * points: a point costs at most 16 + GLIDE_RUN_MAX_LEN bits, so a segment
 * fits GLIDE_RUN_SEG_MAX_BYTES. A plane's run book: for ZERO, then (where
 * the plane's FILLRUNS flag says so) FILL, 13 four-bit class lengths, high
 * nibble first (the last nibble zero); all zero: that symbol is coded one
 * point at a time. */
#define GLIDE_RUN_CLASSES 13
#define GLIDE_RUN_MAX_LEN 8
#define GLIDE_RUN_SEG_SYMS 4096
#define GLIDE_RUN_SEG_MAX_BYTES (3 * GLIDE_RUN_SEG_SYMS)
#define GLIDE_RUN_KINDS 2 /* ZERO, FILL */
#define GLIDE_RUN_SUBBOOK_BYTES 7
#define GLIDE_RUN_BOOK_BYTES (GLIDE_RUN_KINDS * GLIDE_RUN_SUBBOOK_BYTES) /* the most a plane's takes */

/* Methods */
#define GLIDE_METHOD_RAW 0
#define GLIDE_METHOD_INTERP 1
#define GLIDE_METHOD_LORENZO 2
#define GLIDE_METHOD_SLICE 3 /* format 6 only */

/* Codebook kinds */
#define GLIDE_BOOKKIND_DICT 0
#define GLIDE_BOOKKIND_CUSTOM 1
#define GLIDE_BOOKKIND_NONE 255 /* raw streams */

/* Interpolation spline variants (per level, 2 bits of level_cfg) */
#define GLIDE_SPLINE_LINEAR 0
#define GLIDE_SPLINE_CUBIC_NAK 1     /* not-a-knot: (-1, 9, 9, -1) / 16 */
#define GLIDE_SPLINE_CUBIC_NATURAL 2 /* natural:    (-3, 23, 23, -3) / 40 */
#define GLIDE_NSPLINES 3

/* level_cfg bits 2-4: an axis order below n_orders(eff_rank) (6, 2, 1 for
 * effective rank 3, 2, 1), or in format 4 for rank 2 and 3 a blended level
 * (§8.4): n_orders + GLIDE_BLEND_SPLINE_R (residuals with the level's
 * spline) or n_orders + GLIDE_BLEND_LINEAR_R (residuals linear). */
#define GLIDE_BLEND_SPLINE_R 0
#define GLIDE_BLEND_LINEAR_R 1
#define GLIDE_NBLENDS 2

#define GLIDE_MAX_LEVELS 16
#define GLIDE_MAX_EFF_RANK 3

/* Fixed header: 96 bytes, then rank x u64 dims, then the sections.
 * Byte offsets of its fields (docs/FORMAT.md §2.1); all little-endian. */
#define GLIDE_HEADER_FIXED 96
#define GLIDE_HDR_FORMAT_VERSION 4
#define GLIDE_HDR_DICT_VERSION 5
#define GLIDE_HDR_DTYPE 6
#define GLIDE_HDR_METHOD 7
#define GLIDE_HDR_MODE 8
#define GLIDE_HDR_BOOK_KIND 9
#define GLIDE_HDR_BOOK_ID 10     /* u16 */
#define GLIDE_HDR_RANK 12
#define GLIDE_HDR_BLOCK_LOG2 13
#define GLIDE_HDR_FLAGS 14
#define GLIDE_HDR_RESERVED 15    /* zero */
#define GLIDE_HDR_EB_USER 16     /* f64 */
#define GLIDE_HDR_EB_ABS 24      /* f64 */
#define GLIDE_HDR_ALPHA 32       /* f64 */
#define GLIDE_HDR_FILL_BITS 40   /* u64 */
#define GLIDE_HDR_SUBST_BITS 48  /* u64 */
#define GLIDE_HDR_BOOK_BYTES 56  /* u32 */
#define GLIDE_HDR_N_SEGMENTS 60  /* u32 */
#define GLIDE_HDR_N_OUTLIERS 64  /* u64 */
#define GLIDE_HDR_STREAM_BYTES 72 /* u64 */
#define GLIDE_HDR_LEVEL_CFG 80   /* GLIDE_MAX_LEVELS bytes */
#define GLIDE_CRC_BYTES 4
/* Format 5: after the dims, the finest plane's book (§2.1): book_kind u8,
 * zero u8, book_id u16, book_bytes u32. */
#define GLIDE_HEADER_PLANES_EXT 8
#define GLIDE_HDRX_BOOK_KIND 0
#define GLIDE_HDRX_RESERVED 1
#define GLIDE_HDRX_BOOK_ID 2    /* u16 */
#define GLIDE_HDRX_BOOK_BYTES 4 /* u32 */
#define GLIDE_NPLANES 2
/* Format 7: after the planes' extension, fill2_bits u64 and n_runs u64. */
#define GLIDE_HEADER_FILL2_EXT 16
#define GLIDE_HDRY_FILL2_BITS 0
#define GLIDE_HDRY_N_RUNS 8
#define GLIDE_RUN_BYTES 4 /* a run length: u32 */

/* Header flags */
#define GLIDE_FLAG_HAS_FILL 0x01u
#define GLIDE_FLAG_HAS_FILL2 0x02u /* format 7 (always there) and 8 */
#define GLIDE_FLAG_RUNS0 0x04u     /* format 8: plane 0 is run-coded */
#define GLIDE_FLAG_RUNS1 0x08u     /* format 8: plane 1 is run-coded */
#define GLIDE_FLAG_RUNS (GLIDE_FLAG_RUNS0 | GLIDE_FLAG_RUNS1)
#define GLIDE_FLAG_FILLRUNS0 0x10u /* format 8: plane 0's run book has FILL's classes (FILL run-coded) */
#define GLIDE_FLAG_FILLRUNS1 0x20u /* format 8: plane 1's */
#define GLIDE_FLAG_FILLRUNS (GLIDE_FLAG_FILLRUNS0 | GLIDE_FLAG_FILLRUNS1)

typedef struct {
    uint8_t format_version;
    uint8_t dict_version;
    uint8_t dtype;       /* glide_dtype */
    uint8_t method;      /* GLIDE_METHOD_* */
    uint8_t mode;        /* glide_mode, as requested */
    uint8_t book_kind;   /* GLIDE_BOOKKIND_* */
    uint16_t book_id;
    uint8_t rank;
    uint8_t block_log2;  /* anchor stride 2^block_log2 (0 for raw) */
    uint8_t flags;
    double eb_user;      /* bound as requested (absolute or relative) */
    double eb_abs;       /* absolute bound applied; the finest level's */
    double alpha;        /* level l (1 = finest) uses eb_abs / alpha^(l-1) */
    uint64_t fill_bits;  /* value bits, low 4 bytes for float32 */
    uint64_t subst_bits; /* what fill points count as for prediction */
    uint32_t book_bytes;
    uint32_t n_segments;
    uint64_t n_outliers;
    uint64_t stream_bytes;
    uint8_t level_cfg[GLIDE_MAX_LEVELS]; /* bits 0-1 spline, bits 2-4 dim order */
    uint64_t dims[GLIDE_MAX_RANK];
    /* format 5: book_kind, book_id and book_bytes above are plane 0's (the
     * even points); these are plane 1's. Zero in other versions. */
    uint8_t book_kind1;
    uint16_t book_id1;
    uint32_t book_bytes1;
    /* format 7: the second fill value and how many run lengths tell the
     * FILL points apart (zero in other versions) */
    uint64_t fill2_bits;
    uint64_t n_runs;
} glide_header;

/* Shape the predictors see: size-1 axes dropped, more than three axes merged
 * into the slowest one (a stack of 3-D blocks). A chunk of one value is 1-D. */
typedef struct {
    unsigned rank;          /* 1..3 */
    uint64_t n[3];          /* slowest first */
    uint64_t count;
    uint64_t slabs, slab_rows; /* format 2, more than three axes: n[0] = slabs x slab_rows; else 1 and n[0] */
} glide_shape;

static inline size_t glide_dtype_size(unsigned dtype) { return dtype == GLIDE_FLOAT64 ? 8 : 4; }

/* The section layout a header implies; every offset validated against the size. */
typedef struct {
    size_t header_bytes;
    size_t book_off, runbook_off, anchors_off, outliers_off, runs_off, segtab_off, stream_off, crc_off, total;
    uint64_t n_anchors;
} glide_layout;

/* The effective shape of §4 for a stream of this format version. */
void glide_shape_from_dims(unsigned rank, const uint64_t *dims, unsigned format_version, glide_shape *s);
/* The format version an encoder writes for these dims (RAW streams: always
 * GLIDE_FORMAT_FIRST_VERSION). */
unsigned glide_format_version_for(unsigned rank, const uint64_t *dims);
/* Whether a (validated) stream's interpolation uses format 3's stencils. */
int glide_header_fill_aware(const glide_header *h);
/* Axis orders per effective rank (6, 2, 1); order values from there on are
 * blends (format 4, rank 2 and 3). */
static inline unsigned glide_n_orders(unsigned eff_rank) { return eff_rank == 3 ? 6 : eff_rank == 2 ? 2 : 1; }
/* Whether level_cfg byte cfg of a grid of this effective rank is blended. */
static inline int glide_cfg_blended(unsigned eff_rank, unsigned cfg) { return (cfg >> 2) >= glide_n_orders(eff_rank); }
/* Whether any of a stream's levels (block_log2 of them) is blended: the
 * streams that name format 4, and need the residual scratch to decode. */
static inline int glide_levels_blended(unsigned eff_rank, unsigned block_log2, const uint8_t *level_cfg)
{
    for (unsigned l = 0; l < block_log2 && l < GLIDE_MAX_LEVELS; l++)
        if (glide_cfg_blended(eff_rank, level_cfg[l])) return 1;
    return 0;
}
unsigned glide_default_block_log2(unsigned eff_rank);
uint64_t glide_anchor_count(const glide_shape *s, unsigned block_log2);
uint64_t glide_segment_count(uint64_t n_symbols);
/* Entries of a stream's segment table for n symbols: with format 5's
 * planes (n0 symbols in plane 0) each plane ends in a segment of its own. */
uint64_t glide_stream_segments(uint64_t n, uint64_t n0, int planes);
/* Segments of one plane of n symbols, run-coded (format 8) or not. */
uint64_t glide_plane_segments(uint64_t n, int runs);
/* A stream's segment-table entries: its planes' segments (flags: RUNS0/1). */
uint64_t glide_header_segments(uint64_t n, uint64_t n0, int planes, unsigned flags);
/* Bytes of plane p's run book (format 8: 0 unless run-coded), and of all. */
static inline size_t glide_plane_runbook_bytes(unsigned flags, unsigned p)
{
    if (!(flags & (p ? GLIDE_FLAG_RUNS1 : GLIDE_FLAG_RUNS0))) return 0;
    return GLIDE_RUN_SUBBOOK_BYTES * (size_t)((flags & (p ? GLIDE_FLAG_FILLRUNS1 : GLIDE_FLAG_FILLRUNS0)) ? 2 : 1);
}
static inline size_t glide_runbook_bytes(unsigned flags)
{
    return glide_plane_runbook_bytes(flags, 0) + glide_plane_runbook_bytes(flags, 1);
}

/* Header bytes of a stream of format 1 to 4 (RAW streams included). */
size_t glide_header_size(unsigned rank);
/* Header bytes of this header's stream (format 5 adds the plane book). */
size_t glide_header_bytes(const glide_header *h);
/* Format 5: the number of points of plane 0 (every effective coordinate
 * even, within its slab); plane 1 holds the other count - n0. */
uint64_t glide_plane0_count(const glide_shape *s);
/* The byte count of n_seg segments: the sum of their segment-table entries
 * (format 5: plane 0's part of the Huffman stream). */
uint64_t glide_segtab_sum(const uint8_t *segtab, uint64_t n_seg);
void glide_header_write(const glide_header *h, uint8_t *dst);
/* Parses and checks every field against the buffer size; fills the layout. */
size_t glide_header_read(const uint8_t *src, size_t size, glide_header *h, glide_layout *lay);
/* Layout for a header (used by encoders too). Returns an error code on overflow. */
size_t glide_layout_compute(const glide_header *h, glide_layout *lay);

uint32_t glide_crc32(const uint8_t *p, size_t n);

/* Error codes in the zstd style: (size_t)-code. */
#define GLIDE_ERROR(e) ((size_t) - (ptrdiff_t)(GLIDE_ERR_##e))

#endif
