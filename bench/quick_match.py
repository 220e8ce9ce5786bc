"""Quick-match benchmark: many players ask for a quick match at once and are paired.

    python bench/quick_match.py [--players 1000] [--threads 16] [--postgres [URL]]

Every player has a display name (made before the clock starts). Then every player sends
their request at the same moment, and each does what the quick-match page does: its
request (``QuickMatch.request``, the work behind ``POST /api/quick-match``), then at
once a question about its ticket (``QuickMatch.status``, as ``GET
/api/quick-match/{ticket}``), and another one second after each answer "waiting", until
one says "matched". The requests and questions are served by ``--threads`` threads, as
a server's request threads, in the order they come (first come, first served): all the
requests first, as they were sent at once, each question behind them.

A player's *time to be matched* runs from the moment they sent their request to the
answer of the question that told them "matched" (their game stored, their seat link in
the answer): the p50/p99/max of it is what a player waits. Also printed: the same from
the moment a thread took their request (the server's own time, without the wait for a
free thread), the time of one request and of one question, the questions asked, the
process's CPU time from the requests sent to the last player told (all threads: the
figure that moves least with the machine's other load), and the pairs made (each
ticket checked to be in exactly one game of two, every game loaded).
On a SQLite file by default; with ``--postgres`` on a scratch PostgreSQL database. Not
part of ``make test``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from yatzy.app import GameService
from yatzy.app.access import token_hash
from yatzy.bootstrap import open_service

#: Seconds between a "waiting" answer and the page's next question (quickmatch.js).
POLL = 1.0
#: Seconds after which the run gives up on players not matched yet.
GIVE_UP = 120.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(service: GameService, players: int, threads: int) -> None:
    keys = [f"bench-player-{n:06d}-abcdefghijklmnop" for n in range(players)]
    for n, key in enumerate(keys):
        service.players.set_name(key, f"Player {n}")
    tickets: dict[int, str] = {}
    taken: dict[int, float] = {}  # when a thread took the player's request
    seen: dict[int, float] = {}  # when a question's answer said "matched"
    took: list[float] = []
    asked: list[float] = []
    lock = threading.Lock()
    finished = threading.Event()
    pool = ThreadPoolExecutor(max_workers=threads)
    timers: list[threading.Timer] = []

    def matched(n: int) -> None:
        with lock:
            seen[n] = time.perf_counter()
            if len(seen) == players:
                finished.set()

    def question(n: int) -> None:
        begin = time.perf_counter()
        status = service.matches.status(keys[n], tickets[n]).status
        with lock:
            asked.append(time.perf_counter() - begin)
        if status == "matched":
            matched(n)
        elif not finished.is_set():
            timer = threading.Timer(POLL, pool.submit, (question, n))
            with lock:
                timers.append(timer)
            timer.start()

    def request(n: int) -> None:
        begin = time.perf_counter()
        taken[n] = begin
        tickets[n] = service.matches.request(keys[n], "yatzy")
        with lock:
            took.append(time.perf_counter() - begin)
        pool.submit(question, n)

    sent, cpu = time.perf_counter(), time.process_time()
    for n in range(players):
        pool.submit(request, n)
    all_seen = finished.wait(GIVE_UP)
    cpu = time.process_time() - cpu
    for timer in timers:
        timer.cancel()
    pool.shutdown(wait=True)
    repo = service.matches._repo  # reading the tickets back
    games: dict[str, list[int]] = {}
    for n, ticket in tickets.items():
        found = repo.ticket(token_hash(ticket))
        if found is not None and found.status == "matched":
            assert found.game_id is not None
            games.setdefault(found.game_id, []).append(n)
    assert all(len(pair) == 2 for pair in games.values()), "a game of other than two tickets"
    for game_id in games:
        service.load(game_id)  # every pairing's game is stored
    waited = [1000 * (seen[n] - sent) for n in seen]
    served = [1000 * (seen[n] - taken[n]) for n in seen]
    req = [1000 * t for t in took]
    polls = [1000 * t for t in asked]
    print(f"{players} players, {threads} threads: {len(games)} games, "
          f"{players - len(seen)} not told (all told: {all_seen}), {len(asked)} questions; "
          f"the last told after {max(waited) / 1000:.2f} s, {cpu:.2f} s of CPU "
          f"({1000 * cpu / players:.2f} ms a player)")
    print(f"time to be matched, from the request sent: p50 {percentile(waited, 0.5):.0f} ms, "
          f"p99 {percentile(waited, 0.99):.0f} ms, max {max(waited):.0f} ms, "
          f"mean {statistics.fmean(waited):.0f} ms")
    print(f"from the request taken by a thread: p50 {percentile(served, 0.5):.0f} ms, "
          f"p99 {percentile(served, 0.99):.0f} ms, max {max(served):.0f} ms")
    print(f"one request: p50 {percentile(req, 0.5):.1f} ms, p99 {percentile(req, 0.99):.1f} ms;"
          f" one question: p50 {percentile(polls, 0.5):.1f} ms, "
          f"p99 {percentile(polls, 0.99):.1f} ms")


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
