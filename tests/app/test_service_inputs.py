"""The service refuses arguments of the wrong kind with its own typed errors, before the
store sees a value it could not bind (item 4 of the hardening issue); names are the
core's check, said as ``BadSeats`` / ``BadQuery`` with the core's code."""

from __future__ import annotations

import pytest

import yatzy
from yatzy.app import BadSeats, GameService, Seat
from yatzy.core.errors import ErrorCode

YATZY = yatzy.ruleset("yatzy")
BIG = 10**30


@pytest.mark.parametrize(
    ("seats", "code"),
    [
        (None, ErrorCode.BAD_SEATS),
        (5, ErrorCode.BAD_SEATS),
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
