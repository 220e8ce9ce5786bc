"""The idle clock of rated games: each decision of a person has the service's move clock;
when it runs out a computer plays the seat, the game counts as lost for that person, and
that is decided once, on the stored game (also with two processes, and after a restart).
Time is a fake clock here: the session sleeps on it, and the test moves it on."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.app.playing import START
from yatzy.app import GameService, SavedGame
from yatzy.app.codes import AppCode
from yatzy.app.events import Event
from yatzy.app.ratings import game_scores, ranked_totals
from yatzy.app.session import GameSession, Phase
from yatzy.app.sessions import Sessions
from yatzy.app.table import Table
from yatzy.bootstrap import open_service
from yatzy.core.actions import Roll, Score
from yatzy.core.errors import IllegalMove

pytestmark = pytest.mark.asyncio

CLOCK = timedelta(seconds=60)


class FakeTime:
    """A clock that moves only when the test says, and a ``sleep`` on it."""

    def __init__(self) -> None:
        self.now = START
        self._sleepers: list[tuple[datetime, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def __call__(self) -> datetime:
        return self.now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + timedelta(seconds=seconds),
                                        next(self._order), future))
        await future

    async def advance(self, seconds: float) -> None:
        """Move on ``seconds``, waking the sleepers due, and let the loop run."""
        self.now += timedelta(seconds=seconds)
        while self._sleepers and self._sleepers[0][0] <= self.now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)
        for _ in range(50):
            await asyncio.sleep(0)


@pytest.fixture
def time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def service(tmp_path: Path, time: FakeTime) -> Iterator[GameService]:
    with open_service(tmp_path / "games.sqlite3", clock=time, move_clock=CLOCK) as service:
        yield service


def key(n: int) -> str:
    return f"player-key-{n:04d}-abcdefghijklmnop"


def rated_game(service: GameService) -> SavedGame:
    """Ann and Bo paired by quick match: a rated game, Ann to move first."""
    service.players.set_name(key(1), "Ann")
    service.players.set_name(key(2), "Bo")
    ticket = service.matches.request(key(1), "yatzy")
    service.matches.request(key(2), "yatzy")
    game_id = service.matches.status(key(1), ticket).game_id
    assert game_id is not None
    return service.load(game_id)


async def inline(work: Callable[..., Any], *args: Any) -> Any:
    """Runs the database work on the loop: what the test sees happens in its order."""
    return work(*args)


def session_of(service: GameService, saved: SavedGame, time: FakeTime) -> GameSession:
    return GameSession(Table.open(service, saved, seed=1), pace=0, sleep=time.sleep,
                       run=inline)


async def test_the_deadline_is_the_stored_game_s_last_change_and_the_clock(
        service: GameService, time: FakeTime, tmp_path: Path) -> None:
    saved = rated_game(service)
    assert service.deadline(saved) == saved.updated_at + CLOCK
    assert service.deadline(service.load(saved.id)) == saved.updated_at + CLOCK
    await time.advance(5)
    moved = service.apply(saved.id, Roll())
    assert service.deadline(moved) == time.now + CLOCK  # each decision has its clock
    unrated = service.create(saved.rules, ["Ann", "Bo"])
    assert service.deadline(unrated) is None
    with open_service(tmp_path / "games.sqlite3", clock=time, move_clock=None) as no_clock:
        assert no_clock.deadline(moved) is None and no_clock.overdue() == []


async def test_a_clock_that_runs_out_gives_the_seat_to_a_computer_and_the_game_goes_on(
        service: GameService, time: FakeTime) -> None:
    saved = rated_game(service)
    session = session_of(service, saved, time)
    session.start()
    await time.advance(30)
    await session.act(Roll(), player="Ann")  # a decision: the clock starts again
    assert session.deadline == time.now + CLOCK
    await time.advance(59)
    assert not session.saved.seats[0].idle and session.phase is Phase.PERSON
    await time.advance(2)
    ann = session.saved.seats[0]
    assert ann.idle and ann.bot == service.matches.stand_in(saved, "Ann")
    assert ann.bot == "medium"  # a new player's strength (1500), as the quick match offers
    stored = service.load(saved.id)
    assert stored.seats[0].idle and stored.seats[0].bot == ann.bot
    await session.settled()
    # The computer finished Ann's turn; Bo is to move, with a clock of his own.
    assert session.game.current_player == "Bo" and session.phase is Phase.PERSON
    assert session.deadline == session.saved.updated_at + CLOCK
    # Ann's seat is the computer's now: her moves are refused.
    with pytest.raises(IllegalMove) as refused:
        await session.act(Roll(), player="Ann")
    assert refused.value.code == AppCode.SEAT_IDLE


async def test_an_idle_player_loses_the_rated_game_whatever_the_totals(
        service: GameService, time: FakeTime) -> None:
    saved = rated_game(service)
    session = session_of(service, saved, time)
    session.start()
    await time.advance(61)  # Ann never moves
    assert session.saved.seats[0].idle
    while not session.game.is_over:
        await session.settled()
        if session.game.is_over:
            break
        # Bo plays as badly as can be: a roll, then the first open box.
        await session.act(Roll(), player="Bo")
        box = session.game.card.open_boxes[0]
        await session.act(Score(box), player="Bo")
    ann, bo = service.players.profile("Ann"), service.players.profile("Bo")
    assert ann.rating is not None and bo.rating is not None
    assert ann.rating < 1500 < bo.rating
    assert game_scores(ranked_totals([300, 100], [True, False])) == (0.0, 1.0)
    assert game_scores(ranked_totals([100, 300], [True, True])) == (0.0, 1.0)
    assert ranked_totals([300, 250, 100], [True, False, False]) == [-999700, 250, 100]


async def test_nothing_changes_before_the_deadline_on_the_stored_game(
        service: GameService, time: FakeTime) -> None:
    saved = rated_game(service)
    await time.advance(59)
    assert service.time_out(saved.id) is None
    assert service.load(saved.id).version == saved.version
    await time.advance(1)
    assert service.time_out(saved.id, expected_version=saved.version) is not None
    assert service.time_out(saved.id) is None  # a computer's turn now: no clock


async def test_the_clock_survives_a_restart_and_runs_out_unwatched(
        tmp_path: Path, time: FakeTime) -> None:
    db = tmp_path / "games.sqlite3"
    with open_service(db, clock=time, move_clock=CLOCK) as first:
        saved = rated_game(first)
    await time.advance(120)  # the server was down meanwhile; nobody has the game open
    with open_service(db, clock=time, move_clock=CLOCK) as again:
        assert again.overdue() == [saved.id]
        sessions = Sessions(again, pace=0, sleep=time.sleep, sweep=True, run=inline)
        assert await sessions.sweep() == [saved.id]
        for _ in range(20):
            await time.advance(0)
        stored = again.load(saved.id)
        assert stored.seats[0].idle and stored.game.current_player == "Bo"
        assert again.overdue() == []
        await sessions.close()


async def test_two_processes_at_the_deadline_give_the_seat_once(
        tmp_path: Path, time: FakeTime) -> None:
    db = tmp_path / "games.sqlite3"
    heard: list[Event] = []
    with open_service(db, clock=time, move_clock=CLOCK, follow=True) as one, \
            open_service(db, clock=time, move_clock=CLOCK, follow=True) as two:
        saved = rated_game(one)
        one.subscribe(heard.append)
        sessions = [Sessions(s, pace=0, sleep=time.sleep, run=inline) for s in (one, two)]
        for s in sessions:
            s.start()
        games = [await s.get(saved.id) for s in sessions]
        held = [s.use(game) for s, game in zip(sessions, games, strict=True)]
        await time.advance(61)
        for _ in range(100):  # the other process hears through the store's change log
            await asyncio.sleep(0.02)
            if all(game.saved.seats[0].idle for game in games):
                break
        assert all(game.saved.seats[0].idle for game in games)
        await asyncio.sleep(0.5)  # the other's event, if there were one, is heard by now
        assert [e.type for e in heard].count("seat_idle") == 1
        for release in held:
            release()
        for s in sessions:
            await s.close()
