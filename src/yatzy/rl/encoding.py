"""The action and observation encoding shared by every environment of :mod:`yatzy.rl`.

A :class:`Layout` is built from a ruleset. It numbers the actions, describes the
observation space and writes observations; the rules themselves (which boxes are
allowed, their points, the bonuses, the dice) stay in :mod:`yatzy.core`.

Actions, for ``n`` dice (5) and ``B`` boxes (15 in Yatzy, 13 in Yahtzee):

- ``0`` … ``2**n - 2``: reroll, keeping the dice whose bit is set (bit ``i`` = the die at
  position ``i``). ``0`` rerolls every die; keeping all ``n`` dice is no reroll, so that
  mask (``2**n - 1``) is not an action.
- ``2**n - 1 + i``: score box ``i`` of ``ruleset.boxes`` (``31`` = ones with five dice).

>>> import yatzy
>>> layout = Layout(yatzy.ruleset("yatzy"))
>>> layout.action_count, layout.keep_count
(46, 31)
>>> layout.to_action(5), layout.to_action(31), layout.to_action(45)
(Reroll(hold=(0, 2), dice=None), Score(box='ones'), Score(box='yatzy'))
>>> layout.to_index(yatzy.Score("chance"))
44
>>> layout.to_action(46)
Traceback (most recent call last):
...
yatzy.core.errors.IllegalMove: Actions are whole numbers from 0 to 45, not 46
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np
from gymnasium import spaces

from yatzy.core import rules
from yatzy.core.actions import Action, Reroll, Score
from yatzy.core.errors import ErrorCode, IllegalMove, shown
from yatzy.core.game import Game
from yatzy.core.rulesets import Ruleset
from yatzy.core.scorecard import Scorecard

#: One observation: the named arrays of :meth:`Layout.observation_space`.
Observation = dict[str, Any]


class Layout:
    """How one ruleset's games are seen by an agent: action numbers, observation space
    and the observation of a game (see the module's docstring for the actions)."""

    def __init__(self, ruleset: Ruleset) -> None:
        if not isinstance(ruleset, Ruleset):
            raise IllegalMove(
                f"Expected a Ruleset, not {shown(ruleset)}; use yatzy.ruleset(name)",
                code=ErrorCode.NOT_A_RULESET, value=shown(ruleset),
            )
        self.ruleset = ruleset
        self.boxes = ruleset.boxes
        n = ruleset.dice_count
        #: Reroll actions: every keep mask but "keep all".
        self.keep_count = (1 << n) - 1
        self.action_count = self.keep_count + len(self.boxes)
        self._actions: tuple[Action, ...] = (
            *(Reroll(tuple(i for i in range(n) if m >> i & 1)) for m in range(self.keep_count)),
            *(Score(b) for b in self.boxes),
        )
        self._box_index = {b: self.keep_count + i for i, b in enumerate(self.boxes)}
        self._upper = set(ruleset.upper_boxes)
        most = [max(ruleset.possible_points(b)) for b in self.boxes]
        #: The most points any box can hold.
        self.max_box_points = max(most)
        #: The highest upper sum a card can reach.
        self.max_upper_sum = sum(m for b, m in zip(self.boxes, most, strict=True)
                                 if b in self._upper)
        #: The most rolls left after a roll (saved rolls included).
        self.max_rolls_left = rules.most_rolls_left(ruleset)
        #: The most extra-Yahtzee bonuses a card can hold (one per other box).
        self.max_extra_yahtzees = len(self.boxes) - 1 if ruleset.extra_yahtzee_points else 0
        #: A bound on a card's total (every box at its most, and every bonus).
        self.max_total = (sum(most) + ruleset.upper_bonus_points
                          + self.max_extra_yahtzees * ruleset.extra_yahtzee_points)
        self._no_keeps = [0] * self.keep_count
        self._all_keeps = [1] * self.keep_count
        #: Per card (by its entries): its ruleset, the boxes allowed, and those of five
        #: of a kind of each face under the Joker rules.
        self._boxes_of: dict[tuple[int | None, ...],
                             tuple[Ruleset, list[int], dict[int, list[int]]]] = {}

    def __repr__(self) -> str:
        return f"<Layout {self.ruleset!r} actions={self.action_count}>"

    # --- Actions --------------------------------------------------------------------

    def to_action(self, index: object) -> Action:
        """The core action of action number ``index`` (any whole number type, numpy's
        included); :class:`~yatzy.core.errors.IllegalMove` when it is no action."""
        if isinstance(index, np.ndarray) and index.shape == ():
            index = index.item()
        if isinstance(index, bool) or not isinstance(index, int | np.integer) or not (
            0 <= index < self.action_count
        ):
            raise IllegalMove(
                f"Actions are whole numbers from 0 to {self.action_count - 1}, not "
                f"{shown(index)}",
                code=ErrorCode.UNKNOWN_ACTION, action=shown(index),
            )
        return self._actions[int(index)]

    def to_index(self, action: Action) -> int:
        """The action number of a core ``Reroll`` (by its held positions) or ``Score``."""
        if isinstance(action, Score):
            index = self._box_index.get(action.box)
            if index is not None:
                return index
            self.ruleset.check_box(action.box)  # raises UnknownBox
        if isinstance(action, Reroll):
            mask = 0
            for pos in action.hold:
                if type(pos) is int and 0 <= pos < self.ruleset.dice_count:
                    mask |= 1 << pos
            if len(set(action.hold)) == len(action.hold) and mask.bit_count() == len(
                action.hold
            ) and mask < self.keep_count:
                return mask
        raise IllegalMove(
            f"{shown(action)} has no action number: only rerolls of some dice and scores"
            " are actions (the first roll of a turn is made by the environment)",
            code=ErrorCode.UNKNOWN_ACTION, action=shown(action),
        )

    def mask(self, game: Game) -> list[int]:
        """1 for every legal action of ``game``'s current player, else 0 (all 0 when the
        game is over): rerolls while rolls are left, and the boxes of
        :meth:`Game.choices <yatzy.core.game.Game.choices>`.

        The boxes come from the core's two functions of the card alone, asked once per
        card and remembered: :func:`~yatzy.core.rules.allowed_by_order`, and for five
        of a kind :func:`~yatzy.core.rules.joker_choices` (which are ``choices`` by
        their contract), so that a reroll does not score every box again.
        """
        dice = game.dice
        if dice is None or game.is_over:
            return [0] * self.action_count
        card = game.card
        found = self._boxes_of.get(card.entries)
        if found is None or (found[0] is not card.ruleset and found[0] != card.ruleset):
            allowed = rules.allowed_by_order(self.ruleset, card)
            found = (card.ruleset, self._box_mask(allowed),
                     {face: self._box_mask(c)
                      for face, c in rules.joker_choices(self.ruleset, card).items()})
            if len(self._boxes_of) >= 4096:
                self._boxes_of.clear()
            self._boxes_of[card.entries] = found
        _, boxes, joker_boxes = found
        if joker_boxes and dice.is_n_of_a_kind:
            boxes = joker_boxes.get(dice[0], boxes)
        keeps = self._all_keeps if game.rolls_left > 0 else self._no_keeps
        return [*keeps, *boxes]

    def _box_mask(self, boxes: Iterable[str]) -> list[int]:
        allowed = set(boxes)
        return [1 if b in allowed else 0 for b in self.boxes]

    # --- Observations ---------------------------------------------------------------

    def observation_space(self) -> spaces.Dict:
        """The solitaire observation space: a ``Dict`` of the fields of
        :meth:`features`."""
        n, b = self.ruleset.dice_count, len(self.boxes)
        fields: dict[str, spaces.Space[Any]] = {
            "dice": spaces.Box(0, 6, (n,), np.int8),
            "rolls_left": spaces.Discrete(self.max_rolls_left + 1),
            "filled": spaces.MultiBinary(b),
            "scores": spaces.Box(0, self.max_box_points, (b,), np.int16),
            "upper_sum": spaces.Discrete(self.max_upper_sum + 1),
            "upper_bonus": spaces.Discrete(2),
            "extra_yahtzees": spaces.Discrete(self.max_extra_yahtzees + 1),
        }
        fields["action_mask"] = spaces.MultiBinary(self.action_count)
        return spaces.Dict(fields)

    def flat_fields(self, players: int) -> dict[str, slice]:
        """Where each field lies in the flat observation of :meth:`flat_space`: the
        fields of :meth:`observation_space` but ``action_mask``, in its order, then
        ``totals`` (``players`` numbers)."""
        n, b = self.ruleset.dice_count, len(self.boxes)
        sizes = {"dice": n, "rolls_left": 1, "filled": b, "scores": b, "upper_sum": 1,
                 "upper_bonus": 1, "extra_yahtzees": 1, "totals": players}
        fields, at = {}, 0
        for name, size in sizes.items():
            fields[name] = slice(at, at + size)
            at += size
        return fields

    def flat_space(self, players: int) -> spaces.Box:
        """The flat observation: one int16 vector laid out as :meth:`flat_fields` says,
        each number within its field's bounds."""
        n, b = self.ruleset.dice_count, len(self.boxes)
        high = [*[6] * n, self.max_rolls_left, *[1] * b, *[self.max_box_points] * b,
                self.max_upper_sum, 1, self.max_extra_yahtzees, *[self.max_total] * players]
        return spaces.Box(np.zeros(len(high), dtype=np.int16), np.array(high, dtype=np.int16),
                          dtype=np.int16)

    def flatten(self, game: Game, card: Scorecard, totals: Sequence[int]) -> np.ndarray:
        """The flat observation of ``game`` for the player of ``card`` (see
        :meth:`flat_space`)."""
        dice, rolls, filled, scores, upper, bonus, extra, _ = self.features(game, card, ())
        return np.array([*dice, rolls, *filled, *scores, upper, bonus, extra, *totals],
                        dtype=np.int16)

    def features(self, game: Game, card: Scorecard, mask: Sequence[int]) -> tuple[Any, ...]:
        """The fields of an observation as plain values, in the order of
        :data:`FIELDS`: ``dice`` (0s when there are none: only once the game is over),
        ``rolls_left``, ``filled``, ``scores`` (0 in open boxes), ``upper_sum``,
        ``upper_bonus`` (1 once earned), ``extra_yahtzees`` of ``card``, and ``mask``."""
        entries = card.entries
        dice = game.dice
        return (
            dice if dice is not None else (0,) * self.ruleset.dice_count,
            game.rolls_left if dice is not None else 0,
            [0 if e is None else 1 for e in entries],
            [e or 0 for e in entries],
            card.upper_sum,
            1 if card.upper_bonus else 0,
            card.yahtzee_bonus_count,
            mask,
        )

    def observe(self, game: Game, card: Scorecard, mask: Sequence[int]) -> Observation:
        """One observation of ``game`` for the player of ``card`` (see
        :meth:`observation_space`)."""
        dice, rolls, filled, scores, upper, bonus, extra, mask = self.features(game, card, mask)
        obs: Observation = {
            "dice": np.array(dice, dtype=np.int8),
            "rolls_left": np.int64(rolls),
            "filled": np.array(filled, dtype=np.int8),
            "scores": np.array(scores, dtype=np.int16),
            "upper_sum": np.int64(upper),
            "upper_bonus": np.int64(bonus),
            "extra_yahtzees": np.int64(extra),
        }
        obs["action_mask"] = np.array(mask, dtype=np.int8)
        return obs


@lru_cache(maxsize=32)
def layout_of(ruleset: Ruleset) -> Layout:
    """The :class:`Layout` of ``ruleset``, made once per ruleset."""
    return Layout(ruleset)


#: The fields :meth:`Layout.features` gives, in order.
FIELDS = ("dice", "rolls_left", "filled", "scores", "upper_sum", "upper_bonus",
          "extra_yahtzees", "action_mask")


def chosen_value(options: Sequence[Any], dice: Sequence[int] | None, action: Action) -> float:
    """The value of ``action`` among the solver's ``options`` for a position with
    ``dice`` on the table (from :meth:`Strategy.advise
    <yatzy.solver.policy.Strategy.advise>`).

    The solver lists one reroll per set of kept faces; a reroll keeping other positions
    with the same faces is worth the same, so rerolls are matched by their kept faces.
    """
    if isinstance(action, Reroll) and dice is not None:
        kept = sorted(dice[i] for i in action.hold)
        for option in options:
            other = option.action
            if isinstance(other, Reroll) and sorted(dice[i] for i in other.hold) == kept:
                return float(option.value)
    else:
        for option in options:
            if option.action == action:
                return float(option.value)
    raise IllegalMove(
        f"{shown(action)} is not a legal action now", code=ErrorCode.UNKNOWN_ACTION,
        action=shown(action),
    )


def regret(options: Sequence[Any], dice: Sequence[int] | None, action: Action) -> float:
    """The expected points ``action`` gives up against the best option, with ``dice`` on
    the table: the value of the solver's best option minus the value of ``action`` (0
    for an optimal action)."""
    return float(options[0].value) - chosen_value(options, dice, action)


__all__ = ["FIELDS", "Layout", "Observation", "chosen_value", "layout_of", "regret"]
