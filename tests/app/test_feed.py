"""The change feed: a change stored by one service (process) reaches the subscribers of
every service that follows the same database, once, with the event it was stored with."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

import yatzy
from yatzy.app import (
    ActionApplied,
    ActionUndone,
    Event,
    GameCreated,
    GameDeleted,
    GameFinished,
    Seat,
)
from yatzy.app.events import event_from_dict
from yatzy.app.feed import LocalFeed, StoreFeed
from yatzy.bootstrap import open_service
from yatzy.core.actions import Roll, Score
from yatzy.core.dice import Dice

YATZY = yatzy.ruleset("yatzy")


def wait_for(condition: Callable[[], bool], seconds: float = 1.0) -> float:
    """Seconds until ``condition()`` held; fails after ``seconds``."""
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > seconds:
            pytest.fail(f"not within {seconds} s")
        time.sleep(0.01)
    return time.monotonic() - start


@pytest.mark.parametrize("event", [
    GameCreated("g", ("Ann", "Bo"), version=1),
    ActionApplied("g", 3, "Ann", {"type": "score", "box": "chance"}, 23, True, True,
                  version=5),
    ActionUndone("g", 2, "Ann", version=6),
    GameFinished("g", (("Ann", 200), ("Bo", 180)), version=9),
    GameDeleted("g"),
])
def test_events_travel_as_json(event: Event) -> None:
    assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event


@pytest.mark.parametrize("data", [
    None, [], {}, {"type": "game_moved", "game_id": "g"}, {"type": "game_deleted"},
    {"type": "game_deleted", "game_id": "g", "version": 1, "extra": 2},
])
def test_what_is_no_event_is_refused(data: object) -> None:
    with pytest.raises(ValueError):
        event_from_dict(data)  # type: ignore[arg-type]


def test_a_local_feed_delivers_to_each_subscriber(caplog: pytest.LogCaptureFixture) -> None:
    feed, heard = LocalFeed(), []

    def broken(event: Event) -> None:
        raise RuntimeError("down")

    feed.subscribe(broken)
    stop = feed.subscribe(heard.append)
    feed.publish(GameDeleted("g"))
    stop()
    feed.publish(GameDeleted("h"))
    assert heard == [GameDeleted("g")]
    assert "subscriber failed" in caplog.text


def test_a_change_made_elsewhere_is_heard_within_a_second(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    heard: list[Event] = []
    with open_service(db, follow=True) as web, open_service(db) as terminal:
        assert web.follows and not terminal.follows
        web.subscribe(heard.append)
        saved = terminal.create(YATZY, [Seat("Ann")], dice_mode="manual")
        terminal.apply(saved.id, Roll(Dice([6, 6, 6, 6, 6])))
        took = wait_for(lambda: len(heard) == 2)
        assert took < 1.0
        assert heard == [GameCreated(saved.id, ("Ann",), version=1),
                         ActionApplied(saved.id, 0, "Ann",
                                       {"type": "roll", "dice": [6, 6, 6, 6, 6]},
                                       version=2)]


def test_own_changes_are_heard_once(tmp_path: Path) -> None:
    heard: list[Event] = []
    with open_service(tmp_path / "games.sqlite3", follow=True) as service:
        service.subscribe(heard.append)
        saved = service.create(YATZY, [Seat("Ann")], seed=1)
        assert [e.type for e in heard] == ["game_created"]  # at once, on this thread
        time.sleep(0.6)  # two reads of the log at least
        assert [e.type for e in heard] == ["game_created"]
        service.delete(saved.id)
        assert heard[-1] == GameDeleted(saved.id)


def test_a_following_service_drops_its_stale_copy(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    heard: list[Event] = []
    with open_service(db, follow=True) as web, open_service(db) as terminal:
        saved = web.create(YATZY, [Seat("Ann")], dice_mode="manual")  # kept by web
        web.subscribe(heard.append)
        terminal.apply(saved.id, Roll(Dice([2, 2, 2, 2, 2])))
        wait_for(lambda: bool(heard))
        # The copy web kept (version 1) is gone: it acts on the game as stored.
        after = web.apply(saved.id, Score("twos"), expected_version=2)
        assert after.game.scorecard("Ann")["twos"] == 10


def test_another_process_reaches_a_follower(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    heard: list[Event] = []
    with open_service(db, follow=True) as web:
        saved = web.create(YATZY, [Seat("Ann")], seed=4)
        arrived = threading.Event()
        web.subscribe(lambda event: arrived.set())
        web.subscribe(heard.append)
        script = textwrap.dedent(f"""
            import yatzy
            from yatzy.bootstrap import open_service
            with open_service({str(db)!r}) as service:
                service.apply({saved.id!r}, yatzy.Roll())
        """)
        subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
        assert arrived.wait(1.0)
        assert isinstance(heard[0], ActionApplied) and heard[0].version == 2
        assert web.load(saved.id).game.dice == Dice(heard[0].action["dice"])


def test_the_log_forgets_old_changes(tmp_path: Path) -> None:
    with open_service(tmp_path / "games.sqlite3") as service:
        repo = service._repo  # the store's own log, seen as the feed sees it
        saved = service.create(YATZY, [Seat("Ann")], seed=4)
        service.apply(saved.id, Roll())
        assert [c.event["type"] for c in repo.changes_since(0, 10)] == [
            "game_created", "action_applied"]
        assert repo.last_change() == 2
        assert repo.forget_changes(datetime.now(UTC) - timedelta(minutes=1)) == 0
        assert repo.forget_changes(datetime.now(UTC) + timedelta(seconds=1)) == 2
        assert repo.changes_since(0, 10) == []


def test_a_damaged_log_entry_is_passed_over(tmp_path: Path,
                                            caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "games.sqlite3"
    with open_service(db) as writer:
        repo = writer._repo
        feed = StoreFeed(repo, interval=3600)  # read by hand below
        heard: list[Event] = []
        feed.subscribe(heard.append)
        try:
            with repo.engine.begin() as connection:
                connection.execute(sa.text(
                    "INSERT INTO changes (game_id, origin, event, created_at) VALUES "
                    "('g', 'elsewhere', '{\"type\": \"nonsense\"}', '2026-12-03 00:00:00')"))
            saved = open_service(db)
            try:
                made = saved.create(YATZY, [Seat("Ann")], seed=4)
            finally:
                saved.close()
            assert feed.poll() == 1
            assert heard == [GameCreated(made.id, ("Ann",), version=1)]
            assert "is no event" in caplog.text
        finally:
            feed.close()
