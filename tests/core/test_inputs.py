"""Regressions of the library-input items of the hardening issue: each input here once
escaped as a ``TypeError``, ``RecursionError``, digit-limit ``ValueError``... or was
accepted when it should not have been. Now each raises a ``YatzyError`` with a message,
and leaves the value passed in as it was."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import yatzy
from yatzy import (
    Dice,
    ErrorCode,
    Game,
    IllegalMove,
    InvalidDice,
    InvalidName,
    RecordError,
    RulesError,
    Scorecard,
    YatzyError,
    new_game,
    ruleset,
)
from yatzy.core import rules
from yatzy.core.actions import action_from_dict, parse_action
from yatzy.core.errors import shown
from yatzy.core.names import MAX_NAME_LENGTH, free_name, same_name

YATZY = ruleset("yatzy")
YAHTZEE = ruleset("yahtzee")
BIG = 10**5000


def roll_off_record() -> dict[str, Any]:
    return new_game(YATZY, ["A", "B"], seed=1, first_player="roll").to_record()


def finished_record() -> dict[str, Any]:
    g = new_game(ruleset("yatzy", rolls=1), ["A"], seed=1)
    while not g.is_over:
        g = g.roll()
        g = g.score(next(iter(g.choices())))
    return g.to_record()


def refused(error: type[YatzyError], call: Any, *args: Any, **kwargs: Any) -> YatzyError:
    """``call(*args, **kwargs)`` raises ``error`` and leaves its arguments unchanged."""
    before = copy.deepcopy((args, kwargs))
    with pytest.raises(error) as caught:
        call(*args, **kwargs)
    assert (args, kwargs) == before
    assert caught.value.message and len(caught.value.message) < 500
    return caught.value


# --- 1. A roll-off that does not match the record's ----------------------------------


def test_an_empty_roll_off_is_refused_as_a_record_error() -> None:
    record = roll_off_record()
    record["roll_off"] = []
    error = refused(RecordError, Game.from_record, record)
    assert "roll-off has 0 rolls" in error.message
    del record["roll_off"]
    refused(RecordError, Game.from_record, record)


# --- 2. Ruleset options ----------------------------------------------------------------


def test_an_option_called_name_is_an_unknown_option() -> None:
    record = roll_off_record()
    record["ruleset"]["options"] = {"name": "x"}
    refused(RecordError, Game.from_record, record)
    error = refused(RulesError, yatzy.Ruleset.from_dict, {"name": "yatzy", "options": {"name": 1}})
    assert error.code == ErrorCode.UNKNOWN_OPTION
    assert refused(RulesError, ruleset, "yatzy", name="x").code == ErrorCode.UNKNOWN_OPTION
    options = {1: "x"}
    refused(RulesError, yatzy.Ruleset.from_dict, {"name": "yatzy", "options": options})


@pytest.mark.parametrize("rolls", ["²", "٣", "9" * 5000, "", "1.0", 1.0, True, 0, 11, BIG],
                         ids=shown)
def test_rolls_must_be_a_small_whole_number(rolls: object) -> None:
    assert refused(RulesError, ruleset, "yatzy", rolls=rolls).code == ErrorCode.BAD_OPTION


def test_rolls_as_ascii_digits_still_work() -> None:
    assert ruleset("yatzy", rolls=" 4 ").rolls == 4


# --- 3. Deep nesting and numbers past the digit limit --------------------------------


def test_json_nested_100000_deep_is_a_record_error() -> None:
    error = refused(RecordError, Game.from_json, "[" * 100_000 + "]" * 100_000)
    assert error.code == ErrorCode.RECORD_NOT_JSON and "nested too deeply" in error.message


def test_a_json_number_past_the_digit_limit_is_a_record_error() -> None:
    text = '{"format": "yatzy-game", "version": ' + "9" * 5000 + "}"
    assert refused(RecordError, Game.from_json, text).code == ErrorCode.RECORD_NOT_JSON


@pytest.mark.parametrize(
    ("key", "value"),
    [("version", BIG), ("seed", BIG), ("players", [BIG]), ("format", BIG),
     ("totals", {"A": BIG}), ("first_player", BIG)],
    ids=shown,
)
def test_huge_numbers_in_a_record_header(key: str, value: object) -> None:
    record = finished_record()
    record[key] = value
    error = refused(RecordError, Game.from_record, record)
    assert "5001 digits" in error.message or "whole number" in error.message


@pytest.mark.parametrize("field", ["dice", "hold", "points", "player", "box", "type"])
def test_huge_numbers_in_an_action(field: str) -> None:
    record = new_game(YATZY, ["A"], seed=None).roll([1, 1, 2, 3, 4]).reroll([0], [1, 1, 1, 1])
    record = record.score("ones").to_record()
    for entry in record["actions"]:
        entry[field] = [BIG] if field in ("dice", "hold") else BIG
    assert refused(RecordError, Game.from_record, record).step is not None


def test_huge_numbers_elsewhere_are_shown_by_their_size() -> None:
    game = new_game(YATZY, ["A"], seed=1)
    assert "5001 digits" in refused(InvalidDice, Dice, [BIG]).message
    assert "5001 digits" in refused(IllegalMove, new_game, YATZY, ["A"], seed=BIG).message
    assert "5001 digits" in refused(IllegalMove, game.roll().reroll, [BIG]).message
    assert "5001 digits" in refused(IllegalMove, game.scorecard, BIG).message
    refused(RulesError, Scorecard.parse, YATZY, "ones=" + "9" * 5000)
    refused(RulesError, Scorecard.from_dict, YATZY, {"boxes": {"ones": BIG}})
    refused(RulesError, Scorecard.from_dict, YAHTZEE, {"boxes": {"yahtzee": 50},
                                                       "yahtzee_bonus": BIG})
    refused(InvalidDice, YATZY.score, "chance", [BIG] * 5)


def test_shown_keeps_any_value_short() -> None:
    deep: list[Any] = []
    inner = deep
    for _ in range(100_000):
        inner.append([])
        inner = inner[0]
    assert len(shown(deep)) < 100
    assert shown(BIG) == "<a whole number of about 5001 digits>"
    assert shown(-BIG) == "<a negative whole number of about 5001 digits>"
    assert len(shown("x" * 10**6)) < 100
    wide = {f"{i}" * 90: ["9" * 90, {"b" * 90: ["c" * 90] * 9}] * 9 for i in range(9)}
    assert len(shown([wide] * 9)) == 100
    assert shown("\ud800") == "'\\ud800'"
    with pytest.raises(InvalidDice):
        Dice([deep])


def test_shown_survives_a_value_that_fools_reprlib() -> None:
    # reprlib picks its method by the type's name: this "int" has no bit_length.
    impostor = type("int", (), {})()
    assert shown(impostor) == "<int>"


# --- 4. Arguments of the wrong type ---------------------------------------------------


@pytest.mark.parametrize(
    ("error", "call", "args", "kwargs"),
    [
        (IllegalMove, new_game, (YATZY, None), {}),
        (IllegalMove, new_game, (YATZY, 5), {}),
        (IllegalMove, new_game, (YATZY, ["A", "B"]),
         {"seed": 1, "first_player": "roll", "roll_off_dice": 5}),
        (IllegalMove, new_game, (YATZY, ["A", "B"]),
         {"seed": 1, "first_player": "roll", "roll_off_dice": [None, 5]}),
        (IllegalMove, new_game, (YATZY, ["A"]), {"seed": 1, "roll_off_dice": "12345"}),
        (IllegalMove, new_game, (YATZY, ["A"]), {"first_player": ["roll"]}),
        (IllegalMove, new_game, (None, ["A"]), {}),
        (InvalidDice, Dice.parse, (None,), {}),
        (InvalidDice, Dice.parse, (b"12345",), {}),
        (InvalidDice, Dice, (5,), {}),
        (RulesError, Scorecard.parse, (YATZY, None), {}),
        (RulesError, Scorecard.parse, (None, "ones=3"), {}),
        (RulesError, Scorecard.from_dict, (YATZY, None), {}),
        (RulesError, Scorecard.empty, ("yatzy",), {}),
        (RecordError, Game.from_json, (None,), {}),
        (RecordError, Game.from_json, (5,), {}),
        (RecordError, Game.from_json, (b"\xff\xfe\x00",), {}),
        (IllegalMove, parse_action, (None,), {}),
        (IllegalMove, parse_action, ("reroll ٣",), {}),
        (IllegalMove, action_from_dict, ({"type": "reroll", "hold": [], "dice": 5},), {}),
        (RulesError, YATZY.joker_score, (["x"], [1, 1, 1, 1, 1]), {}),
        (RulesError, rules.choices, (YATZY, None, [1, 2, 3, 4, 5]), {}),
        (RulesError, rules.choices, (YATZY, Scorecard.empty(YAHTZEE), "12345"), {}),
    ],
)
def test_wrong_types_raise_yatzy_errors(
    error: type[YatzyError], call: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    refused(error, call, *args, **kwargs)


@pytest.mark.parametrize("dice", [b"\xff\xfe", b"", bytearray(b"\x80"), 5, 5.0,
                                  {"a": 1}, [1, 2, 3, 4, 5.0], [True] * 5])
def test_roll_refuses_what_are_no_dice(dice: object) -> None:
    game = new_game(YATZY, ["A"], seed=None)
    refused(InvalidDice, game.roll, dice)


@pytest.mark.parametrize("hold", [5, None, "01", b"\x00", 1.5, [0.0], [True], [0, 0]])
def test_reroll_refuses_what_are_no_positions(hold: object) -> None:
    game = new_game(YATZY, ["A"], seed=1).roll()
    refused(IllegalMove, game.reroll, hold)


def test_an_endless_hold_is_refused_without_hanging() -> None:
    import itertools

    game = new_game(YATZY, ["A"], seed=1).roll()
    with pytest.raises(IllegalMove):
        game.reroll(itertools.count())
    with pytest.raises(InvalidDice):
        game.reroll([0], itertools.repeat(1))


# --- 5. Records and scorecards that were accepted -------------------------------------


@pytest.mark.parametrize("version", [1.0, True, "1", None, [1]])
def test_a_version_must_be_the_whole_number(version: object) -> None:
    record = finished_record()
    record["version"] = version
    refused(RecordError, Game.from_record, record)


def test_totals_must_be_whole_numbers() -> None:
    record = finished_record()
    record["totals"] = {p: float(t) for p, t in record["totals"].items()}
    refused(RecordError, Game.from_record, record)
    record["totals"] = [1]
    refused(RecordError, Game.from_record, record)


def test_points_and_bonus_must_have_their_types() -> None:
    game = new_game(YAHTZEE, ["A"], seed=None).roll([1, 2, 3, 4, 6]).score("ones")
    record = game.to_record()
    assert record["actions"][1]["points"] == 1
    record["actions"][1]["points"] = True
    assert refused(RecordError, Game.from_record, record).step == 1
    record["actions"][1]["points"] = 1.0
    refused(RecordError, Game.from_record, record)
    record["actions"][1]["points"] = 1
    record["actions"][1]["bonus"] = 0
    refused(RecordError, Game.from_record, record)
    record["actions"][1]["bonus"] = False
    assert Game.from_record(record) == game


@pytest.mark.parametrize(
    ("rules", "text", "most"),
    [
        (YAHTZEE, "yahtzee=50 yahtzee_bonus=1000000", 0),
        (YAHTZEE, "yahtzee=50 fives=25 yahtzee_bonus=2", 1),
        (YAHTZEE, "yahtzee=50 fives=20 chance=30 yahtzee_bonus=2", 1),  # 6 6 6 6 6
        (YAHTZEE, "yahtzee=50 fives=20 twos=4 yahtzee_bonus=1", 0),  # no five of a kind
        (ruleset("yahtzee", joker="none"), "yahtzee=50 full_house=25 yahtzee_bonus=1", 0),
    ],
)
def test_a_card_holds_no_more_bonuses_than_boxes_five_of_a_kind_filled(
    rules: yatzy.Ruleset, text: str, most: int
) -> None:
    error = refused(RulesError, Scorecard.parse, rules, text)
    assert error.code == ErrorCode.TOO_MANY_BONUSES and error.params["most"] == most


@pytest.mark.parametrize(
    ("rules", "text"),
    [
        (YAHTZEE, "yahtzee=50 fives=25 yahtzee_bonus=1"),
        (YAHTZEE, "yahtzee=50 fives=25 full_house=25 twos=0 yahtzee_bonus=3"),
        (ruleset("yahtzee", joker="none"), "yahtzee=50 full_house=0 yahtzee_bonus=1"),
    ],
)
def test_cards_a_game_can_reach_keep_their_bonuses(rules: yatzy.Ruleset, text: str) -> None:
    card = Scorecard.parse(rules, text)
    assert Scorecard.parse(rules, str(card)) == card


def test_the_bonus_bound_holds_for_every_card_a_game_makes() -> None:
    game = new_game(YAHTZEE, ["A"], seed=None)
    for box in ("yahtzee", "sixes", "chance", "full_house", "small_straight"):
        game = game.roll([6] * 5).score(box)
    card = game.scorecard("A")
    assert card.yahtzee_bonus_count == 4
    assert Scorecard.parse(YAHTZEE, str(card)) == card


def test_the_solver_s_advise_refuses_the_impossible_card() -> None:
    from yatzy.cli import main

    assert main(["advise", "--rules", "yahtzee", "--card",
                 "yahtzee=50 yahtzee_bonus=1000000", "--dice", "1", "2", "3", "4", "5"]) == 2


@pytest.mark.parametrize(("points", "extra"), [(-1, False), (31, False), ("3", False),
                                               (True, False), (BIG, False), (3, 1)],
                         ids=shown)
def test_fill_refuses_what_is_no_number_of_points(points: object, extra: object) -> None:
    card = Scorecard.empty(YATZY)
    refused(RulesError, card.fill, "chance", points, extra_yahtzee=extra)

@pytest.mark.parametrize("text", ["ones=3 ones=1", "ones=3,ones=3",
                                  "yahtzee_bonus=0 yahtzee_bonus=0"])
def test_a_box_given_twice_is_refused(text: str) -> None:
    rules = YAHTZEE if "bonus" in text else YATZY
    assert refused(RulesError, Scorecard.parse, rules, text).code == ErrorCode.BOX_TWICE


@pytest.mark.parametrize("dice", ["12345", "1 2 3 4 5", "1,2,3,4,5", b"12345",
                                  Dice([1, 2, 3, 4, 5]), (1, 2, 3, 4, 5), iter([1, 2, 3, 4, 5])])
def test_one_text_form_of_dice_everywhere(dice: object) -> None:
    if isinstance(dice, type(iter([]))):
        dice_again: object = iter([1, 2, 3, 4, 5])
    else:
        dice_again = dice
    assert YATZY.score("chance", dice) == 15  # type: ignore[arg-type]
    game = new_game(YATZY, ["A"], seed=None).roll(dice_again)  # type: ignore[arg-type]
    assert game.dice == (1, 2, 3, 4, 5)
    assert parse_action("roll 12345") == yatzy.Roll(Dice([1, 2, 3, 4, 5]))


@pytest.mark.parametrize("dice", ["1234", "123456", "12x45", "", b"\xff", "1 2 3 4 7"])
def test_the_same_dice_are_refused_everywhere(dice: object) -> None:
    game = new_game(YATZY, ["A"], seed=None)
    assert refused(InvalidDice, YATZY.score, "chance", dice).params == {"count": 5}
    assert refused(InvalidDice, game.roll, dice).params == {"count": 5}


# --- 6. Players' names ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("\ud800bad", ErrorCode.NAME_CONTROL),
        ("a\x00b", ErrorCode.NAME_CONTROL),
        ("Ann\nBo", ErrorCode.NAME_CONTROL),
        ("Ann\u2028Bo", ErrorCode.NAME_CONTROL),
        ("Ann\x1b[31m", ErrorCode.NAME_CONTROL),
        ("", ErrorCode.NAME_EMPTY),
        ("   ", ErrorCode.NAME_EMPTY),
        ("\u3000", ErrorCode.NAME_EMPTY),
        (" Ann", ErrorCode.NAME_SPACES),
        ("A" * (MAX_NAME_LENGTH + 1), ErrorCode.NAME_TOO_LONG),
        (5, ErrorCode.BAD_NAME),
        (None, ErrorCode.BAD_NAME),
        (b"Ann", ErrorCode.BAD_NAME),
    ],
)
def test_names_that_cannot_be_stored_are_refused_up_front(name: object,
                                                           code: ErrorCode) -> None:
    error = refused(InvalidName, new_game, YATZY, [name])
    assert error.code == code
    error.message.encode("utf-8")  # the message itself prints


@pytest.mark.parametrize(
    "names", [["Ann", "ann"], ["Ann", "ANN"], ["Ann", "Ａｎｎ"], ["Straße", "STRASSE"],
              ["Zoë", "Zoe\u0308"], ["ǅ", "ǆ"]],
)
def test_names_are_the_same_ignoring_case_and_compatibility_forms(names: list[str]) -> None:
    assert refused(InvalidName, new_game, YATZY, names).code == ErrorCode.DUPLICATE_PLAYER
    assert same_name(*names)


def test_a_free_name_is_no_other_seat_s_name_in_any_form() -> None:
    assert free_name("CPU greedy", ["Ann"]) == "CPU greedy"
    assert free_name("CPU greedy", ["ＣＰＵ greedy", "cpu GREEDY 2"]) == "CPU greedy 3"
    assert free_name("Greedy", ["ＧＲＥＥＤＹ"]) == "Greedy 2"


def test_names_people_have_are_kept_as_written() -> None:
    names = ["Ann", "Åsa", "李", "Zoë", "👩‍👩‍👧", "A" * MAX_NAME_LENGTH, "Jean-Luc O'Neil"]
    game = new_game(YATZY, names, seed=1)
    assert game.players == tuple(names)
    text = game.to_json(ensure_ascii=False).encode("utf-8")
    assert Game.from_json(text) == game


def test_a_record_with_a_name_that_cannot_be_stored_is_refused() -> None:
    record = finished_record()
    record["players"] = ["\ud800"]
    assert refused(RecordError, Game.from_record, record).step is None
    text = json.dumps(finished_record()).replace('"A"', '"\\ud800"')
    refused(RecordError, Game.from_json, text)


def test_messages_quote_bad_names_printably() -> None:
    error = refused(InvalidName, new_game, YATZY, ["\ud800\x00" * 1000])
    assert "\\ud800" in error.message and len(error.message) < 300
