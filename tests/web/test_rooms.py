"""A room's rendering of its game's state: worked out once per change and language and
shared by the HTTP answer and every listener, and kept as text only (a busy server
holds a thousand rooms, and their states' dicts were what its garbage collector went
through most)."""

from __future__ import annotations

import json

import pytest

import yatzy
from yatzy.app import Seat
from yatzy.app.feed import Presence
from yatzy.core.actions import Roll
from yatzy.web.rooms import Rooms

pytestmark = pytest.mark.asyncio


async def test_the_state_is_rendered_once_per_change_and_kept_as_text(rooms: Rooms) -> None:
    service = rooms.service
    saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann"), Seat("Bo")], seed=1)
    room = await rooms.get(saved.id)
    first = room.state_json("sv")
    assert room.state_json("sv") is first  # the same rendering, not a new one
    english = room.state_json("en")
    assert english is not first and json.loads(english)["texts"] != json.loads(
        first)["texts"]
    assert json.loads(first)["version"] == saved.version

    # A move: rendered again, once.
    await room.session.act(Roll(), player="Ann")
    moved = room.state_json("sv")
    assert moved is not first and room.state_json("sv") is moved
    assert json.loads(moved)["dice"] is not None
    assert json.loads(moved)["version"] == saved.version + 1

    # A seat connected elsewhere changes the state too (and nothing else does).
    rooms._presence(Presence(saved.id, "Bo", True, 30.0, "process-2"))
    seen = room.state_json("sv")
    assert seen is not moved
    assert next(s for s in json.loads(seen)["seats"] if s["name"] == "Bo")["connected"]

    # What is kept between renderings: the texts and what they were made from, no
    # dict of the state.
    for entry in room._shown.values():
        assert isinstance(entry[-1], str)
        assert not any(isinstance(part, dict) for part in entry)
