"""Write and read a float32 field through the GLIDE filter with h5py.

Run with HDF5_PLUGIN_PATH pointing at the folder holding libh5z_glide.so:
    HDF5_PLUGIN_PATH=build/plugin python3 examples/h5py_example.py
"""
import os
import sys
import tempfile

import h5py
import numpy as np

GLIDE = 45123

z, y, x = np.meshgrid(np.arange(64), np.arange(96), np.arange(128), indexing="ij")
field = (280 + 10 * np.sin(x / 9.0) * np.cos(y / 13.0) + 0.05 * z).astype(np.float32)

path = os.path.join(tempfile.mkdtemp(), "glide_example.h5")
with h5py.File(path, "w") as f:
    # REL 1e-4: |x - x'| <= 1e-4 * (max - min) of each chunk
    f.create_dataset("temperature", data=field, chunks=(32, 48, 64),
                     compression=GLIDE, compression_opts=(1, 1, 4))
    # ABS 5e-3 with the Lorenzo predictor and a custom codebook (options 0x21)
    f.create_dataset("temperature_abs", data=field, chunks=(32, 48, 64),
                     compression=GLIDE, compression_opts=(0, 5, 3, 0x21))

with h5py.File(path, "r") as f:  # reading needs nothing but the plugin path
    for name in ("temperature", "temperature_abs"):
        d = f[name]
        back = d[...]
        err = np.abs(back.astype(np.float64) - field).max()
        print(f"{name:16s} CR {field.nbytes / d.id.get_storage_size():6.2f}  max err {err:.3g}")
sys.exit(0)
