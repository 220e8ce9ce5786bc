"""Players from the --players list."""

from __future__ import annotations

import pytest

from yatzy.app import Seat, UnknownBot
from yatzy.tui.seats import MAX_SEATS, SeatsError, parse_seats

LEVELS = ("random", "greedy")


def test_people_and_computers_in_seat_order() -> None:
    assert parse_seats(" Ann ,Bo, HAL:greedy", LEVELS) == (
        Seat("Ann"), Seat("Bo"), Seat("HAL", "greedy"))


def test_computers_are_named_after_their_level() -> None:
    seats = parse_seats("cpu:greedy,cpu:greedy,:random", LEVELS)
    assert [s.name for s in seats] == ["Greedy", "Greedy 2", "Random"]


@pytest.mark.parametrize(
    ("text", "code"),
    [("", "no_players"), (" , ", "no_players"), ("Ann,Ann", "duplicate_player"),
     ("Ann,ANN", "duplicate_player"), ("Ann,Bo\x00", "name_control"),
     ("Ann," + "B" * 41, "name_too_long"),
     (",".join(f"P{i}" for i in range(MAX_SEATS + 1)), "too_many_players")],
)
def test_bad_lists(text: str, code: str) -> None:
    with pytest.raises(SeatsError) as caught:
        parse_seats(text, LEVELS)
    assert caught.value.code == code


def test_computers_avoid_a_person_s_name_in_any_case() -> None:
    seats = parse_seats("greedy,cpu:greedy", LEVELS)
    assert [s.name for s in seats] == ["greedy", "Greedy 2"]
    later = parse_seats("cpu:greedy,Ｇｒｅｅｄｙ", LEVELS)  # a person named later, full width
    assert [s.name for s in later] == ["Greedy 2", "Ｇｒｅｅｄｙ"]


def test_unknown_level() -> None:
    with pytest.raises(UnknownBot, match="choose from random, greedy"):
        parse_seats("Ann,cpu:genius", LEVELS)
