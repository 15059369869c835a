#!/usr/bin/env python3
"""Medians over several glide_gpu_bench reports of one session (each cell of
the latency, kernel-only and end-to-end tables; cells that differ between
runs are followed by the runs' values), and the headline figures per run.
    python3 bench/gpu_medians.py bench/gpu-runs/d34b695/run*.md
"""
import re
import statistics
import sys

TABLES = ['### GPU backend\n', '### CPU backend (one thread)', '## 5. Kernel-only', '## 7. End to end']
HEAD = [('pageable H2D / D2H GB/s', r'pageable \(malloc\) \| ([\d.]+)'),
        ('book select kernel us', r"432 books\) \| GPU \| each 64³ chunk's own, 50 chunks \| ([\d.]+)"),
        ('256^3 rate / pageable GB/s, %', r'= ([\d.]+) / ([\d.]+) GB/s = (\d+) %')]


def section(text, head):
    i = text.index(head)
    m = re.search(r'\n## |\n### ', text[i + len(head):])
    return text[i:i + len(head) + (m.start() if m else len(text))]


def rows(text):
    return [[c.strip() for c in line.strip('|').split('|')] for line in text.splitlines()
            if line.startswith('| ') and not line.startswith('|---')]


def main(paths):
    texts = [open(p, encoding='utf-8').read() for p in paths]
    for head in TABLES:
        print('==', head.strip(), f'(median of {len(texts)} runs)')
        tabs = [rows(section(t, head)) for t in texts]
        for i, row in enumerate(tabs[0]):
            out = []
            for k, cell in enumerate(row):
                vals = [t[i][k] for t in tabs]
                try:
                    med = statistics.median(float(v) for v in vals)
                    out.append(f'{med:g}' + ('' if len(set(vals)) == 1 else f" ({'/'.join(vals)})"))
                except ValueError:
                    out.append(cell)
            print(' | '.join(out))
    for name, pat in HEAD:
        print(name, ':', '; '.join(str(re.findall(pat, t)) for t in texts))


if __name__ == '__main__':
    main(sys.argv[1:])
