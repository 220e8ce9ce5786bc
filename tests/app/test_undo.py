"""Taking back the last box chosen, through the game service."""

from __future__ import annotations

from pathlib import Path

import pytest

import yatzy
from yatzy.app import ActionUndone, Event, GameChanged, GameService, Seat
from yatzy.bootstrap import open_service

RULES = yatzy.ruleset("yatzy")


def test_a_person_takes_back_a_box(service: GameService, db: Path) -> None:
    events: list[Event] = []
    service.subscribe(events.append)
    saved = service.create(RULES, [Seat("Ann"), Seat("Bo")], seed=3)
    saved = service.apply(saved.id, yatzy.Roll())
    rolled = saved.game
    saved = service.apply(saved.id, yatzy.Score("chance"))
    undone = service.undo(saved.id, player="Ann")
    assert undone.game == rolled.score("chance").undo()
    assert undone.game.history == rolled.history and undone.game.dice == rolled.dice
    assert events[-1] == ActionUndone(saved.id, 1, "Ann", version=undone.version)
    assert undone.version == saved.version + 1
    with open_service(db) as other:  # stored, not just cached
        assert other.load(saved.id).game == undone.game
    again = service.apply(saved.id, yatzy.Score("sixes"))
    assert again.game.scorecard("Ann")["chance"] is None
    record = service.load(saved.id).game.to_record()
    assert [a["type"] for a in record["actions"]] == ["roll", "score", "undo", "score"]
    assert yatzy.audit_record(record) == again.game


def test_an_undo_is_an_action_for_the_service(service: GameService) -> None:
    saved = service.create(RULES, [Seat("Ann"), Seat("Bo")], seed=3)
    service.apply(saved.id, yatzy.Roll())
    scored = service.apply(saved.id, yatzy.Score("chance"))
    assert service.apply(saved.id, yatzy.Undo(), player="Ann").game == scored.game.undo()


def test_real_dice_just_typed_are_taken_back(service: GameService) -> None:
    saved = service.create(RULES, [Seat("Ann"), Seat("Bo")], dice_mode="manual")
    service.apply(saved.id, yatzy.Roll(yatzy.Dice([1, 2, 3, 4, 5])))
    service.apply(saved.id, yatzy.Score("chance"))
    service.undo(saved.id, player="Ann")
    undone = service.undo(saved.id, player="Ann")  # the dice typed, too
    assert undone.game.dice is None and undone.steps == 0
    with pytest.raises(yatzy.IllegalMove, match="or the dice just typed in"):
        service.undo(saved.id)


@pytest.mark.parametrize(
    ("prepare", "message"),
    [
        (lambda s, gid: s.apply(gid, yatzy.Roll()), "Only the last box chosen"),
        (lambda s, gid: None, "Only the last box chosen"),
    ],
)
def test_only_a_box_can_be_taken_back(service: GameService, prepare: object,
                                      message: str) -> None:
    saved = service.create(RULES, [Seat("Ann")], seed=3)
    prepare(service, saved.id)  # type: ignore[operator]
    before = service.load(saved.id).game
    with pytest.raises(yatzy.IllegalMove, match=message):
        service.undo(saved.id)
    assert service.load(saved.id).game == before


def test_not_someone_elses_nor_a_computers_move(service: GameService) -> None:
    saved = service.create(RULES, [Seat("Ann"), Seat("cpu", "greedy")], seed=3)
    saved = service.apply(saved.id, yatzy.Roll())
    saved = service.apply(saved.id, yatzy.Score("chance"))
    with pytest.raises(yatzy.IllegalMove, match="Only Ann can take back"):
        service.undo(saved.id, player="cpu")
    saved = service.apply(saved.id, yatzy.Roll())
    saved = service.apply(saved.id, yatzy.Score("chance"))
    with pytest.raises(yatzy.IllegalMove, match="computer player's move"):
        service.undo(saved.id)
    with pytest.raises(GameChanged):
        service.undo(saved.id, expected_steps=1)


def test_not_after_the_game(service: GameService) -> None:
    saved = service.create(yatzy.ruleset("yatzy", rolls=1), [Seat("Ann")], seed=3)
    while not saved.finished:
        saved = service.apply(saved.id, yatzy.Roll())
        saved = service.apply(saved.id, yatzy.Score(next(iter(saved.game.choices()))))
    with pytest.raises(yatzy.IllegalMove, match="The game is over"):
        service.undo(saved.id)
    assert service.load(saved.id).finished


def test_a_stale_copy_never_overwrites_a_game_undone_elsewhere(db: Path) -> None:
    with open_service(db) as a, open_service(db) as b:
        saved = a.create(RULES, [Seat("Ann")], seed=3)
        saved = a.apply(saved.id, yatzy.Roll())
        saved = a.apply(saved.id, yatzy.Score("chance"))
        b.undo(saved.id)                                   # same number of actions again
        b_game = b.apply(saved.id, yatzy.Score("sixes")).game
        # a's cached copy also has 2 actions; its next action must not overwrite b's
        after = a.apply(saved.id, yatzy.Roll())
        assert after.game.history[:2] == b_game.history
        assert after.game.scorecard("Ann")["chance"] is None
        assert a.load(saved.id).game.scorecard("Ann")["sixes"] == b_game.scorecard(
            "Ann")["sixes"]
