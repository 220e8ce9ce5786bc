"""Player keys: a browser's "my games" and "my best", and the leaderboards."""

from __future__ import annotations

import pytest

import yatzy
from tests.app.playing import per_player, play_game, same_dice, upper_kind_then
from yatzy.app import GameService, Seat
from yatzy.app.access import BadPlayerKey
from yatzy.app.errors import BadSeats, GameNotFound

KEY, OTHER = "k" * 22, "o" * 30
YATZY = yatzy.ruleset("yatzy")
IN_ORDER = yatzy.ruleset("yatzy", order="in_order")


def test_my_games_and_my_best(service: GameService) -> None:
    high = play_game(service, YATZY, ["Ann", "Bo"], per_player({
        "Ann": upper_kind_then([6, 6, 6, 6, 6]), "Bo": same_dice([1, 2, 3, 4, 5])}))
    low = play_game(service, YATZY, ["Ann"], same_dice([1, 1, 2, 2, 3]))
    other_rules = play_game(service, IN_ORDER, ["Ann"], same_dice([2, 2, 2, 3, 3]))
    playing = service.create(YATZY, [Seat("Ann"), Seat("cpu", "greedy")])
    for saved in (high, low, other_rules, playing):
        service.claim_seat(saved.id, "Ann", KEY)
    service.claim_seat(high.id, "Ann", KEY)  # again: no change
    service.claim_seat(high.id, "Bo", OTHER)
    mine = service.my_games(KEY)
    assert [g.saved.id for g in mine] == [playing.id, other_rules.id, low.id, high.id]
    assert {g.seat for g in mine} == {0}
    bests = {str(b.rules): (b.best, b.games) for b in service.my_bests(KEY)}
    assert bests == {str(YATZY): (high.game.cards[0].total, 2),
                     str(IN_ORDER): (other_rules.game.cards[0].total, 1)}
    assert [g.saved.id for g in service.my_games(OTHER)] == [high.id]
    assert service.my_games("n" * 40) == [] and service.my_bests("n" * 40) == []
    assert len(service.my_games(KEY, limit=2)) == 2
    board = service.leaderboard(YATZY)
    totals = [(e.player, e.total) for e in board]
    assert totals == sorted(totals, key=lambda pt: -pt[1])
    assert totals[0] == ("Ann", high.game.cards[0].total)
    assert ("Bo", high.game.cards[1].total) in totals and len(totals) == 3
    service.delete(high.id)
    assert high.id not in [g.saved.id for g in service.my_games(KEY)]


def test_a_leaderboard_counts_people_not_computers(service: GameService) -> None:
    saved = service.create(yatzy.ruleset("yatzy", rolls=1), [Seat("cpu", "greedy")])
    while not saved.finished:
        saved = service.apply(saved.id, yatzy.Roll())
        saved = service.apply(saved.id, yatzy.Score(next(iter(saved.game.choices()))))
    assert service.leaderboard(saved.rules) == []


@pytest.mark.parametrize("key", ["short", "x" * 65, "bad key with spaces!", None, 5, ""])
def test_bad_player_keys_are_refused(service: GameService, key: object) -> None:
    saved = service.create(YATZY, ["Ann"])
    with pytest.raises(BadPlayerKey):
        service.claim_seat(saved.id, "Ann", key)  # type: ignore[arg-type]
    with pytest.raises(BadPlayerKey):
        service.my_games(key)  # type: ignore[arg-type]


def test_claims_name_a_real_seat_of_a_real_game(service: GameService) -> None:
    saved = service.create(YATZY, ["Ann"])
    with pytest.raises(BadSeats):
        service.claim_seat(saved.id, "Zed", KEY)
    with pytest.raises(GameNotFound):
        service.claim_seat("0" * 32, "Ann", KEY)


def test_a_damaged_game_is_left_out_of_my_games(service: GameService, db: object) -> None:
    import sqlalchemy as sa

    from yatzy.storage import make_engine

    good = service.create(YATZY, ["Ann"])
    bad = service.create(YATZY, ["Ann"])
    for saved in (good, bad):
        service.claim_seat(saved.id, "Ann", KEY)
    engine = make_engine(db)  # type: ignore[arg-type]
    with engine.begin() as connection:
        connection.execute(sa.text("UPDATE games SET record = 'not json' WHERE id = :id"),
                           {"id": bad.id})
    engine.dispose()
    assert [g.saved.id for g in service.my_games(KEY)] == [good.id]
