"""How soon a lobby page hears of a change: the lobby's websocket (``/ws/lobby``) on two
server processes of one database while a third party opens public tables and fills them.

    python bench/lobby_push.py [--tables 30] [--redis [URL]]

Starts two real servers (``yatzy serve``, 127.0.0.1, free ports, one fresh SQLite file,
``--pace 0 --rate 0``; with ``--redis``, the change feed through Redis too), opens a
lobby socket on each, and ``--tables`` times: opens a public table of two seats through
server A (``POST /api/games``), then takes its last seat through A (``POST …/join``).
For each change it times, from the HTTP answer, when each socket received the lobby
that shows it (the table waiting; the table gone live): the socket on A hears it from
its own process, the socket on B from the other process (the store's change log, read
every quarter second, or Redis). Prints p50, p90 and max per socket and change, and
B's median against A's. The old page read ``GET /api/lobby`` every 4 s: on average a
change showed 2 s late, at worst 4 s. Traffic goes to 127.0.0.1 only; the servers and
the temporary folder are removed at the end. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import httpx2 as httpx
from tests.web.server import free_port, start
from websockets.asyncio.client import connect

#: Seconds a change may take before the run counts it as lost.
LIMIT = 10.0


class Watcher:
    """One lobby socket: each lobby it received, with when."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.seen: list[tuple[float, dict[str, Any]]] = []
        self.changed = asyncio.Event()

    async def run(self, ready: asyncio.Event) -> None:
        async with connect(self.url) as socket:
            async for text in socket:
                message = json.loads(text)
                if message.get("type") == "lobby":
                    self.seen.append((time.perf_counter(), message["lobby"]))
                    self.changed.set()
                    ready.set()

    async def until(self, test: Any, since: float) -> float:
        """Seconds from ``since`` to the first lobby received after it that passes
        ``test``."""
        deadline = since + LIMIT
        while True:
            for when, lobby in self.seen:
                if when >= since and test(lobby):
                    return when - since
            self.changed.clear()
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError("no lobby within the limit")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)


def waiting(game_id: str) -> Any:
    return lambda lobby: any(t["id"] == game_id for t in lobby["waiting"])


def live(game_id: str) -> Any:
    return lambda lobby: (any(g["id"] == game_id for g in lobby["live"])
                          and not any(t["id"] == game_id for t in lobby["waiting"]))


async def measure(bases: list[str], tables: int) -> dict[tuple[str, str], list[float]]:
    watchers = [Watcher(base.replace("http", "ws") + "/ws/lobby") for base in bases]
    tasks = []
    for watcher in watchers:
        ready = asyncio.Event()
        tasks.append(asyncio.create_task(watcher.run(ready)))
        await asyncio.wait_for(ready.wait(), 30)
    times: dict[tuple[str, str], list[float]] = {}
    async with httpx.AsyncClient(base_url=bases[0], timeout=30) as client:
        for n in range(tables):
            body = {"rules": "yatzy", "public": True,
                    "seats": [{"name": f"Ann{n}"}, {"open": True}]}
            answer = await client.post("/api/games", json=body)
            since = time.perf_counter()
            answer.raise_for_status()
            game_id = answer.json()["id"]
            for name, watcher in zip("AB", watchers, strict=True):
                times.setdefault((name, "opened"), []).append(
                    await watcher.until(waiting(game_id), since))
            answer = await client.post(f"/api/games/{game_id}/join", json={"name": f"Bo{n}"})
            since = time.perf_counter()
            answer.raise_for_status()
            for name, watcher in zip("AB", watchers, strict=True):
                times.setdefault((name, "joined"), []).append(
                    await watcher.until(live(game_id), since))
    for task in tasks:
        task.cancel()
    return times


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--redis", nargs="?", const="redis://127.0.0.1:6379/0", default=None,
                        metavar="URL")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "games.sqlite3"
        extra = ("--rate", "0") + (("--redis", args.redis) if args.redis else ())
        ports = [free_port(), free_port()]
        servers = [start(db, port, *extra, log=Path(folder) / f"serve-{port}.log")
                   for port in ports]
        try:
            times = asyncio.run(measure([f"http://127.0.0.1:{p}" for p in ports],
                                        args.tables))
        finally:
            for server in servers:
                server.kill()
                server.wait(timeout=10)
    feed = "Redis and the change log" if args.redis else "the store's change log"
    print(f"{args.tables} public tables opened and filled through server A; lobby sockets "
          f"on A and on B (B hears through {feed})")
    print(f"{'socket':8} {'change':8} {'p50':>10} {'p90':>10} {'max':>10}")
    for (name, change), found in sorted(times.items()):
        found.sort()
        p90 = found[min(len(found) - 1, int(0.9 * len(found)))]
        print(f"{name:8} {change:8} {ms(statistics.median(found))} {ms(p90)} "
              f"{ms(found[-1])}")
    for change in ("opened", "joined"):
        a = statistics.median(times[("A", change)])
        b = statistics.median(times[("B", change)])
        print(f"{change}: B's median / A's median = {b / a:.1f}")
    print("polling GET /api/lobby every 4 s (the page before): 2,000 ms on average, "
          "4,000 ms at worst")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
