"""Two `yatzy serve` processes on one PostgreSQL database and one Redis: a move made
through process B reaches a websocket watcher on process A within milliseconds (200
moves, their latency measured), and when Redis is lost mid-game (its connections killed,
or the server killed and started again) the watcher still sees every move, each once,
through the database, and moves travel through Redis again once it is back.

Needs ``$YATZY_TEST_REDIS`` and PostgreSQL (``tests/services.py``); the Redis that is
killed is a ``redis-server`` of the test's own, on a port of its own.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
import redis
from websockets.sync.client import connect

from tests.services import postgres_database, redis_url
from tests.web.server import free_port, launch, wait_ready

#: The order the test fills boxes in (Yatzy's fifteen).
BOXES = ("chance", "ones", "twos", "threes", "fours", "fives", "sixes", "one_pair",
         "two_pairs", "three_of_a_kind", "four_of_a_kind", "small_straight",
         "large_straight", "full_house", "yatzy")


class Watcher:
    """A websocket watching a game on one server: every state's version, when it came."""

    def __init__(self, url: str) -> None:
        self.versions: list[int] = []
        self.arrived: dict[int, float] = {}
        self._changed = threading.Condition()
        self._stack = ExitStack()
        self._socket = self._stack.enter_context(connect(url, open_timeout=10))
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for text in self._socket:
                message = json.loads(text)
                if message["type"] != "state":
                    continue
                version = message["state"]["version"]
                with self._changed:
                    self.versions.append(version)
                    self.arrived.setdefault(version, time.monotonic())
                    self._changed.notify_all()
        except Exception:
            return

    def wait_for(self, version: int, timeout: float) -> float:
        """When ``version`` arrived (waiting for it up to ``timeout`` seconds)."""
        with self._changed:
            if not self._changed.wait_for(lambda: version in self.arrived, timeout):
                raise AssertionError(f"version {version} not seen in {timeout} s "
                                     f"(seen {self.versions[-5:]})")
            return self.arrived[version]

    def close(self) -> None:
        self._stack.close()
        self._thread.join(timeout=5)


class Player:
    """Plays the seats of a two-seat game through one server: a roll, then a box."""

    def __init__(self, base: str, created: dict[str, Any]) -> None:
        self.client = httpx.Client(base_url=base, timeout=10)
        self.game_id = created["id"]
        self.tokens = {seat["name"]: seat["token"] for seat in created["seats"]}
        self.state: dict[str, Any] = self.client.get(f"/api/games/{self.game_id}").json()

    @property
    def over(self) -> bool:
        return bool(self.state["is_over"])

    def move(self) -> tuple[int, float]:
        """The next move (a roll, or the first open box of the order); returns the
        version it made and when it was sent."""
        player = self.state["current_player"]
        if self.state["dice"] is None:
            action: dict[str, Any] = {"type": "roll"}
        else:
            box = next(b for b in BOXES if b in self.state["choices"])
            action = {"type": "score", "box": box}
        sent = time.monotonic()
        response = self.client.post(
            f"/api/games/{self.game_id}/actions",
            json={**action, "expected_version": self.state["version"]},
            headers={"Authorization": f"Bearer {self.tokens[player]}"})
        assert response.status_code == 200, response.text
        self.state = response.json()
        return self.state["version"], sent


def new_game(base: str) -> dict[str, Any]:
    response = httpx.post(f"{base}/api/games", json={
        "rules": "yatzy", "seats": [{"name": "Ann"}, {"name": "Bo"}]}, timeout=10)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


@dataclass
class Server:
    """One `yatzy serve` of a test: its address and its process."""

    base: str
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def ws(self) -> str:
        return self.base.replace("http", "ws", 1)


@contextmanager
def servers(db: str, redis_at: str, logs: Path, *each: tuple[str, ...]
            ) -> Iterator[list[Server]]:
    """A server on ``db`` and Redis at ``redis_at`` for each tuple of ``each`` (its
    own arguments more, such as its ``--pace``), one after the other (a server loads
    the solver's tables as it starts: two at once would slow the first moves); named
    A, B, ... (their logs ``server-A.log`` ... in ``logs``). Killed at the end, if still
    up."""
    started: list[Server] = []
    try:
        for name, extra in zip("ABCD", each, strict=False):
            port = free_port()
            log = logs / f"server-{name}.log"
            # Every test client is 127.0.0.1, one address: the per-address limit off.
            started.append(Server(f"http://127.0.0.1:{port}", launch(
                db, port, "--redis", redis_at, "--rate", "0", *extra, log=log), log))
            wait_ready(started[-1].process, port, log)
        yield started
    finally:
        for server in started:
            server.process.kill()
            server.process.wait(timeout=10)


@contextmanager
def two_servers(db: str, redis_at: str, logs: Path) -> Iterator[tuple[str, str]]:
    """Servers A and B on ``db`` and Redis at ``redis_at``: their addresses."""
    with servers(db, redis_at, logs, (), ()) as (a, b):
        yield a.base, b.base


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def test_a_move_through_b_reaches_a_watcher_on_a_at_once(tmp_path: Path) -> None:
    url = redis_url()
    with postgres_database() as db, two_servers(db, url, tmp_path) as (a, b):
        latencies: list[float] = []
        watched: list[Watcher] = []
        try:
            while len(latencies) < 200:
                created = new_game(b)
                watcher = Watcher(a.replace("http", "ws") + f"/ws/games/{created['id']}")
                watched.append(watcher)
                watcher.wait_for(1, 10)
                player = Player(b, created)
                while not player.over and len(latencies) < 200:
                    version, sent = player.move()
                    latencies.append(watcher.wait_for(version, 5) - sent)
                time.sleep(0.3)  # anything late, or twice, would come meanwhile
                assert watcher.versions == sorted(set(watcher.versions))  # each once
                assert watcher.versions[-1] == player.state["version"]
                assert watcher.versions == list(range(1, player.state["version"] + 1))
        finally:
            for watcher in watched:
                watcher.close()
        p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
        print(f"\nmove through B -> watcher on A, {len(latencies)} moves: "
              f"p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
              f"max {max(latencies) * 1000:.1f} ms, mean "
              f"{statistics.fmean(latencies) * 1000:.1f} ms")
        # Through the database alone the median is 250 ms here (a read of its change
        # log every quarter second, and each move waits for the last); the target is
        # 100 ms at p99 on a quiet machine (measured: 19 ms), and this one may be busy
        # with other tests (browsers): the median tells Redis from the database's change
        # log, and the p99 bound only leaves room for a busy machine (386 ms seen).
        assert p50 < 0.1 and p99 < 1.0


@pytest.fixture
def own_redis() -> Iterator[tuple[str, Any]]:
    """A redis-server of this test's own: its URL, and the functions that kill it
    (SIGKILL) and start it again on the same port."""
    redis_url()  # the Redis tests run only when asked to
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("the Redis tests need redis-server (Debian's redis-server package)")
    port = free_port()
    command = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
               "--appendonly", "no"]
    server: list[subprocess.Popen[bytes]] = []

    def run() -> None:
        server.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))
        client = redis.Redis(port=port)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)
        client.close()

    def kill() -> None:
        server[-1].kill()
        server[-1].wait(timeout=10)

    run()
    yield f"redis://127.0.0.1:{port}/0", (kill, run)
    server[-1].kill()
    server[-1].wait(timeout=10)


def test_redis_lost_mid_game_loses_and_repeats_nothing(
        tmp_path: Path, own_redis: tuple[str, Any]) -> None:
    url, (kill, run) = own_redis
    with postgres_database() as db, two_servers(db, url, tmp_path) as (a, b):
        created = new_game(b)
        watcher = Watcher(a.replace("http", "ws") + f"/ws/games/{created['id']}")
        player = Player(b, created)
        watcher.wait_for(1, 10)

        def play(moves: int, most: float) -> list[float]:
            took = []
            for _ in range(moves):
                version, sent = player.move()
                took.append(watcher.wait_for(version, most) - sent)
            return took

        def redis_ready(base: str) -> bool:
            answer = httpx.get(f"{base}/readyz", timeout=10)
            return answer.status_code == 200 and answer.json()["status"] == "ok"

        try:
            before = play(6, 1.0)
            assert statistics.median(before) < 0.1, before  # through Redis
            # 1. Every connection of both servers cut (CLIENT KILL), moves meanwhile.
            admin = redis.Redis.from_url(url)
            admin.client_kill_filter(_type="pubsub")  # type: ignore[no-untyped-call]
            admin.client_kill_filter(_type="normal", skipme=True)  # type: ignore[no-untyped-call]
            admin.close()
            play(6, 3.0)
            # 2. Redis killed (still ready, degraded: moves go on), then started again
            # empty.
            kill()
            response = httpx.get(f"{a}/readyz", timeout=10)
            assert response.status_code == 200, response.text
            assert response.json() == {"status": "degraded",
                                       "checks": {"database": "ok", "redis": "down"}}
            play(6, 3.0)
            run()
            play(4, 3.0)
            deadline = time.monotonic() + 10
            while not (redis_ready(a) and redis_ready(b)):
                assert time.monotonic() < deadline, "Redis not ready again"
                time.sleep(0.1)
            time.sleep(1.0)  # the servers subscribe again within a second
            after = play(10, 1.0)
            assert statistics.median(after) < 0.1, after  # through Redis again
            time.sleep(1.5)  # the change log's safety read: nothing twice
            final = player.state["version"]
            assert watcher.versions == list(range(1, final + 1))  # all, once each
            state = httpx.get(f"{a}/api/games/{created['id']}").json()
            assert state["version"] == final
        finally:
            watcher.close()
        log = (tmp_path / "server-A.log").read_text()
        assert "Redis is lost" in log and "Redis is back" in log


def test_racing_moves_through_two_servers_one_wins_the_other_gets_409(
        tmp_path: Path) -> None:
    """200 races: the same move for the same version sent through A and B at once;
    exactly one is stored, the other is refused with 409, and nothing is applied twice
    (the game's version grows by one a race, and the record has one action a race)."""
    url = redis_url()
    with postgres_database() as db, two_servers(db, url, tmp_path) as (a, b):
        clients = httpx.Client(base_url=a, timeout=10), httpx.Client(base_url=b, timeout=10)
        barrier = threading.Barrier(2)
        races = 0
        games = []
        try:
            while races < 200:
                created = new_game(a)
                games.append(created["id"])
                tokens = {seat["name"]: seat["token"] for seat in created["seats"]}
                state = clients[0].get(f"/api/games/{created['id']}").json()
                while not state["is_over"] and races < 200:
                    if state["dice"] is None:
                        action: dict[str, Any] = {"type": "roll"}
                    else:
                        action = {"type": "score", "box": next(
                            box for box in BOXES if box in state["choices"])}
                    body = {**action, "expected_version": state["version"]}
                    headers = {"Authorization": f"Bearer {tokens[state['current_player']]}"}
                    answers: list[Any] = [None, None]

                    def send(i: int, body: dict[str, Any] = body,
                             headers: dict[str, str] = headers,
                             game_id: str = created["id"],
                             answers: list[Any] = answers) -> None:
                        barrier.wait()
                        answers[i] = clients[i].post(f"/api/games/{game_id}/actions",
                                                     json=body, headers=headers)

                    threads = [threading.Thread(target=send, args=(i,)) for i in (0, 1)]
                    for thread in threads:
                        thread.start()
                    for thread in threads:
                        thread.join()
                    statuses = sorted(answer.status_code for answer in answers)
                    assert statuses == [200, 409], [answer.text for answer in answers]
                    winner = next(answer for answer in answers if answer.status_code == 200)
                    loser = next(answer for answer in answers if answer.status_code == 409)
                    assert loser.json()["error"]["code"] == "game_changed"
                    assert winner.json()["version"] == state["version"] + 1
                    state = winner.json()
                    races += 1
        finally:
            for client in clients:
                client.close()
        played = 0
        for game_id in games:  # the record: one action a race, through either server
            for base in (a, b):
                record = httpx.get(f"{base}/api/games/{game_id}/record").json()
                state = httpx.get(f"{base}/api/games/{game_id}").json()
                assert len(record["actions"]) == state["steps"] == state["version"] - 1
            played += len(record["actions"])
        assert played == 200


def test_the_last_seat_of_a_public_table_through_two_servers(tmp_path: Path) -> None:
    """20 races: two people join the last seat of a public table at once, one through A
    and one through B: one is seated (201), the other is told the table is full (409
    ``table_full``); a watcher on A sees the game begin whichever server seated the
    winner, and the lobby of either server lists the table as live, not waiting."""
    url = redis_url()
    with postgres_database() as db, two_servers(db, url, tmp_path) as (a, b):
        clients = httpx.Client(base_url=a, timeout=10), httpx.Client(base_url=b, timeout=10)
        barrier = threading.Barrier(2)
        seated_through = {0: 0, 1: 0}
        try:
            for _ in range(20):
                created = clients[0].post("/api/games", json={
                    "rules": "yatzy", "public": True,
                    "seats": [{"name": "Ann"}, {"open": True}]}).json()
                game_id = created["id"]
                watcher = Watcher(a.replace("http", "ws") + f"/ws/games/{game_id}")
                try:
                    watcher.wait_for(1, 10)
                    answers: list[Any] = [None, None]

                    def join(i: int, game_id: str = game_id,
                             answers: list[Any] = answers) -> None:
                        barrier.wait()
                        answers[i] = clients[i].post(f"/api/games/{game_id}/join",
                                                     json={"name": ["Bo", "Cy"][i]})

                    threads = [threading.Thread(target=join, args=(i,)) for i in (0, 1)]
                    for thread in threads:
                        thread.start()
                    for thread in threads:
                        thread.join()
                    statuses = [answer.status_code for answer in answers]
                    assert sorted(statuses) == [201, 409], [x.text for x in answers]
                    loser = answers[statuses.index(409)]
                    assert loser.json()["error"]["code"] == "table_full"
                    winner = statuses.index(201)
                    seated_through[winner] += 1
                    watcher.wait_for(2, 5)  # the game begins on A's page too
                    state = clients[1 - winner].get(f"/api/games/{game_id}").json()
                    assert state["players"] == ["Ann", ["Bo", "Cy"][winner]]
                    assert state["phase"] == "person" and state["version"] == 2
                finally:
                    watcher.close()
            for client in clients:
                lobby = client.get("/api/lobby").json()
                assert lobby["waiting"] == [] and len(lobby["live"]) == 20
        finally:
            for client in clients:
                client.close()
        print(f"\nlast seat through A and B at once, 20 races: seated through A "
              f"{seated_through[0]}, through B {seated_through[1]}")


def seats_online(socket: Any, want: dict[str, bool], timeout: float) -> float:
    """Read ``socket`` until a state says each seat of ``want`` is connected or not as
    it says; returns when (else the assertion, with the last seen)."""
    deadline = time.monotonic() + timeout
    seen: dict[str, bool] = {}
    while time.monotonic() < deadline:
        try:
            message = json.loads(socket.recv(timeout=max(0.01, deadline - time.monotonic())))
        except TimeoutError:
            break
        if message["type"] == "state":
            seen = {seat["name"]: seat["connected"] for seat in message["state"]["seats"]}
            if seen == want:
                return time.monotonic()
    raise AssertionError(f"never {want} in {timeout} s (last seen {seen})")


def test_a_seat_connected_to_the_other_server_shows_online(tmp_path: Path) -> None:
    """Ann's seat talks to A, Bo's to B: each sees the other online (the news travels
    through Redis), and Bo leaving B shows him offline on A at once; a watcher on A sees
    both seats as they are."""
    url = redis_url()
    with postgres_database() as db, two_servers(db, url, tmp_path) as (a, b):
        created = new_game(a)
        game_id = created["id"]
        tokens = {seat["name"]: seat["token"] for seat in created["seats"]}

        def seat_url(base: str, name: str) -> str:
            return base.replace("http", "ws", 1) + f"/ws/games/{game_id}?token={tokens[name]}"

        with connect(seat_url(a, "Ann"), open_timeout=10) as ann:
            seats_online(ann, {"Ann": True, "Bo": False}, 10)
            with connect(seat_url(b, "Bo"), open_timeout=10) as bo:
                seats_online(bo, {"Ann": True, "Bo": True}, 5)  # B heard of Ann on A
                joined = time.monotonic()
                seats_online(ann, {"Ann": True, "Bo": True}, 5)  # A hears of Bo on B
                assert time.monotonic() - joined < 2
                watch = a.replace("http", "ws", 1) + f"/ws/games/{game_id}"
                with connect(watch, open_timeout=10) as watcher:
                    seats_online(watcher, {"Ann": True, "Bo": True}, 5)
            left = time.monotonic()
            seats_online(ann, {"Ann": True, "Bo": False}, 5)
            assert time.monotonic() - left < 2  # told, not waited out
