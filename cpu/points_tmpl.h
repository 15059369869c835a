/* Value range, anchors, outliers and the final fix-up pass (templated). */

/* The value range, in vector lanes that keep their own extremes. Values
 * that compare equal are the same but for 0 and -0, so an extreme that is
 * zero is then taken from the first zero in index order, as a sequential
 * loop with strict comparisons would. */
#if GLIDE_T_IS_DOUBLE
typedef int64_t FN(sbits);
#else
typedef int32_t FN(sbits);
#endif
typedef T FN(vec) __attribute__((vector_size(16)));
typedef FN(sbits) FN(vmask) __attribute__((vector_size(16)));
enum { FN(VL) = 16 / sizeof(T) };

/* Which points the range leaves out besides non-finite ones: the fill
 * value's and a sentinel's (bitwise). */
typedef struct {
    int has_f, has_s;
    TBITS f, s;
} FN(masks);

static inline int FN(masked)(const FN(masks) *m, T v)
{
    const TBITS b = FN(bits_of)(v);
    return (m->has_f && b == m->f) || (m->has_s && b == m->s);
}

/* The masks in vector lanes: each lane's value bits against the fill
 * value's and the sentinel's, where the mask has them. */
typedef struct {
    FN(vmask) f, s, use_f, use_s;
} FN(lane_masks);

static inline FN(lane_masks) FN(lanes_of)(const FN(masks) *m)
{
    FN(lane_masks) l;
    for (unsigned k = 0; k < FN(VL); k++) {
        l.f[k] = (FN(sbits))m->f, l.s[k] = (FN(sbits))m->s;
        l.use_f[k] = m->has_f ? -1 : 0, l.use_s[k] = m->has_s ? -1 : 0;
    }
    return l;
}

/* A vector's lanes that are finite and unmasked (all ones), and the lanes
 * holding the fill value and the sentinel. */
static inline FN(vmask) FN(lanes_ok)(const FN(lane_masks) *l, FN(vec) v, FN(vmask) *isf, FN(vmask) *iss)
{
    const FN(vmask) b = (FN(vmask))v;
    *isf = l->use_f & (b == l->f);
    *iss = l->use_s & (b == l->s);
    return (v - v == 0) & ~*isf & ~*iss; /* v - v is 0 exactly where v is finite */
}

/* Per lane v > m ? v : m (hi) or v < m ? v : m, so m where v is NaN; one
 * instruction where SSE2 is there. */
static inline FN(vec) FN(vec_extreme)(FN(vec) v, FN(vec) m, const int hi)
{
#if defined(__SSE2__) && GLIDE_T_IS_DOUBLE
    return (FN(vec))(hi ? _mm_max_pd((__m128d)v, (__m128d)m) : _mm_min_pd((__m128d)v, (__m128d)m));
#elif defined(__SSE2__)
    return (FN(vec))(hi ? _mm_max_ps((__m128)v, (__m128)m) : _mm_min_ps((__m128)v, (__m128)m));
#else
    const FN(vmask) take = hi ? v > m : v < m;
    return (FN(vec))((take & (FN(vmask))v) | (~take & (FN(vmask))m));
#endif
}

/* lane_range's vector loop up to *i; masked 0 where neither the fill value
 * nor the sentinel is tested (most chunks), so that loop tests finiteness
 * alone. */
static inline __attribute__((always_inline)) void FN(lane_range_vec)(const T *x, uint64_t n, const FN(lane_masks) *l,
                                                                     const int masked, uint64_t *i, FN(vec) *mnv,
                                                                     FN(vec) *mxv, FN(vmask) *af, FN(vmask) *as)
{
    FN(vec) mn = *mnv, mx = *mxv, pinf, ninf;
    for (unsigned k = 0; k < FN(VL); k++) pinf[k] = (T)INFINITY, ninf[k] = (T)-INFINITY;
    FN(vmask) f = *af, s = *as;
    uint64_t j = *i;
    for (; j + FN(VL) <= n; j += FN(VL)) {
        FN(vec) v;
        memcpy(&v, x + j, sizeof v);
        FN(vmask) ok;
        if (masked) {
            FN(vmask) isf, iss;
            ok = FN(lanes_ok)(l, v, &isf, &iss);
            f |= isf;
            s |= iss;
        } else {
            ok = v - v == 0;
        }
        /* a lane left out offers an infinity, which never replaces an extreme */
        mn = FN(vec_extreme)((FN(vec))((ok & (FN(vmask))v) | (~ok & (FN(vmask))pinf)), mn, 0);
        mx = FN(vec_extreme)((FN(vec))((ok & (FN(vmask))v) | (~ok & (FN(vmask))ninf)), mx, 1);
    }
    *mnv = mn, *mxv = mx, *af = f, *as = s, *i = j;
}

/* Least and greatest finite unmasked values (seen: any), and whether the
 * fill value and the sentinel occur. */
static void FN(lane_range)(const T *x, uint64_t n, const FN(masks) *m, T *lo, T *hi, int *seen, int *any_f,
                           int *any_s)
{
    FN(vec) mnv, mxv;
    FN(vmask) af = {0}, as = {0};
    for (unsigned k = 0; k < FN(VL); k++) mnv[k] = (T)INFINITY, mxv[k] = (T)-INFINITY;
    const FN(lane_masks) l = FN(lanes_of)(m);
    uint64_t i = 0;
    if (m->has_f || m->has_s) FN(lane_range_vec)(x, n, &l, 1, &i, &mnv, &mxv, &af, &as);
    else FN(lane_range_vec)(x, n, &l, 0, &i, &mnv, &mxv, &af, &as);
    T mn = (T)INFINITY, mx = (T)-INFINITY;
    int f = 0, s = 0;
    for (unsigned k = 0; k < FN(VL); k++) {
        if (mnv[k] < mn) mn = mnv[k];
        if (mxv[k] > mx) mx = mxv[k];
        f |= af[k] != 0;
        s |= as[k] != 0;
    }
    for (; i < n; i++) {
        const TBITS b = FN(bits_of)(x[i]);
        if (m->has_f && b == m->f) { f = 1; continue; }
        if (m->has_s && b == m->s) { s = 1; continue; }
        if (isfinite(x[i])) {
            if (x[i] < mn) mn = x[i];
            if (x[i] > mx) mx = x[i];
        }
    }
    *seen = mn <= mx;
    if (!*seen) mn = mx = 0;
    *lo = mn;
    *hi = mx;
    *any_f = f;
    *any_s = s;
}

/* An extreme that is zero: the first unmasked zero's sign. */
static void FN(zero_sign)(const T *x, uint64_t n, const FN(masks) *m, T *lo, T *hi)
{
    if (*lo != 0 && *hi != 0) return;
    for (uint64_t j = 0; j < n; j++)
        if (x[j] == 0 && !FN(masked)(m, x[j])) {
            if (*lo == 0) *lo = x[j];
            if (*hi == 0) *hi = x[j];
            return;
        }
}

/* The finite values' least and greatest, each the first to reach it in
 * index order (0 and 0 if there is none), fill points (of either fill
 * value) left out. */
void FN(glide_value_range)(const glide_grid *g, const T *x, double *lo, double *hi, int *any, int *fills)
{
    const FN(masks) m = {g->has_fill, g->has_fill && g->has_fill2, (TBITS)g->fill_bits, (TBITS)g->fill2_bits};
    T mn, mx;
    int seen, f, s;
    FN(lane_range)(x, g->count, &m, &mn, &mx, &seen, &f, &s);
    if (seen) FN(zero_sign)(x, g->count, &m, &mn, &mx);
    *lo = mn; *hi = mx; *any = seen; *fills = f;
}

/* The greatest unmasked finite value below hi and the least above lo
 * (-inf and +inf where there is none), and how many points equal lo and hi. */
static void FN(second_extremes)(const T *x, uint64_t n, const FN(masks) *m, T lo, T hi, T *lo2, T *hi2,
                                uint64_t *n_lo, uint64_t *n_hi)
{
    FN(vec) mnv, mxv, lov, hiv;
    FN(vmask) cl = {0}, ch = {0};
    for (unsigned k = 0; k < FN(VL); k++) mnv[k] = (T)INFINITY, mxv[k] = (T)-INFINITY, lov[k] = lo, hiv[k] = hi;
    const FN(lane_masks) l = FN(lanes_of)(m);
    uint64_t i = 0;
    for (; i + FN(VL) <= n; i += FN(VL)) {
        FN(vec) v;
        memcpy(&v, x + i, sizeof v);
        FN(vmask) isf, iss;
        const FN(vmask) ok = FN(lanes_ok)(&l, v, &isf, &iss);
        const FN(vmask) lt = ok & (v > lov) & (v < mnv), gt = ok & (v < hiv) & (v > mxv);
        mnv = (FN(vec))((lt & (FN(vmask))v) | (~lt & (FN(vmask))mnv));
        mxv = (FN(vec))((gt & (FN(vmask))v) | (~gt & (FN(vmask))mxv));
        cl -= ok & (v == lov); /* a true lane is -1 */
        ch -= ok & (v == hiv);
    }
    T mn = (T)INFINITY, mx = (T)-INFINITY;
    uint64_t a = 0, b = 0;
    for (unsigned k = 0; k < FN(VL); k++) {
        if (mnv[k] < mn) mn = mnv[k];
        if (mxv[k] > mx) mx = mxv[k];
        a += (uint64_t)cl[k], b += (uint64_t)ch[k];
    }
    for (; i < n; i++)
        if (isfinite(x[i]) && !FN(masked)(m, x[i])) {
            if (x[i] > lo && x[i] < mn) mn = x[i];
            if (x[i] < hi && x[i] > mx) mx = x[i];
            a += x[i] == lo, b += x[i] == hi;
        }
    *lo2 = mn;
    *hi2 = mx;
    *n_lo = a;
    *n_hi = b;
}

/* Whether v, an unmasked finite value strictly inside (lo, hi), shows that
 * hi (side 1) or lo (side 0) fails the sentinel rule: the gap from v to
 * that end is at most GLIDE_SENTINEL_GAP times v's distance to the other. */
static inline int FN(witness)(double v, double lo, double hi, int side)
{
    return side ? hi - v <= GLIDE_SENTINEL_GAP * (v - lo) : v - lo <= GLIDE_SENTINEL_GAP * (hi - v);
}

void FN(glide_values_scan)(const glide_params *p, const T *x, uint64_t n, glide_values *out)
{
    FN(masks) m = {p->has_fill, p->sentinel == GLIDE_SENTINEL_VALUE, (TBITS)p->fill_bits, (TBITS)p->sentinel_bits};
    if (m.has_f && m.has_s && m.f == m.s) m.has_s = 0; /* the sentinel is the fill value: nothing more to do */
    T mn, mx;
    int seen, any_f, any_s;
    FN(lane_range)(x, n, &m, &mn, &mx, &seen, &any_f, &any_s);
    TBITS s = m.s;
    if (p->sentinel == GLIDE_SENTINEL_AUTO && seen && mn < mx) {
        /* A sample usually shows both ends to be ordinary values; only where
         * it does not is the exact pass needed. */
        int open[2] = {mn != 0, mx != 0}; /* a zero is never taken for a sentinel */
        const uint64_t step = n > 4096 ? n / 4096 : 1;
        for (uint64_t i = 0; i < n && (open[0] || open[1]); i += step) {
            const T v = x[i];
            if (!isfinite(v) || FN(masked)(&m, v) || !(v > mn && v < mx)) continue;
            for (int side = 0; side < 2; side++)
                if (open[side] && FN(witness)(v, mn, mx, side)) open[side] = 0;
        }
        if (open[0] || open[1]) {
            T lo2, hi2;
            uint64_t cnt[2];
            FN(second_extremes)(x, n, &m, mn, mx, &lo2, &hi2, &cnt[0], &cnt[1]);
            const glide_extremes e = {mn, mx, lo2, hi2, {cnt[0], cnt[1]}};
            const int side = glide_sentinel_side(&e, open);
            if (side >= 0) {
                s = FN(bits_of)(side ? mx : mn);
                m.has_s = 1;
                m.s = s;
                any_s = 1;
                if (side) mx = hi2;
                else mn = lo2;
            }
        }
    }
    if (seen) FN(zero_sign)(x, n, &m, &mn, &mx);
    memset(out, 0, sizeof *out);
    out->has_fill = m.has_f;
    out->fill_bits = m.f;
    out->fills = any_f;
    if (m.has_s && any_s) {
        if (!m.has_f || !any_f) {
            /* the chunk holds no fill point: the sentinel is its fill value */
            out->has_fill = 1;
            out->fill_bits = s;
            out->fills = 1;
        } else {
            out->has_fill2 = 1;
            out->fill2_bits = s;
        }
    }
    out->any = seen;
    out->lo = mn;
    out->hi = mx;
}

/* Anchors: every point whose coordinates are all multiples of the stride
 * (on axis 0, within its slab), in index order, stored as they are. Fill and non-finite anchors count as
 * the substitute for prediction and are restored by the fix-up pass. */
void FN(glide_anchors_encode)(const glide_grid *g, const T *x, T *r, uint16_t *sym, T *anc, T subst)
{
    uint64_t B = 1ull << g->blog, k = 0;
    for (uint64_t s = 0; s < g->slabs; s++) /* every slab's rows from its first */
    for (uint64_t z = s * g->slab_rows; z < (s + 1) * g->slab_rows; z += B)
        for (uint64_t y = 0; y < g->n[1]; y += B)
            for (uint64_t xx = 0; xx < g->n[2]; xx += B) {
                size_t i = z * g->st[0] + y * g->st[1] + xx;
                T v = x[i];
                anc[k++] = v;
                int fill = FN(is_fill)(g, v), fin = isfinite(v);
                r[i] = (fill || !fin) ? subst : v;
                sym[i] = fill ? GLIDE_SYM_FILL : !fin ? GLIDE_SYM_OUTLIER : GLIDE_SYM_ZERO;
            }
}

/* The symbol at an anchor is implied by its value; anything else is corrupt. */
size_t FN(glide_anchors_decode)(const glide_grid *g, T *r, const uint16_t *sym, const T *anc, T subst)
{
    uint64_t B = 1ull << g->blog, k = 0;
    for (uint64_t s = 0; s < g->slabs; s++)
    for (uint64_t z = s * g->slab_rows; z < (s + 1) * g->slab_rows; z += B)
        for (uint64_t y = 0; y < g->n[1]; y += B)
            for (uint64_t xx = 0; xx < g->n[2]; xx += B) {
                size_t i = z * g->st[0] + y * g->st[1] + xx;
                T v = anc[k++];
                int fill = FN(is_fill)(g, v), fin = isfinite(v);
                unsigned want = fill ? GLIDE_SYM_FILL : !fin ? GLIDE_SYM_OUTLIER : GLIDE_SYM_ZERO;
                if (sym[i] != want) return GLIDE_ERROR(CORRUPT);
                r[i] = (fill || !fin) ? subst : v;
            }
    return 0;
}

#ifndef GLIDE_POINTS_DEFS
#define GLIDE_POINTS_DEFS
/* The passes over every symbol below look only at outliers and fills, which
 * are rare: they skip GLIDE_SYM_SPAN symbols at a time where none is one,
 * tested four to a 64-bit word. With fill_too: sym >= GLIDE_SYM_OUTLIER
 * (0x3FF) where sym + 1 or sym has a bit of 0xFC00 set (a lane's carry, from
 * sym = 0xFFFF only, can only add a false alarm to the next). Without, OUTLIER
 * alone, where FILL needs no look (spans of HDF5's padding then go by too):
 * sym + 1 has bit 10 and sym has not (FILL, 0x400, has it; the other symbols
 * are below OUTLIER and carry no lane past it). Returns the end of the span
 * from i to look at one by one (i where the span holds none). */
#define GLIDE_SYM_SPAN 16
static inline __attribute__((always_inline)) uint64_t glide_special_span(const uint16_t *sym, uint64_t i, uint64_t n,
                                                                          const int fill_too)
{
    if (n - i < GLIDE_SYM_SPAN) return n;
    const uint64_t lanes = 0x0001000100010001ull;
    uint64_t any = 0;
    for (unsigned k = 0; k < GLIDE_SYM_SPAN; k += 4) {
        uint64_t v;
        memcpy(&v, sym + i + k, sizeof v);
        any |= fill_too ? (v + lanes) | v : (v + lanes) & ~v;
    }
    return any & (fill_too ? 0xFC00 : 0x0400) * lanes ? i + GLIDE_SYM_SPAN : i;
}
#endif

uint64_t FN(glide_outliers_gather)(const uint16_t *sym, const T *x, uint64_t n, T *out)
{
    uint64_t k = 0;
    for (uint64_t i = 0; i < n;) {
        const uint64_t e = glide_special_span(sym, i, n, 0);
        if (e == i) { i += GLIDE_SYM_SPAN; continue; }
        for (; i < e; i++)
            if (sym[i] == GLIDE_SYM_OUTLIER) out[k++] = x[i];
    }
    return k;
}

size_t FN(glide_outliers_place)(const glide_grid *g, const uint16_t *sym, uint64_t n, const T *out, uint64_t n_out,
                                T *r, T subst)
{
    uint64_t k = 0;
    for (uint64_t i = 0; i < n;) {
        /* FILL is a point to look at only where the chunk has no fill value */
        const uint64_t e = g->has_fill ? glide_special_span(sym, i, n, 0) : glide_special_span(sym, i, n, 1);
        if (e == i) { i += GLIDE_SYM_SPAN; continue; }
        for (; i < e; i++) {
            if (sym[i] == GLIDE_SYM_FILL && !g->has_fill) return GLIDE_ERROR(CORRUPT);
            if (sym[i] != GLIDE_SYM_OUTLIER) continue;
            if (k == n_out) return GLIDE_ERROR(CORRUPT);
            T v = out[k++];
            r[i] = isfinite(v) ? v : subst;
        }
    }
    return k == n_out ? 0 : GLIDE_ERROR(CORRUPT);
}

/* Format 7: the lengths of the runs of FILL points that hold the fill
 * value and the second one, alternately, in index order, the fill value's
 * first (that run alone may be empty). Written as u32 LE to runs unless
 * NULL; returns how many. */
uint64_t FN(glide_fill_runs)(const glide_grid *g, const T *x, const uint16_t *sym, uint64_t n, uint8_t *runs)
{
    uint64_t k = 0;
    uint32_t len = 0;
    int cur = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (sym[i] != GLIDE_SYM_FILL) continue;
        const int two = FN(bits_of)(x[i]) == (TBITS)g->fill2_bits;
        if (two != cur) {
            if (runs) put_u32(runs + GLIDE_RUN_BYTES * k, len);
            k++, len = 0, cur = two;
        }
        len++;
    }
    if (runs) put_u32(runs + GLIDE_RUN_BYTES * k, len);
    return k + 1;
}

/* The last pass: FILL points take the fill value, OUTLIER points the
 * outliers in order. Format 7 (runs not NULL): each FILL point takes the
 * value its run names; runs that do not cover the FILL points exactly, or an
 * empty run but the first, make the stream CORRUPT. */
size_t FN(glide_fixup)(const uint16_t *sym, uint64_t n, const T *out, T *r, T fill, T fill2, const uint8_t *runs,
                       uint64_t n_runs)
{
    uint64_t k = 0, run = 0, left = runs ? get_u32(runs) : UINT64_MAX;
    for (uint64_t i = 0; i < n;) {
        const uint64_t e = glide_special_span(sym, i, n, 1);
        if (e == i) { i += GLIDE_SYM_SPAN; continue; }
        for (; i < e; i++) {
            if (sym[i] == GLIDE_SYM_FILL) {
                if (!left && (++run == n_runs || !(left = get_u32(runs + GLIDE_RUN_BYTES * run))))
                    return GLIDE_ERROR(CORRUPT);
                r[i] = run & 1 ? fill2 : fill;
                left--;
            } else if (sym[i] == GLIDE_SYM_OUTLIER) {
                r[i] = out[k++];
            }
        }
    }
    return !runs || (left == 0 && run + 1 == n_runs) ? 0 : GLIDE_ERROR(CORRUPT);
}
