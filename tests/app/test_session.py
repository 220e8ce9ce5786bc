"""The game session: what a game in play waits for, the computers' turns played at the
session's pace, real dice for a computer's roll, and changes made elsewhere."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import yatzy
from yatzy.app import GameChanged, GameService, Seat
from yatzy.app.session import GameSession, Note, Phase
from yatzy.app.sessions import Sessions
from yatzy.app.table import Table
from yatzy.bootstrap import open_service
from yatzy.core.actions import Reroll, Roll, Score
from yatzy.core.dice import Dice
from yatzy.core.errors import IllegalMove

pytestmark = pytest.mark.asyncio

YATZY = yatzy.ruleset("yatzy")


def session_of(service: GameService, seats: list[Seat], **kwargs: object) -> GameSession:
    saved = service.create(YATZY, seats, **kwargs)  # type: ignore[arg-type]
    return GameSession(Table.open(service, saved, seed=1), pace=0)


async def test_a_computer_plays_its_whole_turn_then_a_person_is_to_move(
        service: GameService) -> None:
    session = session_of(service, [Seat("Ann"), Seat("cpu", bot="greedy")], seed=3)
    notes: list[Note] = []
    session.watch(notes.append)
    assert session.phase is Phase.PERSON
    await session.act(Roll(), player="Ann")
    await session.act(Score("chance"), player="Ann")
    assert session.phase in (Phase.THINKING, Phase.SHOWING)
    await session.settled()
    assert session.phase is Phase.PERSON and session.game.current_player == "Ann"
    assert len(session.game.scorecard("cpu").filled_boxes) == 1
    stored = service.load(session.saved.id)
    assert stored.version == session.saved.version and stored.game == session.game
    assert [n.kind for n in notes].count("state") >= 3


async def test_a_computer_shows_the_dice_it_keeps_before_it_rerolls(
        service: GameService) -> None:
    session = session_of(service, [Seat("cpu", bot="greedy")], seed=11)
    shown: list[tuple[Phase, Note]] = []
    session.watch(lambda note: shown.append((session.phase, note)))
    session.start()
    await session.settled()
    assert session.phase is Phase.OVER
    computer = [(phase, note) for phase, note in shown if note.kind == "computer"]
    assert computer, "a greedy player rerolls at least once in a game"
    assert all(phase is Phase.SHOWING and isinstance(note.action, Reroll)
               for phase, note in computer)


async def test_the_pace_is_the_sessions(service: GameService) -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    saved = service.create(YATZY, [Seat("cpu", bot="greedy")], seed=11)
    session = GameSession(Table.open(service, saved, seed=1), pace=0.8, sleep=sleep)
    session.start()
    await session.settled()
    assert session.phase is Phase.OVER
    assert set(slept) == {0.8, 0.4}  # before each step; half again to show a keep


async def test_real_dice_for_a_computers_roll_from_any_seat(service: GameService) -> None:
    session = session_of(service, [Seat("cpu", bot="greedy"), Seat("Ann")],
                         dice_mode="manual")
    session.start()
    await session.settled()
    assert session.phase is Phase.DICE and session.pending == Roll()
    with pytest.raises(IllegalMove):  # a reroll is not the roll the computer waits for
        await session.act(Reroll((0,), Dice([1, 1, 1, 1])), player="Ann")
    await session.act(Roll(Dice([6, 6, 6, 6, 6])), player="Ann")
    await session.settled()
    # The computer scored its five sixes, and Ann is to roll.
    assert session.game.scorecard("cpu")["yatzy"] == 50
    assert session.phase is Phase.PERSON and session.game.current_player == "Ann"


async def test_a_stale_version_is_refused_and_the_session_shows_the_stored_game(
        db: Path, service: GameService) -> None:
    session = session_of(service, [Seat("Ann")], seed=3)
    with open_service(db) as elsewhere:
        elsewhere.apply(session.saved.id, Roll())
    notes: list[Note] = []
    session.watch(notes.append)
    with pytest.raises(GameChanged):
        await session.act(Roll(), player="Ann", expected_version=1)
    assert session.saved.version == 2 and session.game.dice is not None
    assert notes == [Note("state")]


async def test_a_change_made_elsewhere_is_shown_and_its_computer_left_to_its_player(
        db: Path, service: GameService) -> None:
    session = session_of(service, [Seat("Ann"), Seat("cpu", bot="greedy")], seed=3)
    with open_service(db) as elsewhere:
        elsewhere.apply(session.saved.id, Roll())
        moved = elsewhere.apply(session.saved.id, Score("chance"))
        notes: list[Note] = []
        session.watch(notes.append)
        assert await session.refresh(moved.version, grace=0.3)
        assert notes == [Note("state")] and session.saved.version == moved.version
        assert not await session.refresh(moved.version)  # nothing newer: no read
        # The other process plays the computer's first step meanwhile: no take-over.
        cpu = Table.open(elsewhere, elsewhere.load(session.saved.id), seed=2)
        cpu.play_computer()
        await session.refresh(cpu.saved.version, grace=0.3)
        await asyncio.sleep(0.1)
        assert not session.busy
        # Nobody plays on: after the grace, this session plays the computer's turn.
        await asyncio.sleep(0.4)
        await session.settled()
        assert session.game.current_player == "Ann"
        assert len(session.game.scorecard("cpu").filled_boxes) == 1


async def test_a_failing_watcher_does_not_stop_the_game(
        service: GameService, caplog: pytest.LogCaptureFixture) -> None:
    session = session_of(service, [Seat("Ann")], seed=3)

    async def broken(note: Note) -> None:
        raise RuntimeError("gone")

    heard: list[Note] = []
    session.watch(broken)
    stop = session.watch(heard.append)
    await session.act(Roll(), player="Ann")
    stop()
    await session.act(Score("chance"), player="Ann")
    assert len(heard) == 1 and "watcher of game" in caplog.text
    assert session.game.scorecard("Ann")["chance"] is not None


async def test_undo_through_the_session(service: GameService) -> None:
    session = session_of(service, [Seat("Ann"), Seat("Bo")], seed=3)
    await session.act(Roll(), player="Ann")
    rolled = session.game
    await session.act(Score("chance"), player="Ann")
    with pytest.raises(IllegalMove):
        await session.undo(player="Bo")
    await session.undo(player="Ann")
    assert session.game.history == rolled.history and session.game.dice == rolled.dice


async def test_a_session_in_use_is_never_opened_twice(service: GameService) -> None:
    """A connection closing while a request uses the game must not leave two sessions
    (two players of one computer) behind."""
    saved = service.create(YATZY, [Seat("Ann"), Seat("cpu", bot="greedy")], seed=3)
    sessions = Sessions(service, pace=0)
    sessions.start()
    socket = await sessions.get(saved.id)
    release = sessions.use(socket)
    async with sessions.using(saved.id) as request:
        assert request is socket
        release()  # the only connection goes while the request acts
        await request.act(Roll(), player="Ann")
        await request.act(Score("chance"), player="Ann")
        again = await sessions.get(saved.id)  # a new connection at once
        assert again is request
    await request.settled()
    assert len(service.load(saved.id).game.scorecard("cpu").filled_boxes) == 1
    await sessions.close()


async def test_sessions_hear_of_changes_made_elsewhere(db: Path) -> None:
    with open_service(db, follow=True) as web, open_service(db) as terminal:
        saved = terminal.create(YATZY, [Seat("Ann")], seed=3)
        sessions = Sessions(web, pace=0)
        sessions.start()
        session = await sessions.get(saved.id)
        release = sessions.use(session)
        heard = asyncio.Event()
        session.watch(lambda note: heard.set())
        terminal.apply(saved.id, Roll())
        await asyncio.wait_for(heard.wait(), 1.0)
        assert session.saved.version == 2 and session.game.dice is not None
        release()
        await sessions.close()


async def test_a_computers_reroll_waiting_for_dice_shows_its_keep(service: GameService) -> None:
    saved = service.create(YATZY, [Seat("cpu", bot="greedy"), Seat("Ann")],
                           dice_mode="manual")
    session = GameSession(Table.open(service, saved, seed=1), pace=0)
    session.start()
    await session.settled()
    await session.type_dice([1, 1, 2, 3, 5])  # ones kept, most likely
    await session.settled()
    pending = session.pending
    assert isinstance(pending, Reroll), pending  # greedy rerolls a junk roll
    assert session.phase is Phase.DICE and session.held == pending.hold != ()


async def test_a_computer_s_turn_waits_for_a_database_that_went_away(
        service: GameService, db: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    import yatzy.app.session

    monkeypatch.setattr(yatzy.app.session, "STORE_RETRY", 0.05)
    session = session_of(service, [Seat("cpu", bot="greedy")], seed=11)
    away = db.with_name("away.sqlite3")
    db.rename(away)
    session.start()
    await session.settled()
    assert session.saved.version == 1 and not session.game.history  # nothing played
    assert "waits for the game database" in caplog.text and "Traceback" not in caplog.text
    await asyncio.sleep(0.2)  # tried again, and again refused
    assert not session.game.history
    away.rename(db)
    for _ in range(100):
        await asyncio.sleep(0.05)
        await session.settled()
        if session.phase is Phase.OVER:
            break
    assert session.phase is Phase.OVER
    assert service.load(session.saved.id).game == session.game
    await session.close()
