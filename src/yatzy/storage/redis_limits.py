"""The limits shared by a site's server processes, in Redis: token buckets (the rate
limit), sliding windows (games per client) and locks with an expiry (one piece of
advice per game at a time).

Each count is one atomic Lua script on one key, timed by Redis's own clock (the
processes' clocks may differ); a lock is redis-py's :class:`redis.lock.Lock`. Keys
start with ``yatzy:limits:`` and expire by themselves once they count nothing, so
Redis keeps nothing worth saving. Commands time out after :data:`TIMEOUT` seconds and
are not retried: a limit that does not answer at once is counted in memory instead
(:class:`~yatzy.app.limits.SharedGuard`).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from yatzy.app.ports import SharedLimitsDown
from yatzy.storage.redis_feed import check_redis_url

#: What every key of the shared limits starts with.
PREFIX = "yatzy:limits:"
#: Seconds to connect to Redis or to have an answer: a request waits this long at most.
TIMEOUT = 0.25

#: A token bucket kept as the time its next token is due, when it would be full again
#: (GCRA): ARGV are the milliseconds per token and the burst. 1 when a token is taken.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local due = tonumber(redis.call('GET', KEYS[1]) or 0)
if due < now then due = now end
local next_due = due + interval
if next_due - now > burst * interval then return 0 end
redis.call('SET', KEYS[1], string.format('%.3f', next_due), 'PX',
           math.max(1, math.ceil(next_due - now)))
return 1
"""

#: A sliding window of events, their times as the scores of a sorted set: ARGV are the
#: window's milliseconds, the limit and the new event's member. -1 when counted, else
#: the milliseconds until the oldest leaves the window.
_ADMIT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(1, window - (now - tonumber(oldest[2])))
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return -1
"""


class RedisLimits:
    """:class:`~yatzy.app.ports.SharedLimits` in the Redis at ``url``
    (``redis://host:6379/0``)."""

    def __init__(self, url: str, *, prefix: str = PREFIX, timeout: float = TIMEOUT) -> None:
        check_redis_url(url)
        self.prefix = prefix
        self._client = redis.Redis.from_url(
            url, socket_connect_timeout=timeout, socket_timeout=timeout,
            retry=Retry(NoBackoff(), 0))
        self._take = self._client.register_script(_TAKE)
        self._admit = self._client.register_script(_ADMIT)

    def take(self, key: str, rate: float, burst: int) -> bool:
        taken = self._run(self._take, key, 1000.0 / rate, burst)
        return bool(taken)

    def admit(self, key: str, limit: int, window: float) -> float | None:
        wait = int(self._run(self._admit, key, round(window * 1000), limit, uuid.uuid4().hex))
        return None if wait < 0 else wait / 1000

    def lock(self, key: str, seconds: float) -> Callable[[], None] | None:
        held = self._client.lock(self.prefix + key, timeout=seconds, blocking=False)
        try:
            if not held.acquire(blocking=False):
                return None
        except (redis.RedisError, OSError) as exc:
            raise SharedLimitsDown(str(exc)) from exc

        def release() -> None:
            try:
                held.release()
            except redis.exceptions.LockError:
                pass  # held longer than ``seconds``: it had expired already
            except (redis.RedisError, OSError) as exc:
                raise SharedLimitsDown(str(exc)) from exc

        return release

    def _run(self, script: Any, key: str, *args: Any) -> Any:
        try:
            return script(keys=[self.prefix + key], args=list(args))
        except (redis.RedisError, OSError) as exc:
            raise SharedLimitsDown(str(exc)) from exc

    def close(self) -> None:
        self._client.close()
