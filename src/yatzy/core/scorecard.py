"""The scorecard of one player: filled boxes and totals.

>>> from yatzy.core.rulesets import ruleset
>>> card = Scorecard.empty(ruleset("yatzy")).fill("sixes", 24).fill("chance", 21)
>>> card["sixes"], card["ones"]
(24, None)
>>> card.upper_sum, card.upper_bonus, card.lower_sum, card.total
(24, 0, 21, 45)
>>> str(card)
'sixes=24 chance=21'
>>> Scorecard.parse(ruleset("yatzy"), str(card)) == card
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import compress, repeat
from operator import is_
from typing import Any

from yatzy.core.errors import ErrorCode, IllegalMove, RulesError, shown
from yatzy.core.rulesets import Ruleset, check_ruleset

#: Name of the extra-Yahtzee counter in a scorecard's text form.
BONUS_KEY = "yahtzee_bonus"

#: More digits than any box's points or bonus count has (int() of thousands of digits
#: raises, and such a number is refused anyway).
_MAX_DIGITS = 18


def check_card(ruleset: object, card: object) -> Scorecard:
    """Return ``card`` if it is a :class:`Scorecard` of ``ruleset``, else raise
    :class:`RulesError`."""
    rules = check_ruleset(ruleset)
    if not isinstance(card, Scorecard):
        raise RulesError(
            f"Expected a Scorecard, not {shown(card)}", code=ErrorCode.NOT_A_SCORECARD,
            value=shown(card),
        )
    if card.ruleset is not rules and card.ruleset != rules:
        raise RulesError(
            f"The scorecard is for {card.ruleset}, not {rules}",
            code=ErrorCode.NOT_A_SCORECARD, value=str(card.ruleset),
        )
    return card


@dataclass(frozen=True)
class Scorecard(Mapping[str, "int | None"]):
    """One player's scorecard. ``card[box]`` is the box's points, or ``None`` while open.

    Immutable: :meth:`fill` returns a new scorecard. Build one with :meth:`empty`,
    :meth:`fill`, :meth:`parse` or :meth:`from_dict`, which check that a game could
    produce it; the constructor trusts its arguments (the solver builds many).
    """

    ruleset: Ruleset
    entries: tuple[int | None, ...]
    #: How many extra five-of-a-kinds earned the Yahtzee bonus (0 in Yatzy).
    yahtzee_bonus_count: int = 0

    @classmethod
    def empty(cls, ruleset: Ruleset) -> Scorecard:
        """A scorecard with every box open."""
        ruleset = check_ruleset(ruleset)
        return cls(ruleset, (None,) * len(ruleset.boxes))

    # --- Mapping --------------------------------------------------------------------

    def __getitem__(self, box: str) -> int | None:
        return self.entries[self._index(box)]

    def __iter__(self) -> Iterator[str]:
        return iter(self.ruleset.boxes)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, box: object) -> bool:
        return box in self.ruleset.boxes

    def _index(self, box: str) -> int:
        return self.ruleset.boxes.index(self.ruleset.check_box(box))

    # --- State ----------------------------------------------------------------------

    def is_open(self, box: str) -> bool:
        """True while ``box`` has not been filled."""
        return self[box] is None

    @property
    def open_boxes(self) -> tuple[str, ...]:
        """The boxes not yet filled, in scorecard order."""
        # In C, without a Python loop: the rules ask this for every card the solver builds.
        return tuple(compress(self.ruleset.boxes, map(is_, self.entries, repeat(None))))

    @property
    def filled_bits(self) -> int:
        """The filled boxes as bits: bit ``i`` for ``ruleset.boxes[i]``."""
        bits = 0
        for i, v in enumerate(self.entries):
            if v is not None:
                bits |= 1 << i
        return bits

    @property
    def filled_boxes(self) -> tuple[str, ...]:
        """The boxes filled so far, in scorecard order."""
        return tuple(
            b for b, v in zip(self.ruleset.boxes, self.entries, strict=True) if v is not None
        )

    @property
    def is_complete(self) -> bool:
        """True when every box is filled."""
        return None not in self.entries

    # --- Totals ---------------------------------------------------------------------

    @property
    def upper_sum(self) -> int:
        """Points in ones … sixes."""
        return sum(filter(None, self.entries[: self.ruleset.upper_count]))

    @property
    def upper_bonus(self) -> int:
        """The upper bonus once the upper sum reaches the threshold (63), else 0."""
        r = self.ruleset
        return r.upper_bonus_points if self.upper_sum >= r.upper_bonus_threshold else 0

    @property
    def upper_par_delta(self) -> int:
        """Upper sum minus par for the filled upper boxes: ``+3`` means 3 over par for
        the bonus. Par is the bonus threshold shared out over the faces by their value
        (three of each face for 63, four for Maxi Yatzy's 84), rounded to a point.

        >>> from yatzy.core.rulesets import ruleset
        >>> Scorecard.empty(ruleset("maxi_yatzy")).fill("sixes", 18).upper_par_delta
        -6
        >>> Scorecard.empty(ruleset("yatzy")).fill("sixes", 18).upper_par_delta
        0
        """
        upper = self.entries[: self.ruleset.upper_count]
        filled = sum(face for face, v in enumerate(upper, start=1) if v is not None)
        every = sum(range(1, self.ruleset.upper_count + 1))
        par = round(self.ruleset.upper_bonus_threshold * filled / every)
        return self.upper_sum - par

    @property
    def yahtzee_bonus(self) -> int:
        """Points from extra Yahtzees (100 each); 0 in Yatzy."""
        return self.yahtzee_bonus_count * self.ruleset.extra_yahtzee_points

    @property
    def lower_sum(self) -> int:
        """Points in the lower section (bonuses not included)."""
        return sum(filter(None, self.entries[self.ruleset.upper_count :]))

    @property
    def total(self) -> int:
        """Grand total: upper sum, upper bonus, Yahtzee bonus and lower sum."""
        return sum(filter(None, self.entries)) + self.upper_bonus + self.yahtzee_bonus

    # --- Changes --------------------------------------------------------------------

    def fill(self, box: str, points: int, *, extra_yahtzee: bool = False) -> Scorecard:
        """A new scorecard with ``points`` in ``box`` (and one more Yahtzee bonus when
        ``extra_yahtzee``). This only records; which boxes and points are legal is
        decided by :mod:`yatzy.core.rules` (so a test can build a card no game reaches).
        Only values that are no number of points at all are refused: not a whole number
        from 0 to the most the box can hold (:class:`RulesError`)."""
        i = self._index(box)
        if self.entries[i] is not None:
            raise IllegalMove(f"{self.ruleset.label(box)} is already filled",
                              code=ErrorCode.BOX_FILLED, box=box)
        most = max(self.ruleset.possible_points(box))
        if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= most:
            raise RulesError(
                f"Points in {box} must be a whole number from 0 to {most}, not {shown(points)}",
                code=ErrorCode.BAD_POINTS, box=box, points=shown(points),
            )
        if not isinstance(extra_yahtzee, bool):
            raise RulesError(
                f"extra_yahtzee must be True or False, not {shown(extra_yahtzee)}",
                code=ErrorCode.BAD_BONUS_COUNT, count=shown(extra_yahtzee),
            )
        values = (*self.entries[:i], points, *self.entries[i + 1 :])
        return Scorecard(self.ruleset, values, self.yahtzee_bonus_count + int(extra_yahtzee))

    # --- Text and dict forms --------------------------------------------------------

    def __str__(self) -> str:
        parts = [f"{b}={v}" for b, v in zip(self.ruleset.boxes, self.entries, strict=True)
                 if v is not None]
        if self.yahtzee_bonus_count:
            parts.append(f"{BONUS_KEY}={self.yahtzee_bonus_count}")
        return " ".join(parts) if parts else "-"

    @classmethod
    def parse(cls, ruleset: Ruleset, text: str) -> Scorecard:
        """Parse the text form: the filled boxes as ``box=points`` separated by spaces
        or commas, open boxes left out, ``yahtzee_bonus=N`` for extra Yahtzees, and
        ``-`` (or nothing) for an empty card. A box given twice is refused.

        >>> from yatzy.core.rulesets import ruleset
        >>> Scorecard.parse(ruleset("yatzy"), "ones=3 ones=1")
        Traceback (most recent call last):
        ...
        yatzy.core.errors.RulesError: Ones is given twice: 'ones=3 ones=1'
        """
        ruleset = check_ruleset(ruleset)
        if not isinstance(text, str):
            raise RulesError(
                f"A scorecard must be written as text, not {shown(text)}",
                code=ErrorCode.BAD_CARD_TEXT, text=shown(text),
            )
        values: dict[str, int] = {}
        bonus: int | None = None
        for part in text.replace(",", " ").split():
            if part == "-":
                continue
            key, sep, raw = part.partition("=")
            # ASCII digits only: str.isdigit() also takes "²", which int() refuses.
            if not sep or not (raw.isascii() and raw.isdigit()):
                raise RulesError(
                    f"Scorecard entries look like 'box=points', not {shown(part)}",
                    code=ErrorCode.BAD_CARD_TEXT, text=shown(part),
                )
            if len(raw) > _MAX_DIGITS:
                raise RulesError(
                    f"{shown(part)}: no box holds that many points",
                    code=ErrorCode.BAD_POINTS, box=shown(key), points=shown(raw),
                )
            if key == BONUS_KEY:
                if bonus is not None:
                    raise RulesError(
                        f"{BONUS_KEY} is given twice: {shown(text)}",
                        code=ErrorCode.BOX_TWICE, box=BONUS_KEY,
                    )
                bonus = int(raw)
            else:
                box = ruleset.check_box(key)
                if box in values:
                    raise RulesError(
                        f"{ruleset.label(box)} is given twice: {shown(text)}",
                        code=ErrorCode.BOX_TWICE, box=box,
                    )
                values[box] = int(raw)
        return cls.from_dict(ruleset, {"boxes": values, BONUS_KEY: bonus or 0})

    def to_dict(self) -> dict[str, Any]:
        """``{"boxes": {box: points or None}, "yahtzee_bonus": count}``."""
        return {
            "boxes": dict(zip(self.ruleset.boxes, self.entries, strict=True)),
            BONUS_KEY: self.yahtzee_bonus_count,
        }

    @classmethod
    def from_dict(cls, ruleset: Ruleset, data: Mapping[str, Any]) -> Scorecard:
        """The inverse of :meth:`to_dict`; boxes left out are open.

        Points a box can never hold are refused, and so are more Yahtzee bonuses than
        the card has room for: each bonus is scored in a box other than the Yahtzee
        box, with five of a kind.
        """
        ruleset = check_ruleset(ruleset)
        if not isinstance(data, Mapping):
            raise RulesError(
                f"A scorecard must be an object of boxes, not {shown(data)}",
                code=ErrorCode.BAD_CARD_TEXT, text=shown(data),
            )
        boxes = data.get("boxes", {})
        if not isinstance(boxes, Mapping):
            raise RulesError("A scorecard's boxes must be an object of box: points",
                             code=ErrorCode.BAD_CARD_TEXT, text=shown(boxes))
        for box, points in boxes.items():
            ruleset.check_box(box)
            if points is not None:
                _check_points(ruleset, box, points)
        count = data.get(BONUS_KEY, 0)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise RulesError(
                f"The Yahtzee bonus count must be a whole number >= 0, not {shown(count)}",
                code=ErrorCode.BAD_BONUS_COUNT, count=shown(count),
            )
        card = cls(ruleset, tuple(boxes.get(b) for b in ruleset.boxes), count)
        if count:
            _check_bonus(card)
        return card


def _check_points(ruleset: Ruleset, box: str, points: object) -> None:
    if isinstance(points, bool) or not isinstance(points, int) or points < 0:
        raise RulesError(
            f"Points in {box} must be a whole number >= 0, not {shown(points)}",
            code=ErrorCode.BAD_POINTS, box=box, points=shown(points),
        )
    possible = ruleset.possible_points(box)
    if points not in possible:
        raise RulesError(
            f"{ruleset.label(box)} cannot hold {shown(points)} points; it holds "
            f"{', '.join(map(str, sorted(possible)))}",
            code=ErrorCode.BAD_POINTS, box=box, points=shown(points),
        )


def _check_bonus(card: Scorecard) -> None:
    """Refuse Yahtzee bonuses that no game gives ``card``: the ruleset must have them,
    the Yahtzee box must hold 50, and each bonus fills another box with five of a kind,
    so there are at most as many bonuses as boxes (other than the Yahtzee box) holding
    points five of a kind can give there."""
    ruleset, count = card.ruleset, card.yahtzee_bonus_count
    if not ruleset.extra_yahtzee_points:
        raise RulesError(f"{ruleset.name} has no Yahtzee bonus",
                         code=ErrorCode.TOO_MANY_BONUSES, count=count, most=0)
    if card[ruleset.yahtzee_box] != 50:
        raise RulesError(
            f"Yahtzee bonuses need 50 in the {ruleset.label(ruleset.yahtzee_box)} box",
            code=ErrorCode.TOO_MANY_BONUSES, count=count, most=0,
        )
    room = [
        box for box, points in zip(ruleset.boxes, card.entries, strict=True)
        if box != ruleset.yahtzee_box and points is not None
        and points in ruleset.five_of_a_kind_points(box)
    ]
    if count > len(room):
        raise RulesError(
            f"This card has room for at most {len(room)} Yahtzee bonuses, not"
            f" {shown(count)}: each one fills another box with five of a kind",
            code=ErrorCode.TOO_MANY_BONUSES, count=shown(count), most=len(room),
        )
