"""``yatzy match``: computer levels play each other, and each level's share of the wins,
in the player's language (``--lang``, else ``LANG``); ``--json`` is for programs and
stays as it is. The games and the tallies are :func:`yatzy.app.match.play_match`'s."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from fractions import Fraction
from typing import Any

from babel.numbers import format_decimal
from rich.console import Console
from rich.table import Table

from yatzy.app.match import (
    MOST_MATCH_GAMES,
    MatchResult,
    Progress,
    check_games,
    check_levels,
    play_match,
)
from yatzy.cli.numbers import decimal, whole
from yatzy.cli.options import (
    add_language_argument,
    add_ruleset_arguments,
    command_translator,
    ruleset_from_args,
    whole_number,
)
from yatzy.core.seeded import MAX_SEED
from yatzy.i18n import Translator
from yatzy.i18n.words import ruleset_title

#: Games per level when ``-n`` is not given: a thousand deals.
DEFAULT_DEALS = 1000


def register(subparsers: Any, t: Translator) -> None:
    match = subparsers.add_parser(
        "match",
        help="play computer levels against each other and print each one's share of the wins",
        description="Play computer levels against each other and print each level's "
        "share of the wins (a shared first place counts 1/k to each of the k sharing "
        "it) with its standard error, and its mean score. The games are played in deals "
        "of one game per level: each level sits once in every seat of a deal, and every "
        "seat has the same dice in all the deal's games.",
    )
    match.add_argument("levels", nargs="+", metavar="LEVEL",
                       help="two or more computer players (random, greedy, easy, medium, "
                       "hard, optimal); a level may be given more than once")
    add_ruleset_arguments(match, t)
    match.add_argument("-n", "--games", type=whole_number(t, 1, MOST_MATCH_GAMES),
                       default=None, help="number of games, a multiple of the number of "
                       f"levels (default {DEFAULT_DEALS} per level)")
    match.add_argument("--seed", type=whole_number(t, 0, MAX_SEED), default=0,
                       help="random seed of the dice and the computers' choices (default 0)")
    match.add_argument("--json", action="store_true", help="print JSON for programs")
    add_language_argument(match)
    match.set_defaults(handler=run_match)


@contextmanager
def _progress(t: Translator, games: int) -> Iterator[Progress | None]:
    """A progress bar on standard error while the games are played (none when it is
    not a terminal)."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich import progress as bars

    title = t.ngettext("Playing {n} game", "Playing {n} games", games, n=whole(t, games))
    with bars.Progress(bars.TextColumn(title), bars.BarColumn(), bars.MofNCompleteColumn(),
                       bars.TimeRemainingColumn(), console=Console(stderr=True),
                       transient=True) as bar:
        task = bar.add_task(title, total=games)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def run_match(args: argparse.Namespace, console: Console | None = None) -> int:
    from yatzy.bots.solver_bots import LEVELS
    from yatzy.solver import TableNotBuilt

    t = command_translator(args)
    ruleset = ruleset_from_args(args)
    try:
        levels = check_levels(args.levels, ruleset)
    except TableNotBuilt:  # a command builds any table the solver plays: see below
        levels = check_levels(args.levels)
    games = check_games(DEFAULT_DEALS * len(levels) if args.games is None else args.games,
                        len(levels))
    if any(level in LEVELS for level in levels):
        # The solver's table, built with a progress bar if need be, before the games.
        from yatzy.cli.solve import load_strategy

        load_strategy(t, ruleset)
    if "winner" in levels:
        from yatzy.bots.solver_bots import prepare
        from yatzy.cli.solve import progress_line

        # Its first move would build a table for seconds with the games' bar at 0.
        with progress_line(t._("Preparing winner: the table of the points still to come")):
            prepare("winner", ruleset)
    start = time.perf_counter()
    with _progress(t, games) as update:
        result = play_match(levels, games, ruleset, args.seed, progress=update)
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({**result.to_dict(), "seconds": seconds}))
        return 0
    _show(console or Console(highlight=False), t, result, seconds)
    return 0


def _percent(t: Translator, rate: float | Fraction, *, sign: bool = False) -> str:
    """A share as a percentage with two decimals (with its sign: ``+1.50%``); a
    :class:`~fractions.Fraction` is rounded exactly (a float like 0.52595 may be a hair
    below or above what it stands for)."""
    pattern = "+#,##0.00%;-#,##0.00%" if sign else "#,##0.00%"
    value = rate if isinstance(rate, float) else Decimal(rate.numerator) / rate.denominator
    return str(format_decimal(value, format=pattern, locale=t.lang))


def _with_error(value: str, error: str | None) -> str:
    return value if error is None else f"{value} ± {error}"


def standings_table(t: Translator, result: MatchResult) -> Table:
    """Each entrant's wins, share of the wins and mean score, with standard errors."""
    k = len(result.levels)
    table = Table(box=None, pad_edge=False)
    table.add_column("")
    table.add_column(t._("Level"))
    table.add_column(t._("Wins"), justify="right")
    table.add_column(t._("Share of wins"), justify="right")
    table.add_column(t._("Against a fair share"), justify="right")
    table.add_column(t._("Mean score"), justify="right")
    # Wins are whole unless a first place was shared: then all of them get decimals.
    places = 0 if all(float(s.wins).is_integer() for s in result.standings) else 2
    for s in result.standings:
        share_error = None if s.share_error is None else _percent(t, s.share_error)
        score_error = None if s.score_error is None else decimal(t, s.score_error, 2)
        table.add_row(f"{s.entrant + 1}.", s.level,
                      decimal(t, s.wins, places),
                      _with_error(_percent(t, result.exact_share(s.entrant)), share_error),
                      _percent(t, result.exact_share(s.entrant) - Fraction(1, k), sign=True),
                      _with_error(decimal(t, s.mean_score, 2), score_error))
    return table


def _show(console: Console, t: Translator, result: MatchResult, seconds: float) -> None:
    rate = result.games / seconds if seconds > 0 else 0.0
    print(t.ngettext(
        "{rules} — {n} game (seed {seed}) in {seconds} s ({rate} games/s)",
        "{rules} — {n} games (seed {seed}) in {seconds} s ({rate} games/s)",
        result.games, rules=ruleset_title(t, result.ruleset), n=whole(t, result.games),
        seed=result.seed, seconds=decimal(t, seconds, 2), rate=whole(t, round(rate))))
    console.print(standings_table(t, result))
    k = len(result.levels)
    print(t.ngettext(
        "{deals} deal of {k} games: each level sat once in every seat of a deal, with the "
        "same dice in each seat. Fair share {fair}.",
        "{deals} deals of {k} games: each level sat once in every seat of a deal, with "
        "the same dice in each seat. Fair share {fair}.",
        result.deals, deals=whole(t, result.deals), k=k, fair=_percent(t, Fraction(1, k))))
    if result.deals > 1:
        print(t._("± is one standard error, taken over the deals."))
    else:
        print(t._("One deal gives no standard error: play two deals or more."))
    print(t.ngettext(
        "First place was shared in {n} game; a first place shared by k players counts 1/k "
        "to each.",
        "First place was shared in {n} games; a first place shared by k players counts "
        "1/k to each.",
        result.shared_firsts, n=whole(t, result.shared_firsts)))
