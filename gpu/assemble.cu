/* The stream's assembly on the device: the entropy stage's decisions and
 * section layout (cpu/codec.c's glide_entropy_plan_hist, dictionary books),
 * the header fields they fix, and the checksum. With these the encoder needs no host round trip in the middle of a
 * chunk; the host re-checks the decisions once the stream is back. */
#include "gg_assemble.h"
#include "gg_predict.h"

namespace {

constexpr unsigned kPlanThreads = 1024;

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

/* GLIDE_BOOK_AUTO: whether the dictionary book's bits exceed the slack
 * over max(entropy, n). glide_hist_entropy_bits summed in another order
 * (and log2 may differ from the host's in the last bit): a tie within
 * rounding can go the other way here, which the host's re-check catches. */
__device__ bool over_slack(const uint64_t *hist, uint64_t bits, uint64_t n, double factor, double *s_part)
{
    double c = 0, h = 0;
    for (unsigned i = threadIdx.x; i < GLIDE_NSYM; i += blockDim.x) c += (double)hist[i];
    const double total = block_sum(c, s_part); /* integers below 2^53: exact in any order */
    for (unsigned i = threadIdx.x; i < GLIDE_NSYM; i += blockDim.x)
        if (hist[i]) h -= (double)hist[i] * log2((double)hist[i] / total);
    h = block_sum(h, s_part);
    return (double)bits > factor * fmax(h, (double)n);
}

__device__ unsigned book_version(const gg_plan_in &in, unsigned book)
{
    return book < in.old_books ? in.old_version : in.version;
}

__global__ void __launch_bounds__(kPlanThreads) plan_k(gg_plan_in in, const glide_huff_enc *dict_enc,
                                                       glide_huff_enc *enc, uint8_t *buf, gg_state *st,
                                                       gg_state *hst, volatile uint64_t *hflag)
{
    __shared__ double s_part[kPlanThreads / 32];
    const uint64_t *hist = st->hist;
    /* format 5: a book per plane, each chosen as the one book of formats 1-4 */
    const uint64_t bits = in.planes ? st->sel_pl[0].bits + st->sel_pl[1].bits : st->sel.bits;
    const unsigned book = in.planes ? st->sel_pl[0].book : st->sel.book, book1 = in.planes ? st->sel_pl[1].book : 0;
    bool want_custom = in.book_mode == GLIDE_BOOK_CUSTOM;
    if (in.book_mode == GLIDE_BOOK_AUTO) {
        if (in.planes) {
            const bool c0 = over_slack(st->hist_pl[0], st->sel_pl[0].bits, in.n0, in.auto_factor, s_part);
            const bool c1 = over_slack(st->hist_pl[1], st->sel_pl[1].bits, in.n - in.n0, in.auto_factor, s_part);
            want_custom = c0 || c1;
        } else {
            want_custom = over_slack(hist, bits, in.n, in.auto_factor, s_part);
        }
    }
    /* uniform from here: every thread computed the same sums */
    const uint64_t n_out = hist[GLIDE_SYM_OUTLIER];
    gg_place pl;
    pl.anchors_off = in.header_bytes; /* a dictionary book takes no bytes */
    pl.outliers_off = pl.anchors_off + in.n_anchors * in.esz;
    pl.segtab_off = pl.outliers_off + n_out * in.esz;
    pl.stream_off = pl.segtab_off + 2 * in.n_segments;
    const uint64_t bound = (bits + 7ull * in.n_segments) / 8; /* every segment pads at most 7 bits */
    const bool ok = !want_custom && pl.stream_off + bound + GLIDE_CRC_BYTES < in.raw_total;
    pl.cap = ok ? in.raw_total - GLIDE_CRC_BYTES - pl.stream_off : 0;
    pl.ok = ok;
    pl.outlier_ticket = 0;
    if (!ok) {
        /* the host plans (a custom book may win) or checks RAW: it gets the
         * state now, in mapped memory, and learns it from the flag without
         * waiting for the stream */
        if (threadIdx.x == 0) st->place = pl;
        __syncthreads();
        static_assert(sizeof(gg_state) % 8 == 0, "copied as u64");
        for (unsigned w = threadIdx.x; w < sizeof(gg_state) / 8; w += blockDim.x)
            reinterpret_cast<uint64_t *>(hst)[w] = reinterpret_cast<const uint64_t *>(st)[w];
        __threadfence_system();
        __syncthreads();
        if (threadIdx.x == 0) {
            hflag[1] = want_custom ? GG_PLAN_FLAG_HOST : GG_PLAN_FLAG_RAW;
            hflag[2] = 0;
            __threadfence_system();
            hflag[0] = in.seq;
        }
        return;
    }
    if (threadIdx.x == 0) {
        st->place = pl;
        const bool chosen = in.method == GG_CHOSEN || in.method == GG_CHOSEN3;
        const bool lorenzo = in.method == GG_LORENZO || (chosen && st->lorenzo);
        const bool slice = in.method == GG_CHOSEN3 && st->slice; /* format 6 */
        buf[GLIDE_HDR_METHOD] = slice ? GLIDE_METHOD_SLICE : lorenzo ? GLIDE_METHOD_LORENZO : GLIDE_METHOD_INTERP;
        if (slice) buf[GLIDE_HDR_FORMAT_VERSION] = GLIDE_FORMAT_SLICE;
        if (in.planes) { /* format 5 (6), written by the host; the second book after the dims */
            const unsigned v0 = book_version(in, book), v1 = book_version(in, book1);
            buf[GLIDE_HDR_DICT_VERSION] = (uint8_t)(v0 > v1 ? v0 : v1);
            uint8_t *x = buf + in.header_bytes - GLIDE_HEADER_PLANES_EXT;
            x[GLIDE_HDRX_BOOK_KIND] = GLIDE_BOOKKIND_DICT;
            put_le(x + GLIDE_HDRX_BOOK_ID, book1, 2);
        } else {
            if (!lorenzo && st->lv.fill_aware) buf[GLIDE_HDR_FORMAT_VERSION] = GLIDE_FORMAT_FILL_AWARE;
            if (!lorenzo && st->lv.blended) buf[GLIDE_HDR_FORMAT_VERSION] = GLIDE_FORMAT_BLEND; /* format 4 */
            buf[GLIDE_HDR_DICT_VERSION] = (uint8_t)book_version(in, book);
        }
        buf[GLIDE_HDR_BOOK_KIND] = GLIDE_BOOKKIND_DICT;
        put_le(buf + GLIDE_HDR_BOOK_ID, book, 2);
        put_le(buf + GLIDE_HDR_EB_ABS, (uint64_t)__double_as_longlong(st->lv.eb_abs), 8);
        put_le(buf + GLIDE_HDR_ALPHA, (uint64_t)__double_as_longlong(st->lv.alpha), 8);
        put_le(buf + GLIDE_HDR_SUBST_BITS, st->lv.subst_bits, 8);
        put_le(buf + GLIDE_HDR_N_OUTLIERS, n_out, 8);
        for (int l = 0; l < GLIDE_MAX_LEVELS; l++) buf[GLIDE_HDR_LEVEL_CFG + l] = lorenzo ? 0 : st->lv.level_cfg[l];
        hflag[1] = GG_PLAN_FLAG_DEVICE;
        hflag[2] = pl.stream_off + bound + GLIDE_CRC_BYTES; /* the stream's size, at most */
        __threadfence_system();
        hflag[0] = in.seq;
    }
    static_assert(sizeof(glide_huff_enc) % 2 == 0, "copied as u16");
    for (unsigned k = 0; k < (in.planes ? 2u : 1u); k++) {
        const uint16_t *from = reinterpret_cast<const uint16_t *>(dict_enc + (k ? book1 : book));
        uint16_t *to = reinterpret_cast<uint16_t *>(enc + k);
        for (unsigned i = threadIdx.x; i < sizeof(glide_huff_enc) / 2; i += blockDim.x) to[i] = from[i];
    }
}

/* Up to kApplyPer bytes a thread (head and two codes: at most 8.5 KB over
 * kApplyBlocks x 256 threads), all loaded before any is stored: one block
 * copying byte by byte waited for a load per round, 6.8 us (ncu, H200). */
constexpr unsigned kApplyBlocks = 8, kApplyThreads = 256, kApplyPer = 5;
static_assert(kApplyBlocks * kApplyThreads * kApplyPer >= GG_APPLY_HEAD_MAX + GLIDE_NPLANES * sizeof(glide_huff_enc),
              "apply_plan_k covers every byte");

__global__ void __launch_bounds__(kApplyThreads) apply_plan_k(const gg_apply *a, const glide_huff_enc *dict_enc,
                                                              glide_huff_enc *enc, uint8_t *buf, gg_state *st)
{
    constexpr uint32_t E = sizeof(glide_huff_enc);
    const uint32_t hb = a->head_bytes, stride = kApplyBlocks * kApplyThreads;
    const uint8_t *src[GLIDE_NPLANES];
    for (unsigned k = 0; k < GLIDE_NPLANES; k++) {
        const uint32_t b = a->book[k];
        src[k] = b == GG_APPLY_NONE ? nullptr
                                    : reinterpret_cast<const uint8_t *>(b == GG_APPLY_CUSTOM ? &a->enc[k] : &dict_enc[b]);
    }
    /* bytes 0 .. hb - 1: the head; then each plane's code */
    uint8_t v[kApplyPer];
    uint8_t *dst[kApplyPer];
#pragma unroll
    for (unsigned u = 0; u < kApplyPer; u++) {
        const uint32_t i = blockIdx.x * kApplyThreads + threadIdx.x + u * stride;
        dst[u] = nullptr;
        if (i < hb) {
            v[u] = a->head[i];
            dst[u] = buf + i;
        } else if (i - hb < GLIDE_NPLANES * E) {
            const uint32_t k = (i - hb) / E, o = (i - hb) - k * E;
            if (src[k]) {
                v[u] = src[k][o];
                dst[u] = reinterpret_cast<uint8_t *>(&enc[k]) + o;
            }
        }
    }
#pragma unroll
    for (unsigned u = 0; u < kApplyPer; u++)
        if (dst[u]) *dst[u] = v[u];
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        gg_place p = a->place;
        p.ok = 1;
        p.outlier_ticket = 0;
        st->place = p;
    }
}

__global__ void finish_k(uint8_t *buf, gg_state *st)
{
    const unsigned long long sb = st->stream_bytes; /* format 5: both planes' */
    if (!st->place.ok || sb == ~0ull) { /* declined, or did not fit: the host takes over */
        st->crc_len = 0;
        st->total = 0;
        return;
    }
    put_le(buf + GLIDE_HDR_STREAM_BYTES, sb, 8);
    st->crc_len = st->place.stream_off + sb;
    st->total = st->crc_len + GLIDE_CRC_BYTES;
}

} /* namespace */

extern "C" cudaError_t gg_plan(gg_plan_in in, const glide_huff_enc *d_dict_enc, glide_huff_enc *d_enc, uint8_t *d_buf,
                               gg_state *d_st, gg_state *h_st, uint64_t *h_flag, cudaStream_t s)
{
    plan_k<<<1, kPlanThreads, 0, s>>>(in, d_dict_enc, d_enc, d_buf, d_st, h_st, h_flag);
    return cudaGetLastError();
}

extern "C" cudaError_t gg_apply_plan(const gg_apply *d_a, const glide_huff_enc *d_dict_enc, glide_huff_enc *d_enc,
                                     uint8_t *d_buf, gg_state *d_st, cudaStream_t s)
{
    apply_plan_k<<<kApplyBlocks, kApplyThreads, 0, s>>>(d_a, d_dict_enc, d_enc, d_buf, d_st);
    return cudaGetLastError();
}

extern "C" cudaError_t gg_finish(uint8_t *d_buf, uint64_t n_max, gg_state *d_st, void *d_scratch, size_t scratch_bytes,
                                 cudaStream_t s)
{
    finish_k<<<1, 1, 0, s>>>(d_buf, d_st);
    /* crc_len is 0 when there is no stream: nothing is stored then */
    return gg_crc32_dn_store(d_buf, n_max, &d_st->crc_len, &d_st->crc, &d_st->crc_ticket, d_scratch, scratch_bytes, s);
}

extern "C" cudaError_t gg_check_crc(const uint8_t *d_buf, uint64_t crc_off, gg_state *d_st, void *d_scratch,
                                    size_t scratch_bytes, cudaStream_t s)
{
    return gg_crc32_check(d_buf, crc_off, &d_st->crc, &d_st->crc_bad, &d_st->crc_ticket, d_scratch, scratch_bytes, s);
}
