"""Win chances looked up in the shared table, through ``Strategy.win_chances``.

    python bench/chances_table.py [--rules yatzy] [--games 1000] [--exact 40] [--seed 1]

Makes sure the table of the points still to come is on the disk (built and saved by
``remaining_table`` when it is not: timed apart), then starts a fresh process that
loads the strategy and asks ``Strategy.win_chances(game)`` at every position of
``--games`` random games of 2 to 6 players: every turn's start and every position after
a roll (the players mostly play the optimal option, now and then another, so that the
positions vary). Prints the start-up (from the process's start to the first answer),
the median, 99th percentile and largest time per answer, and the memory: the resident
set (the table's pages counted apart: they are shared with every process that maps the
file) and the peak. Then, as the peer in the same process, the exact way
(``Strategy.exact_win_chances``: the distributions worked out, not looked up) on
``--exact`` of the positions drawn at random: its median time, the ratio, and the
largest difference between the two, in percentage points. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time

START = time.perf_counter()


def memory() -> dict[str, int]:
    """This process's resident memory in kB: ``VmRSS``, ``RssAnon``, ``RssFile`` (pages
    of mapped files, shared) and ``VmHWM`` (the peak)."""
    found = {}
    with open("/proc/self/status") as f:
        for line in f:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "RssAnon", "RssFile", "VmHWM"):
                found[name] = int(value.split()[0])
    return found


def positions(rules: str, games: int, seed: int) -> list[object]:
    """Every position of ``games`` random games (turn starts and after each roll)."""
    import yatzy

    r = yatzy.ruleset(rules)
    s = yatzy.strategy(r)
    rng = random.Random(seed)
    found: list[object] = []
    for g in range(games):
        players = rng.randint(2, 6)
        game = yatzy.new_game(r, [f"p{i}" for i in range(players)], seed=seed * 100_003 + g)
        while not game.is_over:
            found.append(game)
            options = s.advise(game)
            pick = options[0] if rng.random() < 0.85 else rng.choice(options)
            game = game.apply(pick.action)
    return found


def child(args: argparse.Namespace) -> int:
    import yatzy

    r = yatzy.ruleset(args.rules)
    s = yatzy.strategy(r)
    first = time.perf_counter()
    s.win_chances(yatzy.new_game(r, ["a", "b"], seed=0).roll())
    startup = time.perf_counter() - START
    first_answer = time.perf_counter() - first
    games = positions(args.rules, args.games, args.seed)
    times = []
    answers = []
    for game in games:
        t = time.perf_counter()
        answers.append(s.win_chances(game))  # type: ignore[arg-type]
        times.append(time.perf_counter() - t)
    mem = memory()
    times.sort()

    def ms(x: float) -> str:
        return f"{x * 1000:.2f} ms"

    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    print(f"  fresh process: start-up to the first answer {startup:.2f} s (of which the first "
          f"answer, opening the table, {first_answer:.2f} s)")
    print(f"  {len(times):,} positions of {args.games} games of 2-6 players: median "
          f"{ms(statistics.median(times))}, 99th percentile {ms(p99)}, largest {ms(times[-1])}")
    print(f"  memory: resident {mem['VmRSS'] / 1024:.0f} MB (private {mem['RssAnon'] / 1024:.0f}"
          f" MB, mapped files {mem['RssFile'] / 1024:.0f} MB, shared), peak "
          f"{mem['VmHWM'] / 1024:.0f} MB")
    if args.exact:
        rng = random.Random(args.seed)
        sample = rng.sample(range(len(games)), min(args.exact, len(games)))
        exact_times, worst = [], 0.0
        worst_at = None
        for i in sample:
            game = games[i]
            t = time.perf_counter()
            exact = s.exact_win_chances(game)  # type: ignore[arg-type]
            exact_times.append(time.perf_counter() - t)
            diff = max(abs(exact[k] - answers[i][k]) for k in exact)
            if diff > worst:
                worst, worst_at = diff, game
        fast = statistics.median(times)
        print(f"  peer, the exact way on {len(sample)} of the positions: median "
              f"{ms(statistics.median(exact_times))} ({statistics.median(exact_times) / fast:.0f}"
              f" times the table's median), largest {ms(max(exact_times))}; largest difference "
              f"{100 * worst:.4f} percentage points"
              + (f" ({len(worst_at.players)} players)" if worst_at is not None else ""))  # type: ignore[attr-defined]
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="yatzy", help="ruleset (default yatzy)")
    parser.add_argument("--games", type=int, default=1000, help="games (default 1000)")
    parser.add_argument("--exact", type=int, default=40,
                        help="positions worked out the exact way too (default 40)")
    parser.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args)
    import yatzy
    from yatzy.solver import artifacts
    from yatzy.solver.winning import remaining_table

    s = yatzy.strategy(yatzy.ruleset(args.rules))
    path = artifacts.remaining_path(s.ruleset, s.path.parent if s.path else None)
    had = path.is_file()
    t = time.perf_counter()
    table = remaining_table(s)
    ready = time.perf_counter() - t
    print(f"{args.rules}: load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")
    print(f"  table: {table.rows:,} rows, {os.path.getsize(path) / 1e6:.1f} MB on disk "
          f"({path.name}); " + ("opened" if had else "built and saved") + f" in {ready:.1f} s")
    del table
    argv = [sys.executable, __file__, "--child", "--rules", args.rules, "--games",
            str(args.games), "--exact", str(args.exact), "--seed", str(args.seed)]
    return subprocess.run(argv, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
