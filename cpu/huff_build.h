/* Length-limited canonical Huffman codes: the one builder used by the
 * dictionary generator (codebooks/) and by the custom-codebook option. */
#ifndef GLIDE_HUFF_BUILD_H
#define GLIDE_HUFF_BUILD_H
#include <stdint.h>

/* Optimal code lengths for freq[0..n-1] (0 = symbol absent, gets length 0),
 * limited to max_len bits (<= 16) by a Kraft-sum repair. Deterministic:
 * ties break by symbol index. A lone symbol gets length 1. Returns 0, or -1
 * if n symbols cannot fit in max_len bits (or n > GLIDE_USED_MAX). */
int glide_huff_lengths(const uint64_t *freq, unsigned n, unsigned max_len, uint8_t *len);

/* The same where used[0..m) lists freq's nonzero symbols in increasing
 * order (glide_used_counts's list): a plane's histogram and its run-coded
 * variants differ only in nonzero counts, so their builds share one. */
int glide_huff_lengths_used(const uint64_t *freq, unsigned n, const uint16_t *used, unsigned m, unsigned max_len,
                            uint8_t *len);

/* Canonical codewords (numerically increasing by (length, symbol)), MSB-first. */
void glide_huff_canonical(const uint8_t *len, unsigned n, uint16_t *code);

/* The symbols i < n with len[i] != 0 (glide_used_lengths) or hist[i] != 0
 * (glide_used_counts), in increasing order, into idx (room for n: slots
 * past the count may be written); returns how many. A
 * custom book of a collapsed histogram (format 8) uses a few dozen to a
 * few hundred of GLIDE_NSYM symbols, so the passes over a book or a
 * histogram that the plan makes visit those only, found sixteen lengths
 * (four counts) a test. */
#define GLIDE_USED_MAX 65536u /* the most symbols those take (u16 indices) */
unsigned glide_used_lengths(const uint8_t *len, unsigned n, uint16_t *idx);
unsigned glide_used_counts(const uint64_t *hist, unsigned n, uint16_t *idx);

/* Kraft check of lengths in 0..max_len: 0 if the code is a valid prefix code
 * (complete or not), -1 if over-subscribed or a length exceeds max_len. */
int glide_huff_check(const uint8_t *len, unsigned n, unsigned max_len);

/* hist[s] += the count of s in sym[0..n-1], s < GLIDE_NSYM. Four tables
 * taken in turn, because one symbol (ZERO) fills most of a plane and a
 * single table's increments would wait on each other. */
void glide_hist_add(const uint16_t *sym, uint64_t n, uint64_t *hist);

#endif
