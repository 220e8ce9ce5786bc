"""Looking up rulesets by name, their options and errors."""

import json

import pytest

import yatzy
from yatzy import RulesError, Ruleset, ruleset


def test_defaults() -> None:
    assert ruleset("yatzy").options == {"order": "free", "rolls": 3}
    assert ruleset("yahtzee").options == {
        "joker": "forced", "yahtzee_bonus": True, "upper_first": False, "rolls": 3,
    }


def test_values_of_each_ruleset() -> None:
    y = ruleset("yatzy", order="in_order")
    assert (y.name, y.order, y.joker, y.upper_bonus_points, y.extra_yahtzee_points) == (
        "yatzy", "in_order", "none", 50, 0,
    )
    h = ruleset("yahtzee", joker="gated", yahtzee_bonus=False, upper_first=True)
    assert (h.order, h.joker, h.upper_bonus_points, h.extra_yahtzee_points) == (
        "upper_first", "gated", 35, 0,
    )
    assert h.upper_boxes == ("ones", "twos", "threes", "fours", "fives", "sixes")
    assert h.lower_boxes[0] == "three_of_a_kind"


def test_equal_and_hashable() -> None:
    assert ruleset("yahtzee", joker="forced") == ruleset("yahtzee")
    assert ruleset("yahtzee", joker="gated") != ruleset("yahtzee")
    assert len({ruleset("yatzy"), ruleset("yatzy"), ruleset("yahtzee")}) == 2


def test_options_is_a_copy() -> None:
    r = ruleset("yatzy")
    r.options["order"] = "in_order"
    assert r.options["order"] == "free"


def test_names_are_case_insensitive_and_strings_coerce() -> None:
    assert ruleset("Yatzy") == ruleset("yatzy")
    assert ruleset("yahtzee", yahtzee_bonus="false").extra_yahtzee_points == 0
    assert ruleset("yatzy", rolls="4").rolls == 4


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("poker", {}, "Unknown ruleset 'poker'; valid rulesets: 'yatzy', 'yahtzee'"),
        ("yatzy", {"joker": "free"}, "Unknown option 'joker' for yatzy; valid options: order"),
        ("yatzy", {"order": "random"}, "valid values: 'free', 'upper_first', 'in_order'"),
        ("yahtzee", {"joker": "wild"}, "valid values: 'forced', 'gated', 'free', 'none'"),
        ("yahtzee", {"order": "free"}, "valid options: joker, yahtzee_bonus, upper_first"),
        ("yahtzee", {"upper_first": "maybe"}, "must be true or false"),
        ("yatzy", {"rolls": 0}, "whole number from 1 to 10"),
        ("yatzy", {"rolls": True}, "whole number from 1 to 10"),
    ],
)
def test_errors_list_the_valid_choices(name: str, options: dict[str, object],
                                       message: str) -> None:
    with pytest.raises(RulesError, match=message.replace("(", r"\(")) as info:
        ruleset(name, **options)
    assert isinstance(info.value, ValueError)


def test_repr_and_str_round_trip() -> None:
    r = ruleset("yahtzee", joker="gated", upper_first=True)
    assert repr(r) == "ruleset('yahtzee', joker='gated', upper_first=True)"
    assert eval(repr(r), {"ruleset": ruleset}) == r
    assert str(r) == "yahtzee (joker=gated, upper_first=True)"
    assert str(ruleset("yatzy")) == "yatzy"


def test_dict_round_trip() -> None:
    for r in (ruleset("yatzy", order="upper_first"), ruleset("yahtzee", joker="none")):
        assert Ruleset.from_dict(r.to_dict()) == r
    with pytest.raises(RulesError):
        Ruleset.from_dict({"options": {}})
    with pytest.raises(RulesError):
        Ruleset.from_dict({"name": "yatzy", "options": []})


def test_labels() -> None:
    assert ruleset("yatzy").label("full_house") == "Full house"
    assert ruleset("yahtzee").label("yahtzee") == "Yahtzee"


def test_every_ruleset_is_described_once() -> None:
    from yatzy import rulesets

    described = {info.name: info for info in rulesets()}
    assert tuple(described) == yatzy.RULESET_NAMES
    for info in described.values():
        rules = yatzy.ruleset(info.name)
        assert info.boxes == rules.boxes == info.upper_boxes + info.lower_boxes
        assert (info.dice_count, info.rolls, info.upper_bonus_points) == (
            rules.dice_count, rules.rolls, rules.upper_bonus_points)
        assert info.yahtzee_points == rules.score(info.yahtzee_box, [6] * rules.dice_count)
        assert [o.name for o in info.options] == list(rules.options)
        assert all(o.default == rules.options[o.name] for o in info.options)
        for option in info.options:  # every choice a described option offers is taken
            values = (option.choices if option.kind == "choice" else (True, False)
                      if option.kind == "bool" else (option.minimum, option.maximum))
            for value in values:
                assert yatzy.ruleset(info.name, **{option.name: value}).options[
                    option.name] == value
    yahtzee = described["yahtzee"]
    assert yahtzee.extra_yahtzee_points == 100 and yahtzee.upper_bonus_threshold == 63
    assert dict(yahtzee.joker_points) == {
        "three_of_a_kind": None, "four_of_a_kind": None, "full_house": 25,
        "small_straight": 30, "large_straight": 40, "chance": None}
    assert described["yatzy"].joker_points == ()
    assert yatzy.ruleset("yahtzee", yahtzee_bonus=False).describe().extra_yahtzee_points == 0
    assert json.loads(json.dumps(yahtzee.to_dict()))["options"][0] == {
        "name": "joker", "kind": "choice", "default": "forced", "label": "Joker",
        "choices": ["forced", "gated", "free", "none"], "choice_labels": {
            "forced": "forced Joker", "gated": "gated Joker", "free": "free Joker",
            "none": "no Joker"}}


@pytest.mark.parametrize("box", ["full_house", "small_straight", "large_straight",
                                 "three_of_a_kind", "chance", "twos"])
def test_a_joker_takes_the_full_value_or_the_sum(box: str) -> None:
    rules = yatzy.ruleset("yahtzee")
    for face in range(1, 7):
        dice = [face] * 5
        expected = {"full_house": 25, "small_straight": 30, "large_straight": 40,
                    "three_of_a_kind": 5 * face, "chance": 5 * face,
                    "twos": 10 if face == 2 else 0}[box]
        assert rules.joker_score(box, dice) == expected
