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

/* A worker's GPU side: a stream, and as it needs them a device chunk, a
 * device chunk of one value (the pad or fill, for partial and unwritten
 * chunks) and a pinned host chunk (host memory through the GPU backend:
 * its transfers are then one DMA). Taken from a pool that keeps them
 * between calls: allocating and pinning per call cost milliseconds, a
 * call at 64^3 chunks tens (docs/GPU_IO.md). */
typedef struct gh_dev gh_dev;
/* A worker's resources with a chunk buffer of chunk_bytes on the device
 * (dev_chunk) or pinned on the host (else); NULL with msg on failure. */
gh_dev *gh_dev_get(size_t chunk_bytes, int dev_chunk, char *msg, size_t len);
/* Back to the pool (or freed, where it is full). */
void gh_dev_put(gh_dev *d);
void *gh_dev_chunk(gh_dev *d); /* the device chunk */
void *gh_dev_host(gh_dev *d);  /* the pinned host chunk */
/* As gh_gather / gh_scatter, big in device memory, the rest of a partial
 * chunk set to pad_bits on the device; scatter's chunk may be host or
 * device memory. 0, or -1 on a CUDA error. */
int gh_dev_gather(gh_dev *d, const gh_box *b, const void *big, uint64_t pad_bits);
int gh_dev_scatter(gh_dev *d, const gh_box *b, void *big, const void *chunk);
/* The box of big (device memory) set to fill_bits: a chunk never written. */
int gh_dev_fill(gh_dev *d, const gh_box *b, void *big, uint64_t fill_bits);

#endif
