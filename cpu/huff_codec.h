/* Segmented canonical Huffman coding (docs/FORMAT.md, "Huffman stream").
 * Segments of GLIDE_SEG_SYMS symbols start on byte boundaries, MSB-first,
 * so each decodes on its own given the segment table. */
#ifndef GLIDE_HUFF_CODEC_H
#define GLIDE_HUFF_CODEC_H
#include <stddef.h>
#include <stdint.h>
#include "format.h"

typedef struct {
    uint16_t code[GLIDE_NSYM];
    uint8_t len[GLIDE_NSYM];
} glide_huff_enc;

typedef struct {
    uint16_t lut[1u << GLIDE_HUFF_LUT_BITS]; /* sym | len << 11; len 0: longer code or invalid */
    uint32_t first[GLIDE_HUFF_MAX_LEN + 1];  /* first canonical code of each length */
    uint32_t count[GLIDE_HUFF_MAX_LEN + 1];
    uint32_t offset[GLIDE_HUFF_MAX_LEN + 1]; /* index into sorted[] of each length's first symbol */
    uint16_t sorted[GLIDE_NSYM];
} glide_huff_dec;

void glide_huff_enc_init(glide_huff_enc *e, const uint8_t *len);
/* Returns 0, or -1 if the lengths are not a valid prefix code. */
int glide_huff_dec_init(glide_huff_dec *d, const uint8_t *len);

/* Encodes n symbols into out (capacity cap), writing one u16 LE byte count
 * per segment into segtab. Returns the stream's byte size, or (size_t)-1 if
 * it does not fit in cap. Every symbol must have a nonzero length. */
size_t glide_huff_encode(const glide_huff_enc *e, const uint16_t *sym, uint64_t n,
                         uint8_t *segtab, uint8_t *out, size_t cap);

/* Decodes n symbols; every segment length and bit position is checked.
 * Returns 0 or a GLIDE error code. */
size_t glide_huff_decode(const glide_huff_dec *d, const uint8_t *segtab, uint32_t n_segments,
                         const uint8_t *in, size_t in_bytes, uint16_t *sym, uint64_t n);

/* Custom codebook section: code lengths run-length coded (docs/FORMAT.md). */
size_t glide_book_pack(const uint8_t *len, uint8_t *out, size_t cap);
/* The same where used[0..m) lists len's nonzero symbols in increasing
 * order (a custom book's are its histogram's: glide_huff_lengths_used);
 * (size_t)-1 where out is too small or used is not such a list. */
size_t glide_book_pack_used(const uint8_t *len, const uint16_t *used, unsigned m, uint8_t *out, size_t cap);
/* The bytes glide_book_pack_used gives for a book whose nonzero lengths
 * are used[0..m)'s, whatever the lengths: a floor's book section before
 * the book is built. */
uint64_t glide_book_pack_size_used(const uint16_t *used, unsigned m);
size_t glide_book_unpack(const uint8_t *in, size_t n, uint8_t *len);
#endif
