/* The work of the filter callback: one chunk through the codec, in either
 * direction, with HDF5's buffer ownership rules. */
#ifndef GLIDE_FILTER_CHUNK_CODEC_H
#define GLIDE_FILTER_CHUNK_CODEC_H

#include <stddef.h>

#include "cd_values.h"
#include "h5_api.h"

/* Both return the number of valid bytes in the new *buf, or 0 after pushing a
 * message onto the HDF5 error stack. On failure *buf and *buf_size are left
 * exactly as they were. */
size_t gf_compress_chunk(const h5_api_t *api, const gf_config *cfg, size_t nbytes,
                         size_t *buf_size, void **buf);
size_t gf_decompress_chunk(const h5_api_t *api, const gf_config *cfg, size_t nbytes,
                           size_t *buf_size, void **buf);

#endif
