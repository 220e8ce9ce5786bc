"""The group commit of SQLite saves: the saves that queue for the writer's lock are
stored in one transaction, each gets its own answer, and a failure of the group stores
none of it."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.app.playing import TickingClock
from yatzy.app import GameService
from yatzy.app.errors import GameChanged, StorageError
from yatzy.app.saved import SavedGame
from yatzy.core.actions import Roll
from yatzy.core.rulesets import ruleset
from yatzy.storage import make_engine, upgrade
from yatzy.storage.repository import SqlGameRepository

YATZY = ruleset("yatzy")


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[SqlGameRepository]:
    engine = make_engine(tmp_path / "games.sqlite3")
    upgrade(engine)
    repository = SqlGameRepository(engine)
    yield repository
    repository.close()


def _rolled(service: GameService, seed: int) -> tuple[SavedGame, SavedGame]:
    """A new stored game and, not stored, the same game after its first roll."""
    saved = service.create(YATZY, ["Kim", "Bo"], seed=seed)
    game = saved.game.apply(Roll())
    return saved, replace(saved, game=game, version=saved.version + 1)


def _in_one_group(repo: SqlGameRepository,
                  saves: list[Callable[[], None]]) -> list[BaseException | None]:
    """Run ``saves`` on threads that all queue while the writer's lock is held, so that
    one commit stores them; each one's error (or ``None``)."""
    answers: list[BaseException | None] = [None] * len(saves)

    def run(i: int) -> None:
        try:
            saves[i]()
        except BaseException as exc:
            answers[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(saves))]
    with repo._writing:  # the writer is busy: every save queues
        for thread in threads:
            thread.start()
        for _ in range(500):
            with repo._queued:
                if repo._queue is not None and len(repo._queue) == len(saves):
                    break
            threading.Event().wait(0.01)
        else:
            raise AssertionError("the saves did not queue")
    for thread in threads:
        thread.join(10)
    return answers


def _commits(repo: SqlGameRepository) -> list[int]:
    count = [0]
    sa.event.listen(repo.engine, "commit", lambda _connection: count.__setitem__(
        0, count[0] + 1))
    return count


def test_queued_saves_are_stored_in_one_commit(repo: SqlGameRepository) -> None:
    service = GameService(repo, clock=TickingClock())
    games = [_rolled(service, seed) for seed in range(6)]
    commits = _commits(repo)
    answers = _in_one_group(repo, [
        lambda new=new, old=old: repo.save(new, expected_version=old.version)
        for old, new in games])
    assert answers == [None] * 6
    assert commits[0] == 1
    for _, new in games:
        stored = repo.get(new.id)
        assert stored.version == new.version
        assert stored.game.history == new.game.history


def test_a_refused_save_does_not_stop_the_others(repo: SqlGameRepository) -> None:
    service = GameService(repo, clock=TickingClock())
    (old_a, new_a), (old_b, new_b) = _rolled(service, 1), _rolled(service, 2)
    answers = _in_one_group(repo, [
        lambda: repo.save(new_a, expected_version=old_a.version + 5),  # stale
        lambda: repo.save(new_b, expected_version=old_b.version)])
    assert isinstance(answers[0], GameChanged)
    assert answers[1] is None
    assert repo.get(old_a.id).version == old_a.version
    assert repo.get(old_b.id).version == new_b.version


def test_two_saves_of_one_game_in_a_group_follow_each_other(
        repo: SqlGameRepository) -> None:
    service = GameService(repo, clock=TickingClock())
    old, first = _rolled(service, 3)
    second = replace(first, game=first.game.score("chance"), version=first.version + 1)

    def save_first() -> None:
        repo.save(first, expected_version=old.version)

    def save_second() -> None:
        while not repo._queue:  # queued after the first
            threading.Event().wait(0.005)
        repo.save(second, expected_version=first.version)

    assert _in_one_group(repo, [save_first, save_second]) == [None, None]
    assert repo.get(old.id).game.history == second.game.history


def test_a_failed_group_stores_none_of_it(repo: SqlGameRepository) -> None:
    service = GameService(repo, clock=TickingClock())
    (old_a, new_a), (old_b, new_b) = _rolled(service, 4), _rolled(service, 5)

    def refuse(*_args: object) -> None:
        raise sa.exc.OperationalError("COMMIT", {}, Exception("disk I/O error"))

    sa.event.listen(repo.engine, "commit", refuse)
    try:
        answers = _in_one_group(repo, [
            lambda: repo.save(new_a, expected_version=old_a.version),
            lambda: repo.save(new_b, expected_version=old_b.version)])
    finally:
        sa.event.remove(repo.engine, "commit", refuse)
    assert all(isinstance(answer, StorageError) for answer in answers), answers
    assert repo.get(old_a.id).version == old_a.version
    assert repo.get(old_b.id).version == old_b.version


def test_a_save_that_breaks_fails_alone_and_takes_its_group_back(
        repo: SqlGameRepository) -> None:
    service = GameService(repo, clock=TickingClock())
    (old_a, new_a), (old_b, new_b) = _rolled(service, 6), _rolled(service, 7)
    # A seat name the database cannot take fails in the middle of the group's work.
    unwritable = replace(new_b.seats[0], name=object())  # type: ignore[arg-type]
    broken = replace(new_b, seats=(unwritable, *new_b.seats[1:]))
    answers = _in_one_group(repo, [
        lambda: repo.save(new_a, expected_version=old_a.version),
        lambda: repo.save(broken, expected_version=old_b.version)])
    assert isinstance(answers[0], StorageError)  # stored with the broken one: taken back
    assert answers[1] is not None and not isinstance(answers[1], StorageError)
    assert repo.get(old_a.id).version == old_a.version
    assert repo.get(old_b.id).version == old_b.version
