"""Computer turns benchmark: what the lease on a game's computer turns costs one process.

    python bench/turns.py [--games 20] [--postgres [URL]]

Plays ``--games`` games of a person (Ann, who rolls once and fills the next box) against
a greedy computer at pace 0, through a game session, on one database, twice over in
alternate games: with the computer turns *leased* (as ``yatzy serve`` and ``yatzy play``
run: the session takes the lease once per computer turn and lets go after it) and
*unleased* (the service has no lease store, as before the leases). Times each computer
turn, from Ann's box stored to the computer's last step stored (the lease taken and let
go included), and prints for both ways the median and 90th percentile in milliseconds,
and the ratio of the medians. Also times ``take`` and ``release`` of a lease alone.
Runs on an SQLite file in a temporary folder and, with ``--postgres``, also on a scratch
database on that server (default ``$YATZY_TEST_POSTGRES`` or the local one), dropped at
the end. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import sqlalchemy as sa

import yatzy
from yatzy.app import GameService, Seat
from yatzy.app.session import GameSession
from yatzy.app.table import Table
from yatzy.core.actions import Roll, Score
from yatzy.storage import SqlGameRepository, make_engine, upgrade
from yatzy.storage.engine import database_url
from yatzy.storage.leases import SqlLeases

POSTGRES = os.environ.get("YATZY_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


async def play(service: GameService, seed: int) -> list[float]:
    """One game; the seconds of each of the computer's turns."""
    saved = service.create(yatzy.ruleset("yatzy"), [Seat("Ann"), Seat("cpu", bot="greedy")],
                           seed=seed)
    session = GameSession(Table.open(service, saved, seed=seed), pace=0)
    took = []
    while not session.game.is_over:
        await session.act(Roll(), player="Ann")
        box = next(iter(session.game.choices()))
        await session.act(Score(box), player="Ann")
        started = time.perf_counter()
        await session.settled()
        took.append(time.perf_counter() - started)
    await session.close()
    return took


def measure(db: str | Path, games: int) -> None:
    engine = make_engine(db)
    upgrade(engine)
    repository = SqlGameRepository(engine)
    ways = {"unleased": GameService(repository),
            "leased": GameService(repository, leases=SqlLeases(repository))}
    times: dict[str, list[float]] = {way: [] for way in ways}
    for game in range(games):
        for way, service in (ways.items() if game % 2 else reversed(ways.items())):
            times[way].extend(asyncio.run(play(service, game)))
    leases = SqlLeases(repository)
    take, release = [], []
    for i in range(200):
        started = time.perf_counter()
        leases.take(f"bench-{i}", 3)
        took = time.perf_counter()
        leases.release(f"bench-{i}")
        release.append(time.perf_counter() - took)
        take.append(took - started)
    engine.dispose()
    print(f"{engine.dialect.name}: computer turns of {games} games each way")
    for way, found in times.items():
        ordered = sorted(found)
        print(f"  {way:9} {len(found):4} turns: median {statistics.median(found) * 1000:6.2f} ms,"
              f" p90 {ordered[int(0.9 * (len(ordered) - 1))] * 1000:6.2f} ms")
    ratio = statistics.median(times["leased"]) / statistics.median(times["unleased"])
    print(f"  leased / unleased (medians): {ratio:.2f}")
    print(f"  take alone: median {statistics.median(take) * 1000:.2f} ms; release alone: "
          f"median {statistics.median(release) * 1000:.2f} ms")


@contextmanager
def scratch_postgres(url: str) -> Iterator[str]:
    admin = sa.create_engine(database_url(url), isolation_level="AUTOCOMMIT")
    name = f"yatzy_bench_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield sa.make_url(database_url(url)).set(database=name).render_as_string(
            hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--postgres", nargs="?", const=POSTGRES)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        measure(Path(folder) / "games.sqlite3", args.games)
    if args.postgres:
        with scratch_postgres(args.postgres) as url:
            measure(url, args.games)


if __name__ == "__main__":
    main()
