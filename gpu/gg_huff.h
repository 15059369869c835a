/* Device entropy stage (docs/FORMAT.md §10): dictionary book scoring,
 * segmented canonical Huffman encode/decode, and the stream's CRC-32.
 * Every pointer named d_* is device memory; every call only enqueues work
 * on stream s (no host synchronisation), and returns the launch status.
 * Scratch follows CUB's idiom: ask the size once, allocate once, reuse. */
#ifndef GLIDE_GG_HUFF_H
#define GLIDE_GG_HUFF_H
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include "format.h"
#include "huff_codec.h" /* glide_huff_enc / glide_huff_dec: plain structs, copied to the device as they are */
#include "huff_runs.h"  /* glide_run_stats / glide_run_code: plain structs too (format 8) */
#include "plane_runs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Scratch regions start on 256-byte boundaries, as cudaMalloc's memory does. */
static inline size_t gg_align256(size_t x) { return (x + 255) & ~(size_t)255; }

/* The frozen dictionary in device memory: book b's code lengths are
 * len[b * GLIDE_NSYM + i], its log2 q_i is log2q[b * GLIDE_NSYM + i]. */
typedef struct {
    const uint8_t *len;
    const float *log2q;
    unsigned n_books;
} gg_dict;

typedef struct {
    uint32_t book;  /* chosen book id */
    uint32_t pad;
    uint64_t bits;  /* sum hist[i] * len[book][i]: the encoded size in bits */
} gg_select;

/* Where the entropy sections go. The encoder's device plan (gg_plan)
 * fills it from the histogram; when the host plans, it sets it. ok = 0
 * makes every later encoder kernel return at once (the host then plans
 * and runs them again, or writes a RAW stream). */
typedef struct {
    uint64_t anchors_off, outliers_off, segtab_off, stream_off; /* byte offsets in the stream */
    uint64_t cap;                                              /* room for the Huffman stream */
    uint32_t ok;
    uint32_t outlier_ticket;         /* blocks done counting outliers (the last one scans) */
    uint32_t runs;                   /* format 8: bit p, plane p run-coded (only the host's plans set it) */
} gg_place;

#define GG_MAX_BOOKS 1024u

/* Device work area of gg_book_select: one per stream, zeroed once when
 * allocated; every call leaves the ticket zero again. */
typedef struct {
    uint64_t bits[GLIDE_NPLANES][GG_MAX_BOOKS]; /* each book's size in bits, per plane */
    uint32_t ticket[GLIDE_NPLANES];             /* blocks done, per plane */
} gg_select_work;

/* Scores every book (at most GG_MAX_BOOKS) against the histogram (GLIDE_NSYM
 * u64 counts) and writes the winner: exactly cpu/book_select.c's
 * glide_book_select (score 0 = GLIDE_SCORE_SIZE: integer size, first minimum
 * wins; 1 = cross entropy, summed per book in increasing symbol order so the
 * doubles match the CPU). d_work is used by score 0. */
cudaError_t gg_book_select(const uint64_t *d_hist, gg_dict dict, int score, gg_select *d_out, gg_select_work *d_work,
                           cudaStream_t s);
/* Format 5: both planes' books in one launch, each as gg_book_select
 * would choose it: d_out[0] for plane 0's histogram d_hist0, d_out[1] for
 * plane 1's, d_hist less d_hist0, which is also stored to d_hist1 (unless
 * NULL). pdl: launched by programmatic dependent launch (pdl.cuh), after
 * the kernel before it on s (gg_launch.pdl's GG_PDL_TAIL). */
cudaError_t gg_book_select_planes(const uint64_t *d_hist, const uint64_t *d_hist0, uint64_t *d_hist1, gg_dict dict,
                                  int score, gg_select *d_out, gg_select_work *d_work, int pdl, cudaStream_t s);
/* A launch that works only on one side of the block trial's pick: where
 * the device words *lorenzo and *slice (gg_state's) say it chose another
 * method than interpolation (other = 1), or kept it (other = 0); elsewhere
 * its blocks return at once and write nothing. lorenzo NULL: always. */
typedef struct {
    const uint32_t *lorenzo, *slice;
    int other;
} gg_pick_gate;
#ifdef __CUDACC__
/* false where a gated launch's blocks are to return at once (read after
 * the pick: a predecessor in the stream, or past pdl_wait) */
static __device__ __forceinline__ bool gg_gate_open(const gg_pick_gate &g)
{
    return !g.lorenzo || ((*g.lorenzo | *g.slice) != 0) == (g.other != 0);
}
#endif
/* gg_book_select_planes behind a gate: two such launches with opposite
 * gates may run at once, on one work area */
cudaError_t gg_book_select_planes_gated(const uint64_t *d_hist, const uint64_t *d_hist0, uint64_t *d_hist1,
                                        gg_dict dict, int score, gg_select *d_out, gg_select_work *d_work,
                                        gg_pick_gate gate, int pdl, cudaStream_t s);
/* Two unrelated histograms' books in one launch, each as gg_book_select
 * would choose it: d_out[0] for d_hist, d_out[1] for d_hist + stride
 * (stride > 0 counts; the block trial's two slice orders). */
cudaError_t gg_book_select_two(const uint64_t *d_hist, size_t stride, gg_dict dict, int score, gg_select *d_out,
                               gg_select_work *d_work, cudaStream_t s);

/* Scratch of the encoder and decoder below: for n symbols in one plane or
 * split into two. */
/* Encodes n symbols with the code of d_enc exactly as glide_huff_encode:
 * writes n_seg = ceil(n / GLIDE_SEG_SYMS) u16 little-endian byte counts to
 * d_segtab and the concatenated segments to d_stream. *d_stream_bytes gets
 * the stream size, or UINT64_MAX if it exceeds cap (then d_stream holds
 * nothing useful, and nothing past cap is written). */
size_t gg_huff_encode_scratch(uint64_t n);
cudaError_t gg_huff_encode(const uint16_t *d_sym, uint64_t n, const glide_huff_enc *d_enc, uint8_t *d_segtab,
                           uint8_t *d_stream, uint64_t cap, uint64_t *d_stream_bytes, void *d_scratch,
                           size_t scratch_bytes, cudaStream_t s);
/* The same into a stream whose layout is only known on the device: the
 * table goes to d_buf + place->segtab_off, the segments to
 * d_buf + place->stream_off with room place->cap; with place->ok = 0
 * nothing is written but *d_stream_bytes = UINT64_MAX. Format 5's planes
 * in the same launches: plane 0's n0 symbols (d_sym0, code d_enc[0]), then
 * plane 1's n1 (d_sym1, code d_enc[1]): plane 0's segments and stream
 * first, plane 1's right after, *d_stream_bytes both planes' bytes. One
 * plane: n1 = 0. Each array 16-byte aligned for the vector loads. */
/* With fin (may be NULL), the thread that stores *d_stream_bytes also
 * finishes the stream as the CRC needs it (no launch of its own: about 3 us
 * of a 64^3 chunk's critical path): the stream size patched into the
 * header at d_buf, *crc_len = place->stream_off + the size (the bytes the
 * CRC covers) and *total = that + the CRC's bytes, both 0 where the plan
 * declined or the stream did not fit. */
typedef struct {
    uint64_t *crc_len, *total;
} gg_enc_fin;
/* With runs (may be NULL), both planes are read in place from the raster
 * order at d_sym0 (plane_runs.h; d_sym1 unused), plane 0's n0 and plane
 * 1's n1 symbols, both multiples of GG_RUN_SYMS. */
/* With words_zeroed, the first gg_huff_encode_words(n0, n1) u64 words of
 * d_scratch (the segments' look-back words and the ticket) must be zero
 * already, as a kernel that runs before it anyway leaves them
 * (gg_plan, gg_apply_plan): no memset of its own, whose launch sat on the
 * chunk's critical path. */
cudaError_t gg_huff_encode_placed(const uint16_t *d_sym0, uint64_t n0, const uint16_t *d_sym1, uint64_t n1,
                                  const gg_plane_runs *runs, const glide_huff_enc *d_enc, uint8_t *d_buf,
                                  const gg_place *d_place, uint64_t *d_stream_bytes, const gg_enc_fin *fin,
                                  void *d_scratch, size_t scratch_bytes, int words_zeroed, cudaStream_t s);
uint64_t gg_huff_encode_words(uint64_t n0, uint64_t n1);

/* Format 8 (docs/FORMAT.md §10.7): a stream with a run-coded plane,
 * byte-identical to cpu/codec.c's: plane p is coded as glide_runs_encode
 * codes it where bit p of run_planes is set (segments of
 * GLIDE_RUN_SEG_SYMS, d_rc[p] its class codes), else as glide_huff_encode
 * does (GLIDE_SEG_SYMS). Symbols, placement, outputs and *d_stream_bytes
 * as gg_huff_encode_placed's (fin not NULL: the header's size, crc_len,
 * total); d_place->ok = 0 writes nothing and reports no stream; a stream
 * over the room is reported as UINT64_MAX, and nothing past the room is
 * written. One block a segment, after a memset of the scratch's look-back
 * words unless words_zeroed (the first gg_huff_encode_words(n0, n1) u64
 * words of d_scratch zero already, as gg_huff_encode_placed's are).
 * run_planes GG_RUNS_FROM_PLAN: the planes d_place->runs
 * names, which only the device knows at the launch (the host's plan
 * behind its gate): a block for every segment of two plain planes, the
 * most there can be, and those past the stream's return at once. */
#define GG_RUNS_FROM_PLAN 4u
size_t gg_runs_encode_scratch(uint64_t n);
cudaError_t gg_runs_encode_placed(const uint16_t *d_sym0, uint64_t n0, const uint16_t *d_sym1, uint64_t n1,
                                  const gg_plane_runs *runs, unsigned run_planes, const glide_huff_enc *d_enc,
                                  const glide_run_code *d_rc, uint8_t *d_buf, const gg_place *d_place,
                                  uint64_t *d_stream_bytes, const gg_enc_fin *fin, void *d_scratch,
                                  size_t scratch_bytes, int words_zeroed, cudaStream_t s);
/* What glide_run_stats_count gives for each plane (plane 0's n0 symbols
 * at d_sym0, plane 1's n1 at d_sym1, or with runs both in place from the
 * raster order at d_sym0, as gg_huff_encode_placed reads them) added to
 * d_out[0] and d_out[1], zero before (a chunk's state is: range_k zeroes
 * it). One launch; behind gate (gg_pick_gate), which where open also sets
 * *d_opened to 1 (d_opened may be NULL). */
cudaError_t gg_run_stats(const uint16_t *d_sym0, uint64_t n0, const uint16_t *d_sym1, uint64_t n1,
                         const gg_plane_runs *runs, glide_run_stats *d_out, gg_pick_gate gate, uint32_t *d_opened,
                         cudaStream_t s);

/* Decodes n symbols, segments in parallel, with every check of
 * glide_huff_decode: on any inconsistency *d_err becomes nonzero (it is
 * only ever set, never cleared, so the caller zeroes it first). The input
 * pointers cover exactly n_seg * 2 and stream_bytes bytes: nothing beyond
 * them is read. */
size_t gg_huff_decode_scratch(uint64_t n);
cudaError_t gg_huff_decode(const glide_huff_dec *d_dec, const uint8_t *d_segtab, uint32_t n_segments,
                           const uint8_t *d_stream, uint64_t stream_bytes, uint16_t *d_sym, uint64_t n,
                           unsigned *d_err, void *d_scratch, size_t scratch_bytes, cudaStream_t s);

/* Format 5: plane 0's n0 symbols (code d_dec0) to d_sym0 and plane 1's n1
 * (d_dec1) to d_sym1 in one launch, from the whole segment table (plane
 * 0's ceil(n0 / GLIDE_SEG_SYMS) entries first) and stream, with the same
 * checks as decoding each plane against its own part of the stream. */
cudaError_t gg_huff_decode_planes(const glide_huff_dec *d_dec0, const glide_huff_dec *d_dec1, const uint8_t *d_segtab,
                                  uint32_t n_segments, const uint8_t *d_stream, uint64_t stream_bytes,
                                  uint16_t *d_sym0, uint64_t n0, uint16_t *d_sym1, uint64_t n1, unsigned *d_err,
                                  void *d_scratch, size_t scratch_bytes, cudaStream_t s);

/* CRC-32 (zlib's, as common/crc32.c) of d_buf[0..n) written to *d_crc; for
 * n up to GLIDE_MAX_INPUT_BYTES + a header. One launch: the last block to
 * finish combines the others' terms, counted on *d_ticket, which must be
 * zero before the call and is left zero (a chunk's state holds one). */
size_t gg_crc32_scratch(uint64_t n);
cudaError_t gg_crc32(const uint8_t *d_buf, uint64_t n, uint32_t *d_crc, uint32_t *d_ticket, void *d_scratch,
                     size_t scratch_bytes, cudaStream_t s);
/* gg_crc32 that also compares the CRC with the 4 little-endian bytes at
 * d_buf + n (a stream's trailing checksum) and sets *d_bad on a difference. */
cudaError_t gg_crc32_check(const uint8_t *d_buf, uint64_t n, uint32_t *d_crc, uint32_t *d_bad, uint32_t *d_ticket,
                           void *d_scratch, size_t scratch_bytes, cudaStream_t s);

/* The same over d_buf[0..*d_n) where the length is only known on the
 * device (n_max bounds it; *d_n = 0 gives the CRC of nothing). */
cudaError_t gg_crc32_dn(const uint8_t *d_buf, uint64_t n_max, const uint64_t *d_n, uint32_t *d_crc,
                        uint32_t *d_ticket, void *d_scratch, size_t scratch_bytes, cudaStream_t s);
/* gg_crc32_dn that also stores the CRC little-endian at d_buf + *d_n when
 * *d_n > 0 (a stream's trailing checksum), without another launch. */
cudaError_t gg_crc32_dn_store(uint8_t *d_buf, uint64_t n_max, const uint64_t *d_n, uint32_t *d_crc,
                              uint32_t *d_ticket, void *d_scratch, size_t scratch_bytes, cudaStream_t s);

/* Format 8's run-coded planes (docs/FORMAT.md §10.7), decoded
 * (runs_decode.cu). A plane's class codes as the decoder takes them, by
 * value in its launch: on[k] = 1 where kind k (ZERO, FILL) is run-coded,
 * and lut[k][the next GLIDE_RUN_MAX_LEN bits] = class | length << 4 of the
 * class codeword they start with (0: none). */
typedef struct {
    uint8_t lut[GLIDE_RUN_KINDS][1u << GLIDE_RUN_MAX_LEN];
    uint8_t on[GLIDE_RUN_KINDS];
    uint8_t walk; /* tests only: a GG_WALK_* (GG_WALK_AUTO from gg_run_code_of) */
} gg_run_code;
/* How a segment is walked: AUTO, a block a segment where a launch has few
 * segments (up to 1024), else a warp a segment; or forced (tests): one
 * lane alone, as short segments are, a warp, a block. */
enum { GG_WALK_AUTO = 0, GG_WALK_ALONE = 1, GG_WALK_WARP = 2, GG_WALK_BLOCK = 3 };
/* From a code glide_run_code_init accepted. */
void gg_run_code_of(const glide_run_code *rc, gg_run_code *out);
/* Decodes a run-coded plane's n symbols (code d_dec, class codes *rc) from
 * its ceil(n / GLIDE_RUN_SEG_SYMS) segment-table entries and stream_bytes
 * bytes, with every check of glide_runs_decode: on any inconsistency
 * *d_err becomes nonzero (as gg_huff_decode: set, never cleared). Nothing
 * beyond the table and the stream is read. Scratch for n symbols in one
 * plane or two. */
size_t gg_runs_decode_scratch(uint64_t n);
cudaError_t gg_runs_decode(const glide_huff_dec *d_dec, const gg_run_code *rc, const uint8_t *d_segtab,
                           uint32_t n_segments, const uint8_t *d_stream, uint64_t stream_bytes, uint16_t *d_sym,
                           uint64_t n, unsigned *d_err, void *d_scratch, size_t scratch_bytes, cudaStream_t s);
/* Both planes run-coded, in one launch: plane 0's n0 symbols (d_dec0,
 * rc[0]) to d_sym0 and plane 1's n1 (d_dec1, rc[1]) to d_sym1, from the
 * whole segment table (plane 0's entries first) and stream, with the same
 * checks as decoding each plane against its own part of the stream. */
cudaError_t gg_runs_decode_planes(const glide_huff_dec *d_dec0, const glide_huff_dec *d_dec1,
                                  const gg_run_code rc[GLIDE_NPLANES], const uint8_t *d_segtab, uint32_t n_segments,
                                  const uint8_t *d_stream, uint64_t stream_bytes, uint16_t *d_sym0, uint64_t n0,
                                  uint16_t *d_sym1, uint64_t n1, unsigned *d_err, void *d_scratch,
                                  size_t scratch_bytes, cudaStream_t s);

#ifdef __cplusplus
}
#endif
#endif
