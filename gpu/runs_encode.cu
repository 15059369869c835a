/* Format 8's Huffman stream on the device (docs/FORMAT.md §10.7),
 * byte-identical to cpu/codec.c's glide_entropy_write: a run-coded plane
 * as cpu/huff_runs.c glide_runs_encode codes it (segments of
 * GLIDE_RUN_SEG_SYMS points, each maximal run of a run-coded kind within a
 * segment one event), a plain plane of the same stream as
 * glide_huff_encode does (GLIDE_SEG_SYMS points a segment, every point an
 * event).
 *
 * One block codes one segment (128 threads of 32 points, or on small
 * chunks 512 of 8: plane_read.cuh's kWideP), in one pass: it finds its runs from its
 * threads' neighbours (plane_read.cuh), counts its bits (a run's bits
 * charged to its last point: no other event lies between its first and
 * last, so every event's bit offset stays the same), learns its offset in
 * the stream from the segments before it by a decoupled look-back (each
 * segment publishes its byte count, then its inclusive prefix; blocks take
 * segments in the order they start, so a block waits only on blocks
 * already running), codes its events into a shared-memory copy of the
 * segment (at most GLIDE_RUN_SEG_MAX_BYTES) and copies it out. The
 * existing encoder (huff_encode.cu) keeps formats 5 and 6.
 *
 * As there, books are trusted to be valid prefix codes: lengths are
 * clamped and codewords masked so that a bad one gives wrong bytes, never
 * a write outside the buffers. */
#include "gg_huff.h"
#include "enc_report.cuh"
#include "plane_read.cuh"

namespace {

/* A plain segment's GLIDE_SEG_SYMS points are the first kPlainThreads
 * threads', 8 each, whatever a run-coded one's P. */
constexpr unsigned kPlainPer = 8, kPlainThreads = GLIDE_SEG_SYMS / kPlainPer;
constexpr unsigned kBufWords = GLIDE_RUN_SEG_MAX_BYTES / 4;
static_assert(seg_threads<GG_RUN_SYMS>() % 32 == 0 && kPlainThreads <= seg_threads<GG_RUN_SYMS>() &&
                  GLIDE_SEG_SYMS % kPlainPer == 0 && kWideP >= kPlainPer,
              "whole warps, whole vectors a thread");
static_assert(GLIDE_RUN_SEG_MAX_BYTES % 4 == 0 && 2 * GLIDE_SEG_SYMS <= GLIDE_RUN_SEG_MAX_BYTES,
              "every segment fits the shared copy");

/* The stream's segments: plane 0's seg0, then plane 1's; plane p's hold
 * GLIDE_RUN_SEG_SYMS points where bit p of runs is set, else GLIDE_SEG_SYMS. */
struct seg_split {
    uint64_t seg0, n_seg;
    uint32_t runs;
};

__host__ __device__ inline uint64_t segs(uint64_t n, bool rc)
{
    const uint64_t per = rc ? GLIDE_RUN_SEG_SYMS : GLIDE_SEG_SYMS;
    return (n + per - 1) / per;
}

__host__ __device__ inline seg_split split_of(const uint64_t n[2], unsigned runs)
{
    const uint64_t seg0 = segs(n[0], runs & 1u);
    return seg_split{seg0, seg0 + segs(n[1], runs & 2u), runs};
}

/* The kernel's argument, never written in the kernel (a written argument
 * is copied to local memory, and plane_load's indexed reads of src then
 * went through it). */
struct seg_plan {
    plane_src src;
    /* the launch's segments, and the look-back words' index of the counter
     * that hands them out; launched from the plan, the most there can be
     * (split_of the plan's place->runs is taken in the kernel) */
    seg_split split;
};

/* Segment seg's plane; rc: whether it is run-coded; first: its first point in the plane. */
__device__ __forceinline__ unsigned seg_of(const seg_split &sg, uint64_t seg, bool &rc, uint64_t &first)
{
    const unsigned p = seg >= sg.seg0;
    rc = (sg.runs >> p) & 1u;
    first = (seg - (p ? sg.seg0 : 0)) * (rc ? GLIDE_RUN_SEG_SYMS : GLIDE_SEG_SYMS);
    return p;
}

/* The thread's points of the segment: P of a run-coded one, 8 of a plain
 * one (the rest kNoSym, which codes as nothing; threads past
 * kPlainThreads hold none). */
template <unsigned P>
__device__ __forceinline__ void seg_points(const plane_src &m, unsigned p, bool rc, uint64_t first, unsigned s[P])
{
    if (rc) {
        plane_load<P>(m, p, first + (uint64_t)threadIdx.x * P, s);
        return;
    }
    if (threadIdx.x < kPlainThreads) plane_load<kPlainPer>(m, p, first + (uint64_t)threadIdx.x * kPlainPer, s);
    else
#pragma unroll
        for (unsigned j = 0; j < kPlainPer; j++) s[j] = kNoSym;
#pragma unroll
    for (unsigned j = kPlainPer; j < P; j++) s[j] = kNoSym;
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
template <bool W, unsigned P>
__device__ __forceinline__ unsigned events(const tables &t, const unsigned s[P], bool rc, unsigned brk,
                                           unsigned end, int start, bitw *w)
{
    const unsigned base = P * threadIdx.x;
    unsigned bits = 0;
#pragma unroll
    for (unsigned j = 0; j < P; j++) {
        if (!rc && j == kPlainPer) break; /* a plain segment's thread holds no more */
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

/* The exclusive prefix sum of v over the block's NT threads; *total gets
 * the sum of all. Once per kernel. */
template <unsigned NT> __device__ __forceinline__ unsigned block_scan(unsigned v, unsigned *total)
{
    __shared__ unsigned s_w[NT / 32];
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
    for (unsigned k = 0; k < NT / 32; k++) {
        before += k < warp ? s_w[k] : 0;
        all += s_w[k];
    }
    *total = all;
    return before;
}

/* The common start: the segment's plane, points, tables and runs; every
 * thread of the block calls it. */
struct seg_view {
    unsigned p;
    bool rc;
    unsigned brk, end;
    int start;
};

template <unsigned P>
__device__ __forceinline__ seg_view seg_begin(const seg_plan &sp, const seg_split &sg, uint64_t seg,
                                              const glide_huff_enc *enc,
                                              const glide_run_code *rcode, tables &t, unsigned s[P])
{
    seg_view v;
    uint64_t first;
    v.p = seg_of(sg, seg, v.rc, first);
    seg_points<P>(sp.src, v.p, v.rc, first, s);
    tables_load(t, enc + v.p, rcode + v.p);
    v.brk = v.end = 0;
    v.start = -1;
    if (v.rc) v.start = run_marks<seg_threads<P>(), P>(s, v.brk, v.end); /* block-uniform */
    __syncthreads(); /* the tables */
    return v;
}

/* The look-back's words, one a segment, zeroed before the launch: a byte
 * count (kAgg) or the bytes of every segment up to this one (kIncl). */
constexpr unsigned long long kAgg = 1ull << 62, kIncl = 2ull << 62, kVal = kAgg - 1;

__device__ __forceinline__ unsigned long long look(const unsigned long long *w)
{
    return *(const volatile unsigned long long *)w;
}

/* Warp 0's exclusive prefix of segment seg (bytes: its own, published
 * first): 32 segments before it at a time, the nearest first, until one
 * holds an inclusive prefix. */
__device__ __forceinline__ uint64_t look_back(unsigned long long *state, uint64_t seg, unsigned bytes)
{
    const unsigned lane = threadIdx.x & 31;
    if (lane == 0) atomicExch(state + seg, kAgg | bytes);
    uint64_t excl = 0;
    for (int64_t top = (int64_t)seg - 1; top >= 0; top -= 32) {
        const int64_t j = top - (int64_t)lane;
        unsigned long long v = j >= 0 ? look(state + j) : kIncl;
        while (__any_sync(0xFFFFFFFFu, !(v >> 62)))
            if (!(v >> 62)) v = look(state + j);
        const unsigned incl = __ballot_sync(0xFFFFFFFFu, (v >> 62) == 2);
        const unsigned upto = incl ? __ffs(incl) - 1 : 31; /* lanes 0 .. upto count */
        uint64_t x = lane <= upto ? (v & kVal) : 0;
#pragma unroll
        for (int o = 16; o > 0; o >>= 1) x += __shfl_xor_sync(0xFFFFFFFFu, x, o);
        excl += x;
        if (incl) break;
    }
    if (lane == 0) atomicExch(state + seg, kIncl | (excl + bytes));
    return excl;
}

/* Segment by segment in the order blocks start (the word after the
 * launch's segments hands them out): its table entry (u16 LE at the placed
 * segment table) and its bits at its offset, where they fit the room; the
 * last segment's block reports the stream's size (UINT64_MAX where it
 * does not fit). FROM_PLAN: the split from the plan's place->runs, an
 * instance of its own so that the other reads its split from the
 * argument. P points a thread (seg_threads<P>() a block). 64 registers
 * (eight 128-thread blocks an SM, as before there was a FROM_PLAN): left
 * to itself the compiler took 72, a block fewer an SM. */
template <bool FROM_PLAN, unsigned P>
__global__ void __launch_bounds__(seg_threads<P>(), 1024 / seg_threads<P>()) seg_code_k(seg_plan sp, const glide_huff_enc *enc,
                                                       const glide_run_code *rcode, uint8_t *buf,
                                                       const gg_place *place, unsigned long long *state, enc_out o)
{
    if (!place->ok) {
        if (blockIdx.x == 0 && threadIdx.x == 0) enc_report(o, place, UINT64_MAX);
        return;
    }
    const seg_split planned = FROM_PLAN ? split_of(sp.src.n, place->runs & 3u) : seg_split{};
    const seg_split &sg = FROM_PLAN ? planned : sp.split; /* the launch's read where it is in the argument */
    __shared__ tables t;
    __shared__ uint32_t s_buf[kBufWords];
    __shared__ uint64_t s_seg, s_base;
    if (threadIdx.x == 0) s_seg = atomicAdd(state + sp.split.n_seg, 1ull);
    __syncthreads();
    const uint64_t seg = s_seg;
    if (FROM_PLAN && seg >= sg.n_seg) return; /* launched for more segments than the plan has */
    constexpr unsigned NT = seg_threads<P>();
    unsigned s[P];
    const seg_view v = seg_begin<P>(sp, sg, seg, enc, rcode, t, s);
    unsigned total;
    const unsigned pos = block_scan<NT>(events<false, P>(t, s, v.rc, v.brk, v.end, v.start, nullptr), &total);
    const unsigned nbytes = (total + 7) >> 3, words = (nbytes + 3) >> 2;
    if (threadIdx.x < 32) {
        const uint64_t base = look_back(state, seg, nbytes);
        if (threadIdx.x == 0) {
            s_base = base;
            uint8_t *e = buf + place->segtab_off + 2 * seg;
            e[0] = (uint8_t)nbytes;
            e[1] = (uint8_t)(nbytes >> 8);
            if (seg == sg.n_seg - 1) enc_report(o, place, base + nbytes > place->cap ? UINT64_MAX : base + nbytes);
        }
    }
    for (unsigned k = threadIdx.x; k < words; k += NT) s_buf[k] = 0;
    __syncthreads(); /* the zeroing before the ORs; s_base */
    bitw w = {s_buf, 0, pos & 31, pos >> 5};
    events<true, P>(t, s, v.rc, v.brk, v.end, v.start, &w);
    flush(w);
    const uint64_t base = s_base;
    __syncthreads(); /* the segment complete */
    if (base + nbytes > place->cap) return;
    uint8_t *out = buf + place->stream_off + base;
    for (unsigned b = threadIdx.x; b < nbytes; b += NT) out[b] = (uint8_t)(s_buf[b >> 2] >> (24 - 8 * (b & 3)));
}

/* no segments: an empty stream */
__global__ void report_empty_k(enc_out o, const gg_place *place) { enc_report(o, place, place->ok ? 0 : UINT64_MAX); }

/* Scratch: the look-back's words, one a segment, and the next segment to hand out. */
size_t state_bytes(uint64_t n_seg) { return gg_align256((n_seg + 1) * sizeof(unsigned long long)); }

} /* namespace */

extern "C" size_t gg_runs_encode_scratch(uint64_t n)
{
    return state_bytes(n / GLIDE_SEG_SYMS + 2); /* the most segments: two plain planes, each ending in a short one */
}

extern "C" cudaError_t gg_runs_encode_placed(const uint16_t *d_sym0, uint64_t n0, const uint16_t *d_sym1, uint64_t n1,
                                             const gg_plane_runs *runs, unsigned run_planes, const glide_huff_enc *d_enc,
                                             const glide_run_code *d_rc, uint8_t *d_buf, const gg_place *d_place,
                                             uint64_t *d_stream_bytes, const gg_enc_fin *fin, void *d_scratch,
                                             size_t scratch_bytes, int words_zeroed, cudaStream_t s)
{
    if (!d_place || !d_buf || !d_stream_bytes || !d_enc || !d_rc || !d_scratch || (fin && (!fin->crc_len || !fin->total)))
        return cudaErrorInvalidValue;
    const bool from_plan = run_planes == GG_RUNS_FROM_PLAN;
    seg_plan sp = {{{d_sym0, d_sym1}, {n0, n1}, {}, 0}, {0, 0, 0}};
    if (runs) { /* both planes from the raster order at d_sym0 */
        if (n0 % GG_RUN_SYMS || n1 % GG_RUN_SYMS || ((uintptr_t)d_sym0 & 15u)) return cudaErrorInvalidValue;
        sp.src.sym[1] = d_sym0, sp.src.runs = *runs, sp.src.in_place = 1;
    }
    if ((n0 && !sp.src.sym[0]) || (n1 && !sp.src.sym[1])) return cudaErrorInvalidValue;
    /* from the plan: two plain planes, the most segments */
    sp.split = split_of(sp.src.n, from_plan ? 0u : run_planes & 3u);
    const enc_out o = {d_stream_bytes, fin ? d_buf : nullptr, fin ? fin->crc_len : nullptr, fin ? fin->total : nullptr};
    if (!sp.split.n_seg) {
        report_empty_k<<<1, 1, 0, s>>>(o, d_place);
        return cudaGetLastError();
    }
    const size_t sb = state_bytes(sp.split.n_seg);
    if (scratch_bytes < sb || sp.split.n_seg > 0x7FFFFFFFu) return cudaErrorInvalidValue;
    unsigned long long *state = static_cast<unsigned long long *>(d_scratch);
    /* the words, n_seg and the counter after them, are never more than gg_huff_encode_words's */
    if (!words_zeroed) {
        const cudaError_t e = cudaMemsetAsync(state, 0, sb, s);
        if (e != cudaSuccess) return e;
    }
    const unsigned grid = (unsigned)sp.split.n_seg;
    if (n0 + n1 <= kWidePoints) {
        constexpr unsigned P = kWideP, NT = seg_threads<P>();
        if (from_plan) seg_code_k<true, P><<<grid, NT, 0, s>>>(sp, d_enc, d_rc, d_buf, d_place, state, o);
        else seg_code_k<false, P><<<grid, NT, 0, s>>>(sp, d_enc, d_rc, d_buf, d_place, state, o);
    } else {
        constexpr unsigned P = GG_RUN_SYMS, NT = seg_threads<P>();
        if (from_plan) seg_code_k<true, P><<<grid, NT, 0, s>>>(sp, d_enc, d_rc, d_buf, d_place, state, o);
        else seg_code_k<false, P><<<grid, NT, 0, s>>>(sp, d_enc, d_rc, d_buf, d_place, state, o);
    }
    return cudaGetLastError();
}
