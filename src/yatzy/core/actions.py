"""The actions of a turn, as value objects with a text form.

>>> parse_action("roll 3 3 5 6 6")
Roll(dice=Dice([3, 3, 5, 6, 6]))
>>> str(parse_action("reroll 0 1 : 4 2 6"))
'reroll 0 1 : 4 2 6'
>>> parse_action("score full_house")
Score(box='full_house')
>>> str(Reroll((0, 1)))
'reroll 0 1'
>>> parse_action("undo")
Undo()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yatzy.core.dice import Dice
from yatzy.core.errors import ErrorCode, IllegalMove, shown


@dataclass(frozen=True)
class Roll:
    """The first roll of a turn: all dice. ``dice`` given = physical dice."""

    dice: Dice | None = None

    def __str__(self) -> str:
        return "roll" if self.dice is None else f"roll {self.dice}"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "roll"}
        if self.dice is not None:
            d["dice"] = list(self.dice)
        return d


@dataclass(frozen=True)
class Reroll:
    """Keep the dice at positions ``hold`` (0-based) and reroll the others.

    ``dice`` given = the new values of the rerolled positions, in position order.
    """

    hold: tuple[int, ...]
    dice: Dice | None = None

    def __str__(self) -> str:
        text = " ".join(["reroll", *map(str, self.hold)])
        return text if self.dice is None else f"{text} : {self.dice}"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "reroll", "hold": list(self.hold)}
        if self.dice is not None:
            d["dice"] = list(self.dice)
        return d


@dataclass(frozen=True)
class Score:
    """Fill ``box`` with the current dice, ending the turn."""

    box: str

    def __str__(self) -> str:
        return f"score {self.box}"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "score", "box": self.box}


@dataclass(frozen=True)
class Undo:
    """Take back the last action in effect (see :meth:`yatzy.core.game.Game.undo`): a
    game's record keeps both, the action and the undo, so that it replays as played."""

    def __str__(self) -> str:
        return "undo"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "undo"}


#: An action of a turn, or the undo of one.
Action = Roll | Reroll | Score | Undo


def _positions(parts: list[str]) -> tuple[int, ...]:
    # ASCII digits only (int() also reads other scripts' digits), and few of them.
    if not all(p.isascii() and p.isdigit() and len(p) <= 3 for p in parts):
        raise IllegalMove(
            f"Held positions must be whole numbers, not {shown(' '.join(parts))}",
            code=ErrorCode.BAD_HOLD, hold=shown(" ".join(parts)),
        )
    return tuple(int(p) for p in parts)


def parse_action(text: str) -> Action:
    """Parse ``roll [dice]``, ``reroll HOLD… [: dice]``, ``score BOX`` or ``undo``; the
    dice in their text form (:meth:`Dice.parse`)."""
    if not isinstance(text, str):
        raise IllegalMove(f"An action must be text, not {shown(text)}",
                          code=ErrorCode.UNKNOWN_ACTION, action=shown(text))
    words = text.split()
    if not words:
        raise IllegalMove("Empty action: expected roll, reroll or score",
                          code=ErrorCode.UNKNOWN_ACTION, action="''")
    verb, rest = words[0].lower(), words[1:]
    if verb == "roll":
        return Roll(Dice.parse(" ".join(rest)) if rest else None)
    if verb == "reroll":
        joined = " ".join(rest)
        hold_text, sep, dice_text = joined.partition(":")
        hold = _positions(hold_text.split())
        dice = Dice.parse(dice_text) if sep else None
        return Reroll(hold, dice)
    if verb == "score" and len(rest) == 1:
        return Score(rest[0])
    if verb == "undo" and not rest:
        return Undo()
    raise IllegalMove(f"Unknown action {shown(text)}: expected roll, reroll or score",
                      code=ErrorCode.UNKNOWN_ACTION, action=shown(text))


def action_from_dict(data: Any) -> Action:
    """The inverse of ``to_dict`` on an action."""
    if not isinstance(data, dict):
        raise IllegalMove(f"An action must be an object, not {shown(data)}",
                          code=ErrorCode.UNKNOWN_ACTION, action=shown(data))
    kind = data.get("type")
    dice = data.get("dice")
    if dice is not None and not isinstance(dice, list):
        raise IllegalMove(f"Dice must be a list, not {shown(dice)}",
                          code=ErrorCode.INVALID_DICE, values=shown(dice))
    if kind == "roll":
        return Roll(Dice(dice) if dice is not None else None)
    if kind == "reroll":
        hold = data.get("hold")
        if not isinstance(hold, list):
            raise IllegalMove(f"A reroll needs a list of held positions, not {shown(hold)}",
                              code=ErrorCode.BAD_HOLD, hold=shown(hold))
        return Reroll(tuple(hold), Dice(dice) if dice is not None else None)
    if kind == "score":
        box = data.get("box")
        if not isinstance(box, str):
            raise IllegalMove(f"A score action needs a box name, not {shown(box)}",
                              code=ErrorCode.UNKNOWN_BOX, box=shown(box))
        return Score(box)
    if kind == "undo":
        return Undo()
    raise IllegalMove(f"Unknown action type {shown(kind)}: expected roll, reroll or score",
                      code=ErrorCode.UNKNOWN_ACTION, action=shown(kind))
