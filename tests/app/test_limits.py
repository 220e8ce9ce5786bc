"""The shared limits as the app uses them (:class:`SharedGuard`): asked while they
answer; when they fail, each limit is counted in the process's memory for a pause,
with one log line, and never an error. A store of the tests' own stands for Redis
(``tests/storage/test_redis_limits.py`` tests Redis's)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import pytest

import yatzy
from yatzy.app.advice import AdviceBusy, AdviceService
from yatzy.app.limits import SharedGuard
from yatzy.app.policy import GameCounter, TablePolicy, TooManyGames
from yatzy.app.ports import SharedLimits, SharedLimitsDown
from yatzy.web.security import RateLimiter


def allowed(limiter: RateLimiter, client: str) -> bool:
    """``limiter.allow(client)`` (a coroutine: the shared bucket is asked off the loop)."""
    return asyncio.run(limiter.allow(client))


class Shared:
    """Shared limits in a dict (each bucket holds ``burst`` and never fills), that fail
    while ``down``."""

    def __init__(self) -> None:
        self.down = False
        self.asked = 0
        self.buckets: dict[str, int] = {}
        self.windows: dict[str, int] = {}
        self.locks: set[str] = set()

    def _ask(self) -> None:
        self.asked += 1
        if self.down:
            raise SharedLimitsDown("Connection refused")

    def take(self, key: str, rate: float, burst: int) -> bool:
        self._ask()
        left = self.buckets.get(key, burst)
        self.buckets[key] = max(0, left - 1)
        return left > 0

    def admit(self, key: str, limit: int, window: float) -> float | None:
        self._ask()
        if self.windows.get(key, 0) >= limit:
            return 12.5
        self.windows[key] = self.windows.get(key, 0) + 1
        return None

    def lock(self, key: str, seconds: float) -> Callable[[], None] | None:
        self._ask()
        if key in self.locks:
            return None
        self.locks.add(key)
        return lambda: self.locks.discard(key)

    def close(self) -> None:
        pass


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_fake_is_a_port() -> None:
    store: SharedLimits = Shared()
    assert store.take("k", 1, 1)


def test_the_rate_limit_is_the_shared_one_while_it_answers() -> None:
    shared, clock = Shared(), Clock()
    a = RateLimiter(1, 3, clock=clock, shared=SharedGuard(shared, clock=clock))
    b = RateLimiter(1, 3, clock=clock, shared=SharedGuard(shared, clock=clock))
    assert [allowed(a, "ip"), allowed(b, "ip"), allowed(a, "ip")] == [True] * 3
    assert not allowed(b, "ip") and not allowed(a, "ip")  # B's own bucket would be full
    assert allowed(b, "other")


def test_a_lost_store_is_left_alone_for_a_pause_and_said_once(
        caplog: pytest.LogCaptureFixture) -> None:
    shared, clock = Shared(), Clock()
    guard = SharedGuard(shared, clock=clock, pause=2.0)
    limiter = RateLimiter(0.01, 2, clock=clock, shared=guard)
    shared.down = True
    with caplog.at_level(logging.WARNING, logger="yatzy.app.limits"):
        # In memory meanwhile: this process's bucket of 2, asked of the store once.
        assert [allowed(limiter, "ip") for _ in range(3)] == [True, True, False]
        assert shared.asked == 1
        clock.now += 2.5
        assert not allowed(limiter, "ip")  # asked again after the pause: still down
        assert shared.asked == 2
        shared.down = False
        clock.now += 2.5
        assert allowed(limiter, "ip")
        assert shared.asked == 3
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 2, said
    assert "do not answer (Connection refused)" in said[0] and "answer again" in said[1]


def test_games_per_client_are_counted_by_the_shared_window() -> None:
    shared = Shared()
    policy = TablePolicy(games_per_window=2, window=600)
    a = GameCounter(policy, shared=SharedGuard(shared))
    b = GameCounter(policy, shared=SharedGuard(shared))
    a.admit("ip")
    b.admit("ip")
    with pytest.raises(TooManyGames) as refused:
        a.admit("ip")
    assert refused.value.retry_after == 13  # 12.5 s, rounded up


def test_games_per_client_are_counted_in_memory_while_the_store_is_lost() -> None:
    shared = Shared()
    shared.down = True
    counter = GameCounter(TablePolicy(games_per_window=1, window=600),
                          shared=SharedGuard(shared))
    counter.admit("ip")
    with pytest.raises(TooManyGames):
        counter.admit("ip")


def two_player_game() -> yatzy.Game:
    return yatzy.new_game(yatzy.ruleset("yatzy"), ["Ann", "Bo"], seed=1).roll([1, 2, 3, 4, 5])


@pytest.fixture(autouse=True)
def quick_chances(monkeypatch: pytest.MonkeyPatch) -> None:
    """Even chances at once (the solver's are tested with the advice service)."""
    monkeypatch.setattr("yatzy.app.advice._chances",
                        lambda game: dict.fromkeys(game.players, 1 / len(game.players)))


def test_advice_whose_turn_another_process_holds_is_busy() -> None:
    shared = Shared()
    advice = AdviceService(workers=1, shared=SharedGuard(shared))
    try:
        shared.locks.add("advice:chances:g1")  # another process works on it
        with pytest.raises(AdviceBusy) as busy:
            advice.wait("chances", "g1", advice.chances("g1", 1, two_player_game()), 30)
        assert busy.value.retry_after == 1
        shared.locks.clear()
        # The next request tries again, and gives the turn back when done.
        version, found = advice.wait("chances", "g1",
                                     advice.chances("g1", 1, two_player_game()), 30)
        assert version == 1 and set(found) == {"Ann", "Bo"}
        assert shared.locks == set()
    finally:
        advice.close()


def test_advice_is_worked_out_while_the_store_is_lost() -> None:
    shared = Shared()
    shared.down = True
    advice = AdviceService(workers=1, shared=SharedGuard(shared))
    try:
        _, found = advice.wait("chances", "g1", advice.chances("g1", 1, two_player_game()), 30)
        assert set(found) == {"Ann", "Bo"}
    finally:
        advice.close()


class Hanging(Shared):
    """Shared limits that take ``seconds`` to answer each call (a Redis that hangs)."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    def _ask(self) -> None:
        super()._ask()
        time.sleep(self.seconds)


def test_a_store_that_does_not_answer_in_time_is_counted_in_memory(
        caplog: pytest.LogCaptureFixture) -> None:
    """The loop waits for the store up to the deadline, then counts in memory (and
    leaves the store alone for the pause): the store's answer, come later, is not used."""
    shared = Hanging(0.5)
    guard = SharedGuard(shared, deadline=0.1)
    limiter = RateLimiter(0.01, 1, shared=guard)
    counter = GameCounter(TablePolicy(games_per_window=1, window=600), shared=guard)

    async def ask() -> tuple[list[bool], float]:
        began = time.perf_counter()
        allowed = [await limiter.allow("ip") for _ in range(2)]
        await counter.admit_async("ip")
        with pytest.raises(TooManyGames):
            await counter.admit_async("ip")
        return allowed, time.perf_counter() - began

    with caplog.at_level(logging.WARNING, logger="yatzy.app.limits"):
        allowed, took = asyncio.run(ask())
    assert allowed == [True, False]  # this process's bucket of 1
    assert shared.asked == 1  # once, then left alone for the pause
    assert took < 0.45  # the deadline, not the store's half second
    assert "no answer within 0.1 s" in caplog.records[0].getMessage()
    guard.close()


def test_games_per_client_are_counted_by_the_shared_window_from_the_loop() -> None:
    shared = Shared()
    counter = GameCounter(TablePolicy(games_per_window=1, window=600),
                          shared=SharedGuard(shared))

    async def ask() -> None:
        await counter.admit_async("ip")
        with pytest.raises(TooManyGames) as refused:
            await counter.admit_async("ip")
        assert refused.value.retry_after == 13

    asyncio.run(ask())
    assert shared.windows == {"games:ip": 1}
