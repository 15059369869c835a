/* The GPU backend's test hooks (gpu_test_hooks.h): switches in the
 * backend's context, set under its lock. */
#include "gpu_test_hooks.h"

#include <string.h>

#define LOCKED(stmt)                           \
    do {                                       \
        gg_ctx *c_ = gg_context();             \
        pthread_mutex_lock(&c_->lock);         \
        stmt;                                  \
        pthread_mutex_unlock(&c_->lock);       \
    } while (0)

void gg_test_inject_failures(int n) { LOCKED(c_->test.inject = n); }
void gg_test_inject_late_failures(int n) { LOCKED(c_->test.inject_late = n); }
void gg_test_inject_plan_failures(int n) { LOCKED(c_->test.inject_plan = n); }
void gg_test_lose_out_words(int n) { LOCKED(c_->test.out_lost = n); }
void gg_test_plan_gate(int on) { LOCKED(c_->pgate.on = on); }
void gg_test_planner(int mode) { LOCKED(c_->test.planner = mode); }
void gg_test_use_graphs(int on) { LOCKED(c_->test.graphs = on); }
void gg_test_guess_run_planes(int on) { LOCKED(c_->test.guess_runs = on); }
void gg_test_hist0_in_kernel(int on) { LOCKED(c_->test.hist0_kernel = on); }
void gg_test_keep_hist0(int on) { LOCKED(c_->test.keep_hist0 = on; c_->last_h0_made = -1); }

int gg_test_last_plan_gated(void)
{
    int g = 0;
    LOCKED(g = c_->last_gated);
    return g;
}

int gg_test_last_tail_requeued(void)
{
    int q = 0;
    LOCKED(q = c_->last_requeued);
    return q;
}

int gg_test_last_plan(void)
{
    int p = 0;
    LOCKED(p = c_->last_plan);
    return p;
}

int gg_test_last_hist0(uint64_t *out)
{
    int r = -1;
    LOCKED(r = c_->last_h0_made; if (r >= 0) memcpy(out, c_->last_h0, sizeof c_->last_h0));
    return r;
}

int gg_test_last_runs_other(void)
{
    int r = 0;
    LOCKED(r = c_->last_runs_other);
    return r;
}

/* the stand-in for a driver that refuses stream memory operations */
static CUresult refuse_wait(CUstream st, CUdeviceptr a, cuuint32_t v, unsigned f)
{
    (void)st, (void)a, (void)v, (void)f;
    return CUDA_ERROR_NOT_SUPPORTED;
}

void gg_test_refuse_stream_waits(int on)
{
    static CUresult (*real)(CUstream, CUdeviceptr, cuuint32_t, unsigned);
    gg_ctx *c = gg_context();
    pthread_mutex_lock(&c->lock);
    if (on) {
        if (c->wait32 && c->wait32 != refuse_wait) real = c->wait32;
        c->wait32 = refuse_wait;
    } else {
        c->wait32 = real; /* NULL where the process never had it */
    }
    pthread_mutex_unlock(&c->lock);
}

/* the prediction kernels' paths: the context's launch settings, which every chunk passes on */
void gg_test_split_points(long long points) { LOCKED(c_->launch.split_points = points); }
void gg_test_commit_grid(unsigned blocks) { LOCKED(c_->launch.commit_grid = blocks); }
void gg_test_coarse_merge(int merge) { LOCKED(c_->launch.coarse_merge = merge != 0); }
