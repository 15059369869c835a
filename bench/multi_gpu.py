"""Aggregate H5Dwrite / H5Dread rates with one process per GPU (docs/PARALLEL.md).

    python3 bench/multi_gpu.py --plugin build-gpu/plugin --field FILE.f32 [--procs 1,2,4]
                               [--backends gpu,cpu,none] [--chunk 64] [--dir /dev/shm] [--out FILE.md]

Each of P processes writes the same N^3 float32 field (a raw file from
bench/peers/nyx_gen) into its own HDF5 file through h5py and the GLIDE filter
(REL 1e-3), then reads it back; process i takes GPU i (GLIDE_DEVICE=i), as an
MPI rank takes the GPU of its node-local rank. No MPI is needed: this
measures what P GPUs of one host do side by side, the part of a parallel
write that the filter costs; parallel HDF5's collective work is on top
(h5tests/mpi tests that path). The processes start together (a barrier)
and the rate is P x the field's bytes over the slowest process's time,
H5Dwrite through H5Fclose, and H5Dread. Prints a Markdown table.
"""
import argparse
import json
import multiprocessing as mp
import os
import statistics
import sys
import time

GLIDE = 45123


def worker(i, backend, args, barrier, queue):
    """Always answers on the queue, an error included, so the parent never waits for a dead process."""
    try:
        queue.put((i, measure(i, backend, args, barrier)))
    except Exception as e:  # noqa: BLE001 (any failure is reported, the barrier broken for the others)
        barrier.abort()
        queue.put((i, {"error": f"{type(e).__name__}: {e}"}))


def measure(i, backend, args, barrier):
    os.environ["GLIDE_DEVICE"] = str(i)
    if backend != "none":
        os.environ["GLIDE_BACKEND"] = backend
    import h5py  # after the environment: the plugin reads it on its first chunk
    import numpy as np

    n = round((os.path.getsize(args.field) // 4) ** (1 / 3))
    a = np.fromfile(args.field, dtype="<f4").reshape(n, n, n)
    path = os.path.join(args.dir, f"multi_gpu_{os.getpid()}_{i}.h5")
    opts = {} if backend == "none" else {"compression": GLIDE, "compression_opts": (1, 1, 3)}
    c = min(args.chunk, n)
    res = {"write": [], "read": [], "stored": 0, "err": 0.0}
    try:
        for r in range(args.reps + 1):  # the first round warms the GPU and the plugin up
            barrier.wait()
            t0 = time.perf_counter()
            with h5py.File(path, "w") as f:
                ds = f.create_dataset("a", data=a, chunks=(c, c, c), **opts)
            t1 = time.perf_counter()
            barrier.wait()
            t2 = time.perf_counter()
            with h5py.File(path, "r") as f:
                ds = f["a"]
                b = ds[...]
                stored = ds.id.get_storage_size()
            t3 = time.perf_counter()
            if r:
                res["write"].append(t1 - t0)
                res["read"].append(t3 - t2)
        res["stored"] = stored
        if backend != "none":  # REL 1e-3: each chunk's bound is 1e-3 of that chunk's range
            for z in range(0, n, c):
                for y in range(0, n, c):
                    for x in range(0, n, c):
                        sa, sb = a[z:z + c, y:y + c, x:x + c].astype(np.float64), b[z:z + c, y:y + c, x:x + c]
                        eb = 1e-3 * (sa.max() - sa.min())
                        if eb > 0:
                            res["err"] = max(res["err"], float(np.abs(sb - sa).max() / eb))
    finally:
        if os.path.exists(path):
            os.remove(path)
    return res


def run(procs, backend, args):
    ctx = mp.get_context("spawn")
    barrier, queue = ctx.Barrier(procs, timeout=1800), ctx.Queue()
    ps = [ctx.Process(target=worker, args=(i, backend, args, barrier, queue)) for i in range(procs)]
    for p in ps:
        p.start()
    out = dict(queue.get() for _ in ps)
    for p in ps:
        p.join()
    errors = [f"process {i}: {out[i]['error']}" for i in sorted(out) if "error" in out[i]]
    if errors or any(p.exitcode for p in ps):
        sys.exit(f"a worker failed ({backend}, {procs} processes): " + "; ".join(errors))
    raw = os.path.getsize(args.field)
    # per round, the slowest process sets the aggregate time
    w = statistics.median(max(out[i]["write"][r] for i in out) for r in range(args.reps))
    rd = statistics.median(max(out[i]["read"][r] for i in out) for r in range(args.reps))
    if backend != "none" and max(out[i]["err"] for i in out) > 1:
        sys.exit(f"the bound was broken ({backend}, {procs} processes)")
    return {"procs": procs, "backend": backend, "write_gbs": procs * raw / w / 1e9, "read_gbs": procs * raw / rd / 1e9,
            "cr": raw / max(out[0]["stored"], 1), "err": max(out[i]["err"] for i in out)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plugin", required=True)
    ap.add_argument("--field", required=True)
    ap.add_argument("--procs", default="1,2,4")
    ap.add_argument("--backends", default="gpu,cpu,none")
    ap.add_argument("--chunk", type=int, default=64)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--dir", default="/dev/shm" if os.path.isdir("/dev/shm") else "/tmp")
    ap.add_argument("--out")
    args = ap.parse_args()
    os.environ["HDF5_PLUGIN_PATH"] = os.path.abspath(args.plugin)
    rows = [run(int(p), b, args) for b in args.backends.split(",") for p in args.procs.split(",")]
    n = round((os.path.getsize(args.field) // 4) ** (1 / 3))
    md = [f"{n}^3 float32 a process, chunks {min(args.chunk, n)}^3, REL 1e-3, files in {args.dir}; "
          f"median of {args.reps} rounds after a warm-up, each round's slowest process", "",
          "| processes | filter | H5Dwrite GB/s (all) | H5Dread GB/s (all) | CR | max err/eb |",
          "|---|---|---|---|---|---|"]
    for r in rows:
        name = "none" if r["backend"] == "none" else f"GLIDE, {r['backend']}"
        cr, err = ("—", "—") if r["backend"] == "none" else (f"{r['cr']:.2f}", f"{r['err']:.4f}")
        md.append(f"| {r['procs']} | {name} | {r['write_gbs']:.2f} | {r['read_gbs']:.2f} | {cr} | {err} |")
    text = "\n".join(md) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
        with open(args.out + ".json", "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
