"""``yatzy analyse``: every decision of a recorded game priced against optimal play, in
the player's language (``--lang``, else ``LANG``); ``--json`` is for programs and stays
as it is."""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any

from yatzy.app.advice import check_chances
from yatzy.app.hints import describe_action
from yatzy.cli.errors import CommandError
from yatzy.cli.numbers import decimal, percent
from yatzy.cli.options import add_language_argument, command_translator
from yatzy.cli.plots import new_figure, plot_file, save_figure
from yatzy.cli.solve import load_strategy, progress_line
from yatzy.core import rules
from yatzy.core.actions import Action, Score
from yatzy.i18n import N_, Translator
from yatzy.i18n.words import box_label, ruleset_title

if TYPE_CHECKING:
    from yatzy.app import SavedGame
    from yatzy.core.game import Game
    from yatzy.solver.analysis import Decision, WinChances

#: The most bytes of a game record read: a finished game of six players is about 30 kB.
MOST_RECORD_BYTES = 4_000_000


def register(subparsers: Any, t: Translator) -> None:
    analyse = subparsers.add_parser(
        "analyse",
        aliases=["analyze"],
        help="price every decision of a recorded game against optimal play",
        description="Replay a game record (JSON) and print, for every reroll and box "
        "chosen, the best choice, both expected final scores and the points lost. The "
        "record is a file, - for standard input, or a saved game (--game ID).",
    )
    analyse.add_argument("record", nargs="?",
                         help="the game record (JSON file, - for standard input)")
    analyse.add_argument("--game", metavar="ID",
                         help="a saved game instead: its id or the start of it "
                         "(see `yatzy games`)")
    analyse.add_argument("--db", help="with --game: the game database (default: in your "
                         "data folder)")
    analyse.add_argument("--player", help="only this player's decisions")
    analyse.add_argument("--win-chances", action="store_true",
                         help="also every player's chance of winning at the start of every "
                         "turn (two players or more)")
    analyse.add_argument("--plot", metavar="FILE",
                         help="with --win-chances: save their graph (FILE.png, .svg, .pdf, "
                         "...; no extension: .png)")
    analyse.add_argument("--json", action="store_true", help="print JSON for programs")
    add_language_argument(analyse)
    analyse.set_defaults(handler=run_analyse)


def _action_text(t: Translator, action: Action, d: Decision) -> str:
    """A decision's action in words: ``keep 4 4`` or ``Small straight (0)``."""
    if not isinstance(action, Score):
        return describe_action(t, d.dice, action)
    r = d.card.ruleset
    return t._("{box} ({points})", box=box_label(t, action.box),
               points=rules.choices(r, d.card, d.dice)[action.box])


def _game_to_analyse(args: argparse.Namespace) -> Game:
    """The game ``yatzy analyse`` is asked about: from a record file, standard input
    (``-``) or the game database (``--game ID``)."""
    from yatzy.core.game import Game

    if args.record is not None and args.game is not None:
        raise CommandError(N_("Give a game record or --game ID, not both"))
    if args.record is None and args.game is None:
        raise CommandError(N_("Give a game record (a JSON file, or - for standard input) "
                              "or --game ID"))
    if args.db is not None and args.game is None:
        raise CommandError(N_("--db goes with --game ID"))
    if args.game is not None:
        return _saved_game(args.game, args.db).game
    if args.record == "-":
        # The bytes, as a file's: the record format (the core) decodes and checks them.
        return Game.from_json(_read_record(getattr(sys.stdin, "buffer", sys.stdin)))
    try:
        # Opened without waiting: a FIFO with no writer would block the open for good.
        fd = os.open(args.record, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise CommandError(N_("Cannot read {file}: {reason}"), file=args.record,
                           reason=exc.strerror or exc) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        # A FIFO, a device, a socket, a folder: not a game record (standard input, -,
        # reads a pipe).
        os.close(fd)
        raise CommandError(N_("{file} is not a file: give a game record, or - for "
                              "standard input"), file=args.record)
    with open(fd, "rb") as f:
        try:
            data = _read_record(f)
        except OSError as exc:
            raise CommandError(N_("Cannot read {file}: {reason}"), file=args.record,
                               reason=exc.strerror or exc) from None
    return Game.from_json(data)


def _read_record(source: IO[Any]) -> Any:
    """At most :data:`MOST_RECORD_BYTES` of ``source``: more is no game record (and
    ``/dev/zero`` would be read without end)."""
    data = source.read(MOST_RECORD_BYTES + 1)
    if len(data) > MOST_RECORD_BYTES:
        raise CommandError(N_("The record is larger than {size} MB: no game record is that "
                              "big"), size=MOST_RECORD_BYTES // 1_000_000)
    return data


def _saved_game(game_id: str, db: str | None) -> SavedGame:
    """The saved game ``game_id`` (or the one whose id starts with it) in ``db``; a
    database that is not there is not created."""
    from yatzy.bootstrap import db_exists, describe_db, open_service

    if not db_exists(db):
        raise CommandError(N_("No saved games: there is no game database at {db}"),
                           db=describe_db(db))
    with open_service(db) as service:
        return service.find(game_id)


def run_analyse(args: argparse.Namespace) -> int:
    from yatzy.solver.analysis import analyse, win_chance_history

    t = command_translator(args)
    game = _game_to_analyse(args)
    if args.player is not None and args.player not in game.players:
        raise CommandError(N_("No player called {player}; the players are {players}"),
                           player=args.player, players=", ".join(game.players))
    if args.plot and not args.win_chances:
        raise CommandError(N_("--plot goes with --win-chances"))
    if args.win_chances:
        check_chances(game)
    plot = plot_file(args.plot) if args.plot else None
    load_strategy(t, game.ruleset)
    result = analyse(game)
    history: Sequence[WinChances] = ()
    if args.win_chances:
        # Seconds a turn in the first rounds: a line on a terminal says how far it is.
        with progress_line(t._("Working out the win chances of every turn")) as update:
            history = win_chance_history(game, progress=update)
    if plot is not None:
        _plot_chances(t, game, history, plot)
    decisions = [d for d in result.decisions if args.player in (None, d.player)]
    players = [p for p in result.players if args.player in (None, p.player)]
    r = game.ruleset
    if args.json:
        print(json.dumps({
            "ruleset": r.to_dict(),
            "expected_score": result.expected_score,
            "decisions": [
                {"player": d.player, "round": d.round, "roll": d.roll, "dice": list(d.dice),
                 "chosen": d.chosen.to_dict(), "best": d.best.to_dict(),
                 "chosen_value": d.chosen_value, "best_value": d.best_value, "loss": d.loss}
                for d in decisions
            ],
            "players": [
                {"player": p.player, "decisions": p.decisions, "mistakes": p.mistakes,
                 "total_loss": p.total_loss, "mean_loss": p.mean_loss,
                 "score": game.scorecard(p.player).total}
                for p in players
            ],
            **({"win_chances": [
                {"turn": h.turn, "round": h.round, "player": h.player, "chances": h.chances}
                for h in history]} if args.win_chances else {}),
        }))
        return 0
    print(t._("{rules} — {players} — optimal play expects {score}; values are expected "
              "final scores, ? = a loss, ?? = a loss of 2 points or more",
              rules=ruleset_title(t, r), players=", ".join(game.players),
              score=decimal(t, result.expected_score, 2)))
    texts = [(d.player if len(game.players) > 1 else "", f"{d.round}.{d.roll}", str(d.dice),
              _action_text(t, d.chosen, d), _action_text(t, d.best, d))
             for d in decisions]
    heads = ("", t._("turn"), t._("dice"), t._("chosen"), t._("best"))
    lost = t._("lost")
    w = [max([len(h)] + [len(row[i]) for row in texts]) for i, h in enumerate(heads)]
    print(f"{heads[0]:<{w[0]}} {heads[1]:<{w[1]}}  {heads[2]:<{w[2]}}  {heads[3]:<{w[3]}}  "
          f"{heads[4]:<{w[4]}}  {heads[3]:>10}  {heads[4]:>10}  {lost:>7}")
    for (who, turn, dice, chosen, best), d in zip(texts, decisions, strict=True):
        mark = "" if d.loss <= 1e-3 else ("  ?" if d.loss < 2 else "  ??")
        print(f"{who:<{w[0]}} {turn:<{w[1]}}  {dice:<{w[2]}}  {chosen:<{w[3]}}  "
              f"{best:<{w[4]}}  {decimal(t, d.chosen_value, 4):>10}  "
              f"{decimal(t, d.best_value, 4):>10}  {decimal(t, d.loss, 4):>7}{mark}")
    for p in players:
        print(t.ngettext(
            "{player}: score {score}, {n} decision, {mistakes} not best, {lost} points lost "
            "({mean} per decision)",
            "{player}: score {score}, {n} decisions, {mistakes} not best, {lost} points lost "
            "({mean} per decision)",
            p.decisions, player=p.player, score=game.scorecard(p.player).total, n=p.decisions,
            mistakes=p.mistakes, lost=decimal(t, p.total_loss, 3),
            mean=decimal(t, p.mean_loss, 4)))
    if history:
        print(t._("Win chances at the start of every turn (everyone playing for the highest "
                  "expected score from there):"))
        width = max(len(name) for name in game.players)
        print(f"{t._('turn'):>5}  {'':<{width}}  " + "  ".join(
            f"{name:>{max(7, len(name))}}" for name in game.players))
        for point in history:
            who = point.player if point.player is not None else t._("end")
            number = str(point.turn + 1) if point.player is not None else ""
            print(f"{number:>5}  {who:<{width}}  "
                  + "  ".join(f"{percent(t, point.chances[name]):>{max(7, len(name))}}"
                              for name in game.players))
    if plot is not None:
        print(t._("chart saved to {file}", file=plot))
    return 0


def _plot_chances(t: Translator, game: Game, history: Sequence[WinChances], path: str
                  ) -> None:
    """Each player's chance of winning over the game's turns, as a line."""
    fig, ax = new_figure()
    turns = [h.turn for h in history]
    for name in game.players:
        ax.plot(turns, [h.chances[name] for h in history], marker=".", label=name)
    ax.set_ylim(0, 1)
    ax.set_xlabel(t._("turns played"))
    ax.set_ylabel(t._("chance of winning"))
    ax.set_title(ruleset_title(t, game.ruleset))
    ax.legend()
    save_figure(fig, path)
