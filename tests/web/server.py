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


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "LANG": "C.UTF-8"}
    process = subprocess.Popen(
        [sys.executable, "-m", "yatzy.cli", "serve", "--port", str(port), "--db", str(db),
         "--pace", "0"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError(f"the server did not start: {process.stderr and process.stderr.read()!r}")
