/* CRC-32 (zlib's: reflected polynomial 0xEDB88320, init and final xor
 * 0xFFFFFFFF) of a device buffer, equal to common/crc32.c.
 *
 * CRC is linear over GF(2). With R(M) the "raw" CRC (register starting at
 * 0, no final xor), R(A || B) = R(A) * x^(8|B|) xor R(B) (mod P), and
 * zlib's crc(M) = ~(0xFFFFFFFF * x^(8n) xor R(M)). So the buffer is cut into
 * pieces, each thread computes the raw CRC of its piece, multiplies it by
 * x^(8 * bytes after the piece), and all terms are xor-ed: xor is
 * associative and commutative, so the result does not depend on the
 * reduction order and needs no sequential combine pass.
 *
 * Polynomials are held in the reflected order zlib uses: bit 31 is the
 * coefficient of x^0, bit 0 that of x^31, and ">> 1" multiplies by x. */
#include "gg_huff.h"
#include "last_block.cuh"

namespace {

constexpr uint32_t kPoly = 0xEDB88320u;
constexpr uint32_t kOne = 0x80000000u; /* the polynomial 1 */
constexpr unsigned kThreads = 128;
/* Pieces of at least 64 bytes, and at most 2^17 of them: mid-sized buffers
 * spread over every SM (the table lookups are bound by each SM's shared
 * memory), large ones keep the per-piece x^(8d) factor small beside the
 * piece's own work. */
constexpr uint64_t kMinPiece = 64;
constexpr uint64_t kTargetPieces = 1u << 17;

struct alignas(16) crc_tables {
    /* slice[k][b]: raw CRC of byte b followed by k zero bytes (slice-by-16). */
    uint32_t slice[16][256];
    /* xpow[k][v] = x^(8 * v * 256^k) mod P: x^(8d) for any d < 2^40 is the
     * product of one entry per base-256 digit of d. */
    uint32_t xpow[5][256];
};

/* Bit-serial multiply, for the compile-time tables only. */
constexpr uint32_t gf_mul_slow(uint32_t a, uint32_t b)
{
    uint32_t p = 0;
    for (int i = 0; i < 32; i++) {
        if (a & 0x80000000u) p ^= b;
        a <<= 1;
        b = (b >> 1) ^ ((b & 1u) ? kPoly : 0u);
    }
    return p;
}

constexpr crc_tables make_crc_tables()
{
    crc_tables t{};
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ ((c & 1u) ? kPoly : 0u);
        t.slice[0][i] = c;
    }
    for (int k = 1; k < 16; k++)
        for (int i = 0; i < 256; i++) t.slice[k][i] = (t.slice[k - 1][i] >> 8) ^ t.slice[0][t.slice[k - 1][i] & 0xFFu];
    uint32_t step = kOne >> 8; /* x^8 */
    for (int k = 0; k < 5; k++) {
        t.xpow[k][0] = kOne;
        for (int v = 1; v < 256; v++) t.xpow[k][v] = gf_mul_slow(t.xpow[k][v - 1], step);
        for (int s = 0; s < 8; s++) step = gf_mul_slow(step, step); /* x^(8 * 256^(k+1)) */
    }
    return t;
}

/* Evaluated by the compiler (a __device__ variable cannot be initialised
 * at run time), so the device image carries the finished tables. */
__device__ const crc_tables g_crc_tab = make_crc_tables();
static_assert(make_crc_tables().slice[0][1] == 0x77073096u, "CRC-32 table");
static_assert(make_crc_tables().slice[0][255] == 0x2D02EF8Du, "CRC-32 table");

typedef uint32_t slice_tab[16][256];

/* Carry-less 32x32 -> 63-bit product with ordinary integer multiplies: the
 * operands are split into four masks whose set bits are 4 apart, so in each
 * partial product a column sums at most 8 ones and its carries (< 16) never
 * reach the next column of the same residue mod 4, which the final masks keep. */
__device__ __forceinline__ uint64_t clmul32(uint32_t x, uint32_t y)
{
    const uint32_t x0 = x & 0x11111111u, x1 = x & 0x22222222u, x2 = x & 0x44444444u, x3 = x & 0x88888888u;
    const uint32_t y0 = y & 0x11111111u, y1 = y & 0x22222222u, y2 = y & 0x44444444u, y3 = y & 0x88888888u;
#define MW(a, b) ((uint64_t)(a) * (uint64_t)(b))
    uint64_t z0 = MW(x0, y0) ^ MW(x1, y3) ^ MW(x2, y2) ^ MW(x3, y1);
    uint64_t z1 = MW(x0, y1) ^ MW(x1, y0) ^ MW(x2, y3) ^ MW(x3, y2);
    uint64_t z2 = MW(x0, y2) ^ MW(x1, y1) ^ MW(x2, y0) ^ MW(x3, y3);
    uint64_t z3 = MW(x0, y3) ^ MW(x1, y2) ^ MW(x2, y1) ^ MW(x3, y0);
#undef MW
    return (z0 & 0x1111111111111111ull) | (z1 & 0x2222222222222222ull) | (z2 & 0x4444444444444444ull) |
           (z3 & 0x8888888888888888ull);
}

/* a * b mod P, reflected. In the integer carry-less product of two reflected
 * values, x^k lands on bit 62 - k; after << 1 the high word is x^0..x^31 and
 * the low word is Q with the remaining terms equal to Q * x^32, which is
 * exactly what running the register Q over four zero bytes computes. */
__device__ __forceinline__ uint32_t gf_mul(uint32_t a, uint32_t b, const slice_tab &T)
{
    const uint64_t z = clmul32(a, b) << 1;
    const uint32_t hi = (uint32_t)(z >> 32), lo = (uint32_t)z;
    return hi ^ T[3][lo & 0xFFu] ^ T[2][(lo >> 8) & 0xFFu] ^ T[1][(lo >> 16) & 0xFFu] ^ T[0][lo >> 24];
}

typedef uint32_t xpow_tab[5][256];

/* x^(8d) mod P for d < 2^40. */
__device__ __forceinline__ uint32_t xpow8(uint64_t d, const slice_tab &T, const xpow_tab &X)
{
    uint32_t r = X[0][d & 0xFFu];
    for (int k = 1; k < 5; k++) {
        const unsigned v = (unsigned)(d >> (8 * k)) & 0xFFu;
        if (v) r = gf_mul(r, X[k][v], T);
    }
    return r;
}

__device__ __forceinline__ uint32_t step16(uint32_t c, uint4 v, const slice_tab &T)
{
    const uint32_t a = v.x ^ c;
    return T[15][a & 0xFFu] ^ T[14][(a >> 8) & 0xFFu] ^ T[13][(a >> 16) & 0xFFu] ^ T[12][a >> 24] ^
           T[11][v.y & 0xFFu] ^ T[10][(v.y >> 8) & 0xFFu] ^ T[9][(v.y >> 16) & 0xFFu] ^ T[8][v.y >> 24] ^
           T[7][v.z & 0xFFu] ^ T[6][(v.z >> 8) & 0xFFu] ^ T[5][(v.z >> 16) & 0xFFu] ^ T[4][v.z >> 24] ^
           T[3][v.w & 0xFFu] ^ T[2][(v.w >> 8) & 0xFFu] ^ T[1][(v.w >> 16) & 0xFFu] ^ T[0][v.w >> 24];
}

/* How the buffer is cut: `head` bytes up to the first 16-byte aligned
 * address, `main` bytes of whole 16-byte vectors cut into pieces of
 * `piece` bytes (the last one shorter), and a `tail` of < 16 bytes. The
 * head and tail are two extra pieces done byte by byte, so that every other
 * piece reads aligned uint4 vectors whatever the buffer's alignment. The
 * grid is sized on the host for the bound n_max; the piece size follows the
 * length itself (which may be known only on the device), and a thread takes
 * several pieces when there are more pieces than threads. */
struct crc_plan {
    uint64_t head, main, tail, n_main;
};

__device__ __forceinline__ crc_plan crc_make_plan(const uint8_t *buf, uint64_t n, uint64_t piece)
{
    crc_plan p;
    const uint64_t mis = (uint64_t)(uintptr_t)buf & 15u;
    p.head = mis ? 16 - mis : 0;
    if (p.head > n) p.head = n;
    p.main = (n - p.head) & ~(uint64_t)15;
    p.tail = n - p.head - p.main;
    p.n_main = (p.main + piece - 1) / piece;
    return p;
}

__host__ __device__ uint64_t crc_piece_bytes(uint64_t n_max)
{
    uint64_t L = kMinPiece;
    while (L * kTargetPieces < n_max) L <<= 1;
    return L;
}

/* Blocks for any length <= n_max at any alignment (main <= n_max). */
unsigned crc_blocks(uint64_t n_max)
{
    const uint64_t L = crc_piece_bytes(n_max);
    return (unsigned)(((n_max + L - 1) / L + 2 + kThreads - 1) / kThreads);
}

/* What becomes of the final register: it goes to *crc; with store, also
 * little-endian after the n covered bytes (a stream's trailing checksum);
 * with bad, it is compared with the 4 bytes found there instead, and *bad
 * set on a difference. */
struct crc_out {
    uint32_t *crc;
    uint8_t *store;
    const uint8_t *check;
    uint32_t *bad;
    uint32_t *ticket; /* zero before a launch of more than one block, and left zero */
};

__device__ __forceinline__ void put_crc(uint32_t c, const crc_out &o, uint64_t n)
{
    *o.crc = c;
    if (o.store && n)
        for (int k = 0; k < 4; k++) o.store[n + k] = (uint8_t)(c >> (8 * k));
    if (o.bad) {
        uint32_t want = 0;
        for (int k = 0; k < 4; k++) want |= (uint32_t)o.check[n + k] << (8 * k);
        if (want != c) *o.bad = 1;
    }
}

__device__ __forceinline__ uint32_t block_xor(uint32_t v, uint32_t *s_red)
{
    for (int o = 16; o > 0; o >>= 1) v ^= __shfl_xor_sync(0xFFFFFFFFu, v, o);
    const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (lane == 0) s_red[warp] = v;
    __syncthreads();
    v = 0;
    if (threadIdx.x == 0)
        for (unsigned w = 0; w < blockDim.x / 32; w++) v ^= s_red[w];
    return v; /* valid in thread 0 only */
}

/* The xor of this thread's pieces' terms (p: crc_make_plan's for buf, n
 * and piece; nw blocks working). */
__device__ uint32_t crc_terms(const uint8_t *__restrict__ buf, uint64_t n, const crc_plan &p, uint64_t piece,
                              unsigned nw, const crc_tables &s_t)
{
    const slice_tab &T = s_t.slice;
    const xpow_tab &X = s_t.xpow;

    /* pieces are combined by XOR, so a thread may take several (the piece
     * count follows the real length, the grid the bound) */
    uint32_t term = 0;
    for (uint64_t idx = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; idx < p.n_main + 2;
         idx += (uint64_t)nw * blockDim.x) {
        uint64_t lo = 0, len = 0; /* byte range of this thread's piece */
        bool vec = false;
        if (idx < p.n_main) {
            lo = p.head + idx * piece;
            len = p.main - idx * piece < piece ? p.main - idx * piece : piece;
            vec = true;
        } else if (idx == p.n_main) {
            lo = 0;
            len = p.head;
        } else if (idx == p.n_main + 1) {
            lo = p.head + p.main;
            len = p.tail;
        }
        uint32_t c = 0;
        if (vec) {
            const uint4 *q = reinterpret_cast<const uint4 *>(buf + lo); /* 16-byte aligned by the plan */
            const uint64_t nv = len >> 4;
            uint64_t i = 0;
            for (; i + 4 <= nv; i += 4) { /* four loads in flight before the dependent lookups */
                const uint4 v0 = __ldg(q + i), v1 = __ldg(q + i + 1), v2 = __ldg(q + i + 2), v3 = __ldg(q + i + 3);
                c = step16(c, v0, T);
                c = step16(c, v1, T);
                c = step16(c, v2, T);
                c = step16(c, v3, T);
            }
            for (; i < nv; i++) c = step16(c, __ldg(q + i), T);
        } else {
            for (uint64_t i = 0; i < len; i++) c = T[0][(c ^ buf[lo + i]) & 0xFFu] ^ (c >> 8);
        }
        uint32_t t = 0;
        if (len) t = gf_mul(c, xpow8(n - lo - len, T, X), T);
        if (idx == 0) t ^= gf_mul(0xFFFFFFFFu, xpow8(n, T, X), T); /* the initial register's share */
        term ^= t;
    }
    return term;
}

/* The grid is sized on the host for the bound; the real length (read
 * first) sets the piece size and how many blocks work, and the others
 * leave at once instead of copying the tables and counting themselves on
 * the ticket; one working block finishes alone, a little faster than
 * every block copying and counting at every size (docs/DESIGN.md). The
 * code stays as small as before: a variant that also issued each piece's
 * first loads with the tables' (two copies of the lookup loop) was faster
 * in a chain of CRCs but slower in 64^3 decompression, where the CRC runs
 * once a chunk, first; cold instruction caches are the likely cause. */
__global__ void __launch_bounds__(kThreads) k_crc_pieces(const uint8_t *__restrict__ buf, uint64_t n,
                                                         const uint64_t *__restrict__ d_n,
                                                         uint32_t *__restrict__ partial, crc_out out)
{
    __shared__ __align__(16) crc_tables s_t;
    __shared__ uint32_t s_red[kThreads / 32];
    if (d_n) {
        const uint64_t dn = *d_n;
        n = dn < n ? dn : n; /* n is the bound here; never read past it */
    }
    const uint64_t piece = crc_piece_bytes(n); /* sized for the real length, not the bound */
    const crc_plan p = crc_make_plan(buf, n, piece);
    const uint64_t need = (p.n_main + 2 + kThreads - 1) / kThreads; /* the main pieces, the head and the tail */
    const unsigned nw = need < gridDim.x ? (unsigned)need : gridDim.x; /* working blocks */
    if (blockIdx.x >= nw) return;
    /* Both tables, every load issued before the first store, so that the
     * copy costs one trip to L2 rather than one per round. */
    constexpr unsigned kVec = sizeof(crc_tables) / 16, kPer = (kVec + kThreads - 1) / kThreads;
    const uint4 *src = reinterpret_cast<const uint4 *>(&g_crc_tab);
    uint4 *dst = reinterpret_cast<uint4 *>(&s_t);
    uint4 r[kPer];
#pragma unroll
    for (unsigned u = 0; u < kPer; u++) {
        const unsigned i = threadIdx.x + u * kThreads;
        if (i < kVec) r[u] = __ldg(src + i);
    }
#pragma unroll
    for (unsigned u = 0; u < kPer; u++) {
        const unsigned i = threadIdx.x + u * kThreads;
        if (i < kVec) dst[i] = r[u];
    }
    __syncthreads();
    uint32_t term = crc_terms(buf, n, p, piece, nw, s_t);
    term = block_xor(term, s_red);
    if (nw == 1) {
        if (threadIdx.x == 0) put_crc(~term, out, n);
        return;
    }
    /* the last working block to finish combines the partial terms */
    if (threadIdx.x == 0) partial[blockIdx.x] = term;
    if (!last_block_of(out.ticket, nw)) return;
    uint32_t v = 0;
    for (unsigned i = threadIdx.x; i < nw; i += blockDim.x) v ^= __ldcg(partial + i);
    v = block_xor(v, s_red);
    if (threadIdx.x == 0) {
        put_crc(~v, out, n);
        *out.ticket = 0;
    }
}

} /* namespace */

static cudaError_t crc_launch(const uint8_t *d_buf, uint64_t n_max, const uint64_t *d_n, crc_out out,
                              void *d_scratch, size_t scratch_bytes, cudaStream_t s)
{
    if (!out.crc || (n_max && !d_buf)) return cudaErrorInvalidValue;
    if (n_max >= ((uint64_t)1 << 40)) return cudaErrorInvalidValue; /* xpow8 takes five base-256 digits */
    const unsigned blocks = crc_blocks(n_max);
    if (blocks > 1 && (!d_scratch || scratch_bytes < (size_t)blocks * sizeof(uint32_t) || !out.ticket))
        return cudaErrorInvalidValue;
    k_crc_pieces<<<blocks, kThreads, 0, s>>>(d_buf, n_max, d_n, static_cast<uint32_t *>(d_scratch), out);
    return cudaGetLastError();
}

/* Scratch must suit every length up to n (it is asked once, for the
 * largest), but crc_blocks is not monotonic where the piece size doubles;
 * the count at the smallest piece size is, and bounds it. */
extern "C" size_t gg_crc32_scratch(uint64_t n)
{
    const uint64_t small = ((n + kMinPiece - 1) / kMinPiece + 2 + kThreads - 1) / kThreads;
    const uint64_t cap = (kTargetPieces + 2 + kThreads - 1) / kThreads;
    const uint64_t b = small < cap ? small : cap;
    return b > 1 ? (size_t)b * sizeof(uint32_t) : 0;
}

extern "C" cudaError_t gg_crc32(const uint8_t *d_buf, uint64_t n, uint32_t *d_crc, uint32_t *d_ticket,
                                void *d_scratch, size_t scratch_bytes, cudaStream_t s)
{
    return crc_launch(d_buf, n, nullptr, crc_out{d_crc, nullptr, nullptr, nullptr, d_ticket}, d_scratch,
                      scratch_bytes, s);
}

extern "C" cudaError_t gg_crc32_check(const uint8_t *d_buf, uint64_t n, uint32_t *d_crc, uint32_t *d_bad,
                                      uint32_t *d_ticket, void *d_scratch, size_t scratch_bytes, cudaStream_t s)
{
    if (!d_bad) return cudaErrorInvalidValue;
    return crc_launch(d_buf, n, nullptr, crc_out{d_crc, nullptr, d_buf, d_bad, d_ticket}, d_scratch, scratch_bytes,
                      s);
}

extern "C" cudaError_t gg_crc32_dn(const uint8_t *d_buf, uint64_t n_max, const uint64_t *d_n, uint32_t *d_crc,
                                   uint32_t *d_ticket, void *d_scratch, size_t scratch_bytes, cudaStream_t s)
{
    if (!d_n) return cudaErrorInvalidValue;
    return crc_launch(d_buf, n_max, d_n, crc_out{d_crc, nullptr, nullptr, nullptr, d_ticket}, d_scratch,
                      scratch_bytes, s);
}

extern "C" cudaError_t gg_crc32_dn_store(uint8_t *d_buf, uint64_t n_max, const uint64_t *d_n, uint32_t *d_crc,
                                         uint32_t *d_ticket, void *d_scratch, size_t scratch_bytes, cudaStream_t s)
{
    if (!d_n) return cudaErrorInvalidValue;
    return crc_launch(d_buf, n_max, d_n, crc_out{d_crc, d_buf, nullptr, nullptr, d_ticket}, d_scratch,
                      scratch_bytes, s);
}
