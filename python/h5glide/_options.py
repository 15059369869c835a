"""GLIDE's options by name, checked here so a mistake is a Python error
naming the option, and mapped onto the filter's cd_values (filter/README.md)
and the codec's glide_params exactly as filter/chunk_codec.c maps them."""
import math
import numbers
from decimal import Decimal

import numpy as np

FILTER_ID = 45123
PREDICTORS = {"auto": 0, "lorenzo": 1, "interpolation": 2}
CODEBOOKS = {"auto": 0, "dictionary": 1, "custom": 2}
SENTINELS = {"auto": 0, "off": 1}  # a number: 2, that value
MAX_EXPONENT = 40
MAX_MANTISSA = 2**32 - 1
FLOAT_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def decimal_bound(eb):
    """(mantissa, exponent) with mantissa * 10**-exponent == eb, written as
    the shortest decimal that reads back as the float eb (1e-3 is (1, 3)).
    Where that needs more than 32 bits of mantissa or an exponent over 40,
    the mantissa is rounded down: the bound gets tighter, never looser."""
    d = Decimal(repr(float(eb)))
    _, digits, exp = d.normalize().as_tuple()
    mantissa, exponent = int("".join(map(str, digits))), -exp
    if exponent < 0:
        mantissa, exponent = mantissa * 10**-exponent, 0
    while exponent > 0 and (mantissa > MAX_MANTISSA or exponent > MAX_EXPONENT):
        mantissa, exponent = mantissa // 10, exponent - 1
    if mantissa > MAX_MANTISSA:
        raise ValueError(f"error bound {eb!r} is too large: at most {MAX_MANTISSA}")
    if mantissa == 0:
        raise ValueError(f"error bound {eb!r} is too small: at least 1e-{MAX_EXPONENT}")
    return mantissa, exponent


def _bound(rel, abs_):
    if (rel is None) == (abs_ is None):
        raise TypeError("give exactly one error bound: rel=... (relative to each chunk's range) or abs=...")
    mode, eb = (1, rel) if rel is not None else (0, abs_)
    name = "rel" if mode else "abs"
    if isinstance(eb, bool) or not isinstance(eb, numbers.Real) or not math.isfinite(eb) or eb <= 0:
        raise ValueError(f"{name}={eb!r}: the error bound must be a finite number > 0")
    return mode, name, eb


def _choice(name, value, table):
    if value not in table:
        raise ValueError(f"{name}={value!r}: expected one of {', '.join(map(repr, table))}")
    return table[value]


class Options:
    """Validated options: mode, mantissa, exponent, the options word and the
    sentinel; eb is the double the codec will use, as the filter computes it."""

    def __init__(self, rel=None, abs=None, predictor="auto", codebook="auto", anchor_stride=None,
                 sentinel="auto"):
        self.mode, self.bound_name, given = _bound(rel, abs)
        self.mantissa, self.exponent = decimal_bound(given)
        # what gf_error_bound computes: mantissa / pow(10, exponent)
        self.eb = self.mantissa / 10.0**self.exponent
        self.predictor = _choice("predictor", predictor, PREDICTORS)
        self.codebook = _choice("codebook", codebook, CODEBOOKS)
        if anchor_stride is None:
            self.stride_log2 = 0
        else:
            ok = isinstance(anchor_stride, numbers.Integral) and not isinstance(anchor_stride, bool)
            if not ok or anchor_stride < 4 or anchor_stride > 2**15 or anchor_stride & (anchor_stride - 1):
                raise ValueError(f"anchor_stride={anchor_stride!r}: expected None (the codec's default) "
                                 "or a power of two from 4 to 32768")
            self.stride_log2 = int(anchor_stride).bit_length() - 1
        if isinstance(sentinel, str):
            self.sentinel, self.sentinel_value = _choice("sentinel", sentinel, SENTINELS), None
        elif isinstance(sentinel, numbers.Real) and not isinstance(sentinel, bool) and math.isfinite(sentinel):
            self.sentinel, self.sentinel_value = 2, float(sentinel)
        else:
            raise ValueError(f"sentinel={sentinel!r}: expected 'auto', 'off' or a finite number "
                             "(NaN and Inf always come back exact)")
        self.options = (self.predictor | self.codebook << 4 | self.stride_log2 << 8 | self.sentinel << 12)

    def cd_values(self, dtype=None):
        """The filter's cd_values: 3 values where the options are all
        defaults, 4 with options, 6 with a sentinel value (whose bits depend
        on the dataset's dtype, float32 or float64)."""
        head = (self.mode, self.mantissa, self.exponent)
        if self.sentinel_value is None:
            return head + (self.options,) if self.options else head
        if dtype is None or np.dtype(dtype) not in FLOAT_DTYPES:
            raise ValueError(f"sentinel={self.sentinel_value!r} needs dtype='float32' or 'float64' "
                             "(the dataset's type): the filter takes the sentinel's bits")
        bits = int(value_bits(self.sentinel_value, np.dtype(dtype)))
        return head + (self.options, bits & 0xFFFFFFFF, bits >> 32)

    def fill_params(self, p, dtype, fill_value):
        """Sets glide_params p (already initialised for the data's shape) as
        filter/chunk_codec.c does for a dataset with that fill value."""
        p.mode = self.mode
        p.eb = self.eb
        p.predictor = self.predictor
        p.codebook = self.codebook
        p.block_log2 = self.stride_log2
        p.sentinel = self.sentinel
        p.sentinel_bits = 0 if self.sentinel_value is None else value_bits(self.sentinel_value, dtype)
        p.has_fill = 0 if fill_value is None else 1
        p.fill_bits = 0 if fill_value is None else value_bits(fill_value, dtype)


def value_bits(value, dtype):
    """The bits of `value` stored as `dtype` (float32: in the low 32)."""
    uint = np.uint32 if np.dtype(dtype).itemsize == 4 else np.uint64
    return int(np.array(value, dtype=np.dtype(dtype).newbyteorder("=")).view(uint))
