"""The profile queries of the SQL repository on SQLite and PostgreSQL: a player's
accuracy kept as the mean of their last games of a ruleset, the accuracy board's
minimum of games, a second note of a game's accuracy changing nothing, and the rating
board's established players first."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

import yatzy
from yatzy.app import GameService
from yatzy.storage.repository import SqlGameRepository

WHEN = datetime(2026, 6, 1, tzinfo=UTC)


def player(repo: SqlGameRepository, n: int) -> str:
    found = repo.player_of_key(f"{n:064d}", create_at=WHEN)
    assert found is not None
    repo.rename_player(found.id, f"P{n}", f"p{n}", WHEN)
    return found.id


def test_accuracy_is_the_mean_of_the_last_games(service: GameService,
                                                repo: SqlGameRepository) -> None:
    ann, bo = player(repo, 1), player(repo, 2)
    rules = yatzy.ruleset("yatzy")
    for i in range(25):  # Ann loses i points in game i: her last 20 are 5 to 24
        game = service.create(rules, ["P1", "P2"], seed=i)
        repo.add_accuracy(game.id, "yatzy", WHEN + timedelta(minutes=i),
                          [(0, ann, float(i)), (1, bo, 1.0)], recent=20)
        if i == 24:  # the same game noted again: the same figures
            repo.add_accuracy(game.id, "yatzy", WHEN + timedelta(minutes=i),
                              [(0, ann, 99.0)], recent=20)
    board = repo.accuracy_leaders("yatzy", 10, recent=20, min_games=5)
    assert [(r.name, r.points_lost, r.games) for r in board] == [
        ("P2", 1.0, 20), ("P1", pytest.approx(sum(range(5, 25)) / 20), 20)]
    assert repo.accuracy_leaders("yatzy", 10, recent=20, min_games=21) == []
    assert repo.accuracy_leaders("yahtzee", 10, recent=20, min_games=1) == []
    assert [a.points_lost for a in repo.player_accuracy(ann, 3)] == [22.0, 23.0, 24.0]


def test_the_rating_board_puts_established_players_first(repo: SqlGameRepository) -> None:
    import sqlalchemy as sa

    from yatzy.storage.tables import players

    ids = [player(repo, n) for n in range(1, 4)]
    with repo.engine.begin() as connection:
        for pid, rating, games in zip(ids, (1900.0, 1600.0, 1700.0), (3, 12, 10),
                                      strict=True):
            connection.execute(sa.update(players).where(players.c.id == pid).values(
                rating=rating, rating_deviation=80.0, rated_games=games))
    board = repo.rating_leaders("glicko", 10, 10)
    assert [(r.name, r.provisional) for r in board] == [
        ("P3", False), ("P2", False), ("P1", True)]
    assert repo.rating_leaders("openskill", 10, 10) == []
