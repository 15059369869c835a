/* Unit test of the cd_values rules (no HDF5, no codec). */
#include <stdio.h>
#include <string.h>

#include "cd_values.h"

static int failures;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                              \
        }                                                                            \
    } while (0)

/* Parse must fail and its message must mention `needle`. */
static void expect_reject(const unsigned *cd, size_t n, const char *needle)
{
    gf_config cfg;
    char msg[256];
    int rc = gf_parse(cd, n, &cfg, msg, sizeof msg);
    CHECK(rc == -1);
    if (!strstr(msg, needle)) {
        fprintf(stderr, "message \"%s\" lacks \"%s\"\n", msg, needle);
        failures++;
    }
}

int main(void)
{
    gf_config cfg;
    char msg[256];

    const unsigned abs3[] = {0, 1, 3};
    CHECK(gf_parse(abs3, 3, &cfg, msg, sizeof msg) == 0);
    CHECK(cfg.mode == GLIDE_MODE_ABS && cfg.options == 0 && !cfg.has_internal);
    CHECK(gf_error_bound(&cfg) == 1e-3);

    const unsigned rel4[] = {1, 5, 2, 0x521};
    CHECK(gf_parse(rel4, 4, &cfg, msg, sizeof msg) == 0);
    CHECK(cfg.predictor == GLIDE_PRED_LORENZO && cfg.codebook == GLIDE_BOOK_CUSTOM &&
          cfg.stride_log2 == 5);
    CHECK(gf_error_bound(&cfg) == 0.05);

    const unsigned m7[] = {7, 1, 3};
    expect_reject(m7, 3, "mode 7");
    const unsigned man0[] = {0, 0, 3};
    expect_reject(man0, 3, "mantissa 0");
    const unsigned e41[] = {0, 1, 41};
    expect_reject(e41, 3, "exponent 41");
    const unsigned hi_bits[] = {0, 1, 3, 0x4000};
    expect_reject(hi_bits, 4, "option bits 0x4000");
    const unsigned sent3[] = {0, 1, 3, 0x3000};
    expect_reject(sent3, 4, "sentinel setting 3");
    const unsigned sent_off[] = {1, 1, 3, 0x1000};
    CHECK(gf_parse(sent_off, 4, &cfg, msg, sizeof msg) == 0 && cfg.sentinel == GLIDE_SENTINEL_OFF);
    const unsigned sent_short[] = {1, 1, 3, 0x2000};
    expect_reject(sent_short, 4, "needs its bits");
    const unsigned sent_val[] = {1, 1, 3, 0x2000, 0x60AD78ECu, 0};
    CHECK(gf_parse(sent_val, 6, &cfg, msg, sizeof msg) == 0 && cfg.sentinel == GLIDE_SENTINEL_VALUE &&
          cfg.sentinel_bits == 0x60AD78ECu && !cfg.has_internal);
    const unsigned six_no_sent[] = {1, 1, 3, 0, 5, 0};
    expect_reject(six_no_sent, 6, "6 filter parameters");
    const unsigned pred2[] = {0, 1, 3, 0x2};
    CHECK(gf_parse(pred2, 4, &cfg, msg, sizeof msg) == 0 && cfg.predictor == GLIDE_PRED_INTERP);
    const unsigned pred3[] = {0, 1, 3, 0x3};
    expect_reject(pred3, 4, "predictor 3");
    const unsigned book3[] = {0, 1, 3, 0x30};
    expect_reject(book3, 4, "codebook 3");
    const unsigned stride1[] = {0, 1, 3, 0x100};
    expect_reject(stride1, 4, "stride log2 1");
    expect_reject(abs3, 2, "too few");
    expect_reject(NULL, 0, "too few");
    const unsigned five[] = {0, 1, 3, 0, 9};
    expect_reject(five, 5, "5 filter parameters");

    /* Round trip through the internal form, as set_local writes it and a
     * later set_local (h5repack) or the filter reads it back. */
    const unsigned user[] = {1, 1, 4, 0x11};
    CHECK(gf_parse(user, 4, &cfg, msg, sizeof msg) == 0);
    cfg.dtype = GLIDE_FLOAT64;
    cfg.byte_order = GF_ORDER_BE;
    cfg.has_fill = 1;
    cfg.fill_bits = 0x7FF8000000000001ull;
    cfg.rank = 3;
    cfg.dims[0] = 1;
    cfg.dims[1] = 7;
    cfg.dims[2] = 4096;
    unsigned full[GF_CD_MAX];
    size_t n = gf_encode(&cfg, full, GF_CD_MAX);
    CHECK(n == GF_INTERNAL_HEAD + 3);
    CHECK(gf_encode(&cfg, full, 5) == 0);
    gf_config back;
    CHECK(gf_parse(full, n, &back, msg, sizeof msg) == 0);
    CHECK(back.has_internal && back.dtype == GLIDE_FLOAT64 && back.byte_order == GF_ORDER_BE);
    CHECK(back.fill_bits == cfg.fill_bits && back.rank == 3 && back.dims[2] == 4096);
    CHECK(back.options == 0x11 && back.mode == 1 && back.exponent == 4);

    /* A damaged internal part is rejected, not guessed at. */
    unsigned bad[GF_CD_MAX];
    memcpy(bad, full, sizeof full);
    bad[4] = 2;
    expect_reject(bad, n, "filter parameters given");
    memcpy(bad, full, sizeof full);
    bad[10] = 4; /* rank says 4, only 3 dims present */
    expect_reject(bad, n, "filter parameters given");
    memcpy(bad, full, sizeof full);
    bad[5] = 3;
    expect_reject(bad, n, "dtype");

    /* With a sentinel value: layout 2, after the 6 user values. */
    const unsigned user6[] = {0, 1, 2, 0x2000, 0x11223344u, 0xC0C3880u};
    CHECK(gf_parse(user6, 6, &cfg, msg, sizeof msg) == 0);
    cfg.dtype = GLIDE_FLOAT64;
    cfg.has_fill = 1;
    cfg.rank = 2;
    cfg.dims[0] = 5;
    cfg.dims[1] = 9;
    n = gf_encode(&cfg, full, GF_CD_MAX);
    CHECK(n == GF_USER_SENTINEL + GF_INTERNAL_VALUES + 2 && full[6] == GF_LAYOUT_SENTINEL);
    CHECK(gf_parse(full, n, &back, msg, sizeof msg) == 0);
    CHECK(back.has_internal && back.sentinel == GLIDE_SENTINEL_VALUE &&
          back.sentinel_bits == 0x0C0C388011223344ull && back.rank == 2 && back.dims[1] == 9);
    memcpy(bad, full, sizeof full);
    bad[6] = 1;
    expect_reject(bad, n, "filter parameters given");
    cfg.dtype = GLIDE_FLOAT32;
    n = gf_encode(&cfg, full, GF_CD_MAX);
    expect_reject(full, n, "float32 sentinel");

    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("test_cd_values: all passed\n");
    return 0;
}
