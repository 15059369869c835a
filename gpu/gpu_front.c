/* The encoder's front, before the entropy plan: range and level bounds
 * from the error bound, tuning, the predictor's choice (format 6: the
 * block trial), prediction and quantization within the bounds with the
 * symbols' histograms (predict.cu), the dictionary book choice
 * (book_select.cu) and format 8's run statistics (run_stats.cu), queued
 * as one graph (gpu_graph.c). */
#include "gg_context.h"

#include <string.h>

/* A front on s_hi of at most this many points takes par_hi: the
 * speculated interpolation's kernels at the greatest priority too, so that
 * their blocks are dispatched before those of the block trial's Lorenzo
 * and slices when both wait for room. That made 256^3 faster and 512^3
 * slower (the trial's own books then wait for the fine kernel's last
 * wave), so larger chunks keep par. */
#define GG_HI_SPEC_POINTS ((uint64_t)1 << 24)

/* Where the block trial speculated the chunk's interpolation, its books
 * (on s_book) and run statistics (on par->aux[1], which its second
 * instance used) start as soon as it ends (par->join[0]), beside the
 * trial's last kernels and pick: where the trial keeps the interpolation,
 * they are the chunk's, and nothing of the front waits for the pick. Where
 * it picks another method, that method's commit rewrites the symbols and
 * histograms (racing these launches, which write only what the gated
 * launches after the commit, spec_other, write again): books into the same
 * fields after these ended, run statistics into run_st_o, which
 * runs_other then names. */
static cudaError_t spec_beside(const front_args *a, const gg_par *par, int runs)
{
    const enc_job *j = a->j;
    gg_ctx *c = &gg_G;
    gg_state *st = c->d_st;
    const gg_dict dict = {c->d_dict_len, c->d_dict_log2q, c->n_books};
    cudaError_t e;
    if ((e = cudaStreamWaitEvent(c->s_book, par->join[0], 0)) != cudaSuccess ||
        (e = gg_book_select_planes(st->hist, st->hist_pl[0], st->hist_pl[1], dict, a->score, st->sel_pl,
                                   &st->sel_work, 0, c->s_book)) != cudaSuccess ||
        (e = cudaEventRecord(c->ev_bjoin, c->s_book)) != cudaSuccess || !runs)
        return e;
    if ((e = cudaStreamWaitEvent(par->aux[1], par->join[0], 0)) != cudaSuccess ||
        (e = gg_run_stats(c->sym.p, j->n0, NULL, j->n - j->n0, &j->runs, st->run_st, (gg_pick_gate){0}, NULL,
                          par->aux[1])) != cudaSuccess)
        return e;
    return cudaEventRecord(c->ev_rjoin, par->aux[1]);
}

/* spec_beside's gated launches for another method than interpolation, on
 * s after its commit, and the joins of spec_beside's */
static cudaError_t spec_other(const front_args *a, int runs, cudaStream_t s)
{
    const enc_job *j = a->j;
    gg_ctx *c = &gg_G;
    gg_state *st = c->d_st;
    const gg_dict dict = {c->d_dict_len, c->d_dict_log2q, c->n_books};
    const gg_pick_gate other = {&st->lorenzo, &st->slice, 1};
    cudaError_t e;
    if (runs && (e = gg_run_stats(c->sym.p, j->n0, NULL, j->n - j->n0, &j->runs, st->run_st_o, other,
                                  &st->runs_other, s)) != cudaSuccess)
        return e;
    if ((e = cudaStreamWaitEvent(s, c->ev_bjoin, 0)) != cudaSuccess ||
        (e = gg_book_select_planes_gated(st->hist, st->hist_pl[0], st->hist_pl[1], dict, a->score, st->sel_pl,
                                         &st->sel_work, other, 0, s)) != cudaSuccess)
        return e;
    return runs ? cudaStreamWaitEvent(s, c->ev_rjoin, 0) : cudaSuccess;
}

/* Range and level bounds, tuning, predictor choice (format 6: the block
 * trial, with the chunk's interpolation speculating beside it), on stream s. */
static cudaError_t front_predictor(const front_args *a, int timed, cudaStream_t s, const gg_par *par, gg_spec *spec)
{
    const enc_job *j = a->j;
    gg_ctx *c = &gg_G;
    gg_state *st = c->d_st;
    cudaError_t e;
    /* no reset ahead: range_k zeroes the state (st->rng is zero already,
     * gg_G.rng_reset); a memset, in the graph or before it, only added a
     * gap before range_k */
    if ((e = gg_range_plan(c->x.p, j->g, a->mode, a->eb, a->alpha, j->method != GG_LORENZO && !j->force, st, c->d_slots,
                           s)) != cudaSuccess)
        return e;
    if (timed) gg_stage("range+plan");
    const gg_dict tdict = {c->d_dict_len, c->d_dict_log2q, c->n_books};
    if (j->force) return gg_slice_force(st, (unsigned)j->force - 1, s);
    if (j->method == GG_LORENZO) return cudaSuccess;
    /* the block trial's Lorenzo and slices run beside tuning */
    if (j->method == GG_CHOSEN3 &&
        (e = gg_trial_run(c->x.p, j->g, j->tg, j->tb, j->lorenzo_ok, st, c->d_tst, c->d_trial, c->tx.p, c->tsym.p,
                          c->tr.p, c->tw.p, tdict, c->d_trial_work, par, 0, NULL, &a->launch, s)) != cudaSuccess)
        return e;
    if ((e = gg_tune(c->x.p, j->g, a->k, j->method == GG_CHOSEN, st, par, s)) != cudaSuccess) return e;
    if (timed) gg_stage("tune");
    if (j->method == GG_CHOSEN) {
        if ((e = gg_choose(c->x.p, j->g, a->k, st, s)) != cudaSuccess) return e;
        if (timed) gg_stage("choose predictor");
    }
    if (j->method == GG_CHOSEN3) {
        spec->on = a->spec;
        if ((e = gg_trial_run(c->x.p, j->g, j->tg, j->tb, j->lorenzo_ok, st, c->d_tst, c->d_trial, c->tx.p, c->tsym.p,
                              c->tr.p, c->tw.p, tdict, c->d_trial_work, par, 1, spec, &a->launch, s)) != cudaSuccess)
            return e;
        if (timed) gg_stage("block trial");
    }
    return cudaSuccess;
}

/* Everything before the entropy plan: range and level bounds, tuning,
 * predictor choice, prediction with quantization and histogram, dictionary
 * book choice, format 8's run statistics, on stream s. Only enqueues. */
static cudaError_t front_body(const void *arg, int timed, cudaStream_t s)
{
    const front_args *a = arg;
    const enc_job *j = a->j;
    gg_ctx *c = &gg_G;
    gg_state *st = c->d_st;
    const gg_par *par = s == c->s_hi && j->g.count <= GG_HI_SPEC_POINTS ? &c->par_hi : &c->par;
    gg_spec spec = {0, c->sym.p, c->r.p, c->w.p, j->in_place && c->test.hist0_kernel};
    cudaError_t e;
    if ((e = front_predictor(a, timed, s, par, &spec)) != cudaSuccess) return e;
    const int method = spec.on ? GG_CHOSEN3_SPEC : j->method;
    /* every kernel that may store the symbols counts plane 0: no hist0_k */
    const int h0_all = j->planes && j->in_place && gg_encode_counts_hist0(j->g, method, st, spec.hist0);
    const gg_dict dict = {c->d_dict_len, c->d_dict_log2q, c->n_books};
    const int pdl_tail = (a->launch.pdl & GG_PDL_TAIL) != 0;
    /* spec_beside reads the planes in place: so does the encoder wherever h0_all */
    const int beside = spec.on && h0_all && !timed, runs = j->planes && j->o->runs;
    if (beside && (e = spec_beside(a, par, runs)) != cudaSuccess) return e;
    if ((e = gg_encode(c->x.p, j->g, method, st, c->sym.p, c->r.p, c->w.p, par, spec.hist0, &a->launch, s)) != cudaSuccess)
        return e;
    if (timed) gg_stage("predict+quantize+histogram");
    if (j->planes) { /* format 5: the planes and their histograms, a book each */
        if ((e = !j->in_place ? gg_planes_split(c->sym.p, j->g, j->n0, c->sym_p.p, st, s)
                 : h0_all     ? cudaSuccess
                              : gg_planes_hist0(c->sym.p, &j->runs, j->n0, st, pdl_tail, s)) != cudaSuccess)
            return e;
        if (timed) gg_stage(j->in_place ? "plane 0 histogram" : "planes split");
        if (beside) {
            if ((e = spec_other(a, runs, s)) != cudaSuccess) return e;
        } else if ((e = gg_book_select_planes(st->hist, st->hist_pl[0], st->hist_pl[1], dict, a->score, st->sel_pl,
                                              &st->sel_work, pdl_tail, s)) != cudaSuccess) {
            return e;
        }
    } else if ((e = gg_book_select(st->hist, dict, a->score, &st->sel, c->d_sel_work, s)) != cudaSuccess) {
        return e;
    }
    if (timed) gg_stage("book select");
    if (runs && !beside) { /* format 8: what runs would give each plane, for the host's plan */
        const uint16_t *p0 = j->in_place ? (const uint16_t *)c->sym.p : (const uint16_t *)c->sym_p.p;
        const uint16_t *p1 = j->in_place ? NULL : p0 + gg_plane1_base(j->n0);
        if ((e = gg_run_stats(p0, j->n0, p1, j->n - j->n0, j->in_place ? &j->runs : NULL, st->run_st, (gg_pick_gate){0},
                              NULL, s)) != cudaSuccess)
            return e;
        if (timed) gg_stage("run statistics");
    }
    return cudaSuccess;
}

/* Chunks of more than GG_HI_POINTS run the front on s_hi, at the greatest
 * stream priority, forked from gg_G.s and joined back: its kernels' blocks
 * (range, tuning, the blends, the block trial's interpolation and pick,
 * the planes) are dispatched before those of the side streams' kernels at
 * default priority (the trial's Lorenzo and slices, the speculated
 * interpolation) whenever both wait for room, which shortened tuning
 * beside the trial's side encoders. Smaller chunks lost time with it.
 * Stage timing (events on gg_G.s between stages) keeps gg_G.s. */
static cudaError_t front_enqueue(const void *arg, int timed)
{
    const front_args *a = arg;
    gg_ctx *c = &gg_G;
    if (timed || !c->s_hi || a->j->g.count <= GG_HI_POINTS) return front_body(arg, timed, c->s);
    cudaError_t e = cudaEventRecord(c->hi_fork, c->s);
    if (e == cudaSuccess) e = cudaStreamWaitEvent(c->s_hi, c->hi_fork, 0);
    if (e != cudaSuccess) return e;
    e = front_body(arg, timed, c->s_hi);
    /* joined whatever the body did: gg_G.s's next work must follow it */
    cudaError_t e2 = cudaEventRecord(c->hi_join, c->s_hi);
    if (e2 == cudaSuccess) e2 = cudaStreamWaitEvent(c->s, c->hi_join, 0);
    return e != cudaSuccess ? e : e2;
}

size_t gg_encode_front(const front_args *a)
{
    gg_ctx *c = &gg_G;
    struct {
        const void *x, *sym, *r, *w, *st, *len, *log2q, *sym_p;
        double eb, alpha;
        uint64_t k, n0;
        int mode, score, method, planes, force, lorenzo_ok, spec, blend_first, coarse_merge;
        unsigned pdl, commit_grid;
        long long split_points;
        unsigned n_books;
        gg_grid g, tg;
        gg_trial_boxes tb;
        const void *tx, *tsym, *tr, *tw;
    } k;
    memset(&k, 0, sizeof k);
    k.x = c->x.p, k.sym = c->sym.p, k.r = c->r.p, k.w = c->w.p, k.st = c->d_st, k.len = c->d_dict_len,
    k.log2q = c->d_dict_log2q;
    k.sym_p = c->sym_p.p, k.n0 = a->j->n0, k.planes = a->j->planes | a->j->in_place << 1 | c->test.hist0_kernel << 2;
    k.planes |= (a->j->planes && a->j->o->runs) << 3; /* the run statistics */
    k.eb = a->eb, k.alpha = a->alpha, k.k = a->k, k.mode = a->mode, k.score = a->score, k.method = a->j->method;
    k.n_books = c->n_books, k.g = a->j->g;
    k.force = a->j->force, k.lorenzo_ok = a->j->lorenzo_ok, k.tg = a->j->tg, k.tb = a->j->tb, k.spec = a->spec;
    k.tx = c->tx.p, k.tsym = c->tsym.p, k.tr = c->tr.p, k.tw = c->tw.p;
    /* the instances the chunk before worked with launched first: a field
     * keeps blending or not from chunk to chunk, and the working
     * instance's blocks then go first */
    front_args fa = *a;
    fa.launch.blend_first = c->last_blend;
    /* the launch settings shape the captured graph (the tests change them) */
    k.blend_first = fa.launch.blend_first, k.coarse_merge = fa.launch.coarse_merge, k.pdl = fa.launch.pdl;
    k.commit_grid = fa.launch.commit_grid, k.split_points = fa.launch.split_points;
    size_t r = 0;
    int used;
    CK(gg_graphed(&c->front[k.blend_first], &k, sizeof k, front_enqueue, &fa, &used), "encode front");
    if (used) gg_stage("range..book select (graph)");
done:
    return r;
}
