"""Storage benchmark: what one save costs early and late in a game, now that a save
appends the action's row (``moves``) against rewriting the whole record in the game's
row, as the store did before revision 0006.

    python bench/storage.py [--repeat 200] [--postgres [URL]] [--folder FOLDER]

Plays one four-player Yatzy game (a seeded game: roll, reroll twice keeping two dice,
score the best box; 240 actions) and times ``SqlGameRepository.save`` of its action
number 1, 50, 150, 239 and of the last one (which also finishes the game: it writes the
results, and today's save the header with the totals), each ``--repeat`` times, on a
stored game that has all the actions before it (a game of its own for each step and
way). Each timed save is taken back (untimed) so that the next one saves the same step.
Both ways run in the same process on the same database, in rounds that time every step
of both once, in a shuffled order:

- *rewrite*: the save of revision 0005 and before, ``UPDATE games SET …, record=<the whole
  record>`` (the record built with ``Game.to_record()``, as that save did);
- *append*: today's save, which inserts the new ``moves`` row and updates the small
  columns of ``games``.

Prints, for each step, the median and 90th percentile of one save in milliseconds, the
bytes of the values it sends to the database and the size of the whole record at that
step, then the ratios of the medians of the last
two steps to the first step's, for both ways; and the median time to load the finished
game (its replay included), both ways. Runs on an SQLite file in a temporary folder
(removed at the end) and, with ``--postgres``, also on a scratch database made on that
server (default ``$YATZY_TEST_POSTGRES`` or the local one with trust auth) and dropped at
the end. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa

import yatzy
from yatzy.app import SavedGame, Seat
from yatzy.app.events import Event
from yatzy.core.actions import Action, Reroll, Roll, Score
from yatzy.core.game import Game
from yatzy.storage import SqlGameRepository, make_engine, upgrade
from yatzy.storage.engine import database_url
from yatzy.storage.tables import games, results

PLAYERS = ("Ann", "Bo", "Cy", "Dee")
#: The actions whose save is timed (1-based); the last one is added.
STEPS = (1, 50, 150)
POSTGRES = os.environ.get("YATZY_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def play() -> list[Game]:
    """Every state of one four-player Yatzy game, from the start to the end."""
    game = yatzy.new_game(yatzy.ruleset("yatzy"), list(PLAYERS), seed=2026)
    states = [game]
    while not game.is_over:
        action: Action
        if game.rolls_used == 0:
            action = Roll()
        elif game.rolls_left > 0:
            action = Reroll((0, 1))
        else:
            choices = game.choices()
            action = Score(max(choices, key=lambda box: (choices[box], box)))
        game = game.apply(action)
        states.append(game)
    return states


class RewritingRepository(SqlGameRepository):
    """The save of revision 0005 and before: every column of the game's row, the whole
    record included, written again."""

    def save(self, saved: SavedGame, *, expected_version: int,
             events: Sequence[Event] = ()) -> None:
        row = self._row(saved)
        del row["created_at"]
        row["record"] = saved.game.to_record()
        with self._transaction() as connection:
            done = connection.execute(
                games.update()
                .where(games.c.id == saved.id, games.c.version == expected_version)
                .values(**row))
            assert done.rowcount == 1
            self._results(connection, saved)
            self._log(connection, events)

    def get(self, game_id: str) -> SavedGame:
        """Read as before revision 0006: one row, its whole record replayed."""
        with self.engine.connect() as connection:
            record = connection.scalar(sa.select(games.c.record).where(games.c.id == game_id))
        game = Game.from_record(record)
        return SavedGame(game_id, game, tuple(Seat(name) for name in PLAYERS), "auto",
                         START, START)


class Timed:
    """One way of saving one step, on a game of its own in the database."""

    def __init__(self, repo: SqlGameRepository, states: list[Game], step: int) -> None:
        self.repo, self.states, self.step = repo, states, step
        self.saved = SavedGame(uuid.uuid4().hex, states[0],
                               tuple(Seat(name) for name in PLAYERS), "auto", START, START)
        repo.add(self.saved)
        self.times: list[float] = []
        self.advance_to(step - 1)

    def _next(self, game: Game) -> SavedGame:
        saved = self.saved
        return dataclasses.replace(saved, game=game, version=saved.version + 1,
                                   updated_at=saved.updated_at + timedelta(seconds=1))

    def advance_to(self, steps: int) -> None:
        """Store the game's actions up to ``steps`` (untimed)."""
        while self.saved.steps < steps:
            new = self._next(self.states[self.saved.steps + 1])
            self.repo.save(new, expected_version=self.saved.version)
            self.saved = new

    def time_one(self, *, count_bytes: bool = False) -> int:
        """Time the save of the step, then take it back (untimed). With ``count_bytes``
        (untimed), the bytes of the values the save sends to the database."""
        before = self.saved
        new = self._next(self.states[self.step])
        sent = 0

        def count(conn: Any, cursor: Any, statement: str, parameters: Any, *rest: Any) -> None:
            nonlocal sent
            rows = parameters if isinstance(parameters, list) else [parameters]
            for row in rows:
                values = row.values() if isinstance(row, dict) else row
                # JSON goes as text on SQLite, wrapped (``.obj``) for psycopg.
                sent += sum(len(json.dumps(value.obj) if hasattr(value, "obj")
                                else str(value).encode()) for value in values)

        if count_bytes:
            sa.event.listen(self.repo.engine, "before_cursor_execute", count)
        started = time.perf_counter()
        self.repo.save(new, expected_version=before.version)
        elapsed = time.perf_counter() - started
        if count_bytes:
            sa.event.remove(self.repo.engine, "before_cursor_execute", count)
        else:
            self.times.append(elapsed)
        if new.finished:
            with self.repo.engine.begin() as connection:
                connection.execute(results.delete().where(results.c.game_id == new.id))
        self.saved = new
        back = self._next(before.game)
        self.repo.save(back, expected_version=new.version)
        self.saved = back
        return sent


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:8.2f}"


def _p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1]


def measure(name: str, db: str | Path, states: list[Game], repeat: int) -> None:
    engine = make_engine(db)
    upgrade(engine)
    repos = {"rewrite": RewritingRepository(engine), "append": SqlGameRepository(engine)}
    last = len(states) - 1
    steps = (*STEPS, last - 1, last)
    cells = {(way, step): Timed(repo, states, step)
             for way, repo in repos.items() for step in steps}
    # Every round saves each step each way once, in a new order: a machine that gets
    # busier or quieter meanwhile weighs on every figure alike.
    order = list(cells.values())
    shuffle = random.Random(6).shuffle
    for round_ in range(repeat + 3):
        shuffle(order)
        for cell in order:
            cell.time_one()
        if round_ < 3:  # warming up
            for cell in order:
                cell.times.clear()
    sent = {key: cell.time_one(count_bytes=True) for key, cell in cells.items()}
    loads = {}
    for way in repos:
        cell = cells[way, last]
        cell.advance_to(last)
        samples = []
        for _ in range(max(5, repeat // 10)):
            started = time.perf_counter()
            loaded = cell.repo.get(cell.saved.id)
            samples.append(time.perf_counter() - started)
            assert loaded.game == states[-1]
        loads[way] = statistics.median(samples)
    ways = {way: {step: cells[way, step].times for step in steps} for way in repos}

    print(f"\n{name}: one save of a four-player Yatzy game ({last} actions), "
          f"ms, {repeat} saves per step and way")
    print(f"{'action':>14} {'record':>7} | {'rewrite (before)':^26} | {'append (now)':^26}")
    print(f"{'':>14} {'bytes':>7} | {'median':>8} {'p90':>8} {'sent':>8} |"
          f" {'median':>8} {'p90':>8} {'sent':>8}")
    for step in steps:
        size = len(json.dumps(states[step].to_record()))
        label = f"{step}" + (" (finishes)" if step == last else "")
        shown = [f"{_ms(statistics.median(times[step]))} {_ms(_p90(times[step]))}"
                 f" {sent[way, step]:>8}" for way, times in ways.items()]
        print(f"{label:>14} {size:>7} | {shown[0]} | {shown[1]}")
    for step in (last - 1, last):
        ratios = [statistics.median(times[step]) / statistics.median(times[STEPS[0]])
                  for times in ways.values()]
        label = f"{step} / {STEPS[0]}"
        print(f"{label:>14} {'':>7} | {ratios[0]:>7.2f}x {'':>17} | {ratios[1]:>7.2f}x")
    print(f"{'load, replayed':>14} {'':>7} | {_ms(loads['rewrite'])} {'':>17} |"
          f" {_ms(loads['append'])}")
    for repo in repos.values():
        repo.close()


@contextmanager
def scratch_postgres(server: str) -> Iterator[str]:
    """A new, empty database on ``server``, dropped afterwards."""
    admin = sa.create_engine(database_url(server), isolation_level="AUTOCOMMIT")
    name = f"yatzy_bench_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        url = sa.make_url(database_url(server)).set(database=name)
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=200,
                        help="saves timed per step and way (default 200)")
    parser.add_argument("--postgres", nargs="?", const=POSTGRES, default=None, metavar="URL",
                        help="also on a scratch database on this PostgreSQL server")
    parser.add_argument("--folder", type=Path, default=None,
                        help="make the SQLite file in a temporary folder in FOLDER (say, a"
                        " RAM disk, to leave the disk's flushes out)")
    args = parser.parse_args()
    if args.repeat < 2:
        parser.error("--repeat must be at least 2")
    states = play()
    with tempfile.TemporaryDirectory(dir=args.folder) as folder:
        measure("SQLite (a file, synchronous=FULL)", Path(folder) / "bench.sqlite3", states,
                args.repeat)
    if args.postgres is not None:
        with scratch_postgres(args.postgres) as url:
            measure("PostgreSQL", url, states, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
