"""Leases in the game database (SQLite and PostgreSQL): taken by one holder at a time,
renewed by taking them again, run out by the database's clock, taken over once run out,
released (with their events in the change log), and never held by two holders at once
when many take one together."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from yatzy.app.events import TurnsHandedOver
from yatzy.storage import make_engine, upgrade
from yatzy.storage.leases import SqlLeases
from yatzy.storage.repository import SqlGameRepository


@pytest.fixture
def holders(db: str | Path) -> list[SqlLeases]:
    """Three holders (three processes) on one database."""
    engine = make_engine(db)
    upgrade(engine)
    found = [SqlLeases(SqlGameRepository(engine)) for _ in range(3)]
    assert len({holder.holder for holder in found}) == 3
    return found


def test_take_once_then_others_see_its_holder_and_time_left(holders: list[SqlLeases]) -> None:
    a, b, _ = holders
    taken = a.take("g1", 5)
    assert taken.mine and taken.holder == a.holder and taken.remaining == 5
    refused = b.take("g1", 5)
    assert not refused.mine and refused.holder == a.holder
    assert 4 < refused.remaining <= 5
    assert b.take("g2", 5).mine  # another name, another lease


def test_renew_by_taking_again_extends_it(holders: list[SqlLeases]) -> None:
    a, b, _ = holders
    a.take("g1", 0.4)
    time.sleep(0.25)
    assert a.take("g1", 0.4).mine  # renewed: 0.4 s from now
    time.sleep(0.25)  # past the first expiry, not the renewed one
    assert not b.take("g1", 5).mine


def test_a_lease_run_out_is_taken_over(holders: list[SqlLeases]) -> None:
    a, b, c = holders
    a.take("g1", 0.2)
    assert a.expired() == []
    time.sleep(0.3)
    assert b.expired() == ["g1"]  # left behind: its holder did not renew it
    taken = b.take("g1", 5)
    assert taken.mine and b.expired() == []
    assert not c.take("g1", 5).mine
    again = a.take("g1", 5)  # the old holder comes back: too late
    assert not again.mine and again.holder == b.holder


def test_release_frees_it_for_another_and_logs_its_events(
        holders: list[SqlLeases]) -> None:
    a, b, _ = holders
    a.take("g1", 5)
    assert not b.release("g1")  # not b's to release
    assert not b.take("g1", 5).mine
    before = a._repository.last_change()
    assert a.release("g1", events=[TurnsHandedOver("g1", version=7)])
    logged = a._repository.changes_since(before, 10)
    assert [change.event for change in logged] == [
        {"type": "turns_handed_over", "game_id": "g1", "version": 7}]
    assert not a.release("g1")  # released already: nothing, and nothing logged
    assert a._repository.changes_since(before, 10) == logged
    assert b.take("g1", 5).mine


def test_release_all_lets_go_of_this_holders_leases_only(holders: list[SqlLeases]) -> None:
    a, b, c = holders
    for name in ("g1", "g2"):
        a.take(name, 5)
    b.take("g3", 5)
    assert sorted(a.release_all()) == ["g1", "g2"]
    assert a.release_all() == []
    assert c.take("g1", 5).mine and c.take("g2", 5).mine
    assert not c.take("g3", 5).mine


def test_many_taking_one_lease_at_once_one_holds_it(holders: list[SqlLeases]) -> None:
    """Free, or run out (its row there): either way one taker of three gets it."""
    for round_ in range(20):
        name = f"race-{round_}"
        if round_ % 2:
            holders[0].take(name, 0)  # runs out at once
        barrier = threading.Barrier(len(holders))
        won: list[bool] = [False] * len(holders)

        def take(i: int, name: str = name, barrier: threading.Barrier = barrier,
                 won: list[bool] = won) -> None:
            barrier.wait()
            won[i] = holders[i].take(name, 5).mine

        threads = [threading.Thread(target=take, args=(i,)) for i in range(len(holders))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert won.count(True) == 1, won
