/* The stream's assembly on the device: the entropy stage's decisions and
 * section layout (cpu/codec.c's glide_entropy_plan_hist),
 * the header fields they fix, the checksum, and the one copy back to the
 * host. With these the encoder needs no host round trip in the middle of a
 * chunk; the host re-checks the decisions once the stream is back. */
#include "gg_assemble.h"
#include "gg_predict.h"
#include "huff_build_dev.cuh"

namespace {

constexpr unsigned kPlanThreads = 1024;
constexpr unsigned kCopyThreads = 256;
constexpr unsigned kCopyGridMax = 1024;

__device__ void put_le(uint8_t *p, uint64_t v, int bytes)
{
    for (int k = 0; k < bytes; k++) p[k] = (uint8_t)(v >> (8 * k));
}

__device__ double block_sum(double v, double *s_part)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, o);
    __syncthreads(); /* s_part free from any earlier use */
    if ((threadIdx.x & 31) == 0) s_part[threadIdx.x >> 5] = v;
    __syncthreads();
    double t = 0;
    for (unsigned w = 0; w < blockDim.x / 32; w++) t += s_part[w];
    return t;
}

typedef gg_build::Builder<kPlanThreads> Build;

__global__ void __launch_bounds__(kPlanThreads) plan_k(gg_plan_in in, const glide_huff_enc *dict_enc,
                                                       glide_huff_enc *enc, uint8_t *buf, gg_state *st)
{
    __shared__ typename Build::Storage S;
    __shared__ double s_part[kPlanThreads / 32];
    const uint64_t *hist = st->hist;
    const uint64_t dict_bits = st->sel.bits;
    const unsigned book = st->sel.book;
    bool want_custom = in.book_mode == GLIDE_BOOK_CUSTOM;
    if (in.book_mode == GLIDE_BOOK_AUTO) {
        /* glide_hist_entropy_bits summed in another order (and log2 may
         * differ from the host's in the last bit): a tie within rounding
         * can go the other way here, which the host's re-check catches */
        double c = 0, h = 0;
        for (unsigned i = threadIdx.x; i < GLIDE_NSYM; i += blockDim.x) c += (double)hist[i];
        const double total = block_sum(c, s_part); /* integers below 2^53: exact in any order */
        for (unsigned i = threadIdx.x; i < GLIDE_NSYM; i += blockDim.x)
            if (hist[i]) h -= (double)hist[i] * log2((double)hist[i] / total);
        h = block_sum(h, s_part);
        want_custom = (double)dict_bits > in.auto_factor * fmax(h, (double)in.n);
    }
    /* uniform from here: every thread computed the same sums */
    bool custom = false;
    uint64_t bits = dict_bits, book_bytes = 0;
    unsigned pos[gg_build::kItems];
    if (want_custom) {
        Build::lengths(S, hist, in.n);
        const uint64_t cbits = Build::bits(S, hist);
        const unsigned bb = Build::pack_positions(S, pos);
        /* auto keeps the dictionary book unless the custom one really is smaller */
        custom = in.book_mode == GLIDE_BOOK_CUSTOM || cbits + 8ull * bb < dict_bits;
        if (custom) {
            bits = cbits;
            book_bytes = bb;
        }
    }
    const uint64_t n_out = hist[GLIDE_SYM_OUTLIER];
    gg_place pl;
    pl.anchors_off = in.header_bytes + book_bytes;
    pl.outliers_off = pl.anchors_off + in.n_anchors * in.esz;
    pl.segtab_off = pl.outliers_off + n_out * in.esz;
    pl.stream_off = pl.segtab_off + 2 * in.n_segments;
    const uint64_t bound = (bits + 7ull * in.n_segments) / 8; /* every segment pads at most 7 bits */
    const bool ok = pl.stream_off + bound + GLIDE_CRC_BYTES < in.raw_total;
    pl.cap = ok ? in.raw_total - GLIDE_CRC_BYTES - pl.stream_off : 0;
    pl.ok = ok;
    pl.outlier_ticket = 0;
    if (threadIdx.x == 0) {
        st->place = pl;
        if (ok) {
            const bool lorenzo = in.method == GG_LORENZO || (in.method == GG_CHOSEN && st->lorenzo);
            buf[GLIDE_HDR_METHOD] = lorenzo ? GLIDE_METHOD_LORENZO : GLIDE_METHOD_INTERP;
            buf[GLIDE_HDR_BOOK_KIND] = custom ? GLIDE_BOOKKIND_CUSTOM : GLIDE_BOOKKIND_DICT;
            put_le(buf + GLIDE_HDR_BOOK_ID, custom ? 0 : book, 2);
            put_le(buf + GLIDE_HDR_EB_ABS, (uint64_t)__double_as_longlong(st->lv.eb_abs), 8);
            put_le(buf + GLIDE_HDR_ALPHA, (uint64_t)__double_as_longlong(st->lv.alpha), 8);
            put_le(buf + GLIDE_HDR_SUBST_BITS, st->lv.subst_bits, 8);
            put_le(buf + GLIDE_HDR_BOOK_BYTES, book_bytes, 4);
            put_le(buf + GLIDE_HDR_N_OUTLIERS, n_out, 8);
            for (int l = 0; l < GLIDE_MAX_LEVELS; l++) buf[GLIDE_HDR_LEVEL_CFG + l] = lorenzo ? 0 : st->lv.level_cfg[l];
        }
    }
    if (!ok) return;
    if (custom) {
        Build::pack_write(S, pos, buf + in.header_bytes);
        Build::canonical(S, enc->code, enc->len);
    } else {
        static_assert(sizeof(glide_huff_enc) % 2 == 0, "copied as u16");
        const uint16_t *from = reinterpret_cast<const uint16_t *>(dict_enc + book);
        uint16_t *to = reinterpret_cast<uint16_t *>(enc);
        for (unsigned i = threadIdx.x; i < sizeof(glide_huff_enc) / 2; i += blockDim.x) to[i] = from[i];
    }
}

__global__ void set_place_k(gg_state *st, gg_place pl) { st->place = pl; }

__global__ void finish_k(uint8_t *buf, gg_state *st)
{
    const unsigned long long sb = st->stream_bytes;
    if (!st->place.ok || sb == ~0ull) { /* declined, or did not fit: the host takes over */
        st->crc_len = 0;
        st->total = 0;
        return;
    }
    put_le(buf + GLIDE_HDR_STREAM_BYTES, sb, 8);
    st->crc_len = st->place.stream_off + sb;
    st->total = st->crc_len + GLIDE_CRC_BYTES;
}

__global__ void __launch_bounds__(kCopyThreads) copy_out_k(const uint8_t *__restrict__ buf, uint64_t n_max,
                                                           const gg_state *__restrict__ st, uint8_t *__restrict__ out,
                                                           gg_state *__restrict__ hst)
{
    const uint64_t total = st->total < n_max ? st->total : n_max;
    const uint64_t nv = total / 16, stride = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t gid = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    /* cudaMalloc'd and page-aligned pinned memory: 16-byte stores coalesce into large bus writes */
    for (uint64_t i = gid; i < nv; i += stride) reinterpret_cast<uint4 *>(out)[i] = reinterpret_cast<const uint4 *>(buf)[i];
    for (uint64_t i = nv * 16 + gid; i < total; i += stride) out[i] = buf[i];
    static_assert(sizeof(gg_state) % 8 == 0, "copied as u64");
    if (blockIdx.x == 0)
        for (unsigned w = threadIdx.x; w < sizeof(gg_state) / 8; w += blockDim.x)
            reinterpret_cast<uint64_t *>(hst)[w] = reinterpret_cast<const uint64_t *>(st)[w];
}

__global__ void check_crc_k(const uint8_t *buf, uint64_t crc_off, gg_state *st)
{
    uint32_t want = 0;
    for (int k = 0; k < 4; k++) want |= (uint32_t)buf[crc_off + k] << (8 * k);
    if (want != st->crc) st->crc_bad = 1;
}

} /* namespace */

extern "C" cudaError_t gg_plan(gg_plan_in in, const glide_huff_enc *d_dict_enc, glide_huff_enc *d_enc, uint8_t *d_buf,
                               gg_state *d_st, cudaStream_t s)
{
    plan_k<<<1, kPlanThreads, 0, s>>>(in, d_dict_enc, d_enc, d_buf, d_st);
    return cudaGetLastError();
}

extern "C" cudaError_t gg_set_place(gg_state *d_st, gg_place pl, cudaStream_t s)
{
    pl.ok = 1;
    pl.outlier_ticket = 0;
    set_place_k<<<1, 1, 0, s>>>(d_st, pl);
    return cudaGetLastError();
}

extern "C" cudaError_t gg_finish(uint8_t *d_buf, uint64_t n_max, gg_state *d_st, void *d_scratch, size_t scratch_bytes,
                                 cudaStream_t s)
{
    finish_k<<<1, 1, 0, s>>>(d_buf, d_st);
    /* crc_len is 0 when there is no stream: nothing is stored then */
    return gg_crc32_dn_store(d_buf, n_max, &d_st->crc_len, &d_st->crc, d_scratch, scratch_bytes, s);
}

extern "C" cudaError_t gg_copy_out(const uint8_t *d_buf, uint64_t n_max, const gg_state *d_st, uint8_t *h_out,
                                   gg_state *h_st, cudaStream_t s)
{
    const uint64_t want = (n_max / 16 + kCopyThreads - 1) / kCopyThreads;
    const unsigned grid = want < 1 ? 1u : want > kCopyGridMax ? kCopyGridMax : (unsigned)want;
    copy_out_k<<<grid, kCopyThreads, 0, s>>>(d_buf, n_max, d_st, h_out, h_st);
    return cudaGetLastError();
}

extern "C" cudaError_t gg_check_crc(const uint8_t *d_buf, uint64_t crc_off, gg_state *d_st, void *d_scratch,
                                    size_t scratch_bytes, cudaStream_t s)
{
    cudaError_t e = gg_crc32(d_buf, crc_off, &d_st->crc, d_scratch, scratch_bytes, s);
    if (e != cudaSuccess) return e;
    check_crc_k<<<1, 1, 0, s>>>(d_buf, crc_off, d_st);
    return cudaGetLastError();
}
