/* The GPU backend's test hooks: compiled into the tests and the GPU
 * benchmark only, never into the shipped library. They reach the backend's
 * context (gpu/gg_context.h) and set up the device first where it is not
 * (glide_gpu_usable). */
#ifndef GLIDE_GPU_TEST_HOOKS_H
#define GLIDE_GPU_TEST_HOOKS_H
#include "gg_context.h" /* GG_PLANNED_*, GG_PLANNER_* */

/* The next n GPU calls fail as a device out of memory would, so tests can
 * show the CPU takes over and nothing is lost. */
void gg_test_inject_failures(int n);
/* The next n compressions fail once their upload is queued (a gated
 * upload's waits included): the CPU takes over, the device is not left
 * waiting, and the next call runs on the GPU. */
void gg_test_inject_late_failures(int n);
/* The next n decompressions whose values a kernel writes out (downloads
 * up to 1 MiB into pageable memory) raise no piece's word: the copy sees
 * the kernel done without them and fails, the CPU takes over. */
void gg_test_lose_out_words(int n);
/* The next n compressions whose host plan has its tail queued behind the
 * plan's gate fail before the plan is made: the gate opens on an empty
 * plan, nothing is left waiting, the CPU takes over. */
void gg_test_inject_plan_failures(int n);
/* On, the driver's stream memory operations (waits) are refused, as an old
 * driver might: the gated upload then turns itself off and the chunk is
 * uploaded pageable (the host plan's gate, a kernel, is not affected); off
 * restores them. */
void gg_test_refuse_stream_waits(int on);
/* Off: every host plan's tail is queued after the plan, as the process's
 * first is (on by default: behind the plan's gate where it can be). */
void gg_test_plan_gate(int on);
/* Whether the last compressed chunk's host plan went behind the gate;
 * whether the tail there, queued for the planes the stream before
 * run-coded (format 8; chunks over GG_PLAN_RUNS_POINTS, or every chunk
 * after gg_test_guess_run_planes(1)), ran empty because the plan run-coded
 * others, and the right tail followed the plan. Off (the default): chunks
 * up to GG_PLAN_RUNS_POINTS queue the encoder that takes the plan's
 * planes on the device. */
void gg_test_guess_run_planes(int on);
int gg_test_last_plan_gated(void);
int gg_test_last_tail_requeued(void);
/* Who plans the next chunks' entropy stage (GG_PLANNER_*), and who planned
 * the last compressed chunk's (GG_PLANNED_*). */
void gg_test_planner(int mode);
int gg_test_last_plan(void);
/* Off: the encoder's launch sequences go kernel by kernel instead of as
 * captured graphs (same bytes; under stage timing, a stage per step). */
void gg_test_use_graphs(int on);
/* Plane 0's histogram (format 5, planes read in place) of the chunks
 * compressed after gg_test_keep_hist0(1), as the device made it for the
 * book choice: gg_test_last_hist0 copies GLIDE_NSYM counts to out and says
 * who counted them (1 the interpolation kernel, 2 Lorenzo's or the
 * slices', 0 the pass after them), or -1 where the last chunk had none
 * kept. gg_test_hist0_in_kernel(0): always the pass (default 1). */
void gg_test_keep_hist0(int on);
int gg_test_last_hist0(uint64_t *out);
/* 1 where the last chunk kept under gg_test_keep_hist0(1) took its run
 * statistics from the gated count after another method's commit than the
 * speculated interpolation (gg_state.runs_other), else 0 */
int gg_test_last_runs_other(void);
void gg_test_hist0_in_kernel(int on);
/* The prediction kernels' paths on chunks that would not take them:
 * the interpolation split in two kernels from `points` on (< 0 the
 * default size), the gated commits on `blocks` blocks (0 the device's
 * fill), the split's coarse kernel a warp a lattice box (merge 0) as
 * chunks whose merged box would not fit shared memory run it. */
void gg_test_split_points(long long points);
void gg_test_commit_grid(unsigned blocks);
void gg_test_coarse_merge(int merge);

#endif
