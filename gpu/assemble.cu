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

/* The plan kernels' blocks from `first` on zero z, beside the plan: the
 * tail's memset of the same words waited for the plan and kept the
 * encoder waiting (1.3 us and two gaps at 256^3). At most kZeroBlocks
 * extra blocks, each thread a few stores. */
constexpr unsigned kZeroBlocks = 64;

unsigned zero_blocks(gg_words z, unsigned threads)
{
    const uint64_t b = (z.n + threads - 1) / threads;
    return b < kZeroBlocks ? (unsigned)b : kZeroBlocks;
}

__device__ __forceinline__ void zero_words(gg_words z, unsigned first)
{
    const uint64_t step = (uint64_t)(gridDim.x - first) * blockDim.x;
    for (uint64_t i = (uint64_t)(blockIdx.x - first) * blockDim.x + threadIdx.x; i < z.n; i += step) z.p[i] = 0;
}

/* Both lanes' sums over the block, in every thread. */
__device__ double2 block_sum2(double2 v, double2 *s_part)
{
    for (int o = 16; o > 0; o >>= 1) {
        v.x += __shfl_xor_sync(0xFFFFFFFFu, v.x, o);
        v.y += __shfl_xor_sync(0xFFFFFFFFu, v.y, o);
    }
    if ((threadIdx.x & 31) == 0) s_part[threadIdx.x >> 5] = v;
    __syncthreads();
    double2 t = {0, 0};
    for (unsigned w = 0; w < blockDim.x / 32; w++) {
        t.x += s_part[w].x;
        t.y += s_part[w].y;
    }
    return t;
}

/* GLIDE_BOOK_AUTO, for each of np planes: whether the dictionary book's
 * bits exceed the slack over max(entropy, n), as cpu/codec.c decides. A
 * plane within slack * n is decided without its entropy (max(entropy, n)
 * >= n), as there; the others' entropies come from one pass over their
 * histograms and one block sum. The histogram's total is the plane's point
 * count (every point has one symbol; the host sums the same integer). The
 * entropy is summed in another order than the host's, and log2 may differ
 * in the last bit, so a tie within rounding can go the other way here: the
 * host's re-check catches it. Uniform: every thread returns the same. */
__device__ void over_slack(const uint64_t *const hist[GLIDE_NPLANES], const uint64_t bits[GLIDE_NPLANES],
                           const uint64_t n[GLIDE_NPLANES], unsigned np, double factor, double2 *s_part,
                           bool over[GLIDE_NPLANES])
{
    bool need[GLIDE_NPLANES];
    for (unsigned k = 0; k < GLIDE_NPLANES; k++) need[k] = k < np && (double)bits[k] > factor * (double)n[k];
    over[0] = over[1] = false;
    if (!need[0] && !need[1]) return;
    double h[GLIDE_NPLANES] = {0, 0};
    for (unsigned i = threadIdx.x; i < GLIDE_NSYM; i += blockDim.x) {
        uint64_t c[GLIDE_NPLANES];
        for (unsigned k = 0; k < GLIDE_NPLANES; k++) c[k] = need[k] ? __ldcg(hist[k] + i) : 0; /* both loads first */
        for (unsigned k = 0; k < GLIDE_NPLANES; k++)
            if (c[k]) h[k] -= (double)c[k] * log2((double)c[k] / (double)n[k]);
    }
    const double2 t = block_sum2(make_double2(h[0], h[1]), s_part);
    const double ht[GLIDE_NPLANES] = {t.x, t.y};
    for (unsigned k = 0; k < GLIDE_NPLANES; k++)
        over[k] = need[k] && (double)bits[k] > factor * fmax(ht[k], (double)n[k]);
}

__device__ unsigned book_version(const gg_plan_in &in, unsigned book)
{
    return book < in.old_books ? in.old_version : in.version;
}

__global__ void __launch_bounds__(kPlanThreads) plan_k(gg_plan_in in, const glide_huff_enc *dict_enc,
                                                       glide_huff_enc *enc, uint8_t *buf, gg_state *st,
                                                       gg_state *hst, volatile uint64_t *hflag, gg_words z)
{
    if (blockIdx.x > 0) {
        zero_words(z, 1);
        return;
    }
    __shared__ double2 s_part[kPlanThreads / 32];
    /* format 5: a book per plane, each chosen as the one book of formats 1-4 */
    const gg_select sel0 = in.planes ? st->sel_pl[0] : st->sel, sel1 = st->sel_pl[1];
    const uint64_t bits = in.planes ? sel0.bits + sel1.bits : sel0.bits;
    const unsigned book = sel0.book, book1 = in.planes ? sel1.book : 0;
    bool want_custom = in.book_mode == GLIDE_BOOK_CUSTOM;
    if (in.book_mode == GLIDE_BOOK_AUTO) {
        const uint64_t *const hists[GLIDE_NPLANES] = {in.planes ? st->hist_pl[0] : st->hist, st->hist_pl[1]};
        const uint64_t pbits[GLIDE_NPLANES] = {sel0.bits, sel1.bits};
        const uint64_t pn[GLIDE_NPLANES] = {in.planes ? in.n0 : in.n, in.n - in.n0};
        bool over[GLIDE_NPLANES];
        over_slack(hists, pbits, pn, in.planes ? 2u : 1u, in.auto_factor, s_part, over);
        want_custom = over[0] || over[1];
    }
    /* uniform from here: every thread computed the same sums */
    const uint64_t n_out = __ldcg(st->hist + GLIDE_SYM_OUTLIER);
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
    pl.runs = 0; /* the device plans plain planes only */
    if (!ok) {
        /* the host plans (a custom book may win) or checks RAW: it gets the
         * state now, in mapped memory, and learns it from the flag without
         * waiting for the stream. It reads both once the plan's event has
         * passed (plan_flag), by which every write of this kernel is
         * visible to it: no fence is needed to order them (a system-scope
         * fence waits for the writes to reach the host, on the device
         * plan's critical path too). */
        if (threadIdx.x == 0) st->place = pl;
        __syncthreads();
        static_assert(sizeof(gg_state) % 8 == 0, "copied as u64");
        for (unsigned w = threadIdx.x; w < sizeof(gg_state) / 8; w += blockDim.x)
            reinterpret_cast<uint64_t *>(hst)[w] = reinterpret_cast<const uint64_t *>(st)[w];
        if (threadIdx.x == 0) {
            hflag[1] = want_custom ? GG_PLAN_FLAG_HOST : GG_PLAN_FLAG_RAW;
            hflag[2] = 0;
            hflag[0] = in.seq;
        }
        return;
    }
    if (threadIdx.x == 0) {
        /* every state field this thread writes out, loaded before its first
         * store: a load after a store to buf (which may alias st, for all
         * the compiler knows) waits for a round trip to L2 of its own */
        const gg_levels lv = st->lv;
        const uint32_t s_lorenzo = st->lorenzo, s_slice = st->slice;
        st->place = pl;
        const bool chosen = in.method == GG_CHOSEN || in.method == GG_CHOSEN3;
        const bool lorenzo = in.method == GG_LORENZO || (chosen && s_lorenzo);
        const bool slice = in.method == GG_CHOSEN3 && s_slice; /* format 6 */
        buf[GLIDE_HDR_METHOD] = slice ? GLIDE_METHOD_SLICE : lorenzo ? GLIDE_METHOD_LORENZO : GLIDE_METHOD_INTERP;
        if (slice) buf[GLIDE_HDR_FORMAT_VERSION] = GLIDE_FORMAT_SLICE;
        if (in.planes) { /* format 5 (6), written by the host; the second book after the dims */
            const unsigned v0 = book_version(in, book), v1 = book_version(in, book1);
            buf[GLIDE_HDR_DICT_VERSION] = (uint8_t)(v0 > v1 ? v0 : v1);
            uint8_t *x = buf + in.header_bytes - GLIDE_HEADER_PLANES_EXT;
            x[GLIDE_HDRX_BOOK_KIND] = GLIDE_BOOKKIND_DICT;
            put_le(x + GLIDE_HDRX_BOOK_ID, book1, 2);
        } else {
            if (!lorenzo && lv.fill_aware) buf[GLIDE_HDR_FORMAT_VERSION] = GLIDE_FORMAT_FILL_AWARE;
            if (!lorenzo && lv.blended) buf[GLIDE_HDR_FORMAT_VERSION] = GLIDE_FORMAT_BLEND; /* format 4 */
            buf[GLIDE_HDR_DICT_VERSION] = (uint8_t)book_version(in, book);
        }
        buf[GLIDE_HDR_BOOK_KIND] = GLIDE_BOOKKIND_DICT;
        put_le(buf + GLIDE_HDR_BOOK_ID, book, 2);
        put_le(buf + GLIDE_HDR_EB_ABS, (uint64_t)__double_as_longlong(lv.eb_abs), 8);
        put_le(buf + GLIDE_HDR_ALPHA, (uint64_t)__double_as_longlong(lv.alpha), 8);
        put_le(buf + GLIDE_HDR_SUBST_BITS, lv.subst_bits, 8);
        put_le(buf + GLIDE_HDR_N_OUTLIERS, n_out, 8);
        for (int l = 0; l < GLIDE_MAX_LEVELS; l++) buf[GLIDE_HDR_LEVEL_CFG + l] = lorenzo ? 0 : lv.level_cfg[l];
        hflag[1] = GG_PLAN_FLAG_DEVICE;
        hflag[2] = pl.stream_off + bound + GLIDE_CRC_BYTES; /* the stream's size, at most */
        hflag[0] = in.seq; /* read after the plan's event: no fence (above) */
    }
    /* the chosen books' codes, every load issued before the first store */
    constexpr unsigned kE = sizeof(glide_huff_enc) / 2, kPer = (GLIDE_NPLANES * kE + kPlanThreads - 1) / kPlanThreads;
    static_assert(sizeof(glide_huff_enc) % 2 == 0, "copied as u16");
    const unsigned nc = (in.planes ? 2u : 1u) * kE;
    uint16_t v[kPer];
#pragma unroll
    for (unsigned u = 0; u < kPer; u++) {
        const unsigned i = threadIdx.x + u * kPlanThreads, k = i >= kE;
        if (i < nc) v[u] = reinterpret_cast<const uint16_t *>(dict_enc + (k ? book1 : book))[i - k * kE];
    }
#pragma unroll
    for (unsigned u = 0; u < kPer; u++) {
        const unsigned i = threadIdx.x + u * kPlanThreads;
        if (i < nc) reinterpret_cast<uint16_t *>(enc)[i] = v[u];
    }
}

/* Up to kApplyPer bytes a thread (the head's room, two codes and two
 * class codes: at most 8.8 KB over kApplyBlocks x 256 threads), all loaded
 * before any is stored: one block copying byte by byte waited for a load
 * per round, 6.8 us (ncu, H200). The plan is read in mapped host memory,
 * where a load costs a PCIe round trip: each thread loads its bytes at
 * fixed places (items 0 .. GG_APPLY_HEAD_MAX - 1 the head's room, then the
 * two codes, then the two class codes) together with the sizes and book
 * ids, in one round trip, and only then chooses what to store: loading the
 * sizes first and the bytes after them cost a second round trip. */
constexpr unsigned kApplyBlocks = 8, kApplyThreads = 256, kApplyPer = 5;
static_assert(kApplyBlocks * kApplyThreads * kApplyPer >=
                  GG_APPLY_HEAD_MAX + GLIDE_NPLANES * (sizeof(glide_huff_enc) + sizeof(glide_run_code)),
              "apply_plan_k covers every byte");

__global__ void __launch_bounds__(kApplyThreads) apply_plan_k(const gg_apply *a, const glide_huff_enc *dict_enc,
                                                              glide_huff_enc *enc, glide_run_code *rc, uint8_t *buf,
                                                              gg_state *st, gg_words z)
{
    if (blockIdx.x >= kApplyBlocks) {
        zero_words(z, kApplyBlocks);
        return;
    }
    constexpr uint32_t E = sizeof(glide_huff_enc), R = sizeof(glide_run_code), H = GG_APPLY_HEAD_MAX,
                       C = H + GLIDE_NPLANES * E, stride = kApplyBlocks * kApplyThreads;
    const bool first = blockIdx.x == 0 && threadIdx.x == 0;
    const uint32_t hb = a->head_bytes;
    uint32_t book[GLIDE_NPLANES];
    for (unsigned k = 0; k < GLIDE_NPLANES; k++) book[k] = a->book[k];
    gg_place p = {};
    if (first) p = a->place; /* ok = 0: an emptied plan (RAW, a failure), the tail runs empty */
    const uint8_t *codes = reinterpret_cast<const uint8_t *>(a->enc), *classes = reinterpret_cast<const uint8_t *>(a->rc);
    uint8_t v[kApplyPer];
#pragma unroll
    for (unsigned u = 0; u < kApplyPer; u++) {
        const uint32_t i = blockIdx.x * kApplyThreads + threadIdx.x + u * stride;
        v[u] = i < H ? a->head[i] : i < C ? codes[i - H] : i - C < GLIDE_NPLANES * R ? classes[i - C] : 0;
    }
    /* a dictionary book's code from the device's table, every load before any store */
    uint8_t *dst[kApplyPer];
#pragma unroll
    for (unsigned u = 0; u < kApplyPer; u++) {
        const uint32_t i = blockIdx.x * kApplyThreads + threadIdx.x + u * stride;
        dst[u] = nullptr;
        if (i < H) {
            if (i < hb) dst[u] = buf + i;
        } else if (i < C) {
            const uint32_t k = (i - H) / E, o = (i - H) - k * E, b = book[k];
            if (b != GG_APPLY_NONE) {
                if (b != GG_APPLY_CUSTOM) v[u] = reinterpret_cast<const uint8_t *>(&dict_enc[b])[o];
                dst[u] = reinterpret_cast<uint8_t *>(&enc[k]) + o;
            }
        } else if (i - C < GLIDE_NPLANES * R) {
            dst[u] = reinterpret_cast<uint8_t *>(rc) + (i - C);
        }
    }
#pragma unroll
    for (unsigned u = 0; u < kApplyPer; u++)
        if (dst[u]) *dst[u] = v[u];
    if (first) {
        p.outlier_ticket = 0;
        st->place = p;
    }
}

/* The host plan's gate (gpu_plan.c gg_plan_gate_queue): the state to the
 * host in mapped memory and the state word raised to seq, then the stream
 * held until the host raises the plan's word to seq or past it. A copy of
 * the state and a stream memory operation for the word, ahead of this
 * kernel, each added several microseconds of gap (docs/DESIGN.md). Each
 * thread's system fence puts its stores before the word (the host reads
 * the state once it sees the word: gg_state_wait). A stream wait on the
 * plan's word (cuStreamWaitValue32) let the next copy start long after the
 * host had raised it; one thread polling it sees it about a PCIe read
 * later. The acquire orders the host's plan, written before the word,
 * before the kernels behind this one. */
constexpr unsigned kGateThreads = 1024;
__global__ void __launch_bounds__(kGateThreads) state_gate_k(const gg_state *st, gg_state *hst, uint32_t *state_word,
                                                              const uint32_t *plan_word, uint32_t seq)
{
    static_assert(sizeof(gg_state) % 8 == 0, "copied as u64");
    for (unsigned w = threadIdx.x; w < sizeof(gg_state) / 8; w += blockDim.x)
        reinterpret_cast<volatile uint64_t *>(hst)[w] = reinterpret_cast<const uint64_t *>(st)[w];
    __threadfence_system();
    __syncthreads();
    if (threadIdx.x != 0) return;
    asm volatile("st.release.sys.u32 [%0], %1;" ::"l"(state_word), "r"(seq) : "memory");
    for (;;) {
        uint32_t v;
        asm volatile("ld.acquire.sys.u32 %0, [%1];" : "=r"(v) : "l"(plan_word) : "memory");
        if ((int32_t)(v - seq) >= 0) return;
        __nanosleep(64);
    }
}

} /* namespace */

extern "C" cudaError_t gg_state_gate(const gg_state *d_st, gg_state *h_st, uint32_t *h_state_word,
                                     const uint32_t *h_plan_word, uint32_t seq, cudaStream_t s)
{
    state_gate_k<<<1, kGateThreads, 0, s>>>(d_st, h_st, h_state_word, h_plan_word, seq);
    return cudaGetLastError();
}

extern "C" cudaError_t gg_plan(gg_plan_in in, const glide_huff_enc *d_dict_enc, glide_huff_enc *d_enc, uint8_t *d_buf,
                               gg_state *d_st, gg_state *h_st, uint64_t *h_flag, gg_words z, cudaStream_t s)
{
    plan_k<<<1 + zero_blocks(z, kPlanThreads), kPlanThreads, 0, s>>>(in, d_dict_enc, d_enc, d_buf, d_st, h_st, h_flag, z);
    return cudaGetLastError();
}

extern "C" cudaError_t gg_apply_plan(const gg_apply *d_a, const glide_huff_enc *d_dict_enc, glide_huff_enc *d_enc,
                                     glide_run_code *d_rc, uint8_t *d_buf, gg_state *d_st, gg_words z, cudaStream_t s)
{
    apply_plan_k<<<kApplyBlocks + zero_blocks(z, kApplyThreads), kApplyThreads, 0, s>>>(d_a, d_dict_enc, d_enc, d_rc,
                                                                                        d_buf, d_st, z);
    return cudaGetLastError();
}

extern "C" cudaError_t gg_finish(uint8_t *d_buf, uint64_t n_max, gg_state *d_st, void *d_scratch, size_t scratch_bytes,
                                 cudaStream_t s)
{
    /* crc_len is 0 when there is no stream: nothing is stored then */
    return gg_crc32_dn_store(d_buf, n_max, &d_st->crc_len, &d_st->crc, &d_st->crc_ticket, d_scratch, scratch_bytes, s);
}

/* The stream and the state's last fields straight into pinned host
 * memory, by the tail's last kernel: a copy queued behind the tail's graph
 * started up to 8.6 us after the CRC kernel had ended, then took 3.5 us,
 * and the state's fields 1.3 + 1.4 more (64^3, H200, gpu_trace). */
constexpr unsigned kDeliverBlocks = 32, kDeliverThreads = 256;

__global__ void __launch_bounds__(kDeliverThreads) deliver_k(const uint8_t *__restrict__ buf, const gg_state *__restrict__ st,
                                                            uint8_t *__restrict__ h_out, uint64_t limit,
                                                            gg_state *__restrict__ h_st, uint64_t *__restrict__ h_word)
{
    const uint64_t total = st->total;
    if (!st->place.ok || !total || total > limit) return;
    const uint64_t t = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x, stride = (uint64_t)gridDim.x * blockDim.x;
    const uint64_t n16 = total / 16;
    const uint4 *__restrict__ s4 = reinterpret_cast<const uint4 *>(buf);
    uint4 *__restrict__ d4 = reinterpret_cast<uint4 *>(h_out);
    for (uint64_t i = t; i < n16; i += stride) d4[i] = s4[i];
    for (uint64_t i = n16 * 16 + t; i < total; i += stride) h_out[i] = buf[i];
    if (blockIdx.x == 0) {
        constexpr size_t from = GG_STATE_TAIL / 8, to = sizeof(gg_state) / 8;
        static_assert(GG_STATE_TAIL % 8 == 0, "copied as u64");
        for (size_t w = from + threadIdx.x; w < to; w += blockDim.x)
            reinterpret_cast<uint64_t *>(h_st)[w] = reinterpret_cast<const uint64_t *>(st)[w];
        if (threadIdx.x == 0) *h_word = 1;
    }
}

extern "C" cudaError_t gg_deliver(const uint8_t *d_buf, const gg_state *d_st, uint8_t *h_out, uint64_t limit,
                                  gg_state *h_st, uint64_t *h_word, cudaStream_t s)
{
    deliver_k<<<kDeliverBlocks, kDeliverThreads, 0, s>>>(d_buf, d_st, h_out, limit, h_st, h_word);
    return cudaGetLastError();
}

extern "C" cudaError_t gg_check_crc(const uint8_t *d_buf, uint64_t crc_off, gg_state *d_st, void *d_scratch,
                                    size_t scratch_bytes, cudaStream_t s)
{
    return gg_crc32_check(d_buf, crc_off, &d_st->crc, &d_st->crc_bad, &d_st->crc_ticket, d_scratch, scratch_bytes, s);
}
