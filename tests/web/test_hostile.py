"""A real `yatzy serve` as an attacker meets it: a client that forges who it is, a
database that goes away, oversized and malformed HTTP. Every answer keeps the error
shape where the app can give one, and none is a 500."""

from __future__ import annotations

import json
import secrets
import shutil
import socket
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest

from tests.web.server import free_port, start


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A fresh `yatzy serve` (its own address's rate limit): its base address."""
    port = free_port()
    process = start(tmp_path / "games.sqlite3", port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.kill()
        process.wait(timeout=10)


def test_a_client_that_forges_its_address_and_tokens_is_still_limited(server: str) -> None:
    codes: list[int] = []
    started = time.monotonic()
    with httpx.Client(base_url=server, timeout=10) as client:
        for i in range(400):  # until the limit is met (a busy machine sends slowly)
            forged = f"198.51.100.{i % 250}"
            codes.append(client.post("/api/games/nothing/actions", json={"type": "roll"},
                                     headers={
                "Authorization": f"Bearer {secrets.token_urlsafe(32)}",
                "X-Forwarded-For": forged, "X-Real-IP": forged, "Forwarded": f"for={forged}",
            }).status_code)
            if codes.count(429) >= 10:
                break
    # One client, whatever it says: 60 at once, then 20 a second (the default limit).
    allowed = 60 + 20 * (time.monotonic() - started)
    assert codes.count(429) >= 10 and codes.count(404) <= allowed + 1, codes
    assert set(codes) == {404, 429}, codes


def _backup(db: Path, to: Path) -> None:
    """A copy of the database as it stands (its write-ahead log included)."""
    with sqlite3.connect(db) as source, sqlite3.connect(to) as copy:
        source.backup(copy)
    copy.close()
    source.close()


def _remove(db: Path) -> None:
    for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        path.unlink(missing_ok=True)


def test_a_database_gone_while_serving_answers_503_until_it_is_back(
        server: str, tmp_path: Path) -> None:
    db, saved = tmp_path / "games.sqlite3", tmp_path / "backup.sqlite3"
    with httpx.Client(base_url=server, timeout=20) as client:
        created = client.post("/api/games", json={
            "rules": "yatzy", "seats": [{"name": "Ann"}, {"name": "Bo"}]}).json()
        game, ann = created["id"], {"Authorization": f"Bearer {created['seats'][0]['token']}"}
        rolled = client.post(f"/api/games/{game}/actions", json={"type": "roll"}, headers=ann)
        assert rolled.status_code == 200
        _backup(db, saved)

        for gone in ("deleted", "a folder"):
            _remove(db)
            if gone == "a folder":
                db.mkdir()
            refused = [
                client.post(f"/api/games/{game}/actions", json={"type": "score", "box": "chance"},
                            headers=ann),
                client.post("/api/games", json={"rules": "yatzy", "seats": [{"name": "Cy"}]}),
                client.get("/api/leaderboards"),
            ]
            for answer in refused:
                assert answer.status_code == 503, (gone, answer.text)
                assert answer.json()["error"]["code"] == "storage", answer.text
                assert int(answer.headers["Retry-After"]) > 0
            # Not ready to serve (a load balancer takes it out), though still alive.
            ready = client.get("/readyz")
            assert ready.status_code == 503 and int(ready.headers["Retry-After"]) > 0, gone
            assert ready.json()["error"]["code"] == "not_ready"
            assert client.get("/healthz").status_code == 200
            # The game is shown as stored or not at all: the copy held here is not
            # passed off as the game while the store cannot say it still is.
            shown = client.get(f"/api/games/{game}")
            assert shown.status_code == 503 and shown.json()["error"]["code"] == "storage"
            if gone == "a folder":
                db.rmdir()

        shutil.copy(saved, db)  # the database is back (from its backup)
        assert client.get("/readyz").status_code == 200
        state = client.get(f"/api/games/{game}").json()  # nothing was applied
        assert state["version"] == rolled.json()["version"]
        assert state["scorecards"]["Ann"]["chance"] is None
        scored = client.post(f"/api/games/{game}/actions",
                             json={"type": "score", "box": "chance"}, headers=ann)
        assert scored.status_code == 200, scored.text
        assert client.post("/api/games", json={
            "rules": "yatzy", "seats": [{"name": "Cy"}]}).status_code == 201
    with sqlite3.connect(db) as check:  # the action after the return is in the file
        assert check.execute("select version from games where id = ?",
                             (game,)).fetchone()[0] == scored.json()["version"]
    check.close()


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One `yatzy serve` for the tests of a few requests each."""
    port = free_port()
    process = start(tmp_path_factory.mktemp("shared") / "games.sqlite3", port)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.kill()
        process.wait(timeout=10)


def _chunks(size: int, piece: int = 1000) -> Iterator[bytes]:
    """A JSON body of ``size`` bytes sent in pieces (chunked: no Content-Length)."""
    body = b'{"text": "' + b"a" * (size - 12) + b'"}'
    for start_ in range(0, len(body), piece):
        yield body[start_:start_ + piece]


@pytest.mark.parametrize("size", [16 * 1024 + 1, 100_000, 2_000_000])
def test_a_chunked_body_over_the_limit_is_too_large(shared: str, size: int) -> None:
    response = httpx.post(f"{shared}/api/qr", content=_chunks(size),
                          headers={"Content-Type": "application/json"}, timeout=10)
    assert "content-length" not in response.request.headers
    assert response.status_code == 413, response.text
    assert response.json()["error"]["code"] == "too_large"


def test_a_chunked_body_within_the_limit_is_read(shared: str) -> None:
    response = httpx.post(f"{shared}/api/qr", content=_chunks(1000, piece=100),
                          headers={"Content-Type": "application/json"}, timeout=10)
    assert response.status_code == 200 and response.text.startswith("<svg")


def _raw(base: str, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``data`` as it is on a new connection: the answer's status, headers and
    body."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(data)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in lines)}
    return int(status_line.split()[1]), headers, body


END = b"Host: x\r\nConnection: close\r\n\r\n"


@pytest.mark.parametrize("request_", [
    b"FOO /healthz HTTP/1.1\r\n" + END,
    b"POST /api/games HTTP/1.1\r\nContent-Length: abc\r\n" + END,
    b"POST /api/games HTTP/1.1\r\nContent-Length: -1\r\n" + END,
    b"POST /api/qr HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n" + END + b"hello!",
    b"POST /api/qr HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n" + END,
    b"GET /" + b"a" * 1_000_000 + b" HTTP/1.1\r\n" + END,
    b"GET /healthz HTTP/9.9\r\n" + END,
    b"\x00\x01\x02 not http\r\n\r\n",
], ids=["method", "length", "negative", "two-lengths", "length-and-chunked", "1MB-url",
        "version", "garbage"])
def test_a_request_the_server_cannot_read_gets_the_error_shape(shared: str,
                                                               request_: bytes) -> None:
    status, headers, body = _raw(shared, request_)
    assert status == 400
    assert headers["content-type"] == "application/json"
    assert headers["x-content-type-options"] == "nosniff"
    assert int(headers["content-length"]) == len(body)
    error = json.loads(body)["error"]
    assert error["code"] == "invalid_request" and error["message"]


def test_head_is_answered_wherever_get_is(shared: str) -> None:
    for path in ("/healthz", "/", "/api/rulesets", "/static/favicon.svg"):
        status, headers, body = _raw(shared, f"HEAD {path} HTTP/1.1\r\n".encode() + END)
        got = httpx.get(f"{shared}{path}")
        assert (status, body) == (200, b""), path
        assert int(headers["content-length"]) == len(got.content), path
        assert headers["content-type"] == got.headers["content-type"], path
