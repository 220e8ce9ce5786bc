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
"""

from __future__ import annotations

from collections.abc import Sequence

from yatzy.core.dice import Dice
from yatzy.core.errors import IllegalMove
from yatzy.core.rulesets import UPPER_BOXES, Ruleset
from yatzy.core.scorecard import Scorecard


def allowed_by_order(ruleset: Ruleset, card: Scorecard) -> tuple[str, ...]:
    """The open boxes the play order allows now, ignoring the dice."""
    open_boxes = card.open_boxes
    if not open_boxes or ruleset.order == "free":
        return open_boxes
    if ruleset.order == "in_order":
        return open_boxes[:1]
    upper = tuple(b for b in open_boxes if b in UPPER_BOXES)
    return upper or open_boxes


def is_joker(ruleset: Ruleset, card: Scorecard, dice: Dice) -> bool:
    """True when Joker rules apply: five of a kind with the Yahtzee box already filled
    (never in Yatzy, nor with ``joker="none"``)."""
    return (
        ruleset.joker != "none"
        and dice.is_n_of_a_kind
        and card[ruleset.yahtzee_box] is not None
    )


def earns_yahtzee_bonus(ruleset: Ruleset, card: Scorecard, dice: Sequence[int]) -> bool:
    """True when scoring ``dice`` now earns an extra-Yahtzee bonus: five of a kind while
    the Yahtzee box holds 50, in a ruleset with the bonus."""
    d = ruleset.check_dice(dice)
    return bool(
        ruleset.extra_yahtzee_points and d.is_n_of_a_kind and card[ruleset.yahtzee_box] == 50
    )


def choices(ruleset: Ruleset, card: Scorecard, dice: Sequence[int]) -> dict[str, int]:
    """Every box the player with ``card`` may fill with ``dice``, with its points.

    The points are what the box receives (Joker values included); an extra-Yahtzee
    bonus comes on top, see :func:`earns_yahtzee_bonus`. Boxes are in scorecard order.
    """
    d = ruleset.check_dice(dice)
    allowed = allowed_by_order(ruleset, card)
    if not is_joker(ruleset, card, d):
        return {box: ruleset.score(box, d) for box in allowed}
    upper_box = UPPER_BOXES[d[0] - 1]
    if ruleset.joker == "forced":
        if upper_box in allowed:
            return {upper_box: ruleset.score(upper_box, d)}
        lower = [b for b in allowed if b not in UPPER_BOXES]
        if lower:
            return {box: ruleset.joker_score(box, d) for box in lower}
        return {box: ruleset.score(box, d) for box in allowed}
    wild = ruleset.joker == "free" or not card.is_open(upper_box)
    return {
        box: ruleset.joker_score(box, d) if wild and box not in UPPER_BOXES
        else ruleset.score(box, d)
        for box in allowed
    }


def explain_refusal(ruleset: Ruleset, card: Scorecard, dice: Sequence[int], box: str) -> str:
    """Why ``box`` is not among :func:`choices` for these dice, in a player's words."""
    label = ruleset.label(box)
    if not card.is_open(box):
        return f"{label} is already filled"
    allowed = allowed_by_order(ruleset, card)
    if box not in allowed:
        if ruleset.order == "in_order":
            return (
                "In this game the boxes are filled top to bottom: "
                f"next is {ruleset.label(allowed[0])}"
            )
        return (
            "In this game the upper section comes first: "
            f"fill {', '.join(ruleset.label(b) for b in allowed)} before {label}"
        )
    d = ruleset.check_dice(dice)
    upper_box = UPPER_BOXES[d[0] - 1]
    if card.is_open(upper_box):
        return (
            f"Joker rule: five {d[0]}s must go in {ruleset.label(upper_box)} while it is open"
        )
    return (
        f"Joker rule: {ruleset.label(upper_box)} is filled, so five {d[0]}s go in an open"
        " lower box while there is one"
    )


def check_choice(ruleset: Ruleset, card: Scorecard, dice: Sequence[int], box: str) -> int:
    """The points ``box`` gets for ``dice``, or :class:`IllegalMove` saying why not."""
    ruleset.check_box(box)
    options = choices(ruleset, card, dice)
    if box in options:
        return options[box]
    reason = explain_refusal(ruleset, card, dice, box)
    code = "box_filled" if not card.is_open(box) else "box_not_allowed"
    raise IllegalMove(reason, code=code, box=box)
