#include "huff_runs.h"
#include "huff_build.h"
#include "bytes.h"
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Bit j of m[0] (m[1]): s[j] is ZERO (FILL), for j < w <= 64; higher bits 0. */
static inline void run_masks(const uint16_t *s, unsigned w, uint64_t m[GLIDE_RUN_KINDS])
{
    uint64_t z = 0, f = 0;
#if defined(__SSE2__)
    if (w == 64) {
        const __m128i vz = _mm_set1_epi16((short)GLIDE_SYM_ZERO), vf = _mm_set1_epi16((short)GLIDE_SYM_FILL);
        for (unsigned q = 0; q < 4; q++) {
            const __m128i a = _mm_loadu_si128((const __m128i *)(s + 16 * q));
            const __m128i b = _mm_loadu_si128((const __m128i *)(s + 16 * q + 8));
            z |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_packs_epi16(_mm_cmpeq_epi16(a, vz), _mm_cmpeq_epi16(b, vz)))
                 << (16 * q);
            f |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_packs_epi16(_mm_cmpeq_epi16(a, vf), _mm_cmpeq_epi16(b, vf)))
                 << (16 * q);
        }
        m[0] = z, m[1] = f;
        return;
    }
#endif
    for (unsigned j = 0; j < w; j++) {
        z |= (uint64_t)(s[j] == GLIDE_SYM_ZERO) << j;
        f |= (uint64_t)(s[j] == GLIDE_SYM_FILL) << j;
    }
    m[0] = z, m[1] = f;
}

static inline void run_close(glide_run_stats *st, unsigned k, uint64_t L)
{
    const unsigned c = glide_run_class(L);
    st->runs[k]++;
    st->cls[k][c]++;
    st->extra_bits[k] += c;
}

/* Walks the points where a kind's mask changes, 64 symbols at a time: the
 * cost follows the number of runs, not of symbols. */
void glide_run_stats_count(const uint16_t *sym, uint64_t n, glide_run_stats *st)
{
    memset(st, 0, sizeof *st);
    for (uint64_t s0 = 0; s0 < n; s0 += GLIDE_RUN_SEG_SYMS) {
        const unsigned len = (unsigned)(n - s0 < GLIDE_RUN_SEG_SYMS ? n - s0 : GLIDE_RUN_SEG_SYMS);
        unsigned start[GLIDE_RUN_KINDS] = {0, 0};
        uint64_t prev[GLIDE_RUN_KINDS] = {0, 0};
        for (unsigned b = 0; b < len; b += 64) {
            uint64_t m[GLIDE_RUN_KINDS];
            run_masks(sym + s0 + b, len - b < 64 ? len - b : 64, m);
            for (unsigned k = 0; k < GLIDE_RUN_KINDS; k++) {
                /* a bit of t: a run of kind k starts (m set) or ends there */
                for (uint64_t t = m[k] ^ (m[k] << 1 | prev[k]); t; t &= t - 1) {
                    const unsigned j = (unsigned)__builtin_ctzll(t);
                    if (m[k] >> j & 1u) start[k] = b + j;
                    else run_close(st, k, b + j - start[k]);
                }
                prev[k] = m[k] >> 63;
            }
        }
        /* a run still open reaches the segment's end (a short last block's
         * high bits are 0 and closed it above) */
        for (unsigned k = 0; k < GLIDE_RUN_KINDS; k++)
            if (prev[k]) run_close(st, k, len - start[k]);
    }
}

int glide_run_code_init(glide_run_code *rc, const uint8_t len[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES])
{
    memset(rc, 0, sizeof *rc);
    for (unsigned k = 0; k < GLIDE_RUN_KINDS; k++) {
        for (unsigned c = 0; c < GLIDE_RUN_CLASSES; c++) rc->on[k] |= len[k][c] != 0;
        if (!rc->on[k]) continue;
        if (glide_huff_check(len[k], GLIDE_RUN_CLASSES, GLIDE_RUN_MAX_LEN) != 0) return -1;
        memcpy(rc->len[k], len[k], GLIDE_RUN_CLASSES);
        glide_huff_canonical(len[k], GLIDE_RUN_CLASSES, rc->code[k]);
    }
    return 0;
}

size_t glide_run_book_pack(const uint8_t len[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES], uint8_t *out)
{
    unsigned kinds = 1;
    for (unsigned c = 0; c < GLIDE_RUN_CLASSES; c++)
        if (len[1][c]) kinds = 2;
    for (unsigned k = 0; k < kinds; k++)
        for (unsigned b = 0; b < GLIDE_RUN_SUBBOOK_BYTES; b++) {
            const unsigned hi = len[k][2 * b], lo = 2 * b + 1 < GLIDE_RUN_CLASSES ? len[k][2 * b + 1] : 0;
            out[k * GLIDE_RUN_SUBBOOK_BYTES + b] = (uint8_t)(hi << 4 | lo);
        }
    return kinds * GLIDE_RUN_SUBBOOK_BYTES;
}

size_t glide_run_book_unpack(const uint8_t *in, int fill, uint8_t len[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES])
{
    memset(len, 0, GLIDE_RUN_KINDS * GLIDE_RUN_CLASSES);
    for (unsigned k = 0; k < (fill ? 2u : 1u); k++)
        for (unsigned b = 0; b < GLIDE_RUN_SUBBOOK_BYTES; b++) {
            const uint8_t v = in[k * GLIDE_RUN_SUBBOOK_BYTES + b];
            len[k][2 * b] = v >> 4;
            if (2 * b + 1 < GLIDE_RUN_CLASSES) len[k][2 * b + 1] = v & 15u;
            else if (v & 15u) return GLIDE_ERROR(CORRUPT); /* the unused nibble */
        }
    return 0;
}

/* MSB-first bit writer over one segment; each put adds at most 16 bits */
typedef struct {
    uint64_t acc;
    unsigned nb;
    uint8_t *out;
    size_t pos, cap;
} bitw;

static inline int put_bits(bitw *w, uint32_t v, unsigned n)
{
    w->acc = (w->acc << n) | v;
    w->nb += n;
    if (w->nb >= 32) {
        if (w->cap - w->pos < 4) return -1;
        const uint32_t x = (uint32_t)(w->acc >> (w->nb - 32));
        w->out[w->pos] = (uint8_t)(x >> 24), w->out[w->pos + 1] = (uint8_t)(x >> 16);
        w->out[w->pos + 2] = (uint8_t)(x >> 8), w->out[w->pos + 3] = (uint8_t)x;
        w->pos += 4;
        w->nb -= 32;
    }
    return 0;
}

/* The first index from j (below end) whose symbol is not s, else end:
 * eight symbols a compare where SSE2 is there. */
static inline uint64_t run_end(const uint16_t *sym, uint64_t j, uint64_t end, uint16_t s)
{
#if defined(__SSE2__)
    const __m128i v = _mm_set1_epi16((short)s);
    for (; j + 8 <= end; j += 8) {
        const unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_loadu_si128((const __m128i *)(sym + j)), v));
        if (m != 0xFFFFu) return j + (unsigned)__builtin_ctz(~m & 0xFFFFu) / 2;
    }
#endif
    while (j < end && sym[j] == s) j++;
    return j;
}

size_t glide_runs_encode(const glide_huff_enc *e, const glide_run_code *rc, const uint16_t *sym, uint64_t n,
                         uint8_t *segtab, uint8_t *out, size_t cap)
{
    bitw w = {0, 0, out, 0, cap};
    for (uint64_t s0 = 0, seg = 0; s0 < n; s0 += GLIDE_RUN_SEG_SYMS, seg++) {
        const uint64_t s1 = n - s0 < GLIDE_RUN_SEG_SYMS ? n : s0 + GLIDE_RUN_SEG_SYMS;
        const size_t start = w.pos;
        for (uint64_t i = s0; i < s1;) {
            const uint16_t s = sym[i];
            if (put_bits(&w, e->code[s], e->len[s])) return (size_t)-1;
            const int k = s == GLIDE_SYM_ZERO ? 0 : s == GLIDE_SYM_FILL ? 1 : -1;
            if (k < 0 || !rc->on[k]) { i++; continue; }
            const uint64_t j = run_end(sym, i + 1, s1, s);
            const uint64_t L = j - i;
            const unsigned c = glide_run_class(L);
            if (put_bits(&w, rc->code[k][c], rc->len[k][c]) || put_bits(&w, (uint32_t)(L - (1ull << c)), c))
                return (size_t)-1;
            i = j;
        }
        while (w.nb > 0) {
            if (w.cap - w.pos < 1) return (size_t)-1;
            const unsigned take = w.nb >= 8 ? 8 : w.nb;
            w.out[w.pos++] = (uint8_t)((w.acc >> (w.nb - take)) << (8 - take));
            w.nb -= take;
        }
        w.acc = 0;
        put_u16(segtab + 2 * seg, (uint16_t)(w.pos - start));
    }
    return w.pos;
}

size_t glide_runs_decode(const glide_huff_dec *d, const glide_run_code *rc, const uint8_t *segtab,
                         uint64_t n_segments, const uint8_t *in, size_t in_bytes, uint16_t *sym, uint64_t n)
{
    /* a zero-padded copy of the segment lets every window load read 8 bytes */
    uint8_t buf[GLIDE_RUN_SEG_MAX_BYTES + 16];
    /* the class codes as 2^GLIDE_RUN_MAX_LEN-entry tables: class | len << 4 */
    uint8_t lut[GLIDE_RUN_KINDS][1u << GLIDE_RUN_MAX_LEN];
    memset(lut, 0, sizeof lut);
    for (unsigned k = 0; k < GLIDE_RUN_KINDS; k++)
        for (unsigned c = 0; c < GLIDE_RUN_CLASSES; c++) {
            const unsigned l = rc->len[k][c];
            if (!l) continue;
            const unsigned shift = GLIDE_RUN_MAX_LEN - l, base = (unsigned)rc->code[k][c] << shift;
            for (unsigned t = 0; t < (1u << shift); t++) lut[k][base + t] = (uint8_t)(c | l << 4);
        }
    if (glide_plane_segments(n, 1) != n_segments) return GLIDE_ERROR(CORRUPT);
    size_t pos = 0;
    for (uint64_t seg = 0; seg < n_segments; seg++) {
        const size_t bytes = get_u16(segtab + 2 * seg);
        const uint64_t s0 = seg * GLIDE_RUN_SEG_SYMS, cnt = n - s0 < GLIDE_RUN_SEG_SYMS ? n - s0 : GLIDE_RUN_SEG_SYMS;
        if (bytes > in_bytes - pos || bytes > GLIDE_RUN_SEG_MAX_BYTES) return GLIDE_ERROR(CORRUPT);
        memcpy(buf, in + pos, bytes);
        memset(buf + bytes, 0, 16); /* a window loads 8 bytes from at most byte `bytes` */
        uint64_t bitpos = 0;
        const uint64_t limit = (uint64_t)bytes * 8;
        uint16_t *o = sym + s0;
        int prev = -1; /* the kind of the last run, if the last event was one */
        for (uint64_t i = 0; i < cnt;) {
            if (bitpos > limit) return GLIDE_ERROR(CORRUPT);
            /* 57+ valid bits: a codeword (16), a class (8) and its extra bits (12) */
            uint64_t win = load_be64(buf + (bitpos >> 3)) << (bitpos & 7);
            uint16_t ent = d->lut[win >> (64 - GLIDE_HUFF_LUT_BITS)];
            unsigned l = ent >> 11, s = ent & 0x7FF;
            if (!l) {
                const uint32_t peek = (uint32_t)(win >> 48);
                for (l = GLIDE_HUFF_LUT_BITS + 1; l <= GLIDE_HUFF_MAX_LEN; l++) {
                    const uint32_t idx = (peek >> (16 - l)) - d->first[l];
                    if (idx < d->count[l]) { s = d->sorted[d->offset[l] + idx]; break; }
                }
                if (l > GLIDE_HUFF_MAX_LEN) return GLIDE_ERROR(CORRUPT);
            }
            win <<= l;
            bitpos += l;
            const int k = s == GLIDE_SYM_ZERO ? 0 : s == GLIDE_SYM_FILL ? 1 : -1;
            if (k < 0 || !rc->on[k]) { o[i++] = (uint16_t)s; prev = -1; continue; }
            /* a run right after a run of the same symbol is not maximal */
            if (prev == k) return GLIDE_ERROR(CORRUPT);
            const uint8_t ce = lut[k][win >> (64 - GLIDE_RUN_MAX_LEN)];
            const unsigned cl = ce >> 4, c = ce & 15u;
            if (!cl) return GLIDE_ERROR(CORRUPT);
            win <<= cl;
            const uint64_t L = (1ull << c) + (c ? win >> (64 - c) : 0);
            bitpos += cl + c;
            if (L > cnt - i) return GLIDE_ERROR(CORRUPT);
            for (uint64_t t = 0; t < L; t++) o[i + t] = (uint16_t)s;
            i += L;
            prev = k;
        }
        /* the segment ends in its last byte, padded with zero bits */
        if (bitpos > limit || (bitpos + 7) / 8 != bytes) return GLIDE_ERROR(CORRUPT);
        if ((bitpos & 7) && (buf[bitpos >> 3] & (0xFFu >> (bitpos & 7)))) return GLIDE_ERROR(CORRUPT);
        pos += bytes;
    }
    if (pos != in_bytes) return GLIDE_ERROR(CORRUPT);
    return 0;
}
