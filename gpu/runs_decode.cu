/* Run-coded planes (format 8, docs/FORMAT.md §10.7) decoded on the device:
 * the symbols of cpu/huff_runs.c's glide_runs_decode, and an error exactly
 * when it returns one.
 *
 * One warp decodes one segment of GLIDE_RUN_SEG_SYMS points. Its offset
 * comes as in huff_decode.cu: up to kFusedSegs segments each block adds the
 * entries before its own, past that a CUB scan of the table gives them. A
 * segment's events (a codeword, and for a run-coded symbol its class
 * codeword and extra bits) follow each other with nothing that says where
 * the next one starts: the warp splits the segment's bits into pieces,
 * guesses where each piece's first event starts and proves the guesses
 * before writing (seg_events_team); a segment too short to split, or whose
 * guesses fail, lane 0 walks alone. Where a launch has few segments (a
 * 64^3 chunk's 64), a warp a segment left most of the device idle and
 * each lane a long piece: there a block's warps walk one segment, its
 * pieces spread over them (the same code with a block_team). Each event's symbol goes to
 * its first point in the output, and that point is marked in a bitmap in
 * shared memory. The walkers then expand the events a row of 32 points
 * at a time (a point takes the symbol of the last mark at or before it:
 * within the row from the bitmap word, else carried from the rows
 * before), a block's warps a quarter of the rows each. Holding the
 * events' symbols in global memory rather than shared keeps a block small
 * enough that a 256^3 chunk's segments are resident at once.
 *
 * Two planes both run-coded decode in one launch, as huff_decode.cu's
 * planes do: one prefix over the whole table, blocks of one plane each. A
 * stream with one plane run-coded and the other not decodes each plane by
 * its own kernel on its own part of the table and stream.
 *
 * Why the checks agree with the CPU's although they run differently:
 *  - Entries: the CPU stops at the first segment whose entry exceeds
 *    GLIDE_RUN_SEG_MAX_BYTES or its plane's bytes left; with offsets from a
 *    prefix sum, "entry <= bytes left" for every segment up to a failing one
 *    is "offset + entry <= stream_bytes" for each (plane 0's bytes are its
 *    entries' sum, which the host has checked against stream_bytes), and
 *    the table's last segment checks that the entries add up to
 *    stream_bytes, as the CPU's last check on its last plane does.
 *  - Within a segment seg_events follows the CPU's loop over the same bits
 *    (zeros past the segment's end) and fails where it does: an unknown
 *    codeword or class codeword, a run longer than the points left, a run
 *    right after a run of the same symbol, then the end position and the
 *    padding. The CPU fails on an event that starts past the segment's last
 *    bit; one that starts right at it, it decodes from zero bits and then
 *    ends past that bit, so seg_events fails on both at once. The parallel
 *    walk answers only where its pieces before the last are proven and
 *    pass every check the CPU would make on them; the last piece is
 *    seg_events itself, from a proven boundary and point. */
#include "gg_huff.h"
#include "huff_dec.cuh"
#include <string.h>

namespace {

constexpr unsigned kWarps = 4; /* segments per block */
constexpr unsigned kSyms = GLIDE_RUN_SEG_SYMS;
constexpr unsigned kRows = kSyms / 32; /* rows of 32 points, a bitmap word each */
constexpr unsigned kLut = 1u << GLIDE_RUN_MAX_LEN;
constexpr unsigned kFull = 0xFFFFFFFFu;
constexpr unsigned kFusedSegs = 2048; /* up to this many segments, offsets are summed in k_runs itself */
/* up to this many segments a launch, a block a segment (GG_WALK_AUTO): a 64^3 chunk's 64 segments
 * left a warp each most of the device idle */
constexpr unsigned kWideSegs = 1024;
/* a lane's piece of a segment decoded in parallel: longer than any event
 * (a codeword, a class codeword, extra bits), so each holds a boundary */
constexpr unsigned kMinPieceBits = 48;
constexpr unsigned kBatch = 8; /* rows of 32 points expanded per step */
/* pass A's guess decodes this many bits before a piece's end, from before
 * the piece where it is shorter: enough to fall into step with the true
 * boundaries nearly always (from a short piece's own bits alone, a block's
 * pieces of a 64^3 chunk's segments decoded slower than a warp's) */
constexpr unsigned kGuessBits = 256;
static_assert(kMinPieceBits > GLIDE_HUFF_MAX_LEN + GLIDE_RUN_MAX_LEN + GLIDE_RUN_CLASSES - 1, "an event fits a piece");
static_assert(kSyms % 32 == 0 && (kWarps * 32) % 2 == 0, "whole rows; the fused prefix's even stride");
static_assert(GLIDE_RUN_CLASSES <= 16 && GLIDE_RUN_MAX_LEN <= 15, "a class entry is class | length << 4");
/* the reader holds 16 bits after a refill: a class codeword, or the most extra bits a class has */
static_assert(GLIDE_RUN_MAX_LEN <= 16 && GLIDE_RUN_CLASSES - 1 <= 16, "one refill before each part of an event");

/* Where the symbols go: plane 0's n[0] (its seg0 segments, codes dec[0],
 * rc[0]) to sym[0], plane 1's n[1] to sym[1]. Blocks 0 .. blocks0 - 1 take
 * plane 0's segments, the others plane 1's. */
struct run_map {
    const glide_huff_dec *dec[GLIDE_NPLANES];
    gg_run_code rc[GLIDE_NPLANES];
    uint16_t *sym[GLIDE_NPLANES];
    uint64_t n[GLIDE_NPLANES];
    uint32_t seg0, blocks0;
    unsigned walk; /* GG_WALK_*: the tests' forcing, else AUTO */
};

__device__ __forceinline__ unsigned kind_of(unsigned s)
{
    return s == GLIDE_SYM_ZERO ? 0u : s == GLIDE_SYM_FILL ? 1u : 2u;
}

/* glide_runs_decode's loop over a segment of bytes bytes and cnt points,
 * from an event boundary: bit q, point i, prev as after the event before
 * (1 + its kind if it was a run, else 0). Each event's symbol goes to out
 * at its first point, and that point's bit is ORed into mark (zero
 * before). false where the CPU fails. on: bit k set where kind k is
 * run-coded. The whole segment is this walk from bit 0 (the serial path);
 * the parallel one runs it for the segment's last piece. */
__device__ __forceinline__ bool seg_events(const dec_tabs &T, const uint8_t (*lut)[kLut], unsigned on,
                                           const seg_global &sg, uint32_t bytes, uint32_t cnt, uint16_t *out,
                                           uint32_t *mark, uint32_t q, uint32_t i, unsigned prev)
{
    const uint32_t limit = 8 * bytes;
    bit_reader<seg_global> br;
    br.init(sg, q);
    uint32_t row = i >> 5, word = 0; /* the bitmap word being filled */
    while (i < cnt) {
        if (q >= limit) return false;
        br.refill();
        unsigned s;
        const unsigned l = decode_one(T, br.acc, &s);
        if (!l) return false;
        br.consume(l);
        q += l;
        if (i >> 5 != row) {
            if (word) atomicOr(&mark[row], word);
            row = i >> 5;
            word = 0;
        }
        word |= 1u << (i & 31);
        out[i] = (uint16_t)s;
        const unsigned k = kind_of(s);
        if (k > 1 || !(on >> k & 1u)) {
            i++;
            prev = 0;
            continue;
        }
        if (prev == k + 1) return false; /* not a maximal run */
        br.refill();
        const unsigned e = lut[k][br.acc >> (64 - GLIDE_RUN_MAX_LEN)], cl = e >> 4, c = e & 15u;
        if (!cl) return false;
        br.consume(cl);
        br.refill();
        const uint32_t L = (1u << c) + (c ? (uint32_t)(br.acc >> (64 - c)) : 0u);
        br.consume(c);
        q += cl + c;
        if (L > cnt - i) return false;
        i += L;
        prev = k + 1;
    }
    if (word) atomicOr(&mark[row], word);
    /* the segment ends in its last byte, padded with zero bits */
    if (q > limit || (q + 7) / 8 != bytes) return false;
    return !(q & 7) || !((be32(sg, q >> 3) >> 24) & (0xFFu >> (q & 7)));
}

/* Pass A of the parallel walk: decoding from bit q, which may lie inside
 * an event, the first event boundary at or past stop. Where no codeword or
 * class codeword starts, it tries the next bit; the result is a guess
 * that pass B checks. */
__device__ __forceinline__ uint32_t guess_boundary(const dec_tabs &T, const uint8_t (*lut)[kLut], unsigned on,
                                                   const seg_global &sg, uint32_t q, uint32_t stop)
{
    bit_reader<seg_global> br;
    br.init(sg, q);
    while (q < stop) {
        br.refill();
        unsigned s;
        const unsigned l = decode_one(T, br.acc, &s);
        if (!l) {
            br.init(sg, ++q);
            continue;
        }
        const unsigned k = kind_of(s);
        br.consume(l);
        if (k > 1 || !(on >> k & 1u)) {
            q += l;
            continue;
        }
        br.refill();
        const unsigned e = lut[k][br.acc >> (64 - GLIDE_RUN_MAX_LEN)], cl = e >> 4, c = e & 15u;
        if (!cl) {
            br.init(sg, ++q);
            continue;
        }
        br.consume(cl);
        br.refill();
        br.consume(c);
        q += l + cl + c;
    }
    return q;
}

/* Passes B and C of the parallel walk: the events from the boundary q up
 * to the first boundary at or past stop (returned; UINT32_MAX where a
 * codeword, a class codeword or a run's maximality fails). B (W false)
 * counts their points into *n (at most cnt + 1) and gives the state
 * (prev's meaning) of the first and the last event; C writes them from
 * point i on, as seg_events does. */
template <bool W>
__device__ __forceinline__ uint32_t walk_piece(const dec_tabs &T, const uint8_t (*lut)[kLut], unsigned on,
                                               const seg_global &sg, uint32_t q, uint32_t stop, uint32_t cnt,
                                               uint32_t *n, unsigned *first, unsigned *last, uint16_t *out,
                                               uint32_t *mark, uint32_t i)
{
    bit_reader<seg_global> br;
    br.init(sg, q);
    uint32_t m = 0, row = i >> 5, word = 0;
    unsigned prev = 0, f = 0;
    bool any = false;
    while (q < stop) {
        br.refill();
        unsigned s;
        const unsigned l = decode_one(T, br.acc, &s);
        if (!l) return UINT32_MAX;
        br.consume(l);
        q += l;
        if (W) {
            if (i >> 5 != row) {
                if (word) atomicOr(&mark[row], word);
                row = i >> 5;
                word = 0;
            }
            word |= 1u << (i & 31);
            out[i] = (uint16_t)s;
        }
        const unsigned k = kind_of(s);
        uint32_t L = 1;
        unsigned st = 0;
        if (k <= 1 && (on >> k & 1u)) {
            if (prev == k + 1) return UINT32_MAX;
            br.refill();
            const unsigned e = lut[k][br.acc >> (64 - GLIDE_RUN_MAX_LEN)], cl = e >> 4, c = e & 15u;
            if (!cl) return UINT32_MAX;
            br.consume(cl);
            br.refill();
            L = (1u << c) + (c ? (uint32_t)(br.acc >> (64 - c)) : 0u);
            br.consume(c);
            q += cl + c;
            st = k + 1;
        }
        if (!any) f = st, any = true;
        prev = st;
        i += L;
        m = m + L > cnt ? cnt + 1 : m + L;
    }
    if (W && word) atomicOr(&mark[row], word);
    *n = any ? m : UINT32_MAX; /* a piece without events: left to the serial walk */
    *first = f;
    *last = prev;
    return q;
}

/* What the warps of a block walking one segment pass each other: the
 * value of each warp's last lane (left), the warps' point counts (tot),
 * the serial walk's verdict (ok). */
struct block_share {
    uint32_t left[kWarps], tot[kWarps];
    unsigned ok;
};

/* The threads that walk one segment, a piece each: a warp (piece = lane)
 * or a block's kWarps warps (piece = thread, its neighbours across warps
 * through shared memory). Every member calls each operation. */
struct warp_team {
    __device__ __forceinline__ unsigned piece() const { return threadIdx.x & 31; }
    /* v of piece g - 1 (0 for piece 0) */
    __device__ __forceinline__ uint32_t left(uint32_t v) const
    {
        const uint32_t u = __shfl_up_sync(kFull, v, 1);
        return (threadIdx.x & 31) ? u : 0u;
    }
    __device__ __forceinline__ bool any(bool p) const { return __any_sync(kFull, p); }
    __device__ __forceinline__ bool all(bool p) const { return __all_sync(kFull, p); }
    /* the sum of v over the pieces before this one */
    __device__ __forceinline__ uint32_t before(uint32_t v) const { return warp_inclusive(v) - v; }
    static __device__ __forceinline__ uint32_t warp_inclusive(uint32_t v)
    {
        const unsigned lane = threadIdx.x & 31;
#pragma unroll
        for (unsigned d = 1; d < 32; d <<= 1) {
            const uint32_t u = __shfl_up_sync(kFull, v, d);
            if (lane >= d) v += u;
        }
        return v;
    }
};

struct block_team {
    block_share &sh;
    __device__ __forceinline__ unsigned piece() const { return threadIdx.x; }
    __device__ __forceinline__ uint32_t left(uint32_t v) const
    {
        const unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
        uint32_t u = __shfl_up_sync(kFull, v, 1);
        if (lane == 31) sh.left[w] = v;
        __syncthreads();
        if (lane == 0) u = w ? sh.left[w - 1] : 0u;
        __syncthreads(); /* before the next call writes sh.left */
        return u;
    }
    __device__ __forceinline__ bool any(bool p) const { return __syncthreads_or(p); }
    __device__ __forceinline__ bool all(bool p) const { return __syncthreads_and(p); }
    __device__ __forceinline__ uint32_t before(uint32_t v) const
    {
        const unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
        const uint32_t inc = warp_team::warp_inclusive(v);
        if (lane == 31) sh.tot[w] = inc;
        __syncthreads();
        uint32_t b = inc - v;
        for (unsigned k = 0; k < w; k++) b += sh.tot[k];
        return b;
    }
};

/* The segment's events decoded by a team (a warp, or a block where a
 * chunk has few segments: a 64^3 chunk's planes have 64, and a warp a
 * segment left most of the device idle and each lane walked a long
 * piece), its bits split into one piece a member (at least kMinPieceBits
 * each). No bit says where an event starts, so each member guesses the
 * first boundary past its piece's end by decoding the bits before it from
 * wherever (pass A; Huffman codes fall into step within a few codewords).
 * Pass B decodes each piece from the boundary its left neighbour found,
 * piece 0's from bit 0; a member whose start moved decodes again, until
 * none moves, which proves every start by induction from piece 0. Points
 * are then summed across the pieces and pass C writes each piece; the last
 * piece is seg_events, which ends the segment as the CPU does. Returns 1
 * (decoded), 0 (the CPU fails on this segment) or 2 (not proven: a piece
 * fails or holds no event, or one before the last reaches the segment's
 * count, where the CPU's loop stops; the caller then walks it serially,
 * which gives the verdict). Team-uniform. */
template <class Team>
__device__ __forceinline__ unsigned seg_events_team(const Team &tm, const dec_tabs &T, const uint8_t (*lut)[kLut],
                                                    unsigned on, const seg_global &sg, uint32_t bytes, uint32_t cnt,
                                                    unsigned pieces, uint16_t *out, uint32_t *mark)
{
    const unsigned g = tm.piece(), last = pieces - 1;
    const uint64_t limit = 8ull * bytes;
    const uint32_t pn = (uint32_t)(limit * (g + 1) / pieces); /* the piece's end */
    uint32_t e = 0;
    if (g < last) e = guess_boundary(T, lut, on, sg, pn > kGuessBits ? pn - kGuessBits : 0u, pn);
    uint32_t q = tm.left(e);
    uint32_t n = 0;
    unsigned f = 0, l = 0;
    /* pass B until no start moves: after round r the starts of pieces 0 .. r are proven */
    bool redo = g < last, settled = false;
    for (unsigned round = 0; round < pieces && !settled; round++) {
        if (redo) e = walk_piece<false>(T, lut, on, sg, q, pn, cnt, &n, &f, &l, nullptr, nullptr, 0);
        const uint32_t nq = tm.left(e);
        const bool moved = g <= last && nq != q;
        if (moved) q = nq;
        redo = moved && g < last;
        settled = !tm.any(moved);
    }
    bool good = settled && (g >= last || (e != UINT32_MAX && n != UINT32_MAX));
    const unsigned lprev = tm.left(l);
    if (g >= 1 && g < last && f && lprev == f) good = false; /* a run after a run of its kind */
    const uint32_t i0 = tm.before(g < last ? n : 0); /* points before each piece */
    if (g < last && i0 + (uint64_t)n >= cnt) good = false;
    if (!tm.all(good)) return 2;
    bool ok = true;
    if (g < last)
        walk_piece<true>(T, lut, on, sg, q, pn, cnt, &n, &f, &l, out, mark, i0);
    else if (g == last)
        ok = seg_events(T, lut, on, sg, bytes, cnt, out, mark, q, i0, lprev);
    return tm.all(ok) ? 1u : 0u;
}

/* Rows rb .. re - 1 of a decoded segment: each point not an event takes
 * the symbol of the last event before it, its index from the bitmap alone
 * (within the row, else carried), so a batch of rows loads its symbols
 * before storing any, and no event's own point is stored to. The carry
 * into row rb is the last mark before it (point 0 is always one). */
__device__ __forceinline__ void expand_rows(const uint32_t *mark, uint16_t *o, uint32_t cnt, uint32_t rb, uint32_t re)
{
    const unsigned lane = threadIdx.x & 31;
    const uint32_t upto = kFull >> (31 - lane); /* bits 0 .. lane */
    uint32_t carry = 0;
    for (int r0 = (int)rb - 1; r0 >= 0; r0 -= 32) {
        const int r = r0 - (int)lane;
        const uint32_t word = r >= 0 ? mark[r] : 0u;
        const unsigned b = __ballot_sync(kFull, word != 0);
        if (b) { /* the lowest such lane has the highest row */
            const unsigned src = __ffs(b) - 1;
            const uint32_t wd = __shfl_sync(kFull, word, src);
            carry = 32 * (uint32_t)(r0 - (int)src) + 31 - __clz(wd);
            break;
        }
    }
    for (uint32_t r0 = rb; r0 < re; r0 += kBatch) {
        uint32_t src[kBatch];
        bool own[kBatch];
#pragma unroll
        for (unsigned b = 0; b < kBatch; b++) {
            const uint32_t r = r0 + b, word = r < re ? mark[r] : 0u, mine = word & upto;
            src[b] = mine ? 32 * r + 31 - __clz(mine) : carry;
            own[b] = word >> lane & 1u;
            if (word) carry = 32 * r + 31 - __clz(word);
        }
        uint16_t v[kBatch];
#pragma unroll
        for (unsigned b = 0; b < kBatch; b++) v[b] = o[src[b]];
#pragma unroll
        for (unsigned b = 0; b < kBatch; b++) {
            const uint32_t at = 32 * (r0 + b) + lane;
            if (r0 + b < re && at < cnt && !own[b]) o[at] = v[b];
        }
    }
}

/* WIDE: a block a segment (block_team), else a warp a segment (warp_team). */
template <bool WIDE>
__global__ void __launch_bounds__(kWarps * 32) k_runs(run_map m, const uint8_t *__restrict__ segtab, uint32_t n_seg,
                                                      const uint8_t *__restrict__ in, uint64_t in_bytes,
                                                      const uint64_t *__restrict__ offs, unsigned *__restrict__ err)
{
    constexpr unsigned kPer = WIDE ? 1 : kWarps; /* segments a block */
    __shared__ glide_huff_dec s_dec;
    __shared__ uint8_t s_lut[GLIDE_RUN_KINDS][kLut];
    __shared__ uint32_t s_mark[kPer][kRows];
    __shared__ uint64_t s_red[kWarps];
    __shared__ block_share s_sh;
    const unsigned pk = blockIdx.x >= m.blocks0; /* the block's plane */
    const unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    dec_table_load<kWarps * 32>(&s_dec, m.dec[pk]);
    for (unsigned j = threadIdx.x; j < GLIDE_RUN_KINDS * kLut; j += kWarps * 32)
        s_lut[j / kLut][j % kLut] = m.rc[pk].lut[j / kLut][j % kLut];
    for (unsigned j = threadIdx.x; j < kPer * kRows; j += kWarps * 32) s_mark[j / kRows][j % kRows] = 0;
    const unsigned on = (m.rc[pk].on[0] ? 1u : 0u) | (m.rc[pk].on[1] ? 2u : 0u);
    /* seg0: the block's first segment in the whole table; seg_end: its plane's end there */
    const uint32_t seg0 = pk ? m.seg0 + (blockIdx.x - m.blocks0) * kPer : blockIdx.x * kPer;
    const uint32_t seg = seg0 + (WIDE ? 0 : w);
    const uint32_t seg_end = pk ? n_seg : m.seg0;
    uint64_t base = 0;
    if (!offs) {
        /* the entries before the block's first segment: an entry is lo +
         * 256 hi, and thread t reads table bytes of t's parity only */
        uint32_t acc = 0;
        for (uint32_t j = threadIdx.x; j < 2 * seg0; j += kWarps * 32) acc += __ldg(segtab + j);
        uint64_t v = (threadIdx.x & 1) ? (uint64_t)acc << 8 : acc;
        for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(kFull, v, o);
        if (lane == 0) s_red[w] = v;
        __syncthreads();
        for (unsigned k = 0; k < kWarps; k++) base += s_red[k];
    }
    __syncthreads(); /* a warp a segment: the last block-wide barrier, warps leave independently below */
    if (seg >= seg_end) return; /* WIDE: the whole block */

    /* every lane reads the same entries, so all take the same branches */
    const uint32_t bytes = (uint32_t)segtab[2 * (size_t)seg] | (uint32_t)segtab[2 * (size_t)seg + 1] << 8;
    uint64_t off;
    if (offs) {
        off = offs[seg];
    } else {
        off = base;
        for (uint32_t k = seg0; k < seg; k++) off += (uint32_t)segtab[2 * k] | (uint32_t)segtab[2 * k + 1] << 8;
    }
    if (bytes > GLIDE_RUN_SEG_MAX_BYTES || off + bytes > in_bytes || (seg == n_seg - 1 && off + bytes != in_bytes)) {
        if (lane == 0) atomicOr(err, 1u);
        return;
    }
    const uint64_t s0 = (uint64_t)(seg - (pk ? m.seg0 : 0)) * kSyms, n = m.n[pk];
    const uint32_t cnt = n - s0 < kSyms ? (uint32_t)(n - s0) : kSyms;
    const dec_tabs T = dec_tabs_of(s_dec);
    const seg_global sg{in + off, bytes};
    const unsigned most = WIDE ? 32u * kWarps : 32u;
    const unsigned pieces = m.walk == GG_WALK_ALONE ? 1u : min(most, 8 * bytes / kMinPieceBits);
    uint16_t *o = m.sym[pk] + s0;
    uint32_t *mark = s_mark[WIDE ? 0 : w];
    unsigned ok;
    if (WIDE) {
        ok = pieces > 1 ? seg_events_team(block_team{s_sh}, T, s_lut, on, sg, bytes, cnt, pieces, o, mark) : 2u;
        if (ok == 2) { /* uniform: every thread returned 2 */
            if (threadIdx.x == 0) s_sh.ok = seg_events(T, s_lut, on, sg, bytes, cnt, o, mark, 0, 0, 0);
            __syncthreads();
            ok = s_sh.ok;
        }
    } else {
        ok = pieces > 1 ? seg_events_team(warp_team{}, T, s_lut, on, sg, bytes, cnt, pieces, o, mark) : 2u;
        if (ok == 2) {
            ok = lane == 0 ? seg_events(T, s_lut, on, sg, bytes, cnt, o, mark, 0, 0, 0) : 1u;
            ok = __shfl_sync(kFull, ok, 0);
        }
    }
    if (!ok) {
        if (lane == 0 && (!WIDE || w == 0)) atomicOr(err, 1u);
        return;
    }
    /* the events' symbols, written to o, and the bitmap visible to every walker of the segment */
    const uint32_t rows = (cnt + 31) / 32;
    if (WIDE) {
        __syncthreads();
        expand_rows(mark, o, cnt, rows * w / kWarps, rows * (w + 1) / kWarps);
    } else {
        __syncwarp();
        expand_rows(mark, o, cnt, 0, rows);
    }
}

cudaError_t runs_decode(run_map m, const uint8_t *d_segtab, uint32_t n_segments, const uint8_t *d_stream,
                        uint64_t stream_bytes, unsigned *d_err, void *d_scratch, size_t scratch_bytes, cudaStream_t s)
{
    if (!d_err) return cudaErrorInvalidValue;
    const uint64_t seg1 = (m.n[1] + kSyms - 1) / kSyms, n_seg = (uint64_t)m.seg0 + seg1;
    /* stream-level checks the host can make: report them the same way */
    if (n_seg != n_segments || (n_seg == 0 && stream_bytes != 0)) {
        k_flag<<<1, 1, 0, s>>>(d_err);
        return cudaGetLastError();
    }
    if (n_seg == 0) return cudaSuccess;
    if ((m.seg0 && (!m.dec[0] || !m.sym[0])) || (seg1 && (!m.dec[1] || !m.sym[1])) || !d_segtab ||
        (stream_bytes && !d_stream))
        return cudaErrorInvalidValue;
    m.walk = m.rc[0].walk > m.rc[1].walk ? m.rc[0].walk : m.rc[1].walk;
    const bool wide = m.walk == GG_WALK_BLOCK || (m.walk != GG_WALK_WARP && n_seg <= kWideSegs);
    const unsigned per = wide ? 1 : kWarps;
    m.blocks0 = (m.seg0 + per - 1) / per;
    const unsigned grid = m.blocks0 + (unsigned)((seg1 + per - 1) / per);
    uint64_t *offs = nullptr;
    if (n_seg > kFusedSegs) {
        const cudaError_t e = offs_scan(d_segtab, n_seg, d_scratch, scratch_bytes, &offs, s);
        if (e != cudaSuccess) return e;
    }
    if (wide) k_runs<true><<<grid, kWarps * 32, 0, s>>>(m, d_segtab, n_segments, d_stream, stream_bytes, offs, d_err);
    else k_runs<false><<<grid, kWarps * 32, 0, s>>>(m, d_segtab, n_segments, d_stream, stream_bytes, offs, d_err);
    return cudaGetLastError();
}

} /* namespace */

extern "C" void gg_run_code_of(const glide_run_code *rc, gg_run_code *out)
{
    memset(out, 0, sizeof *out);
    for (unsigned k = 0; k < GLIDE_RUN_KINDS; k++) {
        out->on[k] = rc->on[k] ? 1 : 0;
        for (unsigned c = 0; c < GLIDE_RUN_CLASSES; c++) {
            const unsigned l = rc->len[k][c];
            if (!l || l > GLIDE_RUN_MAX_LEN) continue;
            /* every index that starts with the class's codeword */
            const unsigned shift = GLIDE_RUN_MAX_LEN - l, first = (unsigned)rc->code[k][c] << shift;
            for (unsigned t = 0; t < (1u << shift) && first + t < kLut; t++) out->lut[k][first + t] = (uint8_t)(c | l << 4);
        }
    }
}

extern "C" size_t gg_runs_decode_scratch(uint64_t n) { return offs_scratch(n, kSyms); }

extern "C" cudaError_t gg_runs_decode(const glide_huff_dec *d_dec, const gg_run_code *rc, const uint8_t *d_segtab,
                                      uint32_t n_segments, const uint8_t *d_stream, uint64_t stream_bytes,
                                      uint16_t *d_sym, uint64_t n, unsigned *d_err, void *d_scratch,
                                      size_t scratch_bytes, cudaStream_t s)
{
    const uint64_t seg0 = (n + kSyms - 1) / kSyms;
    if (seg0 > UINT32_MAX || !rc) return cudaErrorInvalidValue;
    run_map m;
    memset(&m, 0, sizeof m);
    m.dec[0] = d_dec;
    m.rc[0] = *rc;
    m.sym[0] = d_sym;
    m.n[0] = n;
    m.seg0 = (uint32_t)seg0;
    return runs_decode(m, d_segtab, n_segments, d_stream, stream_bytes, d_err, d_scratch, scratch_bytes, s);
}

extern "C" cudaError_t gg_runs_decode_planes(const glide_huff_dec *d_dec0, const glide_huff_dec *d_dec1,
                                             const gg_run_code rc[GLIDE_NPLANES], const uint8_t *d_segtab,
                                             uint32_t n_segments, const uint8_t *d_stream, uint64_t stream_bytes,
                                             uint16_t *d_sym0, uint64_t n0, uint16_t *d_sym1, uint64_t n1,
                                             unsigned *d_err, void *d_scratch, size_t scratch_bytes, cudaStream_t s)
{
    const uint64_t seg0 = (n0 + kSyms - 1) / kSyms;
    if (seg0 > UINT32_MAX || !rc) return cudaErrorInvalidValue;
    run_map m;
    memset(&m, 0, sizeof m);
    m.dec[0] = d_dec0, m.dec[1] = d_dec1;
    m.rc[0] = rc[0], m.rc[1] = rc[1];
    m.sym[0] = d_sym0, m.sym[1] = d_sym1;
    m.n[0] = n0, m.n[1] = n1;
    m.seg0 = (uint32_t)seg0;
    return runs_decode(m, d_segtab, n_segments, d_stream, stream_bytes, d_err, d_scratch, scratch_bytes, s);
}
