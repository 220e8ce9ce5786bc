"""Rulesets: the boxes, their table scores and the options of each game.

>>> r = ruleset("yatzy")
>>> r.boxes[:7]
('ones', 'twos', 'threes', 'fours', 'fives', 'sixes', 'one_pair')
>>> r.score("full_house", [3, 3, 3, 5, 5])
19
>>> ruleset("yahtzee", joker="gated")
ruleset('yahtzee', joker='gated')
>>> ruleset("yahtzee", joker="wild")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
yatzy.core.errors.RulesError: Unknown value 'wild' for option joker of yahtzee; valid values: ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any

from yatzy.core import scoring
from yatzy.core.dice import FACES, Dice, DiceLike, check_dice
from yatzy.core.errors import N_, ErrorCode, RulesError, UnknownBox, shown

UPPER_BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes")

#: English names of the boxes, as printed on a scorecard (each ruleset definition may add
#: its own; the front ends translate them).
LABELS: dict[str, str] = {
    "ones": N_("Ones"),
    "twos": N_("Twos"),
    "threes": N_("Threes"),
    "fours": N_("Fours"),
    "fives": N_("Fives"),
    "sixes": N_("Sixes"),
    "one_pair": N_("One pair"),
    "two_pairs": N_("Two pairs"),
    "three_of_a_kind": N_("Three of a kind"),
    "four_of_a_kind": N_("Four of a kind"),
    "small_straight": N_("Small straight"),
    "large_straight": N_("Large straight"),
    "full_house": N_("Full house"),
    "chance": N_("Chance"),
    "yatzy": N_("Yatzy"),
    "yahtzee": N_("Yahtzee"),
}

_UPPER_SCORERS = {box: scoring.upper(face) for face, box in enumerate(UPPER_BOXES, start=1)}

_YATZY_SCORERS: dict[str, scoring.Scorer] = {
    **_UPPER_SCORERS,
    "one_pair": scoring.one_pair,
    "two_pairs": scoring.two_pairs,
    "three_of_a_kind": scoring.kind_of(3),
    "four_of_a_kind": scoring.kind_of(4),
    "small_straight": scoring.exact_straight((1, 2, 3, 4, 5), 15),
    "large_straight": scoring.exact_straight((2, 3, 4, 5, 6), 20),
    "full_house": scoring.full_house_sum,
    "chance": scoring.chance,
    "yatzy": scoring.yatzy,
}

_YAHTZEE_SCORERS: dict[str, scoring.Scorer] = {
    **_UPPER_SCORERS,
    "three_of_a_kind": scoring.kind_sum(3),
    "four_of_a_kind": scoring.kind_sum(4),
    "full_house": scoring.full_house_25,
    "small_straight": scoring.small_straight_30,
    "large_straight": scoring.large_straight_40,
    "yahtzee": scoring.yatzy,
    "chance": scoring.chance,
}

#: Lower boxes that a Joker (five of a kind used as a wild card, in Yahtzee) fills with
#: the sum of its dice; any other lower box takes its full value, the most its table
#: gives (full house, the straights), and an upper box its table score.
JOKER_SUMS = frozenset({"three_of_a_kind", "four_of_a_kind", "chance"})

ORDERS = ("free", "upper_first", "in_order")
JOKERS = ("forced", "gated", "free", "none")

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Option:
    """One option of a ruleset as its definition gives it: the default, the choices
    (an option of ``kind`` ``str``), the range (``int``; ``bool`` has neither), and its
    English name and those of its choices (the front ends translate them)."""

    default: Any
    choices: tuple[Any, ...] | None = None  # for enumerated options
    kind: type = str
    minimum: int = 1
    maximum: int = 10
    label: str = ""
    choice_labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class OptionInfo:
    """One option of a ruleset, described: its kind (``"choice"``, ``"bool"`` or
    ``"int"``), its default, its choices (a choice) or its range (a number)."""

    name: str
    kind: str
    default: Any
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    #: English names: the option's, and each choice's (the front ends translate them).
    label: str = ""
    choice_labels: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The description as JSON-ready data."""
        data: dict[str, Any] = {"name": self.name, "kind": self.kind, "default": self.default,
                                "label": self.label}
        if self.kind == "choice":
            data["choices"] = list(self.choices)
            data["choice_labels"] = dict(self.choice_labels)
        if self.kind == "int":
            data.update(minimum=self.minimum, maximum=self.maximum)
        return data


@dataclass(frozen=True)
class RulesetInfo:
    """A ruleset described once, for every front end: its boxes by section, its dice,
    rolls, bonuses, Joker values and options (the values of a :class:`Ruleset`; those
    of the defaults in :func:`rulesets`).

    ``joker_points`` gives, for each lower box, what a Joker scores there: a number, or
    ``None`` for the sum of the dice (empty where the ruleset has no Joker). ``title``,
    ``labels`` (of the boxes) and the options' labels are English: the front ends
    translate them."""

    name: str
    title: str
    boxes: tuple[str, ...]
    labels: tuple[tuple[str, str], ...]
    upper_boxes: tuple[str, ...]
    lower_boxes: tuple[str, ...]
    dice_count: int
    faces: int
    rolls: int
    upper_bonus_threshold: int
    upper_bonus_points: int
    yahtzee_box: str
    yahtzee_points: int
    extra_yahtzee_points: int
    joker: str
    joker_points: tuple[tuple[str, int | None], ...]
    order: str
    first_player: str
    options: tuple[OptionInfo, ...]
    values: tuple[tuple[str, Any], ...]
    #: Whether rolls not used in a turn are saved for the player's later turns.
    saved_rolls: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The description as JSON-ready data."""
        return {
            "name": self.name, "title": self.title, "boxes": list(self.boxes),
            "labels": dict(self.labels),
            "upper_boxes": list(self.upper_boxes), "lower_boxes": list(self.lower_boxes),
            "dice_count": self.dice_count, "faces": self.faces, "rolls": self.rolls,
            "upper_bonus_threshold": self.upper_bonus_threshold,
            "upper_bonus_points": self.upper_bonus_points,
            "yahtzee_box": self.yahtzee_box, "yahtzee_points": self.yahtzee_points,
            "extra_yahtzee_points": self.extra_yahtzee_points, "joker": self.joker,
            "joker_points": dict(self.joker_points), "order": self.order,
            "first_player": self.first_player,
            "options": [option.to_dict() for option in self.options],
            "values": dict(self.values), "saved_rolls": self.saved_rolls,
        }


@dataclass(frozen=True, eq=False)
class RulesetDefinition:
    """A ruleset's rules, once: its boxes and their table scores, dice, bonus and
    options, from which :func:`ruleset` builds each variant. The rulesets of the rule
    sheets are defined here; :func:`define_ruleset` adds another, which every front end
    then offers (its description, :func:`rulesets`, is all they read).

    - ``upper``: the upper section, at the top of the card: boxes from
      :data:`UPPER_BOXES` (ones … sixes, each the face times its count), in that order.
    - ``lower``: the other boxes in card order, each with its :data:`scoring.Scorer
      <yatzy.core.scoring.Scorer>`.
    - ``labels``: English names of boxes that :data:`LABELS` does not have.
    - ``yahtzee_box``: the box of n of a kind (its Joker and extra bonus), or ``""``.
    - ``variant``: the rule values an option choice sets, from the options' values
      (every option with its value): any of ``rolls``, ``order``, ``joker``,
      ``extra_yahtzee_points``, ``upper_bonus_threshold``, ``upper_bonus_points``. By
      default an option called ``rolls`` or ``order`` sets that value.
    """

    name: str
    title: str
    upper: tuple[str, ...]
    lower: Mapping[str, scoring.Scorer]
    dice_count: int = 5
    upper_bonus_threshold: int = 63
    upper_bonus_points: int = 50
    yahtzee_box: str = ""
    first_player: str = "seat"
    options: Mapping[str, Option] = field(default_factory=dict)
    labels: Mapping[str, str] = field(default_factory=dict)
    variant: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None


#: The rule values a variant may set (see :class:`RulesetDefinition`).
_VARIANT_VALUES = frozenset({"rolls", "order", "joker", "extra_yahtzee_points",
                             "upper_bonus_threshold", "upper_bonus_points", "saved_rolls"})
#: The rule values an option of the same name sets when a definition has no variant.
_DIRECT_VALUES = ("rolls", "order", "saved_rolls")

#: The most rolls a turn may have (the ``rolls`` option's maximum).
MAX_ROLLS = 10

_ROLLS = Option(3, kind=int, minimum=1, maximum=MAX_ROLLS, label=N_("Rolls per turn"))
#: The English names of the play orders (a ruleset's ``order``).
ORDER_LABELS = {"free": N_("any order"), "upper_first": N_("upper section first"),
                "in_order": N_("in order")}

#: The rulesets by name, in the order they are offered.
_DEFINITIONS: dict[str, RulesetDefinition] = {}
#: The rulesets of the rule sheets (which :func:`forget_ruleset` keeps).
_BUILT_IN = ("yatzy", "yahtzee", "maxi_yatzy")


def _yahtzee_variant(values: Mapping[str, Any]) -> dict[str, Any]:
    return {"rolls": values["rolls"], "joker": values["joker"],
            "order": "upper_first" if values["upper_first"] else "free",
            "extra_yahtzee_points": 100 if values["yahtzee_bonus"] else 0}


def _check_definition(d: RulesetDefinition) -> None:
    def bad(why: str) -> RulesError:
        return RulesError(f"Ruleset definition {shown(d.name)}: {why}",
                          code=ErrorCode.BAD_RULESET_DEFINITION, name=shown(d.name), why=why)

    if not isinstance(d, RulesetDefinition):
        raise RulesError(f"Expected a RulesetDefinition, not {shown(d)}",
                         code=ErrorCode.BAD_RULESET_DEFINITION, name=shown(d), why="")
    if not (isinstance(d.name, str) and d.name.isascii() and d.name.isidentifier()
            and d.name == d.name.lower()):
        raise bad("the name must be lower-case letters, digits and underscores")
    if d.name in _DEFINITIONS:
        raise bad("a ruleset of that name exists")
    if tuple(d.upper) != UPPER_BOXES[: len(d.upper)]:
        raise bad(f"the upper section must be the first boxes of {', '.join(UPPER_BOXES)}")
    boxes = (*d.upper, *d.lower)
    if len(set(boxes)) != len(boxes) or not 1 <= len(boxes) <= 30:
        raise bad("the boxes must be 1 to 30 different names")
    unnamed = [b for b in d.lower if b not in LABELS and b not in d.labels]
    if unnamed or any(not isinstance(b, str) or not b.isidentifier() for b in boxes):
        raise bad(f"every box needs a name and an English label ({', '.join(unnamed)})")
    if any(b in LABELS and LABELS[b] != label for b, label in d.labels.items()):
        raise bad("a box of another ruleset's name must keep its label")
    if not 1 <= d.dice_count <= 6 or d.yahtzee_box not in ("", *d.lower):
        raise bad("1 to 6 dice, and the n-of-a-kind box must be a lower box")
    if d.first_player not in ("seat", "roll"):
        raise bad("the first player is chosen by 'seat' or 'roll'")
    if any(not isinstance(o, Option) for o in d.options.values()):
        raise bad("each option must be an Option")


def define_ruleset(definition: RulesetDefinition) -> None:
    """Add ``definition``'s ruleset: :func:`ruleset` builds it by name from now on, and
    :func:`rulesets` describes it for every front end. Raises :class:`RulesError` for a
    name in use or a definition that breaks the rules above.

    >>> from yatzy.core import scoring
    >>> define_ruleset(RulesetDefinition(
    ...     "tiny", "Tiny", upper=("ones", "twos"), lower={"chance": scoring.chance},
    ...     dice_count=2, upper_bonus_threshold=6, options={"rolls": Option(2, kind=int)}))
    >>> ruleset("tiny").boxes, ruleset("tiny", rolls=3).rolls
    (('ones', 'twos', 'chance'), 3)
    >>> forget_ruleset("tiny")
    """
    _check_definition(definition)
    _DEFINITIONS[definition.name] = definition
    LABELS.update(definition.labels)


def forget_ruleset(name: str) -> None:
    """Remove a ruleset added by :func:`define_ruleset` (the rule sheets' stay)."""
    if name in _BUILT_IN or name not in _DEFINITIONS:
        raise RulesError(f"No added ruleset {shown(name)}", code=ErrorCode.UNKNOWN_RULESET,
                         name=shown(name), valid=", ".join(ruleset_names()))
    definition = _DEFINITIONS.pop(name)
    used = {b for d in _DEFINITIONS.values() for b in (*d.upper, *d.lower)}
    for box in definition.labels:
        if box not in used:
            LABELS.pop(box, None)


def ruleset_names() -> tuple[str, ...]:
    """The names of every ruleset :func:`ruleset` builds, in the order they are offered.

    >>> ruleset_names()
    ('yatzy', 'yahtzee', 'maxi_yatzy')
    """
    return tuple(_DEFINITIONS)


#: The rule sheets' rulesets (:func:`ruleset_names` has every ruleset, added ones too).
RULESET_NAMES = _BUILT_IN

@dataclass(frozen=True)
class Ruleset:
    """One game's rules: its boxes, table scores, bonuses, play order and Joker mode.

    Get one with :func:`ruleset`; a ``Ruleset`` is immutable and hashable, and two
    rulesets with the same name and options are equal.
    """

    name: str
    option_items: tuple[tuple[str, Any], ...]
    boxes: tuple[str, ...]
    dice_count: int
    rolls: int
    upper_bonus_threshold: int
    upper_bonus_points: int
    #: ``"free"``, ``"upper_first"`` or ``"in_order"``.
    order: str
    #: ``"forced"``, ``"gated"``, ``"free"`` or ``"none"`` (always ``"none"`` in Yatzy).
    joker: str
    #: Points for each extra five of a kind while the five-of-a-kind box holds 50.
    extra_yahtzee_points: int
    #: The five-of-a-kind box ("yatzy" or "yahtzee").
    yahtzee_box: str
    #: How a game of several players picks its first player unless told: ``"roll"`` (a
    #: roll-off, as Yahtzee's rule sheet has it) or ``"seat"`` (the first seat).
    first_player: str
    _scorers: Mapping[str, scoring.Scorer] = field(compare=False, repr=False, hash=False)
    #: How many boxes at the top of the card form the upper section.
    upper_count: int = 6
    #: The ruleset's English name ("Yahtzee").
    title: str = field(default="", compare=False)
    #: Whether rolls a player does not use in a turn are saved for that player's later
    #: turns (Maxi Yatzy): a turn may then use any number of saved rolls after its own.
    saved_rolls: bool = False

    @property
    def options(self) -> dict[str, Any]:
        """Every option with its value (defaults included), as a new dict."""
        return dict(self.option_items)

    @property
    def upper_boxes(self) -> tuple[str, ...]:
        """The upper section: ones … sixes (as many of them as the ruleset has)."""
        return self.boxes[: self.upper_count]

    @property
    def lower_boxes(self) -> tuple[str, ...]:
        """The lower section: every box after the upper section."""
        return self.boxes[self.upper_count :]

    def label(self, box: str) -> str:
        """The English name of ``box`` ("Full house")."""
        self.check_box(box)
        return LABELS[box]

    def check_box(self, box: object) -> str:
        """Return ``box`` if this ruleset has it, else raise :class:`UnknownBox`."""
        if not isinstance(box, str) or box not in self._scorers:
            raise UnknownBox(
                f"Unknown box {shown(box)}; the boxes are: {', '.join(self.boxes)}",
                box=shown(box), boxes=", ".join(self.boxes),
            )
        return box

    def check_dice(self, dice: DiceLike) -> Dice:
        """Return ``dice`` as :class:`Dice`, raising :class:`InvalidDice` unless it is
        :attr:`dice_count` values from 1 to 6 (in any form :func:`check_dice
        <yatzy.core.dice.check_dice>` takes, text included)."""
        return check_dice(dice, self.dice_count)

    def score(self, box: str, dice: DiceLike) -> int:
        """The table value of ``box`` for ``dice``: no play order, Joker or bonus.

        >>> ruleset("yahtzee").score("small_straight", [1, 2, 3, 3, 4])
        30
        >>> ruleset("yatzy").score("chance", "12345")
        15
        """
        return self._scorers[self.check_box(box)](self.check_dice(dice))

    def scores(self, dice: DiceLike) -> dict[str, int]:
        """The table value of every box for ``dice``, in scorecard order."""
        d = self.check_dice(dice)
        return {box: self._scorers[box](d) for box in self.boxes}

    def possible_points(self, box: str) -> frozenset[int]:
        """Every number of points ``box`` can hold in this ruleset (Joker values included).

        >>> sorted(ruleset("yatzy").possible_points("twos"))
        [0, 2, 4, 6, 8, 10]
        """
        return _possible_points(self)[self.check_box(box)]

    def five_of_a_kind_points(self, box: str) -> frozenset[int]:
        """Every number of points five of a kind can put in ``box`` (by the table, or as
        a Joker when the ruleset has one): where an extra-Yahtzee bonus can be scored.

        >>> sorted(ruleset("yahtzee").five_of_a_kind_points("twos"))
        [0, 10]
        >>> sorted(ruleset("yahtzee", joker="none").five_of_a_kind_points("full_house"))
        [0]
        """
        return _five_of_a_kind_points(self)[self.check_box(box)]

    def joker_score(self, box: str, dice: DiceLike) -> int:
        """What ``box`` gives five of a kind ``dice`` used as a Joker: its table score in
        the upper section, the sum of the dice in :data:`JOKER_SUMS`, else the box's
        full value (the most its table gives)."""
        d = self.check_dice(dice)
        if self.check_box(box) in self.upper_boxes:
            return self._scorers[box](d)
        if box in JOKER_SUMS:
            return scoring.chance(d)
        return _full_values(self)[box]

    def default_first_player(self, players: int) -> str:
        """How a game of ``players`` players picks its first player unless told: a
        roll-off only where the rules have one and there is more than one player.

        >>> ruleset("yahtzee").default_first_player(2), ruleset("yahtzee").default_first_player(1)
        ('roll', 'seat')
        """
        return self.first_player if players > 1 else "seat"

    def describe(self) -> RulesetInfo:
        """This ruleset described (see :class:`RulesetInfo`).

        >>> info = ruleset("yahtzee").describe()
        >>> dict(info.joker_points), info.extra_yahtzee_points
        ... # doctest: +NORMALIZE_WHITESPACE
        ({'three_of_a_kind': None, 'four_of_a_kind': None, 'full_house': 25,
          'small_straight': 30, 'large_straight': 40, 'chance': None}, 100)
        """
        return _describe(self)

    def to_dict(self) -> dict[str, Any]:
        """``{"name": ..., "options": {...}}``, the form kept in game records."""
        return {"name": self.name, "options": self.options}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        """The inverse of :meth:`to_dict`."""
        if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
            raise RulesError("A ruleset must be an object with a name and options")
        options = data.get("options", {})
        if not isinstance(options, Mapping):
            raise RulesError("A ruleset's options must be an object")
        # Not ruleset(name, **options): an option called "name", or one whose key is
        # not text, must be refused as an option, not break the call.
        return _build(data["name"], options)

    def __str__(self) -> str:
        changed = ", ".join(f"{k}={v}" for k, v in self._changed_options())
        return f"{self.name} ({changed})" if changed else self.name

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self._changed_options())
        return f"ruleset({self.name!r}{args})"

    def _changed_options(self) -> list[tuple[str, Any]]:
        definition = _DEFINITIONS.get(self.name)
        spec = definition.options if definition is not None else {}
        return [(k, v) for k, v in self.option_items if k not in spec or v != spec[k].default]


def check_ruleset(value: object) -> Ruleset:
    """Return ``value`` if it is a :class:`Ruleset`, else raise :class:`RulesError`."""
    if not isinstance(value, Ruleset):
        raise RulesError(
            f"Expected a Ruleset, not {shown(value)}; use yatzy.ruleset(name)",
            code=ErrorCode.NOT_A_RULESET, value=shown(value),
        )
    return value


def _all_rolls(dice_count: int) -> list[Dice]:
    return [Dice(faces) for faces in combinations_with_replacement(FACES, dice_count)]


@lru_cache(maxsize=32)
def _full_values(rules: Ruleset) -> dict[str, int]:
    """The most each box's table gives (what a Joker takes in a fixed-value box)."""
    rolls = _all_rolls(rules.dice_count)
    return {box: max(rules._scorers[box](dice) for dice in rolls) for box in rules.boxes}


@lru_cache(maxsize=32)
def _describe(rules: Ruleset) -> RulesetInfo:
    definition = _DEFINITIONS.get(rules.name)
    spec = definition.options if definition is not None else {}
    options = tuple(
        OptionInfo(key, "bool" if opt.kind is bool else "int" if opt.kind is int
                   else "choice", opt.default, tuple(opt.choices or ()),
                   minimum=opt.minimum if opt.kind is int else None,
                   maximum=opt.maximum if opt.kind is int else None,
                   label=opt.label or key,
                   choice_labels=tuple((c, opt.choice_labels.get(c, c))
                                       for c in opt.choices or ()))
        for key, opt in spec.items())
    full = _full_values(rules)
    return RulesetInfo(
        name=rules.name, title=rules.title or rules.name, boxes=rules.boxes,
        labels=tuple((box, LABELS.get(box, box)) for box in rules.boxes),
        upper_boxes=rules.upper_boxes,
        lower_boxes=rules.lower_boxes, dice_count=rules.dice_count, faces=len(FACES),
        rolls=rules.rolls, upper_bonus_threshold=rules.upper_bonus_threshold,
        upper_bonus_points=rules.upper_bonus_points, yahtzee_box=rules.yahtzee_box,
        yahtzee_points=full.get(rules.yahtzee_box, 0),
        extra_yahtzee_points=rules.extra_yahtzee_points, joker=rules.joker,
        joker_points=() if rules.joker == "none" else tuple(
            (box, None if box in JOKER_SUMS else full[box]) for box in rules.lower_boxes
            if box != rules.yahtzee_box),
        order=rules.order, first_player=rules.first_player, options=options,
        values=rules.option_items, saved_rolls=rules.saved_rolls,
    )


def rulesets() -> tuple[RulesetInfo, ...]:
    """Every ruleset described, with its default options: boxes and sections, dice,
    rolls, bonuses, Joker values and each option's kind, default and choices.

    >>> [(info.name, len(info.boxes), info.upper_bonus_points) for info in rulesets()]
    [('yatzy', 15, 50), ('yahtzee', 13, 35), ('maxi_yatzy', 20, 100)]
    >>> [option.name for option in rulesets()[1].options]
    ['joker', 'yahtzee_bonus', 'upper_first', 'rolls']
    """
    return tuple(ruleset(name).describe() for name in _DEFINITIONS)


@lru_cache(maxsize=32)
def _possible_points(rules: Ruleset) -> dict[str, frozenset[int]]:
    rolls = _all_rolls(rules.dice_count)
    points: dict[str, set[int]] = {box: set() for box in rules.boxes}
    for dice in rolls:
        for box in rules.boxes:
            points[box].add(rules.score(box, dice))
            if rules.joker != "none" and dice.is_n_of_a_kind:
                points[box].add(rules.joker_score(box, dice))
    return {box: frozenset(values) for box, values in points.items()}


@lru_cache(maxsize=32)
def _five_of_a_kind_points(rules: Ruleset) -> dict[str, frozenset[int]]:
    points: dict[str, set[int]] = {box: set() for box in rules.boxes}
    for face in FACES:
        dice = Dice((face,) * rules.dice_count)
        for box in rules.boxes:
            points[box].add(rules.score(box, dice))
            if rules.joker != "none":
                points[box].add(rules.joker_score(box, dice))
    return {box: frozenset(values) for box, values in points.items()}


def _coerce(ruleset_name: str, key: str, value: Any, option: Option) -> Any:
    where = f"option {key} of {ruleset_name}"
    if option.kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in _TRUE | _FALSE:
            return value.lower() in _TRUE
        raise RulesError(
            f"Option {key} of {ruleset_name} must be true or false, not {shown(value)}",
            code=ErrorCode.BAD_OPTION, option=key, value=shown(value), valid="true, false",
        )
    if option.kind is int:
        text = value.strip() if isinstance(value, str) else None
        # ASCII digits only (str.isdigit() also takes "²", which int() refuses), and few
        # of them (int() of thousands of digits raises too).
        if text is not None and text.isascii() and text.isdigit() and len(text) <= 3:
            value = int(text)
        low, high = option.minimum, option.maximum
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RulesError(
                f"Option {key} of {ruleset_name} must be a whole number from {low} to {high},"
                f" not {shown(value)}",
                code=ErrorCode.BAD_OPTION, option=key, value=shown(value),
                valid=f"{low}-{high}",
            )
        return value
    assert option.choices is not None
    if not isinstance(value, str) or value not in option.choices:
        valid = ", ".join(repr(c) for c in option.choices)
        raise RulesError(
            f"Unknown value {shown(value)} for {where}; valid values: {valid}",
            code=ErrorCode.BAD_OPTION, option=key, value=shown(value),
            valid=", ".join(option.choices),
        )
    return value


def ruleset(name: str, /, **options: Any) -> Ruleset:
    """The ruleset called ``name`` with ``options``; see ``rules.md``.

    - ``"yatzy"`` (Scandinavian, 15 boxes): ``order="free" | "upper_first" | "in_order"``.
    - ``"yahtzee"`` (13 boxes): ``joker="forced" | "gated" | "free" | "none"``,
      ``yahtzee_bonus=True | False``, ``upper_first=True | False``.
    - ``"maxi_yatzy"`` (six dice, 20 boxes): ``order`` as Yatzy's,
      ``bonus="100_at_84" | "50_at_75"``, ``saved_rolls=True | False``.
    - all: ``rolls=3`` (rolls in a turn, first roll included).

    Raises :class:`RulesError` for an unknown name, option or value, listing the valid ones.

    >>> ruleset("yatzy", order="in_order").options
    {'order': 'in_order', 'rolls': 3}
    >>> ruleset("poker")
    Traceback (most recent call last):
    ...
    yatzy.core.errors.RulesError: Unknown ruleset 'poker'; valid rulesets: 'yatzy', ...'
    """
    return _build(name, options)


def _build(name: object, options: Mapping[Any, Any]) -> Ruleset:
    if not isinstance(name, str) or name.lower() not in _DEFINITIONS:
        names = ruleset_names()
        valid = ", ".join(repr(n) for n in names)
        raise RulesError(
            f"Unknown ruleset {shown(name)}; valid rulesets: {valid}",
            code=ErrorCode.UNKNOWN_RULESET, name=shown(name), valid=", ".join(names),
        )
    name = name.lower()
    d = _DEFINITIONS[name]
    spec = d.options
    unknown = [key for key in options if not isinstance(key, str) or key not in spec]
    if unknown:
        raise RulesError(
            f"Unknown option {shown(unknown[0])} for {name}; valid options: {', '.join(spec)}",
            code=ErrorCode.UNKNOWN_OPTION, option=shown(unknown[0]), rules=name,
            valid=", ".join(spec),
        )
    values = {
        key: _coerce(name, key, options[key], opt) if key in options else opt.default
        for key, opt in spec.items()
    }
    rule_values: dict[str, Any] = {
        "rolls": 3, "order": "free", "joker": "none", "extra_yahtzee_points": 0,
        "upper_bonus_threshold": d.upper_bonus_threshold,
        "upper_bonus_points": d.upper_bonus_points, "saved_rolls": False,
    }
    if d.variant is not None:
        chosen = dict(d.variant(values))
        if not chosen.keys() <= _VARIANT_VALUES:
            raise RulesError(f"Ruleset definition {name!r}: a variant sets only "
                             f"{', '.join(sorted(_VARIANT_VALUES))}",
                             code=ErrorCode.BAD_RULESET_DEFINITION, name=name, why="")
        rule_values.update(chosen)
        if not d.yahtzee_box and (rule_values["joker"] != "none"
                                  or rule_values["extra_yahtzee_points"]):
            raise RulesError(f"Ruleset definition {name!r}: a Joker or an extra bonus "
                             "needs an n-of-a-kind box",
                             code=ErrorCode.BAD_RULESET_DEFINITION, name=name, why="")
    else:
        rule_values.update((k, values[k]) for k in _DIRECT_VALUES if k in values)
    if not isinstance(rule_values["saved_rolls"], bool):
        raise RulesError(f"Ruleset definition {name!r}: saved_rolls is true or false",
                         code=ErrorCode.BAD_RULESET_DEFINITION, name=name, why="")
    return Ruleset(
        name=name,
        option_items=tuple(values.items()),
        boxes=(*d.upper, *d.lower),
        dice_count=d.dice_count,
        yahtzee_box=d.yahtzee_box,
        first_player=d.first_player,
        _scorers=_scorers_of(d),
        upper_count=len(d.upper),
        title=d.title,
        **rule_values,
    )


@lru_cache(maxsize=64)
def _scorers_of(d: RulesetDefinition) -> Mapping[str, scoring.Scorer]:
    return {**{box: _UPPER_SCORERS[box] for box in d.upper}, **d.lower}


define_ruleset(RulesetDefinition(
    "yatzy", N_("Yatzy"), upper=UPPER_BOXES,
    lower={box: _YATZY_SCORERS[box] for box in _YATZY_SCORERS if box not in UPPER_BOXES},
    yahtzee_box="yatzy",
    options={
        "order": Option("free", ORDERS, label=N_("Play order"), choice_labels=ORDER_LABELS),
        "rolls": _ROLLS,
    },
))
define_ruleset(RulesetDefinition(
    "yahtzee", N_("Yahtzee"), upper=UPPER_BOXES,
    lower={box: _YAHTZEE_SCORERS[box] for box in _YAHTZEE_SCORERS if box not in UPPER_BOXES},
    upper_bonus_points=35, yahtzee_box="yahtzee", first_player="roll",
    options={
        "joker": Option("forced", JOKERS, label=N_("Joker"), choice_labels={
            "forced": N_("forced Joker"), "gated": N_("gated Joker"),
            "free": N_("free Joker"), "none": N_("no Joker")}),
        "yahtzee_bonus": Option(True, kind=bool, label=N_("Yahtzee bonus")),
        "upper_first": Option(False, kind=bool, label=N_("Upper section first")),
        "rolls": _ROLLS,
    },
    variant=_yahtzee_variant,
))


def _maxi_variant(values: Mapping[str, Any]) -> dict[str, Any]:
    points, threshold = MAXI_BONUSES[values["bonus"]]
    return {"rolls": values["rolls"], "order": values["order"],
            "upper_bonus_points": points, "upper_bonus_threshold": threshold,
            "saved_rolls": values["saved_rolls"]}


#: Maxi Yatzy's upper bonus, as the printed pads have it: points, at an upper sum of.
MAXI_BONUSES = {"100_at_84": (100, 84), "50_at_75": (50, 75)}

define_ruleset(RulesetDefinition(
    "maxi_yatzy", N_("Maxi Yatzy"), upper=UPPER_BOXES,
    lower={
        "one_pair": scoring.one_pair,
        "two_pairs": scoring.two_pairs,
        "three_pairs": scoring.groups(2, 2, 2),
        "three_of_a_kind": scoring.kind_of(3),
        "four_of_a_kind": scoring.kind_of(4),
        "five_of_a_kind": scoring.kind_of(5),
        "small_straight": scoring.contains_straight((1, 2, 3, 4, 5), 15),
        "large_straight": scoring.contains_straight((2, 3, 4, 5, 6), 20),
        "full_straight": scoring.contains_straight((1, 2, 3, 4, 5, 6), 21),
        "full_house": scoring.groups(3, 2),
        "villa": scoring.groups(3, 3),
        "tower": scoring.groups(4, 2),
        "chance": scoring.chance,
        "maxi_yatzy": scoring.all_alike(100),
    },
    labels={"three_pairs": N_("Three pairs"), "five_of_a_kind": N_("Five of a kind"),
            "full_straight": N_("Full straight"), "villa": N_("Villa"), "tower": N_("Tower"),
            "maxi_yatzy": N_("Maxi Yatzy")},
    dice_count=6, upper_bonus_threshold=84, upper_bonus_points=100,
    yahtzee_box="maxi_yatzy",
    options={
        "order": Option("free", ORDERS, label=N_("Play order"), choice_labels=ORDER_LABELS),
        "bonus": Option("100_at_84", tuple(MAXI_BONUSES), label=N_("Upper bonus"),
                        choice_labels={  # "84+ → 100": read off the bonuses
                            key: f"{at}+ \N{RIGHTWARDS ARROW} {points}"
                            for key, (points, at) in MAXI_BONUSES.items()}),
        "saved_rolls": Option(True, kind=bool, label=N_("Saved rolls")),
        "rolls": _ROLLS,
    },
    variant=_maxi_variant,
))
