/* range_probe: how fast a min/max key scan of a 256^3 float field can read,
 * for the shape of gpu/predict.cu's range_k and candidate shapes, beside a
 * plain read and a device-to-device copy of the same bytes.
 *   range_probe [cube edge, default 256]
 * One line per variant: median µs of 21 launches (events around each), and
 * the read bandwidth that gives. Every variant's min/max is checked against
 * the host's. */
#include <algorithm>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include "probe_check.h"

struct acc {
    unsigned long long lo_inv, hi_key;
    unsigned int any_fill, done;
};

__device__ __forceinline__ uint32_t fkey(float v)
{
    const uint32_t b = __float_as_uint(v);
    return b & 0x80000000u ? ~b : b | 0x80000000u;
}

/* the scan's per-value work as range_k does it (fill test, finite test, key) */
struct scan {
    uint32_t mn = ~0u, mx = 0;
    bool saw = false;
    __device__ __forceinline__ void take(float v, int has_fill, uint32_t fill_bits)
    {
        const bool f = has_fill && __float_as_uint(v) == fill_bits;
        saw |= f;
        if (!isfinite(v) || f) return;
        const uint32_t k = fkey(v);
        mn = k < mn ? k : mn;
        mx = k > mx ? k : mx;
    }
    __device__ __forceinline__ void take4(float4 v, int hf, uint32_t fb)
    {
        take(v.x, hf, fb);
        take(v.y, hf, fb);
        take(v.z, hf, fb);
        take(v.w, hf, fb);
    }
    __device__ void finish(acc *a)
    {
        __shared__ uint32_t smn[32], smx[32];
        for (int o = 16; o > 0; o >>= 1) {
            const uint32_t p = __shfl_down_sync(0xFFFFFFFFu, mn, o), q = __shfl_down_sync(0xFFFFFFFFu, mx, o);
            mn = p < mn ? p : mn;
            mx = q > mx ? q : mx;
        }
        if ((threadIdx.x & 31) == 0) {
            smn[threadIdx.x >> 5] = mn;
            smx[threadIdx.x >> 5] = mx;
        }
        const int bf = __syncthreads_or(saw);
        if (threadIdx.x == 0) {
            if (bf) atomicOr(&a->any_fill, 1u);
            for (unsigned w = 1; w < blockDim.x / 32; w++) {
                mn = smn[w] < mn ? smn[w] : mn;
                mx = smx[w] > mx ? smx[w] : mx;
            }
            if (mn != ~0u) {
                atomicMax(&a->lo_inv, ~(unsigned long long)mn);
                atomicMax(&a->hi_key, (unsigned long long)mx);
            }
        }
    }
};

/* a 16-byte load that asks L2 to fetch the whole 256-byte sector group
 * from DRAM (Hopper's prefetch-size hint), read-only and not kept in L1 */
__device__ __forceinline__ float4 ld_256(const float4 *p)
{
    float4 v;
#if __CUDA_ARCH__ >= 800
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
#else
    v = __ldg(p);
#endif
    return v;
}

/* 0: range_k's loop (grid-stride, unroll 4); 1: the same with streaming
 * (evict-first) loads; 2: each block a contiguous span, four loads a thread
 * issued together; 3: range_k's loop with ld_256; 4: contiguous spans,
 * eight ld_256 a thread issued together */
template <int MODE>
__global__ void __launch_bounds__(256) k_scan(const float *x, uint64_t count, int hf, uint32_t fb, acc *a)
{
    scan s;
    const uint64_t nv = count / 4;
    const float4 *v4 = reinterpret_cast<const float4 *>(x);
    if (MODE == 4) {
        const uint64_t per = (nv + gridDim.x - 1) / gridDim.x, lo = blockIdx.x * per,
                       hi = lo + per < nv ? lo + per : nv;
        uint64_t i = lo + threadIdx.x;
        for (; i + 7 * blockDim.x < hi; i += 8 * blockDim.x) {
            float4 a[8];
#pragma unroll
            for (int k = 0; k < 8; k++) a[k] = ld_256(v4 + i + k * blockDim.x);
#pragma unroll
            for (int k = 0; k < 8; k++) s.take4(a[k], hf, fb);
        }
        for (; i < hi; i += blockDim.x) s.take4(ld_256(v4 + i), hf, fb);
    } else if (MODE == 2) {
        const uint64_t per = (nv + gridDim.x - 1) / gridDim.x, lo = blockIdx.x * per,
                       hi = lo + per < nv ? lo + per : nv;
        uint64_t i = lo + threadIdx.x;
        for (; i + 3 * blockDim.x < hi; i += 4 * blockDim.x) {
            const float4 a0 = __ldcs(v4 + i), a1 = __ldcs(v4 + i + blockDim.x), a2 = __ldcs(v4 + i + 2 * blockDim.x),
                         a3 = __ldcs(v4 + i + 3 * blockDim.x);
            s.take4(a0, hf, fb);
            s.take4(a1, hf, fb);
            s.take4(a2, hf, fb);
            s.take4(a3, hf, fb);
        }
        for (; i < hi; i += blockDim.x) s.take4(__ldcs(v4 + i), hf, fb);
    } else {
        const uint64_t stride = (uint64_t)gridDim.x * blockDim.x, tid = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
#pragma unroll 4
        for (uint64_t i = tid; i < nv; i += stride)
            s.take4(MODE == 1 ? __ldcs(v4 + i) : MODE == 3 ? ld_256(v4 + i) : __ldg(v4 + i), hf, fb);
    }
    for (uint64_t i = nv * 4 + blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; i < count;
         i += (uint64_t)gridDim.x * blockDim.x)
        s.take(x[i], hf, fb);
    s.finish(a);
}

/* a plain read: xor of the words, one atomic a block */
__global__ void __launch_bounds__(256) k_read(const float *x, uint64_t count, unsigned *out)
{
    const uint64_t nv = count / 4, stride = (uint64_t)gridDim.x * blockDim.x,
                   tid = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
    const uint4 *v4 = reinterpret_cast<const uint4 *>(x);
    unsigned r = 0;
#pragma unroll 4
    for (uint64_t i = tid; i < nv; i += stride) {
        const uint4 v = __ldcs(v4 + i);
        r ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    for (int o = 16; o > 0; o >>= 1) r ^= __shfl_xor_sync(0xFFFFFFFFu, r, o);
    if ((threadIdx.x & 31) == 0) atomicXor(out, r);
}

int main(int argc, char **argv)
{
    const uint64_t e = argc > 1 ? strtoull(argv[1], 0, 10) : 256, n = e * e * e, bytes = n * 4;
    std::vector<float> h(n);
    uint64_t s = 88172645463325252ull;
    for (auto &v : h) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v = (float)((double)(s >> 11) * 0x1p-53 * 200.0 - 100.0);
    }
    uint32_t wmn = ~0u, wmx = 0;
    for (float v : h) {
        uint32_t b;
        memcpy(&b, &v, 4);
        const uint32_t k = b & 0x80000000u ? ~b : b | 0x80000000u;
        wmn = std::min(wmn, k);
        wmx = std::max(wmx, k);
    }
    float *d, *d2;
    acc *a;
    unsigned *o;
    CK(cudaMalloc(&d, bytes));
    CK(cudaMalloc(&d2, bytes));
    CK(cudaMalloc(&a, sizeof(acc)));
    CK(cudaMalloc(&o, 4));
    CK(cudaMemcpy(d, h.data(), bytes, cudaMemcpyHostToDevice));
    cudaDeviceProp pr;
    CK(cudaGetDeviceProperties(&pr, 0));
    const unsigned sms = (unsigned)pr.multiProcessorCount;
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    printf("range_probe on %s (%u SMs): %llu^3 float32 (%.1f MB), median of 21 launches\n", pr.name, sms,
           (unsigned long long)e, bytes / 1e6);
    printf("| variant | grid | us | GB/s read | min/max ok |\n|---|---|---|---|---|\n");
    const unsigned nb0 = (unsigned)std::min<uint64_t>(1024, (n + 8 * 256 - 1) / (8 * 256));
    struct v {
        const char *name;
        int kind;
        unsigned grid;
    } vs[] = {
        {"range_k's loop (__ldg, unroll 4)", 0, nb0},
        {"range_k's loop, grid SMs x 8", 0, sms * 8},
        {"range_k's loop, grid SMs x 4", 0, sms * 4},
        {"range_k's loop, grid 2048", 0, 2048},
        {"streaming loads (__ldcs)", 1, nb0},
        {"streaming loads, grid SMs x 8", 1, sms * 8},
        {"contiguous span a block, 4 loads", 2, sms * 8},
        {"contiguous span a block, 4 loads, grid SMs x 16", 2, sms * 16},
        {"range_k's loop, L2::256B loads", 5, nb0},
        {"range_k's loop, L2::256B loads, grid SMs x 8", 5, sms * 8},
        {"contiguous span, 8 L2::256B loads", 6, sms * 8},
        {"contiguous span, 8 L2::256B loads, grid SMs x 4", 6, sms * 4},
        {"contiguous span, 8 L2::256B loads, grid SMs x 16", 6, sms * 16},
        {"plain read (xor), no scan", 3, nb0},
        {"plain read, grid SMs x 8", 3, sms * 8},
        {"cudaMemcpy D2D (read + write)", 4, 0},
    };
    int bad = 0;
    for (const v &x : vs) {
        float t[21];
        for (int r = 0; r < 21; r++) {
            CK(cudaMemset(a, 0, sizeof(acc)));
            CK(cudaEventRecord(e0));
            switch (x.kind) {
            case 0: k_scan<0><<<x.grid, 256>>>(d, n, 0, 0, a); break;
            case 1: k_scan<1><<<x.grid, 256>>>(d, n, 0, 0, a); break;
            case 2: k_scan<2><<<x.grid, 256>>>(d, n, 0, 0, a); break;
            case 3: k_read<<<x.grid, 256>>>(d, n, o); break;
            case 5: k_scan<3><<<x.grid, 256>>>(d, n, 0, 0, a); break;
            case 6: k_scan<4><<<x.grid, 256>>>(d, n, 0, 0, a); break;
            case 4: CK(cudaMemcpyAsync(d2, d, bytes, cudaMemcpyDeviceToDevice)); break;
            }
            CK(cudaEventRecord(e1));
            CK(cudaEventSynchronize(e1));
            CK(cudaGetLastError());
            CK(cudaEventElapsedTime(&t[r], e0, e1));
        }
        std::sort(t, t + 21);
        const char *ok = "-";
        if (x.kind <= 2 || x.kind >= 5) {
            acc ha;
            CK(cudaMemcpy(&ha, a, sizeof ha, cudaMemcpyDeviceToHost));
            const int good = (uint32_t)~ha.lo_inv == wmn && ha.hi_key == wmx;
            bad += !good;
            ok = good ? "yes" : "NO";
        }
        const double us = t[10] * 1e3;
        printf("| %s | %u | %.1f | %.0f | %s |\n", x.name, x.grid, us, (x.kind == 4 ? 2.0 : 1.0) * bytes / us / 1e3,
               ok);
    }
    printf("range_probe: %d wrong\n", bad);
    return bad != 0;
}
