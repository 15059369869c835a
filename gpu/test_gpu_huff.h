/* Shared by the device entropy-stage tests (test_gpu_huff.cu: CRC, book
 * selection, Huffman; test_gpu_huff_planes.cu: format 5's planes;
 * test_gpu_runs.cu, test_gpu_runs_decode.cu: format 8's run-coded planes):
 * the check counters, the CUDA call check, one stream of deterministic
 * random numbers, device buffers, symbol sources, the device dictionary
 * and timing. */
#ifndef GLIDE_TEST_GPU_HUFF_H
#define GLIDE_TEST_GPU_HUFF_H
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <algorithm>
#include <vector>
/* the CPU library is C: its headers have no extern "C" of their own */
extern "C" {
#include "format.h"
#include "huff_codec.h"
#include "huff_build.h"
#include "huff_runs.h"
#include "book_select.h"
#include "dict.h"
}
#include "gg_huff.h"
#include "gg_planes.h"
#include "gg_assemble.h"

/* options (main) and counters; every check goes through check() */
extern int g_checks, g_fails;
extern bool g_quick, g_timing, g_checks_on, g_profile;
void check(bool ok, const char *fmt, ...);

#define CK(call)                                                                                 \
    do {                                                                                         \
        cudaError_t e_ = (call);                                                                 \
        if (e_ != cudaSuccess) {                                                                 \
            printf("FAIL CUDA error %s at %s:%d: %s\n", cudaGetErrorString(e_), __FILE__, __LINE__, #call); \
            printf("test_gpu_huff: %d checks, %d failures (aborted)\n", g_checks + 1, g_fails + 1); \
            exit(1);                                                                             \
        }                                                                                        \
    } while (0)

/* ---- deterministic random numbers: one stream for the whole run ---- */
extern uint64_t g_rng;
inline uint64_t rnd(void)
{
    uint64_t z = (g_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
inline double urand(void) { return (double)(rnd() >> 11) * (1.0 / 9007199254740992.0); }
inline uint64_t rbelow(uint64_t m) { return m ? rnd() % m : 0; }

/* ---- device buffers ---- */
template <typename T> inline T *dalloc(size_t count)
{
    void *p = nullptr;
    CK(cudaMalloc(&p, count ? count * sizeof(T) : 1));
    return static_cast<T *>(p);
}
inline void *dscratch(size_t bytes) { return dalloc<char>(bytes ? bytes : 1); }
/* a zeroed counter, as the CRC and book-selection kernels take */
inline uint32_t *dticket(void)
{
    uint32_t *t = dalloc<uint32_t>(1);
    CK(cudaMemset(t, 0, 4));
    return t;
}
inline uint32_t dread32(const uint32_t *d)
{
    uint32_t v;
    CK(cudaMemcpy(&v, d, 4, cudaMemcpyDeviceToHost));
    return v;
}

/* ---- symbol sources ---- */
enum { DIST_LAPLACE, DIST_WIDE, DIST_UNIFORM, DIST_SINGLE, DIST_TWO, DIST_EDGES, DIST_COUNT };
std::vector<uint16_t> make_symbols(int dist, uint64_t n);
void histogram(const std::vector<uint16_t> &s, uint64_t *h);

/* ---- the dictionary on the device ---- */
struct dev_dict {
    uint8_t *len;
    float *log2q;
    gg_dict g;
};
/* `off` misaligns the length table on purpose (the dense SIZE path reads
 * it in aligned words). */
dev_dict upload_dict(const glide_dictionary *d, unsigned off = 0);
/* gg_book_select's work area, zeroed once as the codec's */
gg_select_work *sel_work(void);

/* ---- timing (-t / -T) ---- */
/* Keeps every SM busy for a while so that the clocks ramp up before timing. */
void warm_gpu(void);
/* Median over 7 batches of the mean time per call (microseconds), after a
 * warm-up batch; calls go back to back on the default stream. */
template <typename F> double time_us(F f, int reps)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int r = 0; r < reps; r++) f();
    std::vector<double> v;
    for (int k = 0; k < 7; k++) {
        CK(cudaEventRecord(a));
        for (int r = 0; r < reps; r++) f();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        v.push_back(1e3 * ms / reps);
    }
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    std::sort(v.begin(), v.end());
    return v[3];
}

/* ---- format 5's planes (test_gpu_huff_planes.cu) ---- */
void test_planes(const glide_dictionary *d, int n_scores);
void test_planes_order(void);
void test_planes_in_place(const glide_dictionary *d);

/* ---- format 8's run-coded planes (test_gpu_runs.cu: encoding;
 * test_gpu_runs_decode.cu: decoding) ---- */
void test_runs_split(const glide_dictionary *d);
void test_runs_in_place(const glide_dictionary *d);
void test_runs_decode(const glide_dictionary *d);
#endif
