/* The GPU backend as the API layer (common/api.c) sees it. Built only when
 * CMake finds a CUDA toolkit (GLIDE_HAVE_GPU); the streams are the CPU
 * codec's, byte for byte. */
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
 * the work on the CPU; other errors are the stream's (CORRUPT, ...). */
size_t glide_gpu_compress(const glide_params *p, const glide_encode_opts *o, const void *src, void *dst, size_t cap);
size_t glide_gpu_decompress(const glide_header *h, const glide_layout *lay, const void *src, size_t size, void *dst);

/* Stage times (ms) of the last call on this process, for the benchmarks:
 * CUDA events around each stage; names[i] is NULL past the last stage. */
#define GG_MAX_STAGES 24
typedef struct {
    const char *names[GG_MAX_STAGES];
    float ms[GG_MAX_STAGES];
} glide_gpu_stages;
void glide_gpu_last_stages(glide_gpu_stages *out);
/* Turns stage timing on or off (off by default: events cost a little). */
void glide_gpu_time_stages(int on);

/* Test hook: the next n GPU calls fail as a device out of memory would, so
 * tests can show the CPU takes over and nothing is lost. */
void glide_gpu_inject_failures(int n);
/* Test hook: the next n compressions fail once their upload is queued (a
 * gated upload's waits included): the CPU takes over, the device is not
 * left waiting, and the next call runs on the GPU. */
void glide_gpu_inject_late_failures(int n);
/* Test hook: on, the driver's stream memory operations (waits) are
 * refused, as an old driver might (the gated upload then turns itself off
 * and the chunk is uploaded pageable, on the GPU; the host's plan, whose
 * gate is a kernel, is not affected); off restores them. */
void glide_gpu_refuse_stream_waits(int on);
/* Test hook: the next n compressions whose host plan has its tail queued
 * behind the plan's gate fail before the plan is made: the gate opens
 * on an empty plan, nothing is left waiting, the CPU takes over. */
void glide_gpu_inject_plan_failures(int n);
/* Test hooks: the host plan's tail queued before the plan, behind a
 * kernel polling a mapped word (on by default; GLIDE_GPU_PLAN_GATE=0 turns
 * the default off), or after it; and whether the last compressed chunk's
 * host plan went that way. */
void glide_gpu_plan_gate(int on);
int glide_gpu_last_plan_gated(void);

/* Who planned the last compressed chunk's entropy stage (tests and
 * benchmarks): the device alone (a dictionary book); the device, which
 * found the chunk incompressible (RAW); the host, handed the histogram
 * because a custom book may win; the host (forced, or a trial
 * dictionary, or the previous stream had a custom book); or the host after
 * the two disagreed (possible only for a tie within rounding in
 * GLIDE_BOOK_AUTO's entropy test). */
enum {
    GLIDE_GPU_PLAN_DEVICE,
    GLIDE_GPU_PLAN_RAW,
    GLIDE_GPU_PLAN_HOST_BOOK,
    GLIDE_GPU_PLAN_HOST,
    GLIDE_GPU_PLAN_DISAGREED,
    GLIDE_GPU_PLAN_KINDS
};
int glide_gpu_last_plan(void);
/* Test hook: who plans the entropy stage of the next chunks. AUTO (the
 * default): the device, unless the previous stream had a custom book;
 * HOST: always the host (the fallback path); DEVICE: always the device. */
enum { GLIDE_GPU_PLANNER_AUTO, GLIDE_GPU_PLANNER_HOST, GLIDE_GPU_PLANNER_DEVICE };
void glide_gpu_planner(int mode);

/* Test hook: replay captured CUDA graphs for the launch sequences before
 * and after the entropy plan (on by default; GLIDE_GPU_GRAPHS=0 turns the
 * default off). Off: the same kernels, launched one by one. */
void glide_gpu_use_graphs(int on);

/* Test hooks: plane 0's histogram (format 5, planes read in place) of
 * the chunks compressed after glide_gpu_keep_hist0(1), as the device made
 * it for the book choice: glide_gpu_last_hist0 copies GLIDE_NSYM counts to
 * out and says who counted them (1 the interpolation kernel, 2 Lorenzo's
 * or the slices', 0 the pass after them), or -1 where the last chunk had
 * none kept.
 * glide_gpu_hist0_in_kernel(0): always the pass (default 1). */
void glide_gpu_keep_hist0(int on);
int glide_gpu_last_hist0(uint64_t *out);
void glide_gpu_hist0_in_kernel(int on);

/* The device in use, for reports ("none" without one). */
const char *glide_gpu_device_name(void);

/* Helper threads of the parallel host copy through pinned memory
 * (GLIDE_GPU_COPY_THREADS; 0: pageable copies), for reports. */
unsigned glide_gpu_copy_threads(void);

#ifdef __cplusplus
}
#endif
#endif
