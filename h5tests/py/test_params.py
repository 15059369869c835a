"""cd_values validation, type/layout checks, options and backend choice."""
import os
import subprocess
import sys

import h5py
import numpy as np
import pytest

import glide_check as gc
from glide_check import ABS, REL, check_bound, roundtrip, smooth

BAD = [
    ((7, 1, 3), "unknown mode 7"),
    ((0, 0, 3), "mantissa 0"),
    ((0, 1, 41), "exponent 41"),
    ((1, 1, 3, 0x4000), "unknown option bits 0x4000"),
    ((1, 1, 3, 0x3000), "unknown sentinel setting 3"),
    ((1, 1, 3, 0x2000), "needs its bits"),
    ((1, 1, 3, 0x1000, 5, 0), "6 filter parameters"),
    ((1, 1, 3, 0x80000000), "unknown option bits 0x80000000"),
    ((1, 1, 3, 0x3), "unknown predictor 3"),
    ((1, 1, 3, 0x30), "unknown codebook 3"),
    ((1, 1, 3, 0x100), "anchor stride log2 1"),
    ((1, 1), "too few filter parameters"),
    ((1,), "too few filter parameters"),
    ((1, 1, 3, 0, 5), "5 filter parameters"),
    ((1, 1, 3, 0, 1, 1, 0, 0, 0, 0, 1), "11 filter parameters"),  # rank 1 but no dim
]


def create_error(tmp_path, data, cd, chunks=(8,), **kw):
    with h5py.File(tmp_path / "bad.h5", "w") as f:
        with pytest.raises((ValueError, OSError, RuntimeError)) as e:
            f.create_dataset("x", data=data, chunks=chunks, compression=gc.FILTER_ID,
                             compression_opts=cd, **kw)
        assert "x" not in f
    return str(e.value)


@pytest.mark.parametrize("cd,message", BAD, ids=[m for _, m in BAD])
def test_bad_cd_values_rejected(tmp_path, cd, message):
    msg = create_error(tmp_path, np.zeros(20, np.float32), cd)
    assert message in msg, msg


@pytest.mark.parametrize("dtype,got", [
    (np.int32, "got integer"), (np.uint8, "got integer"), (np.float16, "got a 2-byte float"),
    (np.dtype([("a", "f4"), ("b", "f4")]), "got compound"),
])
def test_wrong_types_rejected(tmp_path, dtype, got):
    msg = create_error(tmp_path, np.zeros(20, dtype), (ABS, 1, 3))
    assert "only 32- and 64-bit IEEE floating-point" in msg and got in msg, msg


def test_contiguous_layout_rejected(tmp_path):
    """Only the low-level API can ask for a filter without chunking."""
    with h5py.File(tmp_path / "bad.h5", "w") as f:
        dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
        dcpl.set_filter(gc.FILTER_ID, h5py.h5z.FLAG_MANDATORY, (ABS, 1, 3))
        space = h5py.h5s.create_simple((100,))
        with pytest.raises((ValueError, OSError, RuntimeError)):
            h5py.h5d.create(f.id, b"x", h5py.h5t.IEEE_F32LE, space, dcpl=dcpl)


def test_good_values_accepted(tmp_path):
    for cd in [(ABS, 1, 0), (ABS, 4294967295, 40), (REL, 3, 40, 0xF21), (REL, 1, 0, 0x200)]:
        x = smooth((30,), np.float64, seed=1)
        y, fill = roundtrip(tmp_path / "t.h5", x, (8,), cd)
        check_bound(x, y, (8,), cd[0], gc.eb_of(cd[1], cd[2]), fill, what=str(cd))


OPTIONS = [
    (0, "auto-auto"),
    (gc.INTERP, "interp"),
    (gc.LORENZO, "lorenzo"),
    (gc.BOOK_DICT, "dictionary"),
    (gc.BOOK_CUSTOM, "custom"),
    (gc.LORENZO | gc.BOOK_CUSTOM, "lorenzo-custom"),
    (gc.LORENZO | gc.BOOK_DICT, "lorenzo-dictionary"),
    (gc.stride(2), "stride4"),
    (gc.stride(5), "stride32"),
    (gc.stride(15) | gc.BOOK_DICT, "stride32768-dict"),
    (gc.stride(3) | gc.LORENZO, "stride8-lorenzo"),
    (gc.stride(3) | gc.INTERP | gc.BOOK_CUSTOM, "stride8-interp-custom"),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f4", "f8"])
@pytest.mark.parametrize("options", [o for o, _ in OPTIONS], ids=[n for _, n in OPTIONS])
@pytest.mark.parametrize("shape,chunks", [((3000,), (1000,)), ((40, 50), (16, 50)),
                                          ((12, 20, 22), (12, 8, 22))], ids=["1d", "2d", "3d"])
def test_options(tmp_path, dtype, options, shape, chunks):
    x = smooth(shape, dtype, seed=options % 97, noise=0.02)
    for cd in [(REL, 1, 3, options), (ABS, 2, 5, options)]:
        path = tmp_path / "t.h5"
        y, fill = roundtrip(path, x, chunks, cd)
        check_bound(x, y, chunks, cd[0], gc.eb_of(cd[1], cd[2]), fill, what=str(cd))
        with h5py.File(path, "r") as f:
            stored = tuple(f["x"].id.get_create_plist().get_filter_by_id(gc.FILTER_ID)[1])
            assert stored[:4] == cd
            if cd[0] == REL:
                # A smooth field at REL 1e-3 must actually compress.
                assert f["x"].id.get_storage_size() < x.nbytes * 0.7


def _subprocess_roundtrip(tmp_path, backend, shape=(40, 40), chunks=(16, 16), **extra_env):
    """Write and read back in a fresh process with GLIDE_BACKEND set (it is
    read once per process)."""
    code = r"""
import sys, h5py, numpy as np
sys.path.insert(0, %r)
import glide_check as gc
x = gc.smooth(%r, np.float32, seed=2)
y, fill = gc.roundtrip(%r, x, %r, (1, 1, 3))
gc.check_bound(x, y, %r, 1, 1e-3, fill)
print("ROUNDTRIP-OK")
""" % (os.path.dirname(os.path.abspath(__file__)), shape, str(tmp_path / "b.h5"), chunks, chunks)
    env = dict(os.environ, GLIDE_BACKEND=backend, **extra_env)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=60)


@pytest.mark.parametrize("backend", ["auto", "cpu", "gpu", "bogus"])
def test_backend_env(tmp_path, backend):
    r = _subprocess_roundtrip(tmp_path, backend)
    assert r.returncode == 0 and "ROUNDTRIP-OK" in r.stdout, r.stderr
    if backend == "bogus":
        assert "unknown GLIDE_BACKEND" in r.stderr
        assert r.stderr.count("unknown GLIDE_BACKEND") == 1  # warned once, not per chunk
    if backend == "gpu" and "not available" in r.stderr:
        assert r.stderr.count("not available") == 1


# The GPU backend's variables, each with a value it must refuse.
BAD_GPU_ENV = {
    "GLIDE_DEVICE": "first",
    "GLIDE_GPU_DEBUG": "yes",
    "GLIDE_GPU_COPY_THREADS": "-2",
    "GLIDE_GPU_COPY_SPIN_US": "1e3",
}


def test_gpu_env_bad_values(tmp_path):
    """A bad value of a GPU variable is said once on stderr, the default is
    used, and the data come back within the bound (with or without a GPU:
    the backend reads its environment on first use)."""
    plugin = (gc.PLUGIN_DIR / "libh5z_glide.so").read_bytes()
    if b"GLIDE_GPU_COPY_THREADS" not in plugin:
        pytest.skip("plugin built without the GPU backend")
    # chunks of 9216 values: under auto, smaller ones never reach the GPU backend (common/api.c)
    r = _subprocess_roundtrip(tmp_path, "auto", shape=(100, 100), chunks=(96, 96), **BAD_GPU_ENV)
    assert r.returncode == 0 and "ROUNDTRIP-OK" in r.stdout, r.stderr
    for name, value in BAD_GPU_ENV.items():
        said = 'ignoring %s="%s"' % (name, value)
        assert r.stderr.count(said) == 1, (name, r.stderr)
