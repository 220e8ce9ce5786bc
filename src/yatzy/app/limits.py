"""The limits shared by a site's server processes, used with care: a store that does
not answer holds up no request and breaks none.

A :class:`SharedGuard` hands out its :class:`~yatzy.app.ports.SharedLimits` (Redis, in
:mod:`yatzy.storage.redis_limits`) while it answers. When a call fails, the caller
counts in its own memory (as a site of one process does), the guard logs one line,
and it does not hand the store out again for :data:`PAUSE` seconds, so that a store
that hangs costs one timeout per pause, not one per request. The first call that
succeeds after a failure logs that the limits are shared again.

A server's event loop never waits for the store: :meth:`SharedGuard.ask` runs the call
on a few threads of the guard's own and waits for it at most :data:`DEADLINE` seconds
(a store that accepts connections and never answers is a failure like one that refuses
them), so that the loop keeps answering every other request meanwhile. Work that runs
on a thread already (the advice's turn, a daily attempt's game count) asks the store
directly, bounded by the store's own timeout.

>>> guard = SharedGuard(None)
>>> guard.store() is None
True
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Generic, TypeVar

from yatzy.app.ports import SharedLimits, SharedLimitsDown

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Seconds the store is left alone after it failed.
PAUSE = 2.0
#: Seconds a request on the event loop waits for the store at most (its call and the
#: wait for one of the guard's threads): then the limit is counted in memory.
DEADLINE = 0.5
#: Threads that ask the store for the event loop (each call is one round trip).
THREADS = 4


@dataclass(frozen=True)
class Answered(Generic[T]):
    """What the shared store answered (:meth:`SharedGuard.ask`)."""

    value: T


class SharedGuard:
    """The shared limits ``shared`` (``None``: none, every limit in memory), handed out
    while they answer (see the module)."""

    def __init__(self, shared: SharedLimits | None, *,
                 clock: Callable[[], float] = time.monotonic, pause: float = PAUSE,
                 deadline: float = DEADLINE, threads: int = THREADS) -> None:
        self.shared = shared
        self._clock = clock
        self._pause = pause
        self._deadline = deadline
        self._threads = threads
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()
        self._resume_at: float | None = None  # set while the store is taken to be lost

    def store(self) -> SharedLimits | None:
        """The shared limits to ask now, or ``None``: count in memory (there are none,
        or they failed less than :data:`PAUSE` seconds ago)."""
        if self.shared is None:
            return None
        with self._lock:
            if self._resume_at is not None and self._clock() < self._resume_at:
                return None
        return self.shared

    async def ask(self, call: Callable[[SharedLimits], T]) -> Answered[T] | None:
        """``call(store)`` off the event loop, waited for at most :data:`DEADLINE`
        seconds: its answer, or ``None`` when the caller counts in memory (there are no
        shared limits, they failed lately, or they fail or do not answer now)."""
        store = self.store()
        if store is None:
            return None
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self._threads,
                                                thread_name_prefix="yatzy-limits")
            pool = self._pool
        try:
            value = await asyncio.wait_for(
                asyncio.get_running_loop().run_in_executor(pool, call, store),
                self._deadline)
        except SharedLimitsDown as exc:
            self.failed(exc)
            return None
        except TimeoutError:
            self.failed(SharedLimitsDown(f"no answer within {self._deadline} s"))
            return None
        except RuntimeError as exc:  # the pool stopped (the server is stopping)
            self.failed(SharedLimitsDown(str(exc)))
            return None
        self.answered()
        return Answered(value)

    def answered(self) -> None:
        """The store answered: the limits are shared again if they were not."""
        if self._resume_at is None:  # the common case, without the lock
            return
        with self._lock:
            if self._resume_at is None:
                return
            self._resume_at = None
        log.warning("The shared limits answer again: rate limits, games per client and "
                    "advice hold across the server processes again")

    def failed(self, exc: SharedLimitsDown) -> None:
        """The store failed (``exc``): count in memory for :data:`PAUSE` seconds."""
        with self._lock:
            first = self._resume_at is None
            self._resume_at = self._clock() + self._pause
        if first:
            log.warning("The shared limits do not answer (%s): each server process "
                        "counts rate limits, games per client and advice on its own "
                        "until they do", exc)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        if self.shared is not None:
            self.shared.close()
