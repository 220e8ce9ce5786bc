"""The resource policy: which computers a game may seat, how many, and how many games a
client may start."""

from __future__ import annotations

import pytest

from yatzy.app import Seat
from yatzy.app.errors import UnknownBot
from yatzy.app.policy import GameCounter, SeatsRefused, TablePolicy, TooManyGames

PERSON = Seat("Ann")


def cpu(level: str, n: int = 1) -> Seat:
    return Seat(f"cpu{n}", bot=level)


def never(level: str) -> bool:
    return False


def always(level: str) -> bool:
    return True


def test_the_costly_level_is_not_offered_by_default() -> None:
    policy = TablePolicy()
    assert "winner" not in policy.levels() and "optimal" in policy.levels()
    with pytest.raises(SeatsRefused) as refused:
        policy.check_seats([PERSON, cpu("winner")], ready=always)
    assert refused.value.code == "level_not_offered"
    assert "optimal" in refused.value.params["levels"]


def test_a_costly_level_only_once_its_table_is_ready() -> None:
    policy = TablePolicy(costly=True)
    assert "winner" in policy.levels()
    with pytest.raises(SeatsRefused) as refused:
        policy.check_seats([PERSON, cpu("winner")], ready=never)
    assert refused.value.code == "level_not_ready"
    policy.check_seats([PERSON, cpu("winner")], ready=always)
    policy.check_seats([PERSON, cpu("hard")], ready=never)  # cheap levels need no table


def test_an_unknown_level_is_the_bots_refusal() -> None:
    with pytest.raises(UnknownBot):
        TablePolicy().check_seats([PERSON, cpu("god")], ready=always)


def test_computers_are_counted_and_a_person_is_needed() -> None:
    policy = TablePolicy(max_computers=2)
    policy.check_seats([PERSON, cpu("easy", 1), cpu("hard", 2)], ready=always)
    with pytest.raises(SeatsRefused) as refused:
        policy.check_seats([PERSON, *(cpu("easy", n) for n in range(3))], ready=always)
    assert refused.value.code == "too_many_computers" and refused.value.params["most"] == 2
    with pytest.raises(SeatsRefused) as refused:
        policy.check_seats([cpu("easy")], ready=always)
    assert refused.value.code == "person_needed"
    TablePolicy(person_needed=False).check_seats([cpu("easy")], ready=always)


def test_games_per_client_in_a_sliding_window() -> None:
    now = [0.0]
    counter = GameCounter(TablePolicy(games_per_window=2, window=60), clock=lambda: now[0])
    counter.admit("a")
    counter.admit("a")
    counter.admit("b")  # another client has its own count
    with pytest.raises(TooManyGames) as refused:
        counter.admit("a")
    assert refused.value.code == "too_many_games" and 1 <= refused.value.retry_after <= 61
    now[0] = 60.0
    counter.admit("a")
    GameCounter(TablePolicy(games_per_window=0)).admit("a")  # no limit
