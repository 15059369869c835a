/* Segmented canonical Huffman encoding on the device, byte-identical to
 * cpu/huff_codec.c's glide_huff_encode (docs/FORMAT.md section 10).
 *
 * Segments are byte-aligned, so each is coded on its own once its byte
 * offset is known, and one pass does it all: a segment's coder publishes
 * its byte count before coding and finds its offset by a decoupled
 * look-back over the counts published before it (segments are taken from
 * a ticket, so every segment waited on belongs to a coder already
 * running), then copies the segment out. Two forms: up to kSmallSegs
 * segments (256 in a 64^3 chunk) a block a segment (k_enc_small), past
 * that a warp a segment (k_enc_fused). They replaced a size pass, a CUB
 * scan of the counts (or, for few segments, every block summing the counts
 * before its own) and a writer that read every symbol again. CUB's own
 * single-pass tile states are agent-level internals, not its stable API,
 * so the look-back is written here.
 *
 * Format 5's two planes go through the same launches: segments are plane
 * 0's then plane 1's (each plane's symbols from its own array, coded with
 * its own book), so plane 1's stream comes right after plane 0's, as the
 * format lays them out. Where plane_runs.h applies (rows of whole groups
 * of 64 points) both planes are read in place from the raster order, a
 * run of 32 symbols a lane, and the planes are never copied out: the
 * split pass cost far more than reading in place adds to this kernel
 * (docs/DESIGN.md).
 *
 * Books are trusted to be valid prefix codes (as the CPU trusts them); a
 * length above 16 is clamped and a codeword masked to its length so that a
 * bad book can give wrong bytes but never a write outside the buffers. A
 * symbol >= GLIDE_NSYM encodes as nothing, for the same reason. */
#include "gg_huff.h"
#include "enc_report.cuh"
#include <atomic>

namespace {

constexpr unsigned kWriteThreads = 256;                      /* both coders: 8 warps a block */
constexpr unsigned kWarps = kWriteThreads / 32;              /* k_enc_fused: one segment per warp */
constexpr unsigned kLaneSyms = GLIDE_SEG_SYMS / 32;
constexpr unsigned kSegBytes = 2 * GLIDE_SEG_SYMS;           /* 1024 codewords of <= 16 bits */
constexpr unsigned kSegWords = kSegBytes / 4;
constexpr unsigned kSmallSegs = 2048; /* up to this many segments, k_enc_small */
static_assert(kLaneSyms % 8 == 0, "k_enc_fused loads a lane's symbols as 16-byte vectors");
static_assert(GLIDE_SEG_SYMS == 4 * kWriteThreads, "k_enc_small codes four symbols per thread");
static_assert(GLIDE_HUFF_MAX_LEN <= 16, "a codeword must span at most two 32-bit words");

__device__ __forceinline__ unsigned clamp_len(unsigned l) { return l > GLIDE_HUFF_MAX_LEN ? GLIDE_HUFF_MAX_LEN : l; }

/* Four consecutive symbols starting at i (a multiple of 4); those at or
 * past n read as GLIDE_NSYM, i.e. encode as nothing. One 8-byte load when
 * the array is 8-byte aligned (segments start at multiples of 2048 bytes). */
__device__ __forceinline__ void load4(const uint16_t *__restrict__ sym, uint64_t i, uint64_t n, bool aligned8,
                                      unsigned s[4])
{
    if (aligned8 && i + 4 <= n) {
        const uint2 v = __ldg(reinterpret_cast<const uint2 *>(sym + i));
        s[0] = v.x & 0xFFFFu; s[1] = v.x >> 16; s[2] = v.y & 0xFFFFu; s[3] = v.y >> 16;
    } else {
        for (int j = 0; j < 4; j++) s[j] = i + j < n ? __ldg(sym + i + j) : GLIDE_NSYM;
    }
}

/* The symbols to code: plane 0's n[0] from sym[0] (its seg0 segments
 * first), then plane 1's n[1] from sym[1] (none with one plane); enc[k] is
 * plane k's code. With in_place, both planes are read from the raster
 * order at sym[0] by their runs (plane_runs.h). */
struct seg_map {
    const uint16_t *sym[GLIDE_NPLANES];
    uint64_t n[GLIDE_NPLANES];
    uint64_t seg0;
    gg_plane_runs runs;
    uint32_t in_place;
};

/* word k of a vector (k a constant after unrolling) */
__device__ __forceinline__ unsigned word_of(const uint4 &v, unsigned k)
{
    return k < 2 ? (k == 0 ? v.x : v.y) : (k == 2 ? v.z : v.w);
}

/* In place: a lane's 32 codes, run q of plane p (plane_runs.h); four
 * 16-byte loads for a run of consecutive points, eight for every other. */
static_assert(kLaneSyms == GG_RUN_SYMS, "a lane codes one run");
__device__ __forceinline__ void codes_in_place(const seg_map &m, unsigned p, uint32_t q, const uint32_t *tab,
                                               uint32_t e[kLaneSyms])
{
    unsigned pick;
    const uint4 *v = reinterpret_cast<const uint4 *>(m.sym[0] + gg_run_start(m.runs, p, q, pick));
    uint4 u[8];
#pragma unroll
    for (unsigned k = 0; k < 8; k++) u[k] = k < 4 || pick ? __ldg(v + k) : make_uint4(0, 0, 0, 0);
    const unsigned sh = pick == 2 ? 16 : 0;
#pragma unroll
    for (unsigned j = 0; j < kLaneSyms; j++) {
        const unsigned a = word_of(u[j >> 3], (j & 7) >> 1) >> (16 * (j & 1));
        const unsigned b = word_of(u[j >> 2], j & 3) >> sh;
        const unsigned sy = (pick ? b : a) & 0xFFFFu;
        e[j] = tab[sy < GLIDE_NSYM ? sy : GLIDE_NSYM];
    }
}

/* In place: the four symbols of plane p from its r-th (a multiple of 4;
 * plane counts are multiples of 32 here) */
__device__ __forceinline__ void load4_in_place(const seg_map &m, unsigned p, uint64_t r, unsigned s[4])
{
    if (r >= m.n[p]) {
        s[0] = s[1] = s[2] = s[3] = GLIDE_NSYM;
        return;
    }
    unsigned pick;
    const uint64_t at = gg_run_start(m.runs, p, (uint32_t)(r / GG_RUN_SYMS), pick);
    const unsigned off = (unsigned)(r % GG_RUN_SYMS);
    if (!pick) {
        const uint2 v = __ldg(reinterpret_cast<const uint2 *>(m.sym[0] + at + off));
        s[0] = v.x & 0xFFFFu; s[1] = v.x >> 16; s[2] = v.y & 0xFFFFu; s[3] = v.y >> 16;
    } else {
        const uint4 v = __ldg(reinterpret_cast<const uint4 *>(m.sym[0] + at + 2 * off));
        const unsigned sh = pick == 2 ? 16 : 0;
        s[0] = (v.x >> sh) & 0xFFFFu; s[1] = (v.y >> sh) & 0xFFFFu; s[2] = (v.z >> sh) & 0xFFFFu; s[3] = (v.w >> sh) & 0xFFFFu;
    }
}


/* Segment seg's plane, first symbol within that plane's array, and the
 * plane's symbol count. */
__device__ __forceinline__ unsigned seg_plane(const seg_map &m, uint64_t seg, uint64_t &s0, uint64_t &n)
{
    const unsigned k = seg >= m.seg0;
    s0 = (seg - (k ? m.seg0 : 0)) * GLIDE_SEG_SYMS;
    n = m.n[k];
    return k;
}

/* The coders' common start: a placed encode (offsets from the device's
 * plan) that the plan declined writes nothing and reports no stream
 * (uniform over the grid); else out and cap move to the placed stream. */
__device__ __forceinline__ bool enc_place(const gg_place *place, uint8_t *__restrict__ &out, uint64_t &cap,
                                          const enc_out &o)
{
    if (!place) return true;
    if (!place->ok) {
        if (blockIdx.x == 0 && threadIdx.x == 0) enc_report(o, place, UINT64_MAX);
        return false;
    }
    out += place->stream_off;
    cap = place->cap;
    return true;
}

/* s_tab[i] = code | len << 16, codes masked to their clamped length;
 * entry GLIDE_NSYM encodes nothing */
template <unsigned NT> __device__ __forceinline__ void enc_table(const glide_huff_enc *__restrict__ enc, uint32_t *s_tab)
{
    /* every load before the first store (one round trip, not one per entry) */
    constexpr unsigned kPer = (GLIDE_NSYM + 1 + NT - 1) / NT;
    unsigned c[kPer], l[kPer];
#pragma unroll
    for (unsigned u = 0; u < kPer; u++) {
        const unsigned i = threadIdx.x + u * NT;
        c[u] = i < GLIDE_NSYM ? enc->code[i] : 0u;
        l[u] = i < GLIDE_NSYM ? enc->len[i] : 0u;
    }
#pragma unroll
    for (unsigned u = 0; u < kPer; u++) {
        const unsigned i = threadIdx.x + u * NT;
        const unsigned len = clamp_len(l[u]);
        if (i <= GLIDE_NSYM) s_tab[i] = i < GLIDE_NSYM ? (c[u] & ((1u << len) - 1u)) | len << 16 : 0u;
    }
}

/* ORs a thread's chunk of L <= 64 bits (its four codewords, the first in
 * the high bits) at stream bit pos of the segment buffer; words hold the
 * bytes big-endian, so stream bit 32w is the word's MSB. The chunk spans
 * at most three words: at most three shared atomics per thread instead of
 * up to two per codeword, which at about a bit per symbol all fell on a
 * few words and serialised there. */
__device__ __forceinline__ void put_chunk(uint32_t *buf, unsigned pos, unsigned long long chunk, unsigned L)
{
    if (!L) return;
    const unsigned w0 = pos >> 5, s = 96 - (pos & 31) - L; /* the chunk shifted into a 96-bit window */
    const unsigned long long lo = s < 64 ? chunk << s : 0;
    const unsigned p0 = (unsigned)(s >= 64 ? chunk << (s - 64) : chunk >> (64 - s));
    const unsigned p1 = (unsigned)(lo >> 32), p2 = (unsigned)lo;
    if (p0) atomicOr(&buf[w0], p0);
    if (p1) atomicOr(&buf[w0 + 1], p1);
    if (p2) atomicOr(&buf[w0 + 2], p2);
}

/* Both coders' look-back words, one per segment: a status in the top two
 * bits over a byte count (the segment's own, or every byte up to its
 * end). A word is stored whole, so a reader sees either status with its
 * count; zeroed before each launch (huff_encode's memset, or for the
 * codec's placed encodes the plan's kernel: gg_huff_encode_words). */
constexpr uint64_t kFlagAgg = 1ull << 62, kFlagInc = 2ull << 62, kFlagVal = (1ull << 62) - 1;

__device__ __forceinline__ uint64_t flag_load(const uint64_t *p) { return *reinterpret_cast<const volatile uint64_t *>(p); }
__device__ __forceinline__ void flag_store(uint64_t *p, uint64_t v) { *reinterpret_cast<volatile uint64_t *>(p) = v; }

/* The bytes before segment seg > 0 (all lanes of the warp): the counts of
 * the segments before it, 32 at a time, back to the nearest one whose
 * word holds its inclusive total. Every segment below seg was taken from
 * the ticket by a running warp, which stores its count before it waits on
 * anything, so the wait ends. */
__device__ __forceinline__ uint64_t look_back(const uint64_t *flags, uint64_t seg, unsigned lane)
{
    uint64_t sum = 0;
    for (int64_t j = (int64_t)seg - 1;; j -= 32) {
        const int64_t idx = j - (int64_t)lane;
        uint64_t f = idx >= 0 ? flag_load(flags + idx) : kFlagInc; /* before the first segment: 0 bytes */
        while (__any_sync(0xFFFFFFFFu, !(f >> 62)))
            if (!(f >> 62)) f = flag_load(flags + idx);
        const unsigned inc = __ballot_sync(0xFFFFFFFFu, (f >> 62) == 2u);
        uint64_t v = f & kFlagVal;
        if (inc && lane > (unsigned)(__ffs(inc) - 1)) v = 0; /* only up to the nearest inclusive word */
        for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, o);
        sum += v;
        if (inc) return sum;
    }
}

/* One warp per segment, taken from *ticket (so every segment a warp waits
 * on belongs to a warp already running): lane i encodes symbols 32i ..
 * 32i + 31 of it, MSB first, from its bit offset (a warp scan of the
 * lanes' lengths) into the warp's 2048-byte shared buffer, whose words
 * hold the bytes big-endian (stream bit 32w is the word's MSB). A lane's
 * bits fill whole words but for its first and last, which it may share
 * with its neighbours: ORs into a zeroed buffer. The segment's byte count
 * is published before the coding and the look-back after it, so a
 * successor rarely waits; then the bytes go out, those within cap. The
 * warp of the last segment reports the stream's size. */
__global__ void __launch_bounds__(kWriteThreads) k_enc_fused(seg_map sm, uint64_t n_seg,
                                                             const glide_huff_enc *__restrict__ enc,
                                                             uint8_t *__restrict__ segtab, uint64_t *flags,
                                                             unsigned long long *ticket, uint8_t *__restrict__ out,
                                                             uint64_t cap, const gg_place *place, enc_out o)
{
    if (!enc_place(place, out, cap, o)) return;
    if (place) segtab += place->segtab_off;
    __shared__ uint32_t s_tab[GLIDE_NPLANES][GLIDE_NSYM + 1]; /* per plane: code | len << 16; entry GLIDE_NSYM = nothing */
    __shared__ uint32_t s_buf[kWarps][kSegWords];

    const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    enc_table<kWriteThreads>(enc, s_tab[0]);
    if (sm.n[1]) enc_table<kWriteThreads>(enc + 1, s_tab[1]);
    __syncthreads();
    uint32_t *buf = s_buf[warp];

    for (;;) {
        unsigned long long t = 0;
        if (lane == 0) t = atomicAdd(ticket, 1ull);
        const uint64_t seg = __shfl_sync(0xFFFFFFFFu, t, 0);
        if (seg >= n_seg) break;
        for (unsigned w = lane; w < kSegWords; w += 32) buf[w] = 0;
        uint64_t s0, n;
        const unsigned pk = seg_plane(sm, seg, s0, n);
        const uint16_t *sym = sm.sym[pk];
        const uint32_t *tab = s_tab[pk];
        const bool aligned16 = ((uintptr_t)sym & 15u) == 0;
        s0 += lane * kLaneSyms;
        uint32_t e[kLaneSyms];
        unsigned mine = 0;
        if (sm.in_place) {
            if (s0 < n) {
                codes_in_place(sm, pk, (uint32_t)(s0 / GG_RUN_SYMS), tab, e);
            } else {
#pragma unroll
                for (unsigned j = 0; j < kLaneSyms; j++) e[j] = tab[GLIDE_NSYM];
            }
        } else if (aligned16 && s0 + kLaneSyms <= n) {
            const uint4 *v = reinterpret_cast<const uint4 *>(sym + s0);
#pragma unroll
            for (unsigned q = 0; q < kLaneSyms / 8; q++) {
                const uint4 u = __ldg(v + q);
                const unsigned w4[4] = {u.x, u.y, u.z, u.w};
#pragma unroll
                for (unsigned h = 0; h < 8; h++) {
                    const unsigned sy = (w4[h >> 1] >> (16 * (h & 1))) & 0xFFFFu;
                    e[8 * q + h] = tab[sy < GLIDE_NSYM ? sy : GLIDE_NSYM];
                }
            }
        } else {
#pragma unroll
            for (unsigned j = 0; j < kLaneSyms; j++) {
                const unsigned sy = s0 + j < n ? __ldg(sym + s0 + j) : GLIDE_NSYM;
                e[j] = tab[sy < GLIDE_NSYM ? sy : GLIDE_NSYM];
            }
        }
#pragma unroll
        for (unsigned j = 0; j < kLaneSyms; j++) mine += e[j] >> 16;
        unsigned inc = mine;
        for (int d = 1; d < 32; d <<= 1) {
            const unsigned v = __shfl_up_sync(0xFFFFFFFFu, inc, d);
            if ((int)lane >= d) inc += v;
        }
        const unsigned pos = inc - mine;
        const uint64_t nbytes = (__shfl_sync(0xFFFFFFFFu, inc, 31) + 7u) >> 3; /* <= 2048 */
        if (lane == 0) {
            flag_store(flags + seg, (seg ? kFlagAgg : kFlagInc) | nbytes);
            segtab[2 * seg] = (uint8_t)nbytes;
            segtab[2 * seg + 1] = (uint8_t)(nbytes >> 8);
        }
        __syncwarp(); /* the zeroed buffer */
        unsigned wi = pos >> 5, nb = pos & 31;
        unsigned long long acc = 0;
#pragma unroll
        for (unsigned j = 0; j < kLaneSyms; j++) {
            const unsigned l = e[j] >> 16;
            acc = acc << l | (e[j] & 0xFFFFu); /* codes masked to length */
            nb += l;
            if (nb >= 32) {
                nb -= 32;
                const unsigned word = (unsigned)(acc >> nb);
                if (word) atomicOr(&buf[wi], word);
                wi++;
                acc &= (1ull << nb) - 1ull;
            }
        }
        if (nb && acc) atomicOr(&buf[wi], (unsigned)(acc << (32 - nb)));
        const uint64_t base = seg ? look_back(flags, seg, lane) : 0;
        if (seg && lane == 0) flag_store(flags + seg, kFlagInc | (base + nbytes));
        if (seg + 1 == n_seg && lane == 0) enc_report(o, place, base + nbytes > cap ? UINT64_MAX : base + nbytes);
        __syncwarp(); /* segment complete */
        if (base + nbytes <= cap)
            for (unsigned b = lane; b < nbytes; b += 32) out[base + b] = (uint8_t)(buf[b >> 2] >> (24 - 8 * (b & 3)));
        __syncwarp(); /* reads of buf done before the next segment zeroes it */
    }
}

/* Chunks of few segments (a 64^3 chunk has 256): one block a segment,
 * taken from *ticket, each thread coding four symbols (a block scan of
 * their lengths gives each its bit offset) into the block's shared
 * buffer; the segment's byte count is published before the coding, warp 0
 * looks back for the offset while the others code, then the block copies
 * the segment out (within cap). A warp a segment left most SMs idle here
 * (9.2 us against 6.3 for the writer alone, 64^3, H100). */
__global__ void __launch_bounds__(kWriteThreads) k_enc_small(seg_map sm, uint64_t n_seg,
                                                             const glide_huff_enc *__restrict__ enc,
                                                             uint8_t *__restrict__ segtab, uint64_t *flags,
                                                             unsigned long long *ticket, uint8_t *__restrict__ out,
                                                             uint64_t cap, const gg_place *place, enc_out o)
{
    if (!enc_place(place, out, cap, o)) return;
    if (place) segtab += place->segtab_off;
    __shared__ uint32_t s_tab[GLIDE_NSYM + 1]; /* code | len << 16; entry GLIDE_NSYM = nothing */
    __shared__ uint32_t s_buf[kSegWords];
    __shared__ unsigned s_wsum[kWriteThreads / 32];
    __shared__ uint64_t s_seg, s_base;
    const unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    if (tid == 0) s_seg = atomicAdd(ticket, 1ull);
    for (unsigned w = tid; w < kSegWords; w += kWriteThreads) s_buf[w] = 0;
    __syncthreads(); /* the segment */
    const uint64_t seg = s_seg;
    if (seg >= n_seg) return; /* uniform; the grid has n_seg blocks */
    uint64_t s0 = 0, n = 0;
    const unsigned pk = seg_plane(sm, seg, s0, n); /* the block's one segment: one plane's code */
    const uint16_t *sym = sm.sym[pk];
    unsigned sy[4], e[4], mine = 0;
    if (sm.in_place) load4_in_place(sm, pk, s0 + tid * 4, sy);
    else load4(sym, s0 + tid * 4, n, ((uintptr_t)sym & 7u) == 0, sy);
    enc_table<kWriteThreads>(enc + pk, s_tab);
    __syncthreads(); /* the table */
    for (int j = 0; j < 4; j++) {
        e[j] = s_tab[sy[j] < GLIDE_NSYM ? sy[j] : GLIDE_NSYM];
        mine += e[j] >> 16;
    }
    /* exclusive scan of the per-thread bit counts across the block */
    unsigned inc = mine;
    for (int d = 1; d < 32; d <<= 1) {
        const unsigned v = __shfl_up_sync(0xFFFFFFFFu, inc, d);
        if ((int)lane >= d) inc += v;
    }
    if (lane == 31) s_wsum[warp] = inc;
    __syncthreads(); /* warp sums */
    unsigned pos = inc - mine, bits = 0;
    for (unsigned w = 0; w < kWriteThreads / 32; w++) {
        pos += w < warp ? s_wsum[w] : 0;
        bits += s_wsum[w];
    }
    const unsigned nbytes = (bits + 7) >> 3; /* <= 2048 */
    if (tid == 0) {
        flag_store(flags + seg, (seg ? kFlagAgg : kFlagInc) | nbytes);
        segtab[2 * seg] = (uint8_t)nbytes;
        segtab[2 * seg + 1] = (uint8_t)(nbytes >> 8);
    }
    unsigned long long chunk = 0;
    for (int j = 0; j < 4; j++) chunk = chunk << (e[j] >> 16) | (e[j] & 0xFFFFu); /* codes masked to length */
    put_chunk(s_buf, pos, chunk, mine);
    if (warp == 0) {
        const uint64_t base = seg ? look_back(flags, seg, lane) : 0;
        if (lane == 0) {
            if (seg) flag_store(flags + seg, kFlagInc | (base + nbytes));
            s_base = base;
            if (seg + 1 == n_seg) enc_report(o, place, base + nbytes > cap ? UINT64_MAX : base + nbytes);
        }
    }
    __syncthreads(); /* buffer complete, offset */
    const uint64_t base = s_base;
    if (base + nbytes <= cap)
        for (unsigned b = tid; b < nbytes; b += kWriteThreads) out[base + b] = (uint8_t)(s_buf[b >> 2] >> (24 - 8 * (b & 3)));
}

/* no segments: an empty stream */
__global__ void k_report_empty(enc_out o, const gg_place *place) { enc_report(o, place, 0); }

/* scratch for n_seg segments: their look-back words and the ticket */
size_t enc_scratch_bytes(uint64_t n_seg) { return gg_align256((n_seg + 1) * sizeof(uint64_t)); }

uint64_t seg_count(uint64_t n) { return (n + GLIDE_SEG_SYMS - 1) / GLIDE_SEG_SYMS; }

/* k_enc_fused's grid: as many blocks as the device holds at once (its
 * warps take segments until none is left, so a block started later would
 * only find the tickets gone); asked once per device */
cudaError_t fused_grid(unsigned *grid)
{
    static std::atomic<unsigned> cached[64];
    int dev = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return e;
    const bool keep = dev >= 0 && dev < 64;
    unsigned g = keep ? cached[dev].load(std::memory_order_relaxed) : 0u;
    if (!g) {
        int sms = 0, per = 0;
        if ((e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess ||
            (e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, k_enc_fused, kWriteThreads, 0)) != cudaSuccess)
            return e;
        g = (unsigned)(sms > 0 ? sms : 1) * (unsigned)(per > 0 ? per : 1);
        if (keep) cached[dev].store(g, std::memory_order_relaxed);
    }
    *grid = g;
    return cudaSuccess;
}

} /* namespace */

extern "C" size_t gg_huff_encode_scratch(uint64_t n)
{
    return enc_scratch_bytes(seg_count(n) + 1); /* + 1: two planes may each end in a partial segment */
}

static cudaError_t huff_encode(const seg_map &sm, const glide_huff_enc *d_enc, uint8_t *d_segtab, uint8_t *d_stream,
                               uint64_t cap, const gg_place *d_place, const enc_out &o, void *d_scratch,
                               size_t scratch_bytes, int words_zeroed, cudaStream_t s)
{
    if (!o.stream_bytes || (o.head && (!d_place || !o.crc_len || !o.total))) return cudaErrorInvalidValue;
    const uint64_t n_seg = sm.seg0 + seg_count(sm.n[1]);
    if (n_seg == 0) {
        k_report_empty<<<1, 1, 0, s>>>(o, d_place);
        return cudaGetLastError();
    }
    if ((sm.n[0] && !sm.sym[0]) || (sm.n[1] && !sm.sym[1]) || !d_enc || !d_segtab || (!d_stream && cap) || !d_scratch)
        return cudaErrorInvalidValue;
    if (scratch_bytes < enc_scratch_bytes(n_seg)) return cudaErrorInvalidValue;
    /* the look-back words and, after them, the ticket */
    uint64_t *flags = static_cast<uint64_t *>(d_scratch);
    unsigned long long *ticket = reinterpret_cast<unsigned long long *>(flags + n_seg);
    cudaError_t e = cudaSuccess;
    if (!words_zeroed && (e = cudaMemsetAsync(flags, 0, (n_seg + 1) * sizeof(uint64_t), s)) != cudaSuccess) return e;
    if (n_seg <= kSmallSegs) {
        k_enc_small<<<(unsigned)n_seg, kWriteThreads, 0, s>>>(sm, n_seg, d_enc, d_segtab, flags, ticket, d_stream, cap,
                                                              d_place, o);
        return cudaGetLastError();
    }
    unsigned grid = 0;
    if ((e = fused_grid(&grid)) != cudaSuccess) return e;
    const uint64_t need = (n_seg + kWarps - 1) / kWarps;
    k_enc_fused<<<(unsigned)(need < grid ? need : grid), kWriteThreads, 0, s>>>(sm, n_seg, d_enc, d_segtab, flags, ticket,
                                                                              d_stream, cap, d_place, o);
    return cudaGetLastError();
}

extern "C" uint64_t gg_huff_encode_words(uint64_t n0, uint64_t n1) { return seg_count(n0) + seg_count(n1) + 1; }

extern "C" cudaError_t gg_huff_encode(const uint16_t *d_sym, uint64_t n, const glide_huff_enc *d_enc,
                                      uint8_t *d_segtab, uint8_t *d_stream, uint64_t cap, uint64_t *d_stream_bytes,
                                      void *d_scratch, size_t scratch_bytes, cudaStream_t s)
{
    const seg_map sm = {{d_sym, nullptr}, {n, 0}, seg_count(n), {}, 0};
    const enc_out o = {d_stream_bytes, nullptr, nullptr, nullptr};
    return huff_encode(sm, d_enc, d_segtab, d_stream, cap, nullptr, o, d_scratch, scratch_bytes, 0, s);
}

extern "C" cudaError_t gg_huff_encode_placed(const uint16_t *d_sym0, uint64_t n0, const uint16_t *d_sym1, uint64_t n1,
                                             const gg_plane_runs *runs, const glide_huff_enc *d_enc, uint8_t *d_buf,
                                             const gg_place *d_place, uint64_t *d_stream_bytes, const gg_enc_fin *fin,
                                             void *d_scratch, size_t scratch_bytes, int words_zeroed, cudaStream_t s)
{
    if (!d_place || !d_buf) return cudaErrorInvalidValue;
    seg_map sm = {{d_sym0, d_sym1}, {n0, n1}, seg_count(n0), {}, 0};
    if (runs) { /* both planes from the raster order at d_sym0 */
        if (n0 % GG_RUN_SYMS || n1 % GG_RUN_SYMS || ((uintptr_t)d_sym0 & 15u)) return cudaErrorInvalidValue;
        sm.sym[1] = d_sym0, sm.runs = *runs, sm.in_place = 1;
    }
    /* the kernels add the offsets; cap comes from d_place */
    const enc_out o = {d_stream_bytes, fin ? d_buf : nullptr, fin ? fin->crc_len : nullptr, fin ? fin->total : nullptr};
    return huff_encode(sm, d_enc, d_buf, d_buf, 0, d_place, o, d_scratch, scratch_bytes, words_zeroed, s);
}
