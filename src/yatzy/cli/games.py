"""``yatzy games``: the saved games, most recently played first, ``--export ID`` to get
one game's record (JSON, for ``yatzy analyse`` or other programs) and ``--delete ID``.
A game that can no longer be read is listed as damaged, with the reason; exporting it
gives its row as stored. The table and
messages are in the player's language (``--lang``, else ``LANG``); ``--json`` and the
exported record are for programs and stay as they are."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from yatzy.app import (
    DamagedGame,
    GameNotFound,
    GameService,
    ListedGame,
    SavedGame,
    StorageError,
    player_results,
)
from yatzy.cli.errors import CommandError
from yatzy.cli.options import (
    add_language_argument,
    command_translator,
    user_path,
    whole_number,
)
from yatzy.core.errors import RecordError
from yatzy.i18n import N_, Translator, translator
from yatzy.i18n.words import ruleset_title

#: Characters of a game's id shown in the table (any unique start of an id will do).
SHORT_ID = 8
#: The mark after the winner's total.
WINNER = "★"


#: The most games one listing shows (more would not fit a database's whole numbers).
MOST_LISTED = 1_000_000


def register(subparsers: Any, t: Translator) -> None:
    """Add the ``games`` sub-command."""
    parser = subparsers.add_parser(
        "games",
        help="list saved games, or export or delete one",
        description="List the saved games, most recently played first, or export one "
        "game's record as JSON (for `yatzy analyse`), or delete one. A game that can no "
        "longer be read is listed as damaged; it can be exported (as stored) or deleted.",
    )
    parser.add_argument("--db", help="the game database (default: in your data folder)")
    status = parser.add_mutually_exclusive_group()
    status.add_argument("--all", dest="finished", action="store_const", const=None,
                        help="finished and unfinished games (the default)")
    status.add_argument("--finished", dest="finished", action="store_const", const=True,
                        help="only finished games")
    status.add_argument("--unfinished", dest="finished", action="store_const", const=False,
                        help="only games not over yet")
    parser.add_argument("--player", help="only games this player plays in")
    parser.add_argument("-n", dest="limit", metavar="N", type=whole_number(t, 1, MOST_LISTED),
                        default=20,
                        help="list at most N games (default 20)")
    parser.add_argument("--export", metavar="ID",
                        help="print the record of this game (its id, or the start of it)")
    parser.add_argument("--delete", metavar="ID",
                        help="delete this game (its id, or the start of it)")
    parser.add_argument("--prune-unmoved", action="store_true",
                        help="delete the unfinished games nobody has moved in for a day "
                        "(web games, which players join later, only with --online)")
    parser.add_argument("--online", action="store_true",
                        help="with --prune-unmoved: web games too")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="with --export: write the record to FILE")
    parser.add_argument("--json", action="store_true",
                        help="print JSON for programs (never translated)")
    add_language_argument(parser)
    parser.set_defaults(handler=run, finished=None)


def run(args: argparse.Namespace, console: Console | None = None) -> int:
    """List the games or export one; never creates a database that is not there yet."""
    console = console or Console()
    t = command_translator(args)
    if args.output is not None and args.export is None:
        raise CommandError(N_("-o FILE goes with --export ID"))
    if args.delete is not None and args.export is not None:
        raise CommandError(N_("--delete ID and --export ID go one at a time"))
    if args.online and not args.prune_unmoved:
        raise CommandError(N_("--online goes with --prune-unmoved"))
    # The database layer (SQLAlchemy, Alembic) loads only when a command needs it.
    from yatzy.bootstrap import db_exists, open_service
    from yatzy.cli.database import no_games_yet

    db = args.db
    if not db_exists(db):
        if args.prune_unmoved:
            console.print(t.ngettext(
                "Deleted {n} unfinished game nobody had moved in for a day.",
                "Deleted {n} unfinished games nobody had moved in for a day.", 0, n=0),
                highlight=False)
            return 0
        if args.export is not None or args.delete is not None:
            raise GameNotFound(args.export or args.delete)
        if args.json:
            print(json.dumps({"games": [], "more": False}))
            return 0
        console.print(no_games_yet(t, db), highlight=False)
        return 0
    with open_service(db) as service:
        if args.export is not None:
            return _export(console, t, service, args)
        if args.prune_unmoved:
            n = service.prune_unmoved(online=args.online)
            console.print(t.ngettext(
                "Deleted {n} unfinished game nobody had moved in for a day.",
                "Deleted {n} unfinished games nobody had moved in for a day.", n, n=n),
                highlight=False)
            return 0
        if args.delete is not None:
            game_id = service.full_id(args.delete)
            service.delete(game_id)
            console.print(t._("Deleted game {id}.", id=game_id[:SHORT_ID]), highlight=False)
            return 0
        return _list(console, t, service, args)


# --- Export -----------------------------------------------------------------------------


def _export(console: Console, t: Translator, service: GameService,
            args: argparse.Namespace) -> int:
    game_id = service.full_id(args.export)
    try:
        game = service.load(game_id).game
        # The seed of a game in play is left out: with it, every roll to come is known.
        text = json.dumps(game.to_record(hide_seed=not game.is_over), indent=2) + "\n"
    except (RecordError, StorageError) as exc:
        # A game that no longer reads: its row as stored (a database that fails raises
        # again here).
        text = json.dumps(service.stored(game_id), indent=2, ensure_ascii=False) + "\n"
        Console(stderr=True).print(Text(t._(
            "Game {id} cannot be read ({reason}): this is its row as stored.",
            id=game_id[:SHORT_ID], reason=exc.message)), highlight=False)
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        user_path(args.output).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(N_("Cannot write {file}: {reason}"), file=args.output,
                           reason=exc.strerror or exc) from None
    console.print(Text(t._("Wrote the record of game {id} to {file}.",
                           id=game_id[:SHORT_ID], file=args.output)), highlight=False)
    return 0


# --- The list ---------------------------------------------------------------------------


def _list(console: Console, t: Translator, service: GameService,
          args: argparse.Namespace) -> int:
    found = service.recent(args.limit + 1, finished=args.finished, player=args.player)
    shown, more = found[: args.limit], len(found) > args.limit
    if args.json:
        print(json.dumps({"games": [game_json(saved) for saved in shown], "more": more},
                         indent=1))
        return 0
    if not shown:
        filtered = args.finished is not None or args.player is not None
        console.print(t._("No saved games match the selection.") if filtered else
                      t._("No saved games yet. Play one with `yatzy play`."), highlight=False)
        return 0
    console.print(games_table(shown, t))
    for damaged in (g for g in shown if isinstance(g, DamagedGame)):
        console.print(t._(
            "Game {id} cannot be read: `yatzy games --export {id}` saves what is stored,"
            " `yatzy games --delete {id}` deletes it.", id=damaged.id[:SHORT_ID]),
            highlight=False)
    if more:
        console.print(t.ngettext(
            "Only the most recently played game is listed; -n N lists more.",
            "Only the {n} most recently played games are listed; -n N lists more.",
            args.limit, n=args.limit), highlight=False)
    return 0


def _places(saved: SavedGame) -> list[int | None]:
    if not saved.finished:
        return [None] * len(saved.seats)
    return [result.place for result in player_results(saved)]


def game_json(saved: ListedGame) -> dict[str, Any]:
    """One game of ``yatzy games --json`` (a damaged one: its id, ``damaged`` with the
    reason, and what its row still says)."""
    if isinstance(saved, DamagedGame):
        return {
            "id": saved.id,
            "damaged": saved.reason,
            "updated_at": None if saved.updated_at is None else saved.updated_at.isoformat(),
            "finished": saved.finished,
        }
    game = saved.game
    return {
        "id": saved.id,
        "created_at": saved.created_at.isoformat(),
        "updated_at": saved.updated_at.isoformat(),
        "ruleset": game.ruleset.to_dict(),
        "display": str(game.ruleset),
        "dice_mode": saved.dice_mode,
        "finished": saved.finished,
        "round": game.round,
        "rounds": len(game.ruleset.boxes),
        "steps": saved.steps,
        "players": [
            {"name": seat.name, "bot": seat.bot, "total": card.total, "place": place}
            for seat, card, place in zip(saved.seats, game.cards, _places(saved), strict=True)
        ],
    }


def _players(saved: SavedGame) -> Text:
    parts = []
    for seat, card, place in zip(saved.seats, saved.game.cards, _places(saved), strict=True):
        mark = f" {WINNER}" if place == 1 else ""
        parts.append(f"{seat.name} {card.total}{mark}")
    return Text(", ".join(parts))  # names as they are: not rich markup


def games_table(games: list[ListedGame], t: Translator | None = None) -> Table:
    """The games as a rich table, one row each, in ``t``'s language (English by
    default); a damaged game says so, with the reason, in its status."""
    t = t or translator("en")
    table = Table(title=t._("Saved games"))
    if any(isinstance(saved, SavedGame) and saved.finished for saved in games):
        table.caption = t._("{mark} marks the winner", mark=WINNER)
    table.add_column(t._("ID"), no_wrap=True)
    table.add_column(t._("Last played"), no_wrap=True)
    table.add_column(t._("Ruleset"))
    table.add_column(t._("Players"))
    table.add_column(t._("Status"))
    for saved in games:
        if isinstance(saved, DamagedGame):
            when = saved.updated_at
            table.add_row(
                saved.id[:SHORT_ID],
                "?" if when is None else when.astimezone().strftime("%Y-%m-%d %H:%M"),
                "?", "?",
                Text(t._("Damaged: {reason}", reason=saved.reason)),
            )
            continue
        game = saved.game
        if saved.finished:
            status = t._("Finished")
        else:
            status = t._("Round {round} of {rounds}", round=game.round,
                         rounds=len(game.ruleset.boxes))
        table.add_row(
            saved.id[:SHORT_ID],
            saved.updated_at.astimezone().strftime("%Y-%m-%d %H:%M"),
            Text(ruleset_title(t, game.ruleset)),
            _players(saved),
            status,
        )
    return table
