"""The servers some tests need beside the project's own: PostgreSQL and Redis.

- PostgreSQL at ``$YATZY_TEST_POSTGRES`` (by default the local one, trust auth);
- Redis at ``$YATZY_TEST_REDIS`` (``redis://127.0.0.1:6379/0``, say).

A test that needs one is skipped, with the reason, when its variable is not set and
(PostgreSQL only) the default server does not answer; when the variable is set, the
server must answer, else the test fails. CI (``.ci/run``) sets both, so it never skips
them.
"""

from __future__ import annotations

import functools
import os
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa

from yatzy.storage.engine import database_url

POSTGRES_ENV, REDIS_ENV = "YATZY_TEST_POSTGRES", "YATZY_TEST_REDIS"
POSTGRES = os.environ.get(POSTGRES_ENV, "postgresql://postgres@127.0.0.1:5432/test")


def _postgres_admin() -> sa.Engine:
    admin = sa.create_engine(database_url(POSTGRES), isolation_level="AUTOCOMMIT",
                             connect_args={"connect_timeout": 5})
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql("SELECT 1")
    except sa.exc.OperationalError as exc:
        admin.dispose()
        if os.environ.get(POSTGRES_ENV):
            raise AssertionError(f"{POSTGRES_ENV} is set but PostgreSQL does not answer: "
                                 f"{exc.orig}") from exc
        pytest.skip(f"PostgreSQL does not answer at {POSTGRES} (set {POSTGRES_ENV})")
    return admin


@contextmanager
def postgres_database() -> Iterator[str]:
    """A new, empty PostgreSQL database, dropped afterwards: its URL."""
    admin = _postgres_admin()
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


def postgres_admin_sql(sql: str) -> None:
    """Run ``sql`` on the PostgreSQL server's maintenance database."""
    admin = _postgres_admin()
    try:
        with admin.connect() as connection:
            connection.exec_driver_sql(sql)
    finally:
        admin.dispose()


def redis_url() -> str:
    """``$YATZY_TEST_REDIS``, once Redis answers there; skips the test when it is not
    set."""
    url = os.environ.get(REDIS_ENV)
    if not url:
        pytest.skip(f"Redis tests need {REDIS_ENV} (redis://127.0.0.1:6379/0, say)")
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
    try:
        client.ping()
    except redis.RedisError as exc:
        raise AssertionError(f"{REDIS_ENV} is set but Redis does not answer: {exc}") from exc
    finally:
        client.close()
    return url


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A scratch PostgreSQL database for a test module (see :func:`postgres_database`)."""
    with postgres_database() as url:
        yield url


@functools.cache
def _migrated_sqlite() -> bytes:
    """The file of a new game database, once the service has migrated it (once for a
    test process)."""
    from yatzy.bootstrap import open_service

    path = Path(tempfile.mkdtemp(prefix="yatzy-tests-")) / "games.sqlite3"
    open_service(path).close()
    return path.read_bytes()


def fresh_sqlite(path: Path) -> Path:
    """``path``, made a new game database as the service makes one (a copy of one made
    once, to spare each test the migrations' tenth of a second)."""
    path.write_bytes(_migrated_sqlite())
    return path


@pytest.fixture(params=["sqlite", "postgresql"])
def sql_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str | Path]:
    """A game database for one test, on SQLite and on PostgreSQL (emptied afterwards):
    a module imports this fixture with :func:`postgres_url` and names it its ``db``."""
    if request.param == "sqlite":
        yield fresh_sqlite(tmp_path / "games.sqlite3")
        return
    url: str = request.getfixturevalue("postgres_url")
    yield url
    # Emptied, its schema kept (the next test need not migrate it again).
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        tables = [f'"{table}"' for table in sa.inspect(connection).get_table_names()
                  if table != "alembic_version"]
        if tables:
            connection.exec_driver_sql(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE")
    engine.dispose()
