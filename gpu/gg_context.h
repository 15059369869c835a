/* The GPU backend's host side, internal: the per-process context (device,
 * streams, buffers grown on demand and kept, the dictionary on the device)
 * and the steps gpu/gpu_*.c share. The path of one chunk (the kernels in
 * predict.cu, book_select.cu, assemble.cu, huff_encode.cu, crc32.cu ...):
 *   gpu_context.c    the context: device pick, setup, the environment, stage timing
 *   gpu_compress.c   glide_gpu_compress: the encoder's steps in order
 *   gpu_transfer.c   the values' uploads and downloads (pinned staging, the gated upload)
 *   gpu_front.c      before the entropy plan: range and level bounds, tuning, prediction, books
 *   gpu_plan.c       the entropy plan: the device's, re-checked, or the host's behind a gate
 *   gpu_tail.c       after it: anchors, outliers, the Huffman stream, the CRC
 *   gpu_graph.c      the front and the tail each captured and replayed as a CUDA graph
 *   gpu_decompress.c glide_gpu_decompress
 * Not part of the shipped interface (gpu_backend.h): the tests' hooks
 * (h5tests/gpu/gpu_test_hooks.c) reach the context through gg_context(). */
#ifndef GLIDE_GG_CONTEXT_H
#define GLIDE_GG_CONTEXT_H
#include "gpu_backend.h"
#include "gg_assemble.h"
#include "gg_huff.h"
#include "gg_planes.h"
#include "gg_predict.h"
#include "host_copy.h"
#include "predict.h"
#include "dict.h"

#include <cuda.h> /* cuStreamWaitValue32's types, reached through the runtime's entry point */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    void *p;
    size_t cap;
} gbuf;

/* One captured launch sequence, and what it was captured for: the
 * arguments its kernels were given, compared byte for byte. */
#define GG_KEY_MAX 512
typedef struct {
    int ok;
    cudaGraphExec_t exec;
    size_t klen;
    unsigned char key[GG_KEY_MAX];
} gg_graph;

/* h_gate's words after the gated upload's: the host plan's gate, and the
 * state's arrival (gg_plan_gate_queue) */
#define GG_PLAN_GATE GG_COPY_MAX_PIECES
#define GG_STATE_WORD (GG_COPY_MAX_PIECES + 1)
#define GG_GATE_WORDS (GG_COPY_MAX_PIECES + 2)

/* Who planned a compressed chunk's entropy stage (the tests and the
 * benchmark read it): the device alone (a dictionary book); the device,
 * which found the chunk incompressible (RAW); the host, handed the
 * histogram because a custom book may win; the host (forced, or a trial
 * dictionary, or the previous stream had a custom book or a run-coded
 * plane); the host after the two disagreed (possible only for a tie within
 * rounding in GLIDE_BOOK_AUTO's entropy test); or the host after the
 * device's plan of plain planes, where its re-check found a run-coded
 * plane smaller (format 8: the device plans no runs). */
enum {
    GG_PLANNED_DEVICE,
    GG_PLANNED_RAW,
    GG_PLANNED_HOST_BOOK,
    GG_PLANNED_HOST,
    GG_PLANNED_DISAGREED,
    GG_PLANNED_HOST_RUNS,
    GG_PLANNED_KINDS
};
/* Who plans the next chunks' entropy stage: AUTO, the device unless the
 * previous stream had a custom book or a run-coded plane; HOST always the
 * host (the fallback path); DEVICE always the device. Only the tests
 * choose. */
enum { GG_PLANNER_AUTO, GG_PLANNER_HOST, GG_PLANNER_DEVICE };

typedef struct {
    int ok, broken, device;
    int debug;     /* GLIDE_GPU_DEBUG: say on stderr why the GPU gave a chunk up */
    int rng_reset; /* st->rng to zero before the next front (a failure: range_k's invariant, gg_state.h) */
    char name[300];
    cudaStream_t s;
    /* the encoder front of large chunks (gpu_graph.c), at the greatest priority; NULL without priorities */
    cudaStream_t s_hi;
    cudaEvent_t hi_fork, hi_join;
    cudaEvent_t tail_fork, tail_join; /* the tail's anchors and outliers beside the Huffman encoder */
    gg_par par; /* side streams: the prediction instances (gg_encode), the blends beside tuning (gg_tune) */
    /* par for the front on s_hi: side streams 0 and 1 at the greatest
     * priority too (the speculated interpolation, trial_run), 2 and 3
     * par's (the block trial's Lorenzo and slices, at the default) */
    gg_par par_hi;
    pthread_mutex_t lock;
    uint8_t *d_dict_len;
    float *d_dict_log2q;
    glide_huff_dec *d_dict_dec;
    glide_huff_enc *d_dict_enc; /* every book's codewords: a dictionary chunk uploads no code */
    unsigned n_books;
    const glide_dictionary *dict; /* the one on the device: GLIDE_DICT_VERSION's */
    gg_state *d_st, *h_st, *dh_st; /* h_st: mapped, dh_st its device address */
    gg_select_work *d_sel_work;
    uint64_t *h_flag, *dh_flag;    /* gg_plan's word to the host (mapped), and the chunk number */
    /* the gated upload (gate_arm): one mapped word a DMA, set to the
     * call's number once the helpers have copied its pieces; then the host
     * plan's word (GG_PLAN_GATE, plan_gate_queue) */
    uint32_t *h_gate, *dh_gate;
    CUresult (*wait32)(CUstream, CUdeviceptr, cuuint32_t, unsigned); /* NULL: no gated uploads */
    struct {
        uint32_t seq;
        int armed;                            /* the copy posted, not yet joined */
        size_t per_group;                     /* pieces one DMA moves */
        atomic_uint left[GG_COPY_MAX_PIECES]; /* a group's pieces still being copied */
    } gate;
    struct {
        uint32_t seq;
        int on;    /* 0 (a test hook): every host plan's tail queued after the plan, as a first launch's is */
        int armed; /* the tail is queued behind the word: plan_gate_open must follow */
        int apply_launched; /* apply_plan_k was launched before (it may then go behind the gate) */
        /* the last host plan run-coded other planes than the tail had
         * guessed (chunks over GG_PLAN_RUNS_POINTS): the next tail, whose
         * encoder is again a guess, is queued after its plan, where a miss
         * behind the gate runs a whole tail empty */
        int missed;
    } pgate;
    uint64_t seq;
    glide_huff_enc *d_enc;         /* GLIDE_NPLANES: format 5's planes' codes (else the first) */
    glide_run_code *d_rc;          /* GLIDE_NPLANES: format 8's class codes, a plane's all off where it is plain */
    gg_apply *h_apply, *dh_apply;  /* the host's plan (mapped), and its device address */
    glide_huff_dec *d_dec, *h_dec;
    uint8_t *h_head; /* header + custom books, uploaded */
    gbuf x, sym, pos, buf, r, w, scratch, h_out; /* r, w: interpolation scratch for boxes too large for shared memory */
    gbuf sym_p;                                  /* format 5: the symbols in plane order */
    /* format 6's block trial (gg_trial_run): its state, histograms and
     * scores, and the sample's values, symbols and scratch */
    gg_state *d_tst; /* GG_TRIAL_METHODS of them */
    gg_trial *d_trial;
    gg_select_work *d_trial_work; /* GG_TRIAL_METHODS of them: the books are chosen side by side */
    gg_range_slot *d_slots;       /* range_k's blocks' extremes (GG_RANGE_SLOTS) */
    gbuf tx, tsym, tr, tw;
    gbuf h_stage;          /* pinned: the chunk's values on their way in or out */
    size_t stage_refused;  /* a pinned staging size the driver refused: not asked again */
    unsigned copy_helpers; /* threads of the parallel host copy (0: pageable copies) */
    cudaEvent_t ev_piece[GG_COPY_MAX_PIECES]; /* a download's pieces, in the pinned buffer */
    /* values_out_k's download: a mapped word a piece, raised to out_seq
     * once the piece is in h_stage; its blocks' count per piece; an event
     * behind the kernel (a word that never comes is an error once it has) */
    uint32_t *h_out_words, *dh_out_words, *d_out_cnt, out_seq;
    cudaEvent_t ev_out;
    int timing;
    int last_plan;   /* GG_PLANNED_* of the last compressed chunk */
    int last_gated;  /* the last host-planned chunk's tail was queued behind the plan's gate */
    int last_requeued; /* and ran empty there, for the other encoder (gpu_compress.c host_planned) */
    int custom_last; /* the last stream written had a custom book */
    unsigned runs_last; /* the last stream written had run-coded planes (bit p: plane p) */
    int spec_large;  /* chunks over GG_SPEC_POINTS speculate: the last trial picked interpolation */
    int last_blend;  /* the last chunk's tuning blended a level: the next launches its blended instances first */
    gg_launch launch; /* the prediction kernels' launch settings (gg_predict.h); blend_first: each chunk's own copy */
    /* the test hooks' switches (h5tests/gpu/gpu_test_hooks.h); the
     * defaults are what ships */
    struct {
        /* the next n calls fail: anywhere, after the upload, behind the plan's gate */
        int inject, inject_late, inject_plan;
        int out_lost; /* the next n kernel-written downloads raise no piece's word */
        int planner;                          /* GG_PLANNER_* */
        int graphs;                           /* 0: the kernels launched one by one (a stage each under timing) */
        int hist0_kernel;                     /* 0: plane 0 always counted by the pass after the kernels */
        int keep_hist0;                       /* keep each chunk's plane 0 histogram in last_h0 */
        int guess_runs;                       /* host-planned tails of every size guess their run-coded planes */
    } test;
    int last_h0_made; /* who counted last_h0: 1 interpolation, 2 Lorenzo or the slices, 0 the pass; -1 none */
    int last_runs_other; /* the last chunk's gg_state.runs_other (kept with last_h0) */
    uint64_t last_h0[GLIDE_NSYM];
    /* the front's graphs by the order of the interpolation's instances
     * (launch.blend_first), the tail's by its encoder (enc_job.run_planes,
     * GG_RUNS_FROM_PLAN the last): a field whose chunks change between
     * blending and not, or between run-coded planes, does not capture a
     * graph each time */
    gg_graph front[2], tail[5];
    cudaStream_t s_book;
    cudaEvent_t ev_bjoin, ev_rjoin;
    cudaEvent_t ev[GG_MAX_STAGES + 1];
    cudaEvent_t ev_plan; /* after gg_plan: the host waits on it, not on the stream */
    cudaStream_t s_st;   /* the state's early copy, beside the tail (glide_gpu_compress) */
    cudaEvent_t ev_st;
    const char *ev_name[GG_MAX_STAGES];
    int n_ev;
    glide_gpu_stages last;
} gg_ctx;

/* Contexts on the one device: up to this many calls run at once. */
#define GG_MAX_CONTEXTS 16
/* The context of this thread's call (gpu_context.c); outside a call, the
 * first one. Not exported from libglide.so. */
extern _Thread_local gg_ctx *gg_cur;
#define gg_G (*gg_cur)
/* A call's context, locked and made gg_cur: a free one, else one waited
 * for; NULL without a usable GPU. gg_release unlocks it. */
gg_ctx *gg_acquire(void);
void gg_release(gg_ctx *c);
/* The first context, for the tests' hooks, set up (glide_gpu_usable) first. */
gg_ctx *gg_context(void);

/* Stage timing (glide_gpu_time_stages): an event after each step. */
void gg_stage(const char *name);
void gg_stages_begin(void);
void gg_stages_end(void); /* after the final synchronisation */

/* Device and pinned buffers grown to need bytes (kept between chunks):
 * 1, or 0 when the memory cannot be had. */
int gg_grow_dev(gbuf *b, size_t need);
int gg_grow_host(gbuf *b, size_t need);

/* A CUDA failure: joins and opens whatever the stream might wait on, stops
 * using the GPU after a sticky error, returns GLIDE_ERROR(GPU). */
size_t gg_fail(cudaError_t e, const char *what);
/* For functions with a size_t r and a done: label. */
#define CK(call, what)                                                                                 \
    do {                                                                                               \
        cudaError_t e_ = (call);                                                                       \
        if (e_ != cudaSuccess) { r = gg_fail(e_, what); goto done; }                                  \
    } while (0)

/* The codec's grid as the kernels take it. */
gg_grid gg_grid_of(const glide_grid *cg, unsigned dtype);

/* Scratch for one chunk: the steps of one stream share it from offset 0;
 * the decoder's CRC check, where it runs beside them, takes its part past
 * the largest of them. */
size_t gg_crc_scratch_off(uint64_t n);
size_t gg_scratch_need(uint64_t n, uint64_t buf_bytes);
/* Decompression's: gg_scratch_need's, then from gg_dec_fork_off the
 * scratch of a plane decoded beside the other (gpu_decompress.c). */
size_t gg_dec_fork_off(uint64_t n, uint64_t buf_bytes);
size_t gg_dec_scratch_need(uint64_t n, uint64_t buf_bytes);

/* gpu_transfer.c */
cudaError_t gg_upload_values(void *d, const void *src, size_t bytes);
int gg_gate_arm(void *d, const void *src, size_t bytes);
void gg_gate_fill(void);
cudaError_t gg_download_values(void *dst, const void *d, size_t bytes, void *tail_dst, const void *tail_src,
                               size_t tail_bytes);
cudaError_t gg_download_queue(size_t bytes, size_t state_from);
/* values_out.cu */
cudaError_t gg_values_out(const void *d, uint64_t bytes, uint64_t piece, void *h, uint32_t *d_cnt, uint32_t *dh_words,
                          uint32_t seq, cudaStream_t s);
size_t gg_download(size_t bytes);
uint64_t gg_deliver_limit(uint64_t raw_total);

/* The chunk as the encoder sees it, for the steps of gpu_compress.c,
 * gpu_graph.c and gpu_plan.c. */
typedef struct {
    const glide_params *p;
    const glide_encode_opts *o;
    gg_grid g;
    uint64_t n;
    size_t esz, raw_total;
    int method; /* GG_* */
    int planes; /* format 5: a book per symbol plane (glide_encode_opts.planes) */
    uint64_t n0; /* its plane 0's symbols */
    int in_place; /* the encoder reads the planes in place from the raster order (runs), no split */
    gg_plane_runs runs;
    /* format 8: the planes the tail codes with runs (bit p: plane p), as
     * planned, or before the plan GG_RUNS_FROM_PLAN (the plan's, read on
     * the device) or a guess, for a tail queued behind the plan's gate
     * (gg_plan_gate_queue) */
    unsigned run_planes;
    /* format 6 (method GG_CHOSEN3): force = a forced slice order + 1, else
     * 0 and the block trial on the sample tb, stacked as grid tg, with
     * Lorenzo among its candidates where lorenzo_ok */
    int force, lorenzo_ok;
    gg_grid tg;
    gg_trial_boxes tb;
} enc_job;

/* Chunks over this many points run parts at the greatest stream priority:
 * the front (gpu_front.c) and the tail's outliers (gpu_tail.c). */
#define GG_HI_POINTS ((uint64_t)1 << 19)

/* Everything before the entropy plan, as gg_encode_front's argument. */
typedef struct {
    const enc_job *j;
    int mode, score;
    double eb, alpha;
    uint64_t k; /* tuning sample stride */
    int spec;   /* the chunk's interpolation speculates beside the block trial's */
    gg_launch launch; /* gg_G.launch with this chunk's blend_first (gg_encode_front) */
} front_args;

/* gpu_graph.c: enqueues f on gg_G.s as one launch of the graph captured
 * for key (*used = 1), capturing it first where c holds another key (or
 * none); plainly where the graphs are off or the key too long. */
typedef cudaError_t (*enqueue_fn)(const void *arg, int timed);
cudaError_t gg_graphed(gg_graph *c, const void *key, size_t klen, enqueue_fn f, const void *arg, int *used);
/* gpu_front.c */
size_t gg_encode_front(const front_args *a);
/* gpu_tail.c: the tail; 1 if it would replay its last graph (no capture,
 * no kernel the process has not launched before); the encoder's look-back
 * words, which the plan's kernel zeroes */
size_t gg_encode_tail(const enc_job *j);
int gg_tail_replays(const enc_job *j);
gg_words gg_enc_words(const enc_job *j);

/* gpu_plan.c */
size_t gg_host_plan(const enc_job *j, const gg_state *hs, glide_header *h, glide_entropy_plan *plan);
int gg_host_plan_post(const enc_job *j, const glide_header *hh, const glide_entropy_plan *plan);
size_t gg_plan_gate_queue(const enc_job *j, int *queued);
void gg_plan_gate_open(int with_plan);
int gg_state_wait(void);
unsigned gg_plan_flag(uint64_t seq, uint64_t *bound);

#ifdef __cplusplus
}
#endif
#endif
