"""The server's numbers for Prometheus, at ``/metrics``: actions by kind and how long
they took, open websockets, games held in memory, computers' steps, errors by code.

Each app has its own registry (a test makes many apps in one process); the numbers are
this process's, which ``yatzy_process_info`` names by its ``pid`` beside the standard
``process_*`` numbers (CPU seconds, memory, open files): a site with several processes
has Prometheus scrape each one (the processes of ``yatzy serve --workers N`` share a
port: a scrape there reads whichever one answers).

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

import os
from collections.abc import Callable

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

#: The media type of :meth:`Metrics.render`'s text.
CONTENT_TYPE = CONTENT_TYPE_LATEST

#: Upper bounds (seconds) of the action latency histogram's buckets: an action is a
#: commit, milliseconds on a quiet server; the target is 100 ms at the 99th percentile.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                   10.0)


class Metrics:
    """This process's numbers; ``games_held`` says how many games it holds now."""

    def __init__(self, games_held: Callable[[], int]) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._actions = Counter(
            "yatzy_actions", "Actions of people applied and stored, by kind "
            "(roll, reroll, score, undo)", ["kind"], registry=self.registry)
        self._latency = Histogram(
            "yatzy_action_seconds", "Seconds from an action's request to its answer, the "
            "new version stored, by kind", ["kind"], buckets=LATENCY_BUCKETS,
            registry=self.registry)
        self._websockets = Gauge(
            "yatzy_websockets_open", "Websockets open (seats and watchers)",
            registry=self.registry)
        games = Gauge("yatzy_games_held", "Games in play held in this process's memory",
                      registry=self.registry)
        games.set_function(lambda: float(games_held()))
        self._computer = Counter(
            "yatzy_computer_steps", "Computers' steps played by this process, by kind "
            "(a score ends a turn)", ["kind"], registry=self.registry)
        self._errors = Counter(
            "yatzy_errors", "Errors answered (HTTP and websocket), by code", ["code"],
            registry=self.registry)
        Info("yatzy_process", "The server process these numbers are of",
             registry=self.registry).info({"pid": str(os.getpid())})
        ProcessCollector(registry=self.registry)

    def action(self, kind: str, seconds: float) -> None:
        """A person's action of ``kind`` was stored, ``seconds`` after its request came."""
        self._actions.labels(kind).inc()
        self._latency.labels(kind).observe(seconds)

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
        """Every number in Prometheus's text format."""
        return generate_latest(self.registry)
