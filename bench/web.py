"""Load test of the web app: many two-seat games played over websockets at once.

    python bench/web.py [--games 500] [--seconds 60] [--think-min 1] [--think-max 3]
                        [--processes N] [--postgres [URL]] [--redis [URL]]

Starts a real server (``yatzy serve`` on 127.0.0.1, a free port, a fresh SQLite file
in a temporary folder, ``--pace 0 --rate 0``), then a load generator in a separate
process (asyncio, ``httpx2`` and ``websockets``) that creates ``--games`` two-seat games
over HTTP, opens one websocket per seat and has every seat play like a person: when it
is its turn it thinks a random ``--think-min``..``--think-max`` seconds, then posts its
next action to the HTTP API, the one write path (roll; sometimes reroll holding the
most common value; score the box worth the most). An action's latency runs from the
moment it is sent to the moment every seat of that game has received the state with the
new version.

The server's rate limit is off (``--rate 0``): every simulated client shares one
address, so the per-address limit would throttle the load generator itself.

With ``--processes N`` it starts N servers, each on its own port, and the two seats of
a game talk to different ones (a seat's socket and its actions go to its server), so
that every move crosses from one process to another: give them ``--postgres`` (a
scratch database on the local server) and ``--redis``, as a site with several processes
runs.

Prints a table: games held at once, sockets, actions, actions a second, latency
(p50, p99, max), each server's memory (VmRSS before and after the games are created,
and per game) and CPU, the CPU per action, errors, and a projection of the machines
100,000 games at once would need at the measured cost per game. Traffic goes to
127.0.0.1 only; every loop is bounded in count and time; the servers, a scratch
database and the temporary folder are removed at the end. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
#: Requests in flight at once while the games are set up (HTTP and websocket opens).
SETUP_CONCURRENCY = 16
#: Kept-alive HTTP connections the players' actions share during play.
PLAY_CONNECTIONS = 64
#: The most messages one socket reads before its reader stops (a bound, never reached).
MAX_MESSAGES_PER_SOCKET = 100_000
#: How often a seat may retry an action the server refused.
MAX_RETRIES = 3
#: The Redis of ``--redis`` without a URL.
REDIS = os.environ.get("YATZY_TEST_REDIS", "redis://127.0.0.1:6379/0")
#: Seconds between the load generator's own samples (loop lag, games held).
SAMPLE_EVERY = 0.1


# --- Small helpers, used by both processes ----------------------------------------------


def raise_open_files() -> tuple[int, int]:
    """Raise the soft limit on open files to the hard limit; the new (soft, hard)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def rss_kib(pid: int) -> int | None:
    """The resident set size of process ``pid`` (VmRSS, KiB), or None if unreadable."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return None


#: The server's histogram of its garbage collector's pauses (``/metrics``).
GC_PAUSES = "yatzy_gc_pause_seconds"


def gc_pauses(base: str) -> dict[str, tuple[dict[float, float], float]]:
    """The server's garbage-collector pauses so far, by generation: the cumulative
    buckets (upper bound in seconds -> count) and the sum of seconds; empty when its
    ``/metrics`` cannot be read."""
    from prometheus_client.parser import text_string_to_metric_families

    try:
        with urllib.request.urlopen(f"{base}/metrics", timeout=5) as answer:
            text = answer.read().decode()
    except OSError:
        return {}
    buckets: dict[str, dict[float, float]] = {}
    sums: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            generation = sample.labels.get("generation")
            if sample.name == f"{GC_PAUSES}_bucket" and generation is not None:
                buckets.setdefault(generation, {})[float(sample.labels["le"])] = sample.value
            elif sample.name == f"{GC_PAUSES}_sum" and generation is not None:
                sums[generation] = sample.value
    return {g: (buckets[g], sums.get(g, 0.0)) for g in buckets}


def pauses_between(before: dict[str, tuple[dict[float, float], float]],
                   after: dict[str, tuple[dict[float, float], float]]) -> str:
    """The pauses of one server between two reads of :func:`gc_pauses`, by generation:
    how many, their total, and the bucket bounds of the median and of the longest."""
    shown = []
    for generation in sorted(after):
        counts, total = after[generation]
        old_counts, old_total = before.get(generation, ({}, 0.0))
        delta = {le: n - old_counts.get(le, 0.0) for le, n in sorted(counts.items())}
        n = delta.get(float("inf"), 0.0)
        if n <= 0:
            continue
        median = next(le for le, k in delta.items() if k >= n / 2)
        longest = next(le for le, k in delta.items() if k >= n)
        shown.append(f"gen{generation} {n:.0f}x, {1000 * (total - old_total):.0f} ms, "
                     f"p50 <= {bound(median)}, max <= {bound(longest)}")
    return "; ".join(shown) or "none"


def bound(le: float) -> str:
    return "inf" if le == float("inf") else f"{1000 * le:g} ms"


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds process ``pid`` has used, or None if unreadable."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def machine_cpu() -> tuple[float, float]:
    """Seconds of CPU time of the whole machine so far (all cores): busy (not idle and
    not waiting on I/O), and stolen by the hypervisor."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    ticks = os.sysconf("SC_CLK_TCK")
    total = sum(fields[:8])
    idle = fields[3] + fields[4]
    steal = fields[7] if len(fields) > 7 else 0
    return (total - idle) / ticks, steal / ticks


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def percentile(values: Sequence[float], q: float) -> float | None:
    """The ``q``-th percentile (nearest rank) of ``values``, or None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


# --- The load generator (its own process) -----------------------------------------------


@dataclass(eq=False)
class SeatRun:
    """One seat of a game and its websocket, as the load generator plays it."""

    game: GameRun
    name: str
    token: str
    #: The server (its index) this seat's browser talks to: its socket and its actions.
    server: int = 0
    ws: Any = None
    #: The newest version this seat has received, and that state.
    seen: int = -1
    state: dict[str, Any] | None = None
    #: The version this seat last acted on (it acts once per version).
    acted_on: int = -1
    retries: int = 0
    open: bool = False


@dataclass(eq=False)
class Pending:
    """An action sent and not yet seen by every seat of its game."""

    sent: float
    seat: SeatRun
    seen_by_own_seat: bool = False


@dataclass(eq=False)
class GameRun:
    id: str
    seats: list[SeatRun] = field(default_factory=list)
    #: The version an action will produce -> that action.
    pending: dict[int, Pending] = field(default_factory=dict)
    over: bool = False


@dataclass
class Stats:
    latencies_ms: list[float] = field(default_factory=list)
    own_latencies_ms: list[float] = field(default_factory=list)
    create_ms: list[float] = field(default_factory=list)
    connect_ms: list[float] = field(default_factory=list)
    loop_lag_ms: list[float] = field(default_factory=list)
    held_samples: list[int] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    sent: int = 0
    sent_in_window: int = 0
    done: int = 0
    messages: int = 0
    bytes_in: int = 0


class LoadGenerator:
    """Creates the games, opens the sockets, plays, and measures."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.cfg = config
        self.bases: list[str] = config["urls"]
        self.ws_bases = ["ws" + base.removeprefix("http") for base in self.bases]
        self.rng = random.Random(config["seed"])
        self.stats = Stats()
        self.games: list[GameRun] = []
        self.playing = False
        self.stopping = False
        self.http: list[Any] = []  # the players' HTTP clients during play, per server
        self.closing = False
        self.tasks: set[asyncio.Task[None]] = set()
        self.readers: list[asyncio.Task[None]] = []

    # Setting up.

    async def create_game(self, client: Any, index: int) -> GameRun | None:
        body = {"rules": "yatzy", "seats": [{"name": f"A{index}"}, {"name": f"B{index}"}]}
        t = time.perf_counter()
        try:
            answer = await client.post("/api/games", json=body)
        except Exception as error:
            self.stats.errors[f"http create: {type(error).__name__}"] += 1
            return None
        self.stats.create_ms.append((time.perf_counter() - t) * 1000)
        if answer.status_code != 201:
            self.stats.errors[f"http create: status {answer.status_code}"] += 1
            return None
        data = answer.json()
        game = GameRun(data["id"])
        # The seats of a game talk to different servers (when there are several), so
        # that every move crosses from one process to another.
        game.seats = [SeatRun(game, s["name"], s["token"], (index + i) % len(self.bases))
                      for i, s in enumerate(data["seats"])]
        return game

    async def connect(self, seat: SeatRun) -> bool:
        from websockets.asyncio.client import connect

        url = f"{self.ws_bases[seat.server]}/ws/games/{seat.game.id}?token={seat.token}"
        t = time.perf_counter()
        try:
            seat.ws = await connect(
                url, proxy=None, open_timeout=30, max_size=1 << 20,
                compression="deflate" if self.cfg["compression"] else None)
            welcome = json.loads(await asyncio.wait_for(seat.ws.recv(), 30))
        except Exception as error:
            self.stats.errors[f"ws connect: {type(error).__name__}"] += 1
            return False
        self.stats.connect_ms.append((time.perf_counter() - t) * 1000)
        if welcome.get("type") != "welcome" or welcome.get("seat") != seat.name:
            self.stats.errors["ws connect: no welcome for the seat"] += 1
        seat.open = True
        self.readers.append(asyncio.create_task(self.read(seat)))
        return True

    async def set_up_game(self, clients: list[Any], index: int,
                          gate: asyncio.Semaphore) -> None:
        async with gate:
            game = await self.create_game(clients[index % len(clients)], index)
            if game is None:
                return
            self.games.append(game)
            for seat in game.seats:
                await self.connect(seat)

    async def warm_up(self, client: Any) -> None:
        """One game played a step over HTTP and its sockets opened and closed, so that
        the memory baseline is taken after the server's lazy imports."""
        game = await self.create_game(client, 0)
        if game is None:
            return
        answer = await client.post(
            f"/api/games/{game.id}/actions", json={"type": "roll", "expected_version": 1},
            headers={"Authorization": f"Bearer {game.seats[0].token}"})
        if answer.status_code != 200 or answer.json().get("version") != 2:
            self.stats.errors[f"http action: status {answer.status_code}"] += 1
        self.stats.create_ms.clear()
        from websockets.asyncio.client import connect

        for seat in game.seats:
            url = f"{self.ws_bases[seat.server]}/ws/games/{game.id}?token={seat.token}"
            async with connect(url, proxy=None, open_timeout=30) as ws:
                for _ in range(2):
                    await asyncio.wait_for(ws.recv(), 30)
        await asyncio.sleep(0.5)

    # Playing.

    async def read(self, seat: SeatRun) -> None:
        """Read one socket's messages until it closes."""
        from websockets.exceptions import ConnectionClosed

        ws = seat.ws
        for _ in range(MAX_MESSAGES_PER_SOCKET):
            try:
                raw = await ws.recv()
            except ConnectionClosed:
                break
            except Exception as error:
                self.stats.errors[f"ws read: {type(error).__name__}"] += 1
                break
            now = time.perf_counter()
            self.stats.messages += 1
            self.stats.bytes_in += len(raw)
            try:
                message = json.loads(raw)
            except ValueError:
                self.stats.errors["ws read: not JSON"] += 1
                continue
            kind = message.get("type")
            if kind == "state":
                self.on_state(seat, message["state"], now)
            elif kind == "error":
                refusal = message.get("error") or {}
                self.stats.errors[f"server error: {refusal.get('code')}"] += 1
                self.on_refused(seat)
        seat.open = False
        if not self.closing:
            self.stats.errors["socket dropped"] += 1

    def on_state(self, seat: SeatRun, state: dict[str, Any], now: float) -> None:
        version = state["version"]
        if version >= seat.seen:
            seat.seen, seat.state = version, state
        game = seat.game
        if state["is_over"]:
            game.over = True
        if game.pending:
            low = min(s.seen for s in game.seats)
            for target in [v for v in game.pending if v <= seat.seen]:
                action = game.pending[target]
                if action.seat is seat and not action.seen_by_own_seat:
                    action.seen_by_own_seat = True
                    self.stats.own_latencies_ms.append((now - action.sent) * 1000)
                if target <= low:
                    del game.pending[target]
                    self.stats.done += 1
                    self.stats.latencies_ms.append((now - action.sent) * 1000)
        self.maybe_act(seat)

    def on_refused(self, seat: SeatRun) -> None:
        """The server refused this seat's action: think again on the same state."""
        game = seat.game
        game.pending.pop(seat.seen + 1, None)
        if seat.retries < MAX_RETRIES:
            seat.retries += 1
            seat.acted_on = -1
            self.maybe_act(seat)

    def maybe_act(self, seat: SeatRun) -> None:
        state = seat.state
        if (not self.playing or self.stopping or state is None or state["is_over"]
                or state["current_player"] != seat.name or seat.acted_on >= seat.seen
                or not seat.open):
            return
        if self.stats.sent >= self.cfg["max_actions"]:
            return
        seat.acted_on = seat.seen
        task = asyncio.create_task(self.act(seat, seat.seen))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def choose(self, state: dict[str, Any]) -> dict[str, Any]:
        """A person's simple play: roll; sometimes keep the most common value and
        reroll the rest; else score the box worth the most."""
        dice: list[int] | None = state["dice"]
        if dice is None:
            return {"type": "roll"}
        if state["rolls_left"] > 0 and self.rng.random() < self.cfg["reroll"]:
            counts = Counter(dice)
            keep = max(counts, key=lambda d: (counts[d], d))
            hold = [i for i, d in enumerate(dice) if d == keep]
            if len(hold) < len(dice):
                return {"type": "reroll", "hold": hold}
        choices: dict[str, int] = state["choices"]
        box = max(choices, key=lambda b: choices[b])
        return {"type": "score", "box": box}

    async def act(self, seat: SeatRun, version: int) -> None:
        await asyncio.sleep(self.rng.uniform(self.cfg["think_min"], self.cfg["think_max"]))
        if self.stopping or seat.seen != version or not seat.open or seat.state is None:
            return
        if self.stats.sent >= self.cfg["max_actions"]:
            return
        action = self.choose(seat.state) | {"expected_version": version}
        seat.game.pending[version + 1] = Pending(time.perf_counter(), seat)
        self.stats.sent += 1
        self.stats.sent_in_window += 1
        try:
            status, _ = await self.http[seat.server].request(
                "POST", f"/api/games/{seat.game.id}/actions",
                {"Authorization": f"Bearer {seat.token}"}, action)
            if status != 200:
                self.stats.errors[f"http action: status {status}"] += 1
                seat.game.pending.pop(version + 1, None)
        except Exception as error:
            self.stats.errors[f"http action: {type(error).__name__}"] += 1
            seat.game.pending.pop(version + 1, None)

    async def sample(self, until: float) -> None:
        """Measure this process's own event-loop lag and the games held, until
        ``until`` (a bounded loop)."""
        steps = int((until - time.perf_counter()) / SAMPLE_EVERY) + 2
        for _ in range(max(steps, 0)):
            if time.perf_counter() >= until:
                return
            t = time.perf_counter()
            await asyncio.sleep(SAMPLE_EVERY)
            self.stats.loop_lag_ms.append((time.perf_counter() - t - SAMPLE_EVERY) * 1000)
            self.stats.held_samples.append(
                sum(1 for g in self.games if all(s.open for s in g.seats)))

    async def run(self) -> dict[str, Any]:
        import httpx2 as httpx

        cfg = self.cfg
        pids: list[int] = cfg["server_pids"]
        limits = httpx.Limits(max_connections=SETUP_CONCURRENCY,
                              max_keepalive_connections=SETUP_CONCURRENCY)
        out: dict[str, Any] = {}
        async with contextlib.AsyncExitStack() as stack:
            clients = [await stack.enter_async_context(httpx.AsyncClient(
                base_url=base, trust_env=False, timeout=30, limits=limits))
                for base in self.bases]
            for client in clients:
                await self.warm_up(client)
            out["rss_before_kib"] = [rss_kib(pid) for pid in pids]
            gate = asyncio.Semaphore(SETUP_CONCURRENCY)
            t = time.perf_counter()
            setup = asyncio.gather(*(self.set_up_game(clients, i + 1, gate)
                                     for i in range(cfg["games"])))
            try:
                await asyncio.wait_for(setup, cfg["setup_timeout"])
            except TimeoutError:
                self.stats.errors["setup timed out"] += 1
            out["setup_seconds"] = time.perf_counter() - t
        await asyncio.sleep(1.0)  # let the presence broadcasts settle
        # The load generator's own garbage collections pause every game it measures (a
        # young collection among the 2,000 sockets' objects took up to 90 ms): readied
        # as the servers' are.
        from yatzy.cli.serve import settle_heap

        settle_heap()
        out["rss_after_create_kib"] = [rss_kib(pid) for pid in pids]
        out["sockets"] = sum(1 for g in self.games for s in g.seats if s.open)
        out["games_created"] = len(self.games)

        # Play for --seconds: actions over HTTP (a pool of kept-alive connections, as
        # many browsers would hold; a light client, so that the load generator takes
        # little of the cores the servers run on), states over the websockets.
        from light_http import Pool

        self.http = [Pool(base, PLAY_CONNECTIONS) for base in self.bases]
        # Read before the CPU figures start and after they end (a read costs the server).
        paused = [await asyncio.to_thread(gc_pauses, base) for base in self.bases]
        cpu_servers, cpu_self = [cpu_seconds(pid) for pid in pids], time.process_time()
        machine = machine_cpu()
        start = time.perf_counter()
        until = start + cfg["seconds"]
        self.playing = True
        for game in self.games:
            for seat in game.seats:
                self.maybe_act(seat)
        await self.sample(until)
        self.stopping = True
        window = time.perf_counter() - start
        out["server_cpu_percent"] = [
            None if before is None or after is None else 100 * (after - before) / window
            for before, after in zip(cpu_servers, [cpu_seconds(pid) for pid in pids],
                                     strict=True)]
        out["client_cpu_percent"] = 100 * (time.process_time() - cpu_self) / window
        busy, steal = (b - a for a, b in zip(machine, machine_cpu(), strict=True))
        out["machine_busy_percent"] = 100 * busy / window
        out["machine_steal_percent"] = 100 * steal / window
        out["window_seconds"] = window
        out["load_average_end_of_play"] = load_average()
        out["gc_pauses"] = [pauses_between(before, await asyncio.to_thread(gc_pauses, base))
                            for before, base in zip(paused, self.bases, strict=True)]

        # Drain: the actions sent before the end get their states, or time out.
        drain_until = time.perf_counter() + cfg["drain"]
        while time.perf_counter() < drain_until and any(g.pending for g in self.games):
            await asyncio.sleep(0.05)
        for http in self.http:
            http.close()
        late = sum(len(g.pending) for g in self.games)
        if late:
            self.stats.errors["action not seen by every seat in time"] += late
        out["rss_after_play_kib"] = [rss_kib(pid) for pid in pids]
        out["games_over"] = sum(1 for g in self.games if g.over)

        # Close everything, bounded.
        self.closing = True
        for task in list(self.tasks):
            task.cancel()
        gate = asyncio.Semaphore(64)

        async def close(seat: SeatRun) -> None:
            async with gate:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(seat.ws.close(), 5)

        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(
                *(close(s) for g in self.games for s in g.seats if s.ws is not None)), 30)
        for reader in self.readers:
            reader.cancel()
        await asyncio.gather(*self.readers, *self.tasks, return_exceptions=True)

        s = self.stats
        out.update(
            latencies_ms=s.latencies_ms, own_latencies_ms=s.own_latencies_ms,
            create_ms=s.create_ms, connect_ms=s.connect_ms,
            loop_lag_ms=s.loop_lag_ms, held_min=min(s.held_samples, default=0),
            errors=dict(s.errors), sent=s.sent, sent_in_window=s.sent_in_window,
            done=s.done, messages=s.messages, bytes_in=s.bytes_in)
        return out


def worker(config: dict[str, Any], pipe: Connection) -> None:
    """The load generator's process: play, then send the figures up ``pipe``."""
    config["nofile"] = raise_open_files()
    loop_name = "asyncio"
    try:
        import uvloop

        runner: Any = uvloop.run
        loop_name = "uvloop"
    except ImportError:
        runner = asyncio.run
    try:
        result = runner(LoadGenerator(config).run())
        result["client_loop"] = loop_name
        result["client_nofile"] = config["nofile"]
        pipe.send(("result", result))
    except BaseException as error:
        pipe.send(("failed", f"{type(error).__name__}: {error}"))
        raise
    finally:
        pipe.close()


# --- The server and the report (the main process) ---------------------------------------


def server_command(port: int, db: Path | str, redis: str | None = None) -> list[str]:
    """``yatzy serve`` from this interpreter's environment."""
    script = Path(sys.executable).with_name("yatzy")
    start = [str(script)] if script.exists() else [sys.executable, "-m", "yatzy.cli"]
    return [*start, "serve", "--host", HOST, "--port", str(port), "--db", str(db),
            "--pace", "0", "--rate", "0", *(["--redis", redis] if redis else [])]


def wait_healthy(url: str, server: subprocess.Popen[bytes], timeout: float) -> None:
    import httpx2 as httpx

    deadline = time.monotonic() + timeout
    with httpx.Client(trust_env=False, timeout=2) as client:
        for _ in range(int(timeout / 0.1) + 1):
            if server.poll() is not None:
                raise RuntimeError(f"the server stopped (exit {server.returncode})")
            with contextlib.suppress(httpx.HTTPError):
                if client.get(f"{url}/healthz").status_code == 200:
                    return
            if time.monotonic() > deadline:
                break
            time.sleep(0.1)
    raise RuntimeError(f"no answer from {url}/healthz in {timeout:.0f} s")


def stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)


def each(values: list[Any], show: Any) -> str:
    return " / ".join(show(v) for v in values)


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def mib(kib: int | None) -> str:
    return "-" if kib is None else f"{kib / 1024:.1f} MiB"


def server_cpu(result: dict[str, Any]) -> float:
    """The CPU the servers used during play, in all (% of one core)."""
    return sum(x or 0 for x in result["server_cpu_percent"])


def total_kib(values: list[int | None]) -> int | None:
    return None if any(v is None for v in values) else sum(v or 0 for v in values)


def machine_row(result: dict[str, Any]) -> str:
    """The whole machine's busy CPU during play, and what other processes took."""
    busy = result["machine_busy_percent"]
    others = busy - server_cpu(result) - result["client_cpu_percent"]
    return (f"{busy:.0f}% of one core of {os.cpu_count()} (other processes {others:.0f}%, "
            f"steal {result['machine_steal_percent']:.0f}%)")


def report(args: argparse.Namespace, command: list[str], result: dict[str, Any],
           load_before: str, load_after: str) -> None:
    lat = result["latencies_ms"]
    own = result["own_latencies_ms"]
    before = total_kib(result["rss_before_kib"])
    after = total_kib(result["rss_after_create_kib"])
    per_game = (None if before is None or after is None or not result["games_created"]
                else (after - before) / result["games_created"])
    errors: dict[str, int] = result["errors"]
    total_errors = sum(errors.values())
    window = result["window_seconds"]
    p99 = percentile(lat, 99)
    held = result["held_min"]

    print()
    print(f"yatzy web load test: {args.games} two-seat games, {args.seconds:g} s of play, "
          f"{args.processes} server process{'es' if args.processes > 1 else ''} on "
          f"{'PostgreSQL' if args.postgres is not None else 'SQLite'}"
          f"{' + Redis' if args.redis else ''}")
    print(f"  server : {' '.join(command[-14:])}")
    print("           rate limit OFF (--rate 0) for the load generator: every simulated "
          "client shares 127.0.0.1")
    print(f"  clients: one process, {result['client_loop']}, think "
          f"{args.think_min:g}-{args.think_max:g} s, reroll chance {args.reroll:g}, "
          f"permessage-deflate {'on' if args.compression else 'off'}")
    print(f"  os.cpu_count() = {os.cpu_count()}; load average before {load_before}, "
          f"end of play {result['load_average_end_of_play']}, after {load_after}")
    print(f"  open files (soft, hard): client {tuple(result['client_nofile'])}, server "
          f"{resource.getrlimit(resource.RLIMIT_NOFILE)} (inherited)")
    print()
    rows = [
        ("games held (concurrent, min over play)",
         f"{held} of {args.games} asked ({result['games_created']} created)"),
        ("websockets open", f"{result['sockets']}"),
        ("setup (create + connect)", f"{result['setup_seconds']:.1f} s; create p50/p99 "
         f"{ms(percentile(result['create_ms'], 50))}/{ms(percentile(result['create_ms'], 99))}"
         f" ms, connect p50/p99 {ms(percentile(result['connect_ms'], 50))}/"
         f"{ms(percentile(result['connect_ms'], 99))} ms"),
        ("actions sent / completed", f"{result['sent']} / {result['done']}"),
        ("actions/s", f"{result['sent_in_window'] / window:.1f}"),
        ("latency to all seats p50 (ms)", ms(percentile(lat, 50))),
        ("latency to all seats p99 (ms)", ms(p99)),
        ("latency to all seats max (ms)", ms(max(lat, default=None))),
        ("latency to acting seat p50/p99 (ms)",
         f"{ms(percentile(own, 50))} / {ms(percentile(own, 99))}"),
        ("messages received", f"{result['messages']} ({result['bytes_in'] / 1e6:.1f} MB)"),
        ("server RSS before games (each)", each(result["rss_before_kib"], mib)),
        ("server RSS after games created (each)",
         each(result["rss_after_create_kib"], mib)),
        ("server RSS after play (each)", each(result["rss_after_play_kib"], mib)),
        ("server RSS per game (all servers)",
         "-" if per_game is None else f"{per_game:.1f} KiB"),
        ("server GC pauses during play (each)", " / ".join(result["gc_pauses"])),
        ("server CPU during play (each)", each(
            result["server_cpu_percent"],
            lambda x: "-" if x is None else f"{x:.0f}%") + " of one core"),
        ("server CPU per action (ms, all servers)", "-" if not result["sent_in_window"]
         else f"{10 * server_cpu(result) * window / result['sent_in_window']:.2f}"),
        ("load generator CPU during play", f"{result['client_cpu_percent']:.0f}% of one core"),
        ("machine CPU busy during play (all)", machine_row(result)),
        ("load generator loop lag p99/max (ms)",
         f"{ms(percentile(result['loop_lag_ms'], 99))} / "
         f"{ms(max(result['loop_lag_ms'], default=None))}"),
        ("games finished", f"{result['games_over']}"),
        ("errors", f"{total_errors}"),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"| {'figure'.ljust(width)} | value")
    print(f"|{'-' * (width + 2)}|{'-' * 40}")
    for name, value in rows:
        print(f"| {name.ljust(width)} | {value}")
    for kind, count in sorted(errors.items()):
        print(f"|   {kind.ljust(width - 2)} | {count}")
    need = 500 if args.processes == 1 else 1000
    met = held >= need and p99 is not None and p99 < 100 and total_errors == 0
    print()
    print(f"target (>= {need} concurrent two-seat games, p99 < 100 ms, 0 errors): "
          f"{'met' if met else 'missed'}")
    actions = result["sent_in_window"] / window
    if actions and held and per_game is not None:
        # What a game at this pace costs the servers, and so how many machines of this
        # kind (cores, at most 60% busy; memory 24 GiB) 100,000 games at once would need,
        # for the web processes alone (the database and Redis are sized apart).
        core_per_game = server_cpu(result) / 100 / held
        cores = os.cpu_count() or 1
        by_cpu = 100_000 * core_per_game / (0.6 * cores)
        by_memory = 100_000 * per_game / (24 * 1024 * 1024 * 0.6)
        print(f"projection: {1000 * core_per_game:.2f} ms of CPU a second and "
              f"{per_game:.0f} KiB per game held at this pace; 100,000 games at once "
              f"need about {max(by_cpu, by_memory):.0f} machines of {cores} cores "
              f"(CPU: {by_cpu:.1f}, memory: {by_memory:.1f}) for the web processes")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="two-seat games (500)")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of play (60)")
    parser.add_argument("--think-min", type=float, default=1.0, help="seconds (1)")
    parser.add_argument("--think-max", type=float, default=3.0, help="seconds (3)")
    parser.add_argument("--reroll", type=float, default=0.35,
                        help="chance a seat rerolls when it may (0.35)")
    parser.add_argument("--max-actions", type=int, default=1_000_000,
                        help="actions sent at most, in all (1000000)")
    parser.add_argument("--setup-timeout", type=float, default=300.0,
                        help="seconds to create the games and open the sockets (300)")
    parser.add_argument("--drain", type=float, default=10.0,
                        help="seconds the last actions may take to reach every seat (10)")
    parser.add_argument("--no-compression", dest="compression", action="store_false",
                        help="don't offer permessage-deflate (browsers do)")
    parser.add_argument("--seed", type=int, default=1, help="the players' choices")
    parser.add_argument("--processes", type=int, default=1,
                        help="server processes, each on its port (1); a game's two seats "
                             "talk to different ones")
    parser.add_argument("--postgres", nargs="?", const="", default=None, metavar="URL",
                        help="play on a scratch PostgreSQL database made on this server "
                             "(default $YATZY_TEST_POSTGRES or the local one), not SQLite")
    parser.add_argument("--redis", nargs="?", const=REDIS, default=None, metavar="URL",
                        help=f"the servers' Redis (default {REDIS}); needed to hear each "
                             "other at once")
    args = parser.parse_args(argv)
    if not (0 < args.games <= 20_000 and 0 < args.seconds <= 3600
            and 0 <= args.think_min <= args.think_max <= 60 and 1 <= args.processes <= 16):
        parser.error("want 0 < --games <= 20000, 0 < --seconds <= 3600, "
                     "0 <= --think-min <= --think-max <= 60, 1 <= --processes <= 16")

    soft, _hard = raise_open_files()  # the server inherits it
    need = 2 * args.games + 100
    if soft < need:
        print(f"warning: {soft} open files allowed, {need} wanted", file=sys.stderr)

    folder = Path(tempfile.mkdtemp(prefix="yatzy-bench-web-"))
    with contextlib.ExitStack() as scratch:
        db: Path | str = folder / "games.sqlite3"
        if args.postgres is not None:
            db = args.postgres or scratch.enter_context(scratch_postgres())
        return run_servers(args, folder, db)


def scratch_postgres() -> contextlib.AbstractContextManager[str]:
    """A new PostgreSQL database for the run, dropped after it (as the tests make)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests.services import postgres_database

    return postgres_database()


def run_servers(args: argparse.Namespace, folder: Path, db: Path | str) -> int:
    """Start ``--processes`` servers on ``db``, play, report; stop them and remove
    ``folder`` whatever happens."""
    servers: list[subprocess.Popen[bytes]] = []
    logs: list[Any] = []
    process: Any = None
    try:
        urls, commands = [], []
        for number in range(args.processes):
            port = free_port()
            urls.append(f"http://{HOST}:{port}")
            commands.append(server_command(port, db, args.redis))
            logs.append((folder / f"server-{number}.log").open("wb"))
            print(f"starting {' '.join(commands[-1])}", flush=True)
            servers.append(subprocess.Popen(commands[-1], stdout=logs[-1],
                                            stderr=subprocess.STDOUT,
                                            stdin=subprocess.DEVNULL, cwd=folder))
            # One at a time: the first migrates a new database, the others find it so.
            wait_healthy(urls[-1], servers[-1], 60)
        command = commands[0]
        load_before = load_average()

        config = {
            "urls": urls, "server_pids": [server.pid for server in servers],
            "games": args.games,
            "seconds": args.seconds, "think_min": args.think_min,
            "think_max": args.think_max, "reroll": args.reroll,
            "max_actions": args.max_actions, "setup_timeout": args.setup_timeout,
            "drain": args.drain, "compression": args.compression, "seed": args.seed,
        }
        context = multiprocessing.get_context("spawn")
        receive, send = context.Pipe(duplex=False)
        generator = context.Process(target=worker, args=(config, send), daemon=True)
        generator.start()
        process = generator
        send.close()
        budget = args.setup_timeout + args.seconds + args.drain + 120
        if not receive.poll(budget):
            raise RuntimeError(f"the load generator gave no result in {budget:.0f} s")
        kind, result = receive.recv()
        if kind != "result":
            raise RuntimeError(f"the load generator failed: {result}")
        for server in servers:
            if server.poll() is not None:
                result["errors"]["server exited"] = result["errors"].get(
                    "server exited", 0) + 1
        load_after = load_average()
        report(args, command, result, load_before, load_after)
        return 0
    except Exception as error:
        print(f"bench/web.py: {error}", file=sys.stderr)
        for log_file in sorted(folder.glob("server-*.log")):
            print(log_file.read_text(errors="replace")[-3000:], file=sys.stderr)
        return 1
    finally:
        try:
            if process is not None:
                process.join(10)
                if process.is_alive():
                    process.terminate()
                    process.join(5)
        finally:
            for server in servers:
                stop(server)
            for log in logs:
                log.close()
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
