"""``yatzy solve`` and ``yatzy advise``: the exact solver from the command line, in the
player's language (``--lang``, else ``LANG``); ``--json`` is for programs and stays as
it is.

A scorecard is written as its filled boxes, ``box=points`` separated by spaces or
commas (open boxes left out, ``yahtzee_bonus=N`` for extra Yahtzees, ``-`` for an empty
card), e.g. ``--card "ones=3 fives=20 chance=22"``. A box may be named as the core
names it, by its English name or by its name in the player's language, in any case:
``--lang sv --card "Ettor=3, Ett par=8"``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal

from yatzy.app.hints import describe_action
from yatzy.cli.errors import CommandError
from yatzy.cli.numbers import decimal, percent, whole
from yatzy.cli.options import (
    add_language_argument,
    add_ruleset_arguments,
    command_translator,
    ruleset_from_args,
    whole_number,
)
from yatzy.cli.plots import new_figure, plot_file, save_figure
from yatzy.core import rules
from yatzy.core.actions import Action, Score
from yatzy.core.dice import Dice
from yatzy.core.errors import IllegalMove, UnknownBox
from yatzy.core.rulesets import Ruleset
from yatzy.core.scorecard import Scorecard
from yatzy.i18n import N_, Translator, translator
from yatzy.i18n.words import box_label, box_named, card_text, ruleset_title

if TYPE_CHECKING:
    from yatzy.solver import ScoreDistribution

#: One ``name=points`` entry of a card as typed; a name may have spaces ("Ett par=8").
_CARD_ENTRY = re.compile(r"(?P<name>[^=,]+?)\s*=\s*(?P<points>[^\s,]*)")


def register(subparsers: Any, t: Translator) -> None:
    solve = subparsers.add_parser(
        "solve",
        help="compute (or load) the optimal strategy and print its expected score",
        description="Build the exact optimal strategy of a ruleset (cached on disk) and "
        "print the expected final score of optimal play.",
    )
    add_ruleset_arguments(solve, t)
    solve.add_argument("--rebuild", action="store_true",
                       help="build the table even when one is cached")
    solve.add_argument("--distribution", action="store_true",
                       help="also print the distribution of the final score under optimal "
                       "play: percentiles and the chance of reaching scores")
    solve.add_argument("--at-least", type=whole_number(t, 0, MOST_POINTS), action="append",
                       metavar="POINTS", help="with --distribution: the chance of a final "
                       "score of POINTS or more (may be given several times)")
    solve.add_argument("--plot", metavar="FILE",
                       help="with --distribution: save a chart of it (FILE.png, .svg, .pdf, "
                       "...; no extension: .png)")
    solve.add_argument("--json", action="store_true", help="print JSON for programs")
    saved = solve.add_argument_group("saved rolls (Maxi Yatzy)")
    saved.add_argument("--cap", type=whole_number(t, 0, 255), default=None, metavar="K",
                       help="keep at most K saved rolls: a bound of the value, in a "
                       "fraction of the exact solve's time")
    saved.add_argument("--bound", choices=("lower", "upper"), default="lower",
                       help="with --cap: rolls beyond K are lost (lower, the default), or "
                       "a state beyond K is worth the most its open boxes could give "
                       "(upper)")
    saved.add_argument("--workers", type=whole_number(t, 0, 64), default=0,
                       help="solve on a Dask cluster of N worker processes on this "
                       "machine (default 0: this process's threads)")
    saved.add_argument("--scheduler", metavar="ADDRESS",
                       help="solve on the workers of this Dask scheduler (they must "
                       "see the checkpoint folder)")
    saved.add_argument("--checkpoint", metavar="FOLDER",
                       help="keep the solved layers in FOLDER, and resume from it "
                       "(default: a folder beside the table, removed once it is written)")
    add_language_argument(solve)
    solve.set_defaults(handler=run_solve)

    advise = subparsers.add_parser(
        "advise",
        help="rank every option of a situation by its expected final score",
        description="Rank every option of a situation, best first. The card is its "
        "filled boxes as box=points, e.g. --card \"ones=3 fives=20\" (- for an empty "
        "card; box names in English or the --lang language work too); without --dice "
        "the turn has not started.",
    )
    add_ruleset_arguments(advise, t)
    advise.add_argument("--card", default="-", help="filled boxes as box=points (default: empty)")
    advise.add_argument("--dice", nargs="+", help="the dice on the table, e.g. 3 3 5 6 6")
    advise.add_argument("--rolls-left", type=whole_number(t), default=None,
                        help="rolls left this turn, saved rolls included (default: all "
                        "but the first)")
    advise.add_argument("--saved", type=whole_number(t), default=0,
                        help="with saved rolls (Maxi Yatzy): the player's saved rolls "
                        "before the first roll (default 0)")
    advise.add_argument("--top", type=whole_number(t, 1), default=None,
                        help="print only the N best options")
    advise.add_argument("--json", action="store_true", help="print JSON for programs")
    add_language_argument(advise)
    advise.set_defaults(handler=run_advise)


@contextmanager
def progress_line(title: str) -> Iterator[Any]:
    """A progress bar on standard error while long work runs (none when it is not a
    terminal): yields ``update(done, total)``, or ``None``."""
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


def load_strategy(t: Translator, ruleset: Ruleset, *, rebuild: bool = False) -> Any:
    """The strategy of ``ruleset``, with a progress bar if it has to be built: a command
    builds any table the solver plays, even one too large to be built on demand (the
    player asked for it and sees the progress)."""
    from yatzy.solver import strategy

    title = t._("Solving {rules}", rules=ruleset_title(t, ruleset))
    with progress_line(title) as update:
        return strategy(ruleset, progress=update, rebuild=rebuild, build=True)


def run_solve(args: argparse.Namespace) -> int:
    t = command_translator(args)
    ruleset = ruleset_from_args(args)
    if (args.plot or args.at_least) and not args.distribution:
        raise CommandError(N_("--plot and --at-least go with --distribution"))
    plot = plot_file(args.plot) if args.plot else None
    if ruleset.saved_rolls:
        if args.distribution:
            raise CommandError(N_("--distribution is not offered with saved rolls"))
        return _run_saved(t, args, ruleset)
    start = time.perf_counter()
    s = load_strategy(t, ruleset, rebuild=args.rebuild)
    seconds = time.perf_counter() - start
    remaining = None
    from yatzy.solver import builds_on_demand

    if builds_on_demand(ruleset):
        # The table of the win chances and the winner level, and the exact layers of the
        # score distributions, beside the value table: every later process maps them
        # instead of building them.
        from yatzy.solver.distribution import exact_layers
        from yatzy.solver.winning import remaining_table

        with progress_line(t._("Building the table of the win chances")):
            remaining = remaining_table(s, rebuild=args.rebuild).path
            exact_layers(s, build=True)
    dist = None
    if args.distribution:
        with progress_line(t._("Working out the distribution of the score")):
            dist = s.distribution(Scorecard.empty(ruleset))
        thresholds = sorted(set(args.at_least or _round_scores(dist)))
    data = {
        "ruleset": ruleset.to_dict(),
        "expected_score": s.expected_score,
        "states": s.state_count,
        "source": s.source,
        "seconds": seconds,
        "build_seconds": s.build_seconds,
        "peak_memory_bytes": peak_memory(),
        "table": str(s.path) if s.path else None,
        "remaining_table": str(remaining) if remaining else None,
    }
    if dist is not None:
        data["distribution"] = {
            "mean": dist.mean,
            "sd": dist.sd,
            "percentiles": {str(q): dist.percentile(q) for q in PERCENTILES},
            "at_least": {str(p): dist.at_least(p) for p in thresholds},
            "probabilities": {str(k): v for k, v in dist.probabilities.items()},
        }
    if plot is not None and dist is not None:
        _plot_distribution(t, dist, plot, ruleset_title(t, ruleset))
    if args.json:
        print(json.dumps(data))
        return 0
    print(t._("{rules}: expected score {score}", rules=ruleset_title(t, ruleset),
              score=decimal(t, s.expected_score, 7)))
    if s.source == "built":
        how = t.ngettext("built in {seconds} s, {n} state", "built in {seconds} s, {n} states",
                         s.state_count, seconds=decimal(t, seconds, 2),
                         n=whole(t, s.state_count))
    else:
        how = t.ngettext("loaded from the cache in {seconds} s, {n} state",
                         "loaded from the cache in {seconds} s, {n} states",
                         s.state_count, seconds=decimal(t, seconds, 2),
                         n=whole(t, s.state_count))
    print(how)
    if s.path:
        print(t._("table: {file}", file=s.path))
    if remaining:
        print(t._("table: {file}", file=remaining))
    if dist is not None:
        print(t._("Final score under optimal play: mean {mean}, standard deviation {sd}",
                  mean=decimal(t, dist.mean, 2), sd=decimal(t, dist.sd, 2)))
        print(t._("percentiles:") + " " + ", ".join(
            t._("{q}%: {score}", q=q, score=whole(t, dist.percentile(q)))
            for q in PERCENTILES))
        for p in thresholds:
            print(t._("P(score ≥ {points}) = {chance}", points=whole(t, p),
                      chance=percent(t, dist.at_least(p))))
        if plot is not None:
            print(t._("chart saved to {file}", file=plot))
    return 0


def _run_saved(t: Translator, args: argparse.Namespace, ruleset: Ruleset) -> int:
    """``yatzy solve`` of a ruleset with saved rolls (Maxi Yatzy): layer by layer, on
    this process's threads or a Dask cluster, resumable (see yatzy.solver.saved)."""
    import shutil
    from pathlib import Path

    from yatzy.solver import artifacts, saved

    cap: int | None = args.cap
    bound: Literal["lower", "upper"] = args.bound if cap is not None else "lower"
    start = time.perf_counter()
    sol = None if args.rebuild else saved.load_table(ruleset, cap, bound)
    source = "cache"
    if sol is None:
        source = "built"
        path = artifacts.saved_table_path(ruleset, cap, bound)
        folder = (Path(args.checkpoint) if args.checkpoint
                  else path.with_name(path.name.removesuffix(".npz") + ".layers"))
        client = _dask_client(args)
        title = t._("Solving {rules}", rules=ruleset_title(t, ruleset))
        try:
            with progress_line(title) as update:
                def layer_done(n: int, done: int, total: int, stats: dict[str, Any]) -> None:
                    if update is not None:
                        update(done, total)

                sol = saved.solve_saved(ruleset, folder, cap=cap, bound=bound, client=client,
                                        progress=layer_done)
        except saved.CheckpointMismatch as exc:
            raise CommandError(N_("The checkpoint folder {folder} holds another solve"),
                               folder=str(folder)) from exc
        finally:
            if client is not None:
                client.close()
        seconds = time.perf_counter() - start
        sol.path = saved.save_table(sol, {"build_seconds": seconds, "stats": sol.stats})
        if not args.checkpoint:
            shutil.rmtree(folder, ignore_errors=True)
    seconds = time.perf_counter() - start
    states = saved.state_count(saved.SolveContext.of(ruleset).model, cap)
    data = {
        "ruleset": ruleset.to_dict(),
        "expected_score": sol.start_value,
        "cap": cap,
        "bound": bound if cap is not None else "exact",
        "states": states,
        "source": source,
        "seconds": seconds,
        "build_seconds": seconds if source == "built" else None,
        "peak_memory_bytes": peak_memory(),
        "layers": sol.stats,
        "table": str(sol.path),
    }
    if args.json:
        print(json.dumps(data))
        return 0
    print(t._("{rules}: expected score {score}", rules=ruleset_title(t, ruleset),
              score=decimal(t, sol.start_value, 7)))
    if cap is not None:
        print(t._("saved rolls capped at {cap}: a lower bound", cap=cap) if bound == "lower"
              else t._("saved rolls capped at {cap}: an upper bound", cap=cap))
    if source == "built":
        print(t.ngettext("built in {seconds} s, {n} state", "built in {seconds} s, {n} states",
                         states, seconds=decimal(t, seconds, 2), n=whole(t, states)))
    else:
        print(t.ngettext("loaded from the cache in {seconds} s, {n} state",
                         "loaded from the cache in {seconds} s, {n} states",
                         states, seconds=decimal(t, seconds, 2), n=whole(t, states)))
    print(t._("table: {file}", file=sol.path))
    return 0


def _dask_client(args: argparse.Namespace) -> Any:
    """A Dask client: of the scheduler at ``--scheduler``, or of a new local cluster of
    ``--workers`` processes; ``None`` for neither."""
    if not args.scheduler and not args.workers:
        return None
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as exc:
        raise CommandError(N_("--workers and --scheduler need Dask: "
                              "pip install 'yatzy[distributed]'")) from exc
    if args.scheduler:
        return Client(args.scheduler)  # type: ignore[no-untyped-call]
    cluster = LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=":0")
    return Client(cluster)  # type: ignore[no-untyped-call]


def peak_memory() -> int | None:
    """The most memory this process has held at once so far (its peak resident set), in
    bytes; ``None`` where the system does not say (Windows)."""
    try:
        import resource
    except ImportError:
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak) if sys.platform == "darwin" else int(peak) * 1024  # macOS: bytes


#: The percentiles ``--distribution`` prints.
PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)

#: The largest score ``--at-least`` takes (far above any ruleset's highest).
MOST_POINTS = 10_000


def _round_scores(dist: ScoreDistribution) -> list[int]:
    """The multiples of 50 between the 1st and the 99th percentile (at least one)."""
    lo, hi = dist.percentile(1), dist.percentile(99)
    scores = list(range((lo + 49) // 50 * 50, hi + 1, 50))
    return scores or [dist.percentile(50)]


def _plot_distribution(t: Translator, dist: ScoreDistribution, path: str, title: str) -> None:
    fig, ax = new_figure()
    scores = sorted(dist.probabilities)
    ax.bar(scores, [dist.probabilities[k] for k in scores], width=1.0, color="#3a6ea5")
    ax.axvline(dist.mean, color="#c0392b",
               label=t._("mean {mean}", mean=decimal(t, dist.mean, 2)))
    # The scores that can happen run far into tails no picture shows.
    ax.set_xlim(dist.percentile(0.01) - 5, dist.percentile(99.99) + 5)
    ax.set_xlabel(t._("final score"))
    ax.set_ylabel(t._("probability"))
    ax.set_title(t._("{rules} — optimal play", rules=title))
    ax.legend()
    save_figure(fig, path)


def describe(t: Translator, ruleset: Ruleset, card: Scorecard, dice: Dice | None,
             action: Action) -> str:
    """An option in the player's words: ``roll``, ``keep 6 6`` or ``score Two pairs
    (18)``."""
    if not isinstance(action, Score):
        return describe_action(t, dice, action)
    assert dice is not None
    points = rules.choices(ruleset, card, dice)[action.box]
    if rules.earns_yahtzee_bonus(ruleset, card, dice):
        return t._("score {box} ({points} +bonus)", box=box_label(t, action.box),
                   points=points)
    return t._("score {box} ({points})", box=box_label(t, action.box), points=points)


def card_in_code_names(t: Translator, text: str) -> str:
    """``text`` (a card as ``name=points`` entries) with every box the player names in
    ``t``'s language, in English or by its code name written as the core knows it;
    names of no box are kept (without spaces) for the core to refuse.

    >>> from yatzy.i18n import translator
    >>> card_in_code_names(translator("sv"), "Ettor=3, ett par = 8 FIVES=20")
    'ones=3 one_pair=8 fives=20'
    """
    entries = []
    for match in _CARD_ENTRY.finditer(text):
        name = match["name"].strip()
        entries.append(f"{box_named(t, name) or '_'.join(name.split())}={match['points']}")
    rest = _CARD_ENTRY.sub(" ", text).replace(",", " ").split()
    return " ".join([*entries, *rest])


def _card(t: Translator, ruleset: Ruleset, text: str) -> Scorecard:
    try:
        return Scorecard.parse(ruleset, card_in_code_names(t, text))
    except UnknownBox as error:
        raise CommandError(
            N_("Unknown box {box}; the boxes are: {boxes}"), box=error.params.get("box", "?"),
            boxes=", ".join(box_label(t, box) for box in ruleset.boxes),
        ) from None


def run_advise(args: argparse.Namespace) -> int:
    t = command_translator(args)
    ruleset = ruleset_from_args(args)
    card = _card(t, ruleset, args.card)
    if card.is_complete:
        raise CommandError(N_("The scorecard is full: the game is over"))
    dice = Dice.parse(" ".join(args.dice), ruleset.dice_count) if args.dice else None
    if dice is None and args.rolls_left is not None:
        raise CommandError(N_("--rolls-left needs --dice (before the first roll there "
                              "are none)"))
    if args.saved and (dice is not None or not ruleset.saved_rolls):
        raise CommandError(N_("--saved is for rules with saved rolls, before the first "
                              "roll (after it, --rolls-left counts them)"))
    s = load_strategy(t, ruleset)
    try:
        if ruleset.saved_rolls:
            options = s.advise_card(card, dice, args.rolls_left, saved=args.saved)
        else:
            options = s.advise_card(card, dice, args.rolls_left)
    except IllegalMove as error:
        if error.code != "bad_rolls_left":
            raise
        if dice is None:  # saved rolls before the first roll
            raise CommandError(N_("--saved must be from 0 to {most}, not {value}"),
                               most=error.params.get("most", 0), value=args.saved) from None
        raise CommandError(N_("--rolls-left after a roll must be from 0 to {most}, not "
                              "{value}"), most=error.params.get("most", ruleset.rolls - 1),
                           value=args.rolls_left) from None
    if args.top is not None:
        options = options[: args.top]
    best = options[0].value if options else 0.0
    if args.json:
        english = translator("en")  # JSON is for programs: never translated
        print(json.dumps({
            "ruleset": ruleset.to_dict(),
            "card": str(card),
            "dice": list(dice) if dice is not None else None,
            "options": [
                {"action": o.action.to_dict(),
                 "text": describe(english, ruleset, card, dice, o.action),
                 "value": o.value, "loss": best - o.value}
                for o in options
            ],
        }))
        return 0
    left = ruleset.rolls - 1 if args.rolls_left is None else args.rolls_left
    if dice is None:
        situation = t._("before the first roll")
    else:
        situation = t.ngettext("dice {dice}, {n} roll left", "dice {dice}, {n} rolls left",
                               left, dice=str(dice), n=left)
    print(t._("{rules} — card: {card} — {situation}", rules=ruleset_title(t, ruleset),
              card=card_text(t, card), situation=situation))
    texts = [describe(t, ruleset, card, dice, o.action) for o in options]
    width = max(len(text) for text in texts)
    for rank, (o, text) in enumerate(zip(options, texts, strict=True), start=1):
        loss = f"  -{decimal(t, best - o.value, 4)}" if rank > 1 else ""
        print(f"{rank:>3}. {text:<{width}}  {decimal(t, o.value, 6):>11}{loss}")
    return 0
