"""Fixtures of the storage tests: every test that takes ``db`` runs twice, on a fresh
SQLite file and on a fresh PostgreSQL database (the server at ``$YATZY_TEST_POSTGRES``,
by default the local one with trust auth). The PostgreSQL database is made for the test
run and dropped after it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.app.playing import TickingClock
from tests.services import postgres_database
from yatzy.app import GameService
from yatzy.bootstrap import open_service
from yatzy.storage import make_engine, upgrade
from yatzy.storage.repository import SqlGameRepository


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A new, empty PostgreSQL database for this test run."""
    with postgres_database() as url:
        yield url


def _empty(url: str) -> None:
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        for table in sa.inspect(connection).get_table_names():  # every table there is
            connection.exec_driver_sql(f'DROP TABLE IF EXISTS "{table}" CASCADE')
    engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str | Path]:
    """A database that has never been opened: a file path or a PostgreSQL URL."""
    if request.param == "sqlite":
        yield tmp_path / "games.sqlite3"
        return
    url: str = request.getfixturevalue("postgres_url")
    _empty(url)
    yield url
    _empty(url)


@pytest.fixture
def service(db: str | Path) -> Iterator[GameService]:
    with open_service(db, clock=TickingClock()) as service:
        yield service


@pytest.fixture
def repo(db: str | Path) -> Iterator[SqlGameRepository]:
    """A repository on ``db``, its schema migrated."""
    engine = make_engine(db)
    upgrade(engine)
    repository = SqlGameRepository(engine)
    yield repository
    repository.close()
