"""The service refuses arguments of the wrong kind with its own typed errors, before the
store sees a value it could not bind (item 4 of the hardening issue); names are the
core's check, said as ``BadSeats`` / ``BadQuery`` with the core's code."""

from __future__ import annotations

from typing import Any

import pytest

import yatzy
from yatzy.app import BadQuery, BadSeats, GameNotFound, GameService, Seat
from yatzy.app.codes import AppCode
from yatzy.core.actions import Roll
from yatzy.core.errors import ErrorCode, YatzyError

YATZY = yatzy.ruleset("yatzy")
BIG = 10**30


@pytest.mark.parametrize(
    ("seats", "code"),
    [
        (None, AppCode.BAD_SEATS),
        (5, AppCode.BAD_SEATS),
        (["Ann", "ann"], ErrorCode.DUPLICATE_PLAYER),
        (["\ud800bad"], ErrorCode.NAME_CONTROL),
        (["Ann\x00"], ErrorCode.NAME_CONTROL),
        ([Seat("")], ErrorCode.NAME_EMPTY),
        ([Seat(5)], ErrorCode.BAD_NAME),  # type: ignore[arg-type]
        (["A" * 41], ErrorCode.NAME_TOO_LONG),
        ([], ErrorCode.NO_PLAYERS),
    ],
)
def test_create_refuses_seats_with_the_core_s_code(
    service: GameService, seats: object, code: ErrorCode
) -> None:
    with pytest.raises(BadSeats) as caught:
        service.create(YATZY, seats)  # type: ignore[arg-type]
    assert caught.value.code == code
    assert service.unfinished() == []


@pytest.mark.parametrize(
    ("call", "args", "kwargs"),
    [
        ("recent", (BIG,), {}),
        ("recent", ("5",), {}),
        ("recent", (True,), {}),
        ("recent", (), {"finished": "no"}),
        ("recent", (), {"player": 5}),
        ("recent", (), {"player": "\ud800"}),
        ("recent", (), {"player": "a\x00b"}),
        ("stats", (5,), {}),
        ("stats", ("poker",), {}),
        ("stats", (None, "\ud800"), {}),
        ("scores", ([],), {}),
        ("rulesets", (b"yatzy",), {}),
        ("best", ("yatzy", "Ann"), {}),
        ("best", (YATZY, None), {}),
        ("best", (YATZY, "Ann"), {"excluding": 5}),
        ("load", (5,), {}),
        ("load", (["x"],), {}),
        ("find", (None,), {}),
        ("delete", ({},), {}),
        ("apply", ([], Roll()), {}),
        ("apply", ("x", Roll()), {"expected_steps": "1"}),
        ("undo", (None,), {}),
    ],
)
def test_bad_arguments_are_the_service_s_errors(
    service: GameService, call: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    service.create(YATZY, ["Ann"], seed=1)
    with pytest.raises(BadQuery) as caught:
        getattr(service, call)(*args, **kwargs)
    assert caught.value.message


@pytest.mark.parametrize("game_id", ["\ud800", "a\x00b", "x" * 1000, "ÿ"])
def test_ids_no_game_can_have_are_not_found(service: GameService, game_id: str) -> None:
    for call in (service.load, service.find, service.delete):
        with pytest.raises(GameNotFound):
            call(game_id)
    with pytest.raises(GameNotFound):
        service.apply(game_id, Roll())


def test_a_huge_expected_version_is_shown_short(service: GameService) -> None:
    saved = service.create(YATZY, ["Ann"], seed=1)
    with pytest.raises(YatzyError) as caught:
        service.apply(saved.id, Roll(), expected_steps=10**5000)
    assert len(caught.value.message) < 300


def test_filters_that_can_match_still_work(service: GameService) -> None:
    saved = service.create(YATZY, ["Ann"], seed=1)
    assert [g.id for g in service.recent(2**31 - 1, player="Ann")] == [saved.id]
    assert service.recent(-(10**30)) == []
    assert service.stats("YATZY") == [] and service.rulesets("yahtzee") == []
    assert service.scores(YATZY, "Ann") == []
