"""``yatzy simulate``: many solitaire games of a computer player and their statistics,
in the player's language (``--lang``, else ``LANG``); ``--json`` is for programs and
stays as it is."""

from __future__ import annotations

import argparse
import contextlib
import json
from typing import Any

from yatzy.cli.numbers import decimal, percent, whole
from yatzy.cli.options import (
    add_language_argument,
    add_ruleset_arguments,
    command_translator,
    ruleset_from_args,
    whole_number,
)
from yatzy.cli.plots import new_figure, plot_file, save_figure
from yatzy.cli.solve import load_strategy
from yatzy.core.rulesets import Ruleset
from yatzy.core.seeded import MAX_SEED
from yatzy.i18n import Translator
from yatzy.i18n.words import BONUS_LABEL, box_label, ruleset_title

#: The most games one simulation plays (about 90 bytes each on the fast path).
MOST_SIMULATED = 10_000_000

def register(subparsers: Any, t: Translator) -> None:
    simulate = subparsers.add_parser(
        "simulate",
        help="play many solitaire games with a computer player and print statistics",
        description="Play many solitaire games with a computer player and print the "
        "score statistics. The solver's levels (easy, medium, hard, optimal) play "
        "directly on the value tables (fast); other players play real games (slow).",
    )
    add_ruleset_arguments(simulate, t)
    simulate.add_argument("--bot", default="optimal", help="the computer player (default "
                          "optimal; easy, medium, hard, greedy, random)")
    simulate.add_argument("-n", "--games", type=whole_number(t, 1, MOST_SIMULATED),
                          default=10_000, help="number of games (default 10000)")
    simulate.add_argument("--seed", type=whole_number(t, 0, MAX_SEED), default=0,
                          help="random seed (default 0)")
    simulate.add_argument("--plot", metavar="FILE",
                          help="save a histogram of the scores (FILE.png, .svg, .pdf, ...; "
                          "no extension: .png)")
    simulate.add_argument("--json", action="store_true", help="print JSON for programs")
    add_language_argument(simulate)
    simulate.set_defaults(handler=run_simulate)


def _simulate_saved(t: Translator, args: argparse.Namespace, ruleset: Ruleset) -> int:
    """The optimal player of a ruleset with saved rolls, on the table ``yatzy solve``
    built (exact: no cap), in compiled code (see yatzy.solver.saved.simulate_saved):
    Maxi Yatzy in order about 29,000 games a second, upper section first about 5,000
    (see docs/solver.md)."""
    import numpy as np

    from yatzy.bots.solver_bots import simulate_level
    from yatzy.solver.policy import saved_strategy

    sol = saved_strategy(ruleset).solution  # TableNotBuilt without its table
    plot = plot_file(args.plot) if args.plot else None
    result = simulate_level(args.bot, ruleset, args.games, seed=args.seed)
    scores, seconds = result.scores, result.seconds
    games = len(scores)
    sd = float(scores.std(ddof=1)) if games > 1 else 0.0
    mean = float(scores.mean())
    pct = {q: int(np.percentile(scores, q, method="inverted_cdf"))
           for q in (1, 5, 10, 25, 50, 75, 90, 95, 99)}
    data = {"ruleset": ruleset.to_dict(), "bot": args.bot, "games": games, "seed": args.seed,
            "mean": mean, "standard_error": sd / games**0.5, "sd": sd, "median": pct[50],
            "percentiles": pct, "upper_bonus_rate": result.bonus_rate,
            "yahtzee_rate": result.yahtzee_rate, "seconds": seconds,
            "expected_score": sol.start_value}
    title = ruleset_title(t, ruleset)
    if args.json:
        print(json.dumps(data))
    else:
        print(t.ngettext(
            "{rules} — {bot}, {n} game (seed {seed}) in {seconds} s ({rate} games/s)",
            "{rules} — {bot}, {n} games (seed {seed}) in {seconds} s ({rate} games/s)",
            games, rules=title, bot=args.bot, n=whole(t, games), seed=args.seed,
            seconds=decimal(t, seconds, 2), rate=whole(t, round(games / max(seconds, 1e-9)))))
        print(t._("mean {mean} ± {error} (standard error)  SD {sd}  median {median}",
                  mean=decimal(t, mean, 3), error=decimal(t, sd / games**0.5, 3),
                  sd=decimal(t, sd, 2), median=whole(t, pct[50])))
        print(t._("percentiles  {list}", list="  ".join(
            f"{q}%: {whole(t, v)}" for q, v in pct.items())))
        print(t._("exact expected score {score}", score=decimal(t, sol.start_value, 7)))
    if plot is not None:
        fig, ax = new_figure()
        ax.hist(scores, bins=min(80, max(10, games // 50)), color="#3a6ea5")
        ax.set_title(t.ngettext("{rules} — {bot}, {n} game", "{rules} — {bot}, {n} games",
                                games, rules=title, bot=args.bot, n=whole(t, games)))
        save_figure(fig, plot)
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    from yatzy.bots import check_level
    from yatzy.bots.solver_bots import LEVELS, simulate_level
    from yatzy.solver import TableNotBuilt

    t = command_translator(args)
    ruleset = ruleset_from_args(args)
    if ruleset.saved_rolls and args.bot == "optimal":
        return _simulate_saved(t, args, ruleset)
    with contextlib.suppress(TableNotBuilt):  # a command builds any table the solver
        check_level(args.bot, ruleset)        # plays: see load_strategy below
    # A bad file name is refused before the games are played, not after.
    plot = plot_file(args.plot) if args.plot else None
    # Only the solver's levels need its table (built with a progress bar if need be).
    solved = load_strategy(t, ruleset) if args.bot in LEVELS else None
    result = simulate_level(args.bot, ruleset, args.games, seed=args.seed)
    pct = result.percentiles()
    data = {
        "ruleset": ruleset.to_dict(),
        "bot": args.bot,
        "games": result.games,
        "seed": args.seed,
        "mean": result.mean,
        "standard_error": result.standard_error,
        "sd": result.sd,
        "median": result.median,
        "percentiles": pct,
        "upper_bonus_rate": result.bonus_rate,
        "yahtzee_rate": result.yahtzee_rate,
        "extra_yahtzees_per_game": float(result.extra_yahtzees.mean()),
        "seconds": result.seconds,
    }
    title = ruleset_title(t, ruleset)
    plot_title = t.ngettext("{rules} — {bot}, {n} game", "{rules} — {bot}, {n} games",
                            result.games, rules=title, bot=args.bot, n=whole(t, result.games))
    if args.json:
        print(json.dumps(data))
        if plot is not None:
            _plot(t, result, plot, plot_title)
        return 0
    print(t.ngettext(
        "{rules} — {bot}, {n} game (seed {seed}) in {seconds} s ({rate} games/s)",
        "{rules} — {bot}, {n} games (seed {seed}) in {seconds} s ({rate} games/s)",
        result.games, rules=title, bot=args.bot, n=whole(t, result.games), seed=args.seed,
        seconds=decimal(t, result.seconds, 2), rate=whole(t, round(result.games_per_second))))
    print(t._("mean {mean} ± {error} (standard error)  SD {sd}  median {median}",
              mean=decimal(t, result.mean, 3), error=decimal(t, result.standard_error, 3),
              sd=decimal(t, result.sd, 2), median=_score(t, result.median)))
    print(t._("percentiles  {list}", list="  ".join(
        f"{q}%: {_score(t, v)}" for q, v in pct.items())))
    line = t._("upper bonus {bonus}  {box} {rate}", bonus=percent(t, result.bonus_rate),
               box=box_label(t, ruleset.yahtzee_box), rate=percent(t, result.yahtzee_rate))
    if ruleset.extra_yahtzee_points:
        line += "  " + t._("{bonus} per game {n}", bonus=t._(BONUS_LABEL),
                           n=decimal(t, result.extra_yahtzees.mean(), 4))
    print(line)
    if args.bot == "optimal" and solved is not None:
        print(t._("exact expected score {score}", score=decimal(t, solved.expected_score, 7)))
    if plot is not None:
        # After the statistics, so that a file that cannot be written loses none of them.
        _plot(t, result, plot, plot_title)
        print(t._("histogram saved to {file}", file=plot))
    return 0


def _score(t: Translator, value: float) -> str:
    """A median or percentile: whole, or with its half."""
    return decimal(t, value, 0 if float(value).is_integer() else 1)


def _plot(t: Translator, result: Any, path: str, title: str) -> None:
    fig, ax = new_figure()
    scores = result.scores
    ax.hist(scores, bins=range(int(scores.min()), int(scores.max()) + 2), color="#3a6ea5")
    ax.axvline(result.mean, color="#c0392b",
               label=t._("mean {mean}", mean=decimal(t, result.mean, 2)))
    ax.set_xlabel(t._("final score"))
    ax.set_ylabel(t._("games"))
    ax.set_title(title)
    ax.legend()
    save_figure(fig, path)
