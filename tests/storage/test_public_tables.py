"""Public tables in the store, on SQLite and on PostgreSQL: a join is one conditional
write, so that of two services (processes) taking the last seat at the same moment one
is seated and the other told the table is full; the lobby's query lists what waits and
what is played, never a private or finished game."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

import yatzy
from tests.app.playing import TickingClock
from yatzy.app import GameService, SavedGame, Seat
from yatzy.app.errors import GameChanged, TableFull
from yatzy.bootstrap import open_service
from yatzy.core.actions import Roll
from yatzy.storage import SqlGameRepository, make_engine, upgrade

YATZY = yatzy.ruleset("yatzy")


class MeetingRepository(SqlGameRepository):
    """Each thread's first read waits for the other's: both decide on the same version."""

    def __init__(self, db: str | Path, barrier: threading.Barrier) -> None:
        super().__init__(make_engine(db))
        self.barrier = barrier
        self.met = False

    def get(self, game_id: str, *, known: SavedGame | None = None) -> SavedGame:
        saved = super().get(game_id, known=known)
        if not self.met:
            self.met = True
            self.barrier.wait(timeout=10)
        return saved


def table(service: GameService, open_seats: int = 1) -> SavedGame:
    return service.create(YATZY, [Seat("Ann"), *[Seat("", open=True)] * open_seats],
                          public=True)


def test_two_processes_take_the_last_seat_once(db: str | Path) -> None:
    with open_service(db) as service:  # migrates the database
        game_id = table(service).id
        before = service.load(game_id).version
    barrier = threading.Barrier(2)
    services = [GameService(MeetingRepository(db, barrier), cache_size=0) for _ in range(2)]
    outcomes: list[object] = [None, None]

    def join(i: int, name: str) -> None:
        try:
            outcomes[i] = services[i].join(game_id, name, token_hash=f"{i}" * 64)
        except Exception as exc:
            outcomes[i] = exc

    threads = [threading.Thread(target=join, args=(i, name))
               for i, name in enumerate(["Bo", "Cy"])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    for service in services:
        service.close()
    seated = [o for o in outcomes if isinstance(o, SavedGame)]
    refused = [o for o in outcomes if isinstance(o, TableFull)]
    assert len(seated) == 1 and len(refused) == 1, outcomes
    with open_service(db) as service:
        stored = service.load(game_id)
        assert stored.version == before + 1 and not stored.waiting
        assert stored.game.players == seated[0].game.players
        assert stored.game.players[1] in ("Bo", "Cy")
        winner = outcomes.index(seated[0])
        assert stored.seats[1].token_hash == f"{winner}" * 64


def test_a_reseat_of_a_game_moved_on_is_refused(db: str | Path) -> None:
    with open_service(db) as service:
        saved = service.create(YATZY, [Seat("Ann")], public=True)
        moved = service.apply(saved.id, Roll())
    engine = make_engine(db)
    upgrade(engine)
    repo = SqlGameRepository(engine)
    try:
        with pytest.raises(GameChanged):
            repo.reseat(saved, expected_version=saved.version)
        with pytest.raises(ValueError, match="nobody has moved"):
            repo.reseat(moved, expected_version=moved.version)
    finally:
        repo.close()


def test_the_lobby_lists_public_tables_only(db: str | Path) -> None:
    with open_service(db, clock=TickingClock()) as service:
        private = service.create(YATZY, [Seat("Ann"), Seat("Bo")])
        waiting = table(service, 2)
        full = service.create(YATZY, [Seat("Ann"), Seat("", open=True)], public=True)
        service.join(full.id, "Bo")
        finished = service.create(yatzy.ruleset("yatzy", rolls=1), [Seat("Cy")], public=True)
        game = service.apply(finished.id, Roll())
        while not game.finished:
            game = service.apply(finished.id, yatzy.Score(next(iter(game.game.choices()))))
            if not game.finished:
                game = service.apply(finished.id, Roll())
        listed_waiting, listed_live = service.lobby()
        assert [g.id for g in listed_waiting] == [waiting.id]
        assert listed_waiting[0].open_seats == 2 and listed_waiting[0].public
        assert [g.id for g in listed_live] == [full.id]
        assert private.id not in {g.id for g in listed_waiting + listed_live}


def test_the_lobby_replays_only_the_games_that_moved_on(db: str | Path) -> None:
    with open_service(db) as writer:
        quiet = writer.create(YATZY, [Seat("Ann"), Seat("", open=True)], public=True)
        busy = writer.create(YATZY, [Seat("Bo"), Seat("", open=True)], public=True)
        writer.join(quiet.id, "Cy")
        writer.join(busy.id, "Di")
        with open_service(db) as reader:  # another process: nothing of these in memory
            first = {g.id: g for g in reader.lobby()[1]}
            writer.apply(busy.id, Roll())
            second = {g.id: g for g in reader.lobby()[1]}
            assert second[quiet.id] is first[quiet.id]  # the same version: not read back
            assert second[busy.id] is not first[busy.id]
            assert second[busy.id].steps == 1 and first[busy.id].steps == 0
