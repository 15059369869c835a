"""Glide(): readable options onto exactly the filter's cd_values
(filter/README.md), and clear Python errors for bad ones."""
import pytest

import h5glide
from h5glide import Glide


@pytest.mark.parametrize("kwargs,cd", [
    (dict(rel=1e-3), (1, 1, 3)),
    (dict(abs=0.5), (0, 5, 1)),
    (dict(abs=5e-4, predictor="lorenzo", codebook="custom"), (0, 5, 4, 0x21)),
    (dict(rel=1e-3, sentinel="off"), (1, 1, 3, 0x1000)),
    (dict(rel=1e-3, sentinel=-9999.0, dtype="float32"), (1, 1, 3, 0x2000, 3323739136, 0)),
    (dict(rel=1e-3, sentinel=1e20, dtype="float32"), (1, 1, 3, 0x2000, 1621981420, 0)),
    (dict(rel=1e-3, sentinel=-9999.0, dtype="float64"), (1, 1, 3, 0x2000, 0, 0xC0C38780)),
    (dict(abs=2.5e-7, predictor="interpolation", codebook="dictionary", anchor_stride=32), (0, 25, 8, 0x512)),
    (dict(abs=1e-40), (0, 1, 40)),
    (dict(abs=4294967295), (0, 4294967295, 0)),
    (dict(rel=123.456), (1, 123456, 3)),
])
def test_cd_values(kwargs, cd):
    g = Glide(**kwargs)
    assert g == {"compression": 45123, "compression_opts": cd}
    assert g.filter_id == 45123 and g.filter_options == cd
    assert g.eb == cd[1] / 10.0 ** cd[2]


def test_bound_rounded_down_never_up():
    # 13 significant digits do not fit a 32-bit mantissa: 10 are kept, rounded down
    g = Glide(abs=0.1234567891239)
    assert g["compression_opts"] == (0, 1234567891, 10)
    assert g.eb <= 0.1234567891239
    g = Glide(rel=1.5e-40)  # exponent over 40: 1e-40
    assert g["compression_opts"] == (1, 1, 40) and g.eb < 1.5e-40


@pytest.mark.parametrize("kwargs,err,match", [
    (dict(), TypeError, "exactly one error bound"),
    (dict(rel=1e-3, abs=1e-3), TypeError, "exactly one error bound"),
    (dict(abs=0), ValueError, "abs=0"),
    (dict(rel=-1e-3), ValueError, "rel=-0.001"),
    (dict(abs=float("nan")), ValueError, "finite number > 0"),
    (dict(abs=True), ValueError, "finite number > 0"),
    (dict(abs="1e-3"), ValueError, "finite number > 0"),
    (dict(abs=1e-41), ValueError, "too small"),
    (dict(abs=5e9), ValueError, "too large"),
    (dict(rel=1e-3, predictor="spline"), ValueError, "predictor='spline'"),
    (dict(rel=1e-3, codebook="huffman"), ValueError, "codebook="),
    (dict(rel=1e-3, anchor_stride=12), ValueError, "power of two"),
    (dict(rel=1e-3, anchor_stride=2), ValueError, "power of two"),
    (dict(rel=1e-3, anchor_stride=65536), ValueError, "power of two"),
    (dict(rel=1e-3, sentinel=-9999.0), ValueError, "dtype="),
    (dict(rel=1e-3, sentinel=-9999.0, dtype="int16"), ValueError, "dtype="),
    (dict(rel=1e-3, sentinel=float("inf"), dtype="float32"), ValueError, "sentinel="),
    (dict(rel=1e-3, sentinel="none"), ValueError, "sentinel="),
])
def test_bad_options(kwargs, err, match):
    with pytest.raises(err, match=match):
        Glide(**kwargs)


def test_codec_takes_the_same_options():
    c = h5glide.GlideCodec(abs=2.5e-7, predictor="lorenzo", anchor_stride=16)
    assert c.eb == Glide(abs=2.5e-7).eb
    with pytest.raises(ValueError, match="predictor="):
        h5glide.GlideCodec(abs=1, predictor="spline")
