/* The GPU backend's per-process context: the device (GLIDE_DEVICE, else
 * the node-local MPI rank), its streams and events, the dictionary on the
 * device, the mapped words the device and the host talk through, and the
 * copy helpers (GLIDE_GPU_COPY_THREADS, GLIDE_GPU_COPY_SPIN_US). Set up on
 * the first call, kept for the process; a setup that fails leaves the CPU
 * to do the work. Also the steps every pipeline shares: stage timing,
 * buffer growth, and the failure path. */
#include "gg_context.h"
#include "huff_codec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The contexts: the first is made on the first call, more by
 * glide_gpu_reserve (glide_h5.h's workers), so that calls from several
 * threads run their chunks' kernels side by side instead of queuing behind
 * one lock. */
static gg_ctx g_pool[GG_MAX_CONTEXTS] = {{.lock = PTHREAD_MUTEX_INITIALIZER}};
static unsigned g_made;                 /* contexts set up, the first included; read and grown under g_make */
static pthread_mutex_t g_make = PTHREAD_MUTEX_INITIALIZER;
_Thread_local gg_ctx *gg_cur = &g_pool[0];
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

/* How long idle copy helpers spin for the next chunk before they sleep
 * (GLIDE_GPU_COPY_SPIN_US sets it): the gated upload leaves the copy to
 * the helpers until its join, and 128^3 calls were a fifth faster with 300
 * us of watching than with 50 (docs/DESIGN.md, the host copy). */
#define GG_COPY_SPIN_US 300L

/* The environment variable name as a number in [lo, hi]: 1 and *out if so,
 * 0 if unset or empty; anything else is said on stderr and read as unset. */
static int env_long(const char *name, long lo, long hi, long *out)
{
    const char *v = getenv(name);
    if (!v || !*v) return 0;
    char *end;
    long x = strtol(v, &end, 10);
    if (*end || x < lo || x > hi) {
        fprintf(stderr, "glide: ignoring %s=\"%s\" (a number from %ld to %ld expected); using the default\n", name, v,
                lo, hi);
        return 0;
    }
    *out = x;
    return 1;
}

/* A number the MPI launcher set, silently: the launcher's business, not the user's. */
static int rank_env(const char *name, long *out)
{
    const char *v = getenv(name);
    if (!v || !*v) return 0;
    char *end;
    long x = strtol(v, &end, 10);
    if (*end || x < 0) return 0;
    *out = x;
    return 1;
}

/* The environment, read once, whether or not a device is found: a bad
 * value is said even where it would not yet matter. */
typedef struct {
    int debug;     /* GLIDE_GPU_DEBUG */
    int have_device;
    long device;   /* GLIDE_DEVICE */
    long helpers;  /* GLIDE_GPU_COPY_THREADS (default 4, fewer on small hosts) */
    long spin_us;  /* GLIDE_GPU_COPY_SPIN_US */
} gg_env;

/* GLIDE_GPU_DEBUG: 1 says on stderr why the GPU gave a chunk up; 0 or unset is quiet. */
static int debug_env(void)
{
    const char *v = getenv("GLIDE_GPU_DEBUG");
    if (!v || !*v || !strcmp(v, "0")) return 0;
    if (!strcmp(v, "1")) return 1;
    fprintf(stderr, "glide: ignoring GLIDE_GPU_DEBUG=\"%s\" (0 or 1 expected); using 0\n", v);
    return 0;
}

static gg_env env_read(void)
{
    gg_env e = {debug_env(), 0, 0, sysconf(_SC_NPROCESSORS_ONLN) - 1, GG_COPY_SPIN_US};
    e.have_device = env_long("GLIDE_DEVICE", 0, 1 << 20, &e.device);
    e.helpers = e.helpers < 0 ? 0 : e.helpers > GG_COPY_DEFAULT_HELPERS ? GG_COPY_DEFAULT_HELPERS : e.helpers;
    env_long("GLIDE_GPU_COPY_THREADS", 0, GG_COPY_MAX_HELPERS, &e.helpers);
    env_long("GLIDE_GPU_COPY_SPIN_US", 0, 1000000, &e.spin_us);
    return e;
}

/* GLIDE_DEVICE, else the node-local MPI rank, modulo the device count */
static int pick_device(const gg_env *env, int count)
{
    long d = env->device;
    if (env->have_device) {
        if (d < count) return (int)d;
        fprintf(stderr, "glide: GLIDE_DEVICE=%ld but only %d GPU(s); using device %ld\n", d, count, d % count);
        return (int)(d % count);
    }
    static const char *ranks[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID", "MPI_LOCALRANKID"};
    for (size_t i = 0; i < sizeof ranks / sizeof *ranks; i++)
        if (rank_env(ranks[i], &d)) return (int)(d % count);
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

/* The frozen dictionary's books on the device: lengths, distributions
 * (v1 has them; v2 is scored by size only, as the CPU codec then does),
 * decoders and encoders. 1 if all are there. */
static int dict_upload(const glide_dictionary *d)
{
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
    ok = ok && cudaMalloc((void **)&gg_G.d_dict_len, nl) == cudaSuccess &&
         (!has_q || cudaMalloc((void **)&gg_G.d_dict_log2q, nl * sizeof(float)) == cudaSuccess) &&
         cudaMalloc((void **)&gg_G.d_dict_dec, d->n_books * sizeof *hd) == cudaSuccess &&
         cudaMemcpy(gg_G.d_dict_len, hl, nl, cudaMemcpyHostToDevice) == cudaSuccess &&
         (!has_q || cudaMemcpy(gg_G.d_dict_log2q, hq, nl * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess) &&
         cudaMemcpy(gg_G.d_dict_dec, hd, d->n_books * sizeof *hd, cudaMemcpyHostToDevice) == cudaSuccess &&
         cudaMalloc((void **)&gg_G.d_dict_enc, d->n_books * sizeof *he) == cudaSuccess &&
         cudaMemcpy(gg_G.d_dict_enc, he, d->n_books * sizeof *he, cudaMemcpyHostToDevice) == cudaSuccess;
    free(hl);
    free(hq);
    free(hd);
    free(he);
    return ok;
}

/* The state, the trial's, the book choice's work areas, the codes (and
 * format 8's class codes), and the mapped words and plan; 1 if all are
 * there. */
static int state_alloc(void)
{
    gg_ctx *c = &gg_G;
    return cudaMalloc((void **)&c->d_st, sizeof(gg_state)) == cudaSuccess &&
           cudaMemset(c->d_st, 0, sizeof(gg_state)) == cudaSuccess && /* st->rng: range_k's invariant */
           cudaMalloc((void **)&c->d_tst, GG_TRIAL_METHODS * sizeof(gg_state)) == cudaSuccess &&
           cudaMalloc((void **)&c->d_trial, sizeof(gg_trial)) == cudaSuccess &&
           cudaMalloc((void **)&c->d_trial_work, GG_TRIAL_METHODS * sizeof(gg_select_work)) == cudaSuccess &&
           cudaMalloc((void **)&c->d_slots, GG_RANGE_SLOTS * sizeof(gg_range_slot)) == cudaSuccess &&
           cudaMemset(c->d_trial_work, 0, GG_TRIAL_METHODS * sizeof(gg_select_work)) == cudaSuccess &&
           cudaMalloc((void **)&c->d_sel_work, sizeof(gg_select_work)) == cudaSuccess &&
           cudaMemset(c->d_sel_work, 0, sizeof(gg_select_work)) == cudaSuccess &&
           cudaMalloc((void **)&c->d_enc, GLIDE_NPLANES * sizeof(glide_huff_enc)) == cudaSuccess &&
           cudaMalloc((void **)&c->d_rc, GLIDE_NPLANES * sizeof(glide_run_code)) == cudaSuccess &&
           cudaMalloc((void **)&c->d_dec, GLIDE_NPLANES * sizeof(glide_huff_dec)) == cudaSuccess &&
           cudaHostAlloc((void **)&c->h_st, sizeof(gg_state), cudaHostAllocMapped) == cudaSuccess &&
           cudaHostGetDevicePointer((void **)&c->dh_st, c->h_st, 0) == cudaSuccess &&
           cudaHostAlloc((void **)&c->h_flag, GG_FLAG_WORDS * sizeof(uint64_t), cudaHostAllocMapped) == cudaSuccess &&
           cudaHostGetDevicePointer((void **)&c->dh_flag, c->h_flag, 0) == cudaSuccess &&
           cudaHostAlloc((void **)&c->h_gate, GG_GATE_WORDS * sizeof(uint32_t), cudaHostAllocMapped) == cudaSuccess &&
           cudaHostGetDevicePointer((void **)&c->dh_gate, c->h_gate, 0) == cudaSuccess &&
           cudaHostAlloc((void **)&c->h_apply, sizeof(gg_apply), cudaHostAllocMapped) == cudaSuccess &&
           cudaHostGetDevicePointer((void **)&c->dh_apply, c->h_apply, 0) == cudaSuccess &&
           cudaMallocHost((void **)&c->h_dec, GLIDE_NPLANES * sizeof(glide_huff_dec)) == cudaSuccess &&
           cudaHostAlloc((void **)&c->h_out_words, GG_COPY_MAX_PIECES * sizeof(uint32_t), cudaHostAllocMapped) ==
               cudaSuccess &&
           cudaHostGetDevicePointer((void **)&c->dh_out_words, c->h_out_words, 0) == cudaSuccess &&
           cudaMalloc((void **)&c->d_out_cnt, GG_COPY_MAX_PIECES * sizeof(uint32_t)) == cudaSuccess &&
           cudaMemset(c->d_out_cnt, 0, GG_COPY_MAX_PIECES * sizeof(uint32_t)) == cudaSuccess &&
           cudaMallocHost((void **)&c->h_head, GG_APPLY_HEAD_MAX) == cudaSuccess;
}

/* The streams and events; 1 if all are there. Large chunks' front runs on
 * s_hi at the greatest priority where the device has priorities (else
 * s_hi stays NULL), with par_hi's speculating side streams (0 and 1) at
 * that priority too. */
static int streams_create(void)
{
    gg_ctx *c = &gg_G;
    if (cudaStreamCreateWithFlags(&c->s, cudaStreamNonBlocking) != cudaSuccess ||
        cudaEventCreateWithFlags(&c->tail_fork, cudaEventDisableTiming) != cudaSuccess ||
        cudaEventCreateWithFlags(&c->tail_join, cudaEventDisableTiming) != cudaSuccess)
        return 0;
    int prio_hi = 0, least = 0, greatest = 0;
    if (cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess && greatest < least) {
        prio_hi = greatest;
        if (cudaStreamCreateWithPriority(&c->s_hi, cudaStreamNonBlocking, greatest) != cudaSuccess ||
            cudaEventCreateWithFlags(&c->hi_fork, cudaEventDisableTiming) != cudaSuccess ||
            cudaEventCreateWithFlags(&c->hi_join, cudaEventDisableTiming) != cudaSuccess)
            return 0;
    }
    cudaGetLastError(); /* a device without priorities leaves s_hi NULL */
    for (int i = 0; i <= GG_MAX_STAGES; i++)
        if (cudaEventCreate(&c->ev[i]) != cudaSuccess) return 0;
    if (cudaEventCreateWithFlags(&c->ev_plan, cudaEventDisableTiming) != cudaSuccess ||
        cudaEventCreateWithFlags(&c->ev_st, cudaEventDisableTiming) != cudaSuccess ||
        cudaStreamCreateWithFlags(&c->s_st, cudaStreamNonBlocking) != cudaSuccess ||
        cudaEventCreateWithFlags(&c->par.fork, cudaEventDisableTiming) != cudaSuccess ||
        cudaEventCreateWithFlags(&c->par.ready, cudaEventDisableTiming) != cudaSuccess)
        return 0;
    for (unsigned i = 0; i < GG_PAR_AUX; i++)
        if (cudaStreamCreateWithFlags(&c->par.aux[i], cudaStreamNonBlocking) != cudaSuccess ||
            cudaEventCreateWithFlags(&c->par.join[i], cudaEventDisableTiming) != cudaSuccess)
            return 0;
    c->par_hi = c->par; /* the events too: one front runs at a time */
    if (cudaStreamCreateWithPriority(&c->s_book, cudaStreamNonBlocking, prio_hi) != cudaSuccess ||
        cudaEventCreateWithFlags(&c->ev_bjoin, cudaEventDisableTiming) != cudaSuccess ||
        cudaEventCreateWithFlags(&c->ev_rjoin, cudaEventDisableTiming) != cudaSuccess)
        return 0;
    if (c->s_hi)
        for (unsigned i = 0; i < 2; i++)
            if (cudaStreamCreateWithPriority(&c->par_hi.aux[i], cudaStreamNonBlocking, prio_hi) != cudaSuccess)
                return 0;
    for (unsigned i = 0; i < GG_COPY_MAX_PIECES; i++)
        if (cudaEventCreateWithFlags(&c->ev_piece[i], cudaEventDisableTiming) != cudaSuccess) return 0;
    return cudaEventCreateWithFlags(&c->ev_out, cudaEventDisableTiming) == cudaSuccess;
}


/* Sets up gg_cur's context on device dev: 1 if it is ready. */
static int ctx_setup(int dev, const struct cudaDeviceProp *prop)
{
    gg_ctx *c = &gg_G;
    c->device = dev;
    snprintf(c->name, sizeof c->name, "%s (device %d)", prop->name, c->device);
    c->dict = glide_dict_get(GLIDE_DICT_VERSION);
    c->n_books = c->dict->n_books;
    if (!streams_create() || !dict_upload(c->dict) || !state_alloc()) return 0;
    c->stage_refused = SIZE_MAX;
    memset(c->h_gate, 0, GG_GATE_WORDS * sizeof(uint32_t));
    memset(c->h_out_words, 0, GG_COPY_MAX_PIECES * sizeof(uint32_t));
    c->wait32 = value_op_entry("cuStreamWaitValue32"); /* NULL: uploads stay pageable */
    c->pgate.on = 1;
    c->spec_large = 1;
    /* the first chunk launches its blended instances first: Nyx-like fields blend their finest levels */
    c->last_blend = 1;
    c->launch = (gg_launch){prop->major >= 9 ? (unsigned)GG_PDL_ALL : 0u, -1, 1, 0, 1};
    c->test.graphs = 1;
    c->test.hist0_kernel = 1;
    c->last_h0_made = -1;
    c->ok = 1;
    return 1;
}

static struct cudaDeviceProp g_prop;

static void ctx_init(void)
{
    gg_ctx *c = &g_pool[0];
    const gg_env env = env_read();
    c->debug = env.debug;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count <= 0) {
        cudaGetLastError();
        return;
    }
    const int dev = pick_device(&env, count);
    if (cudaSetDevice(dev) != cudaSuccess || cudaGetDeviceProperties(&g_prop, dev) != cudaSuccess ||
        !ctx_setup(dev, &g_prop)) {
        c->ok = 0;
        cudaGetLastError();
        fprintf(stderr, "glide: GPU found but its setup failed; using the CPU\n");
        return;
    }
    /* the copy helpers (0: pageable copies), spinning when idle (a host
     * whose cores the simulation needs may want less); the first context's
     * alone: they run one job at a time */
    c->copy_helpers = env.helpers > 0 ? gg_copy_start((unsigned)env.helpers, env.spin_us * 1000) : 0;
    g_made = 1;
}

int glide_gpu_usable(void)
{
    pthread_once(&g_once, ctx_init);
    return g_pool[0].ok && !g_pool[0].broken;
}

/* Streams that wait for a word the host writes (the gated upload, the host
 * plan's gate) cannot share the device with other threads' calls: a call
 * that synchronises the device (cudaFree, a module's first load) would
 * wait for a stream that waits for a thread stuck behind it. */
static void gates_off(gg_ctx *c)
{
    c->wait32 = NULL;
    c->pgate.on = 0;
}

unsigned glide_gpu_reserve(unsigned n)
{
    if (!glide_gpu_usable()) return 0;
    if (n > GG_MAX_CONTEXTS) n = GG_MAX_CONTEXTS;
    pthread_mutex_lock(&g_make);
    if (n > 1 && g_made < n) {
        for (unsigned i = 0; i < g_made; i++) { /* each waits for its call in flight, if any */
            pthread_mutex_lock(&g_pool[i].lock);
            gates_off(&g_pool[i]);
            pthread_mutex_unlock(&g_pool[i].lock);
        }
        gg_ctx *prev = gg_cur;
        while (g_made < n) {
            gg_ctx *c = &g_pool[g_made];
            pthread_mutex_init(&c->lock, NULL);
            c->debug = g_pool[0].debug;
            gg_cur = c;
            const int ok = cudaSetDevice(g_pool[0].device) == cudaSuccess && ctx_setup(g_pool[0].device, &g_prop);
            if (!ok) {
                cudaGetLastError(); /* its partial setup stays allocated; the contexts made serve */
                break;
            }
            gates_off(c);
            g_made++;
        }
        gg_cur = prev;
    }
    n = g_made;
    pthread_mutex_unlock(&g_make);
    return n;
}

gg_ctx *gg_acquire(void)
{
    if (!glide_gpu_usable()) return NULL;
    pthread_mutex_lock(&g_make);
    const unsigned made = g_made;
    pthread_mutex_unlock(&g_make);
    for (unsigned i = 0; i < made; i++)
        if (pthread_mutex_trylock(&g_pool[i].lock) == 0) return gg_cur = &g_pool[i];
    /* all busy: wait for one, spread by thread */
    gg_ctx *n = &g_pool[(unsigned)((uintptr_t)&gg_cur >> 6) % made];
    pthread_mutex_lock(&n->lock);
    return gg_cur = n;
}

void gg_release(gg_ctx *c)
{
    gg_cur = &g_pool[0];
    pthread_mutex_unlock(&c->lock);
}

gg_ctx *gg_context(void)
{
    glide_gpu_usable();
    return &g_pool[0];
}

int glide_gpu_device(void) { return glide_gpu_usable() ? g_pool[0].device : -1; }

size_t glide_gpu_free_memory(void)
{
    size_t avail = 0, total = 0;
    if (!glide_gpu_usable() || cudaSetDevice(g_pool[0].device) != cudaSuccess ||
        cudaMemGetInfo(&avail, &total) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return avail;
}

const char *glide_gpu_device_name(void) { return glide_gpu_usable() ? g_pool[0].name : "none"; }

unsigned glide_gpu_copy_threads(void) { return glide_gpu_usable() ? g_pool[0].copy_helpers : 0; }

void glide_gpu_time_stages(int on)
{
    pthread_mutex_lock(&gg_G.lock);
    gg_G.timing = on;
    pthread_mutex_unlock(&gg_G.lock);
}

void glide_gpu_last_stages(glide_gpu_stages *out)
{
    pthread_mutex_lock(&gg_G.lock);
    *out = gg_G.last;
    pthread_mutex_unlock(&gg_G.lock);
}

void gg_stage(const char *name)
{
    if (!gg_G.timing || gg_G.n_ev >= GG_MAX_STAGES) return;
    if (gg_G.n_ev == 0) cudaEventRecord(gg_G.ev[0], gg_G.s);
    gg_G.ev_name[gg_G.n_ev] = name;
    cudaEventRecord(gg_G.ev[++gg_G.n_ev], gg_G.s);
}

void gg_stages_begin(void)
{
    gg_G.n_ev = 0;
    if (gg_G.timing) cudaEventRecord(gg_G.ev[0], gg_G.s);
}

void gg_stages_end(void)
{
    memset(&gg_G.last, 0, sizeof gg_G.last);
    if (!gg_G.timing) return;
    for (int i = 0; i < gg_G.n_ev; i++) {
        gg_G.last.names[i] = gg_G.ev_name[i];
        cudaEventElapsedTime(&gg_G.last.ms[i], gg_G.ev[i], gg_G.ev[i + 1]);
    }
}

int gg_grow_dev(gbuf *b, size_t need)
{
    if (gg_G.test.inject > 0) {
        gg_G.test.inject--;
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

int gg_grow_host(gbuf *b, size_t need)
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

/* A sticky CUDA error leaves the context unusable: stop using the GPU. */
size_t gg_fail(cudaError_t e, const char *what)
{
    gg_gate_fill();      /* a gated upload's waits would hold the synchronisation forever */
    gg_plan_gate_open(0); /* and so would the host plan's */
    cudaError_t sticky = cudaDeviceSynchronize();
    if (sticky != cudaSuccess && sticky != cudaErrorMemoryAllocation) gg_G.broken = g_pool[0].broken = 1; /* the device's, not one context's */
    gg_G.rng_reset = 1; /* a launch that failed may have left st->rng as it was: zeroed before the next range_k */
    cudaGetLastError();
    if (gg_G.debug)
        fprintf(stderr, "glide: GPU %s failed: %s\n", what, cudaGetErrorString(e != cudaSuccess ? e : sticky));
    return GLIDE_ERROR(GPU);
}

gg_grid gg_grid_of(const glide_grid *cg, unsigned dtype)
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

size_t gg_crc_scratch_off(uint64_t n)
{
    size_t a = gg_outlier_scan_scratch(n), b = gg_huff_encode_scratch(n), c = gg_huff_decode_scratch(n);
    const size_t d = gg_runs_encode_scratch(n), e = gg_runs_decode_scratch(n);
    size_t m = a > b ? a : b;
    m = m > c ? m : c;
    m = m > d ? m : d;
    m = m > e ? m : e;
    return gg_align256(m);
}

size_t gg_scratch_need(uint64_t n, uint64_t buf_bytes) { return gg_crc_scratch_off(n) + gg_crc32_scratch(buf_bytes); }

size_t gg_dec_fork_off(uint64_t n, uint64_t buf_bytes) { return gg_align256(gg_scratch_need(n, buf_bytes)); }

size_t gg_dec_scratch_need(uint64_t n, uint64_t buf_bytes)
{
    const size_t a = gg_huff_decode_scratch(n), b = gg_runs_decode_scratch(n);
    return gg_dec_fork_off(n, buf_bytes) + (a > b ? a : b);
}
