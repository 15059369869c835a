/* The predictor choice's cost model (GLIDE_PRED_AUTO), shared by both
 * backends so they choose alike: integer sums of a function computed with
 * IEEE-exact operations only (the GPU compiles it with --fmad=false). Not a
 * format constant: streams record the method, so this may change freely. */
#ifndef GLIDE_COST_H
#define GLIDE_COST_H
#include <math.h>
#include <stdint.h>

#ifdef __CUDACC__
#define GLIDE_HD __host__ __device__ __forceinline__
#else
#define GLIDE_HD static inline
#endif

/* Variance, in eb^2, of the noise the reconstructed neighbours add to a
 * prediction in the real pass: errors spread over [-eb, eb] (variance eb^2/3)
 * times the sum of squared weights, 0.64 for cubic interpolation, k for
 * Lorenzo with k neighbours; measured on the real fields (docs/DESIGN.md),
 * half of that uniform-error value predicts the better method best. */
#define GLIDE_NOISE_INTERP 0.1
#define GLIDE_NOISE_LORENZO_PER_NEIGHBOUR (1.0 / 6.0)
/* A blended point odd on k axes (format 4): the Boolean sum's weights are
 * the 1-D ones, their pairwise and (k = 3) triple products, so with cubic
 * weights the sum of squares is 2(0.64) + 0.64^2 for k = 2 and
 * 3(0.64) + 3(0.64^2) + 0.64^3 for k = 3; halved as above. */
#define GLIDE_NOISE_BLEND2 0.28
#define GLIDE_NOISE_BLEND3 0.57
GLIDE_HD double glide_blend_noise(unsigned k)
{
    return k >= 3 ? GLIDE_NOISE_BLEND3 : k == 2 ? GLIDE_NOISE_BLEND2 : GLIDE_NOISE_INTERP;
}

/* Cost of one open-loop prediction error e (prediction from the original
 * values) in 1/8 bits: about 8 log2(1 + u), u = sqrt(e^2 + n2 eb^2) / (2 eb)
 * the error in quantization steps with the neighbours' noise n2 added. */
GLIDE_HD unsigned glide_cost_bits(double e, double eb, double n2)
{
    double u = sqrt(e * e + n2 * eb * eb) / (2.0 * eb);
    if (!(u < 1099511627776.0)) return 8u * 41u; /* 2^40 steps and beyond, NaN included */
    uint64_t w = (uint64_t)(u * 16.0) + 16u;      /* 1 + u in 1/16 steps */
#ifdef __CUDA_ARCH__
    unsigned l = 63u - (unsigned)__clzll((long long)w);
#else
    unsigned l = 63u - (unsigned)__builtin_clzll(w);
#endif
    return 8u * (l - 4u) + (unsigned)((w << 3 >> l) & 7u);
}

/* n2 of a Lorenzo point: the neighbours its stencil really has on the block
 * faces (flags: the point is not on the block's first plane of that axis). */
GLIDE_HD double glide_lorenzo_noise(int px, int py, int pz)
{
    return (double)(px + py + pz + px * py + px * pz + py * pz + px * py * pz) * GLIDE_NOISE_LORENZO_PER_NEIGHBOUR;
}

/* Lorenzo beats interpolation when its mean cost per point is lower; the
 * products of two counts are exact in double up to 2^53 and rounded the
 * same way on both backends beyond. */
GLIDE_HD int glide_prefer_lorenzo(const uint64_t interp[2], const uint64_t lorenzo[2])
{
    return (double)lorenzo[0] * (double)interp[1] < (double)interp[0] * (double)lorenzo[1];
}
#endif
