#!/usr/bin/env python3
"""Issue 2's open question, a second candidate measured (an estimate, not a format):
each slice of a 3-D volume (axis 0) coded by a 2-D interpolation hierarchy, with the
prediction of every point shifted by the previous slice's residual at that point
(its value less its own 2-D prediction), i.e. Lorenzo along the slow axis applied to
the interpolation residuals: a rough spatial pattern repeated from slice to slice
(tos's months, WRF's levels) cancels at every point, as in Lorenzo, while the fast
axes keep interpolation's long stencils.

Closed loop in every variant (predictions from reconstructed values, |x - x'| <= eb
checked, radius 512, outliers 32 bits), REL bound over the whole field, each
method's ideal code of its whole-field symbol frequencies, and with a code per
plane of format 5 (the points with every coordinate even, the rest):
  L3       3-D Lorenzo over the whole volume (zero padding = the face stencils)
  I2       every slice by the 2-D hierarchy alone (cubic where four neighbours
           exist, else linear, else the left one; x then y; anchors at stride 16,
           the first slice's stored (32 bits), later ones from the slice before)
  I2+zL    I2 with the previous slice's residual added to every prediction
  I2+zL16  the same restarted every 16 slices (slices 16k coded as I2 with exact
           anchors), as independent 16-slice blocks would have it
and, with planes, I2+zL with the slow axis (0, 1 or 2) and the slices' order (x then y,
or y then x) chosen per field and bound: the best of the six, as a light tuning would;
this column also leaves fill points out of the stencils (a first take on format 3's
fill-aware stencils for the slice method; spatial_pred).
Fields: the 3-D and 4-D (slabs apart) fields of real_fields_dev.h5. Where a field has
a fill value (tos: land), both methods see the fill points as format 1 does, replaced
by the middle of the other values' range, and each fill point costs one FILL symbol
instead of its code (GLIDE's fill-aware stencils, format 3, are not modelled). Usage: python3 bench/explore_slice_lorenzo.py [DATA.h5]  (numpy, h5py; a
minute or so). Prints Markdown."""
import sys, os, platform, subprocess, datetime
import numpy as np, h5py

R = 511          # quantization radius (codes -511..511 as the codec's)
OUT = 99999.0    # outlier symbol
FILL = 88888.0   # a fill point's symbol
STRIDE = 16      # anchor stride of the 2-D hierarchy


def entropy_bits(q):
    _, c = np.unique(q, return_counts=True)
    p = c / c.sum()
    return float(-(p * np.log2(p)).sum()) + 32.0 * float(np.mean(q == OUT))


def planes_bits(q, p0):
    """format 5's two planes, each with its own ideal code: bits per point"""
    n0 = int(p0.sum())
    b = entropy_bits(q[p0]) * n0 if n0 else 0.0
    return (b + (entropy_bits(q[~p0]) * (q.size - n0) if q.size > n0 else 0.0)) / q.size


def quantize(t, pred, eb):
    q = np.round((t - pred) / (2 * eb))
    r = pred + 2 * eb * q
    bad = (np.abs(q) > R) | (np.abs(r - t) > eb)
    return np.where(bad, OUT, q), np.where(bad, t, r)


def passes(yx=False):
    for lv in (8, 4, 2, 1):
        if not yx:
            yield (slice(0, None, 2 * lv), slice(lv, None, 2 * lv)), 1, lv   # odd x on even y
            yield (slice(lv, None, 2 * lv), slice(0, None, lv)), 0, lv       # odd y on the level's x
        else:
            yield (slice(lv, None, 2 * lv), slice(0, None, 2 * lv)), 0, lv   # odd y on even x
            yield (slice(0, None, lv), slice(lv, None, 2 * lv)), 1, lv       # odd x on the level's y


def spatial_pred(rec, ok, sl, a, lv):
    """the 2-D prediction along axis a of the pass's points, leaving fill points out (ok:
    not a fill point): cubic where its four neighbours are usable, else linear where both
    near ones are, else the one that is; NaN where none is (only where fill points are)"""
    n = rec.shape[a]
    idx = np.arange(lv, n, 2 * lv)

    def take(arr, off):
        s2 = list(sl)
        s2[a] = np.clip(idx + off, 0, n - 1)
        return arr[tuple(s2)]
    shape = [1, 1]
    shape[a] = len(idx)
    inr = {o: ((idx + o >= 0) & (idx + o < n)).reshape(shape) for o in (-3 * lv, -lv, lv, 3 * lv)}
    use = {o: inr[o] & take(ok, o) for o in inr}
    v = {o: take(rec, o) for o in inr}
    cub = (-v[-3 * lv] + 9 * v[-lv] + 9 * v[lv] - v[3 * lv]) / 16
    lin = 0.5 * (v[-lv] + v[lv])
    four = use[-3 * lv] & use[-lv] & use[lv] & use[3 * lv]
    two = use[-lv] & use[lv]
    return np.where(four, cub, np.where(two, lin, np.where(use[-lv], v[-lv], np.where(use[lv], v[lv], np.nan))))


def code_slices(v, eb, zlor, restart=0, yx=False, fill=None):
    """symbols in coding order, max error, and each symbol's raster index; with `fill` (the
    volume's fill points) the stencils leave them out and the shift needs a usable point
    before along the slow axis (where no stencil point is usable: the value before along
    the slow axis, or the middle of the slice's range)"""
    syms, maxerr, order = [], 0.0, []
    okv = np.ones(v.shape, bool) if fill is None else ~fill
    prev_ok = None
    ids = np.arange(v.size).reshape(v.shape)
    prev_rec = prev_sp = None
    for z in range(v.shape[0]):
        if restart and z % restart == 0:
            prev_rec = prev_sp = None
        s = v[z]
        rec = np.full(s.shape, np.nan)
        sp = np.zeros(s.shape)
        a = (slice(0, None, STRIDE), slice(0, None, STRIDE))
        order.append(ids[z][a].ravel())
        if prev_rec is None:
            rec[a] = s[a]
            syms.append(np.full(s[a].size, OUT))
        else:
            q, r = quantize(s[a], prev_rec[a], eb)
            rec[a] = r
            syms.append(q.ravel())
        ok = okv[z]
        for sl, ax, lv in passes(yx):
            p = spatial_pred(rec, ok, sl, ax, lv)
            have_prev = zlor and prev_rec is not None
            none = np.isnan(p)
            mid = 0.5 * (np.nanmin(s) + np.nanmax(s))
            p = np.where(none, np.where(prev_ok[sl], prev_rec[sl], mid) if have_prev else mid, p)
            sp[sl] = p
            pred = p + np.where(prev_ok[sl] & ~none, prev_rec[sl] - prev_sp[sl], 0.0) if have_prev else p
            q, r = quantize(s[sl], pred, eb)
            r = np.where(ok[sl], r, s[sl])
            rec[sl] = r
            syms.append(q.ravel())
            order.append(ids[z][sl].ravel())
        maxerr = max(maxerr, float(np.max(np.abs(rec - s))))
        prev_rec, prev_sp = rec, sp
        prev_ok = ok
    return np.concatenate(syms), maxerr, np.concatenate(order)


def code_lorenzo3(v, eb):
    nz, ny, nx = v.shape
    rec = np.zeros((nz + 1, ny + 1, nx + 1))
    syms = np.empty(v.size)
    k, maxerr = 0, 0.0
    for z in range(nz):
        for y in range(ny):
            part = rec[z, y + 1, 1:] + rec[z + 1, y, 1:] - rec[z, y, 1:] - rec[z, y + 1, :-1] - rec[z + 1, y, :-1] + rec[z, y, :-1]
            t = v[z, y]
            left = 0.0
            for x in range(nx):
                pred = left + part[x]
                q = round((t[x] - pred) / (2 * eb))
                r = pred + 2 * eb * q
                if abs(q) > R or abs(r - t[x]) > eb:
                    q, r = OUT, t[x]
                rec[z + 1, y + 1, x + 1] = r
                syms[k] = q
                k += 1
                left = r
            maxerr = max(maxerr, float(np.max(np.abs(rec[z + 1, y + 1, 1:] - t))))
    return syms, maxerr


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..', 'shared', 'data',
                                                              'real_fields_dev.h5')
    f = h5py.File(data, 'r')
    names = []
    f.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset) and o.dtype.kind == 'f' else None)
    try:
        rev = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()
    except OSError:
        rev = 'unknown'
    cpu = next((l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo') if l.startswith('model name')), platform.machine())
    print('# Slices by 2-D interpolation with Lorenzo along the slow axis: an estimate\n')
    print(f'- machine: {cpu}, one thread; commit {rev}, {datetime.date.today()}')
    print(f'- data: {data}')
    print('- command: python3 bench/explore_slice_lorenzo.py (see its docstring for the methods)\n')
    print('Bits per point of the field (ideal code of each method\'s whole-field symbol frequencies; outliers 32 bits; '
          '"planes": a code for each of format 5\'s two planes, the points with every coordinate even and the rest). '
          'max err/eb over the interpolation variants in the last column.\n')
    print('| field | bound | L3 | I2 | I2+zL | I2+zL16 | I2+zL vs L3 | I2+zL16 vs L3 | planes: L3 | planes: I2+zL | planes: vs L3 '
          '| planes: I2+zL, best slow axis and order | vs L3 | max err/eb |')
    print('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
    jobs = []
    for name in names:
        ds = f[name]
        if len([d for d in ds.shape if d > 1]) < 3:
            continue
        x = ds[...].astype(np.float32).astype(np.float64)
        x = x.reshape([d for d in ds.shape if d > 1])
        fill = np.zeros(x.shape, bool)
        if 'fill_value' in ds.attrs:
            fill = x == np.float64(np.float32(ds.attrs['fill_value']))
        lo, hi = float(np.min(x[~fill])), float(np.max(x[~fill]))
        jobs.append((name, x, fill, lo, hi))
        if fill.any() and x.ndim == 3:
            # the same field on its largest box free of fill points in every slice (the bound
            # still relative to the whole field's range): what the fill points cost
            free = ~fill.any(axis=0)
            best = None
            for y0 in range(0, free.shape[0], 5):
                for y1 in range(y0 + 32, free.shape[0] + 1, 5):
                    for x0 in range(0, free.shape[1], 5):
                        for x1 in range(x0 + 32, free.shape[1] + 1, 5):
                            a = (y1 - y0) * (x1 - x0)
                            if (best is None or a > best[0]) and free[y0:y1, x0:x1].all():
                                best = (a, y0, y1, x0, x1)
            if best:
                _, y0, y1, x0, x1 = best
                jobs.append((f'{name}, box [{y0}:{y1}, {x0}:{x1}] without fill points', x[:, y0:y1, x0:x1],
                             fill[:, y0:y1, x0:x1], lo, hi))
    for name, x, fill, lo, hi in jobs:
        x = np.where(fill, 0.5 * lo + 0.5 * hi, x)
        vols = [x[t] for t in range(x.shape[0])] if x.ndim == 4 else [x]
        fills = [fill[t] for t in range(x.shape[0])] if x.ndim == 4 else [fill]
        rng = hi - lo
        for rel in (1e-3, 1e-4):
            eb = rel * rng
            bits, pbits, me = {}, {}, 0.0
            for m in ('L3', 'I2', 'I2+zL', 'I2+zL16'):
                qs, p0s = [], []
                for v, fm in zip(vols, fills):
                    ev = np.zeros(v.shape, bool)
                    ev[::2, ::2, ::2] = True  # plane 0: every coordinate even
                    if m == 'L3':
                        q, e = code_lorenzo3(v, eb)
                        q = np.where(fm.ravel(), FILL, q)  # raster order
                        p0s.append(ev.ravel())
                    else:
                        q, e, order = code_slices(v, eb, m != 'I2', STRIDE if m == 'I2+zL16' else 0)
                        q = np.where(fm.ravel()[order], FILL, q)
                        p0s.append(ev.ravel()[order])
                        me = max(me, e / eb)
                    qs.append(q)
                bits[m] = entropy_bits(np.concatenate(qs))
                pbits[m] = planes_bits(np.concatenate(qs), np.concatenate(p0s))
            # I2+zL with the slow axis and the slices' axis order chosen per field (the best of six, planes)
            best = None
            for slow in (0, 1, 2):
                for yx in (False, True):
                    qs, p0s = [], []
                    for v, fm in zip(vols, fills):
                        vt, ft = np.moveaxis(v, slow, 0), np.moveaxis(fm, slow, 0)
                        ev = np.zeros(vt.shape, bool)
                        ev[::2, ::2, ::2] = True
                        q, e, order = code_slices(np.ascontiguousarray(vt), eb, True, 0, yx, np.ascontiguousarray(ft))
                        qs.append(np.where(ft.ravel()[order], FILL, q))
                        p0s.append(ev.ravel()[order])
                        me = max(me, e / eb)
                    b = planes_bits(np.concatenate(qs), np.concatenate(p0s))
                    if best is None or b < best[0]:
                        best = (b, slow, 'yx' if yx else 'xy')
            pbits['tuned'] = best
            print(f"| {name} | {rel:.0e} | {bits['L3']:.3f} | {bits['I2']:.3f} | {bits['I2+zL']:.3f} | "
                  f"{bits['I2+zL16']:.3f} | {100 * (bits['I2+zL'] / bits['L3'] - 1):+.2f}% | "
                  f"{100 * (bits['I2+zL16'] / bits['L3'] - 1):+.2f}% | {pbits['L3']:.3f} | {pbits['I2+zL']:.3f} | "
                  f"{100 * (pbits['I2+zL'] / pbits['L3'] - 1):+.2f}% | {pbits['tuned'][0]:.3f} (axis {pbits['tuned'][1]}, "
                  f"{pbits['tuned'][2]}) | {100 * (pbits['tuned'][0] / pbits['L3'] - 1):+.2f}% | {me:.4f} |", flush=True)


if __name__ == '__main__':
    main()
