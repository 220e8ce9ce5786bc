"""Quick-match benchmark: many players ask for a quick match at once and are paired.

    python bench/quick_match.py [--players 1000] [--threads 16] [--postgres [URL]]
    python bench/quick_match.py --http [--workers N] [--players 1000] [--postgres [URL]]

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
On a SQLite file by default; with ``--postgres`` on a scratch PostgreSQL database.

With ``--http`` the same players are web clients of a real ``yatzy serve`` (``--workers
N`` processes, no rate limit, SQLite or ``--postgres``) started by the run, as a browser
plays them: each has its own connection and sends ``POST /api/quick-match``; unless its
answer says "matched" already, ``GET /api/quick-match/{ticket}`` at once and one second
after each "waiting" answer (as ``quickmatch.js``). The clients run in another process
on the same machine (asyncio, uvloop when installed, one light HTTP/1.1 connection each:
0.08 s of CPU for the crowd, against about 1 s with httpx, which took a core from the
server), and the server's CPU for the crowd (its processes together) is printed too.
Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

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


# --- Over HTTP, against a real server --------------------------------------------------


def tree_cpu(pid: int) -> float:
    """CPU seconds (user and system) of process ``pid`` and its children so far."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    tree, total = {pid}, 0.0
    for _ in range(4):  # the server, its workers and theirs
        tree |= {child for child, parent in parents.items() if parent in tree}
    for member in tree:
        total += times.get(member, 0.0)
    return total


def http_clients(url: str, players: int, pipe: Any, ready: Any, go: Any) -> None:
    """The players as web clients (in their own process): names first, then every
    request at once; the figures go up ``pipe``."""
    import asyncio

    import httpx2 as httpx
    from light_http import Connection

    async def play() -> dict[str, Any]:
        keys = [f"bench-player-{n:06d}-abcdefghijklmnop" for n in range(players)]
        limits = httpx.Limits(max_connections=players + 10, max_keepalive_connections=players)
        timeout = httpx.Timeout(GIVE_UP)
        async with httpx.AsyncClient(base_url=url, limits=limits, timeout=timeout,
                                     trust_env=False) as setup:
            gate = asyncio.Semaphore(16)

            async def name(n: int) -> None:
                async with gate:
                    answer = await setup.put("/api/me", json={"name": f"Player {n}"},
                                             headers={"X-Player-Key": keys[n]})
                    answer.raise_for_status()

            await asyncio.gather(*(name(n) for n in range(players)))
        # One connection a player, opened before the clock starts (a browser on the
        # home page has its connection already).
        clients = [Connection(url) for _ in range(players)]
        await asyncio.gather(*(c.open() for c in clients))
        start_gate = asyncio.Event()
        sent: dict[int, float] = {}
        seen: dict[int, float] = {}
        game_of: dict[int, str] = {}
        took: list[float] = []
        asked: list[float] = []
        errors: dict[str, int] = {}

        async def player(n: int) -> None:
            client, headers = clients[n], {"X-Player-Key": keys[n]}
            await start_gate.wait()
            sent[n] = time.perf_counter()
            status, body = await client.request("POST", "/api/quick-match", headers,
                                                {"rules": "yatzy"})
            took.append(time.perf_counter() - sent[n])
            if status != 202:
                errors[f"POST {status}"] = errors.get(f"POST {status}", 0) + 1
                return
            answer = json.loads(body)
            if answer["status"] == "matched":  # as the page: to the game at once
                seen[n] = time.perf_counter()
                game_of[n] = answer["game"]
                return
            ticket = answer["ticket"]
            while time.perf_counter() - sent[n] < GIVE_UP:
                begin = time.perf_counter()
                status, body = await client.request("GET", f"/api/quick-match/{ticket}",
                                                    headers)
                asked.append(time.perf_counter() - begin)
                if status != 200:
                    errors[f"GET {status}"] = errors.get(f"GET {status}", 0) + 1
                elif (answer := json.loads(body))["status"] == "matched":
                    seen[n] = time.perf_counter()
                    game_of[n] = answer["game"]
                    return
                await asyncio.sleep(POLL)

        tasks = [asyncio.ensure_future(player(n)) for n in range(players)]
        await asyncio.sleep(0.5)  # every player at the gate
        ready.set()  # the server's CPU is read now
        while not go.is_set():
            await asyncio.sleep(0.01)
        cpu = time.process_time()
        start_gate.set()
        await asyncio.gather(*tasks)
        cpu = time.process_time() - cpu
        ready.set()  # and again now
        for c in clients:
            c.close()
        return {"sent": sent, "seen": seen, "game_of": game_of, "took": took, "asked": asked,
                "errors": errors, "client_cpu": cpu}

    try:
        import uvloop

        result = uvloop.run(play())
    except ImportError:
        result = asyncio.run(play())
    pipe.send(result)
    pipe.close()


def run_http(players: int, workers: int, db: str) -> None:
    import multiprocessing
    import socket
    import subprocess

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    script = Path(sys.executable).with_name("yatzy")
    command = [str(script), "serve", "--port", str(port), "--db", db, "--rate", "0",
               "--pace", "0", "--workers", str(workers)]
    with tempfile.TemporaryDirectory() as folder:
        log = (Path(folder) / "server.log").open("wb")
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, cwd=folder,
                                  env={**os.environ, "YATZY_REDIS_URL": ""})
        try:
            import httpx2 as httpx

            for _ in range(600):
                try:
                    if httpx.get(f"{url}/readyz", trust_env=False).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                time.sleep(0.1)
            context = multiprocessing.get_context("spawn")
            receive, send = context.Pipe(duplex=False)
            ready, go = context.Event(), context.Event()
            clients = context.Process(target=http_clients,
                                      args=(url, players, send, ready, go))
            clients.start()
            send.close()
            ready.wait(GIVE_UP * 2)
            ready.clear()
            server_cpu = tree_cpu(server.pid)
            go.set()
            ready.wait(GIVE_UP * 2)
            server_cpu = tree_cpu(server.pid) - server_cpu
            result = receive.recv()
            clients.join(30)
        finally:
            server.terminate()
            server.wait(30)
            log.close()
    sent, seen = result["sent"], result["seen"]
    players_of: dict[str, int] = {}
    for game in result["game_of"].values():
        players_of[game] = players_of.get(game, 0) + 1
    assert all(count == 2 for count in players_of.values()), "a game of other than two"
    first = min(sent.values())
    waited = [1000 * (seen[n] - sent[n]) for n in seen]
    req = [1000 * t for t in result["took"]]
    polls = [1000 * t for t in result["asked"]]
    print(f"{players} players over HTTP, {workers} server process(es): {len(players_of)} "
          f"games (two players each), {players - len(seen)} not told, {len(polls)} "
          f"questions, errors {result['errors'] or 0}; the last told "
          f"{(max(seen.values()) - first):.2f} s after the first request; "
          f"CPU for the crowd: server {server_cpu:.2f} s, "
          f"clients {result['client_cpu']:.2f} s")
    print(f"time to be matched, from the request sent: p50 {percentile(waited, 0.5):.0f} ms, "
          f"p99 {percentile(waited, 0.99):.0f} ms, max {max(waited):.0f} ms, "
          f"mean {statistics.fmean(waited):.0f} ms")
    print(f"one request: p50 {percentile(req, 0.5):.1f} ms, p99 {percentile(req, 0.99):.1f} ms;"
          f" one question: p50 {percentile(polls, 0.5):.1f} ms, "
          f"p99 {percentile(polls, 0.99):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--postgres", nargs="?", const=os.environ.get(
        "YATZY_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"))
    parser.add_argument("--http", action="store_true",
                        help="the players as web clients of a real yatzy serve")
    parser.add_argument("--workers", type=int, default=1,
                        help="with --http: the server's processes (default 1)")
    args = parser.parse_args()
    if args.http:
        if args.postgres:
            sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
            os.environ["YATZY_TEST_POSTGRES"] = args.postgres
            from tests.services import postgres_database

            with postgres_database() as url:
                print(f"PostgreSQL ({args.postgres})")
                run_http(args.players, args.workers, url)
            return
        with tempfile.TemporaryDirectory() as folder:
            print("SQLite")
            run_http(args.players, args.workers, str(Path(folder) / "games.sqlite3"))
        return
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
