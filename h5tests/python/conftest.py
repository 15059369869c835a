"""Shared data and checks for the h5glide package tests (run.sh runs them in
a fresh venv where the checkout is pip-installed)."""
import os
import subprocess
import sys

import numpy as np


def field(shape, dtype, seed=0):
    """A smooth field with noise, as simulation output looks: compressible,
    so a chunk the filter skipped shows up as a low ratio."""
    rng = np.random.default_rng(seed)
    grids = np.meshgrid(*[np.linspace(0, 3, n) for n in shape], indexing="ij")
    smooth = sum(np.sin(g * (i + 1)) for i, g in enumerate(grids))
    return (10 + 5 * smooth + 0.01 * rng.standard_normal(shape)).astype(dtype)


def check_abs(a, b, eb):
    """max |a - b| <= eb over every finite value; the rest bit for bit (in
    native byte order: a big-endian array may read back as native)."""
    a, b = (x.astype(x.dtype.newbyteorder("=")) for x in (a, b))
    assert a.shape == b.shape and a.dtype == b.dtype
    fin = np.isfinite(a)
    err = np.abs(a[fin].astype(np.float64) - b[fin].astype(np.float64))
    assert err.max(initial=0) <= eb, f"max error {err.max()} > bound {eb}"
    assert np.array_equal(a[~fin].view(f"u{a.itemsize}"), b[~fin].view(f"u{a.itemsize}"))


def check_rel(a, b, rel, chunks, exclude=(0.0,)):
    """REL: in every chunk, max |a - b| <= rel * (max - min) of the chunk's
    finite values but the fill value and a sentinel (`exclude`), which
    themselves come back exact."""
    for idx in np.ndindex(*[-(-n // c) for n, c in zip(a.shape, chunks)]):
        sl = tuple(slice(i * c, (i + 1) * c) for i, c in zip(idx, chunks))
        x, y = a[sl].astype(np.float64), b[sl].astype(np.float64)
        keep = np.isfinite(x) & ~np.isin(x, np.asarray(exclude, a.dtype).astype(np.float64))
        bound = rel * (x[keep].max() - x[keep].min())
        assert np.abs(x[keep] - y[keep]).max() <= bound, idx
        assert np.array_equal(x[~keep & np.isfinite(x)], y[~keep & np.isfinite(x)])


def run_python(code, tmp_path, env_extra=None):
    """Runs `code` in a fresh interpreter (no h5glide imported beforehand),
    by default with HDF5_PLUGIN_PATH pointing at an empty folder so nothing
    but h5glide's own registration can provide the filter."""
    env = {**os.environ, "HDF5_PLUGIN_PATH": str(tmp_path / "no-plugins"), **(env_extra or {})}
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout
