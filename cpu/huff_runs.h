/* Run-coded planes (format 8, docs/FORMAT.md §10.7): a plane's symbols in
 * segments of GLIDE_RUN_SEG_SYMS points, where every maximal run of a
 * run-coded symbol (ZERO, FILL) within a segment is one codeword of the
 * plane's book, then its run class in a small code, then the class's extra
 * bits. */
#ifndef GLIDE_HUFF_RUNS_H
#define GLIDE_HUFF_RUNS_H
#include <stddef.h>
#include <stdint.h>
#include "format.h"
#include "huff_codec.h"

/* The run-coded symbols, in run-book order. */
static const uint16_t glide_run_sym[GLIDE_RUN_KINDS] = {GLIDE_SYM_ZERO, GLIDE_SYM_FILL};

/* A run of L >= 1 points is class floor(log2 L). */
static inline unsigned glide_run_class(uint64_t L)
{
    unsigned c = 0;
    while (L >> (c + 1)) c++;
    return c;
}

/* What run coding would give a plane: per kind, how many runs (maximal,
 * within segments of GLIDE_RUN_SEG_SYMS), their classes and extra bits. */
typedef struct {
    uint64_t runs[GLIDE_RUN_KINDS];
    uint64_t cls[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES];
    uint64_t extra_bits[GLIDE_RUN_KINDS];
} glide_run_stats;

void glide_run_stats_count(const uint16_t *sym, uint64_t n, glide_run_stats *st);

/* One plane's run code: which kinds are run-coded (their class lengths
 * nonzero) and their canonical class codewords. */
typedef struct {
    uint8_t len[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES];
    uint16_t code[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES];
    uint8_t on[GLIDE_RUN_KINDS];
} glide_run_code;

/* From class lengths (on[k] = any nonzero); 0, or -1 if a kind's lengths
 * are not a prefix code of at most GLIDE_RUN_MAX_LEN bits. */
int glide_run_code_init(glide_run_code *rc, const uint8_t len[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES]);
/* A plane's run book: ZERO's classes, then FILL's where any is nonzero
 * (the plane's FILLRUNS flag); pack returns its bytes. unpack reads FILL's
 * only with fill, else they are 0; it returns 0 or CORRUPT. */
size_t glide_run_book_pack(const uint8_t len[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES], uint8_t *out);
size_t glide_run_book_unpack(const uint8_t *in, int fill, uint8_t len[GLIDE_RUN_KINDS][GLIDE_RUN_CLASSES]);

/* As glide_huff_encode, for a run-coded plane. */
size_t glide_runs_encode(const glide_huff_enc *e, const glide_run_code *rc, const uint16_t *sym, uint64_t n,
                         uint8_t *segtab, uint8_t *out, size_t cap);
/* As glide_huff_decode, for a run-coded plane, with every check of §10.7. */
size_t glide_runs_decode(const glide_huff_dec *d, const glide_run_code *rc, const uint8_t *segtab,
                         uint64_t n_segments, const uint8_t *in, size_t in_bytes, uint16_t *sym, uint64_t n);
#endif
