"""``yatzy stats``: games, best, mean and bonus rate per ruleset and player, and a score
histogram, from the history of finished games."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
from pathlib import Path
from typing import Any

from rich.bar import Bar
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from yatzy.app import GameService, StatsRow
from yatzy.bootstrap import default_db, describe_db, open_service
from yatzy.core.rulesets import RULESET_NAMES, Ruleset
from yatzy.storage.engine import is_url

#: Bin widths a histogram may use, smallest first.
NICE_WIDTHS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500)
MAX_BINS = 16
BAR_WIDTH = 40


def register(subparsers: Any) -> None:
    """Add the ``stats`` sub-command."""
    parser = subparsers.add_parser(
        "stats",
        help="show games, best and mean scores and bonus rates of finished games",
        description="Show statistics of finished games per ruleset and player.",
    )
    parser.add_argument("--db", help="the game database (default: in your data folder)")
    parser.add_argument("--rules", choices=RULESET_NAMES, help="only this ruleset")
    parser.add_argument("--player", help="only this player")
    parser.add_argument("--histogram", action="store_true",
                        help="also draw the distribution of final scores")
    parser.add_argument("--json", action="store_true", help="print JSON for programs")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace, console: Console | None = None) -> int:
    """Print the statistics (and histograms) the options ask for; never creates a
    database that is not there yet."""
    console = console or Console()
    db = default_db() if args.db is None else args.db
    if not is_url(db) and not Path(db).expanduser().exists():
        if args.json:
            print(json.dumps({"stats": [], "scores": []}))
            return 0
        console.print(f"No games yet: there is no game database at {escape(describe_db(db))}.\n"
                      "Play one with `yatzy play`.")
        return 0
    with open_service(db) as service:
        rows = service.stats(args.rules, args.player)
        if args.json:
            print(json.dumps(_json(service, rows, args), indent=1))
            return 0
        if not rows:
            console.print(_no_games_message(args))
            return 0
        console.print(stats_table(rows))
        if args.histogram:
            for rules in service.rulesets(args.rules):
                _print_histogram(console, service, rules, args.player)
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


def _no_games_message(args: argparse.Namespace) -> str:
    which = []
    if args.rules:
        which.append(f"of {args.rules}")
    if args.player:
        which.append(f"for {escape(args.player)}")
    suffix = f" {' '.join(which)}" if which else ""
    return f"No finished games{suffix} yet. Play one with `yatzy play`."


def _percent(rate: float) -> str:
    return f"{rate:.0%}"


def stats_table(rows: list[StatsRow]) -> Table:
    """The statistics as a rich table, one row per ruleset and player."""
    table = Table(title="Finished games")
    table.add_column("Ruleset")
    table.add_column("Player")
    table.add_column("Games", justify="right")
    table.add_column("Wins", justify="right")
    table.add_column("Best", justify="right")
    table.add_column("Mean", justify="right")
    table.add_column("Bonus", justify="right")
    names = {row.ruleset.split()[0] for row in rows}
    table.add_column("Yahtzee" if names == {"yahtzee"} else "Yatzy", justify="right")
    previous = None
    for row in rows:
        table.add_row(
            row.ruleset if row.ruleset != previous else "",
            escape(row.player),
            str(row.games),
            str(row.wins),
            str(row.best),
            f"{row.mean:.1f}",
            _percent(row.bonus_rate),
            _percent(row.yahtzee_rate),
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


def histogram_table(scores: list[int]) -> Table:
    """A histogram of ``scores`` as a rich table of bars."""
    start, width, counts = bins(scores)
    peak = max(counts)
    table = Table(box=None, pad_edge=False)
    table.add_column("Score", justify="right")
    table.add_column("Count", justify="right")
    table.add_column("", width=BAR_WIDTH)
    for i, count in enumerate(counts):
        low = start + i * width
        label = str(low) if width == 1 else f"{low}–{low + width - 1}"
        table.add_row(label, str(count), Bar(size=peak, begin=0, end=count, width=BAR_WIDTH))
    return table


def _print_histogram(
    console: Console, service: GameService, rules: Ruleset, player: str | None
) -> None:
    scores = service.scores(rules, player)
    if not scores:
        return
    mean = sum(scores) / len(scores)
    spread = math.sqrt(sum((s - mean) ** 2 for s in scores) / len(scores))
    who = f", {escape(player)}" if player else ""
    console.print()
    console.print(f"[bold]Scores in {rules}{who}[/bold]: {len(scores)} scores,"
                  f" mean {mean:.1f}, sd {spread:.1f}", highlight=False)
    console.print(histogram_table(scores))
