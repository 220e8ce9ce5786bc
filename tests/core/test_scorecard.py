"""Scorecards: totals, text and dict forms, immutability."""

import pytest

from yatzy import IllegalMove, RulesError, Scorecard, ruleset

YATZY = ruleset("yatzy")
YAHTZEE = ruleset("yahtzee")


def test_empty() -> None:
    card = Scorecard.empty(YATZY)
    assert len(card) == 15 and list(card) == list(YATZY.boxes)
    assert all(card[b] is None for b in card)
    assert (card.upper_sum, card.upper_bonus, card.lower_sum, card.total) == (0, 0, 0, 0)
    assert card.open_boxes == YATZY.boxes and card.filled_boxes == ()
    assert not card.is_complete
    assert str(card) == "-"


def test_totals_and_bonus_threshold() -> None:
    card = Scorecard.empty(YATZY)
    for face, box in enumerate(YATZY.upper_boxes, start=1):
        card = card.fill(box, 3 * face)
    assert card.upper_sum == 63 and card.upper_bonus == 50 and card.upper_par_delta == 0
    card62 = Scorecard.empty(YATZY).fill("sixes", 30).fill("fives", 25).fill("ones", 4)
    assert card62.upper_sum == 59 and card62.upper_bonus == 0
    assert card62.upper_par_delta == 59 - (18 + 15 + 3)
    card = card.fill("chance", 22).fill("yatzy", 50)
    assert card.lower_sum == 72 and card.total == 63 + 50 + 72


def test_yahtzee_bonus_counts() -> None:
    card = Scorecard.empty(YAHTZEE).fill("yahtzee", 50).fill("fives", 25, extra_yahtzee=True)
    card = card.fill("chance", 30, extra_yahtzee=True)
    assert card.yahtzee_bonus_count == 2 and card.yahtzee_bonus == 200
    assert card.total == 25 + 50 + 30 + 200
    assert YAHTZEE.upper_bonus_points == 35


def test_fill_is_immutable_and_refuses_a_filled_box() -> None:
    card = Scorecard.empty(YATZY)
    filled = card.fill("chance", 20)
    assert card["chance"] is None and filled["chance"] == 20
    with pytest.raises(IllegalMove, match="Chance is already filled"):
        filled.fill("chance", 10)
    with pytest.raises(AttributeError):
        filled.entries = ()  # type: ignore[misc]


def test_mapping_behaviour() -> None:
    card = Scorecard.empty(YATZY).fill("ones", 3)
    assert "ones" in card and "yahtzee" not in card
    assert card.get("ones") == 3
    assert dict(card)["ones"] == 3
    with pytest.raises(RulesError):
        card["yahtzee"]


def test_text_and_dict_round_trip() -> None:
    card = Scorecard.empty(YAHTZEE).fill("yahtzee", 50).fill("fives", 25, extra_yahtzee=True)
    assert str(card) == "fives=25 yahtzee=50 yahtzee_bonus=1"
    assert Scorecard.parse(YAHTZEE, str(card)) == card
    assert Scorecard.parse(YAHTZEE, "fives=25, yahtzee=50,yahtzee_bonus=1") == card
    assert Scorecard.from_dict(YAHTZEE, card.to_dict()) == card
    assert Scorecard.parse(YAHTZEE, "-") == Scorecard.empty(YAHTZEE)


@pytest.mark.parametrize(
    "text", ["fives", "fives=x", "fives=-1", "pair=4", "yahtzee_bonus=a"],
)
def test_parse_errors(text: str) -> None:
    with pytest.raises(RulesError):
        Scorecard.parse(YAHTZEE, text)


def test_from_dict_errors() -> None:
    with pytest.raises(RulesError, match="no Yahtzee bonus"):
        Scorecard.from_dict(YATZY, {"boxes": {}, "yahtzee_bonus": 1})
    with pytest.raises(RulesError, match="whole number"):
        Scorecard.from_dict(YATZY, {"boxes": {"ones": 1.5}})
    with pytest.raises(RulesError):
        Scorecard.from_dict(YATZY, {"boxes": []})


def test_impossible_points_are_refused() -> None:
    with pytest.raises(RulesError, match="Twos cannot hold 3 points; it holds 0, 2, 4, 6, 8, 10"):
        Scorecard.parse(YATZY, "twos=3")
    with pytest.raises(RulesError, match="Full house cannot hold 20 points"):
        Scorecard.parse(YAHTZEE, "full_house=20")
    assert Scorecard.parse(YATZY, "full_house=28 one_pair=12")["full_house"] == 28
    with pytest.raises(RulesError, match="Full house cannot hold 30"):
        Scorecard.parse(YATZY, "full_house=30")
    with pytest.raises(RulesError, match="need 50 in the Yahtzee box"):
        Scorecard.parse(YAHTZEE, "yahtzee=0 yahtzee_bonus=1")


def test_possible_points() -> None:
    assert YAHTZEE.possible_points("large_straight") == {0, 40}
    assert YATZY.possible_points("yatzy") == {0, 50}
    assert max(YATZY.possible_points("chance")) == 30
    assert ruleset("yahtzee", joker="none").possible_points("full_house") == {0, 25}


@pytest.mark.parametrize("count", [-1, 1.5, True, "2"])
def test_bad_bonus_counts(count: object) -> None:
    with pytest.raises(RulesError, match="bonus count must be a whole number"):
        Scorecard.from_dict(YAHTZEE, {"boxes": {"yahtzee": 50}, "yahtzee_bonus": count})
