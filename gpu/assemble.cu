/* The last steps of a device-assembled stream: the header's stream size,
 * where the CRC goes, and the decoder's CRC check. */
#include "gg_assemble.h"

__global__ void finish_k(uint8_t *buf, uint64_t stream_off, gg_state *st)
{
    unsigned long long sb = st->stream_bytes;
    if (sb == ~0ull) { /* did not fit: the host writes a RAW stream */
        st->crc_len = 0;
        st->total = 0;
        return;
    }
    for (int k = 0; k < 8; k++) buf[GG_HDR_STREAM_BYTES + k] = (uint8_t)(sb >> (8 * k));
    st->crc_len = stream_off + sb;
    st->total = stream_off + sb + GLIDE_CRC_BYTES;
}

__global__ void check_crc_k(const uint8_t *buf, uint64_t crc_off, gg_state *st)
{
    uint32_t want = 0;
    for (int k = 0; k < 4; k++) want |= (uint32_t)buf[crc_off + k] << (8 * k);
    if (want != st->crc) st->crc_bad = 1;
}

extern "C" cudaError_t gg_finish(uint8_t *d_buf, uint64_t stream_off, uint64_t n_max, gg_state *d_st,
                                 void *d_scratch, size_t scratch_bytes, cudaStream_t s)
{
    finish_k<<<1, 1, 0, s>>>(d_buf, stream_off, d_st);
    /* crc_len is 0 for a stream that did not fit: nothing is stored then */
    return gg_crc32_dn_store(d_buf, n_max, &d_st->crc_len, &d_st->crc, d_scratch, scratch_bytes, s);
}

extern "C" cudaError_t gg_check_crc(const uint8_t *d_buf, uint64_t crc_off, gg_state *d_st, void *d_scratch,
                                    size_t scratch_bytes, cudaStream_t s)
{
    cudaError_t e = gg_crc32(d_buf, crc_off, &d_st->crc, d_scratch, scratch_bytes, s);
    if (e != cudaSuccess) return e;
    check_crc_k<<<1, 1, 0, s>>>(d_buf, crc_off, d_st);
    return cudaGetLastError();
}
