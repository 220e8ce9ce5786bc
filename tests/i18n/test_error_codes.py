"""Every error code has a text, translated in all seven catalogs, that fills in."""

from __future__ import annotations

import copy

import pytest
from babel.messages.pofile import read_po

import yatzy
from yatzy.app import BadQuery, BadSeats
from yatzy.app.codes import AppCode
from yatzy.app.match import play_match
from yatzy.bots.codes import BotCode
from yatzy.cli.codes import CliCode
from yatzy.core.errors import (
    ErrorCode,
    IllegalMove,
    RecordError,
    RulesError,
    YatzyError,
    error_codes,
)
from yatzy.i18n import LANGUAGES, catalog_path, translator
from yatzy.i18n.words import ERROR_TEXTS, error_text
from yatzy.solver.codes import SolverCode
from yatzy.web.errors import WebCode


def translations(lang: str) -> dict[str, str]:
    with catalog_path(lang).open("rb") as po:
        catalog = read_po(po, locale=lang)
    return {m.id: m.string for m in catalog if m.id and isinstance(m.id, str)}


#: Every layer's codes: each layer defines and registers its own.
LAYERS = (ErrorCode, SolverCode, BotCode, AppCode, CliCode, WebCode)


def test_every_layer_registers_its_codes_each_with_a_text() -> None:
    assert set(error_codes()) == set(LAYERS)
    codes = [code for layer in LAYERS for code in layer]
    assert len(set(codes)) == len(codes)  # a code belongs to one layer
    assert set(ERROR_TEXTS) == set(codes)


def test_a_layer_must_give_every_code_a_text() -> None:
    from enum import StrEnum

    from yatzy.core.errors import register_error_texts

    class Odd(StrEnum):
        ONE = "odd_one"
        TWO = "odd_two"

    with pytest.raises(YatzyError):
        register_error_texts(Odd, {Odd.ONE: "One"})
    with pytest.raises(YatzyError):  # another layer's code
        register_error_texts(Odd, {Odd.ONE: "1", Odd.TWO: "2", ErrorCode.GAME_OVER: "x"})
    assert "odd_one" not in ERROR_TEXTS and Odd not in error_codes()


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_code_s_text_is_in_the_catalog(lang: str) -> None:
    catalog = translations(lang)
    for code in (code for layer in LAYERS for code in layer):
        text = ERROR_TEXTS[code]
        assert catalog.get(text, "").strip(), f"{lang} has no text for {code}: {text!r}"


def raised(action: object) -> YatzyError:
    with pytest.raises(YatzyError) as caught:
        action()  # type: ignore[operator]
    return caught.value


YATZY = yatzy.ruleset("yatzy")
#: Errors of the codes this work added, raised the way a caller meets them.
ERRORS = [
    lambda: yatzy.new_game(YATZY, None),  # type: ignore[arg-type]
    lambda: yatzy.new_game(YATZY, [5]),  # type: ignore[list-item]
    lambda: yatzy.new_game(YATZY, [" "]),
    lambda: yatzy.new_game(YATZY, [" Ann"]),
    lambda: yatzy.new_game(YATZY, ["\ud800bad"]),
    lambda: yatzy.new_game(YATZY, ["A" * 41]),
    lambda: yatzy.new_game(YATZY, ["Ann", "ANN"]),
    lambda: yatzy.new_game(YATZY, ["Ann"], seed=10**5000),
    lambda: yatzy.new_game(YATZY, ["Ann"], first_player="age"),
    lambda: yatzy.new_game(YATZY, ["A", "B"], seed=1, first_player="roll", roll_off_dice=5),
    lambda: yatzy.new_game(YATZY, ["A"], seed=1, roll_off_dice=[[1, 2, 3, 4, 5]]),
    lambda: yatzy.new_game("yatzy", ["A"]),  # type: ignore[arg-type]
    lambda: yatzy.ruleset("poker"),
    lambda: yatzy.ruleset("yatzy", name="x"),
    lambda: yatzy.ruleset("yatzy", rolls="²"),
    lambda: yatzy.ruleset("yahtzee", yahtzee_bonus="maybe"),
    lambda: YATZY.score("nope", [1, 2, 3, 4, 5]),
    lambda: yatzy.new_game(YATZY, ["A"], seed=1).roll().reroll(7),  # type: ignore[arg-type]
    lambda: yatzy.new_game(YATZY, ["A"], seed=1).roll().reroll([9]),
    lambda: yatzy.new_game(YATZY, ["A"], seed=1).apply("jump"),  # type: ignore[arg-type]
    lambda: yatzy.new_game(YATZY, ["A"], seed=1).scorecard("Bo"),
    lambda: yatzy.Scorecard.parse(YATZY, "ones"),
    lambda: yatzy.Scorecard.parse(YATZY, "ones=3 ones=1"),
    lambda: yatzy.Scorecard.parse(YATZY, "twos=3"),
    lambda: yatzy.Scorecard.parse(yatzy.ruleset("yahtzee"), "yahtzee=50 yahtzee_bonus=9"),
    lambda: yatzy.Scorecard.from_dict(YATZY, {"yahtzee_bonus": -1}),
    lambda: yatzy.Scorecard.parse(None, "ones=3"),  # type: ignore[arg-type]
    lambda: yatzy.Game.from_json("{"),
    lambda: yatzy.Game.from_record({"format": "chess"}),
    lambda: play_match(["optimal"], 2, YATZY),
    lambda: play_match(["optimal", "random"], 3, YATZY),
    lambda: yatzy.strategy(yatzy.ruleset("yatzy", rolls=1)).win_chances(None),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_errors_read_in_every_language(lang: str) -> None:
    t = translator(lang)
    english = translator("en")
    seen: set[str] = set()
    for action in ERRORS:
        error = raised(action)
        assert isinstance(error.code, LAYERS)
        seen.add(error.code)
        text = error_text(t, error)
        assert text and "{" not in text
        # The text of the code, filled in from the error's values: not the English
        # message kept because a value was missing.
        probe = copy.copy(error)
        probe.message = "SENTINEL"
        if "{detail}" in ERROR_TEXTS[error.code]:
            assert error_text(t, probe) != "SENTINEL"
        else:
            assert "SENTINEL" not in error_text(t, probe)
        if lang != "en":
            assert text != error_text(english, error)
    assert len(seen) >= 25


def test_the_app_and_the_terminal_keep_the_core_s_code() -> None:
    assert BadSeats("x", code=ErrorCode.NAME_CONTROL, name="'a'").code == "name_control"
    assert issubclass(BadQuery, YatzyError)
    assert isinstance(raised(lambda: yatzy.Scorecard.parse(YATZY, "x")), RulesError)
    assert isinstance(raised(lambda: yatzy.Game.from_json(None)), RecordError)  # type: ignore[arg-type]
    assert isinstance(raised(lambda: yatzy.new_game(YATZY, [1])), IllegalMove)  # type: ignore[list-item]
