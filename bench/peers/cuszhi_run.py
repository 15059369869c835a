"""The peer compressor cuSZ-Hi (github.com/shixun404/cuSZ-Hi, its CLI `cuszhi`) on the fields of
the peer benchmark, side by side with GLIDE's rows: same fields, same bounds eb = rel x (max - min)
of the finite values. Its source stays outside this repository (bench/peers/cuszhi_build.sh builds
it from a carried copy).

Two steps:

  # CPU machine (needs h5py, through fields.py): the real fields without fill values, as raw
  # little-endian float32, C order, DIR/<name with / as __>_<d0>x<d1>x...>.f32 + DIR/manifest.json
  python3 bench/peers/cuszhi_run.py --export .devdata/cuszhi-fields

  # GPU machine (numpy only): every field x bound x scheme, compress + decompress with the CLI
  python3 bench/peers/cuszhi_run.py --bin build-cuszhi/cuszhi --fields .devdata/cuszhi-fields \
      --nyx-n 512 --out $OUT/cuszhi.json

--nyx-n N also measures the generated Nyx-like fields of the peer benchmark (nyx_gen.c, seed 1, as
run.sh and run_device.sh make them), built with cc and written under --work (or taken from
--nyx-dir where already there): N^3 float32 is too big to carry.

Per field, bound and scheme (-s cr: Huffman, -s tp: Huffman-free), the CLI runs as its README
says: `cuszhi -z -t f32 -m r2r -e REL --dim3 XxYxZ --predictor spline3 -s cr|tp --report time,cr
-i F` and `cuszhi -x -i F.cusza --report time`. -m r2r, not -m abs with the same eb: cuSZ-Hi
computes eb = REL x (max - min) itself (the same number: the fields have no fill or non-finite
values; the eb it used is read back from its header and recorded as eb_used), and its auto-tuning
sets the spline parameter alpha from REL; with -m abs REL is 0 to it and alpha falls to its
smallest-bound setting, so -m abs would measure it in a configuration its authors do not use.
--eb-mode abs runs it that way anyway (-m abs -e eb).

Fields of more than 3 dimensions are given as 3-D, leading axes merged (WRF's 4x14x48x48 ->
56x48x48); 2-D fields as 2-D (--dim3 XxY, X the fastest axis).

Recorded per row: CR = raw bytes / size of the .cusza file (cr_reported: the CLI's own, which
also counts raw bytes over the archive), max |x - x'| / eb over the decompressed file (numpy),
PSNR, and the throughputs the CLI reports: GB/s = raw bytes / 1e9 / the sum of its timed stages
(its "(total)" row: CUDA-event kernel times, plus with -s cr the Huffman codebook it builds on the
host; H2D/D2H copies of the field, file I/O and CUDA start-up not included).
Medians over --reps runs (separate processes, each one compression and one decompression, each
process timing its first and only call: no warm-up inside the CLI; CUDA_MODULE_LOADING=EAGER
keeps lazy kernel loading out of the event timings). A run that exits nonzero, times out, leaves
no output or output of the wrong size is a row with ok=false and the tail of its output.

GLIDE in the same run (cuszhi_glide.py), with --glide-plugin DIR (its libh5z_glide.so): per field
and bound, after cuSZ-Hi's rows, GLIDE through h5py with GLIDE_BACKEND=--glide-backend (default
gpu), ABS mode with the same eb (compressors.glide_abs), the field as one chunk ("whole") and in
fields.py's chunks of at most 64 per axis ("chunks64"); CR from the dataset's storage size, max
err/eb and PSNR as above, HDF5 write/read MB/s. --glide-bench BIN runs `BIN --kernels`
(glide_gpu_bench) once first, for GLIDE's kernel-only GB/s in the same JSON. Rows carry
"compressor": cuszhi, glide, glide_gpu_bench or meta. At the end the side-by-side table is printed
and written beside --out (same name, .md). --no-cuszhi: GLIDE only.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cuszhi_glide as G  # noqa: E402  (imports h5py only when its leg is set up)

ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
BLOCK = 1 << 24  # values per block when scanning (keeps a 512^3 field's temporaries small)
NYX_KINDS = ("density", "temperature", "velocity")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
ROW = re.compile(r"^\s*(\(?[A-Za-z][\w\-]*\)?)\s+([0-9.eE+\-]+)\s+([0-9.eE+\-]+|inf|nan|-?nan)\s*$")


# ----------------------------------------------------------------------------- export (CPU)
def export(args):
    sys.path.insert(0, HERE)
    import fields as F  # needs h5py

    os.makedirs(args.export, exist_ok=True)
    manifest, total = [], 0
    for f in F.real_fields(args.data):
        if args.only and not any(s in f.name for s in args.only.split(",")):
            continue
        if f.fill is not None:
            print(f"skip {f.name}: has fill value {f.fill:g}")
            continue
        x = f.load()
        bad = int(x.size - np.count_nonzero(np.isfinite(x)))
        if bad:
            print(f"skip {f.name}: {bad} non-finite values")
            continue
        fn = f"{f.name.replace('/', '__')}_{'x'.join(map(str, f.shape))}.f32"
        x.astype("<f4").tofile(os.path.join(args.export, fn))
        total += x.nbytes
        manifest.append({"field": f.name, "dims": list(f.shape), "file": fn,
                         "source": os.path.basename(f.source)})
        print(f"{fn:60s} {x.nbytes / 2**20:7.2f} MiB")
    with open(os.path.join(args.export, "manifest.json"), "w") as fh:
        json.dump(manifest, fh, indent=1)
    print(f"{len(manifest)} fields, {total / 2**20:.1f} MiB in {args.export}")


# ----------------------------------------------------------------------------- fields (GPU side)
def list_fields(d):
    """[(name, C shape, path)] from DIR/manifest.json, else from the file names."""
    out = []
    man = os.path.join(d, "manifest.json")
    if os.path.exists(man):
        with open(man) as fh:
            for m in json.load(fh):
                out.append((m["field"], tuple(m["dims"]), os.path.join(d, m["file"])))
        return out
    for fn in sorted(os.listdir(d)):
        m = re.match(r"(.+)_(\d+(?:x\d+)*)\.f32$", fn)
        if m:
            out.append((m.group(1).replace("__", "/"), tuple(int(s) for s in m.group(2).split("x")),
                        os.path.join(d, fn)))
    return out


def nyx_fields(n, nyx_dir, work):
    """The generated Nyx-like fields (nyx_gen.c, seed 1), made here where missing."""
    d = nyx_dir or os.path.join(work, "nyx")
    os.makedirs(d, exist_ok=True)
    paths = {k: os.path.join(d, f"nyx_{k}_{n}.f32") for k in NYX_KINDS}
    missing = [k for k, p in paths.items() if not os.path.exists(p) or os.path.getsize(p) != 4 * n ** 3]
    if missing:
        gen = os.path.join(work, "nyx_gen")
        if not os.path.exists(gen):
            subprocess.run(["cc", "-O2", "-std=gnu11", "-ffp-contract=off", "-I" + os.path.join(ROOT, "examples"),
                            os.path.join(HERE, "nyx_gen.c"), os.path.join(ROOT, "examples", "nyx_field.c"),
                            "-lm", "-o", gen], check=True)
        t0 = time.time()
        procs = [subprocess.Popen([gen, str(n), "1", d, k]) for k in missing]
        if any(p.wait() != 0 for p in procs):
            raise SystemExit("nyx_gen failed")
        print(f"generated Nyx-like {n}^3 {','.join(missing)} in {time.time() - t0:.0f} s")
    return [(f"generated/nyx_{k}_{n}", (n, n, n), paths[k]) for k in NYX_KINDS]


def xyz(shape):
    """C shape -> cuSZ-Hi's lengths, fastest first, at most 3 (leading axes merged)."""
    s = [int(v) for v in shape]
    if len(s) > 3:
        s = [int(np.prod(s[:-2]))] + s[-2:]
    return list(reversed(s))


def stats(path, n):
    x = np.fromfile(path, dtype="<f4")
    if x.size != n:
        raise SystemExit(f"{path}: {x.size} values, expected {n}")
    lo, hi = np.inf, -np.inf
    for i in range(0, x.size, BLOCK):
        a = x[i:i + BLOCK]
        a = a[np.isfinite(a)]
        if a.size:
            lo, hi = min(lo, float(a.min())), max(hi, float(a.max()))
    return x, lo, hi


def errors(x, y, eb, rng):
    maxe, se, n = 0.0, 0.0, 0
    for i in range(0, x.size, BLOCK):
        a, b = x[i:i + BLOCK], y[i:i + BLOCK]
        m = np.isfinite(a)
        d = np.abs(b[m].astype(np.float64) - a[m])
        if d.size:
            maxe = max(maxe, float(np.inf if np.isnan(d).any() else d.max()))
            se += float(np.square(d[np.isfinite(d)]).sum())
            n += d.size
    mse = se / n if n else 0.0
    psnr = None if mse == 0 or rng <= 0 else float(20 * np.log10(rng) - 10 * np.log10(mse))
    return {"max_err": maxe, "max_err_over_eb": maxe / eb if eb > 0 else None, "psnr": psnr}


# ----------------------------------------------------------------------------- the CLI
def run_cli(cmd, timeout):
    t0 = time.perf_counter()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=timeout)
        rc, out = r.returncode, ANSI.sub("", r.stdout + r.stderr)
    except subprocess.TimeoutExpired as e:
        rc = "timeout"
        out = ANSI.sub("", (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes)
                       else (e.stdout or ""))
    return rc, out, time.perf_counter() - t0


def parse_report(out, marker):
    """Kernel rows {name: ms} of the time table after `marker`, and the CLI's CR."""
    i = out.find(marker)
    kern, cr = {}, None
    if i < 0:
        return kern, cr
    for line in out[i:].splitlines():
        m = ROW.match(line)
        if m and "::" not in m.group(1):
            kern[m.group(1)] = float(m.group(2))
        m = re.match(r"^\s*psz::comp::review::CR\s+([0-9.eE+\-]+)", line)
        if m:
            cr = float(m.group(1))
    return kern, cr


def read_header(path):
    """x, y, z, eb and the tuned alpha from the .cusza header (psz_header in include/header.h,
    offsets as g++ lays it out on x86-64: bit fields and a bool in 4 bytes, vle_pardeg at 4,
    x, y, z, w at 8, dtype at 24, eb at 32, entry[6] at 48 (entry[5] = archive bytes),
    pred_type at 72, intp_param.alpha at 80; 128 bytes)."""
    with open(path, "rb") as fh:
        h = fh.read(96)
    if len(h) < 96:
        return {}
    x, y, z, w = struct.unpack_from("<4I", h, 8)
    eb = struct.unpack_from("<d", h, 32)[0]
    total = struct.unpack_from("<6I", h, 48)[5]
    alpha = struct.unpack_from("<d", h, 80)[0]
    return {"x": x, "y": y, "z": z, "eb": eb, "archive_bytes": total, "alpha": alpha}


def tail(s, n=1500):
    return s[-n:]


def measure(args, name, shape, path, x, lo, hi, rel, mode, device):
    lens = xyz(shape)
    raw = x.nbytes
    rng = hi - lo
    eb = rel * rng
    row = {"compressor": "cuszhi", "field": name, "dims": list(shape), "cuszhi_dims": "x".join(map(str, lens)),
           "rel": rel, "eb": eb, "mode": mode, "eb_mode": args.eb_mode, "ok": False, "cr": None,
           "max_err_over_eb": None, "comp_GBps": None, "decomp_GBps": None, "device": device}
    wd = os.path.join(args.work, "run")
    shutil.rmtree(wd, ignore_errors=True)
    os.makedirs(wd)
    inp = os.path.join(wd, "in.f32")
    os.symlink(os.path.abspath(path), inp)
    arc, dec = inp + ".cusza", inp + ".cuszx"
    bound = ["-m", "r2r", "-e", repr(rel)] if args.eb_mode == "r2r" else ["-m", "abs", "-e", repr(eb)]
    zcmd = [args.bin, "-z", "-t", "f32"] + bound + ["--dim3", row["cuszhi_dims"], "--predictor", "spline3",
                                                     "-s", mode, "--report", "time,cr", "-i", inp] + args.extra
    xcmd = [args.bin, "-x", "-i", arc, "--report", "time"]
    row["cuszhi_flags"] = " ".join(zcmd[1:]).replace(inp, "F") + " ; " + " ".join(xcmd[1:]).replace(inp, "F")
    comp, decomp, cwall, xwall = [], [], [], []
    try:
        for rep in range(args.reps):
            for p in (arc, dec):
                if os.path.exists(p):
                    os.remove(p)
            rc, out, w = run_cli(zcmd, args.timeout)
            if rc != 0 or not os.path.exists(arc):
                row["error"] = f"compression: exit {rc}" + ("" if os.path.exists(arc) else ", no .cusza")
                row["stderr_tail"] = tail(out)
                return row
            kern, cr_rep = parse_report(out, "(c) COMPRESSION REPORT")
            if "(total)" not in kern:
                row["error"], row["stderr_tail"] = "compression: no (total) time in the report", tail(out)
                return row
            comp.append(kern)
            cwall.append(w)
            if rep == 0:
                row["cr_reported"] = cr_rep
                row["compressed_bytes"] = os.path.getsize(arc)
                row["cr"] = raw / row["compressed_bytes"]
                h = read_header(arc)
                if (h.get("x"), h.get("y"), h.get("z")) == tuple(lens + [1] * (3 - len(lens))):
                    row["eb_used"], row["alpha"] = h["eb"], h["alpha"]
                    row["archive_bytes_header"] = h["archive_bytes"]
                else:
                    row["header_note"] = f"header not as expected: {h}"
            rc, out, w = run_cli(xcmd + ([] if rep == 0 else ["--skip", "write2disk"]), args.timeout)
            if rc != 0 or (rep == 0 and not os.path.exists(dec)):
                row["error"] = f"decompression: exit {rc}" + ("" if rc != 0 else ", no .cuszx")
                row["stderr_tail"] = tail(out)
                return row
            kern, _ = parse_report(out, "(d) deCOMPRESSION REPORT")
            if "(total)" not in kern:
                row["error"], row["stderr_tail"] = "decompression: no (total) time in the report", tail(out)
                return row
            decomp.append(kern)
            xwall.append(w)
            if rep == 0:
                y = np.fromfile(dec, dtype="<f4")
                if y.size != x.size:
                    row["error"] = f"decompressed {y.size} values, expected {x.size}"
                    return row
                row.update(errors(x, y, eb, rng))
                del y
                os.remove(dec)
    finally:
        shutil.rmtree(wd, ignore_errors=True)

    def med(rs):
        names = [k for k in rs[0]]
        return {k: statistics.median(r.get(k, 0.0) for r in rs) for k in names}

    c, d = med(comp), med(decomp)
    row["comp_ms"], row["decomp_ms"] = c["(total)"], d["(total)"]
    row["comp_GBps"] = raw / 1e9 / (c["(total)"] * 1e-3) if c["(total)"] > 0 else None
    row["decomp_GBps"] = raw / 1e9 / (d["(total)"] * 1e-3) if d["(total)"] > 0 else None
    row["comp_kernels_ms"], row["decomp_kernels_ms"] = c, d
    row["comp_wall_s"], row["decomp_wall_s"] = statistics.median(cwall), statistics.median(xwall)
    row["reps"] = args.reps
    row["ok"] = True
    return row


def gpu_name():
    try:
        r = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                           capture_output=True, text=True, timeout=30)
        return r.stdout.strip().splitlines()[0] if r.stdout.strip() else "unknown GPU"
    except (OSError, subprocess.SubprocessError):
        return "unknown GPU (no nvidia-smi)"


def fmt(v, f):
    return "-" if v is None else format(v, f)


def save(rows, out):
    tmp = out + ".tmp"
    with open(tmp, "w") as fh:
        json.dump(rows, fh, indent=1)
    os.replace(tmp, out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--export", metavar="DIR", help="CPU side: write the real fields as raw float32 to DIR and stop")
    ap.add_argument("--data", default=None, help="real-data HDF5 file (--export; default fields.data_file())")
    ap.add_argument("--bin", help="the cuszhi CLI (BUILD/cuszhi from cuszhi_build.sh)")
    ap.add_argument("--fields", help="folder written by --export")
    ap.add_argument("--nyx-n", type=int, default=0, help="also the 3 Nyx-like fields of N^3 (0: none)")
    ap.add_argument("--nyx-dir", help="folder with nyx_KIND_N.f32 already made (default WORK/nyx)")
    ap.add_argument("--only", default="", help="comma list of substrings: keep fields whose name has one")
    ap.add_argument("--rels", default="1e-2,1e-3,1e-4", help="relative bounds")
    ap.add_argument("--modes", default="cr,tp", help="cuSZ-Hi schemes (-s): cr, tp")
    ap.add_argument("--eb-mode", default="r2r", choices=("r2r", "abs"), help="how the bound is passed (see above)")
    ap.add_argument("--extra", default="", help="more compression flags, e.g. '-a rd-first'")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=300, help="seconds per CLI call")
    ap.add_argument("--deadline", type=float, default=0,
                    help="seconds: start no row after this (they are written as not run); 0: none")
    ap.add_argument("--work", default="build-cuszhi-work", help="scratch folder (archives, Nyx fields)")
    ap.add_argument("--out", help="JSON file of rows (and the side-by-side table in the same name .md)")
    ap.add_argument("--no-cuszhi", action="store_true", help="skip cuSZ-Hi (GLIDE's leg only; no --bin needed)")
    g = ap.add_argument_group("GLIDE's leg (cuszhi_glide.py), on when --glide-plugin is given")
    g.add_argument("--glide-plugin", metavar="DIR", help="folder of GLIDE's libh5z_glide.so (e.g. build-gpu/plugin)")
    g.add_argument("--glide-backend", default=os.environ.get("GLIDE_BACKEND") or "gpu",
                   choices=("gpu", "cpu", "auto"), help="GLIDE_BACKEND for the plugin (default: the env's, else gpu)")
    g.add_argument("--glide-chunkings", default="whole,chunks64", help="whole (one chunk), chunks64 (fields.py's)")
    g.add_argument("--glide-reps", type=int, default=1, help="HDF5 write/read repeats (times only; errors from the first)")
    g.add_argument("--glide-bench", metavar="BIN", help="glide_gpu_bench: run `BIN --kernels` once, first")
    g.add_argument("--glide-bench-timeout", type=float, default=300)
    args = ap.parse_args()
    args.extra = args.extra.split()

    if args.export:
        if args.data is None:
            sys.path.insert(0, HERE)
            import fields as F
            args.data = F.data_file()
        return export(args)
    if not (args.out and (args.fields or args.nyx_n)):
        ap.error("--out and --fields and/or --nyx-n are needed (or --export DIR)")
    if args.no_cuszhi and not args.glide_plugin:
        ap.error("--no-cuszhi without --glide-plugin measures nothing")
    if not args.no_cuszhi:
        if not args.bin:
            ap.error("--bin is needed (or --no-cuszhi)")
        if not os.access(args.bin, os.X_OK):
            raise SystemExit(f"{args.bin}: not an executable (build it with bench/peers/cuszhi_build.sh)")
    chunkings = [c for c in args.glide_chunkings.split(",") if c]
    for c in chunkings:
        if c not in G.CHUNKINGS:
            ap.error(f"--glide-chunkings: {c}? ({', '.join(G.CHUNKINGS)})")
    os.environ.setdefault("CUDA_MODULE_LOADING", "EAGER")
    args.work = os.path.abspath(args.work)
    os.makedirs(args.work, exist_ok=True)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    md_out = os.path.splitext(args.out)[0] + ".md"

    flist = list_fields(args.fields) if args.fields else []
    if args.nyx_n:
        flist += nyx_fields(args.nyx_n, args.nyx_dir, args.work)
    if args.only:
        flist = [f for f in flist if any(s in f[0] for s in args.only.split(","))]
    rels = [float(r) for r in args.rels.split(",")]
    modes = [] if args.no_cuszhi else args.modes.split(",")
    device = gpu_name()
    rows = []
    glide = None
    if args.glide_plugin:  # before anything imports h5py: the plugin reads GLIDE_BACKEND once
        glide = G.Glide(args.glide_plugin, args.glide_backend, args.work, args.glide_reps)
        rows.append(glide.meta())
        w = glide.warm_up(errors)
        print(f"GLIDE: {glide.plugin_dir}, GLIDE_BACKEND={glide.backend}, h5py {glide.h5py.__version__} "
              f"(HDF5 {glide.h5py.version.hdf5_version}); warm-up: {w}")
        rows[-1]["warm_up"] = w
    else:
        chunkings = []
    if not args.no_cuszhi:
        print(f"cuSZ-Hi: {args.bin}; {len(modes)} schemes, {args.reps} reps, -m {args.eb_mode}")
    print(f"{len(flist)} fields x {len(rels)} bounds; {device}")
    if args.glide_bench:
        print(f"running {args.glide_bench} --kernels ...", flush=True)
        b = G.run_bench(args.glide_bench, args.glide_bench_timeout, device)
        rows.append(b)
        save(rows, args.out)
        print(f"glide_gpu_bench --kernels: exit {b['rc']} in {b['wall_s']} s; 256^3 compress "
              f"{fmt(b['compress_GBps_256'], '.1f')} GB/s, decompress {fmt(b['decompress_GBps_256'], '.1f')} GB/s"
              + ("" if b["ok"] else f"; stderr: {b['stderr_tail'][-300:]}"), flush=True)

    t0 = time.time()
    print(f"{'field':26s} {'rel':>7s} {'s':>3s} {'CR':>8s} {'err/eb':>8s} {'PSNR':>6s} {'comp GB/s':>9s} {'dec GB/s':>9s}"
          f"   (GLIDE rows: G-w whole, G-c chunks; HDF5 write/read MB/s)")
    legs = [("cuszhi", m) for m in modes] + [("glide", c) for c in chunkings]
    for name, shape, path in flist:
        x, lo, hi = None, None, None
        for rel in rels:
            for comp, how in legs:
                tag = how if comp == "cuszhi" else {"whole": "G-w", "chunks64": "G-c"}[how]
                key = {"mode": how} if comp == "cuszhi" else {"chunking": how}
                if args.deadline and time.time() - t0 > args.deadline:
                    rows.append({"compressor": comp, "field": name, "dims": list(shape), "rel": rel, **key,
                                 "ok": False, "error": "not run: --deadline passed", "device": device})
                    print(f"{G.short(name):26s} {rel:7.0e} {tag:>3s} not run (--deadline)", flush=True)
                    continue
                if x is None:
                    x, lo, hi = stats(path, int(np.prod(shape)))
                eb = rel * (hi - lo)  # the bound both get (cuSZ-Hi -m r2r derives the same; see eb_used)
                try:
                    if comp == "cuszhi":
                        r = measure(args, name, shape, path, x, lo, hi, rel, how, device)
                    else:
                        r = G.measure(glide, name, shape, x, lo, hi, rel, eb, how, errors, device)
                except Exception as e:  # a bug here must not lose the rows measured so far
                    r = {"compressor": comp, "field": name, "dims": list(shape), "rel": rel, **key, "ok": False,
                         "error": f"runner: {type(e).__name__}: {e}", "device": device}
                rows.append(r)
                save(rows, args.out)
                if not r["ok"]:
                    print(f"{G.short(name):26s} {rel:7.0e} {tag:>3s} FAILED: {r.get('error')}", flush=True)
                elif comp == "cuszhi":
                    print(f"{G.short(name):26s} {rel:7.0e} {tag:>3s} {r['cr']:8.2f} {fmt(r['max_err_over_eb'], '8.4f')} "
                          f"{fmt(r['psnr'], '6.1f')} {fmt(r['comp_GBps'], '9.1f')} {fmt(r['decomp_GBps'], '9.1f')}",
                          flush=True)
                else:
                    print(f"{G.short(name):26s} {rel:7.0e} {tag:>3s} {r['cr']:8.2f} {fmt(r['max_err_over_eb'], '8.4f')} "
                          f"{fmt(r['psnr'], '6.1f')} {r['write_MBps']:7.0f}MB/s {r['read_MBps']:7.0f}MB/s "
                          f"{r['n_chunks']} chunk(s), GPU: {r['gpu_used'].split(':')[0].split(' (')[0]}", flush=True)
        del x
    save(rows, args.out)
    data = [r for r in rows if r.get("compressor") in ("cuszhi", "glide")]
    nok = sum(r["ok"] for r in data)
    over = [r for r in data if r["ok"] and r["max_err_over_eb"] is not None and r["max_err_over_eb"] > 1]
    print(f"{nok} of {len(data)} rows ok, {len(over)} over the bound; {time.time() - t0:.0f} s; wrote {args.out}")
    md = G.table(rows)
    with open(md_out, "w") as fh:
        fh.write(md)
    print("\n" + md + f"(also in {md_out})")


if __name__ == "__main__":
    main()
