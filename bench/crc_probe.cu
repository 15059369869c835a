/* crc_probe: the CRC kernel's latency in a chain of its own launches, for
 * gpu/crc32.cu's kernel and candidate variants, with every result checked
 * against zlib's CRC on the host.
 *   crc_probe            one line per case x variant: per-launch µs in a
 *                        captured chain of 20 launches (median of 31 replays)
 * Cases: a 64^3 chunk's stream (35 KB) under the compression bound (1 MiB)
 * and as decompression knows it, a 256^3 stream (2.35 MB) under its bound
 * (67 MB), and a RAW 256^3 stream (67 MB). The variant kernels include
 * crc32.cu itself so that they share its tables and helpers. A chain of
 * launches keeps the kernel's code in the instruction caches; a chunk's
 * pipeline runs it once: a variant with twice the code (W) measured faster
 * here and 4 us slower in 64^3 decompression (bench/gpu-runs/s1127g runs 6
 * and 7b; cold instruction caches are the likely cause, not measured). */
#include "../gpu/crc32.cu"
#include <algorithm>
#include <stdio.h>
#include <stdlib.h>
#include <vector>
#include <zlib.h>
#include "probe_check.h"

namespace {

/* a piece rule: at least MINP bytes, at most TGT pieces */
template <unsigned MINP, uint64_t TGT> __host__ __device__ uint64_t piece_of(uint64_t n)
{
    uint64_t L = MINP;
    while (L * TGT < n) L <<= 1;
    return L;
}
constexpr uint64_t kPrevTarget = 1u << 17; /* the previous kernel's rule: 64 bytes, 2^17 pieces */
constexpr unsigned kFirstVecs = 4; /* W: a piece's first vectors, loaded with the tables */

/* W's piece, as 6f4cb34's crc32.cu had it */
/* The raw CRC of one piece, its factor applied, and the initial
 * register's share with piece 0. FIRST: the piece's first nv0 vectors are
 * in v already. */
template <bool FIRST>
__device__ __forceinline__ uint32_t crc_term(const uint8_t *__restrict__ buf, uint64_t n, const crc_plan &p,
                                             uint64_t piece, uint64_t idx, const uint4 (&v)[kFirstVecs], unsigned nv0,
                                             const crc_tables &s_t)
{
    const slice_tab &T = s_t.slice;
    const xpow_tab &X = s_t.xpow;
    uint64_t lo = 0, len = 0; /* byte range of the piece */
    bool vec = false;
    if (idx < p.n_main) {
        lo = p.head + idx * piece;
        len = p.main - idx * piece < piece ? p.main - idx * piece : piece;
        vec = true;
    } else if (idx == p.n_main) {
        len = p.head;
    } else {
        lo = p.head + p.main;
        len = p.tail;
    }
    uint32_t c = 0;
    if (vec) {
        const uint4 *q = reinterpret_cast<const uint4 *>(buf + lo); /* 16-byte aligned by the plan */
        const uint64_t nv = len >> 4;
        uint64_t i = 0;
        if (FIRST) {
#pragma unroll
            for (unsigned k = 0; k < kFirstVecs; k++)
                if (k < nv0) c = step16(c, v[k], T);
            i = nv0;
        }
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
    return t;
}


/* the variants' common end: the block's xor, then alone (one working
 * block) or through the ticket over the nw working blocks */
template <unsigned NT>
__device__ __forceinline__ void finish(uint32_t term, unsigned nw, uint32_t *s_red, uint32_t *partial,
                                       const crc_out &out, uint64_t n)
{
    term = block_xor(term, s_red);
    if (nw == 1) {
        if (threadIdx.x == 0) put_crc(~term, out, n);
        return;
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = term;
    if (!last_block_of(out.ticket, nw)) return;
    uint32_t v = 0;
    for (unsigned i = threadIdx.x; i < nw; i += NT) v ^= __ldcg(partial + i);
    v = block_xor(v, s_red);
    if (threadIdx.x == 0) {
        put_crc(~v, out, n);
        *out.ticket = 0;
    }
}

/* The previous kernel (83935a5): every block of the bound's grid copies
 * the tables, works if its pieces exist, and counts itself on the ticket. */
__global__ void __launch_bounds__(kThreads) k_crc_prev(const uint8_t *__restrict__ buf, uint64_t n,
                                                       const uint64_t *__restrict__ d_n, uint32_t *__restrict__ partial,
                                                       crc_out out)
{
    __shared__ __align__(16) crc_tables s_t;
    __shared__ uint32_t s_red[kThreads / 32];
    if (d_n) {
        const uint64_t dn = *d_n;
        n = dn < n ? dn : n;
    }
    const uint64_t piece = piece_of<64, kPrevTarget>(n);
    uint32_t term = 0;
    if ((uint64_t)blockIdx.x * blockDim.x <= n / piece + 2) {
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
        term = crc_terms(buf, n, crc_make_plan(buf, n, piece), piece, gridDim.x, s_t);
    }
    finish<kThreads>(term, gridDim.x, s_red, partial, out, n); /* every block on the ticket */
}

unsigned blocks_prev(uint64_t n_max)
{
    const uint64_t L = piece_of<64, kPrevTarget>(n_max);
    return (unsigned)(((n_max + L - 1) / L + 2 + kThreads - 1) / kThreads);
}

/* Variant: as crc32.cu's kernel, but the tables read in place through L1
 * instead of copied to shared memory. */
template <unsigned NT>
__global__ void __launch_bounds__(NT) k_crc_l1(const uint8_t *__restrict__ buf, uint64_t n,
                                               const uint64_t *__restrict__ d_n, uint32_t *__restrict__ partial,
                                               crc_out out)
{
    __shared__ uint32_t s_red[NT / 32];
    if (d_n) {
        const uint64_t dn = *d_n;
        n = dn < n ? dn : n;
    }
    const uint64_t piece = piece_of<64, kPrevTarget>(n);
    const uint64_t need = ((n + piece - 1) / piece + 2 + NT - 1) / NT;
    const unsigned nw = need < gridDim.x ? (unsigned)need : gridDim.x;
    if (blockIdx.x >= nw) return;
    finish<NT>(crc_terms(buf, n, crc_make_plan(buf, n, piece), piece, nw, g_crc_tab), nw, s_red, partial, out, n);
}

template <unsigned NT> unsigned blocks_v(uint64_t n_max)
{
    const uint64_t L = piece_of<64, kPrevTarget>(n_max);
    return (unsigned)(((n_max + L - 1) / L + 2 + NT - 1) / NT);
}

/* Variant W: d_n first, idle blocks leave before any table load; a
 * working thread issues its piece's loads (up to four vectors) and the
 * table's together, stores the table, then computes; one working block
 * finishes alone, without the ticket. */

template <unsigned NT, unsigned MINP = 64, uint64_t TGT = kPrevTarget>
__global__ void __launch_bounds__(NT) k_crc_w(const uint8_t *__restrict__ buf, uint64_t n,
                                              const uint64_t *__restrict__ d_n, uint32_t *__restrict__ partial,
                                              crc_out out)
{
    __shared__ __align__(16) crc_tables s_t;
    __shared__ uint32_t s_red[NT / 32];
    if (d_n) {
        const uint64_t dn = *d_n;
        n = dn < n ? dn : n;
    }
    const uint64_t piece = piece_of<MINP, TGT>(n);
    const crc_plan p = crc_make_plan(buf, n, piece);
    const uint64_t pieces = p.n_main + 2;
    const uint64_t need = (pieces + NT - 1) / NT;
    const unsigned nw = need < gridDim.x ? (unsigned)need : gridDim.x;
    if (blockIdx.x >= nw) return;
    constexpr unsigned kVec = sizeof(crc_tables) / 16, kPer = (kVec + NT - 1) / NT;
    const uint4 *src = reinterpret_cast<const uint4 *>(&g_crc_tab);
    uint4 r[kPer];
#pragma unroll
    for (unsigned u = 0; u < kPer; u++) {
        const unsigned i = threadIdx.x + u * NT;
        if (i < kVec) r[u] = __ldg(src + i);
    }
    /* this thread's first piece, loaded before the table is stored */
    uint64_t idx = (uint64_t)blockIdx.x * NT + threadIdx.x;
    uint4 v[kFirstVecs];
    unsigned nv0 = 0;
    if (idx < p.n_main) {
        const uint64_t left = p.main - idx * piece, len = left < piece ? left : piece;
        nv0 = len >> 4 < kFirstVecs ? (unsigned)(len >> 4) : kFirstVecs;
        const uint4 *q = reinterpret_cast<const uint4 *>(buf + p.head + idx * piece);
#pragma unroll
        for (unsigned k = 0; k < kFirstVecs; k++) v[k] = k < nv0 ? __ldg(q + k) : make_uint4(0, 0, 0, 0);
    }
    uint4 *dst = reinterpret_cast<uint4 *>(&s_t);
#pragma unroll
    for (unsigned u = 0; u < kPer; u++) {
        const unsigned i = threadIdx.x + u * NT;
        if (i < kVec) dst[i] = r[u];
    }
    __syncthreads();
    uint32_t term = 0;
    if (idx < pieces) term = crc_term<true>(buf, n, p, piece, idx, v, nv0, s_t);
    for (idx += (uint64_t)nw * NT; idx < pieces; idx += (uint64_t)nw * NT)
        term ^= crc_term<false>(buf, n, p, piece, idx, v, 0, s_t);
    finish<NT>(term, nw, s_red, partial, out, n);
}

template <unsigned NT, unsigned MINP = 64, uint64_t TGT = kPrevTarget> unsigned blocks_w(uint64_t n_max, unsigned cap)
{
    const uint64_t L = piece_of<MINP, TGT>(n_max);
    const unsigned b = (unsigned)(((n_max + L - 1) / L + 2 + NT - 1) / NT);
    return cap && b > cap ? cap : b;
}

} /* namespace */

struct variant {
    const char *name;
    int id;
};

static const variant kVariants[] = {
    {"crc32.cu now (idle blocks leave first, one working block without the ticket)", 0},
    {"previous crc32.cu (tables copied by every block, every block on the ticket)", 1},
    {"tables read in place through L1, idle blocks leave", 3},
    {"W: one block of 1024 where it can (64 B)", 4},
    {"W: 128 threads, pieces from 64 B, at most 2^17", 5},
    {"W: 128 threads, pieces from 32 B, at most 2^16 (6f4cb34's kernel)", 6},
    {"W: 256 threads, pieces from 16 B", 7},
};
static unsigned g_sms;

/* each variant's grid sized for the bound, as crc32.cu sizes its own */
static void launch(int id, const uint8_t *d, uint64_t n_max, const uint64_t *d_n, uint32_t *d_crc, uint32_t *tk,
                   uint32_t *scr, cudaStream_t s)
{
    const crc_out o{d_crc, nullptr, nullptr, nullptr, tk};
    switch (id) {
    case 0: k_crc_pieces<<<crc_blocks(n_max), kThreads, 0, s>>>(d, n_max, d_n, scr, o); break;
    case 1: k_crc_prev<<<blocks_prev(n_max), kThreads, 0, s>>>(d, n_max, d_n, scr, o); break;
    case 3: k_crc_l1<128><<<blocks_v<128>(n_max), 128, 0, s>>>(d, n_max, d_n, scr, o); break;
    case 4: k_crc_w<1024><<<blocks_w<1024>(n_max, g_sms), 1024, 0, s>>>(d, n_max, d_n, scr, o); break;
    case 5: k_crc_w<128><<<blocks_w<128>(n_max, 0), 128, 0, s>>>(d, n_max, d_n, scr, o); break;
    case 6: k_crc_w<128, 32, 1u << 16><<<blocks_w<128, 32, 1u << 16>(n_max, 0), 128, 0, s>>>(d, n_max, d_n, scr, o); break;
    case 7: k_crc_w<256, 16><<<blocks_w<256, 16>(n_max, 0), 256, 0, s>>>(d, n_max, d_n, scr, o); break;
    }
}

int main(void)
{
    struct cs {
        const char *what;
        uint64_t n, n_max, off;
    } cases[] = {
        {"64^3 compress: 35 KB under 1 MiB", 35011, 1u << 20, 0},
        {"64^3 decompress: 35 KB", 35011, 35011, 0},
        {"256^3 compress: 2.35 MB under 67 MB", 2345899, 67108864 + 4096, 0},
        {"256^3 RAW: 67 MB", 67108864 + 100, 67108864 + 100, 0},
        {"odd offset: 100 KB at +3", 100003, 100003, 3},
    };
    const uint64_t big = 67108864 + 8192;
    std::vector<uint8_t> h(big);
    uint64_t x = 88172645463325252ull;
    for (auto &b : h) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        b = (uint8_t)x;
    }
    uint8_t *d;
    uint64_t *d_n;
    uint32_t *d_crc, *tk, *scr;
    CK(cudaMalloc(&d, big));
    CK(cudaMemcpy(d, h.data(), big, cudaMemcpyHostToDevice));
    CK(cudaMalloc(&d_n, 8));
    CK(cudaMalloc(&d_crc, 4));
    CK(cudaMalloc(&tk, 4));
    CK(cudaMemset(tk, 0, 4));
    CK(cudaMalloc(&scr, 1 << 22));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    cudaDeviceProp pr;
    CK(cudaGetDeviceProperties(&pr, 0));
    g_sms = (unsigned)pr.multiProcessorCount;
    printf("crc_probe on %s: per-launch us in a captured chain of 20 (median of 31 replays)\n", pr.name);
    printf("| case | variant | us | crc ok |\n|---|---|---|---|\n");
    int bad = 0;
    for (const cs &c : cases) {
        const uint32_t want = (uint32_t)crc32(crc32(0L, Z_NULL, 0), h.data() + c.off, (uInt)c.n);
        CK(cudaMemcpy(d_n, &c.n, 8, cudaMemcpyHostToDevice));
        for (const variant &v : kVariants) {
            CK(cudaMemset(d_crc, 0, 4));
            launch(v.id, d + c.off, c.n_max, d_n, d_crc, tk, scr, s);
            CK(cudaStreamSynchronize(s));
            CK(cudaGetLastError());
            uint32_t got;
            CK(cudaMemcpy(&got, d_crc, 4, cudaMemcpyDeviceToHost));
            const int ok = got == want;
            bad += !ok;
            cudaGraph_t g;
            cudaGraphExec_t ge;
            const int K = 20, R = 31;
            CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
            for (int k = 0; k < K; k++) launch(v.id, d + c.off, c.n_max, d_n, d_crc, tk, scr, s);
            CK(cudaStreamEndCapture(s, &g));
            CK(cudaGraphInstantiateWithFlags(&ge, g, 0));
            CK(cudaGraphLaunch(ge, s));
            CK(cudaStreamSynchronize(s));
            float t[R];
            for (int r = 0; r < R; r++) {
                CK(cudaEventRecord(e0, s));
                CK(cudaGraphLaunch(ge, s));
                CK(cudaEventRecord(e1, s));
                CK(cudaEventSynchronize(e1));
                CK(cudaEventElapsedTime(&t[r], e0, e1));
            }
            std::sort(t, t + R);
            CK(cudaMemcpy(&got, d_crc, 4, cudaMemcpyDeviceToHost));
            const int ok2 = got == want;
            bad += !ok2;
            printf("| %s | %s | %.2f | %s |\n", c.what, v.name, t[R / 2] * 1e3 / K, ok && ok2 ? "yes" : "NO");
            CK(cudaGraphExecDestroy(ge));
            CK(cudaGraphDestroy(g));
        }
    }
    printf("crc_probe: %d wrong\n", bad);
    return bad != 0;
}
