"""Table scores of every box of both rulesets, including the tricky cases of rules.md."""

import pytest

from yatzy import InvalidDice, RulesError, UnknownBox, ruleset

YATZY = ruleset("yatzy")
YAHTZEE = ruleset("yahtzee")


def test_box_order_and_counts() -> None:
    assert YATZY.boxes == (
        "ones", "twos", "threes", "fours", "fives", "sixes", "one_pair", "two_pairs",
        "three_of_a_kind", "four_of_a_kind", "small_straight", "large_straight",
        "full_house", "chance", "yatzy",
    )
    assert YAHTZEE.boxes == (
        "ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
        "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee",
        "chance",
    )
    assert YATZY.dice_count == YAHTZEE.dice_count == 5


@pytest.mark.parametrize(
    ("box", "dice", "points"),
    [
        # rules.md tricky cases
        ("two_pairs", "33355", 16),
        ("three_of_a_kind", "33355", 9),
        ("full_house", "33355", 19),
        ("one_pair", "33355", 10),
        ("small_straight", "12344", 0),
        ("one_pair", "66666", 12),
        ("two_pairs", "66666", 0),
        ("four_of_a_kind", "66666", 24),
        ("full_house", "66666", 0),
        ("yatzy", "66666", 50),
        # upper section
        ("ones", "11234", 2),
        ("twos", "22226", 8),
        ("threes", "12456", 0),
        ("fours", "44441", 16),
        ("fives", "55552", 20),
        ("sixes", "66612", 18),
        # pairs: the highest pair counts; two pairs are different faces
        ("one_pair", "12345", 0),
        ("one_pair", "11556", 10),
        ("two_pairs", "11556", 12),
        ("two_pairs", "22223", 0),
        ("two_pairs", "12345", 0),
        ("two_pairs", "66554", 22),
        # n of a kind: only the equal dice count
        ("three_of_a_kind", "44412", 12),
        ("three_of_a_kind", "44442", 12),
        ("three_of_a_kind", "44122", 0),
        ("four_of_a_kind", "22223", 8),
        ("four_of_a_kind", "22233", 0),
        # straights are exact
        ("small_straight", "54321", 15),
        ("small_straight", "23456", 0),
        ("large_straight", "65432", 20),
        ("large_straight", "12345", 0),
        ("large_straight", "23466", 0),
        # full house = sum; needs three and two of different faces
        ("full_house", "22666", 22),
        ("full_house", "22266", 18),
        ("full_house", "22226", 0),
        ("full_house", "12345", 0),
        ("chance", "12345", 15),
        ("chance", "66666", 30),
        ("yatzy", "66665", 0),
        ("yatzy", "11111", 50),
    ],
)
def test_yatzy_box(box: str, dice: str, points: int) -> None:
    assert YATZY.score(box, [int(c) for c in dice]) == points


@pytest.mark.parametrize(
    ("box", "dice", "points"),
    [
        # rules.md tricky cases
        ("small_straight", "12334", 30),
        ("small_straight", "12345", 30),
        ("large_straight", "12345", 40),
        ("full_house", "22222", 0),
        # seed 001's example 5-5-5-2-5 is 22, not 21
        ("three_of_a_kind", "55525", 22),
        ("four_of_a_kind", "11113", 7),
        ("full_house", "22233", 25),
        ("small_straight", "23455", 30),
        ("large_straight", "23456", 40),
        ("yahtzee", "33333", 50),
        ("chance", "23566", 22),
        # more
        ("ones", "11111", 5),
        ("sixes", "66123", 12),
        ("three_of_a_kind", "44412", 15),
        ("three_of_a_kind", "44122", 0),
        ("four_of_a_kind", "44442", 18),
        ("four_of_a_kind", "44422", 0),
        ("three_of_a_kind", "66666", 30),
        ("full_house", "33366", 25),
        ("full_house", "33336", 0),
        ("small_straight", "34566", 30),
        ("small_straight", "13456", 30),
        ("small_straight", "12356", 0),
        ("small_straight", "11234", 30),
        ("large_straight", "12346", 0),
        ("large_straight", "13456", 0),
        ("yahtzee", "33332", 0),
    ],
)
def test_yahtzee_box(box: str, dice: str, points: int) -> None:
    assert YAHTZEE.score(box, [int(c) for c in dice]) == points


def test_score_accepts_any_sequence() -> None:
    assert YATZY.score("chance", (1, 2, 3, 4, 5)) == 15
    assert YATZY.scores([3, 3, 3, 5, 5])["full_house"] == 19


@pytest.mark.parametrize("dice", [[1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4],
                                  [7, 1, 1, 1, 1], [1.0, 2, 3, 4, 5], [True, 1, 1, 1, 1]])
def test_bad_dice(dice: list[object]) -> None:
    with pytest.raises(InvalidDice, match="Dice must be 5 values from 1 to 6"):
        YATZY.score("chance", dice)  # type: ignore[arg-type]


def test_unknown_box_lists_the_boxes() -> None:
    with pytest.raises(UnknownBox, match="Unknown box 'yahtzee'; the boxes are: ones, "):
        YATZY.score("yahtzee", [1, 1, 1, 1, 1])
    with pytest.raises(RulesError):
        YAHTZEE.score("one_pair", [1, 1, 1, 1, 1])
