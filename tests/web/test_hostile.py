"""A real `yatzy serve` as an attacker meets it: a client that forges who it is, a
database that goes away, oversized and malformed HTTP. Every answer keeps the error
shape where the app can give one, and none is a 500."""

from __future__ import annotations

import secrets
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
    started = time.monotonic()
    with httpx.Client(base_url=server, timeout=10) as client:
        codes = [client.post("/api/games/nothing/actions", json={"type": "roll"}, headers={
            "Authorization": f"Bearer {secrets.token_urlsafe(32)}",
            "X-Forwarded-For": f"198.51.100.{i % 250}", "X-Real-IP": f"198.51.100.{i % 250}",
            "Forwarded": f"for=198.51.100.{i % 250}"}).status_code for i in range(150)]
    # One client, whatever it says: 60 at once, then 20 a second (the default limit).
    allowed = 60 + 20 * (time.monotonic() - started)
    assert codes.count(429) >= 20 and codes.count(404) <= allowed + 1, codes
    assert set(codes) <= {404, 429}, codes


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
