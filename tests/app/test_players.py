"""Players and the daily challenge in the service: the seed rule, ranks, streaks, one
ranked attempt a day, and the seal on a day's seed."""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import yatzy
from yatzy.app.errors import BadDay, DailyPlayed, DayNotOpen, NameTaken
from yatzy.app.players import check_day, daily_seed, ranks, streak
from yatzy.app.saved import DailyEntry
from yatzy.bootstrap import open_service
from yatzy.core.errors import InvalidName
from yatzy.core.seeded import check_seed

KEY, OTHER = "k" * 22, "o" * 22


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 2, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@given(st.lists(st.integers(-5, 5), max_size=12))
def test_ranks_are_competition_ranks(values: list[int]) -> None:
    found = ranks([float(v) for v in values])
    for value, rank in zip(values, found, strict=True):
        assert rank == 1 + sum(1 for v in values if v < value)
    if values:
        assert min(found) == 1


@given(st.sets(st.integers(0, 40)), st.integers(0, 40))
def test_a_streak_is_the_run_of_days_up_to_today_or_yesterday(days: set[int],
                                                              today: int) -> None:
    start = date(2026, 1, 1)
    played = {start + timedelta(days=d) for d in days}
    end = start + timedelta(days=today)
    found = streak(played, today=end)
    last = end if end in played else end - timedelta(days=1)
    assert all(last - timedelta(days=i) in played for i in range(found))
    assert last - timedelta(days=found) not in played


@given(st.dates(), st.sampled_from(["yatzy", "yahtzee", "maxi_yatzy"]))
def test_the_daily_seed_is_an_hmac_and_a_secret_seed(day: date, rules: str) -> None:
    secret = "ab" * 32
    seed = daily_seed(secret, rules, day)
    assert check_seed(seed) == seed
    assert seed == hmac.new(secret.encode(), f"{rules}|{day.isoformat()}".encode(),
                            hashlib.sha256).hexdigest()
    assert check_day(day.isoformat()) == day


@pytest.mark.parametrize("bad", ["", "2026-1-01", "2026-02-29", "20261201", None, 3,
                                 "2026-12-01\n", "٢٠٢٦-١٢-٠١"])
def test_bad_days(bad: object) -> None:
    with pytest.raises(BadDay):
        check_day(bad)


def test_the_service(tmp_path: Path) -> None:
    clock = Clock()
    with open_service(tmp_path / "p.sqlite3", clock=clock) as service:
        players = service.players
        saved = players.play("yatzy", KEY)
        assert players.sealed(saved.game)  # today's seed: kept out of records
        with pytest.raises(DailyPlayed):
            players.play("yatzy", KEY)
        with pytest.raises(DayNotOpen):
            players.play("yatzy", KEY, day="2026-12-03")
        # A second entry that slips past the first check is refused by the store.
        me = players.me(KEY)
        with pytest.raises(DailyPlayed):
            service._repo.add_daily_entry(DailyEntry(  # type: ignore[attr-defined]
                "yatzy", date(2026, 12, 2), me.id, None, saved.id, clock.now))
        players.set_name(KEY, "Ann")
        with pytest.raises(NameTaken):
            players.set_name(OTHER, "ＡＮＮ")
        with pytest.raises(InvalidName):
            players.set_name(OTHER, "\x00")
        assert players.me(OTHER).name is None
        clock.now += timedelta(days=1)
        assert not players.sealed(saved.game)  # the day is over
        old = players.play("yatzy", KEY, day="2026-12-02")  # unranked, as often as asked
        assert old.game.seed == saved.game.seed
        assert players.results("yatzy", "2026-12-02").challenge.players == 1
        assert players.results("yatzy", "2026-12-02").challenge.seed == saved.game.seed
        assert not players.sealed(yatzy.new_game(yatzy.ruleset("yatzy"), ["A"], seed=1))
