"""The solver's view of a ruleset: integer tables built from the core's rules.

Everything here is read off :mod:`yatzy.core`: table points from
:meth:`Ruleset.scores`, the boxes a play order allows from
:func:`~yatzy.core.rules.allowed_by_order`, Joker points from
:func:`~yatzy.core.rules.joker_choices` and the extra-Yahtzee bonus from
:func:`~yatzy.core.rules.earns_yahtzee_bonus`, each called on a representative
:class:`~yatzy.core.scorecard.Scorecard` per set of filled boxes; the upper bonus
from the ruleset's threshold and points. No play order or Joker rule is restated here.

A turn-start *state* is ``(mask, y, u)``: the filled boxes as a bit mask (bit ``i`` =
``ruleset.boxes[i]``), ``y`` = 1 when scoring five of a kind now earns the extra-Yahtzee
bonus (the Yahtzee box holds 50; always 0 without the bonus) and ``u`` the upper sum
capped at the bonus threshold.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from yatzy.core import rules
from yatzy.core.dice import Dice
from yatzy.core.errors import RulesError
from yatzy.core.rulesets import Ruleset
from yatzy.core.scorecard import Scorecard
from yatzy.solver.codes import SolverCode
from yatzy.solver.keeps import (
    FACES,
    FloatArray,
    IndexArray,
    IntArray,
    KeepTables,
    SmallIntArray,
    WordArray,
    keep_tables,
)


class UnreachableCard(RulesError):
    """A scorecard no game can produce (e.g. ``twos=3``), so it has no value."""

    code = SolverCode.UNREACHABLE_CARD


class Tables(NamedTuple):
    """One ruleset compiled for the kernels: every array and number they read, in one
    record (:func:`yatzy.solver.kernels.compile_tables` hands it to the compiled code).
    Index arrays are ``int32``, ``five_points`` ``int8``.

    ``R`` rolls (multisets of all dice), ``K`` keeps, ``nb`` boxes, ``E`` entries.
    """

    # --- The rules, read off the core (see build_model and order_tables) ---------------
    #: Table points ``score[r, b]`` of box ``b`` for roll ``r``.
    score: IndexArray
    #: The boxes the play order allows per mask, as bits (0: a mask no game reaches, and
    #: the full card).
    allowed: IndexArray
    #: ``five_points[mask, f, b]``: points of box ``b`` for five of a kind of face
    #: ``f + 1`` with ``mask`` filled (-1 = not allowed): Joker rules included.
    five_points: SmallIntArray
    #: The roll of five of a kind of each face (``five_rolls[f]``), and the other way
    #: round (``five_of[r]``: ``f``, or -1 for any other roll).
    five_rolls: IndexArray
    five_of: IndexArray
    #: ``extra[y, f]``: extra-Yahtzee points earned by scoring five ``f + 1``s in ``y``.
    extra: IndexArray
    #: 1 for an upper box, else 0, per box; the upper bonus's threshold and points.
    is_upper: IndexArray
    threshold: int
    bonus: int
    #: The five-of-a-kind box (-1: none), and the points in it that make ``y`` = 1 (-1:
    #: never).
    yahtzee_box: int
    y_points: int
    # --- Entries: the (box, points) pairs that rolls other than five of a kind make ----
    #: ``entry_of[b, r]``: the entry roll ``r`` makes in box ``b`` (-1 for five of a
    #: kind); ``entry_box[e]`` its box and ``entry_roll[e]`` one roll that makes it.
    #: Such rolls fill a box alike when they give it the same points, so the kernels
    #: evaluate the transition once per entry, not once per roll.
    entry_of: IndexArray
    entry_box: IndexArray
    entry_roll: IndexArray
    # --- Dice (see keeps.KeepTables) ---------------------------------------------------
    dice: int
    #: Rolls per turn.
    rolls: int
    first_roll: int
    child: IndexArray
    #: The keeps with one die less than keep ``k``: ``parent_list[parent_start[k] :
    #: parent_start[k + 1]]``.
    parent_start: IndexArray
    parent_list: IndexArray
    roll_prob: FloatArray
    sub_keeps: IndexArray
    sub_count: IndexArray
    counts: IndexArray
    code_to_keep: IndexArray
    # --- Upper sums ---------------------------------------------------------------------
    #: Per upper-section mask (6 bits, bit i = ``Model.upper[i]`` filled): the capped
    #: upper sums that need their own value (``lanes``, -1 padded, ``lane_count``) and,
    #: for every reachable ``u``, the lane holding its value (``lane_of[um, u]``, -1
    #: unreachable).
    lanes: IndexArray
    lane_count: IndexArray
    lane_of: IndexArray
    #: Per box, its bit in the upper-section mask (0 for a lower box); how many upper
    #: boxes there are.
    upper_bit: IndexArray
    upper_count: int
    # --- Scorecards ---------------------------------------------------------------------
    #: ``possible[b, p // 64] >> p % 64 & 1``: 1 when box ``b`` can hold ``p`` points
    #: (:meth:`Ruleset.possible_points`), for reading a scorecard's state.
    possible: WordArray


@dataclass(frozen=True, eq=False)
class Model:
    """The solver's view of one ruleset: its :class:`Tables` for the kernels, and what
    the Python side needs to turn scorecards into states."""

    ruleset: Ruleset
    keeps: KeepTables
    #: Number of boxes; masks run over ``0 .. 2**boxes - 1``.
    boxes: int
    #: Index of each upper box (ones … sixes) among the boxes.
    upper: tuple[int, ...]
    #: 2 when the extra-Yahtzee bonus exists (``y`` matters), else 1.
    y_count: int
    #: Masks a game can reach (sorted).
    masks: IntArray
    tables: Tables
    #: Per box, every number of points it can hold (``Ruleset.possible_points``).
    possible: tuple[frozenset[int], ...]
    #: What :meth:`state_of` reads per call, worked out once: per box, a code for each
    #: entry it can hold (``None`` = open, or points the box can hold): the box's bit
    #: when filled, plus the points shifted past the mask's bits for an upper box. The
    #: sum of a card's codes is its mask and, above it, its upper sum.
    _codes: tuple[dict[int | None, int], ...] = field(init=False, repr=False)
    #: Per mask, 1 when it is in :attr:`masks` (a game reaches it), else 0.
    _reachable: bytes = field(init=False, repr=False)

    def __post_init__(self) -> None:
        nb, upper = self.boxes, set(self.upper)
        codes = tuple(
            {None: 0, **{p: 1 << b | (p << nb if b in upper else 0) for p in possible}}
            for b, possible in enumerate(self.possible)
        )
        object.__setattr__(self, "_codes", codes)
        reachable = np.zeros(1 << nb, dtype=np.uint8)
        reachable[self.masks] = 1
        object.__setattr__(self, "_reachable", reachable.tobytes())

    # What the Python side reads of the tables.

    @property
    def score(self) -> IndexArray:
        return self.tables.score

    @property
    def allowed(self) -> IndexArray:
        return self.tables.allowed

    @property
    def five_points(self) -> SmallIntArray:
        return self.tables.five_points

    @property
    def five_rolls(self) -> IndexArray:
        return self.tables.five_rolls

    @property
    def extra(self) -> IndexArray:
        return self.tables.extra

    @property
    def lane_count(self) -> IndexArray:
        return self.tables.lane_count

    @property
    def lane_of(self) -> IndexArray:
        return self.tables.lane_of

    @property
    def yahtzee_box(self) -> int:
        return self.tables.yahtzee_box

    @property
    def y_points(self) -> int:
        return self.tables.y_points

    @property
    def threshold(self) -> int:
        return self.tables.threshold

    @property
    def rolls(self) -> int:
        return self.tables.rolls

    def upper_mask(self, mask: int) -> int:
        """The 6-bit upper-section part of ``mask``."""
        return sum(1 << i for i, b in enumerate(self.upper) if mask >> b & 1)

    def state_key(self, mask: int, y: int, u: int) -> int:
        """The compiled code's number of state ``(mask, y, u)`` (``state_key`` in
        ``csrc/transition.h``): upper sums that share a lane (those that can no longer reach
        the bonus) count as the lane's first."""
        t = self.tables
        um = self.upper_mask(mask)
        lane = int(t.lane_of[um, u])
        rep = int(t.lanes[um, lane]) if lane >= 0 else u
        return (mask * self.y_count + y) * (t.threshold + 1) + rep

    def state_of(self, card: Scorecard) -> tuple[int, int, int]:
        """The ``(mask, y, u)`` state of ``card``; :class:`UnreachableCard` for a
        scorecard no game of this ruleset produces."""
        r = self.ruleset
        if card.ruleset is not r and card.ruleset != r:
            raise self.refusal(card)
        entries = card.entries
        nb = self.boxes
        try:
            code = sum(map(dict.__getitem__, self._codes, entries)) if len(entries) == nb else -1
        except (KeyError, TypeError):  # points a box cannot hold (or no number at all)
            code = -1
        if code >= 0 and self._reachable[mask := code & ((1 << nb) - 1)]:
            t = self.tables
            # y_points was read off rules.earns_yahtzee_bonus when the model was built.
            y = int(self.y_count > 1 and entries[t.yahtzee_box] == t.y_points)
            u = code >> nb
            return mask, y, u if u < t.threshold else t.threshold
        raise self.refusal(card)

    def refusal(self, card: Scorecard) -> RulesError:
        """Why :meth:`state_of` refuses ``card``: it is another ruleset's (a
        :class:`RulesError`), or no game reaches it (:class:`UnreachableCard`): the play
        order forbids its filled boxes, else the first box holding points it cannot hold."""
        r, entries = self.ruleset, card.entries
        if card.ruleset is not r and card.ruleset != r:
            return RulesError(f"The scorecard is for {card.ruleset}, not {r}")
        mask = 0
        bit = 1
        bad = None
        for value, possible in zip(entries, self.possible, strict=True):
            if value is not None:
                if bad is None and value not in possible:
                    bad = bit.bit_length() - 1
                mask |= bit
            bit <<= 1
        if bad is None or (not self.allowed[mask] and mask != (1 << self.boxes) - 1):
            return UnreachableCard(
                f"No game of {r} reaches this scorecard: the play order forbids {card}"
            )
        box = r.boxes[bad]
        return UnreachableCard(f"{r.label(box)} cannot hold {entries[bad]} points", box=box)


#: ``(allowed, five_points)`` of :class:`Model`: what the play order and the Joker rules
#: allow, per mask.
OrderTables = tuple[IntArray, SmallIntArray]


def order_tables(ruleset: Ruleset) -> OrderTables:
    """Which boxes the play order allows per reachable mask (as bits; 0 for masks no game
    reaches, and for the full card), and the points of every allowed box for five of a
    kind per mask and face (``-1``: not allowed), Joker rules included.

    ``allowed`` is ``int64`` of shape ``(2**nb,)``, ``five_points`` ``int8`` of shape
    ``(2**nb, 6, nb)`` (``nb`` boxes). Read off :func:`~yatzy.core.rules.allowed_bits`
    (:func:`~yatzy.core.rules.allowed_bits_table`) and, where
    :func:`~yatzy.core.rules.jokers_apply_bits` (:func:`~yatzy.core.rules.jokers_apply_table`),
    :func:`~yatzy.core.rules.joker_choices` (once per mask each), walking the game
    forward from the empty card; the faces for which Joker rules do not apply score by the
    table (:meth:`Ruleset.scores`) in the allowed boxes, as ``joker_choices`` documents.
    """
    nb = len(ruleset.boxes)
    allowed = np.zeros(1 << nb, dtype=np.int64)
    seen = np.zeros(1 << nb, dtype=bool)
    seen[0] = True
    index = {name: i for i, name in enumerate(ruleset.boxes)}
    every_allowed = np.array(rules.allowed_bits_table(ruleset), dtype=np.int64)
    every_joker = np.array(rules.jokers_apply_table(ruleset), dtype=bool)
    # The (mask, face) pairs with Joker rules, and their rows of points (nb per pair).
    joker_at: list[int] = []
    joker_rows: list[int] = []
    no_points = [-1] * nb
    bit = 1 << np.arange(nb)
    frontier = np.zeros(1, dtype=np.int64)
    while frontier.size:
        allowed[frontier] = every_allowed[frontier]
        for mask in frontier[every_joker[frontier]].tolist():
            card = Scorecard(ruleset, tuple(0 if mask >> i & 1 else None for i in range(nb)))
            for face, options in rules.joker_choices(ruleset, card).items():
                row = no_points.copy()
                for name, p in options.items():
                    row[index[name]] = p
                joker_at.append(mask * FACES + face - 1)
                joker_rows.extend(row)
        # The next masks: every frontier mask with one more allowed box.
        step = frontier[:, None] | bit[None, :]
        step = step[(allowed[frontier][:, None] & bit[None, :]) != 0]
        new = np.zeros_like(seen)
        new[step] = True
        new &= ~seen
        seen |= new
        frontier = np.flatnonzero(new)
    # Five of a kind without Joker rules: the table points of the allowed boxes; then the
    # Joker rows over them.
    five_points = np.full((1 << nb, FACES, nb), -1, dtype=np.int8)
    table = np.array([list(ruleset.scores(Dice((f,) * ruleset.dice_count)).values())
                      for f in range(1, FACES + 1)], dtype=np.int8)
    for b in range(nb):
        five_points[(allowed >> b & 1) == 1, :, b] = table[:, b]
    flat = five_points.reshape(-1, nb)
    flat[joker_at] = np.array(joker_rows, dtype=np.int8).reshape(-1, nb)
    return allowed, five_points


def _distinct(points: SmallIntArray) -> list[int]:
    """The distinct values of ``points`` (-1 and up), counted rather than sorted."""
    return (np.flatnonzero(np.bincount(points.ravel().astype(np.int64) + 1)) - 1).tolist()


def _bits(possible: tuple[frozenset[int], ...]) -> WordArray:
    """Each box's possible points as a row of 64-bit words (bit ``p % 64`` of word
    ``p // 64`` for ``p`` points)."""
    words = max(max(points, default=0) for points in possible) // 64 + 1
    bits = [[0] * words for _ in possible]
    for row, points in zip(bits, possible, strict=True):
        for p in points:
            row[p // 64] |= 1 << p % 64
    return np.array(bits, dtype=np.uint64)


def _yahtzee_index(ruleset: Ruleset) -> int:
    """The index of the five-of-a-kind box (-1 in a reduced ruleset without one)."""
    boxes = ruleset.boxes
    return boxes.index(ruleset.yahtzee_box) if ruleset.yahtzee_box in boxes else -1


def _card(ruleset: Ruleset, mask: int, ybox: int, ypoints: int) -> Scorecard:
    entries = tuple(
        (ypoints if i == ybox else 0) if mask >> i & 1 else None
        for i in range(len(ruleset.boxes))
    )
    return Scorecard(ruleset, entries)


def build_model(ruleset: Ruleset, order: OrderTables | None = None) -> Model:
    """The solver tables of ``ruleset``; ``order`` = :func:`order_tables` of it when
    known (they are the slow part, kept with the value table on disk)."""
    kt = keep_tables(ruleset.dice_count)
    nb = len(ruleset.boxes)
    possible = tuple(ruleset.possible_points(b) for b in ruleset.boxes)
    rolls = [kt.faces(r) for r in range(kt.roll_count)]
    score = np.array([list(ruleset.scores(d).values()) for d in rolls], dtype=np.int64)
    upper = tuple(ruleset.boxes.index(b) for b in ruleset.upper_boxes)
    is_upper = np.zeros(nb, dtype=np.int64)
    is_upper[list(upper)] = 1
    ybox = _yahtzee_index(ruleset)
    five_rolls = np.array([kt.roll_index((f,) * ruleset.dice_count) for f in range(1, 7)],
                          dtype=np.int64)
    five_dice = [Dice((f,) * ruleset.dice_count) for f in range(1, 7)]

    # y: does the Yahtzee box's content make five of a kind earn the extra bonus?
    ybox_values = sorted(set(score[:, ybox].tolist())) if ybox >= 0 else []
    y_points = -1
    for p in ybox_values:
        if rules.earns_yahtzee_bonus(ruleset, _card(ruleset, 1 << ybox, ybox, p), five_dice[0]):
            y_points = p
    y_count = 2 if y_points >= 0 else 1
    extra = np.zeros((y_count, FACES), dtype=np.int64)
    for y in range(y_count if ybox >= 0 else 0):
        # y = 0: the Yahtzee box open (a 0 in it earns no bonus either).
        card = _card(ruleset, 1 << ybox, ybox, y_points) if y else Scorecard.empty(ruleset)
        for f in range(FACES):
            if rules.earns_yahtzee_bonus(ruleset, card, five_dice[f]):
                extra[y, f] = ruleset.extra_yahtzee_points

    if order is None:
        order = order_tables(ruleset)
    allowed, five_points = order
    masks = np.flatnonzero((allowed != 0) | (np.arange(1 << nb) == (1 << nb) - 1))

    # Upper sums: the points each upper box can hold, and which sums need a value.
    threshold = ruleset.upper_bonus_threshold
    # (Joker points included: in a reduced test ruleset a lower-style box can be "upper".)
    pts_sets = [
        sorted(set(score[:, b].tolist()) | set(_distinct(five_points[:, :, b])) - {-1})
        for b in upper
    ]
    nu = len(upper)
    lanes = np.full((1 << nu, threshold + 1), -1, dtype=np.int64)
    lane_count = np.zeros(1 << nu, dtype=np.int64)
    lane_of = np.full((1 << nu, threshold + 1), -1, dtype=np.int64)
    for um in range(1 << nu):
        sums = {0}
        for i in range(nu):
            if um >> i & 1:
                sums = {min(threshold, s + p) for s in sums for p in pts_sets[i]}
        room = sum(max(pts_sets[i]) for i in range(nu) if not um >> i & 1)
        hopeless = [s for s in sums if s + room < threshold]
        own = sorted(s for s in sums if s + room >= threshold)
        chosen = ([min(hopeless)] if hopeless else []) + own
        lanes[um, : len(chosen)] = chosen
        lane_count[um] = len(chosen)
        for total in hopeless:
            lane_of[um, total] = 0
        for j, total in enumerate(own):
            lane_of[um, total] = j + (1 if hopeless else 0)

    # Entries: one per box and points that a roll other than five of a kind gives it.
    five_of = np.full(len(rolls), -1, dtype=np.int64)
    five_of[five_rolls] = np.arange(FACES)
    entry_of = np.full((nb, len(rolls)), -1, dtype=np.int64)
    entry_box: list[int] = []
    entry_roll: list[int] = []
    for b in range(nb):
        entries: dict[int, int] = {}
        for r in np.flatnonzero(five_of < 0).tolist():
            e = entries.setdefault(int(score[r, b]), len(entry_box))
            if e == len(entry_box):
                entry_box.append(b)
                entry_roll.append(r)
            entry_of[b, r] = e

    parent_lists = [[p for p in row if p < kt.keep_count] for row in kt.parents.tolist()]
    parent_start = np.cumsum([0] + [len(p) for p in parent_lists])
    upper_bit = np.zeros(nb, dtype=np.int64)
    upper_bit[list(upper)] = 1 << np.arange(nu)

    def ints(a: npt.ArrayLike) -> IndexArray:
        return np.ascontiguousarray(a, dtype=np.int32)

    tables = Tables(
        score=ints(score),
        allowed=ints(allowed),
        five_points=np.ascontiguousarray(five_points, dtype=np.int8),
        five_rolls=ints(five_rolls),
        five_of=ints(five_of),
        extra=ints(extra),
        is_upper=ints(is_upper),
        threshold=threshold,
        bonus=ruleset.upper_bonus_points,
        yahtzee_box=ybox,
        y_points=y_points,
        entry_of=ints(entry_of),
        entry_box=ints(entry_box),
        entry_roll=ints(entry_roll),
        dice=kt.dice,
        rolls=ruleset.rolls,
        first_roll=kt.first_roll,
        child=ints(np.maximum(kt.child, 0)),
        parent_start=ints(parent_start),
        parent_list=ints([p for row in parent_lists for p in row] or [0]),
        roll_prob=np.ascontiguousarray(kt.roll_prob, dtype=np.float64),
        sub_keeps=ints(kt.sub_keeps),
        sub_count=ints(kt.sub_count),
        counts=ints(kt.counts),
        code_to_keep=ints(kt.code_to_keep),
        lanes=ints(lanes),
        lane_count=ints(lane_count),
        lane_of=ints(lane_of),
        upper_bit=ints(upper_bit),
        upper_count=nu,
        possible=_bits(possible),
    )
    return Model(
        ruleset=ruleset,
        keeps=kt,
        boxes=nb,
        upper=upper,
        y_count=y_count,
        masks=masks,
        tables=tables,
        possible=possible,
    )
