#include "format.h"

unsigned glide_is_error(size_t code) { return code > GLIDE_ERROR(MAX); }

glide_error glide_get_error(size_t code)
{
    if (!glide_is_error(code)) return GLIDE_OK;
    return (glide_error)(0 - code);
}

const char *glide_error_name(size_t code)
{
    switch (glide_get_error(code)) {
    case GLIDE_OK: return "no error";
    case GLIDE_ERR_PARAM: return "invalid parameter";
    case GLIDE_ERR_SIZE: return "input size does not match the dimensions or exceeds 4 GiB";
    case GLIDE_ERR_DST_TOO_SMALL: return "destination buffer too small";
    case GLIDE_ERR_NOMEM: return "out of memory";
    case GLIDE_ERR_TRUNCATED: return "truncated stream";
    case GLIDE_ERR_MAGIC: return "not a GLIDE stream (bad magic)";
    case GLIDE_ERR_VERSION: return "stream format or dictionary version not supported by this build";
    case GLIDE_ERR_CORRUPT: return "corrupt stream";
    case GLIDE_ERR_CHECKSUM: return "corrupt stream (checksum mismatch)";
    case GLIDE_ERR_BACKEND: return "requested backend not available";
    case GLIDE_ERR_GPU: return "GPU backend failed";
    case GLIDE_ERR_GENERIC:
    default: return "unspecified error";
    }
}
