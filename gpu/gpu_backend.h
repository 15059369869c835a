/* The GPU backend as the API layer (common/api.c) sees it. Built only when
 * CMake finds a CUDA toolkit (GLIDE_HAVE_GPU); the streams are the CPU
 * codec's, byte for byte. The environment it reads, once, at its first
 * call (a bad value is said on stderr and the default used):
 *   GLIDE_DEVICE            the device (default: the node-local MPI rank, modulo the count)
 *   GLIDE_GPU_DEBUG=1       say on stderr why the GPU gave a chunk up
 *   GLIDE_GPU_COPY_THREADS  helper threads of the host copies through pinned memory (0-16, default 4)
 *   GLIDE_GPU_COPY_SPIN_US  how long idle helpers spin before they sleep (default 300)
 * The implementation: gpu/gg_context.h lists its files. Test hooks live
 * with the tests (h5tests/gpu/gpu_test_hooks.h), not here. */
#ifndef GLIDE_GPU_BACKEND_H
#define GLIDE_GPU_BACKEND_H
#include "format.h"
#include "codec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if a device was found and the per-process context is ready (set up on
 * the first call: device from GLIDE_DEVICE or the MPI local rank). */
int glide_gpu_usable(void);

/* Both return GLIDE_ERROR(GPU) when the device failed, and the caller redoes
 * the work on the CPU; other errors are the stream's (CORRUPT, ...). The
 * values (src, dst) are in device memory where src_dev / dst_dev is set,
 * else in host memory; the stream is always in host memory. Calls from
 * several threads run at once, each on a context of its own. */
size_t glide_gpu_compress(const glide_params *p, const glide_encode_opts *o, const void *src, int src_dev, void *dst,
                          size_t cap);
size_t glide_gpu_decompress(const glide_header *h, const glide_layout *lay, const void *src, size_t size, void *dst,
                            int dst_dev);

/* Makes up to n contexts (at most GG_MAX_CONTEXTS, 16), so that n threads' calls run at once,
 * each context without the streams that wait for the host; returns how
 * many there are. Call it before the threads start. */
unsigned glide_gpu_reserve(unsigned n);

/* The device the backend uses, or -1 without a usable one. */
int glide_gpu_device(void);
/* Its free memory in bytes (cudaMemGetInfo), 0 without a usable device. */
size_t glide_gpu_free_memory(void);

/* A plain copy between host and device memory (to_device: host to
 * device, else device to host), for the API's host fallbacks of device
 * values: 0, or -1 where it failed. */
int glide_gpu_copy(void *dst, const void *src, size_t bytes, int to_device);

/* Stage times (ms) of the last call on this process, for the benchmarks:
 * CUDA events around each stage (a captured graph is one stage); names[i]
 * is NULL past the last stage. */
#define GG_MAX_STAGES 24
typedef struct {
    const char *names[GG_MAX_STAGES];
    float ms[GG_MAX_STAGES];
} glide_gpu_stages;
void glide_gpu_last_stages(glide_gpu_stages *out);
/* Turns stage timing on or off (off by default: events cost a little). */
void glide_gpu_time_stages(int on);

/* The device in use, for reports ("none" without one). */
const char *glide_gpu_device_name(void);

/* Helper threads of the parallel host copy through pinned memory
 * (GLIDE_GPU_COPY_THREADS; 0: pageable copies), for reports. */
unsigned glide_gpu_copy_threads(void);

#ifdef __cplusplus
}
#endif
#endif
