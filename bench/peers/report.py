"""Turns measure.py's JSON files into bench/peers/results.json (everything,
merged), bench/peers/results.md (every table), docs/plots/peers_*.png and the
"## Peers (bench/peers)" section at the end of docs/PERFORMANCE.md.

  report.py --combine A.json B.json --dict dict.md [--wall-s S]   # run.sh, CPU machine
  report.py --merge DEVICE.json [DEVICE2.json ...]                # fold in a GPU machine's rows
  report.py                                                       # re-render from results.json
Options --results, --md, --plots, --doc (--doc '' to leave the doc alone).
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)

import tables as T  # noqa: E402

SECTION = "## Peers (bench/peers)"


# ---------------------------------------------------------------- data
def load(path):
    with open(path) as f:
        return json.load(f)


def dump(res, path):
    """JSON with one row per line: small, and a rerun's diff shows which rows moved."""
    items = list(res.items())
    with open(path, "w") as f:
        f.write("{\n")
        for i, (k, v) in enumerate(items):
            if isinstance(v, list):
                f.write(f" {json.dumps(k)}: [\n" + ",\n".join("  " + json.dumps(x) for x in v) + "\n ]")
            else:
                f.write(f" {json.dumps(k)}: {json.dumps(v)}")
            f.write(",\n" if i + 1 < len(items) else "\n}\n")


def parse_dict_table(path):
    """glide_bench's 'dict' table: CR loss (%) of dictionaries of N books per
    family against a custom codebook, per field and REL bound, whole field."""
    sizes, rows = [], []
    with open(path) as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if line.startswith("| field |"):
                sizes = [int(c.split("/")[0]) for c in cells[3:] if re.fullmatch(r"\d+/family", c)]
            elif sizes and line.startswith("|") and not line.startswith("|---"):
                loss = [float(c) for c in cells[3:3 + len(sizes)]]
                rows.append({"field": cells[0], "rel": float(cells[1]), "custom_cr": float(cells[2]),
                             "loss": dict(zip(map(str, sizes), loss)), "ce32": float(cells[3 + len(sizes)])})
    return {"sizes": sizes, "shipped": 32, "rows": rows}


# ---------------------------------------------------------------- documents
def results_md(res, plots_rel):
    run = res.get("run", {})
    parts = ["# GLIDE and its peers through HDF5", "",
             f"Written by `{run.get('command', 'bash bench/peers/run.sh')}` (then `report.py --merge` for a GPU "
             f"machine's rows). Wall time of the CPU run: {run.get('wall_s', '?')} s (install and build included). "
             "Medians of the number of "
             "repeats given per row; errors from the first repeat.", "", "Runs:", T.runs_list(res), ""]
    if run.get("not_run"):
        parts += ["Not run on this machine:"] + [f"- {k}: {v}" for k, v in run["not_run"].items()] + [""]
    parts += ["## Summary", "", T.summary(res), "", "## Fields", "", T.fields_table(res), "",
              f"## Headline: Nyx-like fields, rel {T.HEADLINE_REL:.0e}", "", T.headline_nyx(res), "",
              f"## Real fields, rel {T.HEADLINE_REL:.0e}", "", T.headline_real(res), "",
              "## CR / PSNR by bound (median over the real fields)", "",
              T.cr_by_bound(res, T.real_fields(res), "CR / PSNR"), "",
              "## CR / PSNR by bound (median over the Enzo root-grid fields, 16³, big-endian on disk)", "",
              T.cr_by_bound(res, T.enzo_fields(res), "CR / PSNR") if T.enzo_fields(res) else "(not in this run)", "",
              "## CR / PSNR by bound (median over the Nyx-like fields)", "",
              T.cr_by_bound(res, T.nyx_fields(res), "CR / PSNR"), "",
              "## Bound check", "", T.violations(res), "", "## Fill values", "", T.fill_table(res), "",
              "## Dictionary vs custom codebook", "", T.dict_summary(res), ""]
    d = res.get("dict")
    if d and d["rows"]:
        sizes = d["sizes"]
        parts += ["### Dictionary size (CR loss %, glide_bench dict, whole field, REL bound)", "",
                  T.table(["field", "bound", "custom CR"] + [f"{s}/family" for s in sizes] + ["32/family CE score"],
                        [[T.short(r["field"]), f"{r['rel']:.0e}", f"{r['custom_cr']:.2f}"]
                         + [f"{r['loss'][str(s)]:.2f}" for s in sizes] + [f"{r['ce32']:.2f}"] for r in d["rows"]]), ""]
    parts += ["## Every row, per field", ""]
    for f in res["fields"]:
        parts += [f"### {f['name']}", "", T.field_table(res, f["name"]), ""]
    return "\n".join(parts)


def doc_section(res, plots_rel, results_rel):
    run = res.get("run", {})
    cpu = res.get("cpu_runs", [{}])[0]
    dev = [m for m in res.get("device_runs", []) if not m.get("gpu_fallback")]
    nyx = T.nyx_fields(res)
    gen = [f for f in res["fields"] if f["name"].startswith("generated/")]
    nyx_desc = f"{len(nyx)} generated Nyx-like fields of {gen[0]['shape'][0]}³" if gen else "no generated fields"
    reps = sorted({r["reps"] for r in res["rows"] if T.ok(r)})
    w = run.get("wall_s")
    wall = f"{w / 60:.1f} min ({w:.0f} s, install and build included)" if w else "?"
    lines = [
        SECTION, "",
        "GLIDE against what users pick today, through HDF5 exactly as users run it, in one run on the same "
        "data and the same absolute error bound. Every number and plot in this section comes from "
        "`bash bench/peers/run.sh` (CPU machine; it installs, builds, measures, and rewrites this section) "
        "and, for the GPU rows, `bash bench/peers/run_device.sh` on a GPU machine followed by "
        "`build-peers/venv/bin/python bench/peers/report.py --merge peers_device_gpu.json peers_device_cpu.json`. "
        f"All tables, every row: [bench/peers/results.md]({results_rel}).", "",
        f"- machine: {cpu.get('machine', '?')}; one process at a time, the filters are single-threaded",
        "- GPU rows: " + ("; ".join(sorted({f"{m['machine']}, commit {m.get('commit', '?')}" for m in dev}))
                          + ", " + ", ".join(sorted({m.get("date", "?") for m in dev})) if dev else T.NOT_RUN_GPU),
        f"- commit {cpu.get('commit', '?')}, {cpu.get('date', '?')}; wall time of the CPU run "
        f"{wall}; timings are medians of {'/'.join(map(str, reps))} repeats "
        "(per row in results.md)",
        f"- data: the {len(T.real_fields(res))} fields of real_fields_dev.h5, "
        f"{len(T.enzo_fields(res))} fields of the Enzo root grid (big-endian file, 16³) and {nyx_desc} "
        "(examples/nyx_field.h, statistics below)",
        "- bound: for each field and relative bound rel, eb = rel × (max − min) of the field's finite non-fill "
        "values, and every lossy compressor is asked for that ABSOLUTE eb: GLIDE ABS mode (eb as mantissa × "
        "10^−exponent, 6–7 digits, rounded down), H5Z-ZFP and hdf5plugin's ZFP accuracy mode (tolerance eb), "
        "hdf5plugin's SZ3 absolute mode. max err/eb is against the bound each was asked for, over the finite "
        "non-fill values",
        "- peers: no compression (chunked, no filter); H5Z-ZFP from Debian's hdf5-filter-plugin-zfp-serial "
        "under Debian's HDF5 and h5py; ZFP and SZ3 from hdf5plugin (PyPI) under a pip h5py wheel (its own HDF5); "
        "GLIDE CPU with its defaults (cd_values options 0), with the custom codebook (options 0x20: the "
        "seed paper's baseline) and with the Lorenzo predictor (options 0x01); GLIDE GPU, the same three. "
        "Versions per run are in results.md",
        "- I/O: one H5Dwrite of the whole field into a new file, timed with H5Dclose and H5Fclose (every chunk "
        "through the filter and handed to the OS); one H5Dread into a preallocated array. Files are in the page "
        "cache, so this is the filter's throughput through HDF5, not the disk's. µs/chunk = that time / number "
        "of chunks. Filters are set MANDATORY (h5py's default OPTIONAL would store a failing chunk raw)",
        "- chunks: 64³ for the Nyx-like fields; real fields are cut into equal chunks of at most 64 per axis "
        "(512 for 2-D fields), the same for every compressor. CR = raw bytes / H5Dget_storage_size",
        "- fill values: the dataset fill value is the field's _FillValue (tos: 1e20 on 31 % of the points) "
        "for every compressor, as netCDF-4 writes it; GLIDE keeps those points exact, the other codecs treat "
        "them as data", "",
        "What the numbers say (generated from the tables below):", "", T.summary(res), "",
        f"### Nyx-like fields, rel {T.HEADLINE_REL:.0e} (64³ chunks)", "", T.headline_nyx(res), "",
        f"![rate-distortion and throughput, Nyx-like density]({plots_rel}/peers_headline.png)", "",
        f"### Real fields, rel {T.HEADLINE_REL:.0e} (medians over the fields)", "", T.headline_real(res), "",
        "### Rate–distortion, every field (bit rate vs PSNR; GPU streams are byte-identical to the CPU's)", "",
        f"![rate-distortion per field]({plots_rel}/peers_rd.png)", "",
        "CR / PSNR by bound, medians over the real fields:", "",
        T.cr_by_bound(res, T.real_fields(res), "CR / PSNR"), "",
        "CR / PSNR by bound, medians over the 7 fields of the Enzo root grid (16³, read from the big-endian "
        "Enzo file; too small for timings to mean much, and not in the medians above):", "",
        T.cr_by_bound(res, T.enzo_fields(res), "CR / PSNR") if T.enzo_fields(res) else "(not in this run)", "",
        "### Throughput", "", f"![H5Dwrite and H5Dread MB/s]({plots_rel}/peers_throughput.png)", "",
        "### Bound check", "", T.violations(res), "",
        "Fill points (rel 1e-03; the other bounds are in results.md):", "", T.fill_table(res), "",
        "### Dictionary vs custom codebook (the seed paper's Fig. 7) and dictionary size (Fig. 6)", "",
        "From `glide_bench dict` (each field as one chunk, REL bound; the shipped dictionary has 32 books per "
        "family), and from this run's HDF5 rows (GLIDE default vs custom book, same chunks and ABS bound):", "",
        T.dict_summary(res), "",
        f"![CR loss of the dictionary against a custom codebook]({plots_rel}/peers_dict_loss.png)", "",
        f"![CR loss against dictionary size]({plots_rel}/peers_dict_size.png)", ""]
    if gen:
        lines += ["### The generated Nyx-like fields", "",
                  "`bench/peers/nyx_gen.c` writes the fields of examples/nyx_field.h (seed 1, as glide_bench): a "
                  "Gaussian random field g of unit variance from 48 random Fourier modes with P(k) ∝ k⁻³ "
                  "(|k| ≤ 12 per axis); density = exp(1.2 g) / mean (log-normal, σ(ln ρ) = 1.2 by construction), "
                  "temperature = 10⁴ ρ^0.6 (1 + 0.05 g₂) with a second field g₂, velocity = 10⁷ g (cm/s). The "
                  "three share g, as the physical fields share the density field. Measured statistics:", "",
                  T.table(["field", "min", "max", "mean", "std", "ln: mean, std"],
                        [[T.short(f["name"]), f"{f['min']:.4g}", f"{f['max']:.4g}", f"{f['mean']:.4g}",
                          f"{f['std']:.4g}", f"{f['ln_mean']:.3f}, {f['ln_std']:.3f}" if "ln_mean" in f else "–"]
                         for f in gen]), ""]
    return "\n".join(lines)


def write_doc_section(doc, text):
    with open(doc) as f:
        s = f.read()
    i = s.find("\n" + SECTION + "\n")
    if i < 0:
        s = s.rstrip("\n") + "\n\n" + text.rstrip("\n") + "\n"
    else:
        j = s.find("\n## ", i + len(SECTION) + 2)  # a later section, if someone adds one, is kept
        s = s[:i + 1] + text.rstrip("\n") + "\n" + (s[j:] if j >= 0 else "")
    with open(doc, "w") as f:
        f.write(s)


# ---------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--combine", nargs="*", help="measure.py JSON files of the CPU machine (replaces everything)")
    ap.add_argument("--dict", help="glide_bench dict output (Markdown)")
    ap.add_argument("--merge", nargs="*", help="measure.py JSON files of a GPU machine (replaces its rows)")
    ap.add_argument("--wall-s", type=float)
    ap.add_argument("--command", default="bash bench/peers/run.sh")
    ap.add_argument("--not-run", action="append", default=[], help="KEY=REASON for a peer this machine could not run")
    ap.add_argument("--results", default=os.path.join(HERE, "results.json"))
    ap.add_argument("--md", default=os.path.join(HERE, "results.md"))
    ap.add_argument("--plots", default=os.path.join(ROOT, "docs", "plots"))
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "PERFORMANCE.md"))
    a = ap.parse_args()

    if a.combine:
        res = {"cpu_runs": [], "device_runs": [], "fields": [], "rows": [], "dict": None,
               "run": {"command": a.command, "wall_s": a.wall_s,
                       "not_run": dict(kv.split("=", 1) for kv in a.not_run)}}
        seen = set()
        for p in a.combine:
            d = load(p)
            res["cpu_runs"].append(d["meta"])
            for f in d["fields"]:
                if f["name"] not in seen:
                    seen.add(f["name"])
                    res["fields"].append(f)
            res["rows"] += [dict(r, role="cpu") for r in d["rows"]]
        if a.dict:
            res["dict"] = parse_dict_table(a.dict)
    else:
        res = load(a.results)
    if a.merge:
        res["rows"] = [r for r in res["rows"] if r.get("role") != "device"]
        res["device_runs"] = []
        for p in a.merge:
            d = load(p)
            res["device_runs"].append(d["meta"])
            res["rows"] += [dict(r, role="device") for r in d["rows"]]
    if a.wall_s is not None:
        res["run"]["wall_s"] = a.wall_s

    os.makedirs(os.path.dirname(os.path.abspath(a.results)), exist_ok=True)
    dump(res, a.results)
    plots_rel_md = os.path.relpath(a.plots, os.path.dirname(os.path.abspath(a.md)))
    try:
        import plots
        made = plots.make_all(res, a.plots)
        print("plots:", ", ".join(made))
    except ImportError as e:
        print(f"no plots: {e} (pip install matplotlib)", file=sys.stderr)
    with open(a.md, "w") as f:
        f.write(results_md(res, plots_rel_md) + "\n")
    print("wrote", a.results, a.md)
    if a.doc:
        d = os.path.dirname(os.path.abspath(a.doc))
        write_doc_section(a.doc, doc_section(res, os.path.relpath(a.plots, d), os.path.relpath(a.md, d)))
        print("wrote section", repr(SECTION), "of", a.doc)


if __name__ == "__main__":
    main()
