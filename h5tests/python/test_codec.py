"""The numcodecs codec and Zarr formats 2 and 3; the same stream bytes as the
HDF5 filter for the same values and options."""
import json

import h5py
import numpy as np
import pytest

import h5glide
from conftest import check_abs, check_rel, field, run_python

numcodecs = pytest.importorskip("numcodecs")
zarr = pytest.importorskip("zarr")
ZARR3 = int(zarr.__version__.split(".")[0]) >= 3
needs_zarr3 = pytest.mark.skipif(not ZARR3, reason=f"zarr {zarr.__version__}: Zarr format 3 needs zarr >= 3")

CASES = [  # (dtype, options): each option through both paths
    ("f4", dict(rel=1e-3)),
    ("f8", dict(abs=2.5e-5)),
    ("f4", dict(abs=1e-2, predictor="lorenzo", codebook="custom")),
    ("f8", dict(rel=1e-4, predictor="interpolation", codebook="dictionary", anchor_stride=8)),
    ("f4", dict(rel=1e-3, sentinel="off")),
]


@pytest.mark.parametrize("dtype,opts", CASES)
def test_same_bytes_as_the_filter(tmp_path, dtype, opts):
    a = field((48, 40, 36), dtype, seed=7)
    a[0, :, :5] = 1e20  # a sentinel, found per chunk unless turned off
    chunks = (24, 40, 36)
    with h5py.File(tmp_path / "c.h5", "w") as f:
        d = f.create_dataset("x", data=a, chunks=chunks, **h5glide.Glide(**opts))
        raw = [d.id.read_direct_chunk((i * 24, 0, 0))[1] for i in range(2)]
        b = d[...]
    # HDF5's default fill value is 0, which the filter keeps exact: fill_value=0.0
    codec = h5glide.GlideCodec(**opts, fill_value=0.0)
    for i in range(2):
        assert codec.encode(a[i * 24:(i + 1) * 24]) == raw[i]
        assert codec.decode(raw[i]).tobytes() == b[i * 24:(i + 1) * 24].tobytes()
    assert len(raw[0]) * 3 < a.nbytes // 2
    if "abs" in opts:
        check_abs(a, b, codec.eb)
    else:
        check_rel(a, b, opts["rel"], chunks, exclude=(0.0,) if opts.get("sentinel") == "off" else (0.0, 1e20))


def test_codec_bounds_and_config():
    codec = numcodecs.get_codec({"id": "glide", "abs": 1e-3, "predictor": "lorenzo"})  # entry point
    assert isinstance(codec, h5glide.GlideCodec)
    assert numcodecs.get_codec(codec.get_config()) == codec
    a = field((7, 13, 11, 5), "f8")  # rank 4, odd sizes
    check_abs(a, codec.decode(codec.encode(a)), codec.eb)
    out = np.empty_like(a)
    codec.decode(codec.encode(a), out=out)
    check_abs(a, out, codec.eb)
    json.dumps(codec.get_config())


def test_codec_errors():
    with pytest.raises(TypeError, match="float32 or float64"):
        h5glide.GlideCodec(abs=1).encode(np.arange(10, dtype="i4"))
    with pytest.raises(TypeError, match="raw bytes"):
        h5glide.GlideCodec(abs=1).encode(b"12345678")
    with pytest.raises(TypeError, match="byte order"):  # Zarr 2 would view decoded bytes as >f4
        h5glide.GlideCodec(abs=1).encode(np.ones(8, ">f4" if np.little_endian else "<f4"))
    with pytest.raises(ValueError, match="at most 32"):
        h5glide.GlideCodec(abs=1).encode(np.zeros((1,) * 33, "f4"))
    with pytest.raises(ValueError, match="backend"):
        h5glide.GlideCodec(abs=1, backend="tpu")
    with pytest.raises(ValueError, match="fill_value"):
        h5glide.GlideCodec(abs=1, fill_value=float("nan"))
    stream = bytearray(h5glide.GlideCodec(abs=1e-3).encode(field((32, 32), "f4")))
    stream[len(stream) // 2] ^= 0xFF
    with pytest.raises(h5glide.GlideError, match="glide: "):
        h5glide.GlideCodec(abs=1e-3).decode(bytes(stream))
    if h5glide.backend_name("gpu") != "gpu":
        with pytest.raises(h5glide.GlideError, match="backend"):
            h5glide.GlideCodec(abs=1, backend="gpu").encode(np.ones(8, "f4"))


@pytest.mark.skipif(h5glide.backend_name("auto") != "gpu", reason="no GPU backend in this build or no GPU")
def test_gpu_same_bytes_as_cpu():
    a = field((64, 64, 64), "f4")
    cpu = h5glide.GlideCodec(rel=1e-3, backend="cpu").encode(a)
    assert h5glide.GlideCodec(rel=1e-3, backend="gpu").encode(a) == cpu


def zarr_chunk(path, key):
    return (path / key).read_bytes()


def test_zarr_format2(tmp_path):
    a = field((50, 60, 30), "f4")
    codec = h5glide.GlideCodec(abs=1e-3)
    kw = dict(shape=a.shape, chunks=(25, 32, 30), dtype="f4")
    if ZARR3:
        z = zarr.create_array(tmp_path / "a.zarr", zarr_format=2, compressors=codec, filters=None, **kw)
    else:
        z = zarr.open_array(str(tmp_path / "a.zarr"), mode="w", compressor=codec, **kw)
    z[...] = a
    meta = json.loads((tmp_path / "a.zarr" / ".zarray").read_text())
    assert meta["compressor"]["id"] == "glide" and meta["compressor"]["abs"] == 1e-3
    assert zarr_chunk(tmp_path / "a.zarr", "0.0.0") == codec.encode(a[:25, :32, :30])
    assert sum(p.stat().st_size for p in (tmp_path / "a.zarr").iterdir()) * 3 < a.nbytes
    # a fresh process that never imports h5glide: numcodecs' entry point finds the codec
    out = run_python("import zarr, numpy as np; np.save('b.npy', zarr.open_array('a.zarr', mode='r')[...])",
                     tmp_path)
    assert out == ""
    check_abs(a, np.load(tmp_path / "b.npy"), codec.eb)


@needs_zarr3
def test_zarr_format3(tmp_path):
    a = field((40, 64, 64), "f8", seed=2)
    ser = h5glide.GlideSerializer(rel=1e-4, codebook="custom")
    z = zarr.create_array(tmp_path / "a.zarr", shape=a.shape, chunks=(20, 64, 32), dtype="f8",
                          serializer=ser, compressors=None)
    z[...] = a
    meta = json.loads((tmp_path / "a.zarr" / "zarr.json").read_text())
    assert meta["codecs"] == [{"name": "glide", "configuration": {
        "rel": 1e-4, "predictor": "auto", "codebook": "custom", "sentinel": "auto", "backend": "auto"}}]
    stored = zarr_chunk(tmp_path / "a.zarr", "c/1/0/1")
    assert stored == h5glide.GlideCodec(rel=1e-4, codebook="custom").encode(a[20:40, :, 32:64])
    assert sum(p.stat().st_size for p in (tmp_path / "a.zarr").rglob("*") if p.is_file()) * 3 < a.nbytes
    # a fresh process that never imports h5glide: zarr's entry point finds the codec
    run_python("import zarr, numpy as np; np.save('b.npy', zarr.open_array('a.zarr', mode='r')[...])",
               tmp_path)
    check_rel(a, np.load(tmp_path / "b.npy"), 1e-4, (20, 64, 32), exclude=())


@needs_zarr3
@pytest.mark.parametrize("dtype", ["f4", ">f4"])
def test_zarr_format3_edge_chunks_and_fill(tmp_path, dtype):
    a = field((30, 45), dtype)
    a[:5] = -1.0
    ser = h5glide.GlideSerializer(abs=1e-2, fill_value=-1.0)
    z = zarr.create_array(tmp_path / "e.zarr", shape=a.shape, chunks=(16, 16), dtype=dtype,
                          fill_value=-1.0, serializer=ser, compressors=None)
    z[...] = a
    b = zarr.open_array(tmp_path / "e.zarr", mode="r")[...]
    check_abs(a, b, ser.codec.eb)
    assert (b[:5] == -1.0).all()


@needs_zarr3
def test_zarr_format3_rejects_integers(tmp_path):
    with pytest.raises(TypeError, match="float32 or float64"):
        zarr.create_array(tmp_path / "i.zarr", shape=(10,), chunks=(5,), dtype="i4",
                          serializer=h5glide.GlideSerializer(abs=1), compressors=None)
