"""A game's computer turns when several processes hold the game (here: several services
on one database, each with its sessions): one process plays them, holding the lease; the
others wait and take over when its lease runs out (its holder killed), at once when it
hands them over (it stops), or when nobody holds the game at all; and one process alone
takes the lease once per run of computer steps and lets go after it."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import yatzy
from yatzy.app import GameService, Seat
from yatzy.app.session import LEASE, Phase
from yatzy.app.sessions import Sessions
from yatzy.bootstrap import open_service
from yatzy.core.actions import Action, Roll, Score

pytestmark = pytest.mark.asyncio

YATZY = yatzy.ruleset("yatzy")
COMPUTERS = [Seat("cpu", bot="greedy")]  # a game of computers only


class Process:
    """One process's sessions, and when each of its computers' steps was stored."""

    def __init__(self, service: GameService, pace: float, lease: float = LEASE) -> None:
        self.service = service
        self.steps: list[float] = []
        self.sessions = Sessions(service, pace=pace, computer_played=self._played,
                                 lease=lease)

    def _played(self, action: Action) -> None:
        self.steps.append(time.monotonic())

    async def hold(self, game_id: str) -> Callable[[], None]:
        """Open the game here and keep it (a connection): returns what lets it go."""
        return self.sessions.use(await self.sessions.get(game_id))


async def until(test: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, "not within the time"
        await asyncio.sleep(0.01)


async def played_out(service: GameService, game_id: str, *by: Process) -> int:
    """Wait for the game to be over as stored; each of its steps was stored once (one
    write a step, none twice), by the processes ``by``: its step count."""
    await until(lambda: service.load(game_id).game.is_over, 30)
    saved = service.load(game_id)
    assert saved.version == saved.steps + 1
    await until(lambda: sum(len(p.steps) for p in by) >= saved.steps, 2)
    assert sum(len(p.steps) for p in by) == saved.steps
    return saved.steps


async def test_two_processes_holding_a_game_one_plays_its_computers(db: Path) -> None:
    with open_service(db, follow=True) as a_service, open_service(db, follow=True) as b_service:
        saved = a_service.create(YATZY, COMPUTERS, seed=5)
        a, b = Process(a_service, 0.005), Process(b_service, 0.005)
        a.sessions.start()
        b.sessions.start()
        await a.hold(saved.id)
        await b.hold(saved.id)
        steps = await played_out(a_service, saved.id, a, b)
        assert sorted([len(a.steps), len(b.steps)]) == [0, steps]
        await a.sessions.close()
        await b.sessions.close()
        assert a_service.take_turns(saved.id, 1).mine  # let go of: free


async def test_a_holder_killed_mid_turn_is_taken_over_when_its_lease_runs_out(
        db: Path) -> None:
    with open_service(db, follow=True) as dead, open_service(db, follow=True) as b_service:
        saved = dead.create(YATZY, COMPUTERS, seed=5)
        assert dead.take_turns(saved.id, 0.5).mine  # ... and never renewed: killed
        b = Process(b_service, 0)
        b.sessions.start()
        opened = time.monotonic()
        await b.hold(saved.id)
        await until(lambda: bool(b.steps), 5)
        waited = b.steps[0] - opened
        print(f"\ntaken over {waited:.2f} s after opening (the lease had 0.5 s left)")
        assert 0.45 < waited < 1.5, waited
        await played_out(b_service, saved.id, b)
        await b.sessions.close()


async def test_a_process_that_stops_hands_its_computer_turns_over_at_once(db: Path) -> None:
    with open_service(db, follow=True) as a_service, open_service(db, follow=True) as b_service:
        saved = a_service.create(YATZY, COMPUTERS, seed=5)
        a, b = Process(a_service, 0.2), Process(b_service, 0)
        a.sessions.start()
        b.sessions.start()
        await a.hold(saved.id)
        await until(lambda: len(a.steps) >= 2, 10)
        await b.hold(saved.id)  # tries the lease, held: waits
        await asyncio.sleep(0.1)
        assert not b.steps
        stopping = time.monotonic()
        await a.sessions.close()  # lets the step under way be stored, hands over
        stopped = time.monotonic() - stopping
        await until(lambda: bool(b.steps), 3)
        taken = b.steps[0] - stopping
        print(f"\nstopped in {stopped:.2f} s; the other's first step {taken:.2f} s after")
        # The lease would have run out 3 s after its last renewal; the change log is
        # read every quarter second.
        assert stopped < 1.0 and taken < 1.0, (stopped, taken)
        await played_out(b_service, saved.id, a, b)
        await b.sessions.close()


async def test_a_renewal_under_way_when_a_process_stops_does_not_hold_the_turns_again(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stops while its renewal of the lease is still being written (held back here
    until A is stopping, and B's take held back until it is written): the renewal is
    stored before A lets go, not after (which would hold the lease for another 3 s), so
    B plays at once."""
    with open_service(db, follow=True) as a_service, open_service(db, follow=True) as b_service:
        saved = a_service.create(YATZY, COMPUTERS, seed=5)
        a, b = Process(a_service, 0.2), Process(b_service, 0)
        renewing, go_on, renewed = threading.Event(), threading.Event(), threading.Event()
        a_take, b_take = a_service.take_turns, b_service.take_turns
        armed = False
        b_tries: list[float] = []

        def a_slow(game_id: str, seconds: float) -> Any:
            if not armed:
                return a_take(game_id, seconds)
            renewing.set()
            go_on.wait(10)
            try:
                return a_take(game_id, seconds)
            finally:
                renewed.set()

        def b_after(game_id: str, seconds: float) -> Any:
            b_tries.append(time.monotonic())
            if armed:
                renewed.wait(10)
            return b_take(game_id, seconds)

        monkeypatch.setattr(a_service, "take_turns", a_slow)
        monkeypatch.setattr(b_service, "take_turns", b_after)
        a.sessions.start()
        b.sessions.start()
        await a.hold(saved.id)
        await until(lambda: len(a.steps) >= 2, 10)
        await b.hold(saved.id)
        await until(lambda: bool(b_tries), 3)  # B tried: held by A, B waits
        armed = True
        await until(renewing.is_set, 3)  # A's renewal is under way
        stopping = time.monotonic()
        closing = asyncio.ensure_future(a.sessions.close())
        await asyncio.sleep(0.2)  # A is stopping
        go_on.set()  # the renewal is written now
        await closing
        await until(lambda: bool(b.steps), 5)
        taken = b.steps[0] - stopping
        print(f"\nthe other's first step {taken:.2f} s after A began to stop")
        assert taken < 1.5, taken  # not after the lease's 3 s
        await played_out(b_service, saved.id, a, b)
        await b.sessions.close()


async def test_turns_handed_over_are_taken_by_a_process_that_did_not_hold_the_game(
        db: Path) -> None:
    with open_service(db, follow=True) as a_service, open_service(db, follow=True) as b_service:
        saved = a_service.create(YATZY, COMPUTERS, seed=5)
        a, b = Process(a_service, 0.2), Process(b_service, 0)
        a.sessions.start()
        b.sessions.start()
        await a.hold(saved.id)
        await until(lambda: len(a.steps) >= 1, 10)
        await a.sessions.close()
        await until(lambda: bool(b.steps), 2)
        await played_out(b_service, saved.id, a, b)
        await b.sessions.close()


async def test_computer_turns_left_behind_by_a_killed_process_are_adopted(db: Path) -> None:
    with open_service(db, follow=True) as dead, open_service(db, follow=True) as b_service:
        saved = dead.create(YATZY, COMPUTERS, seed=5)
        dead.take_turns(saved.id, 0.1)
        gone = dead.create(YATZY, COMPUTERS, seed=6)
        dead.take_turns(gone.id, 0.1)
        dead.delete(gone.id)
        person = dead.create(YATZY, [Seat("Ann"), *COMPUTERS], seed=7)
        dead.take_turns(person.id, 0.1)  # killed after its computer's last step
        await asyncio.sleep(0.15)
        b = Process(b_service, 0)
        adopted = await b.sessions.adopt()
        assert sorted(adopted) == sorted([saved.id, gone.id, person.id])
        assert person.id not in b.sessions  # nothing to play there: not kept
        await played_out(b_service, saved.id, b)
        assert b_service.abandoned_turns() == []  # the others' leases went too
        await b.sessions.close()


async def test_one_process_takes_the_lease_once_a_computer_turn_and_lets_go(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with open_service(db, follow=True) as service, open_service(db, follow=True) as other:
        taken: list[str] = []
        take = service.take_turns

        def counted(game_id: str, seconds: float) -> object:
            taken.append(game_id)
            return take(game_id, seconds)

        monkeypatch.setattr(service, "take_turns", counted)
        saved = service.create(YATZY, [Seat("Ann"), Seat("cpu", bot="greedy")], seed=3)
        process = Process(service, 0)
        session = await process.sessions.get(saved.id)
        for turn in range(3):
            await session.act(Roll(), player="Ann")
            await session.act(Score(("chance", "ones", "twos")[turn]), player="Ann")
            await session.settled()
            assert session.phase is Phase.PERSON
            assert len(taken) == turn + 1  # once a turn (of up to four steps)
            assert other.take_turns(saved.id, 0).mine  # let go of after it
        await process.sessions.close()


async def test_a_person_moving_here_has_the_computer_played_here_at_once(db: Path) -> None:
    """B found the computer turns held by A and waits for A's lease to run out; A plays
    the turn, lets go and no longer holds the game. Ann's next move through B has B play
    the computer's next turn at once, not when A's old lease would have run out."""
    with open_service(db, follow=True) as a_service, open_service(db, follow=True) as b_service:
        saved = a_service.create(YATZY, [Seat("Ann"), *COMPUTERS], seed=3)
        a, b = Process(a_service, 0.2), Process(b_service, 0)
        a.sessions.start()
        b.sessions.start()
        on_a = await a.sessions.get(saved.id)
        await b.hold(saved.id)
        on_b = await b.sessions.get(saved.id)
        await on_a.act(Roll(), player="Ann")
        await on_a.act(Score("chance"), player="Ann")
        await until(lambda: on_b.leased_elsewhere, 2)  # B tried: A holds them
        await on_a.settled()
        await a.sessions.close()
        assert a.steps and not b.steps
        await until(lambda: on_b.saved.version == on_a.saved.version, 2)
        assert on_b.leased_elsewhere  # its old try still waits for A's lease
        moved = time.monotonic()
        await on_b.act(Roll(), player="Ann")
        await on_b.act(Score("ones"), player="Ann")
        await until(lambda: bool(b.steps), 2)
        assert b.steps[0] - moved < 0.5, b.steps[0] - moved
        await on_b.settled()
        assert on_b.game.current_player == "Ann"
        await b.sessions.close()


@pytest.mark.parametrize("lease", [2.0, 6.0])
async def test_the_lease_taken_and_renewed_is_as_long_as_the_setting(
        db: Path, lease: float) -> None:
    """A process given a lease of ``lease`` seconds takes it for that long and renews it
    every third of it: another process sees it held for at most ``lease`` seconds, and
    never less than two thirds of it (so a killed holder is taken over within it)."""
    with open_service(db, follow=True) as a_service, open_service(db, follow=True) as other:
        saved = a_service.create(YATZY, COMPUTERS, seed=5)
        a = Process(a_service, 0.4, lease=lease)
        a.sessions.start()
        await a.hold(saved.id)
        await until(lambda: bool(a.steps), 10)
        seen: list[float] = []
        until_time = time.monotonic() + 1.5 * lease
        while time.monotonic() < until_time and not a_service.load(saved.id).game.is_over:
            held = other.take_turns(saved.id, 1)
            assert held is not None
            if held.mine:  # free: only once A let go, the game over
                assert a_service.load(saved.id).game.is_over
                break
            seen.append(held.remaining)
            await asyncio.sleep(0.05)
        await a.sessions.close()
    print(f"\nlease {lease} s: seen held for {min(seen):.2f} to {max(seen):.2f} s more")
    assert max(seen) <= lease
    assert min(seen) > 2 / 3 * lease - 1.0  # renewed every third (a busy machine: late)
    assert max(seen) > lease - 0.5
