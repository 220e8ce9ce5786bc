"""Where a new state's advice spends its time: the first reads of memory.

    python bench/advice_reads.py [--rules yatzy] [--runs 3] [--seconds 2]

``Strategy.advise(game)`` on positions of random games after a first roll, as
``bench/solver.py`` times it (a new state each call: ``forget()`` before it), in fresh
processes, each for ``--seconds`` over its positions again and again:

- ``2000 positions``: ``bench/solver.py``'s case: games made long before they are asked
  about, whose objects and table rows are no longer in the processor's caches;
- ``2000, the game read first``: the same, each game's card, entries and dice read just
  before the timed call (what a player's process does, which has just made the game);
- ``300 positions`` and ``50 positions``: fewer positions asked again and again, so that
  more (then all) of what they read stays in the caches;
- ``2000, every list kept``: the first case with each call's list kept until the pass
  ends, so that advice cannot remake the options of its last list in place (it does
  for those nobody holds any more) and makes every option anew.

Prints the median of each case over ``--runs`` processes (each process's own median of
its calls). Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from procstat import run_json

HERE = Path(__file__).resolve().parent

CASES = {"2000 positions": (2000, ""), "2000, the game read first": (2000, "read"),
         "300 positions": (300, ""), "50 positions": (50, ""),
         "2000, every list kept": (2000, "keep")}


def child(rules: str, positions: int, mode: str, seconds: float) -> None:
    import random
    import time

    import yatzy

    r = yatzy.ruleset(rules)
    rng = random.Random(1)
    games = []
    for i in range(positions):  # as bench/solver.py makes them
        g = yatzy.new_game(r, ["Ann"], seed=i)
        for _ in range(rng.randrange(len(r.boxes))):
            g = g.roll()
            g = g.score(rng.choice(sorted(g.choices())))
        games.append(g.roll())
    s = yatzy.strategy(r)
    s.advise(games[0])
    times: list[int] = []
    seen = 0
    end = time.perf_counter() + seconds
    kept: list[object] = []
    while time.perf_counter() < end:
        kept.clear()
        for g in games:
            s.forget()
            if mode == "read":
                card = g.cards[0]
                seen += len(card.entries) + card.entries.count(None) + len(g.dice)
            if mode == "keep":
                t = time.perf_counter_ns()
                kept.append(s.advise(g))
            else:
                t = time.perf_counter_ns()
                s.advise(g)
            times.append(time.perf_counter_ns() - t)
    print(json.dumps({"median_us": statistics.median(times) / 1000, "calls": len(times)}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="yatzy")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        positions, mode = args.child
        child(args.rules, int(positions), mode, args.seconds)
        return
    found: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(args.runs):  # the cases in turn, so that the machine's moods spread
        for name, (positions, mode) in CASES.items():
            out = run_json([sys.executable, __file__, "--rules", args.rules, "--seconds",
                            str(args.seconds), "--child", str(positions), mode])
            found[name].append(out["median_us"])
    print(f"{args.rules}: `advise(game)` on a new state, median of {args.runs} processes")
    print("| positions | µs | each process |")
    print("|---|---:|---|")
    for name, values in found.items():
        each = ", ".join(f"{v:.2f}" for v in values)
        print(f"| {name} | {statistics.median(values):.2f} | {each} |")


if __name__ == "__main__":
    main()
