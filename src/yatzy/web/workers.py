"""The supervisor of ``yatzy serve --workers N``: uvicorn's, which starts the worker
processes on one socket, starts one again when it dies and stops them all, and which
here also keeps their numbers for ``/metrics`` in one folder (prometheus_client's
multiprocess mode, :mod:`yatzy.web.metrics`): it makes the folder before the workers
start, marks each worker that dies or is stopped as dead there (its live numbers, the
websockets open and games held, leave the sums; its counts stay), and removes the
folder when it stops.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from socket import socket

from prometheus_client.multiprocess import mark_process_dead
from uvicorn.config import Config
from uvicorn.supervisors import Multiprocess

from yatzy.web.metrics import SHARED_ENV

log = logging.getLogger(__name__)


@contextmanager
def shared_metrics() -> Iterator[str]:
    """A new folder for the workers' numbers, named in ``$PROMETHEUS_MULTIPROC_DIR``
    for the workers started meanwhile (they inherit the environment); removed after,
    and the variable as it was."""
    folder = tempfile.mkdtemp(prefix="yatzy-metrics-")
    before = os.environ.get(SHARED_ENV)
    os.environ[SHARED_ENV] = folder
    try:
        yield folder
    finally:
        if before is None:
            os.environ.pop(SHARED_ENV, None)
        else:
            os.environ[SHARED_ENV] = before
        shutil.rmtree(folder, ignore_errors=True)


class Supervisor(Multiprocess):
    """uvicorn's supervisor that marks its workers dead in the metrics ``folder`` (see
    the module) as they go: killed, died, replaced (SIGHUP) or fewer (SIGTTOU)."""

    def __init__(self, config: Config, sockets: list[socket], folder: str) -> None:
        super().__init__(config, sockets)
        self.folder = folder

    def _pids(self) -> set[int]:
        return {p.pid for p in self.processes if p.pid is not None}

    def _mark_gone(self, before: set[int]) -> None:
        for pid in before - self._pids():
            try:
                mark_process_dead(pid, self.folder)  # type: ignore[no-untyped-call]
            except OSError as exc:  # its numbers stay in the sums: no failure
                log.warning("The numbers of worker %d could not be marked dead: %s", pid, exc)

    def keep_subprocess_alive(self) -> None:
        before = self._pids()
        super().keep_subprocess_alive()
        self._mark_gone(before)

    def restart_all(self) -> None:
        before = self._pids()
        super().restart_all()
        self._mark_gone(before)

    def handle_ttou(self) -> None:
        before = self._pids()
        super().handle_ttou()
        self._mark_gone(before)
