/* How a placed encode (huff_encode.cu, runs_encode.cu) reports its stream:
 * the size, and with a header to finish, the size patched into it and
 * the bytes the CRC covers (gg_enc_fin). */
#ifndef GLIDE_ENC_REPORT_CUH
#define GLIDE_ENC_REPORT_CUH
#include "gg_huff.h"

/* Where the stream's size goes: its word, and with head the finish of a
 * placed stream (gg_enc_fin). */
struct enc_out {
    uint64_t *stream_bytes;
    uint8_t *head; /* the stream's start (header), or NULL */
    uint64_t *crc_len, *total;
};

/* One thread calls it, once the size sb is known (UINT64_MAX: it did not fit). */
__device__ __forceinline__ void enc_report(const enc_out &o, const gg_place *place, uint64_t sb)
{
    *o.stream_bytes = sb;
    if (!o.head) return;
    if (!place->ok || sb == UINT64_MAX) { /* declined, or did not fit: the host takes over */
        *o.crc_len = 0;
        *o.total = 0;
        return;
    }
    for (int k = 0; k < 8; k++) o.head[GLIDE_HDR_STREAM_BYTES + k] = (uint8_t)(sb >> (8 * k));
    const uint64_t crc_len = place->stream_off + sb;
    *o.crc_len = crc_len;
    *o.total = crc_len + GLIDE_CRC_BYTES;
}
#endif
