"""Maxi Yatzy with saved rolls: games of the optimal strategy a second, compiled
(``yatzy simulate``, :func:`yatzy.solver.saved.simulate_saved`) against its peer, the
plain-Python player (:func:`yatzy.solver.saved.play_saved`), on the same table, each run
in a fresh process (start-up and the table's loading included in the wall time), the
two in turns.

    python bench/saved_simulate.py --order in_order --games 100000 --peer-games 1000
    python bench/saved_simulate.py --order upper_first --games 20000 --peer-games 50

The table must have been built (``yatzy solve --rules maxi_yatzy --order ORDER``; set
``YATZY_CACHE_DIR`` to where it is). Prints one JSON line per run and a summary: the
medians of the wall time and of the games a second (counted inside the process, without
start-up), and their ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

PEER = """
import json, sys, time
import yatzy
from yatzy.solver.saved import load_table, play_saved
sol = load_table(yatzy.ruleset("maxi_yatzy", order=sys.argv[1]))
start = time.perf_counter()
scores = play_saved(sol, int(sys.argv[2]), seed=1)
print(json.dumps({"mean": float(scores.mean()), "seconds": time.perf_counter() - start}))
"""


def run(argv: list[str]) -> tuple[float, dict[str, float]]:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, json.loads(done.stdout.splitlines()[-1])


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--order", default="in_order")
    p.add_argument("--games", type=int, default=100_000)
    p.add_argument("--peer-games", type=int, default=1_000)
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args()
    compiled = [sys.executable, "-c", "import sys; from yatzy.cli import main; "
                "sys.exit(main())", "simulate", "--rules", "maxi_yatzy", "--order",
                args.order, "--bot", "optimal", "-n", str(args.games), "--seed", "1",
                "--json"]
    peer = [sys.executable, "-c", PEER, args.order, str(args.peer_games)]
    rates: dict[str, list[float]] = {"compiled": [], "python": []}
    walls: dict[str, list[float]] = {"compiled": [], "python": []}
    for _ in range(args.repeats):
        for name, argv, games in (("compiled", compiled, args.games),
                                  ("python", peer, args.peer_games)):
            wall, out = run(argv)
            rates[name].append(games / out["seconds"])
            walls[name].append(wall)
            print(json.dumps({"player": name, "games": games, "wall_seconds": wall,
                              "games_per_second": rates[name][-1], "mean": out["mean"]}),
                  flush=True)
    median = {name: statistics.median(r) for name, r in rates.items()}
    print(json.dumps({
        "order": args.order,
        "median_wall_seconds": {name: statistics.median(w) for name, w in walls.items()},
        "median_games_per_second": median,
        "ratio": median["compiled"] / median["python"]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
