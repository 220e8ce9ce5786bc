"""``yatzy solve``, ``yatzy advise``, ``yatzy simulate`` and ``yatzy analyse``: the
exact solver from the command line.

A scorecard is written as its filled boxes, ``box=points`` separated by spaces (open
boxes left out, ``yahtzee_bonus=N`` for extra Yahtzees, ``-`` for an empty card), e.g.
``--card "ones=3 fives=20 chance=22"``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from yatzy.cli.options import add_ruleset_arguments, ruleset_from_args
from yatzy.core import rules
from yatzy.core.actions import Reroll, Roll, Score
from yatzy.core.dice import Dice
from yatzy.core.errors import IllegalMove
from yatzy.core.rulesets import Ruleset
from yatzy.core.scorecard import Scorecard

if TYPE_CHECKING:
    from yatzy.app import SavedGame
    from yatzy.core.game import Game


def register(subparsers: Any) -> None:
    solve = subparsers.add_parser(
        "solve",
        help="compute (or load) the optimal strategy and print its expected score",
        description="Build the exact optimal strategy of a ruleset (cached on disk) and "
        "print the expected final score of optimal play.",
    )
    add_ruleset_arguments(solve)
    solve.add_argument("--rebuild", action="store_true",
                       help="build the table even when one is cached")
    solve.add_argument("--json", action="store_true", help="print JSON for programs")
    solve.set_defaults(handler=run_solve)

    advise = subparsers.add_parser(
        "advise",
        help="rank every option of a situation by its expected final score",
        description="Rank every option of a situation, best first. The card is its "
        "filled boxes as box=points, e.g. --card \"ones=3 fives=20\" (- for an empty "
        "card); without --dice the turn has not started.",
    )
    add_ruleset_arguments(advise)
    advise.add_argument("--card", default="-", help="filled boxes as box=points (default: empty)")
    advise.add_argument("--dice", nargs="+", help="the dice on the table, e.g. 3 3 5 6 6")
    advise.add_argument("--rolls-left", type=int, default=None,
                        help="rolls left this turn (default: all but the first)")
    advise.add_argument("--top", type=int, default=None, help="print only the N best options")
    advise.add_argument("--json", action="store_true", help="print JSON for programs")
    advise.set_defaults(handler=run_advise)

    simulate = subparsers.add_parser(
        "simulate",
        help="play many solitaire games with a computer player and print statistics",
        description="Play many solitaire games with a computer player and print the "
        "score statistics. The solver's levels (easy, medium, hard, optimal) play "
        "directly on the value tables (fast); other players play real games (slow).",
    )
    add_ruleset_arguments(simulate)
    simulate.add_argument("--bot", default="optimal", help="the computer player (default "
                          "optimal; easy, medium, hard, greedy, random)")
    simulate.add_argument("-n", "--games", type=int, default=10_000,
                          help="number of games (default 10000)")
    simulate.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    simulate.add_argument("--plot", metavar="PNG", help="save a histogram of the scores")
    simulate.add_argument("--json", action="store_true", help="print JSON for programs")
    simulate.set_defaults(handler=run_simulate)

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
    analyse.add_argument("--json", action="store_true", help="print JSON for programs")
    analyse.set_defaults(handler=run_analyse)


@contextmanager
def _progress(title: str) -> Iterator[Any]:
    """A progress bar on standard error while a table builds (none when not a terminal)."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn(title), BarColumn(), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(title, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


def load_strategy(ruleset: Ruleset, *, rebuild: bool = False) -> Any:
    """The strategy of ``ruleset``, with a progress bar if it has to be built."""
    from yatzy.solver import strategy

    with _progress(f"Solving {ruleset}") as update:
        return strategy(ruleset, progress=update, rebuild=rebuild)


def run_solve(args: argparse.Namespace) -> int:
    ruleset = ruleset_from_args(args)
    start = time.perf_counter()
    s = load_strategy(ruleset, rebuild=args.rebuild)
    seconds = time.perf_counter() - start
    data = {
        "ruleset": ruleset.to_dict(),
        "expected_score": s.expected_score,
        "states": s.state_count,
        "source": s.source,
        "seconds": seconds,
        "build_seconds": s.build_seconds,
        "table": str(s.path) if s.path else None,
    }
    if args.json:
        print(json.dumps(data))
        return 0
    how = "built" if s.source == "built" else "loaded from cache"
    print(f"{ruleset}: expected score {s.expected_score:.7f}")
    print(f"{how} in {seconds:.2f} s, {s.state_count:,} states")
    if s.path:
        print(f"table: {s.path}")
    return 0


def describe(ruleset: Ruleset, card: Scorecard, dice: Dice | None, action: Any) -> str:
    """An option in words: ``roll``, ``keep 6 6`` or ``score Two pairs (18)``."""
    if isinstance(action, Roll):
        return "roll"
    if isinstance(action, Reroll):
        assert dice is not None
        kept = " ".join(str(dice[i]) for i in action.hold)
        return f"keep {kept}" if kept else "reroll all"
    assert isinstance(action, Score) and dice is not None
    points = rules.choices(ruleset, card, dice)[action.box]
    bonus = " +bonus" if rules.earns_yahtzee_bonus(ruleset, card, dice) else ""
    return f"score {ruleset.label(action.box)} ({points}{bonus})"


def run_advise(args: argparse.Namespace) -> int:
    if args.top is not None and args.top < 1:
        raise IllegalMove(f"--top takes a number of options from 1 up, not {args.top}")
    ruleset = ruleset_from_args(args)
    card = Scorecard.parse(ruleset, args.card)
    if card.is_complete:
        raise IllegalMove("The scorecard is full: the game is over")
    dice = Dice.parse(" ".join(args.dice), ruleset.dice_count) if args.dice else None
    if dice is None and args.rolls_left is not None:
        raise IllegalMove("--rolls-left needs --dice (before the first roll there are none)")
    s = load_strategy(ruleset)
    options = s.advise_card(card, dice, args.rolls_left)
    if args.top is not None:
        options = options[: args.top]
    best = options[0].value if options else 0.0
    if args.json:
        print(json.dumps({
            "ruleset": ruleset.to_dict(),
            "card": str(card),
            "dice": list(dice) if dice is not None else None,
            "options": [
                {"action": o.action.to_dict(), "text": describe(ruleset, card, dice, o.action),
                 "value": o.value, "loss": best - o.value}
                for o in options
            ],
        }))
        return 0
    left = ruleset.rolls - 1 if args.rolls_left is None else args.rolls_left
    situation = f"dice {dice}, {left} roll{'s' if left != 1 else ''} left" if dice else (
        "before the first roll")
    print(f"{ruleset} — card: {card} — {situation}")
    texts = [describe(ruleset, card, dice, o.action) for o in options]
    width = max(len(t) for t in texts)
    for rank, (o, text) in enumerate(zip(options, texts, strict=True), start=1):
        loss = f"  -{best - o.value:.4f}" if rank > 1 else ""
        print(f"{rank:>3}. {text:<{width}}  {o.value:11.6f}{loss}")
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    from yatzy.bots import bot_names
    from yatzy.bots.solver_bots import LEVELS, simulate_level

    ruleset = ruleset_from_args(args)
    if args.bot not in bot_names():
        raise IllegalMove(f"Unknown computer player {args.bot!r}; choose from "
                          f"{', '.join(bot_names())}")
    if args.games < 1:
        raise IllegalMove("Simulate at least one game (-n 1 or more)")
    if args.seed < 0:
        raise IllegalMove(f"The seed must be a whole number >= 0, not {args.seed}")
    # Only the solver's levels need its table (built with a progress bar if need be).
    solved = load_strategy(ruleset) if args.bot in LEVELS else None
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
    if args.plot:
        _plot(result, args.plot, f"{ruleset} — {args.bot}, {result.games:,} games")
    if args.json:
        print(json.dumps(data))
        return 0
    ybox = ruleset.label(ruleset.yahtzee_box)
    print(f"{ruleset} — {args.bot}, {result.games:,} games (seed {args.seed}) in "
          f"{result.seconds:.2f} s ({result.games_per_second:,.0f} games/s)")
    print(f"mean {result.mean:.3f} ± {result.standard_error:.3f} (standard error)  "
          f"SD {result.sd:.2f}  median {result.median:g}")
    print("percentiles  " + "  ".join(f"{q}%: {v:g}" for q, v in pct.items()))
    line = f"upper bonus {result.bonus_rate:.1%}  {ybox} {result.yahtzee_rate:.1%}"
    if ruleset.extra_yahtzee_points:
        line += f"  extra {ybox}s per game {result.extra_yahtzees.mean():.4f}"
    print(line)
    if args.bot == "optimal" and solved is not None:
        print(f"exact expected score {solved.expected_score:.7f}")
    if args.plot:
        print(f"histogram saved to {args.plot}")
    return 0


def _plot(result: Any, path: str, title: str) -> None:
    try:
        import matplotlib
    except ImportError:
        raise IllegalMove("--plot needs matplotlib: pip install 'yatzy[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    scores = result.scores
    ax.hist(scores, bins=range(int(scores.min()), int(scores.max()) + 2), color="#3a6ea5")
    ax.axvline(result.mean, color="#c0392b", label=f"mean {result.mean:.2f}")
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    try:
        fig.savefig(path)
    except OSError as exc:
        raise IllegalMove(f"Cannot save the histogram to {path}: {exc.strerror}") from None
    finally:
        plt.close(fig)


def _action_text(action: Any, d: Any) -> str:
    """A decision's action in words: ``keep 4 4`` or ``Small straight (0)``."""
    if isinstance(action, Reroll):
        kept = " ".join(str(d.dice[i]) for i in action.hold)
        return f"keep {kept}" if kept else "reroll all"
    r = d.card.ruleset
    return f"{r.label(action.box)} ({rules.choices(r, d.card, d.dice)[action.box]})"


def _game_to_analyse(args: argparse.Namespace) -> Game:
    """The game ``yatzy analyse`` is asked about: from a record file, standard input
    (``-``) or the game database (``--game ID``)."""
    from yatzy.core.game import Game

    if args.record is not None and args.game is not None:
        raise IllegalMove("Give a game record or --game ID, not both")
    if args.record is None and args.game is None:
        raise IllegalMove("Give a game record (a JSON file, or - for standard input) "
                          "or --game ID")
    if args.db is not None and args.game is None:
        raise IllegalMove("--db goes with --game ID")
    if args.game is not None:
        return _saved_game(args.game, args.db).game
    if args.record == "-":
        return Game.from_json(sys.stdin.read())
    try:
        with open(args.record, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise IllegalMove(f"Cannot read {args.record}: {exc.strerror}") from None
    return Game.from_json(text)


def _saved_game(game_id: str, db: str | None) -> SavedGame:
    """The saved game ``game_id`` (or the one whose id starts with it) in ``db``; a
    database that is not there is not created."""
    from yatzy.bootstrap import db_exists, describe_db, open_service

    if not db_exists(db):
        raise IllegalMove(f"No saved games: there is no game database at {describe_db(db)}")
    with open_service(db) as service:
        return service.find(game_id)


def run_analyse(args: argparse.Namespace) -> int:
    from yatzy.solver.analysis import analyse

    game = _game_to_analyse(args)
    if args.player is not None and args.player not in game.players:
        raise IllegalMove(f"No player called {args.player!r}; the players are "
                          f"{', '.join(game.players)}")
    load_strategy(game.ruleset)
    result = analyse(game)
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
        }))
        return 0
    print(f"{r} — {', '.join(game.players)} — optimal play expects "
          f"{result.expected_score:.2f}; values are expected final scores, "
          "? = a loss, ?? = a loss of 2 points or more")
    texts = [(d.player if len(game.players) > 1 else "", f"{d.round}.{d.roll}", str(d.dice),
              _action_text(d.chosen, d), _action_text(d.best, d))
             for d in decisions]
    w = [max([len(h)] + [len(row[i]) for row in texts]) for i, h in
         enumerate(("", "turn", "dice", "chosen", "best"))]
    print(f"{'':<{w[0]}} {'turn':<{w[1]}}  {'dice':<{w[2]}}  {'chosen':<{w[3]}}  "
          f"{'best':<{w[4]}}  {'chosen':>10}  {'best':>10}  {'lost':>7}")
    for (who, turn, dice, chosen, best), d in zip(texts, decisions, strict=True):
        mark = "" if d.loss <= 1e-3 else ("  ?" if d.loss < 2 else "  ??")
        print(f"{who:<{w[0]}} {turn:<{w[1]}}  {dice:<{w[2]}}  {chosen:<{w[3]}}  "
              f"{best:<{w[4]}}  {d.chosen_value:10.4f}  {d.best_value:10.4f}  "
              f"{d.loss:7.4f}{mark}")
    for p in players:
        print(f"{p.player}: score {game.scorecard(p.player).total}, {p.decisions} decisions, "
              f"{p.mistakes} not best, {p.total_loss:.3f} points lost "
              f"({p.mean_loss:.4f} per decision)")
    return 0
