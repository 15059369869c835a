#include "huff_codec.h"
#include "huff_build.h"
#include "bytes.h"
#include <string.h>

void glide_huff_enc_init(glide_huff_enc *e, const uint8_t *len)
{
    memcpy(e->len, len, GLIDE_NSYM);
    glide_huff_canonical(len, GLIDE_NSYM, e->code);
}

/* Over the used symbols only, found eight lengths at a time: a book of a
 * collapsed histogram uses a few dozen of GLIDE_NSYM, and passes over every
 * symbol (a count bumped per symbol, most of them length 0) were most of a
 * small chunk's decoder set-up. The same tables as the canonical code of
 * huff_build.c: codes of one length in symbol order. */
int glide_huff_dec_init(glide_huff_dec *d, const uint8_t *len)
{
    uint16_t used[GLIDE_NSYM];
    unsigned nu = 0;
    for (unsigned i = 0; i < GLIDE_NSYM; i += 8) {
        if (i + 8 <= GLIDE_NSYM) {
            uint64_t w;
            memcpy(&w, len + i, 8);
            if (!w) continue;
        }
        for (unsigned j = i; j < i + 8 && j < GLIDE_NSYM; j++)
            if (len[j]) used[nu++] = (uint16_t)j;
    }
    if (!nu) return -1;
    memset(d, 0, sizeof *d);
    uint64_t kraft = 0;
    for (unsigned u = 0; u < nu; u++) {
        const unsigned l = len[used[u]];
        if (l > GLIDE_HUFF_MAX_LEN) return -1;
        kraft += 1ull << (GLIDE_HUFF_MAX_LEN - l);
        d->count[l]++;
    }
    if (kraft > 1ull << GLIDE_HUFF_MAX_LEN) return -1;
    unsigned c = 0, off = 0, next[GLIDE_HUFF_MAX_LEN + 1], fill[GLIDE_HUFF_MAX_LEN + 1];
    for (unsigned l = 1; l <= GLIDE_HUFF_MAX_LEN; l++) {
        c = (c + d->count[l - 1]) << 1;
        d->first[l] = c;
        d->offset[l] = off;
        next[l] = c, fill[l] = off;
        off += d->count[l];
    }
    for (unsigned u = 0; u < nu; u++) {
        const unsigned i = used[u], l = len[i], code = next[l]++;
        d->sorted[fill[l]++] = (uint16_t)i;
        if (l > GLIDE_HUFF_LUT_BITS) continue;
        const unsigned shift = GLIDE_HUFF_LUT_BITS - l, base = code << shift;
        for (unsigned k = 0; k < (1u << shift); k++) d->lut[base + k] = (uint16_t)(i | (l << 11));
    }
    return 0;
}

size_t glide_huff_encode(const glide_huff_enc *e, const uint16_t *sym, uint64_t n,
                         uint8_t *segtab, uint8_t *out, size_t cap)
{
    size_t pos = 0;
    for (uint64_t s0 = 0, seg = 0; s0 < n; s0 += GLIDE_SEG_SYMS, seg++) {
        uint64_t s1 = s0 + GLIDE_SEG_SYMS < n ? s0 + GLIDE_SEG_SYMS : n;
        size_t start = pos;
        uint64_t acc = 0;
        unsigned nb = 0;
        for (uint64_t i = s0; i < s1; i++) {
            unsigned s = sym[i];
            acc = (acc << e->len[s]) | e->code[s];
            nb += e->len[s];
            if (nb >= 32) {
                if (cap - pos < 4) return (size_t)-1;
                uint32_t w = (uint32_t)(acc >> (nb - 32));
                out[pos] = (uint8_t)(w >> 24); out[pos + 1] = (uint8_t)(w >> 16);
                out[pos + 2] = (uint8_t)(w >> 8); out[pos + 3] = (uint8_t)w;
                pos += 4;
                nb -= 32;
            }
        }
        while (nb > 0) {
            if (cap - pos < 1) return (size_t)-1;
            unsigned take = nb >= 8 ? 8 : nb;
            out[pos++] = (uint8_t)((acc >> (nb - take)) << (8 - take));
            nb -= take;
        }
        put_u16(segtab + 2 * seg, (uint16_t)(pos - start));
    }
    return pos;
}

size_t glide_huff_decode(const glide_huff_dec *d, const uint8_t *segtab, uint32_t n_segments,
                         const uint8_t *in, size_t in_bytes, uint16_t *sym, uint64_t n)
{
    /* a local zero-padded copy lets every window load read 8 bytes */
    uint8_t buf[2 * GLIDE_SEG_SYMS + 16];
    size_t pos = 0;
    if (glide_segment_count(n) != n_segments) return GLIDE_ERROR(CORRUPT);
    for (uint32_t seg = 0; seg < n_segments; seg++) {
        size_t bytes = get_u16(segtab + 2 * (size_t)seg);
        uint64_t s0 = (uint64_t)seg * GLIDE_SEG_SYMS;
        uint64_t cnt = n - s0 < GLIDE_SEG_SYMS ? n - s0 : GLIDE_SEG_SYMS;
        if (bytes > in_bytes - pos || bytes > 2 * GLIDE_SEG_SYMS) return GLIDE_ERROR(CORRUPT);
        memcpy(buf, in + pos, bytes);
        /* a window loads 8 bytes from at most byte `bytes` (bitpos <= limit) */
        memset(buf + bytes, 0, 16);
        uint64_t bitpos = 0, limit = (uint64_t)bytes * 8;
        uint16_t *out = sym + s0;
        for (uint64_t i = 0; i < cnt;) {
            if (bitpos > limit) return GLIDE_ERROR(CORRUPT);
            uint64_t win = load_be64(buf + (bitpos >> 3)) << (bitpos & 7);
            /* 57+ valid bits: three 16-bit codewords at most */
            for (int k = 0; k < 3 && i < cnt; k++, i++) {
                uint16_t ent = d->lut[win >> (64 - GLIDE_HUFF_LUT_BITS)];
                unsigned l = ent >> 11;
                if (l) {
                    out[i] = ent & 0x7FF;
                } else {
                    uint32_t peek = (uint32_t)(win >> 48);
                    for (l = GLIDE_HUFF_LUT_BITS + 1; l <= GLIDE_HUFF_MAX_LEN; l++) {
                        uint32_t idx = (peek >> (16 - l)) - d->first[l];
                        if (idx < d->count[l]) { out[i] = d->sorted[d->offset[l] + idx]; break; }
                    }
                    if (l > GLIDE_HUFF_MAX_LEN) return GLIDE_ERROR(CORRUPT);
                }
                win <<= l;
                bitpos += l;
            }
        }
        /* the segment ends in its last byte, padded with zero bits */
        if (bitpos > limit || (bitpos + 7) / 8 != bytes) return GLIDE_ERROR(CORRUPT);
        if ((bitpos & 7) && (buf[bitpos >> 3] & (0xFFu >> (bitpos & 7)))) return GLIDE_ERROR(CORRUPT);
        pos += bytes;
    }
    if (pos != in_bytes) return GLIDE_ERROR(CORRUPT);
    return 0;
}

#define BOOK_RUN_MAX 128u /* the most absent symbols one byte of a custom book codes */

/* Code lengths as bytes: 1..16 is a length, 0x80 | (k - 1) is a run of k
 * absent symbols (k <= BOOK_RUN_MAX). */
size_t glide_book_pack(const uint8_t *len, uint8_t *out, size_t cap)
{
    uint16_t used[GLIDE_NSYM];
    return glide_book_pack_used(len, used, glide_used_lengths(len, GLIDE_NSYM, used), out, cap);
}

size_t glide_book_pack_used(const uint8_t *len, const uint16_t *used, unsigned m, uint8_t *out, size_t cap)
{
    size_t o = 0;
    for (unsigned k = 0, i = 0;; k++) {
        /* the absent symbols before the next used one (or the end), BOOK_RUN_MAX a byte */
        const unsigned next = k < m ? used[k] : GLIDE_NSYM;
        if (next < i || next > GLIDE_NSYM || (k < m && (next == GLIDE_NSYM || !len[next]))) return (size_t)-1;
        while (i < next) {
            const unsigned run = next - i < BOOK_RUN_MAX ? next - i : BOOK_RUN_MAX;
            if (o >= cap) return (size_t)-1;
            out[o++] = (uint8_t)(0x80 | (run - 1));
            i += run;
        }
        if (k == m) return o;
        if (o >= cap) return (size_t)-1;
        out[o++] = len[i++];
    }
}

uint64_t glide_book_pack_size_used(const uint16_t *used, unsigned m)
{
    /* a byte a used symbol, and a byte per BOOK_RUN_MAX absent symbols of each gap */
    uint64_t o = m;
    for (unsigned k = 0, i = 0; k <= m; k++) {
        const unsigned next = k < m ? used[k] : GLIDE_NSYM;
        o += (next - i + BOOK_RUN_MAX - 1) / BOOK_RUN_MAX;
        i = next + 1;
    }
    return o;
}

size_t glide_book_unpack(const uint8_t *in, size_t n, uint8_t *len)
{
    unsigned i = 0;
    for (size_t o = 0; o < n; o++) {
        uint8_t b = in[o];
        if (b & 0x80) {
            unsigned k = (b & 0x7F) + 1u;
            if (k > GLIDE_NSYM - i) return GLIDE_ERROR(CORRUPT);
            memset(len + i, 0, k);
            i += k;
        } else {
            if (b == 0 || b > GLIDE_HUFF_MAX_LEN || i >= GLIDE_NSYM) return GLIDE_ERROR(CORRUPT);
            len[i++] = b;
        }
    }
    if (i != GLIDE_NSYM) return GLIDE_ERROR(CORRUPT);
    return 0;
}
