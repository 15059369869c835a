/* Runs a fuzz target without libFuzzer, so the targets build with any
 * compiler and run in ctest (under ASan/UBSan in h5tests/run.sh):
 *   fuzz_X_replay FILE_OR_DIR... [--random N SEED]
 * Each file is one input; a directory, each file in it. --random adds N
 * pseudo-random inputs: mutations of the given inputs (bit flips, byte
 * writes, truncations, splices) and fresh random ones. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
    uint8_t *p;
    size_t n;
} blob;

static blob *corpus;
static size_t n_corpus, cap_corpus;

static void add_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return;
    blob b = {NULL, 0};
    size_t cap = 0, got;
    uint8_t buf[65536];
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        if (b.n + got > cap) {
            cap = (b.n + got) * 2;
            uint8_t *q = realloc(b.p, cap);
            if (!q) break;
            b.p = q;
        }
        memcpy(b.p + b.n, buf, got);
        b.n += got;
    }
    fclose(f);
    if (n_corpus == cap_corpus) {
        cap_corpus = cap_corpus ? 2 * cap_corpus : 64;
        corpus = realloc(corpus, cap_corpus * sizeof *corpus);
        if (!corpus) exit(1);
    }
    corpus[n_corpus++] = b;
}

static void add_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "no such input: %s\n", path);
        exit(2);
    }
    if (!S_ISDIR(st.st_mode)) {
        add_file(path);
        return;
    }
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", path, e->d_name);
        if (stat(full, &st) == 0 && S_ISREG(st.st_mode)) add_file(full);
    }
    if (d) closedir(d);
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

int main(int argc, char **argv)
{
    long random_n = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--random") && i + 2 < argc) {
            random_n = atol(argv[++i]);
            rng ^= strtoull(argv[++i], NULL, 10) * 0x2545F4914F6CDD1Dull;
        } else {
            add_path(argv[i]);
        }
    }
    for (size_t k = 0; k < n_corpus; k++) LLVMFuzzerTestOneInput(corpus[k].p, corpus[k].n);
    uint8_t *m = NULL;
    size_t mcap = 0;
    for (long it = 0; it < random_n; it++) {
        size_t n;
        if (n_corpus && rnd() % 8) {
            const blob *b = &corpus[rnd() % n_corpus];
            n = b->n;
            if (n + 64 > mcap) {
                mcap = n + 64;
                m = realloc(m, mcap);
                if (!m) return 1;
            }
            memcpy(m, b->p, n);
            for (unsigned f = 1 + rnd() % 4; n && f; f--) {
                size_t at = rnd() % n;
                switch (rnd() % 4) {
                case 0: m[at] ^= (uint8_t)(1u << rnd() % 8); break;
                case 1: m[at] = (uint8_t)rnd(); break;
                case 2: n = at; break; /* truncation */
                default: { /* splice a run of another input over this one */
                    const blob *o = &corpus[rnd() % n_corpus];
                    if (o->n) {
                        size_t from = rnd() % o->n, len = 1 + rnd() % 64;
                        if (len > o->n - from) len = o->n - from;
                        if (len > n - at) len = n - at;
                        memcpy(m + at, o->p + from, len);
                    }
                }
                }
            }
        } else {
            n = rnd() % 4096;
            if (n > mcap) {
                mcap = n;
                m = realloc(m, mcap);
                if (!m) return 1;
            }
            for (size_t i = 0; i < n; i++) m[i] = (uint8_t)rnd();
        }
        LLVMFuzzerTestOneInput(m ? m : (const uint8_t *)"", n);
    }
    printf("%zu inputs from files, %ld generated: no failure\n", n_corpus, random_n);
    free(m);
    return 0;
}
