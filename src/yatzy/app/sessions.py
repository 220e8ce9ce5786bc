"""The games in play of one process: a :class:`~yatzy.app.session.GameSession` per game,
opened on demand from the service, kept while someone uses it or a computer plays, and
told when the change feed says another process moved its game on.

One registry serves a front end: the web app keeps all its rooms' games here; the
terminal game keeps the one it shows. It is the one place where a game in play is
cached above the service (whose own cache only spares replays).

Where computer turns are leased (several processes on one database), the registry
also takes over the games whose lease ran out, their holder killed (once every lease's
length, :data:`~yatzy.app.session.LEASE` seconds by default, it asks the store for
them), and at
:meth:`Sessions.close` it stops gracefully: its sessions store the step under way and
hand their computer turns over to the other processes.

A registry that ``sweeps`` (a server's) also opens, every :data:`SWEEP` seconds, the
rated games whose player to move let the clock run out while no process held them
(nobody watching, or every server restarted): their sessions give the seat to a
computer and play on (:meth:`GameSession.start`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import TypeVar

from yatzy.app.errors import GameNotFound
from yatzy.app.events import Event
from yatzy.app.saved import SavedGame
from yatzy.app.service import GameService
from yatzy.app.session import LEASE, PACE, GameSession, Runner, Sleep, executor_runner
from yatzy.app.table import Table
from yatzy.core.actions import Action

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Sessions kept in memory before idle ones are dropped (they reopen from the store).
MAX_IDLE = 2000
#: Seconds between two looks for rated games whose clock ran out unwatched.
SWEEP = 5.0


def call_on_loop(loop: asyncio.AbstractEventLoop | None, callback: Callable[[T], object],
                 arg: T) -> None:
    """``callback(arg)`` on ``loop``, from another thread (a feed's): nothing when there
    is no loop, or it is closed or closing."""
    if loop is not None and not loop.is_closed():
        with contextlib.suppress(RuntimeError):  # the loop is closing
            loop.call_soon_threadsafe(callback, arg)


class Sessions:
    """The sessions of this process; :meth:`start` them on the loop they live on."""

    def __init__(self, service: GameService, *, pace: float = PACE,
                 run: Runner | None = None, think: Runner | None = None,
                 sleep: Sleep = asyncio.sleep, max_idle: int = MAX_IDLE,
                 computer_played: Callable[[Action], None] | None = None,
                 lease: float = LEASE, sweep: bool = False) -> None:
        self.service = service
        #: Seconds a lease on a game's computer turns lasts unless renewed.
        self.lease = lease
        #: Look for rated games whose clock ran out unwatched (:meth:`sweep`).
        self.sweeps = sweep
        #: Told of each computer's step the sessions play (and store).
        self.computer_played = computer_played
        self.pace = pace
        self.run: Runner = run or executor_runner(None)
        self.think = think
        self._sleep = sleep
        self._max_idle = max_idle
        self._sessions: dict[str, GameSession] = {}
        #: How many users (open connections, a screen) each session has.
        self._users: dict[str, int] = {}
        self._opening = asyncio.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._adopting: asyncio.Task[None] | None = None
        self._sweeping: asyncio.Task[None] | None = None
        self._closing = False

    def start(self) -> None:
        """Follow the service's change feed on the running loop (and, where computer
        turns are leased, take over those whose holder was killed)."""
        self._loop = asyncio.get_running_loop()
        self._unsubscribe = self.service.subscribe(self._heard, others_only=True)
        if self.service.leases_turns:
            self._adopting = self._loop.create_task(self._adopt())
        if self.sweeps and self.service.move_clock is not None:
            self._sweeping = self._loop.create_task(self._sweep())

    def __len__(self) -> int:
        return len(self._sessions)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._sessions

    async def get(self, game_id: str) -> GameSession:
        """The session of ``game_id``, opening it from the store the first time
        (:class:`~yatzy.app.errors.GameNotFound` when there is none)."""
        session = self._sessions.get(game_id)
        if session is None:
            async with self._opening:
                session = self._sessions.get(game_id)
                if session is None:
                    saved = await self.run(self.service.load, game_id)
                    table = await self.run(Table.open, self.service, saved)
                    session = self._keep(table)
        session.start()
        return session

    async def create(self, make: Callable[[], SavedGame]) -> GameSession:
        """A session for the game ``make()`` creates (through the service)."""
        def open_new() -> Table:
            return Table.open(self.service, make())

        table = await self.run(open_new)
        session = self._keep(table)
        session.start()
        return session

    @contextlib.asynccontextmanager
    async def using(self, game_id: str) -> AsyncIterator[GameSession]:
        """The session of ``game_id`` for one request: it is not dropped meanwhile (so
        two sessions never play one game), and stays kept after it."""
        session = await self.get(game_id)
        game_id = session.saved.id
        self._users[game_id] = self._users.get(game_id, 0) + 1
        try:
            yield session
        finally:
            left = self._users.get(game_id, 1) - 1
            if left > 0:
                self._users[game_id] = left
            else:
                self._users.pop(game_id, None)

    def use(self, session: GameSession) -> Callable[[], None]:
        """Count a user of ``session`` (a connection, a screen) until the returned
        function is called; a session whose last such user leaves is dropped once its
        computers have played (it reopens from the store on demand)."""
        game_id = session.saved.id
        self._users[game_id] = self._users.get(game_id, 0) + 1
        done = False

        def release() -> None:
            nonlocal done
            if done:
                return
            done = True
            left = self._users.get(game_id, 1) - 1
            if left > 0:
                self._users[game_id] = left
            else:
                self._users.pop(game_id, None)
                self._drop_if_idle(session)

        return release

    def _session(self, table: Table) -> GameSession:
        session = GameSession(table, pace=self.pace, run=self.run, think=self.think,
                              sleep=self._sleep, lease=self.lease)
        session.on_settled = lambda: self._drop_if_idle(session)
        session.on_computer = self.computer_played
        return session

    def _keep(self, table: Table) -> GameSession:
        """Keep a new session; beyond the limit, drop the oldest idle ones without
        users (games played over HTTP only)."""
        session = self._session(table)
        self._sessions[table.saved.id] = session
        if len(self._sessions) > self._max_idle:
            for game_id, other in list(self._sessions.items()):
                if len(self._sessions) <= self._max_idle // 2:
                    break
                if other is not session and self._unused(other):
                    del self._sessions[game_id]
        return session

    def _unused(self, session: GameSession) -> bool:
        return session.idle and not self._users.get(session.saved.id)

    def _drop_if_idle(self, session: GameSession) -> None:
        game_id = session.saved.id
        if self._sessions.get(game_id) is session and self._unused(session):
            del self._sessions[game_id]
            session.forget()

    # --- Computer turns left behind ------------------------------------------------------

    async def _adopt(self) -> None:
        """Once every lease's length, open the games whose lease on
        their computer turns ran out (the process that held it was killed, and nobody
        that holds the game took it over): each session tries the lease, and the one
        process that gets it plays on."""
        failing = False
        while not self._closing:
            await asyncio.sleep(self.lease)
            try:
                await self.adopt()
            except Exception as exc:  # the database away: the next round tries again
                if not failing:  # said once, not every round
                    log.warning("Looking for computer turns left behind failed: %s", exc)
                failing = True
            else:
                failing = False

    async def adopt(self) -> list[str]:
        """Open (and so start) the games whose computer turns were left behind by a
        process killed; returns their ids."""
        found: list[str] = await self.run(self.service.abandoned_turns)
        for game_id in found:
            if self._closing:
                break
            try:
                session = await self.get(game_id)
            except GameNotFound:  # deleted since: its lease goes
                await self.run(self._forget_lease, game_id)
                continue
            if not session.busy and not session.leased_elsewhere:
                # No computer to play (the holder was killed after its last step): the
                # lease goes, and the session unless someone here uses it.
                await self.run(self._forget_lease, game_id)
                self._drop_if_idle(session)
        return found

    async def _sweep(self) -> None:
        """Every :data:`SWEEP` seconds, :meth:`sweep`."""
        failing = False
        while not self._closing:
            await asyncio.sleep(SWEEP)
            try:
                await self.sweep()
            except Exception as exc:  # the database away: the next round tries again
                if not failing:
                    log.warning("Looking for rated games out of time failed: %s", exc)
                failing = True
            else:
                failing = False

    async def sweep(self) -> list[str]:
        """Open (and so start) the rated games whose player to move let the clock run
        out while no session of this process held them; returns their ids. Each
        session's clock decides (on the stored game, under the lease)."""
        found: list[str] = await self.run(self.service.overdue)
        opened = []
        for game_id in found:
            if self._closing:
                break
            if game_id in self._sessions:
                continue  # its session watches the clock
            try:
                await self.get(game_id)
            except Exception as exc:  # deleted since, or damaged: the others go on
                log.debug("Opening game %s out of time failed: %s", game_id, exc)
                continue
            opened.append(game_id)
        return opened

    def _forget_lease(self, game_id: str) -> None:
        lease = self.service.take_turns(game_id, 0)
        if lease is not None and lease.mine:
            self.service.release_turns(game_id)

    # --- Changes made elsewhere ----------------------------------------------------------

    def _heard(self, event: Event) -> None:
        """From the feed's thread: another process changed a game."""
        call_on_loop(self._loop, self._refresh, event)

    def _refresh(self, event: Event) -> None:
        session = self._sessions.get(event.game_id)
        if session is None:
            if event.type == "turns_handed_over" and not self._closing:
                # Nobody here holds the game: open it, to play its computers.
                opening = asyncio.get_running_loop().create_task(self.get(event.game_id))
                opening.add_done_callback(_quiet)
            return
        if event.type == "game_deleted":
            self._sessions.pop(event.game_id, None)
            session.forget()
            return
        if event.type == "turns_handed_over":
            session.handed_over()
        if event.version > session.saved.version:
            task = asyncio.get_running_loop().create_task(
                session.refresh(event.version, heard=event))
            task.add_done_callback(_quiet)

    async def close(self) -> None:
        """Stop gracefully (at shutdown): begin no new computer's step, let those under
        way be stored, hand the computer turns over to the other processes, then stop
        following the feed."""
        self._closing = True
        if self._adopting is not None:
            self._adopting.cancel()
        if self._sweeping is not None:
            self._sweeping.cancel()
        sessions = list(self._sessions.values())
        await asyncio.gather(*(session.stop() for session in sessions),
                             return_exceptions=True)
        if self._unsubscribe is not None:
            self._unsubscribe()
        for session in sessions:
            await session.close()
        self._sessions.clear()
        with contextlib.suppress(Exception):  # any lease left: it runs out by itself
            await self.run(self.service.release_all_turns)


def _quiet(task: asyncio.Task[object]) -> None:
    """A refresh that failed (the store away for a moment): the next change retries."""
    if not task.cancelled():
        task.exception()
