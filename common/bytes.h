/* Little-endian field access, independent of the host's byte order. */
#ifndef GLIDE_BYTES_H
#define GLIDE_BYTES_H
#include <stdint.h>
#include <string.h>

static inline void put_u16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void put_u32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static inline void put_u64(uint8_t *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i)); }
static inline uint16_t get_u16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t get_u64(const uint8_t *p) { return (uint64_t)get_u32(p) | ((uint64_t)get_u32(p + 4) << 32); }
static inline void put_f64(uint8_t *p, double d) { uint64_t v; memcpy(&v, &d, 8); put_u64(p, v); }
static inline double get_f64(const uint8_t *p) { uint64_t v = get_u64(p); double d; memcpy(&d, &v, 8); return d; }

/* 8 bytes as a big-endian u64: the Huffman decoders' bit window (MSB-first) */
static inline uint64_t load_be64(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* one load and a byte swap; the compiler does not see one in the loop */
    uint64_t v;
    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
#else
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | p[i];
    return v;
#endif
}

static inline int host_is_le(void) { const uint16_t one = 1; uint8_t b; memcpy(&b, &one, 1); return b == 1; }
#endif
