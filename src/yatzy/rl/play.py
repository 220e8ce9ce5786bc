"""One step of play for the environments: a numbered action applied through the core.

Every environment of :mod:`yatzy.rl` plays its games with these functions, so that the
solitaire, vector and multi-player environments agree move by move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from yatzy.core.actions import Score
from yatzy.core.errors import ErrorCode, IllegalMove, RulesError, shown
from yatzy.core.game import Game
from yatzy.core.rulesets import Ruleset, ruleset
from yatzy.core.seeded import MAX_SEED, check_seed
from yatzy.rl.encoding import Layout, regret

if TYPE_CHECKING:
    from yatzy.solver import Strategy


def make_ruleset(rules: str | Ruleset, options: Mapping[str, Any]) -> Ruleset:
    """The ruleset an environment plays: ``rules`` by name with ``options`` (keyword
    arguments of :func:`yatzy.ruleset`), or a :class:`Ruleset` as it is (no options)."""
    if isinstance(rules, Ruleset):
        if options:
            raise RulesError(
                f"Options {', '.join(map(shown, options))} go with a ruleset's name, not with"
                f" a Ruleset ({rules!r} has its options already)",
                code=ErrorCode.UNKNOWN_OPTION, option=shown(next(iter(options))),
                rules=rules.name, valid="none (give the ruleset's name instead)",
            )
        return rules
    return ruleset(rules, **options)


def check_flag(name: str, value: object) -> bool:
    """``value`` if it is ``True`` or ``False``, else :class:`RulesError`."""
    if not isinstance(value, bool):
        raise RulesError(
            f"{name} must be True or False, not {shown(value)}",
            code=ErrorCode.BAD_OPTION, option=name, value=shown(value), valid="true, false",
        )
    return value


def check_game_seed(seed: object) -> int | None:
    """``seed`` if it is ``None`` or a game's whole-number seed (the core's
    :func:`~yatzy.core.seeded.check_seed`; numpy integers taken as ints, secret seeds
    refused: an environment's generator takes numbers), else
    :class:`~yatzy.core.errors.IllegalMove` (checked before an environment's generator is
    seeded, so a refused seed changes nothing)."""
    if isinstance(seed, np.integer):
        seed = int(seed)
    checked = check_seed(None if isinstance(seed, str) else seed)
    if isinstance(seed, str):
        raise IllegalMove(
            f"A seed must be a whole number from 0 to {MAX_SEED}, not {shown(seed)}",
            code=ErrorCode.BAD_SEED, most=MAX_SEED, seed=shown(seed),
        )
    assert checked is None or isinstance(checked, int)
    return checked


def draw_seed(rng: np.random.Generator) -> int:
    """A game seed (0 to :data:`~yatzy.core.seeded.MAX_SEED`) drawn from ``rng``."""
    return int(rng.integers(0, MAX_SEED, endpoint=True))


def start(rules: Ruleset, players: list[str], seed: int) -> Game:
    """A new seeded game with its first player's first roll made."""
    return Game.start(rules, players, seed=seed).roll()


class Played(NamedTuple):
    """What one action did: the game after it (the next turn's first roll made), the
    points the acting player gained, and the solver's regret when asked for."""

    game: Game
    reward: int
    regret: float | None


def advance(layout: Layout, game: Game, index: object, strategy: Strategy | None) -> Played:
    """Apply action number ``index`` for ``game``'s current player.

    The core checks the action (an illegal one raises
    :class:`~yatzy.core.errors.IllegalMove` and nothing changes). The reward is the
    change of the player's total (upper and extra-Yahtzee bonuses included). After a
    score the next turn's first roll is made, unless the game is over. With
    ``strategy`` the regret of the action is worked out on the game before it.
    """
    action = layout.to_action(index)
    seat = game.current_seat
    before = game.cards[seat].total
    after = game.apply(action)
    reward = after.cards[seat].total - before
    lost = None if strategy is None else regret(strategy.advise(game), game.dice, action)
    if isinstance(action, Score) and not after.is_over:
        after = after.roll()
    return Played(after, reward, lost)
