/* Stream assembly on the device (see assemble.cu): the entropy stage's
 * decisions and layout, the header, the checksum, and the one copy back. */
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
    uint32_t method;     /* GG_INTERP, GG_LORENZO or GG_CHOSEN (st->lorenzo decides) */
} gg_plan_in;

/* After gg_book_select: cpu/codec.c's glide_entropy_plan_hist on the
 * device, custom books included (built by one block exactly as the CPU
 * builds them). Fills st->place, patches the header at d_buf (the host
 * wrote the fields the parameters fix), writes a custom book's section,
 * and puts the chosen code in d_enc. place.ok = 0 when the stream would
 * not beat RAW. The host re-checks every decision at the end. */
cudaError_t gg_plan(gg_plan_in in, const glide_huff_enc *d_dict_enc, glide_huff_enc *d_enc, uint8_t *d_buf,
                    gg_state *d_st, cudaStream_t s);
/* The host's plan instead of gg_plan's: st->place = {the offsets, cap,
 * ok = 1}, outlier ticket rewound. */
cudaError_t gg_set_place(gg_state *d_st, gg_place pl, cudaStream_t s);
/* After the Huffman encode: patch stream_bytes into the header, CRC header
 * to stream end, store the CRC; st->total = stream size (0 if the plan
 * declined or the Huffman stream did not fit). n_max bounds the CRC length. */
cudaError_t gg_finish(uint8_t *d_buf, uint64_t n_max, gg_state *d_st, void *d_scratch, size_t scratch_bytes,
                      cudaStream_t s);
/* The chunk's one copy back: d_buf[0..st->total) to h_out and the state to
 * h_st, both mapped pinned host memory (their device addresses), in one
 * kernel, so only the real size crosses the bus. n_max bounds total. */
cudaError_t gg_copy_out(const uint8_t *d_buf, uint64_t n_max, const gg_state *d_st, uint8_t *h_out, gg_state *h_st,
                        cudaStream_t s);
/* Sets st->crc_bad unless the CRC of d_buf[0..crc_off)
 * equals the u32 stored at crc_off. */
cudaError_t gg_check_crc(const uint8_t *d_buf, uint64_t crc_off, gg_state *d_st, void *d_scratch,
                         size_t scratch_bytes, cudaStream_t s);
#ifdef __cplusplus
}
#endif
#endif
