"""One row per action: an action appends its move and so does an undo, the header
gets the totals once the game is over, a save sends the same statements at every step of
a game, a game written while it is read is read again, and damaged moves are damage.
On SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

import yatzy
from tests.app.playing import per_player, play_game, same_dice, upper_kind_then
from yatzy.app import DamagedGame, GameNotFound, GameService, SavedGame, Seat, StorageError
from yatzy.core.actions import Reroll, Roll, Score
from yatzy.core.errors import RecordError
from yatzy.core.record import record_header, step_entry
from yatzy.storage import SqlGameRepository, make_engine, upgrade
from yatzy.storage.tables import games, moves

YATZY = yatzy.ruleset("yatzy")
YAHTZEE = yatzy.ruleset("yahtzee")
WHEN = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


def _stored(engine: sa.Engine, game_id: str) -> tuple[Any, list[tuple[int, Any]]]:
    """A game's header and its moves as (step, action), as stored."""
    with engine.connect() as connection:
        header = connection.scalar(sa.select(games.c.record).where(games.c.id == game_id))
        played = connection.execute(
            sa.select(moves.c.step, moves.c.action)
            .where(moves.c.game_id == game_id).order_by(moves.c.step)).all()
    return header, [tuple(row) for row in played]


def _entries(saved: SavedGame) -> list[tuple[int, Any]]:
    return [(step, step_entry(s)) for step, s in enumerate(saved.game.log)]


def _advance(saved: SavedGame, *actions: Any) -> SavedGame:
    game = saved.game
    for action in actions:
        game = game.apply(action)
    return dataclasses.replace(saved, game=game, version=saved.version + 1,
                               updated_at=saved.updated_at + timedelta(seconds=1))


class _fresh:
    """A repository of its own on ``db`` (another program), closed after use."""

    def __init__(self, db: str | Path) -> None:
        self.repo = SqlGameRepository(make_engine(db))

    def __enter__(self) -> SqlGameRepository:
        return self.repo

    def __exit__(self, *exc: object) -> None:
        self.repo.close()


def test_actions_and_undos_append_moves(service: GameService, db: str | Path) -> None:
    saved = service.create(YAHTZEE, ["Ann", "Bo"], seed=7, first_player="roll")
    engine = make_engine(db)
    assert _stored(engine, saved.id) == (record_header(saved.game), [])
    saved = service.apply(saved.id, Roll())
    saved = service.apply(saved.id, Reroll((0, 1)))
    scored = service.apply(saved.id, Score("chance"))
    assert _stored(engine, saved.id) == (record_header(saved.game), _entries(scored))
    undone = service.undo(saved.id)
    header, played = _stored(engine, saved.id)
    assert header == record_header(undone.game) and header["version"] == 3
    assert played == _entries(undone) and played[:3] == _entries(scored)
    assert played[3] == (3, {"type": "undo", "player": undone.game.current_player})
    again = service.apply(saved.id, Score("ones"))
    assert _stored(engine, saved.id)[1] == _entries(again)
    assert [entry["type"] for _, entry in _entries(again)] == [
        "roll", "reroll", "score", "undo", "score"]
    engine.dispose()
    with _fresh(db) as other:
        assert other.get(saved.id) == again


def test_a_finished_game_has_its_totals_in_the_header(service: GameService,
                                                      db: str | Path) -> None:
    saved = play_game(service, YATZY, ["Ann", Seat("Bo", "greedy")], per_player({
        "Ann": upper_kind_then([6, 6, 6, 6, 6]), "Bo": same_dice([1, 2, 3, 4, 5])}))
    engine = make_engine(db)
    header, played = _stored(engine, saved.id)
    engine.dispose()
    assert header == record_header(saved.game) and header["totals"] == {"Ann": 289, "Bo": 45}
    assert played == _entries(saved) and len(played) == 60
    with _fresh(db) as other:
        assert other.get(saved.id) == saved
        assert other.recent(5, finished=True) == [saved]


def test_a_save_sends_the_same_statements_at_every_step(repo: SqlGameRepository) -> None:
    """What a save writes does not grow with the game: the same statements, with
    parameters of the same size, early and late in a game."""
    saved = SavedGame("s" * 32, yatzy.new_game(YATZY, ["Ann", "Bo", "Cy"], seed=3),
                      (Seat("Ann"), Seat("Bo"), Seat("Cy")), "auto", WHEN, WHEN)
    repo.add(saved)
    sent: list[tuple[str, int]] = []

    def capture(conn: Any, cursor: Any, statement: str, parameters: Any, *rest: Any) -> None:
        sent.append((statement, len(repr(parameters))))

    def save_one(saved: SavedGame, action: Any) -> tuple[SavedGame, list[tuple[str, int]]]:
        new = _advance(saved, action)
        sent.clear()
        sa.event.listen(repo.engine, "before_cursor_execute", capture)
        try:
            repo.save(new, expected_version=saved.version)
        finally:
            sa.event.remove(repo.engine, "before_cursor_execute", capture)
        return new, list(sent)

    saved, early = save_one(saved, Roll())
    while saved.steps < 80:
        game = saved.game
        saved = _advance(saved, Score(game.card.open_boxes[0]) if game.rolls_used else Roll())
        repo.save(saved, expected_version=saved.version - 1)
    saved, late = save_one(saved, Roll())
    assert [statement for statement, _ in early] == [statement for statement, _ in late]
    assert all(abs(a - b) <= 16 for (_, a), (_, b) in zip(early, late, strict=True))
    assert repo.get(saved.id) == saved


def test_a_game_written_while_it_is_read_is_read_again(repo: SqlGameRepository,
                                                       db: str | Path) -> None:
    """Another program saves the game between the read of its row and of its moves:
    the game read is the one it saved, never its old row with its new moves."""
    saved = SavedGame("w" * 32, yatzy.new_game(YATZY, ["Ann"], seed=4).roll(),
                      (Seat("Ann"),), "auto", WHEN, WHEN)
    repo.add(saved)
    newer = _advance(saved, Score("chance"), Roll())
    writes = [newer]

    def write_between(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        if writes and statement.lstrip().startswith("SELECT games.id, games.ruleset"):
            with _fresh(db) as other:
                other.save(writes.pop(), expected_version=saved.version)

    sa.event.listen(repo.engine, "after_cursor_execute", write_between)
    try:
        assert repo.get(saved.id) == newer
        writes.append(_advance(newer, Reroll((0,))))
        saved = newer
        [listed] = repo.recent(5)
    finally:
        sa.event.remove(repo.engine, "after_cursor_execute", write_between)
    assert listed == repo.get(saved.id) and isinstance(listed, SavedGame)
    assert listed.version == 3 and listed.steps == 4


def test_a_missing_move_is_damage(repo: SqlGameRepository) -> None:
    game = yatzy.new_game(YATZY, ["Ann"], seed=1).roll().score("chance").roll()
    repo.add(SavedGame("m" * 32, game, (Seat("Ann"),), "auto", WHEN, WHEN))
    with repo.engine.begin() as connection:
        connection.execute(moves.delete().where(moves.c.step == 1))
    with pytest.raises(RecordError, match="2 of its 3 actions are stored"):
        repo.get("m" * 32)
    [listed] = repo.recent(5)
    assert isinstance(listed, DamagedGame) and "2 of its 3 actions" in listed.reason
    stored = repo.stored("m" * 32)
    assert [move["step"] for move in stored["moves"]] == [0, 2]
    assert stored["moves"][1]["action"] == step_entry(game.history[2])
    with repo.engine.begin() as connection:
        connection.execute(games.update().values(steps=2))  # as many, with a hole
    with pytest.raises(RecordError, match="skip step 2") as caught:
        repo.get("m" * 32)
    assert caught.value.step == 1


def test_a_move_that_is_not_json_is_damage(tmp_path: Path) -> None:
    engine = make_engine(tmp_path / "games.sqlite3")  # PostgreSQL keeps only JSON
    upgrade(engine)
    repo = SqlGameRepository(engine)
    game = yatzy.new_game(YATZY, ["Ann"], seed=1).roll()
    repo.add(SavedGame("j" * 32, game, (Seat("Ann"),), "auto", WHEN, WHEN))
    repo.add(SavedGame("k" * 32, yatzy.new_game(YATZY, ["Bo"], seed=1).roll(), (Seat("Bo"),),
                       "auto", WHEN, WHEN + timedelta(days=1)))
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "UPDATE moves SET action = 'not json' WHERE game_id = '" + "j" * 32 + "'")
    with pytest.raises(StorageError, match="holds damaged data"):
        repo.get("j" * 32)
    listed = repo.recent(5)
    assert [type(g).__name__ for g in listed] == ["SavedGame", "DamagedGame"]
    assert repo.stored("j" * 32)["moves"] == [{"step": 0, "action": "not json"}]
    repo.delete("j" * 32)
    with engine.connect() as connection:
        assert connection.scalar(sa.select(sa.func.count()).select_from(moves)) == 1
    repo.close()


def test_deleting_a_game_deletes_its_moves(repo: SqlGameRepository) -> None:
    game = yatzy.new_game(YATZY, ["Ann"], seed=1).roll().score("chance")
    repo.add(SavedGame("d" * 32, game, (Seat("Ann"),), "auto", WHEN, WHEN))
    assert repo.stored("d" * 32)["moves"] == [
        {"step": step, "action": step_entry(s)} for step, s in enumerate(game.history)]
    repo.delete("d" * 32)
    with repo.engine.connect() as connection:
        assert connection.scalar(sa.select(sa.func.count()).select_from(moves)) == 0


def test_a_game_written_at_every_read_is_an_error(repo: SqlGameRepository,
                                                  db: str | Path) -> None:
    """Reading again has an end: a game written between every read of its row and of
    its moves is a StorageError after a few tries."""
    saved = SavedGame("v" * 32, yatzy.new_game(YATZY, ["Ann"], seed=4).roll(),
                      (Seat("Ann"),), "auto", WHEN, WHEN)
    repo.add(saved)
    stored = [saved]

    def write_between(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        if statement.lstrip().startswith("SELECT games.id, games.ruleset"):
            new = dataclasses.replace(stored[-1], version=stored[-1].version + 1)
            with _fresh(db) as other:
                other.save(new, expected_version=stored[-1].version)
            stored.append(new)

    sa.event.listen(repo.engine, "after_cursor_execute", write_between)
    try:
        with pytest.raises(StorageError, match="written 5 times while it was read"):
            repo.get(saved.id)
    finally:
        sa.event.remove(repo.engine, "after_cursor_execute", write_between)
    assert len(stored) == 6 and repo.get(saved.id) == stored[-1]


def test_a_copy_still_at_the_stored_version_is_not_read_again(repo: SqlGameRepository) -> None:
    saved = SavedGame("c" * 32, yatzy.new_game(YATZY, ["Ann"], seed=4).roll(),
                      (Seat("Ann"),), "auto", WHEN, WHEN)
    repo.add(saved)
    sent: list[str] = []

    def capture(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        sent.append(statement)

    sa.event.listen(repo.engine, "before_cursor_execute", capture)
    try:
        assert repo.get(saved.id, known=saved) is saved
    finally:
        sa.event.remove(repo.engine, "before_cursor_execute", capture)
    assert len(sent) == 1 and "moves" not in sent[0]  # the version, nothing to replay
    newer = _advance(saved, Score("chance"))
    repo.save(newer, expected_version=saved.version)
    assert repo.get(saved.id, known=saved) == newer  # moved on: read and replayed
    assert repo.get(saved.id, known=dataclasses.replace(newer, id="other")) == newer
    repo.delete(saved.id)
    with pytest.raises(GameNotFound):
        repo.get(saved.id, known=newer)


def test_the_service_loads_its_copy_while_no_one_else_wrote(service: GameService,
                                                            db: str | Path) -> None:
    saved = service.apply(service.create(YATZY, ["Ann"], seed=4).id, Roll())
    assert service.load(saved.id) is saved
    with _fresh(db) as other:  # another program moves the game on
        other.save(_advance(saved, Score("chance")), expected_version=saved.version)
    loaded = service.load(saved.id)
    assert loaded.version == saved.version + 1 and loaded.game.history[-1].player == "Ann"
    assert loaded.steps == 2 and service.load(saved.id) is loaded
