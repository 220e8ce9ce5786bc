"""How long the ``winner`` level takes per decision, through the bot's own call.

    python bench/winner.py [--rules yatzy] [--games 200] [--players 2]

Plays ``--games`` games of ``winner`` against ``optimal`` players (``--players`` in all)
and times every ``winner`` decision (``Bot.choose(game)``): the median, the 99th
percentile and the largest, and apart the first decision of a turn (which plans the
turn) and the others (which reuse it). The table of what is still to come is opened
(mapped from its file; built and saved first when there is none) and timed apart, with
the start-up (from the process's start to the table ready) and the very first decision;
the memory is the resident set at the end (the table file's pages counted apart: they are
shared by every process that maps it) and the peak. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time

from procstat import memory

START = time.perf_counter()

import yatzy  # noqa: E402 - after START: the start-up counts the imports
from yatzy.bots import make_bot  # noqa: E402
from yatzy.solver import artifacts  # noqa: E402
from yatzy.solver.winning import remaining_table  # noqa: E402


def ms(x: float) -> str:
    return f"{x * 1000:.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="yatzy", help="ruleset (default yatzy)")
    parser.add_argument("--games", type=int, default=200, help="games (default 200)")
    parser.add_argument("--players", type=int, default=2, help="players (default 2)")
    args = parser.parse_args()
    r = yatzy.ruleset(args.rules)
    s = yatzy.strategy(r)
    had = artifacts.remaining_path(r, s.path.parent if s.path else None).is_file()
    start = time.perf_counter()
    remaining_table(s)
    build = time.perf_counter() - start
    startup = time.perf_counter() - START
    first_move: float | None = None
    winner, optimal = make_bot("winner"), make_bot("optimal")
    first: list[float] = []
    later: list[float] = []
    for seed in range(args.games):
        game = yatzy.new_game(r, [f"p{i}" for i in range(args.players)], seed=seed)
        seat = seed % args.players
        while not game.is_over:
            bot = winner if game.current_seat == seat else optimal
            t = time.perf_counter()
            action = bot.choose(game)
            spent = time.perf_counter() - t
            if bot is winner and first_move is None and game.dice is not None:
                first_move = spent
            if bot is winner and game.dice is not None:
                (first if game.rolls_left == r.rolls - 1 else later).append(spent)
            game = game.apply(action)
    every = sorted(first + later)

    mem = memory()
    print(f"{args.rules}, {args.players} players, {args.games} games; load average "
          f"{os.getloadavg()[0]:.2f}; table {'opened' if had else 'built and saved'} in "
          f"{build:.1f} s; start-up {startup:.1f} s; first decision after a roll "
          f"{ms(first_move or 0.0)}")
    print(f"  memory at the end: resident {mem['VmRSS'] / 1024:.0f} MB (private "
          f"{mem['RssAnon'] / 1024:.0f} MB, mapped files {mem['RssFile'] / 1024:.0f} MB, "
          f"shared), peak {mem['VmHWM'] / 1024:.0f} MB (getrusage "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)")
    for name, times in (("every decision", every), ("first of a turn", sorted(first)),
                        ("later in a turn", sorted(later))):
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(f"  {name:<16} {len(times):6} decisions: median {ms(statistics.median(times))}, "
              f"99th percentile {ms(p99)}, largest {ms(times[-1])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
