"""What sharing the limits through Redis costs a request.

    YATZY_TEST_REDIS=redis://127.0.0.1:6379/0 PYTHONPATH=src python bench/limits.py [--calls 5000]
        [--requests 2000]

Prints the median, 99th percentile and mean time of one rate-limit check
(``RateLimiter.allow``, awaited on an event loop as a server does) in memory and
through Redis (one Lua script a request, asked on a thread off the loop), of
one game counted in a shared window (``RedisLimits.admit``), and of one advice turn
taken and given back (``RedisLimits.lock``), each over ``--calls`` calls (distinct
clients, as on a busy server), with the ratio of the Redis check to the memory one.
Then the same for whole requests: ``--requests`` reads of a game's state from a real
``yatzy serve`` on SQLite whose limits are in memory, and from one whose limits are
in Redis (``--redis``), one after the other on one connection each, alternating.
Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx2 as httpx
import redis

from yatzy.app.limits import SharedGuard
from yatzy.storage.redis_limits import RedisLimits
from yatzy.web.security import RateLimiter


def timed(calls: int, work: Callable[[int], object]) -> list[float]:
    times = []
    for i in range(calls):
        start = time.perf_counter()
        work(i)
        times.append(time.perf_counter() - start)
    return times


async def timed_async(calls: int, work: Callable[[int], Awaitable[object]]) -> list[float]:
    times = []
    for i in range(calls):
        start = time.perf_counter()
        await work(i)
        times.append(time.perf_counter() - start)
    return times


def show(name: str, times: list[float]) -> float:
    ordered = sorted(times)
    median = statistics.median(ordered)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    print(f"{name:<34} median {median * 1e6:7.1f} µs   p99 {p99 * 1e6:7.1f} µs   "
          f"mean {statistics.fmean(ordered) * 1e6:7.1f} µs")
    return median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    url = os.environ.get("YATZY_TEST_REDIS", "redis://127.0.0.1:6379/0")
    prefix = f"yatzy-bench:{uuid.uuid4().hex}:"
    shared = RedisLimits(url, prefix=prefix)
    try:
        memory = RateLimiter(20, 60)
        through_redis = RateLimiter(20, 60, shared=SharedGuard(shared))
        clients = [f"10.0.{i // 250}.{i % 250}" for i in range(args.calls)]

        async def checks() -> tuple[float, float]:
            await through_redis.allow("warm-up")  # the script loaded, the connection made
            in_memory = show("rate limit, in memory", await timed_async(
                args.calls, lambda i: memory.allow(clients[i])))
            in_redis = show("rate limit, through Redis", await timed_async(
                args.calls, lambda i: through_redis.allow(clients[i])))
            return in_memory, in_redis

        in_memory, in_redis = asyncio.run(checks())
        show("games per client, through Redis", timed(
            args.calls, lambda i: shared.admit(f"games:{clients[i]}", 30, 600)))

        def turn(i: int) -> None:
            release = shared.lock(f"advice:chances:g{i}", 120)
            assert release is not None
            release()

        show("advice turn taken and given back", timed(args.calls, turn))
        print(f"a request's rate-limit check through Redis: +{(in_redis - in_memory) * 1e6:.0f} "
              f"µs (median), {in_redis / in_memory:.0f}× the in-memory check")
        if args.requests:
            requests(url, args.requests)
    finally:
        client = redis.Redis.from_url(url)
        for batch in _batches(list(client.scan_iter(match=prefix + "*", count=1000))):
            client.delete(*batch)
        client.close()
        shared.close()


def requests(url: str, count: int) -> None:
    """Whole requests to two real servers, limits in memory and in Redis."""
    sys.path.insert(0, str(Path(__file__).parents[1]))
    from tests.web.server import free_port, start

    with tempfile.TemporaryDirectory() as folder:
        servers, bases = [], []
        try:
            for name, extra in (("memory", []), ("redis", ["--redis", url])):
                port = free_port()
                # A rate no reader here reaches: every request checked, none refused.
                servers.append(start(Path(folder) / f"{name}.sqlite3", port, "--rate",
                                     "10000", *extra, log=Path(folder) / f"{name}.log"))
                bases.append(f"http://127.0.0.1:{port}")
            clients = [httpx.Client(base_url=base, timeout=10) for base in bases]
            paths = []
            for client in clients:
                created = client.post("/api/games", json={
                    "rules": "yatzy", "seats": [{"name": "Ann"}, {"name": "Bo"}]}).json()
                paths.append(f"/api/games/{created['id']}")
            times: list[list[float]] = [[], []]
            for _ in range(count):
                for i, client in enumerate(clients):
                    start_at = time.perf_counter()
                    assert client.get(paths[i]).status_code == 200
                    times[i].append(time.perf_counter() - start_at)
            memory = show("a game's state, limits in memory", times[0])
            shared = show("a game's state, limits in Redis", times[1])
            print(f"a whole request with the limits in Redis: {(shared - memory) * 1e6:+.0f} µs "
                  f"(median)")
        finally:
            for server in servers:
                server.kill()
                server.wait(timeout=10)


def _batches(keys: list[bytes], size: int = 500) -> list[list[bytes]]:
    return [keys[i:i + size] for i in range(0, len(keys), size)]


if __name__ == "__main__":
    main()
