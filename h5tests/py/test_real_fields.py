"""Every real field in real_fields_dev.h5 at REL 1e-2..1e-4 and ABS, with chunk
shapes that leave partial edge chunks."""
import math

import h5py
import numpy as np
import pytest

import glide_check as gc
from glide_check import ABS, REL, check_bound

FILE = "real_fields_dev.h5"


def list_fields():
    path = gc.DATA_DIR / FILE
    if not path.is_file():
        return [None]  # one test that skips (or fails under GLIDE_REQUIRE_DATA=1)
    names = []
    with h5py.File(path, "r") as f:
        f.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset) else None)
    return sorted(names)


def edge_chunks(shape):
    """About 2/5 of each axis, +1: never divides the axis evenly (for axes > 2)."""
    return tuple(max(1, min(s, (2 * s) // 5 + 1)) for s in shape)


def abs_cd(x, fill):
    """An ABS bound of ~1e-3 of the field's range, as mantissa * 10^-exponent."""
    v = x[np.isfinite(x)]
    if fill is not None:
        v = v[v != fill]
    r = float(v.max() - v.min()) if v.size else 1.0
    e = -math.floor(math.log10(r * 1e-3)) if r > 0 else 3
    return (ABS, 10 ** -e, 0) if e < 0 else (ABS, 1, e)


@pytest.mark.parametrize("name", list_fields())
def test_real_field(tmp_path, name):
    path = gc.data_file(FILE)
    with h5py.File(path, "r") as f:
        src = f[name]
        x = src[...]
        fill = src.attrs.get("fill_value")
    assert x.dtype.kind == "f"
    # Use the source's own missing-value marker as the HDF5 fill value, as a
    # user would; it is then kept exact and out of the REL range.
    fill = None if fill is None else x.dtype.type(np.asarray(fill).item())
    chunks = edge_chunks(x.shape)
    configs = [(REL, 1, 2), (REL, 1, 3), (REL, 1, 4), abs_cd(x, fill)]
    for cd in configs:
        out = tmp_path / "f.h5"
        y, dfill = gc.roundtrip(out, x, chunks, cd, fillvalue=fill)
        worst = check_bound(x, y, chunks, cd[0], gc.eb_of(cd[1], cd[2]), dfill,
                            what="%s %s" % (name, cd))
        with h5py.File(out, "r") as f:
            stored = f["x"].id.get_storage_size()
        # Not a ratio benchmark; just catch a filter that stores raw data or worse.
        if cd == (REL, 1, 2) and worst > 0:
            assert stored < x.nbytes, (name, stored, x.nbytes)
