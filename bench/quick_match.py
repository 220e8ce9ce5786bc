"""Quick-match benchmark: many players ask for a quick match at once and are paired.

    python bench/quick_match.py [--players 1000] [--threads 16] [--postgres [URL]]

Every player has a display name (made before the clock starts). Then ``--threads``
threads, as a server's request threads, make every player's request
(``QuickMatch.request``, the work behind ``POST /api/quick-match``: the ticket stored,
the nearest waiting ticket paired in one transaction, the game created and its seats
claimed) all at once; a ticket still waiting afterwards is asked about once a second
(``QuickMatch.status``, as the page polls ``GET /api/quick-match/{ticket}``) until it is
paired. A player's *time to be matched* runs from the start of their request to the
answer of the request (or poll) that paired them, their game stored. Prints p50/p99/max
of it, the same counted from the moment everyone asked (so with the time a request waits
for a free thread: the queue of a server that gets 1,000 requests at once), the time of
one request, and the pairs made (each ticket checked to be in exactly one game of two).
On a SQLite file by default; with ``--postgres`` on a scratch PostgreSQL database.
Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from yatzy.app import GameService
from yatzy.app.access import token_hash
from yatzy.bootstrap import open_service


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(service: GameService, players: int, threads: int) -> None:
    keys = [f"bench-player-{n:06d}-abcdefghijklmnop" for n in range(players)]
    for n, key in enumerate(keys):
        service.players.set_name(key, f"Player {n}")
    tickets: dict[int, str] = {}
    started: dict[int, datetime] = {}
    #: When a player's request, or the poll that paired them, was answered.
    answered: dict[int, datetime] = {}
    took: list[float] = []
    gate = threading.Barrier(threads + 1)
    lock = threading.Lock()

    def work(part: int) -> None:
        gate.wait()
        for n in range(part, players, threads):
            started[n] = datetime.now(UTC)
            begin = time.perf_counter()
            ticket = service.matches.request(keys[n], "yatzy")
            spent = time.perf_counter() - begin
            answered[n] = datetime.now(UTC)
            with lock:
                tickets[n] = ticket
                took.append(spent)

    workers = [threading.Thread(target=work, args=(p,)) for p in range(threads)]
    for worker in workers:
        worker.start()
    gate.wait()
    at_once = datetime.now(UTC)
    begin = time.perf_counter()
    for worker in workers:
        worker.join()
    asked = time.perf_counter() - begin
    repo = service.matches._repo  # reading the tickets back
    polls = 0
    waiting = [n for n in tickets if repo.ticket(token_hash(tickets[n])).status == "waiting"]
    while len(waiting) > 1:  # an odd player out waits on
        time.sleep(1.0)
        for n in waiting:
            if service.matches.status(keys[n], tickets[n]).status == "matched":
                answered[n] = datetime.now(UTC)
            polls += 1
        waiting = [n for n in waiting
                   if repo.ticket(token_hash(tickets[n])).status == "waiting"]
    games: dict[str, list[int]] = {}
    for n, ticket in tickets.items():
        found = repo.ticket(token_hash(ticket))
        if found.status == "matched":
            assert found.game_id is not None
            games.setdefault(found.game_id, []).append(n)
    assert all(len(pair) == 2 for pair in games.values()), "a game of other than two tickets"
    # A pair's game is ready when the later of its two answers came: the one that
    # paired them (its game stored before it answered).
    matched: list[float] = []
    since_start: list[float] = []
    for pair in games.values():
        ready = max(answered[n] for n in pair)
        for n in pair:
            matched.append((ready - started[n]).total_seconds())
            since_start.append((ready - at_once).total_seconds())
    for game_id in games:
        service.load(game_id)  # every pairing's game is stored
    ms = [1000 * t for t in matched]
    whole = [1000 * t for t in since_start]
    req = [1000 * t for t in took]
    print(f"{players} players, {threads} threads: {len(games)} games, "
          f"{len(tickets) - len(matched)} left waiting, {polls} polls; "
          f"all requests in {asked:.2f} s")
    print(f"time to be matched: p50 {percentile(ms, 0.5):.0f} ms, "
          f"p99 {percentile(ms, 0.99):.0f} ms, max {max(ms):.0f} ms, "
          f"mean {statistics.fmean(ms):.0f} ms")
    print(f"counted from the moment all asked at once (queueing for the {threads} threads "
          f"too): p50 {percentile(whole, 0.5):.0f} ms, p99 {percentile(whole, 0.99):.0f} ms")
    print(f"one request: p50 {percentile(req, 0.5):.1f} ms, p99 {percentile(req, 0.99):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--postgres", nargs="?", const=os.environ.get(
        "YATZY_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"))
    args = parser.parse_args()
    if args.postgres:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        os.environ["YATZY_TEST_POSTGRES"] = args.postgres
        from tests.services import postgres_database

        with postgres_database() as url, open_service(url) as service:
            print(f"PostgreSQL ({args.postgres})")
            run(service, args.players, args.threads)
        return
    with tempfile.TemporaryDirectory() as folder, \
            open_service(Path(folder) / "games.sqlite3") as service:
        print("SQLite")
        run(service, args.players, args.threads)


if __name__ == "__main__":
    main()
