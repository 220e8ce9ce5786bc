"""The server's safety parts on their own: the rate limiter's buckets, the log filter
that keeps seat tokens out of the logs, and which origins browsers hold secure."""

from __future__ import annotations

import asyncio
import logging

import pytest

from yatzy.web.security import RateLimiter, RedactTokens, client_key, secure_origin


def allowed(limiter: RateLimiter, client: str) -> bool:
    """``limiter.allow(client)`` (a coroutine: the shared bucket is asked off the loop)."""
    return asyncio.run(limiter.allow(client))


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_buckets_refill_at_the_rate() -> None:
    clock = Clock()
    limiter = RateLimiter(2.0, 3, clock=clock)
    assert [allowed(limiter, "a") for _ in range(4)] == [True, True, True, False]
    assert allowed(limiter, "b")  # another client has its own bucket
    clock.now = 0.5  # one request's worth back
    assert allowed(limiter, "a") and not allowed(limiter, "a")
    assert allowed(RateLimiter(0, 1), "a") and allowed(RateLimiter(0, 1), "a")  # off


def test_idle_clients_are_forgotten() -> None:
    clock = Clock()
    limiter = RateLimiter(1.0, 2, clock=clock, max_clients=3)
    for name in "abc":
        allowed(limiter, name)
    clock.now = 100
    allowed(limiter, "d")
    assert len(limiter._buckets) <= 2


@pytest.mark.parametrize(("address", "key"), [
    ("1.2.3.4", "1.2.3.4"),
    ("::ffff:1.2.3.4", "1.2.3.4"),
    ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
    ("fe80::1%eth0", "fe80::/64"),
    ("testclient", "testclient"),
    (None, "?"),
    ("", "?"),
])
def test_a_client_is_its_address(address: str | None, key: str) -> None:
    assert client_key(address) == key


@pytest.mark.parametrize("args", [("GET /ws/games/x?token=abc.DEF_1-2 HTTP/1.1",),
                                  ("%s", "/ws/games/x?lang=sv&token=abcdef")])
def test_tokens_never_reach_the_log(args: tuple[str, ...]) -> None:
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, args[0],
                               args[1:] or None, None)
    RedactTokens().filter(record)
    text = record.getMessage()
    assert "token=…" in text and "abc" not in text


@pytest.mark.parametrize(("scheme", "host", "secure"), [
    ("https", "yatzy.example", True),
    ("http", "127.0.0.1:8000", True),
    ("http", "127.1.2.3", True),
    ("http", "localhost:8000", True),
    ("http", "app.localhost", True),
    ("http", "[::1]:8000", True),
    ("http", "192.168.1.20:8000", False),
    ("http", "yatzy.lan:8000", False),
    ("http", "[fe80::1]:8000", False),
    ("http", "", False),
])
def test_secure_origins(scheme: str, host: str, secure: bool) -> None:
    scope = {"type": "http", "scheme": scheme, "headers": [(b"host", host.encode())]}
    assert secure_origin(scope) is secure
