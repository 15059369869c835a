/* glide_gen_dict: builds a codebook dictionary and writes its frozen C table.
 *
 *   glide_gen_dict --version V --books-per-family N --hmin A --hmax B --out FILE
 *   glide_gen_dict --version 2 --out FILE
 *
 * The defaults are the parameters of dictionary v1 (dict_params.h: version 1,
 * N 32, hmin 0.3, hmax 9.0). Version 2 is v1's frozen table (the committed
 * codebooks/dict_v1.c, not a regenerated one) plus the mixed books of
 * dict_params.h. `cmake --build <dir> --target regen_dict` rewrites both
 * codebooks/dict_v1.c and codebooks/dict_v2.c. */
#include "dict.h"
#include "dict_params.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f, "usage: glide_gen_dict [--version V] [--books-per-family N] [--hmin A] [--hmax B] --out FILE\n"
               "  defaults: --version 1 --books-per-family %u --hmin %.9g --hmax %.9g\n"
               "  --version 2 takes no other parameters: v1's frozen books plus mixed books (dict_params.h)\n",
            (unsigned)GLIDE_DICT_V1_BOOKS_PER_FAMILY, GLIDE_DICT_V1_HMIN, GLIDE_DICT_V1_HMAX);
}

static int parse_uint(const char *s, unsigned long max, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || v > max) return -1;
    *out = (unsigned)v;
    return 0;
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end) return -1;
    *out = v;
    return 0;
}

int main(int argc, char **argv)
{
    unsigned version = 1, per = GLIDE_DICT_V1_BOOKS_PER_FAMILY;
    double hmin = GLIDE_DICT_V1_HMIN, hmax = GLIDE_DICT_V1_HMAX;
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        if (i + 1 >= argc) { usage(stderr); return 2; }
        const char *v = argv[++i];
        int bad;
        /* the stream header stores the dictionary version in one byte */
        if (!strcmp(a, "--version")) bad = parse_uint(v, 255, &version) || version == 0;
        else if (!strcmp(a, "--books-per-family")) bad = parse_uint(v, 21845, &per) || per == 0;
        else if (!strcmp(a, "--hmin")) bad = parse_double(v, &hmin);
        else if (!strcmp(a, "--hmax")) bad = parse_double(v, &hmax);
        else if (!strcmp(a, "--out")) { out = v; bad = 0; }
        else { fprintf(stderr, "glide_gen_dict: unknown option %s\n", a); usage(stderr); return 2; }
        if (bad) { fprintf(stderr, "glide_gen_dict: bad value for %s: %s\n", a, v); return 2; }
    }
    if (!out) { usage(stderr); return 2; }
    if (!(hmin > 0.0) || !(hmax >= hmin)) {
        fprintf(stderr, "glide_gen_dict: need 0 < hmin <= hmax\n");
        return 2;
    }
    /* The table records its command line through the books' entropies, so a
     * range no family can reach would be written down wrongly. */
    double reach = 0.0;
    for (int f = GLIDE_FAMILY_CAUCHY; f <= GLIDE_FAMILY_GAUSSIAN; f++) {
        double h = glide_dict_max_entropy(f, NULL);
        if (h > reach) reach = h;
    }
    if (hmax > reach) {
        fprintf(stderr, "glide_gen_dict: hmax %.9g is above the largest reachable entropy %.9g\n", hmax, reach);
        return 2;
    }

    glide_dictionary *d = version == 2 ? glide_dict_build_v2() : glide_dict_build(version, per, hmin, hmax);
    if (!d) { fprintf(stderr, "glide_gen_dict: building the dictionary failed\n"); return 1; }

    /* Write beside the target and rename, so an interrupted run never leaves
     * a truncated table where the frozen one was. */
    size_t n = strlen(out);
    char *tmp = malloc(n + 5);
    if (!tmp) { glide_dict_free(d); return 1; }
    memcpy(tmp, out, n);
    memcpy(tmp + n, ".tmp", 5);
    FILE *f = fopen(tmp, "w");
    int rc = f ? glide_dict_write_c(f, d) : -1;
    if (f && fclose(f) != 0) rc = -1;
    if (rc == 0 && rename(tmp, out) != 0) rc = -1;
    if (rc != 0) {
        fprintf(stderr, "glide_gen_dict: writing %s failed\n", out);
        remove(tmp);
    } else {
        printf("glide_gen_dict: wrote dictionary v%u, %u books, to %s\n", d->version, d->n_books, out);
    }
    free(tmp);
    glide_dict_free(d);
    return rc == 0 ? 0 : 1;
}
