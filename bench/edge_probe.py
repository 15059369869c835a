#!/usr/bin/env python3
"""Does interpolation lose to Lorenzo at tight bounds because of the open
box edges (points past the last anchor, predicted by one-sided
extrapolation)? Compresses WRF T and P slabs whole and cropped so that every
anchor box is closed at stride 8 (9 x 33 x 33 per time step) or open
(13 x 40 x 40), with interpolation at anchor strides 16 and 8 and with
Lorenzo, one chunk each, ABS bound = rel x the crop's value range, through
the plugin under h5py (checks max |x - x'| <= eb).
    HDF5_PLUGIN_PATH=build/plugin GLIDE_BACKEND=cpu python3 bench/edge_probe.py [DATA_DIR]
"""
import math
import os
import sys
import tempfile

import h5py
import numpy as np

data = sys.argv[1] if len(sys.argv) > 1 else os.environ.get('GLIDE_DATA_DIR', '../shared/data')
src = h5py.File(os.path.join(data, 'real_fields_dev.h5'), 'r')
tmp = os.path.join(tempfile.mkdtemp(), 'edge.h5')


def cr(a, eb_abs, opts):
    e = int(math.ceil(-math.log10(eb_abs))) + 6
    mant = int(eb_abs * 10 ** e)  # rounded down: never looser than asked
    with h5py.File(tmp, 'w') as g:
        g.create_dataset('x', data=a, chunks=a.shape, compression=45123, compression_opts=(0, mant, e, opts))
    with h5py.File(tmp, 'r') as g:
        b = g['x'][...]
        size = g['x'].id.get_storage_size()
    err = float(np.max(np.abs(b.astype(np.float64) - a.astype(np.float64))))
    assert err <= mant * 10.0 ** -e, (err, eb_abs)
    return a.nbytes / size


print('| field | crop | shape | rel | interp, stride 16 | interp, stride 8 | Lorenzo |')
print('|---|---|---|---|---|---|---|')
for name in ('wrf_python/ci_test_file/T', 'wrf_python/ci_test_file/P'):
    x = src[name][...]
    for tag, sl in (('whole', np.s_[:, :, :, :]), ('closed at 8', np.s_[:, :9, :33, :33]),
                    ('open at 8', np.s_[:, :13, :40, :40])):
        a = np.ascontiguousarray(x[sl])
        for rel in (1e-3, 1e-4):
            eb = rel * (float(a.max()) - float(a.min()))
            r = [cr(a, eb, 0x2), cr(a, eb, 0x2 | (3 << 8)), cr(a, eb, 0x1)]
            print(f"| {name.split('/')[-1]} | {tag} | {'x'.join(map(str, a.shape))} | {rel:g} | "
                  + ' | '.join(f'{v:.3f}' for v in r) + ' |', flush=True)
