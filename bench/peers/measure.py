"""Measures compressors through HDF5 (h5py) on the same fields and bounds,
and writes one JSON file of rows. One process runs one set of peers that can
share it (compressors.conflicts); run.sh and run_device.sh start one process
per set and report.py merges the files.

  python3 measure.py --peers none,glide --fields real,nyx --out rows.json [options]

Per field and relative bound rel, every lossy peer is asked for the same
ABSOLUTE bound eb = rel x (max - min) of the field's finite non-fill values.
Per row: one file written with one H5Dwrite of the whole field (timed with the
dataset and file close, so every chunk is through the filter and on disk) and
read back with one H5Dread; medians of --reps repeats; errors from the first.
"""
import argparse
import hashlib
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compressors  # noqa: E402
import fields as F  # noqa: E402


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--peers", required=True, help="comma list of compressors.PEERS keys")
    ap.add_argument("--fields", default="real,nyx", help="real, nyx, or both (comma list)")
    ap.add_argument("--only", default="", help="comma list of substrings: keep fields whose name has one")
    ap.add_argument("--data", default=F.data_file(), help="real-data HDF5 file")
    ap.add_argument("--nyx-dir", help="folder of nyx_gen's raw files")
    ap.add_argument("--nyx-n", type=int, default=512)
    ap.add_argument("--bounds", default="1e-2,1e-3,1e-4,1e-5", help="relative bounds, real fields")
    ap.add_argument("--reps", type=int, default=5, help="timed repeats, real fields")
    ap.add_argument("--nyx-bounds", default="1e-2,1e-3,1e-4,1e-5")
    ap.add_argument("--nyx-reps", default="*:3",
                    help="repeats per bound for Nyx fields: 'BOUND:N,...,*:N'")
    ap.add_argument("--nyx-chunk", type=int, default=64)
    ap.add_argument("--machine", default="", help="machine label (default: from /proc/cpuinfo)")
    ap.add_argument("--tmp", default=tempfile.gettempdir(), help="folder for the HDF5 files written")
    ap.add_argument("--out", required=True)
    return ap.parse_args()


def machine_name():
    cpu = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    name = f"{cpu}, {os.cpu_count()} cores"
    try:
        gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30).stdout.strip().splitlines()
        if gpu:
            name += f", GPU: {gpu[0]}" + (f" (x{len(gpu)})" if len(gpu) > 1 else "")
    except (OSError, subprocess.SubprocessError):
        pass
    return name


def git_commit():
    """Short commit, plus a hash of the uncommitted diff when there is one
    (the codec may be mid-change; the hash tells two such runs apart)."""
    try:
        r = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        if r.returncode != 0:
            return "unknown"
        diff = subprocess.run(["git", "-C", HERE, "diff", "HEAD"], capture_output=True).stdout
        return r.stdout.strip() + (f" + local changes (diff {hashlib.sha1(diff).hexdigest()[:8]})" if diff else "")
    except OSError:
        return "unknown"


def reps_for(spec, rel):
    """'1e-3:3,*:1' -> 3 for 1e-3, 1 otherwise."""
    default = 1
    for item in spec.split(","):
        b, n = item.split(":")
        if b == "*":
            default = int(n)
        elif rel is not None and abs(float(b) - rel) <= 1e-12 * rel:
            return int(n)
    return max((int(i.split(":")[1]) for i in spec.split(",")), default=1) if rel is None else default


def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


class FilterFailed(Exception):
    pass


def write_read(h5py, np, path, x, y, chunks, fill, fid, cd):
    """One write and one read through HDF5; returns (write s, read s, stored bytes, filter name)."""
    from h5py import h5d, h5p, h5s, h5t, h5z

    if os.path.exists(path):
        os.remove(path)
    f = h5py.File(path, "w")
    dcpl = h5p.create(h5p.DATASET_CREATE)
    dcpl.set_chunk(chunks)
    if fill is not None:
        # the field's _FillValue as the dataset fill value, as netCDF-4 writes it;
        # GLIDE keeps such values exact and out of its range (all peers get it)
        dcpl.set_fill_value(np.array(fill, dtype=np.float32))
    if fid is not None:
        # MANDATORY, not h5py's OPTIONAL: a filter that fails must fail the
        # write, not store the chunk raw and look like a compressor
        dcpl.set_filter(fid, h5z.FLAG_MANDATORY, cd)
    space = h5s.create_simple(x.shape)
    try:
        ds = h5d.create(f.id, b"x", h5t.IEEE_F32LE, space, dcpl=dcpl)
        t0 = time.perf_counter()
        ds.write(h5s.ALL, h5s.ALL, x)
        del ds
        f.close()
        t1 = time.perf_counter()
    except Exception as e:  # HDF5 reports filter errors as OSError/ValueError
        try:
            f.close()
        except Exception:
            pass
        raise FilterFailed(f"write: {e}".splitlines()[0][:300])
    f = h5py.File(path, "r")
    try:
        ds = f["x"].id
        t2 = time.perf_counter()
        ds.read(h5s.ALL, h5s.ALL, y)
        t3 = time.perf_counter()
        stored = ds.get_storage_size()
        name = ""
        if fid is not None:
            name = ds.get_create_plist().get_filter_by_id(fid)[2].decode(errors="replace")
    except Exception as e:
        raise FilterFailed(f"read: {e}".splitlines()[0][:300])
    finally:
        f.close()
        os.remove(path)
    return t1 - t0, t3 - t2, stored, name


def measure_field(h5py, np, field, chunks, peers, bounds, reps_of, tmp, log):
    x = field.load()
    y = np.empty_like(x)
    st = F.describe(x, field.fill)
    lo, hi = st["min"], st["max"]
    nch = F.n_chunks(field.shape, chunks)
    mb = x.nbytes / 1e6
    path = os.path.join(tmp, f"glide_peers_{os.getpid()}.h5")
    rows = []
    for key in peers:
        peer = compressors.PEERS[key]
        for rel in ([None] if peer.lossless else bounds):
            eb = None if rel is None else rel * (hi - lo)
            fid, cd, eb_asked = peer.params(eb)
            row = {"field": field.name, "shape": list(field.shape), "chunks": list(chunks), "n_chunks": nch,
                   "fill": field.fill, "fill_frac": st["fill_frac"], "compressor": key, "label": peer.label,
                   "backend": peer.backend or "", "rel": rel, "eb": eb, "eb_asked": eb_asked,
                   "filter_id": fid, "cd_values": list(cd), "status": "ok"}
            reps = reps_of(rel)
            tw, tr = [], []
            try:
                y.fill(np.nan)  # errors must come from this row's output, never a previous one
                for r in range(reps):
                    w, rd, stored, fname = write_read(h5py, np, path, x, y, chunks, field.fill, fid, cd)
                    tw.append(w)
                    tr.append(rd)
                    if r == 0:
                        row.update(F.errors(x, y, field.fill, lo, hi))
            except FilterFailed as e:
                row["status"] = f"failed: {e}"
                rows.append(row)
                log(f"  {key:18s} {rel!s:7s} FAILED {e}")
                continue
            w, rd = median(tw), median(tr)
            row.update({
                "filter_name": fname, "stored_bytes": stored, "cr": x.nbytes / stored,
                "bits_per_value": 8.0 * stored / x.size,
                "max_err_ratio": (row["max_err"] / eb_asked) if eb_asked else None,
                "reps": reps, "write_s": tw, "read_s": tr,
                "write_mbs": mb / w, "read_mbs": mb / rd,
                "write_us_per_chunk": 1e6 * w / nch, "read_us_per_chunk": 1e6 * rd / nch})
            rows.append(row)
            psnr = "lossless" if row["psnr"] is None else f"{row['psnr']:.1f} dB"
            ratio = "" if row["max_err_ratio"] is None else f" err/eb {row['max_err_ratio']:.4f}"
            log(f"  {key:18s} {rel!s:7s} CR {row['cr']:8.2f} {psnr:>10s}{ratio}"
                f"  write {row['write_mbs']:7.1f} MB/s  read {row['read_mbs']:7.1f} MB/s  (x{reps})")
    return {"name": field.name, "shape": list(field.shape), "fill": field.fill, "source": field.source,
            "chunks": list(chunks), **st}, rows


def main():
    a = parse_args()
    peers = [p for p in a.peers.split(",") if p]
    for p in peers:
        if p not in compressors.PEERS:
            sys.exit(f"unknown peer {p}; known: {', '.join(compressors.PEERS)}")
    why = compressors.conflicts(peers)
    if why:
        sys.exit(why)
    # GLIDE_BACKEND is read once per process by the plugin, at its first use:
    # set it before any (conflicts() made sure the peers agree on it)
    backend = "gpu" if any(compressors.PEERS[p].backend == "gpu" for p in peers) else "cpu"
    os.environ["GLIDE_BACKEND"] = backend
    # The plugin says on stderr, once, when it falls back from the GPU to the
    # CPU; catch that so that no CPU timing is ever labelled GPU.
    err_capture = None
    if backend == "gpu":
        err_capture = (tempfile.TemporaryFile(), os.dup(2))
        os.dup2(err_capture[0].fileno(), 2)
    if any(compressors.PEERS[p].needs_hdf5plugin for p in peers):
        import hdf5plugin  # noqa: F401  registers its filters with this h5py's HDF5
    import h5py
    import numpy as np
    from h5py import h5z

    missing = []
    for p in peers:
        fid = compressors.PEERS[p].params(1.0)[0]
        if fid is not None and not h5z.filter_avail(fid):
            missing.append(f"{p} (filter {fid})")
    if missing:
        sys.exit("filters not available to this HDF5: " + ", ".join(missing)
                 + f"; HDF5_PLUGIN_PATH={os.environ.get('HDF5_PLUGIN_PATH', '')}")

    def log(msg):
        print(msg, flush=True)

    fl = []
    kinds = a.fields.split(",")
    if "real" in kinds:
        fl += F.real_fields(a.data) + F.enzo_fields(a.data)
    if "nyx" in kinds:
        if not a.nyx_dir:
            sys.exit("--nyx-dir is needed for nyx fields")
        fl += F.nyx_fields(a.nyx_dir, a.nyx_n)
    if a.only:
        keys = a.only.split(",")
        fl = [f for f in fl if any(k in f.name for k in keys)]
    real_bounds = [float(b) for b in a.bounds.split(",")]
    nyx_bounds = [float(b) for b in a.nyx_bounds.split(",")]

    t_start = time.time()
    meta = {"machine": a.machine or machine_name(), "commit": git_commit(),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "peers": peers,
            "glide_backend": backend, "python": platform.python_version(), "h5py": h5py.__version__,
            "hdf5": h5py.version.hdf5_version, "numpy": np.__version__,
            "hdf5_plugin_path": os.environ.get("HDF5_PLUGIN_PATH", "")}
    if any(compressors.PEERS[p].needs_hdf5plugin for p in peers):
        meta["hdf5plugin"] = sys.modules["hdf5plugin"].version
    log(f"measure: {', '.join(peers)} | {meta['machine']} | h5py {meta['h5py']} HDF5 {meta['hdf5']}")
    infos, rows = [], []
    for field in fl:
        gen = field.name.startswith("generated/")
        log(f"{field.name} {field.shape}")
        if gen:
            bounds, reps_of = nyx_bounds, (lambda rel: reps_for(a.nyx_reps, rel))
            chunks = F.chunks_for(field.shape, a.nyx_chunk)
        else:
            bounds, reps_of = real_bounds, (lambda rel: a.reps)
            chunks = F.chunks_for(field.shape)
        info, r = measure_field(h5py, np, field, chunks, peers, bounds, reps_of, a.tmp, log)
        infos.append(info)
        rows += r
    meta["seconds"] = round(time.time() - t_start, 1)
    if err_capture:
        os.dup2(err_capture[1], 2)
        err_capture[0].seek(0)
        text = err_capture[0].read().decode(errors="replace")
        sys.stderr.write(text)
        meta["gpu_fallback"] = bool(re.search(r"glide.*(not available|on the CPU|using the CPU)", text))
        if meta["gpu_fallback"]:
            log("WARNING: the GLIDE plugin fell back to the CPU: these rows are NOT GPU rows")
    for r in rows:
        r["machine"] = meta["machine"]
        r["hdf5"] = meta["hdf5"]
        if meta.get("gpu_fallback"):
            r["status"] = "gpu fallback: ran on the CPU"
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump({"meta": meta, "fields": infos, "rows": rows}, f, indent=1)
    log(f"wrote {a.out}: {len(rows)} rows in {meta['seconds']} s")


if __name__ == "__main__":
    main()
