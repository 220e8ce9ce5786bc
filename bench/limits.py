"""What sharing the limits through Redis costs a request.

    YATZY_TEST_REDIS=redis://127.0.0.1:6379/0 python bench/limits.py [--calls 5000]

Prints the median, 99th percentile and mean time of one rate-limit check
(``RateLimiter.allow``) in memory and through Redis (one Lua script a request), of
one game counted in a shared window (``RedisLimits.admit``), and of one advice turn
taken and given back (``RedisLimits.lock``), each over ``--calls`` calls (distinct
clients, as on a busy server), with the ratio of the Redis check to the memory one.
Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import uuid
from collections.abc import Callable

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
    args = parser.parse_args()
    url = os.environ.get("YATZY_TEST_REDIS", "redis://127.0.0.1:6379/0")
    prefix = f"yatzy-bench:{uuid.uuid4().hex}:"
    shared = RedisLimits(url, prefix=prefix)
    try:
        memory = RateLimiter(20, 60)
        through_redis = RateLimiter(20, 60, shared=SharedGuard(shared))
        through_redis.allow("warm-up")  # the script loaded, the connection made
        clients = [f"10.0.{i // 250}.{i % 250}" for i in range(args.calls)]
        in_memory = show("rate limit, in memory", timed(
            args.calls, lambda i: memory.allow(clients[i])))
        in_redis = show("rate limit, through Redis", timed(
            args.calls, lambda i: through_redis.allow(clients[i])))
        show("games per client, through Redis", timed(
            args.calls, lambda i: shared.admit(f"games:{clients[i]}", 30, 600)))

        def turn(i: int) -> None:
            release = shared.lock(f"advice:chances:g{i}", 120)
            assert release is not None
            release()

        show("advice turn taken and given back", timed(args.calls, turn))
        print(f"a request's rate-limit check through Redis: +{(in_redis - in_memory) * 1e6:.0f} "
              f"µs (median), {in_redis / in_memory:.0f}× the in-memory check")
    finally:
        client = redis.Redis.from_url(url)
        for batch in _batches(list(client.scan_iter(match=prefix + "*", count=1000))):
            client.delete(*batch)
        client.close()
        shared.close()


def _batches(keys: list[bytes], size: int = 500) -> list[list[bytes]]:
    return [keys[i:i + size] for i in range(0, len(keys), size)]


if __name__ == "__main__":
    main()
