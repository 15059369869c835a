/* The CPU pipeline for one element type (templated): prediction and
 * quantization, then codec.c's shared entropy stage. */

static void FN(store_le)(const T *v, uint64_t n, uint8_t *dst)
{
    if (host_is_le()) { memcpy(dst, v, n * sizeof(T)); return; }
    for (uint64_t i = 0; i < n; i++) {
        TBITS b = FN(bits_of)(v[i]);
        for (size_t k = 0; k < sizeof(T); k++) dst[i * sizeof(T) + k] = (uint8_t)(b >> (8 * k));
    }
}

static void FN(load_le)(const uint8_t *src, uint64_t n, T *v)
{
    if (host_is_le()) { memcpy(v, src, n * sizeof(T)); return; }
    for (uint64_t i = 0; i < n; i++) {
        TBITS b = 0;
        for (size_t k = 0; k < sizeof(T); k++) b |= (TBITS)src[i * sizeof(T) + k] << (8 * k);
        memcpy(&v[i], &b, sizeof(T));
    }
}

static T FN(from_bits)(uint64_t bits)
{
    TBITS b = (TBITS)bits;
    T v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* GLIDE_PRED_AUTO: both predictors' estimated cost on the tuning sample,
 * from the original values (common/cost.h). */
static int FN(prefer_interp)(const glide_grid *g, const T *x, T *w, const uint8_t *level_cfg, double eb, T subst)
{
    uint64_t ei[2], el[2];
    FN(glide_interp_estimate)(g, x, w, level_cfg, eb, subst, ei);
    FN(glide_lorenzo_estimate)(g, x, eb, subst, el);
    return !glide_prefer_lorenzo(ei, el);
}

/* The predictor's block trial (glide_encode_opts.slice =
 * GLIDE_SLICE_TRIAL, the default; docs/DESIGN.md "The slice method"): the
 * boxes of the tuning sample, each B + 1 points a side (fewer where the
 * slab is smaller; moved back from the far edges to fit), stacked as the
 * slabs of one 4-D grid and compressed closed loop with each of
 * interpolation (the chunk's tuned levels), Lorenzo and both slice orders.
 * Per method the size is the best dictionary book's exact bits for its
 * histogram plus the outliers' bits; the least wins (ties: the earlier).
 * Integer sums over a grid any backend can build and encode, so the GPU
 * reproduces the choice. Without lorenzo, only interpolation and slices
 * (the interpolation predictor). Returns 0 interpolation, 1 Lorenzo, 2 / 3
 * the slice method x before y / y before x. */
static int FN(block_trial)(const glide_grid *g, const T *x, const uint8_t *level_cfg, double eb_abs, double alpha,
                           T subst, const glide_dictionary *dict, int lorenzo)
{
    glide_sample_lattice sl;
    glide_sample_lattice_init(g, &sl);
    uint64_t d[4];
    glide_trial_box(g, d + 1);
    d[0] = sl.count;
    const uint64_t per = d[1] * d[2] * d[3], n = sl.count * per;
    T *xb = malloc(n * sizeof(T)), *r = malloc(n * sizeof(T)), *w = malloc(n * sizeof(T)), *anc = NULL;
    uint16_t *sym = malloc(n * sizeof *sym);
    uint64_t(*hist)[GLIDE_NSYM] = calloc(4, sizeof *hist);
    int choice = 0;
    if (!xb || !r || !w || !sym || !hist) goto done;
    for (uint64_t b = 0; b < sl.count; b++) {
        uint64_t lo[3];
        const T *xs = x + glide_trial_box_origin(g, &sl, b, d + 1, lo) * glide_slab_elems(g);
        for (uint64_t z = 0; z < d[1]; z++)
            for (uint64_t y = 0; y < d[2]; y++)
                memcpy(xb + b * per + (z * d[2] + y) * d[3], xs + (lo[0] + z) * g->st[0] + (lo[1] + y) * g->st[1] + lo[2],
                       d[3] * sizeof(T));
    }
    glide_shape sh;
    glide_shape_from_dims(4, d, GLIDE_FORMAT_SLABS, &sh);
    glide_grid gb;
    glide_grid_init(&gb, &sh, g->blog, g->has_fill, g->fill_bits);
    gb.whole_pass = g->whole_pass;
    gb.scalar = g->scalar;
    if (!(anc = malloc(glide_anchor_count(&sh, g->blog) * sizeof(T)))) goto done;
    double level_eb[GLIDE_MAX_LEVELS];
    glide_level_bounds(eb_abs, alpha, g->blog, level_eb);
    uint64_t best = UINT64_MAX;
    for (int m = 0; m < 4; m++) {
        if (m == 1 && !lorenzo) continue;
        gb.fill_aware = m >= 2 ? g->has_fill : g->fill_aware;
        gb.blend = m == 0 ? g->blend : GLIDE_TUNE_NO_BLEND;
        FN(glide_anchors_encode)(&gb, xb, r, sym, anc, subst);
        if (m == 0) FN(glide_interp_encode)(&gb, xb, r, w, sym, level_cfg, level_eb, eb_abs, subst);
        else if (m == 1) FN(glide_lorenzo_encode)(&gb, xb, r, sym, eb_abs, subst);
        else FN(glide_slice_encode)(&gb, xb, r, w, sym, eb_abs, subst, m - 2);
        glide_hist_add(sym, n, hist[m]);
        /* a method wins only below the best so far, which caps its book search */
        const uint64_t out_bits = hist[m][GLIDE_SYM_OUTLIER] * 8 * sizeof(T);
        if (out_bits >= best) continue;
        const uint64_t bits = glide_book_select_below(dict ? dict : glide_dict_get(GLIDE_DICT_VERSION), hist[m],
                                                      best - out_bits);
        if (bits == UINT64_MAX) continue;
        best = bits + out_bits;
        choice = m;
    }
done:
    free(xb); free(r); free(w); free(anc); free(sym); free(hist);
    return choice;
}

static size_t FN(compress)(const glide_params *p, const glide_shape *sh, const T *x,
                           uint8_t *dst, size_t cap, glide_header *h, const glide_encode_opts *o)
{
    glide_grid g;
    unsigned blog = p->block_log2 ? p->block_log2 : glide_default_block_log2(sh->rank);
    glide_grid_init(&g, sh, blog, p->has_fill, p->fill_bits);
    g.whole_pass = o->whole_pass;
    g.scalar = o->scalar;
    g.tune_trace = o->tune_trace;
    double lo, hi;
    int any, fills;
    if (o->values) {
        if (o->values->has_fill2 && !o->planes) return GLIDE_ERROR(PARAM); /* format 7 has format 5's planes */
        g.has_fill2 = o->values->has_fill2;
        g.fill2_bits = o->values->fill2_bits;
        lo = o->values->lo, hi = o->values->hi, any = o->values->any, fills = o->values->fills;
    } else {
        FN(glide_value_range)(&g, x, &lo, &hi, &any, &fills);
    }
    double range = any ? hi - lo : 0;
    double eb_abs = p->mode == GLIDE_MODE_REL && p->eb > 0 ? p->eb * range : p->eb;
    if (!(eb_abs <= DBL_MAX)) eb_abs = DBL_MAX;
    T subst = any ? (T)(lo * 0.5 + hi * 0.5) : (T)0;
    if (subst == 0) subst = 0; /* +0 whichever zero the scan met first */

    h->block_log2 = (uint8_t)blog;
    h->eb_abs = eb_abs;
    h->subst_bits = FN(bits_of)(subst);
    h->alpha = 1.0;

    uint64_t n = g.count, n_anc = glide_anchor_count(sh, blog);
    T *r = malloc(n * sizeof(T)), *w = NULL; /* w: blended levels' residuals */
    T *anc = malloc(n_anc * sizeof(T));
    uint16_t *sym = malloc(n * sizeof(uint16_t)), *ord = NULL; /* ord: format 5's symbols in stream order */
    size_t ret = GLIDE_ERROR(NOMEM);
    if (!r || !anc || !sym) goto done;

    FN(glide_anchors_encode)(&g, x, r, sym, anc, subst);
    int interp = p->predictor != GLIDE_PRED_LORENZO;
    const int slice_mode = glide_slice_mode(p, o, g.eff_rank);
    int slice = slice_mode <= 2 ? slice_mode : 0; /* the order + 1 */
    if (!slice && interp) {
        /* format 3's stencils wherever a fill point occurs (elsewhere they
         * are format 1's, which every GLIDE version reads) */
        g.fill_aware = fills && !o->no_fill_aware;
        /* format 4's blends use the fill-aware stencils wherever HAS_FILL */
        g.blend = o->no_blend || (fills && o->no_fill_aware) ? GLIDE_TUNE_NO_BLEND
                  : o->force_blend                             ? GLIDE_TUNE_FORCE + o->force_blend - 1
                                                               : GLIDE_TUNE_BLEND;
        /* cost unit: 2^-24 of the range, so float errors keep their resolution */
        double unit = range > 0 && range <= DBL_MAX ? range * 0x1p-24 : 1.0;
        /* w: the blends' residuals, open loop in tuning, then the real pass's */
        if ((g.blend || o->level_cfg) && g.eff_rank >= 2 && !(w = malloc(n * sizeof(T)))) goto done;
        if (o->level_cfg) memcpy(h->level_cfg, o->level_cfg, sizeof h->level_cfg);
        else FN(glide_interp_tune)(&g, x, w, unit, subst, h->level_cfg);
        if (slice_mode == GLIDE_SLICE_TRIAL) {
            const double alpha = o->alpha >= 1.0 ? o->alpha : glide_level_alpha(range > 0 ? eb_abs / range : 1.0);
            const int c = FN(block_trial)(&g, x, h->level_cfg, eb_abs, alpha, subst, o->dict,
                                           p->predictor == GLIDE_PRED_AUTO);
            interp = c == 0;
            slice = c >= 2 ? c - 1 : 0;
        } else if (p->predictor == GLIDE_PRED_AUTO) {
            interp = FN(prefer_interp)(&g, x, w, h->level_cfg, eb_abs, subst);
        }
        if (!interp) memset(h->level_cfg, 0, sizeof h->level_cfg);
    }
    if (slice) {
        /* w: each point's 2-D prediction */
        if (!w && !(w = malloc(n * sizeof(T)))) goto done;
        g.fill_aware = p->has_fill;
        h->method = GLIDE_METHOD_SLICE;
        memset(h->level_cfg, 0, sizeof h->level_cfg);
        h->level_cfg[0] = (uint8_t)(slice - 1);
        FN(glide_slice_encode)(&g, x, r, w, sym, eb_abs, subst, slice - 1);
    } else if (interp) {
        double level_eb[GLIDE_MAX_LEVELS];
        h->method = GLIDE_METHOD_INTERP;
        if (g.fill_aware) h->format_version = GLIDE_FORMAT_FILL_AWARE;
        if (glide_levels_blended(g.eff_rank, blog, h->level_cfg)) h->format_version = GLIDE_FORMAT_BLEND; /* w allocated above */
        h->alpha = o->alpha >= 1.0 ? o->alpha : glide_level_alpha(range > 0 ? eb_abs / range : 1.0);
        glide_level_bounds(eb_abs, h->alpha, blog, level_eb);
        FN(glide_interp_encode)(&g, x, r, w, sym, h->level_cfg, level_eb, eb_abs, subst);
    } else {
        h->method = GLIDE_METHOD_LORENZO;
        FN(glide_lorenzo_encode)(&g, x, r, sym, eb_abs, subst);
    }

    /* format 5 (the default): a book per symbol plane; it implies format
     * 4's fill-aware stencils wherever HAS_FILL, so the test option
     * no_fill_aware keeps formats 1-4 where a fill point occurs */
    if (slice) {
        h->format_version = GLIDE_FORMAT_SLICE; /* its planes as format 5's */
        if (!(ord = malloc(n * sizeof *ord))) goto done;
    } else if (o->planes && !(interp && fills && o->no_fill_aware)) {
        h->format_version = GLIDE_FORMAT_PLANES;
        if (!(ord = malloc(n * sizeof *ord))) goto done;
    }
    if (o->sym_out) memcpy(o->sym_out, sym, n * sizeof *sym);
    if (o->recon_out) memcpy(o->recon_out, r, n * sizeof(T));
    if (g.has_fill2) {
        /* format 7: the second fill value and the runs that place it */
        h->format_version = GLIDE_FORMAT_FILL2;
        h->flags |= GLIDE_FLAG_HAS_FILL2;
        h->fill2_bits = (TBITS)g.fill2_bits;
        h->n_runs = FN(glide_fill_runs)(&g, x, sym, n, NULL);
    }
    /* entropy stage: shared, type-independent */
    glide_entropy_plan plan;
    (void)cap; /* the caller guarantees room for the raw stream */
    ret = glide_entropy_plan_make(p, o, h, sh, sym, ord, n, sizeof(T), &plan);
    if (glide_is_error(ret) || h->method == GLIDE_METHOD_RAW) goto done;
    FN(store_le)(anc, n_anc, dst + plan.lay.anchors_off);
    if (h->n_runs) FN(glide_fill_runs)(&g, x, sym, n, dst + plan.lay.runs_off);
    /* outliers gathered into r, which is free now */
    uint64_t n_out = FN(glide_outliers_gather)(sym, x, n, r);
    FN(store_le)(r, n_out, dst + plan.lay.outliers_off);
    ret = glide_entropy_write(&plan, h, ord ? ord : sym, n, dst);
done:
    free(ord);
    free(r);
    free(w);
    free(anc);
    free(sym);
    return ret;
}

static size_t FN(decompress)(const glide_header *h, const glide_layout *lay, const uint8_t *src, T *out)
{
    glide_shape sh;
    glide_grid g;
    glide_shape_from_dims(h->rank, h->dims, h->format_version, &sh);
    if (h->method == GLIDE_METHOD_RAW) {
        FN(load_le)(src + lay->stream_off, sh.count, out);
        return 0;
    }
    glide_grid_init(&g, &sh, h->block_log2, (h->flags & GLIDE_FLAG_HAS_FILL) != 0, h->fill_bits);
    g.has_fill2 = (h->flags & GLIDE_FLAG_HAS_FILL2) != 0; /* the anchors' values name both */
    g.fill2_bits = h->fill2_bits;
    g.fill_aware = glide_header_fill_aware(h);
    T subst = FN(from_bits)(h->subst_bits), fill = FN(from_bits)(h->fill_bits);
    uint64_t n = sh.count;
    uint16_t *sym = malloc(n * sizeof(uint16_t));
    T *anc = malloc(lay->n_anchors * sizeof(T));
    T *outl = malloc((h->n_outliers ? h->n_outliers : 1) * sizeof(T));
    const int blended = h->method == GLIDE_METHOD_INTERP && glide_levels_blended(g.eff_rank, g.blog, h->level_cfg);
    T *w = blended ? malloc(n * sizeof(T)) : NULL;
    size_t ret = GLIDE_ERROR(NOMEM);
    if (!sym || !anc || !outl || (blended && !w)) goto done;
    if (h->format_version >= GLIDE_FORMAT_PLANES) {
        /* stream order (plane 0, plane 1), then raster */
        const uint64_t n0 = glide_plane0_count(&sh);
        uint16_t *ord = malloc(n * sizeof *ord);
        ret = ord ? glide_entropy_read(h, lay, src, ord, n, n0) : GLIDE_ERROR(NOMEM);
        if (!glide_is_error(ret)) planes_order(&sh, ord, sym, n0, 1);
        free(ord);
    } else {
        ret = glide_entropy_read(h, lay, src, sym, n, n);
    }
    if (glide_is_error(ret)) goto done;
    FN(load_le)(src + lay->anchors_off, lay->n_anchors, anc);
    FN(load_le)(src + lay->outliers_off, h->n_outliers, outl);
    ret = FN(glide_anchors_decode)(&g, out, sym, anc, subst);
    if (glide_is_error(ret)) goto done;
    ret = FN(glide_outliers_place)(&g, sym, n, outl, h->n_outliers, out, subst);
    if (glide_is_error(ret)) goto done;
    if (h->method == GLIDE_METHOD_INTERP) {
        double level_eb[GLIDE_MAX_LEVELS];
        glide_level_bounds(h->eb_abs, h->alpha, h->block_log2, level_eb);
        FN(glide_interp_decode)(&g, out, w, sym, h->level_cfg, level_eb, subst);
    } else if (h->method == GLIDE_METHOD_SLICE) {
        T *sp = malloc(n * sizeof(T));
        if (!sp) { ret = GLIDE_ERROR(NOMEM); goto done; }
        g.fill_aware = (h->flags & GLIDE_FLAG_HAS_FILL) != 0;
        FN(glide_slice_decode)(&g, out, sp, sym, h->eb_abs, subst, h->level_cfg[0]);
        free(sp);
    } else {
        FN(glide_lorenzo_decode)(&g, out, sym, h->eb_abs, subst);
    }
    ret = FN(glide_fixup)(sym, n, outl, out, fill, FN(from_bits)(h->fill2_bits),
                          h->n_runs ? src + lay->runs_off : NULL, h->n_runs);
done:
    free(sym);
    free(anc);
    free(outl);
    free(w);
    return ret;
}
