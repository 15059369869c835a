"""Writes every float32 dataset of an HDF5 file as raw little-endian .f32
files named NAME__SHAPE.f32, the input test_gpu_codec --fields reads (a
dataset of more than 4 dimensions keeps its last four; 4-D ones are whole,
so the GPU's format 2 streams are compared with the CPU's).
    python3 h5tests/gpu/extract_fields.py real_fields_dev.h5 OUTDIR"""
import os
import sys

import h5py
import numpy as np

src, dst = sys.argv[1], sys.argv[2]
os.makedirs(dst, exist_ok=True)
with h5py.File(src, "r") as f:
    def visit(name, obj):
        if isinstance(obj, h5py.Dataset) and obj.dtype == np.float32 and obj.ndim >= 1:
            a = np.ascontiguousarray(obj[...]).astype("<f4")
            shape = "x".join(str(s) for s in a.shape[-4:])
            n = int(np.prod(a.shape[-4:]))
            if a.ndim > 4:  # the leading axes are a stack: keep the first 4-D block
                a = a.reshape(-1, n)[0]
            a.tofile(os.path.join(dst, name.replace("/", "_").strip("_") + "__" + shape + ".f32"))
            print(name, a.size)
    f.visititems(visit)
