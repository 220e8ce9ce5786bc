"""The scorecard's keys and the upper bonus row."""

from __future__ import annotations

import yatzy
from yatzy.core.scorecard import Scorecard
from yatzy.tui.widgets.scorecard import bonus_cell, box_keys, signed


def test_every_box_has_a_key_that_is_not_taken() -> None:
    for name in yatzy.RULESET_NAMES:
        keys = box_keys(yatzy.ruleset(name))
        assert len(keys) == len(yatzy.ruleset(name).boxes)
        assert not set(keys) & set("hlqru12345")


def test_bonus_row_shows_progress_then_the_bonus() -> None:
    rules = yatzy.ruleset("yatzy")
    card = Scorecard.empty(rules)
    assert bonus_cell(card)[0] == "±0"
    card = card.fill("sixes", 24).fill("ones", 1)
    assert bonus_cell(card)[0] == "+4"  # sixes 6 over par, ones 2 under
    for box in ("twos", "threes", "fours", "fives"):
        card = card.fill(box, 0)
    assert bonus_cell(card)[0] == "0"
    full = Scorecard.empty(rules)
    for box, points in zip(rules.upper_boxes, (3, 6, 9, 12, 15, 18), strict=True):
        full = full.fill(box, points)
    assert bonus_cell(full)[0] == "50"


def test_signed() -> None:
    assert [signed(n) for n in (-2, 0, 3)] == ["-2", "±0", "+3"]
