"""The SQL repository on SQLite and PostgreSQL: round trips, history and statistics
with expectations computed by hand, optimistic concurrency, damaged records."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

import yatzy
from tests.app.playing import per_player, play_game, play_turns, same_dice, upper_kind_then
from yatzy.app import (
    GameChanged,
    GameNotFound,
    GameService,
    SavedGame,
    Seat,
    StatsRow,
    StorageError,
    player_results,
)
from yatzy.core.errors import RecordError
from yatzy.core.record import record_header
from yatzy.storage import SqlGameRepository, make_engine, options_key, upgrade
from yatzy.storage.tables import games, results

YATZY = yatzy.ruleset("yatzy")
IN_ORDER = yatzy.ruleset("yatzy", order="in_order")
YAHTZEE = yatzy.ruleset("yahtzee")
WHEN = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


def test_round_trip(repo: SqlGameRepository) -> None:
    game = yatzy.new_game(YAHTZEE, ["Ann", "cpu"], seed=2**53 - 1, first_player="roll")
    game = game.roll().reroll([0, 1])
    saved = SavedGame("a" * 32, game, (Seat("Ann"), Seat("cpu", "greedy")), "auto",
                      WHEN, WHEN + timedelta(microseconds=7))
    repo.add(saved)
    assert repo.get(saved.id) == saved
    later = dataclasses.replace(saved, game=game.score("chance"),
                                updated_at=WHEN + timedelta(hours=1), version=2)
    repo.save(later, expected_version=1)
    assert repo.get(saved.id) == later


def test_timestamps_keep_the_instant_across_time_zones(repo: SqlGameRepository) -> None:
    oslo = datetime(2026, 7, 1, 14, 0, tzinfo=UTC).astimezone(
        __import__("zoneinfo").ZoneInfo("Europe/Oslo"))
    game = yatzy.new_game(YATZY, ["Ann"], seed=1)
    repo.add(SavedGame("t", game, (Seat("Ann"),), "auto", oslo, oslo))
    loaded = repo.get("t")
    assert loaded.created_at == oslo and loaded.created_at.tzinfo == UTC


def test_naive_timestamps_are_refused(repo: SqlGameRepository) -> None:
    game = yatzy.new_game(YATZY, ["Ann"], seed=1)
    naive = datetime(2026, 1, 1)
    with pytest.raises(sa.exc.StatementError, match="aware"):
        repo.add(SavedGame("n", game, (Seat("Ann"),), "auto", naive, naive))


def test_query_columns_follow_the_record(repo: SqlGameRepository) -> None:
    rules = yatzy.ruleset("yahtzee", joker="free", rolls=2)
    game = yatzy.new_game(rules, ["Ann"], seed=12345)
    repo.add(SavedGame("q", game, (Seat("Ann"),), "auto", WHEN, WHEN))
    with repo.engine.connect() as connection:
        row = connection.execute(sa.select(games)).one()
    assert (row.ruleset, row.seed, row.status, row.steps, row.dice_mode) == (
        "yahtzee", "12345", "playing", 0, "auto")
    assert row.options_key == options_key(rules)
    assert row.options_key == '{"joker":"free","rolls":2,"upper_first":false,"yahtzee_bonus":true}'
    assert row.seats == [{"name": "Ann", "bot": None}]
    assert row.record == record_header(game) and row.finished_at is None


def test_finished_game_writes_one_result_per_player(service: GameService,
                                                    db: str | Path) -> None:
    saved = play_game(service, YATZY, [Seat("Ann"), Seat("Bo", "greedy")], per_player({
        "Ann": upper_kind_then([6, 6, 6, 6, 6]), "Bo": same_dice([1, 2, 3, 4, 5])}))
    engine = make_engine(db)
    with engine.connect() as connection:
        rows = connection.execute(
            sa.select(results).order_by(results.c.seat)).mappings().all()
        game_row = connection.execute(sa.select(games)).one()
    engine.dispose()
    assert [dict(r) for r in rows] == [
        {"game_id": saved.id, "seat": 0, "player": "Ann", "is_bot": False, "bot": None,
         "total": 289, "upper_bonus": 50, "yahtzee_points": 50, "yahtzee_bonuses": 0,
         "place": 1},
        {"game_id": saved.id, "seat": 1, "player": "Bo", "is_bot": True, "bot": "greedy",
         "total": 45, "upper_bonus": 0, "yahtzee_points": 0, "yahtzee_bonuses": 0,
         "place": 2},
    ]
    assert game_row.status == "finished" and game_row.finished_at == saved.updated_at
    assert game_row.record["totals"] == {"Ann": 289, "Bo": 45}


def test_stale_save_is_refused(repo: SqlGameRepository) -> None:
    game = yatzy.new_game(YATZY, ["Ann"], seed=1)
    saved = SavedGame("s", game, (Seat("Ann"),), "auto", WHEN, WHEN)
    repo.add(saved)
    rolled = dataclasses.replace(saved, game=game.roll(), version=2)
    repo.save(rolled, expected_version=1)
    with pytest.raises(GameChanged) as caught:
        repo.save(dataclasses.replace(saved, game=game.roll(), version=2), expected_version=1)
    assert caught.value.params == {"game_id": "s", "expected": 1, "actual": 2, "what": "version"}
    with pytest.raises(GameNotFound):
        repo.save(dataclasses.replace(saved, id="other"), expected_version=1)
    assert repo.get("s") == rolled


def test_damaged_record_names_the_game_and_step(repo: SqlGameRepository) -> None:
    game = yatzy.new_game(YATZY, ["Ann"], seed=1).roll().score("chance")
    repo.add(SavedGame("d", game, (Seat("Ann"),), "auto", WHEN, WHEN))
    record = game.to_record()
    record["actions"][1]["points"] = 99
    with repo.engine.begin() as connection:
        connection.execute(games.update().values(record=record))
    with pytest.raises(RecordError, match="Saved game d does not replay") as caught:
        repo.get("d")
    assert caught.value.step == 1


def test_unreachable_database_is_a_storage_error(repo: SqlGameRepository) -> None:
    with repo.engine.begin() as connection:
        connection.exec_driver_sql("DROP TABLE daily_entries")
        connection.exec_driver_sql("DROP TABLE game_accuracy")
        connection.exec_driver_sql("DROP TABLE seat_keys")
        connection.exec_driver_sql("DROP TABLE results")
        connection.exec_driver_sql("DROP TABLE moves")
        connection.exec_driver_sql("DROP TABLE games")
    with pytest.raises(StorageError, match="game database failed"):
        repo.unfinished()
    with pytest.raises(StorageError):
        repo.add(SavedGame("x", yatzy.new_game(YATZY, ["A"], seed=1), (Seat("A"),), "auto",
                           WHEN, WHEN))


# --- Statistics with expectations computed by hand ------------------------------------
#
# Everyone fills the first open box each turn with the dice of their plan:
# - 1 1 1 1 1 in Yatzy: ones 5, pair 2, three 3, four 4, chance 5, yatzy 50 = 69.
# - 1 2 3 4 5 in Yatzy: 1+2+3+4+5 = 15 upper, small straight 15, chance 15 = 45.
# - 6 6 6 6 6 in Yatzy: sixes 30, pair 12, three 18, four 24, chance 30, yatzy 50 = 164.
# - five of the face in the upper boxes, then 6 6 6 6 6: 105 + bonus 50 + 134 = 289.
# - 1 2 3 4 5 in Yahtzee: upper 15, small straight 30, large 40, chance 15 = 100.
# - 2 2 2 3 3 in Yahtzee: twos 6, threes 6, three of a kind 12, full house 25,
#   chance 12 = 61.


@pytest.fixture
def history(service: GameService) -> GameService:
    """Four finished games and one unfinished, in this order."""
    play_game(service, YATZY, ["Ann", "Bo"], per_player({
        "Ann": upper_kind_then([6, 6, 6, 6, 6]), "Bo": same_dice([1, 2, 3, 4, 5])}))
    play_game(service, YATZY, ["Ann"], same_dice([1, 1, 1, 1, 1]))
    play_game(service, YAHTZEE, ["Ann", Seat("Cy", "random")], per_player({
        "Ann": same_dice([1, 2, 3, 4, 5]), "Cy": same_dice([2, 2, 2, 3, 3])}))
    play_game(service, IN_ORDER, [Seat("Bo")], same_dice([6, 6, 6, 6, 6]))
    unfinished = service.create(YATZY, ["Ann"], dice_mode="manual")
    play_turns(service, unfinished, same_dice([6, 6, 6, 6, 6]), 5)  # not counted
    return service


def test_stats_by_hand(history: GameService) -> None:
    assert history.stats() == [
        StatsRow("yahtzee", "Ann", 1, 100, 100.0, 0.0, 0.0, wins=1),
        StatsRow("yahtzee", "Cy", 1, 61, 61.0, 0.0, 0.0, wins=0),
        StatsRow("yatzy", "Ann", 2, 289, 179.0, 0.5, 1.0, wins=1),  # the solo game: no win
        StatsRow("yatzy", "Bo", 1, 45, 45.0, 0.0, 0.0, wins=0),
        StatsRow("yatzy (order=in_order)", "Bo", 1, 164, 164.0, 0.0, 1.0, wins=0),
    ]


def test_stats_filters(history: GameService) -> None:
    assert [(r.ruleset, r.player) for r in history.stats("yatzy")] == [
        ("yatzy", "Ann"), ("yatzy", "Bo"), ("yatzy (order=in_order)", "Bo")]
    assert [(r.ruleset, r.player) for r in history.stats(YATZY)] == [
        ("yatzy", "Ann"), ("yatzy", "Bo")]
    assert [(r.ruleset, r.games) for r in history.stats(player="Bo")] == [
        ("yatzy", 1), ("yatzy (order=in_order)", 1)]
    assert history.stats("yahtzee", "Bo") == []
    assert history.stats(player="Nobody") == []


def test_scores_best_and_rulesets(history: GameService) -> None:
    assert history.scores(YATZY) == [289, 45, 69]
    assert history.scores(YATZY, "Ann") == [289, 69]
    assert history.scores("yatzy", "Bo") == [45, 164]
    assert history.scores() == [289, 45, 69, 100, 61, 164]
    assert history.best(YATZY, "Ann") == 289 and history.best(IN_ORDER, "Ann") is None
    assert history.rulesets() == [YAHTZEE, YATZY, IN_ORDER]
    assert history.rulesets("yatzy") == [YATZY, IN_ORDER]
    assert history.rulesets(YAHTZEE) == [YAHTZEE]


def test_deleting_games(history: GameService, db: str | Path) -> None:
    (unfinished,) = history.unfinished()
    history.delete(unfinished.id)
    assert history.unfinished() == []
    assert len(history.scores()) == 6  # its turns were no history
    engine = make_engine(db)
    with engine.connect() as connection:
        (in_order,) = connection.scalars(
            sa.select(games.c.id).where(games.c.options_key == options_key(IN_ORDER))).all()
    engine.dispose()
    history.delete(in_order)
    assert history.rulesets() == [YAHTZEE, YATZY]
    assert history.scores("yatzy", "Bo") == [45]


def test_empty_history(service: GameService) -> None:
    assert service.stats() == [] and service.scores() == [] and service.rulesets() == []
    assert service.best(YATZY, "Ann") is None


# --- Statistics against a plain computation, for any games ----------------------------


def _random_finished_game(rules: yatzy.Ruleset, players: list[str], rolls: list[list[int]],
                          picks: list[int]) -> yatzy.Game:
    game = yatzy.new_game(rules, players, seed=None)
    k = 0
    while not game.is_over:
        game = game.roll(rolls[k % len(rolls)])
        options = sorted(game.choices())
        game = game.score(options[picks[k % len(picks)] % len(options)])
        k += 1
    return game


dice = st.lists(st.integers(1, 6), min_size=5, max_size=5)


@settings(max_examples=12, deadline=None)
@given(
    games=st.lists(
        st.tuples(
            st.sampled_from([YATZY, YAHTZEE, IN_ORDER]),
            st.lists(st.sampled_from(["Ann", "Bo", "Cy"]), min_size=1, max_size=3, unique=True),
            st.lists(dice, min_size=1, max_size=6),
            st.lists(st.integers(0, 20), min_size=1, max_size=6),
        ),
        max_size=6,
    )
)
def test_stats_match_a_plain_computation(
    games: list[tuple[yatzy.Ruleset, list[str], list[list[int]], list[int]]],
) -> None:
    engine = make_engine("sqlite://")
    upgrade(engine)
    repo = SqlGameRepository(engine)
    expected: dict[tuple[str, str], list[tuple[int, bool, bool, bool]]] = defaultdict(list)
    for i, (rules, players, rolls, picks) in enumerate(games):
        game = _random_finished_game(rules, players, rolls, picks)
        saved = SavedGame(f"g{i}", game, tuple(Seat(p) for p in players), "manual",
                          WHEN + timedelta(minutes=i), WHEN + timedelta(minutes=i))
        repo.add(saved)
        for r in player_results(saved):
            expected[(str(rules), r.player)].append(
                (r.total, r.upper_bonus > 0, r.yahtzee_points == 50,
                 r.place == 1 and len(players) > 1))
    want = [
        StatsRow(ruleset, player, len(rows), max(t for t, *_ in rows),
                 sum(t for t, *_ in rows) / len(rows),
                 sum(b for _, b, _, _ in rows) / len(rows),
                 sum(y for _, _, y, _ in rows) / len(rows),
                 wins=sum(w for *_, w in rows))
        for (ruleset, player), rows in sorted(expected.items())
    ]
    got = repo.stats()
    assert [dataclasses.replace(s, mean=round(s.mean, 9)) for s in got] == [
        dataclasses.replace(s, mean=round(s.mean, 9)) for s in want]
    assert sorted(repo.scores()) == sorted(t for rows in expected.values() for t, *_ in rows)
    repo.close()


def test_a_finished_game_is_added_with_its_results(repo: SqlGameRepository) -> None:
    game = _random_finished_game(YATZY, ["Ann"], [[3, 3, 3, 3, 3]], [0])
    repo.add(SavedGame("f", game, (Seat("Ann"),), "manual", WHEN, WHEN))
    assert repo.scores() == [game.scorecard("Ann").total]
    assert repo.get("f").finished and repo.unfinished() == []


# --- Listing games --------------------------------------------------------------------


def test_recent_games_newest_first(history: GameService) -> None:
    everything = history.recent()
    players = [g.game.players for g in everything]
    assert players == [("Ann",), ("Bo",), ("Ann", "Cy"), ("Ann",), ("Ann", "Bo")]
    assert [g.finished for g in everything] == [False, True, True, True, True]
    times = [g.updated_at for g in everything]
    assert times == sorted(times, reverse=True)
    assert everything[0] == history.load(everything[0].id)
    assert history.recent(2) == everything[:2]
    assert history.recent(0) == [] and history.recent(-1) == []


def test_recent_games_filters(history: GameService) -> None:
    def players(limit: int = 20, *, finished: bool | None = None,
                player: str | None = None) -> list[tuple[str, ...]]:
        return [g.game.players for g in history.recent(limit, finished=finished, player=player)]

    assert players(finished=True) == [("Bo",), ("Ann", "Cy"), ("Ann",), ("Ann", "Bo")]
    assert players(finished=False) == [("Ann",)]
    assert players(player="Bo") == [("Bo",), ("Ann", "Bo")]
    assert players(player="Cy") == [("Ann", "Cy")]  # a computer player's seat counts
    assert players(limit=2, player="Ann") == [("Ann",), ("Ann", "Cy")]
    assert players(limit=2, finished=True, player="Ann") == [("Ann", "Cy"), ("Ann",)]
    assert players(finished=False, player="Bo") == []
    assert players(player="Nobody") == [] and players(player="ann") == []


def test_recent_games_by_seed(service: GameService) -> None:
    """The seed filter, on either database: the games dealt from that seed, with the
    other filters too (numbers and secret seeds are stored as text)."""
    secret = "0f" * 20
    a = service.create(YATZY, ["Ann"], seed=7)
    b = service.create(YAHTZEE, ["Bo"], seed=7)
    c = service.create(YATZY, ["Ann"], seed=70)
    d = service.create(YATZY, ["Ann", "Bo"], seed=secret)
    assert [g.id for g in service.recent(seed=7)] == [b.id, a.id]
    assert [g.id for g in service.recent(seed=7, player="Ann")] == [a.id]
    assert [g.id for g in service.recent(seed=70)] == [c.id]
    assert [g.id for g in service.recent(seed=secret, player="Bo")] == [d.id]
    assert [g.id for g in service.recent(1, seed=7, finished=False)] == [b.id]
    assert service.recent(seed=7, finished=True) == [] and service.recent(seed=8) == []


def test_ids_starting_with(repo: SqlGameRepository) -> None:
    game = yatzy.new_game(YATZY, ["Ann"], seed=1)
    for game_id in ("abc1", "abd2", "x%y", "x_z", "xyz"):
        repo.add(SavedGame(game_id, game, (Seat("Ann"),), "auto", WHEN, WHEN))
    assert repo.ids_starting_with("ab") == ["abc1", "abd2"]
    assert repo.ids_starting_with("ABC") == ["abc1"]  # case does not matter
    assert repo.ids_starting_with("abc1") == ["abc1"]
    assert repo.ids_starting_with("x%") == ["x%y"]  # LIKE's wildcards are plain text
    assert repo.ids_starting_with("x_") == ["x_z"]
    assert repo.ids_starting_with("q") == [] and repo.ids_starting_with("abc12") == []
