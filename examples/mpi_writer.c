/* A simulation-style parallel writer: each MPI rank owns a slab of a 3-D
 * grid and writes it, time step after time step, into one HDF5 file through
 * the GLIDE filter (parallel HDF5, MPI-IO driver, collective transfers).
 *   mpicc -O2 -o mpi_writer examples/mpi_writer.c examples/nyx_field.c \
 *         $(pkg-config --cflags --libs hdf5-openmpi) -lm
 *   HDF5_PLUGIN_PATH=build/plugin mpirun -np 4 ./mpi_writer [-n N] [-t STEPS] [-o FILE]
 * The chunks are the ranks' slabs cut to at most 64 a side, so no chunk is
 * shared between ranks (README.md, "Parallel HDF5"). Anyone reads the file
 * back serially: h5dump, h5py, this program's own check on rank 0. */
#include "nyx_field.h"
#include <hdf5.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GLIDE_ID 45123

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    size_t n = 64;
    int steps = 3;
    const char *path = "mpi_writer.h5";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "-n")) n = (size_t)atol(argv[i + 1]);
        else if (!strcmp(argv[i], "-t")) steps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "-o")) path = argv[i + 1];
    }
    /* the rank's planes [z0, z0 + nz) */
    const hsize_t z0 = n * rank / size, nz = n * (rank + 1) / size - z0;
    float *all = malloc(sizeof(float) * n * n * n);
    if (!all || nyx_field(all, n, NYX_DENSITY, 7) != 0) MPI_Abort(MPI_COMM_WORLD, 1);

    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    H5Pset_all_coll_metadata_ops(fapl, 1); /* metadata reads by one rank, broadcast */
    H5Pset_coll_metadata_write(fapl, 1);
    hid_t file = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    if (file < 0) MPI_Abort(MPI_COMM_WORLD, 1);
    /* chunks: a slab deep (when the ranks' slabs are equal), at most 64 a side */
    const hsize_t dims[3] = {n, n, n}, side = n < 64 ? n : 64;
    const hsize_t cz = n % size == 0 && n / size <= 64 ? n / size : side, chunk[3] = {cz, side, side};
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 3, chunk);
    const unsigned cd[3] = {1, 1, 3}; /* REL 1e-3 */
    H5Pset_filter(dcpl, GLIDE_ID, H5Z_FLAG_MANDATORY, 3, cd);
    /* parallel HDF5 allocates a filtered dataset's chunks at creation and,
     * by default, writes them full of the fill value: each compressed once
     * for nothing, as every chunk is written below */
    H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER);
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE); /* HDF5 writes filtered datasets collectively only */
    const hsize_t start[3] = {z0, 0, 0}, count[3] = {nz, n, n};
    double t_io = 0;
    int bad = 0;
    for (int t = 0; t < steps && !bad; t++) {
        /* the "simulation": the field drifts a little each step */
        float *mine = all + z0 * n * n;
        for (size_t i = 0; i < nz * n * n; i++) mine[i] *= 1.0f + 0.01f * (float)t;
        char name[32];
        snprintf(name, sizeof name, "density_%03d", t);
        hid_t fs = H5Screate_simple(3, dims, NULL), ms = H5Screate_simple(3, count, NULL);
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
        hid_t ds = H5Dcreate2(file, name, H5T_NATIVE_FLOAT, fs, H5P_DEFAULT, dcpl, H5P_DEFAULT);
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        bad = ds < 0 || H5Dwrite(ds, H5T_NATIVE_FLOAT, ms, fs, dxpl, mine) < 0;
        t_io += MPI_Wtime() - t0;
        if (rank == 0 && !bad)
            printf("step %d: %s written, %.1f MB on disk\n", t, name, (double)H5Dget_storage_size(ds) / 1e6);
        H5Dclose(ds);
        H5Sclose(ms);
        H5Sclose(fs);
        MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    }
    H5Pclose(dxpl);
    H5Pclose(dcpl);
    const double t0 = MPI_Wtime();
    H5Fclose(file);
    t_io += MPI_Wtime() - t0;
    H5Pclose(fapl);
    if (rank == 0 && !bad) {
        const double mb = (double)steps * n * n * n * sizeof(float) / 1e6;
        printf("%d ranks, %d steps of %zu^3 float32 (%.1f MB), chunks %llux%llux%llu: %.3f s in H5Dwrite and "
               "H5Fclose (%.0f MB/s)\n", size, steps, n, mb, (unsigned long long)chunk[0],
               (unsigned long long)chunk[1], (unsigned long long)chunk[2], t_io, mb / t_io);
    }
    free(all);
    MPI_Finalize();
    return bad;
}
