#!/usr/bin/env python3
"""front.py TRACE...: from gpu_trace's median compress call, the front's span (range_k's start to
the last k_book_size's end) and the gaps after blend_w_k (to each interp_sh_k start). One line a file."""
import re, sys
for f in sys.argv[1:]:
    rows, sec = [], False
    for line in open(f):
        if 'compress (median' in line:
            sec = not line.strip().startswith('256^3 decompress') and 'decompress' not in line.split('(')[0]
            continue
        m = re.match(r'\| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|[^|]*\| (\S+) \| (.+?) \|', line)
        if sec and m and m.group(4) != 'host':
            rows.append((float(m.group(1)), float(m.group(2)), m.group(5)))
        if line.startswith('device busy') and sec:
            break
    try:
        r0 = next(s for s, e, w in rows if w.startswith('range_k'))
        bk = max(e for s, e, w in rows if w.startswith('k_book_size'))
        bw = next(e for s, e, w in rows if w.startswith('blend_w_k'))
        starts = sorted(round(s - bw, 1) for s, e, w in rows if w.startswith('interp_sh_k') and s > bw - 1)[:3]
        pick = next(e for s, e, w in rows if w.startswith('trial_pick_k'))
        print(f'{f}: front {bk - r0:.1f} us, pick end to books end {bk - pick:.1f}, interp starts after blend_w_k {starts}')
    except StopIteration:
        print(f'{f}: rows missing ({len(rows)} rows)')
