"""Bringing a database's schema up to date with the Alembic migrations shipped in the
package (``migrations/``), from code: no ``alembic.ini`` and no command line needed.

Developers make a new migration with ``alembic`` pointed at this folder; see
``docs/storage.md``.
"""

from __future__ import annotations

import functools
import time
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from yatzy.app.errors import StorageError

#: The folder of the migration scripts.
MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config(connection: sa.Connection | None = None) -> Config:
    """An Alembic configuration for the package's migrations, using ``connection``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    # New migrations are named rNNNN_slug.py: importable module names.
    config.set_main_option("file_template", "r%%(rev)s_%%(slug)s")
    config.attributes["connection"] = connection
    return config


@functools.cache
def _scripts() -> tuple[str, frozenset[str]]:
    """The newest migration's revision id and every revision id: the scripts are read
    once per process (they do not change while it runs)."""
    scripts = ScriptDirectory.from_config(alembic_config())
    head = scripts.get_current_head()
    assert head is not None
    return head, frozenset(s.revision for s in scripts.walk_revisions())


def head_revision() -> str:
    """The newest migration's revision id."""
    return _scripts()[0]


def current_revision(connection: sa.Connection) -> str | None:
    """The revision the database is at (``None``: never migrated)."""
    return MigrationContext.configure(connection).get_current_revision()


#: Key of the PostgreSQL advisory lock that lets one process migrate at a time.
_PG_LOCK = 0x7A7A7901


def _lock_for_migration(connection: sa.Connection) -> None:
    """Hold the database's write lock until the migration commits, so that two programs
    opening a new database at once migrate it one after the other."""
    if connection.dialect.name == "sqlite":
        connection.exec_driver_sql("BEGIN IMMEDIATE")
    elif connection.dialect.name == "postgresql":
        connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK})


def upgrade(engine: sa.Engine, *, attempts: int = 3) -> None:
    """Migrate the database to the newest revision (nothing to do when it is there),
    in one transaction.

    Raises :class:`~yatzy.app.errors.StorageError` for a database made by a newer
    version of this program. A new SQLite file opened by several programs at once can
    refuse one of them at once rather than make it wait (SQLite does so to break a
    deadlock, say while the file switches to WAL); that one tries again.
    """
    for attempt in range(1, attempts + 1):
        try:
            _upgrade(engine)
            return
        except sa.exc.OperationalError as exc:
            if attempt == attempts or "locked" not in str(exc.orig):
                raise
            time.sleep(0.1 * attempt)


def _upgrade(engine: sa.Engine) -> None:
    head = head_revision()
    with engine.connect() as connection:
        if current_revision(connection) == head:
            return
    with engine.begin() as connection:
        _lock_for_migration(connection)
        current = current_revision(connection)
        if current == head:
            return  # another program migrated it while this one waited
        if current is not None and current not in _scripts()[1]:
            raise StorageError(
                f"The game database is at schema {current}, which this version of yatzy"
                " does not know: it was made by a newer version",
                revision=current,
            )
        command.upgrade(alembic_config(connection), "head")
