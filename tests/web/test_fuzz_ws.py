"""A fuzz of the websocket (hypothesis): random text and binary frames, huge ones,
deeply nested JSON, odd Unicode and messages that look like actions, sent to a seat's
socket, a watcher's, and sockets opened with a made-up token or for no game.

Each socket gets, for each frame, our error (or a pong) or a clean close with a code; no
frame raises in the server (the test client would re-raise it) and none changes the
game; the server answers as before afterwards.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from tests.web.conftest import new_game

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: Sockets opened, each sent one to four frames.
EXAMPLES = 300

#: The messages a server sends, and the close codes a fuzzed socket may get.
SERVER_TYPES = {"welcome", "state", "computer", "presence", "error", "pong"}
CLOSE_CODES = {1000, 1009, 1013, 4403, 4404}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
#: Messages that look like this protocol's or like actions.
messages = st.fixed_dictionaries(
    {"type": st.sampled_from(["ping", "roll", "reroll", "score", "undo", "state", "pong",
                              "PING", "ping\x00", ""])},
    optional={"hold": json_values, "box": json_values, "dice": json_values,
              "token": st.text(max_size=50), "expected_version": json_values},
).map(json.dumps)
nested = st.builds(lambda depth, opener, closer: opener * depth + closer * depth,
                   st.integers(1, 5000), st.sampled_from(["[", '{"a":', '{"type":[']),
                   st.sampled_from(["]", "}", ""]))
odd_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=300)
huge = st.builds(lambda n, c: c * n, st.integers(4000, 300_000), st.sampled_from(
    ["x", "é", "𝕏", "\x00", " "]))
frames = st.one_of(
    messages, nested, odd_text, huge, json_values.map(json.dumps),
    st.binary(max_size=300).map(bytes), st.builds(bytes, st.integers(4000, 100_000)),
)
#: Whose socket: a seat's (its token), a watcher's, a made-up token's (any text, empty:
#: a watcher's), no game's.
sockets = st.tuples(st.sampled_from(["Ann", "Bo", "watcher"] * 3 + ["no game", "token"]),
                    st.text(max_size=60)).map(lambda p: p[0] if p[0] != "token" else
                                               "token:" + p[1])


def _path(game_id: str, tokens: dict[str, str], who: str) -> str:
    if who == "no game":
        return f"/ws/games/{quote(game_id[::-1])}"
    if who == "watcher":
        return f"/ws/games/{game_id}"
    token = tokens.get(who) or who.removeprefix("token:")
    return f"/ws/games/{game_id}?token={quote(token)}&lang=sv"


def _replies(ws: Any, answers: int) -> tuple[list[dict[str, Any]], int | None]:
    """What the server says until it has given ``answers`` answers (an error or a pong
    each) or closed: the messages and the close code (``None`` while open)."""
    said: list[dict[str, Any]] = []
    try:
        while sum(m.get("type") in ("error", "pong") for m in said) < answers:
            said.append(ws.receive_json())
            assert len(said) < 200, said
    except WebSocketDisconnect as closed:
        return said, closed.code
    return said, None


def test_no_frame_harms_the_server_or_the_game(client: TestClient) -> None:
    created = new_game(client)
    game_id = created["id"]
    tokens = {s["name"]: s["token"] for s in created["seats"]}
    before = client.get(f"/api/games/{game_id}/record").json()
    seen: dict[str, int] = {}
    started = time.monotonic()

    @given(who=sockets, sent=st.lists(frames, min_size=1, max_size=4))
    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def run(who: str, sent: list[str | bytes]) -> None:
        with client.websocket_connect(_path(game_id, tokens, who)) as ws:
            for frame in sent:
                if isinstance(frame, bytes):
                    ws.send_bytes(frame)
                else:
                    ws.send_text(frame)
            ws.send_text('{"type": "ping"}')
            said, closed = _replies(ws, len(sent) + 1)
        seen["sockets"] = seen.get("sockets", 0) + 1
        seen["frames"] = seen.get("frames", 0) + len(sent)
        for message in said:
            assert message.get("type") in SERVER_TYPES, message
            if message["type"] == "error":
                error = message["error"]
                assert isinstance(error["code"], str) and isinstance(error["message"], str)
                seen[f"error {error['code']}"] = seen.get(f"error {error['code']}", 0) + 1
        if closed is not None:
            assert closed in CLOSE_CODES, (closed, said)
            seen[f"closed {closed}"] = seen.get(f"closed {closed}", 0) + 1
            refused = who == "no game" or (who.startswith("token:") and who != "token:")
            assert refused or any(isinstance(f, bytes) for f in sent), (who, said)
        else:  # one answer to each frame, the last ping's a pong
            assert who in ("Ann", "Bo", "watcher", "token:"), (who, said)
            assert said[-1] == {"type": "pong"}, said

    run()
    assert client.get(f"/api/games/{game_id}/record").json() == before  # nothing changed
    assert client.get("/healthz").status_code == 200
    assert new_game(client)["id"]
    print(f"websocket fuzz: {seen.get('sockets')} sockets, {seen.get('frames')} frames in "
          f"{time.monotonic() - started:.1f} s;", dict(sorted(seen.items())))
    assert seen["sockets"] >= EXAMPLES // 2
