/* Whether two chunked datasets store the same chunks: as many of them,
 * and at each of a's chunk offsets the same filter mask and bytes in b (a
 * chunk only b stores is a difference too). *n gets a's chunk count and
 * *bytes has their stored bytes added (either may be NULL). The tests and
 * benchmarks that hold one write path to another's bytes share it:
 * test_h5io, the MPI test and glide_h5io_bench. */
#ifndef GLIDE_CHUNKS_SAME_H
#define GLIDE_CHUNKS_SAME_H
#include <hdf5.h>
#include <stdlib.h>
#include <string.h>

static inline int glide_chunks_same(hid_t a, hid_t b, hsize_t *n, hsize_t *bytes)
{
    hid_t sa = H5Dget_space(a), sb = H5Dget_space(b);
    hsize_t na = 0, nb = 0;
    H5Dget_num_chunks(a, sa, &na);
    H5Dget_num_chunks(b, sb, &nb);
    int same = na == nb && na > 0;
    for (hsize_t k = 0; same && k < na; k++) {
        hsize_t off[H5S_MAX_RANK], size_a = 0, size_b = 0;
        unsigned ma = 0;
        uint32_t fa = 0, fb = 0;
        haddr_t addr;
        H5Dget_chunk_info(a, sa, k, off, &ma, &addr, &size_a);
        if (bytes) *bytes += size_a;
        H5Dget_chunk_storage_size(b, off, &size_b);
        unsigned char *ca = malloc(size_a ? size_a : 1), *cb = malloc(size_b ? size_b : 1);
        same = ca && cb && size_a == size_b && H5Dread_chunk(a, H5P_DEFAULT, off, &fa, ca) >= 0 &&
               H5Dread_chunk(b, H5P_DEFAULT, off, &fb, cb) >= 0 && fa == fb && memcmp(ca, cb, size_a) == 0;
        free(ca);
        free(cb);
    }
    H5Sclose(sa);
    H5Sclose(sb);
    if (n) *n = na;
    return same;
}
#endif
