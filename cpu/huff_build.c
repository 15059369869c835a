#include "huff_build.h"
#include "format.h"
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

unsigned glide_used_lengths(const uint8_t *len, unsigned n, uint16_t *idx)
{
    unsigned m = 0, i = 0;
#if defined(__SSE2__)
    const __m128i z = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16) {
        unsigned used = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(len + i)), z)) & 0xFFFFu;
        for (; used; used &= used - 1) idx[m++] = (uint16_t)(i + (unsigned)__builtin_ctz(used));
    }
#endif
    for (; i < n; i++)
        if (len[i]) idx[m++] = (uint16_t)i;
    return m;
}

/* How many of len[0..n) are not 0 */
static unsigned used_lengths_count(const uint8_t *len, unsigned n)
{
    unsigned m = 0, i = 0;
#if defined(__SSE2__)
    const __m128i z = _mm_setzero_si128();
    for (; i + 16 <= n; i += 16)
        m += 16u - (unsigned)__builtin_popcount((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(len + i)), z)));
#endif
    for (; i < n; i++) m += len[i] != 0;
    return m;
}

/* Where each of four counts' nonzero pattern puts its symbols, and how many
 * there are (a nibble each): a group's used symbols are written without a
 * branch a symbol, which mispredicted about half the time in a plane's
 * dense middle. */
static const uint8_t used_at[16][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0},
                                       {1, 2, 0, 0}, {0, 1, 2, 0}, {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
                                       {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};
#define USED_HOW_MANY 0x4332322132212110ull

unsigned glide_used_counts(const uint64_t *hist, unsigned n, uint16_t *idx)
{
    unsigned m = 0, i = 0;
    for (; i + 4 <= n; i += 4) {
        if (!(hist[i] | hist[i + 1] | hist[i + 2] | hist[i + 3])) continue;
        const unsigned nz = (unsigned)(hist[i] != 0) | (unsigned)(hist[i + 1] != 0) << 1 |
                            (unsigned)(hist[i + 2] != 0) << 2 | (unsigned)(hist[i + 3] != 0) << 3;
        const uint8_t *at = used_at[nz];
        /* m <= i: the four slots lie inside idx's n */
        for (unsigned k = 0; k < 4; k++) idx[m + k] = (uint16_t)(i + at[k]);
        m += (unsigned)(USED_HOW_MANY >> (4 * nz)) & 0xFu;
    }
    for (; i < n; i++)
        if (hist[i]) idx[m++] = (uint16_t)i;
    return m;
}

typedef struct { uint64_t w; unsigned sym; } leaf;

/* A stable insertion sort by weight: for a run book's classes, a sparse
 * plane, the few large weights, it beats the radix passes. */
static void insert_leaves(leaf *lv, unsigned m)
{
    for (unsigned i = 1; i < m; i++) {
        const leaf x = lv[i];
        unsigned j = i;
        for (; j > 0 && lv[j - 1].w > x.w; j--) lv[j] = lv[j - 1];
        lv[j] = x;
    }
}

/* An LSD radix sort by weight through tmp (room for m), on the weight's
 * bytes below its highest set bit and not shared by every leaf; the result
 * in lv. */
static void radix_leaves(leaf *lv, unsigned m, leaf *tmp)
{
    uint64_t wmax = 0;
    for (unsigned i = 0; i < m; i++) wmax = lv[i].w > wmax ? lv[i].w : wmax;
    unsigned nbytes = 0;
    while (nbytes < 8 && wmax >> (8 * nbytes)) nbytes++;
    leaf *src = lv, *dst = tmp;
    for (unsigned b = 0; b < nbytes; b++) {
        unsigned count[256] = {0};
        for (unsigned i = 0; i < m; i++) count[(src[i].w >> (8 * b)) & 0xFFu]++;
        if (count[(src[0].w >> (8 * b)) & 0xFFu] == m) continue; /* every leaf has this byte */
        unsigned pos = 0;
        for (unsigned d = 0; d < 256; d++) {
            unsigned c = count[d];
            count[d] = pos;
            pos += c;
        }
        for (unsigned i = 0; i < m; i++) dst[count[(src[i].w >> (8 * b)) & 0xFFu]++] = src[i];
        leaf *t = src;
        src = dst;
        dst = t;
    }
    if (src != lv) memcpy(lv, src, sizeof(leaf) * m);
}

/* Sorts the leaves by weight, ties by symbol (the Huffman tree, and so
 * the stream, depends on this order): they arrive in increasing symbol
 * order, so a stable sort by weight alone gives it (qsort's comparator
 * calls were most of this file's time). Most of a plane's weights are
 * under 256: one counting pass puts those in order ahead of the rest,
 * which are few and sorted apart. */
static int sort_leaves(leaf *lv, unsigned m)
{
    if (m <= 32) {
        insert_leaves(lv, m);
        return 0;
    }
    leaf *tmp = malloc(sizeof(leaf) * m);
    if (!tmp) return -1;
    unsigned count[256] = {0}, small = 0;
    for (unsigned i = 0; i < m; i++)
        if (lv[i].w < 256) count[lv[i].w]++;
    for (unsigned d = 0; d < 256; d++) {
        const unsigned c = count[d];
        count[d] = small;
        small += c;
    }
    unsigned big = small;
    for (unsigned i = 0; i < m; i++) {
        if (lv[i].w < 256) tmp[count[lv[i].w]++] = lv[i];
        else tmp[big++] = lv[i];
    }
    /* lv's leaves are all in tmp now: its room is the large ones' scratch */
    if (m - small <= 32) insert_leaves(tmp + small, m - small);
    else radix_leaves(tmp + small, m - small, lv);
    memcpy(lv, tmp, sizeof(leaf) * m);
    free(tmp);
    return 0;
}

int glide_huff_lengths(const uint64_t *freq, unsigned n, unsigned max_len, uint8_t *len)
{
    if (n > GLIDE_USED_MAX) { /* the used symbols' u16 indices */
        memset(len, 0, n);
        return -1;
    }
    uint16_t small[GLIDE_NSYM], *used = n <= GLIDE_NSYM ? small : malloc((n ? n : 1) * sizeof *used);
    if (!used) {
        memset(len, 0, n);
        return -1;
    }
    const int rc = glide_huff_lengths_used(freq, n, used, glide_used_counts(freq, n, used), max_len, len);
    if (used != small) free(used);
    return rc;
}

int glide_huff_lengths_used(const uint64_t *freq, unsigned n, const uint16_t *used, unsigned m, unsigned max_len,
                            uint8_t *len)
{
    memset(len, 0, n);
    if (max_len == 0 || max_len > 16 || m > n) return -1;
    /* one block: the leaves, internal nodes' weights, every node's parent
     * (leaves get parents too) and depth */
    const size_t n1 = m ? m : 1;
    void *mem = malloc(n1 * (sizeof(leaf) + sizeof(uint64_t) + 4 * sizeof(unsigned)));
    if (!mem) return -1;
    leaf *lv = mem;
    uint64_t *nw = (uint64_t *)(lv + n1);
    unsigned *parent = (unsigned *)(nw + n1), *depth = parent + 2 * n1;
    int rc = -1;
    /* not such a list (out of order, past n, a symbol absent): refused,
     * its order and end checked before any count is read */
    unsigned bad = m && used[m - 1] >= n;
    for (unsigned i = 1; i < m; i++) bad |= used[i] <= used[i - 1];
    if (bad) goto done;
    for (unsigned i = 0; i < m; i++) {
        lv[i].w = freq[used[i]], lv[i].sym = used[i];
        bad |= lv[i].w == 0;
    }
    if (bad) goto done;
    if (m == 0) { rc = 0; goto done; }
    if (m > (1u << max_len)) goto done;
    if (m == 1) { len[lv[0].sym] = 1; rc = 0; goto done; }
    if (sort_leaves(lv, m) != 0) goto done;

    /* Two-queue Huffman: leaves in sorted order, internal nodes in creation
     * order (their weights are non-decreasing). Node ids: leaves 0..m-1,
     * internal m..2m-2. Ties prefer the leaf, which keeps trees shallow. */
    unsigned li = 0, ni = 0, nn = 0;
    for (unsigned k = 0; k < m - 1; k++) {
        unsigned pick[2];
        uint64_t wsum = 0;
        for (int t = 0; t < 2; t++) {
            if (li < m && (ni >= nn || lv[li].w <= nw[ni])) { pick[t] = li; wsum += lv[li].w; li++; }
            else { pick[t] = m + ni; wsum += nw[ni]; ni++; }
        }
        nw[nn] = wsum;
        parent[pick[0]] = m + nn;
        parent[pick[1]] = m + nn;
        nn++;
    }
    /* depths: root is m + nn - 1; parents always have larger ids */
    unsigned total = m + nn;
    depth[total - 1] = 0;
    for (unsigned id = total - 1; id-- > 0;) depth[id] = depth[parent[id]] + 1;

    /* clamp, then repair the Kraft sum in units of 2^-max_len */
    uint64_t cap = 1ull << max_len, kraft = 0;
    for (unsigned i = 0; i < m; i++) {
        unsigned d = depth[i] > max_len ? max_len : depth[i];
        len[lv[i].sym] = (uint8_t)d;
        kraft += 1ull << (max_len - d);
    }
    /* lengthen the rarest codes first until the code fits */
    while (kraft > cap) {
        for (unsigned i = 0; i < m && kraft > cap; i++) {
            unsigned s = lv[i].sym;
            if (len[s] < max_len) { kraft -= 1ull << (max_len - len[s] - 1); len[s]++; }
        }
    }
    /* give back slack to the most frequent codes (none where the code is
     * complete, as every Huffman code is before the limit's repair) */
    for (unsigned i = m; kraft < cap && i-- > 0;) {
        unsigned s = lv[i].sym;
        while (len[s] > 1 && kraft + (1ull << (max_len - len[s])) <= cap) {
            kraft += 1ull << (max_len - len[s]);
            len[s]--;
        }
    }
    rc = 0;
done:
    free(mem);
    return rc;
}

void glide_huff_canonical(const uint8_t *len, unsigned n, uint16_t *code)
{
    unsigned count[17] = {0}, next[17] = {0};
    uint16_t used[GLIDE_NSYM];
    /* a sparse book (a collapsed histogram's) by its used symbols; a dictionary book uses them all */
    const int sparse = n <= GLIDE_NSYM && used_lengths_count(len, n) < n / 2;
    const unsigned m = sparse ? glide_used_lengths(len, n, used) : n;
    if (sparse) {
        for (unsigned k = 0; k < m; k++) count[len[used[k]]]++;
    } else {
        for (unsigned i = 0; i < n; i++) count[len[i]]++;
        count[0] = 0;
    }
    unsigned c = 0;
    for (unsigned l = 1; l <= 16; l++) { c = (c + count[l - 1]) << 1; next[l] = c; }
    if (sparse) {
        memset(code, 0, n * sizeof *code);
        for (unsigned k = 0; k < m; k++) code[used[k]] = (uint16_t)next[len[used[k]]]++;
    } else {
        for (unsigned i = 0; i < n; i++) code[i] = len[i] ? (uint16_t)next[len[i]]++ : 0;
    }
}

int glide_huff_check(const uint8_t *len, unsigned n, unsigned max_len)
{
    uint64_t kraft = 0;
    for (unsigned i = 0; i < n; i++) {
        if (len[i] > max_len) return -1;
        if (len[i]) kraft += 1ull << (max_len - len[i]);
    }
    return kraft <= (1ull << max_len) ? 0 : -1;
}

void glide_hist_add(const uint16_t *sym, uint64_t n, uint64_t *hist)
{
    uint32_t t[4][GLIDE_NSYM];
    /* blocks short enough that a uint32 count cannot wrap */
    for (uint64_t b0 = 0; b0 < n; b0 += UINT64_C(1) << 30) {
        const uint64_t b1 = n - b0 < (UINT64_C(1) << 30) ? n : b0 + (UINT64_C(1) << 30);
        memset(t, 0, sizeof t);
        uint64_t i = b0;
        for (; i + 4 <= b1; i += 4) {
            t[0][sym[i]]++;
            t[1][sym[i + 1]]++;
            t[2][sym[i + 2]]++;
            t[3][sym[i + 3]]++;
        }
        for (; i < b1; i++) t[0][sym[i]]++;
        for (unsigned s = 0; s < GLIDE_NSYM; s++) hist[s] += (uint64_t)t[0][s] + t[1][s] + t[2][s] + t[3][s];
    }
}
