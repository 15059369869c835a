/* glide_h5.h's direct chunk I/O beside parallel HDF5 (MPI-IO driver).
 * Direct chunk writes allocate each chunk on the calling rank, and parallel
 * HDF5 needs every metadata change made collectively: independent
 * glide_h5_write calls from several ranks hung HDF5 1.10.8 at the file's
 * close (docs/GPU_IO.md). What works, tested here: rank 0 writes the file
 * with glide_h5_write through the serial driver (several datasets), then
 * every rank opens it with MPI-IO and reads with glide_h5_read, its own
 * slab of whole chunks and the whole, against H5Dread through the filter;
 * rank 0 compares every chunk with a serial filter write of the same values.
 *   mpirun -np N test_mpi_h5io FILE      (needs HDF5_PLUGIN_PATH) */
#include <hdf5.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glide_h5.h"

#define NZ 64
#define NY 40
#define NX 36
#define CH 16
static const unsigned CD[3] = {0, 1, 3}; /* ABS 1e-3 */
static int g_rank, g_fail;

#define CHECK(c, ...)                                                                                       \
    do {                                                                                                    \
        if (!(c)) {                                                                                         \
            g_fail = 1;                                                                                     \
            printf("FAIL rank %d: ", g_rank);                                                               \
            printf(__VA_ARGS__);                                                                            \
            printf("\n");                                                                                   \
        }                                                                                                   \
    } while (0)

static void field(float *f, int d)
{
    for (size_t i = 0; i < (size_t)NZ * NY * NX; i++)
        f[i] = (float)(sin(0.01 * (double)i + d) * 3.0 + cos(0.37 * (double)(i % NX)) * 0.5);
}

static hid_t create(hid_t file, const char *name)
{
    hsize_t dims[3] = {NZ, NY, NX}, ch[3] = {CH, CH, CH};
    hid_t sp = H5Screate_simple(3, dims, NULL), dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 3, ch);
    H5Pset_filter(dcpl, 45123, H5Z_FLAG_MANDATORY, 3, CD);
    hid_t d = H5Dcreate2(file, name, H5T_IEEE_F32LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Pclose(dcpl);
    H5Sclose(sp);
    return d;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 2) {
        if (!g_rank) fprintf(stderr, "usage: test_mpi_h5io FILE\n");
        MPI_Finalize();
        return 2;
    }
    const char *path = argv[1];
    const size_t n = (size_t)NZ * NY * NX;
    float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y), *z = malloc(n * sizeof *z);
    const char *names[2] = {"a", "b"};

    /* rank 0 writes the file directly, through the serial driver */
    if (g_rank == 0) {
        hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
        for (int d = 0; d < 2; d++) {
            hid_t ds = create(f, names[d]);
            field(x, d);
            const size_t r = glide_h5_write(ds, 0, NULL, NULL, x, NULL);
            CHECK(r == 0, "%s: glide_h5_write: %s", names[d], glide_h5_last_error());
            H5Dclose(ds);
        }
        H5Fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);

    /* every rank reads all of it and its own slab: directly, and through the filter, with MPI-IO */
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    double worst = 0;
    for (int d = 0; d < 2; d++) {
        hid_t ds = H5Dopen2(f, names[d], H5P_DEFAULT);
        field(x, d);
        CHECK(H5Dread(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, y) >= 0, "%s: H5Dread", names[d]);
        const size_t r = glide_h5_read(ds, 0, NULL, NULL, z, NULL);
        CHECK(r == 0 && !memcmp(y, z, n * sizeof *y), "%s: glide_h5_read equals the filter's read: %s", names[d],
              glide_h5_last_error());
        for (size_t i = 0; i < n; i++) worst = fmax(worst, fabs((double)x[i] - (double)y[i]) / 1e-3);
        /* rank r's chunk rows r, r + size, ... (none where size exceeds the rows) */
        for (int row = g_rank; row < NZ / CH; row += size) {
            uint64_t start[3] = {(uint64_t)row * CH, 0, 0}, count[3] = {CH, NY, NX};
            const size_t off = (size_t)row * CH * NY * NX, m = (size_t)CH * NY * NX;
            memset(z, 0, m * sizeof *z);
            const size_t rr = glide_h5_read(ds, 0, start, count, z, NULL);
            CHECK(rr == 0 && !memcmp(y + off, z, m * sizeof *z), "%s: glide_h5_read of chunk row %d: %s", names[d],
                  row, glide_h5_last_error());
        }
        CHECK(H5Dget_storage_size(ds) * 3 < n * sizeof(float), "%s: stored compressed", names[d]);
        H5Dclose(ds);
    }
    CHECK(worst <= 1.0, "max err/eb %.4f", worst);
    H5Fclose(f);
    H5Pclose(fapl);

    MPI_Barrier(MPI_COMM_WORLD);
    /* rank 0: the same chunks as a serial write through the filter */
    if (g_rank == 0) {
        char ref[4096];
        snprintf(ref, sizeof ref, "%s.serial.h5", path);
        hid_t fs = H5Fcreate(ref, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
        hid_t fp = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        long chunks = 0;
        for (int d = 0; d < 2; d++) {
            hid_t s = create(fs, names[d]), p = H5Dopen2(fp, names[d], H5P_DEFAULT);
            field(x, d);
            H5Dwrite(s, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, x);
            for (hsize_t cz = 0; cz < NZ; cz += CH)
                for (hsize_t cy = 0; cy < NY; cy += CH)
                    for (hsize_t cx = 0; cx < NX; cx += CH) {
                        hsize_t off[3] = {cz, cy, cx}, sa = 0, sb = 0;
                        uint32_t ma = 9, mb = 9;
                        H5Dget_chunk_storage_size(s, off, &sa);
                        H5Dget_chunk_storage_size(p, off, &sb);
                        char *u = malloc(sa + 1), *v = malloc(sb + 1);
                        CHECK(sa == sb && H5Dread_chunk(s, H5P_DEFAULT, off, &ma, u) >= 0 &&
                                  H5Dread_chunk(p, H5P_DEFAULT, off, &mb, v) >= 0 && ma == mb && !memcmp(u, v, sa),
                              "%s: chunk (%llu,%llu,%llu) differs from the serial filter write", names[d],
                              (unsigned long long)cz, (unsigned long long)cy, (unsigned long long)cx);
                        free(u), free(v);
                        chunks++;
                    }
            H5Dclose(s), H5Dclose(p);
        }
        H5Fclose(fs), H5Fclose(fp);
        remove(ref);
        printf("ok   glide_h5_read under MPI-IO (%d ranks): %ld chunks equal to a serial filter write, max err/eb %.4f\n",
               size, chunks, worst);
    }
    free(x), free(y), free(z);
    int bad = g_fail, any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return any;
}
