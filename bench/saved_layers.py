"""Maxi Yatzy with saved rolls: what an exact solve would cost, from the time of each
layer's turns on a sample of its masks (exact: 2n + 3 levels after n filled boxes;
against no saved rolls, a cap of 0: 3 levels), taken in turns on one thread; and the
speed-up of 2 Dask workers over 1 on one layer of a solve already checkpointed.

    python bench/saved_layers.py estimate [--sample 300]
    python bench/saved_layers.py speedup --folder /tmp/ys/cap=0-lower --layer 13 [--cap 0]

Prints JSON lines.
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
import time
from pathlib import Path

import numpy as np

import yatzy
from yatzy.solver.saved import SolveContext, saved_count, solve_chunk


def estimate(sample: int) -> None:
    rules = yatzy.ruleset("maxi_yatzy")
    ctx = SolveContext.of(rules)
    m = ctx.model
    rng = np.random.default_rng(0)
    total = {"cap0": 0.0, "exact": 0.0}
    bytes_exact = 0
    for n in range(m.boxes - 1, -1, -1):
        masks = ctx.layers[n]
        pick = np.sort(rng.choice(len(masks), min(sample, len(masks)), replace=False))
        jobs = masks[pick]
        per: dict[str, float] = {}
        for cap, name in ((0, "cap0"), (None, "exact")):
            following = np.zeros((len(ctx.layers[n + 1]), m.threshold + 1,
                                  saved_count(m, n + 1, cap)), dtype=np.float32)
            times = []
            for _ in range(3):
                t0 = time.perf_counter()
                solve_chunk(ctx, n, jobs, following, cap, "lower", threads=1)
                times.append((time.perf_counter() - t0) / len(jobs))
            per[name] = float(np.median(times))
            total[name] += per[name] * len(masks)
        size = len(masks) * (m.threshold + 1) * saved_count(m, n, None) * 4
        bytes_exact += size
        print(json.dumps({"layer": n, "masks": len(masks), "levels": 2 * n + 3,
                          "ms_per_mask_cap0": per["cap0"] * 1e3,
                          "ms_per_mask_exact": per["exact"] * 1e3,
                          "ratio": per["exact"] / per["cap0"],
                          "exact_layer_bytes": size}), flush=True)
    print(json.dumps({"one_core_seconds_cap0": total["cap0"],
                      "one_core_seconds_exact": total["exact"],
                      "ratio": total["exact"] / total["cap0"],
                      "exact_table_bytes": bytes_exact}))


def speedup(folder: Path, layer: int, cap: int | None) -> None:
    from dask.distributed import Client, LocalCluster

    from yatzy.solver.saved import chunk_task, ruleset_spec

    rules = yatzy.ruleset("maxi_yatzy")
    spec = ruleset_spec(rules)
    ctx = SolveContext.of(rules)
    count = len(ctx.layers[layer])
    parts = 16
    bounds = [count * i // parts for i in range(parts + 1)]
    for workers in (1, 2, 1, 2):
        out = folder.parent / f"speedup-{workers}"
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir()
        (out / f"layer-{layer + 1:02d}.npy").symlink_to(folder / f"layer-{layer + 1:02d}.npy")
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=":0") as cluster, Client(cluster) as client:
            # Each worker builds its tables first (not timed).
            client.run(lambda: SolveContext.of(rules) and None)
            t0 = time.perf_counter()
            futures = [client.submit(chunk_task, spec, cap, "lower", str(out), layer, lo, hi,
                                     1, pure=False) for lo, hi in itertools.pairwise(bounds)]
            figures = client.gather(futures)
            seconds = time.perf_counter() - t0
        print(json.dumps({"layer": layer, "masks": count, "workers": workers,
                          "seconds": seconds,
                          "task_seconds": sum(f["seconds"] for f in figures),
                          "worker_peak_memory_bytes": max(f["peak_memory_bytes"]
                                                          for f in figures)}), flush=True)
        shutil.rmtree(out, ignore_errors=True)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("what", choices=["estimate", "speedup"])
    p.add_argument("--sample", type=int, default=300)
    p.add_argument("--folder", type=Path)
    p.add_argument("--layer", type=int, default=13)
    p.add_argument("--cap", type=int, default=0)
    args = p.parse_args()
    if args.what == "estimate":
        estimate(args.sample)
    else:
        speedup(args.folder, args.layer, args.cap)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
