"""Dice values, text forms and the seeded source."""

from collections import Counter

import pytest

from yatzy import Dice, InvalidDice
from yatzy.core.dice import check_dice
from yatzy.core.seeded import seeded_dice


def test_dice_is_a_tuple_with_a_text_form() -> None:
    d = Dice([6, 1, 6])
    assert d == (6, 1, 6) and str(d) == "6 1 6" and repr(d) == "Dice([6, 1, 6])"
    assert d.sorted() == (1, 6, 6)
    assert d.counts == (1, 0, 0, 0, 0, 2)
    assert eval(repr(d), {"Dice": Dice}) == d


@pytest.mark.parametrize("text", ["3 3 5 6 6", "3,3,5,6,6", "33566", " 3, 3 5\t6 6 "])
def test_parse(text: str) -> None:
    assert Dice.parse(text) == (3, 3, 5, 6, 6)
    assert Dice.parse(text, 5) == (3, 3, 5, 6, 6)


@pytest.mark.parametrize("text", [
    "3 3 x", "9", "0 1", "three",
    # A sign is no separator: these were read as 6 6 6 6 6, 1 2 3 4 5 and 3 3 5 6 6.
    "-6 -6 -6 -6 -6", "+1 2 3 4 5", "3-3-5-6-6",
    # Only ASCII digits: not full-width or Arabic-Indic ones, not "06".
    "１２３４５", "\u0663 1 2 3 4", "06 1 2 3 4",
])
def test_parse_errors(text: str) -> None:
    with pytest.raises(InvalidDice, match="^Dice must be values from 1 to 6, not "):
        Dice.parse(text)
    with pytest.raises(InvalidDice, match="^Dice must be 5 values from 1 to 6$") as info:
        Dice.parse(text, 5)
    assert info.value.params == {"count": 5}


def test_parse_with_a_count_is_one_refusal_for_any_wrong_dice() -> None:
    for text in ("1 2 3 4", "1 2 3 4 5 6", "", "1 2 3 4 7"):
        with pytest.raises(InvalidDice, match="^Dice must be 5 values from 1 to 6$"):
            Dice.parse(text, 5)
    assert Dice.parse("", 0) == ()


def test_n_of_a_kind() -> None:
    assert Dice([4] * 5).is_n_of_a_kind
    assert not Dice([4, 4, 4, 4, 3]).is_n_of_a_kind
    assert not Dice([]).is_n_of_a_kind


def test_check_dice() -> None:
    assert check_dice([1, 2, 3], 3) == (1, 2, 3)
    with pytest.raises(InvalidDice, match="Dice must be 3 values"):
        check_dice(5, 3)  # type: ignore[arg-type]


def test_seeded_dice_are_pure_and_uniform() -> None:
    assert seeded_dice(1, "turn", 3, 5) == seeded_dice(1, "turn", 3, 5)
    assert seeded_dice(1, "turn", 3, 5) != seeded_dice(1, "turn", 4, 5) or \
        seeded_dice(1, "turn", 5, 5) != seeded_dice(1, "turn", 6, 5)
    faces = Counter(f for i in range(3000) for f in seeded_dice(7, "turn", i, 5))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    # 15,000 dice: each face 2,500 expected, SD about 46; 6 SD of slack
    assert all(abs(n - 2500) < 280 for n in faces.values())
    assert len(seeded_dice(7, "turn", 0, 60)) == 60
