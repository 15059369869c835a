#include "codec.h"
#include "bytes.h"
#include "huff_build.h"
#include "huff_codec.h"
#include "predict.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

glide_encode_opts glide_default_encode_opts(void)
{
    glide_encode_opts o = {glide_dict_get(GLIDE_DICT_VERSION), GLIDE_SCORE_SIZE, GLIDE_AUTO_SLACK, 0.0, NULL, 0, 0, 0, NULL, NULL};
    return o;
}

double glide_level_alpha(double rel)
{
    /* Tighter bounds on coarse levels buy PSNR with bit rate. Measured on the
     * real fields (docs/DESIGN.md), only loose bounds gain enough PSNR per
     * bit to be worth it; below 1e-2 alpha = 1 is best in CR and in R-D. */
    return rel >= 1e-2 ? 1.25 : 1.0;
}

void glide_level_bounds(double eb, double alpha, unsigned levels, double *out)
{
    double e = eb;
    for (unsigned l = 0; l < levels; l++) { out[l] = e; e = e / alpha; }
}

size_t glide_entropy_plan_hist(const glide_params *p, const glide_encode_opts *o, glide_header *h,
                               const uint64_t *hist, const glide_book_choice *given, uint64_t n, size_t esz,
                               glide_entropy_plan *plan)
{
    const glide_dictionary *d = o->dict;
    plan->o = o;
    if (o->hist_out) memcpy(o->hist_out, hist, GLIDE_NSYM * sizeof *hist);
    uint64_t dict_bits = 0, bits;
    unsigned book;
    if (given) {
        book = given->book;
        dict_bits = given->bits;
    } else {
        book = glide_book_select(d, hist, o->score, &dict_bits);
    }
    int custom = p->codebook == GLIDE_BOOK_CUSTOM;
    if (p->codebook == GLIDE_BOOK_AUTO) {
        double floor_bits = fmax(glide_hist_entropy_bits(hist), (double)n); /* Huffman pays >= 1 bit */
        custom = (double)dict_bits > (1.0 + o->auto_slack) * floor_bits;
    }
    size_t book_bytes = 0;
    if (custom) {
        uint8_t clen[GLIDE_NSYM];
        if (glide_huff_lengths(hist, GLIDE_NSYM, GLIDE_HUFF_MAX_LEN, clen) != 0) return GLIDE_ERROR(GENERIC);
        book_bytes = glide_book_pack(clen, plan->book, sizeof plan->book);
        uint64_t cbits = glide_book_bits(clen, hist);
        /* auto keeps the dictionary book unless the custom one really is smaller */
        if (p->codebook == GLIDE_BOOK_CUSTOM || cbits + 8 * book_bytes < dict_bits) {
            memcpy(plan->len, clen, GLIDE_NSYM);
            bits = cbits;
        } else {
            custom = 0;
        }
    }
    if (!custom) {
        book_bytes = 0;
        memcpy(plan->len, d->books[book].len, GLIDE_NSYM);
        bits = dict_bits;
    }
    /* the oldest dictionary holding the book, so that older decoders read
     * every stream that does not need a newer book */
    h->dict_version = (uint8_t)(custom ? GLIDE_DICT_FIRST_VERSION : glide_dict_book_version(d, book));
    h->book_kind = custom ? GLIDE_BOOKKIND_CUSTOM : GLIDE_BOOKKIND_DICT;
    h->book_id = custom ? 0 : (uint16_t)book;
    h->book_bytes = (uint32_t)book_bytes;
    h->n_outliers = hist[GLIDE_SYM_OUTLIER];
    h->n_segments = (uint32_t)glide_segment_count(n);
    /* upper bound: every segment pads at most 7 bits */
    h->stream_bytes = (bits + 7ull * h->n_segments) / 8;
    size_t r = glide_layout_compute(h, &plan->lay);
    if (glide_is_error(r)) return r;
    plan->raw_total = glide_header_size(h->rank) + n * esz + GLIDE_CRC_BYTES;
    if (plan->lay.total >= plan->raw_total) h->method = GLIDE_METHOD_RAW;
    return 0;
}

/* Picks the codebook and lays out the stream. Sets h->method to RAW when a
 * raw copy would be no larger. */
static size_t glide_entropy_plan_make(const glide_params *p, const glide_encode_opts *o, glide_header *h,
                                      const uint16_t *sym, uint64_t n, size_t esz, glide_entropy_plan *plan)
{
    uint64_t hist[GLIDE_NSYM] = {0};
    for (uint64_t i = 0; i < n; i++) hist[sym[i]]++;
    return glide_entropy_plan_hist(p, o, h, hist, NULL, n, esz, plan);
}

static size_t glide_finish(glide_header *h, uint8_t *dst)
{
    glide_layout lay;
    size_t r = glide_layout_compute(h, &lay);
    if (glide_is_error(r)) return r;
    glide_header_write(h, dst);
    put_u32(dst + lay.crc_off, glide_crc32(dst, lay.crc_off));
    return lay.total;
}

static size_t glide_entropy_write(glide_entropy_plan *plan, glide_header *h, const uint16_t *sym, uint64_t n,
                                  uint8_t *dst)
{
    memcpy(dst + plan->lay.book_off, plan->book, h->book_bytes);
    glide_huff_enc enc;
    glide_huff_enc_init(&enc, plan->len);
    /* never larger than the raw stream */
    size_t room = plan->raw_total - GLIDE_CRC_BYTES - plan->lay.stream_off;
    size_t got = glide_huff_encode(&enc, sym, n, dst + plan->lay.segtab_off, dst + plan->lay.stream_off, room);
    if (got == (size_t)-1) { h->method = GLIDE_METHOD_RAW; return 0; }
    h->stream_bytes = got;
    return glide_finish(h, dst);
}

static size_t glide_entropy_read(const glide_header *h, const glide_layout *lay, const uint8_t *src,
                                 uint16_t *sym, uint64_t n)
{
    uint8_t len[GLIDE_NSYM];
    if (h->book_kind == GLIDE_BOOKKIND_DICT) {
        memcpy(len, glide_dict_get(h->dict_version)->books[h->book_id].len, GLIDE_NSYM);
    } else {
        size_t r = glide_book_unpack(src + lay->book_off, h->book_bytes, len);
        if (glide_is_error(r)) return r;
    }
    glide_huff_dec *dec = malloc(sizeof *dec);
    if (!dec) return GLIDE_ERROR(NOMEM);
    size_t r = glide_huff_dec_init(dec, len) == 0
                   ? glide_huff_decode(dec, src + lay->segtab_off, h->n_segments, src + lay->stream_off,
                                       h->stream_bytes, sym, n)
                   : GLIDE_ERROR(CORRUPT);
    free(dec);
    return r;
}

#define GLIDE_T_IS_DOUBLE 0
#include "tmpl_begin.h"
#include "codec_tmpl.h"
#include "tmpl_end.h"
#undef GLIDE_T_IS_DOUBLE
#define GLIDE_T_IS_DOUBLE 1
#include "tmpl_begin.h"
#include "codec_tmpl.h"
#include "tmpl_end.h"

size_t glide_write_raw(glide_header *h, const void *src, uint64_t n, uint8_t *dst, size_t cap)
{
    size_t esz = glide_dtype_size(h->dtype);
    h->method = GLIDE_METHOD_RAW;
    h->format_version = GLIDE_FORMAT_FIRST_VERSION; /* raw values: no slabs, readable by every version */
    h->dict_version = GLIDE_DICT_FIRST_VERSION;
    h->book_kind = GLIDE_BOOKKIND_NONE;
    h->book_id = 0;
    h->block_log2 = 0;
    h->book_bytes = 0;
    h->n_segments = 0;
    h->n_outliers = 0;
    h->alpha = 1.0;
    h->subst_bits = 0;
    memset(h->level_cfg, 0, sizeof h->level_cfg);
    h->stream_bytes = n * esz;
    glide_layout lay;
    size_t r = glide_layout_compute(h, &lay);
    if (glide_is_error(r)) return r;
    if (lay.total > cap) return GLIDE_ERROR(DST_TOO_SMALL);
    if (esz == 4) store_le_f32(src, n, dst + lay.stream_off);
    else store_le_f64(src, n, dst + lay.stream_off);
    return glide_finish(h, dst);
}

void glide_header_begin(glide_header *h, const glide_params *p)
{
    memset(h, 0, sizeof *h);
    h->format_version = (uint8_t)glide_format_version_for(p->rank, p->dims);
    h->dict_version = GLIDE_DICT_FIRST_VERSION; /* until a dictionary book is chosen */
    h->dtype = (uint8_t)p->dtype;
    h->mode = (uint8_t)p->mode;
    h->rank = (uint8_t)p->rank;
    h->flags = p->has_fill ? GLIDE_FLAG_HAS_FILL : 0;
    h->eb_user = p->eb;
    h->fill_bits = p->has_fill ? (p->dtype == GLIDE_FLOAT32 ? (p->fill_bits & 0xFFFFFFFFu) : p->fill_bits) : 0;
    memcpy(h->dims, p->dims, p->rank * sizeof(uint64_t));
}

size_t glide_cpu_compress(const glide_params *p, const glide_encode_opts *o, const void *src, void *dst, size_t cap)
{
    glide_header h;
    glide_header_begin(&h, p);
    glide_shape sh;
    glide_shape_from_dims(p->rank, p->dims, h.format_version, &sh);
    glide_params q = *p;
    q.fill_bits = h.fill_bits;
    size_t raw_total = glide_header_size(p->rank) + sh.count * glide_dtype_size(p->dtype) + GLIDE_CRC_BYTES;
    /* the entropy stage writes in place, so it needs room for the raw case */
    uint8_t *out = dst, *tmp = NULL;
    if (cap < raw_total) {
        tmp = malloc(raw_total);
        if (!tmp) return GLIDE_ERROR(NOMEM);
        out = tmp;
    }
    size_t r = p->dtype == GLIDE_FLOAT32 ? compress_f32(&q, &sh, src, out, raw_total, &h, o)
                                         : compress_f64(&q, &sh, src, out, raw_total, &h, o);
    if (!glide_is_error(r) && h.method == GLIDE_METHOD_RAW) r = glide_write_raw(&h, src, sh.count, out, raw_total);
    if (tmp) {
        if (!glide_is_error(r)) {
            if (r > cap) r = GLIDE_ERROR(DST_TOO_SMALL);
            else memcpy(dst, tmp, r);
        }
        free(tmp);
    }
    return r;
}

size_t glide_cpu_decompress(const glide_header *h, const glide_layout *lay, const uint8_t *src, void *dst)
{
    return h->dtype == GLIDE_FLOAT32 ? decompress_f32(h, lay, src, dst) : decompress_f64(h, lay, src, dst);
}
