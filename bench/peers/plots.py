"""The PNG figures of the peer benchmark (matplotlib, no display needed).
Every figure is drawn from results.json only, through report.py."""
import os
import statistics

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import tables as R  # noqa: E402

# One colour and marker per compressor, the same in every figure. Pairs that
# often coincide (the two ZFP builds; GLIDE default and custom book) get one
# hollow, larger, dashed member so that both stay visible.
STYLE = {
    "none": ("#7f7f7f", "s"), "h5zzfp": ("#1f77b4", "o"), "zfp": ("#17becf", "v"), "sz3": ("#2ca02c", "^"),
    "glide": ("#d62728", "D"), "glide-custom": ("#ff7f0e", "o"), "glide-lorenzo": ("#9467bd", "X"),
    "glide-gpu": ("#8c0000", "D"), "glide-gpu-custom": ("#b35900", "o"), "glide-gpu-lorenzo": ("#5c3d99", "X"),
}
HOLLOW = {"h5zzfp", "glide-custom", "glide-gpu-custom"}
BOUND_COLORS = ["#08306b", "#2b8cbe", "#e6550d", "#fdae6b"]  # 1e-2 ... 1e-5
PSNR_FLOOR = 20.0  # lower y limit of RD panels; points below are listed in the panel


def style(key):
    base = key.split("@")[0]
    c, m = STYLE.get(base, ("#000000", "o"))
    return c, m


def line_kw(key):
    c, m = style(key)
    if key.split("@")[0] in HOLLOW:
        return dict(color=c, marker=m, ms=9, mfc="none", mew=1.6, lw=1.2, ls="--")
    return dict(color=c, marker=m, ms=5, lw=1.4)


def log_bits_axis(ax):
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(LogLocator(base=2))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())


def lossy_cpu_keys(rows):
    # GPU streams are byte-identical to the CPU's: their RD points coincide
    return [k for k in R.ordered_keys(rows) if not k.startswith("none") and "gpu" not in k and "@" not in k]


def rd_panel(ax, res, name, keys, title=True):
    low = []
    for k in keys:
        rs = sorted(R.pick(res["rows"], k, name), key=lambda r: r["bits_per_value"])
        rs = [r for r in rs if r["psnr"] is not None]
        if not rs:
            continue
        ax.plot([r["bits_per_value"] for r in rs], [r["psnr"] for r in rs], label=R.label_of(k), **line_kw(k))
        lo = [r for r in rs if r["psnr"] < PSNR_FLOOR]
        if lo:
            p = [r["psnr"] for r in lo]
            b = [r["bits_per_value"] for r in lo]
            low.append(f"{R.label_of(k)}: {min(p):.0f}..{max(p):.0f} dB at {min(b):.1f}..{max(b):.1f} bits")
    log_bits_axis(ax)
    ax.grid(True, which="both", alpha=0.3)
    if low:  # e.g. ZFP on a field with 1e20 fill values: keep the others readable
        ax.set_ylim(bottom=PSNR_FLOOR)
        ax.text(0.98, 0.02, "below the axis:\n" + "\n".join(low), transform=ax.transAxes, ha="right",
                va="bottom", fontsize=7, color="#1f77b4")
    if title:
        ax.set_title(R.short(name), fontsize=10)


def fig_rd(res, out):
    names = [f["name"] for f in res["fields"]]
    keys = lossy_cpu_keys(res["rows"])
    n = len(names)
    cols = 4 if n > 6 else n
    rows = -(-n // cols)
    fig, axs = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.3 * rows + 0.8), squeeze=False)
    for i, name in enumerate(names):
        ax = axs[i // cols][i % cols]
        rd_panel(ax, res, name, keys)
        if i % cols == 0:
            ax.set_ylabel("PSNR (dB)")
        if i // cols == rows - 1 or i + cols >= n:
            ax.set_xlabel("bits per value")
    for j in range(n, rows * cols):
        axs[j // cols][j % cols].axis("off")
    h, l = axs[0][0].get_legend_handles_labels()
    fig.suptitle("Rate-distortion through HDF5, the same absolute bound for all (rel 1e-2 ... 1e-5); "
                 "up and left is better", y=0.995, fontsize=12)
    fig.legend(h, l, loc="upper center", bbox_to_anchor=(0.5, 0.975), ncol=len(l), frameon=False, fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    fig.savefig(out, dpi=90)
    plt.close(fig)


def thr_values(res, names, rel):
    out = []
    for k in R.ordered_keys(res["rows"]):
        rs = [r for n in names for r in R.pick(res["rows"], k, n, rel)]
        if rs:
            out.append((k, R.med([r["write_mbs"] for r in rs]), R.med([r["read_mbs"] for r in rs])))
    return out


def thr_panel(ax, res, vals, title):
    labels = [R.label_of(k) for k, _, _ in vals]
    y = range(len(vals))
    w = [v[1] for v in vals]
    r = [v[2] for v in vals]
    ax.barh([i - 0.2 for i in y], w, height=0.4, color=[style(k)[0] for k, _, _ in vals], label="H5Dwrite")
    ax.barh([i + 0.2 for i in y], r, height=0.4, color=[style(k)[0] for k, _, _ in vals], alpha=0.45,
            hatch="//", label="H5Dread")
    for i in y:
        ax.text(w[i], i - 0.2, f" {w[i]:.0f}", va="center", fontsize=8)
        ax.text(r[i], i + 0.2, f" {r[i]:.0f}", va="center", fontsize=8)
    if R.gpu_missing(res["rows"]):
        labels.append("GLIDE GPU")
        ax.text(0, len(vals), "  not run (no GPU on this machine)", va="center", fontsize=9, style="italic")
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels)
    ax.invert_yaxis()
    ax.set_xlabel("MB/s (raw float32 bytes / time), median")
    ax.set_title(title, fontsize=10)
    ax.grid(True, axis="x", alpha=0.3)
    ax.set_xlim(0, max(w + r) * 1.18)


def fig_throughput(res, out):
    nyx, real = R.nyx_fields(res), R.real_fields(res)
    panels = [(nyx, f"Nyx-like {len(nyx)} fields, 64³ chunks, rel {R.HEADLINE_REL:.0e}"),
              (real, f"{len(real)} real fields, rel {R.HEADLINE_REL:.0e} (small: overheads count)")]
    panels = [(n, t) for n, t in panels if n]
    fig, axs = plt.subplots(1, len(panels), figsize=(7.5 * len(panels), 5.2), squeeze=False)
    for ax, (names, title) in zip(axs[0], panels):
        thr_panel(ax, res, thr_values(res, names, R.HEADLINE_REL), title)
    axs[0][0].legend(loc="lower right", fontsize=9)
    fig.suptitle("Throughput through HDF5 (one H5Dwrite / H5Dread of the whole field, "
                 "single-threaded filters)", fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    plt.close(fig)


def loss_panel(ax, names, rels, loss, title, clip=20.0):
    """Grouped horizontal bars: one group per field, one bar per bound."""
    h = 0.8 / len(rels)
    for j, rel in enumerate(rels):
        ys = [i - 0.4 + h * (j + 0.5) for i in range(len(names))]
        vs = [loss.get((n, rel)) for n in names]
        ax.barh(ys, [min(v, clip) if v is not None else 0 for v in vs], height=h,
                color=BOUND_COLORS[j % len(BOUND_COLORS)], label=f"{rel:.0e}")
        for y, v in zip(ys, vs):
            if v is not None and v > clip:
                ax.text(clip, y, f" {v:.0f}%", va="center", fontsize=7)
    ax.axvline(3.0, color="k", ls="--", lw=1)
    ax.text(3.0, -0.9, " 3 % goal", fontsize=8)
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels([R.short(n) for n in names], fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(min(0, min((v for v in loss.values()), default=0)) - 0.5, clip * 1.15)
    ax.set_xlabel("CR loss against a custom codebook (%)")
    ax.set_title(title, fontsize=10)
    ax.grid(True, axis="x", alpha=0.3)


def fig_dict_loss(res, out):
    d = res.get("dict") or {"rows": [], "shipped": 32}
    panels = []
    if d["rows"]:
        names = list(dict.fromkeys(r["field"] for r in d["rows"]))
        rels = sorted({r["rel"] for r in d["rows"]}, reverse=True)
        loss = {(r["field"], r["rel"]): r["loss"][str(d["shipped"])] for r in d["rows"]}
        panels.append((names, rels, loss, "dictionary only (32 books/family) vs custom book\n"
                                          "glide_bench, each field one chunk, REL bound"))
    rels = sorted({r["rel"] for r in res["rows"] if r["rel"]}, reverse=True)
    loss = {(n, rel): v for rel in rels for n, v in R.hdf5_auto_loss(res, rel).items()}
    if loss:
        names = [f["name"] for f in res["fields"] if any((f["name"], rel) in loss for rel in rels)]
        panels.append((names, rels, loss, "GLIDE default (auto: dictionary, custom where it pays) vs custom\n"
                                          "through HDF5, this run's chunks, ABS bound"))
    fig, axs = plt.subplots(1, len(panels), figsize=(7 * len(panels), 0.42 * max(len(p[0]) for p in panels) + 2),
                            squeeze=False)
    for ax, p in zip(axs[0], panels):
        loss_panel(ax, *p)
    axs[0][0].legend(title="bound", fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    plt.close(fig)


def fig_dict_size(res, out):
    d = res["dict"]
    sizes = d["sizes"]
    rels = sorted({r["rel"] for r in d["rows"]}, reverse=True)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for j, rel in enumerate(rels):
        rs = [r for r in d["rows"] if r["rel"] == rel]
        medv = [statistics.median(r["loss"][str(s)] for r in rs) for s in sizes]
        q3 = [statistics.quantiles([r["loss"][str(s)] for r in rs], n=4)[-1] for s in sizes]
        c = BOUND_COLORS[j % len(BOUND_COLORS)]
        ax.plot(sizes, medv, marker="o", color=c, lw=2, label=f"{rel:.0e} median")
        ax.plot(sizes, q3, marker=".", color=c, lw=1, ls="--", label=f"{rel:.0e} 75th percentile")
    ax.axvline(d["shipped"], color="k", lw=1, ls=":")
    ax.text(d["shipped"], ax.get_ylim()[1] * 0.95, " shipped (v1)", fontsize=8, va="top")
    ax.axhline(3.0, color="grey", lw=1, ls="--")
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes)
    ax.set_xticklabels([str(s) for s in sizes])
    ax.set_xlabel("books per family (3 families)")
    ax.set_ylabel("CR loss against a custom codebook (%)")
    ax.set_title(f"Dictionary size (glide_bench dict, {len(set(r['field'] for r in d['rows']))} fields, "
                 "each one chunk)", fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    plt.close(fig)


def fig_headline(res, out):
    nyx = R.nyx_fields(res)
    name = next((n for n in nyx if "density" in n), (nyx or [f["name"] for f in res["fields"]])[0])
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(13, 4.6))
    rd_panel(a1, res, name, lossy_cpu_keys(res["rows"]), title=False)
    a1.set_xlabel("bits per value")
    a1.set_ylabel("PSNR (dB)")
    a1.set_title(f"{R.short(name)}: rate-distortion (rel 1e-2 ... 1e-5)", fontsize=10)
    a1.legend(fontsize=8)
    thr_panel(a2, res, thr_values(res, [name], R.HEADLINE_REL), f"{R.short(name)}: throughput at "
              f"rel {R.HEADLINE_REL:.0e}")
    a2.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    plt.close(fig)


def make_all(res, outdir):
    os.makedirs(outdir, exist_ok=True)
    made = []
    for name, fn, need in [("peers_headline.png", fig_headline, True), ("peers_rd.png", fig_rd, True),
                           ("peers_throughput.png", fig_throughput, True),
                           ("peers_dict_loss.png", fig_dict_loss, True),
                           ("peers_dict_size.png", fig_dict_size, bool(res.get("dict") and res["dict"]["rows"]))]:
        if need:
            fn(res, os.path.join(outdir, name))
            made.append(name)
    return made
