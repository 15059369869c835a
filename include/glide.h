/* GLIDE: GPU Lossy Interpolation + Dictionary Encoding.
 *
 * The one codec API. It compresses / decompresses one buffer of float32 or
 * float64 values (native byte order, row-major, last index fastest) into a
 * self-describing stream (docs/FORMAT.md). It needs no HDF5: the HDF5 filter
 * in filter/ is one user of it, an MPI code sending lossy messages is another.
 *
 * Error convention (as zstd): every call that returns size_t returns either a
 * size or an error code; glide_is_error() tells which, glide_error_name()
 * says what went wrong.
 *
 * Threads: every call may be made from several threads at once. The CPU
 * codec keeps no mutable state between calls, so CPU calls run in parallel.
 * The GPU backend is one process-wide context (one device, its streams and
 * buffers, made on first use): GPU calls from several threads are safe but
 * run one at a time, each holding the context's lock for the whole call.
 */
#ifndef GLIDE_H
#define GLIDE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GLIDE_VERSION_MAJOR 1
#define GLIDE_VERSION_MINOR 8
#define GLIDE_VERSION_PATCH 0

/* HDF5 allows ranks up to 32; the codec accepts the same. */
#define GLIDE_MAX_RANK 32

typedef enum { GLIDE_FLOAT32 = 1, GLIDE_FLOAT64 = 2 } glide_dtype;

typedef enum {
    GLIDE_MODE_ABS = 0, /* |x - x'| <= eb */
    GLIDE_MODE_REL = 1  /* |x - x'| <= eb * (max - min) of the buffer's finite values, fill and sentinel left out */
} glide_mode;

typedef enum {
    GLIDE_PRED_AUTO = 0,    /* interpolation, or Lorenzo where a sample of the buffer says it is smaller */
    GLIDE_PRED_LORENZO = 1,
    GLIDE_PRED_INTERP = 2   /* interpolation always */
} glide_predictor;

/* The codebook's numbers are also cd_values[3] bits 4-7 (filter/cd_values.h)
 * and so stored in HDF5 files: frozen. */
typedef enum {
    GLIDE_BOOK_AUTO = 0,   /* dictionary unless its book costs > GLIDE_AUTO_SLACK over custom */
    GLIDE_BOOK_DICT = 1,   /* a book from the frozen dictionary, chosen by encoded size */
    GLIDE_BOOK_CUSTOM = 2  /* an optimal book built for this buffer, stored in the stream */
} glide_codebook;

typedef enum { GLIDE_BACKEND_AUTO = 0, GLIDE_BACKEND_CPU = 1, GLIDE_BACKEND_GPU = 2 } glide_backend;

/* Missing-value sentinels that are not the fill value (netCDF's 1e20 land
 * in a file written in no-fill mode, -9999, 9.96921e36, ...). A sentinel is
 * kept exact and left out of the REL range; see glide_params.sentinel. */
typedef enum {
    GLIDE_SENTINEL_AUTO = 0,  /* find one per buffer (README.md, "Missing values") */
    GLIDE_SENTINEL_OFF = 1,   /* none: only the fill value is masked */
    GLIDE_SENTINEL_VALUE = 2  /* values bit-equal to sentinel_bits */
} glide_sentinel;

typedef struct {
    glide_dtype dtype;
    unsigned rank;                /* 1..GLIDE_MAX_RANK */
    uint64_t dims[GLIDE_MAX_RANK]; /* slowest first */
    glide_mode mode;
    double eb;                    /* absolute bound, or relative to the value range */
    glide_predictor predictor;
    glide_codebook codebook;
    glide_backend backend;
    int has_fill;                 /* values bit-equal to fill_bits are kept exact and out of the range */
    uint64_t fill_bits;           /* the fill value's bits, in the low 4 bytes for float32 */
    unsigned block_log2;          /* 0 = default for the rank; else anchor stride 2^block_log2 */
    glide_sentinel sentinel;      /* default GLIDE_SENTINEL_AUTO */
    uint64_t sentinel_bits;       /* GLIDE_SENTINEL_VALUE: its bits, in the low 4 bytes for float32 */
} glide_params;

/* Defaults: REL 1e-3, interpolation, auto codebook, auto backend, no fill,
 * sentinels found automatically. */
void glide_params_init(glide_params *p, glide_dtype dtype, unsigned rank, const uint64_t *dims);

/* Upper bound of the compressed size for these parameters (raw size + header). */
size_t glide_compress_bound(const glide_params *p);

/* Compress src (src_size bytes = product(dims) * element size) into dst.
 * Returns the stream size or an error code. */
size_t glide_compress(const glide_params *p, const void *src, size_t src_size,
                      void *dst, size_t dst_capacity);

/* Parse and validate a stream's header. Fills *p with what the stream records
 * (dtype, rank, dims, mode, eb, predictor, codebook kind: in a format 5
 * stream GLIDE_BOOK_AUTO when one symbol plane has a custom book and the
 * other a dictionary book) and returns the
 * decompressed size in bytes, or an error code. Nothing beyond the header and
 * the section lengths is trusted yet: glide_decompress checks the rest. */
size_t glide_stream_info(const void *src, size_t src_size, glide_params *p);

/* Decompress a stream into dst. Returns the decompressed size or an error code. */
size_t glide_decompress(const void *src, size_t src_size, void *dst, size_t dst_capacity);

/* Backend used for decompression can be chosen too (same bits either way). */
size_t glide_decompress_with(glide_backend backend, const void *src, size_t src_size,
                             void *dst, size_t dst_capacity);

/* The same from and into device memory: d_src and d_dst are CUDA device
 * pointers (on the GPU the backend uses: GLIDE_DEVICE, else the node-local
 * MPI rank), the stream stays in host memory. The same bytes and values as
 * the host calls. Where the device cannot do the work (the CPU backend
 * asked for, a failed GPU) the values cross to the host and back. Without
 * a GPU build, GLIDE_ERR_BACKEND. */
size_t glide_compress_device(const glide_params *p, const void *d_src, size_t src_size, void *dst,
                             size_t dst_capacity);
size_t glide_decompress_device(const void *src, size_t src_size, void *d_dst, size_t dst_capacity);

/* The backend a request resolves to in this build and on this machine
 * (GLIDE_BACKEND_AUTO resolves to the GPU when one is built and present). */
glide_backend glide_backend_resolve(glide_backend requested);
const char *glide_backend_name(glide_backend b);

typedef enum {
    GLIDE_OK = 0,
    GLIDE_ERR_GENERIC,
    GLIDE_ERR_PARAM,        /* bad parameter: unknown mode, eb < 0 or NaN, rank 0, ... */
    GLIDE_ERR_SIZE,         /* src_size does not match dims, or over 4 GiB */
    GLIDE_ERR_DST_TOO_SMALL,
    GLIDE_ERR_NOMEM,
    GLIDE_ERR_TRUNCATED,    /* stream shorter than its header says */
    GLIDE_ERR_MAGIC,        /* not a GLIDE stream */
    GLIDE_ERR_VERSION,      /* format or dictionary version this build cannot decode */
    GLIDE_ERR_CORRUPT,      /* a field or the payload is inconsistent */
    GLIDE_ERR_CHECKSUM,
    GLIDE_ERR_BACKEND,      /* requested backend is not available */
    GLIDE_ERR_GPU,          /* the GPU failed (out of memory, launch error); glide_compress and
                               glide_decompress never return it: they redo the call on the CPU */
    GLIDE_ERR_MAX
} glide_error;

unsigned glide_is_error(size_t code);
glide_error glide_get_error(size_t code);
const char *glide_error_name(size_t code);

/* Largest chunk the codec takes: HDF5's chunk limit. */
#define GLIDE_MAX_INPUT_BYTES ((uint64_t)0xFFFFFFFFu)

#ifdef __cplusplus
}
#endif
#endif
