"""Maxi Yatzy with saved rolls: the start value with the saved rolls capped at k, as a
lower bound (rolls beyond k lost) and an upper bound (a state beyond k valued at the
most points its open boxes could give), for growing k; with per-layer time and memory.

    python bench/saved_rolls.py --caps 0 1 2 4 --bound lower [--workers 2] [--folder DIR]
    python bench/saved_rolls.py --order in_order --exact --caps 0 1 2 3 4 5 6 8 10 12 16 20

Each cap's layers go to DIR/cap=K-BOUND (kept: a run that is stopped resumes). Prints
one JSON line per cap.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import yatzy
from yatzy.solver.saved import solve_saved


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--caps", type=int, nargs="+", default=[0, 1, 2])
    p.add_argument("--bound", choices=["lower", "upper"], default="lower")
    p.add_argument("--workers", type=int, default=0, help="Dask workers (0: threads here)")
    p.add_argument("--folder", type=Path, default=Path("/tmp/yatzy-saved"))
    p.add_argument("--bonus", default="100_at_84")
    p.add_argument("--order", default="free")
    p.add_argument("--exact", action="store_true", help="also solve without a cap, first")
    args = p.parse_args()
    rules = yatzy.ruleset("maxi_yatzy", bonus=args.bonus, order=args.order)
    client = None
    if args.workers:
        from dask.distributed import Client, LocalCluster

        client = Client(LocalCluster(n_workers=args.workers, threads_per_worker=1,
                                     processes=True, dashboard_address=":0"))
    caps: list[int | None] = [None] if args.exact else []
    for cap in [*caps, *args.caps]:
        start = time.perf_counter()

        def report(n: int, done: int, total: int, stats: dict[str, object],
                   cap: int = cap) -> None:
            print(json.dumps({"cap": cap, **stats}), file=sys.stderr, flush=True)

        s = solve_saved(rules, args.folder / f"cap={cap}-{args.bound}", cap=cap,
                        bound=args.bound, client=client, progress=report)
        print(json.dumps({"cap": cap, "bound": args.bound, "value": s.start_value,
                          "seconds": time.perf_counter() - start}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
