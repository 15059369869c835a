/* A chunk's box inside the caller's buffer: copied out into a contiguous
 * chunk (padded where the box is a partial edge chunk) and back, on the
 * host (box.c) or through CUDA copies (box_dev.c, GPU builds). */
#ifndef GLIDE_H5IO_BOX_H
#define GLIDE_H5IO_BOX_H

#include <stddef.h>
#include <stdint.h>

#include "glide.h"

typedef struct {
    unsigned rank;
    size_t esz;
    const uint64_t *big;   /* the caller's buffer's dims */
    const uint64_t *chunk; /* the chunk's dims */
    uint64_t off[GLIDE_MAX_RANK]; /* the box's first point in the caller's buffer */
    uint64_t ext[GLIDE_MAX_RANK]; /* its extent: the chunk's, or less at the dataset's edge */
    int partial;                  /* ext is less than the chunk somewhere */
} gh_box;

/* n values of esz bytes, each the low bytes of bits */
void gh_fill(void *p, uint64_t n, size_t esz, uint64_t bits);
/* The box into the chunk buffer; the rest of it set to pad_bits. */
void gh_gather(const gh_box *b, void *chunk, const void *big, uint64_t pad_bits);
/* The chunk buffer's box part into the caller's buffer. */
void gh_scatter(const gh_box *b, void *big, const void *chunk);

/* Device side: a worker's stream and chunk buffer on GLIDE's GPU. */
typedef struct gh_dev gh_dev;
gh_dev *gh_dev_new(size_t chunk_bytes, char *msg, size_t len);
void gh_dev_free(gh_dev *d);
void *gh_dev_chunk(gh_dev *d);
/* As gh_gather / gh_scatter, big in device memory; pad_chunk (host, a
 * whole chunk of the pad value) is copied first where the box is partial;
 * scatter's chunk may be host or device memory. 0, or -1 on a CUDA error. */
int gh_dev_gather(gh_dev *d, const gh_box *b, const void *big, const void *pad_chunk);
int gh_dev_scatter(gh_dev *d, const gh_box *b, void *big, const void *chunk);

#endif
