"""Public tables in the game service: open seats with stand-in names, who may join and
when, nobody playing until every seat is taken (the service refuses; the session waits,
a computer too), and a table started again on the same secret seed."""

from __future__ import annotations

import asyncio

import pytest

import yatzy
from yatzy.app import GameService, Seat
from yatzy.app.errors import (
    BadSeats,
    NameAtTable,
    NotPublic,
    TableFull,
    TableWaiting,
)
from yatzy.app.session import GameSession, Phase
from yatzy.app.table import Table
from yatzy.core.actions import Roll
from yatzy.core.seeded import seed_hash

YATZY = yatzy.ruleset("yatzy")
OPEN = Seat("", open=True)


def test_open_seats_get_stand_in_names_no_player_has(service: GameService) -> None:
    saved = service.create(YATZY, [OPEN, Seat("Open seat 1"), OPEN], public=True)
    assert saved.game.players == ("Open seat 1 2", "Open seat 1", "Open seat 3")
    assert [s.open for s in saved.seats] == [True, False, True]
    assert saved.waiting and saved.open_seats == 2 and saved.public
    assert service.load(saved.id).seats == saved.seats  # as stored


@pytest.mark.parametrize(("seats", "public", "dice", "code"), [
    ([Seat("Ann"), OPEN], False, "auto", "open_seats_private"),
    ([Seat("Ann"), Seat("Bo", open=True)], True, "auto", "open_seat"),
    ([Seat("Ann"), Seat("", bot="greedy", open=True)], True, "auto", "open_seat"),
    ([Seat("Ann"), OPEN], True, "manual", "public_dice"),
])
def test_open_seats_that_cannot_be(service: GameService, seats: list[Seat], public: bool,
                                   dice: str, code: str) -> None:
    with pytest.raises(BadSeats) as refused:
        service.create(YATZY, seats, public=public, dice_mode=dice)
    assert refused.value.code == code
    assert service.recent() == []


def test_the_table_begins_on_its_seed_when_the_last_seat_is_taken(
        service: GameService) -> None:
    saved = service.create(YATZY, [Seat("Ann"), OPEN, OPEN], public=True,
                           first_player="roll")
    committed = seed_hash(saved.game.seed)  # type: ignore[arg-type]
    with pytest.raises(TableWaiting):
        service.apply(saved.id, Roll())
    half = service.join(saved.id, "Bo")
    assert half.waiting and half.game.players[:2] == ("Ann", "Bo")
    with pytest.raises(TableWaiting):
        service.apply(saved.id, Roll(), player="Bo")
    full = service.join(saved.id, "Cy")
    assert not full.waiting and full.game.players == ("Ann", "Bo", "Cy")
    assert full.version == saved.version + 2 and full.created_at == saved.created_at
    assert seed_hash(full.game.seed) == committed  # type: ignore[arg-type]
    assert full.game.roll_offs and full.game.roll_offs[0].player == "Ann"
    assert service.apply(saved.id, Roll()).steps == 1
    with pytest.raises(TableFull):
        service.join(saved.id, "Di")


def test_who_may_not_join(service: GameService) -> None:
    private = service.create(YATZY, [Seat("Ann"), Seat("Bo")])
    with pytest.raises(NotPublic):
        service.join(private.id, "Cy")
    table = service.create(YATZY, [Seat("Ann"), OPEN], public=True)
    with pytest.raises(NameAtTable):
        service.join(table.id, "ＡＮＮ")
    with pytest.raises(BadSeats) as bad:
        service.join(table.id, "")
    assert bad.value.code == "name_empty"
    assert service.load(table.id).version == table.version  # nothing changed


def test_a_session_waits_and_its_computer_plays_once_the_table_is_full(
        service: GameService) -> None:
    async def play() -> None:
        saved = service.create(YATZY, [Seat("cpu", bot="greedy"), OPEN], public=True)
        session = GameSession(Table.open(service, saved, seed=1), pace=0)
        session.start()
        assert session.phase is Phase.WAITING and not session.busy
        await asyncio.sleep(0.05)
        assert session.saved.steps == 0
        joined = await session.join("Ann")
        assert joined.game.players == ("cpu", "Ann")
        await session.settled()  # the computer's turn, begun by the join
        assert session.phase is Phase.PERSON and session.game.current_player == "Ann"
        assert session.saved.steps > 0

    asyncio.run(play())
