#include "chunk_params.h"

void gf_chunk_params(const gf_config *cfg, glide_backend backend, glide_params *p)
{
    uint64_t dims[GF_MAX_RANK];
    for (unsigned i = 0; i < cfg->rank; i++)
        dims[i] = cfg->dims[i];
    /* gf_parse validated every field, and cd_values use glide.h's numbers */
    glide_params_init(p, (glide_dtype)cfg->dtype, cfg->rank, dims);
    p->mode = (glide_mode)cfg->mode;
    p->eb = gf_error_bound(cfg);
    p->predictor = (glide_predictor)cfg->predictor;
    p->codebook = (glide_codebook)cfg->codebook;
    p->backend = backend;
    p->has_fill = cfg->has_fill ? 1 : 0;
    p->fill_bits = cfg->has_fill ? cfg->fill_bits : 0;
    p->block_log2 = cfg->stride_log2;
    p->sentinel = (glide_sentinel)cfg->sentinel;
    p->sentinel_bits = cfg->sentinel_bits;
}
