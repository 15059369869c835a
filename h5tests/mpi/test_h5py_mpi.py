"""Parallel HDF5 through h5py (Debian's python3-h5py-mpi) and the GLIDE filter.

    mpirun -np N python3 h5tests/mpi/test_h5py_mpi.py FILE

Rank r writes its z-planes of each time step collectively; with N >= 4 the
last rank owns nothing. h5py skips a write or read whose selection is empty
and would leave the other ranks waiting in the collective call, so every
transfer goes through the low-level DatasetID.write / read with a collective
transfer list. Checks: the bound on every value (parallel and serial reads),
the serial read equal to the parallel one, and each chunk's bytes equal to
those of a serial write of the same data. Needs HDF5_PLUGIN_PATH.
"""
import sys

from mpi4py import MPI
import h5py
import numpy as np

GLIDE = 45123
SHAPE, CHUNK = (37, 40, 44), (16, 16, 16)
EB = 0.01  # ABS: cd_values (0, 1, 2)
STEPS = 3


def field(t):
    z, y, x = np.meshgrid(*[np.arange(n, dtype=np.float64) for n in SHAPE], indexing="ij")
    a, b = 0.17 * x + 0.05 * t, 0.11 * y
    return (3 * np.sin(a) * np.cos(b) + 1.5 * np.sin(a + b + 0.07 * z)).astype(np.float32)


def slab(rank, size):
    owners = size - 1 if size >= 4 else size
    if rank >= owners:
        return 0, 0
    z0 = SHAPE[0] * rank // owners
    return z0, SHAPE[0] * (rank + 1) // owners - z0


def transfer(ds, write, buf, z0, nz):
    """Collective write or read of planes [z0, z0 + nz); none where nz == 0."""
    fs = ds.id.get_space()
    ms = h5py.h5s.create_simple((max(nz, 1),) + SHAPE[1:])
    if nz:
        fs.select_hyperslab((z0, 0, 0), (nz,) + SHAPE[1:])
    else:
        fs.select_none()
        ms.select_none()
    dxpl = h5py.h5p.create(h5py.h5p.DATASET_XFER)
    dxpl.set_dxpl_mpio(h5py.h5fd.MPIO_COLLECTIVE)
    (ds.id.write if write else ds.id.read)(ms, fs, buf, dxpl=dxpl)


def main(path):
    comm = MPI.COMM_WORLD
    rank, size = comm.rank, comm.size
    assert h5py.get_config().mpi, "this h5py has no MPI (Debian: python3-h5py-mpi, under mpirun)"
    z0, nz = slab(rank, size)
    fails = []
    with h5py.File(path, "w", driver="mpio", comm=comm) as f:
        for t in range(STEPS):
            ds = f.create_dataset(f"step{t}/u", shape=SHAPE, dtype="f4", chunks=CHUNK,
                                  compression=GLIDE, compression_opts=(0, 1, 2))
            mine = np.ascontiguousarray(field(t)[z0:z0 + nz]) if nz else np.zeros((1,) + SHAPE[1:], "f4")
            transfer(ds, True, mine, z0, nz)
    with h5py.File(path, "r", driver="mpio", comm=comm) as f:
        for t in range(STEPS):
            back = np.zeros((max(nz, 1),) + SHAPE[1:], "f4")
            transfer(f[f"step{t}/u"], False, back, z0, nz)
            if nz:
                err = np.abs(back.astype(np.float64) - field(t)[z0:z0 + nz]).max() / EB
                if not err <= 1:
                    fails.append(f"rank {rank} step {t}: parallel read max err/eb {err}")
    comm.Barrier()
    if rank == 0:
        chunks = stored = 0
        with h5py.File(path, "r") as fp, h5py.File(path + ".serial.h5", "w") as fs:
            for t in range(STEPS):
                dp = fp[f"step{t}/u"]
                back = dp[...]
                err = np.abs(back.astype(np.float64) - field(t)).max() / EB
                if not err <= 1:
                    fails.append(f"step {t}: serial read max err/eb {err}")
                ds = fs.create_dataset(f"step{t}/u", data=field(t), chunks=CHUNK,
                                       compression=GLIDE, compression_opts=(0, 1, 2))
                for i in range(dp.id.get_num_chunks()):
                    info = dp.id.get_chunk_info(i)
                    a = dp.id.read_direct_chunk(info.chunk_offset)
                    b = ds.id.read_direct_chunk(info.chunk_offset)
                    chunks += 1
                    stored += info.size
                    if a != b:
                        fails.append(f"step {t}: chunk at {info.chunk_offset} differs from the serial write's")
        cr = STEPS * np.prod(SHAPE) * 4 / max(stored, 1)
        if not cr > 2:  # h5py's filters are optional: a chunk the filter refused would be stored raw
            fails.append(f"CR {cr:.2f}: chunks stored raw?")
        print(f"{'FAIL' if fails else 'ok  '} h5py mpio, {size} ranks "
              f"({'the last owns nothing' if size >= 4 else 'every rank owns planes'}): "
              f"{STEPS} datasets, {chunks} chunks equal to a serial write, CR {cr:.2f}")
    fails = comm.allgather(fails)
    fails = [m for f in fails for m in f]
    for m in fails if rank == 0 else []:
        print("FAIL", m)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
