#include "format.h"
#include <zlib.h>

/* CRC-32 (the zlib/PNG polynomial) over header and payload; zlib's is fast
 * and everywhere. Fed in pieces because zlib takes a uInt length. */
uint32_t glide_crc32(const uint8_t *p, size_t n)
{
    uLong c = crc32(0L, Z_NULL, 0);
    while (n) {
        uInt k = n > 0x40000000u ? 0x40000000u : (uInt)n;
        c = crc32(c, p, k);
        p += k;
        n -= k;
    }
    return (uint32_t)c;
}
