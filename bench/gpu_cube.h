/* The chunk bench/gpu_probe and bench/gpu_trace time: a SIDE^3 float32
 * Nyx-like density (seed 7) with the default parameters (REL 1e-3, auto
 * predictor and codebook) on the GPU backend. GLIDE_PROBE_FIELD=noise:
 * uniform noise instead, whose interpolation blends no level (timing the
 * kernels of chunks that do not blend). */
#ifndef GLIDE_BENCH_GPU_CUBE_H
#define GLIDE_BENCH_GPU_CUBE_H
#include "glide.h"
#include "nyx_field.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The field (malloc'd, the caller frees it), or NULL; *p set for it. */
static inline float *gpu_cube(size_t s, glide_params *p)
{
    float *x = malloc(s * s * s * sizeof *x);
    const char *f = getenv("GLIDE_PROBE_FIELD");
    if (x && f && !strcmp(f, "noise")) {
        uint32_t r = 1;
        for (size_t i = 0; i < s * s * s; i++) {
            r = r * 1103515245u + 12345u;
            x[i] = (float)((r >> 8) & 0xFFFFu) / 65536.0f;
        }
    } else if (!x || nyx_field(x, s, NYX_DENSITY, 7)) {
        free(x);
        return NULL;
    }
    const uint64_t d[3] = {s, s, s};
    glide_params_init(p, GLIDE_FLOAT32, 3, d);
    p->backend = GLIDE_BACKEND_GPU;
    return x;
}
#endif
