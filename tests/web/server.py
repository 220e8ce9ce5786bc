"""A real `yatzy serve` process for the tests that need one."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start(db: Path | str, port: int, *args: str, log: Path | None = None,
          env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """``yatzy serve`` on ``db`` (a path or a URL) and ``port`` with computers at once
    and ``args`` more, once it is ready (``/readyz``); its standard error goes to
    ``log`` when given (a pipe fills up and stops a server that logs much)."""
    return wait_ready(launch(db, port, *args, log=log, env=env), port, log)


def launch(db: Path | str, port: int, *args: str, log: Path | None = None,
           env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """``yatzy serve`` as :func:`start` starts it, without waiting for it to be ready
    (several start at once; :func:`wait_ready` each)."""
    environment = {**os.environ, "LANG": "C.UTF-8", **(env or {})}
    stderr = subprocess.PIPE if log is None else log.open("ab")
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "yatzy.cli", "serve", "--port", str(port), "--db",
             str(db), "--pace", "0", *args], env=environment, stdout=subprocess.DEVNULL,
            stderr=stderr)
    finally:
        if log is not None:
            stderr.close()  # type: ignore[union-attr]


def wait_ready(process: subprocess.Popen[bytes], port: int,
               log: Path | None = None) -> subprocess.Popen[bytes]:
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
        time.sleep(0.1)
    process.kill()
    said = process.stderr.read() if process.stderr else (log.read_text() if log else "")
    raise AssertionError(f"the server did not start: {said!r}")
