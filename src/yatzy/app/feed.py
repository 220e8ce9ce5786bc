"""The change feed: how every change to a game reaches whatever shows that game.

The game service publishes an event (:mod:`yatzy.app.events`) after each change it has
stored; everything that shows a game (the web app's rooms, the terminal game) subscribes
to the service's feed and reloads a game when an event names a newer version of it than
the one it shows. Subscribers see only :class:`ChangeFeed`; which feed carries the events
is the composition root's choice:

- :class:`LocalFeed`: the changes this process makes (one process, or a test).
- :class:`StoreFeed`: those, plus the changes other processes store in the same
  database (``yatzy play`` in a terminal while ``yatzy serve`` shows the game on the
  web). The store writes each event in the transaction of its change (the change log,
  :class:`ChangeLog`); a thread reads the log a few times a second.

A feed for many servers implements the same protocol:
:class:`~yatzy.storage.redis_feed.RedisFeed` is a :class:`StoreFeed` whose events also
travel through Redis, at once. Subscribers are called on the thread that stored the
change or on the feed's own thread: one that updates a screen hands the event over to
its own loop.

>>> from yatzy.app.events import GameDeleted
>>> feed = LocalFeed()
>>> heard = []
>>> stop = feed.subscribe(heard.append)
>>> feed.publish(GameDeleted("g1", version=3))
>>> heard
[GameDeleted(version=3, game_id='g1', type='game_deleted')]
>>> stop(); feed.publish(GameDeleted("g2")); len(heard)
1
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, TypeVar

from yatzy.app.errors import StorageError
from yatzy.app.events import Event, event_from_dict

log = logging.getLogger(__name__)

Subscriber = Callable[[Event], object]
T = TypeVar("T")

#: Seconds between two reads of the change log: a change made elsewhere reaches the
#: subscribers within about this time.
POLL_INTERVAL = 0.25
#: How long the change log keeps an event: a reader that paused for longer reloads a
#: game when it next acts on it (the store's version check tells it).
KEEP_CHANGES = timedelta(minutes=10)
#: Events read at most per read of the log.
READ_LIMIT = 500
#: How far back each read looks again: on a database where transactions can commit
#: out of the order of their sequence numbers (PostgreSQL), an event that appears behind
#: one already read is still delivered (the sequence numbers delivered are remembered).
LOOK_BACK = 64


@dataclass(frozen=True)
class Presence:
    """Whether a seat of a game has a connection in the process ``origin``: news that
    holds for ``ttl`` seconds unless told again (a process killed says nothing more, and
    its seats stop counting). Not a change of the game: never stored, only passed on."""

    game_id: str
    seat: str
    connected: bool
    ttl: float
    origin: str = ""


PresenceSubscriber = Callable[[Presence], object]


class ChangeFeed(Protocol):
    """Where the game service publishes its changes and everyone else subscribes."""

    def publish(self, event: Event) -> None:
        """Deliver ``event``, a change this process has just stored."""
        ...

    def subscribe(self, callback: Subscriber, *, others_only: bool = False
                  ) -> Callable[[], None]:
        """Call ``callback(event)`` for each change (``others_only``: only for those
        other processes made); returns a function that unsubscribes. A callback that
        raises is logged and does not stop the others."""
        ...

    def announce(self, presence: Presence) -> None:
        """Tell the other processes that a seat of a game has a connection here, or no
        longer has one (a feed that reaches no other process at once drops it)."""
        ...

    def subscribe_presence(self, callback: PresenceSubscriber) -> Callable[[], None]:
        """Call ``callback(presence)`` for what the other processes announce (never, for
        a feed that reaches none at once); returns a function that unsubscribes."""
        ...

    #: The services beyond the database that the feed needs (``("redis",)``).
    services: tuple[str, ...]

    def reachable(self) -> dict[str, bool]:
        """Each of :attr:`services` and whether it answers now (``{"redis": True}``);
        empty for a feed that needs none."""
        ...

    def close(self) -> None:
        """Stop delivering (a feed with a thread stops it)."""
        ...


@dataclass(frozen=True)
class StoredChange:
    """One entry of the change log: its sequence number, the process (service) that
    stored it, and the event's dict form."""

    seq: int
    origin: str
    event: dict[str, Any]


class ChangeLog(Protocol):
    """The store's log of the events of its changes (the repository implements it)."""

    #: The id the store writes beside each event of this process's changes.
    origin: str

    def changes_since(self, seq: int, limit: int) -> list[StoredChange]:
        """Up to ``limit`` logged changes with a sequence number above ``seq``, oldest
        first."""
        ...

    def last_change(self) -> int:
        """The newest sequence number in the log (0 when it is empty)."""
        ...

    def forget_changes(self, before: datetime) -> int:
        """Delete the log's entries stored before ``before``; returns how many."""
        ...


def subscription(lock: threading.Lock, subscribers: list[T], entry: T) -> Callable[[], None]:
    """Add ``entry`` to ``subscribers`` (under ``lock``); returns what takes it out."""
    with lock:
        subscribers.append(entry)

    def unsubscribe() -> None:
        with lock:
            if entry in subscribers:
                subscribers.remove(entry)

    return unsubscribe


def call_each(callbacks: list[Callable[[T], object]], value: T, what: str) -> None:
    """``callback(value)`` for each of ``callbacks``: one that raises is logged (with
    ``what`` was delivered) and does not stop the others."""
    for callback in callbacks:
        try:
            callback(value)
        except Exception:
            log.exception("A subscriber failed on %s", what)


class LocalFeed:
    """The changes of this process, delivered at once on the thread that stored them."""

    def __init__(self) -> None:
        #: Each subscriber, and whether it hears only of other processes' changes.
        self._subscribers: list[tuple[Subscriber, bool]] = []
        self._lock = threading.Lock()

    def publish(self, event: Event) -> None:
        self._deliver(event, here=True)

    def _deliver(self, event: Event, *, here: bool) -> None:
        with self._lock:
            subscribers = [callback for callback, others_only in self._subscribers
                           if not (here and others_only)]
        call_each(subscribers, event, event.type)

    def subscribe(self, callback: Subscriber, *, others_only: bool = False
                  ) -> Callable[[], None]:
        return subscription(self._lock, self._subscribers, (callback, others_only))

    def announce(self, presence: Presence) -> None:
        """Nothing: no other process hears this feed at once (processes that share only
        the database show their own connections)."""

    def subscribe_presence(self, callback: PresenceSubscriber) -> Callable[[], None]:
        return lambda: None  # nothing ever comes

    services: tuple[str, ...] = ()  # nothing beyond the database

    def reachable(self) -> dict[str, bool]:
        return {}

    def close(self) -> None:
        with self._lock:
            self._subscribers.clear()


class StoreFeed(LocalFeed):
    """This process's changes at once, and other processes' changes to the same
    database within :data:`POLL_INTERVAL`, read from the store's :class:`ChangeLog` by
    a thread of the feed (started at once; :meth:`close` stops it)."""

    def __init__(self, changes: ChangeLog, *, interval: float = POLL_INTERVAL,
                 keep: timedelta = KEEP_CHANGES,
                 clock: Callable[[], datetime] | None = None) -> None:
        super().__init__()
        self._changes = changes
        self._interval = interval
        self._keep = keep
        self._clock = clock or (lambda: datetime.now(UTC))
        self._stop = threading.Event()
        self._cursor = changes.last_change()
        #: Sequence numbers delivered within the look-back window.
        self._seen: deque[int] = deque(maxlen=LOOK_BACK * 4)
        #: One read of the log at a time (a subclass may read it from another thread).
        self._polling = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="yatzy-feed", daemon=True)
        self._thread.start()

    @property
    def origin(self) -> str:
        """The id the store writes beside this process's changes."""
        return self._changes.origin

    def poll(self) -> int:
        """Read the log once and deliver what other processes stored since the last
        read; returns how many events were delivered (the thread calls this; a test
        may too)."""
        delivered = 0
        with self._polling:
            for change in self._changes.changes_since(max(0, self._cursor - LOOK_BACK),
                                                      READ_LIMIT):
                if change.seq in self._seen:
                    continue
                self._seen.append(change.seq)
                self._cursor = max(self._cursor, change.seq)
                if change.origin == self._changes.origin:
                    continue  # published already, when this process stored it
                try:
                    event = event_from_dict(change.event)
                except ValueError:
                    log.warning("Change %d of the log is no event: %r", change.seq,
                                change.event)
                    continue
                if self._fresh(event):
                    self._deliver(event, here=False)
                    delivered += 1
        return delivered

    def _fresh(self, event: Event) -> bool:
        """False for an event delivered already by another way (a feed that also
        hears of changes elsewhere than in the log says so)."""
        return True

    def _wait(self) -> float:
        """Seconds until the next read of the log."""
        return self._interval

    def _run(self) -> None:
        last_pruned: datetime | None = None
        failing = False
        while not self._stop.wait(self._wait()):
            try:
                self.poll()
                now = self._clock()
                if last_pruned is None or now - last_pruned > self._keep / 2:
                    self._changes.forget_changes(now - self._keep)
                    last_pruned = now
            except Exception as exc:
                # The database may be away for a while: the next read tries again. Said
                # once, not four times a second.
                if not failing:
                    failing = True
                    log.warning("Reading the change log failed: %s", exc,
                                exc_info=not isinstance(exc, StorageError))
            else:
                if failing:
                    failing = False
                    log.warning("Reading the change log works again")

    def close(self) -> None:
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        super().close()
