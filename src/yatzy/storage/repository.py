"""The game repository on SQLAlchemy: implements :class:`yatzy.app.ports.GameRepository`.

Each write is one transaction, committed before the method returns. A game is stored as
its record's header (``games.record``) and one row per action of its record (``moves``):
an action appends its row and so does an undo (the record keeps the action taken back),
so a write costs the same at every step of a game. Loading a game joins the header and
the moves into its record and replays it with :meth:`Game.from_record`, so a stored game
is checked against the rules every time it is read.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from typing import Any, TypeVar

import sqlalchemy as sa

from yatzy.app.errors import (
    AlreadyWaiting,
    DailyPlayed,
    GameChanged,
    GameNotFound,
    NameTaken,
    StorageError,
)
from yatzy.app.events import Event, GameDeleted
from yatzy.app.feed import StoredChange
from yatzy.app.ports import Arrived, NewGame, RulesFilter
from yatzy.app.ratings import Rating
from yatzy.app.saved import (
    CANCELLED,
    EXPIRED,
    MATCHED,
    WAITING,
    BestScore,
    DailyEntry,
    DamagedGame,
    LeaderEntry,
    ListedGame,
    Player,
    SavedGame,
    Seat,
    SeatedGame,
    StatsRow,
    Ticket,
    player_results,
)
from yatzy.core.actions import Undo
from yatzy.core.errors import RecordError, YatzyError
from yatzy.core.game import Game
from yatzy.core.record import record_header, step_entry, with_actions
from yatzy.core.rulesets import Ruleset
from yatzy.storage.devices import DeviceRows, same_player_keys
from yatzy.storage.profiles import ProfileQueries, bests_query, record_settlement
from yatzy.storage.tables import (
    changes,
    daily_entries,
    daily_pars,
    games,
    match_tickets,
    moves,
    player_keys,
    players,
    rated_games,
    rated_seats,
    results,
    seat_keys,
    settings,
)

T = TypeVar("T")

PLAYING, FINISHED = "playing", "finished"

#: Transactions tried for new quick-match tickets before the store's failure is told.
_TRIES = 3

# The statements of a quick match's every question, made once (and their compiled form
# found at once in SQLAlchemy's cache): building a statement costs more than running it.
_TICKET = sa.select(match_tickets).where(match_tickets.c.id == sa.bindparam("ticket_id"))
_HAS_GAME = sa.select(games.c.id).where(games.c.id == sa.bindparam("game_id"))
_TICKET_AND_GAME = (
    sa.select(match_tickets, games.c.id.label("stored"))
    .outerjoin(games, games.c.id == match_tickets.c.game_id)
    .where(match_tickets.c.id == sa.bindparam("ticket_id")))
# And those of a batch of requests (:meth:`SqlGameRepository.add_tickets`).
_PLAYERS_OF_KEYS = (
    sa.select(players, player_keys.c.key_hash)
    .join(player_keys, player_keys.c.player_id == players.c.id)
    .where(player_keys.c.key_hash.in_(sa.bindparam("keys", expanding=True))))
_PLAYERS_UNRATED = sa.union(
    sa.select(match_tickets.c.player_id)
    .join(rated_games, rated_games.c.game_id == match_tickets.c.game_id)
    .where(rated_games.c.rated_at.is_(None),
           match_tickets.c.player_id.in_(sa.bindparam("who", expanding=True))),
    sa.select(rated_seats.c.player_id)
    .join(rated_games, rated_games.c.game_id == rated_seats.c.game_id)
    .where(rated_games.c.rated_at.is_(None),
           rated_seats.c.player_id.in_(sa.bindparam("who", expanding=True))))
_EXPIRE = (
    match_tickets.update()
    .where(match_tickets.c.waiting_player.in_(sa.bindparam("who", expanding=True)),
           match_tickets.c.status == WAITING,
           match_tickets.c.seen_at < sa.bindparam("stale_before"))
    .values(status=EXPIRED, waiting_player=None))
_WAITING_OF = sa.select(match_tickets.c.waiting_player).where(
    match_tickets.c.waiting_player.in_(sa.bindparam("who", expanding=True)))
_POOL = (
    sa.select(match_tickets)
    .where(match_tickets.c.status == WAITING,
           match_tickets.c.ruleset.in_(sa.bindparam("rules", expanding=True)),
           match_tickets.c.seen_at >= sa.bindparam("seen_since"))
    .order_by(match_tickets.c.created_at, match_tickets.c.id)
    .limit(sa.bindparam("limit"))
    .with_for_update(skip_locked=True))
_TAKE = (
    match_tickets.update()
    .where(match_tickets.c.id == sa.bindparam("ticket_id"), match_tickets.c.status == WAITING)
    .values(status=MATCHED, waiting_player=None, game_id=sa.bindparam("game_id"), seat=0,
            matched_at=sa.bindparam("matched_at")))

#: What decoding a row that was not written by us raises (JSON, dates, seats).
_DECODING = (ValueError, TypeError, KeyError, AttributeError)


def _damaged(exc: Exception) -> StorageError:
    return StorageError(f"The game database failed: it holds damaged data ({exc})")


def _is_damage(exc: StorageError) -> bool:
    """True when ``exc`` says a row could not be decoded (not that the database failed)."""
    return isinstance(exc.__cause__, _DECODING)


#: The columns of ``games`` that hold JSON.
_JSON_COLUMNS = ("seats", "settings", "record")


def _json(text: str | None) -> Any:
    """A JSON column read as text, decoded; text that is not JSON stays as it is."""
    if text is None:
        return None
    try:
        return json.loads(text)
    except _DECODING:
        return text


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


#: Reads of a game that a write came between, before giving up.
READ_TRIES = 5

#: Games whose moves one query reads (databases limit the parameters of a statement).
_IDS_PER_QUERY = 500

#: A row of ``games`` with its moves as (step, action), in step order.
_Stored = tuple[sa.Row[Any], list[tuple[int, Any]]]


def _reason(exc: YatzyError) -> str:
    """What is wrong with a stored game, from the error that reading it raised."""
    return exc.message.removeprefix("The game database failed: ")


# The statements of a save, made once (a statement made anew for each save costs more
# than the database's work on it). The ``key_*`` parameters pick the row; a save's other
# parameters are the columns it sets.
_SAVE = games.update().where(games.c.id == sa.bindparam("key_id"),
                             games.c.version == sa.bindparam("key_version"))
_SAVE_NEXT = _SAVE.where(games.c.steps == sa.bindparam("key_steps"))
_VERSION = sa.select(games.c.version).where(games.c.id == sa.bindparam("key_id"))
_LAST_STEP = (sa.select(moves.c.step).where(moves.c.game_id == sa.bindparam("key_id"))
              .order_by(moves.c.step.desc()).limit(1))
_TAKE_BACK = moves.delete().where(moves.c.game_id == sa.bindparam("key_id"),
                                  moves.c.step >= sa.bindparam("key_steps"))
_HEADER = games.update().where(games.c.id == sa.bindparam("key_id"))
_ADD_MOVES = moves.insert()
_ADD_RESULTS = results.insert()
_ADD_CHANGES = changes.insert()


@dataclass(eq=False)
class _Write:
    """A save waiting for the group commit: its work, and how it ended."""

    work: Callable[[sa.Connection], None]
    done: bool = False
    error: BaseException | None = None


def _seats_of(key_hash: str) -> sa.Subquery:
    """The seats (game id, seat) of the browser ``key_hash`` and of every other browser
    of its player (each once)."""
    return (sa.select(seat_keys.c.game_id, seat_keys.c.seat)
            .where(seat_keys.c.key_hash.in_(same_player_keys(key_hash)))
            .distinct().subquery())


class SqlGameRepository(DeviceRows, ProfileQueries):
    """Saved games and results in a SQL database (SQLite or PostgreSQL)."""

    def __init__(self, engine: sa.Engine, *, group_commit: bool = True) -> None:
        self.engine = engine
        #: Written beside the events of this repository's changes in the change log.
        #: Random, but not from ``uuid.uuid4``, which tests that fix game ids replace.
        self.origin = secrets.token_hex(16)
        # SQLite has one writer at a time, and a writer that finds the database locked
        # sleeps in growing steps (up to 100 ms) before it tries again. Writers of this
        # process queue on a lock instead and go the moment it is free; other processes
        # still meet SQLite's own lock.
        self._writing: AbstractContextManager[Any] = (
            threading.Lock() if engine.dialect.name == "sqlite" else contextlib.nullcontext())
        # And the actions that queue there are stored together: the writer that gets the
        # lock commits every save waiting for it in one transaction (a group commit), so
        # that a busy table pays for one commit (one sync to disk) per group, not per
        # action. PostgreSQL commits concurrent transactions side by side.
        self._queue: list[_Write] | None = (
            [] if group_commit and engine.dialect.name == "sqlite" else None)
        self._queued = threading.Lock()

    # --- Plumbing -------------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[sa.Connection]:
        try:
            with self._writing, self.engine.begin() as connection:
                yield connection
        except sa.exc.DBAPIError as exc:
            raise StorageError(f"The game database failed: {exc.orig}") from exc

    def _grouped(self, work: Callable[[sa.Connection], None]) -> None:
        """Run ``work`` in a transaction, committed before this returns: on SQLite in
        the group commit of the saves waiting for the writer's lock (see ``__init__``).
        ``work`` may raise :class:`GameChanged` or :class:`GameNotFound` only before it
        writes anything (the others of its group are stored all the same); any other
        failure takes back the whole group, and each of its writers gets an error."""
        if self._queue is None:
            with self._transaction() as connection:
                work(connection)
            return
        mine = _Write(work)
        with self._queued:
            self._queue.append(mine)
        with self._writing:
            if not mine.done:
                with self._queued:
                    group, self._queue = self._queue, []
                self._commit(group)
        if mine.error is not None:
            raise mine.error

    def _commit(self, group: list[_Write]) -> None:
        """Store ``group`` in one transaction (the caller holds the writer's lock)."""
        current: _Write | None = None
        reason: object = "the write was stopped"
        committed = False
        try:
            with self.engine.begin() as connection:
                for current in group:
                    try:
                        current.work(connection)
                    except (GameChanged, GameNotFound) as exc:  # refused, nothing written
                        current.error = exc
                current = None  # the commit
            committed = True
        except Exception as exc:
            # The one whose work failed (not the database) gets its own error.
            reason = exc.orig if isinstance(exc, sa.exc.DBAPIError) else exc
            if current is not None and reason is exc:
                current.error = exc
                reason = "another action stored with it failed"
        finally:
            for write in group:
                if not committed and not (write is current and write.error is not None):
                    # Nothing of the group is stored: each of its writers is told so.
                    write.error = StorageError(f"The game database failed: {reason}")
                write.done = True

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
            # The record's actions (the rows of moves): undos and what they took back too.
            "steps": len(game.log),
            "version": saved.version,
            "seats": [{"name": s.name, "bot": s.bot}
                      | ({"token_hash": s.token_hash} if s.token_hash else {})
                      | ({"open": True} if s.open else {})
                      | ({"idle": True} if s.idle else {})
                      for s in saved.seats],
            "public": saved.public,
            "open_seats": saved.open_seats,
            "settings": ({"hints": True} if saved.hints else {})
                        | ({"rated": True} if saved.rated else {}) or None,
            "created_at": saved.created_at,
            "updated_at": saved.updated_at,
            "finished_at": saved.updated_at if game.is_over else None,
        }

    @staticmethod
    def _result_rows(saved: SavedGame) -> list[dict[str, Any]]:
        """The ``results`` rows of ``saved`` (none until it is over)."""
        if not saved.finished:
            return []
        return [
            {
                "game_id": saved.id, "seat": r.seat, "player": r.player,
                "is_bot": r.is_bot, "bot": r.bot, "total": r.total,
                "upper_bonus": r.upper_bonus, "yahtzee_points": r.yahtzee_points,
                "yahtzee_bonuses": r.yahtzee_bonuses, "place": r.place,
            }
            for r in player_results(saved)
        ]

    def _log_rows(self, events: Sequence[Event]) -> list[dict[str, Any]]:
        """The change log's rows for ``events``, written in the transaction of their
        change."""
        now = datetime.now(UTC)
        return [{"game_id": event.game_id, "origin": self.origin, "event": event.to_dict(),
                 "created_at": now} for event in events]

    @staticmethod
    def _move_rows(saved: SavedGame, start: int) -> list[dict[str, Any]]:
        """The ``moves`` rows of ``saved`` (its record's actions) from step ``start`` on."""
        log = saved.game.log
        return [{"game_id": saved.id, "step": step, "action": step_entry(log[step])}
                for step in range(max(start, 0), len(log))]

    def _write_rows(self, connection: sa.Connection, table: sa.Table,
                    rows: list[dict[str, Any]]) -> None:
        if rows:
            connection.execute(table.insert(), rows)

    def add(self, saved: SavedGame, *, events: Sequence[Event] = (),
            claims: Sequence[tuple[int, str]] = ()) -> None:
        self.add_many([(saved, events, claims)])

    def add_many(self, new: Sequence[NewGame]) -> None:
        if not new:
            return
        with self._transaction() as connection:
            self._insert_games(connection, new)

    def _insert_games(self, connection: sa.Connection, new: Sequence[NewGame]) -> None:
        """Write the rows of new games (with their events and claims)."""
        if new:
            self._write_rows(connection, games, [
                {"id": saved.id, "record": record_header(saved.game), **self._row(saved)}
                for saved, _, _ in new])
        self._write_rows(connection, seat_keys, [
            {"game_id": saved.id, "seat": seat, "key_hash": key_hash,
             "claimed_at": saved.created_at}
            for saved, _, claims in new for seat, key_hash in claims])
        self._write_rows(connection, moves, [
            row for saved, _, _ in new for row in self._move_rows(saved, 0)])
        self._write_rows(connection, results, [
            row for saved, _, _ in new for row in self._result_rows(saved)])
        self._write_rows(connection, changes, self._log_rows(
            [event for _, events, _ in new for event in events]))

    def save(self, saved: SavedGame, *, expected_version: int,
             events: Sequence[Event] = ()) -> None:
        """Store ``saved``, which continues the game stored at ``expected_version`` (as
        the service's actions and undos do): the new moves are appended (moves past the
        new record's, which no service writes, are deleted). The header is written again
        only when it changes: the game is over (with its totals), or an undo makes the
        record's version 3 (:func:`~yatzy.core.record.record_version`).

        What is written is worked out before the writer's turn comes, and the
        statements are made once (:data:`_SAVE`), so that the time a save holds the
        writer is the database's."""
        row = self._row(saved)
        del row["created_at"]
        if saved.finished:
            row["record"] = record_header(saved.game)
        game_id, logged = saved.id, len(saved.game.log)
        where = {"key_id": game_id, "key_version": expected_version}
        # Mostly one action more than stored: then the row says so, with no more reading
        # (steps is written with the moves, in every write).
        usual = logged - 1
        usual_moves = self._move_rows(saved, usual)
        log = self._log_rows(events)
        scores = self._result_rows(saved)

        def work(connection: sa.Connection) -> None:
            stored = usual
            done = connection.execute(_SAVE_NEXT, {**row, **where, "key_steps": usual})
            if done.rowcount != 1:
                done = connection.execute(_SAVE, {**row, **where})
                if done.rowcount != 1:
                    # The version is the guard.
                    actual = connection.scalar(_VERSION, {"key_id": game_id})
                    if actual is None:
                        raise GameNotFound(game_id)
                    raise GameChanged(game_id, expected=expected_version, actual=actual,
                                      what="version")
                # The row is this writer's now: the moves say how far the stored game
                # got (the last step's number, from the primary key's index).
                last = connection.scalar(_LAST_STEP, {"key_id": game_id})
                stored = 0 if last is None else last + 1
            if stored > logged:
                connection.execute(_TAKE_BACK, {"key_id": game_id, "key_steps": logged})
            if not saved.finished and (stored > logged or any(
                    isinstance(step.action, Undo) for step in saved.game.log[stored:])):
                connection.execute(_HEADER, {"key_id": game_id,
                                             "record": record_header(saved.game)})
            rows = usual_moves if stored == usual else self._move_rows(saved, stored)
            if rows:
                connection.execute(_ADD_MOVES, rows)
            if scores:
                connection.execute(_ADD_RESULTS, scores)
            if log:
                connection.execute(_ADD_CHANGES, log)

        self._grouped(work)

    def reseat(self, saved: SavedGame, *, expected_version: int,
               events: Sequence[Event] = ()) -> None:
        """Store ``saved``, a game nobody has moved in whose seats changed (a person
        took an open seat, :meth:`GameService.join
        <yatzy.app.service.GameService.join>`): its header and seats are written again,
        in one conditional update of the row still at ``expected_version`` with no
        action stored, so that of two joins of one seat, in any processes, one is
        stored and the other is :class:`GameChanged` (nothing written)."""
        if saved.steps:
            raise ValueError("Only a game nobody has moved in is reseated")
        row = self._row(saved)
        del row["created_at"]
        row["record"] = record_header(saved.game)
        with self._transaction() as connection:
            done = connection.execute(
                games.update().where(games.c.id == saved.id,
                                     games.c.version == expected_version,
                                     games.c.steps == 0).values(**row))
            if done.rowcount != 1:
                actual = connection.scalar(_VERSION, {"key_id": saved.id})
                if actual is None:
                    raise GameNotFound(saved.id)
                raise GameChanged(saved.id, expected=expected_version, actual=actual,
                                  what="version")
            self._write_rows(connection, changes, self._log_rows(events))

    def lobby(self, *, waiting_since: datetime, live_since: datetime, limit: int,
              known: Mapping[str, SavedGame] | None = None
              ) -> tuple[list[SavedGame], list[SavedGame]]:
        """The public tables not over: those with open seats joined or opened since
        ``waiting_since``, newest first, and the full ones played since
        ``live_since``, most recently started first; ``limit`` of each at most (games
        that no longer read are left out). A game of ``known`` still at its version is
        that copy (the lists are read often: only a game that moved on is replayed)."""
        if limit <= 0:
            return [], []
        public = (games.c.public.is_(True), games.c.status == PLAYING)
        newest = (games.c.created_at.desc(), games.c.id)
        waiting = (sa.select(games.c.id, games.c.version)
                   .where(*public, games.c.open_seats > 0, games.c.updated_at >= waiting_since)
                   .order_by(*newest).limit(limit))
        live = (sa.select(games.c.id, games.c.version)
                .where(*public, games.c.open_seats == 0, games.c.updated_at >= live_since)
                .order_by(*newest).limit(limit))

        def read(connection: sa.Connection) -> tuple[list[Any], list[Any]]:
            return list(connection.execute(waiting).all()), list(connection.execute(live).all())

        rows = self._read(read)
        known = known or {}
        found = {row.id: known[row.id] for row in rows[0] + rows[1]
                 if row.id in known and known[row.id].version == row.version}
        missing = [row.id for row in rows[0] + rows[1] if row.id not in found]
        if missing:
            for game in self._listing(sa.select(games).where(games.c.id.in_(missing))):
                if isinstance(game, SavedGame):
                    found[game.id] = game
        # A game written between the two reads is as read the second time; one that
        # left the lists meanwhile (finished, say) is left out.
        return ([found[row.id] for row in rows[0] if row.id in found
                 and found[row.id].waiting and not found[row.id].finished],
                [found[row.id] for row in rows[1] if row.id in found
                 and not found[row.id].waiting and not found[row.id].finished])

    @staticmethod
    def _record(row: sa.Row[Any], played: list[tuple[int, Any]]) -> Any:
        """The record of the game in ``row``: its header with the actions of its moves."""
        header = row.record
        if not isinstance(header, dict) or "actions" in header:
            # Not a header (a damaged row the migration left whole): replayed as it is,
            # so that the replay says what is wrong with it.
            return header
        if len(played) != row.steps:
            raise RecordError(f"{len(played)} of its {row.steps} actions are stored")
        for expected, (step, _) in enumerate(played):
            if step != expected:
                raise RecordError(f"Its stored actions skip step {expected + 1}", step=expected)
        return with_actions(header, [action for _, action in played])

    @classmethod
    def _saved(cls, row: sa.Row[Any], played: list[tuple[int, Any]]) -> SavedGame:
        try:
            game = Game.from_record(cls._record(row, played))
        except RecordError as exc:
            raise RecordError(f"Saved game {row.id} does not replay: {exc}",
                              step=exc.step) from exc
        try:
            seats = tuple(Seat(s["name"], s.get("bot"), s.get("token_hash"),
                               open=s.get("open") is True, idle=s.get("idle") is True)
                          for s in row.seats)
        except _DECODING as exc:
            raise _damaged(exc) from exc
        settings = row.settings if isinstance(row.settings, dict) else {}
        return SavedGame(row.id, game, seats, row.dice_mode, row.created_at, row.updated_at,
                         row.version, hints=settings.get("hints") is True,
                         rated=settings.get("rated") is True, public=bool(row.public))

    # A game is its row of ``games`` and its rows of ``moves``, read by two statements
    # that another process's write may come between. So the versions of the games are
    # read once more after their moves: a game whose version is still the one read was
    # not written in between (every write raises it), and one whose version moved on is
    # read again.

    def _read_games(self, query: sa.Select[Any]) -> list[_Stored]:
        """The rows ``query`` selects from ``games``, each with its moves, every game as
        it was at one version (a game deleted meanwhile is left out)."""

        def read(connection: sa.Connection) -> tuple[
                list[sa.Row[Any]], dict[str, list[tuple[int, Any]]], dict[str, Any]]:
            rows = list(connection.execute(query).all())
            ids = [row.id for row in rows]
            played: dict[str, list[tuple[int, Any]]] = {game_id: [] for game_id in ids}
            versions: dict[str, Any] = {}
            for start in range(0, len(ids), _IDS_PER_QUERY):
                chunk = ids[start:start + _IDS_PER_QUERY]
                for game_id, step, action in connection.execute(
                    sa.select(moves.c.game_id, moves.c.step, moves.c.action)
                    .where(moves.c.game_id.in_(chunk))
                    .order_by(moves.c.game_id, moves.c.step)
                ):
                    played[game_id].append((step, action))
                versions.update(connection.execute(
                    sa.select(games.c.id, games.c.version).where(games.c.id.in_(chunk))).all())
            return rows, played, versions

        for attempt in range(1, READ_TRIES + 1):
            rows, played, versions = self._read(read)
            if all(versions.get(row.id) == row.version for row in rows):
                return [(row, played[row.id]) for row in rows]
            if len(rows) > 1:
                # Each game that was written meanwhile is read again on its own.
                found: list[_Stored] = []
                for row in rows:
                    if versions.get(row.id) == row.version:
                        found.append((row, played[row.id]))
                    else:
                        found += self._read_games(sa.select(games).where(games.c.id == row.id))
                return found
            if attempt == READ_TRIES:
                raise StorageError(f"The game database failed: game {rows[0].id} was written"
                                   f" {READ_TRIES} times while it was read")
        raise AssertionError("unreachable")  # pragma: no cover

    def get(self, game_id: str, *, known: SavedGame | None = None) -> SavedGame:
        if known is not None and known.id == game_id:
            # Every write raises the version: at the same version, the copy is the game.
            version = self._read(lambda c: c.scalar(
                sa.select(games.c.version).where(games.c.id == game_id)))
            if version is None:
                raise GameNotFound(game_id)
            if version == known.version:
                return known
        found = self._read_games(sa.select(games).where(games.c.id == game_id))
        if not found:
            raise GameNotFound(game_id)
        return self._saved(*found[0])

    def unfinished(self) -> list[ListedGame]:
        query = (
            sa.select(games)
            .where(games.c.status == PLAYING, games.c.steps > 0)
            .order_by(games.c.updated_at.desc(), games.c.created_at.desc(), games.c.id)
        )
        return self._listing(query)

    def recent(
        self, limit: int = 20, *, finished: bool | None = None, player: str | None = None,
        seed: str | None = None,
    ) -> list[ListedGame]:
        if limit <= 0:
            return []
        newest_first = (games.c.updated_at.desc(), games.c.created_at.desc(), games.c.id)
        where = [] if finished is None else [games.c.status == (FINISHED if finished else PLAYING)]
        if seed is not None:
            where.append(games.c.seed == seed)
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
            stored = self._read_games(query)
        except StorageError as exc:
            if not _is_damage(exc):
                raise
            ids = self._read(lambda c: list(c.scalars(query.with_only_columns(games.c.id))))
            found = (self._listed_id(game_id) for game_id in ids)
            return [game for game in found if game is not None]
        return [self._listed(row, played) for row, played in stored]

    def _listed_id(self, game_id: str) -> ListedGame | None:
        try:
            found = self._read_games(sa.select(games).where(games.c.id == game_id))
        except StorageError as exc:
            if not _is_damage(exc):
                raise
            stored = self.stored(game_id)
            return DamagedGame(game_id, _reason(exc), _stored_time(stored["updated_at"]),
                               stored["status"] == FINISHED)
        return self._listed(*found[0]) if found else None

    @classmethod
    def _listed(cls, row: sa.Row[Any], played: list[tuple[int, Any]]) -> ListedGame:
        try:
            return cls._saved(row, played)
        except (RecordError, StorageError) as exc:
            return DamagedGame(row.id, _reason(exc), row.updated_at, row.status == FINISHED)
        except _DECODING as exc:  # pragma: no cover - the core raises RecordError
            return DamagedGame(row.id, str(exc), row.updated_at, row.status == FINISHED)

    def stored(self, game_id: str) -> dict[str, Any]:
        """The row of ``games`` as stored, with ``moves``: its rows of ``moves`` as
        ``{"step": n, "action": …}`` in step order (JSON that does not decode stays
        text)."""
        columns = [sa.cast(column, sa.Text).label(column.name) for column in games.c]

        def read(connection: sa.Connection) -> tuple[Any, list[sa.Row[Any]]]:
            row = connection.execute(sa.select(*columns).where(games.c.id == game_id)).first()
            played = connection.execute(
                sa.select(moves.c.step, sa.cast(moves.c.action, sa.Text).label("action"))
                .where(moves.c.game_id == game_id).order_by(moves.c.step)).all()
            return row, list(played)

        row, played = self._read(read)
        if row is None:
            raise GameNotFound(game_id)
        stored: dict[str, Any] = dict(row._mapping)
        for name in _JSON_COLUMNS:
            stored[name] = _json(stored[name])
        for name in ("steps", "version"):
            with contextlib.suppress(*_DECODING):
                stored[name] = int(stored[name])
        stored["moves"] = [{"step": move.step, "action": _json(move.action)} for move in played]
        if stored.get("status") != FINISHED:
            # The seed of a game in play is no one's to see: it tells every roll to come.
            stored["seed"] = None
            if isinstance(stored.get("record"), dict):
                stored["record"]["seed"] = None
        return stored

    def has_game(self, game_id: str) -> bool:
        return self._read(lambda c: c.execute(_HAS_GAME, {"game_id": game_id}).first()
                          ) is not None

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
            connection.execute(moves.delete().where(moves.c.game_id == game_id))
            done = connection.execute(games.delete().where(games.c.id == game_id))
            if done.rowcount != 1:
                raise GameNotFound(game_id)
            self._write_rows(connection, changes, self._log_rows(events))

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
                connection.execute(moves.delete().where(moves.c.game_id.in_(doomed)))
                connection.execute(
                    games.delete().where(games.c.id.in_(doomed), *unmoved))
                self._write_rows(connection, changes, self._log_rows(
                    [GameDeleted(game_id) for game_id in doomed]))
        return doomed

    def ping(self) -> None:
        # The games table, not just "SELECT 1": a database that answers without the
        # schema (a file deleted and made again empty) cannot serve games either.
        self._read(lambda c: c.execute(sa.select(games.c.id).limit(1)).all())

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
        mine = _seats_of(key_hash)
        query = (
            sa.select(games.c.id, mine.c.seat)
            .join(mine, mine.c.game_id == games.c.id)
            .order_by(games.c.updated_at.desc(), games.c.id, mine.c.seat)
            .limit(limit)
        )
        pairs = self._read(lambda c: c.execute(query).all())
        found = [(self._listed_id(game_id), seat) for game_id, seat in pairs]
        return [SeatedGame(game, seat) for game, seat in found if isinstance(game, SavedGame)]

    def bests(self, key_hash: str) -> list[BestScore]:
        query = bests_query(_seats_of(key_hash))
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
                rate(results.c.yahtzee_points > 0).label("yahtzee_rate"),
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

    # --- Settings, players and the daily challenges ------------------------------------

    def setting(self, key: str, default: str) -> str:
        query = sa.select(settings.c.value).where(settings.c.key == key)
        found = self._read(lambda c: c.scalar(query))
        if found is not None:
            return str(found)
        with self._transaction() as connection:
            try:
                with connection.begin_nested():
                    connection.execute(settings.insert().values(key=key, value=default))
            except sa.exc.IntegrityError:
                pass  # another process wrote it first: its value holds
            return str(connection.scalar(query))

    @staticmethod
    def _player(row: sa.Row[Any]) -> Player:
        return Player(row.id, row.name, row.created_at, row.rating, row.rating_deviation,
                      row.rating_volatility, int(row.rated_games or 0), row.skill_mu,
                      row.skill_sigma, int(row.skill_games or 0))

    def player_of_key(self, key_hash: str, *, create_at: datetime | None = None
                      ) -> Player | None:
        query = (sa.select(players).join(player_keys, player_keys.c.player_id == players.c.id)
                 .where(player_keys.c.key_hash == key_hash))
        row = self._read(lambda c: c.execute(query).first())
        if row is not None or create_at is None:
            return None if row is None else self._player(row)
        player_id = secrets.token_hex(16)
        with self._transaction() as connection:
            try:
                with connection.begin_nested():
                    connection.execute(players.insert().values(
                        id=player_id, name=None, name_key=None, created_at=create_at,
                        updated_at=create_at))
                    connection.execute(player_keys.insert().values(
                        key_hash=key_hash, player_id=player_id, created_at=create_at))
            except sa.exc.IntegrityError:
                pass  # the same key made a player at the same moment: that one it is
            return self._player(connection.execute(query).one())

    def players_of_keys(self, key_hashes: Sequence[str]) -> dict[str, Player]:
        if not key_hashes:
            return {}
        keys = {"keys": sorted(set(key_hashes))}
        return {row.key_hash: self._player(row)
                for row in self._read(lambda c: c.execute(_PLAYERS_OF_KEYS, keys).all())}

    def player_named(self, name_key: str) -> Player | None:
        query = sa.select(players).where(players.c.name_key == name_key)
        row = self._read(lambda c: c.execute(query).first())
        return None if row is None else self._player(row)

    def rename_player(self, player_id: str, name: str, name_key: str, when: datetime
                      ) -> None:
        taken = sa.select(sa.func.count()).where(players.c.name_key == name_key,
                                                 players.c.id != player_id)
        with self._transaction() as connection:
            if connection.scalar(taken):
                raise NameTaken(name)
            try:
                with connection.begin_nested():
                    connection.execute(players.update().where(players.c.id == player_id)
                                       .values(name=name, name_key=name_key, updated_at=when))
            except sa.exc.IntegrityError:
                raise NameTaken(name) from None  # taken at the same moment

    def player_games(self, player_id: str) -> int:
        query = (
            sa.select(sa.func.count(sa.distinct(seat_keys.c.game_id)))
            .join(player_keys, player_keys.c.key_hash == seat_keys.c.key_hash)
            .join(games, games.c.id == seat_keys.c.game_id)
            .where(player_keys.c.player_id == player_id, games.c.status == FINISHED)
        )
        return int(self._read(lambda c: c.scalar(query)) or 0)

    def add_daily_entry(self, entry: DailyEntry) -> None:
        with self._transaction() as connection:
            try:
                with connection.begin_nested():
                    connection.execute(daily_entries.insert().values(
                        ruleset=entry.rules, day=entry.day, player_id=entry.player_id,
                        game_id=entry.game_id, started_at=entry.started_at))
            except sa.exc.IntegrityError:
                raise DailyPlayed(entry.rules, entry.day.isoformat()) from None

    def finish_daily_entry(self, entry: DailyEntry) -> None:
        with self._transaction() as connection:
            connection.execute(
                daily_entries.update()
                .where(daily_entries.c.ruleset == entry.rules,
                       daily_entries.c.day == entry.day,
                       daily_entries.c.player_id == entry.player_id)
                .values(total=entry.total, points_lost=entry.points_lost,
                        finished_at=entry.finished_at))

    @staticmethod
    def _entry(row: sa.Row[Any]) -> DailyEntry:
        return DailyEntry(row.ruleset, row.day, row.player_id, row.name, row.game_id,
                          row.started_at, row.total, row.points_lost, row.finished_at)

    def _entries(self, *where: sa.ColumnElement[bool]) -> list[DailyEntry]:
        query = (
            sa.select(daily_entries, players.c.name)
            .join(players, players.c.id == daily_entries.c.player_id)
            .where(*where)
            .order_by(daily_entries.c.day.desc(), daily_entries.c.started_at,
                      daily_entries.c.player_id)
        )
        rows = self._read(lambda c: c.execute(query).all())
        return [self._entry(row) for row in rows]

    def daily_entries(self, rules: str, day: date) -> list[DailyEntry]:
        return self._entries(daily_entries.c.ruleset == rules, daily_entries.c.day == day)

    def daily_counts(self, day: date) -> dict[str, int]:
        query = (sa.select(daily_entries.c.ruleset, sa.func.count())
                 .where(daily_entries.c.day == day).group_by(daily_entries.c.ruleset))
        return {name: int(n) for name, n in self._read(lambda c: c.execute(query).all())}

    def player_entries(self, player_id: str) -> list[DailyEntry]:
        return self._entries(daily_entries.c.player_id == player_id)

    def daily_par(self, rules: str, day: date) -> int | None:
        query = sa.select(daily_pars.c.par).where(daily_pars.c.ruleset == rules,
                                                  daily_pars.c.day == day)
        par = self._read(lambda c: c.scalar(query))
        return None if par is None else int(par)

    def set_daily_par(self, rules: str, day: date, par: int) -> None:
        with self._transaction() as connection:
            try:
                with connection.begin_nested():
                    connection.execute(daily_pars.insert().values(ruleset=rules, day=day,
                                                                  par=par))
            except sa.exc.IntegrityError:
                pass  # worked out at the same moment elsewhere: the same par

    # --- Quick match and ratings ---------------------------------------------------------

    @staticmethod
    def _ticket(row: sa.Row[Any]) -> Ticket:
        return Ticket(row.id, row.player_id, row.name, row.key_hash, row.token_hash,
                      row.ruleset, float(row.rating), row.status, row.created_at,
                      row.seen_at, row.game_id, row.seat, row.matched_at)

    def add_tickets(self, arrivals: Sequence[tuple[Ticket, str]], *, stale_before: datetime,
                    nearest: Callable[[Sequence[Ticket], Ticket], Ticket | None],
                    games: Callable[[list[list[Ticket]]], Sequence[NewGame]] | None = None,
                    pool: int = 1000) -> list[Arrived]:
        for _ in range(_TRIES):
            try:
                return self._add_tickets(arrivals, stale_before, nearest, games, pool)
            except _NotPaired:
                continue  # another process wrote a ticket of these players meanwhile
        raise StorageError("The game database failed: the tickets met others too often")

    def _add_tickets(self, arrivals: Sequence[tuple[Ticket, str]], stale_before: datetime,
                     nearest: Callable[[Sequence[Ticket], Ticket], Ticket | None],
                     games: Callable[[list[list[Ticket]]], Sequence[NewGame]] | None,
                     limit: int) -> list[Arrived]:
        if not arrivals:
            return []
        who = sorted({ticket.player_id for ticket, _ in arrivals})
        rules = sorted({ticket.rules for ticket, _ in arrivals})
        with self._transaction() as connection:
            # A waiting ticket its holder stopped asking about is given up.
            connection.execute(_EXPIRE, {"who": who, "stale_before": stale_before})
            waiting = set(connection.scalars(_WAITING_OF, {"who": who}))
            # The waiting tickets, locked (on PostgreSQL; the one writer holds SQLite):
            # one another process's pairing holds is left to it (skipped), and each taken
            # here is still waiting when it is updated.
            pool = [self._ticket(row) for row in connection.execute(
                _POOL, {"rules": rules, "seen_since": stale_before, "limit": limit})]
            # The arrivals in their order, as one by one: each pairs with the nearest
            # ticket waiting by then (stored before, or an earlier arrival), or waits.
            new: dict[str, Ticket] = {}
            taken: list[Ticket] = []
            answers: list[tuple[Ticket, Ticket | None] | None] = []
            for ticket, game_id in arrivals:
                if ticket.player_id in waiting:
                    answers.append(None)
                    continue
                partner = nearest(pool, ticket)
                if partner is None:
                    pool.append(ticket)
                    waiting.add(ticket.player_id)
                    new[ticket.id] = ticket
                    answers.append((ticket, None))
                    continue
                pool.remove(partner)
                waiting.discard(partner.player_id)
                first = replace(partner, status=MATCHED, game_id=game_id, seat=0,
                                matched_at=ticket.created_at)
                mine = replace(ticket, status=MATCHED, game_id=game_id, seat=1,
                               matched_at=ticket.created_at)
                if partner.id in new:
                    new[partner.id] = first
                else:
                    taken.append(first)
                new[mine.id] = mine
                answers.append((mine, first))
            for ticket in sorted(taken, key=lambda t: t.id):
                if connection.execute(_TAKE, {
                        "ticket_id": ticket.id, "game_id": ticket.game_id,
                        "matched_at": ticket.matched_at}).rowcount != 1:
                    raise _NotPaired  # never while it is locked: tried again all the same
            try:
                self._write_rows(connection, match_tickets, [
                    {"id": t.id, "player_id": t.player_id,
                     "waiting_player": t.player_id if t.status == WAITING else None,
                     "name": t.name, "key_hash": t.key_hash, "token_hash": t.token_hash,
                     "ruleset": t.rules, "rating": t.rating, "status": t.status,
                     "created_at": t.created_at, "seen_at": t.seen_at, "game_id": t.game_id,
                     "seat": t.seat, "matched_at": t.matched_at} for t in new.values()])
            except sa.exc.IntegrityError:
                raise _NotPaired from None  # a ticket of one of them stored meanwhile
            paired = [[partner, mine] for mine, partner in filter(None, answers)
                      if partner is not None]
            self._write_rows(connection, rated_games, [
                {"game_id": mine.game_id, "ruleset": mine.rules, "created_at": mine.matched_at}
                for _, mine in paired])
            if games is not None:
                self._insert_games(connection, games(paired))
        return [AlreadyWaiting() if answer is None else
                (new.get(answer[0].id, answer[0]), answer[1]) for answer in answers]

    def ticket(self, ticket_id: str) -> Ticket | None:
        row = self._read(lambda c: c.execute(_TICKET, {"ticket_id": ticket_id}).first())
        return None if row is None else self._ticket(row)

    def ticket_and_game(self, ticket_id: str) -> tuple[Ticket, bool] | None:
        row = self._read(lambda c: c.execute(_TICKET_AND_GAME, {"ticket_id": ticket_id})
                         .first())
        return None if row is None else (self._ticket(row), row.stored is not None)

    def see_ticket(self, ticket_id: str, when: datetime) -> None:
        with self._transaction() as connection:
            connection.execute(match_tickets.update().where(
                match_tickets.c.id == ticket_id, match_tickets.c.status == WAITING,
                match_tickets.c.seen_at < when).values(seen_at=when))

    def cancel_ticket(self, ticket_id: str) -> bool:
        with self._transaction() as connection:
            return connection.execute(match_tickets.update().where(
                match_tickets.c.id == ticket_id, match_tickets.c.status == WAITING,
            ).values(status=CANCELLED, waiting_player=None)).rowcount == 1

    @staticmethod
    def _waiting(rules: str, *, near: float, seen_since: datetime, excluding: str,
                 limit: int) -> sa.Select[Any]:
        return (
            sa.select(match_tickets)
            .where(match_tickets.c.status == WAITING, match_tickets.c.ruleset == rules,
                   match_tickets.c.player_id != excluding,
                   match_tickets.c.seen_at >= seen_since)
            .order_by(sa.func.abs(match_tickets.c.rating - near), match_tickets.c.created_at,
                      match_tickets.c.id)
            .limit(limit)
        )

    def waiting_tickets(self, rules: str, *, near: float, seen_since: datetime,
                        excluding: str, limit: int) -> list[Ticket]:
        query = self._waiting(rules, near=near, seen_since=seen_since, excluding=excluding,
                              limit=limit)
        return [self._ticket(row) for row in self._read(lambda c: c.execute(query).all())]

    def pair_tickets(self, seats: Sequence[str], game_id: str, rules: str,
                     when: datetime) -> bool:
        # Both tickets move from waiting to matched in one transaction, each by an update
        # that only a waiting ticket passes: a ticket paired, cancelled or given up
        # meanwhile (by another process too) fails it, and nothing is written. The rows
        # are taken in one order (by id), so that two pairings never wait for each other.
        try:
            with self._transaction() as connection:
                for ticket_id in sorted(seats):
                    done = connection.execute(match_tickets.update().where(
                        match_tickets.c.id == ticket_id, match_tickets.c.status == WAITING,
                    ).values(status=MATCHED, waiting_player=None, game_id=game_id,
                             seat=list(seats).index(ticket_id), matched_at=when))
                    if done.rowcount != 1:
                        raise _NotPaired
                connection.execute(rated_games.insert().values(
                    game_id=game_id, ruleset=rules, created_at=when))
        except _NotPaired:
            return False
        return True

    def match_of(self, game_id: str) -> list[Ticket]:
        query = (sa.select(match_tickets).where(match_tickets.c.game_id == game_id)
                 .order_by(match_tickets.c.seat))
        return [self._ticket(row) for row in self._read(lambda c: c.execute(query).all())]

    def unrated_games(self, player_id: str) -> list[str]:
        query = (
            sa.select(rated_games.c.game_id)
            .where(rated_games.c.rated_at.is_(None), sa.or_(
                rated_games.c.game_id.in_(sa.select(match_tickets.c.game_id).where(
                    match_tickets.c.player_id == player_id)),
                rated_games.c.game_id.in_(sa.select(rated_seats.c.game_id).where(
                    rated_seats.c.player_id == player_id))))
            .order_by(rated_games.c.created_at, rated_games.c.game_id)
        )
        return list(self._read(lambda c: c.scalars(query).all()))

    def players_unrated(self, player_ids: Sequence[str]) -> set[str]:
        if not player_ids:
            return set()
        who = {"who": sorted(set(player_ids))}
        return set(self._read(lambda c: c.scalars(_PLAYERS_UNRATED, who).all()))

    def overdue_rated(self, before: datetime, limit: int) -> list[str]:
        query = (
            sa.select(games.c.id)
            .join(rated_games, rated_games.c.game_id == games.c.id)
            .where(rated_games.c.rated_at.is_(None), games.c.status == PLAYING,
                   games.c.updated_at < before)
            .order_by(games.c.updated_at, games.c.id).limit(limit)
        )
        return list(self._read(lambda c: c.scalars(query).all()))

    def rate_game(self, game_id: str, rate: Callable[[list[Rating]], list[Rating]],
                  when: datetime) -> bool:
        with self._transaction() as connection:
            # The update that only an unrated game passes decides who rates it: once.
            if connection.execute(rated_games.update().where(
                    rated_games.c.game_id == game_id, rated_games.c.rated_at.is_(None),
            ).values(rated_at=when)).rowcount != 1:
                return False
            seated = dict(connection.execute(
                sa.select(match_tickets.c.seat, match_tickets.c.player_id)
                .where(match_tickets.c.game_id == game_id)).all())
            ids = [seated[seat] for seat in sorted(seated)]
            if len(ids) != 2:
                return False  # a player was deleted since: the game counts for nobody
            rows = {row.id: row for row in connection.execute(
                sa.select(players).where(players.c.id.in_(ids)).order_by(players.c.id)
                .with_for_update()).all()}
            before = [Rating() if rows[i].rating is None else Rating(
                rows[i].rating, rows[i].rating_deviation, rows[i].rating_volatility)
                for i in ids]
            for player_id, old, after in zip(ids, before, rate(before), strict=True):
                connection.execute(players.update().where(players.c.id == player_id).values(
                    rating=after.rating, rating_deviation=after.deviation,
                    rating_volatility=after.volatility,
                    rated_games=players.c.rated_games + 1))
                record_settlement(connection, game_id, player_id, "glicko", when,
                                  (old.rating, old.deviation), (after.rating, after.deviation))
            return True

    def close(self) -> None:
        self.engine.dispose()


class _NotPaired(Exception):
    """A ticket of a pairing was no longer waiting: the pairing is taken back."""
