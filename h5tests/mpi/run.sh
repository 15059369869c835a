#!/usr/bin/env bash
# Parallel HDF5 (MPI-IO) through the GLIDE plugin, with Debian's openmpi,
# libhdf5-openmpi and python3-h5py-mpi (.ci/install-deps): the C test, the
# h5py test and direct chunk reads (glide_h5.h) under MPI-IO, with 2 and 4
# ranks (oversubscribed where the machine has fewer cores), the example
# writer, and its file read back by the serial h5dump.
# The plugin is build/plugin unless GLIDE_PLUGIN_DIR says otherwise.
set -euo pipefail
cd "$(dirname "$0")/../.."
plugin=${GLIDE_PLUGIN_DIR:-$PWD/build/plugin}
export HDF5_PLUGIN_PATH=$plugin
# mpirun refuses root unless told; CI machines run as root
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=$(pkg-config --cflags --libs hdf5-openmpi)
# shellcheck disable=SC2086  # pkg-config's flags are meant to split
mpicc -O2 -Wall -Wextra -Werror -o "$tmp/test_mpi" h5tests/mpi/test_mpi.c $flags -lm
# shellcheck disable=SC2086
mpicc -O2 -Wall -Wextra -Werror -Iexamples -o "$tmp/mpi_writer" examples/mpi_writer.c examples/nyx_field.c $flags -lm
# direct chunk I/O (glide_h5.h) beside MPI-IO: libglide from the same build as the plugin
lib=$(dirname "$plugin")
# shellcheck disable=SC2086
mpicc -O2 -Wall -Wextra -Werror -Iinclude -o "$tmp/test_mpi_h5io" h5tests/mpi/test_mpi_h5io.c $flags \
    -L"$lib" -lglide -Wl,-rpath,"$lib" -lm
echo "== parallel HDF5: $(mpirun --version | head -1), $(pkg-config --modversion hdf5-openmpi) (openmpi)"
for np in 2 4; do
    timeout 300 mpirun -np $np "$tmp/test_mpi" "$tmp/c$np.h5"
    timeout 300 mpirun -np $np /usr/bin/python3 h5tests/mpi/test_h5py_mpi.py "$tmp/py$np.h5"
    timeout 300 mpirun -np $np "$tmp/test_mpi_h5io" "$tmp/d$np.h5"
done
timeout 300 mpirun -np 2 "$tmp/mpi_writer" -n 48 -t 2 -o "$tmp/writer.h5"
# the parallel file read by the serial tools and library
h5dump -d density_001 -s "20,20,20" -c "1,1,2" "$tmp/writer.h5" | grep -q "(20,20,20):"
echo "ok   example writer (2 ranks): its file read back by the serial h5dump"
