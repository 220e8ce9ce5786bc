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
from collections.abc import Iterator

from procstat import memory

START = time.perf_counter()


def play(s: object, rules: str, games: int, seed: int) -> Iterator[object]:
    """Every position of ``games`` random games (turn starts and after each roll), one
    at a time (so that the games held do not count in the memory)."""
    import yatzy

    r = yatzy.ruleset(rules)
    rng = random.Random(seed)
    for g in range(games):
        players = rng.randint(2, 6)
        game = yatzy.new_game(r, [f"p{i}" for i in range(players)], seed=seed * 100_003 + g)
        while not game.is_over:
            yield game
            options = s.advise(game)  # type: ignore[attr-defined]
            pick = options[0] if rng.random() < 0.85 else rng.choice(options)
            game = game.apply(pick.action)


def child(args: argparse.Namespace) -> int:
    import yatzy

    r = yatzy.ruleset(args.rules)
    s = yatzy.strategy(r)
    first = time.perf_counter()
    s.win_chances(yatzy.new_game(r, ["a", "b"], seed=0).roll())
    startup = time.perf_counter() - START
    first_answer = time.perf_counter() - first
    after_start = memory()
    times = []
    # A uniform sample of the positions, with their answers, for the peer.
    sample: list[tuple[object, dict[str, float]]] = []
    rng = random.Random(args.seed)
    for n, game in enumerate(play(s, args.rules, args.games, args.seed)):
        t = time.perf_counter()
        answer = s.win_chances(game)  # type: ignore[arg-type]
        times.append(time.perf_counter() - t)
        if len(sample) < args.exact:
            sample.append((game, answer))
        elif (k := rng.randrange(n + 1)) < args.exact:
            sample[k] = (game, answer)
    mem = memory()
    times.sort()

    def ms(x: float) -> str:
        return f"{x * 1000:.2f} ms"

    def mb(kb: int) -> str:
        return f"{kb / 1024:.0f} MB"

    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    print(f"  fresh process: start-up to the first answer {startup:.2f} s (of which the first "
          f"answer, opening the table, {first_answer:.2f} s); resident then "
          f"{mb(after_start['VmRSS'])} (private {mb(after_start['RssAnon'])})")
    print(f"  {len(times):,} positions of {args.games} games of 2-6 players: median "
          f"{ms(statistics.median(times))}, 99th percentile {ms(p99)}, largest {ms(times[-1])}")
    print(f"  memory after them: resident {mb(mem['VmRSS'])} (private {mb(mem['RssAnon'])}, "
          f"mapped files {mb(mem['RssFile'])}, shared), peak {mb(mem['VmHWM'])}")
    if sample:
        exact_times, worst, worst_players = [], 0.0, 0
        for game, fast in sample:
            t = time.perf_counter()
            exact = s.exact_win_chances(game)  # type: ignore[arg-type]
            exact_times.append(time.perf_counter() - t)
            diff = max(abs(exact[k] - fast[k]) for k in exact)
            if diff >= worst:
                worst, worst_players = diff, len(exact)
        median = statistics.median(times)
        print(f"  peer, the exact way on {len(sample)} of the positions: median "
              f"{ms(statistics.median(exact_times))} ({statistics.median(exact_times) / median:.0f}"
              f" times the table's median), largest {ms(max(exact_times))}; largest difference "
              f"{100 * worst:.4f} percentage points ({worst_players} players)")
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
