"""Rows that were not written by the repository (edited by hand, damaged on disk): each
read says the database holds damaged data, with a StorageError, never a raw
JSONDecodeError, ValueError or TypeError."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa

import yatzy
from yatzy.app import SavedGame, Seat, StorageError
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
    "recent": lambda repo: repo.recent(5),
    "stats": lambda repo: repo.stats(),
    "rulesets": lambda repo: repo.rulesets(),
}


@pytest.mark.parametrize(("change", "readers"), [
    ("UPDATE games SET record = 'not json'", ["get", "recent"]),
    ("UPDATE games SET seats = '[1, 2]'", ["get", "recent"]),
    ("UPDATE games SET updated_at = 'yesterday'", ["get", "recent"]),
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
