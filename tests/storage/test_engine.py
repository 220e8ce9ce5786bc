"""Opening databases: URLs, SQLite settings (WAL, busy timeout, foreign keys), and a
second process reading while the game writes."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

import yatzy
from yatzy.bootstrap import open_service
from yatzy.core.actions import Roll
from yatzy.storage.engine import BUSY_TIMEOUT, database_url, is_url, make_engine


@pytest.mark.parametrize(
    ("db", "url"),
    [
        ("games.sqlite3", "sqlite:///games.sqlite3"),
        (Path("/data/y.db"), "sqlite:////data/y.db"),
        ("sqlite:///x.db", "sqlite:///x.db"),
        ("sqlite://", "sqlite://"),
        ("postgresql://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgres://u@h/db", "postgresql+psycopg://u@h/db"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
    ],
)
def test_database_url(db: str | Path, url: str) -> None:
    assert database_url(db) == url


def test_is_url() -> None:
    assert is_url("sqlite://") and is_url("postgresql://x")
    assert not is_url("games.sqlite3") and not is_url(Path("sqlite:")) and not is_url("C:\\x")


def test_sqlite_settings(tmp_path: Path) -> None:
    engine = make_engine(tmp_path / "new" / "folder" / "games.sqlite3")
    with engine.connect() as connection:
        pragma = {name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()
                  for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout")}
    engine.dispose()
    assert pragma == {"journal_mode": "wal", "synchronous": 2, "foreign_keys": 1,
                      "busy_timeout": int(BUSY_TIMEOUT * 1000)}
    assert (tmp_path / "new" / "folder" / "games.sqlite3").is_file()


READER = textwrap.dedent(
    """
    import sys, time
    from yatzy.bootstrap import open_service
    service = open_service(sys.argv[1])
    start = time.perf_counter()
    games = service.unfinished()
    print(len(games), games[0].steps, round(time.perf_counter() - start, 3))
    """
)


def test_another_process_reads_while_a_write_is_open(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with open_service(db) as service:
        saved = service.create(yatzy.ruleset("yatzy"), ["Ann"], seed=1)
        service.apply(saved.id, Roll())
    # Hold a write transaction open, as a game in the middle of saving an action would.
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE games SET steps = steps")
    try:
        done = subprocess.run(
            [sys.executable, "-c", READER, str(db)], capture_output=True, text=True,
            timeout=60, check=False, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert done.returncode == 0, done.stderr
    count, steps, seconds = done.stdout.split()
    assert (count, steps) == ("1", "1")
    assert float(seconds) < BUSY_TIMEOUT / 2  # it did not wait for the writer


def test_the_game_writes_while_another_process_reads(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with open_service(db) as service:
        saved = service.create(yatzy.ruleset("yatzy"), ["Ann"], seed=1)
        # Another program in the middle of reading (a long statistics query, say).
        reader = sqlite3.connect(db, isolation_level=None)
        reader.execute("BEGIN")
        assert reader.execute("SELECT steps FROM games").fetchone() == (0,)
        try:
            start = time.monotonic()
            service.apply(saved.id, Roll())  # with a rollback journal this would wait
            assert time.monotonic() - start < BUSY_TIMEOUT / 2
            # The reader keeps its consistent snapshot until it ends its transaction.
            assert reader.execute("SELECT steps FROM games").fetchone() == (0,)
            reader.execute("COMMIT")
            assert reader.execute("SELECT steps FROM games").fetchone() == (1,)
        finally:
            reader.close()


def test_a_writer_waits_for_another_writer(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with open_service(db) as service:
        saved = service.create(yatzy.ruleset("yatzy"), ["Ann"], seed=1)
        blocker = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
        blocker.execute("BEGIN IMMEDIATE")
        released = time.monotonic() + 0.5

        def release() -> None:
            time.sleep(0.5)
            blocker.execute("COMMIT")

        thread = threading.Thread(target=release)
        thread.start()
        try:
            service.apply(saved.id, Roll())  # waits for the lock instead of failing
        finally:
            thread.join()
            blocker.close()
        assert time.monotonic() >= released - 0.05
        assert service.load(saved.id).steps == 1


def test_postgres_engine_has_no_sqlite_settings() -> None:
    engine = make_engine("postgresql://nobody@127.0.0.1:1/none")
    assert engine.dialect.name == "postgresql" and engine.dialect.driver == "psycopg"
    with pytest.raises(sa.exc.OperationalError):
        engine.connect()
    engine.dispose()


def test_an_in_memory_database_is_shared_by_threads() -> None:
    with open_service("sqlite://") as service:
        saved = service.create(yatzy.ruleset("yatzy"), ["Ann"], seed=1)
        seen: list[int] = []
        thread = threading.Thread(
            target=lambda: seen.append(service.apply(saved.id, Roll()).steps))
        thread.start()
        thread.join()
        assert seen == [1] and service.load(saved.id).steps == 1
