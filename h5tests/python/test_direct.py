"""h5glide.write_direct / read_direct (glide_h5.h through ctypes, bound to
h5py's own libhdf5): the filter's chunk bytes, the bound, boxes, refusals."""
import h5py
import numpy as np
import pytest

import h5glide
from conftest import check_rel, field


def test_direct_is_the_filters_bytes(tmp_path):
    a = field((70, 64, 50), "f4")
    with h5py.File(tmp_path / "d.h5", "w") as f:
        opts = h5glide.Glide(rel=1e-3)
        ref = f.create_dataset("ref", data=a, chunks=(32, 32, 32), **opts)
        ds = f.create_dataset("d", shape=a.shape, dtype="f4", chunks=(32, 32, 32), **opts)
        h5glide.write_direct(ds, a, backend="cpu", threads=2)
        n = 0
        for idx in np.ndindex(3, 2, 2):
            off = tuple(i * 32 for i in idx)
            m1, b1 = ref.id.read_direct_chunk(off)
            m2, b2 = ds.id.read_direct_chunk(off)
            assert (m1, b1) == (m2, b2), off
            n += 1
        assert n == 12 and ds.id.get_storage_size() * 5 < a.nbytes  # compressed, not skipped
        b = ds[...]
        check_rel(a, b, 1e-3, (32, 32, 32))
        assert np.array_equal(h5glide.read_direct(ds), b)
        # a box of whole chunks reaching the edge
        part = h5glide.read_direct(ds, start=(32, 0, 32), count=(38, 64, 18))
        assert np.array_equal(part, b[32:, :, 32:])


def test_direct_box_write_leaves_the_rest_to_fill(tmp_path):
    a = field((64, 64), "f8")
    with h5py.File(tmp_path / "b.h5", "w") as f:
        ds = f.create_dataset("d", shape=(96, 64), dtype="f8", chunks=(32, 32), fillvalue=-5.0,
                              **h5glide.Glide(abs=1e-4))
        h5glide.write_direct(ds, a, start=(32, 0))
        b = ds[...]
        assert np.all(b[:32] == -5.0)
        assert np.abs(b[32:] - a).max() <= 1e-4
        assert np.array_equal(h5glide.read_direct(ds), b)


def test_direct_refusals(tmp_path):
    with h5py.File(tmp_path / "r.h5", "w") as f:
        plain = f.create_dataset("plain", shape=(64, 64), dtype="f4")
        with pytest.raises(h5glide.GlideError, match="not chunked"):
            h5glide.write_direct(plain, np.zeros((64, 64), "f4"))
        ds = f.create_dataset("d", shape=(64, 64), dtype="f4", chunks=(32, 32), **h5glide.Glide(rel=1e-3))
        with pytest.raises(h5glide.GlideError, match="whole chunks"):
            h5glide.write_direct(ds, np.zeros((16, 64), "f4"), start=(8, 0))
        with pytest.raises(TypeError):
            h5glide.write_direct(ds, np.zeros((64, 64), "f8"))  # no conversion


class _FakeDeviceArray:
    """An object that says it is a CUDA array (its pointer is host memory, never used without a GPU)."""

    def __init__(self, a, strides=None):
        self._a = a
        self.__cuda_array_interface__ = {"shape": a.shape, "typestr": a.dtype.str, "data": (a.ctypes.data, False),
                                         "strides": strides, "version": 3}


def test_device_arrays_checked(tmp_path):
    if h5glide.backend_name("gpu") == "gpu":
        pytest.skip("a GPU is usable here: the fake device pointer would be used")
    with h5py.File(tmp_path / "g.h5", "w") as f:
        ds = f.create_dataset("d", shape=(64, 64), dtype="f4", chunks=(32, 32), **h5glide.Glide(rel=1e-3))
        with pytest.raises(h5glide.GlideError, match="device memory needs the GPU backend"):
            h5glide.write_direct(ds, _FakeDeviceArray(np.zeros((64, 64), "f4")))
        with pytest.raises(TypeError, match="float64"):
            h5glide.write_direct(ds, _FakeDeviceArray(np.zeros((64, 64), "f8")))
        with pytest.raises(ValueError, match="C-contiguous"):
            h5glide.write_direct(ds, _FakeDeviceArray(np.zeros((64, 64), "f4"), strides=(4, 256)))


class _CudaArray:
    """A float array in device memory (cudaMalloc through ctypes) that says so
    as CuPy's arrays do, so that the device path runs without CuPy."""

    def __init__(self, cuda, shape, dtype):
        import ctypes

        self._cuda, self._c = cuda, ctypes
        self.shape, self.dtype = shape, np.dtype(dtype)
        self.nbytes = int(np.prod(shape)) * self.dtype.itemsize
        p = ctypes.c_void_p()
        assert cuda.cudaMalloc(ctypes.byref(p), ctypes.c_size_t(self.nbytes)) == 0
        self.ptr = p.value
        self.__cuda_array_interface__ = {"shape": shape, "typestr": self.dtype.str, "data": (self.ptr, False),
                                         "strides": None, "version": 3}

    def copy(self, a, to_device):
        c = self._c
        host = a.ctypes.data_as(c.c_void_p)
        dst, src = (c.c_void_p(self.ptr), host) if to_device else (host, c.c_void_p(self.ptr))
        assert self._cuda.cudaMemcpy(dst, src, c.c_size_t(self.nbytes), 1 if to_device else 2) == 0

    def free(self):
        self._cuda.cudaFree(self._c.c_void_p(self.ptr))


def _cudart():
    import ctypes

    for name in ("libcudart.so.13", "libcudart.so.12", "libcudart.so"):
        try:
            return ctypes.CDLL(name)
        except OSError:
            pass
    return None


def test_device_array_on_the_gpu(tmp_path):
    cuda = _cudart()
    if h5glide.backend_name("gpu") != "gpu" or cuda is None:
        pytest.skip("no usable GPU, or no CUDA runtime to allocate device memory with")
    a = field((70, 90, 100), "f4")
    with h5py.File(tmp_path / "dev.h5", "w") as f:
        opts = h5glide.Glide(abs=1e-3)
        ref = f.create_dataset("ref", data=a, chunks=(32, 32, 32), **opts)
        ds = f.create_dataset("d", shape=a.shape, dtype="f4", chunks=(32, 32, 32), **opts)
        d, back = _CudaArray(cuda, a.shape, "f4"), _CudaArray(cuda, a.shape, "f4")
        try:
            d.copy(a, True)
            h5glide.write_direct(ds, d)
            offs = [ds.id.get_chunk_info(i).chunk_offset for i in range(ds.id.get_num_chunks())]
            assert len(offs) == 36 and all(ds.id.read_direct_chunk(o) == ref.id.read_direct_chunk(o) for o in offs)
            h5glide.read_direct(ds, out=back)
            b = np.empty_like(a)
            back.copy(b, False)
        finally:
            d.free(), back.free()
        assert np.array_equal(b, ref[...])
        assert np.abs(b.astype("f8") - a).max() <= 1e-3
