"""The players, settings and daily attempts in the store, on SQLite and PostgreSQL: the
first writer of a setting wins, names are unique by their key, one ranked attempt per
player, ruleset and day."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

import yatzy
from yatzy.app import GameService, Seat
from yatzy.app.errors import DailyPlayed, NameTaken
from yatzy.app.saved import DailyEntry
from yatzy.storage.repository import SqlGameRepository

WHEN = datetime(2026, 12, 2, 10, tzinfo=UTC)
DAY = date(2026, 12, 2)


def test_the_first_setting_written_holds(repo: SqlGameRepository) -> None:
    assert repo.setting("daily_secret", "first") == "first"
    assert repo.setting("daily_secret", "second") == "first"


def test_players_names_and_keys(repo: SqlGameRepository) -> None:
    assert repo.player_of_key("a" * 64) is None
    ann = repo.player_of_key("a" * 64, create_at=WHEN)
    assert ann is not None and ann.name is None
    assert repo.player_of_key("a" * 64, create_at=WHEN) == ann  # the same player again
    bo = repo.player_of_key("b" * 64, create_at=WHEN)
    assert bo is not None and bo.id != ann.id
    repo.rename_player(ann.id, "Ann", "ann", WHEN)
    repo.rename_player(ann.id, "ANN", "ann", WHEN)  # one's own name in another case
    with pytest.raises(NameTaken):
        repo.rename_player(bo.id, "ann", "ann", WHEN)
    assert repo.player_named("ann") == type(ann)(ann.id, "ANN", ann.created_at)
    assert repo.player_named("bo") is None


def test_daily_attempts_and_pars(service: GameService, repo: SqlGameRepository) -> None:
    ann = repo.player_of_key("a" * 64, create_at=WHEN)
    assert ann is not None
    saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann")], seed="ab" * 32)
    entry = DailyEntry("yatzy", DAY, ann.id, None, saved.id, WHEN)
    repo.add_daily_entry(entry)
    with pytest.raises(DailyPlayed):
        repo.add_daily_entry(entry)
    assert repo.daily_counts(DAY) == {"yatzy": 1}
    assert repo.daily_counts(DAY + timedelta(days=1)) == {}
    [found] = repo.daily_entries("yatzy", DAY)
    assert found == entry
    done = DailyEntry("yatzy", DAY, ann.id, None, saved.id, WHEN, 250, 1.5, WHEN)
    repo.finish_daily_entry(done)
    assert repo.player_entries(ann.id) == [done]
    assert repo.daily_par("yatzy", DAY) is None
    repo.set_daily_par("yatzy", DAY, 248)
    repo.set_daily_par("yatzy", DAY, 248)
    assert repo.daily_par("yatzy", DAY) == 248
    service.delete(saved.id)  # the attempt goes with its game
    assert repo.daily_entries("yatzy", DAY) == []
