#include "book_select.h"
#include <math.h>

uint64_t glide_book_bits(const uint8_t *len, const uint64_t *hist)
{
    uint64_t b = 0;
    for (unsigned i = 0; i < GLIDE_NSYM; i++) b += hist[i] * len[i];
    return b;
}

unsigned glide_book_select(const glide_dictionary *d, const uint64_t *hist, glide_score score, uint64_t *bits)
{
    /* only symbols that occur matter; typically a few dozen */
    unsigned nz[GLIDE_NSYM], m = 0;
    for (unsigned i = 0; i < GLIDE_NSYM; i++)
        if (hist[i]) nz[m++] = i;
    unsigned best = 0;
    double best_cost = INFINITY;
    for (unsigned b = 0; b < d->n_books; b++) {
        const glide_book *bk = &d->books[b];
        double cost = 0;
        if (score == GLIDE_SCORE_SIZE) {
            uint64_t c = 0;
            for (unsigned k = 0; k < m; k++) c += hist[nz[k]] * bk->len[nz[k]];
            cost = (double)c;
        } else {
            for (unsigned k = 0; k < m; k++) cost -= (double)hist[nz[k]] * bk->log2q[nz[k]];
        }
        if (cost < best_cost) { best_cost = cost; best = b; }
    }
    *bits = glide_book_bits(d->books[best].len, hist);
    return best;
}

double glide_hist_entropy_bits(const uint64_t *hist)
{
    double n = 0, h = 0;
    for (unsigned i = 0; i < GLIDE_NSYM; i++) n += (double)hist[i];
    if (n == 0) return 0;
    for (unsigned i = 0; i < GLIDE_NSYM; i++)
        if (hist[i]) h -= (double)hist[i] * log2((double)hist[i] / n);
    return h;
}
