"""The composition root: builds a ready :class:`~yatzy.app.GameService` on a database.

>>> service = open_service("sqlite://")   # in memory; a path or URL in real use
>>> service.unfinished()
[]
>>> service.close()
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs
import sqlalchemy as sa

from yatzy.app.errors import StorageError
from yatzy.app.service import CACHE_SIZE, Clock, GameService, utc_now
from yatzy.storage.engine import database_url, is_url, make_engine
from yatzy.storage.migrate import upgrade
from yatzy.storage.repository import SqlGameRepository

#: The environment variable that names the database (a path or an SQLAlchemy URL).
DB_ENV = "YATZY_DB"
DB_FILENAME = "yatzy.sqlite3"


def default_db_path() -> Path:
    """Where the game database lives when none is named: ``$YATZY_DB`` if it is a path,
    else ``yatzy.sqlite3`` in the user's data folder (``~/.local/share/yatzy`` on
    Linux)."""
    env = os.environ.get(DB_ENV)
    if env and not is_url(env):
        return Path(env).expanduser()
    return Path(platformdirs.user_data_dir("yatzy")) / DB_FILENAME


def default_db() -> str | Path:
    """The database to open when none is named: ``$YATZY_DB`` (a path or a URL), else
    :func:`default_db_path`."""
    return os.environ.get(DB_ENV) or default_db_path()


def db_exists(db: str | Path | None) -> bool:
    """False when ``db`` (default: :func:`default_db`) is a database file that is not
    there yet; a URL counts as there. For commands that only read and must not create
    a database."""
    target = default_db() if db is None else db
    if not is_url(target):
        return Path(target).expanduser().exists()
    url = sa.make_url(str(target))
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        return Path(url.database).expanduser().exists()
    return True


def describe_db(db: str | Path | None) -> str:
    """``db`` as a player should see it: a file path, or a URL without its password."""
    target = default_db() if db is None else db
    if not is_url(target):
        return str(Path(target).expanduser())
    return sa.make_url(database_url(target)).render_as_string(hide_password=True)


def open_service(db: str | Path | None = None, *, clock: Clock = utc_now,
                 cache_size: int = CACHE_SIZE) -> GameService:
    """A game service on ``db``: an SQLite file path (created if missing), an
    SQLAlchemy URL (``sqlite:///…``, ``postgresql://…``) or ``None`` for
    :func:`default_db`. The schema is migrated to the newest version first.
    ``cache_size`` is how many games in play the service keeps in memory.

    Raises :class:`~yatzy.app.errors.StorageError` when the database cannot be opened.
    """
    target = default_db() if db is None else db
    try:
        engine = make_engine(target)
        upgrade(engine)
    except (sa.exc.DBAPIError, sa.exc.ArgumentError, OSError, ImportError) as exc:
        # ImportError: the URL names a database whose driver is not installed
        # (PostgreSQL needs the ``postgres`` extra); ArgumentError: not a database URL.
        reason = getattr(exc, "orig", None) or exc
        raise StorageError(
            f"Cannot open the game database {describe_db(target)}: {reason}",
            db=describe_db(target), reason=str(reason),
        ) from exc
    return GameService(SqlGameRepository(engine), clock=clock, cache_size=cache_size)
