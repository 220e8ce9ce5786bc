"""Following a game moved on elsewhere: a process that hears of another's change moves
its copy on by the event (``GameService.follow``) instead of reading the game again, and
gets exactly the game as stored; anything it cannot follow asks for a read."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import yatzy
from yatzy.app import GameService, Seat
from yatzy.app.events import ActionApplied, Event, GameFinished
from yatzy.app.session import GameSession
from yatzy.app.table import Table
from yatzy.bootstrap import open_service
from yatzy.core.actions import Reroll, Roll, Score
from yatzy.core.dice import Dice
from yatzy.core.errors import YatzyError
from yatzy.core.game import Game

YATZY = yatzy.ruleset("yatzy")


def undoable(game: Game) -> bool:
    try:
        game.check_undo()
    except YatzyError:
        return False
    return True


def play_elsewhere(db: Path, game_id: str, moves: int, choices: random.Random,
                   dice_mode: str) -> list[Event]:
    """Another process plays ``moves`` random legal actions (undos among them) on the
    game; returns the events it published."""
    heard: list[Event] = []
    with open_service(db) as elsewhere:
        stop = elsewhere.subscribe(heard.append)
        for _ in range(moves):
            saved = elsewhere.load(game_id)
            game = saved.game
            if game.is_over:
                break
            if choices.random() < 0.15 and undoable(game):
                elsewhere.undo(game_id)
                continue
            manual = dice_mode == "manual"
            if game.dice is None:
                dice = Dice([choices.randint(1, 6) for _ in range(5)]) if manual else None
                elsewhere.apply(game_id, Roll(dice))
            elif game.can_roll and choices.random() < 0.4:
                hold = tuple(i for i in range(5) if choices.random() < 0.5)[:4]
                dice = (Dice([choices.randint(1, 6) for _ in range(5 - len(hold))])
                        if manual else None)
                elsewhere.apply(game_id, Reroll(hold, dice))
            else:
                elsewhere.apply(game_id, Score(choices.choice(sorted(game.choices()))))
        stop()
    return heard


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(1, 90),
       dice_mode=st.sampled_from(["auto", "manual"]))
def test_a_copy_moved_on_by_the_events_is_the_game_as_stored(
        tmp_path_factory: pytest.TempPathFactory, seed: int, moves: int,
        dice_mode: str) -> None:
    db = tmp_path_factory.mktemp("follow") / "games.sqlite3"
    with open_service(db) as here:
        saved = here.create(YATZY, [Seat("Ann"), Seat("Bo")], dice_mode=dice_mode,
                            seed=seed if dice_mode == "auto" else None)
        events = play_elsewhere(db, saved.id, moves, random.Random(seed), dice_mode)
        copy = saved
        for event in events:
            if event.version <= copy.version:
                continue  # (a game's end comes with the version of its last move)
            followed = here.follow(copy, event)
            assert followed is not None, event
            copy = followed
        stored = here.load(saved.id)
        assert copy.version == stored.version and copy.game == stored.game
        assert copy.game.to_record() == stored.game.to_record()


def test_what_cannot_be_followed_asks_for_a_read(db: Path) -> None:
    with open_service(db) as here:
        saved = here.create(YATZY, [Seat("Ann")], seed=5)
        events = play_elsewhere(db, saved.id, 3, random.Random(1), "auto")
        first, second = events[0], events[1]
        assert isinstance(first, ActionApplied) and isinstance(second, ActionApplied)
        assert here.follow(saved, second) is None  # one change missed in between
        assert here.follow(saved, replace(first, game_id="other")) is None
        assert here.follow(saved, replace(first, points=12)) is None  # a roll scores none
        assert here.follow(saved, replace(first, step=3)) is None
        assert here.follow(saved, replace(first, player="Bo")) is None  # no such player
        assert here.follow(saved, replace(first, finished=True)) is None
        assert here.follow(saved, GameFinished(saved.id, (), version=2)) is None
        assert here.follow(saved, first) is not None


@pytest.mark.asyncio
async def test_a_session_follows_a_change_made_elsewhere_without_reading_it(
        db: Path, service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    saved = service.create(YATZY, [Seat("Ann"), Seat("Bo")], seed=3)
    session = GameSession(Table.open(service, saved, seed=1), pace=0)
    events = play_elsewhere(db, saved.id, 2, random.Random(4), "auto")
    reads: list[str] = []
    real_load = service.load
    monkeypatch.setattr(service, "load", lambda game_id: reads.append(game_id) or
                        real_load(game_id))
    for event in events:
        await session.refresh(event.version, grace=0.3, heard=event)
    assert reads == [] and session.saved.version == events[-1].version
    # A change it did not hear of is read from the store.
    more = play_elsewhere(db, saved.id, 2, random.Random(5), "auto")
    assert await session.refresh(more[-1].version, grace=0.3, heard=more[-1])
    assert reads == [saved.id]
    assert session.saved.game == real_load(saved.id).game
    await asyncio.sleep(0)
