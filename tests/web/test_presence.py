"""Seats connected in other processes, as the rooms of this one count them: news that
runs out after its time-to-live (a process killed says nothing more), a seat connected
in two processes counted until both have let go, and the listeners told when a seat
comes or goes elsewhere. (Between real servers through Redis: test_scale_out.py.)"""

from __future__ import annotations

import asyncio
import json

import pytest

import yatzy
from yatzy.app import Seat
from yatzy.app.feed import Presence
from yatzy.web.rooms import Listener, Rooms

pytestmark = pytest.mark.asyncio


async def test_news_of_other_processes_counts_until_it_runs_out(rooms: Rooms) -> None:
    service = rooms.service
    saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann"), Seat("Bo")], seed=1)
    room = await rooms.get(saved.id)
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)

    watcher = Listener(send, None, "en")
    await rooms.join(room, watcher)
    assert room.connected() == frozenset()
    rooms._presence(Presence(saved.id, "Bo", True, 0.3, "process-1"))
    rooms._presence(Presence(saved.id, "Bo", True, 30.0, "process-2"))
    assert room.connected() == {"Bo"}
    rooms._presence(Presence(saved.id, "Bo", False, 30.0, "process-2"))
    assert room.connected() == {"Bo"}  # process-1 still says so
    await asyncio.sleep(0.4)  # process-1's news runs out (it was killed)
    rooms._recount(saved.id)
    assert room.connected() == frozenset()
    assert rooms._remote == {}  # forgotten
    await asyncio.sleep(0.05)  # the broadcasts go out
    told = [json.loads(text) for text in watcher.queue._queue]  # type: ignore[attr-defined]
    presence = [(m["seat"], m["connected"]) for m in told if m["type"] == "presence"]
    assert presence == [("Bo", True), ("Bo", False)]
    # A room opened after the news counts it at once.
    other = service.create(yatzy.ruleset("yatzy"), [Seat("Cy"), Seat("Di")], seed=2)
    rooms._presence(Presence(other.id, "Di", True, 30.0, "process-3"))
    assert (await rooms.get(other.id)).connected() == {"Di"}
