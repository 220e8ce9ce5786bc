"""The change feed of many server processes: Redis pub/sub in front of the database's
change log.

A :class:`RedisFeed` is a :class:`~yatzy.app.feed.StoreFeed` that also publishes the
event of each change this process stores on a Redis channel, right after the commit,
and hears the other processes' events on that channel at once (milliseconds, where the
change log alone takes up to its read interval). The database stays the source of
truth: Redis pub/sub delivers at most once and keeps nothing, so the feed still reads
the change log, seldom while Redis answers (a safety net: an event whose publication
failed) and every :data:`~yatzy.app.feed.POLL_INTERVAL` while it does not, and reads
it at once whenever it subscribes again. An event heard both ways is delivered once
(events are told apart by game, type and version).

Publishing never holds up an action: events go to a queue that a thread of the feed
sends to Redis; while Redis is away they are dropped there, and the other processes
read them from the change log.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

import orjson
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from yatzy.app.events import Event, event_from_dict
from yatzy.app.feed import (
    ChangeLog,
    Presence,
    PresenceSubscriber,
    StoreFeed,
    call_each,
    subscription,
)
from yatzy.storage.engine import json_text

log = logging.getLogger(__name__)

#: The channel of every site's changes. One Redis per site (or per database): pub/sub
#: channels are shared by all of a Redis server's numbered databases.
CHANNEL = "yatzy:changes"
#: Seconds between two reads of the change log while Redis answers (a safety net).
SAFETY_INTERVAL = 1.0
#: Seconds to wait before subscribing again after Redis was lost.
RECONNECT = 0.5
#: Seconds a connection to Redis, or a command, may take.
TIMEOUT = 1.0
#: Events remembered as delivered, to deliver each once whichever way it comes.
REMEMBERED = 50_000
#: Events waiting for the publishing thread; beyond, they are left to the change log.
OUTBOX = 10_000
#: Events sent to Redis in one round trip at most.
BATCH = 200


def event_key(event: Event) -> tuple[str, str, int]:
    """What tells an event from every other: a game's version is written once, and
    one write's events differ by type."""
    return (event.game_id, event.type, event.version)


def check_redis_url(url: str) -> str:
    """``url`` if redis-py reads it as a Redis URL (``redis://``, ``rediss://``,
    ``unix://``), else ``ValueError``."""
    redis.Redis.from_url(url).close()  # reads the URL; connects to nothing
    return url


class RedisFeed(StoreFeed):
    """This process's changes at once here and, through Redis at ``url``, at once in
    the other processes; theirs at once here; the change log behind both (see the
    module). :meth:`close` stops its threads."""

    def __init__(self, changes: ChangeLog, url: str, *, channel: str = CHANNEL,
                 safety_interval: float = SAFETY_INTERVAL, **store: Any) -> None:
        check_redis_url(url)
        self._url = url
        self._channel = channel
        self._safety = safety_interval
        # Commands: one quick retry (a connection killed since its last use is made
        # again at once), short timeouts. The subscriber: no retry, so that a lost
        # connection is seen and the log read after subscribing again.
        self._client = redis.Redis.from_url(
            url, socket_connect_timeout=TIMEOUT, socket_timeout=TIMEOUT,
            retry=Retry(NoBackoff(), 1))
        self._listener_client = redis.Redis.from_url(
            url, socket_connect_timeout=TIMEOUT, socket_timeout=5 * TIMEOUT,
            retry=Retry(NoBackoff(), 0), health_check_interval=10)
        #: Set while subscribed to the channel.
        self._subscribed = threading.Event()
        self._delivered: set[tuple[str, str, int]] = set()
        self._delivered_order: deque[tuple[str, str, int]] = deque()
        self._delivered_lock = threading.Lock()
        self._outbox: queue.Queue[Event | Presence | None] = queue.Queue(OUTBOX)
        self._presence_subscribers: list[PresenceSubscriber] = []
        super().__init__(changes, **store)
        self._threads = [
            threading.Thread(target=self._listen, name="yatzy-redis-in", daemon=True),
            threading.Thread(target=self._send, name="yatzy-redis-out", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    # --- This process's changes ---------------------------------------------------------

    def publish(self, event: Event) -> None:
        super().publish(event)
        # Redis far behind (the queue full): the other processes read it from the log.
        with contextlib.suppress(queue.Full):
            self._outbox.put_nowait(event)

    def announce(self, presence: Presence) -> None:
        # Redis far behind: the news is lost; the next heartbeat tells it again.
        with contextlib.suppress(queue.Full):
            self._outbox.put_nowait(presence)

    def subscribe_presence(self, callback: PresenceSubscriber) -> Callable[[], None]:
        return subscription(self._lock, self._presence_subscribers, callback)

    def _message(self, item: Event | Presence) -> str:
        """What goes on the channel for ``item``."""
        if isinstance(item, Presence):
            return json_text({"origin": self.origin, "presence": {
                "game_id": item.game_id, "seat": item.seat, "connected": item.connected,
                "ttl": item.ttl}})
        return json_text({"origin": self.origin, "event": item.to_dict()})

    def _send(self) -> None:
        """Send the queued events to Redis, a batch a round trip."""
        while not self._stop.is_set():
            try:
                first = self._outbox.get(timeout=TIMEOUT)
            except queue.Empty:
                continue
            if first is None:
                return
            batch = [first]
            while len(batch) < BATCH:
                try:
                    more = self._outbox.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    break  # closing: this batch is the last
                batch.append(more)
            if not self._subscribed.is_set():
                continue  # Redis is away: the others read these from the log
            try:
                pipeline = self._client.pipeline(transaction=False)
                for item in batch:
                    pipeline.publish(self._channel, self._message(item))
                pipeline.execute()
            except (redis.RedisError, OSError) as exc:
                log.warning("Publishing %d changes on Redis failed (the others read them "
                            "from the database): %s", len(batch), exc)

    # --- The other processes' changes ---------------------------------------------------

    def _listen(self) -> None:
        """Subscribe, read the log for what was missed meanwhile, then deliver what
        the channel brings; when Redis is lost, subscribe again."""
        lost_once = False
        while not self._stop.is_set():
            pubsub = self._listener_client.pubsub()
            try:
                pubsub.subscribe(self._channel)
                while not self._stop.is_set():  # the confirmation of the subscription
                    message = pubsub.get_message(timeout=TIMEOUT)
                    if message is not None and message["type"] == "subscribe":
                        break
                self._subscribed.set()
                if lost_once:
                    log.warning("Redis is back: changes travel through it again")
                self.poll()  # what other processes stored while this one was not listening
                while not self._stop.is_set():
                    message = pubsub.get_message(timeout=TIMEOUT)
                    if message is not None and message["type"] == "message":
                        self._heard(message["data"])
            except (redis.RedisError, OSError) as exc:
                if self._subscribed.is_set() or not lost_once:
                    log.warning("Redis is lost (%s): changes travel through the database "
                                "until it is back", exc)
                self._subscribed.clear()
                lost_once = True
                self._stop.wait(RECONNECT)
            except Exception:
                # The database failed in the catch-up read: the log's own thread
                # goes on reading it; subscribe again after a pause.
                log.warning("Catching up from the change log failed", exc_info=True)
                self._subscribed.clear()
                self._stop.wait(RECONNECT)
            finally:
                with contextlib.suppress(redis.RedisError, OSError):
                    pubsub.close()
        self._subscribed.clear()

    def _heard(self, data: bytes | str) -> None:
        try:
            message = orjson.loads(data)
            if message.get("origin") == self.origin:
                return  # this process's own: delivered when it was stored
            if "presence" in message:
                self._heard_presence(message["origin"], message["presence"])
                return
            event = event_from_dict(message.get("event"))
        except (ValueError, AttributeError, TypeError, KeyError):
            log.warning("A message on %s is no change: %.200r", self._channel, data)
            return
        if self._fresh(event):
            self._deliver(event, here=False)

    def _heard_presence(self, origin: object, news: dict[str, Any]) -> None:
        presence = Presence(str(news["game_id"]), str(news["seat"]), bool(news["connected"]),
                            float(news["ttl"]), str(origin))
        with self._lock:
            subscribers = list(self._presence_subscribers)
        call_each(subscribers, presence, "presence")

    def _fresh(self, event: Event) -> bool:
        key = event_key(event)
        with self._delivered_lock:
            if key in self._delivered:
                return False
            self._delivered.add(key)
            self._delivered_order.append(key)
            if len(self._delivered_order) > REMEMBERED:
                self._delivered.discard(self._delivered_order.popleft())
        return True

    def _wait(self) -> float:
        return self._safety if self._subscribed.is_set() else self._interval

    # --- Readiness and lifetime ---------------------------------------------------------

    @property
    def subscribed(self) -> bool:
        """True while the feed listens on Redis."""
        return self._subscribed.is_set()

    services: tuple[str, ...] = ("redis",)

    def reachable(self) -> dict[str, bool]:
        try:
            answered = bool(self._client.ping())
        except (redis.RedisError, OSError):
            answered = False
        return {"redis": answered}

    def close(self) -> None:
        self._stop.set()
        with contextlib.suppress(queue.Full):
            self._outbox.put_nowait(None)
        for thread in self._threads:
            if thread is not threading.current_thread():
                thread.join(timeout=5)
        super().close()
        self._client.close()
        self._listener_client.close()
