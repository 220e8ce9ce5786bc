"""Rooms: the games in play in this server process as the web shows them: each game's
session (:class:`~yatzy.app.session.GameSession`, which plays the computers and reloads
a game moved on elsewhere) with the websockets that watch it.

A room renders what its session says and sends it to its connections; it decides no
rule and plays no computer. Every action goes through the session, one at a time: the
core checks it, the service commits it to the database, and only then is it answered
and broadcast.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson

from yatzy.app.feed import Presence
from yatzy.app.saved import SavedGame
from yatzy.app.service import GameService
from yatzy.app.session import LEASE, GameSession, Note, Runner, executor_runner
from yatzy.app.sessions import Sessions, call_on_loop
from yatzy.app.table import Table
from yatzy.core.actions import Action
from yatzy.core.game import Game
from yatzy.core.rulesets import Ruleset
from yatzy.i18n import translator
from yatzy.i18n.words import (
    bonus_explanation,
    joker_explanation,
    upper_bonus_progress,
    variant_text,
)
from yatzy.solver import table_ready
from yatzy.web.state import game_state
from yatzy.web.texts import seat_labels

log = logging.getLogger(__name__)

#: A connection's way to send a text message; it raises when the connection is gone.
Send = Callable[[str], Awaitable[None]]

#: Threads that run the rooms' database work (every action is a commit). Two, not
#: many: SQLite has one writer at a time, and writers that queue inside the database
#: retry with growing waits; and every thread back from the database takes the
#: interpreter's lock from the event loop. With four, a busy server's updates came
#: later: 1,000 games on two processes (PostgreSQL + Redis), six interleaved pairs of
#: runs, p99 median 64.5 ms with four threads and 44.4 ms with two, 8% less CPU per
#: action (bench/web.py).
DATABASE_THREADS = 2

T = TypeVar("T")


#: Messages one connection may have waiting; a connection that falls further behind
#: (a phone asleep with its socket open, a client that never reads) is dropped, and
#: its client reconnects and gets the state afresh.
QUEUE = 64
#: Seconds one message may take to go out before the connection is dropped.
SEND_TIMEOUT = 10.0
#: Seconds between two announcements of the seats connected to this process, and how
#: long the others count them without hearing again (a process killed says nothing).
HEARTBEAT = 10.0
PRESENCE_TTL = 30.0


@dataclass(eq=False)
class Listener:
    """One open websocket: the seat it speaks for (``None``: a watcher), its language,
    and the messages waiting for it. Nothing waits for a connection: a message is put
    in its queue, and :meth:`pump` sends them one by one."""

    send: Send
    seat: str | None
    lang: str
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(QUEUE))
    #: True once the connection is dropped (too far behind, or gone).
    dropped: bool = False
    writer: asyncio.Task[None] | None = None

    def offer(self, text: str) -> bool:
        """Queue ``text``; False (and the connection dropped) when it is too far
        behind."""
        if self.dropped:
            return False
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop()
            return False
        return True

    def drop(self) -> None:
        """Stop sending: the websocket's handler closes the connection."""
        self.dropped = True
        if self.writer is not None:
            self.writer.cancel()

    async def pump(self) -> None:
        """Send the queued messages in order; a send slower than :data:`SEND_TIMEOUT`
        or one that fails ends it."""
        while not self.dropped:
            text = await self.queue.get()
            async with asyncio.timeout(SEND_TIMEOUT):  # no task per message (wait_for)
                await self.send(text)


@dataclass(eq=False)
class Room:
    """One game in play in this process, as the web shows it."""

    session: GameSession
    listeners: set[Listener] = field(default_factory=set)
    #: Stops the session's notes reaching this room.
    unwatch: Callable[[], None] | None = None
    #: The state last shown in each language (``None``: without texts), as JSON, with
    #: what it was worked out from: a move's answer over HTTP and its broadcast to
    #: every listener share one rendering. Only the text is kept, not the dict it was
    #: made from: a thousand games' dicts, each alive until its game's next move, were
    #: most of what each young garbage collection of a busy server had to go through.
    _shown: dict[str | None, tuple[SavedGame, tuple[Any, ...], str]] = \
        field(default_factory=dict, repr=False)

    @property
    def table(self) -> Table:
        """The session's table."""
        return self.session.table

    @property
    def saved(self) -> SavedGame:
        """The game as stored."""
        return self.session.saved

    #: The seats with a connection in another process (as the change feed says).
    elsewhere: frozenset[str] = frozenset()

    def here(self) -> frozenset[str]:
        """The seats with an open connection to this process."""
        return frozenset(lst.seat for lst in self.listeners if lst.seat is not None)

    def connected(self) -> frozenset[str]:
        """The seats with an open connection, here or in another process."""
        return self.here() | self.elsewhere

    def state_json(self, lang: str | None = None) -> str:
        """The game's state as JSON text; with ``lang``, plus texts in that language."""
        session, saved = self.session, self.saved
        inputs = (session.pending, self.table.waiting_for_dice, self.connected(),
                  session.phase.value, session.held, table_ready(saved.game.ruleset))
        shown = self._shown.get(lang)
        if shown is not None and shown[0] is saved and shown[1] == inputs:
            return shown[2]
        pending, waiting_for_dice, connected, phase, held, _ = inputs
        state = game_state(saved, pending=pending, waiting_for_dice=waiting_for_dice,
                           connected=connected, hints=saved.hints, phase=phase, held=held,
                           deadline=session.deadline,
                           move_clock=session.table.service.move_clock)
        if lang is not None:
            state["texts"] = state_texts(saved.game, lang)
            state["names"] = seat_labels(translator(lang), saved.seats)
        # orjson: the same compact UTF-8 JSON as json.dumps(ensure_ascii=False,
        # separators=(",", ":")), in a tenth of the time (every move renders the state).
        text = orjson.dumps(state).decode()
        self._shown[lang] = (saved, inputs, text)
        return text


@functools.lru_cache(maxsize=256)
def _variant(rules: Ruleset, lang: str) -> str:
    """The variant line, the same for every state of a game: worked out once per
    ruleset and language, not for every listener of every move."""
    return variant_text(translator(lang), rules)


def state_texts(game: Game, lang: str) -> dict[str, str]:
    """What the rules say now, in ``lang``: how the player to move stands toward the
    upper bonus, the Joker and the extra-Yahtzee bonus of the dice on the table; from
    the catalogs the terminal game uses too."""
    t = translator(lang)
    texts: dict[str, str] = {"variant": _variant(game.ruleset, lang)}
    if not game.is_over:
        texts["upper"] = upper_bonus_progress(t, game.card)
        if game.ruleset.saved_rolls:
            saved = game.saved_rolls()
            texts["saved"] = t.ngettext("{n} saved roll", "{n} saved rolls", saved, n=saved)
    if game.dice is not None and not game.is_over:
        if game.joker:
            texts["joker"] = joker_explanation(t, game)
        if game.bonus_pending:
            texts["bonus"] = bonus_explanation(t, game)
    return texts


class Rooms:
    """The rooms of this process, over the sessions of its games."""

    def __init__(self, service: GameService, *, pace: float = 0.8,
                 think: Runner | None = None,
                 computer_played: Callable[[Action], None] | None = None,
                 lease: float = LEASE) -> None:
        self.service = service
        self._executor = ThreadPoolExecutor(DATABASE_THREADS, thread_name_prefix="yatzy-db")
        self.run = executor_runner(self._executor)
        self.sessions = Sessions(service, pace=pace, run=self.run, think=think,
                                 computer_played=computer_played, lease=lease,
                                 sweep=True)
        self._rooms: dict[str, Room] = {}
        #: What the other processes say: game -> seat -> process -> until when
        #: (``time.monotonic()``) the seat counts as connected there.
        self._remote: dict[str, dict[str, dict[str, float]]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop_presence: Callable[[], None] | None = None
        self._beating: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Future[None]] = set()

    @property
    def pace(self) -> float:
        """Seconds a computer seems to think before each step (0 in tests)."""
        return self.sessions.pace

    def start(self) -> None:
        """Follow the changes other processes make, and which seats have a connection
        there (on the server's loop)."""
        self.sessions.start()
        self._loop = asyncio.get_running_loop()
        self._stop_presence = self.service.subscribe_presence(self._heard_presence)
        self._beating = asyncio.create_task(self._beat())

    # --- Connections in other processes ----------------------------------------------

    def _heard_presence(self, presence: Presence) -> None:
        """Another process's news (on the feed's thread): handed to the loop."""
        call_on_loop(self._loop, self._presence, presence)

    def _presence(self, presence: Presence) -> None:
        seats = self._remote.setdefault(presence.game_id, {})
        where = seats.setdefault(presence.seat, {})
        if presence.connected:
            where[presence.origin] = time.monotonic() + presence.ttl
        else:
            where.pop(presence.origin, None)
        self._recount(presence.game_id)

    def _elsewhere(self, game_id: str) -> frozenset[str]:
        """The seats of ``game_id`` with a connection in another process now (news
        that has run out forgotten)."""
        seats = self._remote.get(game_id)
        if not seats:
            return frozenset()
        now = time.monotonic()
        for seat, where in list(seats.items()):
            for origin in [o for o, until in where.items() if until <= now]:
                del where[origin]
            if not where:
                del seats[seat]
        if not seats:
            del self._remote[game_id]
        return frozenset(seats)

    def _recount(self, game_id: str) -> None:
        """Show the seats of ``game_id`` that came or went elsewhere to its listeners."""
        elsewhere = self._elsewhere(game_id)
        room = self._rooms.get(game_id)
        if room is None or room.elsewhere == elsewhere:
            return
        before = room.connected()
        room.elsewhere = elsewhere
        after = room.connected()
        for seat in sorted(before ^ after):
            self._send_soon(self.broadcast(room, {"type": "presence", "seat": seat,
                                                   "connected": seat in after}))

    def _send_soon(self, sending: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(sending)
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    def _announce(self, room: Room, seat: str, connected: bool) -> None:
        self.service.announce(room.saved.id, seat, connected, PRESENCE_TTL)

    async def _beat(self) -> None:
        """Say again every :data:`HEARTBEAT` seconds which seats have a connection here
        (news that stops, from a process killed, runs out after :data:`PRESENCE_TTL`),
        and forget what has run out of the others' news."""
        while True:
            await asyncio.sleep(HEARTBEAT)
            for room in list(self._rooms.values()):
                for seat in room.here():
                    self._announce(room, seat, True)
            for game_id in list(self._remote):
                self._recount(game_id)

    def _room(self, session: GameSession) -> Room:
        """The room of ``session`` (a new one for a session opened again)."""
        game_id = session.saved.id
        room = self._rooms.get(game_id)
        if room is None or room.session is not session:
            room = Room(session, elsewhere=self._elsewhere(game_id))
            room.unwatch = session.watch(lambda note: self._noted(room, note))
            self._rooms[game_id] = room
            if len(self._rooms) > len(self.sessions):
                # Rooms of sessions dropped since (their games reopen on demand).
                for gone in [g for g in self._rooms if g not in self.sessions]:
                    del self._rooms[gone]
        return room

    async def get(self, game_id: str) -> Room:
        """The room of ``game_id``, loading the game the first time
        (:class:`~yatzy.app.errors.GameNotFound` when there is none)."""
        return self._room(await self.sessions.get(game_id))

    async def current(self, game_id: str) -> Room:
        """:meth:`get`, with the game as stored now: a version check in the store, and
        the game read again when another process moved it on and this one has not heard
        of it yet (what a client that opens or reopens a game is shown). Not while this
        process plays the game's computers: nobody else moves then, and their thinking
        is not waited for. The session is in use meanwhile: a connection that leaves
        while the store is asked does not drop the session this one is about to join."""
        async with self.sessions.using(game_id) as session:
            if not session.busy:
                await session.refresh()
            return self._room(session)

    @contextlib.asynccontextmanager
    async def using(self, game_id: str) -> AsyncIterator[Room]:
        """The room of ``game_id`` for one request (its session is kept meanwhile)."""
        async with self.sessions.using(game_id) as session:
            yield self._room(session)

    async def create(self, make: Callable[[], SavedGame]) -> Room:
        """A room for the game ``make()`` creates through the service."""
        return self._room(await self.sessions.create(make))

    def __len__(self) -> int:
        return len(self.sessions)

    async def _noted(self, room: Room, note: Note) -> None:
        """What the session says: the new state, or a computer showing its keep."""
        if note.kind == "computer" and note.action is not None:
            await self.broadcast(room, {"type": "computer", "player":
                                        room.table.game.current_player,
                                        "action": note.action.to_dict()})
        else:
            await self.broadcast(room)

    async def broadcast(self, room: Room, extra: dict[str, Any] | None = None) -> None:
        """Queue the state (and ``extra`` first, if given) for every listener; the state
        is encoded once per language. Never waits for a connection: one too far behind
        is dropped."""
        states: dict[str, str] = {}
        before = None if extra is None else json.dumps(extra)
        for listener in list(room.listeners):
            if listener.lang not in states:
                states[listener.lang] = state_message(room, listener.lang)
            if (before is not None and not listener.offer(before)) \
                    or not listener.offer(states[listener.lang]):
                room.listeners.discard(listener)

    async def join(self, room: Room, listener: Listener) -> Callable[[], None]:
        """A connection opened: send it the state, tell the others who is here. Returns
        what to call when it closes (after :meth:`leave`)."""
        release = self.sessions.use(room.session)
        room.listeners.add(listener)
        listener.offer(state_message(room, listener.lang))
        if listener.seat is not None:
            self._announce(room, listener.seat, True)
            await self.broadcast(room, {"type": "presence", "seat": listener.seat,
                                        "connected": True})
        return release

    async def leave(self, room: Room, listener: Listener) -> None:
        """A connection closed."""
        room.listeners.discard(listener)
        if listener.seat is not None and listener.seat not in room.here():
            self._announce(room, listener.seat, False)
            if listener.seat not in room.connected():  # nor connected elsewhere
                await self.broadcast(room, {"type": "presence", "seat": listener.seat,
                                            "connected": False})

    async def close(self) -> None:
        """Stop every computer's task (at shutdown), then the database threads; the
        other processes are told that this one's connections are gone."""
        if self._beating is not None:
            self._beating.cancel()
        if self._stop_presence is not None:
            self._stop_presence()
        for room in list(self._rooms.values()):
            for seat in room.here():
                self._announce(room, seat, False)
        await self.sessions.close()
        self._executor.shutdown(wait=True)


def state_message(room: Room, lang: str) -> str:
    """The state message of ``room`` in ``lang``, as JSON text."""
    return f'{{"type":"state","state":{room.state_json(lang)}}}'
