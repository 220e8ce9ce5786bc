"""The Alembic migrations: they build exactly the schema of the tables module, run
again as a no-op, go down and up, and refuse a database from a newer program."""

from __future__ import annotations

import io
import sqlite3
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from yatzy.app import StorageError
from yatzy.bootstrap import open_service
from yatzy.storage import head_revision, make_engine, upgrade
from yatzy.storage.migrate import MIGRATIONS, alembic_config, current_revision
from yatzy.storage.tables import metadata


def _diff(engine: sa.Engine) -> list[object]:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, metadata))


def test_migrations_build_the_schema_of_the_models(db: str | Path) -> None:
    engine = make_engine(db)
    upgrade(engine)
    assert _diff(engine) == []
    with engine.connect() as connection:
        assert current_revision(connection) == head_revision()
        names = set(sa.inspect(connection).get_table_names())
    assert names == {"games", "results", "seat_keys", "changes", "alembic_version"}
    engine.dispose()


def test_alembic_check_finds_nothing_to_generate(db: str | Path) -> None:
    engine = make_engine(db)
    upgrade(engine)
    with engine.begin() as connection:
        command.check(alembic_config(connection))  # raises when models and migrations differ
    engine.dispose()


def test_upgrade_twice_is_a_no_op_and_keeps_data(db: str | Path) -> None:
    import yatzy

    with open_service(db) as service:
        saved = service.create(yatzy.ruleset("yatzy"), ["Ann"], seed=1)
    with open_service(db) as service:
        assert service.load(saved.id) == saved


def test_down_and_up_again(db: str | Path) -> None:
    engine = make_engine(db)
    upgrade(engine)
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "base")
    with engine.connect() as connection:
        assert set(sa.inspect(connection).get_table_names()) <= {"alembic_version"}
        assert current_revision(connection) is None
    upgrade(engine)
    assert _diff(engine) == []
    engine.dispose()


def test_a_newer_schema_is_refused(db: str | Path) -> None:
    engine = make_engine(db)
    upgrade(engine)
    with engine.begin() as connection:
        connection.exec_driver_sql("UPDATE alembic_version SET version_num = 'fffffff'")
    with pytest.raises(StorageError, match="newer version"):
        upgrade(engine)
    engine.dispose()


def test_migrations_ship_inside_the_package() -> None:
    assert (MIGRATIONS / "env.py").is_file() and (MIGRATIONS / "script.py.mako").is_file()
    scripts = sorted(p.name for p in (MIGRATIONS / "versions").glob("r*.py"))
    assert scripts[0] == "r0001_initial.py"
    assert scripts[-1] == "r0005_changes.py"
    assert head_revision() == "0005"


def test_programs_opening_a_new_database_at_once(db: str | Path) -> None:
    """Four programs open the same new database at the same moment: one migrates, the
    others wait for it and find the schema done."""
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def open_it() -> None:
        barrier.wait()
        try:
            open_service(db).close()
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_it, daemon=True) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a migration hung"
    assert errors == []
    engine = make_engine(db)
    assert _diff(engine) == []
    engine.dispose()


def test_the_developers_way(tmp_path: Path) -> None:
    """Alembic driven by a URL, as docs/storage.md shows, online and as SQL."""
    config = alembic_config()
    config.set_main_option("sqlalchemy.url", f"sqlite:///{tmp_path / 'dev.sqlite3'}")
    command.upgrade(config, "head")
    command.check(config)
    buffer = io.StringIO()
    config.output_buffer = buffer
    command.upgrade(config, "head", sql=True)  # offline: the SQL a DBA would run
    assert "CREATE TABLE games" in buffer.getvalue()


def test_a_locked_new_database_is_tried_again(tmp_path: Path) -> None:
    """When SQLite refuses at once (its busy wait is short here), upgrade tries again."""
    path = tmp_path / "games.sqlite3"
    blocker = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    blocker.execute("BEGIN EXCLUSIVE")
    timer = threading.Timer(0.3, lambda: blocker.execute("COMMIT"))
    timer.start()
    engine = sa.create_engine(f"sqlite:///{path}", connect_args={"timeout": 0.01})
    try:
        upgrade(engine, attempts=10)
    finally:
        timer.join()
        blocker.close()
    assert _diff(engine) == []
    engine.dispose()


def test_other_failures_are_not_tried_again(tmp_path: Path) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path}")  # a folder
    with pytest.raises(sa.exc.OperationalError, match="unable to open"):
        upgrade(engine, attempts=10)


def test_0002_numbers_the_writes_of_games_saved_before_it(db: str | Path) -> None:
    import yatzy

    with open_service(db) as service:
        saved = service.create(yatzy.ruleset("yatzy"), ["Ann"], seed=1)
        saved = service.apply(saved.id, yatzy.Roll())
        saved = service.apply(saved.id, yatzy.Score("chance"))
    engine = make_engine(db)
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0001")
        assert "version" not in {c["name"] for c in sa.inspect(connection).get_columns("games")}
    upgrade(engine)
    with engine.connect() as connection:
        version = connection.scalar(sa.text("SELECT version FROM games"))
    engine.dispose()
    assert version == saved.version == 3
    with open_service(db) as service:
        assert service.apply(saved.id, yatzy.Roll()).version == 4


def test_0003_keeps_numeric_seeds_and_stores_secret_ones(db: str | Path) -> None:
    import yatzy

    engine = make_engine(db)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0002")
    engine.dispose()
    with open_service(db) as service:  # migrates the rest of the way
        numeric = service.create(yatzy.ruleset("yatzy"), ["Ann"], seed=2**53 - 1)
        secret = service.create(yatzy.ruleset("yatzy"), ["Bo"])
        secret = service.apply(secret.id, yatzy.Roll())
    assert isinstance(secret.game.seed, str) and len(secret.game.seed) == 64
    engine = make_engine(db)
    with engine.connect() as connection:
        seeds = dict(connection.execute(sa.text("SELECT id, seed FROM games")).all())
    engine.dispose()
    assert seeds == {numeric.id: str(2**53 - 1), secret.id: secret.game.seed}
    with open_service(db) as service:
        assert service.load(secret.id).game == secret.game
        assert service.load(numeric.id).game.seed == 2**53 - 1
