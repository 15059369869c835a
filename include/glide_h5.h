/* GLIDE direct chunk I/O: a GLIDE dataset written from, or read into, host
 * or GPU memory without HDF5's filter pipeline (docs/GPU_IO.md).
 *
 * HDF5 hands a filter one chunk at a time, on host buffers, on the calling
 * thread. These calls instead compress the chunks of a selection in
 * parallel (on the GPU: several chunks at once, each from device memory
 * when the values are there, so only compressed bytes cross to the host)
 * and store them with H5Dwrite_chunk; reading is the reverse through
 * H5Dread_chunk. The chunks are byte for byte those the filter writes for
 * the same values, so any reader decodes them through the filter, anywhere.
 *
 * The dataset must be chunked, float32 or float64 in little-endian IEEE
 * order (the buffer holds the same type in the same order: no conversion),
 * with GLIDE (45123) as its only filter. The selection is a box of whole
 * chunks: start on chunk boundaries, count a multiple of the chunk size
 * except where it ends at the dataset's edge. Partial edge chunks are padded
 * as HDF5 pads them. Each call returns 0 or an error code (glide.h's
 * glide_is_error / glide_error_name); glide_h5_last_error() says what went
 * wrong in words.
 *
 * libglide links no libhdf5: the HDF5 functions are looked up at run time
 * in the process (a program linked with libhdf5), or, after glide_h5_bind,
 * in the HDF5 library containing a given address (Python: the libhdf5 h5py
 * loaded, since h5py's dataset ids belong to it). Ids are int64_t (hid_t),
 * sizes uint64_t (hsize_t), so ctypes callers need no HDF5 headers.
 * Calls are not thread-safe against other HDF5 calls of the process: HDF5
 * is called from the calling thread only.
 */
#ifndef GLIDE_H5_H
#define GLIDE_H5_H

#include <stdint.h>
#include <stddef.h>

#include "glide.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    GLIDE_MEM_HOST = 0,  /* buf is host memory */
    GLIDE_MEM_DEVICE = 1 /* buf is CUDA device memory (on GLIDE's GPU); needs the GPU backend */
} glide_memory;

typedef struct {
    glide_memory memory;
    glide_backend backend; /* as glide_params.backend: AUTO takes the GPU where one is usable */
    unsigned threads;      /* chunks in flight at once; 0: the default (the cores; with the GPU at most 16, and
                              fewer where half the device's free memory would not hold their buffers) */
} glide_h5_opts;

/* memory HOST, backend AUTO, threads 0 */
void glide_h5_opts_init(glide_h5_opts *o);

/* Writes the box start[i] .. start[i] + count[i] - 1 of dataset dset from buf
 * (row-major, count[0] x ... x count[rank-1] values). start and count NULL:
 * the whole dataset. dxpl: a transfer property list or 0 (H5P_DEFAULT). */
size_t glide_h5_write(int64_t dset, int64_t dxpl, const uint64_t *start, const uint64_t *count, const void *buf,
                      const glide_h5_opts *o);

/* Reads the same kind of box into buf. Chunks never written read as the fill
 * value (0 without one); chunks HDF5 stored unfiltered are copied. */
size_t glide_h5_read(int64_t dset, int64_t dxpl, const uint64_t *start, const uint64_t *count, void *buf,
                     const glide_h5_opts *o);

/* Binds the calls to the HDF5 library that contains addr (any function of
 * it); NULL binds to the process's global symbols, the default. Returns 0 or
 * an error code. */
size_t glide_h5_bind(const void *addr);

/* The calling thread's last failure, in words ("" if none). */
const char *glide_h5_last_error(void);

#ifdef __cplusplus
}
#endif
#endif
