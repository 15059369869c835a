"""One netCDF/xarray action per process, for test_netcdf.py.

Each reader and writer runs in a process of its own, as a user's program
would: pip's netCDF4 wheel and h5py's wheel each bundle their own libhdf5,
and the GLIDE plugin binds to the first HDF5 that loads it, so mixing them
in one process is another test (test_two_hdf5_copies_in_one_process).

  nc_helper.py read READER FILE VAR OUT.npy
      READER: netcdf4 | xr-netcdf4 | xr-h5netcdf | h5py. Raw values (no
      masking or scaling), so fill values can be compared bit for bit.
  nc_helper.py write-xr-h5netcdf IN.npy OUT.nc CHUNKS FILL
      xarray Dataset {"v": IN} (NaN = missing) to OUT.nc with engine
      h5netcdf and encoding compression=45123, compression_opts=(1, 1, 3),
      chunksizes=CHUNKS ("4,30,45"), _FillValue=FILL.
  nc_helper.py write-nc4 IN.npy OUT.nc VAR FILL
      An uncompressed netCDF-4 file through netCDF4-python, contiguous,
      _FillValue=FILL; IN's values equal to FILL are written as they are.
  nc_helper.py probe-netcdf4-filter OUT.nc
      Tries createVariable(compression=45123) and compression="glide";
      prints one line per try: "<arg> <ExceptionName>: <message>" or "<arg> ok".
  nc_helper.py probe-xr-netcdf4-encoding OUT.nc ENCODING_JSON
      to_netcdf(engine="netcdf4", encoding={"v": ENCODING}); prints "ok" or
      "<ExceptionName>: <message>".
  nc_helper.py resave ENGINE_IN ENGINE_OUT IN.nc OUT.nc
      open_dataset(IN, engine=ENGINE_IN).to_netcdf(OUT, engine=ENGINE_OUT);
      prints the variable's encoding keys that name a filter, then "ok" or
      "<ExceptionName>: <message>".
"""
import json
import sys

import numpy as np

FILTER_ID = 45123


def read(reader, path, var, out):
    if reader == "netcdf4":
        import netCDF4
        with netCDF4.Dataset(path) as ds:
            v = ds[var]
            v.set_auto_maskandscale(False)
            a = v[...]
    elif reader in ("xr-netcdf4", "xr-h5netcdf"):
        import xarray as xr
        engine = reader[3:]
        with xr.open_dataset(path, engine=engine, mask_and_scale=False) as ds:
            a = ds[var].values
    elif reader == "h5py":
        import h5py
        with h5py.File(path, "r") as f:
            a = f[var][...]
    else:
        raise SystemExit("unknown reader " + reader)
    np.save(out, np.ascontiguousarray(np.asarray(a)))


def main(argv):
    cmd = argv[1]
    if cmd == "read":
        read(*argv[2:6])
    elif cmd == "write-xr-h5netcdf":
        import xarray as xr
        a = np.load(argv[2])
        chunks = tuple(int(c) for c in argv[4].split(","))
        fill = np.float32(float(argv[5]))
        ds = xr.Dataset({"v": (("time", "lat", "lon"), a)})
        enc = {"compression": FILTER_ID, "compression_opts": (1, 1, 3),
               "chunksizes": chunks, "_FillValue": fill}
        ds.to_netcdf(argv[3], engine="h5netcdf", encoding={"v": enc})
    elif cmd == "write-nc4":
        import netCDF4
        a = np.load(argv[2])
        fill = a.dtype.type(float(argv[5]))
        with netCDF4.Dataset(argv[3], "w", format="NETCDF4") as ds:
            dims = []
            for i, n in enumerate(a.shape):
                dims.append("d%d" % i)
                ds.createDimension(dims[-1], n)
            v = ds.createVariable(argv[4], a.dtype, dims, fill_value=fill, contiguous=True)
            v.set_auto_maskandscale(False)
            v[...] = a
    elif cmd == "probe-netcdf4-filter":
        import netCDF4
        with netCDF4.Dataset(argv[2], "w", format="NETCDF4") as ds:
            ds.createDimension("x", 100)
            for i, arg in enumerate((FILTER_ID, "glide")):
                try:
                    ds.createVariable("v%d" % i, "f4", ("x",), compression=arg)
                    print(arg, "ok")
                except Exception as e:  # noqa: BLE001 - report whatever it is
                    print(arg, "%s: %s" % (type(e).__name__, e))
    elif cmd == "probe-xr-netcdf4-encoding":
        import xarray as xr
        a = np.linspace(0, 1, 1000, dtype=np.float32).reshape(10, 100)
        ds = xr.Dataset({"v": (("y", "x"), a)})
        try:
            ds.to_netcdf(argv[2], engine="netcdf4", encoding={"v": json.loads(argv[3])})
            print("ok")
        except Exception as e:  # noqa: BLE001
            print("%s: %s" % (type(e).__name__, e))
    elif cmd == "resave":
        import xarray as xr
        with xr.open_dataset(argv[4], engine=argv[2]) as ds:
            enc = ds["v"].encoding
            print({k: enc[k] for k in ("compression", "compression_opts") if k in enc})
            try:
                ds.to_netcdf(argv[5], engine=argv[3])
                print("ok")
            except Exception as e:  # noqa: BLE001
                print("%s: %s" % (type(e).__name__, e))
    else:
        raise SystemExit("unknown command " + cmd)


if __name__ == "__main__":
    main(sys.argv)
