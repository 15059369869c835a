/* Format 8's Huffman stream on the device (docs/FORMAT.md §10.7),
 * byte-identical to cpu/codec.c's glide_entropy_write: a run-coded plane
 * as cpu/huff_runs.c glide_runs_encode codes it (segments of
 * GLIDE_RUN_SEG_SYMS points, each maximal run of a run-coded kind within a
 * segment one event), a plain plane of the same stream as
 * glide_huff_encode does (GLIDE_SEG_SYMS points a segment, every point an
 * event).
 *
 * Simple rather than fast, as format 8 streams are written only where
 * runs pay: one block a segment, which finds its runs from its threads'
 * neighbours (plane_read.cuh) and counts its bits (seg_size_k, a run's
 * bits charged to its last point: no other event lies between its first
 * and last, so every event's bit offset stays the same); a CUB scan of the
 * sizes gives each segment's offset; the same blocks again code their
 * events into a shared-memory copy of the segment (at most
 * GLIDE_RUN_SEG_MAX_BYTES) and copy it out (seg_write_k). The existing
 * encoder (huff_encode.cu) keeps formats 5 and 6.
 *
 * As there, books are trusted to be valid prefix codes: lengths are
 * clamped and codewords masked so that a bad one gives wrong bytes, never
 * a write outside the buffers. */
#include "gg_huff.h"
#include "enc_report.cuh"
#include "plane_read.cuh"
#include <climits>
#include <cub/device/device_scan.cuh>

namespace {

constexpr unsigned kThreads = GLIDE_RUN_SEG_SYMS / GG_RUN_SYMS; /* a run-coded segment: 32 points a thread */
constexpr unsigned kPlainPer = GLIDE_SEG_SYMS / kThreads;       /* a plain one: 8 */
constexpr unsigned kBufWords = GLIDE_RUN_SEG_MAX_BYTES / 4;
static_assert(kThreads % 32 == 0 && GLIDE_SEG_SYMS % kThreads == 0 && kPlainPer % 8 == 0,
              "whole warps, whole vectors a thread");
static_assert(GLIDE_RUN_SEG_MAX_BYTES % 4 == 0 && 2 * GLIDE_SEG_SYMS <= GLIDE_RUN_SEG_MAX_BYTES,
              "every segment fits the shared copy");

/* The stream's segments: plane 0's seg0, then plane 1's; plane p's hold
 * GLIDE_RUN_SEG_SYMS points where bit p of runs is set, else GLIDE_SEG_SYMS. */
struct seg_plan {
    plane_src src;
    uint64_t seg0, n_seg;
    uint32_t runs;
};

/* Segment seg's plane; rc: whether it is run-coded; first: its first point in the plane. */
__device__ __forceinline__ unsigned seg_of(const seg_plan &sp, uint64_t seg, bool &rc, uint64_t &first)
{
    const unsigned p = seg >= sp.seg0;
    rc = (sp.runs >> p) & 1u;
    first = (seg - (p ? sp.seg0 : 0)) * (rc ? GLIDE_RUN_SEG_SYMS : GLIDE_SEG_SYMS);
    return p;
}

/* The thread's points of the segment: 32 of a run-coded one, 8 of a plain
 * one (the rest kNoSym, which codes as nothing). */
__device__ __forceinline__ void seg_points(const plane_src &m, unsigned p, bool rc, uint64_t first, unsigned s[GG_RUN_SYMS])
{
    if (rc) {
        plane_load<GG_RUN_SYMS>(m, p, first + (uint64_t)threadIdx.x * GG_RUN_SYMS, s);
        return;
    }
    plane_load<kPlainPer>(m, p, first + (uint64_t)threadIdx.x * kPlainPer, s);
#pragma unroll
    for (unsigned j = kPlainPer; j < GG_RUN_SYMS; j++) s[j] = kNoSym;
}

/* A plane's codes in shared memory, each code | len << 16 with the code
 * masked to its clamped length: the book (entry GLIDE_NSYM codes nothing)
 * and the class codes of the run-coded kinds (on). */
struct tables {
    uint32_t book[GLIDE_NSYM + 1];
    uint32_t cls[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES];
    uint32_t on[GLIDE_RUN_KINDS];
};

__device__ __forceinline__ uint32_t code_entry(unsigned code, unsigned len, unsigned max_len)
{
    const unsigned l = len > max_len ? max_len : len;
    return (code & ((1u << l) - 1u)) | l << 16;
}

__device__ void tables_load(tables &t, const glide_huff_enc *__restrict__ enc, const glide_run_code *__restrict__ rc)
{
    for (unsigned i = threadIdx.x; i <= GLIDE_NSYM; i += blockDim.x)
        t.book[i] = i < GLIDE_NSYM ? code_entry(enc->code[i], enc->len[i], GLIDE_HUFF_MAX_LEN) : 0u;
    const unsigned i = threadIdx.x;
    if (i < GLIDE_RUN_KINDS * GLIDE_RUN_CLASSES) {
        const unsigned k = i / GLIDE_RUN_CLASSES, c = i % GLIDE_RUN_CLASSES;
        t.cls[k][c] = code_entry(rc->code[k][c], rc->len[k][c], GLIDE_RUN_MAX_LEN);
    }
    if (i < GLIDE_RUN_KINDS) t.on[i] = rc->on[i];
}

/* MSB-first bits into a zeroed shared copy of the segment whose words hold
 * the bytes big-endian (stream bit 32w is word w's MSB), from bit offset
 * 32 wi + nb on: full words are ORed in (a thread's first and last word
 * may be shared with its neighbours). Each put adds at most 16 bits. */
struct bitw {
    uint32_t *buf;
    unsigned long long acc;
    unsigned nb, wi;
};

__device__ __forceinline__ void put(bitw &w, unsigned v, unsigned l)
{
    w.acc = w.acc << l | v;
    w.nb += l;
    if (w.nb >= 32) {
        w.nb -= 32;
        const unsigned word = (unsigned)(w.acc >> w.nb);
        if (word) atomicOr(&w.buf[w.wi], word);
        w.wi++;
        w.acc &= (1ull << w.nb) - 1ull;
    }
}

__device__ __forceinline__ void flush(bitw &w)
{
    if (w.nb && w.acc) atomicOr(&w.buf[w.wi], (unsigned)(w.acc << (32 - w.nb)));
}

/* The thread's points as events, in order: a point coded alone is its
 * codeword; a maximal run of a run-coded kind (rc: the segment's plane is
 * run-coded; brk, end, start: run_marks') is, at its last point, its
 * symbol's codeword, its class's and c extra bits. Returns the bits; with
 * W also writes them to *w. */
template <bool W>
__device__ __forceinline__ unsigned events(const tables &t, const unsigned s[GG_RUN_SYMS], bool rc, unsigned brk,
                                           unsigned end, int start, bitw *w)
{
    const unsigned base = GG_RUN_SYMS * threadIdx.x;
    unsigned bits = 0;
#pragma unroll
    for (unsigned j = 0; j < GG_RUN_SYMS; j++) {
        const unsigned sy = s[j], e = t.book[sy < GLIDE_NSYM ? sy : GLIDE_NSYM];
        const int k = !rc ? -1 : sy == GLIDE_SYM_ZERO ? 0 : sy == GLIDE_SYM_FILL ? 1 : -1;
        if (brk >> j & 1u) start = (int)(base + j);
        if (k < 0 || !t.on[k]) {
            bits += e >> 16;
            if (W) put(*w, e & 0xFFFFu, e >> 16);
            continue;
        }
        if (!(end >> j & 1u)) continue; /* inside a run: its last point codes it */
        const unsigned L = base + j - (unsigned)start + 1, c = 31 - __clz(L), r = t.cls[k][c];
        bits += (e >> 16) + (r >> 16) + c;
        if (W) {
            put(*w, e & 0xFFFFu, e >> 16);
            put(*w, r & 0xFFFFu, r >> 16);
            put(*w, L - (1u << c), c);
        }
    }
    return bits;
}

/* The exclusive prefix sum of v over the block's threads; *total gets the
 * sum of all. Once per kernel. */
__device__ __forceinline__ unsigned block_scan(unsigned v, unsigned *total)
{
    __shared__ unsigned s_w[kThreads / 32];
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned inc = v;
#pragma unroll
    for (unsigned d = 1; d < 32; d <<= 1) {
        const unsigned u = __shfl_up_sync(0xFFFFFFFFu, inc, d);
        if (lane >= d) inc += u;
    }
    if (lane == 31) s_w[warp] = inc;
    __syncthreads();
    unsigned before = inc - v, all = 0;
    for (unsigned k = 0; k < kThreads / 32; k++) {
        before += k < warp ? s_w[k] : 0;
        all += s_w[k];
    }
    *total = all;
    return before;
}

/* The common start of both passes: the segment's plane, points, tables
 * and runs; every thread of the block calls it. */
struct seg_view {
    unsigned p;
    bool rc;
    unsigned brk, end;
    int start;
};

__device__ __forceinline__ seg_view seg_begin(const seg_plan &sp, const glide_huff_enc *enc, const glide_run_code *rcode,
                                              tables &t, unsigned s[GG_RUN_SYMS])
{
    seg_view v;
    uint64_t first;
    v.p = seg_of(sp, blockIdx.x, v.rc, first);
    seg_points(sp.src, v.p, v.rc, first, s);
    tables_load(t, enc + v.p, rcode + v.p);
    v.brk = v.end = 0;
    v.start = -1;
    if (v.rc) v.start = run_marks<kThreads>(s, v.brk, v.end); /* block-uniform */
    __syncthreads(); /* the tables */
    return v;
}

/* Pass 1: segment seg's byte count into sizes[seg] and its table entry
 * (u16 LE at the placed segment table); block 0 also zeroes sizes[n_seg],
 * so that the scan's last offset is the stream's size. */
__global__ void __launch_bounds__(kThreads) seg_size_k(seg_plan sp, const glide_huff_enc *enc, const glide_run_code *rcode,
                                                       uint8_t *buf, const gg_place *place, uint64_t *sizes)
{
    if (!place->ok) return;
    __shared__ tables t;
    unsigned s[GG_RUN_SYMS];
    const seg_view v = seg_begin(sp, enc, rcode, t, s);
    unsigned total;
    block_scan(events<false>(t, s, v.rc, v.brk, v.end, v.start, nullptr), &total);
    if (threadIdx.x == 0) {
        const uint64_t seg = blockIdx.x;
        const unsigned nbytes = (total + 7) >> 3;
        uint8_t *e = buf + place->segtab_off + 2 * seg;
        e[0] = (uint8_t)nbytes;
        e[1] = (uint8_t)(nbytes >> 8);
        sizes[seg] = nbytes;
        if (seg == 0) sizes[sp.n_seg] = 0;
    }
}

/* Pass 2: the segment's bits at its offset (offs: pass 1's sizes scanned,
 * offs[n_seg] the stream's size), where the whole stream fits the room;
 * block 0 reports the size (UINT64_MAX where it does not fit). */
__global__ void __launch_bounds__(kThreads) seg_write_k(seg_plan sp, const glide_huff_enc *enc,
                                                        const glide_run_code *rcode, uint8_t *buf,
                                                        const gg_place *place, const uint64_t *offs, enc_out o)
{
    const uint64_t seg = blockIdx.x;
    if (!place->ok) {
        if (seg == 0 && threadIdx.x == 0) enc_report(o, place, UINT64_MAX);
        return;
    }
    __shared__ tables t;
    __shared__ uint32_t s_buf[kBufWords];
    for (unsigned k = threadIdx.x; k < kBufWords; k += kThreads) s_buf[k] = 0;
    unsigned s[GG_RUN_SYMS];
    const seg_view v = seg_begin(sp, enc, rcode, t, s); /* its barrier orders the zeroing before the ORs */
    unsigned total;
    const unsigned pos = block_scan(events<false>(t, s, v.rc, v.brk, v.end, v.start, nullptr), &total);
    bitw w = {s_buf, 0, pos & 31, pos >> 5};
    events<true>(t, s, v.rc, v.brk, v.end, v.start, &w);
    flush(w);
    const uint64_t size = offs[sp.n_seg], base = offs[seg], cap = place->cap;
    if (seg == 0 && threadIdx.x == 0) enc_report(o, place, size > cap ? UINT64_MAX : size);
    __syncthreads(); /* the segment complete */
    if (size > cap) return;
    uint8_t *out = buf + place->stream_off + base;
    const unsigned nbytes = (total + 7) >> 3;
    for (unsigned b = threadIdx.x; b < nbytes; b += kThreads) out[b] = (uint8_t)(s_buf[b >> 2] >> (24 - 8 * (b & 3)));
}

/* no segments: an empty stream */
__global__ void report_empty_k(enc_out o, const gg_place *place) { enc_report(o, place, place->ok ? 0 : UINT64_MAX); }

inline size_t align256(size_t x) { return (x + 255) & ~(size_t)255; }

/* Scratch: the n_seg + 1 sizes (scanned in place into offsets), then CUB's. */
struct enc_layout {
    size_t temp, temp_bytes, total;
};

cudaError_t layout_for(uint64_t n_seg, enc_layout *L)
{
    L->temp = align256((n_seg + 1) * sizeof(uint64_t));
    L->temp_bytes = 0;
    L->total = L->temp;
    if (n_seg + 1 > (uint64_t)INT_MAX) return cudaErrorInvalidValue; /* CUB's int item count */
    const cudaError_t e = cub::DeviceScan::ExclusiveSum(nullptr, L->temp_bytes, static_cast<uint64_t *>(nullptr),
                                                        static_cast<uint64_t *>(nullptr), (int)(n_seg + 1));
    L->total = L->temp + align256(L->temp_bytes);
    return e;
}

uint64_t segs(uint64_t n, bool rc)
{
    const uint64_t per = rc ? GLIDE_RUN_SEG_SYMS : GLIDE_SEG_SYMS;
    return (n + per - 1) / per;
}

} /* namespace */

extern "C" size_t gg_runs_encode_scratch(uint64_t n)
{
    const uint64_t n_seg = n / GLIDE_SEG_SYMS + 2; /* the most: two plain planes, each ending in a short segment */
    enc_layout L;
    if (layout_for(n_seg, &L) != cudaSuccess) {
        cudaGetLastError();
        return L.temp + align256(16 * (size_t)n_seg + 4096); /* no device to ask: as huff_decode.cu */
    }
    return L.total;
}

extern "C" cudaError_t gg_runs_encode_placed(const uint16_t *d_sym0, uint64_t n0, const uint16_t *d_sym1, uint64_t n1,
                                             const gg_plane_runs *runs, unsigned run_planes, const glide_huff_enc *d_enc,
                                             const glide_run_code *d_rc, uint8_t *d_buf, const gg_place *d_place,
                                             uint64_t *d_stream_bytes, const gg_enc_fin *fin, void *d_scratch,
                                             size_t scratch_bytes, cudaStream_t s)
{
    if (!d_place || !d_buf || !d_stream_bytes || !d_enc || !d_rc || !d_scratch || (fin && (!fin->crc_len || !fin->total)))
        return cudaErrorInvalidValue;
    seg_plan sp = {{{d_sym0, d_sym1}, {n0, n1}, {}, 0}, 0, 0, run_planes & 3u};
    if (runs) { /* both planes from the raster order at d_sym0 */
        if (n0 % GG_RUN_SYMS || n1 % GG_RUN_SYMS || ((uintptr_t)d_sym0 & 15u)) return cudaErrorInvalidValue;
        sp.src.sym[1] = d_sym0, sp.src.runs = *runs, sp.src.in_place = 1;
    }
    if ((n0 && !sp.src.sym[0]) || (n1 && !sp.src.sym[1])) return cudaErrorInvalidValue;
    sp.seg0 = segs(n0, sp.runs & 1u);
    sp.n_seg = sp.seg0 + segs(n1, sp.runs & 2u);
    const enc_out o = {d_stream_bytes, fin ? d_buf : nullptr, fin ? fin->crc_len : nullptr, fin ? fin->total : nullptr};
    if (!sp.n_seg) {
        report_empty_k<<<1, 1, 0, s>>>(o, d_place);
        return cudaGetLastError();
    }
    enc_layout L;
    cudaError_t e = layout_for(sp.n_seg, &L);
    if (e != cudaSuccess) return e;
    if (scratch_bytes < L.total || sp.n_seg > 0x7FFFFFFFu) return cudaErrorInvalidValue;
    char *base = static_cast<char *>(d_scratch);
    uint64_t *offs = reinterpret_cast<uint64_t *>(base);
    const unsigned grid = (unsigned)sp.n_seg;
    seg_size_k<<<grid, kThreads, 0, s>>>(sp, d_enc, d_rc, d_buf, d_place, offs);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    size_t tb = L.temp_bytes;
    if ((e = cub::DeviceScan::ExclusiveSum(base + L.temp, tb, offs, offs, (int)(sp.n_seg + 1), s)) != cudaSuccess) return e;
    seg_write_k<<<grid, kThreads, 0, s>>>(sp, d_enc, d_rc, d_buf, d_place, offs, o);
    return cudaGetLastError();
}
