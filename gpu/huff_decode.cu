/* Segmented canonical Huffman decoding on the device: the symbols of
 * cpu/huff_codec.c's glide_huff_decode, and an error exactly when it
 * returns one (docs/FORMAT.md section 10.3).
 *
 * Segment offsets come from a CUB exclusive scan of the u16 segment table;
 * up to kFusedSegs segments (2M symbols) that scan's two launches are left
 * out and each block of k_dec adds the entries before its segments itself.
 * Then one warp decodes one segment, with the glide_huff_dec tables in
 * shared memory and, in chunks of few segments, the segment's bytes too
 * (seg_bytes). A segment is a serial bit stream, so the warp splits its
 * bits into 32 equal ranges and finds where the codewords really start by
 * self-synchronisation (the scheme of Weissenberger and Schmidt, "Massively
 * parallel Huffman decoding on GPUs", ICPP 2018):
 *   - lane t decodes from the start of its range, a guess, until the first
 *     codeword starting at or past the range's end (its exit);
 *   - repeatedly, a lane whose start differs from its left neighbour's exit
 *     decodes again from that exit, until no start changes. Lane 0's start,
 *     0, is true, so lane t is right after at most t rounds; a wrong guess
 *     usually falls into step with the true codeword boundaries within a few
 *     codewords, so in practice one extra round settles every lane;
 *   - an exclusive scan of the codeword counts places every lane's symbols,
 *     and a last pass decodes them into shared memory, copied out coalesced.
 * Against one thread per segment this trades about three decodes of every
 * bit for 32 times the parallelism: a 64^3 chunk has only 256 segments
 * (measured on an H200: 2^18 symbols 24 us instead of 300 us). Two ranges
 * per lane, decoded as interleaved chains, measured slower (32 us).
 *
 * Format 5's two planes are decoded in the same launch: the segment table
 * holds plane 0's segments then plane 1's, and the stream plane 0's bytes
 * then plane 1's, so one prefix over the whole table gives every offset; a
 * block takes segments of one plane only and loads that plane's tables.
 * The CPU checks plane 0 against its entries' sum and plane 1 against the
 * rest of stream_bytes: per segment that is the same "offset + entry <=
 * stream_bytes", and the last segment of the table carries the total.
 *
 * Why the checks agree with the CPU's although they run differently:
 *  - The CPU stops at the first segment whose entry exceeds 2048 or the
 *    bytes left; with offsets from a prefix sum, "entry <= bytes left" for
 *    every segment up to the failing one is "offset + entry <= stream_bytes"
 *    for each, so some segment fails here iff one fails there; the last
 *    segment checks that the entries add up to stream_bytes.
 *  - Inside a segment the CPU decodes the first cnt codewords of the true
 *    path (bits past the segment's end read as zero), and fails on an unknown
 *    code, on bitpos > limit (tested every three symbols; bitpos only grows
 *    and is tested again at the end), or on the end position and padding.
 *    Here the true path is only followed over codewords that start before
 *    limit = 8 * bytes. If fewer than cnt start there, the CPU's end position
 *    exceeds limit, or it meets an unknown code first: an error either way,
 *    and so it is here. Otherwise the first cnt codewords are all known, an
 *    unknown code among them is an error in both, one after them is never
 *    looked at by the CPU and is ignored here, and the end of codeword
 *    cnt - 1 gets the CPU's final checks. */
#include "gg_huff.h"
#include "huff_dec.cuh"
#include <type_traits>

namespace {

constexpr unsigned kWarps = 4; /* segments per block */
constexpr unsigned kSegBytesMax = 2 * GLIDE_SEG_SYMS;
constexpr unsigned kFull = 0xFFFFFFFFu;
constexpr unsigned kFusedSegs = 2048; /* up to this many segments, offsets are summed in k_dec itself */
static_assert(2 * kFusedSegs % (kWarps * 32) == 0 && (kWarps * 32) % 2 == 0, "fused prefix: whole rounds, even stride");

/* A segment's bytes in shared memory, copied there by its warp before any
 * decoding (chunks of few segments, k_dec<true>): every lane's walks read
 * them several times over, and from global memory each walk's start and
 * refill waited on a load from L2 (64^3, H200: k_dec 35.4 -> 31.5 us). On
 * many segments the copy's shared memory and registers cost more occupancy
 * than the loads (256^3: 76.6 -> 79.8 us), so those read global memory.
 * Word k of the copy is the aligned global word k of the segment's span
 * (ph: the segment's first byte in word 0); bytes outside the segment are
 * zero in the copy, and reads past the copy return zero, so every read
 * sees what the CPU's reader sees past a segment's end. */
constexpr unsigned kSegWords = (kSegBytesMax + 3 + 3) / 4 + 4; /* the longest span's words, then 4 zero words */
constexpr unsigned kCopyPer = 4; /* words a lane loads per round, all before its stores */
struct seg_bytes {
    uint32_t base, ph, cap; /* shared address of word 0; the segment's first byte in it; words copied */
};

__device__ __forceinline__ seg_bytes seg_stage(uint32_t *buf, const uint8_t *__restrict__ p, uint32_t bytes,
                                               unsigned lane)
{
    const uint32_t ph = (uint32_t)((uintptr_t)p & 3u), end = ph + bytes, nw = (end + 3) / 4, cap = nw + 4;
    const uint8_t *a0 = p - ph;
    for (uint32_t i0 = lane; i0 < cap; i0 += 32 * kCopyPer) {
        uint32_t v[kCopyPer];
#pragma unroll
        for (unsigned u = 0; u < kCopyPer; u++) {
            const uint32_t i = i0 + 32 * u, b = 4 * i;
            v[u] = 0;
            if (b >= ph && b + 4 <= end) v[u] = __ldg(reinterpret_cast<const uint32_t *>(a0) + i);
            else if (i < nw) /* the span's first or last word: the segment's bytes only */
                for (uint32_t j = 0; j < 4; j++)
                    if (b + j >= ph && b + j < end) v[u] |= (uint32_t)__ldg(a0 + b + j) << (8 * j);
        }
#pragma unroll
        for (unsigned u = 0; u < kCopyPer; u++)
            if (i0 + 32 * u < cap) buf[i0 + 32 * u] = v[u];
    }
    __syncwarp();
    return seg_bytes{(uint32_t)__cvta_generic_to_shared(buf), ph, cap};
}

/* Bytes pos..pos+3 of the segment, big-endian (zero past its end), from
 * the shared copy (huff_dec.cuh reads the global one alike). */
__device__ __forceinline__ uint32_t be32(const seg_bytes &sg, uint32_t pos)
{
    const uint32_t q = pos + sg.ph, k = q >> 2;
    if (k + 1 >= sg.cap) return 0; /* zero words from cap - 4 on */
    return __byte_perm(lds_u32(sg.base + 4 * k), lds_u32(sg.base + 4 * k + 4), 0x0123u + (q & 3u) * 0x1111u);
}

/* Codewords that start in [start, hi) on the path through start: their
 * count, the first start at or past hi (exit), and whether an unknown code
 * stopped the walk (then exit is where it stood). */
struct span {
    uint32_t exit, count;
    bool bad;
};

template <class Src>
__device__ __forceinline__ span walk(const dec_tabs &d, const Src &sg, uint32_t start, uint32_t hi)
{
    span r = {start, 0, false};
    if (start >= hi) return r;
    bit_reader<Src> br;
    br.init(sg, start);
    uint32_t q = start;
    while (q < hi) {
        br.refill();
        unsigned s;
        const unsigned l = decode_one(d, br.acc, &s);
        if (!l) {
            r.bad = true;
            break;
        }
        br.consume(l);
        q += l;
        r.count++;
    }
    r.exit = q;
    return r;
}

__device__ __forceinline__ uint64_t block_sum(uint64_t v, uint64_t *s_red)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(kFull, v, o);
    if ((threadIdx.x & 31) == 0) s_red[threadIdx.x >> 5] = v;
    __syncthreads();
    v = 0;
    for (unsigned w = 0; w < kWarps; w++) v += s_red[w];
    return v;
}

/* Where the symbols go: plane 0's n[0] (its seg0 segments, code dec[0])
 * to sym[0], plane 1's n[1] to sym[1] (none with one plane). Blocks
 * 0 .. blocks0 - 1 take plane 0's segments, the others plane 1's. */
struct dec_map {
    const glide_huff_dec *dec[GLIDE_NPLANES];
    uint16_t *sym[GLIDE_NPLANES];
    uint64_t n[GLIDE_NPLANES];
    uint32_t seg0, blocks0;
};

__device__ __forceinline__ seg_bytes seg_source(std::true_type, uint32_t *buf, const uint8_t *p, uint32_t bytes,
                                                unsigned lane)
{
    return seg_stage(buf, p, bytes, lane);
}
__device__ __forceinline__ seg_global seg_source(std::false_type, uint32_t *, const uint8_t *p, uint32_t bytes, unsigned)
{
    return seg_global{p, bytes};
}

template <bool STAGE>
__global__ void __launch_bounds__(kWarps * 32) k_dec(dec_map dm, const uint8_t *__restrict__ segtab, uint32_t n_seg,
                                                     const uint8_t *__restrict__ in, uint64_t in_bytes,
                                                     const uint64_t *__restrict__ offs, unsigned *__restrict__ err)
{
    __shared__ glide_huff_dec s_dec;
    __shared__ uint16_t s_out[kWarps][GLIDE_SEG_SYMS];
    __shared__ uint64_t s_red[kWarps];
    __shared__ uint32_t s_seg[kWarps][STAGE ? kSegWords : 1];
    const unsigned pk = blockIdx.x >= dm.blocks0; /* the block's plane */
    dec_table_load<kWarps * 32>(&s_dec, dm.dec[pk]);
    const unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    /* seg0: the block's first segment in the whole table; seg_end: its plane's end there */
    const uint32_t seg0 = pk ? dm.seg0 + (blockIdx.x - dm.blocks0) * kWarps : blockIdx.x * kWarps, seg = seg0 + w;
    const uint32_t seg_end = pk ? n_seg : dm.seg0;
    uint64_t base = 0;
    if (!offs) {
        /* Short streams (n_seg <= kFusedSegs) skip the scan: each block adds
         * the entries before its first segment itself. An entry is lo + 256
         * hi, and byte j of the table is a lo byte iff j is even; thread t
         * reads bytes t + kWarps * 32 * u, all of t's parity. */
        uint32_t acc = 0;
#pragma unroll
        for (unsigned u = 0; u < 2 * kFusedSegs / (kWarps * 32); u++) {
            const uint32_t j = threadIdx.x + kWarps * 32 * u;
            if (j < 2 * seg0) acc += __ldg(segtab + j);
        }
        base = block_sum((threadIdx.x & 1) ? (uint64_t)acc << 8 : acc, s_red);
    }
    __syncthreads(); /* the last block-wide barrier: warps leave independently below */
    if (seg >= seg_end) return;
    const dec_tabs T = dec_tabs_of(s_dec);

    /* every lane reads the same entries, so all take the same branches */
    const uint32_t bytes = (uint32_t)segtab[2 * (size_t)seg] | (uint32_t)segtab[2 * (size_t)seg + 1] << 8;
    uint64_t off;
    if (offs) {
        off = offs[seg];
    } else {
        off = base;
        for (uint32_t k = seg0; k < seg; k++) off += (uint32_t)segtab[2 * k] | (uint32_t)segtab[2 * k + 1] << 8;
    }
    bool fail = bytes > kSegBytesMax || off + bytes > in_bytes || (seg == n_seg - 1 && off + bytes != in_bytes);
    if (fail) {
        if (lane == 0) atomicOr(err, 1u);
        return;
    }
    const uint64_t s0 = (uint64_t)(seg - (pk ? dm.seg0 : 0)) * GLIDE_SEG_SYMS, n = dm.n[pk];
    const uint32_t cnt = n - s0 < GLIDE_SEG_SYMS ? (uint32_t)(n - s0) : GLIDE_SEG_SYMS;
    const auto sg = seg_source(std::integral_constant<bool, STAGE>(), s_seg[w], in + off, bytes, lane);
    const uint32_t limit = bytes * 8, sub = (limit + 31) / 32;
    const uint32_t lo = lane * sub < limit ? lane * sub : limit;
    const uint32_t hi = lo + sub < limit ? lo + sub : limit;

    /* settle every lane's start on the true path */
    uint32_t start = lo;
    span r = walk(T, sg, start, hi);
    for (int round = 0; round < 32; round++) {
        const uint32_t left_exit = __shfl_up_sync(kFull, r.exit, 1);
        const bool left_bad = __shfl_up_sync(kFull, (unsigned)r.bad, 1) != 0;
        const bool move = lane > 0 && !left_bad && left_exit != start;
        if (!__any_sync(kFull, move)) break;
        if (move) {
            start = left_exit;
            r = walk(T, sg, start, hi);
        }
    }
    /* Lanes up to the first one stopped by an unknown code are on the true
     * path; later lanes come after that code and their counts only push
     * their (unused) positions further. */
    uint32_t incl = r.count;
    for (int o = 1; o < 32; o <<= 1) {
        const uint32_t v = __shfl_up_sync(kFull, incl, o);
        if ((int)lane >= o) incl += v;
    }
    const uint32_t first = incl - r.count; /* index of this lane's first codeword */
    const unsigned badmask = __ballot_sync(kFull, r.bad);
    const unsigned fb = badmask ? (unsigned)__ffs(badmask) - 1 : 32;
    const uint32_t known = __shfl_sync(kFull, incl, fb < 32 ? fb : 31); /* codewords before any unknown code */
    fail = known < cnt;

    uint32_t end_bit = 0; /* end of codeword cnt - 1, in the lane that decodes it */
    bool has_end = false;
    if (!fail && lane <= fb && first < cnt && r.count) {
        bit_reader<typename std::remove_const<decltype(sg)>::type> br;
        br.init(sg, start);
        uint32_t q = start;
        const uint32_t stop = first + r.count < cnt ? first + r.count : cnt;
        for (uint32_t i = first; i < stop; i++) {
            br.refill();
            unsigned s;
            const unsigned l = decode_one(T, br.acc, &s); /* known: the walk passed here */
            br.consume(l);
            q += l;
            s_out[w][i] = (uint16_t)s;
        }
        if (stop == cnt) {
            end_bit = q;
            has_end = true;
        }
    }
    if (has_end) {
        /* the segment ends in its last byte, padded with zero bits */
        if (end_bit > limit || (end_bit + 7) / 8 != bytes) fail = true;
        else if ((end_bit & 7) && ((be32(sg, end_bit >> 3) >> 24) & (0xFFu >> (end_bit & 7)))) fail = true;
    }
    if (__any_sync(kFull, fail)) {
        if (lane == 0) atomicOr(err, 1u);
        return;
    }
    __syncwarp();
    uint16_t *o = dm.sym[pk] + s0;
    for (uint32_t i = lane; i < cnt; i += 32) o[i] = s_out[w][i];
}

} /* namespace */

extern "C" size_t gg_huff_decode_scratch(uint64_t n)
{
    return offs_scratch(n, GLIDE_SEG_SYMS); /* two planes: a segment more, see the encoder */
}

static cudaError_t huff_decode(dec_map dm, const uint8_t *d_segtab, uint32_t n_segments, const uint8_t *d_stream,
                               uint64_t stream_bytes, unsigned *d_err, void *d_scratch, size_t scratch_bytes,
                               cudaStream_t s)
{
    if (!d_err) return cudaErrorInvalidValue;
    const uint64_t seg1 = (dm.n[1] + GLIDE_SEG_SYMS - 1) / GLIDE_SEG_SYMS, n_seg = (uint64_t)dm.seg0 + seg1;
    /* stream-level checks the host can make: report them the same way */
    if (n_seg != n_segments || (n_seg == 0 && stream_bytes != 0)) {
        k_flag<<<1, 1, 0, s>>>(d_err);
        return cudaGetLastError();
    }
    if (n_seg == 0) return cudaSuccess;
    if ((dm.seg0 && (!dm.dec[0] || !dm.sym[0])) || (seg1 && (!dm.dec[1] || !dm.sym[1])) || !d_segtab ||
        (stream_bytes && !d_stream))
        return cudaErrorInvalidValue;
    if (n_seg > kFusedSegs && !d_scratch) return cudaErrorInvalidValue;
    dm.blocks0 = (dm.seg0 + kWarps - 1) / kWarps;
    const unsigned grid = dm.blocks0 + (unsigned)((seg1 + kWarps - 1) / kWarps);
    uint64_t *offs = nullptr;
    if (n_seg > kFusedSegs) {
        const cudaError_t e = offs_scan(d_segtab, n_seg, d_scratch, scratch_bytes, &offs, s);
        if (e != cudaSuccess) return e;
    }
    if (n_seg <= kFusedSegs) /* few segments: their bytes staged in shared memory (seg_bytes) */
        k_dec<true><<<grid, kWarps * 32, 0, s>>>(dm, d_segtab, n_segments, d_stream, stream_bytes, offs, d_err);
    else k_dec<false><<<grid, kWarps * 32, 0, s>>>(dm, d_segtab, n_segments, d_stream, stream_bytes, offs, d_err);
    return cudaGetLastError();
}

extern "C" cudaError_t gg_huff_decode(const glide_huff_dec *d_dec, const uint8_t *d_segtab, uint32_t n_segments,
                                      const uint8_t *d_stream, uint64_t stream_bytes, uint16_t *d_sym, uint64_t n,
                                      unsigned *d_err, void *d_scratch, size_t scratch_bytes, cudaStream_t s)
{
    const uint64_t seg0 = (n + GLIDE_SEG_SYMS - 1) / GLIDE_SEG_SYMS;
    if (seg0 > UINT32_MAX) return cudaErrorInvalidValue;
    const dec_map dm = {{d_dec, nullptr}, {d_sym, nullptr}, {n, 0}, (uint32_t)seg0, 0};
    return huff_decode(dm, d_segtab, n_segments, d_stream, stream_bytes, d_err, d_scratch, scratch_bytes, s);
}

extern "C" cudaError_t gg_huff_decode_planes(const glide_huff_dec *d_dec0, const glide_huff_dec *d_dec1,
                                             const uint8_t *d_segtab, uint32_t n_segments, const uint8_t *d_stream,
                                             uint64_t stream_bytes, uint16_t *d_sym0, uint64_t n0, uint16_t *d_sym1,
                                             uint64_t n1, unsigned *d_err, void *d_scratch, size_t scratch_bytes,
                                             cudaStream_t s)
{
    const uint64_t seg0 = (n0 + GLIDE_SEG_SYMS - 1) / GLIDE_SEG_SYMS;
    if (seg0 > UINT32_MAX) return cudaErrorInvalidValue;
    const dec_map dm = {{d_dec0, d_dec1}, {d_sym0, d_sym1}, {n0, n1}, (uint32_t)seg0, 0};
    return huff_decode(dm, d_segtab, n_segments, d_stream, stream_bytes, d_err, d_scratch, scratch_bytes, s);
}
