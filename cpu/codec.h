/* CPU reference codec, as called by the API layer (common/api.c). */
#ifndef GLIDE_CPU_CODEC_H
#define GLIDE_CPU_CODEC_H
#include "format.h"
#include "dict.h"
#include "book_select.h"
#include "predict.h"
#include "huff_runs.h"

/* Encoder knobs that are not part of the public API: the benchmarks use
 * them to compare dictionaries and scoring rules. A stream made with a
 * dictionary other than the frozen one is not decodable. */
typedef struct {
    const glide_dictionary *dict; /* NULL: the frozen GLIDE_DICT_VERSION */
    glide_score score;
    double auto_slack;            /* GLIDE_BOOK_AUTO: build a custom book above this excess */
    double alpha;                 /* 0: the rule of glide_level_alpha; else this level factor */
    uint64_t *hist_out;           /* not NULL: receives the GLIDE_NSYM symbol counts (bench/glide_bench hist) */
    int no_fill_aware;            /* 1: format 1/2 stencils even where fill points occur (glide_cpu_compress only: bench, tests) */
    int no_blend;                 /* 1: no blended levels (format 4) in tuning (glide_cpu_compress only: bench, tests) */
    int force_blend;              /* tests: 1 + GLIDE_BLEND_*: every level of a 2-D or 3-D grid blended so */
    const uint8_t *level_cfg;     /* glide_bench oracle: GLIDE_MAX_LEVELS level_cfg bytes used instead of tuning, valid for
                                     the grid (glide_cpu_compress only); NULL: tuned */
    uint16_t *sym_out;            /* glide_bench levels: receives the chunk's symbols in raster order (count of them) */
    int planes;                   /* 1 (default): format 5, a book per symbol plane; 0: formats 1-4 as GLIDE 1.4
                                     wrote them (tests, benchmarks) */
    int slice;                    /* the slice method (format 6) on 3-D grids: 0 never (format 5's encoder), 1 = forced
                                     with x before y, 2 = y before x; GLIDE_SLICE_TRIAL (default): the block trial
                                     chooses among interpolation, both orders and (auto predictor) Lorenzo */
    const glide_values *values;   /* the chunk's masks and range from glide_values_scan (glide_compress); NULL: the
                                     parameters' fill value alone, the range scanned by the CPU codec */
    glide_range_report *range_out; /* GPU backend: receives the device's range scan (glide_compress) */
    int runs;                     /* 1 (default): run-coded planes (format 8) where they are smaller; 0: never (tests,
                                     benchmarks: GLIDE 1.7's streams) */
    int plan_all;                 /* tests: 1 builds every candidate book of a run-coded plane's plan, where the
                                     default skips a custom book whose floor already loses (the same plans) */
    int whole_pass;               /* tests: 1 runs interpolation over blocks of only fill points too, which the
                                     default gives FILL without the level passes, and the fill-aware stencils over
                                     blocks and tuning boxes without one, where the default takes the plain ones
                                     (the same streams) */
    int scalar;                   /* tests: 1 takes the general paths (the same streams): blended levels encoded and
                                     tuned point by point, where the default takes four points at once on x86-64
                                     (cpu/blend_sse2.h), and Lorenzo's grouped sweep on grids of one block a side */
    uint64_t *tune_trace;         /* tests: receives tuning's costs, GLIDE_TUNE_TRACE words per level (cpu/predict.h) */
    void *recon_out;              /* tests: receives the encoder's reconstruction in raster order (the chunk's type;
                                     at finite points what the decoder must give bit for bit) */
} glide_encode_opts;
#define GLIDE_SLICE_TRIAL 3

/* How a chunk of effective rank eff_rank takes the slice method: 0 not at
 * all, 1 or 2 that order forced, GLIDE_SLICE_TRIAL by the block trial
 * (interpolation and auto predictors). Both backends decide by it, so that
 * they write the same bytes. */
static inline int glide_slice_mode(const glide_params *p, const glide_encode_opts *o, unsigned eff_rank)
{
    if (eff_rank != 3 || !o->slice || !o->planes || o->force_blend || o->level_cfg) return 0;
    if (o->slice <= 2) return o->slice;
    return o->slice == GLIDE_SLICE_TRIAL && p->predictor != GLIDE_PRED_LORENZO ? GLIDE_SLICE_TRIAL : 0;
}

/* The options glide_compress uses. */
glide_encode_opts glide_default_encode_opts(void);

#define GLIDE_AUTO_SLACK 0.03

/* The entropy stage's decisions, shared by both backends so their bytes
 * agree: the book (dictionary, or custom under GLIDE_BOOK_CUSTOM / AUTO),
 * the section layout (stream_bytes an upper bound until encoded), and RAW
 * when a raw copy would be no larger. */
typedef struct {
    const glide_encode_opts *o;
    glide_layout lay;
    uint8_t len[GLIDE_NSYM];
    uint8_t book[GLIDE_NSYM]; /* custom book section bytes */
    size_t raw_total;
    int planes;               /* format 5: len1/book1 are plane 1's; n0 symbols in plane 0 */
    uint64_t n0;
    uint8_t len1[GLIDE_NSYM];
    uint8_t book1[GLIDE_NSYM];
    /* format 8: each plane's class lengths (all zero for a plane coded
     * one point at a time); h->flags says which planes are run-coded */
    uint8_t run_len[GLIDE_NPLANES][GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES];
} glide_entropy_plan;

/* One plane's book as planned. */
typedef struct {
    uint8_t kind;
    uint16_t id;
    uint32_t bytes;
    unsigned dict_version;
    uint64_t bits;
} glide_plan_book;

typedef struct {
    unsigned book;
    uint64_t bits;
    const uint64_t *sizes; /* SIZE score: every dictionary book's bits for the histogram, or NULL */
} glide_book_choice;

/* hist: GLIDE_NSYM counts; given: the dictionary book already chosen (the
 * GPU scores books on the device), or NULL to choose here. */
size_t glide_entropy_plan_hist(const glide_params *p, const glide_encode_opts *o, glide_header *h,
                               const uint64_t *hist, const glide_book_choice *given, uint64_t n, size_t esz,
                               glide_entropy_plan *plan);
/* How glide_entropy_plan_planes may plan its two planes, which share
 * nothing: both(ctx, fn, arg) calls fn(arg, 0) and fn(arg, 1), at once on
 * two threads where it can, and returns once both have returned. */
typedef struct {
    void (*both)(void *ctx, void (*fn)(void *arg, unsigned plane), void *arg);
    void *ctx;
} glide_plan_par;

/* Format 5: a book per symbol plane (hist[0]: plane 0's n0 symbols,
 * hist[1]: the other n - n0; given: both dictionary choices, or NULL);
 * h->format_version must already name 5, 6 or 7. runs: both planes' run
 * statistics (glide_run_stats_count), or NULL: no plane is run-coded;
 * where one is (o->runs), the header becomes format 8's. par: NULL plans
 * the planes in turn on this thread; the plan is the same either way. */
size_t glide_entropy_plan_planes(const glide_params *p, const glide_encode_opts *o, glide_header *h,
                                 const uint64_t *const hist[GLIDE_NPLANES], const glide_book_choice *given,
                                 const glide_run_stats *runs, uint64_t n0, uint64_t n, size_t esz,
                                 glide_entropy_plan *plan, const glide_plan_par *par);
/* The header fields fixed by the parameters alone. */
void glide_header_begin(glide_header *h, const glide_params *p);
/* Finishes h as a RAW stream of src and writes it (with CRC) to dst. */
size_t glide_write_raw(glide_header *h, const void *src, uint64_t n, uint8_t *dst, size_t cap);

/* Decodes a coded stream's n symbols in stream order into sym: formats 5
 * and 6 plane 0's n0 (glide_plane0_count), then plane 1's, each with its
 * book; earlier formats pass n0 = n. */
size_t glide_entropy_read(const glide_header *h, const glide_layout *lay, const uint8_t *src, uint16_t *sym,
                          uint64_t n, uint64_t n0);

size_t glide_cpu_compress(const glide_params *p, const glide_encode_opts *o, const void *src,
                          void *dst, size_t cap);
size_t glide_cpu_decompress(const glide_header *h, const glide_layout *lay, const uint8_t *src, void *dst);

/* Level-wise bounds: level l (1 = finest) gets eb / alpha^(l-1), computed by
 * repeated division so every backend gets the same doubles. */
double glide_level_alpha(double rel_eb);
void glide_level_bounds(double eb, double alpha, unsigned levels, double *out);
#endif
