"""A game in play: one state machine for every front end.

A :class:`GameSession` holds one game's :class:`~yatzy.app.table.Table` and says what
happens next: a person is to move, a computer is thinking, a computer shows the dice it
keeps before it rerolls, a roll waits for its real dice, or the game is over
(:class:`Phase`). It plays the computers' turns itself, at its ``pace``, applies what a
person does, and reloads the game when the change feed says that another process moved
it on. Front ends (the web app's rooms, the terminal game) only render what it tells
its watchers and forward what a person does; none of them drives a computer or decides
a rule.

When several processes hold a game (servers on one database), one of them plays its
computers: the one that holds the lease on the game's computer turns
(:meth:`~yatzy.app.service.GameService.take_turns`). A session takes it once per run of
computer steps, while its first pause goes by, renews it while it plays, and lets go
when a person is to move; one that finds it held tries again when it runs out, so that
a process killed mid-turn is taken over within the lease's length (:data:`LEASE`
seconds unless the session is given another ``lease``), and at once when
the holder stops gracefully and hands its turns over (:meth:`stop`).

In a rated game a person has :attr:`~yatzy.app.service.GameService.move_clock` for
each decision (:meth:`~yatzy.app.service.GameService.deadline`, worked out from the
stored game): the session watches the clock of the person to move, and when it runs
out it gives their seat to a computer (:meth:`Table.time_out`) under the same lease as
the computer turns, so that one process decides, and plays on.

Blocking work runs off the loop: the database through ``run``, a computer's choice
(which may load a solver table) through ``think``; the session itself lives on one asyncio loop
(uvicorn's, or the terminal game's). Time passes through ``sleep``, so a test can run a
whole game without waiting.

>>> import asyncio, yatzy
>>> from yatzy.app import Seat
>>> from yatzy.bootstrap import open_service
>>> service = open_service("sqlite://")
>>> saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann"), Seat("cpu", bot="greedy")],
...                        seed=3)
>>> async def play() -> Phase:
...     session = GameSession(Table.open(service, saved), pace=0)
...     await session.act(yatzy.Roll(), player="Ann")
...     await session.act(yatzy.Score("chance"), player="Ann")
...     await session.settled()       # the computer plays its turn
...     return session.phase
>>> asyncio.run(play())
<Phase.PERSON: 'person'>
>>> service.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from yatzy.app.codes import AppCode
from yatzy.app.errors import GameChanged, StorageError
from yatzy.app.events import Event
from yatzy.app.ports import Lease
from yatzy.app.saved import SavedGame
from yatzy.app.table import Table
from yatzy.core.actions import Action, Reroll, Roll
from yatzy.core.dice import Dice
from yatzy.core.errors import ErrorCode, IllegalMove, YatzyError
from yatzy.core.game import Game

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Seconds a computer seems to think before each step, so that a person can follow it.
PACE = 0.8

#: Seconds before a computer's turn that the game database refused is tried again.
STORE_RETRY = 5.0

#: Seconds a lease on a game's computer turns lasts unless renewed (by default): how
#: long a process killed mid-turn holds up its computers.
LEASE = 3.0
#: The shortest and longest lease a server may be given (``yatzy serve --lease-seconds``):
#: a lease is renewed three times in its length, and a killed process's computers wait
#: up to that long.
SHORTEST_LEASE = 2
LONGEST_LEASE = 600
#: Seconds a session that hears of a change made in another process waits before it
#: asks for the lease on the computer turns that follow (where turns are leased).
HEAD_START = 0.2
#: A lease held is renewed every this share of its length.
RENEW = 1 / 3
#: Seconds a stopping session waits for the computer's step under way.
STOP_WAIT = 10.0
#: Seconds past a deadline before the clock is looked at (the stored game decides).
CLOCK_SLACK = 0.05

#: Runs blocking work off the session's loop: ``await run(work, *args)``.
Runner = Callable[..., Awaitable[Any]]
Sleep = Callable[[float], Awaitable[None]]


class Phase(StrEnum):
    """What a game in play waits for."""

    #: A person is to move.
    PERSON = "person"
    #: A computer is choosing its step (or about to play it).
    THINKING = "thinking"
    #: A computer shows the dice it keeps, then rerolls the others.
    SHOWING = "showing"
    #: A roll waits for its real dice to be typed in (a computer's, in scorepad mode).
    DICE = "dice"
    #: Every box is filled.
    OVER = "over"
    #: A public table's open seats wait for players: nobody plays yet.
    WAITING = "waiting"


@dataclass(frozen=True)
class Note:
    """What a session tells its watchers: the game changed (``kind="state"``), or a
    computer shows ``action``, the reroll it is about to make (``kind="computer"``)."""

    kind: str
    action: Action | None = None


Watcher = Callable[[Note], Awaitable[None] | None]


def executor_runner(executor: Executor | None) -> Runner:
    """A runner that does the work on ``executor`` (``None``: the loop's default)."""

    async def run(work: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        # In the caller's context: what the work logs carries the request's id.
        context = contextvars.copy_context()
        return await loop.run_in_executor(
            executor, functools.partial(context.run, work, *args))

    return run


class GameSession:
    """One game in play: its table, its phase, and the task that plays its computers."""

    def __init__(self, table: Table, *, pace: float = PACE, run: Runner | None = None,
                 think: Runner | None = None, sleep: Sleep = asyncio.sleep,
                 lease: float = LEASE) -> None:
        self.table = table
        #: Seconds a computer seems to think before each step (0: at once).
        self.pace = pace
        #: Seconds the lease on the computer turns lasts unless renewed (where leased).
        self.lease = lease
        self._run: Runner = run or executor_runner(None)
        #: Where a computer's choice is worked out (it may load a solver table): the
        #: advice service's pool, never the database threads.
        self._think: Runner = think or self._run
        self._sleep = sleep
        self._lock = asyncio.Lock()
        self._watchers: list[Watcher] = []
        self._driver: asyncio.Task[None] | None = None
        #: The reroll a computer shows before it is played.
        self._showing: Reroll | None = None
        #: A change made elsewhere: the other process may be playing the computers, so
        #: this session waits before it takes over (see :meth:`refresh`).
        self._elsewhere: asyncio.TimerHandle | None = None
        #: A computer's turn to try again, the database having failed.
        self._retry: asyncio.TimerHandle | None = None
        #: Another process holds the computer turns: try again when its lease runs out.
        self._leased_elsewhere: asyncio.TimerHandle | None = None
        #: Set when the session stops: no new step is begun.
        self._stopping = False
        #: Set when the session stops: cuts a computer's pause short.
        self._stopped = asyncio.Event()
        #: Set when the lease held was lost (taken over): no new step is begun.
        self._lost = False
        #: Called when the computers have played as far as they can.
        self.on_settled: Callable[[], None] | None = None
        #: Called with each computer's step this session has played and stored (a
        #: server counts them).
        self.on_computer: Callable[[Action], None] | None = None
        #: The task that watches the clock of a rated game's person to move, and what
        #: wakes it when the game changes.
        self._clock: asyncio.Task[None] | None = None
        self._clock_kick = asyncio.Event()

    # --- What the session shows ---------------------------------------------------------

    @property
    def saved(self) -> SavedGame:
        """The game as stored."""
        return self.table.saved

    @property
    def game(self) -> Game:
        """The game as it stands."""
        return self.table.game

    @property
    def phase(self) -> Phase:
        """What the game waits for now."""
        table = self.table
        if table.game.is_over:
            return Phase.OVER
        if table.saved.waiting:
            return Phase.WAITING
        if table.waiting_for_dice:
            return Phase.DICE
        if table.bot_to_play is not None:
            return Phase.SHOWING if self._showing is not None else Phase.THINKING
        return Phase.PERSON

    @property
    def pending(self) -> Action | None:
        """The computer's chosen step, not played yet."""
        return self.table.pending

    @property
    def held(self) -> tuple[int, ...]:
        """The dice (positions) kept: a computer's keep while it shows it or while its
        reroll waits for its real dice, else those the player to move kept at the turn's
        last reroll."""
        if self._showing is not None:
            return self._showing.hold
        pending = self.table.pending
        if self.table.waiting_for_dice and isinstance(pending, Reroll):
            return pending.hold
        return self.table.hold

    @property
    def deadline(self) -> datetime | None:
        """When the person to move must have decided (a rated game's clock; see
        :meth:`~yatzy.app.service.GameService.deadline`), or ``None``."""
        return self.table.service.deadline(self.saved)

    @property
    def busy(self) -> bool:
        """True while the session plays a computer's steps."""
        return self._driver is not None and not self._driver.done()

    @property
    def leased_elsewhere(self) -> bool:
        """True while another process holds this game's computer turns (this session
        tries again when their lease runs out)."""
        return self._leased_elsewhere is not None

    @property
    def idle(self) -> bool:
        """No computer playing and no roll waiting for its dice: the session may be
        dropped and opened again from the store."""
        return not self.busy and not self.table.waiting_for_dice

    def watch(self, watcher: Watcher) -> Callable[[], None]:
        """Call ``watcher(note)`` (a function or a coroutine function) after every change
        and when a computer shows its keep; returns a function that stops watching."""
        self._watchers.append(watcher)

        def stop() -> None:
            if watcher in self._watchers:
                self._watchers.remove(watcher)

        return stop

    async def _tell(self, note: Note) -> None:
        if note.kind == "state":
            self._watch_clock()
        for watcher in list(self._watchers):
            try:
                result = watcher(note)
                if result is not None:
                    await result
            except Exception:
                log.exception("A watcher of game %s failed", self.saved.id)

    # --- What people do --------------------------------------------------------------------

    async def act(self, action: Action, *, player: str | None = None,
                  expected_version: int | None = None) -> SavedGame:
        """Apply a person's ``action`` for ``player`` (by default whoever is to move) and
        store it; then tell the watchers and let a computer go on. In scorepad mode,
        when a computer's roll waits for its real dice, the roll with those dice (and the
        computer's held dice) is that computer's roll, whoever types it in.

        Raises the core's :class:`~yatzy.core.errors.IllegalMove` and the service's
        :class:`~yatzy.app.errors.GameChanged` (``expected_version`` is not the version
        stored; the session then holds the game as stored): nothing is stored then."""
        async with self._lock:
            table = self.table
            if player is not None and any(seat.name == player and seat.idle
                                          for seat in table.seats):
                raise IllegalMove(f"The computer plays {player}'s seat: the clock ran out",
                                  code=AppCode.SEAT_IDLE, player=player)
            if (table.waiting_for_dice and isinstance(action, Roll | Reroll)
                    and action.dice is not None):
                if not _same_roll(table.pending, action):
                    raise IllegalMove(f"It is {table.game.current_player}'s turn",
                                      code=ErrorCode.NOT_YOUR_TURN,
                                      player=table.game.current_player)
                await self._write(table.play_computer, action.dice,
                                  expected_version=expected_version)
            else:
                await self._write(table.act, action, player=player,
                                  expected_version=expected_version)
        await self._changed()
        return self.saved

    async def join(self, name: str, *, token_hash: str | None = None) -> SavedGame:
        """Seat the person ``name`` at an open seat of this public table (see
        :meth:`~yatzy.app.service.GameService.join`); then tell the watchers, and let a
        computer begin once the table is full."""
        async with self._lock:
            before = self.saved
            try:
                await self._write(self.table.join, name, token_hash=token_hash)
            except YatzyError:
                if self.saved is not before:  # refused, and the table read again
                    await self._tell(Note("state"))
                raise
        await self._changed()
        return self.saved

    async def make_rated(self) -> SavedGame:
        """Make this full public table a rated game (see
        :meth:`~yatzy.app.service.GameService.make_rated`): its move clock starts, and
        the watchers are told."""
        async with self._lock:
            await self._write(self.table.make_rated)
        await self._changed()
        return self.saved

    async def type_dice(self, dice: Sequence[int], *,
                        expected_version: int | None = None) -> SavedGame:
        """Play the computer's roll that waits for its real dice with ``dice``."""
        async with self._lock:
            if not self.table.waiting_for_dice:
                raise IllegalMove("No computer's roll waits for its dice",
                                  code=AppCode.NOT_COMPUTER_TURN)
            await self._write(self.table.play_computer, Dice(dice),
                              expected_version=expected_version)
        await self._changed()
        return self.saved

    async def undo(self, *, player: str | None = None,
                   expected_version: int | None = None) -> SavedGame:
        """Take back the last box a person chose, before the next player acts (see
        :meth:`~yatzy.app.service.GameService.undo`); ``player``, when given, must be the
        one who chose it."""
        async with self._lock:
            await self._write(self.table.undo, player=player,
                              expected_version=expected_version)
        await self._changed()
        return self.saved

    async def _write(self, change: Callable[..., object], *args: Any, **kwargs: Any) -> None:
        """Run ``change`` (a table's write) off the loop; the game it leaves is shown
        whether it succeeded or raised (a refused change may have reloaded the game)."""
        try:
            await self._run(functools.partial(change, *args, **kwargs))
        except GameChanged:
            await self._tell(Note("state"))
            raise

    # --- Changes made elsewhere ----------------------------------------------------------

    async def refresh(self, version: int | None = None, *, grace: float | None = None,
                      heard: Event | None = None) -> bool:
        """Read the game again when the store holds a newer version than ``version``
        says this session has (``None``: ask the store, and go on only when it holds a
        newer version), tell the watchers, and let a computer go on. With ``heard``, the
        event that told of the change, the game is moved on by it where it can be
        (:meth:`Table.follow`) instead of read again.
        Where computer turns are leased, the lease decides who plays them: this session
        asks for it :data:`HEAD_START` seconds on, so that the process where the change
        was made, which asks at once, normally plays them. Else the change came from a
        process that may be playing that computer itself, and this one waits ``grace``
        seconds (by default four paces, at least two seconds) and plays it only if
        nobody has by then. Returns True when the game was read again."""
        if version is not None and version <= self.saved.version:
            return False
        async with self._lock:
            before = self.saved.version
            if heard is None or not self.table.follow(heard):
                await self._run(self.table.reload)
            if self.saved.version == before:
                return False
        await self._tell(Note("state"))
        if self.table.service.leases_turns:
            # The process where the move was made starts its computer at once; this one
            # asks for the lease a moment later, so that a game's computer is played
            # where its people play unless that process is gone (the lease decides).
            wait = HEAD_START
        else:
            wait = max(2.0, 4 * self.pace) if grace is None else grace
        if self._elsewhere is not None:
            self._elsewhere.cancel()
        seen = self.saved.version
        loop = asyncio.get_running_loop()
        self._elsewhere = loop.call_later(wait, self._take_over, seen)
        return True

    def _take_over(self, seen: int) -> None:
        self._elsewhere = None
        if self.saved.version == seen:  # nobody played meanwhile
            self.start()

    def handed_over(self) -> None:
        """The process that held this game's computer turns let go of them (it stops):
        take them at once."""
        if self._leased_elsewhere is not None:
            self._leased_elsewhere.cancel()
            self._leased_elsewhere = None
        self.start()

    # --- The computers ----------------------------------------------------------------------

    def start(self) -> None:
        """Start playing the computers' steps if a computer is to move (call it after
        opening a session; every change made here starts it again by itself). Where
        another process holds the computer turns, nothing happens until its lease runs
        out (or it hands them over: :meth:`handed_over`)."""
        self._watch_clock()
        if (self._stopping or self.busy or self._leased_elsewhere is not None
                or self.table.bot_to_play is None or self.table.waiting_for_dice):
            return
        self._lost = False
        self._driver = asyncio.get_running_loop().create_task(self._drive())

    async def settled(self) -> None:
        """Wait until the computers have played as far as they can (a person to move, a
        roll waiting for its dice, or the game over)."""
        while self.busy:
            assert self._driver is not None
            with contextlib.suppress(Exception):
                await asyncio.shield(self._driver)

    async def _changed(self) -> None:
        await self._tell(Note("state"))
        # A person moved here: whoever held the computer turns before may have let go
        # of them since (and no longer hold the game), so this session tries at once.
        self.handed_over()

    async def _drive(self) -> None:
        """Play the computers' steps one by one at the session's pace, holding the lease
        on them where they are leased; stop when a person is to move or a roll waits
        for its real dice."""
        service = self.table.service
        game_id = self.saved.id
        held = False
        keeper: asyncio.Task[None] | None = None
        kept = asyncio.Event()
        again = False
        try:
            paused = False
            if service.leases_turns:
                # The lease is taken while the first pause goes by: no wait for it.
                taking = asyncio.ensure_future(
                    self._run(service.take_turns, game_id, self.lease))
                try:
                    await self._pause(self.pace)
                finally:
                    lease = await taking
                    held = lease is not None and lease.mine
                if lease is not None and not lease.mine:
                    self._wait_for_lease(lease.remaining)
                    return
                paused = True
                keeper = asyncio.get_running_loop().create_task(self._keep(game_id, kept))
            again = await self._play(paused)
        except asyncio.CancelledError:
            raise
        except StorageError as exc:
            # The database is away (nothing was stored): try again in a while, so that
            # the computer plays on once it is back.
            log.warning("A computer's turn in game %s waits for the game database: %s",
                        self.saved.id, exc)
            self._retry = asyncio.get_running_loop().call_later(STORE_RETRY, self._again)
        except Exception:
            # Nothing is lost (every step played is stored); the next change retries.
            log.exception("A computer's turn failed in game %s", self.saved.id)
            with contextlib.suppress(Exception):
                await self._run(self.table.reload)
            await self._tell(Note("state"))
        finally:
            if keeper is not None:
                kept.set()
                with contextlib.suppress(Exception):
                    await asyncio.shield(keeper)
            if held and not self._lost:
                await self._let_go(game_id)
            self._driver = None
            if self.on_settled is not None:
                self.on_settled()
            if again:  # a person moved while the lease was let go: a computer is to play
                self.start()

    async def _play(self, paused: bool) -> bool:
        """The steps of :meth:`_drive`; ``paused``: the first pause went by already.
        True when it stopped because no computer is to play (a person moved meanwhile
        may have made one to play again)."""
        while self.table.bot_to_play is not None:
            if not paused:
                await self._pause(self.pace)
            paused = False
            if self._stopping or self._lost:
                return False
            async with self._lock:
                action = await self._think(self.table.computer_choice)
            if action is None or self.table.waiting_for_dice:
                await self._tell(Note("state"))
                return False
            if isinstance(action, Reroll):  # show the dice it keeps, then roll
                self._showing = action
                await self._tell(Note("computer", action))
                await self._sleep(self.pace / 2)
            async with self._lock:
                try:
                    await self._run(self.table.play_computer)
                except GameChanged:
                    # Moved on elsewhere (the table holds the stored game now): go on
                    # from there, if a computer is still to play.
                    await self._tell(Note("state"))
                    continue
                finally:
                    self._showing = None
            if self.on_computer is not None:
                self.on_computer(action)
            await self._tell(Note("state"))
        return True

    async def _pause(self, seconds: float) -> None:
        """A computer's pause before its step, cut short when the session stops."""
        if self._stopping:
            return
        sleeping = asyncio.ensure_future(self._sleep(seconds))
        stopped = asyncio.ensure_future(self._stopped.wait())
        try:
            await asyncio.wait((sleeping, stopped), return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeping.cancel()
            stopped.cancel()

    async def _keep(self, game_id: str, done: asyncio.Event) -> None:
        """Renew the lease on the computer turns every :data:`RENEW` of its length while
        they are played, until ``done`` is set; when another process has taken it over,
        no new step is begun. Never cancelled: a renewal under way is stored before the
        lease is let go (a renewal stored after would hold the lease again, and the
        other processes would wait for it to run out)."""
        service = self.table.service
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), self.lease * RENEW)
            if done.is_set():
                return
            try:
                lease = await self._run(service.take_turns, game_id, self.lease)
            except StorageError:
                continue  # the write of the next step fails too, if the database is away
            if lease is not None and not lease.mine:
                log.warning("Game %s: another process took over the computer turns",
                            game_id)
                self._lost = True
                return

    async def _let_go(self, game_id: str) -> None:
        """Release the lease on the computer turns; handed over to the other processes
        when this session stops with a computer still to play."""
        to_play = self.table.bot_to_play is not None and not self.table.game.is_over
        hand_over = self.saved.version if self._stopping and to_play else None
        try:
            await self._run(functools.partial(self.table.service.release_turns, game_id,
                                              hand_over=hand_over))
        except Exception as exc:  # it runs out by itself
            log.warning("Releasing the computer turns of game %s failed: %s", game_id, exc)

    def _wait_for_lease(self, remaining: float) -> None:
        """Another process holds the computer turns for ``remaining`` seconds: try
        again then (a holder that plays on renews it; one killed does not)."""
        if self._stopping:
            return

        def again() -> None:
            self._leased_elsewhere = None
            self.start()

        if self._leased_elsewhere is not None:
            self._leased_elsewhere.cancel()
        self._leased_elsewhere = asyncio.get_running_loop().call_later(
            remaining + 0.05, again)

    def _again(self) -> None:
        self._retry = None
        self.start()

    # --- The clock of a rated game ---------------------------------------------------

    def _watch_clock(self) -> None:
        """Wake the clock's task (the game changed), starting it in a rated game."""
        if self._clock is not None and not self._clock.done():
            self._clock_kick.set()
            return
        if (self._stopping or self.table.service.move_clock is None
                or not self.saved.rated or self.saved.finished):
            return
        self._clock = asyncio.get_running_loop().create_task(self._run_clock())

    async def _run_clock(self) -> None:
        """Wait for the deadline of each person to move; when one passes, give their
        seat to a computer. Ends with the game."""
        service = self.table.service
        while not self._stopping and not self.saved.finished:
            self._clock_kick.clear()
            deadline = service.deadline(self.saved)
            if deadline is None:
                await self._clock_kick.wait()
                continue
            wait = (deadline - service.now()).total_seconds()
            if wait > 0:
                await self._clock_wait(wait + CLOCK_SLACK)
                continue
            again = await self._time_out(self.saved.version)
            if again is not None:
                await self._clock_wait(again)

    async def _clock_wait(self, seconds: float) -> None:
        """Wait ``seconds``, or less when the game changes or the session stops."""
        sleeping = asyncio.ensure_future(self._sleep(seconds))
        kicked = asyncio.ensure_future(self._clock_kick.wait())
        try:
            await asyncio.wait((sleeping, kicked), return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeping.cancel()
            kicked.cancel()

    async def _time_out(self, version: int) -> float | None:
        """The clock of the person to move ran out (as this session sees it): give
        their seat to a computer, deciding on the stored game, where computer turns are
        leased only while holding the lease (so that one process decides); then play
        on. Returns the seconds to wait before looking again (another process holds
        the lease, or the database is away), else ``None``."""
        service = self.table.service
        game_id = self.saved.id
        held = False
        try:
            if service.leases_turns:
                lease: Lease | None = await self._run(service.take_turns, game_id,
                                                      self.lease)
                if lease is not None and not lease.mine:
                    return lease.remaining + CLOCK_SLACK  # its holder decides
                held = lease is not None
            async with self._lock:
                if self.saved.version != version or self._stopping:
                    return None
                with contextlib.suppress(GameChanged):
                    if await self._run(self.table.time_out):
                        log.info("Game %s: the clock of %s ran out; a computer plays on",
                                 game_id, self.table.game.current_player)
        except StorageError as exc:
            log.warning("The clock of game %s waits for the game database: %s", game_id,
                        exc)
            return STORE_RETRY
        finally:
            if held:
                with contextlib.suppress(Exception):  # it runs out by itself
                    await self._run(service.release_turns, game_id)
        await self._tell(Note("state"))
        self.start()
        return None

    def _stop_clock(self) -> None:
        if self._clock is not None:
            self._clock.cancel()
            self._clock = None

    async def stop(self) -> None:
        """Stop gracefully (at shutdown): begin no new computer's step, let the step
        under way be stored (waiting up to :data:`STOP_WAIT` seconds), and hand the
        computer turns over to the other processes that hold the game."""
        self._stopping = True
        self._stopped.set()
        self._cancel_timers()
        self._stop_clock()
        driver = self._driver
        if driver is not None and not driver.done():
            try:
                await asyncio.wait_for(asyncio.shield(driver), STOP_WAIT)
            except (TimeoutError, Exception):
                await self.close()

    def _cancel_timers(self) -> None:
        for timer in (self._elsewhere, self._retry, self._leased_elsewhere):
            if timer is not None:
                timer.cancel()
        self._elsewhere = self._retry = self._leased_elsewhere = None

    def forget(self) -> None:
        """This process drops the session (nobody here uses it): no timer plays its
        computers later."""
        self._cancel_timers()
        self._stop_clock()

    async def close(self) -> None:
        """Stop playing the computers (at once); what was played is stored."""
        self._stopping = True
        self._cancel_timers()
        self._stop_clock()
        driver = self._driver
        if driver is not None and not driver.done():
            driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await driver
        self._watchers.clear()


def _same_roll(pending: Action | None, action: Roll | Reroll) -> bool:
    """True when ``action`` is the roll the computer chose (its held dice too)."""
    if isinstance(pending, Roll):
        return isinstance(action, Roll)
    return (isinstance(pending, Reroll) and isinstance(action, Reroll)
            and action.hold == pending.hold)
