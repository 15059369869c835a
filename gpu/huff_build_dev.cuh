/* A custom Huffman book built by one thread block, bit for bit the
 * CPU's (cpu/huff_build.c glide_huff_lengths and glide_huff_canonical,
 * cpu/huff_codec.c glide_book_pack), so the encoder's device plan needs no
 * host. Symbol i of the block's GLIDE_NSYM belongs to thread i / 2
 * (two per thread, CUB's blocked arrangement).
 *
 * Only the two-queue merge and the depth walk of the internal nodes are
 * sequential (one thread, about 2m steps for m used symbols); sorting,
 * clamping, the Kraft sum, packing and canonical codes use the block. */
#ifndef GLIDE_HUFF_BUILD_DEV_CUH
#define GLIDE_HUFF_BUILD_DEV_CUH
#include "format.h"
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

namespace gg_build {

constexpr unsigned kItems = 2;
constexpr unsigned kSymBits = 11; /* GLIDE_NSYM < 2^11: leaf key = weight << 11 | symbol */
static_assert(GLIDE_NSYM <= (1u << kSymBits), "symbol field of the sort key");
static_assert(GLIDE_HUFF_MAX_LEN == 16, "canonical ranks are packed as four 16-bit counters per word");

struct MaxOp {
    __device__ uint64_t operator()(uint64_t a, uint64_t b) const { return a > b ? a : b; }
};

template <int NT> struct Builder {
    static_assert(NT * kItems >= GLIDE_NSYM, "every symbol has a thread");
    typedef cub::BlockRadixSort<uint64_t, NT, kItems> Sort;
    typedef cub::BlockScan<uint64_t, NT> Scan;
    typedef cub::BlockReduce<uint64_t, NT> Reduce;
    struct Tree {
        uint64_t key[GLIDE_NSYM]; /* leaves sorted by (weight, symbol), as the CPU's qsort */
        uint64_t nw[GLIDE_NSYM];  /* internal node weights, in creation order */
        uint16_t parent[2 * GLIDE_NSYM];
        uint16_t depth[2 * GLIDE_NSYM];
    };
    struct Storage {
        union {
            typename Sort::TempStorage sort;
            Tree tree;
        } u;
        union {
            typename Scan::TempStorage scan;
            typename Reduce::TempStorage red;
        } c;
        uint8_t len[GLIDE_NSYM];
        uint64_t bcast;
    };

    __device__ static uint64_t sum(Storage &S, uint64_t v)
    {
        v = Reduce(S.c.red).Sum(v);
        if (threadIdx.x == 0) S.bcast = v;
        __syncthreads();
        v = S.bcast;
        __syncthreads(); /* S.c and S.bcast free again */
        return v;
    }

    /* glide_huff_lengths(hist, GLIDE_NSYM, 16, S.len); n: the total count */
    __device__ static void lengths(Storage &S, const uint64_t *hist, uint64_t n)
    {
        const unsigned t = threadIdx.x;
        uint64_t k[kItems];
        unsigned used = 0;
        for (unsigned j = 0; j < kItems; j++) {
            const unsigned i = t * kItems + j;
            const bool u = i < GLIDE_NSYM && hist[i];
            k[j] = u ? hist[i] << kSymBits | i : ~0ull;
            used += u;
        }
        for (unsigned i = t; i < GLIDE_NSYM; i += NT) S.len[i] = 0;
        const unsigned m = (unsigned)sum(S, used);
        if (m == 0) return;
        /* weights <= n, so the keys fit in end_bit bits and the padding (all ones) sorts last */
        const int end_bit = (int)kSymBits + 64 - __clzll((long long)n);
        Sort(S.u.sort).Sort(k, 0, end_bit);
        __syncthreads(); /* the sort's storage becomes the tree */
        Tree &T = S.u.tree;
        for (unsigned j = 0; j < kItems; j++)
            if (t * kItems + j < m) T.key[t * kItems + j] = k[j];
        __syncthreads();
        if (m == 1) {
            if (t == 0) S.len[T.key[0] & ((1u << kSymBits) - 1)] = 1;
            __syncthreads();
            return;
        }
        if (t == 0) {
            /* two queues: leaves in sorted order, internal nodes in creation
             * order; ties prefer the leaf (node ids: leaves 0..m-1, internal m..) */
            unsigned li = 0, ni = 0;
            for (unsigned nn = 0; nn < m - 1; nn++) {
                uint64_t wsum = 0;
                for (int p = 0; p < 2; p++) {
                    const uint64_t lw = li < m ? T.key[li] >> kSymBits : 0;
                    if (li < m && (ni >= nn || lw <= T.nw[ni])) {
                        T.parent[li++] = (uint16_t)(m + nn);
                        wsum += lw;
                    } else {
                        T.parent[m + ni] = (uint16_t)(m + nn);
                        wsum += T.nw[ni++];
                    }
                }
                T.nw[nn] = wsum;
            }
            const unsigned total = 2 * m - 1; /* parents always have larger ids */
            T.depth[total - 1] = 0;
            for (unsigned id = total - 1; id-- > m;) T.depth[id] = (uint16_t)(T.depth[T.parent[id]] + 1);
        }
        __syncthreads();
        const unsigned max_len = GLIDE_HUFF_MAX_LEN;
        const uint64_t cap = 1ull << max_len;
        uint64_t kraft = 0;
        for (unsigned r = t; r < m; r += NT) {
            unsigned d = T.depth[T.parent[r]] + 1u;
            d = d > max_len ? max_len : d;
            S.len[T.key[r] & ((1u << kSymBits) - 1)] = (uint8_t)d;
            kraft += 1ull << (max_len - d);
        }
        kraft = sum(S, kraft);
        /* A full tree has kraft == cap, and then neither loop below changes
         * anything; only clamped codes (kraft > cap) need them. */
        if (kraft != cap && t == 0) {
            while (kraft > cap) {
                for (unsigned i = 0; i < m && kraft > cap; i++) {
                    const unsigned s = (unsigned)(T.key[i] & ((1u << kSymBits) - 1));
                    if (S.len[s] < max_len) {
                        kraft -= 1ull << (max_len - S.len[s] - 1);
                        S.len[s]++;
                    }
                }
            }
            for (unsigned i = m; i-- > 0;) {
                const unsigned s = (unsigned)(T.key[i] & ((1u << kSymBits) - 1));
                while (S.len[s] > 1 && kraft + (1ull << (max_len - S.len[s])) <= cap) {
                    kraft += 1ull << (max_len - S.len[s]);
                    S.len[s]--;
                }
            }
        }
        __syncthreads();
    }

    /* sum hist[i] * len[i] (glide_book_bits) */
    __device__ static uint64_t bits(Storage &S, const uint64_t *hist)
    {
        uint64_t b = 0;
        for (unsigned i = threadIdx.x; i < GLIDE_NSYM; i += NT) b += hist[i] * S.len[i];
        return sum(S, b);
    }

    /* glide_book_pack's layout: where each of this thread's symbols puts its
     * byte (or ~0u for none); returns the packed size */
    __device__ static unsigned pack_positions(Storage &S, unsigned pos[kItems])
    {
        const unsigned t = threadIdx.x;
        uint64_t start[kItems], emit[kItems];
        for (unsigned j = 0; j < kItems; j++) {
            const unsigned i = t * kItems + j;
            const bool z = i < GLIDE_NSYM && S.len[i] == 0;
            start[j] = z && (i == 0 || S.len[i - 1] != 0) ? i + 1 : 0; /* 1 + the zero run's first symbol */
        }
        Scan(S.c.scan).InclusiveScan(start, start, MaxOp());
        __syncthreads();
        for (unsigned j = 0; j < kItems; j++) {
            const unsigned i = t * kItems + j;
            /* a length, or the first of each 128 zeros of a run */
            emit[j] = i < GLIDE_NSYM && (S.len[i] != 0 || (i - (start[j] - 1)) % 128 == 0);
        }
        uint64_t total;
        Scan(S.c.scan).ExclusiveSum(emit, start, total);
        __syncthreads();
        for (unsigned j = 0; j < kItems; j++) pos[j] = emit[j] ? (unsigned)start[j] : ~0u;
        return (unsigned)total;
    }

    __device__ static void pack_write(Storage &S, const unsigned pos[kItems], uint8_t *out)
    {
        for (unsigned j = 0; j < kItems; j++) {
            const unsigned i = threadIdx.x * kItems + j;
            if (pos[j] == ~0u) continue;
            if (S.len[i]) {
                out[pos[j]] = S.len[i];
            } else {
                unsigned k = 0;
                while (i + k < GLIDE_NSYM && !S.len[i + k] && k < 128) k++;
                out[pos[j]] = (uint8_t)(0x80 | (k - 1));
            }
        }
    }

    /* glide_huff_enc_init(enc, S.len): canonical codes in symbol order */
    __device__ static void canonical(Storage &S, uint16_t *code, uint8_t *len_out)
    {
        const unsigned t = threadIdx.x;
        unsigned l[kItems], rank[kItems] = {0, 0};
        unsigned count[GLIDE_HUFF_MAX_LEN + 1] = {0};
        for (unsigned j = 0; j < kItems; j++) {
            const unsigned i = t * kItems + j;
            l[j] = i < GLIDE_NSYM ? S.len[i] : 0;
        }
        /* rank among the earlier symbols of the same length: four lengths
         * per scan, as 16-bit counters (at most GLIDE_NSYM each) */
        for (unsigned w = 0; w < 4; w++) {
            uint64_t a[kItems], pre[kItems], agg;
            for (unsigned j = 0; j < kItems; j++)
                a[j] = l[j] && (l[j] - 1) / 4 == w ? 1ull << (16 * ((l[j] - 1) % 4)) : 0;
            Scan(S.c.scan).ExclusiveSum(a, pre, agg);
            __syncthreads();
            for (unsigned j = 0; j < kItems; j++)
                if (l[j] && (l[j] - 1) / 4 == w) rank[j] = (unsigned)(pre[j] >> (16 * ((l[j] - 1) % 4))) & 0xFFFFu;
            for (unsigned q = 0; q < 4; q++) count[4 * w + q + 1] = (unsigned)(agg >> (16 * q)) & 0xFFFFu;
        }
        unsigned next[GLIDE_HUFF_MAX_LEN + 1] = {0}, c = 0;
        for (unsigned b = 1; b <= GLIDE_HUFF_MAX_LEN; b++) {
            c = (c + (b > 1 ? count[b - 1] : 0)) << 1;
            next[b] = c;
        }
        for (unsigned j = 0; j < kItems; j++) {
            const unsigned i = t * kItems + j;
            if (i >= GLIDE_NSYM) continue;
            code[i] = l[j] ? (uint16_t)(next[l[j]] + rank[j]) : 0;
            len_out[i] = (uint8_t)l[j];
        }
    }
};

} /* namespace gg_build */
#endif
