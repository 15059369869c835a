/* The GPU backend's host side: one per-process context (device, stream,
 * buffers grown on demand and kept, the dictionary on the device), and the
 * per-chunk pipelines. The device takes the codebook decision and lays
 * the stream out itself (gg_plan) for dictionary books, so the whole
 * pipeline is queued at once and the device never waits for the host; the
 * host waits for the plan kernel alone (the tail keeps running) to learn
 * how many bytes to copy back, and re-checks the decision with the CPU
 * codec's own code once the stream is back. Where a custom book may win
 * (or the user asked for one), gg_plan hands the histogram over through
 * mapped memory; the host builds the book as the CPU codec does and queues
 * the tail again behind the device's empty one.
 *
 * The launch sequences before the plan (range .. book choice) and after it
 * (anchors .. CRC) are the same for every chunk of one shape and bound:
 * everything that varies per chunk sits in device memory. Each is captured
 * once as a CUDA graph and replayed with one launch, so a small chunk's
 * device no longer waits on about ten host launches after the host's
 * codebook work; recaptured when a buffer, the shape or a parameter
 * changes. With stage timing, a graph is one stage; with the graphs off
 * (glide_gpu_use_graphs), the kernels go one by one and events sit between
 * the stages. */
#include "gpu_backend.h"
#include "gg_assemble.h"
#include "gg_huff.h"
#include "gg_planes.h"
#include "gg_predict.h"
#include "host_copy.h"
#include "huff_codec.h"
#include "predict.h"
#include "dict.h"
#include "bytes.h"

#include <cuda.h> /* cuStreamWaitValue32's types, reached through the runtime's entry point */
#include <cuda_runtime.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

/* The gated upload (gate_arm): from 1 MiB; the helpers copy pieces of at
 * least 64 KiB, and one DMA moves 512 KiB of them (or a piece, if larger).
 * A DMA a 256 KiB piece, each behind its own wait, took a 64^3 call 177.1
 * us; 64 KiB pieces in two DMAs 159.4 (one DMA of 1 MiB: 167.5, four of
 * 256 KiB: 169.8, sixteen of 64 KiB: 225.4; H200 host, gpu_probe 64 300
 * fresh, medians of three alternated rounds, bench/gpu-runs/s1127c run 1).
 * Each wait costs the copy engine about 3.4 us, and a piece's DMA cannot
 * start before its copy is done: the first half moves while the helpers
 * copy the second. */
#define GG_GATE_MIN ((size_t)1 << 20)
#define GG_GATE_PIECE ((size_t)64 << 10)
#define GG_GATE_DMA ((size_t)512 << 10)
/* h_gate's words after the upload's: the host plan's gate, and the state's arrival (plan_gate_queue) */
#define GG_PLAN_GATE GG_COPY_MAX_PIECES
#define GG_STATE_WORD (GG_COPY_MAX_PIECES + 1)
#define GG_GATE_WORDS (GG_COPY_MAX_PIECES + 2)

/* Streams of up to this many KiB come back written by the tail's last
 * kernel into pinned host memory (gg_deliver), not by copies queued behind
 * the tail's graph (the first of which started up to 8.6 us after the CRC
 * kernel had ended): 64^3 calls 152.2 -> 145.3 us, faster in each of five
 * alternated rounds (H200 host, gpu_probe 64 300 fresh, medians,
 * bench/gpu-runs/s1127c run 5; 153.1 -> 149.4 in run 6, 152.8 -> 149.8 in
 * run 4). A 1 MiB limit, which took in 128^3 chunks' 400 KB streams too,
 * did not move them beyond noise (run 4). GLIDE_GPU_DELIVER_KB sets it, 0
 * turns it off. */
#define GG_DELIVER_KB 256

typedef struct {
    int ok, broken, device;
    int rng_reset; /* st->rng to zero before the next front (a failure: range_k's invariant, gg_state.h) */
    char name[300];
    cudaStream_t s;
    cudaStream_t s_hi; /* the encoder front of large chunks (GLIDE_GPU_HI_POINTS), at the greatest priority; NULL without priorities */
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
        int on;    /* GLIDE_GPU_PLAN_GATE (default 1) */
        int armed; /* the tail is queued behind the word: plan_gate_open must follow */
        int apply_launched; /* apply_plan_k was launched before (it may then go behind the gate) */
    } pgate;
    uint64_t seq;
    glide_huff_enc *d_enc;         /* GLIDE_NPLANES: format 5's planes' codes (else the first) */
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
    unsigned copy_helpers; /* threads of the parallel host copy (0: pageable copies) */
    cudaEvent_t ev_piece[GG_COPY_MAX_PIECES]; /* a download's pieces, in the pinned buffer */
    int timing, inject, inject_late, inject_plan, planner, last_plan; /* planner: GLIDE_GPU_PLANNER_* */
    int last_gated; /* the last host-planned chunk's tail was queued behind the plan's gate */
    int custom_last; /* the last stream written had a custom book */
    int graphs;      /* replay captured graphs (GLIDE_GPU_GRAPHS=0 or the test hook turn it off) */
    int planes_in_place; /* format 5's planes read in place by the encoder where they can be (plane_runs.h) */
    int spec_large;  /* chunks over GLIDE_GPU_SPEC_POINTS speculate: the last trial picked interpolation */
    int hist0_kernel;             /* plane 0 counted by the unsplit interpolation kernel (glide_gpu_hist0_in_kernel) */
    int keep_hist0, last_h0_made; /* glide_gpu_keep_hist0, glide_gpu_last_hist0 */
    uint64_t last_h0[GLIDE_NSYM];
    /* the front's graphs by the order of the interpolation's instances
     * (blend_first): a field whose chunks change between blending and
     * not does not capture a graph each time */
    gg_graph front[2], tail;
    int blend_order; /* GLIDE_GPU_BLEND_FIRST: -1 by the chunk before (last_blend), 0 plain first, 1 blended first */
    int books_beside; /* GLIDE_GPU_BOOKS_BESIDE: a speculating chunk's books beside its commits (front_body) */
    cudaStream_t s_book;
    cudaEvent_t ev_bfork, ev_bjoin;
    int last_blend;  /* the last chunk's tuning blended a level */
    gg_launch launch; /* how the prediction kernels are launched (blend_first: each chunk's own copy) */
    cudaEvent_t ev[GG_MAX_STAGES + 1];
    cudaEvent_t ev_plan; /* after gg_plan: the host waits on it, not on the stream */
    cudaStream_t s_st;   /* the state's early copy, beside the tail (glide_gpu_compress) */
    cudaEvent_t ev_st;
    uint64_t deliver_max; /* gg_deliver's limit (GLIDE_GPU_DELIVER_KB; 0: the stream is copied back) */
    const char *ev_name[GG_MAX_STAGES];
    int n_ev;
    glide_gpu_stages last;
} gg_ctx;

static gg_ctx G = {.lock = PTHREAD_MUTEX_INITIALIZER};
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* Staging of the chunk's values through pinned memory (staged() below):
 * from (downloads, uploads), up to, and how long idle copy helpers watch
 * for the next chunk before they sleep. Downloads paid at every size on
 * every H200 host, through HDF5 too. Uploads did not, through HDF5: a
 * chunk that fits in the caller's caches arrives dirty there (HDF5 has just
 * filled it), one thread copies it fast, and helpers must pull every line
 * from that core; H5Dwrite of 64^3 and 128^3 chunks measured slower or no
 * faster with them on three of four hosts (docs/DESIGN.md). So uploads are staged
 * from 16 MiB (256^3: 7.8 -> 2.8 ms a call); from 1 MiB the gated
 * upload (gate_arm) has the helpers copy while the caller queues. For the
 * staged ones 0, 20 and 200 us of watching measured the same (the caller
 * copies the first pieces while the helpers wake), but the gated upload
 * leaves the copy to the helpers until its join: 128^3 calls took 762 us
 * with 50 us of watching and 611 with 300 (H200 host, gpu_probe 128 300,
 * medians of three alternated rounds, bench/gpu-runs/s1127b run 3). Idle
 * helpers spin that long after each job before they sleep. */
#define GG_STAGE_DOWN_MIN ((size_t)256 << 10)
#define GG_STAGE_UP_MIN ((size_t)16 << 20)
#define GG_STAGE_MAX ((size_t)256 << 20)
#define GG_COPY_SPIN_NS 300000L

/* Chunks of at most this many points speculate in the block trial
 * (gg_spec): their interpolation runs beside the trial's, off the latency
 * path when the trial picks it; a chunk that picks another method then
 * pays one wasted interpolation (about 25 us of device time at 64^3,
 * beside the trial). Larger chunks speculate only while the last one the
 * trial decided took interpolation (spec_large): a field keeps its method
 * from chunk to chunk, so a miss (a whole wasted interpolation, 340 us at
 * 256^3) comes once per change of method. On an H200 (kernel-only, medians
 * of three rounds, bench/gpu-runs/spec-large-h100-h200 run 4) 256^3
 * compression went from 644.3 to 626.7 us; 512^3 moved within its noise
 * (3888 -> 3885; run 2: 3879 / 3889 -> 3854 / 3862). The trial's own
 * interpolation mostly waits for the chunk's blocks to drain, so the gain
 * is the trial's time that fits in the chunk kernel's last wave. */
#define GLIDE_GPU_SPEC_POINTS ((uint64_t)1 << 19)

static int env_int(const char *name, long *out)
{
    const char *v = getenv(name);
    if (!v || !*v) return 0;
    char *end;
    long x = strtol(v, &end, 10);
    if (*end || x < 0) return 0;
    *out = x;
    return 1;
}

/* GLIDE_DEVICE, else the node-local MPI rank, modulo the device count */
static int pick_device(int count)
{
    long d;
    if (env_int("GLIDE_DEVICE", &d)) {
        if (d < count) return (int)d;
        fprintf(stderr, "glide: GLIDE_DEVICE=%ld but only %d GPU(s); using device %ld\n", d, count, d % count);
        return (int)(d % count);
    }
    static const char *ranks[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID"};
    for (size_t i = 0; i < sizeof ranks / sizeof *ranks; i++)
        if (env_int(ranks[i], &d)) return (int)(d % count);
    return 0;
}

/* A stream memory operation (cuStreamWaitValue32, for the gated upload)
 * from the driver the runtime loaded (no link to libcuda); NULL where it
 * is missing. Stream memory operations are always supported from CUDA 12
 * on, the GEQ wait on every device. */
static CUresult (*value_op_entry(const char *name))(CUstream, CUdeviceptr, cuuint32_t, unsigned)
{
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
    cudaError_t e = cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &q);
#else
    cudaError_t e = cudaGetDriverEntryPoint(name, &fn, cudaEnableDefault, &q);
#endif
    if (e != cudaSuccess || q != cudaDriverEntryPointSuccess) {
        cudaGetLastError();
        return NULL;
    }
    return (CUresult(*)(CUstream, CUdeviceptr, cuuint32_t, unsigned))fn;
}

static void ctx_init(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count <= 0) {
        cudaGetLastError();
        return;
    }
    G.device = pick_device(count);
    struct cudaDeviceProp prop;
    if (cudaSetDevice(G.device) != cudaSuccess || cudaGetDeviceProperties(&prop, G.device) != cudaSuccess) goto fail;
    snprintf(G.name, sizeof G.name, "%s (device %d)", prop.name, G.device);
    if (cudaStreamCreateWithFlags(&G.s, cudaStreamNonBlocking) != cudaSuccess ||
        cudaEventCreateWithFlags(&G.tail_fork, cudaEventDisableTiming) != cudaSuccess ||
        cudaEventCreateWithFlags(&G.tail_join, cudaEventDisableTiming) != cudaSuccess)
        goto fail;
    int prio_hi = 0; /* the greatest stream priority, where there are priorities */
    {
        int least = 0, greatest = 0;
        if (cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess && greatest < least) {
            prio_hi = greatest;
            if (cudaStreamCreateWithPriority(&G.s_hi, cudaStreamNonBlocking, greatest) != cudaSuccess ||
                cudaEventCreateWithFlags(&G.hi_fork, cudaEventDisableTiming) != cudaSuccess ||
                cudaEventCreateWithFlags(&G.hi_join, cudaEventDisableTiming) != cudaSuccess)
                goto fail;
        }
        cudaGetLastError(); /* a device without priorities leaves s_hi NULL */
    }
    const glide_dictionary *d = glide_dict_get(GLIDE_DICT_VERSION);
    G.dict = d;
    G.n_books = d->n_books;
    /* the CE score's distributions: v1 has them, v2 is scored by size only
     * (the CPU codec then scores by size too) */
    const int has_q = d->books[0].log2q != NULL;
    size_t nl = (size_t)d->n_books * GLIDE_NSYM;
    uint8_t *hl = malloc(nl);
    float *hq = has_q ? malloc(nl * sizeof(float)) : NULL;
    glide_huff_dec *hd = malloc(d->n_books * sizeof *hd);
    glide_huff_enc *he = malloc(d->n_books * sizeof *he);
    int ok = hl && (hq || !has_q) && hd && he;
    for (unsigned b = 0; ok && b < d->n_books; b++) {
        memcpy(hl + (size_t)b * GLIDE_NSYM, d->books[b].len, GLIDE_NSYM);
        if (has_q) memcpy(hq + (size_t)b * GLIDE_NSYM, d->books[b].log2q, GLIDE_NSYM * sizeof(float));
        ok = glide_huff_dec_init(&hd[b], d->books[b].len) == 0;
        glide_huff_enc_init(&he[b], d->books[b].len);
    }
    ok = ok && cudaMalloc((void **)&G.d_dict_len, nl) == cudaSuccess &&
         (!has_q || cudaMalloc((void **)&G.d_dict_log2q, nl * sizeof(float)) == cudaSuccess) &&
         cudaMalloc((void **)&G.d_dict_dec, d->n_books * sizeof *hd) == cudaSuccess &&
         cudaMemcpy(G.d_dict_len, hl, nl, cudaMemcpyHostToDevice) == cudaSuccess &&
         (!has_q || cudaMemcpy(G.d_dict_log2q, hq, nl * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess) &&
         cudaMemcpy(G.d_dict_dec, hd, d->n_books * sizeof *hd, cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMalloc((void **)&G.d_dict_enc, d->n_books * sizeof *he) == cudaSuccess &&
         cudaMemcpy(G.d_dict_enc, he, d->n_books * sizeof *he, cudaMemcpyHostToDevice) == cudaSuccess;
    free(hl);
    free(hq);
    free(hd);
    free(he);
    if (!ok) goto fail;
    if (cudaMalloc((void **)&G.d_st, sizeof(gg_state)) != cudaSuccess ||
        cudaMemset(G.d_st, 0, sizeof(gg_state)) != cudaSuccess || /* st->rng: range_k's invariant */
        cudaMalloc((void **)&G.d_tst, GG_TRIAL_METHODS * sizeof(gg_state)) != cudaSuccess ||
        cudaMalloc((void **)&G.d_trial, sizeof(gg_trial)) != cudaSuccess ||
        cudaMalloc((void **)&G.d_trial_work, GG_TRIAL_METHODS * sizeof(gg_select_work)) != cudaSuccess ||
        cudaMalloc((void **)&G.d_slots, GG_RANGE_SLOTS * sizeof(gg_range_slot)) != cudaSuccess ||
        cudaMemset(G.d_trial_work, 0, GG_TRIAL_METHODS * sizeof(gg_select_work)) != cudaSuccess ||
        cudaMalloc((void **)&G.d_sel_work, sizeof(gg_select_work)) != cudaSuccess ||
        cudaMemset(G.d_sel_work, 0, sizeof(gg_select_work)) != cudaSuccess ||
        cudaMalloc((void **)&G.d_enc, GLIDE_NPLANES * sizeof(glide_huff_enc)) != cudaSuccess ||
        cudaMalloc((void **)&G.d_dec, GLIDE_NPLANES * sizeof(glide_huff_dec)) != cudaSuccess ||
        cudaHostAlloc((void **)&G.h_st, sizeof(gg_state), cudaHostAllocMapped) != cudaSuccess ||
        cudaHostGetDevicePointer((void **)&G.dh_st, G.h_st, 0) != cudaSuccess ||
        cudaHostAlloc((void **)&G.h_flag, GG_FLAG_WORDS * sizeof(uint64_t), cudaHostAllocMapped) != cudaSuccess ||
        cudaHostGetDevicePointer((void **)&G.dh_flag, G.h_flag, 0) != cudaSuccess ||
        cudaHostAlloc((void **)&G.h_gate, GG_GATE_WORDS * sizeof(uint32_t), cudaHostAllocMapped) != cudaSuccess ||
        cudaHostGetDevicePointer((void **)&G.dh_gate, G.h_gate, 0) != cudaSuccess ||
        cudaHostAlloc((void **)&G.h_apply, sizeof(gg_apply), cudaHostAllocMapped) != cudaSuccess ||
        cudaHostGetDevicePointer((void **)&G.dh_apply, G.h_apply, 0) != cudaSuccess ||
        cudaMallocHost((void **)&G.h_dec, GLIDE_NPLANES * sizeof(glide_huff_dec)) != cudaSuccess ||
        cudaMallocHost((void **)&G.h_head, GG_APPLY_HEAD_MAX) != cudaSuccess)
        goto fail;
    for (int i = 0; i <= GG_MAX_STAGES; i++)
        if (cudaEventCreate(&G.ev[i]) != cudaSuccess) goto fail;
    if (cudaEventCreateWithFlags(&G.ev_plan, cudaEventDisableTiming) != cudaSuccess ||
        cudaEventCreateWithFlags(&G.ev_st, cudaEventDisableTiming) != cudaSuccess ||
        cudaStreamCreateWithFlags(&G.s_st, cudaStreamNonBlocking) != cudaSuccess ||
        cudaEventCreateWithFlags(&G.par.fork, cudaEventDisableTiming) != cudaSuccess ||
        cudaEventCreateWithFlags(&G.par.ready, cudaEventDisableTiming) != cudaSuccess)
        goto fail;
    for (unsigned i = 0; i < GG_PAR_AUX; i++)
        if (cudaStreamCreateWithFlags(&G.par.aux[i], cudaStreamNonBlocking) != cudaSuccess ||
            cudaEventCreateWithFlags(&G.par.join[i], cudaEventDisableTiming) != cudaSuccess)
            goto fail;
    G.par_hi = G.par; /* the events too: one front runs at a time */
    if (cudaStreamCreateWithPriority(&G.s_book, cudaStreamNonBlocking, prio_hi) != cudaSuccess ||
        cudaEventCreateWithFlags(&G.ev_bfork, cudaEventDisableTiming) != cudaSuccess ||
        cudaEventCreateWithFlags(&G.ev_bjoin, cudaEventDisableTiming) != cudaSuccess)
        goto fail;
    long hi_spec = 1; /* GLIDE_GPU_HI_SPEC=0: par_hi's side streams 0 and 1 at the default (A/B runs) */
    env_int("GLIDE_GPU_HI_SPEC", &hi_spec);
    if (G.s_hi && hi_spec)
        for (unsigned i = 0; i < 2; i++)
            if (cudaStreamCreateWithPriority(&G.par_hi.aux[i], cudaStreamNonBlocking, prio_hi) != cudaSuccess) goto fail;
    for (unsigned i = 0; i < GG_COPY_MAX_PIECES; i++)
        if (cudaEventCreateWithFlags(&G.ev_piece[i], cudaEventDisableTiming) != cudaSuccess) goto fail;
    /* GLIDE_GPU_COPY_THREADS, default 4 helpers (fewer on small hosts) */
    long helpers = sysconf(_SC_NPROCESSORS_ONLN) - 1;
    helpers = helpers < 0 ? 0 : helpers > GG_COPY_DEFAULT_HELPERS ? GG_COPY_DEFAULT_HELPERS : helpers;
    env_int("GLIDE_GPU_COPY_THREADS", &helpers);
    /* GLIDE_GPU_COPY_SPIN_US: how long idle helpers spin (a host whose
     * cores the simulation needs may want less) */
    long spin_us = GG_COPY_SPIN_NS / 1000;
    env_int("GLIDE_GPU_COPY_SPIN_US", &spin_us);
    G.copy_helpers = helpers > 0 ? gg_copy_start((unsigned)helpers, spin_us * 1000) : 0;
    memset(G.h_gate, 0, GG_GATE_WORDS * sizeof(uint32_t));
    long gated = 1;
    env_int("GLIDE_GPU_GATED_UPLOAD", &gated);
    if (gated) G.wait32 = value_op_entry("cuStreamWaitValue32");
    long plan_gate = 1; /* GLIDE_GPU_PLAN_GATE=0: the host plan's tail queued after the plan (A/B runs) */
    env_int("GLIDE_GPU_PLAN_GATE", &plan_gate);
    G.pgate.on = plan_gate != 0;
    long deliver_kb = GG_DELIVER_KB;
    env_int("GLIDE_GPU_DELIVER_KB", &deliver_kb);
    G.deliver_max = deliver_kb > 0 ? (uint64_t)deliver_kb << 10 : 0;
    const char *gv = getenv("GLIDE_GPU_GRAPHS");
    G.graphs = !(gv && strcmp(gv, "0") == 0);
    G.spec_large = 1;
    /* GLIDE_GPU_SPLIT_POINTS: large chunks split their interpolation from that size on (tests) */
    long split_points = -1;
    env_int("GLIDE_GPU_SPLIT_POINTS", &split_points);
    G.launch.split_points = split_points;
    /* GLIDE_GPU_COARSE_MERGE=0: the split's coarse kernel a warp a lattice box (A/B runs) */
    long coarse_merge = 1;
    env_int("GLIDE_GPU_COARSE_MERGE", &coarse_merge);
    G.launch.coarse_merge = coarse_merge != 0;
    /* GLIDE_GPU_PDL: which launches use programmatic dependent launch, a
     * bit set of GG_PDL_* (A/B runs; 0 none); it needs compute capability 9 */
    long pdl = GG_PDL_ALL;
    env_int("GLIDE_GPU_PDL", &pdl);
    G.launch.pdl = prop.major >= 9 ? (unsigned)pdl & GG_PDL_ALL : 0u;
    /* GLIDE_GPU_HIST0_KERNEL=0: plane 0 always counted by hist0_k's pass
     * (A/B runs; glide_gpu_hist0_in_kernel) */
    long hist0_kernel = 1;
    env_int("GLIDE_GPU_HIST0_KERNEL", &hist0_kernel);
    /* GLIDE_GPU_BLEND_FIRST: which interpolation instances a chunk launches
     * first, -1 (default) those the chunk before used, 0 the plain ones, 1
     * the blended ones (A/B runs); the first chunk: blended (the Nyx-like
     * fields blend their finest levels) */
    long blend_order = -1;
    env_int("GLIDE_GPU_BLEND_FIRST", &blend_order);
    G.blend_order = blend_order < 0 ? -1 : blend_order != 0;
    G.last_blend = 1;
    /* GLIDE_GPU_BOOKS_BESIDE=0: a speculating chunk's books after its
     * commits, as before (A/B runs) */
    long books_beside = 1;
    env_int("GLIDE_GPU_BOOKS_BESIDE", &books_beside);
    G.books_beside = books_beside != 0;
    /* GLIDE_GPU_COMMIT_GRID: the gated commits' grid (tests: a few blocks,
     * so that each takes many boxes; 0, the default: the device's fill) */
    long commit_grid = 0;
    env_int("GLIDE_GPU_COMMIT_GRID", &commit_grid);
    G.launch.commit_grid = commit_grid > 0 ? (unsigned)commit_grid : 0u;
    /* GLIDE_GPU_PLANES_IN_PLACE=0: format 5's planes always split out
     * before the encoder (A/B runs, tests) */
    long in_place = 1;
    env_int("GLIDE_GPU_PLANES_IN_PLACE", &in_place);
    G.planes_in_place = in_place != 0;
    G.hist0_kernel = hist0_kernel != 0;
    G.last_h0_made = -1;
    G.ok = 1;
    return;
fail:
    cudaGetLastError();
    fprintf(stderr, "glide: GPU found but its setup failed; using the CPU\n");
}

int glide_gpu_usable(void)
{
    pthread_once(&g_once, ctx_init);
    return G.ok && !G.broken;
}

const char *glide_gpu_device_name(void) { return glide_gpu_usable() ? G.name : "none"; }

unsigned glide_gpu_copy_threads(void) { return glide_gpu_usable() ? G.copy_helpers : 0; }

void glide_gpu_time_stages(int on)
{
    pthread_mutex_lock(&G.lock);
    G.timing = on;
    pthread_mutex_unlock(&G.lock);
}

void glide_gpu_last_stages(glide_gpu_stages *out)
{
    pthread_mutex_lock(&G.lock);
    *out = G.last;
    pthread_mutex_unlock(&G.lock);
}

static void stage(const char *name)
{
    if (!G.timing || G.n_ev >= GG_MAX_STAGES) return;
    if (G.n_ev == 0) cudaEventRecord(G.ev[0], G.s);
    G.ev_name[G.n_ev] = name;
    cudaEventRecord(G.ev[++G.n_ev], G.s);
}

static void stages_begin(void)
{
    G.n_ev = 0;
    if (G.timing) cudaEventRecord(G.ev[0], G.s);
}

/* after the final synchronisation */
static void stages_end(void)
{
    memset(&G.last, 0, sizeof G.last);
    if (!G.timing) return;
    for (int i = 0; i < G.n_ev; i++) {
        G.last.names[i] = G.ev_name[i];
        cudaEventElapsedTime(&G.last.ms[i], G.ev[i], G.ev[i + 1]);
    }
}

void glide_gpu_planner(int mode)
{
    pthread_mutex_lock(&G.lock);
    G.planner = mode;
    pthread_mutex_unlock(&G.lock);
}

void glide_gpu_use_graphs(int on)
{
    pthread_mutex_lock(&G.lock);
    G.graphs = on;
    pthread_mutex_unlock(&G.lock);
}

void glide_gpu_keep_hist0(int on)
{
    pthread_mutex_lock(&G.lock);
    G.keep_hist0 = on;
    G.last_h0_made = -1;
    pthread_mutex_unlock(&G.lock);
}

int glide_gpu_last_hist0(uint64_t *out)
{
    pthread_mutex_lock(&G.lock);
    const int r = G.last_h0_made;
    if (r >= 0) memcpy(out, G.last_h0, sizeof G.last_h0);
    pthread_mutex_unlock(&G.lock);
    return r;
}

void glide_gpu_hist0_in_kernel(int on)
{
    pthread_mutex_lock(&G.lock);
    G.hist0_kernel = on;
    pthread_mutex_unlock(&G.lock);
}

int glide_gpu_last_plan(void)
{
    pthread_mutex_lock(&G.lock);
    int r = G.last_plan;
    pthread_mutex_unlock(&G.lock);
    return r;
}

void glide_gpu_inject_failures(int n)
{
    pthread_mutex_lock(&G.lock);
    G.inject = n;
    pthread_mutex_unlock(&G.lock);
}

/* the test hook's stand-in for a driver that refuses stream memory operations */
static CUresult refuse_wait(CUstream st, CUdeviceptr a, cuuint32_t v, unsigned f)
{
    (void)st, (void)a, (void)v, (void)f;
    return CUDA_ERROR_NOT_SUPPORTED;
}

void glide_gpu_refuse_stream_waits(int on)
{
    static CUresult (*real)(CUstream, CUdeviceptr, cuuint32_t, unsigned);
    pthread_mutex_lock(&G.lock);
    if (on) {
        if (G.wait32 && G.wait32 != refuse_wait) real = G.wait32;
        G.wait32 = refuse_wait;
    } else {
        G.wait32 = real; /* NULL where the process never had it */
    }
    pthread_mutex_unlock(&G.lock);
}

void glide_gpu_inject_late_failures(int n)
{
    pthread_mutex_lock(&G.lock);
    G.inject_late = n;
    pthread_mutex_unlock(&G.lock);
}

void glide_gpu_inject_plan_failures(int n)
{
    pthread_mutex_lock(&G.lock);
    G.inject_plan = n;
    pthread_mutex_unlock(&G.lock);
}

void glide_gpu_plan_gate(int on)
{
    pthread_mutex_lock(&G.lock);
    G.pgate.on = on;
    pthread_mutex_unlock(&G.lock);
}

int glide_gpu_last_plan_gated(void)
{
    pthread_mutex_lock(&G.lock);
    const int g = G.last_gated;
    pthread_mutex_unlock(&G.lock);
    return g;
}

static int grow_dev(gbuf *b, size_t need)
{
    if (G.inject > 0) {
        G.inject--;
        return 0;
    }
    if (need <= b->cap) return 1;
    cudaFree(b->p);
    b->p = NULL;
    b->cap = 0;
    if (cudaMalloc(&b->p, need) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    b->cap = need;
    return 1;
}

static int grow_host(gbuf *b, size_t need)
{
    if (need <= b->cap) return 1;
    cudaFreeHost(b->p);
    b->p = NULL;
    b->cap = 0;
    if (cudaMallocHost(&b->p, need) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    b->cap = need;
    return 1;
}

/* The chunk's values cross between HDF5's pageable buffer and the device
 * through a pinned buffer, copied on the host by several threads while the
 * DMA engine moves the pieces already there (gpu/host_copy.h): a pageable
 * cudaMemcpy runs at one thread's memcpy speed. Transfers below the
 * thresholds above, transfers too large to stage, and a host whose pinned
 * buffer cannot be had take the pageable copy. */

static int staged(size_t bytes, size_t from)
{
    static size_t refused = SIZE_MAX; /* a pinned size the driver refused: not asked again */
    if (!G.copy_helpers || bytes < from || bytes > GG_STAGE_MAX || bytes >= refused) return 0;
    if (grow_host(&G.h_stage, bytes)) return 1;
    refused = bytes;
    return 0;
}

typedef struct {
    void *dev;
    size_t bytes, piece;
    cudaError_t err;
} xfer;

/* upload: the copied pieces' DMA, queued in order as they are done */
static int up_after(void *ctx, size_t first, size_t count)
{
    xfer *x = ctx;
    const size_t off = first * x->piece, end = (first + count) * x->piece;
    x->err = cudaMemcpyAsync((uint8_t *)x->dev + off, (uint8_t *)G.h_stage.p + off,
                             (end < x->bytes ? end : x->bytes) - off, cudaMemcpyHostToDevice, G.s);
    return x->err != cudaSuccess;
}

/* download: a piece is copied out once its DMA is done (from any thread) */
static int down_before(void *ctx, size_t k)
{
    (void)ctx;
    return cudaEventSynchronize(G.ev_piece[k]) != cudaSuccess;
}

/* Queues bytes from src into device memory d: returns once the host's part is done. */
static cudaError_t upload_values(void *d, const void *src, size_t bytes)
{
    if (!staged(bytes, GG_STAGE_UP_MIN)) return cudaMemcpyAsync(d, src, bytes, cudaMemcpyHostToDevice, G.s);
    xfer x = {d, bytes, gg_copy_piece(bytes, (size_t)64 << 10), cudaSuccess};
    /* non-temporal stores: 256^3 calls 2774 / 2879 -> 2594 / 2594 us, 4476 /
     * 4713 -> 3880 / 3636 freshly written (H200, two alternated rounds,
     * bench/gpu-runs/s1127b run 12) */
    gg_copy_job j = {G.h_stage.p, src, bytes, x.piece, NULL, up_after, &x, NULL, GG_COPY_STREAM};
    if (gg_copy_run(&j)) return x.err != cudaSuccess ? x.err : cudaErrorUnknown;
    return cudaSuccess;
}

/* The gated upload of a chunk too small for the staged one: the helper
 * threads start copying the values into the pinned buffer at once, the
 * last piece of each DMA's group raising the group's word in mapped
 * memory, while the caller queues each group's DMA behind a stream wait on
 * that word, then the whole pipeline; it joins the copy (gate_fill) before it waits on
 * the device. A pageable cudaMemcpy of a 64^3 chunk returned once the
 * driver had staged the 1 MB (about 60 us), its DMA followed (22) and
 * range_k waited for the front graph's launch after that (16).
 * The copy must not depend on the caller: queuing a kernel may wait for
 * the device (lazy module loading synchronises the context), and a
 * first version that copied after queuing hung there. Without helpers,
 * or with stage timing (its upload stage is the copy), the pageable copy;
 * below 1 MiB too. The helpers write the pinned pieces with non-temporal
 * stores (GG_COPY_STREAM): with plain stores the pieces sat dirty in their
 * caches and the DMA behind the waits moved 256 KiB in 13-15 us (traced,
 * bench/gpu-runs/s1127b run 3), 9 us with them (run 9). On an H200 host
 * (gpu_probe SIDE 300 fresh, medians of three alternated rounds, run 9)
 * 64^3 calls (1 MiB) took 184.5 us against 201.3 pageable (196.3 against
 * 221.4 freshly written, as HDF5 hands a chunk over), faster in every
 * round, and 128^3 (8 MiB) 523.4 against 854.5 (605.0 against 866.5);
 * with plain stores 64^3 had tied or lost on two hosts of three (runs
 * 2-4) and 96^3 had lost freshly written (run 5). 32^3 (128 KiB, one
 * piece, no parallelism) lost with plain stores (143 against 127 us). */

static void gate_open(void *ctx, size_t k)
{
    (void)ctx;
    const size_t g = k / G.gate.per_group;
    if (atomic_fetch_sub_explicit(&G.gate.left[g], 1, memory_order_acq_rel) == 1)
        __atomic_store_n(&G.h_gate[g], G.gate.seq, __ATOMIC_RELEASE); /* after the group's stores */
}

/* Joins the posted copy; a no-op unless armed. */
static void gate_fill(void)
{
    if (!G.gate.armed) return;
    gg_copy_join();
    G.gate.armed = 0;
}

/* Opens the host plan's gate (plan_gate_queue) once h_apply holds the
 * plan; with_plan 0 (RAW, a failure) first empties the plan, so that
 * gg_apply_plan writes nothing and leaves st->place.ok = 0 and the queued
 * tail runs empty. A no-op unless armed. */
static void plan_gate_open(int with_plan)
{
    if (!G.pgate.armed) return;
    if (!with_plan) {
        gg_apply *ap = G.h_apply;
        memset(&ap->place, 0, sizeof ap->place);
        for (unsigned k = 0; k < GLIDE_NPLANES; k++) ap->book[k] = GG_APPLY_NONE;
        ap->head_bytes = 0;
    }
    /* x86 keeps the plan's stores before this one: state_gate_k's acquire
     * load sees the word, and apply_plan_k, queued behind it, reads h_apply */
    __atomic_store_n(&G.h_gate[GG_PLAN_GATE], G.pgate.seq, __ATOMIC_RELEASE);
    G.pgate.armed = 0;
}

/* Queues the gated upload of bytes from src into device memory d: 1 if
 * queued (gate_fill must follow before anything waits for the stream), 0
 * if this upload is not gated (the caller uploads), -1 on a CUDA error
 * (the copy is joined: nothing stays blocked). */
static int gate_arm(void *d, const void *src, size_t bytes)
{
    if (!G.wait32 || !G.copy_helpers || G.timing || bytes < GG_GATE_MIN || bytes >= GG_STAGE_UP_MIN ||
        !grow_host(&G.h_stage, bytes))
        return 0;
    const size_t piece = gg_copy_piece(bytes, GG_GATE_PIECE);
    size_t per = GG_GATE_DMA / piece;
    if (per < 1) per = 1;
    G.gate.per_group = per;
    const size_t np = (bytes + piece - 1) / piece, dma = per * piece;
    for (size_t g = 0; g * per < np; g++)
        atomic_store_explicit(&G.gate.left[g], (unsigned)(np - g * per < per ? np - g * per : per), memory_order_relaxed);
    G.gate.seq++;
    gg_copy_job j = {G.h_stage.p, src, bytes, piece, NULL, NULL, NULL, gate_open, GG_COPY_STREAM};
    if (gg_copy_post(&j)) return 0;
    G.gate.armed = 1;
    size_t k = 0;
    for (size_t off = 0; off < bytes; off += dma, k++) {
        const size_t m = bytes - off < dma ? bytes - off : dma;
        if (G.wait32(G.s, (CUdeviceptr)(uintptr_t)(G.dh_gate + k), G.gate.seq, CU_STREAM_WAIT_VALUE_GEQ) !=
            CUDA_SUCCESS) {
            /* a driver that refuses the wait: no gated uploads from now on.
             * The pieces queued so far move once the copy is joined, and the
             * caller's pageable upload follows them with the same bytes. */
            gate_fill();
            G.wait32 = NULL;
            if (getenv("GLIDE_GPU_DEBUG")) fprintf(stderr, "glide: stream waits refused; uploads stay pageable\n");
            return 0;
        }
        if (cudaMemcpyAsync((uint8_t *)d + off, (uint8_t *)G.h_stage.p + off, m, cudaMemcpyHostToDevice, G.s) !=
            cudaSuccess) {
            gate_fill();
            return -1;
        }
    }
    return 1;
}

/* Copies bytes of device memory d into dst, after everything queued so far,
 * and queues the copy of tail_bytes from tail_src (device) to tail_dst
 * (pinned) behind the values' copies: a staged download returns once its
 * host copies are done, and a small copy queued only then (the decoder's
 * state) had added its call, its DMA and a wait to the end of every call
 * (64^3 on an H100, traced with bench/gpu_trace: about 10 us). */
static cudaError_t download_values(void *dst, const void *d, size_t bytes, void *tail_dst, const void *tail_src,
                                   size_t tail_bytes)
{
    cudaError_t e;
    if (!staged(bytes, GG_STAGE_DOWN_MIN)) {
        e = cudaMemcpyAsync(dst, d, bytes, cudaMemcpyDeviceToHost, G.s);
        return e == cudaSuccess ? cudaMemcpyAsync(tail_dst, tail_src, tail_bytes, cudaMemcpyDeviceToHost, G.s) : e;
    }
    /* coarser pieces than the upload's: each costs a copy call and an event here */
    const size_t piece = gg_copy_piece(bytes, (size_t)256 << 10);
    for (size_t off = 0, k = 0; off < bytes; off += piece, k++) {
        e = cudaMemcpyAsync((uint8_t *)G.h_stage.p + off, (const uint8_t *)d + off,
                            bytes - off < piece ? bytes - off : piece, cudaMemcpyDeviceToHost, G.s);
        if (e == cudaSuccess) e = cudaEventRecord(G.ev_piece[k], G.s);
        if (e != cudaSuccess) return e;
    }
    if ((e = cudaMemcpyAsync(tail_dst, tail_src, tail_bytes, cudaMemcpyDeviceToHost, G.s)) != cudaSuccess) return e;
    /* plain stores: non-temporal ones into the caller's buffer took a 64^3
     * call from 172 to 190-215 us freshly written (s1127b run 12) */
    gg_copy_job j = {dst, G.h_stage.p, bytes, piece, down_before, NULL, NULL, NULL, 0};
    return gg_copy_run(&j) ? cudaErrorUnknown : cudaSuccess;
}

static gg_grid grid_of(const glide_grid *cg, unsigned dtype)
{
    gg_grid g;
    memset(&g, 0, sizeof g);
    for (int a = 0; a < 3; a++) {
        g.n[a] = cg->n[a];
        g.st[a] = cg->st[a];
        g.nb[a] = ((cg->n[a] - 1) >> cg->blog) + 1;
    }
    /* format 2: every slab has its own blocks on axis 0 */
    g.slab_rows = cg->slab_rows;
    g.nbl = ((cg->slab_rows - 1) >> cg->blog) + 1;
    g.nb[0] = cg->slabs * g.nbl;
    g.count = cg->count;
    g.eff_rank = cg->eff_rank;
    g.blog = cg->blog;
    g.has_fill = (uint32_t)cg->has_fill;
    g.fill_bits = cg->fill_bits;
    g.dtype = dtype;
    return g;
}

/* A sticky CUDA error leaves the context unusable: stop using the GPU. */
static size_t gpu_fail(cudaError_t e, const char *what)
{
    gate_fill(); /* a gated upload's waits would hold the synchronisation forever */
    plan_gate_open(0); /* and so would the host plan's */
    cudaError_t sticky = cudaDeviceSynchronize();
    if (sticky != cudaSuccess && sticky != cudaErrorMemoryAllocation) G.broken = 1;
    G.rng_reset = 1; /* a launch that failed may have left st->rng as it was: zeroed before the next range_k */
    cudaGetLastError();
    if (getenv("GLIDE_GPU_DEBUG"))
        fprintf(stderr, "glide: GPU %s failed: %s\n", what, cudaGetErrorString(e != cudaSuccess ? e : sticky));
    return GLIDE_ERROR(GPU);
}

#define CK(call, what)                                                                                 \
    do {                                                                                               \
        cudaError_t e_ = (call);                                                                       \
        if (e_ != cudaSuccess) { r = gpu_fail(e_, what); goto done; }                                  \
    } while (0)

/* Scratch for one chunk: the steps of one stream share it from offset 0;
 * the decoder's CRC check, where it runs beside them (CRC_BESIDE_MIN),
 * takes its part past the largest of them. */
static size_t crc_scratch_off(uint64_t n)
{
    size_t a = gg_outlier_scan_scratch(n), b = gg_huff_encode_scratch(n), c = gg_huff_decode_scratch(n);
    size_t m = a > b ? a : b;
    m = m > c ? m : c;
    return (m + 255) & ~(size_t)255;
}

static size_t scratch_need(uint64_t n, uint64_t buf_bytes) { return crc_scratch_off(n) + gg_crc32_scratch(buf_bytes); }

/* Format 5 chunks of at least this many points check their CRC on a side
 * stream beside the planes' merge (bound by memory bandwidth, no shared
 * memory; the CRC kernel is bound by its shared-memory tables). Beside
 * the decoder it only slowed both; on small chunks the device waits on
 * the host's launches, which the fork and join add to. */
#define CRC_BESIDE_MIN (1u << 21)

/* The chunk as the encoder sees it, for the steps below. */
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
    /* format 6 (method GG_CHOSEN3): force = a forced slice order + 1, else
     * 0 and the block trial on the sample tb, stacked as grid tg, with
     * Lorenzo among its candidates where lorenzo_ok */
    int force, lorenzo_ok;
    gg_grid tg;
    gg_trial_boxes tb;
} enc_job;

/* The host's entropy plan (codebook and layout) from the device's state,
 * by the CPU codec's own code: h holds the parameters' fields. */
static size_t host_plan(const enc_job *j, const gg_state *hs, glide_header *h, glide_entropy_plan *plan)
{
    if (j->method == GG_CHOSEN3 && !j->force) G.spec_large = !hs->lorenzo && !hs->slice; /* the trial's pick */
    if (j->method != GG_LORENZO) G.last_blend = hs->lv.blended || hs->tuned_blend; /* gg_launch.blend_first */
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
    const int own_dict = j->o->dict == G.dict;
    if (j->planes) {
        h->format_version = slice ? GLIDE_FORMAT_SLICE : GLIDE_FORMAT_PLANES;
        const glide_book_choice given[GLIDE_NPLANES] = {{hs->sel_pl[0].book, hs->sel_pl[0].bits},
                                                        {hs->sel_pl[1].book, hs->sel_pl[1].bits}};
        const uint64_t *const hist[GLIDE_NPLANES] = {hs->hist_pl[0], hs->hist_pl[1]};
        return glide_entropy_plan_planes(j->p, j->o, h, hist, own_dict ? given : NULL, j->n0, j->n, j->esz, plan);
    }
    glide_book_choice choice = {hs->sel.book, hs->sel.bits};
    return glide_entropy_plan_hist(j->p, j->o, h, hs->hist, own_dict ? &choice : NULL, j->n, j->esz, plan);
}

/* Enqueues `f` on the context's stream: as one launch of the graph captured
 * for `key` (*used = 1), capturing it first if the cache holds another key
 * (or none); without graphs (the hook, the environment), plainly. */
typedef cudaError_t (*enqueue_fn)(const void *arg, int timed);

static cudaError_t graphed(gg_graph *c, const void *key, size_t klen, enqueue_fn f, const void *arg, int *used)
{
    *used = 0;
    if (!G.graphs || klen > GG_KEY_MAX) return f(arg, G.timing);
    if (!c->ok || c->klen != klen || memcmp(c->key, key, klen) != 0) {
        if (c->ok) cudaGraphExecDestroy(c->exec);
        c->ok = 0;
        cudaGraph_t gr = NULL;
        cudaError_t e = cudaStreamBeginCapture(G.s, cudaStreamCaptureModeThreadLocal);
        if (e != cudaSuccess) return e;
        e = f(arg, 0);
        cudaError_t e2 = cudaStreamEndCapture(G.s, &gr); /* ends the capture whatever f did */
        if (e == cudaSuccess) e = e2;
        /* the nodes keep the priorities of the streams they were captured
         * from (the front of large chunks runs on s_hi), not G.s's */
        if (e == cudaSuccess) e = cudaGraphInstantiateWithFlags(&c->exec, gr, cudaGraphInstantiateFlagUseNodePriority);
        if (gr) cudaGraphDestroy(gr);
        if (e != cudaSuccess) return e;
        c->ok = 1;
        c->klen = klen;
        memcpy(c->key, key, klen);
    }
    *used = 1;
    return cudaGraphLaunch(c->exec, G.s);
}

/* The largest stream gg_deliver hands over for a chunk whose raw stream
 * is raw_total bytes (0: none, and no kernel): up to GLIDE_GPU_DELIVER_KB
 * (default GG_DELIVER_KB), in chunks of at most 16 times that (larger ones
 * rarely compress that far, and an empty kernel would lengthen their tail),
 * never under stage timing (its kernel-only times leave transfers out). */
static uint64_t deliver_limit(uint64_t raw_total)
{
    if (G.timing || raw_total / 16 > G.deliver_max) return 0;
    return G.deliver_max < G.h_out.cap ? G.deliver_max : G.h_out.cap;
}

/* front_enqueue and tail_enqueue: chunks over this many points run parts at the greatest priority */
#define GLIDE_GPU_HI_POINTS ((uint64_t)1 << 19)

/* The encoder's look-back words in G.scratch, which the plan's kernel
 * (gg_plan or gg_apply_plan, always the tail's predecessor) zeroes; none
 * if the scratch could not hold them, and the encoder zeroes them itself. */
static gg_words enc_words(const enc_job *j)
{
    const uint64_t n0 = j->planes ? j->n0 : j->n;
    gg_words z = {(uint64_t *)G.scratch.p, gg_huff_encode_words(n0, j->n - n0)};
    if (z.n > G.scratch.cap / sizeof(uint64_t)) z.p = NULL, z.n = 0;
    return z;
}

/* Anchors, outliers, Huffman stream, stream size and CRC: the same kernels
 * whichever side planned (st->place says where, and G.d_enc holds the
 * code). Only enqueues. */
static cudaError_t tail_enqueue(const void *arg, int timed)
{
    const enc_job *j = arg;
    gg_state *st = G.d_st;
    uint8_t *buf = G.buf.p;
    cudaError_t e;
    /* The anchors and outliers beside the Huffman encoder, on a side
     * stream joined before the CRC: both only read the symbols and the
     * plan, and they write apart in the stream buffer. Kernel-only
     * compression went 500.3 -> 487.5 us at 256^3 and 2569 -> 2533 at
     * 512^3 on an H200, faster in every round (bench/gpu-runs/s1127 run 8,
     * medians of three alternated rounds); 64^3 within its noise. Stage
     * timing keeps one stream. */
    const int beside = !timed;
    /* With the encoder's words zeroed ahead (enc_words), the encoder's
     * kernel becomes eligible with the anchors and outliers, and its
     * blocks, as many as fit (fused_grid), are often dispatched first: the
     * outliers' kernels then wait for them (256^3: 36-38 us later, ending
     * 1-2 us after the encoder, with the CRC behind them; 4 of 5 traces,
     * bench/gpu-runs/s1127f runs 1-5). On chunks over 2^19 points their
     * side stream has the greatest priority: that did not change the
     * order at 256^3, but 512^3 went 2507 -> 2491 us (run 2; 2489 before
     * the words moved). A smaller encoder grid and the branches' streams
     * swapped measured no faster at 256^3 (run 6). */
    cudaStream_t so = !beside ? G.s : j->g.count > GLIDE_GPU_HI_POINTS ? G.par_hi.aux[0] : G.par.aux[0];
    if (beside && ((e = cudaEventRecord(G.tail_fork, G.s)) != cudaSuccess ||
                   (e = cudaStreamWaitEvent(so, G.tail_fork, 0)) != cudaSuccess))
        return e;
    e = gg_anchors_outliers(G.x.p, j->g, G.sym.p, G.pos.p, st, buf, so);
    if (timed && e == cudaSuccess) stage("anchors+outliers");
    /* format 5: both planes in the same launches, plane 1's stream after plane 0's */
    const uint64_t n0 = j->planes ? j->n0 : j->n;
    const int split = j->planes && !j->in_place;
    const uint16_t *sym0 = split ? (const uint16_t *)G.sym_p.p : (const uint16_t *)G.sym.p;
    const uint16_t *sym1 = split ? sym0 + gg_plane1_base(n0) : NULL;
    const gg_enc_fin fin = {&st->crc_len, &st->total};
    if (e == cudaSuccess)
        e = gg_huff_encode_placed(sym0, n0, sym1, j->n - n0, j->in_place ? &j->runs : NULL, G.d_enc, buf, &st->place,
                                  &st->stream_bytes, &fin, G.scratch.p, G.scratch.cap, enc_words(j).n != 0, G.s);
    if (beside) { /* joined whatever was enqueued: the CRC reads both */
        cudaError_t e2 = cudaEventRecord(G.tail_join, so);
        if (e2 == cudaSuccess) e2 = cudaStreamWaitEvent(G.s, G.tail_join, 0);
        if (e == cudaSuccess) e = e2;
    }
    if (e != cudaSuccess) return e;
    if (timed) stage("huffman encode");
    if ((e = gg_finish(buf, j->raw_total - GLIDE_CRC_BYTES, st, G.scratch.p, G.scratch.cap, G.s)) !=
        cudaSuccess)
        return e;
    if (timed) stage("crc");
    const uint64_t lim = deliver_limit(j->raw_total);
    if (lim && (e = gg_deliver(buf, st, G.h_out.p, lim, G.dh_st, G.dh_flag + GG_FLAG_DELIVERED, G.s)) != cudaSuccess) return e;
    return cudaSuccess;
}

/* What the tail's graph depends on: a job with another key captures it anew */
typedef struct {
    const void *x, *sym, *pos, *buf, *scratch, *enc, *st, *sym_p, *h_out;
    size_t scratch_cap, deliver;
    uint64_t n, raw_total, n0;
    int planes;
    gg_grid g;
} tail_key;

static void tail_key_of(const enc_job *j, tail_key *k)
{
    memset(k, 0, sizeof *k); /* padding too: the key is compared as bytes */
    k->x = G.x.p, k->sym = G.sym.p, k->pos = G.pos.p, k->buf = G.buf.p, k->scratch = G.scratch.p, k->enc = G.d_enc;
    k->st = G.d_st, k->scratch_cap = G.scratch.cap, k->n = j->n, k->raw_total = j->raw_total, k->g = j->g;
    k->sym_p = G.sym_p.p, k->n0 = j->n0, k->planes = j->planes | j->in_place << 1;
    k->h_out = G.h_out.p, k->deliver = deliver_limit(j->raw_total);
}

/* 1 if encode_tail(j) would replay the graph it last launched: no
 * capture, and no kernel the process has not launched before */
static int tail_replays(const enc_job *j)
{
    if (!G.graphs || !G.tail.ok) return 0;
    tail_key k;
    tail_key_of(j, &k);
    return G.tail.klen == sizeof k && memcmp(G.tail.key, &k, sizeof k) == 0;
}

static size_t encode_tail(const enc_job *j)
{
    tail_key k;
    tail_key_of(j, &k);
    size_t r = 0;
    int used;
    CK(graphed(&G.tail, &k, sizeof k, tail_enqueue, j, &used), "encode tail");
    if (used) stage("anchors..crc (graph)");
done:
    return r;
}

/* Where the host plans the entropy stage (the last stream had a custom
 * book, or the forced host planner), queues gg_apply_plan and the tail
 * before the plan is made, behind gg_state_gate's kernel, which hands the
 * state over and then polls a mapped word that plan_gate_open raises once
 * h_apply holds the plan:
 * their launches are then made while the front runs. Queued after the
 * plan, they had kept the device idle for the host's calls: at 256^3 the
 * plan's upload, the kernel and the graph took 5.7, 12.5 and 17.3 us of
 * the host's time after the plan, and the tail's first kernel started 34
 * us after it (H200, bench/gpu-runs/s1127d trace256_new_run6). Kernel-only
 * compression went 470.8 -> 448.0 us at 256^3 and 108.7 -> 94.4 at 64^3
 * (GLIDE_GPU_PLAN_GATE=0 against the default, five alternated rounds,
 * faster in each; H200, bench/gpu-runs/s1127e run 3).
 * Nothing may wait for the device while the gate is shut, and loading a
 * kernel may synchronise the context (lazy module loading; the first
 * version hung at the first gated apply_plan_k): so only a tail whose
 * graph replays and an apply kernel launched before go behind the gate,
 * and the host learns that the state arrived from a mapped word the gate's
 * kernel writes after it (state_wait), not from a CUDA call. Queues the
 * state's download and records ev_st (before the gate: state_wait asks it
 * for a device error). *queued = 1 if the tail went behind the gate
 * (state_wait, then plan_gate_open, must follow), 0 if not
 * (GLIDE_GPU_PLAN_GATE=0 or the test hook, a first launch: the state is
 * copied, and the caller waits for ev_st and queues the tail after the
 * plan). Nonzero return: a GPU error (gpu_fail opened the gate). */
static size_t plan_gate_queue(const enc_job *j, int *queued)
{
    size_t r = 0;
    *queued = 0;
    const int gate = G.pgate.on && G.pgate.apply_launched && tail_replays(j);
    if (!gate) CK(cudaMemcpyAsync(G.h_st, G.d_st, sizeof *G.h_st, cudaMemcpyDeviceToHost, G.s), "download state");
    CK(cudaEventRecord(G.ev_st, G.s), "state event");
    if (!gate) {
        stage("histogram to host");
        return 0;
    }
    const uint32_t seq = ++G.pgate.seq;
    /* armed before the launch: the gate is shut from there on, and a
     * failure must open it */
    G.pgate.armed = 1, *queued = 1;
    CK(gg_state_gate(G.d_st, G.dh_st, G.dh_gate + GG_STATE_WORD, G.dh_gate + GG_PLAN_GATE, seq, G.s), "plan gate");
    stage("host plan");
    CK(gg_apply_plan(G.dh_apply, G.d_dict_enc, G.d_enc, G.buf.p, G.d_st, enc_words(j), G.s), "plan");
    r = encode_tail(j);
done:
    return r;
}

/* Waits, without a CUDA call, for the word the stream writes once the
 * state is in h_st (plan_gate_queue); 0 when it is, else a device error
 * (the event behind the gate reports one; it is asked every millisecond). */
static int state_wait(void)
{
    const uint32_t seq = G.pgate.seq;
    double next = 0;
    for (unsigned i = 1;; i++) {
        if ((int32_t)(__atomic_load_n(&G.h_gate[GG_STATE_WORD], __ATOMIC_ACQUIRE) - seq) >= 0) return 0;
        if (i % 256) continue;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        const double t = ts.tv_sec + ts.tv_nsec * 1e-9;
        if (next == 0) next = t + 1e-3;
        if (t < next) continue;
        next = t + 1e-3;
        const cudaError_t e = cudaEventQuery(G.ev_st);
        if (e != cudaErrorNotReady && e != cudaSuccess) return -1;
        sched_yield();
    }
}

/* Everything before the entropy plan: state reset, range and level
 * bounds, tuning, predictor choice, prediction with quantization and
 * histogram, dictionary book choice. Only enqueues. */
typedef struct {
    const enc_job *j;
    int mode, score;
    double eb, alpha;
    uint64_t k; /* tuning sample stride */
    int spec;   /* the chunk's interpolation speculates beside the block trial's */
    gg_launch launch; /* G.launch with this chunk's blend_first (encode_front) */
} front_args;

/* A front on s_hi (chunks over GLIDE_GPU_HI_POINTS) of at most this many
 * points takes par_hi: the speculated interpolation's kernels at the
 * greatest priority too, so that their blocks are dispatched before those
 * of the block trial's Lorenzo and slices (default priority) when both
 * wait for room. At 256^3 the coarse kernel then took 50.6 us instead of
 * 66, the fine kernel started 160 us after the range scan instead of 182
 * (traces), and kernel-only compression went 478.8 -> 469.4 us, faster in
 * each of five alternated rounds; 512^3 went 2521 -> 2552, slower in each,
 * so it keeps par (H200, bench/gpu-runs/s1127d run 6; the trial's own
 * books then wait for the fine kernel's last wave). */
#define GLIDE_GPU_HI_SPEC_POINTS ((uint64_t)1 << 24)

static cudaError_t front_body(const void *arg, int timed, cudaStream_t s)
{
    const front_args *a = arg;
    const enc_job *j = a->j;
    gg_state *st = G.d_st;
    const gg_par *par = s == G.s_hi && j->g.count <= GLIDE_GPU_HI_SPEC_POINTS ? &G.par_hi : &G.par;
    gg_spec spec = {0, G.sym.p, G.r.p, G.w.p, j->in_place && G.hist0_kernel};
    cudaError_t e;
    /* no reset ahead: range_k zeroes the state (st->rng is zero already,
     * G.rng_reset). A memset node at the graph's head cost 1 us and a gap
     * of 2.6 before range_k (256^3, H200, bench/gpu-runs/s1127e run 3's
     * trace); queued ahead of the values (outside the graph) the reset had
     * made 64^3 calls slower (cudaMemsetAsync took 11 us of host time
     * before the values' copy, H200, bench/gpu-runs/spec-large-h100-h200
     * run 6) */
    if ((e = gg_range_plan(G.x.p, j->g, a->mode, a->eb, a->alpha, j->method != GG_LORENZO && !j->force, st, G.d_slots,
                           s)) !=
            cudaSuccess)
        return e;
    if (timed) stage("range+plan");
    gg_dict tdict = {G.d_dict_len, G.d_dict_log2q, G.n_books};
    if (j->force) {
        if ((e = gg_slice_force(st, (unsigned)j->force - 1, s)) != cudaSuccess) return e;
    } else if (j->method != GG_LORENZO) {
        /* the block trial's Lorenzo and slices run beside tuning */
        if (j->method == GG_CHOSEN3 &&
            (e = gg_trial_run(G.x.p, j->g, j->tg, j->tb, j->lorenzo_ok, st, G.d_tst, G.d_trial, G.tx.p, G.tsym.p, G.tr.p,
                              G.tw.p, tdict, G.d_trial_work, par, 0, NULL, &a->launch, s)) != cudaSuccess)
            return e;
        if ((e = gg_tune(G.x.p, j->g, a->k, j->method == GG_CHOSEN, st, par, s)) != cudaSuccess) return e;
        if (timed) stage("tune");
        if (j->method == GG_CHOSEN) {
            if ((e = gg_choose(G.x.p, j->g, a->k, st, s)) != cudaSuccess) return e;
            if (timed) stage("choose predictor");
        }
        if (j->method == GG_CHOSEN3) {
            spec.on = a->spec;
            if ((e = gg_trial_run(G.x.p, j->g, j->tg, j->tb, j->lorenzo_ok, st, G.d_tst, G.d_trial, G.tx.p, G.tsym.p,
                                  G.tr.p, G.tw.p, tdict, G.d_trial_work, par, 1, &spec, &a->launch, s)) != cudaSuccess)
                return e;
            if (timed) stage("block trial");
        }
    }
    const int method = spec.on ? GG_CHOSEN3_SPEC : j->method;
    /* every kernel that may store the symbols counts plane 0: no hist0_k */
    const int h0_all = j->planes && j->in_place && gg_encode_counts_hist0(j->g, method, st, spec.hist0);
    const int pdl_tail = (a->launch.pdl & GG_PDL_TAIL) != 0;
    gg_dict dict = {G.d_dict_len, G.d_dict_log2q, G.n_books};
    /* Where the trial kept the speculated interpolation, the chunk's
     * histograms are final at the pick: the planes' books then run beside
     * the gated commits (which return at once) on s_book, and where it
     * chose another method, after them. One of the two launches works. The
     * commits' 1452 empty blocks and a join had stood between the pick and
     * the books (256^3, H100 traces, bench/gpu-runs/s1131). Launched before
     * the commits, so that its blocks are dispatched first. Stage timing
     * keeps the books after them. */
    const int beside = spec.on && h0_all && G.books_beside && !timed;
    const gg_pick_gate kept = {&st->lorenzo, &st->slice, 0}, other = {&st->lorenzo, &st->slice, 1};
    if (beside && ((e = cudaEventRecord(G.ev_bfork, s)) != cudaSuccess ||
                   (e = cudaStreamWaitEvent(G.s_book, G.ev_bfork, 0)) != cudaSuccess ||
                   (e = gg_book_select_planes_gated(st->hist, st->hist_pl[0], st->hist_pl[1], dict, a->score,
                                                    st->sel_pl, G.d_sel_work, kept, pdl_tail, G.s_book)) != cudaSuccess ||
                   (e = cudaEventRecord(G.ev_bjoin, G.s_book)) != cudaSuccess))
        return e;
    if ((e = gg_encode(G.x.p, j->g, method, st, G.sym.p, G.r.p, G.w.p, par, spec.hist0, &a->launch, s)) != cudaSuccess)
        return e;
    if (timed) stage("predict+quantize+histogram");
    if (j->planes) { /* format 5: the planes and their histograms, a book each */
        if ((e = !j->in_place ? gg_planes_split(G.sym.p, j->g, j->n0, G.sym_p.p, st, s)
                 : h0_all     ? cudaSuccess
                              : gg_planes_hist0(G.sym.p, &j->runs, j->n0, st, pdl_tail, s)) != cudaSuccess)
            return e;
        if (timed) stage(j->in_place ? "plane 0 histogram" : "planes split");
        if (beside) {
            if ((e = gg_book_select_planes_gated(st->hist, st->hist_pl[0], st->hist_pl[1], dict, a->score, st->sel_pl,
                                                 G.d_sel_work, other, pdl_tail, s)) != cudaSuccess ||
                (e = cudaStreamWaitEvent(s, G.ev_bjoin, 0)) != cudaSuccess)
                return e;
        } else if ((e = gg_book_select_planes(st->hist, st->hist_pl[0], st->hist_pl[1], dict, a->score, st->sel_pl,
                                              G.d_sel_work, pdl_tail, s)) != cudaSuccess) {
            return e;
        }
    } else if ((e = gg_book_select(st->hist, dict, a->score, &st->sel, G.d_sel_work, s)) != cudaSuccess) {
        return e;
    }
    if (timed) stage("book select");
    return cudaSuccess;
}

/* Chunks of more than GLIDE_GPU_HI_POINTS run the front on s_hi, at the
 * greatest stream priority, forked from G.s and joined back: its kernels'
 * blocks (range, tuning, the blends, the block trial's interpolation and
 * pick, the planes) are dispatched before those of the side streams'
 * kernels at default priority (the trial's Lorenzo and slices, the
 * speculated interpolation) whenever both wait for room. At 256^3 tuning
 * took 54.4 us beside the trial's side encoders and 39.6 at the greater
 * priority (traces, H200, bench/gpu-runs/s0826 runs 1 and 7), and
 * kernel-only compression went 522.9 -> 504.2 us (run 7; H100 536.5 ->
 * 525.0, run 8). With the whole pipeline at the greater priority, 64^3
 * (2^18 points) compression lost 6-10 us (run 6, not looked into). Stage
 * timing (events on G.s between stages) keeps G.s. GLIDE_GPU_HI_POINTS
 * is defined above tail_enqueue, which uses it too. */

static cudaError_t front_enqueue(const void *arg, int timed)
{
    const front_args *a = arg;
    if (timed || !G.s_hi || a->j->g.count <= GLIDE_GPU_HI_POINTS) return front_body(arg, timed, G.s);
    cudaError_t e = cudaEventRecord(G.hi_fork, G.s);
    if (e == cudaSuccess) e = cudaStreamWaitEvent(G.s_hi, G.hi_fork, 0);
    if (e != cudaSuccess) return e;
    e = front_body(arg, timed, G.s_hi);
    /* joined whatever the body did: G.s's next work must follow it */
    cudaError_t e2 = cudaEventRecord(G.hi_join, G.s_hi);
    if (e2 == cudaSuccess) e2 = cudaStreamWaitEvent(G.s, G.hi_join, 0);
    return e != cudaSuccess ? e : e2;
}

static size_t encode_front(const front_args *a)
{
    struct {
        const void *x, *sym, *r, *w, *st, *len, *log2q, *sym_p;
        double eb, alpha;
        uint64_t k, n0;
        int mode, score, method, planes, force, lorenzo_ok, spec, blend_first;
        unsigned n_books;
        gg_grid g, tg;
        gg_trial_boxes tb;
        const void *tx, *tsym, *tr, *tw;
    } k;
    memset(&k, 0, sizeof k);
    k.x = G.x.p, k.sym = G.sym.p, k.r = G.r.p, k.w = G.w.p, k.st = G.d_st, k.len = G.d_dict_len, k.log2q = G.d_dict_log2q;
    k.sym_p = G.sym_p.p, k.n0 = a->j->n0, k.planes = a->j->planes | a->j->in_place << 1 | G.hist0_kernel << 2;
    k.eb = a->eb, k.alpha = a->alpha, k.k = a->k, k.mode = a->mode, k.score = a->score, k.method = a->j->method;
    k.n_books = G.n_books, k.g = a->j->g;
    k.force = a->j->force, k.lorenzo_ok = a->j->lorenzo_ok, k.tg = a->j->tg, k.tb = a->j->tb, k.spec = a->spec;
    k.tx = G.tx.p, k.tsym = G.tsym.p, k.tr = G.tr.p, k.tw = G.tw.p;
    /* the working interpolation instance's blocks first where the chunk
     * before is a guide: 256^3 kernel-only compression (H100) 449.1 ->
     * 446.9 us blended first on the Nyx-like field, and in traces a field
     * that does not blend lost 1.6 us to it (bench/gpu-runs/s1131 run 1) */
    k.blend_first = G.blend_order >= 0 ? G.blend_order : G.last_blend;
    front_args fa = *a; /* G.launch, with this chunk's blend_first */
    fa.launch.blend_first = k.blend_first;
    size_t r = 0;
    int used;
    CK(graphed(&G.front[k.blend_first], &k, sizeof k, front_enqueue, &fa, &used), "encode front");
    if (used) stage("range..book select (graph)");
done:
    return r;
}

/* Queues the copy back of at most `bytes` of the stream and of the state
 * from offset state_from on (0, or GG_STATE_TAIL once the rest came early). */
static cudaError_t download_queue(size_t bytes, size_t state_from)
{
    cudaError_t e = bytes ? cudaMemcpyAsync(G.h_out.p, G.buf.p, bytes, cudaMemcpyDeviceToHost, G.s) : cudaSuccess;
    if (e != cudaSuccess) return e;
    return cudaMemcpyAsync((uint8_t *)G.h_st + state_from, (const uint8_t *)G.d_st + state_from,
                           sizeof *G.h_st - state_from, cudaMemcpyDeviceToHost, G.s);
}

/* The whole state and `bytes` of the stream back; then the wait. */
static size_t download(size_t bytes)
{
    size_t r = 0;
    CK(download_queue(bytes, 0), "download");
    CK(cudaStreamSynchronize(G.s), "sync");
    stage("download");
done:
    return r;
}

/* gg_plan's decision for chunk seq, once its kernel has finished (the
 * tail is already queued behind it and keeps the device busy); 0 if the
 * plan did not run. */
static unsigned plan_flag(uint64_t seq, uint64_t *bound)
{
    if (cudaEventSynchronize(G.ev_plan) != cudaSuccess) return 0;
    volatile uint64_t *f = G.h_flag;
    *bound = f[2];
    return f[0] == seq ? (unsigned)f[1] : 0;
}

/* after a compressed chunk's state came back (glide_gpu_keep_hist0) */
static void keep_hist0(const enc_job *j, const gg_state *hs)
{
    if (!G.keep_hist0) return;
    G.last_h0_made = -1;
    if (!j->in_place) return;
    memcpy(G.last_h0, hs->hist_pl[0], sizeof G.last_h0);
    G.last_h0_made = hs->hist0_made <= 2 ? (int)hs->hist0_made : 1;
}

size_t glide_gpu_compress(const glide_params *p, const glide_encode_opts *o, const void *src, void *dst, size_t cap)
{
    if (!glide_gpu_usable()) return GLIDE_ERROR(GPU);
    size_t r = GLIDE_ERROR(GPU);
    int early_state = 0; /* the state's early copy is queued */
    int gated_plan = 0;  /* the tail is queued behind the host plan's gate (plan_gate_queue) */
    pthread_mutex_lock(&G.lock);
    G.last_h0_made = -1; /* glide_gpu_last_hist0: none until this chunk's state is back */
    if (cudaSetDevice(G.device) != cudaSuccess) { r = gpu_fail(cudaGetLastError(), "set device"); goto done; }
    glide_header h;
    glide_header_begin(&h, p);
    glide_shape sh;
    glide_shape_from_dims(p->rank, p->dims, h.format_version, &sh);
    const unsigned blog = p->block_log2 ? p->block_log2 : glide_default_block_log2(sh.rank);
    h.block_log2 = (uint8_t)blog;
    glide_grid cg;
    glide_grid_init(&cg, &sh, blog, p->has_fill, h.fill_bits);
    enc_job j;
    memset(&j, 0, sizeof j); /* force, lorenzo_ok, tg, tb: no slices */
    j.p = p, j.o = o, j.g = grid_of(&cg, p->dtype), j.n = sh.count, j.esz = glide_dtype_size(p->dtype);
    j.method = p->predictor == GLIDE_PRED_LORENZO ? GG_LORENZO : p->predictor == GLIDE_PRED_INTERP ? GG_INTERP : GG_CHOSEN;
    j.planes = o->planes != 0, j.n0 = glide_plane0_count(&sh);
    j.in_place = j.planes && G.planes_in_place &&
                 gg_plane_runs_make(j.g.n[0], j.g.n[1], j.g.n[2], j.g.slab_rows, &j.runs);
    /* format 6: as cpu/codec_tmpl.h compress() decides */
    const int slice_mode = glide_slice_mode(p, o, cg.eff_rank);
    uint64_t tcount = 0;
    if (slice_mode && slice_mode <= 2) {
        j.method = GG_CHOSEN3;
        j.force = slice_mode;
    } else if (slice_mode == GLIDE_SLICE_TRIAL) {
        j.method = GG_CHOSEN3;
        j.lorenzo_ok = p->predictor == GLIDE_PRED_AUTO;
        glide_sample_lattice sl;
        glide_sample_lattice_init(&cg, &sl);
        uint64_t d[4];
        glide_trial_box(&cg, d + 1);
        d[0] = sl.count;
        glide_shape tsh;
        glide_shape_from_dims(4, d, GLIDE_FORMAT_SLABS, &tsh);
        glide_grid tcg;
        glide_grid_init(&tcg, &tsh, blog, p->has_fill, h.fill_bits);
        j.tg = grid_of(&tcg, p->dtype);
        j.tb.k = sl.k;
        for (int a = 0; a < 3; a++) j.tb.m[a] = sl.m[a], j.tb.d[a] = d[a + 1];
        tcount = tcg.count;
    }
    const uint64_t n = j.n;
    const size_t esz = j.esz, hsize = glide_header_size(p->rank);
    /* the header as written: format 5 adds plane 1's book after the dims */
    const size_t hbytes = hsize + (j.planes ? GLIDE_HEADER_PLANES_EXT : 0);
    const uint64_t n_segments = glide_stream_segments(n, j.n0, j.planes);
    j.raw_total = hsize + n * esz + GLIDE_CRC_BYTES;
    /* The device plans with the frozen dictionary (the benchmarks' trial
     * ones are the host's), unless the last stream needed a custom book:
     * chunks of one dataset tend to agree, and for those the host's plan
     * after one wait costs less than a declined device plan. */
    const int device_plans = o->dict == G.dict && G.planner != GLIDE_GPU_PLANNER_HOST &&
                             (G.planner == GLIDE_GPU_PLANNER_DEVICE || !G.custom_last);
    G.last_plan = device_plans ? GLIDE_GPU_PLAN_DEVICE : GLIDE_GPU_PLAN_HOST;
    G.last_gated = 0;

    const size_t r_bytes = gg_global_r_bytes(j.g, j.method, 1, &G.launch);
    if (!grow_dev(&G.x, n * esz) || !grow_dev(&G.sym, n * 2) || !grow_dev(&G.pos, gg_outlier_tile_bytes(n)) ||
        !grow_dev(&G.buf, j.raw_total) || !grow_dev(&G.scratch, scratch_need(n, j.raw_total)) ||
        (r_bytes && !grow_dev(&G.r, r_bytes)) ||
        (gg_needs_global_w(j.g, j.method, 1) && !grow_dev(&G.w, n * esz)) || !grow_host(&G.h_out, j.raw_total) ||
        (j.planes && !j.in_place && !grow_dev(&G.sym_p, gg_planes_len(n) * 2)) ||
        (tcount && (!grow_dev(&G.tx, tcount * esz) || !grow_dev(&G.tsym, tcount * 2 * GG_TRIAL_METHODS) || !grow_dev(&G.tr, tcount * esz) ||
                    !grow_dev(&G.tw, tcount * esz)))) {
        r = gpu_fail(cudaErrorMemoryAllocation, "allocation");
        goto done;
    }
    gg_state *st = G.d_st, *hs = G.h_st;
    uint8_t *buf = G.buf.p;
    stages_begin();
    if (device_plans) {
        /* every field the parameters fix; gg_plan writes the others. Queued
         * ahead of the values, where it moves while the host stages them:
         * behind them, it and the graph's two memsets left the device idle
         * 17 us between the values' arrival and range_k, 8.6 us now (64^3,
         * H200, bench/gpu_trace; bench/gpu-runs/spec-large-h100-h200 run 5) */
        h.book_kind = GLIDE_BOOKKIND_DICT;
        h.n_segments = (uint32_t)n_segments;
        if (j.planes) h.format_version = GLIDE_FORMAT_PLANES; /* plane 1's book: gg_plan */
        glide_header_write(&h, G.h_head);
        CK(cudaMemcpyAsync(buf, G.h_head, hbytes, cudaMemcpyHostToDevice, G.s), "upload header");
    }
    if (G.rng_reset) {
        CK(cudaMemsetAsync(&st->rng, 0, sizeof st->rng, G.s), "reset");
        G.rng_reset = 0;
    }
    const int gated = gate_arm(G.x.p, src, n * esz);
    if (gated < 0) { r = gpu_fail(cudaGetLastError(), "gated upload"); goto done; }
    if (!gated) CK(upload_values(G.x.p, src, n * esz), "upload");
    stage("upload");
    if (G.inject_late > 0) { /* the test hook: a failure with the upload queued, gated or not */
        G.inject_late--;
        r = gpu_fail(cudaErrorLaunchFailure, "injected");
        goto done;
    }
    /* without the books' distributions the CPU codec scores by size too */
    front_args fa = {&j, p->mode, G.d_dict_log2q ? (int)o->score : (int)GLIDE_SCORE_SIZE, p->eb, o->alpha, 0, 0, G.launch};
    if (j.method != GG_LORENZO && !j.force) {
        uint64_t nb[3];
        fa.k = glide_tune_stride(&cg, nb);
    }
    fa.spec = j.method == GG_CHOSEN3 && !j.force && (j.n <= GLIDE_GPU_SPEC_POINTS || G.spec_large);
    r = encode_front(&fa);
    if (r) goto done;

    glide_header hh = h; /* the host's plan starts from the parameters' fields */
    glide_entropy_plan plan;
    if (device_plans) {
        gg_plan_in in = {n,
                         n_segments,
                         glide_anchor_count(&sh, blog),
                         hbytes,
                         j.raw_total,
                         1.0 + o->auto_slack,
                         (uint32_t)esz,
                         (uint32_t)p->codebook,
                         (uint32_t)j.method,
                         G.dict->prev_books,
                         glide_dict_book_version(G.dict, 0),
                         G.dict->version,
                         ++G.seq,
                         j.n0,
                         (uint32_t)j.planes,
                         0};
        CK(gg_plan(in, G.d_dict_enc, G.d_enc, buf, st, G.dh_st, G.dh_flag, enc_words(&j), G.s), "plan");
        stage("plan");
        CK(cudaEventRecord(G.ev_plan, G.s), "plan event");
        /* The state (histograms, books, levels) on its way to the host beside
         * the tail, so that the host's re-check of the plan runs while the
         * tail does, and only the tail's own fields come back after it; the
         * downloads are queued before the re-check. 64^3 calls 165.3 -> 150.4
         * us (H200 host, gpu_probe 64 300 fresh, medians of three alternated
         * rounds, bench/gpu-runs/s1127c run 3); 96^3 and 128^3 within noise.
         * Stage timing keeps the plain order. */
        early_state = !G.timing;
        if (early_state) {
            CK(cudaStreamWaitEvent(G.s_st, G.ev_plan, 0), "state fork");
            CK(cudaMemcpyAsync(hs, st, GG_STATE_TAIL, cudaMemcpyDeviceToHost, G.s_st), "early state");
            CK(cudaEventRecord(G.ev_st, G.s_st), "state event");
        }
        ((volatile uint64_t *)G.h_flag)[GG_FLAG_DELIVERED] = 0;
        r = encode_tail(&j); /* queued before the plan is known: a declined plan makes it run empty */
        if (r) goto done;
        gate_fill(); /* the whole pipeline is queued: the values must be in before the wait */
        uint64_t bound = 0;
        const unsigned flag = plan_flag(in.seq, &bound);
        if (!flag || (flag == GG_PLAN_FLAG_DEVICE && (bound == 0 || bound > j.raw_total))) {
            r = gpu_fail(cudaErrorUnknown, "plan flag");
            goto done;
        }
        const int early = early_state && flag == GG_PLAN_FLAG_DEVICE;
        const int delivered = early && bound <= deliver_limit(j.raw_total); /* by gg_deliver, checked below */
        if (early && !delivered) CK(download_queue(bound, GG_STATE_TAIL), "download");
        if (early_state) {
            early_state = 0; /* waited for here, or not at all */
            CK(cudaEventSynchronize(G.ev_st), "state");
        }
        if (flag == GG_PLAN_FLAG_HOST) {
            /* a custom book may win: the host plans from the histogram gg_plan
             * handed over, while the device runs the declined tail empty */
            G.last_plan = GLIDE_GPU_PLAN_HOST_BOOK;
        } else {
            /* RAW: the state only (gg_plan copied it already; this keeps one path) */
            if (early) {
                r = host_plan(&j, hs, &hh, &plan);
                if (glide_is_error(r)) goto done;
                CK(cudaStreamSynchronize(G.s), "sync");
                if (delivered && ((volatile uint64_t *)G.h_flag)[GG_FLAG_DELIVERED] != 1) { /* not expected: the copy then */
                    r = download(bound);
                    if (r) goto done;
                }
                stage("download");
            } else {
                r = download(flag == GG_PLAN_FLAG_DEVICE ? bound : 0);
                if (r) goto done;
            }
            stages_end();
            keep_hist0(&j, hs);
            /* the CPU codec's own decisions from the same histogram */
            if (!early) r = host_plan(&j, hs, &hh, &plan);
            if (glide_is_error(r)) goto done;
            if (!hs->place.ok && hh.method == GLIDE_METHOD_RAW) {
                G.last_plan = GLIDE_GPU_PLAN_RAW;
                goto raw;
            }
            const uint8_t *out = G.h_out.p;
            const int books_agree =
                j.planes ? hh.book_kind == GLIDE_BOOKKIND_DICT && hh.book_kind1 == GLIDE_BOOKKIND_DICT &&
                               hh.book_id == hs->sel_pl[0].book && hh.book_id1 == hs->sel_pl[1].book
                         : hh.book_kind == GLIDE_BOOKKIND_DICT && hh.book_id == hs->sel.book;
            const int agree = hs->place.ok && hh.method != GLIDE_METHOD_RAW && books_agree &&
                              plan.lay.segtab_off == hs->place.segtab_off && plan.lay.stream_off == hs->place.stream_off;
            if (agree && hs->total && hs->total <= bound) { /* only `bound` bytes came back */
                G.custom_last = 0;
                hh.stream_bytes = hs->stream_bytes; /* both planes' */
                glide_header_write(&hh, G.h_head);
                if (memcmp(G.h_head, out, hbytes) == 0) { /* method, books, counts, level configuration */
                    if (hs->total > cap) r = GLIDE_ERROR(DST_TOO_SMALL);
                    else {
                        memcpy(dst, out, hs->total);
                        r = hs->total;
                    }
                    goto done;
                }
            } else if (agree) { /* the Huffman stream did not fit: RAW, as the CPU codec decides */
                G.last_plan = GLIDE_GPU_PLAN_RAW;
                goto raw;
            }
            G.last_plan = GLIDE_GPU_PLAN_DISAGREED;
            if (getenv("GLIDE_GPU_DEBUG")) fprintf(stderr, "glide: GPU plan differs from the host's; replanning\n");
        }
        hh = h;
    } else {
        /* a trial dictionary (benchmarks) or the forced host plan: one wait
         * mid-chunk, for the state; the tail queued behind the plan's gate */
        r = plan_gate_queue(&j, &gated_plan);
        if (r) goto done;
        if (gated_plan && G.inject_plan > 0) { /* the test hook: a failure with the tail behind the gate */
            G.inject_plan--;
            r = gpu_fail(cudaErrorLaunchFailure, "injected");
            goto done;
        }
        gate_fill();
        if (gated_plan) {
            if (state_wait()) { r = gpu_fail(cudaErrorUnknown, "state"); goto done; }
        } else {
            CK(cudaEventSynchronize(G.ev_st), "sync");
        }
    }
    G.last_gated = gated_plan;

    /* the host plans; the tail runs (again) */
    r = host_plan(&j, hs, &hh, &plan);
    if (glide_is_error(r)) goto done;
    keep_hist0(&j, hs); /* a RAW chunk's too: the histograms are in */
    if (!gated_plan) stage("host plan"); /* the device idles meanwhile: the benchmarks keep it out of kernel time */
    if (hh.method != GLIDE_METHOD_RAW) {
        /* one kernel puts the plan on the device, reading it from mapped memory */
        gg_apply *ap = G.h_apply;
        if (plan.lay.anchors_off > sizeof ap->head) { r = gpu_fail(cudaErrorInvalidValue, "header size"); goto done; }
        glide_header_write(&hh, ap->head);
        memcpy(ap->head + plan.lay.book_off, plan.book, hh.book_bytes);
        if (j.planes) memcpy(ap->head + plan.lay.book_off + hh.book_bytes, plan.book1, hh.book_bytes1);
        ap->head_bytes = (uint32_t)plan.lay.anchors_off;
        for (unsigned k = 0; k < GLIDE_NPLANES; k++) {
            const unsigned kind = k ? hh.book_kind1 : hh.book_kind, id = k ? hh.book_id1 : hh.book_id;
            if (k && !j.planes) {
                ap->book[k] = GG_APPLY_NONE;
            } else if (kind == GLIDE_BOOKKIND_DICT && o->dict == G.dict) {
                ap->book[k] = id; /* the tail reads G.d_enc, whatever the book: one graph serves all */
            } else {
                ap->book[k] = GG_APPLY_CUSTOM;
                glide_huff_enc_init(&ap->enc[k], k ? plan.len1 : plan.len);
            }
        }
        /* never larger than the raw stream */
        const gg_place pl = {plan.lay.anchors_off, plan.lay.outliers_off, plan.lay.segtab_off, plan.lay.stream_off,
                             plan.raw_total - GLIDE_CRC_BYTES - plan.lay.stream_off, 1, 0};
        ap->place = pl;
        /* the tail's gg_deliver raises it (its tail is not running yet: the
         * gate is shut, or the tail is queued below) */
        ((volatile uint64_t *)G.h_flag)[GG_FLAG_DELIVERED] = 0;
        if (gated_plan) {
            plan_gate_open(1);
        } else {
            CK(gg_apply_plan(G.dh_apply, G.d_dict_enc, G.d_enc, buf, st, enc_words(&j), G.s), "plan");
            G.pgate.apply_launched = 1;
            r = encode_tail(&j);
            if (r) goto done;
        }
        /* Where the tail delivers (deliver_limit), the stream and the
         * state's tail fields are in h_out and h_st once the stream is
         * done: copied again, they had cost the call a copy of the stream's
         * planned size and of the whole state, each a round trip
         * (host-planned 64^3 API calls 170.6 -> 162.4 us, H200,
         * bench/gpu-runs/s1127f run 7). */
        if (deliver_limit(j.raw_total)) {
            CK(cudaStreamSynchronize(G.s), "sync");
            if (((volatile uint64_t *)G.h_flag)[GG_FLAG_DELIVERED] != 1) r = download(plan.lay.total); /* over the limit */
            else stage("download");
        } else {
            r = download(plan.lay.total);
        }
        if (r) goto done;
        stages_end();
        G.custom_last = hh.book_kind == GLIDE_BOOKKIND_CUSTOM || (j.planes && hh.book_kind1 == GLIDE_BOOKKIND_CUSTOM);
        if (hs->total) {
            if (hs->total > cap) r = GLIDE_ERROR(DST_TOO_SMALL);
            else {
                memcpy(dst, G.h_out.p, hs->total);
                r = hs->total;
            }
            goto done;
        }
    }
raw: /* incompressible: the CPU writes the same raw stream the CPU codec would */
    plan_gate_open(0);                      /* the queued tail runs empty */
    CK(cudaStreamSynchronize(G.s), "sync"); /* nothing of this chunk left running */
    if (j.raw_total > cap) { r = GLIDE_ERROR(DST_TOO_SMALL); goto done; }
    r = glide_write_raw(&hh, src, n, dst, cap);
done:
    gate_fill(); /* every exit: a failure before the fill must not leave the stream waiting */
    if (G.pgate.armed) { /* an error after the tail went behind the plan's gate: it runs empty, and ends here */
        plan_gate_open(0);
        cudaStreamSynchronize(G.s);
    }
    if (early_state) cudaEventSynchronize(G.ev_st); /* nothing writes h_st after the call */
    pthread_mutex_unlock(&G.lock);
    return r;
}

size_t glide_gpu_decompress(const glide_header *h, const glide_layout *lay, const void *src, size_t size, void *dst)
{
    /* format 7's second fill value is the CPU decoder's alone (glide_decompress routes it there) */
    if (h->format_version >= GLIDE_FORMAT_FILL2) return GLIDE_ERROR(VERSION);
    if (!glide_gpu_usable()) return GLIDE_ERROR(GPU);
    size_t r = GLIDE_ERROR(GPU);
    int forked = 0; /* the CRC check is queued on a side stream */
    pthread_mutex_lock(&G.lock);
    if (cudaSetDevice(G.device) != cudaSuccess) { r = gpu_fail(cudaGetLastError(), "set device"); goto done; }
    glide_shape sh;
    glide_shape_from_dims(h->rank, h->dims, h->format_version, &sh);
    const size_t esz = glide_dtype_size(h->dtype);
    const uint64_t n = sh.count;
    glide_grid cg;
    glide_grid_init(&cg, &sh, h->block_log2, (h->flags & GLIDE_FLAG_HAS_FILL) != 0, h->fill_bits);
    gg_grid g = grid_of(&cg, h->dtype);
    const int method = h->method == GLIDE_METHOD_LORENZO ? GG_LORENZO
                       : h->method == GLIDE_METHOD_SLICE ? GG_SLICE_XY + h->level_cfg[0] /* format 6 */
                                                         : GG_INTERP;
    const int blend = method == GG_INTERP && glide_levels_blended(sh.rank, h->block_log2, h->level_cfg); /* format 4 */

    /* format 5: plane 0's n0 symbols and plane 1's, each with its book and its
     * part of the segment table and stream (plane 0's bytes: its entries' sum) */
    const int planes = h->format_version >= GLIDE_FORMAT_PLANES;
    const uint64_t n0 = planes ? glide_plane0_count(&sh) : n, cnt[GLIDE_NPLANES] = {n0, n - n0};
    const uint64_t seg0 = glide_segment_count(n0);
    uint64_t bytes0 = planes ? glide_segtab_sum((const uint8_t *)src + lay->segtab_off, seg0) : h->stream_bytes;
    const glide_huff_dec *dec[GLIDE_NPLANES] = {NULL, NULL};
    int upload_dec[GLIDE_NPLANES] = {0, 0};
    for (unsigned k = 0; k < (planes ? GLIDE_NPLANES : 1u); k++) {
        const unsigned kind = k ? h->book_kind1 : h->book_kind, id = k ? h->book_id1 : h->book_id;
        if (kind == GLIDE_BOOKKIND_DICT && glide_dict_holds(G.dict, h->dict_version, id)) {
            dec[k] = G.d_dict_dec + id;
            continue;
        }
        /* a custom book, or a book of a dictionary the device does not hold
         * (none yet: every older version is a prefix of the current one) */
        uint8_t len[GLIDE_NSYM];
        const int dict_book = kind == GLIDE_BOOKKIND_DICT;
        const uint8_t *packed = (const uint8_t *)src + lay->book_off + (k ? h->book_bytes : 0);
        if (dict_book) memcpy(len, glide_dict_get(h->dict_version)->books[id].len, GLIDE_NSYM);
        if ((!dict_book && glide_is_error(glide_book_unpack(packed, k ? h->book_bytes1 : h->book_bytes, len))) ||
            glide_huff_dec_init(G.h_dec + k, len) != 0) {
            bytes0 = UINT64_MAX; /* reported below */
            break;
        }
        dec[k] = G.d_dec + k;
        upload_dec[k] = 1;
    }
    if (bytes0 > h->stream_bytes || (planes && cnt[1] == 0 && bytes0 != h->stream_bytes)) {
        /* a bad book or plane table; the CPU decoder reports a bad checksum first */
        r = glide_crc32(src, lay->crc_off) != get_u32((const uint8_t *)src + lay->crc_off) ? GLIDE_ERROR(CHECKSUM)
                                                                                      : GLIDE_ERROR(CORRUPT);
        goto done;
    }
    const size_t r_bytes = gg_global_r_bytes(g, method, blend, &G.launch);
    if (!grow_dev(&G.x, n * esz) || !grow_dev(&G.sym, n * 2) || !grow_dev(&G.pos, gg_outlier_scan_bytes(n)) ||
        (planes && !grow_dev(&G.sym_p, gg_planes_len(n) * 2)) ||
        !grow_dev(&G.buf, size) || !grow_dev(&G.scratch, scratch_need(n, size)) ||
        (r_bytes && !grow_dev(&G.r, r_bytes)) ||
        (gg_needs_global_w(g, method, blend) && !grow_dev(&G.w, n * esz))) {
        r = gpu_fail(cudaErrorMemoryAllocation, "allocation");
        goto done;
    }
    gg_state *st = G.d_st, *hs = G.h_st;
    uint8_t *buf = G.buf.p;
    memset(&hs->lv, 0, sizeof hs->lv);
    hs->lv.eb_abs = h->eb_abs;
    hs->lv.alpha = h->alpha;
    hs->lv.subst_bits = h->subst_bits;
    glide_level_bounds(h->eb_abs, h->alpha, h->block_log2, hs->lv.level_eb);
    memcpy(hs->lv.level_cfg, h->level_cfg, GLIDE_MAX_LEVELS);
    hs->lv.fill_aware = (uint32_t)glide_header_fill_aware(h);
    hs->lv.blended = (uint32_t)blend;
    stages_begin();
    CK(cudaMemcpyAsync(buf, src, size, cudaMemcpyHostToDevice, G.s), "upload");
    CK(cudaMemsetAsync(st, 0, sizeof *st, G.s), "reset");
    CK(cudaMemcpyAsync(&st->lv, &hs->lv, sizeof hs->lv, cudaMemcpyHostToDevice, G.s), "upload levels");
    for (unsigned k = 0; k < GLIDE_NPLANES; k++)
        if (upload_dec[k])
            CK(cudaMemcpyAsync(G.d_dec + k, G.h_dec + k, sizeof *G.h_dec, cudaMemcpyHostToDevice, G.s), "upload code");
    stage("upload");
    const int crc_beside = planes && n >= CRC_BESIDE_MIN;
    if (!crc_beside) {
        CK(gg_check_crc(buf, lay->crc_off, st, G.scratch.p, G.scratch.cap, G.s), "crc");
        stage("crc");
    }
    int words = 0; /* the merge made the outlier words */
    if (!planes) {
        CK(gg_huff_decode(dec[0], buf + lay->segtab_off, h->n_segments, buf + lay->stream_off, h->stream_bytes, G.sym.p,
                          n, &st->err, G.scratch.p, G.scratch.cap, G.s),
           "huffman decode");
        stage("huffman decode");
    } else { /* both planes in one launch, then back to raster order */
        uint16_t *sp = G.sym_p.p;
        CK(gg_huff_decode_planes(dec[0], dec[1], buf + lay->segtab_off, h->n_segments, buf + lay->stream_off,
                                 h->stream_bytes, sp, n0, sp + gg_plane1_base(n0), cnt[1], &st->err, G.scratch.p,
                                 G.scratch.cap, G.s),
           "huffman decode");
        stage("huffman decode");
        if (crc_beside) {
            /* its verdict is read only at the end, and the decoder has
             * checked every length and offset it used whatever the CRC */
            const size_t off = crc_scratch_off(n);
            CK(cudaEventRecord(G.par.fork, G.s), "fork");
            CK(cudaStreamWaitEvent(G.par.aux[0], G.par.fork, 0), "fork");
            CK(gg_check_crc(buf, lay->crc_off, st, (uint8_t *)G.scratch.p + off, G.scratch.cap - off, G.par.aux[0]),
               "crc");
            CK(cudaEventRecord(G.par.join[0], G.par.aux[0]), "join");
            forked = 1;
        }
        CK(gg_planes_merge(sp, g, n0, G.sym.p, h->n_outliers ? G.pos.p : NULL, &words, G.s), "planes");
        stage("planes merge");
    }
    /* with no outliers announced, any OUTLIER symbol is caught by the reconstruction */
    if (h->n_outliers)
        CK(gg_outlier_scan(words ? NULL : G.sym.p, n, G.pos.p, st, G.scratch.p, G.scratch.cap, G.s), "outlier scan");
    CK(gg_decode(g, method, (int)hs->lv.fill_aware, blend, st, G.sym.p, G.pos.p, buf + lay->anchors_off,
                 buf + lay->outliers_off, h->n_outliers, G.x.p, G.r.p, G.w.p, &st->err, &G.launch, G.s),
       "reconstruct");
    stage("reconstruct");
    if (forked) CK(cudaStreamWaitEvent(G.s, G.par.join[0], 0), "join");
    forked = 0;
    CK(download_values(dst, G.x.p, n * esz, hs, st, sizeof *st), "download");
    CK(cudaStreamSynchronize(G.s), "sync");
    stage("download");
    stages_end();
    if (hs->crc_bad) r = GLIDE_ERROR(CHECKSUM);
    else if (hs->err || (h->n_outliers && hs->n_outliers != h->n_outliers)) r = GLIDE_ERROR(CORRUPT);
    else r = 0;
done:
    if (forked) cudaStreamWaitEvent(G.s, G.par.join[0], 0); /* the next chunk reuses the scratch and state */
    pthread_mutex_unlock(&G.lock);
    return r;
}
