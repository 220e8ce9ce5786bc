"""Computer players behind one protocol.

A bot looks at a :class:`~yatzy.core.game.Game` where it is the current player and
returns the next action: ``Roll()`` at a turn's start, then ``Reroll(hold)`` or
``Score(box)``. Bots never roll dice themselves; the game (or the app) does.

>>> import random, yatzy
>>> bot = make_bot("greedy", rng=random.Random(1))
>>> g = yatzy.new_game(yatzy.ruleset("yatzy"), ["cpu"], seed=3)
>>> g = play_turn(g, bot)
>>> g.turns_played
1
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from yatzy.bots.codes import BotCode
from yatzy.core.actions import Action
from yatzy.core.errors import BadInput, YatzyError, shown
from yatzy.core.game import Game
from yatzy.core.rulesets import Ruleset


@runtime_checkable
class Bot(Protocol):
    """A computer player."""

    #: The level's name, as in ``make_bot(name)``.
    name: str

    def choose(self, game: Game) -> Action:
        """The next action for the current player of ``game`` (which is not over)."""
        ...


BotFactory = Callable[[random.Random], Bot]


class UnknownBot(BadInput):
    """A computer player level that does not exist (``params``: ``bot``, the name
    asked for, and ``known``, the levels there are)."""

    code = BotCode.UNKNOWN_BOT

    def __init__(self, bot: object, known: tuple[str, ...]) -> None:
        super().__init__(
            f"Unknown computer player {shown(bot)}; choose from {', '.join(known)}",
            bot=bot if isinstance(bot, str) else shown(bot), known=", ".join(known),
        )

_REGISTRY: dict[str, BotFactory] = {}
#: Per level, the check of a ruleset it plays (raising the error that says why not).
_PLAYS: dict[str, Callable[[Ruleset], object]] = {}
#: Levels that exist but cannot play in this installation, with the error that says why
#: (the solver's levels, when its compiled part is not installed).
_UNAVAILABLE: dict[str, Callable[[], YatzyError]] = {}
#: Per level, its name as people read it, in English and marked for translation.
_LABELS: dict[str, str] = {}


def register(name: str, factory: BotFactory, *,
             plays: Callable[[Ruleset], object] | None = None,
             label: str | None = None) -> None:
    """Make ``make_bot(name)`` build a bot with ``factory(rng)``; ``plays(ruleset)``
    raises the error that says why the level does not play a ruleset (every ruleset,
    without it); ``label`` is the level's name as people read it (see
    :func:`level_label`)."""
    _REGISTRY[name] = factory
    if plays is not None:
        _PLAYS[name] = plays
    if label is not None:
        _LABELS[name] = label


def register_unavailable(name: str, error: Callable[[], YatzyError], *,
                         label: str | None = None) -> None:
    """Make ``name`` a level that cannot play here: :func:`bot_names` leaves it out and
    :func:`check_level` raises ``error()``."""
    _UNAVAILABLE[name] = error
    if label is not None:
        _LABELS[name] = label


def level_label(name: str) -> str:
    """The level ``name`` as people read it, in English (a front end translates it):
    the label it was registered with, else the name capitalised.

    >>> level_label("hard"), level_label("unheard_of")
    ('Hard', 'Unheard_of')
    """
    _load_plugins()
    return _LABELS.get(name, name.capitalize())


def bot_names(ruleset: Ruleset | None = None) -> tuple[str, ...]:
    """The names :func:`make_bot` knows, weakest first (the levels that can play here);
    with ``ruleset``, those that play it (the solver's levels only where the solver
    does).

    >>> import yatzy
    >>> bot_names(yatzy.ruleset("maxi_yatzy"))
    ('random', 'greedy')
    """
    _load_plugins()
    return tuple(name for name in _REGISTRY
                 if ruleset is None or _plays(name, ruleset) is None)


def _plays(name: str, ruleset: Ruleset) -> YatzyError | None:
    check = _PLAYS.get(name)
    try:
        if check is not None:
            check(ruleset)
    except YatzyError as error:
        return error
    return None


def check_level(name: object, ruleset: Ruleset | None = None) -> str:
    """``name`` if :func:`make_bot` knows the level (and it plays ``ruleset``, when
    given); else :class:`UnknownBot`, the error of a level that cannot play here (see
    :func:`register_unavailable`), or the error that says why it does not play
    ``ruleset`` (the solver's :class:`~yatzy.solver.UnsupportedRuleset`)."""
    _load_plugins()
    if isinstance(name, str) and name in _UNAVAILABLE and name not in _REGISTRY:
        raise _UNAVAILABLE[name]()
    if not isinstance(name, str) or name not in _REGISTRY:
        raise UnknownBot(name, tuple(_REGISTRY))
    if ruleset is not None and (refused := _plays(name, ruleset)) is not None:
        raise refused
    return name


def make_bot(name: str, rng: random.Random | None = None) -> Bot:
    """A bot by level name (``random``, ``greedy``, and the solver's levels);
    :class:`UnknownBot` for another name."""
    return _REGISTRY[check_level(name)](rng or random.Random())


def play_turn(game: Game, bot: Bot) -> Game:
    """Let ``bot`` play the current player's whole turn; returns the game after it."""
    player = game.current_player
    start = game.turns_played
    while not game.is_over and game.turns_played == start:
        game = game.apply(bot.choose(game), player=player)
    return game


#: Modules that register more bots when first needed (they may load heavy code).
PLUGIN_MODULES: tuple[str, ...] = ("yatzy.bots.solver_bots",)
_loaded = False
_LOAD_LOCK = threading.Lock()


def _load_plugins() -> None:
    """Register the simple bots and the plugins' once. Callers on other threads wait
    until every level is registered: the flag is set last."""
    global _loaded
    if _loaded:
        return
    with _LOAD_LOCK:
        if _loaded:
            return
        import importlib

        from yatzy.bots import simple

        simple.register_all()
        for module in PLUGIN_MODULES:
            importlib.import_module(module).register_all()
        _loaded = True


__all__ = ["Bot", "BotFactory", "UnknownBot", "bot_names", "check_level", "make_bot", "play_turn",
           "register", "register_unavailable"]
