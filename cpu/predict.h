/* Prediction + quantization stages of the CPU reference codec. Each function
 * exists for float (_f32) and double (_f64); arithmetic is done in the
 * data's own type in the exact order docs/FORMAT.md gives, so that another
 * backend (gpu/) reproduces every bit. */
#ifndef GLIDE_PREDICT_H
#define GLIDE_PREDICT_H
#include <stddef.h>
#include <stdint.h>
#include "format.h"
#include "cost.h"

typedef struct {
    uint64_t n[3];  /* shape padded to 3-D with leading 1s, slowest first */
    size_t st[3];   /* element strides */
    uint64_t count;
    unsigned eff_rank;
    unsigned blog;  /* anchor stride 2^blog */
    int has_fill;
    uint64_t fill_bits;
    /* format 7 (encoder): a sentinel beside the fill value (README
     * "Missing values"), FILL as well and left out of the range */
    int has_fill2;
    uint64_t fill2_bits;
    /* format 2: n[0] = slabs x slab_rows, and no block, step or stencil
     * crosses from one slab to the next; else 1 slab of n[0] rows */
    uint64_t slabs, slab_rows;
    /* format 3: interpolation stencils leave fill points out (FORMAT.md §8.2) */
    int fill_aware;
    /* encoder: tuning may blend levels (format 4, §8.4): GLIDE_TUNE_* */
    int blend;
    /* tests: interpolation in one pass even over blocks of only fill points */
    int whole_pass;
    /* tests: the general paths: blended runs and tuning point by point
     * (no four-lane path), Lorenzo's grouped sweep on the smallest grids */
    int scalar;
    /* tests: tuning's costs per level (GLIDE_TUNE_TRACE words a level), or NULL */
    uint64_t *tune_trace;
} glide_grid;

/* glide_grid.tune_trace's words a level: the sum of every step cost
 * tuning took, the best plain candidate's cost, each blend's cost */
#define GLIDE_TUNE_TRACE (2 + GLIDE_NBLENDS)

/* A chunk's masked values and value range, decided once before either
 * backend runs (README.md, "Missing values"): the stream's fill value is
 * the user's or, in a chunk without fill points, a sentinel; a sentinel
 * beside fill points is the second fill value of format 7 (CPU backend).
 * lo, hi, any and fills are glide_value_range's results for the grid
 * these describe. */
typedef struct {
    int has_fill;
    uint64_t fill_bits;
    int has_fill2;
    uint64_t fill2_bits;
    int any, fills;
    double lo, hi;
} glide_values;

/* The sentinel rule: the chunk's greatest (or least) finite value, not
 * zero, whose gap to every other value exceeds GLIDE_SENTINEL_GAP times
 * the range of the others, or GLIDE_SENTINEL_GAP_LONE times where it
 * occurs once (README.md, "Missing values", says what real fields give). */
#define GLIDE_SENTINEL_GAP 4.0
#define GLIDE_SENTINEL_GAP_LONE 64.0

/* A chunk's finite values, fill points left out: least and greatest, the
 * next distinct ones inwards (+inf / -inf where there are none) and how
 * many points hold each end (a count over 2 may read 2). */
typedef struct {
    double lo, hi, lo2, hi2;
    uint64_t n[2]; /* at lo, at hi */
} glide_extremes;

/* Which end is a sentinel by the rule: 0 lo, 1 hi, -1 neither. open[s]: end
 * s may be one (a caller that has seen a value ruling it out passes 0);
 * where both qualify, the larger gap ratio, then the larger magnitude. */
int glide_sentinel_side(const glide_extremes *e, const int open[2]);

/* What the GPU's range scan saw of a chunk (glide_compress applies the
 * sentinel rule to it): valid once reported; any, a finite value that is
 * not fill; any_fill, a fill point. */
typedef struct {
    int valid, any, any_fill;
    glide_extremes e;
} glide_range_report;

/* glide_grid.blend: no blends, blends where tuning finds them cheaper, or
 * (tests) every level blended with residual spline GLIDE_BLEND_* = v at
 * GLIDE_TUNE_FORCE + v. */
enum { GLIDE_TUNE_NO_BLEND = 0, GLIDE_TUNE_BLEND = 1, GLIDE_TUNE_FORCE = 2 };

void glide_grid_init(glide_grid *g, const glide_shape *s, unsigned blog, int has_fill, uint64_t fill_bits);
/* One slab as a grid of its own (the same strides); slab k starts k x
 * glide_slab_elems(g) elements into the arrays. One slab: the grid itself. */
void glide_grid_slab(const glide_grid *g, glide_grid *slab);
static inline size_t glide_slab_elems(const glide_grid *g) { return (size_t)g->slab_rows * g->st[0]; }

/* Axes that take part in interpolation, and the dimension orders of a rank. */
const uint8_t *glide_order_axes(unsigned eff_rank, unsigned order);

/* Tuning samples every k-th block on each axis (k returned; nb gets the
 * blocks per axis): about 1/32 of the points, at most about
 * GLIDE_TUNE_MAX_POINTS (the choices are per level and chunk, and a sample
 * of 128 blocks of 16^3 decides them as well as a larger one: past 256^3
 * the tuning passes only cost time). An encoder choice, not part of the
 * format; the GPU takes its k from here too. */
#define GLIDE_TUNE_MAX_POINTS (1ull << 19)
uint64_t glide_tune_stride(const glide_grid *g, uint64_t nb[3]);

/* That sample as a lattice of blocks numbered in index order, shared by
 * tuning and the predictor choice: block b's closed box [lo, hi] (its
 * upper faces included where the grid goes on), in the coordinates of its
 * slab (glide_grid_slab), and that slab's number. */
typedef struct { uint64_t k, m[3], count; } glide_sample_lattice;
void glide_sample_lattice_init(const glide_grid *g, glide_sample_lattice *s);
void glide_sample_block(const glide_grid *g, const glide_sample_lattice *s, uint64_t b, uint64_t lo[3], uint64_t hi[3],
                        uint64_t *slab);
/* The block trial's boxes (cpu/codec_tmpl.h): all of one size d, B + 1
 * points a side or the slab's extent where smaller; box b of the sample
 * starts at lo (its block's corner, moved back so the box fits) in the slab
 * returned. */
void glide_trial_box(const glide_grid *g, uint64_t d[3]);
uint64_t glide_trial_box_origin(const glide_grid *g, const glide_sample_lattice *s, uint64_t b, const uint64_t d[3],
                                uint64_t lo[3]);

/* The predictor choice's cost of one open-loop prediction error e, in 1/8
 * bits: about 8 log2(1 + u), u = sqrt(e^2 + n2 eb^2) / (2 eb) the error in
 * quantization steps once the noise that reconstructed neighbours add in the
 * real pass (variance n2 eb^2) is counted. Only IEEE-exact operations and
 * integers, so both backends compute the same sums. */
#define GLIDE_DECLARE_PREDICT(T, SFX)                                                                  \
    void glide_value_range_##SFX(const glide_grid *g, const T *x, double *lo, double *hi, int *any, int *fills);   \
    void glide_values_scan_##SFX(const glide_params *p, const T *x, uint64_t n, glide_values *out);               \
    void glide_anchors_encode_##SFX(const glide_grid *g, const T *x, T *r, uint16_t *sym, T *anc, T subst); \
    size_t glide_anchors_decode_##SFX(const glide_grid *g, T *r, const uint16_t *sym, const T *anc, T subst); \
    uint64_t glide_outliers_gather_##SFX(const uint16_t *sym, const T *x, uint64_t n, T *out);          \
    size_t glide_outliers_place_##SFX(const glide_grid *g, const uint16_t *sym, uint64_t n, const T *out, uint64_t n_out, \
                                      T *r, T subst);                                                   \
    uint64_t glide_fill_runs_##SFX(const glide_grid *g, const T *x, const uint16_t *sym, uint64_t n, uint8_t *runs); \
    size_t glide_fixup_##SFX(const uint16_t *sym, uint64_t n, const T *out, T *r, T fill, T fill2,           \
                             const uint8_t *runs, uint64_t n_runs);                                       \
    void glide_interp_tune_##SFX(const glide_grid *g, const T *x, T *w, double unit, T subst, uint8_t *level_cfg);            \
    void glide_interp_estimate_##SFX(const glide_grid *g, const T *x, T *w, const uint8_t *level_cfg, double eb, T subst,     \
                                     uint64_t est[2]);                                                                      \
    void glide_lorenzo_estimate_##SFX(const glide_grid *g, const T *x, double eb, T subst, uint64_t est[2]); \
    void glide_interp_encode_##SFX(const glide_grid *g, const T *x, T *r, T *w, uint16_t *sym,         \
                                   const uint8_t *level_cfg, const double *level_eb, double eb, T subst); \
    void glide_interp_decode_##SFX(const glide_grid *g, T *r, T *w, const uint16_t *sym,               \
                                   const uint8_t *level_cfg, const double *level_eb, T subst);          \
    void glide_lorenzo_encode_##SFX(const glide_grid *g, const T *x, T *r, uint16_t *sym, double eb, T subst); \
    void glide_lorenzo_decode_##SFX(const glide_grid *g, T *r, const uint16_t *sym, double eb, T subst); \
    /* the slice method (format 6), cpu/slice_tmpl.h */                                             \
    void glide_slice_encode_##SFX(const glide_grid *g, const T *x, T *r, T *sp, uint16_t *sym, double eb, T subst, int yx); \
    void glide_slice_decode_##SFX(const glide_grid *g, T *r, T *sp, uint16_t *sym, double eb, T subst, int yx);

GLIDE_DECLARE_PREDICT(float, f32)
GLIDE_DECLARE_PREDICT(double, f64)
#endif
