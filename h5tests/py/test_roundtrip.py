"""Round trips through h5py: shapes, types, bounds, special values."""
import h5py
import numpy as np
import pytest

import glide_check as gc
from glide_check import ABS, REL, check_bound, eb_of, roundtrip, smooth

DTYPES = [np.float32, np.float64]

# (shape, chunks): 1-D to 4-D, size-1 chunk axes, partial edge chunks.
SHAPES = [
    ((1000,), (128,)),
    ((37, 50), (8, 16)),
    ((20, 30), (1, 30)),
    ((17, 20, 23), (5, 1, 8)),
    ((16, 16, 16), (16, 16, 16)),
    ((3, 9, 10, 11), (1, 4, 5, 6)),
    ((2, 5, 1, 40), (2, 2, 1, 17)),
]


@pytest.mark.parametrize("dtype", DTYPES, ids=["f4", "f8"])
@pytest.mark.parametrize("shape,chunks", SHAPES, ids=[str(s) for s, _ in SHAPES])
@pytest.mark.parametrize("mode", [ABS, REL], ids=["abs", "rel"])
def test_shapes(tmp_path, dtype, shape, chunks, mode):
    x = smooth(shape, dtype, seed=len(shape))
    cd = (mode, 1, 2) if mode == ABS else (mode, 1, 3)
    y, fill = roundtrip(tmp_path / "t.h5", x, chunks, cd)
    worst = check_bound(x, y, chunks, mode, eb_of(*cd[1:3]), fill)
    # A bound of 1e-2 on O(1) data is loose enough that a lossless result
    # would mean the filter did not really run the lossy path.
    assert worst > 0.0


@pytest.mark.parametrize("dtype", DTYPES, ids=["f4", "f8"])
@pytest.mark.parametrize("mode", [ABS, REL], ids=["abs", "rel"])
@pytest.mark.parametrize("exponent", [1, 2, 3, 4, 5, 6])
def test_bounds(tmp_path, dtype, mode, exponent):
    shape, chunks = (24, 20, 18), (10, 7, 18)
    x = smooth(shape, dtype, seed=exponent, noise=0.05) * 10
    for mantissa in (1, 5):
        cd = (mode, mantissa, exponent)
        y, fill = roundtrip(tmp_path / "t.h5", x, chunks, cd)
        check_bound(x, y, chunks, mode, eb_of(mantissa, exponent), fill, what=str(cd))


@pytest.mark.parametrize("dtype", DTYPES, ids=["f4", "f8"])
def test_rel_range_ignores_padding(tmp_path, dtype):
    """Data far from zero with partial edge chunks: HDF5 pads edge chunks
    with the fill value (0); were the padding counted in the REL range, the
    codec's bound would be about 1000x looser than the contract."""
    shape, chunks = (45, 33), (16, 16)
    x = smooth(shape, dtype, seed=3, noise=0.1, offset=1000.0)
    y, fill = roundtrip(tmp_path / "t.h5", x, chunks, (REL, 1, 3))
    check_bound(x, y, chunks, REL, 1e-3, fill)


@pytest.mark.parametrize("dtype", DTYPES, ids=["f4", "f8"])
@pytest.mark.parametrize("mode", [ABS, REL], ids=["abs", "rel"])
def test_constant_chunks(tmp_path, dtype, mode):
    x = smooth((40, 40), dtype, seed=4)
    x[:20, :20] = 3.25          # a whole constant chunk
    x[20:, 20:] = -7.0e-3       # another, with a different value
    x[:20, 20:] = 0.0           # all fill value
    chunks = (20, 20)
    y, fill = roundtrip(tmp_path / "t.h5", x, chunks, (mode, 1, 4))
    check_bound(x, y, chunks, mode, 1e-4, fill)
    if mode == REL:
        # Range 0 means a bound of 0: constant chunks must be exact.
        assert np.array_equal(gc.bits(y[:20, :20]), gc.bits(x[:20, :20]))
        assert np.array_equal(gc.bits(y[20:, 20:]), gc.bits(x[20:, 20:]))

    c = np.full((10, 10, 10), 42.5, dtype=dtype)
    y, fill = roundtrip(tmp_path / "c.h5", c, (4, 10, 3), (mode, 1, 2))
    check_bound(c, y, (4, 10, 3), mode, 1e-2, fill)


@pytest.mark.parametrize("dtype", DTYPES, ids=["f4", "f8"])
@pytest.mark.parametrize("mode", [ABS, REL], ids=["abs", "rel"])
def test_nan_chunk_and_special_values(tmp_path, dtype, mode):
    itype = np.uint32 if dtype == np.float32 else np.uint64
    x = smooth((32, 48), dtype, seed=5)
    x[:16, :16] = np.nan  # an all-NaN chunk
    # NaNs with payloads and sign must survive bit for bit.
    odd_nans = np.array([0x7FC00001, 0xFFC00000, 0x7F800001] if dtype == np.float32 else
                        [0x7FF8000000000001, 0xFFF8000000000000, 0x7FF0000000000001],
                        dtype=itype).view(dtype)
    x[16:32:5, 3] = odd_nans[0]
    x[17:32:5, 40] = odd_nans[1]
    x[18:32:5, 21] = odd_nans[2]
    x[3, 20:48:3] = np.inf
    x[5, 20:48:4] = -np.inf
    x[20, 20] = -0.0  # not the fill value (+0.0): lossy like any other value
    chunks = (16, 16)
    y, fill = roundtrip(tmp_path / "t.h5", x, chunks, (mode, 1, 3))
    check_bound(x, y, chunks, mode, 1e-3, fill)
    assert np.isnan(y[:16, :16]).all()


@pytest.mark.parametrize("dtype", DTYPES, ids=["f4", "f8"])
def test_random_noise_does_not_expand(tmp_path, dtype):
    rng = np.random.default_rng(6)
    x = rng.uniform(-1, 1, (64, 256)).astype(dtype)
    chunks = (32, 128)
    path = tmp_path / "t.h5"
    y, fill = roundtrip(path, x, chunks, (REL, 1, 6))
    check_bound(x, y, chunks, REL, 1e-6, fill)
    with h5py.File(path, "r") as f:
        stored = f["x"].id.get_storage_size()
    raw = x.nbytes
    # Incompressible at this bound; it may grow by a header, not more.
    assert stored <= raw * 1.02 + 4 * 512, (stored, raw)


@pytest.mark.parametrize("dtype", DTYPES, ids=["f4", "f8"])
@pytest.mark.parametrize("chunk", [1, 7])
@pytest.mark.parametrize("mode", [ABS, REL], ids=["abs", "rel"])
def test_tiny_chunks(tmp_path, dtype, chunk, mode):
    x = smooth((50,), dtype, seed=7)
    y, fill = roundtrip(tmp_path / "t.h5", x, (chunk,), (mode, 1, 2))
    check_bound(x, y, (chunk,), mode, 1e-2, fill)
    x2 = smooth((9, 8), dtype, seed=8)
    c2 = (1, chunk)
    y, fill = roundtrip(tmp_path / "t2.h5", x2, c2, (mode, 1, 2))
    check_bound(x2, y, c2, mode, 1e-2, fill)


@pytest.mark.parametrize("mode", [ABS, REL], ids=["abs", "rel"])
def test_float32_extremes(tmp_path, mode):
    fi = np.finfo(np.float32)
    rng = np.random.default_rng(9)
    x = rng.standard_normal((64, 64)).astype(np.float32)
    # near +-FLT_MAX
    x[0:8, :] = fi.max * rng.uniform(0.9, 1.0, (8, 64)).astype(np.float32)
    x[8:16, :] = -fi.max * rng.uniform(0.9, 1.0, (8, 64)).astype(np.float32)
    x[16, :] = fi.max
    x[17, :] = -fi.max
    # denormals, down to the smallest one
    sub = np.arange(1, 65, dtype=np.uint32).view(np.float32)
    x[32:40, :] = sub
    x[40:48, :] = -sub * 1000
    x[48, :] = fi.tiny
    chunks = (16, 32)
    for cd in [(mode, 1, 1), (mode, 1, 6)]:
        y, fill = roundtrip(tmp_path / "t.h5", x, chunks, cd)
        check_bound(x, y, chunks, mode, eb_of(*cd[1:]), fill, what=str(cd))
    # denormal-only chunks at bounds of their own scale
    d = (np.arange(1, 1025, dtype=np.uint32) * 997).view(np.float32).reshape(32, 32)
    for cd in [(ABS, 1, 40), (ABS, 1, 38), (REL, 1, 2)]:
        y, fill = roundtrip(tmp_path / "d.h5", d, (16, 16), cd)
        check_bound(d, y, (16, 16), cd[0], eb_of(*cd[1:]), fill, what=str(cd))


def test_float64_extremes(tmp_path):
    fi = np.finfo(np.float64)
    rng = np.random.default_rng(10)
    x = rng.standard_normal((32, 32))
    x[0:4, :] = fi.max * rng.uniform(0.9, 1.0, (4, 32))
    x[4:8, :] = -fi.max * rng.uniform(0.9, 1.0, (4, 32))
    x[8:12, :] = np.arange(1, 129, dtype=np.uint64).view(np.float64).reshape(4, 32)
    chunks = (4, 16)  # REL ranges stay finite: no chunk mixes +max and -max
    for cd in [(ABS, 1, 1), (ABS, 1, 6), (REL, 1, 3)]:
        y, fill = roundtrip(tmp_path / "t.h5", x, chunks, cd)
        check_bound(x, y, chunks, cd[0], eb_of(*cd[1:]), fill, what=str(cd))


@pytest.mark.parametrize("dtype", ["<f4", ">f4", "<f8", ">f8"])
@pytest.mark.parametrize("mode", [ABS, REL], ids=["abs", "rel"])
def test_user_fill_value(tmp_path, dtype, mode):
    """A user fill value is kept exact and out of the REL range, also in the
    padding of edge chunks and in regions never written."""
    fillv = -999.0
    x = smooth((30, 25), dtype, seed=11).astype(dtype)
    x[3:9, 4] = fillv
    path = tmp_path / "t.h5"
    chunks = (8, 8)
    with h5py.File(path, "w") as f:
        d = f.create_dataset("x", shape=(30, 25), dtype=dtype, chunks=chunks,
                             compression=gc.FILTER_ID, compression_opts=(mode, 1, 3),
                             fillvalue=fillv)
        d[:, :20] = x[:, :20]  # columns 20.. stay unwritten in the last chunk column
        d[:, 20:] = x[:, 20:]
        d2 = f.create_dataset("partial", shape=(30, 25), dtype=dtype, chunks=chunks,
                              compression=gc.FILTER_ID, compression_opts=(mode, 1, 3),
                              fillvalue=fillv)
        d2[2:11, 3:19] = x[2:11, 3:19]
    with h5py.File(path, "r") as f:
        d = f["x"]
        gc.assert_filtered(d)
        assert d.dtype == np.dtype(dtype)
        check_bound(x, d[...], chunks, mode, 1e-3, fill=fillv)
        p = f["partial"]
        gc.assert_filtered(p)
        expect = np.full((30, 25), fillv, dtype=dtype)
        expect[2:11, 3:19] = x[2:11, 3:19]
        check_bound(expect, p[...], chunks, mode, 1e-3, fill=fillv)


@pytest.mark.parametrize("dtype", [">f4", ">f8"])
@pytest.mark.parametrize("mode", [ABS, REL], ids=["abs", "rel"])
def test_big_endian(tmp_path, dtype, mode):
    x = smooth((21, 34), dtype, seed=12, offset=5.0).astype(dtype)
    x[0, 0] = np.nan
    x[1, 1] = -np.inf
    path = tmp_path / "t.h5"
    y, fill = roundtrip(path, x, (8, 16), (mode, 1, 3))
    with h5py.File(path, "r") as f:
        assert f["x"].dtype == np.dtype(dtype)  # still big-endian on disk
    assert y.dtype == np.dtype(dtype)
    check_bound(x, y, (8, 16), mode, 1e-3, fill)
    # Reading into a little-endian buffer converts after decoding.
    with h5py.File(path, "r") as f:
        le = f["x"].astype("<" + dtype[1:])[...]
    check_bound(x, le.astype(dtype), (8, 16), mode, 1e-3, fill)


def test_set_local_records_layout(tmp_path):
    """set_local appends the internal description documented in cd_values.h."""
    path = tmp_path / "t.h5"
    with h5py.File(path, "w") as f:
        gc.create(f, "le", np.zeros((10, 12), "<f4"), (4, 5), (REL, 2, 3, gc.LORENZO))
        gc.create(f, "be", np.zeros((7,), ">f8"), (3,), (ABS, 1, 6), fillvalue=1.5)
    with h5py.File(path, "r") as f:
        cd = f["le"].id.get_create_plist().get_filter_by_id(gc.FILTER_ID)[1]
        assert tuple(cd) == (1, 2, 3, 1, 1, 1, 0, 1, 0, 0, 2, 4, 5)
        cd = f["be"].id.get_create_plist().get_filter_by_id(gc.FILTER_ID)[1]
        b = int(np.array([1.5]).view(np.uint64)[0])
        assert tuple(cd) == (0, 1, 6, 0, 1, 2, 1, 1, b & 0xFFFFFFFF, b >> 32, 1, 3)


@pytest.mark.parametrize("dtype", ["<f4", ">f4", "<f8"])
def test_masked_field_format3(tmp_path, dtype):
    """A land mask (fill 1e20, as CMIP ocean files have): interpolated chunks
    use the fill-aware stencils of format 3 (GLIDE 1.3), which format 5 (the
    streams GLIDE 1.5 writes) applies wherever HAS_FILL is set; every chunk
    keeps the bound, fill exact."""
    fillv = 1e20
    y, xx = np.mgrid[0:96, 0:128]
    x = (290 + 8 * np.sin(y / 9) * np.cos(xx / 13) + 0.3 * np.sin(xx * y / 7)).astype(dtype)
    land = (xx < 20 + 6 * np.sin(y / 5)) | ((xx - 90) ** 2 + (y - 20) ** 2 < 100)  # chunk (48, 64): all sea
    x[land] = fillv
    chunks = (48, 64)
    path = tmp_path / "m.h5"
    with h5py.File(path, "w") as f:
        gc.create(f, "x", x, chunks, (REL, 1, 3, gc.INTERP), fillvalue=fillv)
    with h5py.File(path, "r") as f:
        d = f["x"]
        gc.assert_filtered(d)
        check_bound(x, d[...], chunks, REL, 1e-3, fill=fillv)
        # GLIDE 1.5 writes format 5 (symbol planes) for every coded chunk; its
        # interpolation uses the fill-aware stencils wherever HAS_FILL is set,
        # as format 4's (GLIDE 1.4 named 3 only where a fill point occurred).
        # GLIDE 1.8 names 8 where a plane is run-coded (flag bits 2, 3): the
        # land's FILL runs pay for it.
        for c in [(0, 0), (0, 64), (48, 0), (48, 64)]:
            blob = d.id.read_direct_chunk(c)[1]
            runs = blob[4] == 8 and blob[14] & 0x0C
            assert blob[7] == 1 and (blob[4] == 5 or runs) and blob[14] & 1, (c, blob[4], blob[7], blob[14])


@pytest.mark.parametrize("dtype", DTYPES, ids=["f4", "f8"])
@pytest.mark.parametrize("predictor", [0, gc.INTERP], ids=["auto", "interp"])
def test_slices_format6(tmp_path, dtype, predictor):
    """A field whose every level repeats a rough horizontal pattern (as WRF
    levels and monthly SST do): GLIDE 1.6 codes its 3-D chunks with the
    slice method (format 6, method 3), with the default and with the
    interpolation predictor; a 2-D dataset never takes it; all within the
    bound, read back through HDF5."""
    rng = np.random.default_rng(7)
    pattern = rng.uniform(-5, 5, size=(48, 40))
    z = np.arange(32)[:, None, None]
    x = (280 + 0.05 * z + pattern[None, :, :] * (1 + 0.01 * z)).astype(dtype)
    chunks = (16, 48, 40)
    path = tmp_path / "s.h5"
    with h5py.File(path, "w") as f:
        gc.create(f, "x", x, chunks, (REL, 1, 3, predictor))
        gc.create(f, "plane", x[0], (48, 40), (REL, 1, 3, predictor))
    with h5py.File(path, "r") as f:
        d = f["x"]
        gc.assert_filtered(d)
        check_bound(x, d[...], chunks, REL, 1e-3)
        for c in [(0, 0, 0), (16, 0, 0)]:
            blob = d.id.read_direct_chunk(c)[1]
            assert blob[4] in (6, 8) and blob[7] == 3, (c, blob[4], blob[7])  # format 6 (8: runs), SLICE
        p = f["plane"]
        check_bound(x[0], p[...], (48, 40), REL, 1e-3)
        blob = p.id.read_direct_chunk((0, 0))[1]
        assert blob[4] in (5, 8) and blob[7] in (1, 2), (blob[4], blob[7])
