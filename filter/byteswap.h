/* Byte-order helpers for the filter. The codec only takes native-order
 * values, while a chunk handed to a filter is in the dataset's file order. */
#ifndef GLIDE_FILTER_BYTESWAP_H
#define GLIDE_FILTER_BYTESWAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cd_values.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define GF_NATIVE_ORDER GF_ORDER_BE
#else
#define GF_NATIVE_ORDER GF_ORDER_LE
#endif

/* Copy n elements of elem_size (4 or 8) bytes from src to dst, reversing the
 * bytes of each. src and dst may be the same buffer. memcpy through a local
 * keeps it free of alignment assumptions about HDF5's buffers. */
static inline void gf_swap_copy(void *dst, const void *src, size_t n, size_t elem_size)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    if (elem_size == 4) {
        for (size_t i = 0; i < n; i++) {
            uint32_t v;
            memcpy(&v, s + 4 * i, 4);
            v = __builtin_bswap32(v);
            memcpy(d + 4 * i, &v, 4);
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            uint64_t v;
            memcpy(&v, s + 8 * i, 8);
            v = __builtin_bswap64(v);
            memcpy(d + 8 * i, &v, 8);
        }
    }
}

/* Native-order bit pattern of one value stored in `order`. */
static inline uint64_t gf_load_bits(const void *p, size_t elem_size, unsigned order)
{
    if (elem_size == 4) {
        uint32_t v;
        memcpy(&v, p, 4);
        return order == GF_NATIVE_ORDER ? v : __builtin_bswap32(v);
    }
    uint64_t v;
    memcpy(&v, p, 8);
    return order == GF_NATIVE_ORDER ? v : __builtin_bswap64(v);
}

#endif
