"""GLIDE's leg of the cuSZ-Hi side by side (cuszhi_run.py imports it): the same fields and the same
absolute bound eb = rel x (max - min) as the cuSZ-Hi rows, through HDF5 as users run GLIDE (h5py,
the filter plugin from --glide-plugin DIR, GLIDE_BACKEND), plus glide_gpu_bench --kernels for the
throughput, and the Markdown side-by-side table.

Per field and bound, two chunkings: "whole" (the field as one chunk) and "chunks64" (fields.py's
chunks_for: at most 64 per axis, 512 for 2-D fields, equal parts per axis). Filter id and cd_values
are compressors.glide_abs(eb) (ABS mode, eb rounded down to 6-7 significant digits: eb_asked).
Per row: CR = raw bytes / dset.id.get_storage_size(), max |x - x'| / eb and PSNR over the finite
values (numpy), the chunks' stream format versions, the H5Dwrite (+ close) and H5Dread times (MB/s:
HDF5 end to end, not the kernel throughput; that is glide_gpu_bench's). Whether the GPU did the work
is told as far as this process can tell: libcuda loaded in it, and no fallback message from the
plugin or the library on stderr ("requested backend is not available", "the GPU failed on a
chunk": each said once per process, so after one, later rows are "unknown"). The chunks' format
versions are recorded but tell nothing of the backend (the GPU encoder writes format 8 too).

Alone, it rewrites the table from one or more JSON files of rows (say, a real-field run and a Nyx
run made in two calls):
  python3 bench/peers/cuszhi_glide.py --table a.json [b.json ...] [--md out.md]
"""
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compressors  # noqa: E402  (math and struct only; no h5py)

CHUNKINGS = ("whole", "chunks64")
FALLBACK = re.compile(r"glide.*(not available|GPU failed|on the CPU|using the CPU)", re.I)
H5_MAX_CHUNK = 2 ** 32 - 1  # bytes in one chunk, HDF5's limit


class Glide:
    """The process-wide GLIDE setup: plugin folder and backend go into the environment before h5py
    (and with it HDF5) is first imported, as the plugin reads GLIDE_BACKEND once per process."""

    def __init__(self, plugin_dir, backend, work, reps=1):
        self.plugin_dir = os.path.abspath(plugin_dir)
        lib = os.path.join(self.plugin_dir, "libh5z_glide.so")
        if not os.path.exists(lib):
            raise SystemExit(f"--glide-plugin {plugin_dir}: no libh5z_glide.so there")
        if "h5py" in sys.modules:
            print("note: h5py was imported before the GLIDE setup; HDF5_PLUGIN_PATH is prepended with h5pl")
        os.environ["HDF5_PLUGIN_PATH"] = self.plugin_dir + (
            os.pathsep + os.environ["HDF5_PLUGIN_PATH"] if os.environ.get("HDF5_PLUGIN_PATH") else "")
        os.environ["GLIDE_BACKEND"] = backend
        self.backend = backend
        import h5py
        import fields as F  # chunks_for (imports h5py too)

        self.h5py, self.F = h5py, F
        if not h5py.h5z.filter_avail(compressors.GLIDE_ID):
            h5py.h5pl.prepend(self.plugin_dir.encode())
        if not h5py.h5z.filter_avail(compressors.GLIDE_ID):
            raise SystemExit(f"GLIDE filter {compressors.GLIDE_ID} not available to h5py {h5py.__version__} "
                             f"(HDF5 {h5py.version.hdf5_version}) from {self.plugin_dir}")
        self.work = work
        self.reps = max(1, reps)
        self.path = os.path.join(work, f"glide_{os.getpid()}.h5")
        self.fallback_said = ""  # the plugin's fallback messages so far (each kind is said once)

    def meta(self):
        return {"compressor": "meta", "glide_plugin": self.plugin_dir, "glide_backend_env": self.backend,
                "h5py": self.h5py.__version__, "hdf5": self.h5py.version.hdf5_version,
                "glide_commit": git_commit(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}

    def warm_up(self, errors):
        """One untimed 64^3 write and read first, so that the GPU context's set-up (device, buffers,
        the dictionary on the device) is not in the first field's times; says what the plugin did."""
        import numpy as np

        n = 64
        i = np.arange(n, dtype=np.float32)
        x = (np.sin(i / 7)[:, None, None] + np.cos(i / 5)[None, :, None] * np.sin(i / 3)[None, None, :]).ravel()
        t0 = time.perf_counter()
        r = measure(self, "warm-up", (n, n, n), x, float(x.min()), float(x.max()), 1e-3,
                    1e-3 * float(x.max() - x.min()), "whole", errors, "")
        return {"ok": r["ok"], "s": round(time.perf_counter() - t0, 3), "cr": r.get("cr"),
                "max_err_over_eb": r.get("max_err_over_eb"), "gpu_used": r.get("gpu_used"),
                "error": r.get("error"), "glide_stderr": r.get("glide_stderr")}

    def chunks(self, shape, chunking):
        return tuple(int(s) for s in shape) if chunking == "whole" else self.F.chunks_for(shape)


class StderrCapture:
    """fd 2 into a file while the plugin runs (it writes with fprintf), echoed afterwards."""

    def __enter__(self):
        sys.stderr.flush()
        self.f = tempfile.TemporaryFile()
        self.saved = os.dup(2)
        os.dup2(self.f.fileno(), 2)
        return self

    def __exit__(self, *exc):
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.f.seek(0)
        self.text = self.f.read().decode(errors="replace")
        self.f.close()
        if self.text:
            sys.stderr.write(self.text)
            sys.stderr.flush()
        return False


def libcuda_loaded():
    try:
        with open("/proc/self/maps") as fh:
            return any("libcuda.so" in line for line in fh)
    except OSError:
        return None


def git_commit():
    try:
        r = subprocess.run(["git", "-C", HERE, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                           timeout=30)
        if r.returncode != 0:
            return "unknown"
        d = subprocess.run(["git", "-C", HERE, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True, timeout=30).stdout
        return r.stdout.strip() + (" + local changes" if d.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def chunk_formats(g, path):
    """{stream format version: chunks} from the first bytes of every stored chunk."""
    h5py = g.h5py
    out = {}
    with h5py.File(path, "r") as f:
        ds = f["x"].id
        locs = [ds.get_chunk_info(i) for i in range(ds.get_num_chunks())]
    with open(path, "rb") as fh:
        for c in locs:
            fh.seek(c.byte_offset)
            b = fh.read(5)
            k = str(b[4]) if len(b) == 5 and b[:4] == b"GLDE" else "not GLIDE"
            out[k] = out.get(k, 0) + 1
    return out


def write_read(g, x, y, chunks, fid, cd):
    """One H5Dwrite of the whole field (timed with the close) and one H5Dread; (w s, r s, stored bytes)."""
    from h5py import h5d, h5p, h5s, h5t, h5z

    h5py = g.h5py
    if os.path.exists(g.path):
        os.remove(g.path)
    f = h5py.File(g.path, "w")
    try:
        dcpl = h5p.create(h5p.DATASET_CREATE)
        dcpl.set_chunk(chunks)
        # MANDATORY: a filter that fails must fail the write, not store the chunk raw
        dcpl.set_filter(fid, h5z.FLAG_MANDATORY, cd)
        ds = h5d.create(f.id, b"x", h5t.IEEE_F32LE, h5s.create_simple(x.shape), dcpl=dcpl)
        t0 = time.perf_counter()
        ds.write(h5s.ALL, h5s.ALL, x)
        del ds
        f.close()
        t1 = time.perf_counter()
    except Exception as e:
        try:
            f.close()
        except Exception:
            pass
        raise RuntimeError(f"write: {e}".splitlines()[0][:300])
    f = h5py.File(g.path, "r")
    try:
        ds = f["x"].id
        t2 = time.perf_counter()
        ds.read(h5s.ALL, h5s.ALL, y)
        t3 = time.perf_counter()
        stored = ds.get_storage_size()
    except Exception as e:
        raise RuntimeError(f"read: {e}".splitlines()[0][:300])
    finally:
        f.close()
    return t1 - t0, t3 - t2, stored


def measure(g, name, shape, x, lo, hi, rel, eb, chunking, errors, device):
    """One GLIDE row: x is the field as read (flat float32), eb the cuSZ-Hi rows' bound."""
    import numpy as np

    shape = tuple(int(s) for s in shape)
    chunks = g.chunks(shape, chunking)
    fid, cd, eb_asked = compressors.glide_abs(eb)
    row = {"compressor": "glide", "chunking": chunking, "field": name, "dims": list(shape), "chunks": list(chunks),
           "n_chunks": g.F.n_chunks(shape, chunks), "rel": rel, "eb": eb, "eb_asked": eb_asked, "filter_id": fid,
           "cd_values": list(cd), "backend_env": g.backend, "ok": False, "cr": None, "max_err_over_eb": None,
           "device": device}
    if int(np.prod(chunks)) * 4 > H5_MAX_CHUNK:
        row["error"] = f"not run: a chunk of {int(np.prod(chunks)) * 4} bytes is over HDF5's 2^32-1"
        return row
    xs = x.reshape(shape)
    y = np.empty(shape, dtype=np.float32)
    y.fill(np.nan)  # errors must come from this row's output
    tw, tr, said = [], [], ""
    try:
        for rep in range(g.reps):
            with StderrCapture() as cap:
                w, r, stored = write_read(g, xs, y, chunks, fid, cd)
            said += cap.text
            tw.append(w)
            tr.append(r)
            if rep == 0:
                row["stored_bytes"] = stored
                row["cr"] = x.nbytes / stored
                try:
                    row["chunk_formats"] = chunk_formats(g, g.path)
                except Exception as e:  # older h5py/HDF5: no get_chunk_info
                    row["chunk_formats_error"] = f"{type(e).__name__}: {e}"[:200]
                row.update(errors(x, y.reshape(-1), eb, hi - lo))
                row["max_err_over_eb_asked"] = row["max_err"] / eb_asked if eb_asked > 0 else None
    except RuntimeError as e:
        row["error"] = str(e)
        row["glide_stderr"] = said[-1500:]
        return row
    finally:
        if os.path.exists(g.path):
            os.remove(g.path)
    mb = x.nbytes / 1e6
    row.update({"reps": g.reps, "write_s": tw, "read_s": tr, "write_MBps": mb / statistics.median(tw),
                "read_MBps": mb / statistics.median(tr), "glide_stderr": said[-1500:]})
    # did the GPU do it? (as far as this process can tell)
    fb = "\n".join(l for l in said.splitlines() if FALLBACK.search(l))
    if fb:
        g.fallback_said += fb + "\n"
    cuda = libcuda_loaded()
    row["libcuda_loaded"] = cuda
    if g.backend == "cpu":
        gpu = "no (GLIDE_BACKEND=cpu)"
    elif "not available" in g.fallback_said:  # said once, true for the whole process
        gpu = "no: " + next(l for l in g.fallback_said.splitlines() if "not available" in l).strip()
    elif fb:
        gpu = "partly: " + fb.splitlines()[0].strip()
    elif g.fallback_said:
        gpu = "unknown: the plugin said earlier in this process: " + g.fallback_said.splitlines()[0].strip()
    elif cuda:
        gpu = "yes (libcuda loaded, no fallback message)"
    else:
        gpu = "unknown (libcuda not loaded" + (", GLIDE_BACKEND=auto)" if g.backend == "auto" else ")")
    row["gpu_used"] = gpu
    row["ok"] = True
    return row


# ----------------------------------------------------------------------------- glide_gpu_bench --kernels
KROW = re.compile(r"^\|\s*(\d+)\S*\s*\|(.*)\|\s*$")


def parse_kernels(out):
    """Part 5's rows: {"256": {compress_GBps, decompress_GBps, compress_us, ...}} ({} where not run)."""
    i = out.find("## 5.")
    j = out.find("## 6.", i + 1) if i >= 0 else -1
    sec = out[i:j if j > 0 else len(out)] if i >= 0 else ""
    res = {}
    keys = ("MB", "runs", "compress_device_us", "compress_GBps", "decompress_device_us", "decompress_GBps",
            "compress_wall_us", "decompress_wall_us")
    for line in sec.splitlines():
        m = KROW.match(line.strip())
        if not m:
            continue
        cells = [c.strip() for c in m.group(2).split("|")]
        r = {}
        for k, c in zip(keys, cells):
            try:
                r[k] = float(c)
            except ValueError:
                if c:
                    r.setdefault("note", c)
        res[m.group(1)] = r
    m = re.search(r"Device-to-device cudaMemcpy[^*]*\*\*([0-9.]+) GB/s\*\*", sec)
    if m:
        res["d2d_GBps"] = float(m.group(1))
    return res, sec


def run_bench(binary, timeout, device):
    row = {"compressor": "glide_gpu_bench", "cmd": f"{binary} --kernels", "ok": False, "device": device}
    t0 = time.time()
    try:
        r = subprocess.run([binary, "--kernels"], capture_output=True, text=True, errors="replace", timeout=timeout)
        out, err, rc = r.stdout, r.stderr, r.returncode
    except subprocess.TimeoutExpired as e:
        def s(v):
            return v.decode(errors="replace") if isinstance(v, bytes) else (v or "")
        out, err, rc = s(e.stdout), s(e.stderr), "timeout"
    except OSError as e:
        out, err, rc = "", str(e), "not run"
    row["rc"], row["wall_s"] = rc, round(time.time() - t0, 1)
    parsed, sec = parse_kernels(out)
    row["kernels"], row["section5"] = parsed, sec
    row["stdout_tail"], row["stderr_tail"] = out[-20000:], err[-3000:]
    k = parsed.get("256", {})
    row["compress_GBps_256"] = k.get("compress_GBps")
    row["decompress_GBps_256"] = k.get("decompress_GBps")
    row["ok"] = rc == 0 and row["compress_GBps_256"] is not None
    return row


# ----------------------------------------------------------------------------- the side-by-side table
def short(name):
    m = re.match(r"generated/nyx_(\w+)_(\d+)", name)
    if m:
        return f"Nyx {m.group(1)} {m.group(2)}^3"
    if name.startswith("wrf_python/"):
        return "WRF " + name.rsplit("/", 1)[1]
    if name.startswith("iris_sample_data/"):
        return "UM theta"
    return name.rsplit("/", 1)[-1]


def gmean(v):
    v = [a for a in v if a and a > 0]
    return math.exp(sum(math.log(a) for a in v) / len(v)) if v else None


def f(v, spec):
    return "-" if v is None else format(v, spec)


def same(a, b):
    return a is not None and b is not None and abs(a - b) <= 1e-9 * max(abs(a), abs(b))


def table(rows):
    """Markdown: one table per bound, a summary line under each, the throughput comparison."""
    bench = [r for r in rows if r.get("compressor") == "glide_gpu_bench"]
    meta = [r for r in rows if r.get("compressor") == "meta"]
    data = [r for r in rows if r.get("compressor") in ("glide", "cuszhi", None)]
    fields, rels = [], []
    for r in data:
        if r["field"] not in fields:
            fields.append(r["field"])
        if not any(same(r["rel"], q) for q in rels):
            rels.append(r["rel"])

    def pick(field, rel, comp, key, val):
        """The last ok row of these (files merged after a rerun), else the last row."""
        m = [r for r in data if r["field"] == field and same(r["rel"], rel) and r.get(key) == val
             and (r.get("compressor") or "cuszhi") == comp]
        ok = [r for r in m if r.get("ok")]
        return (ok or m or [None])[-1]

    kern = next((b for b in reversed(bench) if b.get("compress_GBps_256") is not None), None)
    out = []
    if meta:
        m = meta[-1]
        out.append(f"GLIDE: plugin {m.get('glide_plugin')}, GLIDE_BACKEND={m.get('glide_backend_env')}, h5py "
                   f"{m.get('h5py')} (HDF5 {m.get('hdf5')}), commit {m.get('glide_commit')}, {m.get('date')}.")
    devs = sorted({r.get("device") for r in data if r.get("device")})
    if devs:
        out.append(f"Device: {', '.join(devs)}.")
    out.append("CR = raw bytes / stored bytes (GLIDE: HDF5 storage size; cuSZ-Hi: its .cusza file). "
               "GLIDE chunks: at most 64 per axis (512 for 2-D), equal parts. max err/eb over finite values, "
               "eb = rel x (max - min), the same eb for both.\n")
    for rel in rels:
        out.append(f"### rel {rel:g}\n")
        out.append("| field | CR GLIDE whole | CR GLIDE chunks | CR cuSZ-Hi CR-mode | CR cuSZ-Hi TP-mode | "
                   "GLIDE/cuSZ-Hi-CR (whole) | GLIDE/cuSZ-Hi-CR (chunks) | max err/eb (GLIDE whole / chunks / "
                   "cuSZ-Hi CR / TP) | GPU used (GLIDE) |")
        out.append("|---|---|---|---|---|---|---|---|---|")
        rw, rc, rwt, rct, n_ge, n_ge_w, n_cmp, bad, notrun = [], [], [], [], 0, 0, 0, [], 0
        over = {"glide": 0, "cuszhi": 0}
        for fld in fields:
            gw, gc = pick(fld, rel, "glide", "chunking", "whole"), pick(fld, rel, "glide", "chunking", "chunks64")
            zc, zt = pick(fld, rel, "cuszhi", "mode", "cr"), pick(fld, rel, "cuszhi", "mode", "tp")
            if not any((gw, gc, zc, zt)):
                continue

            def cr(r):
                return r["cr"] if r and r.get("ok") else None

            def cell(r):
                if r is None:
                    return "-"
                if not r.get("ok"):
                    return "failed" if "not run" not in str(r.get("error", "")) else "not run"
                return f"{r['cr']:.2f}"

            def err(r):  # never rounded up to 1 (or over it)
                e = r.get("max_err_over_eb") if r and r.get("ok") else None
                return "-" if e is None else f"**{e:.6f}**" if e > 1 else f"{math.floor(e * 1e4) / 1e4:.4f}"

            for r in (gw, gc, zc, zt):
                if r and r.get("ok"):
                    e = r.get("max_err_over_eb")
                    if e is not None and e > 1:
                        over[r.get("compressor") or "cuszhi"] += 1
                elif r and "not run" in str(r.get("error", "")):
                    notrun += 1
                elif r:
                    bad.append(f"{short(fld)} {r.get('chunking') or r.get('mode')}: {r.get('error')}")
            a, b, c, d = cr(gw), cr(gc), cr(zc), cr(zt)
            qw = a / c if a and c else None
            qc = b / c if b and c else None
            if qw:
                rw.append(qw)
                n_ge_w += qw >= 1
            if qc:
                rc.append(qc)
                n_ge += qc >= 1
                n_cmp += 1
            if a and d:
                rwt.append(a / d)
            if b and d:
                rct.append(b / d)
            gpu = {r.get("gpu_used", "").split(" ")[0].rstrip(":") for r in (gw, gc) if r and r.get("ok")}
            out.append(f"| {short(fld)} | {cell(gw)} | {cell(gc)} | {cell(zc)} | {cell(zt)} | {f(qw, '.2f')} | "
                       f"{f(qc, '.2f')} | {err(gw)} / {err(gc)} / {err(zc)} / {err(zt)} | "
                       f"{'/'.join(sorted(gpu)) or '-'} |")
        out.append("")
        out.append(f"rel {rel:g}: GLIDE (chunks) >= cuSZ-Hi-CR on {n_ge} of {n_cmp} fields "
                   f"(whole: {n_ge_w} of {len(rw)}); gmean GLIDE/cuSZ-Hi-CR whole {f(gmean(rw), '.3f')}, "
                   f"chunks {f(gmean(rc), '.3f')}; GLIDE/cuSZ-Hi-TP whole {f(gmean(rwt), '.3f')}, "
                   f"chunks {f(gmean(rct), '.3f')}; rows over the bound: GLIDE {over['glide']}, cuSZ-Hi {over['cuszhi']}"
                   + (f"; {notrun} rows not run (--deadline)" if notrun else "") + ".")
        for s in bad:
            out.append(f"- failed: {s}")
        # throughput: cuSZ-Hi's own stage timings vs GLIDE's kernel-only 256^3
        tp = []
        for mode in ("cr", "tp"):
            zs = [r for r in data if (r.get("compressor") or "cuszhi") == "cuszhi" and r.get("mode") == mode
                  and same(r["rel"], rel) and r.get("ok") and r.get("comp_GBps")]
            big = [r for r in zs if math.prod(r["dims"]) >= 2 ** 24]
            if zs:
                s = f"cuSZ-Hi {mode.upper()}-mode compression GB/s median {statistics.median(r['comp_GBps'] for r in zs):.1f}" \
                    f" ({len(zs)} fields)"
                if big:
                    s += f", {statistics.median(r['comp_GBps'] for r in big):.1f} over the {len(big)} of >= 256^3 values"
                tp.append((mode, s, statistics.median(r["comp_GBps"] for r in (big or zs))))
        if kern:
            k = kern["compress_GBps_256"]
            s = f"GLIDE kernel-only compression 256^3 (glide_gpu_bench --kernels, Nyx density, REL 1e-3): {k:.1f} GB/s"
            if kern.get("decompress_GBps_256") is not None:
                s += f" (decompression {kern['decompress_GBps_256']:.1f})"
            k512 = kern.get("kernels", {}).get("512", {}).get("compress_GBps")
            if k512 is not None:
                s += f"; 512^3: {k512:.1f} GB/s"
            ratios = [f"GLIDE/cuSZ-Hi-{mode.upper()} {k / v:.2f}x" for mode, _, v in tp if v]
            out.append(f"Throughput: {'; '.join(t[1] for t in tp) or 'no cuSZ-Hi timings'}; {s}"
                       + (f"; ratio (the larger fields' median where there are any): {', '.join(ratios)}" if ratios else "")
                       + ".")
        else:
            why = "no --glide-bench run"
            if bench:
                b = bench[-1]
                why = f"glide_gpu_bench exit {b.get('rc')}, no 256^3 GB/s" + (
                    f" ({b['kernels']['256']['note']})" if b.get("kernels", {}).get("256", {}).get("note") else "")
            out.append(f"Throughput: {'; '.join(t[1] for t in tp) or 'no cuSZ-Hi timings'}; GLIDE kernel-only: {why}.")
        out.append("")
    return "\n".join(out) + "\n"


def main():
    import argparse

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--table", nargs="+", required=True, metavar="JSON", help="JSON files of rows from cuszhi_run.py")
    ap.add_argument("--md", help="also write the Markdown here")
    a = ap.parse_args()
    rows = []
    for p in a.table:
        with open(p) as fh:
            rows += json.load(fh)
    md = table(rows)
    print(md)
    if a.md:
        with open(a.md, "w") as fh:
            fh.write(md)


if __name__ == "__main__":
    main()
