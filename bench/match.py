"""How many games a second ``yatzy match`` plays, through the command, in fresh processes.

    python bench/match.py [--levels winner optimal] [--rules yatzy] [--games 10000]
                          [--repeats 3] [--peer /path/to/other/checkout] [--peer-games N]

Runs ``yatzy match LEVELS -n GAMES --seed 1 --json`` ``--repeats`` times in a fresh
process each (the tables on the disk, in ``$YATZY_CACHE_DIR`` or the user cache), with
this checkout's sources and, given ``--peer``, another checkout's (its ``src``), in turns,
and prints per checkout the medians of: the games a second of the match alone (the
command's own clock, from the first game to the last), the games a second of the whole
command (start-up and table loading included), and the games per second of processor
time of the command and its worker processes (what the load of other work on the
machine moves least). Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

RUN = "import sys, yatzy.cli as c; sys.exit(c.main(sys.argv[1:]))"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def once(tree: Path, args: list[str]) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    cpu = children_cpu()
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", RUN, *args], check=True, capture_output=True,
                         text=True, env=env, cwd=tree)
    wall = time.perf_counter() - start
    cpu = children_cpu() - cpu
    result = json.loads(out.stdout.strip().splitlines()[-1])
    games = result["games"]
    return {"match": games / result["seconds"], "command": games / wall, "cpu": games / cpu,
            "share": result["standings"][0]["share"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=["winner", "optimal"])
    parser.add_argument("--rules", default="yatzy", help="ruleset (default yatzy)")
    parser.add_argument("--games", type=int, default=10_000, help="games (default 10000)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per checkout (default 3)")
    parser.add_argument("--peer", type=Path, help="another checkout to measure in turns")
    parser.add_argument("--peer-games", type=int, help="its games (default --games)")
    args = parser.parse_args()
    trees = [("this", HERE, args.games)]
    if args.peer:
        trees.append(("peer", args.peer.resolve(), args.peer_games or args.games))
    found: dict[str, list[dict[str, float]]] = {name: [] for name, _, _ in trees}
    for _ in range(args.repeats):
        for name, tree, games in trees:
            found[name].append(once(tree, ["match", *args.levels, "--rules", args.rules,
                                           "-n", str(games), "--seed", "1", "--json"]))
    print(f"{args.rules}: match {' '.join(args.levels)}; {args.repeats} runs each, in turns; "
          f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")
    for name, tree, games in trees:
        runs = found[name]

        def median(key: str, runs: list[dict[str, float]] = runs) -> float:
            return statistics.median(r[key] for r in runs)

        print(f"  {name} ({tree}), {games} games: match {median('match'):.0f} games/s, "
              f"whole command {median('command'):.0f} games/s, "
              f"{median('cpu'):.0f} games per processor second "
              f"(first level's share {runs[0]['share']:.4f})")
    if args.peer:
        this, peer = found["this"], found["peer"]
        for key in ("match", "command", "cpu"):
            ratio = (statistics.median(r[key] for r in this)
                     / statistics.median(r[key] for r in peer))
            print(f"  {key}: {ratio:.1f}x the peer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
