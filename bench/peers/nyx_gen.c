/* Writes the Nyx-like fields of examples/nyx_field.h as raw little-endian
 * float32 files, so that the peer benchmark measures every compressor on the
 * very fields the demo and glide_bench use (same generator, same seed).
 *   nyx_gen N SEED OUTDIR [KIND...]  ->  OUTDIR/nyx_KIND_N.f32
 * KIND: density, temperature, velocity (default all three; naming one per
 * process lets a many-core machine make them in parallel). C order, N^3
 * values each. No HDF5 here: the Python side loads the raw files
 * and writes them through each compressor itself. */
#include "nyx_field.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s N SEED OUTDIR [density|temperature|velocity ...]\n", argv[0]);
        return 2;
    }
    size_t n = (size_t)strtoul(argv[1], NULL, 10);
    unsigned seed = (unsigned)strtoul(argv[2], NULL, 10);
    static const char *names[3] = {"density", "temperature", "velocity"};
    float *v = malloc(n * n * n * sizeof(float));
    if (n < 2 || !v) {
        fprintf(stderr, "nyx_gen: bad size or out of memory\n");
        return 1;
    }
    for (int k = 0; k < 3; k++) {
        int wanted = argc == 4;
        for (int a = 4; a < argc; a++) wanted |= !strcmp(argv[a], names[k]);
        if (!wanted) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/nyx_%s_%zu.f32", argv[3], names[k], n);
        if (nyx_field(v, n, (nyx_kind)k, seed) != 0) {
            fprintf(stderr, "nyx_gen: out of memory\n");
            return 1;
        }
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(v, sizeof(float), n * n * n, f) != n * n * n || fclose(f) != 0) {
            fprintf(stderr, "nyx_gen: cannot write %s\n", path);
            return 1;
        }
    }
    free(v);
    return 0;
}
