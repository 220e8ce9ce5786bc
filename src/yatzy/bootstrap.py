"""The composition root: builds a ready :class:`~yatzy.app.GameService` on a database.

>>> service = open_service("sqlite://")   # in memory; a path or URL in real use
>>> service.unfinished()
[]
>>> service.close()
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import platformdirs
import sqlalchemy as sa

from yatzy.app.errors import StorageError
from yatzy.app.ports import SharedLimits
from yatzy.app.service import CACHE_SIZE, MOVE_CLOCK, Clock, GameService, utc_now
from yatzy.storage.engine import database_url, is_url, make_engine
from yatzy.storage.leases import SqlLeases
from yatzy.storage.migrate import upgrade
from yatzy.storage.repository import SqlGameRepository

#: The environment variable that names the database (a path or an SQLAlchemy URL).
DB_ENV = "YATZY_DB"
#: The environment variable that names the Redis server a web server's change feed
#: goes through (``redis://host:6379/0``); unset, changes go through the database only.
REDIS_ENV = "YATZY_REDIS_URL"
DB_FILENAME = "yatzy.sqlite3"


def expand_user(path: str | Path, *, strict: bool = True) -> Path:
    """The game database's ``path`` with a leading ``~`` or ``~user`` replaced by that
    home folder. When there is no such user (or no home), :class:`StorageError` (there
    is no such folder), or with ``strict=False`` the path as it is (to show it).

    >>> expand_user("~no-such-user-here/x.sqlite3", strict=False)
    PosixPath('~no-such-user-here/x.sqlite3')
    """
    try:
        return Path(path).expanduser()
    except RuntimeError:  # "Could not determine home directory"
        if not strict:
            return Path(path)
        home = Path(path).parts[0]
        raise StorageError(
            f"Cannot open the game database {path}: there is no folder {home}",
            db=str(path), folder=home, reason=f"there is no folder {home}") from None


def default_data_folder() -> Path:
    """The user's data folder for yatzy (``~/.local/share/yatzy`` on Linux): the one
    folder :func:`open_service` creates when it is missing."""
    return Path(platformdirs.user_data_dir("yatzy"))


def default_db_path() -> Path:
    """Where the game database lives when none is named: ``$YATZY_DB`` if it is a path,
    else ``yatzy.sqlite3`` in the user's data folder (``~/.local/share/yatzy`` on
    Linux)."""
    env = os.environ.get(DB_ENV)
    if env and not is_url(env):
        return expand_user(env)
    return default_data_folder() / DB_FILENAME


def default_db() -> str | Path:
    """The database to open when none is named: ``$YATZY_DB`` (a path or a URL), else
    :func:`default_db_path`."""
    return os.environ.get(DB_ENV) or default_db_path()


def db_exists(db: str | Path | None) -> bool:
    """False when ``db`` (default: :func:`default_db`) is a database file that is not
    there yet; a URL counts as there. For commands that only read and must not create
    a database."""
    file = _sqlite_file(default_db() if db is None else db)
    # os.path.exists: a name too long for the system is no file either (no OSError).
    return file is None or os.path.exists(file)


def _sqlite_file(target: str | Path) -> Path | None:
    """The file of the SQLite database ``target`` (a path or a URL); ``None`` for a
    database in memory or on a server."""
    if not is_url(target):
        return expand_user(target)
    url = sa.make_url(str(target))
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        return expand_user(url.database)
    return None


def _check_folder(target: str | Path) -> None:
    """A database file's folder must be there, but for the user's data folder, which
    :func:`~yatzy.storage.engine.make_engine` then creates: a typo in a named path must
    not create a tree of folders."""
    file = _sqlite_file(target)
    if file is None or os.path.isdir(file.parent) or file.parent == default_data_folder():
        return
    raise StorageError(
        f"Cannot open the game database {describe_db(target)}: there is no folder "
        f"{file.parent}", db=describe_db(target), folder=str(file.parent),
        reason=f"there is no folder {file.parent}",
    )


def describe_db(db: str | Path | None) -> str:
    """``db`` as a player should see it: a file path, or a URL without its password."""
    target = default_db() if db is None else db
    if not is_url(target):
        return str(expand_user(target, strict=False))
    return sa.make_url(database_url(target)).render_as_string(hide_password=True)


def open_service(db: str | Path | None = None, *, clock: Clock = utc_now,
                 cache_size: int = CACHE_SIZE, follow: bool = False,
                 redis: str | None = None,
                 move_clock: timedelta | None = MOVE_CLOCK) -> GameService:
    """A game service on ``db``: an SQLite file path (the file is created if missing,
    in a folder that must exist unless it is :func:`default_data_folder`), an
    SQLAlchemy URL (``sqlite:///…``, ``postgresql://…``) or ``None`` for
    :func:`default_db`. The schema is migrated to the newest version first.
    ``cache_size`` is how many games in play the service keeps in memory. With
    ``follow``, the service's change feed also carries the changes other processes
    store in the database (for whatever shows games: the web app, the terminal game);
    with ``redis`` (a Redis URL) it carries them through Redis too, at once
    (:class:`~yatzy.storage.redis_feed.RedisFeed`; the database stays the source). A
    service that follows leases its games' computer turns in the database
    (:class:`~yatzy.storage.leases.SqlLeases`), so that one process plays them.
    ``move_clock`` is how long a person of a rated game has for each decision
    (``None``: no clock; :meth:`~yatzy.app.service.GameService.deadline`).

    Raises :class:`~yatzy.app.errors.StorageError` when the database cannot be opened.
    """
    target = default_db() if db is None else db
    try:
        _check_folder(target)
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
    try:
        repository = SqlGameRepository(engine)
        feed = None
        if redis is not None:
            from yatzy.storage.redis_feed import RedisFeed  # only servers need redis-py

            feed = RedisFeed(repository, redis)
        leases = SqlLeases(repository) if follow or redis is not None else None
        return GameService(repository, clock=clock, cache_size=cache_size,
                           follow=follow, feed=feed, leases=leases, move_clock=move_clock)
    except StorageError:
        engine.dispose()
        raise


def shared_limits(redis: str | None) -> SharedLimits | None:
    """The limits a site's server processes share (rate limits, games per client, one
    piece of advice per game at a time), in the Redis at ``redis``
    (:class:`~yatzy.storage.redis_limits.RedisLimits`); ``None`` without Redis (each
    process counts in its memory). Connects to nothing yet."""
    if redis is None:
        return None
    from yatzy.storage.redis_limits import RedisLimits  # only servers need redis-py

    return RedisLimits(redis)
