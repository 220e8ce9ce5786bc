"""``yatzy stats``: games, best, mean and bonus rate per ruleset and player, and a score
histogram, from the history of finished games. The tables and messages are in the
player's language (``--lang``, else ``LANG``); ``--json`` is for programs and stays as
it is."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
from typing import Any

from babel.numbers import format_decimal, format_percent
from rich.bar import Bar
from rich.console import Console
from rich.table import Table
from rich.text import Text

from yatzy.app import GameService, StatsRow
from yatzy.cli.options import add_language_argument, command_translator
from yatzy.core.rulesets import Ruleset, ruleset_names
from yatzy.i18n import Translator, translator
from yatzy.i18n.words import box_label, ruleset_name, ruleset_title

#: Bin widths a histogram may use, smallest first.
NICE_WIDTHS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500)
MAX_BINS = 16
BAR_WIDTH = 40


def register(subparsers: Any, t: Translator) -> None:
    """Add the ``stats`` sub-command."""
    parser = subparsers.add_parser(
        "stats",
        help="show games, best and mean scores and bonus rates of finished games",
        description="Show statistics of finished games per ruleset and player.",
    )
    parser.add_argument("--db", help="the game database (default: in your data folder)")
    parser.add_argument("--rules", choices=ruleset_names(), help="only this ruleset")
    parser.add_argument("--player", help="only this player")
    parser.add_argument("--histogram", action="store_true",
                        help="also draw the distribution of final scores")
    parser.add_argument("--json", action="store_true",
                        help="print JSON for programs (never translated)")
    add_language_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, console: Console | None = None) -> int:
    """Print the statistics (and histograms) the options ask for; never creates a
    database that is not there yet."""
    console = console or Console()
    t = command_translator(args)
    # The database layer (SQLAlchemy, Alembic) loads only when a command needs it.
    from yatzy.bootstrap import db_exists, open_service
    from yatzy.cli.database import no_games_yet

    db = args.db
    if not db_exists(db):
        if args.json:
            print(json.dumps({"stats": [], "scores": []}))
            return 0
        console.print(no_games_yet(t, db), highlight=False)
        return 0
    with open_service(db) as service:
        return _show(console, t, service, args)


def _show(console: Console, t: Translator, service: GameService,
          args: argparse.Namespace) -> int:
    rows = service.stats(args.rules, args.player)
    if args.json:
        print(json.dumps(_json(service, rows, args), indent=1))
        return 0
    if not rows:
        console.print(_no_games_message(t, args), highlight=False)
        return 0
    rulesets = service.rulesets(args.rules)
    titles = {str(rules): ruleset_title(t, rules) for rules in rulesets}
    console.print(stats_table(rows, t, titles))
    if args.histogram:
        for rules in rulesets:
            _print_histogram(console, t, service, rules, args.player)
    return 0


def _json(service: GameService, rows: list[StatsRow], args: argparse.Namespace) -> Any:
    scores = [(rules, service.scores(rules, args.player)) for rules in service.rulesets(args.rules)]
    return {
        "stats": [dataclasses.asdict(row) for row in rows],
        "scores": [
            {"ruleset": rules.to_dict(), "display": str(rules), "scores": totals}
            for rules, totals in scores if totals
        ],
    }


def _no_games_message(t: Translator, args: argparse.Namespace) -> Text:
    """What ``yatzy stats`` says when no game matches (plain text: a name as it is)."""
    rules = ruleset_name(t, args.rules) if args.rules else None
    player = args.player or None
    if rules and player:
        return Text(t._("No finished games of {rules} for {player} yet. "
                        "Play one with `yatzy play`.", rules=rules, player=player))
    if rules:
        return Text(t._("No finished games of {rules} yet. Play one with `yatzy play`.",
                        rules=rules))
    if player:
        return Text(t._("No finished games for {player} yet. Play one with `yatzy play`.",
                        player=player))
    return Text(t._("No finished games yet. Play one with `yatzy play`."))


def _percent(t: Translator, rate: float) -> str:
    return str(format_percent(rate, locale=t.lang))


def _decimal(t: Translator, value: float) -> str:
    return str(format_decimal(value, format="0.0", locale=t.lang))


def stats_table(rows: list[StatsRow], t: Translator | None = None,
                titles: dict[str, str] | None = None) -> Table:
    """The statistics as a rich table, one row per ruleset and player, in ``t``'s
    language (English by default). ``titles`` maps a row's ruleset (its display form)
    to the name to show; rulesets not in it are shown as they are."""
    t = t or translator("en")
    titles = titles or {}
    table = Table(title=t._("Finished games"))
    table.add_column(t._("Ruleset"))
    table.add_column(t._("Player"))
    table.add_column(t._("Games"), justify="right")
    table.add_column(t._("Wins"), justify="right")
    table.add_column(t._("Best"), justify="right")
    table.add_column(t._("Mean"), justify="right")
    table.add_column(t._("Bonus"), justify="right")
    names = {row.ruleset.split()[0] for row in rows}
    table.add_column(box_label(t, "yahtzee" if names == {"yahtzee"} else "yatzy"),
                     justify="right")
    previous = None
    for row in rows:
        table.add_row(
            Text(titles.get(row.ruleset, row.ruleset) if row.ruleset != previous else ""),
            Text(row.player),
            str(row.games),
            str(row.wins),
            str(row.best),
            _decimal(t, row.mean),
            _percent(t, row.bonus_rate),
            _percent(t, row.yahtzee_rate),
            end_section=False,
        )
        previous = row.ruleset
    return table


def bins(scores: list[int]) -> tuple[int, int, list[int]]:
    """``(start, width, counts)`` of a histogram of ``scores``: bins of a round
    ``width`` (at most :data:`MAX_BINS` of them), the first starting at ``start``.

    >>> bins([101, 118, 125, 190])
    (100, 10, [1, 1, 1, 0, 0, 0, 0, 0, 0, 1])
    >>> bins([7, 7])
    (7, 1, [2])
    """
    low, high = min(scores), max(scores)
    width = next(w for w in (*NICE_WIDTHS, high + 1) if high // w - low // w < MAX_BINS)
    start = low // width * width
    counts = [0] * (high // width - low // width + 1)
    for score in scores:
        counts[(score - start) // width] += 1
    return start, width, counts


def histogram_table(scores: list[int], t: Translator | None = None) -> Table:
    """A histogram of ``scores`` as a rich table of bars, headed in ``t``'s language
    (English by default)."""
    t = t or translator("en")
    start, width, counts = bins(scores)
    peak = max(counts)
    table = Table(box=None, pad_edge=False)
    table.add_column(t._("Score"), justify="right")
    table.add_column(t._("Count"), justify="right")
    table.add_column("", width=BAR_WIDTH)
    for i, count in enumerate(counts):
        low = start + i * width
        label = str(low) if width == 1 else f"{low}–{low + width - 1}"
        table.add_row(label, str(count), Bar(size=peak, begin=0, end=count, width=BAR_WIDTH))
    return table


def _print_histogram(
    console: Console, t: Translator, service: GameService, rules: Ruleset,
    player: str | None,
) -> None:
    scores = service.scores(rules, player)
    if not scores:
        return
    mean = sum(scores) / len(scores)
    spread = math.sqrt(sum((s - mean) ** 2 for s in scores) / len(scores))
    name = ruleset_title(t, rules)
    if player:
        title = t._("Scores of {player} in {rules}", player=player, rules=name)
    else:
        title = t._("Scores in {rules}", rules=name)
    summary = t.ngettext("{n} score, mean {mean}, sd {sd}", "{n} scores, mean {mean}, sd {sd}",
                         len(scores), n=len(scores), mean=_decimal(t, mean),
                         sd=_decimal(t, spread))
    console.print()
    console.print(Text.assemble((title, "bold"), ": ", summary), highlight=False)
    console.print(histogram_table(scores, t))
