"""Fixtures of the storage tests: every test that takes ``db`` runs twice, on a fresh
SQLite file and on a fresh PostgreSQL database (the server at ``$YATZY_TEST_POSTGRES``,
by default the local one with trust auth). The PostgreSQL database is made for the test
run and dropped after it."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.app.playing import TickingClock
from yatzy.app import GameService
from yatzy.bootstrap import open_service
from yatzy.storage.engine import database_url

POSTGRES = os.environ.get("YATZY_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A new, empty PostgreSQL database for this test run."""
    admin = sa.create_engine(database_url(POSTGRES), isolation_level="AUTOCOMMIT")
    name = f"yatzy_test_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        url = sa.make_url(database_url(POSTGRES)).set(database=name)
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


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
