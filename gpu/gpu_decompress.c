/* glide_gpu_decompress: one stream back to values on the device (common/api.c
 * calls it for the formats the device decodes, and redoes the chunk on the
 * CPU when it returns GLIDE_ERROR(GPU)): the stream up, its CRC, the
 * Huffman decoder (format 5: both planes, then back to raster order; format
 * 8: a run-coded plane by runs_decode.cu), the outliers, the reconstruction
 * within the header's error bound (predict.cu's gg_decode), the values down. */
#include "gg_context.h"
#include "huff_codec.h"
#include "bytes.h"

#include <string.h>

/* Format 5 chunks of at least this many points check their CRC on a side
 * stream beside the planes' merge (bound by memory bandwidth, no shared
 * memory; the CRC kernel is bound by its shared-memory tables). Beside
 * the decoder it only slowed both; on small chunks the device waits on
 * the host's launches, which the fork and join add to. */
#define CRC_BESIDE_MIN (1u << 21)

/* Each plane's decoder (one plane before format 5): a dictionary book's,
 * already on the device, or one built here into h_dec (upload_dec[k] = 1)
 * from a custom book or a book of a dictionary the device does not hold
 * (none yet: every older version is a prefix of the current one). 0 for a
 * bad book. */
static int decoders_find(const glide_header *h, const glide_layout *lay, const void *src, int planes,
                         const glide_huff_dec *dec[GLIDE_NPLANES], int upload_dec[GLIDE_NPLANES])
{
    gg_ctx *const c = &gg_G;
    for (unsigned k = 0; k < (planes ? GLIDE_NPLANES : 1u); k++) {
        const unsigned kind = k ? h->book_kind1 : h->book_kind, id = k ? h->book_id1 : h->book_id;
        if (kind == GLIDE_BOOKKIND_DICT && glide_dict_holds(c->dict, h->dict_version, id)) {
            dec[k] = c->d_dict_dec + id;
            continue;
        }
        uint8_t len[GLIDE_NSYM];
        const int dict_book = kind == GLIDE_BOOKKIND_DICT;
        const uint8_t *packed = (const uint8_t *)src + lay->book_off + (k ? h->book_bytes : 0);
        if (dict_book) memcpy(len, glide_dict_get(h->dict_version)->books[id].len, GLIDE_NSYM);
        if ((!dict_book && glide_is_error(glide_book_unpack(packed, k ? h->book_bytes1 : h->book_bytes, len))) ||
            glide_huff_dec_init(c->h_dec + k, len) != 0)
            return 0;
        dec[k] = c->d_dec + k;
        upload_dec[k] = 1;
    }
    return 1;
}

/* Format 8: each run-coded plane's class codes from its run book, held to
 * the CPU decoder's rules (glide_entropy_read): a prefix code of at most
 * GLIDE_RUN_MAX_LEN bits for ZERO or FILL or both, FILL's half (its
 * FILLRUNS flag) run-coding FILL. 0 for a bad run book. */
static int run_codes_find(const glide_header *h, const glide_layout *lay, const void *src,
                          gg_run_code rc[GLIDE_NPLANES])
{
    const uint8_t *book = (const uint8_t *)src + lay->runbook_off;
    memset(rc, 0, GLIDE_NPLANES * sizeof *rc);
    for (unsigned k = 0; k < GLIDE_NPLANES; k++) {
        if (!(h->flags & (k ? GLIDE_FLAG_RUNS1 : GLIDE_FLAG_RUNS0))) continue;
        uint8_t len[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES];
        glide_run_code code;
        const int fill = (h->flags & (k ? GLIDE_FLAG_FILLRUNS1 : GLIDE_FLAG_FILLRUNS0)) != 0;
        if (glide_is_error(glide_run_book_unpack(book, fill, len)) ||
            glide_run_code_init(&code, (const uint8_t(*)[GLIDE_RUN_CLASSES])len) != 0 || !(code.on[0] | code.on[1]) ||
            code.on[1] != fill)
            return 0;
        gg_run_code_of(&code, &rc[k]);
        book += glide_plane_runbook_bytes(h->flags, k);
    }
    return 1;
}

size_t glide_gpu_decompress(const glide_header *h, const glide_layout *lay, const void *src, size_t size, void *dst,
                            int dst_dev)
{
    /* the second fill value (format 7, and format 8 with HAS_FILL2) is the
     * CPU decoder's alone (glide_decompress routes it there) */
    if (h->format_version == GLIDE_FORMAT_FILL2 || (h->flags & GLIDE_FLAG_HAS_FILL2)) return GLIDE_ERROR(VERSION);
    if (!glide_gpu_usable()) return GLIDE_ERROR(GPU);
    gg_ctx *const c = gg_acquire();
    if (!c) return GLIDE_ERROR(GPU);
    size_t r = GLIDE_ERROR(GPU);
    int forked = 0; /* the CRC check is queued on a side stream */
    int dec_forked = 0; /* plane 0's decoder is queued on a side stream */
    if (cudaSetDevice(c->device) != cudaSuccess) { r = gg_fail(cudaGetLastError(), "set device"); goto done; }
    glide_shape sh;
    glide_shape_from_dims(h->rank, h->dims, h->format_version, &sh);
    const size_t esz = glide_dtype_size(h->dtype);
    const uint64_t n = sh.count;
    glide_grid cg;
    glide_grid_init(&cg, &sh, h->block_log2, (h->flags & GLIDE_FLAG_HAS_FILL) != 0, h->fill_bits);
    gg_grid g = gg_grid_of(&cg, h->dtype);
    const int method = h->method == GLIDE_METHOD_LORENZO ? GG_LORENZO
                       : h->method == GLIDE_METHOD_SLICE ? GG_SLICE_XY + h->level_cfg[0] /* format 6 */
                                                         : GG_INTERP;
    const int blend = method == GG_INTERP && glide_levels_blended(sh.rank, h->block_log2, h->level_cfg); /* format 4 */

    const int planes = h->format_version >= GLIDE_FORMAT_PLANES;
    const int crc_beside = planes && n >= CRC_BESIDE_MIN;
    gg_state *st = c->d_st, *hs = c->h_st;
    if (!gg_grow_dev(&c->buf, size) || !gg_grow_dev(&c->scratch, gg_dec_scratch_need(n, size))) {
        r = gg_fail(cudaErrorMemoryAllocation, "allocation");
        goto done;
    }
    uint8_t *buf = c->buf.p;
    /* the stream up and its CRC first: the device checks it while the host
     * finds the decoders */
    gg_stages_begin();
    CK(cudaMemcpyAsync(buf, src, size, cudaMemcpyHostToDevice, c->s), "upload");
    CK(cudaMemsetAsync(st, 0, sizeof *st, c->s), "reset");
    gg_stage("upload");
    if (!crc_beside) {
        CK(gg_check_crc(buf, lay->crc_off, st, c->scratch.p, c->scratch.cap, c->s), "crc");
        gg_stage("crc");
    }

    /* format 5: plane 0's n0 symbols and plane 1's, each with its book and its
     * part of the segment table and stream (plane 0's bytes: its entries' sum);
     * format 8: a run-coded plane's segments hold GLIDE_RUN_SEG_SYMS points */
    const int runs0 = (h->flags & GLIDE_FLAG_RUNS0) != 0, runs1 = (h->flags & GLIDE_FLAG_RUNS1) != 0;
    const uint64_t n0 = planes ? glide_plane0_count(&sh) : n, cnt[GLIDE_NPLANES] = {n0, n - n0};
    const uint64_t seg0 = glide_plane_segments(n0, runs0);
    uint64_t bytes0 = planes ? glide_segtab_sum((const uint8_t *)src + lay->segtab_off, seg0) : h->stream_bytes;
    const glide_huff_dec *dec[GLIDE_NPLANES] = {NULL, NULL};
    int upload_dec[GLIDE_NPLANES] = {0, 0};
    gg_run_code rc[GLIDE_NPLANES];
    if (!decoders_find(h, lay, src, planes, dec, upload_dec) || !run_codes_find(h, lay, src, rc))
        bytes0 = UINT64_MAX; /* reported below */
    if (bytes0 > h->stream_bytes || (planes && cnt[1] == 0 && bytes0 != h->stream_bytes)) {
        /* a bad book, run book or plane table; the CPU decoder reports a bad
         * checksum first (the device's check is left to finish unread) */
        r = glide_crc32(src, lay->crc_off) != get_u32((const uint8_t *)src + lay->crc_off) ? GLIDE_ERROR(CHECKSUM)
                                                                                      : GLIDE_ERROR(CORRUPT);
        goto done;
    }
    const size_t r_bytes = gg_global_r_bytes(g, method, blend, &c->launch);
    if (!gg_grow_dev(&c->x, n * esz) || !gg_grow_dev(&c->sym, n * 2) ||
        !gg_grow_dev(&c->pos, gg_outlier_scan_bytes(n)) ||
        (planes && !gg_grow_dev(&c->sym_p, gg_planes_len(n) * 2)) ||
        (r_bytes && !gg_grow_dev(&c->r, r_bytes)) ||
        (gg_needs_global_w(g, method, blend) && !gg_grow_dev(&c->w, n * esz))) {
        r = gg_fail(cudaErrorMemoryAllocation, "allocation");
        goto done;
    }
    memset(&hs->lv, 0, sizeof hs->lv);
    hs->lv.eb_abs = h->eb_abs;
    hs->lv.alpha = h->alpha;
    hs->lv.subst_bits = h->subst_bits;
    glide_level_bounds(h->eb_abs, h->alpha, h->block_log2, hs->lv.level_eb);
    memcpy(hs->lv.level_cfg, h->level_cfg, GLIDE_MAX_LEVELS);
    hs->lv.fill_aware = (uint32_t)glide_header_fill_aware(h);
    hs->lv.blended = (uint32_t)blend;
    CK(cudaMemcpyAsync(&st->lv, &hs->lv, sizeof hs->lv, cudaMemcpyHostToDevice, c->s), "upload levels");
    for (unsigned k = 0; k < GLIDE_NPLANES; k++)
        if (upload_dec[k])
            CK(cudaMemcpyAsync(c->d_dec + k, c->h_dec + k, sizeof *c->h_dec, cudaMemcpyHostToDevice, c->s),
               "upload code");
    gg_stage("upload codes");
    int words = 0; /* the merge made the outlier words */
    if (!planes) {
        CK(gg_huff_decode(dec[0], buf + lay->segtab_off, h->n_segments, buf + lay->stream_off, h->stream_bytes, c->sym.p,
                          n, &st->err, c->scratch.p, c->scratch.cap, c->s),
           "huffman decode");
        gg_stage("huffman decode");
    } else { /* both planes, then back to raster order */
        uint16_t *sp = c->sym_p.p, *sp1 = sp + gg_plane1_base(n0);
        const uint8_t *tab = buf + lay->segtab_off, *in = buf + lay->stream_off;
        if (runs0 == runs1) { /* in one launch, both planes coded alike */
            CK(runs0 ? gg_runs_decode_planes(dec[0], dec[1], rc, tab, h->n_segments, in, h->stream_bytes, sp, n0, sp1,
                                             cnt[1], &st->err, c->scratch.p, c->scratch.cap, c->s)
                     : gg_huff_decode_planes(dec[0], dec[1], tab, h->n_segments, in, h->stream_bytes, sp, n0, sp1,
                                             cnt[1], &st->err, c->scratch.p, c->scratch.cap, c->s),
               "huffman decode");
        } else {
            /* one run-coded plane: each against its own part of the table
             * and stream, as the CPU decodes them; plane 0's on a side
             * stream with its own scratch, beside plane 1's (one after the
             * other, a 64^3 chunk waited for the plain plane's decoder
             * about as long as for the run-coded one) */
            const uint64_t seg1 = h->n_segments - seg0, bytes1 = h->stream_bytes - bytes0;
            const size_t fo = gg_dec_fork_off(n, size);
            void *const fs = (uint8_t *)c->scratch.p + fo;
            CK(cudaEventRecord(c->par.fork, c->s), "fork");
            CK(cudaStreamWaitEvent(c->par.aux[1], c->par.fork, 0), "fork");
            CK(runs0 ? gg_runs_decode(dec[0], &rc[0], tab, (uint32_t)seg0, in, bytes0, sp, n0, &st->err, fs,
                                      c->scratch.cap - fo, c->par.aux[1])
                     : gg_huff_decode(dec[0], tab, (uint32_t)seg0, in, bytes0, sp, n0, &st->err, fs,
                                      c->scratch.cap - fo, c->par.aux[1]),
               "huffman decode");
            CK(cudaEventRecord(c->par.join[1], c->par.aux[1]), "join");
            dec_forked = 1;
            CK(runs1 ? gg_runs_decode(dec[1], &rc[1], tab + 2 * seg0, (uint32_t)seg1, in + bytes0, bytes1, sp1, cnt[1],
                                      &st->err, c->scratch.p, c->scratch.cap, c->s)
                     : gg_huff_decode(dec[1], tab + 2 * seg0, (uint32_t)seg1, in + bytes0, bytes1, sp1, cnt[1],
                                      &st->err, c->scratch.p, c->scratch.cap, c->s),
               "huffman decode");
            CK(cudaStreamWaitEvent(c->s, c->par.join[1], 0), "join");
            dec_forked = 0;
        }
        gg_stage("huffman decode");
        if (crc_beside) {
            /* its verdict is read only at the end, and the decoder has
             * checked every length and offset it used whatever the CRC */
            const size_t off = gg_crc_scratch_off(n);
            CK(cudaEventRecord(c->par.fork, c->s), "fork");
            CK(cudaStreamWaitEvent(c->par.aux[0], c->par.fork, 0), "fork");
            CK(gg_check_crc(buf, lay->crc_off, st, (uint8_t *)c->scratch.p + off, c->scratch.cap - off, c->par.aux[0]),
               "crc");
            CK(cudaEventRecord(c->par.join[0], c->par.aux[0]), "join");
            forked = 1;
        }
        CK(gg_planes_merge(sp, g, n0, c->sym.p, h->n_outliers ? c->pos.p : NULL, &words, c->s), "planes");
        gg_stage("planes merge");
    }
    /* with no outliers announced, any OUTLIER symbol is caught by the reconstruction */
    if (h->n_outliers)
        CK(gg_outlier_scan(words ? NULL : c->sym.p, n, c->pos.p, st, c->scratch.p, c->scratch.cap, c->s),
           "outlier scan");
    CK(gg_decode(g, method, (int)hs->lv.fill_aware, blend, st, c->sym.p, c->pos.p, buf + lay->anchors_off,
                 buf + lay->outliers_off, h->n_outliers, c->x.p, c->r.p, c->w.p, &st->err, &c->launch, c->s),
       "reconstruct");
    gg_stage("reconstruct");
    if (forked) CK(cudaStreamWaitEvent(c->s, c->par.join[0], 0), "join");
    forked = 0;
    if (dst_dev) {
        CK(cudaMemcpyAsync(dst, c->x.p, n * esz, cudaMemcpyDeviceToDevice, c->s), "copy out");
        CK(cudaMemcpyAsync(hs, st, sizeof *st, cudaMemcpyDeviceToHost, c->s), "download");
    } else {
        CK(gg_download_values(dst, c->x.p, n * esz, hs, st, sizeof *st), "download");
    }
    CK(cudaStreamSynchronize(c->s), "sync");
    gg_stage("download");
    gg_stages_end();
    if (hs->crc_bad) r = GLIDE_ERROR(CHECKSUM);
    else if (hs->err || (h->n_outliers && hs->n_outliers != h->n_outliers)) r = GLIDE_ERROR(CORRUPT);
    else r = 0;
done:
    if (forked) cudaStreamWaitEvent(c->s, c->par.join[0], 0); /* the next chunk reuses the scratch and state */
    if (dec_forked) cudaStreamWaitEvent(c->s, c->par.join[1], 0);
    gg_release(c);
    return r;
}
