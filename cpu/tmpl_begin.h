/* Included with GLIDE_T = float or double before a *_tmpl.h body. */
#if GLIDE_T_IS_DOUBLE
#define T double
#define TBITS uint64_t
#define FN(name) name##_f64
#else
#define T float
#define TBITS uint32_t
#define FN(name) name##_f32
#endif

static inline TBITS FN(bits_of)(T v) { TBITS b; memcpy(&b, &v, sizeof b); return b; }
/* A fill point: the fill value's bits, or format 7's second fill value's.
 * Hot loops take the test with the grid's fields in locals (fill_test_of
 * once, then fill_is): their stores (uint64_t sums among them) would
 * otherwise make the compiler reload the fields at every point. */
typedef struct {
    int on;
    TBITS a, b;
} FN(fill_test);

static inline FN(fill_test) FN(fill_test_of)(const glide_grid *g)
{
    const FN(fill_test) f = {g->has_fill, (TBITS)g->fill_bits, g->has_fill2 ? (TBITS)g->fill2_bits : (TBITS)g->fill_bits};
    return f;
}

static inline int FN(fill_is)(FN(fill_test) f, T v)
{
    const TBITS b = FN(bits_of)(v);
    return f.on && (b == f.a || b == f.b);
}

static inline int FN(is_fill)(const glide_grid *g, T v) { return FN(fill_is)(FN(fill_test_of)(g), v); }

/* The quantizer both predictors share: symbol of x against prediction p, or
 * -1 if x must be stored exactly. The bound is checked on the value the
 * decoder will compute, after rounding in T. */
static inline int FN(quantize)(T x, T p, T e2, double eb, T *rv)
{
    T diff = x - p;
    int q = 0;
    if (e2 > 0) {
        /* q = floor(y) within [-511, 511], i.e. y in [-511, 512) (NaN
         * fails): in that range truncation, stepped down where it rounded a
         * negative y up, is floor exactly, without a rounding instruction
         * that baseline x86-64 lacks */
        T y = diff / e2 + (T)0.5;
        if (!(y >= (T)-(GLIDE_RADIUS - 1) && y < (T)GLIDE_RADIUS)) return -1;
        q = (int)y;
        q -= (T)q > y;
    }
    T v = p + (T)q * e2;
    if (!(fabs((double)x - (double)v) <= eb)) return -1;
    *rv = v;
    return q + GLIDE_SYM_ZERO;
}
