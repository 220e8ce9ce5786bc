"""The server's numbers for Prometheus, at ``/metrics``: actions by kind and how long
they took, open websockets, games held in memory, computers' steps, errors by code, and
how long the garbage collector paused the process, by generation.

One process (``yatzy serve``): each app has its own registry (a test makes many apps in
one process), and ``/metrics`` says this process's numbers, which ``yatzy_process_info``
names by its ``pid``, beside the standard ``process_*`` numbers (CPU seconds, memory,
open files).

The processes of ``yatzy serve --workers N`` share a port, so a scrape reaches
whichever one answers: there ``/metrics`` says the whole server's numbers, whoever
answers. Each worker writes its numbers to files in a folder they share
(``$PROMETHEUS_MULTIPROC_DIR``, which ``yatzy serve`` makes for them and removes when
it stops: prometheus_client's multiprocess mode), and the one that answers adds them
up: counts and histograms summed over every worker that ever ran (one that died
included, so that no count goes back), the websockets open and games held summed over
the workers alive, and per worker alive (label ``pid``) ``yatzy_process_info`` and
``yatzy_worker_cpu_seconds`` and ``yatzy_worker_resident_memory_bytes`` in place of the
standard ``process_*`` (which would be one worker's). The supervisor marks a worker that
died (:func:`prometheus_client.multiprocess.mark_process_dead`), so its live numbers
leave the sums. The games held and a worker's CPU and memory are written every
:data:`REFRESH` seconds.

>>> metrics = Metrics(games_held=lambda: 3)
>>> metrics.action("roll", 0.004)
>>> metrics.error("game_changed")
>>> text = metrics.render().decode()
>>> 'yatzy_actions_total{kind="roll"} 1.0' in text, "yatzy_games_held 3.0" in text
(True, True)
>>> 'yatzy_errors_total{code="game_changed"} 1.0' in text
True
"""

from __future__ import annotations

import gc
import os
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.multiprocess import MultiProcessCollector

#: The media type of :meth:`Metrics.render`'s text.
CONTENT_TYPE = CONTENT_TYPE_LATEST

#: prometheus_client's setting: the folder where the processes of one server write their
#: numbers (set: the numbers are the server's, every process's added up).
SHARED_ENV = "PROMETHEUS_MULTIPROC_DIR"

#: Seconds between two writes of a worker's games held, CPU and memory (with
#: :data:`SHARED_ENV`).
REFRESH = 1.0

#: Upper bounds (seconds) of the action latency histogram's buckets: an action is a
#: commit, milliseconds on a quiet server; the target is 100 ms at the 99th percentile.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                   10.0)

#: Upper bounds (seconds) of the garbage collector's pause histogram: a young collection
#: of a busy server takes milliseconds; every pause holds up every game of the process.
GC_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.015, 0.02, 0.03, 0.05, 0.1, 0.25, 0.5,
              1.0)
#: Pauses kept for the next scrape at most (older ones are dropped uncounted).
GC_KEPT = 10_000


def _watch_gc(metrics: Metrics) -> Callable[[str, dict[str, Any]], None]:
    """Time each garbage collection of this process into ``metrics`` (added to
    :data:`gc.callbacks`; :meth:`Metrics.close` takes it out). The callback only notes
    the pause: a histogram takes a lock, which the collection may have interrupted, so
    the pauses are counted when the numbers are next read."""
    owner = weakref.ref(metrics)
    started = [0.0]

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        kept = owner()
        if kept is not None:
            kept._pauses.append((info["generation"], time.perf_counter() - started[0]))

    gc.callbacks.append(callback)
    return callback


class Metrics:
    """This process's numbers; ``games_held`` says how many games it holds now. With
    ``shared`` (a folder: by default ``$PROMETHEUS_MULTIPROC_DIR``, which must then be
    set before prometheus_client is imported), :meth:`render` says the numbers of every
    process writing there (see the module); :meth:`close` stops its refreshing thread."""

    def __init__(self, games_held: Callable[[], int], *, shared: str | None = None) -> None:
        self.shared = shared if shared is not None else os.environ.get(SHARED_ENV) or None
        self.registry = CollectorRegistry(auto_describe=True)
        self._games_held = games_held
        self._actions = Counter(
            "yatzy_actions", "Actions of people applied and stored, by kind "
            "(roll, reroll, score, undo)", ["kind"], registry=self.registry)
        self._latency = Histogram(
            "yatzy_action_seconds", "Seconds from an action's request to its answer, the "
            "new version stored, by kind", ["kind"], buckets=LATENCY_BUCKETS,
            registry=self.registry)
        self._websockets = Gauge(
            "yatzy_websockets_open", "Websockets open (seats and watchers)",
            registry=self.registry, multiprocess_mode="livesum")
        self._games = Gauge("yatzy_games_held", "Games in play held in the server's memory",
                            registry=self.registry, multiprocess_mode="livesum")
        self._computer = Counter(
            "yatzy_computer_steps", "Computers' steps played by the server, by kind "
            "(a score ends a turn)", ["kind"], registry=self.registry)
        self._errors = Counter(
            "yatzy_errors", "Errors answered (HTTP and websocket), by code", ["code"],
            registry=self.registry)
        self._gc = Histogram(
            "yatzy_gc_pause_seconds", "Pauses of the process for its garbage collector, by "
            "generation (0 young, 2 full)", ["generation"], buckets=GC_BUCKETS,
            registry=self.registry)
        self._pauses: deque[tuple[int, float]] = deque(maxlen=GC_KEPT)
        self._gc_callback = _watch_gc(self)
        self._by_kind: dict[str, tuple[Counter, Histogram]] = {}
        self._stop = threading.Event()
        if self.shared is None:
            self._games.set_function(lambda: float(games_held()))
            Info("yatzy_process", "The server process these numbers are of",
                 registry=self.registry).info({"pid": str(os.getpid())})
            ProcessCollector(registry=self.registry)
            return
        # Per worker alive: the pid label is the multiprocess collector's.
        Gauge("yatzy_process_info", "The server processes these numbers are of (one "
              "line a worker alive)", registry=self.registry,
              multiprocess_mode="liveall").set(1)
        self._cpu = Gauge("yatzy_worker_cpu_seconds", "CPU seconds a worker has used",
                          registry=self.registry, multiprocess_mode="liveall")
        self._memory = Gauge("yatzy_worker_resident_memory_bytes",
                             "A worker's resident memory", registry=self.registry,
                             multiprocess_mode="liveall")
        self._process = ProcessCollector(registry=None)
        self._refresh()
        threading.Thread(target=self._refreshing, name="yatzy-metrics", daemon=True).start()

    def action(self, kind: str, seconds: float) -> None:
        """A person's action of ``kind`` was stored, ``seconds`` after its request came."""
        counted = self._by_kind.get(kind)
        if counted is None:  # each kind's two children made once, not for every action
            counted = self._by_kind[kind] = (self._actions.labels(kind),
                                             self._latency.labels(kind))
        counted[0].inc()
        counted[1].observe(seconds)

    def computer_step(self, kind: str) -> None:
        """A computer's step of ``kind`` was played and stored here."""
        self._computer.labels(kind).inc()

    def error(self, code: str) -> None:
        """An error with ``code`` was answered."""
        self._errors.labels(code).inc()

    def websocket_opened(self) -> None:
        self._websockets.inc()

    def websocket_closed(self) -> None:
        self._websockets.dec()

    def render(self) -> bytes:
        """Every number in Prometheus's text format: this process's, or with
        :attr:`shared` the server's."""
        if self.shared is None:
            self._count_pauses()
            return generate_latest(self.registry)
        self._refresh()  # this worker's own, as of now
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=self.shared)  # type: ignore[no-untyped-call]
        return generate_latest(registry)

    def _count_pauses(self) -> None:
        """Put the garbage collector's pauses noted since the last time in the histogram."""
        while self._pauses:
            generation, seconds = self._pauses.popleft()
            self._gc.labels(str(generation)).observe(seconds)

    def _refresh(self) -> None:
        """Write this worker's games held, CPU seconds and memory, and its pauses
        (shared numbers)."""
        self._count_pauses()
        self._games.set(float(self._games_held()))
        for family in self._process.collect():
            for sample in family.samples:
                if sample.name == "process_cpu_seconds_total":
                    self._cpu.set(sample.value)
                elif sample.name == "process_resident_memory_bytes":
                    self._memory.set(sample.value)

    def _refreshing(self) -> None:
        while not self._stop.wait(REFRESH):
            try:
                self._refresh()
            except Exception:  # a number left as it was is no failure
                continue

    def close(self) -> None:
        """Stop timing the garbage collector and writing the shared numbers (the app
        stops)."""
        self._stop.set()
        if self._gc_callback in gc.callbacks:
            gc.callbacks.remove(self._gc_callback)
