/* Fuzz target: any bytes given to the decoder give a stream size or an
 * error, never a crash, an out-of-bounds access or a write past dst.
 *
 * The stream's CRC-32 is resealed before the call (the input minus its last
 * four bytes, then the CRC of those), so mutations reach the checks behind
 * it, as a hostile writer could. The output buffer is exactly what the
 * header asks for, so an overrun shows under AddressSanitizer; and a buffer
 * one byte short must be refused. */
#include "glide.h"
#include "format.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OUT ((size_t)64 << 20) /* headers may ask for 4 GiB: decoded sizes past this are only validated */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void put_u32le(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *s = malloc(size ? size : 1);
    if (!s) return 0;
    memcpy(s, data, size);
    if (size >= GLIDE_CRC_BYTES) put_u32le(s + size - GLIDE_CRC_BYTES, glide_crc32(s, size - GLIDE_CRC_BYTES));
    for (int pass = 0; pass < 2; pass++) {
        const uint8_t *in = pass ? data : s; /* resealed, then as given (a CRC mismatch must be caught) */
        glide_params p;
        size_t want = glide_stream_info(in, size, &p);
        if (glide_is_error(want)) {
            /* the decoder must refuse what the header check refuses */
            uint8_t tiny[16];
            if (!glide_is_error(glide_decompress(in, size, tiny, sizeof tiny))) abort();
            continue;
        }
        if (want > MAX_OUT) continue;
        uint8_t *y = malloc(want ? want : 1);
        if (!y) break;
        size_t r = glide_decompress(in, size, y, want);
        if (!glide_is_error(r) && r != want) abort();
        if (want && !glide_is_error(glide_decompress(in, size, y, want - 1))) abort();
        free(y);
    }
    free(s);
    return 0;
}
