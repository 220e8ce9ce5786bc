"""The profile queries of :class:`~yatzy.storage.repository.SqlGameRepository`
(:class:`yatzy.app.profiles.ProfileRepository`): rated public tables, the rating history,
games' accuracy, players' games and bests, and the leaderboards. Each leaderboard is one
query over rows written when a game ended (no game is replayed to answer it)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

import sqlalchemy as sa

from yatzy.app.profiles import (
    OPENSKILL,
    AccuracyPoint,
    AccuracyRow,
    PlayedGame,
    RatingPoint,
    RatingRow,
)
from yatzy.app.saved import BestScore, Player
from yatzy.app.skill import DEFAULT_MU, DEFAULT_SIGMA
from yatzy.core.rulesets import Ruleset
from yatzy.storage.tables import (
    game_accuracy,
    games,
    player_accuracy,
    player_keys,
    players,
    rated_games,
    rated_seats,
    rating_history,
    results,
    seat_keys,
)

T = TypeVar("T")

_FINISHED = "finished"


def record_settlement(connection: sa.Connection, game_id: str, player_id: str, kind: str,
                      when: datetime, before: tuple[float, float],
                      after: tuple[float, float]) -> None:
    """Keep one settlement of a rated game (in the transaction that rates it)."""
    connection.execute(rating_history.insert().values(
        game_id=game_id, player_id=player_id, kind=kind, rated_at=when,
        rating_before=before[0], deviation_before=before[1],
        rating_after=after[0], deviation_after=after[1]))


def _rules(name: str, key: str) -> Ruleset:
    return Ruleset.from_dict({"name": name, "options": json.loads(key)})


def bests_query(mine: sa.Subquery) -> sa.Select[Any]:
    """The best total and the number of games of each ruleset (its name and options)
    among the seats ``mine`` (``game_id``, ``seat``) whose results are stored."""
    return (
        sa.select(games.c.ruleset, games.c.options_key,
                  sa.func.max(results.c.total).label("best"),
                  sa.func.count().label("games"))
        .select_from(mine)
        .join(results, sa.and_(results.c.game_id == mine.c.game_id,
                               results.c.seat == mine.c.seat))
        .join(games, games.c.id == mine.c.game_id)
        .group_by(games.c.ruleset, games.c.options_key)
    )


class ProfileQueries:
    """The profile part of the SQL repository (a mixin: the repository gives the
    engine, its transactions and reads)."""

    if TYPE_CHECKING:
        def _transaction(self) -> AbstractContextManager[sa.Connection]: ...
        def _read(self, query: Callable[[sa.Connection], T]) -> T: ...
        @staticmethod
        def _player(row: sa.Row[Any]) -> Player: ...

    # --- Rated tables -----------------------------------------------------------------

    def claimed_seats(self, game_id: str) -> list[tuple[int, Player]]:
        query = (
            sa.select(seat_keys.c.seat, players)
            .join(player_keys, player_keys.c.key_hash == seat_keys.c.key_hash)
            .join(players, players.c.id == player_keys.c.player_id)
            .where(seat_keys.c.game_id == game_id, players.c.name.is_not(None))
            .order_by(seat_keys.c.seat, seat_keys.c.claimed_at, players.c.id)
        )
        rows = self._read(lambda c: c.execute(query).all())
        return [(int(row.seat), self._player(row)) for row in rows]

    def register_table(self, game_id: str, rules: str, players: Sequence[str],
                       when: datetime) -> bool:
        with self._transaction() as connection:
            try:
                with connection.begin_nested():
                    connection.execute(rated_games.insert().values(
                        game_id=game_id, ruleset=rules, created_at=when))
                    connection.execute(rated_seats.insert(), [
                        {"game_id": game_id, "seat": seat, "player_id": player_id}
                        for seat, player_id in enumerate(players)])
            except sa.exc.IntegrityError:
                return False  # noted already (by another request at the same moment)
            return True

    def rate_table(self, game_id: str, seats: int,
                   rate: Callable[[list[tuple[float, float] | None]],
                                  list[tuple[float, float]]],
                   when: datetime) -> bool:
        with self._transaction() as connection:
            seated = dict(connection.execute(
                sa.select(rated_seats.c.seat, rated_seats.c.player_id)
                .where(rated_seats.c.game_id == game_id)).all())
            if not seated:
                return False  # no rated table (a quick match is rated by rate_game)
            # The update that only an unrated game passes decides who rates it: once.
            if connection.execute(rated_games.update().where(
                    rated_games.c.game_id == game_id, rated_games.c.rated_at.is_(None),
            ).values(rated_at=when)).rowcount != 1:
                return False
            ids = [seated[seat] for seat in sorted(seated)]
            rows = {row.id: row for row in connection.execute(
                sa.select(players).where(players.c.id.in_(ids)).order_by(players.c.id)
                .with_for_update()).all()}
            if len(ids) != seats or len(rows) != len(ids):
                return False  # a player was deleted since: the game counts for nobody
            before = [None if rows[i].skill_mu is None else
                      (float(rows[i].skill_mu), float(rows[i].skill_sigma)) for i in ids]
            after = rate(before)
            for player_id, old, new in zip(ids, before, after, strict=True):
                connection.execute(players.update().where(players.c.id == player_id).values(
                    skill_mu=new[0], skill_sigma=new[1],
                    skill_games=players.c.skill_games + 1))
                record_settlement(connection, game_id, player_id, OPENSKILL, when,
                                  old or (DEFAULT_MU, DEFAULT_SIGMA), new)
            return True

    def rating_history(self, player_id: str, limit: int) -> list[RatingPoint]:
        query = (
            sa.select(rating_history).where(rating_history.c.player_id == player_id)
            .order_by(rating_history.c.rated_at.desc(), rating_history.c.game_id)
            .limit(limit)
        )
        rows = self._read(lambda c: c.execute(query).all())
        return [RatingPoint(r.game_id, r.kind, r.rated_at, r.rating_before,
                            r.deviation_before, r.rating_after, r.deviation_after)
                for r in reversed(rows)]

    # --- Accuracy ---------------------------------------------------------------------

    def add_accuracy(self, game_id: str, rules: str, finished_at: datetime,
                     seats: Sequence[tuple[int, str, float]], *, recent: int) -> None:
        with self._transaction() as connection:
            for seat, player_id, points in seats:
                try:
                    with connection.begin_nested():
                        connection.execute(game_accuracy.insert().values(
                            game_id=game_id, seat=seat, player_id=player_id, ruleset=rules,
                            points_lost=points, finished_at=finished_at))
                except sa.exc.IntegrityError:
                    pass  # noted already (the game analysed twice): the same figure
            for player_id in sorted({player_id for _, player_id, _ in seats}):
                # The player's recent mean, worked out again from their last games (an
                # indexed read of ``recent`` rows) and kept for the leaderboard.
                last = connection.scalars(
                    sa.select(game_accuracy.c.points_lost)
                    .where(game_accuracy.c.player_id == player_id,
                           game_accuracy.c.ruleset == rules)
                    .order_by(game_accuracy.c.finished_at.desc(), game_accuracy.c.game_id)
                    .limit(recent)).all()
                where = (player_accuracy.c.player_id == player_id,
                         player_accuracy.c.ruleset == rules)
                connection.execute(player_accuracy.delete().where(*where))
                connection.execute(player_accuracy.insert().values(
                    player_id=player_id, ruleset=rules, games=len(last),
                    points_lost=sum(float(p) for p in last) / len(last)))

    def player_accuracy(self, player_id: str, limit: int) -> list[AccuracyPoint]:
        query = (
            sa.select(game_accuracy).where(game_accuracy.c.player_id == player_id)
            .order_by(game_accuracy.c.finished_at.desc(), game_accuracy.c.game_id)
            .limit(limit)
        )
        rows = self._read(lambda c: c.execute(query).all())
        return [AccuracyPoint(r.game_id, r.ruleset, r.finished_at, float(r.points_lost))
                for r in reversed(rows)]

    # --- Games and bests --------------------------------------------------------------

    @staticmethod
    def _seats_of(player_id: str, name: str) -> sa.Subquery:
        """The (game, seat) a player sat in: claimed by one of their browsers under
        their display name, finished."""
        return (
            sa.select(seat_keys.c.game_id, seat_keys.c.seat).distinct()
            .join(player_keys, player_keys.c.key_hash == seat_keys.c.key_hash)
            .join(results, sa.and_(results.c.game_id == seat_keys.c.game_id,
                                   results.c.seat == seat_keys.c.seat))
            .where(player_keys.c.player_id == player_id, results.c.player == name)
            .subquery()
        )

    def played_games(self, player_id: str, name: str, limit: int) -> list[PlayedGame]:
        mine = self._seats_of(player_id, name)
        others = results.alias("others")
        count = (sa.select(sa.func.count()).where(others.c.game_id == results.c.game_id)
                 .scalar_subquery())
        query = (
            sa.select(games.c.id, games.c.ruleset, games.c.options_key, games.c.finished_at,
                      results.c.total, results.c.place, count.label("players"),
                      game_accuracy.c.points_lost)
            .select_from(mine)
            .join(results, sa.and_(results.c.game_id == mine.c.game_id,
                                   results.c.seat == mine.c.seat))
            .join(games, games.c.id == mine.c.game_id)
            .outerjoin(game_accuracy, sa.and_(game_accuracy.c.game_id == mine.c.game_id,
                                              game_accuracy.c.seat == mine.c.seat))
            .where(games.c.status == _FINISHED)
            .order_by(games.c.finished_at.desc(), games.c.id)
            .limit(limit)
        )
        rows = self._read(lambda c: c.execute(query).all())
        return [PlayedGame(r.id, _rules(r.ruleset, r.options_key), r.finished_at,
                           int(r.total), int(r.place), int(r.players),
                           None if r.points_lost is None else float(r.points_lost))
                for r in rows]

    def player_bests(self, player_id: str, name: str) -> list[BestScore]:
        mine = self._seats_of(player_id, name)
        query = bests_query(mine).where(games.c.status == _FINISHED)
        rows = self._read(lambda c: c.execute(query).all())
        found = [BestScore(_rules(r.ruleset, r.options_key), int(r.best), int(r.games))
                 for r in rows]
        return sorted(found, key=lambda b: (-b.games, str(b.rules)))

    # --- Leaderboards -----------------------------------------------------------------

    def rating_leaders(self, kind: str, limit: int, established: int) -> list[RatingRow]:
        if kind == OPENSKILL:
            rating, deviation, count = (players.c.skill_mu, players.c.skill_sigma,
                                        players.c.skill_games)
            order: sa.ColumnElement[Any] = rating - 3 * deviation
        else:
            rating, deviation, count = (players.c.rating, players.c.rating_deviation,
                                        players.c.rated_games)
            order = rating
        settled = sa.case((count >= established, 0), else_=1)
        query = (
            sa.select(players.c.name, rating.label("rating"), deviation.label("deviation"),
                      count.label("games"))
            .where(players.c.name.is_not(None), rating.is_not(None))
            .order_by(settled, order.desc(), players.c.name_key)
            .limit(limit)
        )
        rows = self._read(lambda c: c.execute(query).all())
        return [RatingRow(r.name, float(r.rating), float(r.deviation), int(r.games))
                for r in rows]

    def accuracy_leaders(self, rules: str, limit: int, *, recent: int,
                         min_games: int) -> list[AccuracyRow]:
        # ``recent`` is what ``add_accuracy`` kept the means over.
        query = (
            sa.select(players.c.name, player_accuracy.c.points_lost,
                      player_accuracy.c.games)
            .join(players, players.c.id == player_accuracy.c.player_id)
            .where(player_accuracy.c.ruleset == rules,
                   player_accuracy.c.games >= min_games, players.c.name.is_not(None))
            .order_by(player_accuracy.c.points_lost, players.c.name_key)
            .limit(limit)
        )
        rows = self._read(lambda c: c.execute(query).all())
        return [AccuracyRow(r.name, round(float(r.points_lost), 3), int(r.games))
                for r in rows]


__all__ = ["ProfileQueries", "record_settlement"]
