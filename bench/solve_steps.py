"""Where the time of a fresh table build goes, step by step, as ``yatzy solve`` takes them.

    python bench/solve_steps.py [--rules yatzy] [--runs 3]

Each run is a fresh process with an empty table cache; it prints, per step, the median
over the runs: the command line's imports, the solver's (numpy), reading the play order
and Joker rules off the core (``order_tables``), the rest of the model
(``build_model``), the backward induction (``dp.solve``), the strategy object, and
writing the table. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

STEPS = r"""
import json, sys, time
marks = [time.perf_counter()]
import yatzy.cli
marks.append(time.perf_counter())
import yatzy
from yatzy.solver import artifacts, dp, model, policy
marks.append(time.perf_counter())
r = yatzy.ruleset(sys.argv[1])
order = model.order_tables(r)
marks.append(time.perf_counter())
m = model.build_model(r, order)
marks.append(time.perf_counter())
values = dp.solve(m)
marks.append(time.perf_counter())
s = policy.Strategy(m, values, build_seconds=0.0, source="built")
marks.append(time.perf_counter())
artifacts.save(r, values, order[0], order[1], {"states": s.state_count})
marks.append(time.perf_counter())
print(json.dumps([b - a for a, b in zip(marks, marks[1:])]))
"""

NAMES = ("command-line imports", "solver imports (numpy)", "order_tables", "build_model",
         "dp.solve", "Strategy", "writing the table")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="yatzy", help="ruleset (default yatzy)")
    parser.add_argument("--runs", type=int, default=3, help="fresh processes (default 3)")
    args = parser.parse_args()
    runs = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as cache:
            out = subprocess.run([sys.executable, "-c", STEPS, args.rules], check=True,
                                 capture_output=True, text=True,
                                 env={**os.environ, "YATZY_CACHE_DIR": cache})
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    total = statistics.median(sum(r) for r in runs)
    print(f"{args.rules}: median of {args.runs} fresh processes, load average "
          f"{os.getloadavg()[0]:.2f}")
    for i, name in enumerate(NAMES):
        print(f"  {name:<24} {statistics.median(r[i] for r in runs):6.3f} s")
    print(f"  {'in all':<24} {total:6.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
