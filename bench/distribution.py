"""How long exact score distributions take, through the public API.

    python bench/distribution.py [--rules yatzy] [--games 5] [--cache DIR]

Prints, for one ruleset: the time to build the exact layers as ``yatzy solve`` does (0
when they are on the disk already); the start of a game's distribution in a fresh process
with the tables cached but not the distribution (wall time of ``Strategy.distribution``
and the process's peak memory); and, in another fresh process, the time of
``Strategy.distribution(game)`` at the start of each round and after each roll of
``--games`` games played by the optimal player (a new position each time: nothing is kept
between them): the median and the largest per round, its first call included, and over
every position the median, p99, largest, and that process's peak memory and, at its end,
its own (anonymous) memory, without the files it maps. ``--cache``: keep the tables in DIR
(else a temporary directory, built anew). The code is this checkout's (``src``). Not part
of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

START = r"""
import json, resource, sys, time
import yatzy
from yatzy.solver import artifacts
r = yatzy.ruleset(sys.argv[1])
s = yatzy.strategy(r)
artifacts.distribution_path(r).unlink(missing_ok=True)
t = time.perf_counter()
d = s.distribution(yatzy.Scorecard.empty(r))
print(json.dumps({"seconds": time.perf_counter() - t, "mean": d.mean, "sd": d.sd,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

PREPARE = r"""
import json, sys, time
import yatzy
from yatzy.solver.distribution import exact_layers
s = yatzy.strategy(yatzy.ruleset(sys.argv[1]))
t = time.perf_counter()
exact_layers(s, build=True)  # as yatzy solve does
print(json.dumps({"seconds": time.perf_counter() - t}))
"""

ROUNDS = r"""
import json, resource, sys, time
import yatzy
r = yatzy.ruleset(sys.argv[1])
s = yatzy.strategy(r)
times = {}
for seed in range(int(sys.argv[2])):
    g = yatzy.new_game(r, ["Ann"], seed=seed)
    for turn in range(1, len(r.boxes) + 1):
        while True:
            t = time.perf_counter()
            s.distribution(g)
            times.setdefault(turn, []).append(time.perf_counter() - t)
            if turn == len(r.boxes) and g.dice is not None and not g.rolls_left:
                break
            g = g.roll() if g.dice is None else g.apply(s.advise(g)[0].action)
            if g.dice is None:
                break
times["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
times["anon_mb"] = int(status["RssAnon"].split()[0]) / 1024  # not the mapped files
print(json.dumps(times))
"""


def run(code: str, *args: str, env: dict[str, str]) -> dict[str, object]:
    src = str(Path(__file__).resolve().parent.parent / "src")
    out = subprocess.run([sys.executable, "-c", code, *args], check=True, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": src, **env})
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="yatzy", help="ruleset (default yatzy)")
    parser.add_argument("--games", type=int, default=5, help="games per round (default 5)")
    parser.add_argument("--cache", help="the tables' folder (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        env = {"YATZY_CACHE_DIR": args.cache or temporary}
        prepared = run(PREPARE, args.rules, env=env)
        start = run(START, args.rules, env=env)
        rounds = run(ROUNDS, args.rules, str(args.games), env=env)
    print(f"{args.rules}: load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")
    print(f"  start of a game: {start['seconds']:.2f} s, peak {start['peak_mb']:.0f} MB "
          f"(mean {start['mean']:.4f}, sd {start['sd']:.4f})")
    peak, anon = rounds.pop("peak_mb"), rounds.pop("anon_mb")
    every = [t for times in rounds.values() if isinstance(times, list) for t in times]
    print(f"  exact layers built as yatzy solve builds them: {prepared['seconds']:.1f} s "
          "(0 when on the disk already)")
    print(f"  every position: {len(every)}, median {statistics.median(every) * 1000:.1f} ms, "
          f"p99 {statistics.quantiles(every, n=100)[98] * 1000:.1f} ms, largest "
          f"{max(every) * 1000:.1f} ms; that process's peak {peak:.0f} MB, at its end "
          f"{anon:.0f} MB of it its own memory (the rest: the files it maps, shared)")
    print(f"  round N, every position (turn start and each roll) of {args.games} games:")
    for turn, times in rounds.items():
        assert isinstance(times, list)
        print(f"    round {turn:>2}: median {statistics.median(times) * 1000:8.1f} ms, "
              f"largest {max(times) * 1000:8.1f} ms ({len(times)} positions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
