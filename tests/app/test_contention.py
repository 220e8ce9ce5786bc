"""Two threads applying to one game at the same moment: an action with no expected
version or steps applies to the game as stored (or is refused as illegal there), never
``GameChanged``; an action with an expectation says what differs."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

import yatzy
from yatzy.app import GameChanged, GameService, SavedGame
from yatzy.bootstrap import open_service
from yatzy.core.actions import Action, Reroll, Roll, Score
from yatzy.core.errors import IllegalMove
from yatzy.i18n import translator
from yatzy.i18n.words import error_text
from yatzy.storage import SqlGameRepository, make_engine

YATZY = yatzy.ruleset("yatzy")


class MeetingRepository(SqlGameRepository):
    """Each thread's first read waits for the other's, so both decide on the same
    version and one of the two writes meets a game moved on."""

    def __init__(self, path: Path, threads: int) -> None:
        super().__init__(make_engine(path))
        self.barrier = threading.Barrier(threads)
        self.local = threading.local()

    def get(self, game_id: str) -> SavedGame:
        saved = super().get(game_id)
        if not getattr(self.local, "met", False):
            self.local.met = True
            self.barrier.wait(timeout=10)
        return saved


def race(db: Path, game_id: str, action: Action) -> list[object]:
    """Apply ``action`` from two threads at once (no cache: each reads the store)."""
    repo = MeetingRepository(db, 2)
    service = GameService(repo, cache_size=0)
    outcomes: list[object] = [None, None]

    def play(i: int) -> None:
        try:
            outcomes[i] = service.apply(game_id, action)
        except Exception as exc:
            outcomes[i] = exc

    threads = [threading.Thread(target=play, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    service.close()
    return outcomes


@pytest.fixture
def rolled(tmp_path: Path) -> tuple[Path, SavedGame]:
    db = tmp_path / "games.sqlite3"
    with open_service(db) as service:
        saved = service.create(YATZY, ["Ann"], seed=2)
        return db, service.apply(saved.id, Roll())


def test_both_actions_apply_to_the_game_as_stored(rolled: tuple[Path, SavedGame]) -> None:
    db, saved = rolled
    outcomes = race(db, saved.id, Reroll((0,)))
    assert all(isinstance(o, SavedGame) for o in outcomes), outcomes
    with open_service(db) as service:
        now = service.load(saved.id)
    assert now.steps == 3 and now.version == 4 and now.game.rolls_left == 0


def test_the_second_is_refused_as_illegal_on_the_game_as_stored(
        rolled: tuple[Path, SavedGame]) -> None:
    db, saved = rolled
    outcomes = race(db, saved.id, Score("chance"))
    assert sum(isinstance(o, SavedGame) for o in outcomes) == 1, outcomes
    [refused] = [o for o in outcomes if not isinstance(o, SavedGame)]
    assert isinstance(refused, IllegalMove) and not isinstance(refused, GameChanged)
    with open_service(db) as service:
        assert service.load(saved.id).steps == 2


def test_game_changed_says_what_differs(tmp_path: Path) -> None:
    """It said "it has 12 actions, this copy 12" when only the version differed."""
    with open_service(tmp_path / "games.sqlite3") as service:
        saved = service.create(YATZY, ["Ann"], seed=2)
        saved = service.apply(saved.id, Roll())
        saved = service.apply(saved.id, Score("chance"))
        service.undo(saved.id)
        service.apply(saved.id, Score("ones"))       # as many actions, a later version
        with pytest.raises(GameChanged) as caught:
            service.apply(saved.id, Roll(), expected_version=saved.version)
        assert "version 5, this copy at version 3" in caught.value.message
        assert caught.value.params["what"] == "version"
        with pytest.raises(GameChanged) as steps:
            service.apply(saved.id, Roll(), expected_steps=1)
        assert "it has 2 actions, this copy 1" in steps.value.message
    sv = translator("sv")
    assert "(version 5, den här kopian version 3)" in error_text(sv, caught.value)
    assert "(2 drag spelade, 1 i den här kopian)" in error_text(sv, steps.value)
    assert "(2 siirtoa pelattu, tässä kopiossa 1)" in error_text(translator("fi"),
                                                                  steps.value)
