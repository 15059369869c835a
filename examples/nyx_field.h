/* A Nyx-like synthetic cosmology field, for the demo and the benchmarks
 * (real Nyx data cannot be had offline). A Gaussian random field is built
 * from random Fourier modes with a power-law spectrum P(k) ~ k^-3 (smooth
 * on large scales, structure on all scales), then:
 *   density     = exp(sigma * g) / mean     (log-normal, as baryon density)
 *   temperature = 1e4 * density^0.6 * (1 + 0.05 * g2)   (temperature-density relation)
 *   velocity    = 1e7 * g3                  (cm/s scale, smooth)
 * The generator is deterministic for a seed. */
#ifndef GLIDE_NYX_FIELD_H
#define GLIDE_NYX_FIELD_H
#include <stddef.h>

typedef enum { NYX_DENSITY = 0, NYX_TEMPERATURE = 1, NYX_VELOCITY = 2 } nyx_kind;

/* Fills out[n*n*n] (C order). Returns 0, or -1 on allocation failure. */
int nyx_field(float *out, size_t n, nyx_kind kind, unsigned seed);
#endif
