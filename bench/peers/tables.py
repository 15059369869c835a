"""Reading results.json: which rows belong to which compressor, and the
Markdown tables that report.py puts into results.md and docs/PERFORMANCE.md."""
import math
import re
import statistics

import compressors

ORDER = ["none", "h5zzfp", "zfp", "sz3", "glide", "glide-custom", "glide-lorenzo",
         "glide-gpu", "glide-gpu-custom", "glide-gpu-lorenzo"]
HEADLINE_REL = 1e-3
NOT_RUN_GPU = ("not run: no GPU on this machine (bash bench/peers/run_device.sh on a GPU machine, then "
               "build-peers/venv/bin/python bench/peers/report.py --merge peers_device_gpu.json peers_device_cpu.json)")


def key_of(r):
    """Display identity of a row: the compressor, and the machine for the GPU host's CPU rows."""
    return r["compressor"] + ("@device" if r.get("role") == "device" and r.get("backend") != "gpu" else "")


def label_of(key):
    base, _, where = key.partition("@")
    lab = compressors.PEERS[base].label
    return lab + " (GPU host)" if where else lab


def ordered_keys(rows):
    keys = {key_of(r) for r in rows}
    order = ORDER + [k + "@device" for k in ORDER]
    return [k for k in order if k in keys]


def ok(r):
    return r["status"] == "ok"


def med(v):
    v = [x for x in v if x is not None]
    return statistics.median(v) if v else None


def pick(rows, key, field=None, rel="any"):
    out = [r for r in rows if key_of(r) == key and ok(r)]
    if field is not None:
        out = [r for r in out if r["field"] == field]
    if rel != "any":
        out = [r for r in out if r["rel"] is None or (rel is not None and abs(r["rel"] - rel) < 1e-12)]
    return out


def short(name):
    m = re.match(r"generated/nyx_(\w+)_(\d+)", name)
    if m:
        return f"Nyx {m.group(1)} {m.group(2)}³"
    if name.startswith("wrf_python/"):
        return "WRF " + name.rsplit("/", 1)[1]
    if name.startswith("vtk_data/tos"):
        return "tos (CMIP SST)"
    if name.startswith("iris_sample_data/"):
        return "UM theta"
    return name.rsplit("/", 1)[1]


# ---------------------------------------------------------------- formatting
def f_cr(v):
    return "–" if v is None else f"{v:.2f}" if v < 100 else f"{v:.0f}"


def f_psnr(v):
    return "lossless" if v is None else f"{v:.1f}"


def f_ratio(v):
    if v is None:
        return "–"
    # 4 decimals, but never print an excess over 1 as "1.0000"
    s = f"{v:.6f}" if 1 < v < 1.0001 else f"{v:.4f}" if v < 10 else f"{v:.4g}"
    return f"**{s}**" if v > 1 else s


def f_mbs(v):
    return "–" if v is None else f"{v:.0f}"


def f_us(v):
    return "–" if v is None else f"{v:.0f}" if v >= 10 else f"{v:.1f}"


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


# ---------------------------------------------------------------- tables
def gpu_missing(rows):
    return not any(r.get("backend") == "gpu" and ok(r) for r in rows)


def nyx_fields(res):
    return [f["name"] for f in res["fields"] if f["name"].startswith("generated/")]


def real_fields(res):
    return [f["name"] for f in res["fields"] if not f["name"].startswith(("generated/", "enzo/"))]


def enzo_fields(res):
    return [f["name"] for f in res["fields"] if f["name"].startswith("enzo/")]


def headline_nyx(res, rel=HEADLINE_REL):
    rows, nyx = res["rows"], nyx_fields(res)
    if not nyx:
        return "(no generated fields in this run)"
    head = ["compressor"] + [f"CR {short(n).split()[1]}" for n in nyx] + \
        [f"PSNR {short(n).split()[1]}" for n in nyx] + \
        ["max err/eb (worst)", "H5Dwrite MB/s", "H5Dread MB/s", "write µs/chunk", "read µs/chunk", "repeats"]
    out = []
    for k in ordered_keys(rows):
        rs = {n: (pick(rows, k, n, rel) or [None])[0] for n in nyx}
        got = [r for r in rs.values() if r]
        if not got:
            continue
        out.append([label_of(k)] + [f_cr(rs[n]["cr"]) if rs[n] else "–" for n in nyx]
                   + [f_psnr(rs[n]["psnr"]) if rs[n] else "–" for n in nyx]
                   + [f_ratio(max((r["max_err_ratio"] or 0) for r in got)) if got[0]["rel"] else "0",
                      f_mbs(med([r["write_mbs"] for r in got])), f_mbs(med([r["read_mbs"] for r in got])),
                      f_us(med([r["write_us_per_chunk"] for r in got])),
                      f_us(med([r["read_us_per_chunk"] for r in got])), str(got[0]["reps"])])
    if gpu_missing(rows):
        out.append(["GLIDE GPU", NOT_RUN_GPU] + [""] * (len(head) - 2))
    return table(head, out)


def headline_real(res, rel=HEADLINE_REL):
    rows, real = res["rows"], real_fields(res)
    head = ["compressor", "CR (median)", "bits/value (median)", "PSNR dB (median)", "max err/eb (worst: field)",
            "H5Dwrite MB/s (median)", "H5Dread MB/s (median)", "fields"]
    out = []
    for k in ordered_keys(rows):
        got = [r for n in real for r in pick(rows, k, n, rel)]
        if not got:
            continue
        worst = max(got, key=lambda r: r["max_err_ratio"] or 0)
        lossless = got[0]["rel"] is None
        out.append([label_of(k), f_cr(med([r["cr"] for r in got])), f"{med([r['bits_per_value'] for r in got]):.2f}",
                    "lossless" if lossless else f_psnr(med([r["psnr"] for r in got])),
                    "0" if lossless else f"{f_ratio(worst['max_err_ratio'])}: {short(worst['field'])}",
                    f_mbs(med([r["write_mbs"] for r in got])), f_mbs(med([r["read_mbs"] for r in got])),
                    str(len(got))])
    if gpu_missing(rows):
        out.append(["GLIDE GPU", NOT_RUN_GPU] + [""] * (len(head) - 2))
    return table(head, out)


def cr_by_bound(res, names, what):
    rows = res["rows"]
    rels = sorted({r["rel"] for r in rows if r["rel"] and r["field"] in names}, reverse=True)
    head = ["compressor"] + [f"{what} at {rel:.0e}" for rel in rels]
    out = []
    for k in ordered_keys(rows):
        if k.startswith("none"):
            continue
        cells = []
        for rel in rels:
            v = med([r["cr"] for n in names for r in pick(rows, k, n, rel)])
            p = med([r["psnr"] for n in names for r in pick(rows, k, n, rel)])
            cells.append("–" if v is None else f"{f_cr(v)} / {f_psnr(p)} dB")
        if any(c != "–" for c in cells):
            out.append([label_of(k)] + cells)
    return table(head, out)


def violations(res):
    bad = [r for r in res["rows"] if ok(r) and r["max_err_ratio"] is not None and r["max_err_ratio"] > 1]
    failed = [r for r in res["rows"] if not ok(r)]
    lines = []
    by = {}
    for r in bad:
        by.setdefault(key_of(r), []).append(r)
    for k in ordered_keys(bad):
        rs = by[k]
        worst = max(rs, key=lambda r: r["max_err_ratio"])
        fl = sorted({short(r["field"]) for r in rs})
        lines.append(f"- **{label_of(k)}** exceeds the bound it was asked for in {len(rs)} of "
                     f"{len(pick(res['rows'], k)) + 0} rows (fields: {', '.join(fl)}); worst "
                     f"max err/eb = {worst['max_err_ratio']:.4g} ({short(worst['field'])}, {worst['rel']:.0e}).")
    glide_bad = [r for r in bad if r["compressor"].startswith("glide")]
    glide_rows = [r for r in res["rows"] if ok(r) and r["compressor"].startswith("glide")]
    if glide_rows and not glide_bad:
        worst = max(r["max_err_ratio"] for r in glide_rows)
        lines.insert(0, f"- GLIDE (every variant, {len(glide_rows)} rows): max err/eb ≤ 1 everywhere "
                        f"(largest {worst:.6f}).")
    for r in failed:
        lines.append(f"- {label_of(key_of(r))} on {short(r['field'])} at {r['rel']}: {r['status']}")
    return "\n".join(lines) if lines else "- every compressor stayed within its bound in every row."


def fill_table(res):
    fl = [f for f in res["fields"] if f.get("fill") is not None]
    if not fl:
        return ""
    out = []
    for f in fl:
        for k in ordered_keys(res["rows"]):
            rs = [r for r in pick(res["rows"], k, f["name"]) if r["rel"] in (None, HEADLINE_REL)]
            for r in rs:
                fe = r.get("fill_max_err")
                out.append([short(f["name"]), label_of(k), "exact" if fe == 0 else f"max error {fe:.3g}",
                            f_ratio(r["max_err_ratio"]), f_psnr(r["psnr"]), f_cr(r["cr"])])
    return table(["field", "compressor", f"fill points back (rel {HEADLINE_REL:.0e})",
                  "max err/eb, non-fill points", "PSNR dB, non-fill", "CR"], out)


def dict_summary(res):
    d = res.get("dict")
    if not d or not d["rows"]:
        return "(no dictionary table in this run)"
    rels = sorted({r["rel"] for r in d["rows"]}, reverse=True)
    out = []
    for rel in rels:
        ls = [r["loss"][str(d["shipped"])] for r in d["rows"] if r["rel"] == rel]
        within = sum(1 for v in ls if v <= 3.0)
        worst = max((r for r in d["rows"] if r["rel"] == rel), key=lambda r: r["loss"][str(d["shipped"])])
        hd = hdf5_auto_loss(res, rel)
        out.append([f"{rel:.0e}", f"{statistics.median(ls):.2f}", f"{within} of {len(ls)}",
                    f"{worst['loss'][str(d['shipped'])]:.1f} ({short(worst['field'])})",
                    "–" if not hd else f"{statistics.median(hd.values()):.2f} / {max(hd.values()):.2f}"])
    return table(["bound", "dictionary loss %, median", "within 3 %", "worst %",
                  "HDF5 rows: default (auto) vs custom loss %, median / worst"], out)


def hdf5_auto_loss(res, rel):
    """CR loss of GLIDE's default (auto codebook) against the custom-book rows
    of the same HDF5 run, per field: the gap the auto mode leaves."""
    out = {}
    for n in [f["name"] for f in res["fields"]]:
        a, c = pick(res["rows"], "glide", n, rel), pick(res["rows"], "glide-custom", n, rel)
        if a and c:
            out[n] = 100 * (c[0]["cr"] - a[0]["cr"]) / c[0]["cr"]
    return out


def summary(res, rel=HEADLINE_REL):
    """A few sentences read off the tables (so that they follow the data)."""
    rows, out = res["rows"], []
    real, nyx = real_fields(res), nyx_fields(res)

    def cr(key, names):
        return med([r["cr"] for n in names for r in pick(rows, key, n, rel)])

    def mbs(key, names, what):
        return med([r[what] for n in names for r in pick(rows, key, n, rel)])

    for names, what in [(nyx, f"the {len(nyx)} Nyx-like fields"), (real, f"the {len(real)} real fields")]:
        g = cr("glide", names)
        if not names or g is None:
            continue
        parts = [f"GLIDE CPU {g:.1f}"]
        for k in ["sz3", "zfp", "h5zzfp", "glide-lorenzo", "glide-custom"]:
            v = cr(k, names)
            if v is not None:
                parts.append(f"{label_of(k)} {v:.1f} ({v / g:.2f}×)")
        out.append(f"- Median CR at rel {rel:.0e} over {what}: " + ", ".join(parts) + ".")
        w, r_ = mbs("glide", names, "write_mbs"), mbs("glide", names, "read_mbs")
        parts = [f"GLIDE CPU {w:.0f} / {r_:.0f}"]
        for k in ["sz3", "zfp", "h5zzfp", "glide-gpu"]:
            a, b = mbs(k, names, "write_mbs"), mbs(k, names, "read_mbs")
            if a is not None:
                parts.append(f"{label_of(k)} {a:.0f} / {b:.0f}")
        out.append(f"- H5Dwrite / H5Dread MB/s, medians over {what}: " + ", ".join(parts) + ".")
    spans = []
    for k in ["glide", "sz3", "zfp", "h5zzfp"]:
        rs = [r for n in real for r in pick(rows, k, n, rel)]
        if rs:
            lo, hi = min(rs, key=lambda r: r["write_mbs"]), max(rs, key=lambda r: r["write_mbs"])
            spans.append(f"{label_of(k)} {lo['write_mbs']:.0f} ({short(lo['field'])}, chunks "
                         f"{'×'.join(map(str, lo['chunks']))}) to {hi['write_mbs']:.0f} ({short(hi['field'])})")
    if spans:
        out.append("- H5Dwrite MB/s across the real fields depends on the chunk's shape and size: "
                   + "; ".join(spans) + ".")
    zfp = [r for r in rows if ok(r) and r["compressor"] in ("zfp", "h5zzfp") and r["max_err_ratio"] is not None
           and r.get("fill_frac", 0) == 0]
    if zfp:
        out.append(f"- ZFP's accuracy mode keeps well inside the tolerance (max err/eb ≤ "
                   f"{max(r['max_err_ratio'] for r in zfp):.2f} on the fields without fill values), so at the "
                   "same bound it spends more bits for a higher PSNR: "
                   "compare it with the others on the rate–distortion plot, not by CR at one bound.")
    big = {k: [r for r in rows if ok(r) and key_of(r) == k and r["cr"] > 32] for k in ("sz3", "glide")}
    if big["sz3"] or big["glide"]:
        out.append(f"- CR above 32 (past one bit a float32 value): SZ3 in {len(big['sz3'])} rows (zstd after its "
                   f"Huffman codes), GLIDE CPU in {len(big['glide'])} (format 8's run-coded planes).")
    out.extend(goal_lines(res))
    return "\n".join(out)


def goal_lines(res):
    """Issue 55's bar against SZ3: per bound, the geometric mean over every field of CR GLIDE CPU / CR SZ3 and
    the field furthest behind (fields where both ran)."""
    rows, out = res["rows"], []
    names = sorted({r["field"] for r in rows})
    for rel in sorted({r["rel"] for r in rows if r["rel"] is not None}, reverse=True):
        q = []
        for n in names:
            g, z = pick(rows, "glide", n, rel), pick(rows, "sz3", n, rel)
            if g and z and z[0]["cr"]:
                q.append((g[0]["cr"] / z[0]["cr"], n))
        if q:
            gm = math.exp(sum(math.log(v) for v, _ in q) / len(q))
            lo = min(q)
            out.append(f"- CR GLIDE CPU / SZ3 at rel {rel:.0e} over {len(q)} fields: geometric mean {gm:.2f}, "
                       f"least {lo[0]:.2f} ({short(lo[1])}).")
    return out


def fields_table(res):
    out = []
    for f in res["fields"]:
        gen = f["name"].startswith("generated/")
        ln = f" (ln: μ={f['ln_mean']:.3f}, σ={f['ln_std']:.3f})" if gen and "ln_mean" in f else ""
        out.append([short(f["name"]), "×".join(map(str, f["shape"])), "×".join(map(str, f["chunks"])),
                    f"{100 * f['fill_frac']:.1f} %", f"{f['min']:.4g}", f"{f['max']:.4g}", f"{f['mean']:.4g}",
                    f"{f['std']:.4g}{ln}"])
    return table(["field", "shape", "chunks", "fill", "min", "max", "mean", "std"], out)


def field_table(res, name):
    out = []
    for k in ordered_keys(res["rows"]):
        for r in sorted([r for r in res["rows"] if key_of(r) == k and r["field"] == name],
                        key=lambda r: -(r["rel"] or 1)):
            if not ok(r):
                out.append([label_of(k), f"{r['rel']:.0e}" if r["rel"] else "–", r["status"]] + [""] * 9)
                continue
            out.append([label_of(k), f"{r['rel']:.0e}" if r["rel"] else "–",
                        "–" if r["eb"] is None else f"{r['eb']:.4g}", f_cr(r["cr"]), f"{r['bits_per_value']:.3f}",
                        f_psnr(r["psnr"]), f_ratio(r["max_err_ratio"]), f_mbs(r["write_mbs"]), f_mbs(r["read_mbs"]),
                        f_us(r["write_us_per_chunk"]), f_us(r["read_us_per_chunk"]), str(r["reps"])])
    return table(["compressor", "rel", "eb (abs)", "CR", "bits/value", "PSNR dB", "max err/eb", "write MB/s",
                  "read MB/s", "write µs/chunk", "read µs/chunk", "repeats"], out)


def runs_list(res):
    out = []
    for m in res.get("cpu_runs", []) + res.get("device_runs", []):
        extra = f", hdf5plugin {m['hdf5plugin']}" if "hdf5plugin" in m else ""
        fb = " — **GPU fell back to the CPU: not GPU rows**" if m.get("gpu_fallback") else ""
        out.append(f"- {', '.join(m['peers'])}: {m['machine']}; Python {m['python']}, h5py {m['h5py']}, "
                   f"HDF5 {m['hdf5']}{extra}; commit {m['commit']}, {m['date']}, {m['seconds']:.0f} s{fb}")
    return "\n".join(out)
