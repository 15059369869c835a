"""The plugin loaded by Debian's HDF5 1.10 command-line tools, with files
written and read by whichever h5py runs the tests; and the Enzo file."""
import h5py
import numpy as np
import pytest

import glide_check as gc
from glide_check import ABS, REL, check_bound, run, smooth

ENZO = ("vtk-data", "enzo_moving7_DD0010", "moving7_0010.cpu0000")


def write_raw(path):
    data = {
        "f4": smooth((30, 40, 50), np.float32, seed=31),
        "f8": smooth((60, 70), np.float64, seed=32) * 100,
        "be": smooth((500,), ">f4", seed=33).astype(">f4"),
    }
    with h5py.File(path, "w") as f:
        for k, v in data.items():
            f[k] = v
        f["ints"] = np.arange(5000, dtype=np.int32)
    return data


def repack(src, dst, *args):
    r = run([gc.tool("h5repack"), *args, src, dst])
    assert r.returncode == 0, r.stdout + r.stderr
    return r


@pytest.mark.parametrize("mode", [ABS, REL], ids=["abs", "rel"])
def test_h5repack_roundtrip(tmp_path, mode):
    raw, out = tmp_path / "raw.h5", tmp_path / "glide.h5"
    data = write_raw(raw)
    repack(raw, out, "-f", "UD=45123,0,3,%d,1,3" % mode)
    with h5py.File(out, "r") as f:
        for name, x in data.items():
            d = f[name]
            gc.assert_filtered(d)
            assert d.dtype == x.dtype
            check_bound(x, d[...], d.chunks, mode, 1e-3, d.fillvalue, what=name)
        # h5repack falls back to the original settings where can_apply refuses.
        assert gc.filter_ids(f["ints"]) == []
        assert np.array_equal(f["ints"][...], np.arange(5000, dtype=np.int32))


def test_h5dump_shows_filter(tmp_path):
    raw, out = tmp_path / "raw.h5", tmp_path / "glide.h5"
    write_raw(raw)
    repack(raw, out, "-f", "UD=45123,0,4,1,1,3,33")
    r = run([gc.tool("h5dump"), "-p", "-H", out])
    assert r.returncode == 0, r.stderr
    assert "FILTER_ID 45123" in r.stdout and "COMMENT glide" in r.stdout, r.stdout
    # the user's values plus what set_local added for /f4: f32 LE, 3-D chunk
    assert "PARAMS { 1 1 3 33 1 1 0 1 0 0 3 " in r.stdout, r.stdout
    # h5dump must also decode it.
    r = run([gc.tool("h5dump"), "-d", "/f8", out])
    assert r.returncode == 0 and "DATA {" in r.stdout, r.stderr


def test_h5diff_with_tolerance(tmp_path):
    raw, out = tmp_path / "raw.h5", tmp_path / "glide.h5"
    write_raw(raw)
    repack(raw, out, "-f", "UD=45123,0,3,0,1,3")  # ABS 1e-3 everywhere
    h5diff = gc.tool("h5diff")
    for name in ("f4", "f8", "be"):
        r = run([h5diff, "-d", "0.001", raw, out, "/" + name, "/" + name])
        assert r.returncode == 0, (name, r.stdout, r.stderr)
        # and it is lossy: a far smaller tolerance finds differences
        r = run([h5diff, "-d", "1e-9", raw, out, "/" + name, "/" + name])
        assert r.returncode == 1, (name, r.stdout, r.stderr)


def test_h5repack_again_with_new_chunks(tmp_path):
    """A filtered dcpl copied by h5repack carries our internal values;
    set_local must accept them and describe the new chunk shape."""
    raw, once, twice = tmp_path / "raw.h5", tmp_path / "once.h5", tmp_path / "twice.h5"
    data = write_raw(raw)
    repack(raw, once, "-f", "UD=45123,0,3,1,1,3")
    repack(once, twice, "-l", "/f4:CHUNK=7x40x13")
    with h5py.File(twice, "r") as f:
        d = f["f4"]
        assert d.chunks == (7, 40, 13)
        cd = d.id.get_create_plist().get_filter_by_id(gc.FILTER_ID)[1]
        assert tuple(cd[-4:]) == (3, 7, 40, 13)
        gc.assert_filtered(d)
        # the error adds up over two lossy passes, each within its own chunks' bound
        with h5py.File(once, "r") as g:
            once_vals = g["f4"][...]
        check_bound(once_vals, d[...], (7, 40, 13), REL, 1e-3, 0.0)


def test_error_stack_message(tmp_path):
    """The message reaches the HDF5 error stack of the tools' library."""
    path = tmp_path / "c.h5"
    x = smooth((64,), np.float32)
    with h5py.File(path, "w") as f:
        gc.create(f, "x", x, (64,), (REL, 1, 3))
    with h5py.File(path, "r+") as f:
        raw = f["x"].id.read_direct_chunk((0,))[1]
        f["x"].id.write_direct_chunk((0,), raw[: len(raw) // 2], filter_mask=0)
    r = run([gc.tool("h5dump"), "--enable-error-stack", "-d", "/x", path])
    assert r.returncode != 0
    assert "glide: cannot decompress chunk" in r.stdout + r.stderr, r.stdout + r.stderr


def enzo_float_datasets(f):
    out = []
    f.visititems(lambda n, o: out.append(n) if isinstance(o, h5py.Dataset)
                 and o.dtype.kind == "f" else None)
    return out


def test_enzo_h5repack(tmp_path):
    src = gc.data_file(*ENZO)
    out = tmp_path / "enzo.h5"
    repack(src, out, "-f", "UD=45123,0,3,1,1,3")
    checked = 0
    with h5py.File(src, "r") as a, h5py.File(out, "r") as b:
        names = enzo_float_datasets(a)
        assert len(names) >= 100
        for name in names:
            x, d = a[name], b[name]
            assert d.dtype == x.dtype  # big-endian stays big-endian
            if gc.FILTER_ID not in gc.filter_ids(d):
                # h5repack skips datasets below its size threshold
                assert np.array_equal(gc.bits(d[...]), gc.bits(x[...])), name
                continue
            gc.assert_filtered(d)
            check_bound(x[...], d[...], d.chunks, REL, 1e-3, d.fillvalue, what=name)
            checked += 1
    assert checked >= 80, checked


@pytest.mark.parametrize("cd", [(REL, 1, 2), (REL, 1, 4), (ABS, 1, 3, gc.LORENZO)])
def test_enzo_h5py_copy(tmp_path, cd):
    """Every float grid and particle array, big-endian as in the source, with
    chunk shapes that leave partial edge chunks."""
    src = gc.data_file(*ENZO)
    out = tmp_path / "enzo.h5"
    with h5py.File(src, "r") as a, h5py.File(out, "w") as b:
        names = enzo_float_datasets(a)
        for name in names:
            x = a[name]
            chunks = tuple(max(1, (s + 2) // 3) for s in x.shape)
            gc.create(b, name, x[...], chunks, cd, dtype=x.dtype)
    with h5py.File(src, "r") as a, h5py.File(out, "r") as b:
        for name in names:
            x, d = a[name], b[name]
            assert d.dtype == x.dtype and x.dtype.byteorder == ">"
            gc.assert_filtered(d)
            check_bound(x[...], d[...], d.chunks, cd[0], gc.eb_of(cd[1], cd[2]), d.fillvalue,
                        what=name)
