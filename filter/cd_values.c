#include "cd_values.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int fail(char *msg, size_t msg_len, const char *fmt, ...)
{
    if (msg && msg_len) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, msg_len, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int parse_user(const unsigned *cd, size_t n, gf_config *cfg, char *msg, size_t msg_len)
{
    cfg->mode = cd[0];
    cfg->mantissa = cd[1];
    cfg->exponent = cd[2];
    cfg->options = n > 3 ? cd[3] : 0;

    if (cfg->mode != GLIDE_MODE_ABS && cfg->mode != GLIDE_MODE_REL)
        return fail(msg, msg_len, "glide: unknown mode %u in cd_values[0] (0 = ABS, 1 = REL)",
                    cfg->mode);
    if (cfg->mantissa == 0)
        return fail(msg, msg_len,
                    "glide: mantissa 0 in cd_values[1] (error bound = mantissa * 10^-exponent, "
                    "mantissa must be >= 1)");
    if (cfg->exponent > GF_MAX_EXPONENT)
        return fail(msg, msg_len, "glide: exponent %u in cd_values[2] is out of range (0..%d)",
                    cfg->exponent, GF_MAX_EXPONENT);
    if (cfg->options & ~GF_OPT_KNOWN_MASK)
        return fail(msg, msg_len, "glide: unknown option bits 0x%X in cd_values[3] = 0x%X",
                    cfg->options & ~GF_OPT_KNOWN_MASK, cfg->options);

    cfg->predictor = (cfg->options >> GF_OPT_PRED_SHIFT) & 0xFu;
    cfg->codebook = (cfg->options >> GF_OPT_BOOK_SHIFT) & 0xFu;
    cfg->stride_log2 = (cfg->options >> GF_OPT_STRIDE_SHIFT) & 0xFu;
    if (cfg->predictor > GLIDE_PRED_INTERP)
        return fail(msg, msg_len,
                    "glide: unknown predictor %u in cd_values[3] bits 0-3 "
                    "(0 auto, 1 Lorenzo, 2 interpolation)",
                    cfg->predictor);
    if (cfg->codebook > GLIDE_BOOK_CUSTOM)
        return fail(msg, msg_len,
                    "glide: unknown codebook %u in cd_values[3] bits 4-7 "
                    "(0 auto, 1 dictionary, 2 custom)",
                    cfg->codebook);
    if (cfg->stride_log2 == 1)
        return fail(msg, msg_len,
                    "glide: anchor stride log2 1 in cd_values[3] bits 8-11 "
                    "(0 = codec default, else 2..15)");
    cfg->sentinel = (cfg->options >> GF_OPT_SENTINEL_SHIFT) & 0x3u;
    if (cfg->sentinel > GLIDE_SENTINEL_VALUE)
        return fail(msg, msg_len,
                    "glide: unknown sentinel setting 3 in cd_values[3] bits 12-13 "
                    "(0 auto, 1 off, 2 the value in cd_values[4], [5])");
    if (cfg->sentinel == GLIDE_SENTINEL_VALUE) {
        if (n < GF_USER_SENTINEL)
            return fail(msg, msg_len,
                        "glide: sentinel 2 in cd_values[3] bits 12-13 needs its bits in "
                        "cd_values[4] (low 32) and cd_values[5] (high 32, 0 for float32); "
                        "%zu filter parameters given",
                        n);
        cfg->sentinel_bits = (uint64_t)cd[4] | ((uint64_t)cd[5] << 32);
    }
    return 0;
}

/* The number of user values in a well-formed array. */
static size_t user_count(const gf_config *cfg)
{
    return cfg->sentinel == GLIDE_SENTINEL_VALUE ? GF_USER_SENTINEL : 4;
}

#define COUNT_MSG "glide: %zu filter parameters given; expected 3 or 4 (mode, mantissa, exponent[, options]), or 6 with a sentinel value"

static int parse_internal(const unsigned *cd, size_t n, gf_config *cfg, char *msg, size_t msg_len)
{
    /* The internal part is only ever written by set_local; anything that does
     * not match its layout exactly is a user error, not something to guess at. */
    const size_t b = user_count(cfg), head = b + GF_INTERNAL_VALUES;
    const unsigned version = b == GF_USER_SENTINEL ? GF_LAYOUT_SENTINEL : GF_LAYOUT_VERSION;
    if (n < head || cd[b] != version)
        return fail(msg, msg_len, COUNT_MSG, n);
    unsigned rank = cd[b + 6];
    if (rank < 1 || rank > GF_MAX_RANK || n != head + (size_t)rank)
        return fail(msg, msg_len, COUNT_MSG, n);
    if (cd[b + 1] != GLIDE_FLOAT32 && cd[b + 1] != GLIDE_FLOAT64)
        return fail(msg, msg_len, "glide: bad internal dtype %u in cd_values[%zu]", cd[b + 1], b + 1);
    if (cd[b + 2] != GF_ORDER_LE && cd[b + 2] != GF_ORDER_BE)
        return fail(msg, msg_len, "glide: bad internal byte order %u in cd_values[%zu]", cd[b + 2], b + 2);
    if (cd[b + 3] > 1)
        return fail(msg, msg_len, "glide: bad internal fill flag %u in cd_values[%zu]", cd[b + 3], b + 3);
    cfg->dtype = cd[b + 1];
    cfg->byte_order = cd[b + 2];
    cfg->has_fill = cd[b + 3];
    cfg->fill_bits = (uint64_t)cd[b + 4] | ((uint64_t)cd[b + 5] << 32);
    cfg->rank = rank;
    for (unsigned i = 0; i < rank; i++) {
        if (cd[head + i] == 0)
            return fail(msg, msg_len, "glide: internal chunk dimension %u is 0", i);
        cfg->dims[i] = cd[head + i];
    }
    if (cfg->dtype == GLIDE_FLOAT32 && (cfg->sentinel_bits >> 32))
        return fail(msg, msg_len, "glide: a float32 sentinel's high bits cd_values[5] must be 0");
    cfg->has_internal = 1;
    return 0;
}

int gf_parse(const unsigned *cd, size_t n, gf_config *cfg, char *msg, size_t msg_len)
{
    memset(cfg, 0, sizeof *cfg);
    if (msg && msg_len)
        msg[0] = '\0';
    if (!cd || n < GF_USER_MIN)
        return fail(msg, msg_len,
                    "glide: too few filter parameters (%zu given; need mode, mantissa, "
                    "exponent[, options])",
                    n);
    if (parse_user(cd, n, cfg, msg, msg_len) < 0)
        return -1;
    if (n == 3 || n == user_count(cfg))
        return 0;
    if (n < user_count(cfg) + GF_INTERNAL_VALUES)
        return fail(msg, msg_len, COUNT_MSG, n);
    return parse_internal(cd, n, cfg, msg, msg_len);
}

double gf_error_bound(const gf_config *cfg)
{
    return (double)cfg->mantissa / pow(10.0, (double)cfg->exponent);
}

size_t gf_elem_size(unsigned dtype)
{
    return dtype == GLIDE_FLOAT32 ? 4 : dtype == GLIDE_FLOAT64 ? 8 : 0;
}

size_t gf_encode(const gf_config *cfg, unsigned *cd, size_t cap)
{
    const size_t b = user_count(cfg), head = b + GF_INTERNAL_VALUES;
    size_t n = head + (size_t)cfg->rank;
    if (cfg->rank < 1 || cfg->rank > GF_MAX_RANK || cap < n || gf_elem_size(cfg->dtype) == 0)
        return 0;
    cd[0] = cfg->mode;
    cd[1] = cfg->mantissa;
    cd[2] = cfg->exponent;
    cd[3] = cfg->options;
    if (b == GF_USER_SENTINEL) {
        cd[4] = (unsigned)(cfg->sentinel_bits & 0xFFFFFFFFu);
        cd[5] = (unsigned)(cfg->sentinel_bits >> 32);
    }
    cd[b] = b == GF_USER_SENTINEL ? GF_LAYOUT_SENTINEL : GF_LAYOUT_VERSION;
    cd[b + 1] = cfg->dtype;
    cd[b + 2] = cfg->byte_order;
    cd[b + 3] = cfg->has_fill ? 1u : 0u;
    cd[b + 4] = (unsigned)(cfg->fill_bits & 0xFFFFFFFFu);
    cd[b + 5] = (unsigned)(cfg->fill_bits >> 32);
    cd[b + 6] = cfg->rank;
    for (unsigned i = 0; i < cfg->rank; i++)
        cd[head + i] = cfg->dims[i];
    return n;
}
