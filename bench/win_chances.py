"""Calibration of the live win chances, measured on simulated two-player games.

    python bench/win_chances.py [--rules yatzy] [--games 100000] [--seed 1]

Two optimal players' games are independent (neither looks at the other), so a
two-player game is two solitaire games of the fast simulation (games 2i and 2i + 1 of
``simulate.states``). At the start of every round the first player's chance of winning
(a tie counting one half) is predicted from the two players' score distributions, as
``Strategy.win_chances`` gives them (looked up in a ``RemainingTable``), and compared with
how the game ended. Prints the Brier score per round and over all rounds, and the
calibration table: in each tenth of predicted probability, the mean prediction, the
observed frequency and their difference. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

import numpy as np

import yatzy
from yatzy.solver.distribution import ScoreDistribution, win_shares
from yatzy.solver.remaining import RemainingTable
from yatzy.solver.simulate import states


def first_wins(a: tuple[int, np.ndarray], b: tuple[int, np.ndarray], lead: int) -> float:
    """The first player's share of the win (``Strategy.win_chances``'s rule, from
    ``distribution.win_shares``) when A = ``lead`` + X and B = Y, X and Y independent with
    the chances ``(lowest, chances)`` of the rows ``a`` and ``b``."""
    (la, pa), (lb, pb) = a, b
    # Shifted so that both are at least 0, as final scores are.
    base = max(0, -(lead + la))
    mine = ScoreDistribution(base + lead + la, pa.astype(np.float64))
    theirs = ScoreDistribution(base + lb, pb.astype(np.float64))
    return win_shares([mine, theirs])[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="yatzy", help="ruleset (default yatzy)")
    parser.add_argument("--games", type=int, default=100_000,
                        help="two-player games (default 100000)")
    parser.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    args = parser.parse_args()
    s = yatzy.strategy(yatzy.ruleset(args.rules))
    start = time.perf_counter()
    table = RemainingTable(s)
    build = time.perf_counter() - start
    start = time.perf_counter()
    history = states(s, 2 * args.games, seed=args.seed)
    sim = time.perf_counter() - start
    nb = s.model.boxes
    final = history[:, nb, 3]
    outcome = np.where(final[0::2] > final[1::2], 1.0,
                       np.where(final[0::2] == final[1::2], 0.5, 0.0))
    start = time.perf_counter()
    predicted = np.zeros((args.games, nb))
    cache: dict[tuple[int, int, int], float] = {}
    rows: dict[tuple[int, int, int], int] = {}

    def row(mask: int, y: int, u: int) -> int:
        key = (mask, y, u)
        found = rows.get(key)
        if found is None:
            found = rows[key] = table.row(mask, y, u)
        return found

    for g in range(args.games):
        a_hist, b_hist = history[2 * g], history[2 * g + 1]
        for turn in range(nb):
            ma, ya, ua, ta = a_hist[turn].tolist()
            mb, yb, ub, tb = b_hist[turn].tolist()
            ra, rb = row(ma, ya, ua), row(mb, yb, ub)
            key = (ra, rb, ta - tb)
            p = cache.get(key)
            if p is None:
                p = cache[key] = first_wins(table.chances(ra), table.chances(rb), ta - tb)
            predicted[g, turn] = p
    score_time = time.perf_counter() - start
    brier = (predicted - outcome[:, None]) ** 2
    print(f"{args.rules}: {args.games:,} two-player games of optimal players (seed "
          f"{args.seed}); load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs")
    print(f"  table: {table.rows:,} states, {table.nbytes / 1e6:.0f} MB, built in "
          f"{build:.1f} s; simulation {sim:.1f} s; {args.games * nb:,} predictions in "
          f"{score_time:.1f} s; peak memory "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    print(f"  first player's wins: {outcome.mean():.4f} (ties {np.mean(outcome == 0.5):.4f})")
    print("  Brier score by round: " + ", ".join(
        f"{t + 1}: {brier[:, t].mean():.4f}" for t in range(nb)))
    print(f"  Brier score, all rounds: {brier.mean():.4f}")
    print()
    print("| predicted | predictions | mean predicted | observed | difference (points) |")
    print("|---|---:|---:|---:|---:|")
    p = predicted.ravel()
    o = np.repeat(outcome, nb)
    worst = 0.0
    for k in range(10):
        inside = (p >= k / 10) & ((p < (k + 1) / 10) if k < 9 else (p <= 1.0))
        if not inside.any():
            continue
        mean_p, mean_o = p[inside].mean(), o[inside].mean()
        se = o[inside].std() / np.sqrt(inside.sum())
        worst = max(worst, abs(mean_p - mean_o))
        print(f"| {k / 10:.1f}–{(k + 1) / 10:.1f} | {inside.sum():,} | {mean_p:.4f} | "
              f"{mean_o:.4f} ± {se:.4f} | {100 * (mean_o - mean_p):+.2f} |")
    print(f"\nlargest calibration error: {100 * worst:.2f} percentage points")
    return 0


if __name__ == "__main__":
    sys.exit(main())
