#include "format.h"
#include "bytes.h"
#include "dict.h"
#include <math.h>

void glide_shape_from_dims(unsigned rank, const uint64_t *dims, unsigned format_version, glide_shape *s)
{
    uint64_t kept[GLIDE_MAX_RANK];
    unsigned k = 0;
    s->count = 1;
    for (unsigned i = 0; i < rank; i++) {
        s->count *= dims[i];
        if (dims[i] != 1) kept[k++] = dims[i];
    }
    if (k == 0) kept[k++] = 1;
    /* format 2: the last three axes are a slab, the leading ones count slabs */
    s->slabs = 1;
    s->slab_rows = 0;
    if (format_version >= GLIDE_FORMAT_SLABS && k > GLIDE_MAX_EFF_RANK) {
        s->slab_rows = kept[k - GLIDE_MAX_EFF_RANK];
        for (unsigned i = 0; i + GLIDE_MAX_EFF_RANK < k; i++) s->slabs *= kept[i];
    }
    /* more than three axes: the leading ones merge into the slowest */
    while (k > GLIDE_MAX_EFF_RANK) {
        kept[1] *= kept[0];
        for (unsigned i = 0; i + 1 < k; i++) kept[i] = kept[i + 1];
        k--;
    }
    s->rank = k;
    for (unsigned i = 0; i < 3; i++) s->n[i] = i < k ? kept[i] : 1;
    if (!s->slab_rows) s->slab_rows = s->n[0];
}

unsigned glide_format_version_for(unsigned rank, const uint64_t *dims)
{
    glide_shape s; /* format 2's shape has slabs exactly where it differs from format 1's */
    glide_shape_from_dims(rank, dims, GLIDE_FORMAT_SLABS, &s);
    return s.slabs > 1 ? GLIDE_FORMAT_SLABS : GLIDE_FORMAT_FIRST_VERSION;
}

int glide_header_fill_aware(const glide_header *h)
{
    if (h->method != GLIDE_METHOD_INTERP) return 0;
    if (h->format_version >= GLIDE_FORMAT_BLEND) return (h->flags & GLIDE_FLAG_HAS_FILL) != 0;
    return h->format_version >= GLIDE_FORMAT_FILL_AWARE;
}

/* Encoder default anchor stride per effective rank (docs/DESIGN.md has the
 * measurements behind it). Not a format constant: streams record theirs. */
unsigned glide_default_block_log2(unsigned eff_rank)
{
    /* 4096 points per block in every rank: one GPU thread block's tile */
    switch (eff_rank) {
    case 1: return 12; /* 4096 */
    case 2: return 6;  /* 64 x 64 */
    default: return 4; /* 16 x 16 x 16 */
    }
}

uint64_t glide_anchor_count(const glide_shape *s, unsigned block_log2)
{
    /* every slab has its own anchors along axis 0 (one slab: n[0] rows) */
    uint64_t c = s->slabs * (((s->slab_rows - 1) >> block_log2) + 1);
    for (unsigned d = 1; d < s->rank; d++) c *= ((s->n[d] - 1) >> block_log2) + 1;
    return c;
}

uint64_t glide_segment_count(uint64_t n) { return (n + GLIDE_SEG_SYMS - 1) / GLIDE_SEG_SYMS; }

uint64_t glide_stream_segments(uint64_t n, uint64_t n0, int planes)
{
    return planes ? glide_segment_count(n0) + glide_segment_count(n - n0) : glide_segment_count(n);
}

uint64_t glide_plane_segments(uint64_t n, int runs)
{
    return runs ? (n + GLIDE_RUN_SEG_SYMS - 1) / GLIDE_RUN_SEG_SYMS : glide_segment_count(n);
}

uint64_t glide_header_segments(uint64_t n, uint64_t n0, int planes, unsigned flags)
{
    if (!planes) return glide_segment_count(n);
    return glide_plane_segments(n0, (flags & GLIDE_FLAG_RUNS0) != 0) +
           glide_plane_segments(n - n0, (flags & GLIDE_FLAG_RUNS1) != 0);
}

size_t glide_header_size(unsigned rank) { return GLIDE_HEADER_FIXED + 8 * (size_t)rank; }

size_t glide_header_bytes(const glide_header *h)
{
    return glide_header_size(h->rank) + (h->format_version >= GLIDE_FORMAT_PLANES ? GLIDE_HEADER_PLANES_EXT : 0) +
           (h->flags & GLIDE_FLAG_HAS_FILL2 ? GLIDE_HEADER_FILL2_EXT : 0);
}

uint64_t glide_plane0_count(const glide_shape *s)
{
    uint64_t c = s->slabs * ((s->slab_rows + 1) / 2);
    for (unsigned d = 1; d < s->rank; d++) c *= (s->n[d] + 1) / 2;
    return c;
}

uint64_t glide_segtab_sum(const uint8_t *segtab, uint64_t n_seg)
{
    uint64_t s = 0;
    for (uint64_t k = 0; k < n_seg; k++) s += get_u16(segtab + 2 * k);
    return s;
}


/* The rules one plane's book obeys (rule 13c). */
static int book_ok(const glide_dictionary *dict, unsigned kind, unsigned id, uint32_t bytes)
{
    if (kind == GLIDE_BOOKKIND_DICT) return id < dict->n_books && !bytes;
    if (kind == GLIDE_BOOKKIND_CUSTOM) return bytes && !id;
    return 0;
}

void glide_header_write(const glide_header *h, uint8_t *p)
{
    memset(p, 0, GLIDE_HEADER_FIXED);
    p[0] = GLIDE_MAGIC0; p[1] = GLIDE_MAGIC1; p[2] = GLIDE_MAGIC2; p[3] = GLIDE_MAGIC3;
    p[GLIDE_HDR_FORMAT_VERSION] = h->format_version;
    p[GLIDE_HDR_DICT_VERSION] = h->dict_version;
    p[GLIDE_HDR_DTYPE] = h->dtype;
    p[GLIDE_HDR_METHOD] = h->method;
    p[GLIDE_HDR_MODE] = h->mode;
    p[GLIDE_HDR_BOOK_KIND] = h->book_kind;
    put_u16(p + GLIDE_HDR_BOOK_ID, h->book_id);
    p[GLIDE_HDR_RANK] = h->rank;
    p[GLIDE_HDR_BLOCK_LOG2] = h->block_log2;
    p[GLIDE_HDR_FLAGS] = h->flags;
    p[GLIDE_HDR_RESERVED] = 0;
    put_f64(p + GLIDE_HDR_EB_USER, h->eb_user);
    put_f64(p + GLIDE_HDR_EB_ABS, h->eb_abs);
    put_f64(p + GLIDE_HDR_ALPHA, h->alpha);
    put_u64(p + GLIDE_HDR_FILL_BITS, h->fill_bits);
    put_u64(p + GLIDE_HDR_SUBST_BITS, h->subst_bits);
    put_u32(p + GLIDE_HDR_BOOK_BYTES, h->book_bytes);
    put_u32(p + GLIDE_HDR_N_SEGMENTS, h->n_segments);
    put_u64(p + GLIDE_HDR_N_OUTLIERS, h->n_outliers);
    put_u64(p + GLIDE_HDR_STREAM_BYTES, h->stream_bytes);
    memcpy(p + GLIDE_HDR_LEVEL_CFG, h->level_cfg, GLIDE_MAX_LEVELS);
    for (unsigned i = 0; i < h->rank; i++) put_u64(p + GLIDE_HEADER_FIXED + 8 * i, h->dims[i]);
    if (h->format_version >= GLIDE_FORMAT_PLANES) {
        uint8_t *x = p + glide_header_size(h->rank);
        x[GLIDE_HDRX_BOOK_KIND] = h->book_kind1;
        x[GLIDE_HDRX_RESERVED] = 0;
        put_u16(x + GLIDE_HDRX_BOOK_ID, h->book_id1);
        put_u32(x + GLIDE_HDRX_BOOK_BYTES, h->book_bytes1);
    }
    if (h->flags & GLIDE_FLAG_HAS_FILL2) {
        uint8_t *y = p + glide_header_size(h->rank) + GLIDE_HEADER_PLANES_EXT;
        put_u64(y + GLIDE_HDRY_FILL2_BITS, h->fill2_bits);
        put_u64(y + GLIDE_HDRY_N_RUNS, h->n_runs);
    }
}

static int add_ok(uint64_t *acc, uint64_t v)
{
    if (*acc > UINT64_MAX - v) return 0;
    *acc += v;
    return 1;
}

size_t glide_layout_compute(const glide_header *h, glide_layout *lay)
{
    glide_shape s;
    glide_shape_from_dims(h->rank, h->dims, h->format_version, &s);
    size_t esz = glide_dtype_size(h->dtype);
    uint64_t off = glide_header_bytes(h);
    lay->header_bytes = (size_t)off;
    lay->n_anchors = h->method == GLIDE_METHOD_RAW ? 0 : glide_anchor_count(&s, h->block_log2);
    lay->book_off = (size_t)off;
    if (!add_ok(&off, h->book_bytes)) return GLIDE_ERROR(CORRUPT);
    if (h->format_version >= GLIDE_FORMAT_PLANES && !add_ok(&off, h->book_bytes1)) return GLIDE_ERROR(CORRUPT);
    lay->runbook_off = (size_t)off;
    if (!add_ok(&off, glide_runbook_bytes(h->flags))) return GLIDE_ERROR(CORRUPT);
    lay->anchors_off = (size_t)off;
    if (!add_ok(&off, lay->n_anchors * esz)) return GLIDE_ERROR(CORRUPT);
    lay->outliers_off = (size_t)off;
    if (h->n_outliers > s.count || !add_ok(&off, h->n_outliers * esz)) return GLIDE_ERROR(CORRUPT);
    lay->runs_off = (size_t)off;
    if (h->n_runs > s.count + 1 || !add_ok(&off, h->n_runs * GLIDE_RUN_BYTES)) return GLIDE_ERROR(CORRUPT);
    lay->segtab_off = (size_t)off;
    if (!add_ok(&off, 2 * (uint64_t)h->n_segments)) return GLIDE_ERROR(CORRUPT);
    lay->stream_off = (size_t)off;
    if (!add_ok(&off, h->stream_bytes)) return GLIDE_ERROR(CORRUPT);
    lay->crc_off = (size_t)off;
    if (!add_ok(&off, GLIDE_CRC_BYTES) || off > SIZE_MAX) return GLIDE_ERROR(CORRUPT);
    lay->total = (size_t)off;
    return 0;
}

size_t glide_header_read(const uint8_t *p, size_t size, glide_header *h, glide_layout *lay)
{
    if (size < 4) return GLIDE_ERROR(TRUNCATED);
    if (p[0] != GLIDE_MAGIC0 || p[1] != GLIDE_MAGIC1 || p[2] != GLIDE_MAGIC2 || p[3] != GLIDE_MAGIC3)
        return GLIDE_ERROR(MAGIC);
    if (size < GLIDE_HEADER_FIXED) return GLIDE_ERROR(TRUNCATED);
    memset(h, 0, sizeof *h);
    h->format_version = p[GLIDE_HDR_FORMAT_VERSION];
    if (h->format_version < GLIDE_FORMAT_FIRST_VERSION || h->format_version > GLIDE_FORMAT_VERSION)
        return GLIDE_ERROR(VERSION);
    h->dict_version = p[GLIDE_HDR_DICT_VERSION];
    h->dtype = p[GLIDE_HDR_DTYPE];
    h->method = p[GLIDE_HDR_METHOD];
    h->mode = p[GLIDE_HDR_MODE];
    h->book_kind = p[GLIDE_HDR_BOOK_KIND];
    h->book_id = get_u16(p + GLIDE_HDR_BOOK_ID);
    h->rank = p[GLIDE_HDR_RANK];
    h->block_log2 = p[GLIDE_HDR_BLOCK_LOG2];
    h->flags = p[GLIDE_HDR_FLAGS];
    h->eb_user = get_f64(p + GLIDE_HDR_EB_USER);
    h->eb_abs = get_f64(p + GLIDE_HDR_EB_ABS);
    h->alpha = get_f64(p + GLIDE_HDR_ALPHA);
    h->fill_bits = get_u64(p + GLIDE_HDR_FILL_BITS);
    h->subst_bits = get_u64(p + GLIDE_HDR_SUBST_BITS);
    h->book_bytes = get_u32(p + GLIDE_HDR_BOOK_BYTES);
    h->n_segments = get_u32(p + GLIDE_HDR_N_SEGMENTS);
    h->n_outliers = get_u64(p + GLIDE_HDR_N_OUTLIERS);
    h->stream_bytes = get_u64(p + GLIDE_HDR_STREAM_BYTES);
    memcpy(h->level_cfg, p + GLIDE_HDR_LEVEL_CFG, GLIDE_MAX_LEVELS);

    /* every stream names the dictionary its encoder had, books used or not */
    const glide_dictionary *dict = glide_dict_get(h->dict_version);
    if (!dict) return GLIDE_ERROR(VERSION);
    if (h->dtype != GLIDE_FLOAT32 && h->dtype != GLIDE_FLOAT64) return GLIDE_ERROR(CORRUPT);
    if (h->method > GLIDE_METHOD_SLICE || h->mode > GLIDE_MODE_REL) return GLIDE_ERROR(CORRUPT);
    /* format 6 is the slice method's, and only its (rule 6a); 7 may have any
     * coded method */
    if (h->method == GLIDE_METHOD_SLICE ? h->format_version < GLIDE_FORMAT_SLICE
                                        : h->format_version == GLIDE_FORMAT_SLICE)
        return GLIDE_ERROR(CORRUPT);
    /* format 7 has both fill values (rule 7a); format 8 has a run-coded
     * plane and may have the second fill value (rule 8a); others neither */
    const unsigned flags_7 = GLIDE_FLAG_HAS_FILL | GLIDE_FLAG_HAS_FILL2;
    if (h->format_version == GLIDE_FORMAT_RUNS) {
        /* FILL run-coded in a plane that is, in a stream with fill */
        const unsigned fr = (h->flags & GLIDE_FLAG_FILLRUNS) >> 2;
        if ((h->flags & ~(flags_7 | GLIDE_FLAG_RUNS | GLIDE_FLAG_FILLRUNS)) || !(h->flags & GLIDE_FLAG_RUNS) ||
            ((h->flags & GLIDE_FLAG_HAS_FILL2) && !(h->flags & GLIDE_FLAG_HAS_FILL)) || (fr & ~h->flags) ||
            (fr && !(h->flags & GLIDE_FLAG_HAS_FILL)))
            return GLIDE_ERROR(CORRUPT);
    } else if (h->format_version == GLIDE_FORMAT_FILL2 ? h->flags != flags_7 : (h->flags & ~GLIDE_FLAG_HAS_FILL) != 0) {
        return GLIDE_ERROR(CORRUPT);
    }
    if (p[GLIDE_HDR_RESERVED] != 0) return GLIDE_ERROR(CORRUPT);
    if (h->rank < 1 || h->rank > GLIDE_MAX_RANK) return GLIDE_ERROR(CORRUPT);
    if (size < glide_header_size(h->rank)) return GLIDE_ERROR(TRUNCATED);
    if (h->format_version >= GLIDE_FORMAT_PLANES) {
        if (size < glide_header_bytes(h)) return GLIDE_ERROR(TRUNCATED);
        const uint8_t *x = p + glide_header_size(h->rank);
        h->book_kind1 = x[GLIDE_HDRX_BOOK_KIND];
        h->book_id1 = get_u16(x + GLIDE_HDRX_BOOK_ID);
        h->book_bytes1 = get_u32(x + GLIDE_HDRX_BOOK_BYTES);
        if (x[GLIDE_HDRX_RESERVED]) return GLIDE_ERROR(CORRUPT);
    }
    if (h->flags & GLIDE_FLAG_HAS_FILL2) {
        const uint8_t *y = p + glide_header_size(h->rank) + GLIDE_HEADER_PLANES_EXT;
        h->fill2_bits = get_u64(y + GLIDE_HDRY_FILL2_BITS);
        h->n_runs = get_u64(y + GLIDE_HDRY_N_RUNS);
        /* the two fill values differ, and at least one run names them */
        if (h->fill2_bits == h->fill_bits || h->n_runs == 0) return GLIDE_ERROR(CORRUPT);
    }
    size_t esz = glide_dtype_size(h->dtype);
    /* one stream, one encoding: bits no decoder reads must be zero */
    uint64_t vmask = esz == 4 ? 0xFFFFFFFFull : UINT64_MAX;
    if ((h->fill_bits & ~vmask) || (h->subst_bits & ~vmask) || (h->fill2_bits & ~vmask)) return GLIDE_ERROR(CORRUPT);
    if (!(h->flags & GLIDE_FLAG_HAS_FILL) && h->fill_bits) return GLIDE_ERROR(CORRUPT);
    uint64_t count = 1;
    for (unsigned i = 0; i < h->rank; i++) {
        h->dims[i] = get_u64(p + GLIDE_HEADER_FIXED + 8 * i);
        if (h->dims[i] == 0 || h->dims[i] > GLIDE_MAX_INPUT_BYTES) return GLIDE_ERROR(CORRUPT);
        count *= h->dims[i];
        if (count * esz > GLIDE_MAX_INPUT_BYTES) return GLIDE_ERROR(CORRUPT);
    }
    if (!(h->eb_abs >= 0) || !isfinite(h->eb_abs)) return GLIDE_ERROR(CORRUPT);
    if (!(h->alpha >= 1) || !isfinite(h->alpha)) return GLIDE_ERROR(CORRUPT);
    /* format 3 differs from 2 only in fill-aware interpolation: encoders
     * name it for nothing else, so one stream has one encoding */
    if (h->format_version == GLIDE_FORMAT_FILL_AWARE &&
        (h->method != GLIDE_METHOD_INTERP || !(h->flags & GLIDE_FLAG_HAS_FILL)))
        return GLIDE_ERROR(CORRUPT);
    /* format 4 differs from 3 only in blended levels (rule 13d) */
    if (h->format_version == GLIDE_FORMAT_BLEND && h->method != GLIDE_METHOD_INTERP) return GLIDE_ERROR(CORRUPT);
    /* format 5: symbol planes, interpolation or Lorenzo */
    if (h->format_version >= GLIDE_FORMAT_PLANES && h->method == GLIDE_METHOD_RAW) return GLIDE_ERROR(CORRUPT);
    if (h->method == GLIDE_METHOD_RAW) {
        if (h->book_kind != GLIDE_BOOKKIND_NONE || h->book_id || h->book_bytes || h->n_segments ||
            h->n_outliers || h->block_log2 || h->subst_bits || h->alpha != 1.0 || h->stream_bytes != count * esz)
            return GLIDE_ERROR(CORRUPT);
        for (unsigned l = 0; l < GLIDE_MAX_LEVELS; l++)
            if (h->level_cfg[l]) return GLIDE_ERROR(CORRUPT);
    } else {
        glide_shape s;
        glide_shape_from_dims(h->rank, h->dims, h->format_version, &s);
        if (h->block_log2 < 1 || h->block_log2 > GLIDE_MAX_LEVELS - 1) return GLIDE_ERROR(CORRUPT);
        const int planes = h->format_version >= GLIDE_FORMAT_PLANES;
        if (h->n_segments != glide_header_segments(count, planes ? glide_plane0_count(&s) : count, planes, h->flags))
            return GLIDE_ERROR(CORRUPT);
        if (!book_ok(dict, h->book_kind, h->book_id, h->book_bytes)) return GLIDE_ERROR(CORRUPT);
        if (planes && !book_ok(dict, h->book_kind1, h->book_id1, h->book_bytes1)) return GLIDE_ERROR(CORRUPT);
        if (h->method == GLIDE_METHOD_INTERP) {
            const int blend_ok = h->format_version >= GLIDE_FORMAT_BLEND && s.rank >= 2;
            const unsigned n_cfg_orders = glide_n_orders(s.rank) + (blend_ok ? GLIDE_NBLENDS : 0);
            for (unsigned l = 0; l < GLIDE_MAX_LEVELS; l++) {
                unsigned spline = h->level_cfg[l] & 3u, order = h->level_cfg[l] >> 2;
                if (l >= h->block_log2) {
                    if (h->level_cfg[l]) return GLIDE_ERROR(CORRUPT);
                } else if (spline >= GLIDE_NSPLINES || order >= n_cfg_orders) {
                    return GLIDE_ERROR(CORRUPT);
                }
            }
            if (h->format_version == GLIDE_FORMAT_BLEND && !glide_levels_blended(s.rank, h->block_log2, h->level_cfg))
                return GLIDE_ERROR(CORRUPT);
        } else if (h->method == GLIDE_METHOD_SLICE) {
            /* level_cfg[0] = the slices' axis order (1: y before x), §9a */
            if (h->level_cfg[0] > 1 || s.rank < 3) return GLIDE_ERROR(CORRUPT);
            for (unsigned l = 1; l < GLIDE_MAX_LEVELS; l++)
                if (h->level_cfg[l]) return GLIDE_ERROR(CORRUPT);
        } else {
            for (unsigned l = 0; l < GLIDE_MAX_LEVELS; l++)
                if (h->level_cfg[l]) return GLIDE_ERROR(CORRUPT);
        }
    }
    size_t r = glide_layout_compute(h, lay);
    if (glide_is_error(r)) return r;
    if (lay->total > size) return GLIDE_ERROR(TRUNCATED);
    if (lay->total < size) return GLIDE_ERROR(CORRUPT);
    return count * esz;
}
