/* Four points of a blended level's finest run at once (float, SSE2): the
 * points of a set lie two elements apart along axis 2 at stride 1, and none
 * reads another point of its set, so lanes are independent. Every lane does
 * the scalar code's operations in its order (no FMA on baseline x86-64), so
 * the values and symbols are the same; lanes that fail the bound are redone
 * by the scalar quantizer's outlier rule. Included by blend_tmpl.h. */
#ifndef GLIDE_BLEND_SSE2_H
#define GLIDE_BLEND_SSE2_H
#include <emmintrin.h>

/* lanes v[b], v[b + 2], v[b + 4], v[b + 6], reading v[b .. b + 6] only */
static inline __attribute__((always_inline)) __m128 glide_sse_g2(const float *v, size_t b)
{
    const __m128 a = _mm_loadu_ps(v + b), c = _mm_loadu_ps(v + b + 3);
    return _mm_shuffle_ps(a, c, _MM_SHUFFLE(3, 1, 2, 0));
}

/* Writes the lanes to v[b], v[b + 2], v[b + 4], v[b + 6], keeping the
 * elements between (reads and writes v[b .. b + 6] only). */
static inline __attribute__((always_inline)) void glide_sse_put2(float *v, size_t b, __m128 x)
{
    const __m128 lo = _mm_loadu_ps(v + b), hi = _mm_loadu_ps(v + b + 3);
    /* (x0, v[b + 1], x1, v[b + 3]) and (v[b + 3], x2, v[b + 5], x3) */
    _mm_storeu_ps(v + b, _mm_unpacklo_ps(x, _mm_shuffle_ps(lo, lo, _MM_SHUFFLE(3, 1, 3, 1))));
    const __m128 t = _mm_shuffle_ps(hi, x, _MM_SHUFFLE(3, 2, 2, 0)); /* (v[b + 3], v[b + 5], x2, x3) */
    _mm_storeu_ps(v + b + 3, _mm_shuffle_ps(t, t, _MM_SHUFFLE(3, 1, 2, 0)));
}

/* v[i], v[i + k], v[i + 2k], v[i + 3k] */
static inline __attribute__((always_inline)) __m128 glide_sse_ld4(const float *v, size_t i, size_t k)
{
    if (k == 1) return _mm_loadu_ps(v + i);
    if (k == 2) return glide_sse_g2(v, i);
    return _mm_setr_ps(v[i], v[i + k], v[i + 2 * k], v[i + 3 * k]);
}

/* v[i + l k] = lane l (k = 2: the elements between kept) */
static inline __attribute__((always_inline)) void glide_sse_st4(float *v, size_t i, size_t k, __m128 x)
{
    if (k == 1) { _mm_storeu_ps(v + i, x); return; }
    if (k == 2) { glide_sse_put2(v, i, x); return; }
    float t[4];
    _mm_storeu_ps(t, x);
    for (unsigned l = 0; l < 4; l++) v[i + l * k] = t[l];
}

/* interp_form's arithmetic on four lanes of gathered neighbours b = c - s,
 * cc = c + s, a = c - 3s, d = c + 3s (c - s always read; a and d only
 * where ha, hd); the same flags for all lanes */
static inline __attribute__((always_inline)) __m128 glide_sse_form4(__m128 b, __m128 cc, __m128 a, __m128 d, int hc, int ha,
                                                                    int hd, const unsigned t)
{
    if (hc) {
        if (ha && hd) {
            const __m128 bc = _mm_add_ps(b, cc), ad = _mm_add_ps(a, d);
            if (t == GLIDE_SPLINE_CUBIC_NAK)
                return _mm_mul_ps(_mm_sub_ps(_mm_mul_ps(bc, _mm_set1_ps(9.0f)), ad), _mm_set1_ps(0.0625f));
            return _mm_mul_ps(_mm_sub_ps(_mm_mul_ps(bc, _mm_set1_ps(23.0f)), _mm_mul_ps(ad, _mm_set1_ps(3.0f))),
                              _mm_set1_ps((float)(1.0 / 40.0)));
        }
        if (ha)
            return _mm_mul_ps(_mm_sub_ps(_mm_add_ps(_mm_mul_ps(b, _mm_set1_ps(6.0f)), _mm_mul_ps(cc, _mm_set1_ps(3.0f))), a),
                              _mm_set1_ps(0.125f));
        if (hd)
            return _mm_mul_ps(_mm_sub_ps(_mm_add_ps(_mm_mul_ps(cc, _mm_set1_ps(6.0f)), _mm_mul_ps(b, _mm_set1_ps(3.0f))), d),
                              _mm_set1_ps(0.125f));
        return _mm_mul_ps(_mm_add_ps(b, cc), _mm_set1_ps(0.5f));
    }
    if (ha) return _mm_sub_ps(_mm_mul_ps(b, _mm_set1_ps(1.5f)), _mm_mul_ps(a, _mm_set1_ps(0.5f)));
    return b;
}

/* The reads b = c - 1, cc = c + 1, a = c - 3, d = c + 3 of the lanes
 * c = i, i + 2, i + 4, i + 6 of a block's row at s = 1 in v, inside the
 * block only: a and d are b and cc shifted by a lane, and one element
 * beyond them. The block's first lane (first) reads no a, its last (last)
 * no d; at the grid's end (end: the block lacks its far end) lane 3 reads
 * no cc and lane 2 no d, and cc is b shifted, so that nothing past the
 * row is read. */
static inline __attribute__((always_inline)) void glide_sse_block_reads(const float *v, size_t i, int first, int last,
                                                                        int end, __m128 *b, __m128 *cc, __m128 *a,
                                                                        __m128 *d)
{
    const __m128 z = _mm_setzero_ps();
    *b = glide_sse_g2(v, i - 1);
    *cc = end ? _mm_castsi128_ps(_mm_srli_si128(_mm_castps_si128(*b), 4)) : glide_sse_g2(v, i + 1);
    *a = _mm_or_ps(_mm_castsi128_ps(_mm_slli_si128(_mm_castps_si128(*b), 4)), first ? z : _mm_set_ss(v[i - 3]));
    *d = _mm_or_ps(_mm_castsi128_ps(_mm_srli_si128(_mm_castps_si128(*cc), 4)),
                   last ? z : _mm_setr_ps(0.0f, 0.0f, 0.0f, v[i + 9]));
}

/* interp_form of spline t on glide_sse_block_reads' lanes, each lane with
 * the reads its place in the block leaves it */
static inline __attribute__((always_inline)) __m128 glide_sse_block_form(__m128 b, __m128 cc, __m128 a, __m128 d, int first,
                                                                         int last, int end, const unsigned t)
{
    const int cub = t != GLIDE_SPLINE_LINEAR;
    __m128 p = glide_sse_form4(b, cc, a, d, 1, cub, cub, t);
    if (cub && first) p = _mm_move_ss(p, glide_sse_form4(b, cc, a, d, 1, 0, 1, t)); /* lane 0 */
    if (end) { /* lane 2 reads no c + 3, lane 3 no c + 1 */
        const __m128 f2 = glide_sse_form4(b, cc, a, d, 1, cub, 0, t), f3 = glide_sse_form4(b, cc, a, d, 0, cub, 0, t);
        p = _mm_shuffle_ps(p, _mm_shuffle_ps(f2, f3, _MM_SHUFFLE(3, 3, 2, 2)), _MM_SHUFFLE(2, 0, 1, 0));
    } else if (cub && last) { /* lane 3 */
        const __m128 f = glide_sse_form4(b, cc, a, d, 1, 1, 0, t);
        p = _mm_shuffle_ps(p, _mm_shuffle_ps(p, f, _MM_SHUFFLE(3, 3, 2, 2)), _MM_SHUFFLE(2, 0, 1, 0));
    }
    return p;
}

/* interp_form on the lanes at i, i + k, i + 2k, i + 3k of v; o the
 * element offset of s; reads only what the flags name */
static inline __attribute__((always_inline)) __m128 glide_sse_form(const float *v, size_t i, size_t k, size_t o, int hc,
                                                                   int ha, int hd, const unsigned t)
{
    const __m128 z = _mm_setzero_ps();
    return glide_sse_form4(glide_sse_ld4(v, i - o, k), hc ? glide_sse_ld4(v, i + o, k) : z,
                           ha ? glide_sse_ld4(v, i - 3 * o, k) : z, hc && hd ? glide_sse_ld4(v, i + 3 * o, k) : z, hc, ha,
                           hd, t);
}

/* tune_term (interp_tmpl.h) of four lanes, summed: the same double
 * arithmetic, and the truncation where every quotient is below 2^31 (the
 * rest, far outside any bound, by the scalar term) */
static inline __attribute__((always_inline)) uint64_t glide_sse_tune4(__m128 x, __m128 p, double unit,
                                                                      uint64_t (*term)(float, float, double))
{
    const __m128d sign = _mm_set1_pd(-0.0), vu = _mm_set1_pd(unit), lim = _mm_set1_pd(2147483648.0);
    const __m128d q0 = _mm_div_pd(_mm_andnot_pd(sign, _mm_sub_pd(_mm_cvtps_pd(x), _mm_cvtps_pd(p))), vu);
    const __m128d q1 = _mm_div_pd(
        _mm_andnot_pd(sign, _mm_sub_pd(_mm_cvtps_pd(_mm_movehl_ps(x, x)), _mm_cvtps_pd(_mm_movehl_ps(p, p)))), vu);
    /* NaN and inf compare false: the scalar term makes them 0 */
    if (_mm_movemask_pd(_mm_and_pd(_mm_cmplt_pd(q0, lim), _mm_cmplt_pd(q1, lim))) != 3) {
        float xs[4], ps[4];
        _mm_storeu_ps(xs, x);
        _mm_storeu_ps(ps, p);
        return term(xs[0], ps[0], unit) + term(xs[1], ps[1], unit) + term(xs[2], ps[2], unit) + term(xs[3], ps[3], unit);
    }
    const __m128i t = _mm_unpacklo_epi64(_mm_cvttpd_epi32(q0), _mm_cvttpd_epi32(q1)); /* four int32 in [0, 2^31) */
    const __m128i s2 = _mm_add_epi64(_mm_and_si128(t, _mm_set1_epi64x(0xffffffff)), _mm_srli_epi64(t, 32));
    uint64_t u[2];
    _mm_storeu_si128((__m128i *)(void *)u, s2);
    return u[0] + u[1];
}

/* The residuals' NaN test summed over the lanes: NaN where any lane's is. */
static inline float glide_sse_fold(__m128 v)
{
    float t[4];
    _mm_storeu_ps(t, v);
    return (t[0] + t[1]) + (t[2] + t[3]);
}

/* The quantizer (tmpl_begin.h) on four lanes, e2 > 0: q the symbols less
 * GLIDE_SYM_ZERO, v the reconstructions; returns the mask of the lanes
 * that hold (the others are outliers). */
static inline __attribute__((always_inline)) int glide_sse_quantize(__m128 x, __m128 p, float e2, double eb, __m128i *q,
                                                                    __m128 *v)
{
    const __m128 ve2 = _mm_set1_ps(e2);
    const __m128 y = _mm_add_ps(_mm_div_ps(_mm_sub_ps(x, p), ve2), _mm_set1_ps(0.5f));
    const __m128 in = _mm_and_ps(_mm_cmpge_ps(y, _mm_set1_ps((float)-(GLIDE_RADIUS - 1))),
                                 _mm_cmplt_ps(y, _mm_set1_ps((float)GLIDE_RADIUS)));
    __m128i t = _mm_cvttps_epi32(y);
    t = _mm_add_epi32(t, _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(t), y))); /* q -= (T)q > y */
    const __m128 rv = _mm_add_ps(p, _mm_mul_ps(_mm_cvtepi32_ps(t), ve2));
    const __m128d sign = _mm_set1_pd(-0.0), veb = _mm_set1_pd(eb);
    const __m128d d0 = _mm_andnot_pd(sign, _mm_sub_pd(_mm_cvtps_pd(x), _mm_cvtps_pd(rv)));
    const __m128d d1 = _mm_andnot_pd(sign, _mm_sub_pd(_mm_cvtps_pd(_mm_movehl_ps(x, x)), _mm_cvtps_pd(_mm_movehl_ps(rv, rv))));
    const __m128 ok = _mm_shuffle_ps(_mm_castpd_ps(_mm_cmple_pd(d0, veb)), _mm_castpd_ps(_mm_cmple_pd(d1, veb)),
                                     _MM_SHUFFLE(2, 0, 2, 0));
    *q = t;
    *v = rv;
    return _mm_movemask_ps(_mm_and_ps(in, ok));
}
#endif
