"""Scandinavian Yatzy and Yahtzee: exact rules, an exact optimal solver, games.

>>> import yatzy
>>> r = yatzy.ruleset("yatzy")
>>> r.score("two_pairs", [3, 3, 3, 5, 5])
16
>>> g = yatzy.new_game(r, ["Ann", "Bo"], seed=1)
>>> g.current_player, g.rolls_left, g.round
('Ann', 3, 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from yatzy.core import (
    RULESET_NAMES,
    Action,
    BadInput,
    Dice,
    ErrorCode,
    Game,
    IllegalMove,
    InvalidDice,
    InvalidName,
    RecordError,
    Reroll,
    Roll,
    RulesError,
    Ruleset,
    Score,
    Scorecard,
    Undo,
    UnknownBox,
    YatzyError,
    ruleset,
)
from yatzy.core.dice import DiceLike
from yatzy.core.record import audit as audit_record
from yatzy.core.rulesets import (
    Option,
    OptionInfo,
    RulesetDefinition,
    RulesetInfo,
    define_ruleset,
    forget_ruleset,
    ruleset_names,
    rulesets,
)
from yatzy.core.seeded import MAX_SEED, Seed, seed_hash

if TYPE_CHECKING:
    from yatzy.solver import SavedStrategy, Strategy

__version__ = "0.1.0"


def new_game(
    ruleset: Ruleset,
    players: Iterable[str],
    *,
    seed: Seed | None = None,
    first_player: str = "seat",
    roll_off_dice: Iterable[DiceLike] | None = None,
) -> Game:
    """A new game of ``ruleset`` for ``players`` (names, in seat order).

    Dice not given to :meth:`Game.roll` / :meth:`Game.reroll` come from the game's seeded
    source: the same seed and actions replay exactly. Without ``seed`` a random one is
    chosen (and kept in the record). ``first_player="roll"`` starts with the roll-off of
    the rules: the highest sum starts, ties roll again (``roll_off_dice`` gives physical
    dice for it).
    """
    if seed is None:
        import secrets  # here: it loads OpenSSL, which nothing else at start-up needs

        seed = secrets.randbelow(MAX_SEED + 1)
    return Game.start(
        ruleset, players, seed=seed, first_player=first_player, roll_off_dice=roll_off_dice
    )


def strategy(ruleset: Ruleset) -> Strategy | SavedStrategy:
    """The optimal strategy of ``ruleset``: ``expected_score`` and ``advise(game)``
    (with saved rolls a :class:`~yatzy.solver.SavedStrategy`, read from the table
    ``yatzy solve`` built).

    The value table is built once (a second or two) and cached on disk
    (``YATZY_CACHE_DIR``, else the user cache directory). The solver is imported only
    here, so ``import yatzy`` stays light. See :mod:`yatzy.solver`.
    """
    from yatzy.solver import strategy as solver_strategy

    return solver_strategy(ruleset)


__all__ = [
    "RULESET_NAMES",
    "Action",
    "BadInput",
    "Dice",
    "ErrorCode",
    "Game",
    "IllegalMove",
    "InvalidDice",
    "InvalidName",
    "Option",
    "OptionInfo",
    "RecordError",
    "Reroll",
    "Roll",
    "RulesError",
    "Ruleset",
    "RulesetDefinition",
    "RulesetInfo",
    "Score",
    "Scorecard",
    "Undo",
    "UnknownBox",
    "YatzyError",
    "__version__",
    "audit_record",
    "define_ruleset",
    "forget_ruleset",
    "new_game",
    "ruleset",
    "ruleset_names",
    "rulesets",
    "seed_hash",
    "strategy",
]
