"""Which boxes a player may fill, and for how many points: play order, Joker, bonus.

These pure functions are the one place where the play orders and the Joker modes live.
The solver builds its tables from them, the game applies them.

>>> from yatzy.core.rulesets import ruleset
>>> from yatzy.core.scorecard import Scorecard
>>> r = ruleset("yahtzee")
>>> card = Scorecard.empty(r).fill("yahtzee", 50)
>>> choices(r, card, [5, 5, 5, 5, 5])
{'fives': 25}
>>> earns_yahtzee_bonus(r, card, [5, 5, 5, 5, 5])
True
>>> joker_choices(r, card)[5]
{'fives': 25}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import lru_cache

from yatzy.core.dice import FACES, Dice, DiceLike
from yatzy.core.errors import ErrorCode, IllegalMove, RulesError, shown
from yatzy.core.rulesets import UPPER_BOXES, Ruleset, check_ruleset
from yatzy.core.scorecard import Scorecard, check_card

# The public functions check their arguments once and call the private ones (the solver
# calls them for every set of filled boxes: each check is paid once per call).


def allowed_by_order(ruleset: Ruleset, card: Scorecard) -> tuple[str, ...]:
    """The open boxes the play order allows now, ignoring the dice."""
    return _allowed(ruleset, check_card(ruleset, card))


def allowed_bits(ruleset: Ruleset, filled: int) -> int:
    """:func:`allowed_by_order` of a card whose filled boxes are the bits of ``filled``
    (bit ``i`` for ``ruleset.boxes[i]``), as bits: what the play order allows depends on
    nothing else. The solver asks it for every set of filled boxes.

    >>> from yatzy.core.rulesets import ruleset
    >>> bin(allowed_bits(ruleset("yatzy", order="in_order"), 0b111))
    '0b1000'
    """
    nb = len(check_ruleset(ruleset).boxes)
    if isinstance(filled, bool) or not isinstance(filled, int) or not 0 <= filled < 1 << nb:
        raise RulesError(f"{shown(filled)} is no set of {ruleset}'s {nb} boxes",
                         code=ErrorCode.NOT_A_SCORECARD, value=shown(filled))
    return _allowed_bits(ruleset, filled)


def allowed_bits_table(ruleset: Ruleset) -> list[int]:
    """:func:`allowed_bits` of every set of filled boxes, at its index (``2**n`` of them,
    ``n`` boxes), for the solver's tables: the same rule, the ruleset checked once.

    >>> from yatzy.core.rulesets import ruleset
    >>> [bin(b) for b in allowed_bits_table(ruleset("yatzy", order="in_order"))[:4]]
    ['0b1', '0b10', '0b1', '0b100']
    """
    full = (1 << len(check_ruleset(ruleset).boxes)) - 1
    rule, upper = _ORDER_RULES[ruleset.order], _upper_bits(ruleset)
    return [rule(full ^ filled, upper) for filled in range(full + 1)]


def _allowed_bits(ruleset: Ruleset, filled: int) -> int:
    open_bits = ~filled & ((1 << len(ruleset.boxes)) - 1)
    return _ORDER_RULES[ruleset.order](open_bits, _upper_bits(ruleset))


#: Each play order: the open boxes it allows, from the open boxes and the upper
#: section's boxes (as bits; none when none is open).
_ORDER_RULES: dict[str, Callable[[int, int], int]] = {
    "free": lambda open_bits, upper: open_bits,
    "in_order": lambda open_bits, upper: open_bits & -open_bits,  # the first open box
    "upper_first": lambda open_bits, upper: open_bits & upper or open_bits,
}


@lru_cache(maxsize=32)
def _upper_bits(ruleset: Ruleset) -> int:
    return (1 << ruleset.upper_count) - 1


def _allowed(ruleset: Ruleset, card: Scorecard) -> tuple[str, ...]:
    filled = card.filled_bits
    bits = _allowed_bits(ruleset, filled)
    if bits == ~filled & ((1 << len(ruleset.boxes)) - 1):
        return card.open_boxes
    return tuple(box for i, box in enumerate(ruleset.boxes) if bits >> i & 1)


def is_joker(ruleset: Ruleset, card: Scorecard, dice: DiceLike) -> bool:
    """True when Joker rules apply: five of a kind with the Yahtzee box already filled
    (never in Yatzy, nor with ``joker="none"``)."""
    return _is_joker(ruleset, check_card(ruleset, card), ruleset.check_dice(dice))


def _is_joker(ruleset: Ruleset, card: Scorecard, dice: Dice) -> bool:
    return dice.is_n_of_a_kind and _jokers_apply(ruleset, card)


def _jokers_apply(ruleset: Ruleset, card: Scorecard) -> bool:
    """True when five of a kind is a Joker with ``card``: the Yahtzee box filled, in a
    ruleset with Joker rules."""
    return _jokers_apply_bits(ruleset, card.filled_bits)


def jokers_apply_bits(ruleset: Ruleset, filled: int) -> bool:
    """True when five of a kind is a Joker (see :func:`is_joker`) for a card whose filled
    boxes are the bits of ``filled`` (as in :func:`allowed_bits`): it depends on nothing
    else.

    >>> from yatzy.core.rulesets import ruleset
    >>> r = ruleset("yahtzee")
    >>> jokers_apply_bits(r, 1 << r.boxes.index("yahtzee")), jokers_apply_bits(r, 0)
    (True, False)
    """
    allowed_bits(ruleset, filled)  # checks both
    return _jokers_apply_bits(ruleset, filled)


def jokers_apply_table(ruleset: Ruleset) -> list[bool]:
    """:func:`jokers_apply_bits` of every set of filled boxes, at its index (as
    :func:`allowed_bits_table`).

    >>> from yatzy.core.rulesets import ruleset
    >>> r = ruleset("yahtzee")
    >>> table = jokers_apply_table(r)
    >>> table[1 << r.boxes.index("yahtzee")], table[0], any(jokers_apply_table(ruleset("yatzy")))
    (True, False, False)
    """
    nb = len(check_ruleset(ruleset).boxes)
    bit = _joker_bit(ruleset)
    return [bool(filled & bit) for filled in range(1 << nb)]


def _jokers_apply_bits(ruleset: Ruleset, filled: int) -> bool:
    return bool(filled & _joker_bit(ruleset))


@lru_cache(maxsize=32)
def _joker_bit(ruleset: Ruleset) -> int:
    """The bit of the Yahtzee box, whose filling makes five of a kind a Joker; 0 in a
    ruleset without Joker rules (or without the box)."""
    boxes = ruleset.boxes
    if ruleset.joker == "none" or ruleset.yahtzee_box not in boxes:
        return 0
    return 1 << boxes.index(ruleset.yahtzee_box)


def earns_yahtzee_bonus(ruleset: Ruleset, card: Scorecard, dice: DiceLike) -> bool:
    """True when scoring ``dice`` now earns an extra-Yahtzee bonus: five of a kind while
    the Yahtzee box holds 50, in a ruleset with the bonus."""
    check_card(ruleset, card)
    d = ruleset.check_dice(dice)
    return bool(
        ruleset.extra_yahtzee_points and d.is_n_of_a_kind and card[ruleset.yahtzee_box] == 50
    )


def choices(ruleset: Ruleset, card: Scorecard, dice: DiceLike) -> dict[str, int]:
    """Every box the player with ``card`` may fill with ``dice``, with its points.

    The points are what the box receives (Joker values included); an extra-Yahtzee
    bonus comes on top, see :func:`earns_yahtzee_bonus`. Boxes are in scorecard order.
    """
    card = check_card(ruleset, card)
    return _choices(ruleset, card, ruleset.check_dice(dice), _allowed(ruleset, card))


def _choices(
    ruleset: Ruleset, card: Scorecard, d: Dice, allowed: tuple[str, ...]
) -> dict[str, int]:
    """:func:`choices`, given ``allowed`` = ``_allowed(ruleset, card)``."""
    if not _is_joker(ruleset, card, d):
        # ``d`` and ``allowed`` are checked: each box's scorer at once (Ruleset.score
        # would check them again for every box).
        scorers = ruleset._scorers
        return {box: scorers[box](d) for box in allowed}
    return _joker_options(ruleset, card, allowed, d[0], _n_of_a_kind_points(ruleset)[d[0]])


def _joker_options(
    ruleset: Ruleset,
    card: Scorecard,
    allowed: tuple[str, ...],
    face: int,
    points: tuple[dict[str, int], dict[str, int]],
) -> dict[str, int]:
    """:func:`choices` for n of a kind of ``face`` when Joker rules apply
    (``_is_joker``), given ``allowed`` and ``points`` = ``_n_of_a_kind_points(ruleset)
    [face]``."""
    table, joker = points
    upper_box = UPPER_BOXES[face - 1]
    if ruleset.joker == "forced":
        if upper_box in allowed:
            return {upper_box: table[upper_box]}
        lower = [b for b in allowed if b not in UPPER_BOXES]
        if lower:
            return {box: joker[box] for box in lower}
        return {box: table[box] for box in allowed}
    wild = (ruleset.joker == "free" or upper_box not in ruleset.upper_boxes
            or not card.is_open(upper_box))
    return {
        box: joker[box] if wild and box not in UPPER_BOXES else table[box]
        for box in allowed
    }


@lru_cache(maxsize=32)
def _n_of_a_kind_points(ruleset: Ruleset) -> dict[int, tuple[dict[str, int], dict[str, int]]]:
    """Per face whose ``dice_count`` dice are n of a kind (every face, unless there are
    no dice), the points of every box for them: by the table (:meth:`Ruleset.score`)
    and as a Joker (:meth:`Ruleset.joker_score`)."""
    points = {}
    for face in FACES:
        d = Dice((face,) * ruleset.dice_count)
        if d.is_n_of_a_kind:
            points[face] = (
                {box: ruleset.score(box, d) for box in ruleset.boxes},
                {box: ruleset.joker_score(box, d) for box in ruleset.boxes},
            )
    return points


def joker_choices(ruleset: Ruleset, card: Scorecard) -> dict[int, dict[str, int]]:
    """The choices of five of a kind of each face for which Joker rules apply now.

    ``{face: choices(ruleset, card, [face] * ruleset.dice_count)}`` for each face from
    1 to 6 (in that order) with ``is_joker(ruleset, card, [face] * ruleset.dice_count)``,
    checking ``card`` once instead of once per face. The faces left out (all of them in
    Yatzy, with ``joker="none"``, or while the Yahtzee box is open) score by the table:
    their choices are the table points (:meth:`Ruleset.score`) of the boxes
    :func:`allowed_by_order` allows.

    >>> from yatzy.core.rulesets import ruleset
    >>> from yatzy.core.scorecard import Scorecard
    >>> r = ruleset("yahtzee")
    >>> joker_choices(r, Scorecard.empty(r))
    {}
    >>> card = Scorecard.empty(r).fill("yahtzee", 0).fill("sixes", 24)
    >>> jokers = joker_choices(r, card)
    >>> sorted(jokers)
    [1, 2, 3, 4, 5, 6]
    >>> jokers[2]
    {'twos': 10}
    >>> jokers[6]["large_straight"], jokers[6]["chance"]
    (40, 30)
    >>> joker_choices(ruleset("yatzy"), Scorecard.empty(ruleset("yatzy")).fill("yatzy", 50))
    {}
    """
    if not _jokers_apply(ruleset, check_card(ruleset, card)):
        return {}
    allowed = _allowed(ruleset, card)
    # _is_joker holds for exactly these faces: n of a kind, and the Joker rules apply.
    return {
        face: _joker_options(ruleset, card, allowed, face, points)
        for face, points in _n_of_a_kind_points(ruleset).items()
    }


@dataclass(frozen=True)
class Refusal:
    """Why a box may not be filled now, as data an interface can translate.

    ``reason`` is one of ``"filled"``, ``"in_order"`` (``next_box`` is the box to fill),
    ``"upper_first"`` (``allowed`` are the boxes to fill first), ``"joker_upper"`` (five
    ``face``s must go in ``upper_box``) or ``"joker_lower"`` (``upper_box`` is filled,
    so they go in an open lower box).
    """

    box: str
    reason: str
    next_box: str | None = None
    allowed: tuple[str, ...] = ()
    face: int | None = None
    upper_box: str | None = None

    @property
    def code(self) -> ErrorCode:
        """The error code of the :class:`IllegalMove` this refusal raises."""
        return ErrorCode.BOX_FILLED if self.reason == "filled" else ErrorCode.BOX_NOT_ALLOWED

    def message(self, ruleset: Ruleset) -> str:
        """The refusal in English, for a player."""
        label = ruleset.label
        if self.reason == "filled":
            return f"{label(self.box)} is already filled"
        if self.reason == "in_order":
            assert self.next_box is not None
            nxt = label(self.next_box)
            return f"In this game the boxes are filled top to bottom: next is {nxt}"
        if self.reason == "upper_first":
            first = ", ".join(label(b) for b in self.allowed)
            box = label(self.box)
            return f"In this game the upper section comes first: fill {first} before {box}"
        assert self.upper_box is not None
        upper = label(self.upper_box)
        if self.reason == "joker_upper":
            return f"Joker rule: five {self.face}s must go in {upper} while it is open"
        return (
            f"Joker rule: {upper} is filled, so five {self.face}s go in an open lower box"
            " while there is one"
        )

    def error(self, ruleset: Ruleset) -> IllegalMove:
        """The :class:`IllegalMove` for this refusal; its ``params`` hold these fields."""
        params = {k: v for k, v in asdict(self).items() if v not in (None, ())}
        return IllegalMove(self.message(ruleset), code=self.code, **params)


def refusal(
    ruleset: Ruleset, card: Scorecard, dice: DiceLike | None, box: str
) -> Refusal | None:
    """Why ``box`` may not be filled with ``dice`` now, or ``None`` when it may.

    With ``dice=None`` (before a roll) only the filled box and the play order count.
    """
    check_card(ruleset, card)
    ruleset.check_box(box)
    if not card.is_open(box):
        return Refusal(box, "filled")
    allowed = _allowed(ruleset, card)
    if box not in allowed:
        if ruleset.order == "in_order":
            return Refusal(box, "in_order", next_box=allowed[0])
        return Refusal(box, "upper_first", allowed=allowed)
    if dice is None:
        return None
    d = ruleset.check_dice(dice)
    if box in _choices(ruleset, card, d, allowed):
        return None
    face = d[0]
    upper_box = UPPER_BOXES[face - 1]
    reason = ("joker_upper" if upper_box in ruleset.upper_boxes and card.is_open(upper_box)
              else "joker_lower")
    return Refusal(box, reason, face=face, upper_box=upper_box)


def most_saved_rolls(rolls: int, turns: int) -> int:
    """The most rolls a player can have saved after ``turns`` turns of ``rolls`` rolls
    each, in a ruleset that saves rolls: every roll of each turn but its first.

    >>> most_saved_rolls(3, 19)
    38
    """
    return (rolls - 1) * turns


def most_rolls_left(ruleset: Ruleset) -> int:
    """The most rolls a player can have left after a roll: the turn's own but the first,
    and, in a ruleset that saves rolls, the most saved before the last turn.

    >>> from yatzy.core.rulesets import ruleset
    >>> most_rolls_left(ruleset("yatzy")), most_rolls_left(ruleset("maxi_yatzy"))
    (2, 40)
    """
    saved = most_saved_rolls(ruleset.rolls, len(ruleset.boxes) - 1) if ruleset.saved_rolls else 0
    return ruleset.rolls - 1 + saved


def saved_after_turn(ruleset: Ruleset, saved: tuple[int, ...], seat: int,
                     rolls_used: int) -> tuple[int, ...]:
    """Every seat's saved rolls after ``seat`` ends a turn of ``rolls_used`` rolls: in a
    ruleset that saves rolls, the turn's own rolls it did not use are added to the
    seat's saved rolls and the saved rolls it used after its own are taken from them
    (``saved`` as it is, in any other ruleset).

    >>> from yatzy.core.rulesets import ruleset
    >>> saved_after_turn(ruleset("maxi_yatzy"), (0, 3), 0, 1)  # one roll of three
    (2, 3)
    >>> saved_after_turn(ruleset("maxi_yatzy"), (0, 3), 1, 5)  # two saved rolls used
    (0, 1)
    >>> saved_after_turn(ruleset("yatzy"), (0, 0), 0, 1)
    (0, 0)
    """
    if not ruleset.saved_rolls:
        return saved
    left = saved[seat] + ruleset.rolls - rolls_used
    assert left >= 0, "a turn uses no more rolls than it has"
    return (*saved[:seat], left, *saved[seat + 1 :])


def check_choice(ruleset: Ruleset, card: Scorecard, dice: DiceLike, box: str) -> int:
    """The points ``box`` gets for ``dice``, or :class:`IllegalMove` saying why not."""
    check_card(ruleset, card)
    ruleset.check_box(box)
    options = _choices(ruleset, card, ruleset.check_dice(dice), _allowed(ruleset, card))
    if box in options:
        return options[box]
    refused = refusal(ruleset, card, dice, box)
    assert refused is not None, "a box outside choices() is always refused"
    raise refused.error(ruleset)
