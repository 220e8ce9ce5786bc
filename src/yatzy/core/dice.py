"""Dice: an immutable sequence of faces from 1 to 6."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice

from yatzy.core.errors import InvalidDice, shown

FACES = (1, 2, 3, 4, 5, 6)

#: The text of each face: one ASCII digit (not "+1", "06" or another script's digits).
_FACE_DIGITS = frozenset("123456")
#: Dice as callers give them: :class:`Dice`, any iterable of faces, or the text form
#: (``"3 3 5 6 6"``, ``"33566"``; as ``str`` or ASCII ``bytes``). :func:`check_dice`
#: turns each into :class:`Dice`.
DiceLike = Iterable[int] | str | bytes


class Dice(tuple[int, ...]):
    """The faces of the dice on the table, in their positions.

    A ``Dice`` is a tuple, so it compares equal to a plain tuple of the same values.
    Its text form is the faces separated by spaces and parses back:

    >>> d = Dice([3, 3, 3, 5, 5])
    >>> str(d)
    '3 3 3 5 5'
    >>> Dice.parse("3 3 3 5 5") == d
    True
    >>> Dice.parse("33355") == d
    True
    >>> d
    Dice([3, 3, 3, 5, 5])
    >>> d.counts
    (0, 0, 3, 0, 2, 0)
    >>> Dice([7, 1])
    Traceback (most recent call last):
    ...
    yatzy.core.errors.InvalidDice: Dice must be values from 1 to 6, not 7
    """

    __slots__ = ()

    def __new__(cls, values: Iterable[object] = ()) -> Dice:
        try:
            given = iter(values)
        except TypeError:
            raise InvalidDice(
                f"Dice must be values from 1 to 6, not {shown(values)}", values=shown(values)
            ) from None
        faces = []
        for value in given:
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
                raise InvalidDice(
                    f"Dice must be values from 1 to 6, not {shown(value)}", values=shown(value)
                )
            faces.append(value)
        return super().__new__(cls, faces)

    @classmethod
    def parse(cls, text: str, count: int | None = None) -> Dice:
        """Parse faces written as ``"3 3 5 6 6"``, ``"3,3,5,6,6"`` or ``"33566"``.

        Each face is one of the digits ``1`` to ``6``; spaces and commas separate them.
        A sign is not a separator, so ``"-6"`` and ``"+1"`` are refused, not read as 6
        and 1. With ``count``, the dice must also be that many, and every refusal is
        :func:`check_dice`'s, so a player reads one text for any wrong dice:

        >>> Dice.parse("-6 -6 -6 -6 -6")
        Traceback (most recent call last):
        ...
        yatzy.core.errors.InvalidDice: Dice must be values from 1 to 6, not '-6 -6 -6 -6 -6'
        >>> Dice.parse("1 2 x", count=5)
        Traceback (most recent call last):
        ...
        yatzy.core.errors.InvalidDice: Dice must be 5 values from 1 to 6
        """
        if not isinstance(text, str):
            raise InvalidDice(
                f"Dice must be written as text, not {shown(text)}", values=shown(text)
            )
        parts = text.replace(",", " ").split()
        if len(parts) == 1:
            parts = list(parts[0])
        if all(part in _FACE_DIGITS for part in parts) and count in (None, len(parts)):
            return cls(int(part) for part in parts)
        if count is not None:
            raise _wrong_count(count)
        raise InvalidDice(f"Dice must be values from 1 to 6, not {shown(text)}",
                          values=shown(text))

    @property
    def counts(self) -> tuple[int, int, int, int, int, int]:
        """How many dice show each face, ones first."""
        # tuple.count in C: several times faster than a Counter (the scorers ask this
        # for every box of every choice shown).
        count = self.count
        return (count(1), count(2), count(3), count(4), count(5), count(6))

    @property
    def is_n_of_a_kind(self) -> bool:
        """True when there is at least one die and all show the same face."""
        return len(self) > 0 and len(set(self)) == 1

    def sorted(self) -> Dice:
        """The same faces in ascending order."""
        return Dice(sorted(self))

    def __str__(self) -> str:
        return " ".join(str(v) for v in self)

    def __repr__(self) -> str:
        return f"Dice({list(self)!r})"


def check_dice(values: object, count: int) -> Dice:
    """Return ``values`` as :class:`Dice`, checking there are exactly ``count`` of them.

    The one coercion of dice that every entry point uses (:meth:`Game.roll
    <yatzy.core.game.Game.roll>`, :meth:`Ruleset.score
    <yatzy.core.rulesets.Ruleset.score>`, the roll-off...): ``values`` may be
    :class:`Dice`, any iterable of faces, or the text form, as ``str`` or ASCII
    ``bytes`` (see :meth:`Dice.parse`).

    >>> check_dice("3 3 5 6 6", 5) == check_dice([3, 3, 5, 6, 6], 5) == check_dice(b"33566", 5)
    True
    >>> check_dice([1, 2, 3], 5)
    Traceback (most recent call last):
    ...
    yatzy.core.errors.InvalidDice: Dice must be 5 values from 1 to 6
    """
    if isinstance(values, Dice) and len(values) == count:
        return values  # the common case, from the game itself
    if isinstance(values, bytes | bytearray):
        try:
            values = bytes(values).decode("ascii")
        except UnicodeDecodeError:
            raise _wrong_count(count) from None
    try:
        if isinstance(values, str):
            dice = Dice.parse(values)
        elif isinstance(values, Dice):
            dice = values
        elif isinstance(values, Iterable):
            # No more than one too many: an endless iterable must not hang us.
            dice = Dice(islice(values, count + 1))
        else:
            raise _wrong_count(count)
    except InvalidDice:
        raise _wrong_count(count) from None
    if len(dice) != count:
        raise _wrong_count(count)
    return dice


def _wrong_count(count: int) -> InvalidDice:
    return InvalidDice(f"Dice must be {count} values from 1 to 6", count=count)
