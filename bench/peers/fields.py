"""The data the peer benchmark runs on.

- every float dataset of the real-data file (default
  $GLIDE_DATA_DIR/real_fields_dev.h5, the file bench/run_cpu.sh uses), with
  the fill value its `fill_value` attribute names (netCDF _FillValue);
- the fields of the root grid (16^3, big-endian float32) of the Enzo
  cosmology output kept beside it (vtk-data/enzo_moving7_DD0010/
  moving7_0010.cpu0000), where that file is present; its refined grids are
  10^3 and smaller, too small to say anything a 16^3 grid does not;
- generated Nyx-like fields (examples/nyx_field.h, written by nyx_gen.c as raw
  float32), because real Nyx data at scale cannot be had offline.

Error, PSNR and range are always taken over the finite, non-fill values: a
1e20 land mask is not data, and counting it would make every bound and PSNR
meaningless.
"""
import os

import h5py
import numpy as np

NYX_KINDS = ("density", "temperature", "velocity")
# Values per block when scanning a field; keeps a 512^3 field's float64
# temporaries near 130 MB instead of 1 GB each.
BLOCK = 1 << 24


class Field:
    def __init__(self, name, shape, fill, load, source):
        self.name = name
        self.shape = tuple(int(s) for s in shape)
        self.fill = fill  # float or None
        self._load = load
        self.source = source

    @property
    def size(self):
        return int(np.prod(self.shape))

    def load(self):
        x = np.ascontiguousarray(self._load(), dtype=np.float32)
        assert x.shape == self.shape, (self.name, x.shape, self.shape)
        return x


def data_file():
    d = os.environ.get("GLIDE_DATA_DIR") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "data")
    return os.path.normpath(os.path.join(d, "real_fields_dev.h5"))


def _read(path, name):
    with h5py.File(path, "r") as f:
        return f[name][...]


def real_fields(path):
    """Every float dataset in the file, in name order."""
    out = []

    def visit(name, obj):
        if isinstance(obj, h5py.Dataset) and obj.dtype.kind == "f":
            fill = obj.attrs.get("fill_value")
            fill = None if fill is None else float(np.float32(np.asarray(fill).ravel()[0]))
            out.append(Field(name, obj.shape, fill, lambda n=name: _read(path, n), path))

    with h5py.File(path, "r") as f:
        f.visititems(visit)
    return sorted(out, key=lambda fl: fl.name)


ENZO_FILE = os.path.join("vtk-data", "enzo_moving7_DD0010", "moving7_0010.cpu0000")


def enzo_fields(path):
    """The 3-D float fields of the Enzo file's root grid (particles are 1-D
    lists, not fields), named enzo/Grid00000001/Field."""
    f_path = os.path.join(os.path.dirname(path), ENZO_FILE)
    if not os.path.exists(f_path):
        return []
    out = []
    with h5py.File(f_path, "r") as f:
        for g in sorted(f)[:1]:  # Grid00000001, the root grid
            for d in sorted(f[g]):
                o = f[g][d]
                if isinstance(o, h5py.Dataset) and o.dtype.kind == "f" and o.ndim == 3:
                    name = f"{g}/{d}"
                    out.append(Field(f"enzo/{name}", o.shape, None, lambda n=name: _read(f_path, n), f_path))
    return out


def nyx_fields(directory, n, kinds=NYX_KINDS):
    out = []
    for k in kinds:
        p = os.path.join(directory, f"nyx_{k}_{n}.f32")
        out.append(Field(f"generated/nyx_{k}_{n}", (n, n, n), None,
                         lambda p=p, n=n: np.fromfile(p, dtype="<f4").reshape(n, n, n), p))
    return out


def chunks_for(shape, side=None):
    """The chunk shape every compressor gets for a field: at most `side` per
    axis (default 64 for 3-D and higher; 512 for 2-D, the same value count as
    64^3; 64^3 for 1-D), and balanced: each axis is cut into equal parts
    (91 -> 2 x 46, not 64 + 27), because HDF5 stores edge chunks at full size
    and a mostly-padding edge chunk would distort every CR."""
    rank = sum(1 for s in shape if s > 1)
    if side is None:
        side = 64 if rank >= 3 else 512 if rank == 2 else 64 ** 3
    return tuple(-(-int(s) // -(-int(s) // side)) for s in shape)


def n_chunks(shape, chunks):
    return int(np.prod([-(-s // c) for s, c in zip(shape, chunks)]))


def _valid(a, fill):
    m = np.isfinite(a)
    if fill is not None:
        m &= a != np.float32(fill)
    return m


def describe(x, fill):
    """Range and statistics of the finite, non-fill values (one pass in blocks)."""
    xs = x.reshape(-1)
    lo, hi, s, s2, n, nfill, pos = np.inf, -np.inf, 0.0, 0.0, 0, 0, True
    ls, ls2 = 0.0, 0.0
    for i in range(0, xs.size, BLOCK):
        a = xs[i:i + BLOCK]
        m = _valid(a, fill)
        nfill += int(a.size - np.count_nonzero(m))
        v = a[m].astype(np.float64)
        if v.size == 0:
            continue
        lo, hi = min(lo, v.min()), max(hi, v.max())
        s, s2, n = s + v.sum(), s2 + (v * v).sum(), n + v.size
        pos = pos and bool(v.min() > 0)
        if pos:
            lv = np.log(v)
            ls, ls2 = ls + lv.sum(), ls2 + (lv * lv).sum()
    mean = s / n
    st = {"min": float(lo), "max": float(hi), "mean": float(mean),
          "std": float(np.sqrt(max(s2 / n - mean * mean, 0.0))),
          "n_valid": int(n), "fill_frac": nfill / xs.size}
    if pos:  # log-normal parameters: mean and std of ln(x)
        lm = ls / n
        st["ln_mean"], st["ln_std"] = float(lm), float(np.sqrt(max(ls2 / n - lm * lm, 0.0)))
    return st


def errors(x, y, fill, lo, hi):
    """Error of the reconstruction y of x: over finite non-fill values max |x-y|,
    MSE and PSNR (against the range hi-lo of those values); separately what
    happened to fill and non-finite values (they should come back unchanged)."""
    xs, ys = x.reshape(-1), y.reshape(-1)
    maxe, se, n, fill_maxe, special_bad = 0.0, 0.0, 0, 0.0, 0
    for i in range(0, xs.size, BLOCK):
        a, b = xs[i:i + BLOCK], ys[i:i + BLOCK]
        m = _valid(a, fill)
        d = np.abs(b[m].astype(np.float64) - a[m])
        if d.size:
            # a NaN in the output must count as an unbounded error
            maxe = max(maxe, float(np.inf if np.isnan(d).any() else d.max()))
            se += float(np.square(d[np.isfinite(d)]).sum())
            n += d.size
        if fill is not None:
            f = a == np.float32(fill)
            if f.any():
                fill_maxe = max(fill_maxe, float(np.abs(b[f].astype(np.float64) - fill).max()))
        nf = ~np.isfinite(a)
        if nf.any():  # NaN and Inf: compare bit patterns
            special_bad += int(np.count_nonzero(a[nf].view(np.uint32) != b[nf].view(np.uint32)))
    mse = se / n if n else 0.0
    psnr = None if mse == 0 else float(20 * np.log10(hi - lo) - 10 * np.log10(mse))
    return {"max_err": maxe, "mse": mse, "psnr": psnr,
            "fill_max_err": fill_maxe if fill is not None else None,
            "special_changed": special_bad}
