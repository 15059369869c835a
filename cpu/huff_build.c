#include "huff_build.h"
#include "format.h"
#include <stdlib.h>
#include <string.h>

typedef struct { uint64_t w; unsigned sym; } leaf;

/* Sorts the leaves by weight, ties by symbol (the Huffman tree, and so
 * the stream, depends on this order): they arrive in increasing symbol
 * order, so a stable sort by weight alone gives it. An LSD radix sort on the weight's bytes, only those below its
 * highest set bit and not shared by every leaf: qsort's comparator calls
 * were most of this file's time. */
static int sort_leaves(leaf *lv, unsigned m)
{
    uint64_t wmax = 0;
    for (unsigned i = 0; i < m; i++) wmax = lv[i].w > wmax ? lv[i].w : wmax;
    unsigned nbytes = 0;
    while (nbytes < 8 && wmax >> (8 * nbytes)) nbytes++;
    leaf *tmp = malloc(sizeof(leaf) * m), *src = lv, *dst = tmp;
    if (!tmp) return -1;
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
    free(tmp);
    return 0;
}

int glide_huff_lengths(const uint64_t *freq, unsigned n, unsigned max_len, uint8_t *len)
{
    memset(len, 0, n);
    if (max_len == 0 || max_len > 16) return -1;
    leaf *lv = malloc(sizeof(leaf) * (n ? n : 1));
    /* internal nodes: weight and parent; leaves get parents too */
    uint64_t *nw = malloc(sizeof(uint64_t) * (n ? n : 1));
    unsigned *parent = malloc(sizeof(unsigned) * 2 * (n ? n : 1));
    int rc = -1;
    if (!lv || !nw || !parent) goto done;
    unsigned m = 0;
    for (unsigned i = 0; i < n; i++)
        if (freq[i]) { lv[m].w = freq[i]; lv[m].sym = i; m++; }
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
    unsigned *depth = malloc(sizeof(unsigned) * total);
    if (!depth) goto done;
    depth[total - 1] = 0;
    for (unsigned id = total - 1; id-- > 0;) depth[id] = depth[parent[id]] + 1;

    /* clamp, then repair the Kraft sum in units of 2^-max_len */
    uint64_t cap = 1ull << max_len, kraft = 0;
    for (unsigned i = 0; i < m; i++) {
        unsigned d = depth[i] > max_len ? max_len : depth[i];
        len[lv[i].sym] = (uint8_t)d;
        kraft += 1ull << (max_len - d);
    }
    free(depth);
    /* lengthen the rarest codes first until the code fits */
    while (kraft > cap) {
        for (unsigned i = 0; i < m && kraft > cap; i++) {
            unsigned s = lv[i].sym;
            if (len[s] < max_len) { kraft -= 1ull << (max_len - len[s] - 1); len[s]++; }
        }
    }
    /* give back slack to the most frequent codes */
    for (unsigned i = m; i-- > 0;) {
        unsigned s = lv[i].sym;
        while (len[s] > 1 && kraft + (1ull << (max_len - len[s])) <= cap) {
            kraft += 1ull << (max_len - len[s]);
            len[s]--;
        }
    }
    rc = 0;
done:
    free(lv); free(nw); free(parent);
    return rc;
}

void glide_huff_canonical(const uint8_t *len, unsigned n, uint16_t *code)
{
    unsigned count[17] = {0}, next[17] = {0};
    for (unsigned i = 0; i < n; i++) count[len[i]]++;
    count[0] = 0;
    unsigned c = 0;
    for (unsigned l = 1; l <= 16; l++) { c = (c + count[l - 1]) << 1; next[l] = c; }
    for (unsigned i = 0; i < n; i++) code[i] = len[i] ? (uint16_t)next[len[i]]++ : 0;
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
