/* The GLIDE filter's cd_values: what users pass, and what set_local adds.
 *
 * Pure C, no HDF5 and no codec calls (glide.h only for its enums), so the parsing and validation rules can
 * be unit-tested on their own (filter/test_cd_values.c).
 *
 * User part (3, 4 or 6 values):
 *   [0] mode      0 = ABS, 1 = REL
 *   [1] mantissa  >= 1
 *   [2] exponent  0..40;  eb = mantissa * 10^-exponent
 *   [3] options   optional, default 0:
 *                 bits 0-3  predictor   (0 auto, 1 Lorenzo, 2 interpolation)
 *                 bits 4-7  codebook    (0 auto, 1 dictionary, 2 custom)
 *                 bits 8-11 anchor stride log2 (0 codec default, else 2..15)
 *                 bits 12-13 sentinel (0 auto, 1 off, 2 the value in [4], [5])
 *                 bits 14-31 must be 0
 *   [4] [5]      with sentinel 2 only: its bits in the dataset's type,
 *                low and high 32 (high 0 for float32)
 * Internal part, appended by set_local after the user part (4 values, or 6
 * with a sentinel value); b = 4 or 6:
 *   [b] layout version (1 after 4 user values, 2 after 6)
 *   [b+1] dtype (1 f32, 2 f64)   [b+2] byte order (0 LE, 1 BE)
 *   [b+3] has_fill   [b+4] fill bits low 32   [b+5] fill bits high 32 (native order)
 *   [b+6] chunk rank   [b+7 ..] chunk dims, slowest first
 * Layout 1 is GLIDE 1.0-1.6's, so files written without a sentinel option
 * stay readable by those releases.
 */
#ifndef GLIDE_FILTER_CD_VALUES_H
#define GLIDE_FILTER_CD_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "glide.h"

#define GF_FILTER_ID 45123
#define GF_FILTER_NAME "glide"

#define GF_USER_MIN 3
#define GF_USER_SENTINEL 6 /* user values with a sentinel value */
#define GF_LAYOUT_VERSION 1
#define GF_LAYOUT_SENTINEL 2
#define GF_INTERNAL_VALUES 7 /* internal values before the chunk dims */
#define GF_INTERNAL_HEAD 11  /* all values before the chunk dims, layout 1 */
#define GF_MAX_RANK 32
#define GF_CD_MAX (GF_USER_SENTINEL + GF_INTERNAL_VALUES + GF_MAX_RANK)
#define GF_MAX_EXPONENT 40

#define GF_OPT_PRED_SHIFT 0
#define GF_OPT_BOOK_SHIFT 4
#define GF_OPT_STRIDE_SHIFT 8
#define GF_OPT_SENTINEL_SHIFT 12
#define GF_OPT_KNOWN_MASK 0x3FFFu

/* mode, predictor, codebook, sentinel and dtype are stored with glide.h's
 * numbers (glide_mode, glide_predictor, glide_codebook, glide_sentinel,
 * glide_dtype), which are frozen for that reason. */
enum { GF_ORDER_LE = 0, GF_ORDER_BE = 1 };

typedef struct {
    /* user part */
    unsigned mode;
    unsigned mantissa;
    unsigned exponent;
    unsigned options;
    unsigned predictor;  /* decoded from options */
    unsigned codebook;   /* GF_BOOK_* */
    unsigned stride_log2;
    unsigned sentinel;      /* GF_SENTINEL_* */
    uint64_t sentinel_bits; /* GLIDE_SENTINEL_VALUE */
    /* internal part; valid only when has_internal */
    int has_internal;
    unsigned dtype;      /* glide_dtype */
    unsigned byte_order; /* GF_ORDER_* */
    unsigned has_fill;
    uint64_t fill_bits;
    unsigned rank;
    uint32_t dims[GF_MAX_RANK];
} gf_config;

/* Parse cd_values. Accepts the 3/4/6-value user form, and the full form that an
 * earlier set_local produced (so a dcpl copied by h5repack still validates).
 * Anything else is rejected. Returns 0 on success; on failure returns -1 and
 * writes a message naming the bad value into msg. */
int gf_parse(const unsigned *cd, size_t n, gf_config *cfg, char *msg, size_t msg_len);

/* Error bound as a double: mantissa / 10^exponent (division keeps 1e-3 as the
 * nearest double to 0.001, which mantissa * 1e-3 would not always give). */
double gf_error_bound(const gf_config *cfg);

/* Write the full (user + internal) form. Returns the number of values, or 0
 * when cap is too small or the internal part is invalid. */
size_t gf_encode(const gf_config *cfg, unsigned *cd, size_t cap);

/* Element size in bytes for cfg->dtype (0 if unknown). */
size_t gf_elem_size(unsigned dtype);

#endif
