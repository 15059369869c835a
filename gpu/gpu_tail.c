/* The encoder's tail, after the entropy plan: anchors, outliers, the
 * Huffman stream (format 5: both planes; format 8: runs_encode.cu's
 * encoder), its size and the CRC, the same kernels whichever side planned
 * (st->place says where, gg_G.d_enc and gg_G.d_rc hold the codes), queued
 * as one graph (gpu_graph.c). */
#include "gg_context.h"

#include <string.h>

/* The encoder's look-back words in gg_G.scratch, which the plan's kernel
 * (gg_plan or gg_apply_plan, always the tail's predecessor) zeroes; none
 * if the scratch could not hold them, and the encoder zeroes them itself. */
gg_words gg_enc_words(const enc_job *j)
{
    const uint64_t n0 = j->planes ? j->n0 : j->n;
    gg_words z = {(uint64_t *)gg_G.scratch.p, gg_huff_encode_words(n0, j->n - n0)};
    if (z.n > gg_G.scratch.cap / sizeof(uint64_t)) z.p = NULL, z.n = 0;
    return z;
}

/* Anchors, outliers, Huffman stream, stream size and CRC: the same kernels
 * whichever side planned (st->place says where, and gg_G.d_enc holds the
 * code). Only enqueues. */
static cudaError_t tail_enqueue(const void *arg, int timed)
{
    const enc_job *j = arg;
    gg_ctx *c = &gg_G;
    gg_state *st = c->d_st;
    uint8_t *buf = c->buf.p;
    cudaError_t e;
    /* The anchors and outliers beside the Huffman encoder, on a side
     * stream joined before the CRC: both only read the symbols and the
     * plan, and they write apart in the stream buffer. Stage timing keeps
     * one stream. With the encoder's words zeroed ahead (gg_enc_words),
     * the encoder's blocks are often dispatched first and the outliers'
     * kernels wait for them; on large chunks their side stream has the
     * greatest priority, which helps at 512^3 (docs/DESIGN.md). */
    const int beside = !timed;
    cudaStream_t so = !beside ? c->s : j->g.count > GG_HI_POINTS ? c->par_hi.aux[0] : c->par.aux[0];
    if (beside && ((e = cudaEventRecord(c->tail_fork, c->s)) != cudaSuccess ||
                   (e = cudaStreamWaitEvent(so, c->tail_fork, 0)) != cudaSuccess))
        return e;
    e = gg_anchors_outliers(c->x.p, j->g, c->sym.p, c->pos.p, st, buf, so);
    if (timed && e == cudaSuccess) gg_stage("anchors+outliers");
    /* format 5: both planes in the same launches, plane 1's stream after plane 0's */
    const uint64_t n0 = j->planes ? j->n0 : j->n;
    const int split = j->planes && !j->in_place;
    const uint16_t *sym0 = split ? (const uint16_t *)c->sym_p.p : (const uint16_t *)c->sym.p;
    const uint16_t *sym1 = split ? sym0 + gg_plane1_base(n0) : NULL;
    const gg_enc_fin fin = {&st->crc_len, &st->total};
    const gg_plane_runs *runs = j->in_place ? &j->runs : NULL;
    if (e == cudaSuccess && j->run_planes) /* format 8: a plane run-coded */
        e = gg_runs_encode_placed(sym0, n0, sym1, j->n - n0, runs, j->run_planes, c->d_enc, c->d_rc, buf, &st->place,
                                  &st->stream_bytes, &fin, c->scratch.p, c->scratch.cap, gg_enc_words(j).n != 0, c->s);
    else if (e == cudaSuccess)
        e = gg_huff_encode_placed(sym0, n0, sym1, j->n - n0, runs, c->d_enc, buf, &st->place, &st->stream_bytes, &fin,
                                  c->scratch.p, c->scratch.cap, gg_enc_words(j).n != 0, c->s);
    if (beside) { /* joined whatever was enqueued: the CRC reads both */
        cudaError_t e2 = cudaEventRecord(c->tail_join, so);
        if (e2 == cudaSuccess) e2 = cudaStreamWaitEvent(c->s, c->tail_join, 0);
        if (e == cudaSuccess) e = e2;
    }
    if (e != cudaSuccess) return e;
    if (timed) gg_stage("huffman encode");
    if ((e = gg_finish(buf, j->raw_total - GLIDE_CRC_BYTES, st, c->scratch.p, c->scratch.cap, c->s)) != cudaSuccess)
        return e;
    if (timed) gg_stage("crc");
    const uint64_t lim = gg_deliver_limit(j->raw_total);
    if (!lim) return cudaSuccess;
    return gg_deliver(buf, st, c->h_out.p, lim, c->dh_st, c->dh_flag + GG_FLAG_DELIVERED, c->s);
}

/* What the tail's graph depends on: a job with another key captures it anew */
typedef struct {
    const void *x, *sym, *pos, *buf, *scratch, *enc, *rc, *st, *sym_p, *h_out;
    size_t scratch_cap, deliver;
    uint64_t n, raw_total, n0;
    int planes;
    unsigned run_planes; /* the encoder: huff_encode.cu's, or runs_encode.cu's for these planes */
    gg_grid g;
} tail_key;

static void tail_key_of(const enc_job *j, tail_key *k)
{
    const gg_ctx *c = &gg_G;
    memset(k, 0, sizeof *k); /* padding too: the key is compared as bytes */
    k->x = c->x.p, k->sym = c->sym.p, k->pos = c->pos.p, k->buf = c->buf.p, k->scratch = c->scratch.p;
    k->enc = c->d_enc, k->rc = c->d_rc;
    k->st = c->d_st, k->scratch_cap = c->scratch.cap, k->n = j->n, k->raw_total = j->raw_total, k->g = j->g;
    k->sym_p = c->sym_p.p, k->n0 = j->n0, k->planes = j->planes | j->in_place << 1, k->run_planes = j->run_planes;
    k->h_out = c->h_out.p, k->deliver = gg_deliver_limit(j->raw_total);
}

/* The tail's graph for j's encoder (gg_ctx.tail) */
static gg_graph *tail_graph(const enc_job *j)
{
    return &gg_G.tail[j->run_planes == GG_RUNS_FROM_PLAN ? 4u : j->run_planes & 3u];
}

/* 1 if gg_encode_tail(j) would replay the graph it last launched: no
 * capture, and no kernel the process has not launched before */
int gg_tail_replays(const enc_job *j)
{
    const gg_graph *t = tail_graph(j);
    if (!gg_G.test.graphs || !t->ok) return 0;
    tail_key k;
    tail_key_of(j, &k);
    return t->klen == sizeof k && memcmp(t->key, &k, sizeof k) == 0;
}

size_t gg_encode_tail(const enc_job *j)
{
    tail_key k;
    tail_key_of(j, &k);
    size_t r = 0;
    int used;
    CK(gg_graphed(tail_graph(j), &k, sizeof k, tail_enqueue, j, &used), "encode tail");
    if (used) gg_stage("anchors..crc (graph)");
done:
    return r;
}
