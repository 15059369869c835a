/* Stream assembly on the device (see assemble.cu): the entropy stage's
 * decisions and layout, the header, and the checksum. */
#ifndef GLIDE_GG_ASSEMBLE_H
#define GLIDE_GG_ASSEMBLE_H
#include "gg_state.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the host knows of a chunk's layout before any kernel runs. */
typedef struct {
    uint64_t n, n_segments, n_anchors;
    uint64_t header_bytes;
    uint64_t raw_total;  /* size of the RAW stream: the plan must beat it */
    double auto_factor;  /* GLIDE_BOOK_AUTO: 1 + slack */
    uint32_t esz;
    uint32_t book_mode;  /* GLIDE_BOOK_DICT, _CUSTOM or _AUTO */
    uint32_t method;     /* GG_INTERP, GG_LORENZO, GG_CHOSEN (st->lorenzo decides) or GG_CHOSEN3 (st->slice too) */
    /* the header's dict_version for the chosen book: old_version below
     * old_books (the older dictionary holds those books), else version */
    uint32_t old_books, old_version, version;
    uint64_t seq;        /* the chunk's number, echoed in the flag */
    uint64_t n0;         /* format 5: plane 0's symbols (st->sel_pl, st->hist_pl); the header's plane book
                            extension is the last 8 of header_bytes */
    uint32_t planes;     /* format 5: a book per plane, into d_enc[0] and d_enc[1] */
    uint32_t pad;
} gg_plan_in;

/* Words a plan's kernel zeroes beside its work (n = 0: none): the
 * encoder's look-back words (gg_huff_encode_words), which the tail's own
 * memset zeroed on the chunk's critical path. */
typedef struct {
    uint64_t *p;
    uint64_t n;
} gg_words;

/* gg_plan's word to the host, in mapped memory: flag[1] one of these,
 * flag[2] the stream's size at most (GG_PLAN_FLAG_DEVICE), then flag[0] =
 * the chunk's sequence number. flag[GG_FLAG_DELIVERED] is gg_deliver's:
 * the host zeroes it before the tail, the kernel sets it to 1. */
enum { GG_PLAN_FLAG_DEVICE = 1, GG_PLAN_FLAG_RAW = 2, GG_PLAN_FLAG_HOST = 3 };
enum { GG_FLAG_DELIVERED = 3, GG_FLAG_WORDS = 4 };

/* After gg_book_select: cpu/codec.c's glide_entropy_plan_hist for a
 * dictionary book, on the device. Fills st->place, patches the header at
 * d_buf (the host wrote the fields the parameters fix) and copies the
 * book's code from d_dict_enc to d_enc. Where a custom book may win
 * (GLIDE_BOOK_CUSTOM, or AUTO with the dictionary book over its slack) or
 * the stream would not beat RAW it declines (place.ok = 0): it copies the
 * state to h_st, and the flag tells the host (which waits for this kernel
 * alone, not the stream), and the host plans from that histogram while the
 * declined tail runs empty. The host re-checks every
 * device decision at the end. h_st and h_flag: device addresses of mapped
 * pinned memory. */
cudaError_t gg_plan(gg_plan_in in, const glide_huff_enc *d_dict_enc, glide_huff_enc *d_enc, uint8_t *d_buf,
                    gg_state *d_st, gg_state *h_st, uint64_t *h_flag, gg_words z, cudaStream_t s);
/* The host's plan instead of gg_plan's, as one gg_apply_plan reading this
 * from mapped memory: the header with its custom books and run books to
 * d_buf, each plane's code to d_enc (its own here, or dictionary book
 * `book` from d_dict_enc) and its class codes to d_rc (format 8; all off
 * for a plane coded point by point), st->place = place (ok = 1 for a
 * plan; 0, with no head and no books, makes the tail run empty) and the
 * outlier ticket rewound. Three copies and a kernel before, each waited
 * for by the next on a chunk's critical path. */
#define GG_APPLY_CUSTOM 0xFFFFFFFFu /* book[k]: the code is enc[k] */
#define GG_APPLY_NONE 0xFFFFFFFEu   /* book[1] of a stream without planes */
#define GG_APPLY_HEAD_MAX                                                                                \
    (GLIDE_HEADER_FIXED + 8 * GLIDE_MAX_RANK + GLIDE_HEADER_PLANES_EXT + GLIDE_NPLANES * GLIDE_NSYM + \
     GLIDE_NPLANES * GLIDE_RUN_BOOK_BYTES)
typedef struct {
    gg_place place;
    uint32_t book[GLIDE_NPLANES];
    uint32_t head_bytes;
    glide_huff_enc enc[GLIDE_NPLANES];
    glide_run_code rc[GLIDE_NPLANES];
    uint8_t head[GG_APPLY_HEAD_MAX];
} gg_apply;
/* d_a: the device address of the plan in mapped pinned memory, read in
 * place (its upload had cost a copy and an engine switch on the tail's
 * path). */
cudaError_t gg_apply_plan(const gg_apply *d_a, const glide_huff_enc *d_dict_enc, glide_huff_enc *d_enc,
                          glide_run_code *d_rc, uint8_t *d_buf, gg_state *d_st, gg_words z, cudaStream_t s);
/* Copies the state d_st to h_st and then sets *h_state_word = seq (device
 * addresses of mapped host memory, the word set once the state is there),
 * then holds stream s until the mapped word *h_plan_word reaches seq: the
 * kernels queued behind it may read what the host wrote before it. */
cudaError_t gg_state_gate(const gg_state *d_st, gg_state *h_st, uint32_t *h_state_word, const uint32_t *h_plan_word,
                          uint32_t seq, cudaStream_t s);
/* After the Huffman encode, which patched stream_bytes into the header
 * and set st->crc_len and st->total (gg_enc_fin): CRC header to stream
 * end, store the CRC. n_max bounds the CRC length. */
cudaError_t gg_finish(uint8_t *d_buf, uint64_t n_max, gg_state *d_st, void *d_scratch, size_t scratch_bytes,
                      cudaStream_t s);
/* After gg_finish, where the plan held (st->place.ok) and the stream's
 * st->total bytes are at most limit: copies them from d_buf to h_out and
 * the state's fields from GG_STATE_TAIL on to h_st (both device addresses of
 * pinned host memory), then sets *h_word = 1; else does nothing. */
cudaError_t gg_deliver(const uint8_t *d_buf, const gg_state *d_st, uint8_t *h_out, uint64_t limit, gg_state *h_st,
                       uint64_t *h_word, cudaStream_t s);
/* Sets st->crc_bad unless the CRC of d_buf[0..crc_off)
 * equals the u32 stored at crc_off. */
cudaError_t gg_check_crc(const uint8_t *d_buf, uint64_t crc_off, gg_state *d_st, void *d_scratch,
                         size_t scratch_bytes, cudaStream_t s);
#ifdef __cplusplus
}
#endif
#endif
