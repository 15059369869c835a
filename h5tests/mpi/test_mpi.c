/* Parallel HDF5 through the GLIDE filter: collective filtered writes from
 * several MPI ranks (HDF5 >= 1.10.2, MPI-IO driver), read back in parallel
 * and serially, against a serial write of the same data.
 *   mpirun -np N test_mpi FILE
 * Rank r owns a slab of z-planes that does not line up with the chunks, so
 * chunks are shared between ranks; the last rank owns nothing when N >= 4
 * and still takes part in every collective call with an empty selection.
 * Three time steps, each a group with two datasets (ABS and REL bounds).
 * Checks: every value within its bound (REL: per chunk, against the
 * chunk's range), the parallel read equal to the serial one, and every
 * chunk's stored bytes equal to those of a serial write by rank 0.
 * Needs HDF5_PLUGIN_PATH to reach the GLIDE plugin. */
#include <hdf5.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../c/chunks_same.h"

#define GLIDE_ID 45123
enum { NZ = 37, NY = 40, NX = 44, CZ = 16, CY = 16, CX = 16, STEPS = 3, NDSET = 2 };
static const char *dname[NDSET] = {"velocity", "density"};
/* cd_values: ABS 1e-2, REL 1e-3 */
static const unsigned cd[NDSET][3] = {{0, 1, 2}, {1, 1, 3}};

static int g_rank, g_fail;

#define CHECK(cond, ...)                                                                                             \
    do {                                                                                                             \
        if (!(cond)) {                                                                                               \
            g_fail++;                                                                                                \
            printf("rank %d FAIL ", g_rank);                                                                         \
            printf(__VA_ARGS__);                                                                                     \
            printf("\n");                                                                                            \
        }                                                                                                            \
    } while (0)

/* A smooth field with some structure, different per step and dataset. */
static float value(int t, int d, size_t z, size_t y, size_t x)
{
    const double a = 0.17 * (double)x + 0.05 * t, b = 0.11 * (double)y - 0.3 * d, c = 0.07 * (double)z;
    const double v = sin(a) * cos(b) + 0.5 * sin(a + b + c) + 0.01 * sin(37.0 * a * b);
    return (float)(d ? exp(1.5 * v) : 3.0 * v);
}

static void fill_field(float *f, int t, int d)
{
    for (size_t z = 0; z < NZ; z++)
        for (size_t y = 0; y < NY; y++)
            for (size_t x = 0; x < NX; x++) f[(z * NY + y) * NX + x] = value(t, d, z, y, x);
}

/* The z-planes rank r owns: ranks share them out, except that the last
 * of four or more owns none. */
static void slab(int rank, int size, hsize_t *z0, hsize_t *nz)
{
    const int owners = size >= 4 ? size - 1 : size;
    if (rank >= owners) {
        *z0 = 0, *nz = 0;
        return;
    }
    *z0 = (hsize_t)NZ * rank / owners;
    *nz = (hsize_t)NZ * (rank + 1) / owners - *z0;
}

static hid_t make_dcpl(int d)
{
    const hsize_t chunk[3] = {CZ, CY, CX};
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 3, chunk);
    H5Pset_filter(dcpl, GLIDE_ID, H5Z_FLAG_MANDATORY, 3, cd[d]);
    return dcpl;
}

/* Max |x - x'| / eb over planes [z0, z0 + nz) (back holds just those):
 * ABS against its eb, REL against the range of each value's chunk. */
static double worst_ratio(int d, const float *orig, const float *back, hsize_t z0, hsize_t nz)
{
    double worst = 0;
    for (hsize_t z = z0; z < z0 + nz; z++)
        for (size_t y = 0; y < NY; y++)
            for (size_t x = 0; x < NX; x++) {
                double eb = 1e-2;
                if (cd[d][0] == 1) {
                    const size_t cz = z / CZ * CZ, cy = y / CY * CY, cx = x / CX * CX;
                    float lo = INFINITY, hi = -INFINITY;
                    for (size_t k = cz; k < cz + CZ && k < NZ; k++)
                        for (size_t j = cy; j < cy + CY && j < NY; j++)
                            for (size_t i = cx; i < cx + CX && i < NX; i++) {
                                const float v = orig[(k * NY + j) * NX + i];
                                lo = v < lo ? v : lo;
                                hi = v > hi ? v : hi;
                            }
                    eb = 1e-3 * ((double)hi - (double)lo);
                }
                const size_t at = (z * NY + y) * NX + x;
                const double r = fabs((double)orig[at] - (double)back[(z - z0) * NY * NX + y * NX + x]) / eb;
                worst = r > worst || r != r ? r : worst;
            }
    return worst;
}

/* Collective write (W) or read of the rank's slab of dataset ds. */
static herr_t slab_io(hid_t ds, int write, float *buf, hsize_t z0, hsize_t nz)
{
    const hsize_t start[3] = {z0, 0, 0}, count[3] = {nz, NY, NX}, mdim[3] = {nz ? nz : 1, NY, NX};
    hid_t fs = H5Dget_space(ds), ms = H5Screate_simple(3, mdim, NULL);
    if (nz) {
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
    } else { /* nothing of the dataset: it still takes part in the collective call */
        H5Sselect_none(fs);
        H5Sselect_none(ms);
    }
    hid_t dx = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_dxpl_mpio(dx, H5FD_MPIO_COLLECTIVE); /* filtered datasets are written collectively only */
    herr_t e = write ? H5Dwrite(ds, H5T_NATIVE_FLOAT, ms, fs, dx, buf) : H5Dread(ds, H5T_NATIVE_FLOAT, ms, fs, dx, buf);
    H5Pclose(dx);
    H5Sclose(ms);
    H5Sclose(fs);
    return e;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2) {
        if (g_rank == 0) fprintf(stderr, "usage: mpirun -np N test_mpi FILE\n");
        MPI_Finalize();
        return 2;
    }
    const char *path = argv[1];
    const hsize_t dims[3] = {NZ, NY, NX};
    hsize_t z0, nz;
    slab(g_rank, size, &z0, &nz);
    float *field = malloc(sizeof(float) * NZ * NY * NX), *mine = malloc(sizeof(float) * (nz ? nz : 1) * NY * NX);
    float *back = malloc(sizeof(float) * NZ * NY * NX);

    /* the parallel write: every step and dataset collectively */
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    CHECK(f >= 0, "H5Fcreate %s with the MPI-IO driver", path);
    for (int t = 0; t < STEPS && f >= 0; t++) {
        char g[32];
        snprintf(g, sizeof g, "step%d", t);
        hid_t grp = H5Gcreate2(f, g, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        for (int d = 0; d < NDSET; d++) {
            fill_field(field, t, d);
            memcpy(mine, field + z0 * NY * NX, sizeof(float) * nz * NY * NX);
            hid_t sp = H5Screate_simple(3, dims, NULL), dcpl = make_dcpl(d);
            hid_t ds = H5Dcreate2(grp, dname[d], H5T_NATIVE_FLOAT, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
            CHECK(ds >= 0, "H5Dcreate %s/%s (is the GLIDE plugin on HDF5_PLUGIN_PATH?)", g, dname[d]);
            if (ds >= 0) CHECK(slab_io(ds, 1, mine, z0, nz) >= 0, "collective H5Dwrite %s/%s", g, dname[d]);
            H5Dclose(ds);
            H5Pclose(dcpl);
            H5Sclose(sp);
        }
        H5Gclose(grp);
    }
    if (f >= 0) H5Fclose(f);

    /* the parallel read: each rank its slab, checked against its bound */
    f = H5Fopen(path, H5F_ACC_RDONLY, fapl);
    for (int t = 0; t < STEPS && f >= 0; t++)
        for (int d = 0; d < NDSET; d++) {
            char n[48];
            snprintf(n, sizeof n, "step%d/%s", t, dname[d]);
            fill_field(field, t, d);
            hid_t ds = H5Dopen2(f, n, H5P_DEFAULT);
            const int ok = ds >= 0 && slab_io(ds, 0, back, z0, nz) >= 0;
            CHECK(ok, "collective H5Dread %s", n);
            if (ok && nz) {
                const double w = worst_ratio(d, field, back, z0, nz);
                CHECK(w <= 1.0, "%s: max err/eb %.6f over planes %llu..%llu", n, w, (unsigned long long)z0,
                      (unsigned long long)(z0 + nz - 1));
            }
            H5Dclose(ds);
        }
    if (f >= 0) H5Fclose(f);
    H5Pclose(fapl);
    MPI_Barrier(MPI_COMM_WORLD);

    /* rank 0: the file read serially, and a serial write of the same data */
    if (g_rank == 0) {
        char ser[1024];
        snprintf(ser, sizeof ser, "%s.serial.h5", path);
        hid_t fp = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT), fs = H5Fcreate(ser, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
        CHECK(fp >= 0 && fs >= 0, "serial open of %s, serial create of %s", path, ser);
        int chunks_same = 1, reads_ok = 1;
        hsize_t chunks = 0, stored = 0;
        double worst = 0;
        for (int t = 0; t < STEPS && fp >= 0 && fs >= 0; t++)
            for (int d = 0; d < NDSET; d++) {
                char n[48];
                snprintf(n, sizeof n, "step%d/%s", t, dname[d]);
                fill_field(field, t, d);
                hid_t dp = H5Dopen2(fp, n, H5P_DEFAULT);
                reads_ok = reads_ok && dp >= 0 && H5Dread(dp, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, back) >= 0;
                const double w = worst_ratio(d, field, back, 0, NZ);
                worst = w > worst ? w : worst;
                CHECK(w <= 1.0, "serial read of %s: max err/eb %.6f", n, w);
                char g[32];
                snprintf(g, sizeof g, "step%d", t);
                if (d == 0) H5Gclose(H5Gcreate2(fs, g, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
                hid_t sp = H5Screate_simple(3, dims, NULL), dcpl = make_dcpl(d);
                hid_t ds = H5Dcreate2(fs, n, H5T_NATIVE_FLOAT, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
                H5Dwrite(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, field);
                hsize_t nc = 0;
                chunks_same = chunks_same && glide_chunks_same(dp, ds, &nc, &stored);
                chunks += nc;
                H5Dclose(ds);
                H5Pclose(dcpl);
                H5Sclose(sp);
                H5Dclose(dp);
            }
        CHECK(reads_ok, "serial H5Dread of every dataset");
        CHECK(chunks_same, "every chunk of the parallel write equals the serial write's, byte for byte");
        const double cr = (double)STEPS * NDSET * NZ * NY * NX * sizeof(float) / (double)(stored ? stored : 1);
        CHECK(cr > 2, "the chunks are compressed (CR %.2f): the filter ran", cr);
        printf("%s %d ranks (%s): %d datasets, %llu chunks equal to a serial write, CR %.2f, worst max err/eb "
               "%.4f\n", g_fail ? "FAIL" : "ok  ", size, size >= 4 ? "the last owns nothing" : "every rank owns planes",
               STEPS * NDSET, (unsigned long long)chunks, cr, worst);
        if (fs >= 0) H5Fclose(fs);
        if (fp >= 0) H5Fclose(fp);
        remove(ser);
    }
    int fails = 0;
    MPI_Allreduce(&g_fail, &fails, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    free(field);
    free(mine);
    free(back);
    MPI_Finalize();
    return fails ? 1 : 0;
}
