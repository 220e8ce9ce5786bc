"""Profiles (yatzy.app.profiles): rated public tables of 3 to 6 players counted once for
their OpenSkill ratings as the library computes them, the rating history of both kinds,
each finished game's accuracy worked out in the background, players' games and bests,
and the leaderboards, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from tests.app.playing import TickingClock
from yatzy.app import GameService
from yatzy.app.errors import BadQuery, PlayerNotFound
from yatzy.app.profiles import ACCURACY_MIN_GAMES, GLICKO, OPENSKILL
from yatzy.app.ratings import Rating, game_scores, rate_pair
from yatzy.app.saved import SavedGame, Seat
from yatzy.bootstrap import open_service
from yatzy.core.actions import Roll, Score
from yatzy.core.rulesets import ruleset


@pytest.fixture
def db(sql_db: str | Path) -> str | Path:
    """Each test on SQLite and on PostgreSQL."""
    return sql_db


@pytest.fixture
def service(db: str | Path) -> Iterator[GameService]:
    with open_service(db, clock=TickingClock()) as service:
        yield service


def key(n: int) -> str:
    return f"player-key-{n:04d}-abcdefghijklmnop"


def named(service: GameService, n: int) -> str:
    service.players.set_name(key(n), f"P{n}")
    return key(n)


def play_out(service: GameService, saved: SavedGame) -> SavedGame:
    """Each player rolls once and fills the first open box, to the end."""
    while not saved.finished:
        game = saved.game
        if game.dice is None:
            saved = service.apply(saved.id, Roll())
        else:
            saved = service.apply(saved.id, Score(game.cards[game.current_seat].open_boxes[0]))
    return saved


def rated_table(service: GameService, players: int, *, first: int = 1) -> SavedGame:
    """A public table of ``players`` seats, each taken by a named player under their
    own name and claimed by their browser, as the lobby's join does."""
    names = [f"P{n}" for n in range(first, first + players)]
    for n in range(first, first + players):
        named(service, n)
    saved = service.create(ruleset("yatzy"), [Seat(names[0])] +
                           [Seat("", open=True)] * (players - 1), public=True)
    service.claim_seat(saved.id, names[0], key(first))
    for i, name in enumerate(names[1:], first + 1):
        saved = service.join(saved.id, name)
        service.claim_seat(saved.id, name, key(i))
    assert saved.open_seats == 0
    assert service.profiles.rate_table(saved)
    return saved


@pytest.mark.parametrize("players", [3, 6])
def test_a_rated_table_moves_openskill_ratings_as_the_library_does(
        service: GameService, players: int) -> None:
    saved = play_out(service, rated_table(service, players))
    totals = [card.total for card in saved.game.cards]
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in totals], scores=totals)
    for seat, team in zip(saved.seats, expected, strict=True):
        profile = service.players.profile(seat.name)
        assert profile.multi_rating == round(team[0].mu, 2)
        assert profile.multi_rating_deviation == round(team[0].sigma, 2)
        assert profile.multi_rated_games == 1 and profile.multi_provisional
        assert profile.rating is None and profile.rated_games == 0  # Glicko's apart
    # The best total went up, the worst down.
    order = sorted(range(players), key=lambda i: totals[i])
    if totals[order[-1]] > totals[order[-2]]:
        assert service.players.profile(saved.seats[order[-1]].name).multi_rating > 25
    if totals[order[0]] < totals[order[1]]:
        assert service.players.profile(saved.seats[order[0]].name).multi_rating < 25
    # Once: settling again, or registering the table again, changes nothing.
    before = [service.players.profile(s.name) for s in saved.seats]
    assert not service.matches.settle(service.load(saved.id))
    assert service.profiles.rate_table(saved)  # noted already: still rated, no change
    assert not service.matches.settle(service.load(saved.id))
    assert [service.players.profile(s.name) for s in saved.seats] == before
    history = service.profiles.history(saved.seats[0].name).history
    assert len(history) == 1 and history[0].kind == OPENSKILL
    assert (history[0].rating_before, history[0].deviation_before) == (
        model.mu, model.sigma)
    assert history[0].rating_after == pytest.approx(expected[0][0].mu)


def test_a_second_rated_table_starts_from_the_first_s_ratings(service: GameService) -> None:
    one = play_out(service, rated_table(service, 3))
    two = play_out(service, rated_table(service, 3))
    model = PlackettLuce()
    first = model.rate([[model.rating()] for _ in range(3)],
                       scores=[c.total for c in one.game.cards])
    second = model.rate([[model.rating(mu=t[0].mu, sigma=t[0].sigma)] for t in first],
                        scores=[c.total for c in two.game.cards])
    history = service.profiles.history("P2").history
    assert [h.game_id for h in history] == [one.id, two.id]
    assert history[1].rating_before == pytest.approx(first[1][0].mu)
    assert history[1].rating_after == pytest.approx(second[1][0].mu)
    assert service.players.profile("P2").multi_rated_games == 2


def test_tables_that_are_not_rated(service: GameService) -> None:
    for n in (1, 2, 3):
        named(service, n)
    # A seat under another name than its player's display name.
    saved = service.create(ruleset("yatzy"), [Seat("P1"), Seat("", open=True),
                                              Seat("", open=True)], public=True)
    service.claim_seat(saved.id, "P1", key(1))
    saved = service.join(saved.id, "P2")
    service.claim_seat(saved.id, "P2", key(2))
    saved = service.join(saved.id, "Someone")
    service.claim_seat(saved.id, "Someone", key(3))
    assert not service.profiles.rate_table(saved)
    # A seat nobody claimed.
    other = service.create(ruleset("yatzy"), [Seat("P1"), Seat("", open=True),
                                              Seat("", open=True)], public=True)
    other = service.join(service.join(other.id, "P2").id, "P3")
    assert not service.profiles.rate_table(other)
    # Two players only: quick match rates those.
    pair = service.create(ruleset("yatzy"), [Seat("P1"), Seat("", open=True)], public=True)
    service.claim_seat(pair.id, "P1", key(1))
    pair = service.join(pair.id, "P2")
    service.claim_seat(pair.id, "P2", key(2))
    assert not service.profiles.rate_table(pair)
    for game in (saved, other, pair):
        play_out(service, game)
    assert all(service.players.profile(f"P{n}").multi_rating is None for n in (1, 2, 3))


def test_a_quick_match_keeps_its_glicko_history(service: GameService) -> None:
    ann, bo = named(service, 1), named(service, 2)
    first = service.matches.request(ann, "yatzy")
    service.matches.request(bo, "yatzy")
    game_id = service.matches.status(ann, first).game_id
    assert game_id is not None
    saved = play_out(service, service.load(game_id))
    expected = rate_pair(Rating(), Rating(), game_scores([c.total for c in saved.game.cards]))
    for seat, rating in zip(saved.seats, expected, strict=True):
        found = service.profiles.history(seat.name)
        assert [(h.kind, h.rating_before, h.deviation_before) for h in found.history] == [
            (GLICKO, 1500, 350)]
        assert found.history[0].rating_after == pytest.approx(rating.rating)
        assert found.history[0].deviation_after == pytest.approx(rating.deviation)
        glicko = found.ratings[0]
        assert glicko.kind == GLICKO and glicko.games == 1 and glicko.provisional
        assert found.games[0].game_id == saved.id and found.games[0].players == 2


def test_accuracy_is_worked_out_in_the_background_once_a_game_is_over(
        service: GameService) -> None:
    jobs: list[object] = []
    service.profiles.background = jobs.append  # type: ignore[assignment]
    named(service, 1)
    saved = service.create(ruleset("yatzy"), [Seat("P1"), Seat("Guest")], seed=3)
    service.claim_seat(saved.id, "P1", key(1))
    service.claim_seat(saved.id, "Guest", key(1))  # one browser, pass-and-play
    saved = play_out(service, saved)
    assert len(jobs) == 1  # asked for, not worked out on the way
    assert service.profiles.history("P1").accuracy == ()
    assert service.profiles.note_accuracy(saved.id) == 1  # P1's seat, not the guest's
    found = service.profiles.history("P1")
    assert [a.game_id for a in found.accuracy] == [saved.id]
    assert found.accuracy[0].points_lost > 0  # filling the first box is no optimal play
    assert found.recent_points_lost == found.accuracy[0].points_lost
    assert found.games[0].points_lost == found.accuracy[0].points_lost
    assert found.bests[0].best == saved.game.cards[0].total
    assert service.profiles.note_accuracy(saved.id) == 1  # again: the same figure, kept
    assert len(service.profiles.history("P1").accuracy) == 1


def test_leaderboards(service: GameService) -> None:
    jobs: list[object] = []
    service.profiles.background = jobs.append  # type: ignore[assignment]
    named(service, 1)
    named(service, 2)
    ids = []
    for n in range(ACCURACY_MIN_GAMES):
        saved = service.create(ruleset("yatzy"), [Seat("P1")], seed=n)
        service.claim_seat(saved.id, "P1", key(1))
        ids.append(play_out(service, saved).id)
    solo = service.create(ruleset("yatzy"), [Seat("P2")], seed=1)
    service.claim_seat(solo.id, "P2", key(2))
    ids.append(play_out(service, solo).id)
    for game_id in ids:
        service.profiles.note_accuracy(game_id)
    board = service.profiles.leaderboard("accuracy")
    assert [row.name for row in board.accuracy] == ["P1"]  # P2 has one game only
    assert board.accuracy[0].games == ACCURACY_MIN_GAMES
    assert service.profiles.leaderboard("accuracy", rules="yahtzee").accuracy == ()
    play_out(service, rated_table(service, 3, first=3))
    rating = service.profiles.leaderboard("rating", kind=OPENSKILL)
    assert sorted(row.name for row in rating.ratings) == ["P3", "P4", "P5"]
    ordinals = [row.rating - 3 * row.deviation for row in rating.ratings]
    assert ordinals == sorted(ordinals, reverse=True)
    assert service.profiles.leaderboard("rating").ratings == ()
    daily = service.profiles.leaderboard("daily", rules="yatzy")
    assert daily.daily is not None and daily.day == service.players.today()


@pytest.mark.parametrize("args", [
    {"by": "speed"}, {"by": "rating", "kind": "elo"}, {"by": "rating", "rules": "yatzy"},
    {"by": "accuracy", "kind": "glicko"}, {"by": "accuracy", "day": "2026-01-01"},
    {"by": "accuracy", "rules": "chess"}, {"by": "daily", "day": "yesterday"},
    {"by": "rating", "limit": 0}, {"by": "rating", "limit": True},
    {"by": "rating", "limit": 10_000},
])
def test_bad_leaderboards_are_refused(service: GameService, args: dict[str, object]) -> None:
    rest = dict(args)
    by = rest.pop("by")
    with pytest.raises(ValueError):
        service.profiles.leaderboard(by, **rest)  # type: ignore[arg-type]


def test_an_unknown_player_has_no_history(service: GameService) -> None:
    with pytest.raises(PlayerNotFound):
        service.profiles.history("Nobody")
    with pytest.raises(PlayerNotFound):
        service.profiles.history(12)
    assert issubclass(BadQuery, ValueError)


def test_a_daily_attempt_is_noted_in_the_background(service: GameService,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    jobs: list[Callable[[], object]] = []
    service.profiles.background = jobs.append
    named(service, 1)
    saved = play_out(service, service.players.play("yatzy", key(1)))
    [job] = jobs
    job()
    # The day's results read what the background noted: no analysis on the way.
    import yatzy.app.players

    def no_analysis(game: object) -> float:
        raise AssertionError("analysed on a request")

    monkeypatch.setattr(yatzy.app.players, "points_lost", no_analysis)
    results = service.players.results("yatzy", service.players.today())
    [entry] = results.entries
    assert entry.entry.game_id == saved.id and entry.entry.total == saved.game.cards[0].total
    [accuracy] = service.profiles.history("P1").accuracy
    assert entry.entry.points_lost == accuracy.points_lost > 0


def test_two_processes_settle_a_table_once(db: str | Path) -> None:
    """The process that stored the last action stopped before it rated the table: two
    others settle it at the same moment, and it counts once."""
    import threading

    from yatzy.app.quickmatch import QuickMatch

    with open_service(db, clock=TickingClock()) as one, \
            open_service(db, clock=TickingClock()) as two:
        saved = rated_table(one, 3)
        one.matches.settle = lambda saved: False  # type: ignore[method-assign]
        saved = play_out(one, saved)
        results: list[bool] = []
        barrier = threading.Barrier(2)

        def settle(service: GameService) -> None:
            barrier.wait()
            results.append(QuickMatch.settle(service.matches, service.load(saved.id)))

        threads = [threading.Thread(target=settle, args=(s,)) for s in (one, two)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(results) == [False, True]
        for name in ("P1", "P2", "P3"):
            assert two.players.profile(name).multi_rated_games == 1
            assert len(two.profiles.history(name).history) == 1


def test_a_table_over_is_rated_when_a_player_is_read(db: str | Path) -> None:
    with open_service(db, clock=TickingClock()) as one, \
            open_service(db, clock=TickingClock()) as two:
        saved = rated_table(one, 4)
        one.matches.settle = lambda saved: False  # type: ignore[method-assign]
        play_out(one, saved)
        assert two.players.profile("P3").multi_rated_games == 1  # settled by the read
        assert all(two.players.profile(f"P{n}").multi_rated_games == 1 for n in (1, 2, 4))


def test_a_table_whose_player_is_gone_counts_for_nobody(db: str | Path) -> None:
    import sqlalchemy as sa

    from yatzy.storage.tables import players

    with open_service(db, clock=TickingClock()) as service:
        saved = rated_table(service, 3)
        gone = service.players.named("P2").id
        engine = sa.create_engine(str(db) if not isinstance(db, Path) else f"sqlite:///{db}")
        with engine.begin() as connection:  # PostgreSQL deletes their rated seat too
            connection.execute(sa.delete(players).where(players.c.id == gone))
        engine.dispose()
        play_out(service, saved)  # the last action is stored, and answered
        assert not service.matches.settle(service.load(saved.id))
        assert service.players.profile("P1").multi_rated_games == 0
