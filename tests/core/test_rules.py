"""Play orders, the four Joker modes and the Yahtzee bonus (rules.md)."""

import pytest

from yatzy import IllegalMove, RulesError, Scorecard, ruleset
from yatzy.core.rules import (
    Refusal,
    allowed_by_order,
    check_choice,
    choices,
    earns_yahtzee_bonus,
    is_joker,
    joker_choices,
    refusal,
)

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")


def card_with(rules_name: str, filled: dict[str, int], **options: object) -> Scorecard:
    r = ruleset(rules_name, **options)
    card = Scorecard.empty(r)
    for box, points in filled.items():
        card = card.fill(box, points)
    return card


# --- Scandinavian play orders --------------------------------------------------------


def test_free_order_offers_every_open_box() -> None:
    card = card_with("yatzy", {"chance": 20})
    offered = choices(card.ruleset, card, [3, 3, 3, 5, 5])
    assert set(offered) == set(card.ruleset.boxes) - {"chance"}
    assert offered["full_house"] == 19


def test_in_order_offers_only_the_next_box_even_for_a_zero() -> None:
    card = card_with("yatzy", {"ones": 3, "twos": 4}, order="in_order")
    assert choices(card.ruleset, card, [1, 1, 2, 2, 5]) == {"threes": 0}
    with pytest.raises(IllegalMove, match="filled top to bottom: next is Threes"):
        check_choice(card.ruleset, card, [3, 3, 3, 5, 5], "full_house")


def test_in_order_walks_to_the_last_box() -> None:
    r = ruleset("yatzy", order="in_order")
    card = Scorecard.empty(r)
    for box in r.boxes:
        assert list(choices(r, card, [6, 6, 6, 6, 6])) == [box]
        card = card.fill(box, 0)
    assert card.is_complete


def test_upper_first_yatzy() -> None:
    card = card_with("yatzy", {"twos": 4}, order="upper_first")
    offered = choices(card.ruleset, card, [3, 3, 3, 5, 5])
    assert offered == {"ones": 0, "threes": 9, "fours": 0, "fives": 10, "sixes": 0}
    with pytest.raises(IllegalMove, match="upper section comes first"):
        check_choice(card.ruleset, card, [3, 3, 3, 5, 5], "full_house")
    full_upper = card_with("yatzy", dict.fromkeys(UPPER, 0), order="upper_first")
    offered = choices(full_upper.ruleset, full_upper, [1, 2, 3, 4, 6])
    assert set(offered) == set(full_upper.ruleset.lower_boxes)
    assert all(v == 0 for k, v in offered.items() if k != "chance")


def test_upper_first_yahtzee() -> None:
    card = card_with("yahtzee", {"ones": 2}, upper_first=True)
    assert set(allowed_by_order(card.ruleset, card)) == set(UPPER) - {"ones"}


# --- Joker modes ---------------------------------------------------------------------

JOKER_LOWER = {
    "three_of_a_kind": 25, "four_of_a_kind": 25, "full_house": 25,
    "small_straight": 30, "large_straight": 40, "chance": 25,
}


@pytest.mark.parametrize("yahtzee_points", [50, 0])
def test_forced_step1_matching_upper_box(yahtzee_points: int) -> None:
    card = card_with("yahtzee", {"yahtzee": yahtzee_points})
    assert is_joker(card.ruleset, card, _d(5))
    assert choices(card.ruleset, card, [5, 5, 5, 5, 5]) == {"fives": 25}
    with pytest.raises(IllegalMove, match="must go in Fives"):
        check_choice(card.ruleset, card, [5, 5, 5, 5, 5], "full_house")
    assert earns_yahtzee_bonus(card.ruleset, card, [5] * 5) is (yahtzee_points == 50)


@pytest.mark.parametrize("yahtzee_points", [50, 0])
def test_forced_step2_any_open_lower_box_with_joker_values(yahtzee_points: int) -> None:
    card = card_with("yahtzee", {"yahtzee": yahtzee_points, "fives": 20})
    assert choices(card.ruleset, card, [5] * 5) == JOKER_LOWER
    with pytest.raises(IllegalMove, match="Fives is filled, so five 5s go in an open lower"):
        check_choice(card.ruleset, card, [5] * 5, "ones")


def test_forced_step3_zero_in_an_open_upper_box() -> None:
    lower = {b: 0 for b in ruleset("yahtzee").lower_boxes}
    lower["yahtzee"] = 50
    card = card_with("yahtzee", {**lower, "fives": 15})
    assert choices(card.ruleset, card, [5] * 5) == {
        "ones": 0, "twos": 0, "threes": 0, "fours": 0, "sixes": 0,
    }
    assert earns_yahtzee_bonus(card.ruleset, card, [5] * 5)


def test_gated_lower_box_needs_the_upper_box_filled() -> None:
    card = card_with("yahtzee", {"yahtzee": 50}, joker="gated")
    offered = choices(card.ruleset, card, [4] * 5)
    assert set(offered) == set(card.open_boxes)
    assert offered["fours"] == 20
    assert offered["full_house"] == offered["small_straight"] == 0
    assert offered["large_straight"] == 0
    assert offered["three_of_a_kind"] == offered["chance"] == 20
    card = card.fill("fours", 12)
    offered = choices(card.ruleset, card, [4] * 5)
    assert {k: offered[k] for k in JOKER_LOWER} == {
        **JOKER_LOWER, "three_of_a_kind": 20, "four_of_a_kind": 20, "chance": 20,
    }
    assert offered["ones"] == 0


def test_free_joker_always_wild_in_the_lower_section() -> None:
    card = card_with("yahtzee", {"yahtzee": 0}, joker="free")
    offered = choices(card.ruleset, card, [2] * 5)
    assert offered["twos"] == 10
    assert offered["full_house"] == 25
    assert offered["large_straight"] == 40
    assert offered["ones"] == 0


def test_no_joker_scores_by_the_table_but_keeps_the_bonus() -> None:
    card = card_with("yahtzee", {"yahtzee": 50}, joker="none")
    assert not is_joker(card.ruleset, card, _d(2))
    offered = choices(card.ruleset, card, [2] * 5)
    assert offered["full_house"] == offered["small_straight"] == 0
    assert set(offered) == set(card.open_boxes)
    assert earns_yahtzee_bonus(card.ruleset, card, [2] * 5)


def test_no_joker_while_the_yahtzee_box_is_open() -> None:
    card = card_with("yahtzee", {})
    offered = choices(card.ruleset, card, [2] * 5)
    assert offered["full_house"] == 0
    assert offered["yahtzee"] == 50
    assert not earns_yahtzee_bonus(card.ruleset, card, [2] * 5)


def test_joker_choices_of_every_face_at_once() -> None:
    card = card_with("yahtzee", {"yahtzee": 50, "fives": 20})
    jokers = joker_choices(card.ruleset, card)
    assert list(jokers) == [1, 2, 3, 4, 5, 6]
    assert jokers[5] == JOKER_LOWER
    assert jokers[3] == {"threes": 15}
    assert joker_choices(card.ruleset, card_with("yahtzee", {"fives": 20})) == {}
    no_joker = card_with("yahtzee", {"yahtzee": 50}, joker="none")
    assert joker_choices(no_joker.ruleset, no_joker) == {}
    with pytest.raises(RulesError, match="scorecard is for"):
        joker_choices(ruleset("yatzy"), card)


def test_bonus_option_off() -> None:
    card = card_with("yahtzee", {"yahtzee": 50}, yahtzee_bonus=False)
    assert not earns_yahtzee_bonus(card.ruleset, card, [3] * 5)
    assert choices(card.ruleset, card, [3] * 5) == {"threes": 15}


def test_yatzy_has_neither_joker_nor_bonus() -> None:
    card = card_with("yatzy", {"yatzy": 50})
    offered = choices(card.ruleset, card, [4] * 5)
    assert offered["full_house"] == 0 and offered["two_pairs"] == 0
    assert not earns_yahtzee_bonus(card.ruleset, card, [4] * 5)


def test_filled_box_message() -> None:
    card = card_with("yatzy", {"full_house": 19})
    with pytest.raises(IllegalMove, match="^Full house is already filled$") as info:
        check_choice(card.ruleset, card, [1, 1, 1, 2, 2], "full_house")
    assert info.value.code == "box_filled"


def _d(face: int):  # type: ignore[no-untyped-def]
    from yatzy import Dice

    return Dice([face] * 5)


def test_refusals_are_data() -> None:
    r = ruleset("yahtzee")
    card = Scorecard.empty(r).fill("yahtzee", 50)
    refused = refusal(r, card, [4] * 5, "chance")
    assert refused == Refusal("chance", "joker_upper", face=4, upper_box="fours")
    error = refused.error(r)
    assert error.code == "box_not_allowed"
    assert error.params == {"box": "chance", "reason": "joker_upper", "face": 4,
                            "upper_box": "fours"}
    assert refusal(r, card, [4] * 5, "fours") is None
    assert refusal(r, card, None, "chance") is None
    assert refusal(r, card, None, "yahtzee") == Refusal("yahtzee", "filled")
    ordered = ruleset("yatzy", order="in_order")
    assert refusal(ordered, Scorecard.empty(ordered), None, "chance") == Refusal(
        "chance", "in_order", next_box="ones")
    first = ruleset("yatzy", order="upper_first")
    assert refusal(first, Scorecard.empty(first), None, "chance").allowed == r.upper_boxes


def test_move_errors_carry_the_refusal() -> None:
    card = card_with("yatzy", {"ones": 3}, order="in_order")
    with pytest.raises(IllegalMove) as info:
        check_choice(card.ruleset, card, [1, 2, 3, 4, 5], "chance")
    assert info.value.params == {"box": "chance", "reason": "in_order", "next_box": "twos"}


@pytest.mark.parametrize("filled", [-1, 1 << 15, True, 1.0, "3", None])
def test_filled_bits_must_be_a_set_of_the_boxes(filled: object) -> None:
    from yatzy.core.rules import allowed_bits, jokers_apply_bits

    r = ruleset("yatzy")
    with pytest.raises(RulesError, match="is no set of"):
        allowed_bits(r, filled)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="is no set of"):
        jokers_apply_bits(r, filled)  # type: ignore[arg-type]
    assert allowed_bits(r, (1 << 15) - 1) == 0
