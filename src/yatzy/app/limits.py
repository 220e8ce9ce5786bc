"""The limits shared by a site's server processes, used with care: a store that does
not answer holds up no request and breaks none.

A :class:`SharedGuard` hands out its :class:`~yatzy.app.ports.SharedLimits` (Redis, in
:mod:`yatzy.storage.redis_limits`) while it answers. When a call fails, the caller
counts in its own memory (as a site of one process does), the guard logs one line,
and it does not hand the store out again for :data:`PAUSE` seconds, so that a store
that hangs costs one timeout per pause, not one per request. The first call that
succeeds after a failure logs that the limits are shared again.

>>> guard = SharedGuard(None)
>>> guard.store() is None
True
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from yatzy.app.ports import SharedLimits, SharedLimitsDown

log = logging.getLogger(__name__)

#: Seconds the store is left alone after it failed.
PAUSE = 2.0


class SharedGuard:
    """The shared limits ``shared`` (``None``: none, every limit in memory), handed out
    while they answer (see the module)."""

    def __init__(self, shared: SharedLimits | None, *,
                 clock: Callable[[], float] = time.monotonic, pause: float = PAUSE) -> None:
        self.shared = shared
        self._clock = clock
        self._pause = pause
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
        if self.shared is not None:
            self.shared.close()
