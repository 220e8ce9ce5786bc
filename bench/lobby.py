"""The lobby's cost: ``GET /api/lobby`` on a site with many games.

    python bench/lobby.py [--waiting 20] [--live 20] [--private 1000] [--requests 300]
                          [--postgres [URL]]

Starts a real server (``yatzy serve`` on 127.0.0.1, a free port, a fresh SQLite file in
a temporary folder, or ``--postgres``: a scratch database on the local server, dropped
afterwards; ``--rate 0``), then over HTTP, as browsers do:

- opens ``--waiting`` public tables with a free seat (``POST /api/games`` with
  ``"public": true`` and an open seat), which the lobby lists as waiting;
- opens ``--live`` public tables and fills them (``POST /api/games/{id}/join``) and makes
  a move in each, which the lobby lists as games to watch;
- creates ``--private`` private two-seat games with a move each, which the lobby must
  not list (nor read: the query asks for public tables only).

Then it asks ``GET /api/lobby`` ``--requests`` times, one after another from one client,
and prints the median, p90, p99 and max of the answer's time, the answer's size and what
it listed (checked: the waiting and live tables it holds are ours, at most twenty of
each). Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from web import HOST, free_port, server_command, stop, wait_healthy


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@contextlib.contextmanager
def database(postgres: str | None, folder: Path) -> Iterator[Path | str]:
    if postgres is None:
        yield folder / "games.sqlite3"
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    if postgres:
        os.environ["YATZY_TEST_POSTGRES"] = postgres
    from tests.services import postgres_database

    with postgres_database() as url:
        yield url


def fill(client: httpx.Client, waiting: int, live: int, private: int) -> None:
    """The site's games (see the module)."""
    def create(body: dict[str, object]) -> dict[str, object]:
        answer = client.post("/api/games", json=body)
        answer.raise_for_status()
        created: dict[str, object] = answer.json()
        return created

    def roll(created: dict[str, object]) -> None:
        seats = created["seats"]
        assert isinstance(seats, list)
        token = seats[0]["token"]
        version = client.get(f"/api/games/{created['id']}").json()["version"]
        answer = client.post(f"/api/games/{created['id']}/actions",
                             json={"type": "roll", "expected_version": version},
                             headers={"Authorization": f"Bearer {token}"})
        answer.raise_for_status()

    for n in range(waiting):
        create({"rules": "yatzy", "public": True,
                "seats": [{"name": f"Host {n}"}, {"open": True}]})
    for n in range(live):
        created = create({"rules": "yatzy", "public": True,
                          "seats": [{"name": f"Ann {n}"}, {"open": True}]})
        joined = client.post(f"/api/games/{created['id']}/join", json={"name": f"Bo {n}"})
        joined.raise_for_status()
        roll(created)
    for n in range(private):
        roll(create({"rules": "yatzy", "seats": [{"name": f"Kim {n}"}, {"name": "Lo"}]}))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--waiting", type=int, default=20, help="public tables waiting (20)")
    parser.add_argument("--live", type=int, default=20, help="public games in play (20)")
    parser.add_argument("--private", type=int, default=1000, help="private games (1000)")
    parser.add_argument("--requests", type=int, default=300, help="lobby requests (300)")
    parser.add_argument("--postgres", nargs="?", const="", default=None, metavar="URL",
                        help="a scratch database on this PostgreSQL server")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name, database(args.postgres, Path(name)) as db:
        port = free_port()
        url = f"http://{HOST}:{port}"
        server = subprocess.Popen(server_command(port, db), cwd=name,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_healthy(url, server, 120)
            with httpx.Client(base_url=url, timeout=30, trust_env=False) as client:
                start = time.perf_counter()
                fill(client, args.waiting, args.live, args.private)
                made = time.perf_counter() - start
                times: list[float] = []
                body = client.get("/api/lobby").json()  # the first one warms up
                size = 0
                for _ in range(args.requests):
                    begin = time.perf_counter()
                    answer = client.get("/api/lobby")
                    times.append(1000 * (time.perf_counter() - begin))
                    answer.raise_for_status()
                    size = len(answer.content)
                    body = answer.json()
        finally:
            stop(server)
    waiting, live = len(body["waiting"]), len(body["live"])
    assert waiting == min(20, args.waiting), waiting
    assert live == min(20, args.live), live
    assert all(t["name"] is None or t["name"].startswith("Host")
               for table in body["waiting"] for t in table["seats"] if not t["bot"])
    kind = "PostgreSQL" if args.postgres is not None else "SQLite"
    print(f"{kind}: {args.waiting} waiting, {args.live} live and {args.private} private "
          f"games (made in {made:.1f} s); the lobby lists {waiting} waiting and {live} live")
    print(f"GET /api/lobby, {args.requests} requests: median "
          f"{statistics.median(times):.1f} ms, p90 {percentile(times, 0.9):.1f} ms, "
          f"p99 {percentile(times, 0.99):.1f} ms, max {max(times):.1f} ms; "
          f"{size:,} bytes an answer")
    return 0


if __name__ == "__main__":
    sys.exit(main())
