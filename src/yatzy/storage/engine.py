"""Opening a database: SQLite files (WAL, busy timeout, foreign keys) or any SQLAlchemy
URL.

>>> database_url("games.sqlite3")
'sqlite:///games.sqlite3'
>>> database_url("postgresql://postgres@localhost/test")
'postgresql+psycopg://postgres@localhost/test'
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from pathlib import Path
from typing import Any
from urllib.request import pathname2url

import orjson
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


def json_text(value: Any) -> str:
    """``value`` as JSON text, as ``json.dumps`` reads it back: written by orjson (each
    action writes two JSON values, its move and its change, several times faster than
    with the standard library; keys that are not text become text, as ``json.dumps``
    makes them), or by the standard library for what orjson does not write (an integer
    past 64 bits: a seed may be one).

    >>> json_text({"seed": 2**70, 1: [1, 2]}), json_text({"dice": (6, 6)})
    ('{"seed": 1180591620717411303424, "1": [1, 2]}', '{"dice":[6,6]}')
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(value)


def make_engine(db: str | Path) -> sa.Engine:
    """An engine for ``db`` (a path or a URL). A file's folder is created if needed."""
    url = sa.make_url(database_url(db))
    if url.get_backend_name() != "sqlite":
        return sa.create_engine(url, pool_pre_ping=True, json_serializer=json_text)
    if not url.database or url.database == ":memory:":
        # One in-memory database shared by every thread (a UI's workers included).
        engine = sa.create_engine(
            url, poolclass=sa.pool.StaticPool,
            connect_args={"timeout": BUSY_TIMEOUT, "check_same_thread": False},
        )
    else:
        file = Path(url.database).absolute()
        file.parent.mkdir(parents=True, exist_ok=True)
        if not file.exists():
            sqlite3.connect(file).close()  # created here once, and never again
        engine = sa.create_engine(url, connect_args={"timeout": BUSY_TIMEOUT})
        _keep_to_the_file(engine, file)
    sa.event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _identity(file: Path) -> tuple[int, int] | None:
    """Which file is at ``file`` now (device and inode), or ``None`` when none is."""
    try:
        found = os.stat(file)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _keep_to_the_file(engine: sa.Engine, file: Path) -> None:
    """Make ``engine`` use the database file at ``file`` and no other.

    A connection keeps the file it opened, so a file deleted (or replaced) while the
    program runs would take every write and lose it all when the program stops. So a
    connection is handed out only while the file it opened is still at ``file``; else
    it is dropped and a new one opens what is there now. Connections open the file
    only to read and write it (never to create it): with no file there, opening fails,
    which the store reports as its failure (:class:`~yatzy.app.errors.StorageError`),
    until the file is back.
    """
    uri = "file:" + pathname2url(str(file)) + "?mode=rw"

    def connect(dialect: Any, record: Any, cargs: list[Any], cparams: dict[str, Any]) -> None:
        cargs[:] = [uri]
        cparams["uri"] = True

    def opened(dbapi_connection: Any, record: Any) -> None:
        record.info["file"] = _identity(file)

    def checkout(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        if record.info.get("file") is None or _identity(file) != record.info["file"]:
            raise sa.exc.DisconnectionError(f"the database file {file} is gone or replaced")

    sa.event.listen(engine, "do_connect", connect)
    sa.event.listen(engine, "connect", opened)
    sa.event.listen(engine, "checkout", checkout)
