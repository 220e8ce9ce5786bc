"""The limits on one client hold across server processes that share a Redis: a client
that used up its requests or its games through process A is refused through process B
too (two real `yatzy serve` processes on PostgreSQL and Redis). And a server whose Redis
does not answer goes on serving: each limit is counted in its memory, nothing fails.

Needs ``$YATZY_TEST_REDIS`` and PostgreSQL (``tests/services.py``) for the first part.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
import socket
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.services import postgres_database, redis_url
from tests.web.server import free_port, start
from yatzy.app.policy import TablePolicy
from yatzy.bootstrap import open_service
from yatzy.storage.redis_limits import RedisLimits
from yatzy.web.app import Settings, create_app

NEW_GAME = {"rules": "yatzy", "seats": [{"name": "Ann"}, {"name": "Bo"}]}


def client_address() -> str:
    """An address of this test's own (behind the trusted proxy the test plays): the
    counts of earlier runs and other tests in the shared Redis are not its."""
    return f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"


@contextmanager
def two_servers(tmp_path: Path, *args: str) -> Iterator[tuple[str, str]]:
    url = redis_url()
    with postgres_database() as db:
        ports = free_port(), free_port()

        def start_one(name: str, port: int) -> subprocess.Popen[bytes]:
            return start(db, port, "--redis", url, *args, log=tmp_path / f"server-{name}.log",
                         env={"FORWARDED_ALLOW_IPS": "127.0.0.1"})

        # Both at once: a server takes seconds to start on a busy machine.
        with ThreadPoolExecutor(2) as pool:
            starting = [pool.submit(start_one, name, port)
                        for name, port in zip("AB", ports, strict=True)]
        processes = [f.result() for f in starting if f.exception() is None]
        try:
            for future in starting:
                future.result()  # a server that did not start: its error
            yield f"http://127.0.0.1:{ports[0]}", f"http://127.0.0.1:{ports[1]}"
        finally:
            for process in processes:
                process.kill()
                process.wait(timeout=10)


def test_a_client_s_requests_and_games_are_counted_across_processes(tmp_path: Path) -> None:
    with two_servers(tmp_path, "--rate", "0.1") as (a, b), \
            httpx.Client(timeout=10) as http:
        # Requests: a burst of 60, a new one every 10 s. Used up through A...
        them = {"X-Forwarded-For": client_address()}
        codes = []
        while 429 not in codes and len(codes) < 100:
            codes.append(http.get(f"{a}/api/games/none", headers=them).status_code)
        assert codes[-1] == 429 and set(codes[:-1]) == {404}
        assert 60 <= len(codes) <= 62  # a token more when the machine took 10 s for them
        # ...they are used up through B, which this client never asked (B's own bucket
        # would take 60; the site's may have filled with one more token meanwhile).
        through_b = [http.get(f"{b}/api/games/none", headers=them) for _ in range(5)]
        assert [r.status_code for r in through_b].count(429) >= 4
        assert through_b[-1].json()["error"]["code"] == "rate_limited"
        assert http.get(f"{b}/api/games/none", headers={
            "X-Forwarded-For": client_address()}).status_code == 404  # another client

        # Games: 30 in ten minutes. Started through A, then B refuses the 31st.
        them = {"X-Forwarded-For": client_address()}
        for _ in range(30):
            assert http.post(f"{a}/api/games", json=NEW_GAME, headers=them).status_code == 201
        refused = http.post(f"{b}/api/games", json=NEW_GAME, headers=them)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_games"
        assert 590 <= int(refused.headers["Retry-After"]) <= 601


@contextmanager
def port_nobody_listens_on() -> Iterator[int]:
    with socket.socket() as bound:
        bound.bind(("127.0.0.1", 0))
        yield bound.getsockname()[1]


def test_a_server_whose_redis_is_lost_counts_in_memory_and_fails_nothing(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with port_nobody_listens_on() as port, caplog.at_level(logging.WARNING):
        shared = RedisLimits(f"redis://127.0.0.1:{port}/0")
        app = create_app(open_service(tmp_path / "g.sqlite3"),
                         Settings(pace=0, rate=0.01, burst=3, prepare=()), shared=shared)
        with TestClient(app) as client:
            codes = [client.get("/api/games/none").status_code for _ in range(5)]
    assert codes == [404, 404, 404, 429, 429]
    lost = [r for r in caplog.records if r.name == "yatzy.app.limits"]
    assert len(lost) == 1 and "do not answer" in lost[0].getMessage()


@contextmanager
def redis_that_hangs() -> Iterator[tuple[int, list[socket.socket]]]:
    """A port where connections are taken and never answered (a Redis stuck, or a
    network that drops every answer): its number and the connections taken."""
    taken: list[socket.socket] = []
    stop = threading.Event()
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(64)
        listening.settimeout(0.05)

        def take() -> None:
            while not stop.is_set():
                try:
                    taken.append(listening.accept()[0])
                except TimeoutError:
                    continue

        thread = threading.Thread(target=take, daemon=True)
        thread.start()
        try:
            yield listening.getsockname()[1], taken
        finally:
            stop.set()
            thread.join(timeout=5)
            for connection in taken:
                connection.close()


async def _serve_while_redis_hangs(app: FastAPI, seconds: float) -> dict[str, Any]:
    """Serve ``app`` with uvicorn on this loop for ``seconds``, four clients asking
    for a game by id (rate-limited), a fifth starting games (games per client), while a
    probe measures how late the loop wakes it (every 10 ms): what was seen."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    serving = asyncio.create_task(server.serve())
    while not server.started:
        assert not serving.done(), "the server did not start"
        await asyncio.sleep(0.01)
    lags: list[float] = []
    seen: dict[str, Any] = {"codes": [], "seconds": []}
    until = time.monotonic() + seconds

    async def probe() -> None:
        while time.monotonic() < until:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - before - 0.01)

    async def client(ask: Callable[[httpx.AsyncClient], Awaitable[httpx.Response]]) -> None:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}",
                                     timeout=30) as http:
            while time.monotonic() < until:
                began = time.perf_counter()
                answer = await ask(http)
                seen["seconds"].append(time.perf_counter() - began)
                seen["codes"].append(answer.status_code)

    try:
        await asyncio.gather(
            probe(), *(client(lambda http: http.get("/api/games/none")) for _ in range(4)),
            client(lambda http: http.post("/api/games", json=NEW_GAME)))
    finally:
        server.should_exit = True
        await serving
    seen["lags"] = lags
    return seen


def test_a_redis_that_hangs_holds_up_no_other_request(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Redis takes the connections and never answers (each command times out after
    3 s): the server's event loop never waits for it. The loop wakes on time while
    five clients keep asking, each of them answered (a request waits at most
    :data:`~yatzy.app.limits.DEADLINE` for the shared limits, then counts in memory)."""
    with redis_that_hangs() as (port, taken), caplog.at_level(logging.WARNING):
        shared = RedisLimits(f"redis://127.0.0.1:{port}/0", timeout=3.0)
        app = create_app(open_service(tmp_path / "g.sqlite3"),
                         Settings(pace=0, rate=1000, burst=10_000, prepare=(),
                                  policy=TablePolicy(games_per_window=10_000)),
                         shared=shared)
        # As `yatzy serve` does: what exists is out of the collector's way (a full
        # collection of the tests' heap would pause the loop as Redis would).
        gc.collect()
        gc.freeze()
        try:
            seen = asyncio.run(_serve_while_redis_hangs(app, 6.0))
        finally:
            gc.unfreeze()
    lags, codes, seconds = seen["lags"], seen["codes"], seen["seconds"]
    lags.sort()
    print(f"\nRedis hanging: {len(codes)} requests answered in 6 s, slowest "
          f"{max(seconds) * 1000:.0f} ms; the loop's lag p50 {lags[len(lags) // 2] * 1000:.1f}"
          f" ms, p99 {lags[int(len(lags) * 0.99)] * 1000:.1f} ms, max {lags[-1] * 1000:.0f} ms "
          f"({len(taken)} connections to the hanging Redis)")
    assert taken, "Redis was asked"
    assert set(codes) <= {201, 404} and 201 in codes and 404 in codes, set(codes)
    assert len(codes) > 50
    # Asking Redis on the loop would stall it for the command's whole timeout (3 s)
    # at least once every pause (2 s); off the loop it wakes on time (a machine busy
    # with other work may be late by some tens, seldom hundreds of milliseconds).
    assert lags[-1] < 1.5, lags[-1]
    assert max(seconds) < 2.5  # the deadline (0.5 s), not Redis's timeout
    lost = [r for r in caplog.records if r.name == "yatzy.app.limits"]
    assert lost and "do not answer" in lost[0].getMessage()
