"""The game repository on SQLAlchemy: implements :class:`yatzy.app.ports.GameRepository`.

Each write is one transaction, committed before the method returns. Loading a game
replays its record with :meth:`Game.from_record`, so a stored game is checked against
the rules every time it is read.
"""

from __future__ import annotations

import contextlib
import json
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import UTC, datetime
from typing import Any, TypeVar

import sqlalchemy as sa

from yatzy.app.errors import GameChanged, GameNotFound, StorageError
from yatzy.app.events import Event, GameDeleted
from yatzy.app.feed import StoredChange
from yatzy.app.ports import RulesFilter
from yatzy.app.saved import (
    BestScore,
    DamagedGame,
    LeaderEntry,
    ListedGame,
    SavedGame,
    Seat,
    SeatedGame,
    StatsRow,
    player_results,
)
from yatzy.core.errors import RecordError, YatzyError
from yatzy.core.game import Game
from yatzy.core.rulesets import Ruleset
from yatzy.storage.tables import changes, games, results, seat_keys

T = TypeVar("T")

PLAYING, FINISHED = "playing", "finished"

#: What decoding a row that was not written by us raises (JSON, dates, seats).
_DECODING = (ValueError, TypeError, KeyError, AttributeError)


def _damaged(exc: Exception) -> StorageError:
    return StorageError(f"The game database failed: it holds damaged data ({exc})")


def _is_damage(exc: StorageError) -> bool:
    """True when ``exc`` says a row could not be decoded (not that the database failed)."""
    return isinstance(exc.__cause__, _DECODING)


#: The columns of ``games`` that hold JSON.
_JSON_COLUMNS = ("seats", "settings", "record")


def _stored_time(text: object) -> datetime | None:
    """A timestamp read as text from a damaged row, when it still is one (UTC)."""
    try:
        when = datetime.fromisoformat(str(text))
    except ValueError:
        return None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def options_key(rules: Ruleset) -> str:
    """The canonical text of a ruleset's options (sorted keys, defaults included).

    >>> from yatzy.core.rulesets import ruleset
    >>> options_key(ruleset("yahtzee", joker="free"))
    '{"joker":"free","rolls":3,"upper_first":false,"yahtzee_bonus":true}'
    """
    return json.dumps(rules.options, sort_keys=True, separators=(",", ":"))


def _rules_of(name: str, key: str) -> Ruleset:
    try:
        options = json.loads(key)
    except ValueError as exc:
        raise _damaged(exc) from exc
    return Ruleset.from_dict({"name": name, "options": options})


def _rules_where(rules: RulesFilter) -> list[sa.ColumnElement[bool]]:
    if rules is None:
        return []
    if isinstance(rules, Ruleset):
        return [games.c.ruleset == rules.name, games.c.options_key == options_key(rules)]
    return [games.c.ruleset == rules.lower()]


def _reason(exc: YatzyError) -> str:
    """What is wrong with a stored game, from the error that reading it raised."""
    return exc.message.removeprefix("The game database failed: ")


class SqlGameRepository:
    """Saved games and results in a SQL database (SQLite or PostgreSQL)."""

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        #: Written beside the events of this repository's changes in the change log.
        self.origin = uuid.uuid4().hex
        # SQLite has one writer at a time, and a writer that finds the database locked
        # sleeps in growing steps (up to 100 ms) before it tries again. Writers of this
        # process queue on a lock instead and go the moment it is free; other processes
        # still meet SQLite's own lock.
        self._writing: AbstractContextManager[Any] = (
            threading.Lock() if engine.dialect.name == "sqlite" else contextlib.nullcontext())

    # --- Plumbing -------------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[sa.Connection]:
        try:
            with self._writing, self.engine.begin() as connection:
                yield connection
        except sa.exc.DBAPIError as exc:
            raise StorageError(f"The game database failed: {exc.orig}") from exc

    def _read(self, query: Callable[[sa.Connection], T]) -> T:
        try:
            with self.engine.connect() as connection:
                return query(connection)
        except sa.exc.DBAPIError as exc:
            raise StorageError(f"The game database failed: {exc.orig}") from exc
        except _DECODING as exc:
            if isinstance(exc, YatzyError):
                raise
            raise _damaged(exc) from exc

    # --- Games ----------------------------------------------------------------------

    @staticmethod
    def _row(saved: SavedGame) -> dict[str, Any]:
        game = saved.game
        return {
            "ruleset": game.ruleset.name,
            "options_key": options_key(game.ruleset),
            "seed": None if game.seed is None else str(game.seed),
            "dice_mode": saved.dice_mode,
            "status": FINISHED if game.is_over else PLAYING,
            "steps": saved.steps,
            "version": saved.version,
            "seats": [{"name": s.name, "bot": s.bot}
                      | ({"token_hash": s.token_hash} if s.token_hash else {})
                      for s in saved.seats],
            "record": game.to_record(),
            "settings": {"hints": True} if saved.hints else None,
            "created_at": saved.created_at,
            "updated_at": saved.updated_at,
            "finished_at": saved.updated_at if game.is_over else None,
        }

    @staticmethod
    def _results(connection: sa.Connection, saved: SavedGame) -> None:
        if saved.finished:
            connection.execute(
                results.insert(),
                [
                    {
                        "game_id": saved.id, "seat": r.seat, "player": r.player,
                        "is_bot": r.is_bot, "bot": r.bot, "total": r.total,
                        "upper_bonus": r.upper_bonus, "yahtzee_points": r.yahtzee_points,
                        "yahtzee_bonuses": r.yahtzee_bonuses, "place": r.place,
                    }
                    for r in player_results(saved)
                ],
            )

    def _log(self, connection: sa.Connection, events: Sequence[Event]) -> None:
        """Write ``events`` to the change log, in the transaction of their change."""
        if events:
            now = datetime.now(UTC)
            connection.execute(changes.insert(), [
                {"game_id": event.game_id, "origin": self.origin, "event": event.to_dict(),
                 "created_at": now} for event in events])

    def add(self, saved: SavedGame, *, events: Sequence[Event] = ()) -> None:
        with self._transaction() as connection:
            connection.execute(games.insert().values(id=saved.id, **self._row(saved)))
            self._results(connection, saved)
            self._log(connection, events)

    def save(self, saved: SavedGame, *, expected_version: int,
             events: Sequence[Event] = ()) -> None:
        row = self._row(saved)
        del row["created_at"]
        with self._transaction() as connection:
            done = connection.execute(
                games.update()
                .where(games.c.id == saved.id, games.c.version == expected_version)
                .values(**row)
            )
            if done.rowcount != 1:
                # The version is the guard (an undo lowers the number of actions).
                actual = connection.scalar(
                    sa.select(games.c.version).where(games.c.id == saved.id))
                if actual is None:
                    raise GameNotFound(saved.id)
                raise GameChanged(saved.id, expected=expected_version, actual=actual,
                                  what="version")
            self._results(connection, saved)
            self._log(connection, events)

    @staticmethod
    def _saved(row: sa.Row[Any]) -> SavedGame:
        try:
            game = Game.from_record(row.record)
        except RecordError as exc:
            raise RecordError(f"Saved game {row.id} does not replay: {exc}",
                              step=exc.step) from exc
        try:
            seats = tuple(Seat(s["name"], s.get("bot"), s.get("token_hash")) for s in row.seats)
        except _DECODING as exc:
            raise _damaged(exc) from exc
        settings = row.settings if isinstance(row.settings, dict) else {}
        return SavedGame(row.id, game, seats, row.dice_mode, row.created_at, row.updated_at,
                         row.version, hints=settings.get("hints") is True)

    def get(self, game_id: str) -> SavedGame:
        row = self._read(
            lambda c: c.execute(sa.select(games).where(games.c.id == game_id)).first()
        )
        if row is None:
            raise GameNotFound(game_id)
        return self._saved(row)

    def unfinished(self) -> list[ListedGame]:
        query = (
            sa.select(games)
            .where(games.c.status == PLAYING, games.c.steps > 0)
            .order_by(games.c.updated_at.desc(), games.c.created_at.desc(), games.c.id)
        )
        return self._listing(query)

    def recent(
        self, limit: int = 20, *, finished: bool | None = None, player: str | None = None
    ) -> list[ListedGame]:
        if limit <= 0:
            return []
        newest_first = (games.c.updated_at.desc(), games.c.created_at.desc(), games.c.id)
        where = [] if finished is None else [games.c.status == (FINISHED if finished else PLAYING)]
        if player is None:
            return self._listing(
                sa.select(games).where(*where).order_by(*newest_first).limit(limit))

        # The seats are JSON, which SQLite and PostgreSQL search differently: read the
        # small columns newest first and keep the games with a seat of that name (and
        # the damaged ones whose seats cannot be read, which may be that player's).
        def ids(connection: sa.Connection) -> list[str]:
            found: list[str] = []
            rows = connection.execute(
                sa.select(games.c.id, sa.cast(games.c.seats, sa.Text).label("seats"))
                .where(*where).order_by(*newest_first)
            )
            for row in rows:
                try:
                    seated = any(seat["name"] == player for seat in json.loads(row.seats))
                except _DECODING:
                    seated = True
                if seated:
                    found.append(row.id)
                    if len(found) == limit:
                        break
            return found

        wanted = self._read(ids)
        if not wanted:
            return []
        by_id = {game.id: game
                 for game in self._listing(sa.select(games).where(games.c.id.in_(wanted)))}
        return [by_id[game_id] for game_id in wanted if game_id in by_id]

    # A listing reads every row in one query; when one row cannot even be fetched (its
    # JSON or dates do not decode), it reads them one by one, so that only that row is
    # marked damaged and the others are listed.

    def _listing(self, query: sa.Select[Any]) -> list[ListedGame]:
        try:
            rows = self._read(lambda c: c.execute(query).all())
        except StorageError as exc:
            if not _is_damage(exc):
                raise
            ids = self._read(lambda c: list(c.scalars(query.with_only_columns(games.c.id))))
            found = (self._listed_id(game_id) for game_id in ids)
            return [game for game in found if game is not None]
        return [self._listed(row) for row in rows]

    def _listed_id(self, game_id: str) -> ListedGame | None:
        try:
            row = self._read(
                lambda c: c.execute(sa.select(games).where(games.c.id == game_id)).first())
        except StorageError as exc:
            if not _is_damage(exc):
                raise
            stored = self.stored(game_id)
            return DamagedGame(game_id, _reason(exc), _stored_time(stored["updated_at"]),
                               stored["status"] == FINISHED)
        return None if row is None else self._listed(row)

    @classmethod
    def _listed(cls, row: sa.Row[Any]) -> ListedGame:
        try:
            return cls._saved(row)
        except (RecordError, StorageError) as exc:
            return DamagedGame(row.id, _reason(exc), row.updated_at, row.status == FINISHED)
        except _DECODING as exc:  # pragma: no cover - the core raises RecordError
            return DamagedGame(row.id, str(exc), row.updated_at, row.status == FINISHED)

    def stored(self, game_id: str) -> dict[str, Any]:
        columns = [sa.cast(column, sa.Text).label(column.name) for column in games.c]
        row = self._read(
            lambda c: c.execute(sa.select(*columns).where(games.c.id == game_id)).first())
        if row is None:
            raise GameNotFound(game_id)
        stored: dict[str, Any] = dict(row._mapping)
        for name in _JSON_COLUMNS:
            with contextlib.suppress(*_DECODING):
                stored[name] = None if stored[name] is None else json.loads(stored[name])
        for name in ("steps", "version"):
            with contextlib.suppress(*_DECODING):
                stored[name] = int(stored[name])
        if stored.get("status") != FINISHED:
            # The seed of a game in play is no one's to see: it tells every roll to come.
            stored["seed"] = None
            if isinstance(stored.get("record"), dict):
                stored["record"]["seed"] = None
        return stored

    def ids_starting_with(self, prefix: str) -> list[str]:
        query = (
            sa.select(games.c.id)
            # The same on every database: SQLite's LIKE ignores case, PostgreSQL's not.
            .where(sa.func.lower(games.c.id).startswith(prefix.lower(), autoescape=True))
            .order_by(games.c.id)
        )
        return list(self._read(lambda c: c.scalars(query).all()))

    def delete(self, game_id: str, *, events: Sequence[Event] = ()) -> None:
        with self._transaction() as connection:
            connection.execute(results.delete().where(results.c.game_id == game_id))
            connection.execute(seat_keys.delete().where(seat_keys.c.game_id == game_id))
            done = connection.execute(games.delete().where(games.c.id == game_id))
            if done.rowcount != 1:
                raise GameNotFound(game_id)
            self._log(connection, events)

    def delete_unmoved(self, before: datetime, *, online: bool = False) -> list[str]:
        unmoved = (games.c.status == PLAYING, games.c.steps == 0, games.c.updated_at < before)
        with self._transaction() as connection:
            rows = connection.execute(
                sa.select(games.c.id, sa.cast(games.c.seats, sa.Text).label("seats"))
                .where(*unmoved)).all()
            claimed = set(connection.scalars(
                sa.select(seat_keys.c.game_id).where(
                    seat_keys.c.game_id.in_([row.id for row in rows]))))
            doomed = []
            for row in rows:
                if not online:
                    try:
                        tokens = any(seat.get("token_hash") for seat in json.loads(row.seats))
                    except _DECODING:
                        continue  # damaged: for `--delete ID`, not for a sweep
                    if tokens or row.id in claimed:
                        continue  # a web game, which people join later
                doomed.append(row.id)
            if doomed:
                connection.execute(seat_keys.delete().where(seat_keys.c.game_id.in_(doomed)))
                connection.execute(
                    games.delete().where(games.c.id.in_(doomed), *unmoved))
                self._log(connection, [GameDeleted(game_id) for game_id in doomed])
        return doomed

    # --- The change log ----------------------------------------------------------------

    def changes_since(self, seq: int, limit: int) -> list[StoredChange]:
        query = (sa.select(changes.c.seq, changes.c.origin, changes.c.event)
                 .where(changes.c.seq > seq).order_by(changes.c.seq).limit(limit))
        return [StoredChange(row.seq, row.origin, row.event)
                for row in self._read(lambda c: c.execute(query).all())]

    def last_change(self) -> int:
        return int(self._read(lambda c: c.scalar(sa.select(sa.func.max(changes.c.seq))))
                   or 0)

    def forget_changes(self, before: datetime) -> int:
        with self._transaction() as connection:
            return connection.execute(
                changes.delete().where(changes.c.created_at < before)).rowcount

    # --- Player keys -------------------------------------------------------------------

    def claim(self, game_id: str, seat: int, key_hash: str, when: datetime) -> None:
        key = (seat_keys.c.game_id == game_id, seat_keys.c.seat == seat,
               seat_keys.c.key_hash == key_hash)
        with self._transaction() as connection:
            if connection.scalar(sa.select(sa.func.count()).where(*key)):
                return
            if not connection.scalar(sa.select(sa.func.count()).where(games.c.id == game_id)):
                raise GameNotFound(game_id)
            try:
                with connection.begin_nested():
                    connection.execute(seat_keys.insert().values(
                        game_id=game_id, seat=seat, key_hash=key_hash, claimed_at=when))
            except sa.exc.IntegrityError:
                pass  # claimed at the same moment by another request: the same fact

    def seated_games(self, key_hash: str, limit: int) -> list[SeatedGame]:
        if limit <= 0:
            return []
        # Ids and seats first (nothing there to decode), then each game: a damaged one
        # is left out of the list instead of stopping it.
        query = (
            sa.select(games.c.id, seat_keys.c.seat)
            .join(seat_keys, seat_keys.c.game_id == games.c.id)
            .where(seat_keys.c.key_hash == key_hash)
            .order_by(games.c.updated_at.desc(), games.c.id, seat_keys.c.seat)
            .limit(limit)
        )
        pairs = self._read(lambda c: c.execute(query).all())
        found = [(self._listed_id(game_id), seat) for game_id, seat in pairs]
        return [SeatedGame(game, seat) for game, seat in found if isinstance(game, SavedGame)]

    def bests(self, key_hash: str) -> list[BestScore]:
        query = (
            sa.select(games.c.ruleset, games.c.options_key,
                      sa.func.max(results.c.total).label("best"),
                      sa.func.count().label("games"))
            .select_from(seat_keys)
            .join(results, sa.and_(results.c.game_id == seat_keys.c.game_id,
                                   results.c.seat == seat_keys.c.seat))
            .join(games, games.c.id == seat_keys.c.game_id)
            .where(seat_keys.c.key_hash == key_hash)
            .group_by(games.c.ruleset, games.c.options_key)
        )
        rows = self._read(lambda c: c.execute(query).all())
        found = [BestScore(_rules_of(r.ruleset, r.options_key), int(r.best), int(r.games))
                 for r in rows]
        return sorted(found, key=lambda b: str(b.rules))

    def leaderboard(self, rules: Ruleset, limit: int) -> list[LeaderEntry]:
        if limit <= 0:
            return []
        query = (
            sa.select(results.c.player, results.c.total, results.c.game_id,
                      games.c.finished_at)
            .join(games, games.c.id == results.c.game_id)
            .where(results.c.is_bot.is_(False), *_rules_where(rules))
            .order_by(results.c.total.desc(), games.c.finished_at, results.c.game_id,
                      results.c.seat)
            .limit(limit)
        )
        rows = self._read(lambda c: c.execute(query).all())
        return [LeaderEntry(r.player, int(r.total), r.game_id, r.finished_at) for r in rows]

    # --- History --------------------------------------------------------------------

    def best(self, rules: Ruleset, player: str, *, excluding: str | None = None) -> int | None:
        query = (
            sa.select(sa.func.max(results.c.total))
            .join(games, games.c.id == results.c.game_id)
            .where(results.c.player == player, *_rules_where(rules))
        )
        if excluding is not None:
            query = query.where(results.c.game_id != excluding)
        best = self._read(lambda c: c.scalar(query))
        return None if best is None else int(best)

    def stats(self, rules: RulesFilter = None, player: str | None = None) -> list[StatsRow]:
        others = results.alias("others")
        _players = (
            sa.select(sa.func.count())
            .where(others.c.game_id == results.c.game_id)
            .scalar_subquery()
        )

        def rate(column: sa.ColumnElement[bool]) -> sa.ColumnElement[Any]:
            return sa.func.avg(sa.case((column, 1.0), else_=0.0))

        query = (
            sa.select(
                games.c.ruleset,
                games.c.options_key,
                results.c.player,
                sa.func.count().label("games"),
                sa.func.max(results.c.total).label("best"),
                sa.func.avg(results.c.total).label("mean"),
                rate(results.c.upper_bonus > 0).label("bonus_rate"),
                rate(results.c.yahtzee_points == 50).label("yahtzee_rate"),
                # A win needs someone to beat: solitaire games count as games, not wins.
                sa.func.sum(
                    sa.case((sa.and_(results.c.place == 1, _players > 1), 1), else_=0)
                ).label("wins"),
            )
            .join(games, games.c.id == results.c.game_id)
            .where(*_rules_where(rules))
            .group_by(games.c.ruleset, games.c.options_key, results.c.player)
        )
        if player is not None:
            query = query.where(results.c.player == player)
        rows = self._read(lambda c: c.execute(query).all())
        stats = [
            StatsRow(
                ruleset=str(_rules_of(row.ruleset, row.options_key)),
                player=row.player,
                games=row.games,
                best=row.best,
                mean=float(row.mean),
                bonus_rate=float(row.bonus_rate),
                yahtzee_rate=float(row.yahtzee_rate),
                wins=int(row.wins),
            )
            for row in rows
        ]
        return sorted(stats, key=lambda s: (s.ruleset, s.player.casefold(), s.player))

    def scores(self, rules: RulesFilter = None, player: str | None = None) -> list[int]:
        query = (
            sa.select(results.c.total)
            .join(games, games.c.id == results.c.game_id)
            .where(*_rules_where(rules))
            .order_by(games.c.finished_at, games.c.id, results.c.seat)
        )
        if player is not None:
            query = query.where(results.c.player == player)
        return list(self._read(lambda c: c.scalars(query).all()))

    def rulesets(self, rules: RulesFilter = None) -> list[Ruleset]:
        query = (
            sa.select(games.c.ruleset, games.c.options_key)
            .where(games.c.status == FINISHED, *_rules_where(rules))
            .distinct()
        )
        rows = self._read(lambda c: c.execute(query).all())
        return sorted((_rules_of(r.ruleset, r.options_key) for r in rows), key=str)

    def close(self) -> None:
        self.engine.dispose()
