/* The entropy plan (codebook and layout) of a compressed chunk. The device
 * takes the codebook decision and lays the stream out itself (gg_plan) for
 * dictionary books, so the whole pipeline is queued at once; the host waits
 * for the plan kernel alone (the tail keeps running) to learn how many
 * bytes to copy back, and re-checks the decision with the CPU codec's own
 * code (gg_host_plan) once the state is back. Where a custom book may win
 * (or the host plans: the last stream had a custom book or a run-coded
 * plane), the host builds the plan as the CPU codec does and hands it to
 * the device through mapped memory (gg_host_plan_post), the tail queued
 * behind a gate the host opens (gg_plan_gate_queue, gg_plan_gate_open).
 * Only the host plans run-coded planes (format 8), from the run statistics
 * the front counted (gg_run_stats). */
#include "gg_context.h"
#include "huff_codec.h"

#include <sched.h>
#include <string.h>
#include <time.h>

#define GG_PLAN_PIECE ((size_t)4096) /* any nonzero size: a work job's pieces only count */

/* glide_plan_par on the copy helpers: plane 1 as a job of one piece for
 * a spinning helper, while the caller plans plane 0, the longer (the
 * coarse points' wider histogram), whose tables are warm in its caches
 * from the chunk before; the join plans plane 1 here if no helper took it. */
typedef struct {
    void (*fn)(void *, unsigned);
    void *arg;
} plan_task;

static int plan_piece(void *ctx, size_t k)
{
    (void)k;
    const plan_task *t = ctx;
    t->fn(t->arg, 1);
    return 0;
}

static void plan_on_helpers(void *ctx, void (*fn)(void *arg, unsigned plane), void *arg)
{
    (void)ctx;
    plan_task t = {fn, arg};
    gg_copy_job job = {0};
    job.bytes = GG_PLAN_PIECE, job.piece = GG_PLAN_PIECE, job.ctx = &t, job.work = plan_piece;
    const int posted = !gg_copy_busy() && !gg_copy_post(&job); /* busy not expected: copies are joined by now */
    fn(arg, 0);
    if (posted) gg_copy_join();
    else fn(arg, 1);
}

/* The host's entropy plan from the device's state, by the CPU codec's own
 * code: h holds the parameters' fields. Also notes what the next chunk
 * starts from (the trial's pick, whether tuning blended). */
size_t gg_host_plan(const enc_job *j, const gg_state *hs, glide_header *h, glide_entropy_plan *plan)
{
    if (j->method == GG_CHOSEN3 && !j->force) gg_G.spec_large = !hs->lorenzo && !hs->slice; /* the trial's pick */
    if (j->method != GG_LORENZO) gg_G.last_blend = hs->lv.blended || hs->tuned_blend; /* launch.blend_first */
    h->eb_abs = hs->lv.eb_abs;
    h->subst_bits = hs->lv.subst_bits;
    h->alpha = hs->lv.alpha;
    glide_range_report *rr = j->o->range_out;
    if (rr) {
        rr->valid = 1;
        rr->any = (int)hs->lv.any;
        rr->any_fill = (int)hs->lv.any_fill;
        rr->e = (glide_extremes){hs->lv.lo, hs->lv.hi, hs->lv.lo2, hs->lv.hi2, {hs->lv.n_lo, hs->lv.n_hi}};
    }
    const int chosen = j->method == GG_CHOSEN || j->method == GG_CHOSEN3;
    const int lorenzo = j->method == GG_LORENZO || (chosen && hs->lorenzo);
    const int slice = j->method == GG_CHOSEN3 && hs->slice; /* format 6: level_cfg[0] the order */
    h->method = slice ? GLIDE_METHOD_SLICE : lorenzo ? GLIDE_METHOD_LORENZO : GLIDE_METHOD_INTERP;
    if (!lorenzo) memcpy(h->level_cfg, hs->lv.level_cfg, GLIDE_MAX_LEVELS);
    if (!lorenzo && !slice && hs->lv.fill_aware) h->format_version = GLIDE_FORMAT_FILL_AWARE;
    if (!lorenzo && !slice && hs->lv.blended) h->format_version = GLIDE_FORMAT_BLEND; /* tuning blended a level */
    const int own_dict = j->o->dict == gg_G.dict;
    if (j->planes) {
        h->format_version = slice ? GLIDE_FORMAT_SLICE : GLIDE_FORMAT_PLANES;
        /* under the SIZE score the device summed every book (book_select.cu's k_book_size) */
        const int sized = j->o->score == GLIDE_SCORE_SIZE;
        const glide_book_choice given[GLIDE_NPLANES] = {
            {hs->sel_pl[0].book, hs->sel_pl[0].bits, sized ? hs->sel_work.bits[0] : NULL},
            {hs->sel_pl[1].book, hs->sel_pl[1].bits, sized ? hs->sel_work.bits[1] : NULL}};
        const uint64_t *const hist[GLIDE_NPLANES] = {hs->hist_pl[0], hs->hist_pl[1]};
        /* counted by the front where o->runs */
        const glide_run_stats *runs = !j->o->runs ? NULL : hs->runs_other ? hs->run_st_o : hs->run_st;
        /* the helpers belong to the first context alone (gg_ctx.copy_helpers) */
        static const glide_plan_par on_helpers = {plan_on_helpers, NULL};
        return glide_entropy_plan_planes(j->p, j->o, h, hist, own_dict ? given : NULL, runs, j->n0, j->n, j->esz, plan,
                                         gg_G.copy_helpers ? &on_helpers : NULL);
    }
    glide_book_choice choice = {hs->sel.book, hs->sel.bits, NULL};
    return glide_entropy_plan_hist(j->p, j->o, h, hs->hist, own_dict ? &choice : NULL, j->n, j->esz, plan);
}

/* Writes the host's plan where one kernel (gg_apply_plan) puts it on the
 * device, reading it from mapped memory: the header, custom books and run
 * books, each plane's book (a dictionary book by its number: the tail
 * reads gg_G.d_enc whatever the book, and one graph serves all) and class
 * codes, and the layout. The header fits: the caller checked
 * plan->lay.anchors_off against it. 0, or -1 where a plane's class
 * lengths are no code (the CPU codec fails there too). */
int gg_host_plan_post(const enc_job *j, const glide_header *hh, const glide_entropy_plan *plan)
{
    gg_apply *ap = gg_G.h_apply;
    glide_header_write(hh, ap->head);
    memcpy(ap->head + plan->lay.book_off, plan->book, hh->book_bytes);
    if (j->planes) memcpy(ap->head + plan->lay.book_off + hh->book_bytes, plan->book1, hh->book_bytes1);
    /* format 8: the run books of the run-coded planes, in plane order, as glide_entropy_write puts them */
    uint8_t *runbook = ap->head + plan->lay.runbook_off;
    for (unsigned k = 0; k < GLIDE_NPLANES; k++) {
        memset(&ap->rc[k], 0, sizeof ap->rc[k]); /* a plain plane: no kind run-coded */
        if (!(hh->flags & (k ? GLIDE_FLAG_RUNS1 : GLIDE_FLAG_RUNS0))) continue;
        const uint8_t(*len)[GLIDE_RUN_CLASSES] = (const uint8_t(*)[GLIDE_RUN_CLASSES])plan->run_len[k];
        if (glide_run_code_init(&ap->rc[k], len) != 0) return -1;
        runbook += glide_run_book_pack(len, runbook);
    }
    ap->head_bytes = (uint32_t)plan->lay.anchors_off;
    for (unsigned k = 0; k < GLIDE_NPLANES; k++) {
        const unsigned kind = k ? hh->book_kind1 : hh->book_kind, id = k ? hh->book_id1 : hh->book_id;
        if (k && !j->planes) {
            ap->book[k] = GG_APPLY_NONE;
        } else if (kind == GLIDE_BOOKKIND_DICT && j->o->dict == gg_G.dict) {
            ap->book[k] = id;
        } else {
            ap->book[k] = GG_APPLY_CUSTOM;
            glide_huff_enc_init(&ap->enc[k], k ? plan->len1 : plan->len);
        }
    }
    /* never larger than the raw stream */
    const gg_place pl = {plan->lay.anchors_off, plan->lay.outliers_off, plan->lay.segtab_off, plan->lay.stream_off,
                         plan->raw_total - GLIDE_CRC_BYTES - plan->lay.stream_off, 1, 0,
                         (hh->flags & GLIDE_FLAG_RUNS) / GLIDE_FLAG_RUNS0};
    ap->place = pl;
    return 0;
}

/* Opens the host plan's gate (gg_plan_gate_queue) once h_apply holds the
 * plan; with_plan 0 (RAW, a failure) first empties the plan, so that
 * gg_apply_plan writes nothing and leaves st->place.ok = 0 and the queued
 * tail runs empty. A no-op unless armed. */
void gg_plan_gate_open(int with_plan)
{
    if (!gg_G.pgate.armed) return;
    if (!with_plan) {
        gg_apply *ap = gg_G.h_apply;
        memset(&ap->place, 0, sizeof ap->place);
        for (unsigned k = 0; k < GLIDE_NPLANES; k++) ap->book[k] = GG_APPLY_NONE;
        ap->head_bytes = 0;
    }
    /* x86 keeps the plan's stores before this one: state_gate_k's acquire
     * load sees the word, and apply_plan_k, queued behind it, reads h_apply */
    __atomic_store_n(&gg_G.h_gate[GG_PLAN_GATE], gg_G.pgate.seq, __ATOMIC_RELEASE);
    gg_G.pgate.armed = 0;
}

/* Where the host plans the entropy stage (the last stream had a custom
 * book or a run-coded plane, or the forced host planner), queues
 * gg_apply_plan and the tail (the encoder for j->run_planes: the planes the
 * plan names, or on large chunks a guess, which the host runs empty where
 * the plan then wants the other, queueing the next chunk's tail after its
 * plan) before the plan is made, behind
 * gg_state_gate's kernel, which hands the state over and
 * then polls a mapped word that gg_plan_gate_open raises once h_apply
 * holds the plan: their launches are then made while the front runs,
 * where queued after the plan they kept the device idle for the host's
 * calls.
 * Nothing may wait for the device while the gate is shut, and loading a
 * kernel may synchronise the context (lazy module loading; a gated first
 * apply_plan_k hung there): so only a tail whose graph replays and an
 * apply kernel launched before go behind the gate, and the host learns
 * that the state arrived from a mapped word the gate's kernel writes after
 * it (gg_state_wait), not from a CUDA call. Queues the state's download
 * and records ev_st (before the gate: gg_state_wait asks it for a device
 * error). *queued = 1 if the tail went behind the gate (gg_state_wait,
 * then gg_plan_gate_open, must follow), 0 if not (a first launch, or the
 * gate off by a test hook: the state is copied, and the caller waits for
 * ev_st and queues the tail after the plan). Nonzero return: a GPU error
 * (gg_fail opened the gate). */
size_t gg_plan_gate_queue(const enc_job *j, int *queued)
{
    gg_ctx *c = &gg_G;
    size_t r = 0;
    *queued = 0;
    const int gate = c->pgate.on && c->pgate.apply_launched && !c->pgate.missed && gg_tail_replays(j);
    if (!gate) CK(cudaMemcpyAsync(c->h_st, c->d_st, sizeof *c->h_st, cudaMemcpyDeviceToHost, c->s), "download state");
    CK(cudaEventRecord(c->ev_st, c->s), "state event");
    if (!gate) {
        gg_stage("histogram to host");
        return 0;
    }
    const uint32_t seq = ++c->pgate.seq;
    /* armed before the launch: the gate is shut from there on, and a
     * failure must open it */
    c->pgate.armed = 1, *queued = 1;
    CK(gg_state_gate(c->d_st, c->dh_st, c->dh_gate + GG_STATE_WORD, c->dh_gate + GG_PLAN_GATE, seq, c->s), "plan gate");
    gg_stage("host plan");
    CK(gg_apply_plan(c->dh_apply, c->d_dict_enc, c->d_enc, c->d_rc, c->buf.p, c->d_st, gg_enc_words(j), c->s), "plan");
    r = gg_encode_tail(j);
done:
    return r;
}

/* Waits, without a CUDA call, for the word the stream writes once the
 * state is in h_st (gg_plan_gate_queue); 0 when it is, else a device error
 * (the event behind the gate reports one; it is asked every millisecond). */
int gg_state_wait(void)
{
    const uint32_t seq = gg_G.pgate.seq;
    double next = 0;
    for (unsigned i = 1;; i++) {
        if ((int32_t)(__atomic_load_n(&gg_G.h_gate[GG_STATE_WORD], __ATOMIC_ACQUIRE) - seq) >= 0) return 0;
        if (i % 256) continue;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        const double t = ts.tv_sec + ts.tv_nsec * 1e-9;
        if (next == 0) next = t + 1e-3;
        if (t < next) continue;
        next = t + 1e-3;
        const cudaError_t e = cudaEventQuery(gg_G.ev_st);
        if (e != cudaErrorNotReady && e != cudaSuccess) return -1;
        sched_yield();
    }
}

/* gg_plan's decision for chunk seq, once its kernel has finished (the
 * tail is already queued behind it and keeps the device busy); 0 if the
 * plan did not run. */
unsigned gg_plan_flag(uint64_t seq, uint64_t *bound)
{
    if (cudaEventSynchronize(gg_G.ev_plan) != cudaSuccess) return 0;
    volatile uint64_t *f = gg_G.h_flag;
    *bound = f[2];
    return f[0] == seq ? (unsigned)f[1] : 0;
}
