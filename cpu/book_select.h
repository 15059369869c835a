/* Choosing the Huffman book for a chunk's histogram. */
#ifndef GLIDE_BOOK_SELECT_H
#define GLIDE_BOOK_SELECT_H
#include <stdint.h>
#include "format.h"
#include "dict.h"

/* How a dictionary book is scored. SIZE: sum h_i * len_i, the exact encoded
 * size (cross entropy against q_i = 2^-len_i). CE: -sum h_i log2 q_i against
 * the family's own distribution. */
typedef enum { GLIDE_SCORE_SIZE = 0, GLIDE_SCORE_CE = 1 } glide_score;

/* Best book of the dictionary; *bits gets its exact encoded size in bits. */
unsigned glide_book_select(const glide_dictionary *d, const uint64_t *hist, glide_score score, uint64_t *bits);

/* The least size of hist under the SIZE score among the books whose size
 * is below cap, or UINT64_MAX where none is (a search that knows it only
 * needs to beat cap stops most books early). */
uint64_t glide_book_select_below(const glide_dictionary *d, const uint64_t *hist, uint64_t cap);

/* glide_book_select for up to four histograms that differ from hist only
 * at ZERO and FILL: variant v (bit v of want) counts zero[v] ZERO and
 * fill[v] FILL symbols. One pass over the books gives each variant what
 * its own call would give (format 8 weighs a plane with and without runs). */
void glide_book_select_variants(const glide_dictionary *d, const uint64_t *hist, glide_score score, unsigned want,
                                const uint64_t zero[4], const uint64_t fill[4], unsigned book[4], uint64_t bits[4]);

/* The same under the SIZE score from every book's bits for hist, sizes[b]
 * (the GPU's book choice sums them all): a variant's bits follow from a
 * book's by its ZERO and FILL terms alone, so each book costs a few
 * operations instead of a pass over the histogram. */
void glide_book_select_variants_sized(const glide_dictionary *d, const uint64_t *sizes, const uint64_t *hist,
                                      unsigned want, const uint64_t zero[4], const uint64_t fill[4], unsigned book[4],
                                      uint64_t bits[4]);

/* Total bits of the chunk at its own empirical entropy. */
double glide_hist_entropy_bits(const uint64_t *hist);

/* A histogram's part that its run-coded variants share: every symbol but
 * ZERO and FILL, their count and sum of h log2 h. The entropy of the
 * histogram with zero ZERO and fill FILL symbols then takes no pass over
 * it (glide_hist_entropy_bits is the variant of the histogram's own). */
typedef struct {
    uint64_t n;
    double hlogh;
} glide_hist_rest;
void glide_hist_rest_of(const uint64_t *hist, glide_hist_rest *r);
/* The same where used[0..m) lists hist's nonzero symbols in increasing order. */
void glide_hist_rest_of_used(const uint64_t *hist, const uint16_t *used, unsigned m, glide_hist_rest *r);
double glide_hist_entropy_variant(const glide_hist_rest *r, uint64_t zero, uint64_t fill);
/* Where ZERO or FILL is over half the variant's symbols, the least bits of
 * any prefix code for it (its lengths at least a bit each): that symbol a
 * bit, the others their entropy plus a bit each (the half of the Kraft sum
 * left to them). Above the entropy, which lets the common symbol cost
 * under a bit. -1 where neither is over half. */
double glide_hist_onebit_variant(const glide_hist_rest *r, uint64_t zero, uint64_t fill);

/* Exact encoded bits of a histogram under given code lengths. */
uint64_t glide_book_bits(const uint8_t *len, const uint64_t *hist);
/* The same over used[0..m), len's nonzero symbols (glide_book_pack_used's list). */
uint64_t glide_book_bits_used(const uint8_t *len, const uint64_t *hist, const uint16_t *used, unsigned m);
#endif
