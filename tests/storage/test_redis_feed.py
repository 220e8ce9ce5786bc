"""The Redis change feed between two services on one database: another service's
change is heard at once, each exactly once (whether Redis or the change log brings it),
and while Redis is lost the change log carries the changes; after it, the feed
subscribes again. Needs ``$YATZY_TEST_REDIS`` (skipped with the reason without it)."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

import yatzy
from tests.services import redis_url
from yatzy.app import GameService, Seat
from yatzy.app.events import Event
from yatzy.app.feed import Presence
from yatzy.bootstrap import open_service
from yatzy.storage.redis_feed import RedisFeed, event_key
from yatzy.storage.repository import SqlGameRepository


@pytest.fixture
def url() -> str:
    return redis_url()


def service_on(db: Path, url: str, channel: str) -> tuple[GameService, RedisFeed]:
    plain = open_service(db)  # migrates; its repository's engine is reused below
    repository = plain._repo
    assert isinstance(repository, SqlGameRepository)
    feed = RedisFeed(repository, url, channel=channel, interval=0.1, safety_interval=1.0)
    return GameService(repository, feed=feed), feed


class Heard:
    """Events a subscriber heard, and when."""

    def __init__(self) -> None:
        self.events: list[tuple[float, Event]] = []
        self.lock = threading.Lock()

    def __call__(self, event: Event) -> None:
        with self.lock:
            self.events.append((time.monotonic(), event))

    def wait_for(self, game_id: str, version: int, timeout: float) -> float:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                for when, event in self.events:
                    if event.game_id == game_id and event.version >= version:
                        return when
            time.sleep(0.002)
        raise AssertionError(f"version {version} of {game_id} not heard in {timeout} s")

    def keys(self) -> list[tuple[str, str, int]]:
        with self.lock:
            return [event_key(event) for _, event in self.events]


@pytest.fixture
def pair(tmp_path: Path, url: str) -> Iterator[tuple[GameService, RedisFeed, GameService,
                                                     RedisFeed]]:
    channel = f"yatzy:test:{uuid.uuid4().hex}"
    a, feed_a = service_on(tmp_path / "games.sqlite3", url, channel)
    b, feed_b = service_on(tmp_path / "games.sqlite3", url, channel)
    deadline = time.monotonic() + 5
    while not (feed_a.subscribed and feed_b.subscribed):
        assert time.monotonic() < deadline, "not subscribed"
        time.sleep(0.01)
    yield a, feed_a, b, feed_b
    a.close()
    b.close()


def test_a_change_is_heard_at_once_and_once(pair: tuple[GameService, RedisFeed,
                                                        GameService, RedisFeed]) -> None:
    a, feed_a, b, _ = pair
    heard = Heard()
    a.subscribe(heard, others_only=True)
    saved = b.create(yatzy.ruleset("yatzy"), [Seat("Ann")], seed=1)
    took = []
    for _ in range(14):  # of the 15 turns: the game goes on
        sent = time.monotonic()
        saved = b.apply(saved.id, yatzy.Roll())
        took.append(heard.wait_for(saved.id, saved.version, 1.0) - sent)
        saved = b.apply(saved.id, yatzy.Score(next(iter(saved.game.choices()))))
        heard.wait_for(saved.id, saved.version, 1.0)
    assert max(took) < 0.1, took  # the change log alone takes up to 1 s here
    time.sleep(1.5)  # the change log's safety read: nothing twice
    keys = heard.keys()
    assert len(keys) == len(set(keys)) == 29  # created, then 28 actions
    assert (a.database_ready(), a.feed_reachable()) == (True, {"redis": True})
    assert feed_a.subscribed


def test_while_redis_is_lost_the_change_log_carries_the_changes_once(
        pair: tuple[GameService, RedisFeed, GameService, RedisFeed], url: str) -> None:
    a, feed_a, b, _ = pair
    heard = Heard()
    a.subscribe(heard, others_only=True)
    saved = b.create(yatzy.ruleset("yatzy"), [Seat("Ann")], seed=1)
    heard.wait_for(saved.id, saved.version, 1.0)
    admin = redis.Redis.from_url(url)
    try:
        # Every subscriber's connection is cut (a Redis restart does the same to all).
        assert int(admin.client_kill_filter(_type="pubsub")) >= 2  # type: ignore[no-untyped-call]
        for _ in range(5):
            saved = b.apply(saved.id, yatzy.Roll())
            heard.wait_for(saved.id, saved.version, 2.0)  # by Redis or by the log
            saved = b.apply(saved.id, yatzy.Score(next(iter(saved.game.choices()))))
            heard.wait_for(saved.id, saved.version, 2.0)
        deadline = time.monotonic() + 5
        while not feed_a.subscribed:  # subscribed again
            assert time.monotonic() < deadline
            time.sleep(0.01)
        sent = time.monotonic()
        saved = b.apply(saved.id, yatzy.Roll())
        assert heard.wait_for(saved.id, saved.version, 1.0) - sent < 0.1
    finally:
        admin.close()
    time.sleep(1.5)
    keys = heard.keys()
    assert len(keys) == len(set(keys)) == 12


def test_presence_goes_to_the_other_processes_and_bad_news_is_dropped(
        pair: tuple[GameService, RedisFeed, GameService, RedisFeed],
        url: str) -> None:
    """A seat connected in one process is news for the other (with who says it and for
    how long), never for itself; a message that is no news is logged and dropped, and
    what comes after it still arrives."""
    a, feed_a, b, feed_b = pair
    heard_a: list[Presence] = []
    heard_b: list[Presence] = []
    a.subscribe_presence(heard_a.append)
    stop_b = b.subscribe_presence(heard_b.append)
    a.announce("g1", "Ann", True, 30.0)
    deadline = time.monotonic() + 2
    while not heard_b:
        assert time.monotonic() < deadline, "the news did not come"
        time.sleep(0.005)
    assert heard_b == [Presence("g1", "Ann", True, 30.0, feed_a.origin)]
    # Not presence, or not whole: dropped.
    client = redis.Redis.from_url(url)
    channel = feed_b._channel
    client.publish(channel, b'{"origin": "x", "presence": {"game_id": "g1"}}')
    client.publish(channel, b'{"origin": "x", "presence": "no"}')
    client.close()
    b.announce("g1", "Bo", False, 30.0)
    deadline = time.monotonic() + 2
    while not heard_a:
        assert time.monotonic() < deadline, "the news did not come"
        time.sleep(0.005)
    time.sleep(0.1)
    assert heard_a == [Presence("g1", "Bo", False, 30.0, feed_b.origin)]
    assert heard_b == [Presence("g1", "Ann", True, 30.0, feed_a.origin)]  # not its own
    stop_b()
    a.announce("g1", "Ann", False, 30.0)
    time.sleep(0.2)
    assert len(heard_b) == 1  # unsubscribed
