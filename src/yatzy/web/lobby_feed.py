"""The lobby pushed: ``/ws/lobby`` sends the lobby (what ``GET /api/lobby`` answers) when
the socket opens and again whenever it changes, so that a lobby page needs no polling.

The lobby changes with the games' events on the service's change feed (this process's
and, through the store's change log or Redis, the other processes'): a game created
(a public table opened), a seat taken (joined; the last one starts the game), a game
finished or deleted, a turn ended in a game listed as live (its round), a seat given to
the computer. Such an event makes the hub read the lobby again (at most one read a
:data:`SETTLE` seconds, however many events come, and only while someone watches), and
each socket gets the new lobby if what it shows changed. A waiting table closes by
itself once nobody joined for the table's wait: the hub reads the lobby again then.

Messages (typed in the OpenAPI document as ``LobbyServerMessage``):
``{"type": "lobby", "lobby": {…}}`` first and after every change, ``{"type": "pong"}``
answering ``{"type": "ping"}``, and ``{"type": "error", "error": {…}}`` answering
anything else (the socket only sends). A socket that falls behind is closed (1013);
its page connects again and gets the lobby afresh.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.requests import HTTPConnection

from yatzy.app.events import Event
from yatzy.app.saved import SavedGame
from yatzy.app.service import LOBBY_SIZE, TABLE_WAIT
from yatzy.i18n import DEFAULT_LANGUAGE, LANGUAGES, normalize_language, translator
from yatzy.web.rooms import Listener, Rooms
from yatzy.web.ws import read_client

log = logging.getLogger(__name__)

router = APIRouter()

#: Seconds the hub waits after an event before it reads the lobby, so that a burst of
#: events is one read.
SETTLE = 0.1
#: The event types that may change the lobby whatever the game.
_CHANGES = frozenset({"game_created", "seat_taken", "game_finished", "game_deleted",
                      "seat_idle", "table_rated"})
#: Close code: fell behind, or the server stops (try again).
TRY_AGAIN = 1013


def lobby_body(t: Any, base: str, waiting: list[SavedGame], live: list[SavedGame]
               ) -> dict[str, Any]:
    """The lobby as ``GET /api/lobby`` answers it (:class:`~yatzy.web.schemas.LobbyOut`),
    in ``t``'s language, with links under ``base``."""
    from yatzy.web.lobby import _live, _table

    return {"waiting": [_table(t, base, g) for g in waiting],
            "live": [_live(t, base, g) for g in live],
            "wait_minutes": int(TABLE_WAIT.total_seconds() // 60)}


def base_of(connection: HTTPConnection) -> str:
    """The site's address as a page links to it (``http(s)://host``), for a request or
    a websocket (whose own address is ``ws(s)://``)."""
    base = str(connection.base_url).rstrip("/")
    if base.startswith("ws"):
        base = "http" + base[2:]
    return base


class LobbyHub:
    """The lobby sockets of this process and the reads of the lobby that feed them."""

    def __init__(self, rooms: Rooms) -> None:
        self.rooms = rooms
        #: Each open socket and the site address it was opened at.
        self._viewers: dict[Listener, str] = {}
        #: What each (language, address) was last sent, as JSON.
        self._sent: dict[tuple[str, str], str] = {}
        #: The lobby last read, and the ids of its live games.
        self._lobby: tuple[list[SavedGame], list[SavedGame]] | None = None
        self._live: frozenset[str] = frozenset()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._pending: asyncio.TimerHandle | None = None
        self._expiry: asyncio.TimerHandle | None = None
        self._reading: asyncio.Task[None] | None = None
        self._again = False
        #: One read at a time, so that a read never ends after a later one (and sends
        #: an older lobby after a newer).
        self._one_read = asyncio.Lock()

    def start(self) -> None:
        """Follow the change feed (on the server's loop)."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            self._unsubscribe = self.rooms.service.subscribe(self._heard)

    def close(self) -> None:
        """Stop following the feed and drop every socket."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        for timer in (self._pending, self._expiry):
            if timer is not None:
                timer.cancel()
        for listener in list(self._viewers):
            listener.drop()
        self._viewers.clear()

    def __len__(self) -> int:
        return len(self._viewers)

    # --- Sockets --------------------------------------------------------------------

    async def join(self, listener: Listener, base: str) -> None:
        """A socket opened: send it the lobby as it stands (read now)."""
        self._viewers[listener] = base
        self._send(await self._read(), also=listener)

    def leave(self, listener: Listener) -> None:
        self._viewers.pop(listener, None)
        if not self._viewers:
            self._sent.clear()

    def _message(self, lang: str, base: str) -> str:
        assert self._lobby is not None
        body = lobby_body(translator(lang), base, *self._lobby)
        return json.dumps({"type": "lobby", "lobby": body}, ensure_ascii=False,
                          separators=(",", ":"))

    # --- Changes --------------------------------------------------------------------

    def _heard(self, event: Event) -> None:
        """From the feed's thread: a game changed (here or elsewhere)."""
        loop = self._loop
        if loop is None or loop.is_closed() or not self._viewers:
            return
        if event.type in _CHANGES or (event.type == "action_applied"
                                      and event.game_id in self._live):
            with contextlib.suppress(RuntimeError):  # the loop is closing
                loop.call_soon_threadsafe(self.changed)

    def changed(self) -> None:
        """The lobby may have changed: read it again shortly (one read for a burst)."""
        if self._pending is None and self._loop is not None:
            self._pending = self._loop.call_later(SETTLE, self._begin)

    def _begin(self) -> None:
        self._pending = None
        if not self._viewers:
            return
        if self._reading is not None and not self._reading.done():
            self._again = True  # read once more when this read is done
            return
        self._reading = asyncio.get_running_loop().create_task(self._push())

    async def _push(self) -> None:
        try:
            changed = await self._read()
        except Exception as exc:  # the database away: the next change reads again
            log.warning("Reading the lobby failed: %s", exc)
            return
        finally:
            if self._again:
                self._again = False
                self.changed()
        self._send(changed)

    def _send(self, changed: dict[tuple[str, str], str], also: Listener | None = None
              ) -> None:
        """Queue the lobby for each socket whose (language, address) it changed for
        (and for ``also``, a socket just opened, anyway)."""
        for listener, base in list(self._viewers.items()):
            key = (listener.lang, base)
            text = changed.get(key)
            if text is None and listener is also:
                text = self._sent.get(key)
            if text is not None and not listener.offer(text):
                self._viewers.pop(listener, None)

    async def _read(self) -> dict[tuple[str, str], str]:
        """Read the lobby; the message of each (language, address) of the open sockets
        whose lobby changed since last sent. Notes when the first waiting table closes
        by itself (to read again then)."""
        rooms = self.rooms
        async with self._one_read:
            return await self._read_now(rooms)

    async def _read_now(self, rooms: Rooms) -> dict[tuple[str, str], str]:
        waiting, live = await rooms.run(rooms.service.lobby, LOBBY_SIZE)
        before = self._sent
        self._lobby = (waiting, live)
        self._live = frozenset(game.id for game in live)
        fresh: dict[tuple[str, str], str] = {}
        for listener, base in list(self._viewers.items()):
            key = (listener.lang, base)
            if key not in fresh:
                fresh[key] = self._message(*key)
        self._sent = fresh
        self._expire_at([game.updated_at + TABLE_WAIT for game in waiting])
        return {key: text for key, text in fresh.items() if before.get(key) != text}

    def _expire_at(self, moments: list[datetime]) -> None:
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
        if not moments or self._loop is None:
            return
        seconds = (min(moments) - self.rooms.service.now()).total_seconds()
        self._expiry = self._loop.call_later(max(seconds, 0) + 1, self.changed)


def hub_of(websocket: WebSocket) -> LobbyHub:
    """The app's lobby hub, made at the first lobby socket."""
    state = websocket.app.state
    hub: LobbyHub | None = getattr(state, "lobby_hub", None)
    if hub is None:
        hub = state.lobby_hub = LobbyHub(state.rooms)
    hub.start()
    return hub


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby, pushed: first as it stands, then whenever it changes."""
    lang = normalize_language(websocket.query_params.get("lang") or "") or DEFAULT_LANGUAGE
    lang = lang if lang in LANGUAGES else DEFAULT_LANGUAGE
    try:
        await websocket.accept()
    except (WebSocketDisconnect, RuntimeError, OSError):
        return
    hub = hub_of(websocket)
    listener = Listener(websocket.send_text, None, lang)
    listener.writer = asyncio.create_task(listener.pump())
    metrics = websocket.app.state.metrics
    metrics.websocket_opened()
    reader = asyncio.create_task(read_client(websocket, listener,
                                             websocket.app.state.limiter, metrics,
                                             game=False))
    try:
        await hub.join(listener, base_of(websocket))
        await asyncio.wait({listener.writer, reader}, return_when=asyncio.FIRST_COMPLETED)
    except Exception as exc:  # the database away: the page connects again later
        log.warning("A lobby socket failed: %s", exc)
    finally:
        hub.leave(listener)
        reader.cancel()
        listener.drop()
        for task in (reader, listener.writer):
            with contextlib.suppress(BaseException):
                await task
        metrics.websocket_closed()
        with contextlib.suppress(Exception):
            await websocket.close(TRY_AGAIN)
