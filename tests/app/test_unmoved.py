"""Games nobody moved in: not offered to resume, and pruned after a day, web games
(seat tokens, claimed seats) only when asked."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import yatzy
from tests.app.playing import START, TickingClock
from yatzy.app import BadQuery, GameDeleted, GameService, Seat
from yatzy.bootstrap import open_service
from yatzy.cli import main

YATZY = yatzy.ruleset("yatzy")


class Clock(TickingClock):
    """A ticking clock that can be moved on."""

    def __init__(self) -> None:
        super().__init__()
        self.ahead = timedelta(0)

    def __call__(self):  # type: ignore[no-untyped-def]
        return super().__call__() + self.ahead


def test_unmoved_games_are_not_offered_and_are_pruned_after_a_day(tmp_path: Path) -> None:
    clock = Clock()
    with open_service(tmp_path / "games.sqlite3", clock=clock) as service:
        left = service.create(YATZY, ["Ann"], seed=1)
        moved = service.create(YATZY, ["Bo"], seed=2)
        moved = service.apply(moved.id, yatzy.Roll())
        web = service.create(YATZY, [Seat("Cy", token_hash="0" * 64)], seed=3)
        claimed = service.create(YATZY, ["Di"], seed=4)
        service.claim_seat(claimed.id, "Di", "k" * 22)
        assert [g.id for g in service.unfinished()] == [moved.id]
        assert len(service.recent(10)) == 4          # `yatzy games` lists them all
        events: list[object] = []
        service.subscribe(events.append)
        assert service.prune_unmoved() == 0          # younger than a day: kept
        clock.ahead = timedelta(days=1, minutes=1)
        young = service.create(YATZY, ["Ed"], seed=5)
        assert service.prune_unmoved() == 1
        assert events[-1:] == [GameDeleted(left.id)]
        assert {g.id for g in service.recent(10)} == {moved.id, web.id, claimed.id, young.id}
        assert service.prune_unmoved(online=True) == 2
        assert {g.id for g in service.recent(10)} == {moved.id, young.id}
        assert service.prune_unmoved(timedelta(0)) == 1
        assert [g.id for g in service.recent(10)] == [moved.id]
        with pytest.raises(BadQuery):
            service.prune_unmoved(timedelta(days=-1))
        with pytest.raises(BadQuery):
            service.prune_unmoved(1)  # type: ignore[arg-type]


def test_yatzy_games_prune_unmoved(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "C.UTF-8")
    db = tmp_path / "games.sqlite3"
    clock = Clock()
    clock.ahead = datetime.now(UTC) - timedelta(days=3) - START  # three days ago
    with open_service(db, clock=clock) as service:
        for name in ("Ann", "Bo"):
            service.create(YATZY, [name], seed=1)
        web = service.create(YATZY, [Seat("Cy", token_hash="0" * 64)], seed=3)
    with open_service(db) as service:
        fresh = service.create(YATZY, ["Di"], seed=1)
    assert main(["games", "--db", str(db), "--prune-unmoved"]) == 0
    assert capsys.readouterr().out.strip() == (
        "Deleted 2 unfinished games nobody had moved in for a day.")
    assert main(["games", "--db", str(db), "--prune-unmoved", "--lang", "sv"]) == 0
    assert "0 oavslutade spel" in capsys.readouterr().out
    with open_service(db) as service:
        assert {g.id for g in service.recent(10)} == {web.id, fresh.id}
    assert main(["games", "--db", str(db), "--prune-unmoved", "--online"]) == 0
    assert capsys.readouterr().out.strip() == (
        "Deleted 1 unfinished game nobody had moved in for a day.")
    assert main(["games", "--db", str(db), "--online"]) == 2
    assert "--online goes with --prune-unmoved" in capsys.readouterr().err
    assert main(["games", "--db", str(tmp_path / "none.sqlite3"), "--prune-unmoved"]) == 0
    assert not (tmp_path / "none.sqlite3").exists()


def test_a_service_without_a_clock_keeps_todays_games(service: GameService) -> None:
    service.create(YATZY, ["Ann"], seed=1)
    assert service.prune_unmoved() == 0 and len(service.recent()) == 1
