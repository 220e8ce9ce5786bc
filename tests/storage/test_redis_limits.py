"""The shared limits in Redis: token buckets, sliding windows and locks, shared by every
:class:`RedisLimits` on one Redis (as by a site's server processes), expiring by
themselves, and :class:`SharedLimitsDown` at once when Redis does not answer. Needs
``$YATZY_TEST_REDIS`` (skipped with the reason without it); each test counts under a
prefix of its own."""

from __future__ import annotations

import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import redis
from hypothesis import given, settings
from hypothesis import strategies as st

import yatzy
from tests.services import redis_url
from yatzy.app.advice import AdviceBusy, AdviceService
from yatzy.app.limits import SharedGuard
from yatzy.app.ports import SharedLimitsDown
from yatzy.storage.redis_limits import RedisLimits


@pytest.fixture
def pair() -> Iterator[tuple[RedisLimits, RedisLimits]]:
    """Two processes' limits on one Redis, under a prefix of this test's."""
    url = redis_url()
    prefix = f"yatzy-test:{uuid.uuid4().hex}:"
    a, b = RedisLimits(url, prefix=prefix), RedisLimits(url, prefix=prefix)
    yield a, b
    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(match=prefix + "*"))
    if keys:
        client.delete(*keys)
    client.close()
    a.close()
    b.close()


def test_a_bucket_is_shared_and_holds_its_burst(pair: tuple[RedisLimits, RedisLimits]) -> None:
    a, b = pair
    assert [a.take("rate:x", 0.01, 5) for _ in range(3)] == [True] * 3
    assert [b.take("rate:x", 0.01, 5) for _ in range(2)] == [True] * 2
    assert not a.take("rate:x", 0.01, 5) and not b.take("rate:x", 0.01, 5)
    assert b.take("rate:y", 0.01, 5)  # another client's bucket


def test_a_bucket_fills_at_its_rate(pair: tuple[RedisLimits, RedisLimits]) -> None:
    a, b = pair
    assert a.take("rate:x", 2, 1) and not b.take("rate:x", 2, 1)
    time.sleep(0.55)  # one token in 500 ms
    assert b.take("rate:x", 2, 1) and not a.take("rate:x", 2, 1)


def test_a_bucket_forgets_itself_once_full_again(pair: tuple[RedisLimits, RedisLimits]) -> None:
    a, _ = pair
    a.take("rate:x", 10, 3)
    ttl = a._client.pttl(a.prefix + "rate:x")
    assert 0 < ttl <= 100  # full again after one token's 100 ms


@settings(max_examples=15, deadline=None)
@given(burst=st.integers(1, 30), extra=st.integers(1, 10))
def test_a_full_bucket_gives_exactly_its_burst(burst: int, extra: int) -> None:
    url = redis_url()
    limits = RedisLimits(url, prefix=f"yatzy-test:{uuid.uuid4().hex}:")
    try:
        taken = [limits.take("rate:x", 0.001, burst) for _ in range(burst + extra)]
        assert taken == [True] * burst + [False] * extra
    finally:
        limits._client.delete(limits.prefix + "rate:x")
        limits.close()


def test_a_window_counts_across_processes(pair: tuple[RedisLimits, RedisLimits]) -> None:
    a, b = pair
    assert a.admit("games:x", 3, 60) is None and b.admit("games:x", 3, 60) is None
    assert a.admit("games:x", 3, 60) is None
    wait = b.admit("games:x", 3, 60)
    assert wait is not None and 59 < wait <= 60
    assert a.admit("games:y", 3, 60) is None


def test_a_window_lets_the_oldest_go(pair: tuple[RedisLimits, RedisLimits]) -> None:
    a, b = pair
    assert a.admit("games:x", 1, 0.2) is None
    assert b.admit("games:x", 1, 0.2) is not None
    time.sleep(0.25)
    assert b.admit("games:x", 1, 0.2) is None


def test_a_lock_is_held_once_and_given_back(pair: tuple[RedisLimits, RedisLimits]) -> None:
    a, b = pair
    release = a.lock("advice:chances:g1", 10)
    assert release is not None
    assert b.lock("advice:chances:g1", 10) is None
    other = b.lock("advice:chances:g2", 10)
    assert other is not None
    release()
    again = b.lock("advice:chances:g1", 10)
    assert again is not None
    again()
    other()


def test_a_lock_of_a_dead_holder_expires(pair: tuple[RedisLimits, RedisLimits]) -> None:
    a, b = pair
    release = a.lock("advice:hint:g1", 0.2)
    assert release is not None and b.lock("advice:hint:g1", 0.2) is None
    time.sleep(0.3)
    taken = b.lock("advice:hint:g1", 10)
    assert taken is not None
    release()  # too late: it is b's now, and stays b's
    assert a.lock("advice:hint:g1", 10) is None
    taken()


def test_redis_away_is_said_at_once() -> None:
    with socket_nobody_listens_on() as port:
        limits = RedisLimits(f"redis://127.0.0.1:{port}/0")
        started = time.monotonic()
        for ask in (lambda: limits.take("rate:x", 1, 1), lambda: limits.admit("games:x", 1, 1),
                    lambda: limits.lock("advice:x", 1)):
            with pytest.raises(SharedLimitsDown):
                ask()
        assert time.monotonic() - started < 1.5
        limits.close()


@contextmanager
def socket_nobody_listens_on() -> Iterator[int]:
    """A port on 127.0.0.1 that refuses connections while the block runs (bound, never
    listening)."""
    with socket.socket() as bound:
        bound.bind(("127.0.0.1", 0))
        yield bound.getsockname()[1]


def test_two_processes_advice_on_one_game_is_worked_out_one_at_a_time(
        pair: tuple[RedisLimits, RedisLimits], monkeypatch: pytest.MonkeyPatch) -> None:
    """Two advice services (two server processes) on one Redis: while A works out a
    game's chances, B's request for them is busy; once A is done, B works them out."""
    started, finish = threading.Event(), threading.Event()

    def slow(game: yatzy.Game) -> dict[str, float]:
        started.set()
        finish.wait(10)
        return dict.fromkeys(game.players, 0.5)

    monkeypatch.setattr("yatzy.app.advice._chances", slow)
    a, b = (AdviceService(workers=1, shared=SharedGuard(limits)) for limits in pair)
    game = yatzy.new_game(yatzy.ruleset("yatzy"), ["Ann", "Bo"], seed=1)
    try:
        working = a.chances("g1", 1, game)
        assert started.wait(10)
        with pytest.raises(AdviceBusy):
            b.wait("chances", "g1", b.chances("g1", 1, game), 10)
        finish.set()
        assert a.wait("chances", "g1", working, 10) == (1, {"Ann": 0.5, "Bo": 0.5})
        assert b.wait("chances", "g1", b.chances("g1", 1, game), 10)[0] == 1
    finally:
        finish.set()
        a.close()
        b.close()
