"""Missing-value sentinels that are not the HDF5 fill value (README.md,
"Missing values"): h5repack on a file whose sentinel lives only in an
attribute, and the cd_values settings (off, a value of the user's)."""
import h5py
import numpy as np
import pytest

import glide_check as gc
from glide_check import REL, check_bound, run, smooth


def tos_with(sentinel, dtype=np.float32):
    """CMIP sea-surface temperature with its land (1e20) set to sentinel."""
    with h5py.File(gc.data_file("real_fields_dev.h5"), "r") as f:
        a = f["vtk_data/tos_O1_2001_2002/tos"][...]
    land = a > 1e19
    a = a.astype(dtype)
    a[land] = sentinel
    return a, land


@pytest.mark.parametrize("sentinel", [1e20, -1e34, -1e10, -9999.0, 9.96921e36])
@pytest.mark.parametrize("chunk", ["12x85x90", "16x64x64"], ids=["whole", "edge"])
def test_h5repack_attribute_sentinel(tmp_path, sentinel, chunk):
    """h5repack -f UD=45123,0,3,1,1,3 with the sentinel only in an attribute:
    the ocean within 1e-3 of its own range per chunk, the land exact. The
    16x64x64 chunks leave HDF5's fill padding beside the land in edge chunks."""
    raw, out = tmp_path / "raw.h5", tmp_path / "glide.h5"
    a, land = tos_with(sentinel)
    with h5py.File(raw, "w") as f:
        f["tos"] = a
        f["tos"].attrs["missing_value"] = np.float32(sentinel)
    r = run([gc.tool("h5repack"), "-f", "UD=45123,0,3,1,1,3", "-l", "CHUNK=" + chunk, raw, out])
    assert r.returncode == 0, r.stdout + r.stderr
    with h5py.File(out, "r") as f:
        d = f["tos"]
        gc.assert_filtered(d)
        b = d[...]
        assert np.array_equal(gc.bits(b)[land], gc.bits(a)[land]), "land not exact"
        worst = check_bound(a, b, d.chunks, REL, 1e-3, fill=np.float32(sentinel), what="tos")
        assert worst > 0.5, "the ocean should have been coded lossily"


def field_with_land(land_value, dtype=np.float32):
    x = smooth((24, 40, 50), dtype, seed=7) * 30 + 273
    land = np.zeros(x.shape, bool)
    land[:, 5:15, 10:30] = True
    x[land] = land_value
    return x.astype(dtype), land


def test_user_sentinel_value(tmp_path):
    """A value too close to the data for the rule (200 beside 273..303) is
    kept exact and out of the range when the user names it."""
    x, land = field_with_land(200.0)
    s_bits = int(gc.bits(np.array([200.0], np.float32))[0])
    dec, _ = gc.roundtrip(tmp_path / "u.h5", x, (12, 20, 25), (REL, 1, 3, 0x2000, s_bits, 0))
    assert np.array_equal(gc.bits(dec)[land], gc.bits(x)[land])
    check_bound(x, dec, (12, 20, 25), REL, 1e-3, fill=np.float32(200.0), what="user 200")
    with h5py.File(tmp_path / "u.h5", "r") as f:
        plist = f["x"].id.get_create_plist()
        cd = plist.get_filter(0)[2]
        assert tuple(cd[:7]) == (REL, 1, 3, 0x2000, s_bits, 0, 2), cd  # layout 2


def test_sentinel_detection_off(tmp_path):
    """Off: 1e20 is an ordinary value, as in GLIDE 1.6: the bound holds over
    the whole range, and the file keeps layout 1."""
    x, land = field_with_land(1e20)
    dec, _ = gc.roundtrip(tmp_path / "o.h5", x, (12, 20, 25), (REL, 1, 3, 0x1000))
    check_bound(x, dec, (12, 20, 25), REL, 1e-3, fill=None, what="off")
    dec_auto, _ = gc.roundtrip(tmp_path / "a.h5", x, (12, 20, 25), (REL, 1, 3))
    check_bound(x, dec_auto, (12, 20, 25), REL, 1e-3, fill=np.float32(1e20), what="auto")
    assert np.abs(dec_auto[~land] - x[~land]).max() < np.abs(dec[~land] - x[~land]).max()


def test_sentinel_needs_its_value(tmp_path):
    x, _ = field_with_land(200.0)
    with h5py.File(tmp_path / "bad.h5", "w") as f:
        with pytest.raises(Exception):
            gc.create(f, "x", x, (12, 20, 25), (REL, 1, 3, 0x2000))
