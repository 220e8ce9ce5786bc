"""Leases in the game database: implements :class:`yatzy.app.ports.LeaseStore`.

One row of ``leases`` per lease held: its name (a game's id, for its computer turns),
its holder (a process's id) and when it runs out. Taking a lease is one transaction
that renews the row if this holder has it or its holder let it run out, else inserts
it unless another holder has it; the database decides between two processes that take
it at once (a row lock on PostgreSQL, the one writer on SQLite). Every time is the
database's: PostgreSQL's ``clock_timestamp()``, or for SQLite (a file on one machine)
that machine's clock, so that the clocks of several machines need not agree.

>>> from yatzy.storage import make_engine, upgrade, SqlGameRepository
>>> engine = make_engine("sqlite://"); upgrade(engine)
>>> a = SqlLeases(SqlGameRepository(engine)); b = SqlLeases(SqlGameRepository(engine))
>>> a.take("g1", 5).mine, b.take("g1", 5).mine
(True, False)
>>> a.release("g1"), b.take("g1", 5).mine
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from yatzy.app.events import Event
from yatzy.app.ports import Lease
from yatzy.storage.repository import SqlGameRepository
from yatzy.storage.tables import changes, leases


class SqlLeases:
    """The leases of one holder (:attr:`holder`, the repository's id: one a process)
    in the repository's database, written through the repository's transactions (on
    SQLite they queue behind its writes, and its change log takes their events).

    ``clock`` replaces the database's clock (for tests)."""

    def __init__(self, repository: SqlGameRepository, *,
                 clock: Callable[[], datetime] | None = None) -> None:
        self._repository = repository
        self._clock = clock
        #: Who takes leases here: the id the repository writes beside its changes.
        self.holder: str = repository.origin

    def _now(self, connection: sa.Connection) -> datetime:
        """The database's time now (see the module)."""
        if self._clock is not None:
            return self._clock()
        if connection.dialect.name == "postgresql":
            now = connection.scalar(sa.select(sa.func.clock_timestamp()))
            assert isinstance(now, datetime)
            return now.astimezone(UTC)
        return datetime.now(UTC)

    @staticmethod
    def _insert(connection: sa.Connection, values: dict[str, Any]) -> bool:
        """Insert the lease ``values`` unless a lease of that name exists: True when
        inserted."""
        name = connection.dialect.name
        if name in ("postgresql", "sqlite"):
            dialect = postgresql if name == "postgresql" else sqlite
            statement = dialect.insert(leases).values(**values).on_conflict_do_nothing(
                index_elements=[leases.c.name])
            return connection.execute(statement).rowcount == 1
        with connection.begin_nested():  # any other database: the conflict is an error
            try:
                connection.execute(leases.insert().values(**values))
            except sa.exc.IntegrityError:
                return False
        return True

    def take(self, name: str, seconds: float) -> Lease:
        with self._repository._transaction() as connection:
            now = self._now(connection)
            until = now + timedelta(seconds=seconds)
            renewed = connection.execute(
                leases.update()
                .where(leases.c.name == name,
                       sa.or_(leases.c.holder == self.holder, leases.c.expires_at <= now))
                .values(holder=self.holder, expires_at=until))
            if renewed.rowcount == 1 or self._insert(
                    connection, {"name": name, "holder": self.holder, "expires_at": until}):
                return Lease(name, self.holder, True, float(seconds))
            row = connection.execute(
                sa.select(leases.c.holder, leases.c.expires_at)
                .where(leases.c.name == name)).one_or_none()
        if row is None:  # let go between the two statements: free now
            return self.take(name, seconds)
        left = max(0.0, (row.expires_at - now).total_seconds())
        return Lease(name, row.holder, row.holder == self.holder, left)

    def release(self, name: str, *, events: Sequence[Event] = ()) -> bool:
        with self._repository._transaction() as connection:
            released = connection.execute(leases.delete().where(
                leases.c.name == name, leases.c.holder == self.holder)).rowcount == 1
            if released:
                self._repository._write_rows(connection, changes,
                                             self._repository._log_rows(events))
        return released

    def release_all(self) -> list[str]:
        with self._repository._transaction() as connection:
            names = list(connection.scalars(
                sa.select(leases.c.name).where(leases.c.holder == self.holder)))
            connection.execute(leases.delete().where(leases.c.holder == self.holder))
        return names

    def expired(self, limit: int = 100) -> list[str]:
        def read(connection: sa.Connection) -> list[str]:
            now = self._now(connection)
            return list(connection.scalars(
                sa.select(leases.c.name).where(leases.c.expires_at <= now)
                .order_by(leases.c.expires_at).limit(limit)))

        return self._repository._read(read)
