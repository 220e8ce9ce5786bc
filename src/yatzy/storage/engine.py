"""Opening a database: SQLite files (WAL, busy timeout, foreign keys) or any SQLAlchemy
URL.

>>> database_url("games.sqlite3")
'sqlite:///games.sqlite3'
>>> database_url("postgresql://postgres@localhost/test")
'postgresql+psycopg://postgres@localhost/test'
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import sqlalchemy as sa

#: Seconds a writer waits for another process's write to finish before giving up.
BUSY_TIMEOUT = 10.0

_URL = re.compile(r"^[a-z][a-z0-9+]*://", re.IGNORECASE)


def is_url(db: str | Path) -> bool:
    """True when ``db`` is an SQLAlchemy URL rather than a file path."""
    return isinstance(db, str) and bool(_URL.match(db))


def database_url(db: str | Path) -> str:
    """The SQLAlchemy URL for ``db``: a file path becomes an SQLite URL; a bare
    ``postgresql://`` URL gets the psycopg (3) driver."""
    if not is_url(db):
        return f"sqlite:///{Path(db).expanduser()}"
    text = str(db)
    if text.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + text.split("://", 1)[1]
    return text


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        # WAL: readers never wait for the writer, and the writer never waits for readers.
        cursor.execute("PRAGMA journal_mode=WAL")
        # Every committed action survives a crash of the program or of the machine.
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.execute("PRAGMA foreign_keys=ON")
    finally:
        cursor.close()


def make_engine(db: str | Path) -> sa.Engine:
    """An engine for ``db`` (a path or a URL). A file's folder is created if needed."""
    url = sa.make_url(database_url(db))
    if url.get_backend_name() != "sqlite":
        return sa.create_engine(url, pool_pre_ping=True)
    if not url.database or url.database == ":memory:":
        # One in-memory database shared by every thread (a UI's workers included).
        engine = sa.create_engine(
            url, poolclass=sa.pool.StaticPool,
            connect_args={"timeout": BUSY_TIMEOUT, "check_same_thread": False},
        )
    else:
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"timeout": BUSY_TIMEOUT})
    sa.event.listen(engine, "connect", _sqlite_pragmas)
    return engine
