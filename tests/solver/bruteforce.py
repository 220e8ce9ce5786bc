"""An independent, deliberately naive solver for tiny games, to check the real one.

It plays the game as the core defines it: every ordered outcome of the dice, every set
of held positions, every box :func:`yatzy.core.rules.choices` offers, and the final
:attr:`Scorecard.total` as the score. No state abstraction, no keep tables.
"""

from __future__ import annotations

from collections.abc import Callable
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
