/* glide_gpu_compress: one chunk through the device, the same stream the
 * CPU codec writes (common/api.c calls it, and redoes the chunk on the CPU
 * when it returns GLIDE_ERROR(GPU)). The error bound travels with the
 * parameters into the front (gpu_front.c: range and level bounds, then
 * predict.cu's kernels quantizing within them). The steps:
 *   chunk_make     the header, shape and grids as cpu/codec_tmpl.h decides them
 *   buffers_grow   device and pinned buffers for the chunk (kept between chunks)
 *   values_upload  the header ahead (device plan) and the values (gpu_transfer.c)
 *   front_queue    range .. book choice (gpu_front.c)
 *   device_plan    gg_plan and the tail (gpu_tail.c) queued at once; the host re-checks the plan
 *   gate_behind    or: the host plans, the tail queued behind its gate (gpu_plan.c)
 *   host_planned   the host's plan on the device, the tail (again), the stream back
 *   raw_write      an incompressible chunk, written by the host
 * The device plans plain planes only; the host's plan, by the CPU codec's
 * code, may run-code a plane (format 8): where the device's re-checked
 * plan misses that, the host plans the chunk, and the next chunks too
 * while their streams have run-coded planes. */
#include "gg_context.h"
#include "huff_codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Chunks of at most this many points speculate in the block trial
 * (gg_spec): their interpolation runs beside the trial's, off the latency
 * path when the trial picks it; a chunk that picks another method then
 * pays one wasted interpolation. Larger chunks speculate only while the
 * last one the trial decided took interpolation (spec_large): a field
 * keeps its method from chunk to chunk, so a miss (a whole wasted
 * interpolation) comes once per change of method. */
#define GG_SPEC_POINTS ((uint64_t)1 << 19)

/* Host-planned chunks of at most this many points queue the run encoder
 * that learns the run-coded planes from the plan on the device
 * (GG_RUNS_FROM_PLAN), so that their tail waits behind the plan's gate
 * whatever the plan decides. It launches a block for every segment two
 * plain planes would have; on larger chunks the blocks that return at once
 * cost more than a wrong guess (DESIGN.md), and the tail guesses the last
 * stream's planes. */
#define GG_PLAN_RUNS_POINTS ((uint64_t)1 << 19)

/* One call's chunk and what the steps learn about it. */
typedef struct {
    enc_job j;
    glide_header h;  /* the parameters' fields */
    glide_header hh; /* the plan's header */
    glide_entropy_plan plan;
    glide_shape sh;
    glide_grid cg;
    unsigned blog;
    size_t hbytes; /* the header as the device plans it (formats 1 to 6): format 5 adds plane 1's book after the dims */
    uint64_t n_segments;
    uint64_t tcount;   /* format 6's trial sample's points (0: no trial) */
    int device_plans;  /* gg_plan decides; else the host */
    int early_state;   /* the state's early copy is queued */
    int gated_plan;    /* the tail is queued behind the host plan's gate (gg_plan_gate_queue) */
} chunk;

/* How a step ends: on to the next, the call's result is known, or the
 * chunk is incompressible (raw_write), or the host plans (host_planned). */
enum { STEP_ON, STEP_DONE, STEP_RAW };

static void chunk_make(chunk *c, const glide_params *p, const glide_encode_opts *o)
{
    memset(&c->j, 0, sizeof c->j); /* force, lorenzo_ok, tg, tb: no slices */
    c->tcount = 0, c->early_state = 0, c->gated_plan = 0;
    glide_header_begin(&c->h, p);
    glide_shape_from_dims(p->rank, p->dims, c->h.format_version, &c->sh);
    c->blog = p->block_log2 ? p->block_log2 : glide_default_block_log2(c->sh.rank);
    c->h.block_log2 = (uint8_t)c->blog;
    glide_grid_init(&c->cg, &c->sh, c->blog, p->has_fill, c->h.fill_bits);
    enc_job *j = &c->j;
    j->p = p, j->o = o, j->g = gg_grid_of(&c->cg, p->dtype), j->n = c->sh.count, j->esz = glide_dtype_size(p->dtype);
    j->method = p->predictor == GLIDE_PRED_LORENZO  ? GG_LORENZO
                : p->predictor == GLIDE_PRED_INTERP ? GG_INTERP
                                                    : GG_CHOSEN;
    j->planes = o->planes != 0, j->n0 = glide_plane0_count(&c->sh);
    j->in_place = j->planes && gg_plane_runs_make(j->g.n[0], j->g.n[1], j->g.n[2], j->g.slab_rows, &j->runs);
    /* format 6: as cpu/codec_tmpl.h compress() decides */
    const int slice_mode = glide_slice_mode(p, o, c->cg.eff_rank);
    if (slice_mode && slice_mode <= 2) {
        j->method = GG_CHOSEN3;
        j->force = slice_mode;
    } else if (slice_mode == GLIDE_SLICE_TRIAL) {
        j->method = GG_CHOSEN3;
        j->lorenzo_ok = p->predictor == GLIDE_PRED_AUTO;
        glide_sample_lattice sl;
        glide_sample_lattice_init(&c->cg, &sl);
        uint64_t d[4];
        glide_trial_box(&c->cg, d + 1);
        d[0] = sl.count;
        glide_shape tsh;
        glide_shape_from_dims(4, d, GLIDE_FORMAT_SLABS, &tsh);
        glide_grid tcg;
        glide_grid_init(&tcg, &tsh, c->blog, p->has_fill, c->h.fill_bits);
        j->tg = gg_grid_of(&tcg, p->dtype);
        j->tb.k = sl.k;
        for (int a = 0; a < 3; a++) j->tb.m[a] = sl.m[a], j->tb.d[a] = d[a + 1];
        c->tcount = tcg.count;
    }
    const size_t hsize = glide_header_size(p->rank);
    c->hbytes = hsize + (j->planes ? GLIDE_HEADER_PLANES_EXT : 0);
    c->n_segments = glide_stream_segments(j->n, j->n0, j->planes);
    j->raw_total = hsize + j->n * j->esz + GLIDE_CRC_BYTES;
    /* The device plans with the frozen dictionary (the benchmarks' trial
     * ones are the host's), unless the last stream needed a custom book or
     * run-coded a plane: chunks of one dataset tend to agree, and for those
     * the host's plan after one wait costs less than a declined device
     * plan, or one the host's re-check finds beaten by runs. */
    const int planner = gg_G.test.planner;
    c->device_plans = o->dict == gg_G.dict && planner != GG_PLANNER_HOST &&
                      (planner == GG_PLANNER_DEVICE || (!gg_G.custom_last && !gg_G.runs_last));
    /* the host's tail may be queued before its plan: it codes the planes
     * the plan names, or those the last stream run-coded */
    j->run_planes = 0;
    if (!c->device_plans && j->planes && o->runs)
        j->run_planes = j->n <= GG_PLAN_RUNS_POINTS && !gg_G.test.guess_runs ? GG_RUNS_FROM_PLAN : gg_G.runs_last;
    gg_G.last_plan = c->device_plans ? GG_PLANNED_DEVICE : GG_PLANNED_HOST;
    gg_G.last_gated = 0, gg_G.last_requeued = 0;
}

/* 1 if every buffer the chunk needs is there */
static int buffers_grow(const chunk *c)
{
    gg_ctx *g = &gg_G;
    const enc_job *j = &c->j;
    const uint64_t n = j->n, t = c->tcount;
    const size_t esz = j->esz, r_bytes = gg_global_r_bytes(j->g, j->method, 1, &gg_G.launch);
    return gg_grow_dev(&g->x, n * esz) && gg_grow_dev(&g->sym, n * 2) &&
           gg_grow_dev(&g->pos, gg_outlier_tile_bytes(n)) &&
           gg_grow_dev(&g->buf, j->raw_total) && gg_grow_dev(&g->scratch, gg_scratch_need(n, j->raw_total)) &&
           (!r_bytes || gg_grow_dev(&g->r, r_bytes)) &&
           (!gg_needs_global_w(j->g, j->method, 1) || gg_grow_dev(&g->w, n * esz)) &&
           gg_grow_host(&g->h_out, j->raw_total) &&
           (!j->planes || j->in_place || gg_grow_dev(&g->sym_p, gg_planes_len(n) * 2)) &&
           (!t || (gg_grow_dev(&g->tx, t * esz) && gg_grow_dev(&g->tsym, t * 2 * GG_TRIAL_METHODS) &&
                   gg_grow_dev(&g->tr, t * esz) && gg_grow_dev(&g->tw, t * esz)));
}

/* Queues the header (where the device plans) and the values. */
static int values_upload(chunk *c, const void *src, int src_dev, size_t *out)
{
    gg_ctx *g = &gg_G;
    size_t r = 0;
    gg_stages_begin();
    if (c->device_plans) {
        /* every field the parameters fix; gg_plan writes the others. Queued
         * ahead of the values, where it moves while the host stages them:
         * behind them, it left the device idle between the values' arrival
         * and range_k */
        glide_header *h = &c->h; /* the host's plans start from these fields too */
        h->book_kind = GLIDE_BOOKKIND_DICT;
        h->n_segments = (uint32_t)c->n_segments;
        if (c->j.planes) h->format_version = GLIDE_FORMAT_PLANES; /* plane 1's book: gg_plan */
        glide_header_write(h, g->h_head);
        CK(cudaMemcpyAsync(g->buf.p, g->h_head, c->hbytes, cudaMemcpyHostToDevice, g->s), "upload header");
    }
    if (g->rng_reset) {
        CK(cudaMemsetAsync(&g->d_st->rng, 0, sizeof g->d_st->rng, g->s), "reset");
        g->rng_reset = 0;
    }
    const size_t bytes = c->j.n * c->j.esz;
    const int gated = src_dev ? 0 : gg_gate_arm(g->x.p, src, bytes);
    if (gated < 0) { r = gg_fail(cudaGetLastError(), "gated upload"); goto done; }
    if (src_dev) CK(cudaMemcpyAsync(g->x.p, src, bytes, cudaMemcpyDeviceToDevice, g->s), "copy in");
    else if (!gated) CK(gg_upload_values(g->x.p, src, bytes), "upload");
    gg_stage("upload");
    if (g->test.inject_late > 0) { /* the test hook: a failure with the upload queued, gated or not */
        g->test.inject_late--;
        r = gg_fail(cudaErrorLaunchFailure, "injected");
        goto done;
    }
    return STEP_ON;
done:
    *out = r;
    return STEP_DONE;
}

/* Range .. book choice, queued. */
static size_t front_queue(const chunk *c)
{
    const glide_params *p = c->j.p;
    const glide_encode_opts *o = c->j.o;
    /* without the books' distributions the CPU codec scores by size too */
    front_args fa = {&c->j, p->mode, gg_G.d_dict_log2q ? (int)o->score : (int)GLIDE_SCORE_SIZE, p->eb, o->alpha, 0, 0, gg_G.launch};
    if (c->j.method != GG_LORENZO && !c->j.force) {
        uint64_t nb[3];
        fa.k = glide_tune_stride(&c->cg, nb);
    }
    fa.spec = c->j.method == GG_CHOSEN3 && !c->j.force && (c->j.n <= GG_SPEC_POINTS || gg_G.spec_large);
    return gg_encode_front(&fa);
}

/* after a compressed chunk's state came back (a test hook keeps plane 0's
 * histogram, and whose run statistics the plan took) */
static void keep_hist0(const enc_job *j, const gg_state *hs)
{
    if (!gg_G.test.keep_hist0) return;
    gg_G.last_h0_made = -1;
    gg_G.last_runs_other = (int)hs->runs_other;
    if (!j->in_place) return;
    memcpy(gg_G.last_h0, hs->hist_pl[0], sizeof gg_G.last_h0);
    gg_G.last_h0_made = hs->hist0_made <= 2 ? (int)hs->hist0_made : 1;
}

/* The stream (total bytes, in h_out) into dst. */
static size_t stream_out(void *dst, size_t cap, uint64_t total)
{
    if (total > cap) return GLIDE_ERROR(DST_TOO_SMALL);
    memcpy(dst, gg_G.h_out.p, total);
    return total;
}

/* The device plans (gg_plan) with the tail queued behind it, the host
 * waits for the plan kernel alone and re-checks its decision from the
 * state with the CPU codec's own code. STEP_DONE with the stream where they
 * agree, STEP_RAW where the chunk is incompressible, STEP_ON (the host
 * plans) where a custom book may win or they disagree. */
static int device_plan(chunk *c, void *dst, size_t cap, size_t *out)
{
    gg_ctx *g = &gg_G;
    const enc_job *j = &c->j;
    const glide_encode_opts *o = j->o;
    gg_state *st = g->d_st, *hs = g->h_st;
    size_t r = 0;
    gg_plan_in in = {j->n,
                     c->n_segments,
                     glide_anchor_count(&c->sh, c->blog),
                     c->hbytes,
                     j->raw_total,
                     1.0 + o->auto_slack,
                     (uint32_t)j->esz,
                     (uint32_t)j->p->codebook,
                     (uint32_t)j->method,
                     g->dict->prev_books,
                     glide_dict_book_version(g->dict, 0),
                     g->dict->version,
                     ++g->seq,
                     j->n0,
                     (uint32_t)j->planes,
                     0};
    CK(gg_plan(in, g->d_dict_enc, g->d_enc, g->buf.p, st, g->dh_st, g->dh_flag, gg_enc_words(j), g->s), "plan");
    gg_stage("plan");
    CK(cudaEventRecord(g->ev_plan, g->s), "plan event");
    /* The state (histograms, books, levels) on its way to the host beside
     * the tail, so that the host's re-check of the plan runs while the
     * tail does, and only the tail's own fields come back after it; the
     * downloads are queued before the re-check. Stage timing keeps the
     * plain order. */
    c->early_state = !g->timing;
    if (c->early_state) {
        CK(cudaStreamWaitEvent(g->s_st, g->ev_plan, 0), "state fork");
        CK(cudaMemcpyAsync(hs, st, GG_STATE_TAIL, cudaMemcpyDeviceToHost, g->s_st), "early state");
        CK(cudaEventRecord(g->ev_st, g->s_st), "state event");
    }
    ((volatile uint64_t *)g->h_flag)[GG_FLAG_DELIVERED] = 0;
    r = gg_encode_tail(j); /* queued before the plan is known: a declined plan makes it run empty */
    if (r) goto done;
    gg_gate_fill(); /* the whole pipeline is queued: the values must be in before the wait */
    uint64_t bound = 0;
    const unsigned flag = gg_plan_flag(in.seq, &bound);
    if (!flag || (flag == GG_PLAN_FLAG_DEVICE && (bound == 0 || bound > j->raw_total))) {
        r = gg_fail(cudaErrorUnknown, "plan flag");
        goto done;
    }
    const int early = c->early_state && flag == GG_PLAN_FLAG_DEVICE;
    const int delivered = early && bound <= gg_deliver_limit(j->raw_total); /* by gg_deliver, checked below */
    if (early && !delivered) CK(gg_download_queue(bound, GG_STATE_TAIL), "download");
    if (c->early_state) {
        c->early_state = 0; /* waited for here, or not at all */
        CK(cudaEventSynchronize(g->ev_st), "state");
    }
    if (flag == GG_PLAN_FLAG_HOST) {
        /* a custom book may win: the host plans from the histogram gg_plan
         * handed over, while the device runs the declined tail empty */
        g->last_plan = GG_PLANNED_HOST_BOOK;
        return STEP_ON;
    }
    /* RAW: the state only (gg_plan copied it already; this keeps one path) */
    if (early) {
        r = gg_host_plan(j, hs, &c->hh, &c->plan);
        if (glide_is_error(r)) goto done;
        CK(cudaStreamSynchronize(g->s), "sync");
        if (delivered && ((volatile uint64_t *)g->h_flag)[GG_FLAG_DELIVERED] != 1) { /* not expected: the copy then */
            r = gg_download(bound);
            if (r) goto done;
        }
        gg_stage("download");
    } else {
        r = gg_download(flag == GG_PLAN_FLAG_DEVICE ? bound : 0);
        if (r) goto done;
    }
    gg_stages_end();
    keep_hist0(j, hs);
    /* the CPU codec's own decisions from the same histogram */
    if (!early) r = gg_host_plan(j, hs, &c->hh, &c->plan);
    if (glide_is_error(r)) goto done;
    glide_header *hh = &c->hh;
    if (!hs->place.ok && hh->method == GLIDE_METHOD_RAW) {
        g->last_plan = GG_PLANNED_RAW;
        return STEP_RAW;
    }
    const int books_agree =
        j->planes ? hh->book_kind == GLIDE_BOOKKIND_DICT && hh->book_kind1 == GLIDE_BOOKKIND_DICT &&
                        hh->book_id == hs->sel_pl[0].book && hh->book_id1 == hs->sel_pl[1].book
                  : hh->book_kind == GLIDE_BOOKKIND_DICT && hh->book_id == hs->sel.book;
    /* runs: the host run-codes a plane (format 8), which the device never plans */
    const int runs = (hh->flags & GLIDE_FLAG_RUNS) != 0;
    const int agree = hs->place.ok && hh->method != GLIDE_METHOD_RAW && !runs && books_agree &&
                      c->plan.lay.segtab_off == hs->place.segtab_off && c->plan.lay.stream_off == hs->place.stream_off;
    if (agree && hs->total && hs->total <= bound) { /* only `bound` bytes came back */
        g->custom_last = 0, g->runs_last = 0;
        hh->stream_bytes = hs->stream_bytes; /* both planes' */
        glide_header_write(hh, g->h_head);
        if (memcmp(g->h_head, g->h_out.p, glide_header_bytes(hh)) == 0) { /* method, books, counts, level configuration */
            r = stream_out(dst, cap, hs->total);
            goto done;
        }
    } else if (agree) { /* the Huffman stream did not fit: RAW, as the CPU codec decides */
        g->last_plan = GG_PLANNED_RAW;
        return STEP_RAW;
    }
    if (runs) { /* the CPU codec's decision: a run-coded plane, which only the host plans */
        g->last_plan = GG_PLANNED_HOST_RUNS;
        return STEP_ON;
    }
    g->last_plan = GG_PLANNED_DISAGREED;
    if (g->debug) fprintf(stderr, "glide: GPU plan differs from the host's; replanning\n");
    return STEP_ON;
done:
    *out = r;
    return STEP_DONE;
}

/* The host plans from the start (a trial dictionary, the last stream had a
 * custom book or a run-coded plane, or the forced host planner): one wait
 * mid-chunk, for the state; the tail queued behind the plan's gate where
 * it can be. */
static int gate_behind(chunk *c, size_t *out)
{
    gg_ctx *g = &gg_G;
    size_t r = gg_plan_gate_queue(&c->j, &c->gated_plan);
    if (r) goto done;
    if (c->gated_plan && g->test.inject_plan > 0) { /* the test hook: a failure with the tail behind the gate */
        g->test.inject_plan--;
        r = gg_fail(cudaErrorLaunchFailure, "injected");
        goto done;
    }
    gg_gate_fill();
    if (c->gated_plan) {
        if (gg_state_wait()) { r = gg_fail(cudaErrorUnknown, "state"); goto done; }
    } else {
        CK(cudaEventSynchronize(g->ev_st), "sync");
    }
    return STEP_ON;
done:
    *out = r;
    return STEP_DONE;
}

/* The host's plan from the state, on the device, the tail run (again) and
 * the stream back: STEP_DONE with the stream, or STEP_RAW. */
static int host_planned(chunk *c, void *dst, size_t cap, size_t *out)
{
    gg_ctx *g = &gg_G;
    const enc_job *j = &c->j;
    const gg_state *hs = g->h_st;
    glide_header *hh = &c->hh;
    g->last_gated = c->gated_plan;
    *hh = c->h; /* the host's plan starts from the parameters' fields */
    size_t r = gg_host_plan(j, hs, hh, &c->plan);
    if (glide_is_error(r)) goto done;
    keep_hist0(j, hs); /* a RAW chunk's too: the histograms are in */
    /* the device idles meanwhile: the benchmarks keep it out of kernel time */
    if (!c->gated_plan) gg_stage("host plan");
    if (hh->method == GLIDE_METHOD_RAW) return STEP_RAW;
    if (c->plan.lay.anchors_off > sizeof g->h_apply->head) {
        r = gg_fail(cudaErrorInvalidValue, "header size");
        goto done;
    }
    const unsigned runs = (hh->flags & GLIDE_FLAG_RUNS) / GLIDE_FLAG_RUNS0; /* bit p: plane p run-coded */
    g->pgate.missed = c->j.run_planes != GG_RUNS_FROM_PLAN && runs != c->j.run_planes;
    if (g->pgate.missed) {
        if (c->gated_plan) {
            /* the tail behind the gate has the other encoder: it runs empty
             * on an emptied plan, and once it has, h_apply is free for the
             * plan and the right tail follows it, as after a first launch */
            gg_plan_gate_open(0);
            CK(cudaStreamSynchronize(g->s), "sync");
            c->gated_plan = 0, g->last_gated = 0, g->last_requeued = 1;
        }
        c->j.run_planes = runs;
    }
    if (gg_host_plan_post(j, hh, &c->plan)) {
        r = gg_fail(cudaErrorInvalidValue, "run code");
        goto done;
    }
    /* the tail's gg_deliver raises it (its tail is not running yet: the
     * gate is shut, or the tail is queued below) */
    ((volatile uint64_t *)g->h_flag)[GG_FLAG_DELIVERED] = 0;
    if (c->gated_plan) {
        gg_plan_gate_open(1);
    } else {
        CK(gg_apply_plan(g->dh_apply, g->d_dict_enc, g->d_enc, g->d_rc, g->buf.p, g->d_st, gg_enc_words(j), g->s),
           "plan");
        g->pgate.apply_launched = 1;
        r = gg_encode_tail(j);
        if (r) goto done;
    }
    /* Where the tail delivers (gg_deliver_limit), the stream and the
     * state's tail fields are in h_out and h_st once the stream is done:
     * copying them again would cost a copy of the stream's planned size and
     * of the whole state, each a round trip. */
    if (gg_deliver_limit(j->raw_total)) {
        CK(cudaStreamSynchronize(g->s), "sync");
        if (((volatile uint64_t *)g->h_flag)[GG_FLAG_DELIVERED] != 1) /* over the limit */
            r = gg_download(c->plan.lay.total);
        else gg_stage("download");
    } else {
        r = gg_download(c->plan.lay.total);
    }
    if (r) goto done;
    gg_stages_end();
    g->custom_last = hh->book_kind == GLIDE_BOOKKIND_CUSTOM || (j->planes && hh->book_kind1 == GLIDE_BOOKKIND_CUSTOM);
    g->runs_last = runs;
    if (!hs->total) return STEP_RAW;
    r = stream_out(dst, cap, hs->total);
done:
    *out = r;
    return STEP_DONE;
}

/* Incompressible: the host writes the same raw stream the CPU codec would
 * (values in device memory come to the host first). */
static size_t raw_write(chunk *c, const void *src, int src_dev, void *dst, size_t cap)
{
    size_t r = 0;
    void *h = NULL;
    gg_plan_gate_open(0);                       /* the queued tail runs empty */
    CK(cudaStreamSynchronize(gg_G.s), "sync"); /* nothing of this chunk left running */
    if (c->j.raw_total > cap) return GLIDE_ERROR(DST_TOO_SMALL);
    if (src_dev) {
        const size_t bytes = c->j.n * c->j.esz;
        if (!(h = malloc(bytes ? bytes : 1))) return GLIDE_ERROR(NOMEM);
        CK(cudaMemcpy(h, src, bytes, cudaMemcpyDeviceToHost), "download values");
        src = h;
    }
    r = glide_write_raw(&c->hh, src, c->j.n, dst, cap);
done:
    free(h);
    return r;
}

/* Every exit: nothing of this chunk may be left waiting on the host. */
static void chunk_end(const chunk *c)
{
    gg_gate_fill(); /* a failure before the fill must not leave the stream waiting */
    if (gg_G.pgate.armed) { /* an error after the tail went behind the plan's gate: it runs empty, and ends here */
        gg_plan_gate_open(0);
        cudaStreamSynchronize(gg_G.s);
    }
    if (c->early_state) cudaEventSynchronize(gg_G.ev_st); /* nothing writes h_st after the call */
}

static size_t compress_chunk(chunk *c, const glide_params *p, const glide_encode_opts *o, const void *src, int src_dev,
                             void *dst, size_t cap)
{
    if (cudaSetDevice(gg_G.device) != cudaSuccess) return gg_fail(cudaGetLastError(), "set device");
    chunk_make(c, p, o);
    if (!buffers_grow(c)) return gg_fail(cudaErrorMemoryAllocation, "allocation");
    size_t r = 0;
    if (values_upload(c, src, src_dev, &r) == STEP_DONE) return r;
    if ((r = front_queue(c))) return r;
    int step = STEP_ON;
    c->hh = c->h;
    if (c->device_plans) step = device_plan(c, dst, cap, &r);
    else step = gate_behind(c, &r);
    if (step == STEP_ON) step = host_planned(c, dst, cap, &r);
    if (step == STEP_RAW) r = raw_write(c, src, src_dev, dst, cap);
    return r;
}

size_t glide_gpu_compress(const glide_params *p, const glide_encode_opts *o, const void *src, int src_dev, void *dst,
                          size_t cap)
{
    gg_ctx *g = gg_acquire();
    if (!g) return GLIDE_ERROR(GPU);
    chunk c;
    gg_G.last_h0_made = -1; /* none until this chunk's state is back */
    c.early_state = 0;
    const size_t r = compress_chunk(&c, p, o, src, src_dev, dst, cap);
    chunk_end(&c);
    gg_release(g);
    return r;
}
