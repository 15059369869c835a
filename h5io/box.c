#include "box.h"

#include <string.h>

void gh_fill(void *p, uint64_t n, size_t esz, uint64_t bits)
{
    uint8_t *q = p;
    if (!bits) {
        memset(q, 0, n * esz);
        return;
    }
    for (uint64_t i = 0; i < n; i++)
        memcpy(q + i * esz, &bits, esz); /* little-endian: the low bytes */
}

/* Calls row(k) for each row (all indices but the last) of the box, with
 * the row's first element in the caller's buffer and in the chunk. */
#define FOR_ROWS(b, BODY)                                                                                  \
    do {                                                                                                   \
        const unsigned r_ = (b)->rank;                                                                     \
        uint64_t idx_[GLIDE_MAX_RANK] = {0};                                                               \
        for (;;) {                                                                                         \
            uint64_t bo_ = 0, co_ = 0;                                                                     \
            for (unsigned d_ = 0; d_ < r_; d_++) {                                                         \
                bo_ = bo_ * (b)->big[d_] + (b)->off[d_] + idx_[d_];                                        \
                co_ = co_ * (b)->chunk[d_] + idx_[d_];                                                     \
            }                                                                                              \
            BODY;                                                                                          \
            int d_ = (int)r_ - 2;                                                                          \
            while (d_ >= 0 && ++idx_[d_] == (b)->ext[d_]) idx_[d_--] = 0;                                  \
            if (d_ < 0) break;                                                                             \
        }                                                                                                  \
    } while (0)

void gh_gather(const gh_box *b, void *chunk, const void *big, uint64_t pad_bits)
{
    if (b->partial) {
        uint64_t n = 1;
        for (unsigned d = 0; d < b->rank; d++) n *= b->chunk[d];
        gh_fill(chunk, n, b->esz, pad_bits);
    }
    const size_t row = b->ext[b->rank - 1] * b->esz;
    FOR_ROWS(b, memcpy((uint8_t *)chunk + co_ * b->esz, (const uint8_t *)big + bo_ * b->esz, row));
}

void gh_scatter(const gh_box *b, void *big, const void *chunk)
{
    const size_t row = b->ext[b->rank - 1] * b->esz;
    FOR_ROWS(b, memcpy((uint8_t *)big + bo_ * b->esz, (const uint8_t *)chunk + co_ * b->esz, row));
}

#ifndef GLIDE_HAVE_GPU
#include <stdio.h>
gh_dev *gh_dev_get(size_t chunk_bytes, int dev_chunk, char *msg, size_t len)
{
    (void)chunk_bytes, (void)dev_chunk;
    snprintf(msg, len, "glide: device memory needs the GPU backend, which this build of GLIDE lacks");
    return NULL;
}
void gh_dev_put(gh_dev *d) { (void)d; }
void *gh_dev_chunk(gh_dev *d) { (void)d; return NULL; }
void *gh_dev_host(gh_dev *d) { (void)d; return NULL; }
int gh_dev_gather(gh_dev *d, const gh_box *b, const void *big, uint64_t pad_bits)
{
    (void)d, (void)b, (void)big, (void)pad_bits;
    return -1;
}
int gh_dev_scatter(gh_dev *d, const gh_box *b, void *big, const void *chunk)
{
    (void)d, (void)b, (void)big, (void)chunk;
    return -1;
}
int gh_dev_fill(gh_dev *d, const gh_box *b, void *big, uint64_t fill_bits)
{
    (void)d, (void)b, (void)big, (void)fill_bits;
    return -1;
}
#endif
