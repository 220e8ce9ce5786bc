"""A real `yatzy serve` process for the tests that need one."""

from __future__ import annotations

import functools
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import IO, Any

import httpx2 as httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(db: Path | str, port: int, *args: str, log: Path | None = None,
          env: dict[str, str] | None = None) -> ServerProcess:
    """``yatzy serve`` on ``db`` (a path or a URL) and ``port`` with computers at once
    and ``args`` more, once it is ready (``/readyz``); its standard error goes to
    ``log`` when given, else to a file of its own (``process.stderr`` reads it)."""
    return wait_ready(launch(db, port, *args, log=log, env=env), port, log)


def launch(db: Path | str, port: int, *args: str, log: Path | None = None,
           env: dict[str, str] | None = None) -> ServerProcess:
    """``yatzy serve`` as :func:`start` starts it, without waiting for it to be ready
    (several start at once; :func:`wait_ready` each).

    The process runs the command's own ``main`` with these arguments and this
    environment; it is forked from a server of this test process that has imported the
    web app already (:func:`_forkserver`), so that it is ready in a fraction of the two
    seconds the imports take. ``tests/cli/test_serve.py`` starts the command itself."""
    environment = {**os.environ, "LANG": "C.UTF-8", **(env or {})}
    if log is None:
        log = Path(tempfile.mkdtemp(prefix="yatzy-serve-")) / "stderr.log"
    log.touch()
    argv = ["serve", "--port", str(port), "--db", str(db), "--pace", "0", *args]
    process = _forkserver().Process(target=_serve, args=(argv, environment, str(log)),
                                    name=f"yatzy serve :{port}")
    process.start()
    return ServerProcess(process, log)


#: What the server processes' parent imports once (what ``yatzy serve`` imports).
PRELOAD = ["yatzy.cli", "yatzy.cli.serve", "yatzy.web.app", "yatzy.bootstrap",
           "yatzy.storage.migrate", "alembic.command", "uvicorn", "uvicorn.lifespan.on",
           "uvicorn.protocols.http.httptools_impl", "uvicorn.loops.uvloop"]


@functools.cache
def _forkserver() -> Any:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([*PRELOAD, __name__])
    return context


def _serve(argv: list[str], environment: dict[str, str], log: str) -> None:
    """The server process: ``yatzy`` with ``argv`` in ``environment``, its standard
    error appended to ``log``, its standard input and output ``/dev/null``, as a child
    process started with them would have them."""
    for fd, path, flags in ((2, log, os.O_WRONLY | os.O_CREAT | os.O_APPEND),
                            (1, os.devnull, os.O_WRONLY), (0, os.devnull, os.O_RDONLY)):
        opened = os.open(path, flags, 0o644)
        os.dup2(opened, fd)
        os.close(opened)
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace",  # noqa: SIM115
                      closefd=False, buffering=1)
    os.environ.clear()
    os.environ.update(environment)
    from yatzy.cli import main

    sys.exit(main(argv))


class ServerProcess:
    """A server process as :class:`subprocess.Popen` would have it: ``pid``,
    ``poll``, ``wait``, signals, ``returncode``, and ``stderr`` to read (its log)."""

    def __init__(self, process: Any, log: Path) -> None:
        self._process = process
        self.pid: int = process.pid
        self.log = log
        self.stderr: IO[bytes] = log.open("rb")

    @property
    def returncode(self) -> int | None:
        code: int | None = self._process.exitcode
        return code

    def poll(self) -> int | None:
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        if self._process.exitcode is None:
            raise subprocess.TimeoutExpired(f"yatzy serve ({self.pid})", timeout or 0)
        code: int = self._process.exitcode
        return code

    def send_signal(self, sig: int) -> None:
        if self._process.exitcode is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def __del__(self) -> None:
        self.stderr.close()


def wait_ready(process: ServerProcess, port: int,
               log: Path | None = None) -> ServerProcess:
    """``process`` once its server at ``port`` is ready; killed, and AssertionError
    with what it said, when it does not get ready within 90 s."""
    # Starting takes seconds, and far longer on a machine busy with other tests (30 s
    # seen with several servers starting at once); a server that fails ends the wait.
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    process.kill()
    said = process.log.read_text(errors="replace")
    raise AssertionError(f"the server did not start: {said!r}")
