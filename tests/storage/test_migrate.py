"""The Alembic migrations: they build exactly the schema of the tables module, run
again as a no-op, go down and up, and refuse a database from a newer program."""

from __future__ import annotations

import dataclasses
import io
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

import yatzy
from tests.app.playing import TickingClock, per_player, play_game, same_dice, upper_kind_then
from yatzy.app import DamagedGame, GameService, SavedGame, Seat, StorageError, player_results
from yatzy.bootstrap import open_service
from yatzy.core.actions import Reroll, Roll, Score, Undo
from yatzy.core.dice import Dice
from yatzy.core.record import record_header, step_entry
from yatzy.storage import head_revision, make_engine, options_key, upgrade
from yatzy.storage.engine import database_url
from yatzy.storage.migrate import MIGRATIONS, alembic_config, current_revision
from yatzy.storage.migrations.versions import r0006_moves
from yatzy.storage.tables import games, metadata, moves, results


def _diff(engine: sa.Engine) -> list[object]:
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, metadata))


def test_migrations_build_the_schema_of_the_models(db: str | Path) -> None:
    engine = make_engine(db)
    upgrade(engine)
    assert _diff(engine) == []
    with engine.connect() as connection:
        assert current_revision(connection) == head_revision()
        names = set(sa.inspect(connection).get_table_names())
    assert names == {"games", "moves", "results", "seat_keys", "changes", "alembic_version",
                     "settings", "players", "player_keys", "daily_entries", "daily_pars",
                     "leases", "match_tickets", "rated_games", "link_codes",
                     "link_failures", "passkeys", "webauthn_challenges"}
    engine.dispose()


def test_alembic_check_finds_nothing_to_generate(db: str | Path) -> None:
    engine = make_engine(db)
    upgrade(engine)
    with engine.begin() as connection:
        command.check(alembic_config(connection))  # raises when models and migrations differ
    engine.dispose()


def test_upgrade_twice_is_a_no_op_and_keeps_data(db: str | Path) -> None:
    import yatzy

    with open_service(db) as service:
        saved = service.create(yatzy.ruleset("yatzy"), ["Ann"], seed=1)
    with open_service(db) as service:
        assert service.load(saved.id) == saved


def test_down_and_up_again(db: str | Path) -> None:
    engine = make_engine(db)
    upgrade(engine)
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "base")
    with engine.connect() as connection:
        assert set(sa.inspect(connection).get_table_names()) <= {"alembic_version"}
        assert current_revision(connection) is None
    upgrade(engine)
    assert _diff(engine) == []
    engine.dispose()


def test_a_newer_schema_is_refused(db: str | Path) -> None:
    engine = make_engine(db)
    upgrade(engine)
    with engine.begin() as connection:
        connection.exec_driver_sql("UPDATE alembic_version SET version_num = 'fffffff'")
    with pytest.raises(StorageError, match="newer version"):
        upgrade(engine)
    engine.dispose()


def test_migrations_ship_inside_the_package() -> None:
    assert (MIGRATIONS / "env.py").is_file() and (MIGRATIONS / "script.py.mako").is_file()
    scripts = sorted(p.name for p in (MIGRATIONS / "versions").glob("r*.py"))
    assert scripts[0] == "r0001_initial.py"
    assert scripts[-1] == "r0012_devices.py"
    assert head_revision() == "0012_devices"


def test_programs_opening_a_new_database_at_once(db: str | Path) -> None:
    """Four programs open the same new database at the same moment: one migrates, the
    others wait for it and find the schema done."""
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def open_it() -> None:
        barrier.wait()
        try:
            open_service(db).close()
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=open_it, daemon=True) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a migration hung"
    assert errors == []
    engine = make_engine(db)
    assert _diff(engine) == []
    engine.dispose()


def test_the_developers_way(tmp_path: Path) -> None:
    """Alembic driven by a URL, as docs/storage.md shows, online and as SQL."""
    config = alembic_config()
    config.set_main_option("sqlalchemy.url", f"sqlite:///{tmp_path / 'dev.sqlite3'}")
    command.upgrade(config, "head")
    command.check(config)
    buffer = io.StringIO()
    config.output_buffer = buffer
    command.upgrade(config, "head", sql=True)  # offline: the SQL a DBA would run
    assert "CREATE TABLE games" in buffer.getvalue()


def test_a_locked_new_database_is_tried_again(tmp_path: Path) -> None:
    """When SQLite refuses at once (its busy wait is short here), upgrade tries again."""
    path = tmp_path / "games.sqlite3"
    blocker = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    blocker.execute("BEGIN EXCLUSIVE")
    timer = threading.Timer(0.3, lambda: blocker.execute("COMMIT"))
    timer.start()
    engine = sa.create_engine(f"sqlite:///{path}", connect_args={"timeout": 0.01})
    try:
        upgrade(engine, attempts=10)
    finally:
        timer.join()
        blocker.close()
    assert _diff(engine) == []
    engine.dispose()


def test_other_failures_are_not_tried_again(tmp_path: Path) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path}")  # a folder
    with pytest.raises(sa.exc.OperationalError, match="unable to open"):
        upgrade(engine, attempts=10)


def test_0002_numbers_the_writes_of_games_saved_before_it(db: str | Path) -> None:
    import yatzy

    with open_service(db) as service:
        saved = service.create(yatzy.ruleset("yatzy"), ["Ann"], seed=1)
        saved = service.apply(saved.id, yatzy.Roll())
        saved = service.apply(saved.id, yatzy.Score("chance"))
    engine = make_engine(db)
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0001")
        assert "version" not in {c["name"] for c in sa.inspect(connection).get_columns("games")}
    upgrade(engine)
    with engine.connect() as connection:
        version = connection.scalar(sa.text("SELECT version FROM games"))
    engine.dispose()
    assert version == saved.version == 3
    with open_service(db) as service:
        assert service.apply(saved.id, yatzy.Roll()).version == 4


def test_0003_keeps_numeric_seeds_and_stores_secret_ones(db: str | Path) -> None:
    import yatzy

    engine = make_engine(db)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0002")
    engine.dispose()
    with open_service(db) as service:  # migrates the rest of the way
        numeric = service.create(yatzy.ruleset("yatzy"), ["Ann"], seed=2**53 - 1)
        secret = service.create(yatzy.ruleset("yatzy"), ["Bo"])
        secret = service.apply(secret.id, yatzy.Roll())
    assert isinstance(secret.game.seed, str) and len(secret.game.seed) == 64
    engine = make_engine(db)
    with engine.connect() as connection:
        seeds = dict(connection.execute(sa.text("SELECT id, seed FROM games")).all())
    engine.dispose()
    assert seeds == {numeric.id: str(2**53 - 1), secret.id: secret.game.seed}
    with open_service(db) as service:
        assert service.load(secret.id).game == secret.game
        assert service.load(numeric.id).game.seed == 2**53 - 1


# --- 0006: one row per action ------------------------------------------------------------

YATZY, YAHTZEE = yatzy.ruleset("yatzy"), yatzy.ruleset("yahtzee")
SIXES = Dice([6, 6, 6, 6, 6])
#: A game whose record is JSON that no game makes, and (SQLite only) one that is no JSON.
BAD_RECORD, NOT_JSON = "b" * 32, "n" * 32


def _games_of_every_kind() -> dict[str, SavedGame]:
    """Games played on a scratch database: finished and unfinished, with undo history,
    Yahtzee with a bonus and Jokers, real dice, roll-offs, a secret seed with hints and a
    web seat, and one nobody has moved in."""
    with open_service("sqlite://", clock=TickingClock()) as service:
        finished = play_game(service, YATZY, ["Ann", Seat("Bo", "greedy")], per_player({
            "Ann": upper_kind_then([6, 6, 6, 6, 6]), "Bo": same_dice([1, 2, 3, 4, 5])}))
        undone = service.create(YATZY, ["Ann", "Bo"], seed=3)
        for action in (Roll(), Score("chance")):
            undone = service.apply(undone.id, action)
        service.undo(undone.id)
        for action in (Score("ones"), Roll()):
            undone = service.apply(undone.id, action)
        jokers = service.create(YAHTZEE, ["Cy"], dice_mode="manual")
        for box in ("yahtzee", "sixes", "large_straight"):  # 50, then bonuses and a Joker
            jokers = service.apply(jokers.id, Roll(SIXES))
            jokers = service.apply(jokers.id, Score(box))
        roll_off = service.create(YATZY, ["Ann", "Bo", "Cy"], seed=5, first_player="roll")
        for action in (Roll(), Reroll((0, 1))):
            roll_off = service.apply(roll_off.id, action)
        real_roll_off = service.create(YAHTZEE, ["Dee", "Eve"], dice_mode="manual",
                                       first_player="roll",
                                       roll_off_dice=[[6, 6, 6, 6, 6], [6, 6, 6, 6, 6],
                                                      [1, 1, 1, 1, 2], [3, 3, 3, 3, 3]])
        real_roll_off = service.apply(real_roll_off.id, Roll(Dice([2, 3, 4, 5, 6])))
        secret = service.create(YATZY, [Seat("Fay", token_hash="ab" * 32)], hints=True)
        secret = service.apply(secret.id, Roll())
        unmoved = service.create(YATZY, ["Gus"], seed=9)
    assert jokers.game.history[-1].bonus and len(real_roll_off.game.roll_offs) == 4
    assert undone.version == undone.steps + 3 and isinstance(secret.game.seed, str)
    played = [finished, undone, jokers, roll_off, real_roll_off, secret, unmoved]
    # As stores before 0006 kept them: an undo took its action out of the record.
    return {saved.id: dataclasses.replace(
        saved, game=dataclasses.replace(saved.game, log=saved.game.history))
        for saved in played}


def _row_0005(saved: SavedGame) -> dict[str, Any]:
    """The row of ``games`` the repository of revision 0005 wrote: the whole record."""
    game = saved.game
    return {
        "id": saved.id, "ruleset": game.ruleset.name, "options_key": options_key(game.ruleset),
        "seed": None if game.seed is None else str(game.seed), "dice_mode": saved.dice_mode,
        "status": "finished" if game.is_over else "playing", "steps": saved.steps,
        "version": saved.version,
        "seats": [{"name": s.name, "bot": s.bot}
                  | ({"token_hash": s.token_hash} if s.token_hash else {})
                  for s in saved.seats],
        "record": game.to_record(), "settings": {"hints": True} if saved.hints else None,
        "created_at": saved.created_at, "updated_at": saved.updated_at,
        "finished_at": saved.updated_at if game.is_over else None,
    }


def _database_at_0005(db: str | Path, played: dict[str, SavedGame]) -> sa.Engine:
    """A database at revision 0005 holding ``played`` (and their results) and damaged
    rows, as that revision's repository stored them."""
    engine = make_engine(db)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0005")
        for saved in played.values():
            connection.execute(games.insert().values(_row_0005(saved)))
            if saved.finished:
                connection.execute(results.insert(), [
                    {"game_id": saved.id} | {key: getattr(r, key) for key in (
                        "seat", "player", "is_bot", "bot", "total", "upper_bonus",
                        "yahtzee_points", "yahtzee_bonuses", "place")}
                    for r in player_results(saved)])
        one = next(iter(played.values()))
        connection.execute(games.insert().values(
            _row_0005(one) | {"id": BAD_RECORD, "record": {"format": 1, "history": [1]}}))
        if connection.dialect.name == "sqlite":
            connection.execute(games.insert().values(_row_0005(one) | {"id": NOT_JSON}))
            connection.exec_driver_sql(
                f"UPDATE games SET record = 'not json' WHERE id = '{NOT_JSON}'")
    return engine


def _stored_games(engine: sa.Engine) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """Every game's record (as text when it is no JSON) and moves, as stored."""
    with engine.connect() as connection:
        records = {game_id: _json(text) for game_id, text in connection.execute(
            sa.select(games.c.id, sa.cast(games.c.record, sa.Text)))}
        played: dict[str, list[Any]] = {game_id: [] for game_id in records}
        if "moves" in sa.inspect(connection).get_table_names():
            for game_id, step, action in connection.execute(
                    sa.select(moves.c.game_id, moves.c.step, moves.c.action)
                    .order_by(moves.c.game_id, moves.c.step)):
                assert step == len(played[game_id])
                played[game_id].append(action)
    return records, played


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _continue(service: GameService, saved: SavedGame) -> SavedGame:
    """One more action in ``saved``: a roll, or the first box the rules allow."""
    game = saved.game
    if game.rolls_used == 0:
        action: Any = Roll(Dice([3, 3, 4, 4, 4])) if saved.dice_mode == "manual" else Roll()
    else:
        action = Score(next(iter(game.choices())))
    return service.apply(saved.id, action)


def _damaged_ids(db: str | Path) -> list[str]:
    return [BAD_RECORD] + ([] if isinstance(db, str) else [NOT_JSON])


def test_0006_moves_the_actions_of_games_saved_before_it(db: str | Path) -> None:
    played = _games_of_every_kind()
    engine = _database_at_0005(db, played)
    before, _ = _stored_games(engine)
    upgrade(engine)
    assert _diff(engine) == []
    records, stored_moves = _stored_games(engine)
    engine.dispose()
    for game_id, saved in played.items():
        assert records[game_id] == record_header(saved.game)
        assert stored_moves[game_id] == [step_entry(step) for step in saved.game.history]
    for game_id in _damaged_ids(db):  # left whole, to be exported
        assert records[game_id] == before[game_id] and stored_moves[game_id] == []

    with open_service(db, clock=TickingClock()) as service:
        for game_id, saved in played.items():
            assert service.load(game_id) == saved
        listed = service.recent(20)
        assert {g.id for g in listed if isinstance(g, DamagedGame)} == set(_damaged_ids(db))
        assert all(g == played[g.id] for g in listed if isinstance(g, SavedGame))
        assert service.stored(BAD_RECORD)["record"] == {"format": 1, "history": [1]}
        assert service.best(YATZY, "Ann") == 289
        # Every unfinished game goes on: an action, an undo where a person scored, and
        # one of them to the end.
        for game_id, saved in played.items():
            if saved.finished:
                continue
            moved = _continue(service, saved)
            if isinstance(moved.game.history[-1].action, Score):
                undone_now = service.undo(game_id).game
                assert undone_now.history == saved.game.history
                assert undone_now.log[-1].action == Undo()
                moved = _continue(service, service.load(game_id))
            assert moved.version > saved.version and moved.steps == saved.steps + 1
        # The game with undo history (the only one with more writes than actions + 1).
        [undone_id] = [g.id for g in played.values() if g.version > g.steps + 1]
        undone = service.load(undone_id)
        while not undone.finished:
            undone = _continue(service, undone)
        assert [r.player for r in service.stats(YATZY)] == ["Ann", "Bo"]
        assert service.scores(YATZY, "Bo")[-1] == undone.game.scorecard("Bo").total
    with open_service(db) as service:
        assert service.load(undone.id) == undone


def test_0006_goes_down_and_up_again(db: str | Path) -> None:
    played = _games_of_every_kind()
    engine = _database_at_0005(db, played)
    before, _ = _stored_games(engine)
    upgrade(engine)
    with engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0005")
    records, _ = _stored_games(engine)
    assert records == before  # every record whole again, the damaged ones as they were
    with engine.connect() as connection:
        assert "moves" not in sa.inspect(connection).get_table_names()
    upgrade(engine)
    engine.dispose()
    with open_service(db) as service:
        assert all(service.load(game_id) == saved for game_id, saved in played.items())


def test_0006_moves_the_same_without_sql_of_its_own(db: str | Path) -> None:
    """On a database other than SQLite and PostgreSQL the migration moves the actions
    in Python: the same rows as its SQL, both ways."""
    engine = _database_at_0005(db, _games_of_every_kind())
    before, _ = _stored_games(engine)
    upgrade(engine)
    after = _stored_games(engine)
    with engine.begin() as connection:
        r0006_moves.put_actions_back(connection)
        connection.execute(moves.delete())
    assert _stored_games(engine)[0] == before
    with engine.begin() as connection:
        r0006_moves.move_actions(connection)
    assert _stored_games(engine) == after
    engine.dispose()


def test_0006_as_sql_moves_the_actions(db: str | Path) -> None:
    """The SQL of an offline migration (for a DBA) moves the actions too."""
    played = _games_of_every_kind()
    _database_at_0005(db, played).dispose()
    config = alembic_config()
    config.set_main_option("sqlalchemy.url", database_url(db))
    buffer = io.StringIO()
    config.output_buffer = buffer
    command.upgrade(config, "0005:0006", sql=True)
    script = buffer.getvalue()
    assert "INSERT INTO moves" in script
    if isinstance(db, Path):
        with sqlite3.connect(db) as connection:
            connection.executescript(script)
        connection.close()
    else:
        engine = sa.create_engine(database_url(db), isolation_level="AUTOCOMMIT")
        with engine.connect() as connection:
            connection.exec_driver_sql(script)
        engine.dispose()
    with open_service(db) as service:
        assert all(service.load(game_id) == saved for game_id, saved in played.items())
