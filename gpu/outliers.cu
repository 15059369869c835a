/* The encoder's anchor and outlier sections (docs/FORMAT.md §7), and the
 * decoder's ranks of the OUTLIER symbols, by which its kernels find each
 * outlier's value. */
#include "predict_launch.cuh"
#include "outlier_words.cuh"
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/device/device_scan.cuh>

/* the anchors in index order (grid-stride), as bytes at place->anchors_off */
template <class T> __device__ void anchors_store(const T *x, const gg_grid &g, uint8_t *buf, const gg_place *place)
{
    uint8_t *dst = buf + place->anchors_off;
    uint64_t na = g.nb[0] * g.nb[1] * g.nb[2];
    for (uint64_t k = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; k < na; k += (uint64_t)gridDim.x * blockDim.x) {
        uint64_t u = k, ax = u % g.nb[2];
        u /= g.nb[2];
        uint64_t ay = u % g.nb[1], az = u / g.nb[1];
        uint64_t z = az << g.blog; /* a slab's blocks start at its first row */
        if (g.nbl != g.nb[0]) z = (uint32_t)az / (uint32_t)g.nbl * g.slab_rows + (((uint32_t)az % (uint32_t)g.nbl) << g.blog);
        uint64_t i = z * g.st[0] + (ay << g.blog) * g.st[1] + (ax << g.blog);
        store_le<T>(dst + k * sizeof(T), x[i]);
    }
}

/* The decoder's outlier ranks: per word of 32 symbols its OUTLIER bits
 * (mask) and their count (cnt, then scanned into the outliers before the
 * word). A thread reads 8 symbols in one 16-byte load and four lanes make a
 * word. They replaced a full-length flag per point and its scan (4 bytes a
 * point written, scanned and read back), which took 860 us of a 512^3
 * decode (ncu, H100). sym must be 16-byte aligned (a device allocation). */
__global__ void __launch_bounds__(GG_THREADS) outlier_words_k(const uint16_t *sym, uint64_t n, uint32_t *mask,
                                                              uint32_t *cnt)
{
    const uint64_t n8 = n / 8, nw = (n + 31) / 32, stride = (uint64_t)gridDim.x * GG_THREADS;
    const unsigned lane = threadIdx.x & 31;
    /* the loop test is the block's, so whole warps shuffle */
    for (uint64_t b = blockIdx.x * (uint64_t)GG_THREADS; b < nw * 4; b += stride) {
        const uint64_t i = b + threadIdx.x;
        unsigned m = 0;
        if (i < n8) {
            m = outlier_bits8(reinterpret_cast<const uint4 *>(sym)[i]);
        } else {
            for (uint64_t j = i * 8; j < i * 8 + 8 && j < n; j++) m |= (unsigned)(sym[j] == GLIDE_SYM_OUTLIER) << (j & 7);
        }
        const unsigned word = outlier_word(m, lane);
        if ((lane & 3u) == 0 && i / 4 < nw) {
            mask[i / 4] = word;
            cnt[i / 4] = (uint32_t)__popc(word);
        }
    }
}

__global__ void outlier_total_k(uint64_t nw, const uint32_t *mask, const uint32_t *pre, gg_state *st)
{
    st->n_outliers = (unsigned long long)pre[nw - 1] + (unsigned long long)__popc(mask[nw - 1]);
}

/* The encoder's outlier section: OUTLIER symbols' values in index order.
 * Outliers are rare and often absent, and only the device knows how many
 * there are, so both kernels return at once when the histogram has none
 * (or the plan declined). Counting: one warp per tile of kOutTile
 * symbols; the last block turns the counts into exclusive offsets. */
constexpr unsigned kOutTile = 4096;

__device__ bool outliers_wanted(const gg_state *st) { return st->place.ok && st->hist[GLIDE_SYM_OUTLIER] != 0; }

/* The anchors first (one kernel for both: a launch of its own cost about
 * 3 us of a 64^3 chunk's critical path), then the outlier counts. */
template <class T>
__global__ void __launch_bounds__(GG_THREADS) outlier_count_k(const T *x, gg_grid g, uint8_t *buf,
                                                              const uint16_t *sym, uint64_t n, uint32_t *tile_off,
                                                              gg_state *st)
{
    if (!st->place.ok) return; /* uniform */
    anchors_store<T>(x, g, buf, &st->place);
    if (!outliers_wanted(st)) return; /* uniform */
    /* a warp per tile (sym 16-byte aligned, as a device allocation is) */
    const uint64_t n_tiles = (n + kOutTile - 1) / kOutTile, wpb = GG_THREADS / 32;
    const unsigned lane = threadIdx.x & 31;
    for (uint64_t t = blockIdx.x * wpb + (threadIdx.x >> 5); t < n_tiles; t += gridDim.x * wpb) {
        const uint64_t end = (t + 1) * kOutTile < n ? (t + 1) * kOutTile : n;
        unsigned c = 0;
        if (end - t * kOutTile == kOutTile) { /* a whole tile: 16-byte loads (its start is 8 KB aligned) */
            const uint4 *v = reinterpret_cast<const uint4 *>(sym + t * kOutTile);
#pragma unroll 4
            for (unsigned i = lane; i < kOutTile / 8; i += 32) c += (unsigned)__popc(outlier_bits8(v[i]));
        } else {
            for (uint64_t i = t * kOutTile + lane; i < end; i += 32) c += sym[i] == GLIDE_SYM_OUTLIER;
        }
        for (int o = 16; o > 0; o >>= 1) c += __shfl_xor_sync(0xFFFFFFFFu, c, o);
        if (lane == 0) tile_off[t] = c;
    }
    if (!last_block(&st->place.outlier_ticket)) return;
    /* exclusive scan in place, kScanItems counts a thread per round, loaded
     * and stored coalesced (a contiguous run per thread read 256 scattered
     * lines per load: the one block's scan of 32768 tiles at 512^3) */
    constexpr int kScanItems = 16;
    typedef cub::BlockLoad<uint32_t, GG_THREADS, kScanItems, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
    typedef cub::BlockStore<uint32_t, GG_THREADS, kScanItems, cub::BLOCK_STORE_WARP_TRANSPOSE> Store;
    typedef cub::BlockScan<uint32_t, GG_THREADS> Scan;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
        typename Scan::TempStorage scan;
    } tmp;
    uint32_t carry = 0;
    for (uint64_t base = 0; base < n_tiles; base += GG_THREADS * kScanItems) {
        const int valid = n_tiles - base < GG_THREADS * kScanItems ? (int)(n_tiles - base) : GG_THREADS * kScanItems;
        uint32_t v[kScanItems], round;
        Load(tmp.load).Load(tile_off + base, v, valid, 0u);
        __syncthreads();
        Scan(tmp.scan).ExclusiveSum(v, v, round);
        __syncthreads();
#pragma unroll
        for (int i = 0; i < kScanItems; i++) v[i] += carry;
        Store(tmp.store).Store(tile_off + base, v, valid);
        __syncthreads();
        carry += round;
    }
}

template <class T>
__global__ void __launch_bounds__(GG_THREADS) outlier_pack_k(const T *x, uint64_t n, const uint16_t *sym,
                                                             const uint32_t *tile_off, const gg_state *st,
                                                             uint8_t *buf)
{
    if (!outliers_wanted(st)) return; /* uniform */
    uint8_t *dst = buf + st->place.outliers_off;
    __shared__ unsigned s_w[GG_THREADS / 32];
    const uint64_t n_tiles = (n + kOutTile - 1) / kOutTile, total = st->hist[GLIDE_SYM_OUTLIER];
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (uint64_t t = blockIdx.x; t < n_tiles; t += gridDim.x) {
        uint64_t base = tile_off[t];
        if (base == (t + 1 < n_tiles ? tile_off[t + 1] : total)) continue; /* none here: uniform */
        const uint64_t end = (t + 1) * kOutTile < n ? (t + 1) * kOutTile : n;
        for (uint64_t r = t * kOutTile; r < end; r += GG_THREADS) {
            const uint64_t i = r + threadIdx.x;
            const bool out = i < end && sym[i] == GLIDE_SYM_OUTLIER;
            const unsigned m = __ballot_sync(0xFFFFFFFFu, out);
            if (lane == 0) s_w[warp] = __popc(m);
            __syncthreads();
            unsigned at = __popc(m & ((1u << lane) - 1u)), round = 0;
            for (unsigned w = 0; w < GG_THREADS / 32; w++) {
                at += w < warp ? s_w[w] : 0;
                round += s_w[w];
            }
            if (out) store_le<T>(dst + (base + at) * sizeof(T), x[i]);
            base += round;
            __syncthreads(); /* s_w read by all before the next round */
        }
    }
}

extern "C" size_t gg_outlier_scan_scratch(uint64_t n)
{
    size_t bytes = 0;
    cub::DeviceScan::ExclusiveSum(NULL, bytes, (uint32_t *)NULL, (uint32_t *)NULL, (int)outlier_words(n));
    return bytes;
}

extern "C" size_t gg_outlier_scan_bytes(uint64_t n) { return (size_t)outlier_words(n) * 2 * sizeof(uint32_t); }

extern "C" cudaError_t gg_outlier_scan(const uint16_t *d_sym, uint64_t n, uint32_t *d_pos, gg_state *d_st,
                                       void *d_scratch, size_t scratch_bytes, cudaStream_t s)
{
    const uint64_t nw = outlier_words(n);
    uint32_t *mask = d_pos, *pre = d_pos + nw;
    if (d_sym) outlier_words_k<<<grid_for(nw * 4), GG_THREADS, 0, s>>>(d_sym, n, mask, pre);
    cudaError_t e = cub::DeviceScan::ExclusiveSum(d_scratch, scratch_bytes, pre, pre, (int)nw, s);
    if (e != cudaSuccess) return e;
    outlier_total_k<<<1, 1, 0, s>>>(nw, mask, pre, d_st);
    return cudaGetLastError();
}

extern "C" size_t gg_outlier_tile_bytes(uint64_t n) { return (size_t)((n + kOutTile - 1) / kOutTile) * sizeof(uint32_t); }

extern "C" cudaError_t gg_anchors_outliers(const void *d_x, gg_grid g, const uint16_t *d_sym, uint32_t *d_tiles,
                                        gg_state *d_st, uint8_t *d_buf, cudaStream_t s)
{
    const uint64_t n_tiles = (g.count + kOutTile - 1) / kOutTile, wpb = GG_THREADS / 32;
    uint64_t count_blocks = (n_tiles + wpb - 1) / wpb; /* a warp per tile */
    const uint64_t anchor_blocks = grid_for(n_blocks(g));
    if (count_blocks < anchor_blocks) count_blocks = anchor_blocks;
    const unsigned cgrid = count_blocks < 4096 ? (unsigned)count_blocks : 4096u; /* both loops stride */
    const unsigned grid = n_tiles < 4096 ? (unsigned)n_tiles : 4096u;
    if (g.dtype == GLIDE_FLOAT64) {
        outlier_count_k<double><<<cgrid, GG_THREADS, 0, s>>>((const double *)d_x, g, d_buf, d_sym, g.count, d_tiles, d_st);
        outlier_pack_k<double><<<grid, GG_THREADS, 0, s>>>((const double *)d_x, g.count, d_sym, d_tiles, d_st, d_buf);
    } else {
        outlier_count_k<float><<<cgrid, GG_THREADS, 0, s>>>((const float *)d_x, g, d_buf, d_sym, g.count, d_tiles, d_st);
        outlier_pack_k<float><<<grid, GG_THREADS, 0, s>>>((const float *)d_x, g.count, d_sym, d_tiles, d_st, d_buf);
    }
    return cudaGetLastError();
}
