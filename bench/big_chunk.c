/* big_chunk: CR and single-thread CPU time of one SIDE^3 Nyx-like chunk
 * (examples/nyx_field.h: density, temperature, velocity; seed 7) at REL
 * 1e-3 and 1e-4, default options. For encoder choices that only chunks
 * past 256^3 see, such as the tuning sample's cap (docs/DESIGN.md,
 * "Auto-tuning"): build it against two revisions and compare.
 *   big_chunk [SIDE]     (default 512; 512 needs about 1.2 GB of memory) */
#include "glide.h"
#include "nyx_field.h"
#include "bench_time.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    const size_t s = argc > 1 ? (size_t)atol(argv[1]) : 512, n = s * s * s;
    if (s < 2) return 2;
    float *x = malloc(n * sizeof(float));
    uint64_t d[3] = {s, s, s};
    glide_params p;
    glide_params_init(&p, GLIDE_FLOAT32, 3, d);
    p.backend = GLIDE_BACKEND_CPU;
    p.mode = GLIDE_MODE_REL;
    const size_t cap = glide_compress_bound(&p);
    unsigned char *o = malloc(cap);
    if (!x || !o) return 1;
    static const char *names[3] = {"density", "temperature", "velocity"};
    static const double ebs[2] = {1e-3, 1e-4};
    for (int k = 0; k < 3; k++) {
        if (nyx_field(x, s, (nyx_kind)k, 7)) return 1;
        for (int e = 0; e < 2; e++) {
            p.eb = ebs[e];
            const double t0 = now();
            const size_t z = glide_compress(&p, x, n * sizeof(float), o, cap);
            if (glide_is_error(z)) return fprintf(stderr, "%s\n", glide_error_name(z)), 1;
            printf("%zu^3 %-11s REL %g: CR %.4f, %.2f s\n", s, names[k], ebs[e], (double)(n * sizeof(float)) / z,
                   now() - t0);
        }
    }
    free(x);
    free(o);
    return 0;
}
