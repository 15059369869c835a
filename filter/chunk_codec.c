#include "chunk_codec.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "backend.h"
#include "byteswap.h"
#include "chunk_params.h"
#include "glide.h"

static const char *dtype_name(unsigned dtype)
{
    return dtype == GLIDE_FLOAT32 ? "float32" : dtype == GLIDE_FLOAT64 ? "float64" : "unknown";
}

/* Bytes of one full chunk per the internal cd_values, or 0 on overflow. */
static uint64_t chunk_bytes(const gf_config *cfg)
{
    uint64_t n = gf_elem_size(cfg->dtype);
    for (unsigned i = 0; i < cfg->rank; i++) {
        if (cfg->dims[i] && n > UINT64_MAX / cfg->dims[i])
            return 0;
        n *= cfg->dims[i];
    }
    return n;
}

size_t gf_compress_chunk(const h5_api_t *api, const gf_config *cfg, size_t nbytes,
                         size_t *buf_size, void **buf)
{
    if (!cfg->has_internal) {
        /* Without set_local we know neither the element type nor the byte
         * order, and guessing float32 from the size could silently store
         * float64 data under a meaningless bound. */
        H5_ERR(api, E_BADVALUE,
               "glide: filter parameters lack the dataset description added by set_local "
               "(got only mode, mantissa, exponent[, options]); cannot compress");
        return 0;
    }
    const size_t es = gf_elem_size(cfg->dtype);
    const uint64_t expect = chunk_bytes(cfg);
    if ((uint64_t)nbytes > GLIDE_MAX_INPUT_BYTES) {
        H5_ERR(api, E_CANTFILTER, "glide: chunk of %zu bytes exceeds the 4 GiB codec limit",
               nbytes);
        return 0;
    }
    if ((uint64_t)nbytes != expect) {
        H5_ERR(api, E_CANTFILTER,
               "glide: chunk buffer holds %zu bytes but the chunk shape needs %llu", nbytes,
               (unsigned long long)expect);
        return 0;
    }

    glide_params p;
    gf_chunk_params(cfg, gf_backend(), &p);

    /* The caller's buffer must survive a failure untouched (HDF5 may store it
     * raw when the filter is optional), so swap into a scratch copy. */
    const void *src = *buf;
    void *scratch = NULL;
    if (cfg->byte_order != GF_NATIVE_ORDER) {
        scratch = malloc(nbytes ? nbytes : 1);
        if (!scratch) {
            H5_ERR(api, E_NOSPACE, "glide: out of memory (%zu-byte byte-swap buffer)", nbytes);
            return 0;
        }
        gf_swap_copy(scratch, *buf, nbytes / es, es);
        src = scratch;
    }

    size_t r = 0;
    void *out = NULL;
    const size_t cap = glide_compress_bound(&p);
    if (glide_is_error(cap)) {
        r = cap;
    } else if (!(out = api->allocate_memory(cap, false))) {
        free(scratch);
        H5_ERR(api, E_NOSPACE, "glide: out of memory (%zu-byte output buffer)", cap);
        return 0;
    } else {
        r = glide_compress(&p, src, nbytes, out, cap);
        if (glide_is_error(r) && glide_get_error(r) == GLIDE_ERR_BACKEND &&
            p.backend != GLIDE_BACKEND_CPU) {
            gf_warn_backend_fallback();
            p.backend = GLIDE_BACKEND_CPU;
            r = glide_compress(&p, src, nbytes, out, cap);
        }
    }
    free(scratch);
    if (glide_is_error(r)) {
        if (out)
            api->free_memory(out);
        H5_ERR(api, E_CANTFILTER, "glide: cannot compress %s chunk (%s)", dtype_name(cfg->dtype),
               glide_error_name(r));
        return 0;
    }
    api->free_memory(*buf);
    *buf = out;
    *buf_size = cap;
    return r;
}

/* The codec's own wording says what is wrong ("corrupt stream (checksum
 * mismatch)", "truncated stream", ...). */
static void decode_error(const h5_api_t *api, size_t code)
{
    H5_ERR(api, E_CANTFILTER, "glide: cannot decompress chunk: %s", glide_error_name(code));
}

size_t gf_decompress_chunk(const h5_api_t *api, const gf_config *cfg, size_t nbytes,
                           size_t *buf_size, void **buf)
{
    glide_params sp;
    const size_t need = glide_stream_info(*buf, nbytes, &sp);
    if (glide_is_error(need)) {
        decode_error(api, need);
        return 0;
    }
    /* The stream describes itself; the dataset's description (when set_local
     * recorded one) must agree before we allocate what the header claims. */
    if (cfg->has_internal) {
        const unsigned want = cfg->dtype;
        const unsigned got = sp.dtype;
        if (want != got) {
            H5_ERR(api, E_CANTFILTER, "glide: corrupt chunk (stream holds %s values, dataset is %s)",
                   dtype_name(got), dtype_name(want));
            return 0;
        }
        if ((uint64_t)need != chunk_bytes(cfg)) {
            H5_ERR(api, E_CANTFILTER,
                   "glide: corrupt chunk (decodes to %zu bytes, the dataset's chunk is %llu)", need,
                   (unsigned long long)chunk_bytes(cfg));
            return 0;
        }
    }
    const size_t es = sp.dtype == GLIDE_FLOAT32 ? 4 : 8;
    if (need == 0 || need % es) {
        H5_ERR(api, E_CANTFILTER, "glide: corrupt chunk (decoded size %zu)", need);
        return 0;
    }

    void *out = api->allocate_memory(need, false);
    if (!out) {
        H5_ERR(api, E_NOSPACE, "glide: out of memory (%zu-byte chunk)", need);
        return 0;
    }
    glide_backend be = gf_backend();
    size_t r = glide_decompress_with(be, *buf, nbytes, out, need);
    if (glide_is_error(r) && glide_get_error(r) == GLIDE_ERR_BACKEND && be != GLIDE_BACKEND_CPU) {
        gf_warn_backend_fallback();
        r = glide_decompress_with(GLIDE_BACKEND_CPU, *buf, nbytes, out, need);
    }
    if (glide_is_error(r) || r != need) {
        api->free_memory(out);
        if (glide_is_error(r))
            decode_error(api, r);
        else
            H5_ERR(api, E_CANTFILTER, "glide: corrupt chunk (decoded %zu of %zu bytes)", r, need);
        return 0;
    }
    /* A stream is always native order; give HDF5 back the file's order. */
    if (cfg->has_internal && cfg->byte_order != GF_NATIVE_ORDER)
        gf_swap_copy(out, out, need / es, es);

    api->free_memory(*buf);
    *buf = out;
    *buf_size = need;
    return need;
}
