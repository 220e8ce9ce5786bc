"""Fixtures of the service tests: a service on a fresh SQLite file, with a clock that
ticks one second per reading."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.playing import TickingClock
from tests.services import fresh_sqlite, postgres_url, sql_db  # noqa: F401 (both databases: see sql_db)
from yatzy.app import GameService
from yatzy.bootstrap import open_service


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return fresh_sqlite(tmp_path / "games.sqlite3")


@pytest.fixture
def service(db: Path) -> Iterator[GameService]:
    with open_service(db, clock=TickingClock()) as service:
        yield service
