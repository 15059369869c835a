/* Fuzz target: any cd_values array (a file's filter pipeline message can
 * hold anything) is parsed or rejected with a message, never a crash; what
 * parses has a finite bound, a known predictor and codebook, and its full
 * form (gf_encode, as set_local writes it) parses back to the same config. */
#include "cd_values.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int same(const gf_config *a, const gf_config *b)
{
    return a->mode == b->mode && a->mantissa == b->mantissa && a->exponent == b->exponent &&
           a->options == b->options && a->predictor == b->predictor && a->codebook == b->codebook &&
           a->stride_log2 == b->stride_log2 && a->has_internal == b->has_internal && a->dtype == b->dtype &&
           a->byte_order == b->byte_order && a->has_fill == b->has_fill && a->fill_bits == b->fill_bits &&
           a->rank == b->rank && !memcmp(a->dims, b->dims, sizeof a->dims);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned cd[GF_CD_MAX + 8];
    const size_t n = size / 4 < sizeof cd / sizeof cd[0] ? size / 4 : sizeof cd / sizeof cd[0];
    memcpy(cd, data, n * 4);
    gf_config cfg, back;
    char msg[256];
    if (gf_parse(cd, n, &cfg, msg, sizeof msg) != 0) {
        if (!memchr(msg, '\0', sizeof msg) || strncmp(msg, "glide: ", 7) != 0) abort(); /* a message, always */
        return 0;
    }
    const double eb = gf_error_bound(&cfg);
    if (!(eb >= 0 && eb <= 4294967295.0) || cfg.mode > GLIDE_MODE_REL || cfg.predictor > GLIDE_PRED_INTERP ||
        cfg.codebook > GLIDE_BOOK_CUSTOM)
        abort();
    if (!cfg.has_internal) return 0;
    unsigned full[GF_CD_MAX];
    const size_t m = gf_encode(&cfg, full, GF_CD_MAX);
    if (m == 0 || gf_parse(full, m, &back, msg, sizeof msg) != 0 || !same(&cfg, &back)) abort();
    return 0;
}
