"""An independent, deliberately naive solver for tiny games, to check the real one.

It plays the game as the core defines it: every ordered outcome of the dice, every set
of held positions, every box :func:`yatzy.core.rules.choices` offers, and the final
:attr:`Scorecard.total` as the score. No state abstraction, no keep tables.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import product

from yatzy.core import rules
from yatzy.core.rulesets import Ruleset
from yatzy.core.scorecard import Scorecard


def expected_final_score(ruleset: Ruleset) -> Callable[[Scorecard], float]:
    """``value(card)``: the expected final total of optimal play from the start of a
    turn with ``card``."""
    n = ruleset.dice_count
    outcomes = {k: list(product(range(1, 7), repeat=k)) for k in range(n + 1)}
    holds = [
        tuple(i for i in range(n) if mask >> i & 1) for mask in range((1 << n) - 1)
    ]
    starts: dict[tuple[object, ...], float] = {}
    rolled: dict[tuple[object, ...], float] = {}

    def start(card: Scorecard) -> float:
        key = (card.entries, card.yahtzee_bonus_count)
        if key not in starts:
            if card.is_complete:
                starts[key] = float(card.total)
            else:
                roll = outcomes[n]
                starts[key] = sum(after(card, d, ruleset.rolls - 1) for d in roll) / len(roll)
        return starts[key]

    def after(card: Scorecard, dice: tuple[int, ...], left: int) -> float:
        dice = tuple(sorted(dice))
        key = (card.entries, card.yahtzee_bonus_count, dice, left)
        if key in rolled:
            return rolled[key]
        bonus = rules.earns_yahtzee_bonus(ruleset, card, dice)
        best = max(
            start(card.fill(box, points, extra_yahtzee=bonus))
            for box, points in rules.choices(ruleset, card, dice).items()
        )
        if left:
            for hold in holds:
                kept = tuple(dice[i] for i in hold)
                new = outcomes[n - len(hold)]
                value = sum(after(card, kept + d, left - 1) for d in new) / len(new)
                best = max(best, value)
        rolled[key] = best
        return best

    return start


@cache
def _chances(dice: int) -> dict[tuple[int, ...], Fraction]:
    """Every sorted roll of ``dice`` dice with its chance, counted over the ordered
    outcomes (``6 ** dice`` of them)."""
    counts = Counter(tuple(sorted(d)) for d in product(range(1, 7), repeat=dice))
    return {roll: Fraction(n, 6**dice) for roll, n in counts.items()}


def expected_final_score_by_multisets(ruleset: Ruleset) -> Callable[[Scorecard], float]:
    """Like :func:`expected_final_score`, for games of more dice (six, as Maxi Yatzy's):
    the same game, the dice taken as sorted rolls with their chances, and a hold as the
    multiset of dice it keeps (every sub-multiset of the roll), each kept multiset's
    expected value worked out once per card and rolls left. Still read off the core
    alone (:func:`~yatzy.core.rules.choices`, :meth:`Scorecard.fill`,
    :attr:`Scorecard.total`)."""
    n = ruleset.dice_count
    chances = {k: list(_chances(k).items()) for k in range(n + 1)}
    starts: dict[tuple[object, ...], float] = {}
    rolled: dict[tuple[object, ...], float] = {}
    kept_values: dict[tuple[object, ...], float] = {}

    def start(card: Scorecard) -> float:
        key = (card.entries, card.yahtzee_bonus_count)
        if key not in starts:
            if card.is_complete:
                starts[key] = float(card.total)
            else:
                starts[key] = sum(float(p) * after(card, d, ruleset.rolls - 1)
                                  for d, p in chances[n])
        return starts[key]

    def keep(card: Scorecard, kept: tuple[int, ...], left: int) -> float:
        key = (card.entries, card.yahtzee_bonus_count, kept, left)
        if key not in kept_values:
            kept_values[key] = sum(float(p) * after(card, tuple(sorted(kept + d)), left)
                                   for d, p in chances[n - len(kept)])
        return kept_values[key]

    def after(card: Scorecard, dice: tuple[int, ...], left: int) -> float:
        key = (card.entries, card.yahtzee_bonus_count, dice, left)
        if key in rolled:
            return rolled[key]
        bonus = rules.earns_yahtzee_bonus(ruleset, card, dice)
        best = max(
            start(card.fill(box, points, extra_yahtzee=bonus))
            for box, points in rules.choices(ruleset, card, dice).items()
        )
        if left:
            holds = {tuple(sorted(dice[i] for i in range(n) if mask >> i & 1))
                     for mask in range((1 << n) - 1)}
            best = max(best, *(keep(card, kept, left - 1) for kept in holds))
        rolled[key] = best
        return best

    return start


def expected_final_score_saved(ruleset: Ruleset, cap: int | None = None
                               ) -> Callable[[Scorecard, int], float]:
    """Like :func:`expected_final_score_by_multisets`, with saved rolls: ``value(card,
    saved)`` at the start of a turn with ``saved`` saved rolls. The rolls a turn has and
    those it leaves are the core's (:attr:`Ruleset.rolls`,
    :func:`~yatzy.core.rules.saved_after_turn`); ``cap``: at most that many are kept
    (the solver's lower bound)."""
    n = ruleset.dice_count
    chances = {k: list(_chances(k).items()) for k in range(n + 1)}
    starts: dict[tuple[object, ...], float] = {}
    rolled: dict[tuple[object, ...], float] = {}
    kept_values: dict[tuple[object, ...], float] = {}

    def start(card: Scorecard, saved: int) -> float:
        key = (card.entries, saved)
        if key not in starts:
            if card.is_complete:
                starts[key] = float(card.total)
            else:
                starts[key] = sum(float(p) * after(card, d, saved, 1) for d, p in chances[n])
        return starts[key]

    def keep(card: Scorecard, kept: tuple[int, ...], saved: int, used: int) -> float:
        key = (card.entries, kept, saved, used)
        if key not in kept_values:
            kept_values[key] = sum(
                float(p) * after(card, tuple(sorted(kept + d)), saved, used)
                for d, p in chances[n - len(kept)])
        return kept_values[key]

    def after(card: Scorecard, dice: tuple[int, ...], saved: int, used: int) -> float:
        """After the ``used``-th roll of a turn that started with ``saved``."""
        key = (card.entries, dice, saved, used)
        if key in rolled:
            return rolled[key]
        (left,) = rules.saved_after_turn(ruleset, (saved,), 0, used)
        if cap is not None:
            left = min(left, cap)
        bonus = rules.earns_yahtzee_bonus(ruleset, card, dice)
        best = max(
            start(card.fill(box, points, extra_yahtzee=bonus), left)
            for box, points in rules.choices(ruleset, card, dice).items()
        )
        if used < ruleset.rolls + saved:
            holds = {tuple(sorted(dice[i] for i in range(n) if mask >> i & 1))
                     for mask in range((1 << n) - 1)}
            best = max(best, *(keep(card, kept, saved, used + 1) for kept in holds))
        rolled[key] = best
        return best

    return start
