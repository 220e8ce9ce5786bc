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
from typing import Any

from yatzy.core.errors import ErrorCode, IllegalMove, RulesError
from yatzy.core.rulesets import Ruleset

#: Name of the extra-Yahtzee counter in a scorecard's text form.
BONUS_KEY = "yahtzee_bonus"


@dataclass(frozen=True)
class Scorecard(Mapping[str, "int | None"]):
    """One player's scorecard. ``card[box]`` is the box's points, or ``None`` while open.

    Immutable: :meth:`fill` returns a new scorecard.
    """

    ruleset: Ruleset
    entries: tuple[int | None, ...]
    #: How many extra five-of-a-kinds earned the Yahtzee bonus (0 in Yatzy).
    yahtzee_bonus_count: int = 0

    @classmethod
    def empty(cls, ruleset: Ruleset) -> Scorecard:
        """A scorecard with every box open."""
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
        return tuple(b for b, v in zip(self.ruleset.boxes, self.entries, strict=True) if v is None)

    @property
    def filled_boxes(self) -> tuple[str, ...]:
        """The boxes filled so far, in scorecard order."""
        return tuple(
            b for b, v in zip(self.ruleset.boxes, self.entries, strict=True) if v is not None
        )

    @property
    def is_complete(self) -> bool:
        """True when every box is filled."""
        return all(v is not None for v in self.entries)

    # --- Totals ---------------------------------------------------------------------

    @property
    def upper_sum(self) -> int:
        """Points in ones … sixes."""
        return sum(v or 0 for v in self.entries[:6])

    @property
    def upper_bonus(self) -> int:
        """The upper bonus once the upper sum reaches the threshold (63), else 0."""
        r = self.ruleset
        return r.upper_bonus_points if self.upper_sum >= r.upper_bonus_threshold else 0

    @property
    def upper_par_delta(self) -> int:
        """Upper sum minus three of each filled upper face: ``+3`` means 3 over par
        for the bonus (three of every face gives exactly 63)."""
        par = sum(3 * face for face, v in enumerate(self.entries[:6], start=1) if v is not None)
        return self.upper_sum - par

    @property
    def yahtzee_bonus(self) -> int:
        """Points from extra Yahtzees (100 each); 0 in Yatzy."""
        return self.yahtzee_bonus_count * self.ruleset.extra_yahtzee_points

    @property
    def lower_sum(self) -> int:
        """Points in the lower section (bonuses not included)."""
        return sum(v or 0 for v in self.entries[6:])

    @property
    def total(self) -> int:
        """Grand total: upper sum, upper bonus, Yahtzee bonus and lower sum."""
        return self.upper_sum + self.upper_bonus + self.yahtzee_bonus + self.lower_sum

    # --- Changes --------------------------------------------------------------------

    def fill(self, box: str, points: int, *, extra_yahtzee: bool = False) -> Scorecard:
        """A new scorecard with ``points`` in ``box`` (and one more Yahtzee bonus when
        ``extra_yahtzee``). This only records; which boxes and points are legal is
        decided by :mod:`yatzy.core.rules`."""
        i = self._index(box)
        if self.entries[i] is not None:
            raise IllegalMove(f"{self.ruleset.label(box)} is already filled",
                              code=ErrorCode.BOX_FILLED, box=box)
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
        ``-`` (or nothing) for an empty card."""
        values: dict[str, int] = {}
        bonus = 0
        for part in text.replace(",", " ").split():
            if part == "-":
                continue
            key, sep, raw = part.partition("=")
            if not sep or not raw.strip().isdigit():
                raise RulesError(f"Scorecard entries look like 'box=points', not {part!r}")
            if key == BONUS_KEY:
                bonus = int(raw)
            else:
                values[ruleset.check_box(key)] = int(raw)
        return cls.from_dict(ruleset, {"boxes": values, BONUS_KEY: bonus})

    def to_dict(self) -> dict[str, Any]:
        """``{"boxes": {box: points or None}, "yahtzee_bonus": count}``."""
        return {
            "boxes": dict(zip(self.ruleset.boxes, self.entries, strict=True)),
            BONUS_KEY: self.yahtzee_bonus_count,
        }

    @classmethod
    def from_dict(cls, ruleset: Ruleset, data: Mapping[str, Any]) -> Scorecard:
        """The inverse of :meth:`to_dict`; boxes left out are open."""
        boxes = data.get("boxes", {})
        if not isinstance(boxes, Mapping):
            raise RulesError("A scorecard's boxes must be an object of box: points")
        for box, points in boxes.items():
            ruleset.check_box(box)
            if points is None:
                continue
            if isinstance(points, bool) or not isinstance(points, int) or points < 0:
                raise RulesError(f"Points in {box} must be a whole number >= 0, not {points!r}")
            possible = ruleset.possible_points(box)
            if points not in possible:
                raise RulesError(
                    f"{ruleset.label(box)} cannot hold {points} points; it holds "
                    f"{', '.join(map(str, sorted(possible)))}",
                    box=box, points=points,
                )
        count = data.get(BONUS_KEY, 0)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise RulesError(f"The Yahtzee bonus count must be a whole number >= 0, not {count!r}")
        if count and not ruleset.extra_yahtzee_points:
            raise RulesError(f"{ruleset.name} has no Yahtzee bonus")
        if count and boxes.get(ruleset.yahtzee_box) != 50:
            raise RulesError(
                f"Yahtzee bonuses need 50 in the {ruleset.label(ruleset.yahtzee_box)} box"
            )
        values = tuple(boxes.get(b) for b in ruleset.boxes)
        return cls(ruleset, values, count)
