"""Link codes, passkeys and their challenges in the SQL database: the
:class:`~yatzy.app.ports.DeviceRepository` part of
:class:`~yatzy.storage.repository.SqlGameRepository` (a mixin over its transactions).

A browser's key is tied to a player by its row of ``player_keys``: linking a device
points that row (or a new one) at the player, in the transaction that uses the code or
the passkey, so a refused code or a failed write changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar

import sqlalchemy as sa

from yatzy.app.devices import (
    LinkCodeExpired,
    LinkCodeUnknown,
    LinkCodeUsed,
    Passkey,
    PasskeyRefused,
)
from yatzy.storage.tables import (
    link_codes,
    link_failures,
    passkeys,
    player_keys,
    webauthn_challenges,
)

T = TypeVar("T")

#: How long a used or expired link code (and a failure) is kept before it is cleared.
KEPT = timedelta(days=1)


def same_player_keys(key_hash: str) -> sa.Select[Any]:
    """The key hashes of the player of the browser ``key_hash`` (that one too, tied to
    no player yet): a browser's games are those of every browser of its player."""
    mine = player_keys.alias("mine")
    others = player_keys.alias("others")
    return sa.union(
        sa.select(sa.literal(key_hash, sa.String(64)).label("key_hash")),
        sa.select(others.c.key_hash).join(mine, mine.c.player_id == others.c.player_id)
        .where(mine.c.key_hash == key_hash)).subquery().select()


def _tie_key(connection: sa.Connection, key_hash: str, player_id: str,
             when: datetime) -> None:
    """Point the browser ``key_hash`` at the player (its row, or a new one)."""
    moved = connection.execute(player_keys.update().where(player_keys.c.key_hash == key_hash)
                               .values(player_id=player_id)).rowcount
    if not moved:
        connection.execute(player_keys.insert().values(key_hash=key_hash,
                                                       player_id=player_id,
                                                       created_at=when))


class DeviceRows:
    """The device methods of :class:`~yatzy.storage.repository.SqlGameRepository`."""

    engine: sa.Engine

    if TYPE_CHECKING:
        def _transaction(self) -> AbstractContextManager[sa.Connection]: ...

        def _read(self, query: Callable[[sa.Connection], T]) -> T: ...

    # --- Link codes -------------------------------------------------------------------

    def add_link_code(self, code_hash: str, player_id: str, when: datetime,
                      expires_at: datetime) -> None:
        with self._transaction() as connection:
            # The player's unused codes expire now; old rows go.
            connection.execute(link_codes.update().where(
                link_codes.c.player_id == player_id, link_codes.c.used_at.is_(None),
                link_codes.c.expires_at > when).values(expires_at=when))
            connection.execute(link_codes.delete().where(link_codes.c.expires_at < when - KEPT))
            connection.execute(link_codes.insert().values(
                code_hash=code_hash, player_id=player_id, created_at=when,
                expires_at=expires_at))

    def use_link_code(self, code_hash: str, key_hash: str, when: datetime) -> str:
        query = sa.select(link_codes).where(link_codes.c.code_hash == code_hash)
        if self.engine.dialect.name == "postgresql":
            query = query.with_for_update()  # SQLite has one writer at a time anyway
        with self._transaction() as connection:
            row = connection.execute(query).first()
            if row is None:
                raise LinkCodeUnknown
            if row.used_at is not None:
                raise LinkCodeUsed
            if row.expires_at <= when:
                raise LinkCodeExpired
            # Only an unused code passes: two devices with one code, one link.
            used = connection.execute(link_codes.update().where(
                link_codes.c.code_hash == code_hash, link_codes.c.used_at.is_(None))
                .values(used_at=when)).rowcount
            if used != 1:
                raise LinkCodeUsed
            _tie_key(connection, key_hash, row.player_id, when)
            return str(row.player_id)

    def link_failures(self, subjects: Sequence[str], *, since: datetime,
                      limit: int) -> datetime | None:
        query = (sa.select(link_failures.c.subject, sa.func.count().label("failures"),
                           sa.func.min(link_failures.c.failed_at).label("oldest"))
                 .where(link_failures.c.subject.in_(list(subjects)),
                        link_failures.c.failed_at > since)
                 .group_by(link_failures.c.subject))
        rows = self._read(lambda c: c.execute(query).all())
        over = [row.oldest for row in rows if row.failures >= limit]
        if not over:
            return None
        # The oldest failures are read back as stored (UTC, aware on every database).
        oldest: datetime = max(over)
        return oldest

    def add_link_failure(self, subjects: Sequence[str], when: datetime) -> None:
        with self._transaction() as connection:
            connection.execute(link_failures.delete().where(
                link_failures.c.failed_at < when - KEPT))
            connection.execute(link_failures.insert(), [
                {"subject": subject, "failed_at": when} for subject in subjects])

    # --- Passkeys ---------------------------------------------------------------------

    def add_challenge(self, challenge_hash: str, purpose: str, player_id: str | None,
                      expires_at: datetime, when: datetime) -> None:
        with self._transaction() as connection:
            connection.execute(webauthn_challenges.delete().where(
                webauthn_challenges.c.expires_at < when))
            connection.execute(webauthn_challenges.insert().values(
                id=challenge_hash, purpose=purpose, player_id=player_id, created_at=when,
                expires_at=expires_at))

    def take_challenge(self, challenge_hash: str, purpose: str, player_id: str | None,
                       when: datetime) -> bool:
        with self._transaction() as connection:
            row = connection.execute(sa.select(webauthn_challenges).where(
                webauthn_challenges.c.id == challenge_hash)).first()
            if row is None:
                return False
            # Gone whatever it was: a challenge is answered once. Only the request that
            # deletes it may use it (two at once: one of them).
            gone = connection.execute(webauthn_challenges.delete().where(
                webauthn_challenges.c.id == challenge_hash)).rowcount
            return bool(gone == 1 and row.purpose == purpose and row.player_id == player_id
                        and row.expires_at > when)

    @staticmethod
    def _passkey(row: sa.Row[Any]) -> Passkey:
        transports = row.transports if isinstance(row.transports, list) else []
        return Passkey(row.id, row.player_id, bytes(row.public_key), int(row.sign_count),
                       tuple(str(t) for t in transports), row.created_at, row.last_used_at)

    def add_passkey(self, passkey: Passkey) -> None:
        with self._transaction() as connection:
            try:
                with connection.begin_nested():
                    connection.execute(passkeys.insert().values(
                        id=passkey.id, player_id=passkey.player_id,
                        public_key=passkey.public_key, sign_count=passkey.sign_count,
                        transports=list(passkey.transports), created_at=passkey.created_at))
            except sa.exc.IntegrityError:
                raise PasskeyRefused("this passkey is registered already") from None

    def passkey(self, passkey_id: str) -> Passkey | None:
        query = sa.select(passkeys).where(passkeys.c.id == passkey_id)
        row = self._read(lambda c: c.execute(query).first())
        return None if row is None else self._passkey(row)

    def passkeys_of(self, player_id: str) -> list[Passkey]:
        query = (sa.select(passkeys).where(passkeys.c.player_id == player_id)
                 .order_by(passkeys.c.created_at, passkeys.c.id))
        return [self._passkey(row) for row in self._read(lambda c: c.execute(query).all())]

    def delete_passkey(self, passkey_id: str, player_id: str) -> bool:
        with self._transaction() as connection:
            return bool(connection.execute(passkeys.delete().where(
                passkeys.c.id == passkey_id, passkeys.c.player_id == player_id)).rowcount)

    def use_passkey(self, passkey_id: str, sign_count: int, key_hash: str,
                    when: datetime) -> None:
        with self._transaction() as connection:
            player_id = connection.scalar(sa.select(passkeys.c.player_id).where(
                passkeys.c.id == passkey_id))
            if player_id is None:
                raise PasskeyRefused("this passkey was removed")
            # The counter only grows (0: an authenticator that keeps none); two sign-ins
            # with one answer at once: one of them.
            counted = connection.execute(passkeys.update().where(
                passkeys.c.id == passkey_id,
                sa.or_(passkeys.c.sign_count < sign_count, sa.literal(sign_count == 0)))
                .values(sign_count=sign_count, last_used_at=when)).rowcount
            if counted != 1:
                raise PasskeyRefused("the passkey's counter did not grow")
            _tie_key(connection, key_hash, player_id, when)
