"""Hints from the optimal strategy, in words: the best move now, and the next ones on
demand (for the terminal game and the web app).

>>> import yatzy
>>> from yatzy.core.actions import Reroll, Score
>>> from yatzy.i18n import translator
>>> g = yatzy.new_game(yatzy.ruleset("yatzy"), ["Ann"], seed=1).roll([3, 3, 3, 5, 6])
>>> t = translator("en")
>>> describe_move(t, g, Reroll((0, 1, 2))), describe_move(t, g, Score("chance"))
('keep dice 1 2 3 (3 3 3)', 'Chance')
>>> format_points(t, 231.04), format_points(translator("sv"), 231.04)
('231.0', '231,0')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from babel.numbers import format_decimal, format_percent

from yatzy.core.actions import Action, Reroll, Roll, Score
from yatzy.core.game import Game
from yatzy.i18n import Translator
from yatzy.i18n.words import box_label


class Advice(Protocol):
    """One option of the strategy: a move and the expected final score after it."""

    @property
    def action(self) -> Action: ...

    @property
    def value(self) -> float: ...


def format_points(t: Translator, value: float) -> str:
    """An expected score with one decimal, written the language's way."""
    return str(format_decimal(value, format="0.0", locale=t.lang))


def win_chances_text(t: Translator, chances: Mapping[str, float]) -> str:
    """Each player's chance of winning, in the language's way:
    ``Win chances: Ann 53.9% · Bo 46.1%``."""
    return t._("Win chances: {chances}", chances=" · ".join(
        f"{name} {format_percent(p, format='0.0%', locale=t.lang)}"
        for name, p in chances.items()))


def describe_move(t: Translator, game: Game, action: Action) -> str:
    """A move in a player's words: "roll", "keep dice 1 2 3 (3 3 3)", "reroll all", a
    box's name."""
    return describe_action(t, game.dice, action)


def describe_action(t: Translator, dice: Sequence[int] | None, action: Action) -> str:
    """:func:`describe_move` for the ``dice`` on the table."""
    if isinstance(action, Roll):
        return t._("roll")
    if isinstance(action, Reroll):
        if not action.hold or dice is None:
            return t._("reroll all")
        # The keys 1-5 hold dice by position, so the hint names positions (1-based),
        # then their faces: "keep dice 1 2 4 (6 6 5)".
        return t.ngettext(
            "keep die {positions} ({dice})", "keep dice {positions} ({dice})",
            len(action.hold),
            positions=" ".join(str(i + 1) for i in action.hold),
            dice=" ".join(str(dice[i]) for i in action.hold))
    assert isinstance(action, Score)
    return box_label(t, action.box)


def hint_text(t: Translator, game: Game, options: Sequence[Advice], shown: int) -> str:
    """The ``shown`` best options, best first, with their expected final scores."""
    if not options:
        return ""
    if shown <= 1:
        best = options[0]
        return t._("Hint: {move} (expected final score {points}). Press h for more.",
                   move=describe_move(t, game, best.action),
                   points=format_points(t, best.value))
    lines = [t._("Best moves (expected final score):")]
    for rank, option in enumerate(options[:shown], start=1):
        lines.append(f"{rank}. {describe_move(t, game, option.action)} · "
                     f"{format_points(t, option.value)}")
    return "\n".join(lines)
