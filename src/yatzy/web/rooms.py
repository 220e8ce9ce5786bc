"""Rooms: the games in play in this server process, each with its table, its open
websockets and, when a computer is to move, the task that plays its turn.

All actions on a game go through its room, one at a time (an asyncio lock), so two
requests for one game never race: each is checked by the core and committed to the
database by the service, and only then answered and broadcast. The room holds nothing
that is not in the database except the computer's chosen-but-unplayed step, which it
simply chooses again after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from yatzy.app.saved import SavedGame
from yatzy.app.service import GameService
from yatzy.app.table import Table
from yatzy.core.actions import Reroll
from yatzy.core.game import Game
from yatzy.i18n import translator
from yatzy.i18n.words import bonus_explanation, joker_explanation, upper_bonus_progress
from yatzy.web.state import game_state

log = logging.getLogger(__name__)

#: Rooms kept in memory before idle ones are forgotten (they reload from the database).
MAX_IDLE_ROOMS = 2000

#: A connection's way to send a text message; it raises when the connection is gone.
Send = Callable[[str], Awaitable[None]]

#: Threads that run the rooms' database work (every action is a commit). A few, not
#: many: SQLite has one writer at a time, and writers that queue inside the database
#: retry with growing waits.
DATABASE_THREADS = 4

T = TypeVar("T")


@dataclass(eq=False)
class Listener:
    """One open websocket: the seat it speaks for (``None``: a watcher), its language."""

    send: Send
    seat: str | None
    lang: str


@dataclass(eq=False)
class Room:
    """One game in play in this process."""

    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[Listener] = field(default_factory=set)
    driver: asyncio.Task[None] | None = None
    #: The players' win chances for a version of the game (see the API): the work that
    #: finds them, which every request for that version awaits.
    chances: tuple[int, asyncio.Future[dict[str, float]]] | None = None
    #: Held while the win chances are worked out: one version at a time.
    chances_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def saved(self) -> SavedGame:
        """The game as stored."""
        return self.table.saved

    def connected(self) -> frozenset[str]:
        """The seats with an open connection."""
        return frozenset(lst.seat for lst in self.listeners if lst.seat is not None)

    def state(self, lang: str | None = None) -> dict[str, Any]:
        """The game's state; with ``lang``, plus texts in that language."""
        state = game_state(self.saved, pending=self.table.pending,
                           waiting_for_dice=self.table.waiting_for_dice,
                           connected=self.connected(), hints=self.saved.hints)
        if lang is not None:
            state["texts"] = state_texts(self.table.game, lang)
        return state


def state_texts(game: Game, lang: str) -> dict[str, str]:
    """What the rules say now, in ``lang``: how the player to move stands toward the
    upper bonus, the Joker and the extra-Yahtzee bonus of the dice on the table; from
    the catalogs the terminal game uses too."""
    t = translator(lang)
    texts: dict[str, str] = {}
    if not game.is_over:
        texts["upper"] = upper_bonus_progress(t, game.card)
    if game.dice is not None and not game.is_over:
        if game.joker:
            texts["joker"] = joker_explanation(t, game)
        if game.bonus_pending:
            texts["bonus"] = bonus_explanation(t, game)
    return texts


class Rooms:
    """The rooms of this process, opened on demand from the service."""

    def __init__(self, service: GameService, *, pace: float = 0.8) -> None:
        self.service = service
        #: Seconds a computer seems to think before each step (0 in tests).
        self.pace = pace
        self._rooms: dict[str, Room] = {}
        self._opening = asyncio.Lock()
        self._executor = ThreadPoolExecutor(DATABASE_THREADS, thread_name_prefix="yatzy-db")

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` on one of the rooms' database threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(work, *args))

    async def get(self, game_id: str) -> Room:
        """The room of ``game_id``, loading the game the first time
        (:class:`~yatzy.app.errors.GameNotFound` when there is none)."""
        room = self._rooms.get(game_id)
        if room is not None:
            return room
        async with self._opening:
            room = self._rooms.get(game_id)
            if room is None:
                saved = await self.run(self.service.load, game_id)
                table = await self.run(Table.open, self.service, saved)
                room = Room(table)
                self._keep(room)
        self.drive(room)
        return room

    def add(self, table: Table) -> Room:
        """A room for a game just created."""
        room = Room(table)
        self._keep(room)
        self.drive(room)
        return room

    def __len__(self) -> int:
        return len(self._rooms)

    # --- Acting -----------------------------------------------------------------------

    async def act(self, room: Room, change: Callable[[Table], object]) -> SavedGame:
        """Run ``change`` on the room's table (it applies one action through the
        service, which commits it), then tell everyone and let a computer go on."""
        async with room.lock:
            await self.run(change, room.table)
            saved = room.saved
        await self.broadcast(room)
        self.drive(room)
        return saved

    async def broadcast(self, room: Room, extra: dict[str, Any] | None = None) -> None:
        """Send the state (and ``extra`` first, if given) to every listener; the state is
        encoded once per language."""
        states: dict[str, str] = {}
        before = None if extra is None else json.dumps(extra)
        for listener in list(room.listeners):
            if listener.lang not in states:
                states[listener.lang] = state_message(room, listener.lang)
            try:
                if before is not None:
                    await listener.send(before)
                await listener.send(states[listener.lang])
            except Exception:  # a connection that went away: forget it
                room.listeners.discard(listener)

    async def join(self, room: Room, listener: Listener) -> None:
        """A connection opened: send it the state, tell the others who is here."""
        room.listeners.add(listener)
        await listener.send(state_message(room, listener.lang))
        if listener.seat is not None:
            await self.broadcast(room, {"type": "presence", "seat": listener.seat,
                                        "connected": True})

    async def leave(self, room: Room, listener: Listener) -> None:
        """A connection closed."""
        room.listeners.discard(listener)
        if listener.seat is not None and listener.seat not in room.connected():
            await self.broadcast(room, {"type": "presence", "seat": listener.seat,
                                        "connected": False})
        self._maybe_close(room)

    def _maybe_close(self, room: Room) -> None:
        """Forget a room nobody watches and no computer plays in (it reloads on
        demand), so memory follows the games in play."""
        if self._idle(room):
            self._rooms.pop(room.saved.id, None)

    @staticmethod
    def _idle(room: Room) -> bool:
        """No listener, no computer playing, no computer's roll waiting for its dice."""
        return (not room.listeners and (room.driver is None or room.driver.done())
                and not room.table.waiting_for_dice)

    def _keep(self, room: Room) -> None:
        """Remember ``room``; beyond :data:`MAX_IDLE_ROOMS` the oldest idle rooms (games
        played over HTTP only) are forgotten."""
        self._rooms[room.saved.id] = room
        if len(self._rooms) > MAX_IDLE_ROOMS:
            for game_id, other in list(self._rooms.items()):
                if len(self._rooms) <= MAX_IDLE_ROOMS // 2:
                    break
                if other is not room and self._idle(other):
                    del self._rooms[game_id]

    # --- Computers' turns ---------------------------------------------------------------

    def drive(self, room: Room) -> None:
        """Start the task that plays the computers' steps, if one is to move."""
        if room.driver is not None and not room.driver.done():
            return
        if room.table.bot_to_play is None:
            return
        room.driver = asyncio.get_running_loop().create_task(self._play_computers(room))

    async def _play_computers(self, room: Room) -> None:
        """Play the computers' steps one by one at a pace a person can follow; stop
        when a person is to move or a roll waits for its real dice."""
        try:
            while room.table.bot_to_play is not None:
                await asyncio.sleep(self.pace)
                async with room.lock:
                    action = await self.run(room.table.computer_choice)
                if action is None or room.table.waiting_for_dice:
                    await self.broadcast(room)
                    return
                if isinstance(action, Reroll):  # show the dice it holds, then roll
                    await self.broadcast(room, {"type": "computer", "player":
                                                room.table.game.current_player,
                                                "action": action.to_dict()})
                    await asyncio.sleep(self.pace / 2)
                async with room.lock:
                    await self.run(room.table.play_computer)
                await self.broadcast(room)
        except asyncio.CancelledError:
            raise
        except Exception:
            # Nothing is lost (every step played is stored); the next visit retries.
            log.exception("A computer's turn failed in game %s", room.saved.id)
            with contextlib.suppress(Exception):
                await self.run(room.table.reload)
        finally:
            room.driver = None
            self._maybe_close(room)

    async def close(self) -> None:
        """Stop every computer's task (at shutdown), then the database threads."""
        tasks = [r.driver for r in self._rooms.values() if r.driver is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._executor.shutdown(wait=True)


def state_message(room: Room, lang: str) -> str:
    """The state message of ``room`` in ``lang``, as JSON text."""
    return json.dumps({"type": "state", "state": room.state(lang)}, ensure_ascii=False)
