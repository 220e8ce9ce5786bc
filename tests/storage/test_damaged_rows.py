"""Rows that were not written by the repository (edited by hand, damaged on disk): reading
one game says the database holds damaged data, with a StorageError, never a raw
JSONDecodeError, ValueError or TypeError; a listing marks the damaged game and lists the
others."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa

import yatzy
from yatzy.app import DamagedGame, SavedGame, Seat, StorageError
from yatzy.storage import SqlGameRepository, make_engine, upgrade

WHEN = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[SqlGameRepository]:
    engine = make_engine(tmp_path / "games.sqlite3")
    upgrade(engine)
    repository = SqlGameRepository(engine)
    game = yatzy.new_game(yatzy.ruleset("yatzy", order="in_order"), ["Ann"], seed=1)
    for _ in range(15):
        game = game.roll([1, 2, 3, 4, 5]).score(game.card.open_boxes[0])
    repository.add(SavedGame("g" * 32, game, (Seat("Ann"),), "auto", WHEN, WHEN))
    yield repository
    repository.close()


READERS = {
    "get": lambda repo: repo.get("g" * 32),
    "stats": lambda repo: repo.stats(),
    "rulesets": lambda repo: repo.rulesets(),
}

DAMAGE = [
    "UPDATE games SET record = 'not json'",
    "UPDATE games SET seats = '[1, 2]'",
    "UPDATE games SET seats = 'not json'",
    "UPDATE games SET updated_at = 'yesterday'",
    "UPDATE games SET created_at = 'yesterday', settings = '{'",
]


@pytest.mark.parametrize(("change", "readers"), [
    ("UPDATE games SET record = 'not json'", ["get"]),
    ("UPDATE games SET seats = '[1, 2]'", ["get"]),
    ("UPDATE games SET updated_at = 'yesterday'", ["get"]),
    ("UPDATE games SET options_key = '?'", ["stats", "rulesets"]),
])
def test_a_damaged_row_is_a_storage_error(repo: SqlGameRepository, change: str,
                                          readers: list[str]) -> None:
    with repo.engine.begin() as connection:
        connection.exec_driver_sql(change)
    for reader in readers:
        with pytest.raises(StorageError, match="holds damaged data"):
            READERS[reader](repo)


def test_an_intact_row_reads(repo: SqlGameRepository) -> None:
    saved = repo.get("g" * 32)
    assert saved.finished and repo.recent(5) == [saved]
    assert repo.stats()[0].best == saved.game.card.total > 0
    assert repo.rulesets() == [yatzy.ruleset("yatzy", order="in_order")]
    with repo.engine.connect() as connection:
        assert connection.scalar(sa.text("SELECT count(*) FROM games")) == 1


def _unfinished_game(repo: SqlGameRepository, game_id: str, name: str) -> SavedGame:
    game = yatzy.new_game(yatzy.ruleset("yatzy"), [name], seed=2).roll([1, 2, 3, 4, 5])
    saved = SavedGame(game_id, game, (Seat(name),), "auto", WHEN, WHEN)
    repo.add(saved)
    return saved


@pytest.mark.parametrize("change", [
    *DAMAGE,
    # Valid JSON, but a record no game makes: it no longer replays.
    """UPDATE games SET record = '{"format": 1, "history": [1]}'""",
])
def test_a_listing_marks_a_damaged_game_and_lists_the_others(
        repo: SqlGameRepository, change: str) -> None:
    with repo.engine.begin() as connection:
        connection.exec_driver_sql(change + " WHERE id = '" + "g" * 32 + "'")
    other = _unfinished_game(repo, "h" * 32, "Bo")
    listed = repo.recent(5)
    assert other in listed and len(listed) == 2
    [damaged] = [g for g in listed if isinstance(g, DamagedGame)]
    assert damaged.id == "g" * 32 and damaged.finished and damaged.reason
    assert str(damaged).startswith("damaged: ")
    assert other in repo.recent(5, player="Bo")
    assert all(isinstance(g, DamagedGame) for g in repo.recent(5, player="Zed"))
    assert repo.recent(5, finished=False) == [other] == repo.unfinished()
    # What is stored can still be had, JSON-ready, to export.
    stored = repo.stored("g" * 32)
    assert stored["id"] == "g" * 32 and stored["status"] == "finished"
    json.dumps(stored)
    repo.delete("g" * 32)
    assert repo.recent(5) == [other]


def test_an_unfinished_damaged_game_is_listed_among_the_unfinished(
        repo: SqlGameRepository) -> None:
    damaged = _unfinished_game(repo, "d" * 32, "Cy")
    with repo.engine.begin() as connection:
        connection.exec_driver_sql(
            "UPDATE games SET record = 'not json' WHERE id = '" + damaged.id + "'")
    [listed] = repo.unfinished()
    assert isinstance(listed, DamagedGame)
    assert listed.id == damaged.id and listed.updated_at == WHEN and not listed.finished
    assert "damaged data" in listed.reason
    assert repo.stored(damaged.id)["record"] == "not json"
