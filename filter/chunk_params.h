/* The codec parameters of one chunk from the dataset's cd_values: the
 * filter's and glide_h5.h's direct chunk I/O's, so both write the same bytes. */
#ifndef GLIDE_FILTER_CHUNK_PARAMS_H
#define GLIDE_FILTER_CHUNK_PARAMS_H

#include "cd_values.h"
#include "glide.h"

/* cfg: parsed (gf_parse) with its internal part. */
void gf_chunk_params(const gf_config *cfg, glide_backend backend, glide_params *p);

#endif
