#!/usr/bin/env python3
"""How far dictionary versions close the gap to custom codebooks: the measurement
behind dictionary v2 (codebooks/dict_v2.c).

Reads the symbol histograms that `glide_bench --hist-dir DIR hist` writes
(whole real fields, default options, REL 1e-2..1e-4) and reports, per
histogram, the size loss against an optimal custom book of
  - dictionary v1 (its books rebuilt here from the families and scales in
    codebooks/dict_v1.c), and
  - v1 plus candidate extensions of each v1 book: mass w moved to the fill
    symbol, mass z moved to the zero code, and the positive side scaled by r
    (skew), each over every v1 book (v2 takes fill and spike over every
    other one), and
  - the committed dictionary v2 itself (its lengths read from dict_v2.c: the C
    builder's, which can break ties differently from package-merge here, so
    its column may differ from the rebuilt ones by a few hundredths of a %).
Sizes are sum(count x code length) with length-limited (16-bit) Huffman codes
built by package-merge, so they are what a stream would pay, book storage
aside. Analysis only: the committed dictionaries stay frozen whatever this prints.

  python3 codebooks/explore_dict.py DIR
"""
import glob
import math
import os
import re
import sys

import numpy as np

NSYM, RADIUS, ZERO, OUTLIER, FILL = 1025, 512, 511, 1023, 1024
FLOOR, MAX_LEN = 2.0 ** -24, 16


def huffman_lengths(weights, limit=MAX_LEN):
    """Length-limited Huffman code lengths (package-merge) for positive weights."""
    n = len(weights)
    if n == 1:
        return np.ones(1, int)
    order = np.argsort(weights, kind="stable")
    leaves = [(float(weights[i]), (int(i),)) for i in order]
    cur = list(leaves)
    for _ in range(limit - 1):
        cur.sort(key=lambda t: t[0])
        packages = [(cur[2 * k][0] + cur[2 * k + 1][0], cur[2 * k][1] + cur[2 * k + 1][1])
                    for k in range(len(cur) // 2)]
        cur = sorted(leaves + packages, key=lambda t: t[0])
    lengths = np.zeros(n, int)
    for _, syms in cur[:2 * n - 2]:
        for i in syms:
            lengths[i] += 1
    return lengths


def family_distribution(family, s):
    """codebooks/dict_gen.c distribution(): binned family, tails to the outlier symbol, floor."""
    if family == "Cauchy":
        center = 2 * math.atan2(0.5, s) / math.pi
        bin_mass = lambda q: math.atan2(s, (q - 0.5) * (q + 0.5) + s * s) / math.pi
        tail = math.atan2(s, RADIUS - 0.5) / math.pi
    elif family == "Laplace":
        center = -math.expm1(-0.5 / s)
        bin_mass = lambda q: 0.5 * math.exp(-(q - 0.5) / s) * -math.expm1(-1.0 / s)
        tail = 0.5 * math.exp(-(RADIUS - 0.5) / s)
    else:
        r2 = s * math.sqrt(2.0)
        center = math.erf(0.5 / r2)
        bin_mass = lambda q: 0.5 * (math.erfc((q - 0.5) / r2) - math.erfc((q + 0.5) / r2))
        tail = 0.5 * math.erfc((RADIUS - 0.5) / r2)
    p = np.zeros(NSYM)
    p[ZERO] = center
    for q in range(1, RADIUS):
        p[ZERO + q] = p[ZERO - q] = bin_mass(q)
    p[OUTLIER] = 2 * tail
    p += FLOOR
    return p / p.sum()


def book(p):
    return huffman_lengths(np.maximum(1.0, np.round(p * 2.0 ** 40)))


def v1_bases():
    src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "dict_v1.c")).read()
    found = re.findall(r"/\* book \d+: (\w+), scale ([0-9.eE+-]+)", src)
    return [family_distribution(f, float(s)) for f, s in found]


def committed_v2():
    """The lengths of every book of codebooks/dict_v2.c."""
    src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "dict_v2.c")).read()
    rows = re.findall(r"v2_len_\d+\[1025\] = \{([^}]*)\}", src)
    return np.array([[int(v) for v in r.split(",")] for r in rows])


def extensions(p, fills, spikes, skews):
    for w in fills:
        q = p * (1 - w)
        q[FILL] += w
        yield q
    for z in spikes:
        q = p * (1 - z)
        q[ZERO] += z
        yield q
    for r in skews:
        q = p.copy()
        q[ZERO + 1:ZERO + RADIUS] *= r
        yield q / q.sum()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    hists = sorted(glob.glob(os.path.join(sys.argv[1], "*.hist")))
    if not hists:
        sys.exit(f"no .hist files in {sys.argv[1]} (run glide_bench --hist-dir DIR hist)")
    bases = v1_bases()
    v1 = np.array([book(p) for p in bases])
    sets = {
        "fill": ([1 / 32, 1 / 8, 1 / 4, 1 / 2], [], []),
        "fill+spike": ([1 / 32, 1 / 8, 1 / 4, 1 / 2], [1 / 4, 1 / 2, 3 / 4], []),
        "fill+spike+skew": ([1 / 32, 1 / 8, 1 / 4, 1 / 2], [1 / 4, 1 / 2, 3 / 4], [1 / 4, 1 / 2, 2, 4]),
    }
    cand = {k: np.vstack([v1] + [book(q) for p in bases for q in extensions(p, *v)]) for k, v in sets.items()}
    cand["v2 (committed)"] = committed_v2()
    sets["v2 (committed)"] = None
    print(f"dictionary v1: {len(v1)} books; candidates: " + ", ".join(f"{k} {len(m)}" for k, m in cand.items()))
    print()
    print("| histogram | bits/value custom | loss v1 | " +
          " | ".join(f"loss {k}" if k.startswith("v2") else f"loss v1+{k}" for k in sets) + " |")
    print("|---|---|---|" + "---|" * len(sets))
    misses = {k: 0 for k in ["v1"] + list(sets)}
    for path in hists:
        h = np.fromfile(path, dtype="<u8").astype(float)
        nz = h > 0
        custom = float((h[nz] * huffman_lengths(h[nz])).sum())
        losses = [100 * (1 - custom / (v1 @ h).min())] + [100 * (1 - custom / (m @ h).min()) for m in cand.values()]
        for k, l in zip(misses, losses):
            misses[k] += l > 3
        name = os.path.basename(path)[:-5]
        print(f"| {name} | {custom / h.sum():.3f} | " + " | ".join(f"{l:.2f}%" for l in losses) + " |")
    print()
    print("cases over 3 %: " + ", ".join(f"{k} {v}" for k, v in misses.items()) + f" (of {len(hists)})")


if __name__ == "__main__":
    main()
