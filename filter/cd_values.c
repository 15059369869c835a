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

    if (cfg->mode != GF_MODE_ABS && cfg->mode != GF_MODE_REL)
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
    if (cfg->predictor > GF_PRED_INTERP)
        return fail(msg, msg_len,
                    "glide: unknown predictor %u in cd_values[3] bits 0-3 "
                    "(0 auto, 1 Lorenzo, 2 interpolation)",
                    cfg->predictor);
    if (cfg->codebook > GF_BOOK_CUSTOM)
        return fail(msg, msg_len,
                    "glide: unknown codebook %u in cd_values[3] bits 4-7 "
                    "(0 auto, 1 dictionary, 2 custom)",
                    cfg->codebook);
    if (cfg->stride_log2 == 1)
        return fail(msg, msg_len,
                    "glide: anchor stride log2 1 in cd_values[3] bits 8-11 "
                    "(0 = codec default, else 2..15)");
    return 0;
}

static int parse_internal(const unsigned *cd, size_t n, gf_config *cfg, char *msg, size_t msg_len)
{
    /* The internal part is only ever written by set_local; anything that does
     * not match its layout exactly is a user error, not something to guess at. */
    if (n < GF_INTERNAL_HEAD || cd[4] != GF_LAYOUT_VERSION)
        return fail(msg, msg_len,
                    "glide: %zu filter parameters given; expected 3 or 4 "
                    "(mode, mantissa, exponent[, options])",
                    n);
    unsigned rank = cd[10];
    if (rank < 1 || rank > GF_MAX_RANK || n != GF_INTERNAL_HEAD + (size_t)rank)
        return fail(msg, msg_len,
                    "glide: %zu filter parameters given; expected 3 or 4 "
                    "(mode, mantissa, exponent[, options])",
                    n);
    if (cd[5] != GF_DTYPE_F32 && cd[5] != GF_DTYPE_F64)
        return fail(msg, msg_len, "glide: bad internal dtype %u in cd_values[5]", cd[5]);
    if (cd[6] != GF_ORDER_LE && cd[6] != GF_ORDER_BE)
        return fail(msg, msg_len, "glide: bad internal byte order %u in cd_values[6]", cd[6]);
    if (cd[7] > 1)
        return fail(msg, msg_len, "glide: bad internal fill flag %u in cd_values[7]", cd[7]);
    cfg->dtype = cd[5];
    cfg->byte_order = cd[6];
    cfg->has_fill = cd[7];
    cfg->fill_bits = (uint64_t)cd[8] | ((uint64_t)cd[9] << 32);
    cfg->rank = rank;
    for (unsigned i = 0; i < rank; i++) {
        if (cd[GF_INTERNAL_HEAD + i] == 0)
            return fail(msg, msg_len, "glide: internal chunk dimension %u is 0", i);
        cfg->dims[i] = cd[GF_INTERNAL_HEAD + i];
    }
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
    if (n <= GF_USER_MAX)
        return 0;
    return parse_internal(cd, n, cfg, msg, msg_len);
}

double gf_error_bound(const gf_config *cfg)
{
    return (double)cfg->mantissa / pow(10.0, (double)cfg->exponent);
}

size_t gf_elem_size(unsigned dtype)
{
    return dtype == GF_DTYPE_F32 ? 4 : dtype == GF_DTYPE_F64 ? 8 : 0;
}

size_t gf_encode(const gf_config *cfg, unsigned *cd, size_t cap)
{
    size_t n = GF_INTERNAL_HEAD + (size_t)cfg->rank;
    if (cfg->rank < 1 || cfg->rank > GF_MAX_RANK || cap < n || gf_elem_size(cfg->dtype) == 0)
        return 0;
    cd[0] = cfg->mode;
    cd[1] = cfg->mantissa;
    cd[2] = cfg->exponent;
    cd[3] = cfg->options;
    cd[4] = GF_LAYOUT_VERSION;
    cd[5] = cfg->dtype;
    cd[6] = cfg->byte_order;
    cd[7] = cfg->has_fill ? 1u : 0u;
    cd[8] = (unsigned)(cfg->fill_bits & 0xFFFFFFFFu);
    cd[9] = (unsigned)(cfg->fill_bits >> 32);
    cd[10] = cfg->rank;
    for (unsigned i = 0; i < cfg->rank; i++)
        cd[GF_INTERNAL_HEAD + i] = cfg->dims[i];
    return n;
}
