"""Write benchmark: actions stored at once by several threads, as the web app's
database threads store its players' actions, with SQLite's group commit on and off.

    python bench/writes.py [--threads 4] [--games 40] [--rounds 5] [--postgres [URL]]

Each of ``--threads`` threads plays its own ``--games`` seeded two-player Yatzy games
through ``GameService.apply`` (the one write path of every front end: the action is
checked, stored and published before the call returns): roll, then score the best box,
round robin over its games so that a thread never waits for itself. The two ways run in
the same process, on SQLite files in a temporary folder, in ``--rounds`` alternating
rounds (each on a fresh file):

- *group*: today's store, whose saves that queue for SQLite's one writer are committed
  together (one sync to disk per group);
- *single*: the same store with one commit per save, as before.

Prints, per way, the median over rounds of actions/s and of the p50/p99 time of one
``apply`` (ms), and the ratio group/single of the actions/s. With ``--postgres`` the
same load runs once on a scratch PostgreSQL database (no group commit there: its
transactions commit side by side). Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from yatzy.app import GameService
from yatzy.core.actions import Roll, Score
from yatzy.core.rulesets import ruleset
from yatzy.storage import make_engine, upgrade
from yatzy.storage.repository import SqlGameRepository

YATZY = ruleset("yatzy")


def play(service: GameService, threads: int, games: int) -> tuple[float, list[float]]:
    """Actions/s and the times of every ``apply`` (s) of one load on ``service``."""
    ids = [[service.create(YATZY, ["Kim", "Bo"], seed=t * 1000 + g).id
            for g in range(games)] for t in range(threads)]
    times: list[list[float]] = [[] for _ in range(threads)]
    start_gate = threading.Barrier(threads + 1)

    def run(t: int) -> None:
        mine = times[t]
        states = {game_id: service.load(game_id).game for game_id in ids[t]}
        start_gate.wait()
        for _ in range(2 * 15):  # every box of one player... and the other's
            for game_id in ids[t]:
                game = states[game_id]
                if game.is_over:
                    continue
                action = Roll() if game.dice is None else Score(
                    max(game.choices(), key=lambda box: game.choices()[box]))
                began = time.perf_counter()
                game = service.apply(game_id, action).game
                mine.append(time.perf_counter() - began)
                states[game_id] = game

    workers = [threading.Thread(target=run, args=(t,)) for t in range(threads)]
    for worker in workers:
        worker.start()
    start_gate.wait()
    began = time.perf_counter()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - began
    flat = [x for mine in times for x in mine]
    return len(flat) / elapsed, flat


def on(db: str | Path, *, group: bool, threads: int, games: int) -> tuple[float, list[float]]:
    engine = make_engine(db)
    upgrade(engine)
    with GameService(SqlGameRepository(engine, group_commit=group)) as service:
        return play(service, threads, games)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--games", type=int, default=40, help="games per thread")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--postgres", nargs="?", const="", default=None, metavar="URL")
    args = parser.parse_args()

    found: dict[str, list[tuple[float, float, float]]] = {"group": [], "single": []}
    with tempfile.TemporaryDirectory(prefix="yatzy-bench-writes-") as folder:
        for number in range(args.rounds):
            for way in (("group", "single") if number % 2 == 0 else ("single", "group")):
                db = Path(folder) / f"{way}-{number}.sqlite3"
                rate, times = on(db, group=way == "group", threads=args.threads,
                                 games=args.games)
                found[way].append((rate, 1e3 * pct(times, 50), 1e3 * pct(times, 99)))
    print(f"yatzy write benchmark: {args.threads} threads x {args.games} games, "
          f"{args.rounds} rounds per way, SQLite file (WAL, synchronous=FULL); "
          f"os.cpu_count() = {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}")
    print("| store          | actions/s | apply p50 ms | apply p99 ms |")
    print("|----------------|-----------|--------------|--------------|")
    medians = {}
    for way, rows in found.items():
        rate = statistics.median(r[0] for r in rows)
        medians[way] = rate
        print(f"| SQLite {way:<7} | {rate:9.0f} | "
              f"{statistics.median(r[1] for r in rows):12.2f} | "
              f"{statistics.median(r[2] for r in rows):12.2f} |")
    if args.postgres is not None:
        def run_pg(url: str) -> None:
            rate, times = on(url, group=True, threads=args.threads, games=args.games)
            print(f"| PostgreSQL     | {rate:9.0f} | {1e3 * pct(times, 50):12.2f} | "
                  f"{1e3 * pct(times, 99):12.2f} |")
        if args.postgres:
            run_pg(args.postgres)
        else:
            sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
            from tests.services import postgres_database

            with postgres_database() as url:
                run_pg(url)
    print(f"ratio of actions/s, group commit / one commit per save: "
          f"{medians['group'] / medians['single']:.2f}")


if __name__ == "__main__":
    main()
