/* Stream assembly on the device (see assemble.cu). */
#ifndef GLIDE_GG_ASSEMBLE_H
#define GLIDE_GG_ASSEMBLE_H
#include "gg_state.h"

/* byte offset of stream_bytes in the fixed header (docs/FORMAT.md §2.1) */
#define GG_HDR_STREAM_BYTES 72

#ifdef __cplusplus
extern "C" {
#endif
/* After gg_huff_encode: patch stream_bytes into the header, CRC header to
 * stream end, store the CRC; st->total = stream size (0 if the Huffman
 * stream did not fit). n_max bounds the CRC length. */
cudaError_t gg_finish(uint8_t *d_buf, uint64_t stream_off, uint64_t n_max, gg_state *d_st, void *d_scratch,
                      size_t scratch_bytes, cudaStream_t s);
/* Sets st->crc_bad unless the CRC of d_buf[0..crc_off)
 * equals the u32 stored at crc_off. */
cudaError_t gg_check_crc(const uint8_t *d_buf, uint64_t crc_off, gg_state *d_st, void *d_scratch,
                         size_t scratch_bytes, cudaStream_t s);
#ifdef __cplusplus
}
#endif
#endif
